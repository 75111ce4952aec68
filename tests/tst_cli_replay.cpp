// sluice-cli replay as a user runs it: a real process on log and rule files the test writes;
// exit codes (2 usage or invalid input, 1 runtime), the named problem on stderr, --json as
// FORMATS.md describes it, --csv, --against, .gz, and the Redis backend agreeing with the
// twins with its run prefix removed.
#include "runcli.h"
#include "testdata.h"
#include "testredis.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 t0 = 1'791'640'536;

test::CliRun cli(const QStringList &args)
{
    return test::runCli(QStringList{u"replay"_s} + args);
}

QByteArray line(const QString &ip, qint64 secs, const QString &request, int status = 200)
{
    return u"%1 - - [%2 +0000] \"%3 HTTP/1.1\" %4 512 \"-\" \"curl/8.0\"\n"_s
        .arg(ip, QDateTime::fromSecsSinceEpoch(secs, Qt::UTC).toString(u"dd/MMM/yyyy:HH:mm:ss"_s),
             request)
        .arg(status)
        .toUtf8();
}

QByteArray noisyLog()
{
    QByteArray log;
    for (int s = 0; s < 30; ++s) {
        for (int c = 0; c < 5; ++c) {
            log += line(u"10.0.0.%1"_s.arg(c), t0 + s, u"GET /api/x"_s);
        }
        for (int k = 0; k < 8; ++k) {
            log += line(u"203.0.113.9"_s, t0 + s, k % 2 ? u"GET /api/y"_s : u"POST /login"_s,
                        k >= 6 ? 429 : 200);
        }
    }
    return log;
}

const QByteArray rulesJson = R"({"version": 1, "rules": [
  {"id": "api", "route": "GET /api", "scope": "ip", "algorithm": "fixed_window", "limit": 3, "window": "1s"},
  {"id": "login", "route": "POST /login", "scope": "ip", "algorithm": "token_bucket", "rate": "1/s", "burst": 2},
  {"id": "all", "scope": "global", "algorithm": "sliding_log", "limit": 10, "window": "1s"},
  {"id": "key", "scope": "header:X-Api-Key", "algorithm": "gcra", "rate": "5/s", "burst": 2}
]})";

class Dir
{
public:
    QString write(const QString &name, const QByteArray &bytes)
    {
        return test::fileIn(m_dir, name, bytes);
    }
    QString path(const QString &name) const { return m_dir.filePath(name); }

private:
    QTemporaryDir m_dir;
};

QJsonObject parse(const QByteArray &out)
{
    QJsonParseError e;
    const QJsonDocument d = QJsonDocument::fromJson(out, &e);
    if (e.error != QJsonParseError::NoError) {
        qWarning("not JSON: %s", out.left(400).constData());
    }
    return d.object();
}

QJsonObject ruleOf(const QJsonObject &report, const QString &id)
{
    for (const QJsonValue &v : report[u"rules"_s].toArray()) {
        if (v[u"id"_s].toString() == id) {
            return v.toObject();
        }
    }
    return {};
}

} // namespace

class TestCliReplay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void textReport();
    void jsonReport();
    void againstAndCsv();
    void gzipAndMerge();
    void usageErrors();
    void runtimeErrors();
    void redisBackend();
};

void TestCliReplay::textReport()
{
    Dir d;
    const auto r =
        cli({d.write(u"a.log"_s, noisyLog()), u"--rules"_s, d.write(u"rules.json"_s, rulesJson)});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains(u"replay of "_s) && out.contains(u"(nginx-combined)"_s), qPrintable(out));
    QVERIFY(out.contains(u"the requests of each second are spread evenly over it"_s));
    QVERIFY(out.contains(u"rule api: 3 per 1s per IP, route GET /api"_s));
    QVERIFY(out.contains(u"203.0.113.9"_s));
    QVERIFY(out.contains(u"peak requests per subject in 1s"_s));
    QVERIFY(out.contains(u"limit 3 per 1s (the rule's)"_s));
    QVERIFY2(out.contains(u"rule key: "_s) && out.contains(u"skipped: scope header:X-Api-Key"_s),
             qPrintable(out));
}

