#include "rulesmodel.h"

#include "ui/common/tone.h"

#include <QColor>
#include <QFont>

namespace sluice::ui {

RulesModel::RulesModel(QObject *parent)
    : TableModel(parent)
{}

QString RulesModel::algorithmText(Algorithm a)
{
    switch (a) {
    case Algorithm::FixedWindow:
        return tr("fixed window");
    case Algorithm::SlidingLog:
        return tr("sliding log");
    case Algorithm::SlidingCounter:
        return tr("sliding counter");
    case Algorithm::TokenBucket:
        return tr("token bucket");
    case Algorithm::LeakyBucket:
        return tr("leaky bucket");
    case Algorithm::Gcra:
        break;
    }
    return tr("GCRA");
}

QString RulesModel::flagsText(const Rule &rule)
{
    QStringList flags;
    if (rule.shadow) {
        flags << tr("shadow");
    }
    if (!rule.enabled) {
        flags << tr("disabled");
    }
    return flags.join(QStringLiteral(", "));
}

QVariant RulesModel::cell(const QModelIndex &index, int role) const
{
    const Rule &r = rule(index.row());
    const QString where = m_where.value(index.row());
    if (role == RuleIdRole) {
        return r.id;
    }
    if (role == Qt::DisplayRole || role == SortRole) {
        switch (index.column()) {
        case IdColumn:
            return r.id;
        case AlgorithmColumn:
            return role == SortRole ? QVariant(int(r.algorithm)) : algorithmText(r.algorithm);
        case LimitColumn:
            // The scope has a column of its own: "3 per 5s", not "3 per 5s per IP".
            return r.policy().describe();
        case ScopeColumn:
            return r.scope.toString();
        case RouteColumn:
            return r.route;
        case FlagsColumn:
            return flagsText(r);
        case WhereColumn:
            return where;
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        if (index.column() == FlagsColumn && r.shadow) {
            return tr("Shadow: decisions are made and recorded, requests are never blocked");
        }
        if (index.column() == WhereColumn && where == tr("unsaved")) {
            return tr("Changed here and not yet pushed to Redis or exported to a file");
        }
        // The whole of a cell that may be elided, and the rule's description under it.
        QStringList tip;
        switch (index.column()) {
        case LimitColumn:
            tip << r.describe();
            break;
        case ScopeColumn:
            tip << r.scope.toString();
            break;
        case RouteColumn:
            tip << r.route;
            break;
        case WhereColumn:
            tip << where;
            break;
        default:
            break;
        }
        tip.removeAll(QString());
        if (!r.description.isEmpty()) {
            tip << r.description;
        }
        return tip.isEmpty() ? QVariant() : QVariant(tip.join(u'\n'));
    }
    if (role == Qt::ForegroundRole) {
        if (!r.enabled) {
            return tone::muted();
        }
        if (index.column() == WhereColumn && where == tr("unsaved")) {
            return tone::text(Tone::Warning);
        }
        if (index.column() == FlagsColumn && r.shadow) {
            return tone::violet();
        }
        return {};
    }
    if (role == Qt::FontRole && index.column() == IdColumn) {
        QFont f;
        f.setBold(true);
        return f;
    }
    return {};
}

QStringList RulesModel::titles() const
{
    return {tr("Id"),    tr("Algorithm"), tr("Limit"), tr("Scope"),
            tr("Route"), tr("Flags"),     tr("Where")};
}

int RulesModel::rowOf(const QString &id) const
{
    for (size_t i = 0; i < m_set.rules.size(); ++i) {
        if (m_set.rules[i].id == id) {
            return int(i);
        }
    }
    return -1;
}

void RulesModel::reset(RuleSet set, const QString &where)
{
    beginResetModel();
    m_set = std::move(set);
    m_where = QStringList(qsizetype(m_set.rules.size()), where);
    endResetModel();
}

void RulesModel::setAllWhere(const QString &where)
{
    for (QString &w : m_where) {
        w = where;
    }
    if (!m_where.isEmpty()) {
        Q_EMIT dataChanged(index(0, WhereColumn), index(rowCount() - 1, WhereColumn));
    }
}

void RulesModel::replaceRule(int row, const Rule &rule, const QString &where)
{
    Q_ASSERT(row >= 0 && row < rowCount());
    m_set.rules[size_t(row)] = rule;
    m_where[row] = where;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void RulesModel::insertRule(int row, const Rule &rule, const QString &where)
{
    row = std::clamp(row, 0, rowCount());
    beginInsertRows({}, row, row);
    m_set.rules.insert(m_set.rules.begin() + row, rule);
    m_where.insert(row, where);
    endInsertRows();
}

void RulesModel::removeRule(int row)
{
    Q_ASSERT(row >= 0 && row < rowCount());
    beginRemoveRows({}, row, row);
    m_set.rules.erase(m_set.rules.begin() + row);
    m_where.removeAt(row);
    endRemoveRows();
}

} // namespace sluice::ui
