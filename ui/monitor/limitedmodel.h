#pragma once

#include "limitedsubject.h"

#include "ui/common/tablemodel.h"

#include <QList>

namespace sluice::ui {

// "Limited right now": one row per denied subject, longest wait first. The worker sends whole
// snapshots; setRows() swaps them in (begin/endResetModel). GUI thread.
class LimitedModel : public TableModel
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
    const QList<LimitedSubject> &rows() const { return m_rows; }
    // The row of `key`, or -1.
    int rowOf(const QByteArray &key) const;

private:
    int count() const override { return int(m_rows.size()); }
    QStringList titles() const override;
    QVariant cell(const QModelIndex &index, int role) const override;

    QList<LimitedSubject> m_rows;
};

} // namespace sluice::ui
