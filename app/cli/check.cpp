#include "check.h"

#include "args.h"
#include "command.h"

#include "core/common/bytewriter.h"
#include "core/common/clock.h"
#include "core/limiter/decisionjson.h"
#include "core/limiter/redislimiter.h"
#include "core/redis/endpoint.h"
#include "core/redis/errors.h"
#include "core/rules/overridematcher.h"

#include <QJsonObject>
#include <QRegularExpression>

#include <array>
#include <cstdio>
#include <optional>
#include <vector>

namespace sluice::cli {

namespace {

const QString command = QStringLiteral("check");

// The largest subject accepted: far above any real one, far below Redis' 512 MB key limit.
constexpr qsizetype maxSubjectBytes = 1 << 20;
constexpr qint64 maxCount = 10'000'000;

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
    const bool window = algorithm::isWindow(*a);
    for (const char *wrong : window ? std::array{"rate", "burst"} : std::array{"limit", "window"}) {
        if (args.has(wrong)) {
            return invalid(QStringLiteral("--%1 does not apply to %2, which takes %3")
                               .arg(QLatin1String(wrong), name,
                                    window ? QStringLiteral("--limit and --window")
                                           : QStringLiteral("--rate and --burst")));
        }
    }
    if (window && (!args.has("limit") || !args.has("window"))) {
        return invalid(QStringLiteral("%1 needs --limit N and --window W (e.g. --limit 3 "
                                      "--window 5s)")
                           .arg(name));
    }
    if (!window && (!args.has("rate") || !args.has("burst"))) {
        return invalid(QStringLiteral("%1 needs --rate R and --burst B (e.g. --rate 10/s "
                                      "--burst 20)")
                           .arg(name));
    }
    auto v = limitValues(args, window);
    if (!v) {
        return v.error();
    }
    v->applyTo(p);
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

// sluice-cli check: options, the policy (a rule or inline), the request, the connection and
// statistics, the override, then the decisions, printed as they come.
class CheckCommand
{
public:
    explicit CheckCommand(const QList<QByteArray> &argv)
        : m_argv(argv)
    {}
    Stop options();
    Stop policyOfRule();
    Stop request();
    Stop connect();
    Stop applyOverride();
    int decideAll();

private:
    Result<std::vector<Result<Decision>>> decideChunk(qint64 n);
    int refused(const Error &e);
    void print(const Decision &d);
    void closeArray();

