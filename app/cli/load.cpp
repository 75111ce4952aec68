#include "load.h"

#include "args.h"
#include "command.h"

#include "core/common/plural.h"
#include "core/load/loadgenerator.h"
#include "core/redis/connection.h"
#include "core/redis/endpoint.h"
#include "core/sim/scenario.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <optional>
#include <thread>

namespace sluice::cli {

namespace {

const QString command = QStringLiteral("load");

std::atomic<bool> interrupted{false};

void onLoadInterrupt(int)
{
    interrupted = true;
}

// --pattern: one simulation lab pattern in a compact spelling (see its help). The times and
// rates are checked again, against the duration, when the generator starts.
Result<sim::TrafficPattern> parsePattern(const QString &text)
{
    auto bad = [&](const QString &why) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("--pattern '%1': %2").arg(text, why));
    };
    using K = sim::TrafficPattern::Kind;
    const qsizetype colon = text.indexOf(u':');
    const QString kindName = colon < 0 ? text : text.left(colon);
    const QString rest = colon < 0 ? QString() : text.mid(colon + 1);
    const auto kind = sim::TrafficPattern::kindFromName(kindName);
    if (!kind || *kind == K::Replay) {
        return bad(QStringLiteral("expected constant:RATE, poisson:RATE, ramp:FROM_RATE:TO_RATE or "
                                  "burst:COUNT[@AT][+SPREAD] (a replay needs --scenario)"));
    }
    sim::TrafficPattern p;
    p.kind = *kind;
    switch (*kind) {
    case K::Constant:
    case K::Poisson: {
        auto r = duration::parseRate(rest);
        if (!r) {
            return bad(r.error().message);
        }
        p.rate = *r;
        break;
    }
    case K::Ramp: {
        const QStringList rates = rest.split(u':');
        if (rates.size() != 2) {
            return bad(QStringLiteral("a ramp is ramp:FROM_RATE:TO_RATE, e.g. ramp:1/s:50/s"));
        }
        auto from = duration::parseRate(rates[0]);
        auto to = duration::parseRate(rates[1]);
        if (!from || !to) {
            return bad((from ? to : from).error().message);
        }
        p.fromRate = *from;
        p.toRate = *to;
        break;
    }
    case K::Burst: {
        QString count = rest;
        QString at;
        QString spread;
        if (const qsizetype plus = count.indexOf(u'+'); plus >= 0) {
            spread = count.mid(plus + 1);
            count = count.left(plus);
        }
        if (const qsizetype a = count.indexOf(u'@'); a >= 0) {
            at = count.mid(a + 1);
            count = count.left(a);
        }
        bool ok = false;
        p.count = count.toLongLong(&ok);
        if (!ok || p.count < 1) {
            return bad(QStringLiteral("a burst is burst:COUNT[@AT][+SPREAD] with a positive "
                                      "COUNT, e.g. burst:500@1s+100ms"));
        }
        if (!at.isEmpty() && at != u"0"_qs) {
            auto t = duration::parseUs(at);
            if (!t) {
                return bad(t.error().message);
            }
            p.atUs = *t;
        }
        if (!spread.isEmpty() && spread != u"0"_qs) {
            auto s = duration::parseUs(spread);
            if (!s) {
                return bad(s.error().message);
            }
            p.spreadUs = *s;
        }
        break;
    }
    case K::Replay:
        break;
    }
    return p;
}

void print(FILE *f, const QString &s)
{
    const QByteArray b = s.toLocal8Bit();
    std::fwrite(b.constData(), 1, size_t(b.size()), f);
    std::fflush(f);
}

QString rateText(double perS)
{
    return perS >= 100 ? QString::number(qint64(perS + 0.5)) : QString::number(perS, 'f', 1);
}

// sluice-cli load: options, the traffic (a scenario or a pattern), its shape, the rules,
// Redis, the keys, then the run with its live counters and the summary.
class LoadCommand
{
public:
    explicit LoadCommand(const QList<QByteArray> &argv)
        : m_argv(argv)
    {}
    Stop options();
    Stop traffic();
    Stop shape();
    Stop rules();
    Stop connect();
    Stop keys();
    Stop start();
    int finish();

private:
    load::LoadProgress watch();
    void printJson(const load::LoadProgress &p, const stats::StatsFlusher::Status &fs) const;
    void printText(const load::LoadProgress &p, const stats::StatsFlusher::Status &fs) const;

    const QList<QByteArray> m_argv;
    CommandContext m_context{command};
    load::LoadOptions m_options;
    bool m_haveDuration = false;
    bool m_haveSubjects = false;
    QString m_origin;
    qint64 m_subjects = 0;
    int m_threads = 0;
    std::optional<CommandStats> m_stats;
    std::optional<load::LoadGenerator> m_generator;
};

