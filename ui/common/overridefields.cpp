#include "overridefields.h"

#include "durationfield.h"

#include <QLabel>
#include <QLineEdit>

namespace sluice::ui {

OverrideFields::OverrideFields(qint64 initialUs, const QString &prefix, QWidget *parent)
{
    constexpr qint64 second = 1'000'000;
    constexpr qint64 longest = 30LL * 24 * 3600 * second;
    duration = new DurationField(initialUs, second, longest, parent);
    duration->edit()->setObjectName(prefix + QStringLiteral("DurationEdit"));
    note = new QLineEdit(parent);
    note->setObjectName(prefix + QStringLiteral("NoteEdit"));
    note->setPlaceholderText(tr("why, for the next on-call (optional)"));
}

QLabel *OverrideFields::intro(const QString &text, QWidget *parent)
{
    auto *what = new QLabel(text, parent);
    what->setWordWrap(true);
    what->setMinimumWidth(420);
    return what;
}

} // namespace sluice::ui
