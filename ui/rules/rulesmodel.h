#pragma once

#include "core/rules/rule.h"

#include "ui/common/tablemodel.h"

namespace sluice::ui {

// The Rules page's table: one row per Rule value of the working set, in the set's order, and
// where each row lives ("file rules.yaml", "Redis v7", "unsaved"). GUI thread only; the page
// changes it through the calls below (whole-set swaps reset the model, single rows emit precise
// insert / remove / dataChanged signals).
class RulesModel : public TableModel
{
    Q_OBJECT
public:
    enum Column {
        IdColumn,
        AlgorithmColumn,
        LimitColumn,
        ScopeColumn,
        RouteColumn,
        FlagsColumn,
        WhereColumn,
        ColumnCount
    };
    enum Role {
        RuleIdRole = Qt::UserRole + 1, // QString: the rule's id, whatever the column
        SortRole,                      // a value that sorts the column the way it reads
    };

    explicit RulesModel(QObject *parent = nullptr);

    const RuleSet &set() const { return m_set; }
    const Rule &rule(int row) const { return m_set.rules[size_t(row)]; }
    QString where(int row) const { return m_where.value(row); }
    int rowOf(const QString &id) const; // -1: no such rule

    // Swaps the whole set in; every row gets `where`.
    void reset(RuleSet set, const QString &where);
    void setBasedOn(std::optional<qint64> version) { m_set.basedOn = version; }
    void setAllWhere(const QString &where);
    void replaceRule(int row, const Rule &rule, const QString &where);
    void insertRule(int row, const Rule &rule, const QString &where);
    void removeRule(int row);

    // "fixed window", "token bucket", ... (translated) for the table and the editor.
    static QString algorithmText(Algorithm a);
    // "shadow", "disabled", "shadow, disabled" or empty.
    static QString flagsText(const Rule &rule);

private:
    int count() const override { return int(m_set.rules.size()); }
    QStringList titles() const override;
    QVariant cell(const QModelIndex &index, int role) const override;

    RuleSet m_set;
    QStringList m_where; // parallel to m_set.rules
};

} // namespace sluice::ui
