#include "bench.h"

#include "args.h"

#include "limiter/redislimiter.h"
#include "redis/endpoint.h"

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

// redis-benchmark -c 1 -P <batch> EVALSHA <sha> 1 <key with __rand_int__> <same args>
Measure runCeiling(const QString &tool, const Endpoint &e, const Policy &policy,
                   const QByteArray &sha, int batch, qint64 requests)
{
    QStringList args{QStringLiteral("-h"),      e.host,
                     QStringLiteral("-p"),      QString::number(e.port),
                     QStringLiteral("-c"),      QStringLiteral("1"),
                     QStringLiteral("-P"),      QString::number(batch),
                     QStringLiteral("-n"),      QString::number(requests),
                     QStringLiteral("-r"),      QString::number(subjects),
                     QStringLiteral("--dbnum"), QString::number(e.db),
                     QStringLiteral("--csv")};
    if (!e.password.isEmpty()) {
        if (!e.user.isEmpty()) {
            args << QStringLiteral("--user") << e.user;
        }
        args << QStringLiteral("-a") << e.password;
    }
    args << QStringLiteral("EVALSHA") << QString::fromLatin1(sha) << QStringLiteral("1")
         << QString::fromUtf8(policy.keyFor("__rand_int__"));
    for (const QByteArray &a : policy.scriptArgs()) {
        args << QString::fromLatin1(a);
    }
    args << QStringLiteral("1") << QString(); // cost 1, now_us empty: Redis TIME
    QProcess p;
    p.start(tool, args);
    if (!p.waitForFinished(600'000) || p.exitCode() != 0) {
        return {0, QStringLiteral("redis-benchmark failed: %1")
                       .arg(QString::fromLocal8Bit(p.readAllStandardError()).trimmed())};
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
                       .arg(QString::fromLocal8Bit(lines.isEmpty() ? QByteArray() : lines.last()))};
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
    QByteArray cursor = "0";
    do {
        auto r = c.command({"SCAN", cursor, "MATCH", keyBase + '*', "COUNT", "1000"});
        if (!r || r->elements.size() != 2) {
            return;
        }
        cursor = r->elements[0].str;
        QList<QByteArray> del{"UNLINK"};
        for (const Reply &k : r->elements[1].elements) {
            del << k.str;
        }
        if (del.size() > 1) {
            (void)c.command(del);
        }
    } while (cursor != "0");
}

} // namespace

int bench(const QList<QByteArray> &argv)
{
    auto parsed = Args::parse(argv, {{"url", true},
                                     {"seconds", true},
                                     {"rounds", true},
                                     {"algorithm", true},
                                     {"redis-benchmark", true},
                                     {"json", false}});
    const QString usageText = QStringLiteral(
        "\nusage: sluice-cli bench --url URL [--seconds S] [--rounds R] [--algorithm A] [--json]");
    if (!parsed) {
        return fail(command, parsed.error().message + usageText, exitUsage);
    }
    const Args &args = *parsed;
    if (!args.has("url")) {
        return fail(command, QStringLiteral("--url is required") + usageText, exitUsage);
    }
    auto endpoint = Endpoint::parse(args.text("url"));
    if (!endpoint) {
        return fail(command, QStringLiteral("--url: ") + endpoint.error().message, exitUsage);
    }
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

    auto connection = Connection::open(*endpoint);
    if (!connection) {
        return fail(command, connection.error().message, exitRuntime);
    }
    RedisLimiter limiter(std::move(*connection));
    if (!json) {
        print(QStringLiteral("Sluice engine benchmark against Redis at %1: %2 s per run, median "
                             "of %3 rounds, %4 subjects, one connection\n")
                  .arg(endpoint->display())
                  .arg(seconds)
                  .arg(rounds)
                  .arg(subjects));
        if (tool.isEmpty()) {
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
                    // The connection's endpoint: for redis+sentinel://, host and port name the
                    // master the connection found, where redis-benchmark must go too.
                    const Measure c = runCeiling(tool, limiter.connection().endpoint(), policy,
                                                 (*script)->sha, batch, n);
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
        const QJsonObject doc{{QStringLiteral("server"), endpoint->display()},
                              {QStringLiteral("seconds"), seconds},
                              {QStringLiteral("subjects"), subjects},
                              {QStringLiteral("results"), results}};
        print(QString::fromUtf8(QJsonDocument(doc).toJson(QJsonDocument::Compact)) +
              QLatin1Char('\n'));
    }
    return exitOk;
}

} // namespace sluice::cli
