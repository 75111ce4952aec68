// sluice-cli as a user runs it: real process, real Redis, exit codes and messages.
#include "runcli.h"
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include "core/limiter/redislimiter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <array>

using namespace sluice;

namespace {

QString url()
{
    return test::redisUrl();
}

QString uniqueId(const char *stem)
{
    static int n = 0;
    return QStringLiteral("t-%1-%2-%3")
        .arg(QLatin1String(stem))
        .arg(QCoreApplication::applicationPid())
        .arg(++n);
}

} // namespace

class TestCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cleanupTestCase()
    {
        Connection c = test::connect();
        // The CLI writes under the default prefix with our t-... ids.
        QVERIFY(test::deleteByPrefix(c, "rate_limit:t-") >= 0);
        test::cleanup(c);
    }

    void checkDecides()
    {
        const QString id = uniqueId("fw");
        test::CliRun r = test::runCli(
            {QStringLiteral("check"), QStringLiteral("--url"), url(), QStringLiteral("--algorithm"),
             QStringLiteral("fixed_window"), QStringLiteral("--limit"), QStringLiteral("3"),
             QStringLiteral("--window"), QStringLiteral("5s"), QStringLiteral("--id"), id,
             QStringLiteral("--subject"), QStringLiteral("1.2.3.4"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("allowed")].toBool(), true);
        QCOMPARE(o[QStringLiteral("limit")].toInt(), 3);
        QCOMPARE(o[QStringLiteral("remaining")].toInt(), 2);
        QCOMPARE(o[QStringLiteral("retry_after_ms")].toInt(), -1);
        QCOMPARE(o[QStringLiteral("reset_after_ms")].toInt(), 5000);
        QCOMPARE(o[QStringLiteral("delay_ms")].toInt(), 0);
        const QString key = QStringLiteral("rate_limit:%1:{1.2.3.4}").arg(id);
        QCOMPARE(o[QStringLiteral("key")].toString(), key);

        // --count: one array; the fourth of four is denied with a retry; a denial exits 0.
        r = test::runCli(
            {QStringLiteral("check"), QStringLiteral("--url"), url(), QStringLiteral("--algorithm"),
             QStringLiteral("fixed_window"), QStringLiteral("--limit"), QStringLiteral("3"),
             QStringLiteral("--window"), QStringLiteral("5s"), QStringLiteral("--id"), id,
             QStringLiteral("--subject"), QStringLiteral("1.2.3.4"), QStringLiteral("--count"),
             QStringLiteral("3"), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 0);
        const QJsonArray a = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(a.size(), 3);
        QCOMPARE(a[1].toObject()[QStringLiteral("remaining")].toInt(), 0);
        QCOMPARE(a[2].toObject()[QStringLiteral("allowed")].toBool(), false);
        QVERIFY(a[2].toObject()[QStringLiteral("retry_after_ms")].toInt() > 0);
        Connection c = test::connect();
        QVERIFY(test::pttl(c, key.toUtf8()) > 0);

        // Human output says allowed/denied in words.
        r = test::runCli({QStringLiteral("check"), QStringLiteral("--url"), url(),
                          QStringLiteral("--algorithm"), QStringLiteral("token_bucket"),
                          QStringLiteral("--rate"), QStringLiteral("1/m"),
                          QStringLiteral("--burst"), QStringLiteral("1"), QStringLiteral("--id"),
                          uniqueId("tb"), QStringLiteral("--subject"), QStringLiteral("u1"),
                          QStringLiteral("--count"), QStringLiteral("2")});
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].startsWith("allowed"));
        QVERIFY(lines[1].startsWith("denied"));
        QVERIFY(lines[1].contains("retry after 60000 ms"));
    }

    void endpointMadeOnce()
    {
        // --from-redis reaches Redis a second time (the rule store) through the same endpoint:
        // the warning of a password in --url (and the cluster probe) once, not per step.
        QString withPassword = url();
        withPassword.replace(QStringLiteral("redis://"), QStringLiteral("redis://u:pw@"));
        QVERIFY(withPassword.contains(QStringLiteral("u:pw@")));
        const test::CliRun r =
            test::runCli({QStringLiteral("check"), QStringLiteral("--url"), withPassword,
                          QStringLiteral("--from-redis"), QStringLiteral("--rule"),
                          QStringLiteral("x"), QStringLiteral("--subject"), QStringLiteral("a")});
        QCOMPARE(r.err.count("a password in --url can be seen"), 1);
    }

    void noStats()
    {
        // Decisions are counted in {sluice}:stats:<rule>:<second> unless --no-stats.
        Connection c = test::connect();
        for (const bool counted : {true, false}) {
            const QString id = uniqueId(counted ? "st" : "nost");
            QStringList args{QStringLiteral("check"),
                             QStringLiteral("--url"),
                             url(),
                             QStringLiteral("--algorithm"),
                             QStringLiteral("fixed_window"),
                             QStringLiteral("--limit"),
                             QStringLiteral("3"),
                             QStringLiteral("--window"),
                             QStringLiteral("5s"),
                             QStringLiteral("--id"),
                             id,
                             QStringLiteral("--subject"),
                             QStringLiteral("x"),
                             QStringLiteral("--count"),
                             QStringLiteral("2")};
            if (!counted) {
                args << QStringLiteral("--no-stats");
            }
            test::CliRun r = test::runCli(args);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY2(r.err.isEmpty(), r.err.constData());
            auto keys = c.command(
                {"SCAN", "0", "MATCH", "{sluice}:stats:" + id.toUtf8() + ":*", "COUNT", "100000"});
            QVERIFY(keys.ok());
            QCOMPARE(keys->elements.size() == 2 && !keys->elements[1].elements.empty(), counted);
            test::deleteByPrefix(c, "{sluice}:stats:" + id.toUtf8() + ":");
            test::deleteByPrefix(c, "rate_limit:" + id.toUtf8() + ":");
        }
    }

    void injectedTime()
    {
        // --now-us: decisions at a given time (tests and simulation only). GCRA 1/s, burst 0:
        // one request per second; the second at the same microsecond waits exactly 1000 ms.
        const QString id = uniqueId("now");
        auto at = [&](qint64 nowUs) {
            test::CliRun r = test::runCli(
                {QStringLiteral("check"), QStringLiteral("--url"), url(),
                 QStringLiteral("--algorithm"), QStringLiteral("gcra"), QStringLiteral("--rate"),
                 QStringLiteral("1/s"), QStringLiteral("--burst"), QStringLiteral("1"),
                 QStringLiteral("--id"), id, QStringLiteral("--subject"), QStringLiteral("s"),
                 QStringLiteral("--now-us"), QString::number(nowUs), QStringLiteral("--cost"),
                 QStringLiteral("2"), QStringLiteral("--json")});
            return QJsonDocument::fromJson(r.out).object();
        };
        const qint64 t0 = 1'700'000'000'000'000;
        QCOMPARE(at(t0)[QStringLiteral("allowed")].toBool(), true);
        const QJsonObject second = at(t0);
        QCOMPARE(second[QStringLiteral("allowed")].toBool(), false);
        QCOMPARE(second[QStringLiteral("retry_after_ms")].toInt(), 2000);
        QCOMPARE(at(t0 + 2'000'000)[QStringLiteral("allowed")].toBool(), true);
    }

    void badUsage_data()
    {
        test::usageErrorColumns();
        const QStringList fw{QStringLiteral("--algorithm"), QStringLiteral("fixed_window")};
        const QStringList tb{QStringLiteral("--algorithm"), QStringLiteral("token_bucket")};
        auto row = [](const char *name, QStringList args, const char *says) {
            QTest::newRow(name) << args << QString::fromUtf8(says);
        };
        const QString u = QStringLiteral("--url");
        const QString sub = QStringLiteral("--subject");
        // `algorithm` with its two parameters (flag, value, flag, value) for subject "a" on
        // `url`, and `extra`.
        auto limiter = [&](const QStringList &algorithm, const std::array<const char *, 4> &p,
                           const QStringList &extra, const char *url) {
            QStringList args{u, QString::fromLatin1(url)};
            args << algorithm;
            for (const char *word : p) {
                args << QString::fromLatin1(word);
            }
            return args + QStringList{sub, QStringLiteral("a")} + extra;
        };
        // A fixed window of `limit` per `per`, or a token bucket of `rate` and `burst`.
        auto window = [&](const char *limit, const char *per, const QStringList &extra = {},
                          const char *url = "redis://h:1") {
            return limiter(fw, {"--limit", limit, "--window", per}, extra, url);
        };
        auto bucket = [&](const char *rate, const char *burst, const QStringList &extra = {}) {
            return limiter(tb, {"--rate", rate, "--burst", burst}, extra, "redis://h:1");
        };
        row("invalid url", window("1", "1s", {}, "http://x"), "--url");
        row("url without host", window("1", "1s", {}, "redis://"), "host");
        row("unknown algorithm",
            QStringList{u, QStringLiteral("redis://h:1"), QStringLiteral("--algorithm"),
                        QStringLiteral("bogus"), sub, QStringLiteral("a")},
            "--algorithm 'bogus' is unknown");
        row("zero limit", window("0", "1s"), "--limit must be an integer >= 1");
        row("negative limit", window("-4", "1s"), "--limit");
        row("zero window", window("3", "0s"), "--window");
        row("negative window", window("3", "-5s"), "--window");
        row("window without unit", window("3", "5"), "--window");
        row("zero rate", bucket("0/s", "3"), "--rate");
        row("negative rate", bucket("-1/s", "3"), "--rate");
        row("zero burst", bucket("1/s", "0"), "--burst");
        row("negative burst", bucket("1/s", "-2"), "--burst");
        row("fractional cost", window("3", "1s", {QStringLiteral("--cost"), QStringLiteral("1.5")}),
            "--cost must be an integer");
        row("negative cost", window("3", "1s", {QStringLiteral("--cost"), QStringLiteral("-1")}),
            "--cost must be an integer >= 0");
        row("window flag on a bucket",
            bucket("1/s", "3", {QStringLiteral("--limit"), QStringLiteral("3")}),
            "--limit does not apply to token_bucket");
        row("missing subject",
            QStringList{u, QStringLiteral("redis://h:1")} + fw +
                QStringList{QStringLiteral("--limit"), QStringLiteral("3"),
                            QStringLiteral("--window"), QStringLiteral("1s")},
            "--subject is required");
        row("empty subject",
            QStringList{u, QStringLiteral("redis://h:1")} + fw +
                QStringList{QStringLiteral("--limit"), QStringLiteral("3"),
                            QStringLiteral("--window"), QStringLiteral("1s"), sub, QString()},
            "--subject must not be empty");
        row("unknown option",
            QStringList{u, QStringLiteral("redis://h:1"), QStringLiteral("--limt"),
                        QStringLiteral("3")},
            "unknown option --limt");
        row("too large for exact arithmetic",
            QStringList{u, QStringLiteral("redis://h:1"), QStringLiteral("--algorithm"),
                        QStringLiteral("sliding_counter"), QStringLiteral("--limit"),
                        QStringLiteral("1000000000"), QStringLiteral("--window"),
                        QStringLiteral("1d"), sub, QStringLiteral("a")},
            "exact arithmetic");
    }
    void badUsage() { test::checkUsageErrorRow(QStringLiteral("check")); }

    void oddSubjects_data()
    {
        QTest::addColumn<QByteArray>("subject");
        QTest::newRow("spaces") << QByteArray("a user with spaces");
        QTest::newRow("newlines") << QByteArray("line1\nline2\r\n");
        QTest::newRow("braces") << QByteArray("{tag}}{x");
        QTest::newRow("unicode") << QByteArray("用户-ü-🚦");
        QTest::newRow("100 kB") << QByteArray(100 * 1024, 'x');
    }
    void oddSubjects()
    {
        QFETCH(QByteArray, subject);
        const QString id = uniqueId("odd");
        test::CliRun r = test::runCli(
            {QStringLiteral("check"), QStringLiteral("--url"), url(), QStringLiteral("--algorithm"),
             QStringLiteral("sliding_log"), QStringLiteral("--limit"), QStringLiteral("2"),
             QStringLiteral("--window"), QStringLiteral("1m"), QStringLiteral("--id"), id,
             QStringLiteral("--subject"), QString::fromUtf8(subject), QStringLiteral("--count"),
             QStringLiteral("3"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray a = QJsonDocument::fromJson(r.out).array();
        QCOMPARE(a.size(), 3);
        QCOMPARE(a[2].toObject()[QStringLiteral("allowed")].toBool(), false);
        // The state lives under exactly the bytes given, with a TTL.
        Connection c = test::connect();
        const QByteArray key = "rate_limit:" + id.toUtf8() + ":{" + subject + '}';
        // Two entries (and the rule version's member at -inf: lua/sliding_log.lua).
        QCOMPARE(c.command({"ZCOUNT", key, "(-inf", "+inf"})->integer, 2);
        QVERIFY(test::pttl(c, key) > 0);
    }

    void nulBytesInSubjects()
    {
        // argv cannot carry NUL: the engine can. Each algorithm, a subject with NUL and CR/LF.
        RedisLimiter limiter(test::connect());
        Connection probe = test::connect();
        for (Algorithm a : algorithm::all) {
            Policy p = algorithm::isWindow(a) ? Policy::window(a, 2, 60'000'000)
                                              : Policy::bucket(a, {2, 60'000'000}, 2);
            p.keyPrefix = test::keyPrefix();
            p.id = algorithm::name(a);
            const QByteArray subject("n\0ul\r\n{}", 8);
            const QByteArray key = p.keyFor(subject);
            auto d = limiter.decide({&p, key, 1, std::nullopt, 0});
            QVERIFY2(d.ok(), qPrintable(d.ok() ? QString() : d.error().message));
            QVERIFY(d->allowed);
            QVERIFY(test::pttl(probe, key) > 0);
            QCOMPARE(probe.command({"EXISTS", p.keyFor("n")})->integer, 0);
        }
    }

    void unreachableRedis()
    {
        const quint16 port = test::freeLoopbackPort();
        test::CliRun r = test::runCli({QStringLiteral("check"), QStringLiteral("--url"),
                                       QStringLiteral("redis://127.0.0.1:%1").arg(port),
                                       QStringLiteral("--algorithm"), QStringLiteral("gcra"),
                                       QStringLiteral("--rate"), QStringLiteral("1/s"),
                                       QStringLiteral("--burst"), QStringLiteral("1"),
                                       QStringLiteral("--subject"), QStringLiteral("x")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("127.0.0.1:" + QByteArray::number(port)), r.err.constData());
        QVERIFY(r.err.contains("cannot connect"));
    }

    void unknownCommand()
    {
        test::CliRun r = test::runCli({QStringLiteral("frobnicate")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown command"));
        r = test::runCli({});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("usage"));
    }

    void rulesValidate()
    {
        const QString sample = QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/rules.json");
        test::CliRun r =
            test::runCli({QStringLiteral("rules"), QStringLiteral("validate"), sample});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("valid"));

        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.json"));
        QVERIFY(test::writeFile(
            bad, "{\"version\": 1, \"rules\": [\n"
                 "  {\"id\": \"a\", \"scope\": \"ip\", \"algorithm\": \"fixed_window\",\n"
                 "   \"limit\": 0, \"window\": \"5s\"},\n"
                 "  {\"id\": \"b\", \"scope\": \"ip\", \"algorithm\": \"gcra\",\n"
                 "   \"rate\": \"1/s\", \"burst\": 2, \"limt\": 3}\n"
                 "]}\n"));
        r = test::runCli({QStringLiteral("rules"), QStringLiteral("validate"), bad});
        QCOMPARE(r.exitCode, 2);
        // Every error, each with file:line:column and the field path.
        QVERIFY2(r.err.contains(bad.toUtf8() + ":3:"), r.err.constData());
        QVERIFY(r.err.contains("rules[0].limit"));
        QVERIFY(r.err.contains("rules[1].limt"));
        r = test::runCli(
            {QStringLiteral("rules"), QStringLiteral("validate"), bad, QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 2);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("valid")].toBool(), false);
        QCOMPARE(o[QStringLiteral("errors")].toArray().size(), 2);

        r = test::runCli({QStringLiteral("rules"), QStringLiteral("validate"),
                          dir.filePath(QStringLiteral("missing.json"))});
        QCOMPARE(r.exitCode, 2);
        r = test::runCli({QStringLiteral("rules"), QStringLiteral("frobnicate")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("unknown subcommand"));
    }

    void rulesExport()
    {
        const QString sample = QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/rules.json");
        QTemporaryDir dir;
        const QString out = dir.filePath(QStringLiteral("limits.conf"));
        test::CliRun r = test::runCli({QStringLiteral("rules"), QStringLiteral("export"), sample,
                                       QStringLiteral("--format"), QStringLiteral("nginx"),
                                       QStringLiteral("--out"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray conf = f.readAll();
        QVERIFY(conf.contains("limit_req_zone"));
        QVERIFY(conf.contains("limit_req_status 429;"));
        // What nginx cannot express is said on stderr, rule by rule.
        QVERIFY2(r.err.contains("skipped rule 'hello-per-ip'"), r.err.constData());
        r = test::runCli({QStringLiteral("rules"), QStringLiteral("export"), sample,
                          QStringLiteral("--format"), QStringLiteral("toml")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--format 'toml' is unknown"));
        // YAML to stdout, and back: the same rules.
        r = test::runCli({QStringLiteral("rules"), QStringLiteral("export"), sample,
                          QStringLiteral("--format"), QStringLiteral("yaml")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("algorithm: fixed_window"));
    }

    void rulesPushPullAndCheck()
    {
        const QString sample = QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/rules.json");
        Connection c = test::connect();
        // The CLI uses the default store namespace: start from an empty one.
        for (const char *k :
             {"{sluice}:rules", "{sluice}:rules:version", "{sluice}:rules:history"}) {
            (void)c.command({"DEL", k});
        }
        test::CliRun r = test::runCli({QStringLiteral("rules"), QStringLiteral("push"), sample,
                                       QStringLiteral("--url"), url(), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object()[QStringLiteral("version")].toInt(), 1);

        QTemporaryDir dir;
        const QString pulled = dir.filePath(QStringLiteral("pulled.yaml"));
        r = test::runCli({QStringLiteral("rules"), QStringLiteral("pull"), QStringLiteral("--url"),
                          url(), QStringLiteral("--out"), pulled});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(pulled);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QByteArray yaml = f.readAll();
        f.close();
        QVERIFY(yaml.contains("based_on: 1"));
        // Someone edits the pulled file and pushes: version 2.
        yaml.replace("burst: 200", "burst: 300");
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(yaml);
        f.close();
        r = test::runCli({QStringLiteral("rules"), QStringLiteral("push"), pulled,
                          QStringLiteral("--url"), url()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.contains("pushed version 2"));
        // The original file is now stale: a conflict, exit 1, nothing written.
        r = test::runCli({QStringLiteral("rules"), QStringLiteral("push"), sample,
                          QStringLiteral("--url"), url()});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("conflict") && r.err.contains("v2 changed api-global"),
                 r.err.constData());
        QCOMPARE(c.command({"GET", "{sluice}:rules:version"})->str, QByteArray("2"));
        // --force overwrites.
        r = test::runCli({QStringLiteral("rules"), QStringLiteral("push"), sample,
                          QStringLiteral("--url"), url(), QStringLiteral("--force")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(c.command({"GET", "{sluice}:rules:version"})->str, QByteArray("3"));

        // check with a rule from the file and from Redis.
        const QString subject = uniqueId("subj");
        r = test::runCli({QStringLiteral("check"), QStringLiteral("--url"), url(),
                          QStringLiteral("--rules"), sample, QStringLiteral("--rule"),
                          QStringLiteral("login-per-ip"), QStringLiteral("--subject"), subject,
                          QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("limit")].toInt(), 3); // gcra burst 2: limit 3
        QCOMPARE(o[QStringLiteral("key")].toString(),
                 QStringLiteral("rate_limit:login-per-ip:{%1}").arg(subject));
        r = test::runCli({QStringLiteral("check"), QStringLiteral("--url"), url(),
                          QStringLiteral("--from-redis"), QStringLiteral("--rule"),
                          QStringLiteral("login-per-ip"), QStringLiteral("--subject"), subject,
                          QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[QStringLiteral("remaining")].toInt(), 1); // the same key: one more spent
        (void)c.command({"DEL", o[QStringLiteral("key")].toString().toUtf8()});
        r = test::runCli({QStringLiteral("check"), QStringLiteral("--url"), url(),
                          QStringLiteral("--rules"), sample, QStringLiteral("--rule"),
                          QStringLiteral("nope"), QStringLiteral("--subject"), subject});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--rule 'nope' is not in"));
        r = test::runCli({QStringLiteral("check"), QStringLiteral("--url"), url(),
                          QStringLiteral("--rules"), sample, QStringLiteral("--rule"),
                          QStringLiteral("login-per-ip"), QStringLiteral("--limit"),
                          QStringLiteral("3"), QStringLiteral("--subject"), subject});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--limit is part of an inline policy"));
    }

    void invalidFileNeverReachesRedis()
    {
        QTemporaryDir dir;
        const QString bad = dir.filePath(QStringLiteral("bad.yaml"));
        QVERIFY(test::writeFile(
            bad, "version: 1\nrules:\n  - id: x\n    scope: ip\n    algorithm: gcra\n"
                 "    rate: 0/s\n    burst: 1\n"));
        Connection c = test::connect();
        const auto before = c.command({"GET", "{sluice}:rules:version"});
        test::CliRun r = test::runCli({QStringLiteral("rules"), QStringLiteral("push"), bad,
                                       QStringLiteral("--url"), url(), QStringLiteral("--force")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("rules[0].rate") && r.err.contains("nothing was done"),
                 r.err.constData());
        QCOMPARE(c.command({"GET", "{sluice}:rules:version"})->str, before->str);
        // Redis unreachable: exit 1, naming the address.
        r = test::runCli({QStringLiteral("rules"), QStringLiteral("pull"), QStringLiteral("--url"),
                          QStringLiteral("redis://127.0.0.1:%1").arg(test::freeLoopbackPort())});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("cannot connect"));
    }

    void benchRuns()
    {
        test::CliRun r = test::runCli({QStringLiteral("bench"), QStringLiteral("--url"), url(),
                                       QStringLiteral("--seconds"), QStringLiteral("0.1"),
                                       QStringLiteral("--rounds"), QStringLiteral("1"),
                                       QStringLiteral("--algorithm"),
                                       QStringLiteral("fixed_window"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonArray rows =
            QJsonDocument::fromJson(r.out).object()[QStringLiteral("results")].toArray();
        QCOMPARE(rows.size(), 2);
        QCOMPARE(rows[0].toObject()[QStringLiteral("mode")].toString(), QStringLiteral("sync"));
        QCOMPARE(rows[1].toObject()[QStringLiteral("mode")].toString(),
                 QStringLiteral("pipelined"));
        QCOMPARE(rows[1].toObject()[QStringLiteral("batch")].toInt(), 64);
        for (const auto &row : rows) {
            QVERIFY(row.toObject()[QStringLiteral("decisions_per_s")].toDouble() > 0);
            QVERIFY(row.toObject()[QStringLiteral("ceiling_per_s")].toDouble() > 0);
            QVERIFY(row.toObject()[QStringLiteral("ratio")].toDouble() > 0);
        }
        // It cleans up after itself.
        Connection c = test::connect();
        QCOMPARE(test::keysWithPrefix(c, "sluice-bench:").size(), qsizetype(0));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
