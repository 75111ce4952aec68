#pragma once

#include "core/stats/stats.h"

#include "ui/common/tablemodel.h"

#include <QList>

namespace sluice::ui {

// "Top subjects by traffic" of one rule over the Monitor page's window: requests, denied and
// the denied share, busiest first (the order StatsReader::readTopSubjects returns). Whole
// snapshots swapped in by setRows(). GUI thread.
class TopSubjectsModel : public RowsModel<stats::TopSubject>
{
    Q_OBJECT
public:
    enum Column { SubjectColumn, RequestsColumn, DeniedColumn, DeniedShareColumn, ColumnCount };
    enum Role { SortRole = Qt::UserRole }; // numbers as numbers, for a proxy

    explicit TopSubjectsModel(QObject *parent = nullptr);

    void setRows(QList<stats::TopSubject> rows);

private:
    QStringList titles() const override;
    QVariant cell(const QModelIndex &index, int role) const override;
};

} // namespace sluice::ui
