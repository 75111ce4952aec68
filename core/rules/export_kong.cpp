#include "exportsteps.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sluice::rules::exporting {

namespace {

// Kong's rate-limiting plugin increments its counters only for the requests it lets through:
// a rule with count_rejected is listed under "<rule> count_rejected" in `skipped`.
void kongCountingNote(const Rule &r, QList<Export::Skipped> &skipped)
{
    if (!r.countRejected) {
        return;
    }
    skipped.append({QStringLiteral("%1 count_rejected").arg(r.id),
                    QStringLiteral("true: Kong's rate-limiting plugin counts only the requests "
                                   "it lets through; left out")});
}

} // namespace

// Kong's rate-limiting plugin (OSS). policy "local": the export carries no connection details,
// so it cannot name a Redis; switch to policy "redis" and add the redis_* fields by hand to
// share counters between nodes. JSON has no comments: the rule id travels in the tags.
Export exportKong(const RuleSet &set)
{
    Export out;
    QJsonArray plugins;
    for (const Rule &r : set.rules) {
        auto skip = [&](const QString &reason) { out.skipped.append({r.id, reason}); };
        if (QString why = commonSkipReason(r); !why.isEmpty()) {
            skip(why);
            continue;
        }
        if (r.shadow) {
            skip(QStringLiteral("shadow: Kong's rate-limiting plugin has no dry run; exported, "
                                "the rule would block instead of only recording"));
            continue;
        }
        if (QString why = windowSkipReason(r, QStringLiteral("Kong rate-limiting"));
            !why.isEmpty()) {
            skip(why);
            continue;
        }
        QJsonObject config;
        config.insert(QLatin1String(unitFor(r.windowUs)), double(r.limit));
        switch (r.scope.kind) {
        case Scope::Kind::Global:
            // One counter per service, i.e. one for the route when the plugin is on a route.
            config.insert(QStringLiteral("limit_by"), QStringLiteral("service"));
            break;
        case Scope::Kind::Ip:
            config.insert(QStringLiteral("limit_by"), QStringLiteral("ip"));
            break;
        case Scope::Kind::User:
            // The authenticated Kong consumer (Kong falls back to the IP without one).
            config.insert(QStringLiteral("limit_by"), QStringLiteral("consumer"));
            break;
        case Scope::Kind::Header:
            config.insert(QStringLiteral("limit_by"), QStringLiteral("header"));
            config.insert(QStringLiteral("header_name"), r.scope.name);
            break;
        case Scope::Kind::Param:
            skip(QStringLiteral("scope param:%1: Kong rate-limiting limits by consumer, "
                                "credential, ip, service, header or path, not by query "
                                "parameter")
                     .arg(r.scope.name));
            continue;
        }
        config.insert(QStringLiteral("policy"), QStringLiteral("local"));
        QJsonObject plugin;
        plugin.insert(QStringLiteral("name"), QStringLiteral("rate-limiting"));
        plugin.insert(QStringLiteral("config"), config);
        plugin.insert(QStringLiteral("tags"),
                      QJsonArray{QStringLiteral("sluice"), QStringLiteral("sluice-rule:") + r.id});
        plugins.append(plugin);
        skipOnChange(out.skipped, r, QStringLiteral("Kong"));
        kongCountingNote(r, out.skipped);
        // Overrides of one user: a plugin on that Kong consumer (a consumer's plugin wins over
        // the route's): rate-limiting with the override's limit, or request-termination 429
        // for deny. Kong has no "unlimited" rate-limiting: allow is left out, as are networks
        // and globs (Kong scopes plugins to consumers by name) and every other scope.
        for (size_t j = 0; j < r.overrides.size(); ++j) {
            const Override &o = r.overrides[j];
            if (r.scope.kind != Scope::Kind::User || o.kind != Override::Kind::Subject) {
                skipOverride(out.skipped, r, j,
                             QStringLiteral("Kong scopes plugins to consumers: only an exact "
                                            "subject of a user-scoped rule maps to one; left "
                                            "out"));
                continue;
            }
            if (o.action == Override::Action::Allow) {
                skipOverride(out.skipped, r, j,
                             QStringLiteral("Kong rate-limiting has no unlimited setting; left "
                                            "out (remove the plugin for that consumer instead)"));
                continue;
            }
            QJsonObject p;
            p.insert(QStringLiteral("consumer"),
                     QJsonObject{{QStringLiteral("username"), o.pattern}});
            QJsonArray tags{QStringLiteral("sluice"), QStringLiteral("sluice-rule:") + r.id,
                            QStringLiteral("sluice-override")};
            if (o.expiresUs != 0) {
                tags.append(QStringLiteral("sluice-expires:") + formatTimestampUs(o.expiresUs));
            }
            p.insert(QStringLiteral("tags"), tags);
            if (o.action == Override::Action::Deny) {
                p.insert(QStringLiteral("name"), QStringLiteral("request-termination"));
                p.insert(QStringLiteral("config"),
                         QJsonObject{{QStringLiteral("status_code"), 429},
                                     {QStringLiteral("message"),
                                      QStringLiteral("denied by an override of %1").arg(r.id)}});
            } else {
                Rule limited = r;
                limited.limit = o.limit;
                limited.windowUs = o.windowUs;
                if (QString why = windowSkipReason(limited, QStringLiteral("Kong rate-limiting"));
                    !why.isEmpty()) {
                    skipOverride(out.skipped, r, j, why);
                    continue;
                }
                QJsonObject c = config;
                c.remove(QLatin1String(unitFor(r.windowUs)));
                c.insert(QLatin1String(unitFor(o.windowUs)), double(o.limit));
                p.insert(QStringLiteral("name"), QStringLiteral("rate-limiting"));
                p.insert(QStringLiteral("config"), c);
            }
            plugins.append(p);
        }
    }
    out.text = QJsonDocument(plugins).toJson(QJsonDocument::Indented);
    return out;
}

} // namespace sluice::rules::exporting
