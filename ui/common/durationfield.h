#pragma once

#include <QWidget>

#include <optional>

class QLabel;
class QLineEdit;

namespace sluice::ui {

// A duration typed as text ("30m", "1h", "1d"), checked as it is typed: between `shortestUs`
// and `longestUs`, or the error in words below it. The Monitor's Block dialog and the Rules
// page's Add override dialog ask how long an override lasts with it.
class DurationField : public QWidget
{
    Q_OBJECT
public:
    DurationField(qint64 initialUs, qint64 shortestUs, qint64 longestUs, QWidget *parent = nullptr);

    QLineEdit *edit() const { return m_edit; }
    // The duration in µs; nullopt while the text is not one within the bounds.
    std::optional<qint64> us() const;
    bool isValid() const { return us().has_value(); }

Q_SIGNALS:
    void validityChanged(bool valid);

private:
    void check();

    QLineEdit *m_edit;
    QLabel *m_error;
    qint64 m_shortestUs;
    qint64 m_longestUs;
};

} // namespace sluice::ui
