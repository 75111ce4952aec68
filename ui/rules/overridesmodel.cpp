#include "overridesmodel.h"

#include "core/common/duration.h"

#include <QDateTime>
#include <QLocale>

namespace sluice::ui {

OverridesModel::OverridesModel(QObject *parent)
    : TableModel(parent)
{}

void OverridesModel::setRows(const Rule &rule, const QList<rules::OverrideStore::Stored> &stored)
{
    QList<Row> rows;
    for (const rules::OverrideStore::Stored &s : stored) {
        rows << Row{s.override, true, s.author, s.added};
    }
    for (const Override &o : rule.overrides) {
        rows << Row{o, false, {}, {}};
    }
    resetWith([&] {
        m_rule = rule;
        m_rows = std::move(rows);
    });
}

QVariant OverridesModel::cell(const QModelIndex &index, int role) const
{
    const Row &r = m_rows[index.row()];
    const Override &o = r.override;
    const auto until = [&]() -> QString {
        if (o.expiresUs != 0) {
            return QLocale().toString(QDateTime::fromMSecsSinceEpoch(o.expiresUs / 1000),
                                      QStringLiteral("yyyy-MM-dd HH:mm"));
        }
        if (o.ttlUs != 0) {
            return tr("%1 after loading").arg(duration::formatUs(o.ttlUs));
        }
        return r.stored ? tr("never (no TTL)") : tr("no end");
    };
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case MatchColumn:
            return o.describeMatch();
        case ActionColumn:
            switch (o.action) {
            case Override::Action::Allow:
                return tr("allow: never limited");
            case Override::Action::Deny:
                return tr("deny: always refused");
            case Override::Action::Limit:
                return tr("limit: %1").arg(o.describeAction(m_rule));
            }
            return {};
        case UntilColumn:
            return until();
        case NoteColumn:
            return o.note;
        case FromColumn:
            return r.stored ? tr("stored in Redis") : tr("rule file");
        default:
            return {};
        }
    case Qt::ToolTipRole:
        if (r.stored) {
            return tr("%1: %2, until %3\nStored in Redis by %4 at %5; it ends by itself, or "
                      "remove it here.")
                .arg(o.describeMatch(), o.describeAction(m_rule), until(), r.author, r.added);
        }
        return tr("%1: %2, until %3\nPart of the rule: change it in the rule file, then import "
                  "and push.")
            .arg(o.describeMatch(), o.describeAction(m_rule), until());
    default:
        return {};
    }
}

QStringList OverridesModel::titles() const
{
    return {tr("Matches"), tr("Does"), tr("Until"), tr("Note"), tr("From")};
}

} // namespace sluice::ui