void TestCliReplay::jsonReport()
{
    Dir d;
    const auto r =
        cli({d.write(u"a.log"_s, noisyLog()), u"--rules"_s, d.write(u"rules.json"_s, rulesJson),
             u"--json"_s, u"--candidate"_s, u"2,7"_s});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = parse(r.out);
    QCOMPARE(o[u"lines"_s].toInt(), 390);
    QCOMPARE(o[u"parsed"_s].toInt(), 390);
    QCOMPARE(o[u"backend"_s].toString(), u"local"_s);
    QVERIFY(o[u"key_prefix"_s].isNull());
    QCOMPARE(o[u"formats"_s].toArray().first().toString(), u"nginx-combined"_s);
    QVERIFY(o[u"spread_whole_seconds"_s].toBool());
    QCOMPARE(o[u"bin_ms"_s].toDouble(), 60000.0);
    const QJsonObject api = ruleOf(o, u"api"_s);
    // 5 quiet clients x 1/s and the noisy one 4 GET /api a second: 1 of its 4 over 3 per 1s.
    QCOMPARE(api[u"matched"_s].toInt(), 30 * 9);
    QCOMPARE(api[u"denied"_s].toInt(), 30);
    QCOMPARE(api[u"subjects"_s].toInt(), 6);
    QCOMPARE(api[u"subjects_denied"_s].toInt(), 1);
    const QJsonArray top = api[u"top_denied"_s].toArray();
    QCOMPARE(top.size(), 1);
    QCOMPARE(top[0][u"subject"_s].toString(), u"203.0.113.9"_s);
    QCOMPARE(top[0][u"denied"_s].toInt(), 30);
    QVERIFY(top[0][u"first"_s].toString().startsWith(u"2026-10-10T"_s));
    QCOMPARE(api[u"log_status"_s][u"log_429"_s].toInt(), 30);
    const QJsonObject s = api[u"suggestion"_s].toObject();
    QCOMPARE(s[u"window_ms"_s].toDouble(), 1000.0);
    QCOMPARE(s[u"limit"_s].toInt(), 3);
    QCOMPARE(s[u"peak"_s][u"max"_s].toInt(), 4);
    QCOMPARE(s[u"peak"_s][u"p50"_s].toInt(), 1);
    QStringList limits;
    for (const QJsonValue &c : s[u"candidates"_s].toArray()) {
        limits << QString::number(c[u"limit"_s].toInt()) + u':' + c[u"source"_s].toString();
    }
    QVERIFY2(limits.contains(u"3:rule"_s) && limits.contains(u"2:given"_s) &&
                 limits.contains(u"7:given"_s),
             qPrintable(limits.join(u' ')));
    const QJsonObject key = ruleOf(o, u"key"_s);
    QVERIFY(key[u"skipped"_s].toBool());
    QVERIFY(key[u"skip_reason"_s].toString().contains(u"X-Api-Key"_s));
    QVERIFY(ruleOf(o, u"login"_s)[u"denied"_s].toInt() > 0);
    QCOMPARE(ruleOf(o, u"all"_s)[u"matched"_s].toInt(), 390);
}

void TestCliReplay::againstAndCsv()
{
    Dir d;
    const QString log = d.write(u"a.log"_s, noisyLog());
    const QString looser = d.write(
        u"looser.json"_s,
        R"({"version": 1, "rules": [{"id": "api", "route": "GET /api", "scope": "ip", "algorithm": "fixed_window", "limit": 10, "window": "1s"}]})");
    const QString csv = d.path(u"denied.csv"_s);
    const auto r = cli({log, u"--rules"_s, d.write(u"rules.json"_s, rulesJson), u"--against"_s,
                        looser, u"--json"_s, u"--csv"_s, csv});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = parse(r.out);
    const QJsonArray cmp = o[u"comparisons"_s].toArray();
    QCOMPARE(cmp.size(), 1);
    QCOMPARE(cmp[0][u"rule"_s].toString(), u"api"_s);
    QCOMPARE(cmp[0][u"denied_only_by_rules"_s].toInt(), 1);
    QCOMPARE(cmp[0][u"denied_only_by_against"_s].toInt(), 0);
    QCOMPARE(cmp[0][u"only_rules_examples"_s].toArray().first().toString(), u"203.0.113.9"_s);
    QCOMPARE(o[u"against"_s].toArray().first()[u"denied"_s].toInt(), 0);
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QList<QByteArray> rows = f.readAll().split('\n');
    QCOMPARE(rows.first(), QByteArray("t_ms,set,rule,denied"));
    QVERIFY(rows.contains(QByteArray::number(t0 * 1000 + 375) + ",rules,api,30") ||
            rows.size() > 2);
    // The text form says it side by side.
    const auto t = cli({log, u"--rules"_s, d.path(u"rules.json"_s), u"--against"_s, looser});
    QVERIFY(t.exitCode == 0);
    QVERIFY(QString::fromUtf8(t.out).contains(u"--rules against --against"_s));
}

