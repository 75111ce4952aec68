#pragma once

#include <QCoreApplication>
#include <QString>

class QLabel;
class QLineEdit;
class QWidget;

namespace sluice::ui {

class DurationField;

// What every override dialog asks besides whom it is for (the Rules page's Add override, the
// Monitor's Block): a sentence saying what the override does, how long it lasts (a second to
// 30 days, from `initialUs`) and a note for the next on-call. The widgets are named
// `<prefix>DurationEdit` and `<prefix>NoteEdit` for the tests.
struct OverrideFields
{
    Q_DECLARE_TR_FUNCTIONS(OverrideFields)
public:
    OverrideFields(qint64 initialUs, const QString &prefix, QWidget *parent);

    // The dialog's first line: word-wrapped, wide enough to read as a sentence.
    static QLabel *intro(const QString &text, QWidget *parent);

    DurationField *duration;
    QLineEdit *note;
};

} // namespace sluice::ui
