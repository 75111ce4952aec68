#include "check.h"

#include "args.h"
#include "connectflags.h"
#include "rules.h"
#include "statsflags.h"

#include "core/common/bytewriter.h"
#include "core/common/clock.h"
#include "core/limiter/decisionjson.h"
#include "core/limiter/redislimiter.h"
#include "core/redis/endpoint.h"
#include "core/redis/errors.h"
#include "core/rules/overridematcher.h"
#include "core/stats/statsflusher.h"
#include "core/stats/statsrecorder.h"

#include <QJsonObject>
#include <QRegularExpression>

#include <cstdio>

namespace sluice::cli {

namespace {

const QString command = QStringLiteral("check");

// The largest subject accepted: far above any real one, far below Redis' 512 MB key limit.
constexpr qsizetype maxSubjectBytes = 1 << 20;
constexpr qint64 maxCount = 10'000'000;

int usage(const QString &message)
{
    return fail(command, message + usageOf(command), exitUsage);
}

Result<Policy> policyFromArgs(const Args &args)
{
    auto invalid = [](const QString &m) { return Error::make(Error::Kind::Invalid, m); };
    if (!args.has("algorithm")) {
        return invalid(QStringLiteral("--algorithm is required (fixed_window, sliding_log, "
                                      "sliding_counter, token_bucket, leaky_bucket, gcra)"));
    }
    const auto a = algorithm::fromName(args.text("algorithm"));
    if (!a) {
        return invalid(QStringLiteral("--algorithm '%1' is unknown; expected one of "
                                      "fixed_window, sliding_log, sliding_counter, "
                                      "token_bucket, leaky_bucket, gcra")
                           .arg(bytes::printable(args.raw("algorithm"))));
    }
    Policy p;
    p.algorithm = *a;
    if (args.has("id")) {
        p.id = args.text("id");
        static const QRegularExpression idRe(QStringLiteral("^[A-Za-z0-9._-]{1,64}$"));
        if (!idRe.match(p.id).hasMatch()) {
            return invalid(QStringLiteral("--id '%1' must be 1 to 64 of A-Z a-z 0-9 . _ -")
                               .arg(bytes::printable(args.raw("id"))));
        }
    }
    if (args.has("key-prefix")) {
        p.keyPrefix = args.raw("key-prefix");
    }
    const QString name = algorithm::name(*a);
    if (algorithm::isWindow(*a)) {
        for (const char *wrong : {"rate", "burst"}) {
            if (args.has(wrong)) {
                return invalid(QStringLiteral("--%1 does not apply to %2, which takes --limit "
                                              "and --window")
                                   .arg(QLatin1String(wrong), name));
            }
        }
        if (!args.has("limit") || !args.has("window")) {
            return invalid(QStringLiteral("%1 needs --limit N and --window W (e.g. --limit 3 "
                                          "--window 5s)")
                               .arg(name));
        }
        auto limit = integerFlag(args, "limit", 1, duration::maxExact - 1);
        if (!limit) {
            return limit.error();
        }
        auto window = duration::parseUs(args.text("window"));
        if (!window) {
            return invalid(QStringLiteral("--window: %1").arg(window.error().message));
        }
        p.limit = *limit;
        p.windowUs = *window;
    } else {
        for (const char *wrong : {"limit", "window"}) {
            if (args.has(wrong)) {
                return invalid(QStringLiteral("--%1 does not apply to %2, which takes --rate "
                                              "and --burst")
                                   .arg(QLatin1String(wrong), name));
            }
        }
        if (!args.has("rate") || !args.has("burst")) {
            return invalid(QStringLiteral("%1 needs --rate R and --burst B (e.g. --rate 10/s "
                                          "--burst 20)")
                               .arg(name));
        }
        auto rate = duration::parseRate(args.text("rate"));
        if (!rate) {
            return invalid(QStringLiteral("--rate: %1").arg(rate.error().message));
        }
        auto burst = integerFlag(args, "burst", 1, duration::maxExact - 1);
        if (!burst) {
            return burst.error();
        }
        p.rate = *rate;
        p.burst = *burst;
    }
    if (auto v = p.validate(); !v) {
        return invalid(v.error().message);
    }
    return p;
}

QString toText(const Decision &d, const QByteArray &key)
{
    auto ms = [](qint64 v) { return QStringLiteral("%1 ms").arg(v); };
    QString s = d.allowed ? QStringLiteral("allowed") : QStringLiteral("denied ");
    s += QStringLiteral("  remaining %1/%2").arg(d.remaining).arg(d.limit);
    if (!d.allowed) {
        s += QStringLiteral("  retry after %1")
                 .arg(d.retryAfterMs < 0 ? QStringLiteral("never (cost above capacity)")
                                         : ms(d.retryAfterMs));
    }
    s += QStringLiteral("  reset after %1").arg(ms(d.resetAfterMs));
    if (d.delayMs > 0) {
        s += QStringLiteral("  delay %1").arg(ms(d.delayMs));
    }
    return s + QStringLiteral("  key %1").arg(bytes::printable(key));
}

void out(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
}

} // namespace

int check(const QList<QByteArray> &argv)
{
    auto parsed = Args::parse(argv, {{"url", true},
                                     {"rules", true},
                                     {"rule", true},
                                     {"from-redis", false},
                                     {"algorithm", true},
                                     {"limit", true},
                                     {"window", true},
                                     {"rate", true},
                                     {"burst", true},
                                     {"id", true},
                                     {"key-prefix", true},
                                     {"subject", true},
                                     {"cost", true},
                                     {"count", true},
                                     {"now-us", true},
                                     {"no-stats", false},
                                     {"json", false}});
    if (!parsed) {
        return usage(parsed.error().message);
    }
    const Args &args = *parsed;
    if (!args.positional().isEmpty()) {
        return usage(QStringLiteral("unexpected argument '%1'")
                         .arg(bytes::printable(args.positional().first())));
    }
    if (!args.has("url")) {
        return usage(QStringLiteral("--url is required (redis://host:port)"));
    }
    auto endpoint = endpointFromArgs(args, command);
    if (!endpoint && endpoint.error().kind == Error::Kind::Timeout) {
        return fail(command, endpoint.error().message, exitRuntime);
    }
    if (!endpoint) {
        return usage(endpoint.error().message);
    }
    // The policy: a rule of a rule file or of the RuleStore, or given inline.
    std::optional<Policy> fromRules;
    std::optional<Rule> ruleOfSet; // the rule decided by, for its overrides
    bool shadowRule = false; // a shadow rule's denials count as shadow-denied in the statistics
    if (args.has("rules") || args.has("from-redis") || args.has("rule")) {
        for (const char *inlineFlag :
             {"algorithm", "limit", "window", "rate", "burst", "id", "key-prefix"}) {
            if (args.has(inlineFlag)) {
                return usage(QStringLiteral("--%1 is part of an inline policy; with --rules or "
                                            "--from-redis the rule gives it")
                                 .arg(QLatin1String(inlineFlag)));
            }
        }
        if (!args.has("rule")) {
            return usage(QStringLiteral("--rule ID is required with --rules or --from-redis"));
        }
        int code = exitOk;
        auto loaded = loadRulesForCommand(args, command, &code);
        if (!loaded) {
            return code;
        }
        const Rule *rule = loaded->set.find(args.text("rule"));
        if (rule == nullptr) {
            QStringList ids;
            for (const Rule &r : loaded->set.rules) {
                ids << r.id;
            }
            return usage(QStringLiteral("--rule '%1' is not in %2 (it has: %3)")
                             .arg(bytes::printable(args.raw("rule")), loaded->origin,
                                  ids.isEmpty() ? QStringLiteral("no rules")
                                                : ids.join(QStringLiteral(", "))));
        }
        if (!rule->enabled && !args.has("json")) {
            fail(command,
                 QStringLiteral("note: rule '%1' is disabled; deciding as if it were enabled")
                     .arg(rule->id),
                 exitOk);
        }
        fromRules = rule->policy();
        ruleOfSet = *rule;
        shadowRule = rule->shadow;
    }
    auto policy = fromRules ? Result<Policy>(*fromRules) : policyFromArgs(args);
    if (!policy) {
        return usage(policy.error().message);
    }
    if (!args.has("subject")) {
        return usage(QStringLiteral("--subject is required (the client IP, user id, ... the "
                                    "limit applies to)"));
    }
    const QByteArray subject = args.raw("subject");
    if (subject.isEmpty()) {
        return usage(QStringLiteral("--subject must not be empty"));
    }
    if (subject.size() > maxSubjectBytes) {
        return usage(QStringLiteral("--subject is %1 bytes; at most %2 bytes are accepted")
                         .arg(subject.size())
                         .arg(maxSubjectBytes));
    }
    qint64 cost = 1;
    if (args.has("cost")) {
        auto c = integerFlag(args, "cost", 0, duration::maxExact - 1);
        if (!c) {
            return usage(c.error().message + QStringLiteral(" (0 peeks without consuming)"));
        }
        cost = *c;
    }
    qint64 count = 1;
    if (args.has("count")) {
        auto c = integerFlag(args, "count", 1, maxCount);
        if (!c) {
            return usage(c.error().message);
        }
        count = *c;
    }
    std::optional<qint64> nowUs;
    if (args.has("now-us")) {
        auto n = integerFlag(args, "now-us", 0, duration::maxExact - 1);
        if (!n) {
            return usage(n.error().message);
        }
        nowUs = *n;
    }

    auto connection = Connection::open(*endpoint);
    if (!connection) {
        return fail(command, connection.error().message, exitRuntime);
    }
    RedisLimiter limiter(std::move(*connection));
    // Every decision counts in the per-rule statistics (core/stats), written once a second and
    // the rest when the flusher goes out of scope, on every return path. Decisions at an
    // injected --now-us are tests and simulations, not traffic: not counted.
    stats::StatsRecorder recorder;
    std::optional<stats::StatsFlusher> flusher;
    if (!nowUs && !args.has("no-stats")) {
        flusher.emplace(*endpoint, &recorder);
        flusher->start();
    }
    // A per-subject override of the rule: allow and deny answer here, without Redis; a limit
    // of its own decides under its own key.
    const qint64 matchUs = nowUs ? *nowUs : SystemClock().nowUs();
    // Lives as long as `hit`, which points into it.
    const rules::OverrideMatcher matcher =
        ruleOfSet ? rules::OverrideMatcher(ruleOfSet->overrides, matchUs)
                  : rules::OverrideMatcher();
    const rules::OverrideMatcher::Hit hit = matcher.match(subject, matchUs);
    if (hit && hit.override->action == Override::Action::Limit) {
        policy = rules::overridePolicy(*ruleOfSet, *hit.override);
        if (cost > policy->capacity()) {
            return usage(QStringLiteral("--cost %1 is above %2, the capacity of the override "
                                        "for %3")
                             .arg(cost)
                             .arg(policy->capacity())
                             .arg(hit.override->describeMatch()));
        }
    }
    const QByteArray key = hit && hit.override->action == Override::Action::Limit
                               ? rules::overrideKeyFor(*ruleOfSet, subject)
                               : policy->keyFor(subject);
    const Request request{&*policy, key, cost, nowUs, 0};
    const bool json = args.has("json");
    const QByteArray overrideAction =
        hit ? Override::actionName(hit.override->action).toUtf8() : QByteArray();
    const QByteArray overrideMatch = hit ? hit.override->describeMatch().toUtf8() : QByteArray();
    auto jsonOf = [&](const Decision &d) {
        QByteArray out;
        {
            bytes::ByteWriter w(out, 256 + key.size());
            DecisionJsonExtras extras;
            extras.overrideAction = overrideAction;
            extras.overrideMatch = overrideMatch;
            writeDecisionJson(w, d, key, extras);
        }
        return out;
    };
    auto textOf = [&](const Decision &d) {
        QString line = toText(d, key);
        if (hit) {
            line += QStringLiteral("  override %1 (%2)")
                        .arg(QString::fromUtf8(overrideAction), QString::fromUtf8(overrideMatch));
        }
        return line;
    };
    const bool array = args.has("count");
    // With --count and --json the decisions form one array, streamed as they come (--count
    // may be ten million) and closed even when a later chunk fails, so stdout stays valid JSON.
    qint64 printed = 0;
    auto closeArray = [&] {
        if (json && array) {
            out(printed == 0 ? QByteArray("[]\n") : QByteArray("]\n"));
        }
    };
    // Pipelined in chunks: one round trip per 64 decisions, in order.
    constexpr qint64 chunk = 64;
    std::vector<Request> batch;
    const bool answeredHere = hit && hit.override->action != Override::Action::Limit;
    for (qint64 done = 0; done < count;) {
        const qint64 n = std::min(chunk, count - done);
        batch.assign(size_t(n), request);
        // allow / deny overrides: Redis is not asked.
        auto results = answeredHere
                           ? Result<std::vector<Result<Decision>>>(std::vector<Result<Decision>>(
                                 size_t(n), rules::overrideDecision(*policy, hit.override->action,
                                                                    matchUs, hit.endUs)))
                           : limiter.decideBatch(batch);
        if (!results) {
            closeArray();
            return fail(command, results.error().message, exitRuntime);
        }
        for (auto &r : *results) {
            if (!r) {
                closeArray();
                // Redis refusing now (writes: OOM, MISCONF; anything: LOADING, READONLY, ...)
                // is a runtime failure, not a bad request.
                const Error &e = r.error();
                const bool writes = redis::isWriteRefusedReply(e);
                const bool now = writes || redis::isUnavailableReply(e);
                const bool bad = e.kind == Error::Kind::Reply && !now;
                return fail(command,
                            writes ? QStringLiteral("Redis refuses writes now, so the decision "
                                                    "could not be made: %1")
                                         .arg(e.message)
                                   : e.message,
                            bad ? exitUsage : exitRuntime);
            }
            if (flusher) {
                recorder.record(policy->id, subject, *r, shadowRule);
            }
            if (!json) {
                out((textOf(*r) + QLatin1Char('\n')).toUtf8());
            } else if (array) {
                out((printed == 0 ? QByteArray("[") : QByteArray(",")) + jsonOf(*r));
            } else {
                out(jsonOf(*r) + '\n');
            }
            ++printed;
        }
        done += n;
    }
    closeArray();
    // The statistics' last write: a failure is said once, the decisions stand.
    if (flusher) {
        flusher->stop();
        StatsReporter(command).update(flusher->status());
    }
    return exitOk;
}

} // namespace sluice::cli
