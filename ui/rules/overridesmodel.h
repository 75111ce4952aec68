#pragma once

#include "core/rules/overridestore.h"
#include "core/rules/rule.h"
#include "ui/common/tablemodel.h"

#include <QList>

namespace sluice::ui {

// The overrides of one rule under the Rules table (CONSOLE.md "Rules"): those of the rule file
// (rule.overrides) and those stored in Redis (OverrideStore), one row each, stored ones first
// as the engine ranks them (a stored override wins over the file's of the same subject). GUI
// thread; setRows() swaps a whole list in.
class OverridesModel : public TableModel
{
    Q_OBJECT
public:
    enum Column { MatchColumn, ActionColumn, UntilColumn, NoteColumn, FromColumn, ColumnCount };

    struct Row
    {
        Override override;
        bool stored = false;
        QString author; // stored: who added it, and when
        QString added;
    };

    explicit OverridesModel(QObject *parent = nullptr);

    void setRows(const Rule &rule, const QList<rules::OverrideStore::Stored> &stored);
    const QList<Row> &rows() const { return m_rows; }

private:
    int count() const override { return int(m_rows.size()); }
    QStringList titles() const override;
    QVariant cell(const QModelIndex &index, int role) const override;

    Rule m_rule;
    QList<Row> m_rows;
};

} // namespace sluice::ui
