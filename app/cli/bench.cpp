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
#include <optional>

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

// sluice-cli bench: options, Redis (and whether redis-benchmark can measure it), then one
// row per algorithm and mode: the engine's decisions per second, the ceiling right after it.
class BenchCommand
{
public:
    explicit BenchCommand(const QList<QByteArray> &argv)
        : m_argv(argv)
    {}
    Stop options();
    Stop connect();
    int measureAll();

private:
    void printHeader() const;
    Stop measure(Algorithm a, const Policy &policy, const QByteArray &sha, int batch);
    Stop ceiling(const Policy &policy, const QByteArray &sha, int batch, qint64 n, Measure *c);

    const QList<QByteArray> m_argv;
    CommandContext m_context{command};
    double m_seconds = 1;
    qint64 m_rounds = 3;
    std::vector<Algorithm> m_algorithms{std::begin(algorithm::all), std::end(algorithm::all)};
    QString m_tool;
    bool m_json = false;
    Endpoint m_reached; // for a Sentinel URL, the master found: redis-benchmark measures it
    std::optional<RedisLimiter> m_limiter;
    QJsonArray m_results;
};

Stop BenchCommand::options()
{
    if (const Stop s = m_context.parse(m_argv,
                                       {{"url", true},
                                        {"seconds", true},
                                        {"rounds", true},
                                        {"algorithm", true},
                                        {"redis-benchmark", true},
                                        {"json", false}},
                                       CommandContext::Positionals::Any)) {
        return s;
    }
    const Args &args = m_context.args();
    if (const Stop s = m_context.requireEndpoint({})) {
        return s;
    }
    if (args.has("seconds")) {
        bool ok = false;
        m_seconds = args.text("seconds").toDouble(&ok);
        if (!ok || m_seconds < 0.05 || m_seconds > 600) {
            return m_context.fail(QStringLiteral("--seconds must be a number between 0.05 and 600"),
                                  exitUsage);
        }
    }
    if (args.has("rounds")) {
        auto r = integerFlag(args, "rounds", 1, 100);
        if (!r) {
            return m_context.fail(r.error().message, exitUsage);
        }
        m_rounds = *r;
    }
    if (args.has("algorithm")) {
        auto a = algorithm::fromName(args.text("algorithm"));
        if (!a) {
            return m_context.fail(
                QStringLiteral("--algorithm '%1' is unknown").arg(args.text("algorithm")),
                exitUsage);
        }
        m_algorithms = {*a};
    }
    m_tool = args.has("redis-benchmark")
                 ? args.text("redis-benchmark")
                 : QStandardPaths::findExecutable(QStringLiteral("redis-benchmark"));
    m_json = args.has("json");
    return std::nullopt;
}

Stop BenchCommand::connect()
{
    auto connection = m_context.open();
    if (!connection) {
        return m_context.fail(connection.error().message, exitRuntime);
    }
    m_reached = connection->endpoint();
    if (const QString why = noCeilingBecause(m_reached); !why.isEmpty() && !m_tool.isEmpty()) {
        if (!m_json) {
            print(why + QLatin1Char('\n'));
        }
        m_tool.clear();
    }
    m_limiter.emplace(std::move(*connection));
    if (!m_json) {
        printHeader();
    }
    return std::nullopt;
}

void BenchCommand::printHeader() const
{
    print(QStringLiteral("Sluice engine benchmark against Redis at %1: %2 s per run, median "
                         "of %3, %4, one connection\n")
              .arg(m_context.endpoint()->display())
              .arg(m_seconds)
              .arg(counted(m_rounds, u"round", u"rounds"),
                   counted(subjects, u"subject", u"subjects")));
    if (m_tool.isEmpty() && noCeilingBecause(m_reached).isEmpty()) {
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

int BenchCommand::measureAll()
{
    for (Algorithm a : m_algorithms) {
        const Policy policy = benchPolicy(a);
        auto script = m_limiter->scriptFor(policy);
        if (!script) {
            return m_context.fail(script.error().message, exitRuntime);
        }
        if (auto l = ScriptRegistry::ensureLoaded(m_limiter->connection(), **script); !l) {
            return m_context.fail(l.error().message, exitRuntime);
        }
        for (int batch : {1, pipelineBatch}) {
            if (const Stop s = measure(a, policy, (*script)->sha, batch)) {
                return *s;
            }
        }
    }
    cleanup(m_limiter->connection());
    if (m_json) {
        const QJsonObject doc{{QStringLiteral("server"), m_context.endpoint()->display()},
                              {QStringLiteral("seconds"), m_seconds},
                              {QStringLiteral("subjects"), subjects},
                              {QStringLiteral("results"), m_results}};
        print(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Compact)) +
              QLatin1Char('\n'));
    }
    return exitOk;
}