Stop LoadCommand::options()
{
    if (const Stop s = m_context.parse(m_argv, {{"url", true},
                                                {"scenario", true},
                                                {"rules", true},
                                                {"from-redis", false},
                                                {"rule", true},
                                                {"pattern", true},
                                                {"duration", true},
                                                {"threads", true},
                                                {"subjects", true},
                                                {"seed", true},
                                                {"rule-prefixes", false},
                                                {"no-stats", false},
                                                {"json", false}})) {
        return s;
    }
    if (const Stop s = m_context.requireEndpoint()) {
        return s;
    }
    if (m_context.args().has("scenario") == m_context.args().has("pattern")) {
        return m_context.usage(
            QStringLiteral("give the traffic with either --scenario FILE or --pattern P"));
    }
    m_options.endpoint = *m_context.endpoint();
    return std::nullopt;
}

// --scenario FILE (its traffic, duration, seed, subjects and rules) or --pattern P.
Stop LoadCommand::traffic()
{
    const Args &args = m_context.args();
    if (args.has("scenario")) {
        const sim::scenario::Loaded s = sim::scenario::load(args.text("scenario"));
        if (!s.ok()) {
            for (const Diagnostic &d : s.errors) {
                m_context.fail(d.toString(), exitUsage);
            }
            return m_context.usage(QStringLiteral("--scenario '%1' is not a valid scenario")
                                       .arg(args.text("scenario")));
        }
        m_options.patterns = s.scenario.traffic;
        m_options.durationUs = s.scenario.durationUs;
        m_options.seed = s.scenario.seed;
        m_options.subjects = s.scenario.subjects;
        m_options.rules.rules = s.scenario.rules;
        m_haveDuration = m_haveSubjects = true;
        m_origin = args.text("scenario");
        return std::nullopt;
    }
    auto p = parsePattern(args.text("pattern"));
    if (!p) {
        return m_context.usage(p.error().message);
    }
    m_options.pattern = *p;
    if (!args.has("rules") && !args.has("from-redis")) {
        return m_context.usage(
            QStringLiteral("--pattern needs the rules: --rules FILE or --from-redis"));
    }
    return std::nullopt;
}

// --duration, --threads, --subjects, --seed and --rule.
Stop LoadCommand::shape()
{
    const Args &args = m_context.args();
    load::LoadOptions &o = m_options;
    if (args.has("duration")) {
        auto d = duration::parseUs(args.text("duration"));
        if (!d) {
            return m_context.usage(QStringLiteral("--duration: %1").arg(d.error().message));
        }
        o.durationUs = *d;
        m_haveDuration = true;
    }
    if (!m_haveDuration) {
        return m_context.usage(
            QStringLiteral("--duration D is required with --pattern (e.g. 30s)"));
    }
    if (args.has("threads")) {
        auto t = integerFlag(args, "threads", 1, load::maxThreads);
        if (!t) {
            return m_context.usage(t.error().message);
        }
        o.threads = int(*t);
    }
    if (args.has("subjects")) {
        auto m = integerFlag(args, "subjects", 1, sim::maxSubjects);
        if (!m) {
            return m_context.usage(m.error().message);
        }
        o.subjects = *m;
    } else if (!m_haveSubjects) {
        o.subjects = 100;
    }
    if (args.has("seed")) {
        auto s = integerFlag(args, "seed", 0, std::numeric_limits<qint64>::max());
        if (!s) {
            return m_context.usage(s.error().message);
        }
        o.seed = quint64(*s);
    }
    if (args.has("rule")) {
        for (const QString &id : args.text("rule").split(u',', Qt::SkipEmptyParts)) {
            o.ruleIds << id.trimmed();
        }
        if (o.ruleIds.isEmpty()) {
            return m_context.usage(QStringLiteral("--rule needs a rule id (or several: a,b,c)"));
        }
    }
    return std::nullopt;
}

// The rules of --rules or --from-redis (else the scenario's), and every --rule id in them.
Stop LoadCommand::rules()
{
    if (m_context.args().has("rules") || m_context.args().has("from-redis")) {
        LoadedRules loaded;
        if (const Stop s = m_context.loadRules(&loaded)) {
            return s;
        }
        m_options.rules = loaded.set;
        m_origin = loaded.origin;
    }
    for (const QString &id : std::as_const(m_options.ruleIds)) {
        if (m_options.rules.find(id) == nullptr) {
            return m_context.usage(ruleNotFound(id, m_origin, m_options.rules));
        }
    }
    return std::nullopt;
}

