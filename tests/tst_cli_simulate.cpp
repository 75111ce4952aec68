// sluice-cli simulate as a user runs it: real process, exit codes, the named problem on stderr,
// --json exactly as FORMATS.md writes it, --csv, --png and --svg, the Redis backend, Ctrl+C.
#include "runcli.h"
#include "testdata.h"
#include "testredis.h"

#include "ui/sim/simulationcharts.h"

#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>

#include <signal.h>

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

// sluice-cli simulate ARGS.
test::CliRun cli(const QStringList &args)
{
    return test::runCli(QStringList{u"simulate"_s} + args);
}

qint64 simKeys()
{
    Connection c = test::connect();
    return test::keysWithPrefix(c, "sluice:sim:").size();
}

const QByteArray rulesPart =
    R"("rules": [{"id": "r", "scope": "ip", "algorithm": "fixed_window", "limit": 3, "window": "5s"}])";

} // namespace

class TestCliSimulate : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cleanupTestCase() { QCOMPARE(simKeys(), 0); }

    void badInput_data()
    {
        QTest::addColumn<QByteArray>("scenario");  // written to dir/s.json; empty: none
        QTest::addColumn<QByteArray>("trace");     // written to dir/trace.csv
        QTest::addColumn<QStringList>("args");     // "@" = the scenario file
        QTest::addColumn<QStringList>("expected"); // substrings of stderr

        const QStringList file{u"@"_s};
        const auto doc = [](const QByteArray &duration, const QByteArray &traffic) {
            return "{\"duration\": \"" + duration + "\",\n\"traffic\": [" + traffic + "],\n" +
                   rulesPart + "}\n";
        };
        QTest::newRow("negative rate")
            << doc("30s", R"({"pattern": "constant", "rate": "-2/s"})") << QByteArray() << file
            << QStringList{u"s.json:2:37: traffic[0].rate: rate '-2/s' must be positive"_s,
                           u"is not a valid scenario (1 error); nothing was run"_s};
        QTest::newRow("zero rate")
            << doc("30s", R"({"pattern": "poisson", "rate": "0/s"})") << QByteArray() << file
            << QStringList{u"traffic[0].rate: rate '0/s' must be positive"_s};
        QTest::newRow("zero duration")
            << doc("0s", R"({"pattern": "constant", "rate": "1/s"})") << QByteArray() << file
            << QStringList{u"s.json:1:2: duration: duration '0s' must be positive"_s};
        QTest::newRow("10^12 requests")
            << doc("30s", R"({"pattern": "burst", "at": "1s", "count": 1000000000000})")
            << QByteArray() << file
            << QStringList{u"traffic[0].count: 1000000000000 requests is more than a simulation "
                           "offers (at most 50000000)"_s};
        QTest::newRow("unknown pattern")
            << doc("30s", R"({"pattern": "zigzag"})") << QByteArray() << file
            << QStringList{u"s.json:2:14: traffic[0].pattern: unknown pattern 'zigzag'"_s};
        QTest::newRow("unknown field")
            << doc("30s", R"({"pattern": "constant", "rate": "1/s", "jitter": "5ms"})")
            << QByteArray() << file << QStringList{u"traffic[0].jitter: unknown field 'jitter'"_s};
        QTest::newRow("replay garbage")
            << doc("30s", R"({"pattern": "replay", "file": "trace.csv"})")
            << QByteArray("t_ms,subject\n100,a\nGET /index.html 200\n250,b\n3e5,c\n") << file
            << QStringList{u"trace.csv:3: traffic[0].file: not a request line"_s,
                           u"trace.csv:5: traffic[0].file: not a request line"_s};
        QTest::newRow("bad rule")
            << QByteArray("{\"duration\": \"30s\", \"traffic\": [{\"pattern\": \"constant\", "
                          "\"rate\": \"1/s\"}],\n\"rules\": [{\"id\": \"r\", \"scope\": \"ip\", "
                          "\"algorithm\": \"token_bucket\", \"rate\": \"1/s\"}]}")
            << QByteArray() << file
            << QStringList{u"rules[0].burst: required field 'burst' is missing"_s};
        QTest::newRow("unknown preset")
            << QByteArray() << QByteArray() << QStringList{u"preset:nope"_s}
            << QStringList{u"no preset named 'nope'; the presets are"_s, u"boundary-burst"_s};
        QTest::newRow("no such file")
            << QByteArray() << QByteArray() << QStringList{u"/nonexistent/s.json"_s}
            << QStringList{u"/nonexistent/s.json: cannot open the file"_s};
        QTest::newRow("backend") << QByteArray() << QByteArray()
                                 << QStringList{u"preset:boundary-burst"_s, u"--backend"_s,
                                                u"memcached"_s}
                                 << QStringList{u"--backend 'memcached' is unknown"_s};
        QTest::newRow("redis without url")
            << QByteArray() << QByteArray()
            << QStringList{u"preset:boundary-burst"_s, u"--backend"_s, u"redis"_s}
            << QStringList{u"--backend redis needs --url"_s};
        QTest::newRow("no scenario") << QByteArray() << QByteArray() << QStringList{}
                                     << QStringList{u"give a scenario file or preset:<name>"_s};
        QTest::newRow("unknown flag")
            << QByteArray() << QByteArray() << QStringList{u"preset:boundary-burst"_s, u"--fast"_s}
            << QStringList{u"unknown option --fast"_s};
    }

    void badInput()
    {
        QFETCH(QByteArray, scenario);
        QFETCH(QByteArray, trace);
        QFETCH(QStringList, args);
        QFETCH(QStringList, expected);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.json"_s);
        if (!scenario.isEmpty()) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(scenario);
        }
        if (!trace.isEmpty()) {
            QFile f(dir.filePath(u"trace.csv"_s));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(trace);
        }
        args.replaceInStrings(u"@"_s, path);
        const test::CliRun r = cli(args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        for (const QString &e : expected) {
            QVERIFY2(QString::fromUtf8(r.err).contains(e), r.err.constData());
        }
    }

    void presetJson()
    {
        const test::CliRun r = cli({u"preset:boundary-burst"_s, u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // FORMATS.md, fields in the documented order, one line.
        QVERIFY2(
            r.out.startsWith(R"({"scenario":"boundary burst","backend":"local","results":[)"
                             R"({"rule":"fixed-window","algorithm":"fixed_window","offered":230,)"
                             R"("admitted":)"),
            r.out.constData());
        QVERIFY(r.out.endsWith("}]}\n"));
        QCOMPARE(r.out.count('\n'), 1);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonArray results = o[u"results"_s].toArray();
        QCOMPARE(results.size(), 6);
        const QStringList fields{u"rule"_s,
                                 u"algorithm"_s,
                                 u"offered"_s,
                                 u"admitted"_s,
                                 u"rejected"_s,
                                 u"max_admitted_in_window"_s,
                                 u"max_released_in_window"_s,
                                 u"peak_admitted_per_bin"_s,
                                 u"mean_delay_ms"_s,
                                 u"max_delay_ms"_s};
        for (const QJsonValue &v : results) {
            QCOMPARE(v.toObject().keys().size(), fields.size());
            for (const QString &f : fields) {
                QVERIFY(v.toObject().contains(f));
            }
        }
        QVERIFY(results[0].toObject()[u"max_admitted_in_window"_s].toInt() >= 190); // ~2N
        QVERIFY(results[1].toObject()[u"max_admitted_in_window"_s].toInt() <= 100); // <= N
        QVERIFY(results[4].toObject()[u"mean_delay_ms"_s].toDouble() > 0);

        // Human output: one row per rule under a header.
        const test::CliRun human = cli({u"preset:boundary-burst"_s});
        QCOMPARE(human.exitCode, 0);
        QVERIFY(human.out.contains("boundary burst on the in-process models: 230 requests"));
        QVERIFY(human.out.contains("rule "));
        for (const char *id : {"fixed-window", "sliding-log", "sliding-counter", "token-bucket",
                               "leaky-bucket", "gcra"}) {
            QVERIFY(human.out.contains("\n" + QByteArray(id) + " "));
        }
    }

    // The sample whose rules adopt a Spring counter (resources/samples/spring-counter.json):
    // its twins run beside the rules, named <rule>@<layout>, in the table, the sentences under
    // it, the JSON and the CSV; the same on --backend redis (the twins run in process there).
    void adoptedCounter()
    {
        const QString sample =
            QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/spring-counter.json");
        const test::CliRun human = cli({sample});
        QVERIFY2(human.exitCode == 0, human.err.constData());
        // A row each, the layout in the algorithm's column.
        for (const char *row : {"hello@string_counter", "hello-get-then-incr@string_counter"}) {
            const QRegularExpression line(u"\\n%1 +string_counter +270 "_s.arg(
                QRegularExpression::escape(QString::fromLatin1(row))));
            QVERIFY2(QString::fromUtf8(human.out).contains(line), human.out.constData());
        }
        QVERIFY(human.out.contains("hello@string_counter: the limiter rule hello adopts "
                                   "(string_counter, script get_incr_expire, 100 per 10s)"));
        QVERIFY2(human.out.contains("hello-get-then-incr@string_counter: the limiter rule "
                                    "hello-get-then-incr adopts (string_counter, script "
                                    "get_then_incr, 100 per 10s), its twin in process; lost its "
                                    "TTL at 10s"),
                 human.out.constData());
        const test::CliRun json = cli({sample, u"--json"_s});
        QCOMPARE(json.exitCode, 0);
        const QJsonArray results =
            QJsonDocument::fromJson(json.out).object()[u"results"_s].toArray();
        QCOMPARE(results.size(), 4);
        const QJsonObject spring = results[2].toObject();
        QCOMPARE(spring[u"rule"_s].toString(), u"hello@string_counter"_s);
        QCOMPARE(spring[u"adopted"_s].toObject()[u"script"_s].toString(), u"get_incr_expire"_s);
        // The counter's window runs from its first hit: more than its limit in 10 s at the
        // boundary; the sliding log that replaces it never.
        QVERIFY(spring[u"max_admitted_in_window"_s].toInt() > 100);
        QVERIFY(results[0].toObject()[u"max_admitted_in_window"_s].toInt() <= 100);
        QCOMPARE(results[3].toObject()[u"adopted"_s].toObject()[u"lost_ttl_at_ms"_s].toInt(),
                 10000);
        QCOMPARE(results[1].toObject()[u"adopted"_s].toObject().isEmpty(), true);
        const test::CliRun redis = cli({sample, u"--json"_s, u"--url"_s, test::redisUrl()});
        QVERIFY2(redis.exitCode == 0, redis.err.constData());
        QCOMPARE(QByteArray(redis.out).replace(R"("backend":"redis")", R"("backend":"local")"),
                 json.out);
        QCOMPARE(simKeys(), 0);
    }

    void csvSeries()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"series.csv"_s);
        const test::CliRun r = cli({u"preset:steady-overload"_s, u"--csv"_s, path, u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = f.readAll().trimmed().split('\n');
        QCOMPARE(lines.front(), QByteArray("t_ms,rule,offered,admitted,rejected,released"));
        // 60 s in bins of 100 ms (the leaky bucket's queue drains within the duration), 6 rules.
        QCOMPARE(lines.size(), 1 + 600 * 6);
        QCOMPARE(lines[1].left(15), QByteArray("0,fixed-window,"));
        QCOMPARE(lines.last().left(14), QByteArray("59900,gcra,0,0"));
        // The series adds up to the results.
        const QJsonArray results = QJsonDocument::fromJson(r.out).object()[u"results"_s].toArray();
        QHash<QByteArray, qint64> offered;
        QHash<QByteArray, qint64> released;
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const QList<QByteArray> c = lines[i].split(',');
            QCOMPARE(c.size(), 6);
            offered[c[1]] += c[2].toLongLong();
            released[c[1]] += c[5].toLongLong();
        }
        for (const QJsonValue &v : results) {
            const QJsonObject o = v.toObject();
            const QByteArray id = o[u"rule"_s].toString().toUtf8();
            QCOMPARE(offered[id], o[u"offered"_s].toInteger());
            QCOMPARE(released[id], o[u"admitted"_s].toInteger());
        }
    }

    // --png and --svg: the console's figure, drawn headless (no DISPLAY needed: the command
    // picks the offscreen platform itself).
    void charts()
    {
        QTemporaryDir dir;
        const QString png = dir.filePath(u"burst.png"_s);
        const QString svg = dir.filePath(u"burst.svg"_s);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(u"QT_QPA_PLATFORM"_s);
        env.remove(u"DISPLAY"_s);
        env.remove(u"WAYLAND_DISPLAY"_s);
        const test::CliRun r = test::runCli({u"simulate"_s, u"preset:boundary-burst"_s, u"--png"_s,
                                             png, u"--svg"_s, svg, u"--json"_s},
                                            env);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith(R"({"scenario":"boundary burst")"));

        const QImage image(png);
        QVERIFY2(!image.isNull(), "the PNG does not decode");
        QCOMPARE(image.size(), ui::SimulationCharts::defaultSize(6));
        // Not blank: plenty of ink, and each of the six rules' hues is there.
        qint64 ink = 0;
        QSet<int> hues;
        for (int y = 0; y < image.height(); y += 2) {
            for (int x = 0; x < image.width(); x += 2) {
                const QColor c = image.pixelColor(x, y);
                if (qGray(c.rgb()) < 240) {
                    ++ink;
                }
                if (c.hsvSaturationF() > 0.3 && c.valueF() > 0.3) {
                    hues.insert(c.hsvHue() / 4);
                }
            }
        }
        QVERIFY2(ink > image.width() * image.height() / 4 / 50,
                 qPrintable(u"only %1 inked pixels"_s.arg(ink)));
        for (int i = 0; i < 6; ++i) {
            const int hue = ui::SimulationCharts::ruleColor(i).hsvHue() / 4;
            QVERIFY2(hues.contains(hue) || hues.contains(hue - 1) || hues.contains(hue + 1) ||
                         hues.contains((hue + 89) % 90) || hues.contains((hue + 1) % 90),
                     qPrintable(u"no pixel of rule %1's colour"_s.arg(i)));
        }

        QFile f(svg);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QXmlStreamReader xml(bytes);
        int paths = 0;
        QString text;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement) {
                if (xml.name() == u"path"_s || xml.name() == u"polyline"_s) {
                    ++paths;
                }
                if (xml.name() == u"text"_s) {
                    text += xml.readElementText(QXmlStreamReader::IncludeChildElements) + u' ';
                }
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY2(paths >= 6 * 3, qPrintable(u"%1 paths"_s.arg(paths)));
        for (const QString &id :
             {u"fixed-window"_s, u"sliding-log"_s, u"leaky-bucket"_s, u"gcra"_s}) {
            QVERIFY2(text.contains(id), qPrintable(id));
        }
        QVERIFY(text.contains(u"offered"_s));

        // Where they are written: an unwritable path is a runtime failure naming it.
        const test::CliRun bad =
            cli({u"preset:boundary-burst"_s, u"--png"_s, u"/nonexistent/x.png"_s});
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("/nonexistent/x.png"), bad.err.constData());
    }

    // sluice-cli, the program the systemd unit runs, loads no desktop stack: the charts are
    // drawn by sluice-render beside it (ldd lists every library the loader would map).
    void cliLinksNoDesktopStack()
    {
        QProcess ldd;
        ldd.start(u"ldd"_s, {test::cliPath()});
        QVERIFY(ldd.waitForFinished(30000));
        QCOMPARE(ldd.exitCode(), 0);
        const QByteArray libs = ldd.readAllStandardOutput();
        QVERIFY2(libs.contains("libQt6Core.so") && libs.contains("libQt6Network.so"),
                 libs.constData());
        for (const char *lib : {"libQt6Widgets", "libQt6Charts", "libQt6Gui", "libQt6OpenGL",
                                "libQt6DBus", "libQt6Svg", "libGL", "libEGL", "libxcb", "libX11"}) {
            QVERIFY2(!libs.contains(lib),
                     qPrintable(u"sluice-cli links %1:\n"_s.arg(QLatin1String(lib)) +
                                QString::fromLocal8Bit(libs)));
        }
    }

    // A sluice-cli without its renderer beside it says so, naming the missing file, before it
    // runs anything, and writes no file.
    void chartsWithoutTheRenderer()
    {
        QTemporaryDir dir;
        const QString lone = dir.filePath(u"sluice-cli"_s);
        QVERIFY(QFile::copy(test::cliPath(), lone));
        QVERIFY(QFile::setPermissions(lone, QFile::permissions(lone) | QFile::ExeOwner));
        QProcess p;
        p.start(lone,
                {u"simulate"_s, u"preset:boundary-burst"_s, u"--png"_s, dir.filePath(u"x.png"_s)});
        QVERIFY(p.waitForFinished(60000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 1);
        QVERIFY2(err.contains("sluice-render, the chart renderer"), err.constData());
        QVERIFY2(err.contains(dir.filePath(u"sluice-render"_s).toUtf8() + " is missing"),
                 err.constData());
        QVERIFY(p.readAllStandardOutput().isEmpty());
        QVERIFY(!QFile::exists(dir.filePath(u"x.png"_s)));
    }

    void redisBackend()
    {
        const test::CliRun local = cli({u"preset:3-per-5s-per-ip"_s, u"--json"_s});
        const test::CliRun redis =
            cli({u"preset:3-per-5s-per-ip"_s, u"--json"_s, u"--url"_s, test::redisUrl()});
        QVERIFY2(redis.exitCode == 0, redis.err.constData());
        QVERIFY(redis.out.contains(R"("backend":"redis")"));
        QCOMPARE(QByteArray(redis.out).replace(R"("backend":"redis")", R"("backend":"local")"),
                 local.out);
        QCOMPARE(simKeys(), 0);
    }

    void redisUnreachable()
    {
        const test::CliRun r = cli({u"preset:boundary-burst"_s, u"--url"_s,
                                    u"redis://127.0.0.1:%1"_s.arg(test::freeLoopbackPort())});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("sluice-cli simulate: ") && r.err.contains("127.0.0.1"),
                 r.err.constData());
    }

    // Ctrl+C in the middle of a Redis run: it stops, removes its keys, exits 1.
    void interruptLeavesNoKeys()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"long.json"_s);
        QVERIFY(test::writeFile(path, R"({"name": "long", "duration": "10m", "subjects": 1000,
                   "traffic": [{"pattern": "constant", "rate": "5000/s"}],
                   "rules": [{"id": "r", "scope": "ip", "algorithm": "sliding_log",
                              "limit": 5, "window": "10s"}]})"));
        QProcess p;
        p.start(test::cliPath(), {u"simulate"_s, path, u"--url"_s, test::redisUrl(), u"--json"_s});
        QVERIFY(p.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(simKeys() > 100, 20'000); // deciding on Redis
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(30'000));
        QCOMPARE(p.exitStatus(), QProcess::NormalExit);
        QCOMPARE(p.exitCode(), 1);
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(err.contains("cancelled after") &&
                     err.contains("the run's keys were removed from Redis"),
                 err.constData());
        QVERIFY(p.readAllStandardOutput().isEmpty());
        QCOMPARE(simKeys(), 0);
    }
};

QTEST_GUILESS_MAIN(TestCliSimulate)
#include "tst_cli_simulate.moc"