// One row: the engine, then the ceiling right after it, on the same server, in this process'
// run: a ratio per round, and medians over the rounds.
Stop BenchCommand::measure(Algorithm a, const Policy &policy, const QByteArray &sha, int batch)
{
    std::vector<double> engine, ceilings, ratio;
    for (qint64 round = 0; round < m_rounds; ++round) {
        const Measure m = runEngine(*m_limiter, policy, batch, m_seconds);
        if (!m.error.isEmpty()) {
            return m_context.fail(m.error, exitRuntime);
        }
        engine.push_back(m.perSecond);
        if (!m_tool.isEmpty()) {
            Measure c;
            const qint64 n = std::max<qint64>(2000, qint64(m.perSecond * m_seconds));
            if (const Stop s = ceiling(policy, sha, batch, n, &c)) {
                return s;
            }
            ceilings.push_back(c.perSecond);
            ratio.push_back(m.perSecond / c.perSecond);
        }
    }
    QJsonObject row{
        {QStringLiteral("algorithm"), algorithm::name(a)},
        {QStringLiteral("mode"), batch == 1 ? QStringLiteral("sync") : QStringLiteral("pipelined")},
        {QStringLiteral("batch"), batch},
        {QStringLiteral("rounds"), int(m_rounds)},
        {QStringLiteral("decisions_per_s"), qRound64(median(engine))}};
    if (!ceilings.empty()) {
        row.insert(QStringLiteral("ceiling_per_s"), qRound64(median(ceilings)));
        row.insert(QStringLiteral("ratio"), qRound(median(ratio) * 1000) / 1000.0);
    } else {
        row.insert(QStringLiteral("ceiling_per_s"), QJsonValue());
        row.insert(QStringLiteral("ratio"), QJsonValue());
    }
    m_results.append(row);
    if (!m_json) {
        print(QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                  .arg(algorithm::name(a), -16)
                  .arg(row[QStringLiteral("mode")].toString(), -10)
                  .arg(batch, 5)
                  .arg(qRound64(median(engine)), 12)
                  .arg(ceilings.empty() ? QStringLiteral("-")
                                        : QString::number(qRound64(median(ceilings))),
                       12)
                  .arg(ceilings.empty() ? QStringLiteral("-")
                                        : QString::number(median(ratio), 'f', 2),
                       6));
    }
    return std::nullopt;
}

// redis-benchmark fails now and then on a loaded machine ("All clients disconnected"): up to
// three runs before the bench gives up.
Stop BenchCommand::ceiling(const Policy &policy, const QByteArray &sha, int batch, qint64 n,
                           Measure *c)
{
    for (int attempt = 1; attempt <= 3; ++attempt) {
        *c = runCeiling(m_tool, m_reached, policy, sha, batch, n);
        if (c->error.isEmpty() || attempt == 3) {
            break;
        }
        m_context.fail(QStringLiteral("note: %1; running it again").arg(c->error), exitOk);
    }
    if (!c->error.isEmpty()) {
        return m_context.fail(c->error, exitRuntime);
    }
    return std::nullopt;
}

} // namespace

int bench(const QList<QByteArray> &argv)
{
    BenchCommand c(argv);
    return runSteps(c, {&BenchCommand::options, &BenchCommand::connect}, &BenchCommand::measureAll);
}

} // namespace sluice::cli
