#include "load.h"

#include "args.h"
#include "connectflags.h"
#include "rules.h"
#include "statsflags.h"

#include "core/common/plural.h"
#include "core/load/loadgenerator.h"
#include "core/redis/endpoint.h"
#include "core/sim/scenario.h"
#include "core/stats/statsflusher.h"
#include "core/stats/statsrecorder.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <thread>

namespace sluice::cli {

namespace {

const QString command = QStringLiteral("load");

const QString usageLine = usageOf(command).mid(1);

int usage(const QString &message)
{
    return fail(command, message + u'\n' + usageLine, exitUsage);
}

std::atomic<bool> interrupted{false};

void onLoadInterrupt(int)
{
    interrupted = true;
}

// --pattern: one simulation lab pattern in a compact spelling (see usageLine). The times and
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

} // namespace

int load(const QList<QByteArray> &argv)
{
    auto parsed = Args::parse(argv, {{"url", true},
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
    if (!endpoint) {
        return usage(endpoint.error().message);
    }
    if (args.has("scenario") == args.has("pattern")) {
        return usage(QStringLiteral("give the traffic with either --scenario FILE or --pattern P"));
    }

    load::LoadOptions o;
    o.endpoint = *endpoint;
    bool haveDuration = false;
    bool haveSubjects = false;
    if (args.has("scenario")) {
        const sim::scenario::Loaded s = sim::scenario::load(args.text("scenario"));
        if (!s.ok()) {
            for (const Diagnostic &d : s.errors) {
                fail(command, d.toString(), exitUsage);
            }
            return usage(QStringLiteral("--scenario '%1' is not a valid scenario")
                             .arg(args.text("scenario")));
        }
        o.patterns = s.scenario.traffic;
        o.durationUs = s.scenario.durationUs;
        o.seed = s.scenario.seed;
        o.subjects = s.scenario.subjects;
        o.rules.rules = s.scenario.rules;
        haveDuration = haveSubjects = true;
    } else {
        auto p = parsePattern(args.text("pattern"));
        if (!p) {
            return usage(p.error().message);
        }
        o.pattern = *p;
        if (!args.has("rules") && !args.has("from-redis")) {
            return usage(QStringLiteral("--pattern needs the rules: --rules FILE or --from-redis"));
        }
    }
    if (args.has("duration")) {
        auto d = duration::parseUs(args.text("duration"));
        if (!d) {
            return usage(QStringLiteral("--duration: %1").arg(d.error().message));
        }
        o.durationUs = *d;
        haveDuration = true;
    }
    if (!haveDuration) {
        return usage(QStringLiteral("--duration D is required with --pattern (e.g. 30s)"));
    }
    if (args.has("threads")) {
        auto t = integerFlag(args, "threads", 1, load::maxThreads);
        if (!t) {
            return usage(t.error().message);
        }
        o.threads = int(*t);
    }
    if (args.has("subjects")) {
        auto m = integerFlag(args, "subjects", 1, sim::maxSubjects);
        if (!m) {
            return usage(m.error().message);
        }
        o.subjects = *m;
    } else if (!haveSubjects) {
        o.subjects = 100;
    }
    if (args.has("seed")) {
        auto s = integerFlag(args, "seed", 0, std::numeric_limits<qint64>::max());
        if (!s) {
            return usage(s.error().message);
        }
        o.seed = quint64(*s);
    }
    if (args.has("rule")) {
        for (const QString &id : args.text("rule").split(u',', Qt::SkipEmptyParts)) {
            o.ruleIds << id.trimmed();
        }
        if (o.ruleIds.isEmpty()) {
            return usage(QStringLiteral("--rule needs a rule id (or several: a,b,c)"));
        }
    }
    QString origin = args.has("scenario") ? args.text("scenario") : QString();
    if (args.has("rules") || args.has("from-redis")) {
        int code = exitOk;
        auto loaded = loadRulesForCommand(args, command, &code);
        if (!loaded) {
            return code;
        }
        o.rules = loaded->set;
        origin = loaded->origin;
    }
    for (const QString &id : std::as_const(o.ruleIds)) {
        if (o.rules.find(id) == nullptr) {
            QStringList ids;
            for (const Rule &r : o.rules.rules) {
                ids << r.id;
            }
            return usage(QStringLiteral("--rule '%1' is not in %2 (it has: %3)")
                             .arg(id, origin,
                                  ids.isEmpty() ? QStringLiteral("no rules")
                                                : ids.join(QStringLiteral(", "))));
        }
    }

    // Redis first: unreachable is a runtime failure naming the address, before any thread runs.
    {
        auto c = Connection::open(*endpoint);
        if (!c) {
            return fail(command, c.error().message, exitRuntime);
        }
    }

    // Run-scoped keys unless the real ones are asked for, and then said so.
    if (args.has("rule-prefixes")) {
        QStringList prefixes;
        for (const Rule &r : o.rules.rules) {
            if ((o.ruleIds.isEmpty() ? r.enabled : o.ruleIds.contains(r.id)) &&
                !prefixes.contains(QString::fromUtf8(r.keyPrefix))) {
                prefixes << QString::fromUtf8(r.keyPrefix);
            }
        }
        print(stderr, QStringLiteral("load: --rule-prefixes: the decisions use the rules' own keys "
                                     "(%1); real subjects' quotas are consumed\n")
                          .arg(prefixes.join(QStringLiteral(", "))));
    } else {
        o.keyPrefixOverride = load::runScopedPrefix();
    }

    // Statistics of every decision, flushed once a second; --no-stats: none.
    const bool withStats = !args.has("no-stats");
    stats::StatsRecorder recorder;
    stats::StatsFlusher flusher(*endpoint, &recorder);
    StatsReporter reporter(command);
    o.recorder = withStats ? &recorder : nullptr;
    const qint64 subjects = o.subjects;
    const int threads = o.threads;
    load::LoadGenerator generator(std::move(o));
    if (auto started = generator.start(); !started) {
        return usage(started.error().message);
    }
    if (withStats) {
        flusher.start();
    }
    interrupted = false;
    auto previous = std::signal(SIGINT, onLoadInterrupt);

    // Live counters on stderr once a second; the rate is that of the last second.
    using Clock = std::chrono::steady_clock;
    auto nextLine = Clock::now() + std::chrono::seconds(1);
    qint64 lastSent = 0;
    double lastElapsed = 0;
    load::LoadProgress p = generator.progress();
    while (!p.finished) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (interrupted) {
            generator.cancel();
        }
        p = generator.progress();
        if (Clock::now() >= nextLine && !p.finished) {
            nextLine += std::chrono::seconds(1);
            if (withStats) {
                reporter.update(flusher.status());
            }
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
    generator.wait();
    std::signal(SIGINT, previous);
    p = generator.progress();
    if (!p.error.isEmpty()) {
        flusher.stop();
        return fail(command, p.error, exitRuntime);
    }
    // The rest of the statistics: written before the summary, so a Monitor sees them all.
    flusher.stop();
    const stats::StatsFlusher::Status fs = flusher.status();
    if (withStats) {
        reporter.update(fs);
    }

    if (args.has("json")) {
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
            {QStringLiteral("threads"), threads},
            {QStringLiteral("subjects"), subjects},
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
    } else {
        QString s =
            QStringLiteral("%1 %2 in %3 s (%4/s) over %5 on %6\n")
                .arg(p.cancelled ? QStringLiteral("cancelled after") : QStringLiteral("sent"))
                .arg(counted(p.sent, u"decision", u"decisions"))
                .arg(p.elapsedS, 0, 'f', 2)
                .arg(rateText(p.ratePerS))
                .arg(counted(subjects, u"subject", u"subjects"))
                .arg(counted(threads, u"thread", u"threads"));
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
        return fail(command,
                    QStringLiteral("%1 failed; the last: %2")
                        .arg(counted(p.errors, u"decision", u"decisions"), p.lastError),
                    exitRuntime);
    }
    return exitOk;
}

} // namespace sluice::cli