void TestCliReplay::gzipAndMerge()
{
    Dir d;
    const QByteArray log = noisyLog();
    const QString gz = d.path(u"a.log.gz"_s);
    gzFile g = gzopen(QFile::encodeName(gz).constData(), "wb");
    QVERIFY(g != nullptr);
    QCOMPARE(gzwrite(g, log.constData(), unsigned(log.size())), int(log.size()));
    gzclose(g);
    const QString rules = d.write(u"rules.json"_s, rulesJson);
    const auto plain = cli({d.write(u"a.log"_s, log), u"--rules"_s, rules, u"--json"_s});
    const auto zipped = cli({gz, u"--rules"_s, rules, u"--json"_s});
    QVERIFY2(zipped.exitCode == 0, zipped.err.constData());
    QCOMPARE(ruleOf(parse(zipped.out), u"api"_s)[u"digest"_s],
             ruleOf(parse(plain.out), u"api"_s)[u"digest"_s]);
    // Split into two files by line: merged by time, every request replayed (the order inside
    // a whole second is the merge's, so only the counts per second are the same).
    const QList<QByteArray> lines = log.split('\n');
    QByteArray a, b;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (!lines[i].isEmpty()) {
            (i % 3 == 0 ? a : b) += lines[i] + '\n';
        }
    }
    const auto merged =
        cli({d.write(u"p1.log"_s, a), d.write(u"p2.log"_s, b), u"--rules"_s, rules, u"--json"_s});
    QVERIFY2(merged.exitCode == 0, merged.err.constData());
    const QJsonObject m = parse(merged.out);
    QCOMPARE(m[u"files"_s].toArray().size(), 2);
    QCOMPARE(m[u"late"_s].toInt(), 0);
    QCOMPARE(ruleOf(m, u"api"_s)[u"matched"_s], ruleOf(parse(plain.out), u"api"_s)[u"matched"_s]);
    QCOMPARE(ruleOf(m, u"all"_s)[u"matched"_s].toInt(), 390);
    // Truncated: exit 1, the file and offset named, the report of the lines before it.
    QFile f(gz);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray whole = f.readAll();
    const QString cut = d.write(u"cut.log.gz"_s, whole.left(whole.size() * 2 / 3));
    const auto damaged = cli({cut, u"--rules"_s, rules, u"--json"_s});
    QCOMPARE(damaged.exitCode, 1);
    QVERIFY2(damaged.err.contains("cut.log.gz") && damaged.err.contains("truncated"),
             damaged.err.constData());
    const QJsonObject dm = parse(damaged.out);
    QVERIFY(dm[u"lines"_s].toInt() > 0 && dm[u"lines"_s].toInt() < 390);
    QVERIFY(dm[u"error"_s].toString().contains(u"compressed byte"_s));
    // Cut inside the gzip header, before any line: exit 1 (the file, not the command), the
    // offset named.
    const QString header = d.write(u"header.log.gz"_s, whole.left(12));
    const auto early = cli({header, u"--rules"_s, rules, u"--format"_s, u"nginx-combined"_s});
    QCOMPARE(early.exitCode, 1);
    QVERIFY2(early.err.contains("header.log.gz") && early.err.contains("compressed byte 12"),
             early.err.constData());
}