    const QList<QByteArray> m_argv;
    CommandContext m_context{command};
    std::optional<Policy> m_policy;
    std::optional<Rule> m_rule; // the rule decided by, for its overrides
    bool m_shadowRule = false;  // a shadow rule's denials count as shadow-denied in statistics
    QByteArray m_subject;
    qint64 m_cost = 1;
    qint64 m_count = 1;
    std::optional<qint64> m_nowUs;
    std::optional<RedisLimiter> m_limiter;
    std::optional<CommandStats> m_stats;
    qint64 m_matchUs = 0;
    rules::OverrideMatcher m_matcher; // lives as long as m_hit, which points into it
    rules::OverrideMatcher::Hit m_hit;
    QByteArray m_key;
    QByteArray m_overrideAction;
    QByteArray m_overrideMatch;
    bool m_json = false;
    bool m_array = false; // --count: with --json the decisions form one array
    qint64 m_printed = 0;
};

Stop CheckCommand::options()
{
    if (const Stop s = m_context.parse(m_argv, {{"url", true},
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
                                                {"json", false}})) {
        return s;
    }
    m_json = m_context.args().has("json");
    m_array = m_context.args().has("count");
    return m_context.requireEndpoint();
}

// The policy: a rule of a rule file or of the RuleStore, or given inline.
Stop CheckCommand::policyOfRule()
{
    const Args &args = m_context.args();
    if (args.has("rules") || args.has("from-redis") || args.has("rule")) {
        for (const char *inlineFlag :
             {"algorithm", "limit", "window", "rate", "burst", "id", "key-prefix"}) {
            if (args.has(inlineFlag)) {
                return m_context.usage(QStringLiteral("--%1 is part of an inline policy; with "
                                                      "--rules or --from-redis the rule gives it")
                                           .arg(QLatin1String(inlineFlag)));
            }
        }
        if (!args.has("rule")) {
            return m_context.usage(
                QStringLiteral("--rule ID is required with --rules or --from-redis"));
        }
        LoadedRules loaded;
        if (const Stop s = m_context.loadRules(&loaded)) {
            return s;
        }
        const Rule *rule = loaded.set.find(args.text("rule"));
        if (rule == nullptr) {
            return m_context.usage(
                ruleNotFound(bytes::printable(args.raw("rule")), loaded.origin, loaded.set));
        }
        if (!rule->enabled && !m_json) {
            m_context.fail(
                QStringLiteral("note: rule '%1' is disabled; deciding as if it were enabled")
                    .arg(rule->id),
                exitOk);
        }
        m_policy = rule->policy();
        m_rule = *rule;
        m_shadowRule = rule->shadow;
        return std::nullopt;
    }
    auto policy = policyFromArgs(args);
    if (!policy) {
        return m_context.usage(policy.error().message);
    }
    m_policy = *policy;
    return std::nullopt;
}

// The subject, --cost, --count and --now-us.
Stop CheckCommand::request()
{
    const Args &args = m_context.args();
    if (!args.has("subject")) {
        return m_context.usage(QStringLiteral("--subject is required (the client IP, user id, "
                                              "... the limit applies to)"));
    }
    m_subject = args.raw("subject");
    if (m_subject.isEmpty()) {
        return m_context.usage(QStringLiteral("--subject must not be empty"));
    }
    if (m_subject.size() > maxSubjectBytes) {
        return m_context.usage(QStringLiteral("--subject is %1 bytes; at most %2 bytes are "
                                              "accepted")
                                   .arg(m_subject.size())
                                   .arg(maxSubjectBytes));
    }
    if (args.has("cost")) {
        auto c = integerFlag(args, "cost", 0, duration::maxExact - 1);
        if (!c) {
            return m_context.usage(c.error().message +
                                   QStringLiteral(" (0 peeks without consuming)"));
        }
        m_cost = *c;
    }
    if (args.has("count")) {
        auto c = integerFlag(args, "count", 1, maxCount);
        if (!c) {
            return m_context.usage(c.error().message);
        }
        m_count = *c;
    }
    if (args.has("now-us")) {
        auto n = integerFlag(args, "now-us", 0, duration::maxExact - 1);
        if (!n) {
            return m_context.usage(n.error().message);
        }
        m_nowUs = *n;
    }
    return std::nullopt;
}

// Redis, and the statistics of every decision (core/stats), written once a second and the
// rest when the flusher goes out of scope, on every return path. Decisions at an injected
// --now-us are tests and simulations, not traffic: not counted.
Stop CheckCommand::connect()
{
    const Endpoint &endpoint = *m_context.endpoint();
    auto connection = m_context.open();
    if (!connection) {
        return m_context.fail(connection.error().message, exitRuntime);
    }
    m_limiter.emplace(std::move(*connection));
    m_stats.emplace(endpoint, command, !m_nowUs && !m_context.args().has("no-stats"));
    m_stats->start();
    return std::nullopt;
}

// A per-subject override of the rule: allow and deny answer here, without Redis; a limit of
// its own decides under its own key.
Stop CheckCommand::applyOverride()
{
    m_matchUs = m_nowUs ? *m_nowUs : SystemClock().nowUs();
    if (m_rule) {
        m_matcher = rules::OverrideMatcher(m_rule->overrides, m_matchUs);
    }
    m_hit = m_matcher.match(m_subject, m_matchUs);
    const bool ownLimit = m_hit && m_hit.override->action == Override::Action::Limit;
    if (ownLimit) {
        m_policy = rules::overridePolicy(*m_rule, *m_hit.override);
        if (m_cost > m_policy->capacity()) {
            return m_context.usage(QStringLiteral("--cost %1 is above %2, the capacity of the "
                                                  "override for %3")
                                       .arg(m_cost)
                                       .arg(m_policy->capacity())
                                       .arg(m_hit.override->describeMatch()));
        }
    }
    m_key = ownLimit ? rules::overrideKeyFor(*m_rule, m_subject) : m_policy->keyFor(m_subject);
    if (m_hit) {
        m_overrideAction = Override::actionName(m_hit.override->action).toUtf8();
        m_overrideMatch = m_hit.override->describeMatch().toUtf8();
    }
    return std::nullopt;
}

// Pipelined in chunks: one round trip per 64 decisions, in order. With --count and --json the
// decisions form one array, streamed as they come (--count may be ten million) and closed
// even when a later chunk fails, so stdout stays valid JSON.
int CheckCommand::decideAll()
{
    constexpr qint64 chunk = 64;
    for (qint64 done = 0; done < m_count;) {
        const qint64 n = std::min(chunk, m_count - done);
        auto results = decideChunk(n);
        if (!results) {
            closeArray();
            return m_context.fail(results.error().message, exitRuntime);
        }
        for (auto &r : *results) {
            if (!r) {
                closeArray();
                return refused(r.error());
            }
            if (m_stats->enabled()) {
                m_stats->recorder().record(m_policy->id, m_subject, *r, m_shadowRule);
            }
            print(*r);
        }
        done += n;
    }
    closeArray();
    // The statistics' last write: a failure is said once, the decisions stand.
    m_stats->finish();
    return exitOk;
}

// allow / deny overrides answer here: Redis is not asked.
Result<std::vector<Result<Decision>>> CheckCommand::decideChunk(qint64 n)
{
    if (m_hit && m_hit.override->action != Override::Action::Limit) {
        return std::vector<Result<Decision>>(
            size_t(n),
            rules::overrideDecision(*m_policy, m_hit.override->action, m_matchUs, m_hit.endUs));
    }
    const std::vector<Request> batch(size_t(n), Request{&*m_policy, m_key, m_cost, m_nowUs, 0});
    return m_limiter->decideBatch(batch);
}

// Redis refusing now (writes: OOM, MISCONF; anything: LOADING, READONLY, ...) is a runtime
// failure, not a bad request.
int CheckCommand::refused(const Error &e)
{
    const bool writes = redis::isWriteRefusedReply(e);
    const bool now = writes || redis::isUnavailableReply(e);
    const bool bad = e.kind == Error::Kind::Reply && !now;
    return m_context.fail(writes ? QStringLiteral("Redis refuses writes now, so the decision "
                                                  "could not be made: %1")
                                       .arg(e.message)
                                 : e.message,
                          bad ? exitUsage : exitRuntime);
}

void CheckCommand::print(const Decision &d)
{
    if (!m_json) {
        QString line = toText(d, m_key);
        if (m_hit) {
            line +=
                QStringLiteral("  override %1 (%2)")
                    .arg(QString::fromUtf8(m_overrideAction), QString::fromUtf8(m_overrideMatch));
        }
        out((line + QLatin1Char('\n')).toUtf8());
        ++m_printed;
        return;
    }
    QByteArray json;
    {
        bytes::ByteWriter w(json, 256 + m_key.size());
        DecisionJsonExtras extras;
        extras.overrideAction = m_overrideAction;
        extras.overrideMatch = m_overrideMatch;
        writeDecisionJson(w, d, m_key, extras);
    }
    if (m_array) {
        out((m_printed == 0 ? QByteArray("[") : QByteArray(",")) + json);
    } else {
        out(json + '\n');
    }
    ++m_printed;
}

void CheckCommand::closeArray()
{
    if (m_json && m_array) {
        out(m_printed == 0 ? QByteArray("[]\n") : QByteArray("]\n"));
    }
}

} // namespace

int check(const QList<QByteArray> &argv)
{
    CheckCommand c(argv);
    return runSteps(c,
                    {&CheckCommand::options, &CheckCommand::policyOfRule, &CheckCommand::request,
                     &CheckCommand::connect, &CheckCommand::applyOverride},
                    &CheckCommand::decideAll);
}

} // namespace sluice::cli
