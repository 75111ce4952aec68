// sluice-cli load as a user runs it: real process, real Redis, live counters, the summary, the
// statistics it leaves for the Monitor page, exit codes.
#include "runcli.h"
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include "core/stats/statsreader.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace sluice;

namespace {

QString ruleId()
{
    return QStringLiteral("t-load-%1").arg(QCoreApplication::applicationPid());
}

} // namespace

class TestCliLoad : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_rules;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_rules = m_dir.filePath(QStringLiteral("rules.json"));
        QFile f(m_rules);
        QVERIFY(f.open(QIODevice::WriteOnly));
        // 20 per hour per subject: a 2 s run never crosses a window boundary that matters.
        f.write(QStringLiteral(R"({"version": 1, "rules": [
            {"id": "%1", "scope": "ip", "algorithm": "fixed_window", "limit": 20,
             "window": "1h", "key_prefix": "%2"},
            {"id": "%1-off", "scope": "ip", "algorithm": "gcra", "rate": "1/s", "burst": 1,
             "enabled": false, "key_prefix": "%2"},
            {"id": "%1-chk", "scope": "ip", "algorithm": "fixed_window", "limit": 2,
             "window": "1h", "shadow": true, "enabled": false, "key_prefix": "%2"}]})")
                    .arg(ruleId(), QString::fromUtf8(test::keyPrefix()))
                    .toUtf8());
    }
    void cleanupTestCase()
    {
        Connection c = test::cleanSlate();
        // The statistics of our rule, under the default namespace.
        QVERIFY(test::deleteByPrefix(c, "{sluice}:stats:" + ruleId().toUtf8() + ':') >= 0);
    }

    // 100/s for 2 s over 2 subjects: 200 decisions, 40 allowed (20 per subject), live lines on
    // stderr, JSON on stdout, and the statistics in Redis add up to the same numbers.
    void loadJson()
    {
        const qint64 before = QDateTime::currentSecsSinceEpoch();
        test::CliRun r = test::runCli(
            {QStringLiteral("load"), QStringLiteral("--url"), test::redisUrl(),
             QStringLiteral("--rules"), m_rules, QStringLiteral("--pattern"),
             QStringLiteral("constant:100/s"), QStringLiteral("--duration"), QStringLiteral("2s"),
             QStringLiteral("--threads"), QStringLiteral("2"), QStringLiteral("--subjects"),
             QStringLiteral("2"), QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("load: ") && r.err.contains("allowed") && r.err.contains("rate"),
                 r.err.constData());
        QJsonParseError pe;
        const QJsonObject doc = QJsonDocument::fromJson(r.out, &pe).object();
        QVERIFY2(pe.error == QJsonParseError::NoError, r.out.constData());
        QCOMPARE(doc.value(u"sent").toInteger(), qint64(200));
        QCOMPARE(doc.value(u"allowed").toInteger(), qint64(40));
        QCOMPARE(doc.value(u"denied").toInteger(), qint64(160));
        QCOMPARE(doc.value(u"errors").toInteger(), qint64(0));
        QCOMPARE(doc.value(u"threads").toInteger(), qint64(2));
        QCOMPARE(doc.value(u"cancelled").toBool(), false);
        // Only the enabled rule ran.
        const QJsonArray rules = doc.value(u"rules").toArray();
        QCOMPARE(rules.size(), 1);
        QCOMPARE(rules[0].toObject().value(u"rule").toString(), ruleId());
        QVERIFY(doc.value(u"stats").toObject().value(u"written").toBool());

        // What the Monitor reads: the same counts, written before the process exited.
        Connection c = test::connect();
        auto series = stats::readSeries(c, {ruleId()}, 60, QDateTime::currentSecsSinceEpoch());
        QVERIFY(series);
        stats::Counts sum;
        for (const stats::Counts &s : (*series)[0].seconds) {
            sum += s;
        }
        QCOMPARE(sum.allowed, qint64(40));
        QCOMPARE(sum.denied, qint64(160));
        QVERIFY((*series)[0].firstSecond <= before);
        auto top = stats::readTopSubjects(c, ruleId(), 60, QDateTime::currentSecsSinceEpoch(), 5);
        QVERIFY(top);
        QCOMPARE(top->size(), 2);
        QCOMPARE(top->at(0).requests + top->at(1).requests, qint64(200));
    }

    // By default the decisions use run-scoped keys, removed at the end: nothing is left under
    // the rules' prefix. --rule-prefixes hits the real keys, and says so on stderr.
    void runScopedKeysByDefault()
    {
        Connection c = test::cleanSlate();
        const QStringList base{QStringLiteral("load"),
                               QStringLiteral("--url"),
                               test::redisUrl(),
                               QStringLiteral("--rules"),
                               m_rules,
                               QStringLiteral("--pattern"),
                               QStringLiteral("burst:4"),
                               QStringLiteral("--duration"),
                               QStringLiteral("200ms"),
                               QStringLiteral("--subjects"),
                               QStringLiteral("2"),
                               QStringLiteral("--json")};
        test::CliRun r = test::runCli(base);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(doc.value(u"key_prefix").toString().startsWith(u"sluice:load:"),
                 r.out.constData());
        QCOMPARE(doc.value(u"keys_removed").toInteger(), qint64(2));
        QCOMPARE(test::keysWithPrefix(c, test::keyPrefix()).size(), qsizetype(0));
        QCOMPARE(test::keysWithPrefix(c, doc.value(u"key_prefix").toString().toUtf8()).size(),
                 qsizetype(0));

        r = test::runCli(base + QStringList{QStringLiteral("--rule-prefixes")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("--rule-prefixes: the decisions use the rules' own keys (" +
                                test::keyPrefix() + ")"),
                 r.err.constData());
        QVERIFY(QJsonDocument::fromJson(r.out).object().value(u"key_prefix").isNull());
        QCOMPARE(test::keysWithPrefix(c, test::keyPrefix()).size(), qsizetype(2));
        test::cleanup(c);
    }

    void loadText()
    {
        test::CliRun r = test::runCli({QStringLiteral("load"), QStringLiteral("--url"),
                                       test::redisUrl(), QStringLiteral("--rules"), m_rules,
                                       QStringLiteral("--rule"), ruleId() + QStringLiteral("-off"),
                                       QStringLiteral("--pattern"), QStringLiteral("burst:30"),
                                       QStringLiteral("--duration"), QStringLiteral("500ms"),
                                       QStringLiteral("--subjects"), QStringLiteral("1")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // A named rule runs even when disabled: GCRA burst 1 admits 2 of a simultaneous 30.
        QVERIFY2(r.out.contains("sent 30 decisions"), r.out.constData());
        QVERIFY2(r.out.contains(ruleId().toUtf8() + "-off"), r.out.constData());
        QVERIFY2(QString::fromUtf8(r.out).contains(
                     QRegularExpression(QStringLiteral("-off\\s+2\\s+28\\s"))),
                 r.out.constData());
    }

    // check counts its decisions too (written before it exits): a shadow rule's denials are
    // shadow-denied.
    void checkRecordsStatistics()
    {
        test::CliRun r =
            test::runCli({QStringLiteral("check"), QStringLiteral("--url"), test::redisUrl(),
                          QStringLiteral("--rules"), m_rules, QStringLiteral("--rule"),
                          ruleId() + QStringLiteral("-chk"), QStringLiteral("--subject"),
                          QStringLiteral("1.2.3.4"), QStringLiteral("--count"), QStringLiteral("5"),
                          QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        Connection c = test::connect();
        auto series = stats::readSeries(c, {ruleId() + QStringLiteral("-chk")}, 60,
                                        QDateTime::currentSecsSinceEpoch());
        QVERIFY(series);
        stats::Counts sum;
        for (const stats::Counts &s : (*series)[0].seconds) {
            sum += s;
        }
        QCOMPARE(sum, (stats::Counts{2, 0, 3}));
        auto top = stats::readTopSubjects(c, ruleId() + QStringLiteral("-chk"), 60,
                                          QDateTime::currentSecsSinceEpoch(), 5);
        QVERIFY(top);
        QCOMPARE(top->size(), 1);
        QCOMPARE(top->at(0), (stats::TopSubject{"1.2.3.4", 5, 3}));
    }

    void badFlags_data()
    {
        test::usageErrorColumns();
        const QString u = test::redisUrl();
        QTest::newRow("no url") << QStringList{QStringLiteral("--pattern"),
                                               QStringLiteral("constant:1/s")}
                                << QStringLiteral("--url");
        QTest::newRow("unknown flag")
            << QStringList{QStringLiteral("--url"), u, QStringLiteral("--bogus")}
            << QStringLiteral("--bogus");
        QTest::newRow("no traffic")
            << QStringList{QStringLiteral("--url"), u} << QStringLiteral("--pattern");
        // A run of `pattern` for one second on `rules` (ours by default), and `extra`.
        const auto run = [&](const QString &pattern, const QStringList &extra = {},
                             const QString &rules = {}) {
            return QStringList{QStringLiteral("--url"),      u,
                               QStringLiteral("--rules"),    rules.isEmpty() ? m_rules : rules,
                               QStringLiteral("--pattern"),  pattern,
                               QStringLiteral("--duration"), QStringLiteral("1s")} +
                   extra;
        };
        QTest::newRow("bad pattern")
            << run(QStringLiteral("zigzag:5/s")) << QStringLiteral("--pattern 'zigzag:5/s'");
        QTest::newRow("bad rate") << run(QStringLiteral("constant:fast"))
                                  << QStringLiteral("--pattern");
        QTest::newRow("no duration")
            << QStringList{QStringLiteral("--url"),     u,
                           QStringLiteral("--rules"),   m_rules,
                           QStringLiteral("--pattern"), QStringLiteral("constant:5/s")}
            << QStringLiteral("--duration");
        QTest::newRow("threads 0") << run(QStringLiteral("constant:5/s"),
                                          {QStringLiteral("--threads"), QStringLiteral("0")})
                                   << QStringLiteral("--threads");
        QTest::newRow("subjects x") << run(QStringLiteral("constant:5/s"),
                                           {QStringLiteral("--subjects"), QStringLiteral("x")})
                                    << QStringLiteral("--subjects");
        QTest::newRow("unknown rule") << run(QStringLiteral("constant:5/s"),
                                             {QStringLiteral("--rule"), QStringLiteral("nope")})
                                      << QStringLiteral("--rule 'nope'");
        QTest::newRow("missing rules file")
            << run(QStringLiteral("constant:5/s"), {}, QStringLiteral("/nonexistent/rules.json"))
            << QStringLiteral("/nonexistent/rules.json");
        QTest::newRow("pattern after the end")
            << run(QStringLiteral("burst:5@2s")) << QStringLiteral("traffic[0].at");
    }
    void badFlags() { test::checkUsageErrorRow(QStringLiteral("load")); }

    void redisDown()
    {
        const quint16 port = test::freeLoopbackPort();
        test::CliRun r = test::runCli({QStringLiteral("load"), QStringLiteral("--url"),
                                       QStringLiteral("redis://127.0.0.1:%1").arg(port),
                                       QStringLiteral("--rules"), m_rules,
                                       QStringLiteral("--pattern"), QStringLiteral("constant:5/s"),
                                       QStringLiteral("--duration"), QStringLiteral("1s")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("127.0.0.1:" + QByteArray::number(port)), r.err.constData());
    }

    void scenarioFile()
    {
        // FORMATS.md's form: --scenario gives the traffic, duration, subjects and rules.
        const QString path = m_dir.filePath(QStringLiteral("scenario.json"));
        QVERIFY(test::writeFile(path,
                                QStringLiteral(R"({"name": "short", "duration": "1s", "subjects": 2,
            "traffic": [{"pattern": "constant", "rate": "20/s"},
                        {"pattern": "burst", "at": "500ms", "count": 10, "subject": "10.0.0.1"}],
            "rules": [{"id": "%1-sc", "scope": "ip", "algorithm": "sliding_log", "limit": 5,
                       "window": "1h", "key_prefix": "%2"}]})")
                                    .arg(ruleId(), QString::fromUtf8(test::keyPrefix()))
                                    .toUtf8()));
        test::CliRun r =
            test::runCli({QStringLiteral("load"), QStringLiteral("--url"), test::redisUrl(),
                          QStringLiteral("--scenario"), path, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc.value(u"sent").toInteger(), qint64(30));
        QCOMPARE(doc.value(u"allowed").toInteger(), qint64(10)); // 5 per subject
        QCOMPARE(doc.value(u"subjects").toInteger(), qint64(2));
        // A scenario's error names the file and the field.
        QVERIFY(test::writeFile(
            path, R"({"name": "bad", "duration": "1s", "traffic": [{"pattern": "constant"}],
                   "rules": [{"id": "x", "algorithm": "gcra", "rate": "1/s", "burst": 1}]})"));
        r = test::runCli({QStringLiteral("load"), QStringLiteral("--url"), test::redisUrl(),
                          QStringLiteral("--scenario"), path});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("scenario.json") && r.err.contains("traffic[0]"),
                 r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliLoad)
#include "tst_cli_load.moc"