void TestCliReplay::usageErrors()
{
    Dir d;
    const QString log = d.write(u"a.log"_s, noisyLog());
    const QString rules = d.write(u"rules.json"_s, rulesJson);
    struct Case
    {
        QStringList args;
        QByteArray says;
    };
    const QList<Case> cases = {
        {{u"--rules"_s, rules}, "give at least one log file"},
        {{log}, "--rules FILE is required"},
        {{log, u"--rules"_s, rules, u"--format"_s, u"apache"_s}, "--format 'apache'"},
        {{log, u"--rules"_s, rules, u"--format"_s, u"nginx"_s}, "--log-format"},
        {{log, u"--rules"_s, rules, u"--log-format"_s, u"$remote_addr $status"_s},
         "no time variable"},
        {{log, u"--rules"_s, rules, u"--field"_s, u"ip"_s}, "--field 'ip'"},
        {{log, u"--rules"_s, rules, u"--field"_s, u"color=c"_s}, "unknown role 'color'"},
        {{log, u"--rules"_s, rules, u"--reorder-window"_s, u"2h"_s}, "--reorder-window"},
        {{log, u"--rules"_s, rules, u"--trust-proxies"_s, u"1"_s}, "X-Forwarded-For"},
        {{log, u"--rules"_s, rules, u"--candidate"_s, u"0"_s}, "--candidate '0'"},
        {{log, u"--rules"_s, rules, u"--backend"_s, u"redis"_s}, "--backend redis needs --url"},
        {{log, u"--rules"_s, d.write(u"bad.json"_s, R"({"version": 1, "rules": [{"id": "x"}]})")},
         "is not a valid rule file"},
        {{d.write(u"empty.log"_s, {}), u"--rules"_s, rules}, "the log is empty"},
        {{d.write(u"words.log"_s, "hello there\nmore words\n"), u"--rules"_s, rules},
         "the format is none of"},
        {{d.write(u"json.log"_s, R"({"time": "2026-10-10T13:55:36Z", "ip": "1.2.3.4"})"
                                 "\n"),
          u"--rules"_s, rules, u"--format"_s, u"nginx-combined"_s},
         "1 of the first 1 line(s) are not in the nginx-combined format"},
    };
    for (const Case &c : cases) {
        const auto r = cli(c.args);
        QVERIFY2(r.exitCode == 2,
                 qPrintable(c.args.join(u' ') + u": exit "_s + QString::number(r.exitCode) + u' ' +
                            QString::fromUtf8(r.err)));
        QVERIFY2(r.err.contains(c.says),
                 qPrintable(c.args.join(u' ') + u": "_s + QString::fromUtf8(r.err)));
        QVERIFY(!r.err.contains("Segmentation"));
    }
}

void TestCliReplay::runtimeErrors()
{
    Dir d;
    // No request matches any route: exit 1, said.
    const QString rules = d.write(
        u"rules.json"_s,
        R"({"version": 1, "rules": [{"id": "x", "route": "GET /nothing", "scope": "ip", "algorithm": "fixed_window", "limit": 1, "window": "1s"}]})");
    auto r = cli({d.write(u"a.log"_s, noisyLog()), u"--rules"_s, rules});
    QCOMPARE(r.exitCode, 1);
    QVERIFY2(r.err.contains("no request of the log matches a rule's route"), r.err.constData());
    // An unreadable file.
    r = cli({d.path(u"missing.log"_s), u"--rules"_s, rules});
    QCOMPARE(r.exitCode, 1);
    QVERIFY(r.err.contains("missing.log"));
    // Bad lines: counted, the first 10 shown with their line numbers, the run goes on.
    QByteArray log = noisyLog();
    log += "garbage\n";
    r = cli({d.write(u"b.log"_s, log), u"--rules"_s, d.write(u"r2.json"_s, rulesJson)});
    QCOMPARE(r.exitCode, 0);
    QVERIFY2(r.out.contains("b.log:391: ") && r.out.contains(": garbage"), r.out.constData());
}

void TestCliReplay::redisBackend()
{
    Dir d;
    const QString log = d.write(u"a.log"_s, noisyLog());
    const QString rules = d.write(u"rules.json"_s, rulesJson);
    const auto local = cli({log, u"--rules"_s, rules, u"--json"_s});
    const auto redis = cli({log, u"--rules"_s, rules, u"--json"_s, u"--url"_s, test::redisUrl(),
                            u"--batch"_s, u"7"_s});
    QVERIFY2(redis.exitCode == 0, redis.err.constData());
    const QJsonObject l = parse(local.out);
    const QJsonObject o = parse(redis.out);
    QCOMPARE(o[u"backend"_s].toString(), u"redis"_s);
    QVERIFY(o[u"key_prefix"_s].toString().startsWith(u"sluice:replay:"_s));
    for (const QString &id : {u"api"_s, u"login"_s, u"all"_s}) {
        QCOMPARE(ruleOf(o, id)[u"digest"_s], ruleOf(l, id)[u"digest"_s]);
        QCOMPARE(ruleOf(o, id)[u"denied"_s], ruleOf(l, id)[u"denied"_s]);
    }
    Connection c = test::connect();
    QVERIFY(test::keysWithPrefix(c, o[u"key_prefix"_s].toString().toUtf8()).isEmpty());
}

QTEST_GUILESS_MAIN(TestCliReplay)
#include "tst_cli_replay.moc"