// Redis first: unreachable is a runtime failure naming the address, before any thread runs.
Stop LoadCommand::connect()
{
    if (auto c = m_context.open(); !c) {
        return m_context.fail(c.error().message, exitRuntime);
    }
    return std::nullopt;
}

// Run-scoped keys unless the real ones are asked for, and then said so.
Stop LoadCommand::keys()
{
    if (!m_context.args().has("rule-prefixes")) {
        m_options.keyPrefixOverride = load::runScopedPrefix();
        return std::nullopt;
    }
    QStringList prefixes;
    for (const Rule &r : m_options.rules.rules) {
        if ((m_options.ruleIds.isEmpty() ? r.enabled : m_options.ruleIds.contains(r.id)) &&
            !prefixes.contains(QString::fromUtf8(r.keyPrefix))) {
            prefixes << QString::fromUtf8(r.keyPrefix);
        }
    }
    print(stderr, QStringLiteral("load: --rule-prefixes: the decisions use the rules' own keys "
                                 "(%1); real subjects' quotas are consumed\n")
                      .arg(prefixes.join(QStringLiteral(", "))));
    return std::nullopt;
}

// Statistics of every decision, flushed once a second (--no-stats: none), and the generator.
Stop LoadCommand::start()
{
    m_stats.emplace(m_options.endpoint, command, !m_context.args().has("no-stats"));
    m_options.recorder = m_stats->enabled() ? &m_stats->recorder() : nullptr;
    m_subjects = m_options.subjects;
    m_threads = m_options.threads;
    m_generator.emplace(std::move(m_options));
    if (auto started = m_generator->start(); !started) {
        return m_context.usage(started.error().message);
    }
    m_stats->start();
    return std::nullopt;
}

// Until the run ends (or SIGINT cancels it): live counters on stderr once a second, the rate
// that of the last second.
load::LoadProgress LoadCommand::watch()
{
    interrupted = false;
    auto previous = std::signal(SIGINT, onLoadInterrupt);
    using Clock = std::chrono::steady_clock;
    auto nextLine = Clock::now() + std::chrono::seconds(1);
    qint64 lastSent = 0;
    double lastElapsed = 0;
    load::LoadProgress p = m_generator->progress();
    while (!p.finished) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (interrupted) {
            m_generator->cancel();
        }
        p = m_generator->progress();
        if (Clock::now() >= nextLine && !p.finished) {
            nextLine += std::chrono::seconds(1);
            m_stats->report();
            const double dt = p.elapsedS - lastElapsed;
            const double rate = dt > 0 ? double(p.sent - lastSent) / dt : 0;
            lastSent = p.sent;
            lastElapsed = p.elapsedS;
            // While Redis is unavailable, decisions come from on_redis_error: said so.
            const QString fallbacks = p.fallbacks > 0
                                          ? QStringLiteral("  on_redis_error %1").arg(p.fallbacks)
                                          : QString();
            print(stderr, QStringLiteral("load: %1/%2 s  sent %3  allowed %4  denied %5  errors "
                                         "%6%7  rate %8/s\n")
                              .arg(p.elapsedS, 0, 'f', 1)
                              .arg(p.durationS, 0, 'f', 1)
                              .arg(p.sent)
                              .arg(p.allowed)
                              .arg(p.denied + p.shadowDenied)
                              .arg(p.errors)
                              .arg(fallbacks, rateText(rate)));
        }
    }
    m_generator->wait();
    std::signal(SIGINT, previous);
    return m_generator->progress();
}

int LoadCommand::finish()
{
    const load::LoadProgress p = watch();
    if (!p.error.isEmpty()) {
        m_stats->stop();
        return m_context.fail(p.error, exitRuntime);
    }
    // The rest of the statistics: written before the summary, so a Monitor sees them all.
    const stats::StatsFlusher::Status fs = m_stats->finish();
    if (m_context.args().has("json")) {
        printJson(p, fs);
    } else {
        printText(p, fs);
    }
    if (!p.cleanupError.isEmpty()) {
        print(stderr,
              QStringLiteral("load: %1; they expire by their rules' TTL\n").arg(p.cleanupError));
    }
    if (p.fallbacks > 0) {
        // Not a failure (the rules say what to answer then), but not a quiet one either.
        print(stderr,
              QStringLiteral("load: %1 answered by on_redis_error while Redis "
                             "was unavailable; the last cause: %2\n")
                  .arg(p.fallbacks == 1 ? QStringLiteral("1 decision was")
                                        : QStringLiteral("%1 decisions were").arg(p.fallbacks))
                  .arg(p.lastUnavailable));
    }
    if (p.errors > 0) {
        return m_context.fail(QStringLiteral("%1 failed; the last: %2")
                                  .arg(counted(p.errors, u"decision", u"decisions"), p.lastError),
                              exitRuntime);
    }
    return exitOk;
}

