#pragma once

#include "monitorworker.h"

#include <QDialog>

class QLineEdit;

namespace sluice::ui {

class DurationField;

// The Monitor's Block dialog: names the subjects (the first five, then a count), asks how long
// (default MonitorSession::defaultBlockUs, between 1 s and 30 days: a block is a stop-gap, not
// a rule) and for a note; Block emits blockRequested with what was asked.
class BlockDialog : public QDialog
{
    Q_OBJECT
public:
    BlockDialog(QList<OverrideTarget> targets, QWidget *parent = nullptr);

    const QList<OverrideTarget> &targets() const { return m_targets; }

Q_SIGNALS:
    void blockRequested(const QList<sluice::ui::OverrideTarget> &targets, qint64 durationUs,
                        const QString &note);

private:
    QList<OverrideTarget> m_targets;
    DurationField *m_duration;
    QLineEdit *m_note;
};

} // namespace sluice::ui
