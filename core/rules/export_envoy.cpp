#include "exportsteps.h"

#include <vector>

// envoyproxy/ratelimit's configuration (its YAML; core/rules/envoyformat.h reads it back).

namespace sluice::rules::exporting {

namespace {

QString yamlQuote(const QString &s)
{
    QString out = QStringLiteral("\"");
    for (QChar ch : s) {
        if (ch == QLatin1Char('"') || ch == QLatin1Char('\\')) {
            out += QLatin1Char('\\') + ch;
        } else if (ch.unicode() < 0x20 || ch.unicode() == 0x7f) {
            out += QStringLiteral("\\x%1").arg(ch.unicode(), 2, 16, QLatin1Char('0'));
        } else {
            out += ch;
        }
    }
    return out + QLatin1Char('"');
}

// envoy ratelimit counts denied requests unless its process runs with
// STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true. Returns the header lines that say how to set
// it for the exported rules (as most of them ask; a tie counts, envoy's default), and lists
// each rule that asks the other way under "<rule> count_rejected" in `skipped`.
QStringList envoyCountingNotes(const std::vector<const Rule *> &exported,
                               QList<Export::Skipped> &skipped)
{
    qsizetype counting = 0;
    for (const Rule *r : exported) {
        counting += r->countRejected ? 1 : 0;
    }
    if (exported.empty()) {
        return {};
    }
    const bool stop = counting * 2 < qsizetype(exported.size());
    QStringList head;
    if (stop) {
        head << QStringLiteral("Denied requests: run the ratelimit service with")
             << QStringLiteral("STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true (Sluice's "
                               "count_rejected false; it is one switch")
             << QStringLiteral("for the whole process, and with it a request over one "
                               "descriptor's limit increments none of")
             << QStringLiteral("its descriptors).");
    } else {
        head << QStringLiteral("Denied requests: leave STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT "
                               "unset or false: envoy ratelimit")
             << QStringLiteral("then counts them, as Sluice's count_rejected true does (one "
                               "switch for the whole process).");
    }
    for (const Rule *r : exported) {
        if (r->countRejected == stop) {
            skipped.append(
                {QStringLiteral("%1 count_rejected").arg(r->id),
                 QStringLiteral("%1: envoy ratelimit counts denied requests or not for the "
                                "whole process (STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT), not "
                                "per rule; set as most rules here ask, it %2 this rule's")
                     .arg(r->countRejected ? QStringLiteral("true") : QStringLiteral("false"),
                          stop ? QStringLiteral("does not count") : QStringLiteral("counts"))});
        }
    }
    return head;
}

constexpr qint64 maxRequestsPerUnit = 4294967295; // requests_per_unit is a uint32
const QString envoyName = QStringLiteral("envoyproxy/ratelimit");

// The reason the rule cannot be one descriptor, or empty.
QString envoySkipReason(const Rule &r)
{
    if (QString why = commonSkipReason(r); !why.isEmpty()) {
        return why;
    }
    if (QString why = windowSkipReason(r, envoyName); !why.isEmpty()) {
        return why;
    }
    if (r.limit > maxRequestsPerUnit) {
        return QStringLiteral("limit %1 is above 4294967295, the most requests_per_unit holds")
            .arg(r.limit);
    }
    return {};
}

// The descriptor key of the rule's scope under its generic_key (empty: global, no inner
// descriptor), and the Envoy action that yields it.
struct EnvoyScope
{
    QString innerKey;
    QString action;
};

EnvoyScope envoyScope(const Scope &scope)
{
    switch (scope.kind) {
    case Scope::Kind::Global:
        break;
    case Scope::Kind::Ip:
        return {QStringLiteral("remote_address"), QStringLiteral("remote_address {}")};
    case Scope::Kind::User:
        return {QStringLiteral("user"),
                QStringLiteral("an action that yields (user, <user id>), e.g. request_headers "
                               "from the header your auth layer sets, or metadata")};
    case Scope::Kind::Header:
        return {scope.name, QStringLiteral("request_headers {header_name: %1, descriptor_key: %1}")
                                .arg(yamlQuote(scope.name))};
    case Scope::Kind::Param: {
        const QString key = QStringLiteral("param_") + scope.name;
        return {key, QStringLiteral("an action that yields (%1, <value of query parameter %2>), "
                                    "e.g. query_parameters in recent Envoy versions")
                         .arg(yamlQuote(key), yamlQuote(scope.name))};
    }
    }
    return {};
}

// The rule's comment: summary, description, the actions its route needs, on_redis_error.
QStringList envoyComment(const Rule &r, const EnvoyScope &scope)
{
    QStringList lines{ruleSummary(r)};
    if (const QString d = oneLine(r.description); !d.isEmpty()) {
        lines << d;
    }
    QString actions = QStringLiteral("Envoy rate_limits actions for %1: generic_key "
                                     "{descriptor_value: %2}")
                          .arg(routeText(r), yamlQuote(r.id));
    if (!scope.action.isEmpty()) {
        actions += QStringLiteral(", then ") + scope.action;
    }
    lines << actions;
    if (r.onRedisError == OnRedisError::Deny) {
        lines << QStringLiteral("on_redis_error deny: set failure_mode_deny: true on "
                                "Envoy's rate limit filter (it covers all its rules).");
    } else if (r.onRedisError == OnRedisError::Local) {
        lines << QStringLiteral("on_redis_error local: Envoy has no local fallback; with "
                                "failure_mode_deny false requests pass when the service "
                                "fails.");
    }
    return lines;
}

// rate_limit: unit and requests_per_unit, each line starting with `at`.
QString envoyRateLimit(const QString &at, const char *unit, qint64 perUnit)
{
    return at + QStringLiteral("rate_limit:\n") + at +
           QStringLiteral("  unit: \"%1\"\n").arg(QLatin1String(unit)) + at +
           QStringLiteral("  requests_per_unit: %1\n").arg(perUnit);
}

// Overrides of one subject: a descriptor with that value, which envoy ratelimit matches before
// the key alone (allow: unlimited; deny: 0 per second; limit: its own rate_limit). What envoy
// cannot say is listed in `skipped`.
QString envoyOverrides(const Rule &r, const QString &innerKey, QList<Skipped> &skipped)
{
    QString body;
    const QString at = QStringLiteral("        ");
    for (size_t j = 0; j < r.overrides.size(); ++j) {
        const Override &o = r.overrides[j];
        if (o.kind != Override::Kind::Subject) {
            skipOverride(skipped, r, j,
                         QStringLiteral("envoy descriptors match exact values, not networks or "
                                        "globs; left out"));
            continue;
        }
        QString limitLines;
        if (o.action == Override::Action::Allow) {
            limitLines = at + QStringLiteral("unlimited: true\n");
        } else if (o.action == Override::Action::Deny) {
            limitLines = envoyRateLimit(at, "second", 0);
        } else {
            Rule limited = r;
            limited.limit = o.limit;
            limited.windowUs = o.windowUs;
            if (QString why = windowSkipReason(limited, envoyName);
                !why.isEmpty() || o.limit > maxRequestsPerUnit) {
                skipOverride(skipped, r, j,
                             why.isEmpty() ? QStringLiteral("limit above 4294967295") : why);
                continue;
            }
            limitLines = envoyRateLimit(at, unitFor(o.windowUs), o.limit);
        }
        if (const QString note = expiryNote(o); !note.isEmpty()) {
            body += QStringLiteral("      # override") + note + QLatin1Char('\n');
        }
        body += QStringLiteral("      - key: ") + yamlQuote(innerKey) + QLatin1Char('\n') +
                QStringLiteral("        value: ") + yamlQuote(o.pattern) + QLatin1Char('\n') +
                limitLines;
    }
    return body;
}

// One rule: one descriptor tree under (generic_key, <rule id>): ids are unique, so the trees
// never collide, and the route picks its rule with a generic_key action.
QString envoyDescriptor(const Rule &r, QList<Skipped> &skipped)
{
    const EnvoyScope scope = envoyScope(r.scope);
    QString body = QStringLiteral("\n");
    for (const QString &l : envoyComment(r, scope)) {
        body += QStringLiteral("  # ") + l + QLatin1Char('\n');
    }
    body += QStringLiteral("  - key: \"generic_key\"\n");
    body += QStringLiteral("    value: ") + yamlQuote(r.id) + QLatin1Char('\n');
    QString leaf = QStringLiteral("    ");
    skipOnChange(skipped, r, QStringLiteral("envoy ratelimit"));
    if (!scope.innerKey.isEmpty()) {
        body += QStringLiteral("    descriptors:\n");
        body += envoyOverrides(r, scope.innerKey, skipped);
        body += QStringLiteral("      - key: ") + yamlQuote(scope.innerKey) + QLatin1Char('\n');
        leaf = QStringLiteral("        ");
    }
    body += envoyRateLimit(leaf, unitFor(r.windowUs), r.limit);
    if (r.shadow) {
        body += leaf + QStringLiteral("shadow_mode: true\n");
    }
    return body;
}

} // namespace

Export exportEnvoy(const RuleSet &set)
{
    Export out;
    QString body;
    std::vector<const Rule *> exported;
    for (const Rule &r : set.rules) {
        if (QString why = envoySkipReason(r); !why.isEmpty()) {
            out.skipped.append({r.id, why});
            continue;
        }
        exported.push_back(&r);
        body += envoyDescriptor(r, out.skipped);
    }
    QStringList head = banner(set, QStringLiteral("envoy"),
                              QStringLiteral("envoyproxy/ratelimit service configuration"));
    head << QString()
         << QStringLiteral("One domain; each rule is a descriptor under (generic_key, <rule "
                           "id>), keyed by its scope.")
         << QStringLiteral("Envoy counts calendar-aligned windows; Sluice's fixed window starts "
                           "with its first admitted")
         << QStringLiteral("request: the same number per window, a different start.");
    if (const QStringList counting = envoyCountingNotes(exported, out.skipped);
        !counting.isEmpty()) {
        head << counting;
    }
    QString text = commentBlock(head);
    text += skippedLines(out.skipped, QStringLiteral("envoyproxy/ratelimit cannot express them"));
    text += QStringLiteral("domain: \"sluice\"\n");
    text += body.isEmpty() ? QStringLiteral("descriptors: []\n")
                           : QStringLiteral("descriptors:\n") + body;
    out.text = text.toUtf8();
    return out;
}

} // namespace sluice::rules::exporting
