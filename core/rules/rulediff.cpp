#include "rulediff.h"

#include <QCoreApplication>
#include <QHash>

namespace sluice::rules {

QList<QPair<QString, QString>> ruleFields(const Rule &r)
{
    const auto yesNo = [](bool b) { return b ? QStringLiteral("true") : QStringLiteral("false"); };
    QList<QPair<QString, QString>> out{
        {QStringLiteral("description"), r.description},
        {QStringLiteral("route"), r.route},
        {QStringLiteral("scope"), r.scope.toString()},
        {QStringLiteral("algorithm"), algorithm::name(r.algorithm)},
    };
    if (algorithm::isWindow(r.algorithm)) {
        out.append({QStringLiteral("limit"), QString::number(r.limit)});
        out.append({QStringLiteral("window"), duration::formatUs(r.windowUs)});
    } else {
        out.append({QStringLiteral("rate"), duration::formatRate(r.rate)});
        out.append({QStringLiteral("burst"), QString::number(r.burst)});
    }
    out.append({QStringLiteral("key_prefix"), QString::fromUtf8(r.keyPrefix)});
    out.append({QStringLiteral("on_redis_error"), onRedisErrorName(r.onRedisError)});
    out.append({QStringLiteral("on_change"), QString::fromLatin1(onchange::name(r.onChange))});
    out.append({QStringLiteral("count_rejected"), yesNo(r.countRejected)});
    out.append({QStringLiteral("shadow"), yesNo(r.shadow)});
    out.append({QStringLiteral("enabled"), yesNo(r.enabled)});
    return out;
}

RuleDiff diffRules(const RuleSet &from, const RuleSet &to)
{
    RuleDiff d;
    QHash<QString, const Rule *> before;
    for (const Rule &r : from.rules) {
        before.insert(r.id, &r);
    }
    QHash<QString, bool> seen;
    for (const Rule &r : to.rules) {
        seen.insert(r.id, true);
        const Rule *old = before.value(r.id);
        if (!old) {
            d.added << r;
            continue;
        }
        if (*old == r) {
            continue;
        }
        RuleDiff::Change c;
        c.id = r.id;
        const auto a = ruleFields(*old);
        const auto b = ruleFields(r);
        QHash<QString, QString> oldValues;
        for (const auto &[name, value] : a) {
            oldValues.insert(name, value);
        }
        const auto shown = [](const QString &v) {
            return v.isEmpty() ? QStringLiteral("\"\"") : v;
        };
        for (const auto &[name, value] : b) {
            const auto it = oldValues.constFind(name);
            if (it == oldValues.cend()) {
                c.fields << QStringLiteral("%1: %2").arg(name, shown(value));
                c.values << RuleDiff::Field{name, QString(), value};
            } else if (*it != value) {
                c.fields << QStringLiteral("%1: %2 → %3").arg(name, shown(*it), shown(value));
                c.values << RuleDiff::Field{name, *it, value};
            }
        }
        if (old->adopt != r.adopt) {
            c.fields << QStringLiteral("adopt: changed");
            c.values << RuleDiff::Field{QStringLiteral("adopt"), QString(), QString()};
        }
        if (c.fields.isEmpty()) {
            c.fields << QCoreApplication::translate("sluice::ui::RuleDiff",
                                                    "(same fields, written differently)");
        }
        d.changed << c;
    }
    for (const Rule &r : from.rules) {
        if (!seen.contains(r.id)) {
            d.removed << r;
        }
    }
    return d;
}

} // namespace sluice::rules
