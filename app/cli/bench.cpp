#include "bench.h"

#include "args.h"
#include "command.h"

#include "core/common/bytes.h"
#include "core/common/plural.h"
#include "core/limiter/redislimiter.h"
#include "core/redis/endpoint.h"
#include "core/redis/keyspace.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>

#include <algorithm>
#include <cstdio>

namespace sluice::cli {

namespace {

const QString command = QStringLiteral("bench");
constexpr int subjects = 10'000; // as FORMATS.md: decisions spread over 10,000 subjects
constexpr int pipelineBatch = 64;
const QByteArray keyBase = QByteArrayLiteral("sluice-bench:");

void print(const QString &s)
{
    const QByteArray b = s.toLocal8Bit();
    std::fwrite(b.constData(), 1, size_t(b.size()), stdout);
    std::fflush(stdout);
}

// Limits so high that every decision takes the admitting (writing) path.
Policy benchPolicy(Algorithm a)
{
    Policy p = algorithm::isWindow(a)
                   ? Policy::window(a, 1'000'000'000, duration::usPerSecond)
                   : Policy::bucket(a, Rate{1'000'000'000, duration::usPerSecond}, 1'000'000'000);
    p.id = algorithm::name(a);
    p.keyPrefix = keyBase;
    return p;
}

// The key of subject i, spelled as redis-benchmark spells __rand_int__ (12 digits), so both
// runs touch the same 10,000 keys.
QByteArray subjectKey(const Policy &p, int i)
{
    return p.keyFor(QByteArray::number(i).rightJustified(12, '0'));
}

struct Measure
{
    double perSecond = 0;
    QString error;
};

Measure runEngine(RedisLimiter &limiter, const Policy &policy, int batch, double seconds)
{
    std::vector<QByteArray> keys;
    keys.reserve(subjects);
    for (int i = 0; i < subjects; ++i) {
        keys.push_back(subjectKey(policy, i));
    }
    std::vector<Request> requests(size_t(batch), Request{&policy, {}, 1, std::nullopt, 0});
    QRandomGenerator rng(42);
    qint64 decisions = 0;
    QElapsedTimer timer;
    timer.start();
    const qint64 budgetNs = qint64(seconds * 1e9);
    while (timer.nsecsElapsed() < budgetNs) {
        for (Request &r : requests) {
            r.key = keys[rng.bounded(subjects)];
        }
        auto results = batch == 1 ? [&] {
            auto d = limiter.decide(requests.front());
            std::vector<Result<Decision>> v;
            v.push_back(std::move(d));
            return Result<std::vector<Result<Decision>>>(std::move(v));
        }()
                                  : limiter.decideBatch(requests);
        if (!results) {
            return {0, results.error().message};
        }
        for (const auto &d : *results) {
            if (!d) {
                return {0, d.error().message};
            }
            if (!d->allowed) {
                return {0, QStringLiteral("a decision was denied: the benchmark must stay on the "
                                          "admitting path")};
            }
        }
        decisions += qint64(results->size());
    }
    return {double(decisions) * 1e9 / double(timer.nsecsElapsed()), {}};
}

// Why redis-benchmark cannot measure this endpoint the way the engine reaches it, or empty.
QString noCeilingBecause(const Endpoint &e)
{
    if (!e.password.isEmpty()) {
        // redis-benchmark takes a password only as -a on its command line, which every local
        // user can read in ps; it has no environment variable or file for it.
        return QStringLiteral("the server needs a password, and redis-benchmark takes one only "
                              "on its command line, where other users can read it: no ceiling "
                              "figures (measure against a password-less copy to compare)");
    }
    if (e.ssh.isSet()) {
        return QStringLiteral("redis-benchmark cannot go through the SSH tunnel: no ceiling "
                              "figures");
    }
    if (e.isCluster()) {
        return QStringLiteral("redis-benchmark runs a script against one node, not across a "
                              "Redis Cluster's slots: no ceiling figures (tools/bench-cluster.sh "
                              "compares 1 and 3 masters)");
    }
    return {};
}

// redis-benchmark -c 1 -P <batch> EVALSHA <sha> 1 <key with __rand_int__> <same args>, over
// the same transport as the engine (TCP, Unix socket, TLS with the same files).
Measure runCeiling(const QString &tool, const Endpoint &e, const Policy &policy,
                   const QByteArray &sha, int batch, qint64 requests)
{
    QStringList args;
    if (e.kind == Endpoint::Kind::Unix) {
        args << QStringLiteral("-s") << e.socketPath;
    } else {
        args << QStringLiteral("-h") << e.host << QStringLiteral("-p") << QString::number(e.port);
    }
    args << QStringLiteral("-c") << QStringLiteral("1") << QStringLiteral("-P")
         << QString::number(batch) << QStringLiteral("-n") << QString::number(requests)
         << QStringLiteral("-r") << QString::number(subjects) << QStringLiteral("--dbnum")
         << QString::number(e.db) << QStringLiteral("--csv");
    if (e.tls.enabled) {
        args << QStringLiteral("--tls");
        if (!e.tls.caFile.isEmpty()) {
            args << QStringLiteral("--cacert") << e.tls.caFile;
        }
        if (!e.tls.certFile.isEmpty()) {
            args << QStringLiteral("--cert") << e.tls.certFile << QStringLiteral("--key")
                 << e.tls.keyFile;
        }
        if (!e.tls.serverName.isEmpty()) {
            args << QStringLiteral("--sni") << e.tls.serverName;
        }
        if (e.tls.insecure) {
            args << QStringLiteral("--insecure");
        }
    }
    if (!e.user.isEmpty()) {
        args << QStringLiteral("--user") << e.user;
    }
    args << QStringLiteral("EVALSHA") << QString::fromLatin1(sha) << QStringLiteral("1")
         << QString::fromUtf8(policy.keyFor("__rand_int__"));
    for (const QByteArray &a : policy.scriptArgs()) {
        args << QString::fromLatin1(a);
    }
    args << QStringLiteral("1") << QString(); // cost 1, now_us empty: Redis TIME
    // min_ttl_ms empty, the rule version and on_change, as the engine sends them.
    for (const QByteArray &a : policy.versionArgs()) {
        args << QString::fromLatin1(a);
    }
    QProcess p;
    p.start(tool, args);
    if (!p.waitForFinished(600'000) || p.exitCode() != 0) {
        return {0, QStringLiteral("redis-benchmark failed: %1")
                       .arg(bytes::quoted(p.readAllStandardError().trimmed()))};
    }
    // --csv: "test","rps",... ; the last line holds the figures.
    const QList<QByteArray> lines = p.readAllStandardOutput().trimmed().split('\n');
    const QList<QByteArray> fields =
        lines.isEmpty() ? QList<QByteArray>{} : lines.last().split(',');
    bool ok = false;
    const double rps =
        fields.size() >= 2 ? QByteArray(fields[1]).replace('"', "").toDouble(&ok) : 0;
    if (!ok) {
        return {0, QStringLiteral("could not read redis-benchmark's output: %1")
                       .arg(bytes::quoted(lines.isEmpty() ? QByteArray() : lines.last()))};
    }
    return {rps, {}};
}

double median(std::vector<double> v)
{
    if (v.empty()) {
        return 0;
    }
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void cleanup(Connection &c)
{
    (void)redis::deleteByPrefix(c, keyBase); // best effort: the bench's own keys only
}

} // namespace

int bench(const QList<QByteArray> &argv)
{
    CommandContext context(command);
    if (const Stop s = context.parse(argv,
                                     {{"url", true},
                                      {"seconds", true},
                                      {"rounds", true},
                                      {"algorithm", true},
                                      {"redis-benchmark", true},
                                      {"json", false}},
                                     CommandContext::Positionals::Any)) {
        return *s;
    }
    const Args &args = context.args();
    if (const Stop s = context.requireEndpoint({})) {
        return *s;
    }
    const Endpoint &endpoint = *context.endpoint();
    double seconds = 1;
    if (args.has("seconds")) {
        bool ok = false;
        seconds = args.text("seconds").toDouble(&ok);
        if (!ok || seconds < 0.05 || seconds > 600) {
            return fail(command, QStringLiteral("--seconds must be a number between 0.05 and 600"),
                        exitUsage);
        }
    }
    qint64 rounds = 3;
    if (args.has("rounds")) {
        auto r = integerFlag(args, "rounds", 1, 100);
        if (!r) {
            return fail(command, r.error().message, exitUsage);
        }
        rounds = *r;
    }
    std::vector<Algorithm> algorithms(std::begin(algorithm::all), std::end(algorithm::all));
    if (args.has("algorithm")) {
        auto a = algorithm::fromName(args.text("algorithm"));
        if (!a) {
            return fail(command,
                        QStringLiteral("--algorithm '%1' is unknown").arg(args.text("algorithm")),
                        exitUsage);
        }
        algorithms = {*a};
    }
    QString tool = args.has("redis-benchmark")
                       ? args.text("redis-benchmark")
                       : QStandardPaths::findExecutable(QStringLiteral("redis-benchmark"));
    const bool json = args.has("json");

    auto connection = Connection::open(endpoint);
    if (!connection) {
        return fail(command, connection.error().message, exitRuntime);
    }

    // For a Sentinel URL, the master found: redis-benchmark measures the same server.
    const Endpoint reached = connection->endpoint();
    if (const QString why = noCeilingBecause(reached); !why.isEmpty() && !tool.isEmpty()) {
        if (!json) {
            print(why + QLatin1Char('\n'));
        }
        tool.clear();
    }
    RedisLimiter limiter(std::move(*connection));
    if (!json) {
        print(QStringLiteral("Sluice engine benchmark against Redis at %1: %2 s per run, median "
                             "of %3, %4, one connection\n")
                  .arg(endpoint.display())
                  .arg(seconds)
                  .arg(counted(rounds, u"round", u"rounds"),
                       counted(subjects, u"subject", u"subjects")));
        if (tool.isEmpty() && noCeilingBecause(reached).isEmpty()) {
            print(QStringLiteral("redis-benchmark not found: no ceiling figures\n"));
        }
        print(QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                  .arg(QStringLiteral("algorithm"), -16)
                  .arg(QStringLiteral("mode"), -10)
                  .arg(QStringLiteral("batch"), 5)
                  .arg(QStringLiteral("decisions/s"), 12)
                  .arg(QStringLiteral("ceiling/s"), 12)
                  .arg(QStringLiteral("ratio"), 6));
    }
    QJsonArray results;
    for (Algorithm a : algorithms) {
        const Policy policy = benchPolicy(a);
        auto script = limiter.scriptFor(policy);
        if (!script) {
            return fail(command, script.error().message, exitRuntime);
        }
        if (auto l = ScriptRegistry::ensureLoaded(limiter.connection(), **script); !l) {
            return fail(command, l.error().message, exitRuntime);
        }
        for (int batch : {1, pipelineBatch}) {
            std::vector<double> engine, ceiling, ratio;
            for (qint64 round = 0; round < rounds; ++round) {
                // Engine, then the ceiling right after it, on the same server, in this process'
                // run: a ratio per round, and medians over the rounds.
                const Measure m = runEngine(limiter, policy, batch, seconds);
                if (!m.error.isEmpty()) {
                    return fail(command, m.error, exitRuntime);
                }
                engine.push_back(m.perSecond);
                if (!tool.isEmpty()) {
                    const qint64 n = std::max<qint64>(2000, qint64(m.perSecond * seconds));
                    // redis-benchmark fails now and then on a loaded machine ("All clients
                    // disconnected"): up to three runs before the bench gives up.
                    Measure c;
                    for (int attempt = 1; attempt <= 3; ++attempt) {
                        c = runCeiling(tool, reached, policy, (*script)->sha, batch, n);
                        if (c.error.isEmpty() || attempt == 3) {
                            break;
                        }
                        fail(command, QStringLiteral("note: %1; running it again").arg(c.error),
                             exitOk);
                    }
                    if (!c.error.isEmpty()) {
                        return fail(command, c.error, exitRuntime);
                    }
                    ceiling.push_back(c.perSecond);
                    ratio.push_back(m.perSecond / c.perSecond);
                }
            }
            QJsonObject row{{QStringLiteral("algorithm"), algorithm::name(a)},
                            {QStringLiteral("mode"),
                             batch == 1 ? QStringLiteral("sync") : QStringLiteral("pipelined")},
                            {QStringLiteral("batch"), batch},
                            {QStringLiteral("rounds"), int(rounds)},
                            {QStringLiteral("decisions_per_s"), qRound64(median(engine))}};
            if (!ceiling.empty()) {
                row.insert(QStringLiteral("ceiling_per_s"), qRound64(median(ceiling)));
                row.insert(QStringLiteral("ratio"), qRound(median(ratio) * 1000) / 1000.0);
            } else {
                row.insert(QStringLiteral("ceiling_per_s"), QJsonValue());
                row.insert(QStringLiteral("ratio"), QJsonValue());
            }
            results.append(row);
            if (!json) {
                print(QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                          .arg(algorithm::name(a), -16)
                          .arg(row[QStringLiteral("mode")].toString(), -10)
                          .arg(batch, 5)
                          .arg(qRound64(median(engine)), 12)
                          .arg(ceiling.empty() ? QStringLiteral("-")
                                               : QString::number(qRound64(median(ceiling))),
                               12)
                          .arg(ceiling.empty() ? QStringLiteral("-")
                                               : QString::number(median(ratio), 'f', 2),
                               6));
            }
        }
    }
    cleanup(limiter.connection());
    if (json) {
        const QJsonObject doc{{QStringLiteral("server"), endpoint.display()},
                              {QStringLiteral("seconds"), seconds},
                              {QStringLiteral("subjects"), subjects},
                              {QStringLiteral("results"), results}};
        print(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Compact)) +
              QLatin1Char('\n'));
    }
    return exitOk;
}

} // namespace sluice::cli