void LoadCommand::printJson(const load::LoadProgress &p,
                            const stats::StatsFlusher::Status &fs) const
{
    const bool withStats = m_stats->enabled();
    QJsonArray rules;
    for (const load::RuleProgress &r : std::as_const(p.rules)) {
        rules.append(QJsonObject{{QStringLiteral("rule"), r.ruleId},
                                 {QStringLiteral("allowed"), r.allowed},
                                 {QStringLiteral("denied"), r.denied},
                                 {QStringLiteral("shadow_denied"), r.shadowDenied},
                                 {QStringLiteral("errors"), r.errors},
                                 {QStringLiteral("on_redis_error"), r.fallbacks}});
    }
    const QJsonObject doc{
        {QStringLiteral("sent"), p.sent},
        {QStringLiteral("planned"), p.planned},
        {QStringLiteral("allowed"), p.allowed},
        {QStringLiteral("denied"), p.denied},
        {QStringLiteral("shadow_denied"), p.shadowDenied},
        {QStringLiteral("errors"), p.errors},
        {QStringLiteral("on_redis_error"), p.fallbacks},
        {QStringLiteral("redis_unavailable"), p.lastUnavailable},
        {QStringLiteral("elapsed_s"), p.elapsedS},
        {QStringLiteral("duration_s"), p.durationS},
        {QStringLiteral("rate_per_s"), p.ratePerS},
        {QStringLiteral("threads"), m_threads},
        {QStringLiteral("subjects"), m_subjects},
        {QStringLiteral("cancelled"), p.cancelled},
        {QStringLiteral("key_prefix"), p.keyPrefix.isEmpty()
                                           ? QJsonValue(QJsonValue::Null)
                                           : QJsonValue(QString::fromUtf8(p.keyPrefix))},
        {QStringLiteral("keys_removed"), p.keysRemoved},
        {QStringLiteral("rules"), rules},
        {QStringLiteral("stats"),
         QJsonObject{{QStringLiteral("enabled"), withStats},
                     {QStringLiteral("written"), withStats && fs.redisOk && fs.backlog == 0},
                     {QStringLiteral("flushes"), fs.flushes},
                     {QStringLiteral("round_trips"), fs.roundTrips},
                     {QStringLiteral("error"), fs.lastError}}}};
    print(stdout, QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Compact)) + u'\n');
}

void LoadCommand::printText(const load::LoadProgress &p,
                            const stats::StatsFlusher::Status &fs) const
{
    QString s = QStringLiteral("%1 %2 in %3 s (%4/s) over %5 on %6\n")
                    .arg(p.cancelled ? QStringLiteral("cancelled after") : QStringLiteral("sent"))
                    .arg(counted(p.sent, u"decision", u"decisions"))
                    .arg(p.elapsedS, 0, 'f', 2)
                    .arg(rateText(p.ratePerS))
                    .arg(counted(m_subjects, u"subject", u"subjects"))
                    .arg(counted(m_threads, u"thread", u"threads"));
    s += QStringLiteral("%1 %2 %3 %4 %5\n")
             .arg(QStringLiteral("rule"), -24)
             .arg(QStringLiteral("allowed"), 10)
             .arg(QStringLiteral("denied"), 10)
             .arg(QStringLiteral("shadow-denied"), 14)
             .arg(QStringLiteral("errors"), 8);
    for (const load::RuleProgress &r : std::as_const(p.rules)) {
        s += QStringLiteral("%1 %2 %3 %4 %5\n")
                 .arg(r.ruleId, -24)
                 .arg(r.allowed, 10)
                 .arg(r.denied, 10)
                 .arg(r.shadowDenied, 14)
                 .arg(r.errors, 8);
    }
    if (!fs.redisOk || fs.backlog > 0) {
        s += QStringLiteral("statistics not all written: %1\n").arg(fs.lastError);
    }
    print(stdout, s);
}

} // namespace

int load(const QList<QByteArray> &argv)
{
    LoadCommand c(argv);
    return runSteps(c,
                    {&LoadCommand::options, &LoadCommand::traffic, &LoadCommand::shape,
                     &LoadCommand::rules, &LoadCommand::connect, &LoadCommand::keys,
                     &LoadCommand::start},
                    &LoadCommand::finish);
}

} // namespace sluice::cli
