#pragma once

#include <QLabel>

namespace sluice::ui {

// A one-line label that never forces its width on the layout and never cuts its text
// silently: when the text does not fit it ends in "…" and the tooltip holds the whole text
// (a tooltip given with setToolTip() is kept instead). For titles, help lines and details that
// must stay on one line at the first-start size.
class ElidedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);
    explicit ElidedLabel(const QString &text, QWidget *parent = nullptr);

    // Shadows QLabel::setText (not virtual): call it through an ElidedLabel pointer.
    void setText(const QString &text);
    // A tooltip of the caller's own (empty: the full text when elided).
    void setOwnToolTip(const QString &tip);
    // The text does not fit and is drawn shortened.
    bool isElided() const;

    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void updateTip();

    QString m_ownTip;
};

} // namespace sluice::ui
