#pragma once

#include "limitedsubject.h"

#include <QAbstractTableModel>
#include <QList>

namespace sluice::ui {

// "Limited right now": one row per denied subject, longest wait first. The worker sends whole
// snapshots; setRows() swaps them in (begin/endResetModel). GUI thread.
class LimitedModel : public QAbstractTableModel
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

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<LimitedSubject> m_rows;
};

} // namespace sluice::ui
