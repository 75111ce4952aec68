#pragma once

#include "limitedsubject.h"

#include "ui/common/tablemodel.h"

#include <QList>

namespace sluice::ui {

// "Limited right now": one row per denied subject, longest wait first. The worker sends whole
// snapshots; setRows() swaps them in (begin/endResetModel). GUI thread.
class LimitedModel : public RowsModel<LimitedSubject>
{
    Q_OBJECT
public:
    enum Column { RuleColumn, SubjectColumn, TimeLeftColumn, StateColumn, ColumnCount };
    enum Role {
        KeyRole = Qt::UserRole, // QByteArray: the state key
        RetryInMsRole,          // qint64: the wait when read, ms (-1: never admitted)
    };

    explicit LimitedModel(QObject *parent = nullptr);

    void setRows(QList<LimitedSubject> rows);
    // The row of `key`, or -1.
    int rowOf(const QByteArray &key) const;
    // The row of `subject` on rule `ruleId` (what a selection follows across swaps), or -1.
    int rowOf(const QString &ruleId, const QByteArray &subject) const;
    // The rows are a read from before Redis stopped answering: drawn grey.
    void setStale(bool stale);
    bool isStale() const { return m_stale; }

    // "allowed until 13:05", "blocked until 13:05", "blocked (no end)", "own limit: 100 per
    // 1m": what an override makes of a row (shown as its time left); empty when none decides.
    static QString overrideTag(const LimitedSubject &row);
    // "13:05" today, "Dec 3 13:05" on another day (ms since the epoch, local time).
    static QString endText(qint64 ms);

private:
    QStringList titles() const override;
    QVariant cell(const QModelIndex &index, int role) const override;

    bool m_stale = false;
};

} // namespace sluice::ui
