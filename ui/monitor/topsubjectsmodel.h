#pragma once

#include "core/stats/stats.h"

#include <QAbstractTableModel>
#include <QList>

namespace sluice::ui {

// "Top subjects by traffic" of one rule over the Monitor page's window: requests, denied and
// the denied share, busiest first (the order StatsReader::readTopSubjects returns). Whole
// snapshots swapped in by setRows(). GUI thread.
class TopSubjectsModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { SubjectColumn, RequestsColumn, DeniedColumn, DeniedShareColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole }; // numbers as numbers, for a proxy

    explicit TopSubjectsModel(QObject *parent = nullptr);

    void setRows(QList<stats::TopSubject> rows);
    const QList<stats::TopSubject> &rows() const { return m_rows; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QList<stats::TopSubject> m_rows;
};

} // namespace sluice::ui
