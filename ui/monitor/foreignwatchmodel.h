#pragma once

#include "core/keys/keywatcher.h"

#include "ui/common/tablemodel.h"

#include <QList>

namespace sluice::ui {

// The Monitor's "Other limiters": the subjects of other libraries' keys (keys/keywatcher.h),
// the most limited first: level, key, layout, now against the limit, admitted and counted per
// second between the two samples. Whole reports swapped in by setReport(). GUI thread.
class ForeignWatchModel : public RowsModel<keys::WatchedSubject>
{
    Q_OBJECT
public:
    enum Column {
        LevelColumn,
        KeyColumn,
        LayoutColumn,
        NowColumn,
        AdmittedColumn,
        CountedColumn,
        ColumnCount
    };

    explicit ForeignWatchModel(QObject *parent = nullptr);

    // The subjects of `report` (its expired keys left out), at most `maxRows`.
    void setReport(const keys::WatchReport &report, int maxRows = 200);

    // "over its limit", "no token left", "blocked": the level in words.
    static QString levelWords(const keys::WatchedSubject &s);
    // "the window restarted between them: at least these": what happened between the samples.
    static QString changeWords(keys::WatchChange c);

private:
    QStringList titles() const override;
    QVariant cell(const QModelIndex &index, int role) const override;
};

} // namespace sluice::ui
