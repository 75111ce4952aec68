// sluice-cli rules history, diff and rollback end to end, on a redis-server of the test's own
// (the rule store's default namespace is shared by every test of the fixture's server).

#include "ownredis.h"
#include "runcli.h"

#include "core/redis/connection.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

using namespace sluice;
using namespace Qt::StringLiterals;

class TestCliRulesHistory : public QObject
{
    Q_OBJECT
    test::OwnRedis m_redis;
    QTemporaryDir m_dir;

    QString write(const QString &name, const QByteArray &json)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        f.open(QIODevice::WriteOnly);
        f.write(json);
        return path;
    }

    test::CliRun cli(QStringList args)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"SLUICE_AUTHOR"_s, u"ci-bot"_s);
        return test::runCli(args, env);
    }

    QJsonObject json(const test::CliRun &r) { return QJsonDocument::fromJson(r.out).object(); }

    // v1: hello 3/5s and api; v2: hello 5/5s, login added, api removed.
    QString m_v1, m_v2;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), m_redis.output().constData());
        m_v1 = write(u"v1.json"_s, R"({"version": 1, "rules": [
            {"id": "hello", "scope": "ip", "algorithm": "fixed_window", "limit": 3, "window": "5s"},
            {"id": "api", "scope": "global", "algorithm": "token_bucket", "rate": "100/s", "burst": 200}]})");
        m_v2 = write(u"v2.json"_s, R"({"version": 1, "based_on": 1, "rules": [
            {"id": "hello", "scope": "ip", "algorithm": "fixed_window", "limit": 5, "window": "5s"},
            {"id": "login", "scope": "ip", "algorithm": "gcra", "rate": "5/m", "burst": 2}]})");
    }

    void historyDiffRollback()
    {
        test::CliRun r = cli({u"rules"_s, u"push"_s, m_v1, u"--url"_s, m_redis.url(),
                              u"--message"_s, u"first limits"_s});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        r = cli({u"rules"_s, u"push"_s, m_v2, u"--url"_s, m_redis.url(), u"--author"_s, u"alice"_s,
                 u"--message"_s, u"raise hello, add login"_s});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());

        // history, text: newest first, who and why, what can be rolled back to.
        r = cli({u"rules"_s, u"history"_s, u"--url"_s, m_redis.url()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.split('\n');
        QVERIFY2(lines.size() >= 4, r.out.constData());
        QVERIFY2(lines[0].contains("version 2"), r.out.constData());
        QVERIFY2(lines[1].startsWith("v2  ") && lines[1].contains("alice") &&
                     lines[1].contains("added login; changed hello; removed api") &&
                     lines[1].contains("\"raise hello, add login\""),
                 r.out.constData());
        QVERIFY2(lines[2].startsWith("v1 ") && lines[2].contains("ci-bot") &&
                     lines[2].contains("added hello, api") && lines[2].contains("first limits"),
                 r.out.constData());
        QVERIFY2(r.out.contains("can be rolled back to: v1\n"), r.out.constData());

        // history, JSON.
        r = cli({u"rules"_s, u"history"_s, u"--url"_s, m_redis.url(), u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject h = json(r);
        QCOMPARE(h.value(u"version"_s).toInt(), 2);
        QCOMPARE(h.value(u"restorable"_s).toArray(), (QJsonArray{2, 1}));
        const QJsonObject e2 = h.value(u"entries"_s).toArray().at(0).toObject();
        QCOMPARE(e2.value(u"author"_s).toString(), u"alice"_s);
        QCOMPARE(e2.value(u"based_on"_s).toInt(), 1);
        QCOMPARE(e2.value(u"removed"_s).toArray(), QJsonArray{u"api"_s});
        QVERIFY(e2.value(u"rollback_of"_s).isNull());

        // diff of two stored versions, field by field.
        r = cli({u"rules"_s, u"diff"_s, u"redis@1"_s, u"redis"_s, u"--url"_s, m_redis.url(),
                 u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject d = json(r);
        QCOMPARE(d.value(u"same"_s).toBool(), false);
        QCOMPARE(d.value(u"added"_s).toArray().at(0).toObject().value(u"id"_s).toString(),
                 u"login"_s);
        QCOMPARE(d.value(u"removed"_s).toArray().at(0).toObject().value(u"id"_s).toString(),
                 u"api"_s);
        const QJsonObject changed = d.value(u"changed"_s).toArray().at(0).toObject();
        QCOMPARE(changed.value(u"id"_s).toString(), u"hello"_s);
        QCOMPARE(changed.value(u"fields"_s).toArray(),
                 (QJsonArray{QJsonObject{
                     {u"field"_s, u"limit"_s}, {u"from"_s, u"3"_s}, {u"to"_s, u"5"_s}}}));
        // ... in text, and a file against the store: no differences.
        r = cli({u"rules"_s, u"diff"_s, u"redis@1"_s, u"redis"_s, u"--url"_s, m_redis.url()});
        QVERIFY2(r.out.contains("~ hello\n    limit: 3 → 5\n"), r.out.constData());
        QVERIFY2(r.out.contains("+ login: ") && r.out.contains("- api: "), r.out.constData());
        QVERIFY2(r.out.contains("1 added, 1 changed, 1 removed"), r.out.constData());
        r = cli({u"rules"_s, u"diff"_s, m_v2, u"redis"_s, u"--url"_s, m_redis.url()});
        QVERIFY2(r.exitCode == 0 && r.out.endsWith("no differences\n"), r.out.constData());
        // Two files need no Redis.
        r = cli({u"rules"_s, u"diff"_s, m_v1, m_v2});
        QVERIFY2(r.exitCode == 0 && r.out.contains("1 added, 1 changed, 1 removed"),
                 (r.out + r.err).constData());

        // rollback to 1: a new version 3 holding version 1's rules.
        r = cli({u"rules"_s, u"rollback"_s, u"1"_s, u"--url"_s, m_redis.url()});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        QVERIFY2(r.out.contains("rolled back to version 1 as version 3"), r.out.constData());
        r = cli({u"rules"_s, u"diff"_s, m_v1, u"redis"_s, u"--url"_s, m_redis.url()});
        QVERIFY2(r.out.endsWith("no differences\n"), r.out.constData());
        r = cli({u"rules"_s, u"history"_s, u"--url"_s, m_redis.url(), u"--json"_s});
        h = json(r);
        QCOMPARE(h.value(u"version"_s).toInt(), 3);
        const QJsonObject e3 = h.value(u"entries"_s).toArray().at(0).toObject();
        QCOMPARE(e3.value(u"rollback_of"_s).toInt(), 1);
        QCOMPARE(e3.value(u"author"_s).toString(), u"ci-bot"_s);
        QCOMPARE(h.value(u"entries"_s).toArray().size(), 3); // nothing rewritten
        // Again: nothing to do, no new version.
        r = cli({u"rules"_s, u"rollback"_s, u"3"_s, u"--url"_s, m_redis.url()});
        QVERIFY2(r.exitCode == 0 && r.out.contains("no change"), r.out.constData());

        // A version that does not exist: exit 2 and what exists.
        r = cli({u"rules"_s, u"rollback"_s, u"9"_s, u"--url"_s, m_redis.url()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("version 9") && r.err.contains("versions that can: 3 down to 1"),
                 r.err.constData());
        r = cli({u"rules"_s, u"diff"_s, u"redis@42"_s, u"redis"_s, u"--url"_s, m_redis.url()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("versions that can: 3 down to 1"), r.err.constData());
    }

    // push --preview: a subject the stored rule denies now, released by the candidate; nothing
    // written.
    void pushPreview()
    {
        test::OwnRedis redis;
        QVERIFY(redis.start());
        test::CliRun r = cli({u"rules"_s, u"push"_s, m_v1, u"--url"_s, redis.url()});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        r = cli({u"check"_s, u"--url"_s, redis.url(), u"--from-redis"_s, u"--rule"_s, u"hello"_s,
                 u"--subject"_s, u"1.2.3.4"_s, u"--count"_s, u"4"_s});
        QVERIFY2(r.exitCode == 0 && r.out.contains("denied"), (r.out + r.err).constData());
        r = cli(
            {u"rules"_s, u"push"_s, m_v2, u"--url"_s, redis.url(), u"--preview"_s, u"--json"_s});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        const QJsonObject o = json(r);
        QCOMPARE(o.value(u"written"_s).toBool(true), false);
        QCOMPARE(o.value(u"stored_version"_s).toInt(), 1);
        QJsonObject hello;
        for (const QJsonValue &v : o.value(u"rules"_s).toArray()) {
            if (v.toObject().value(u"id"_s).toString() == u"hello"_s) {
                hello = v.toObject();
            }
        }
        QCOMPARE(hello.value(u"change"_s).toString(), u"changed"_s);
        QCOMPARE(hello.value(u"live_keys"_s).toInt(), 1);
        QCOMPARE(hello.value(u"denied_now"_s).toInt(), 1);
        QCOMPARE(hello.value(u"released"_s).toInt(), 1);
        QCOMPARE(hello.value(u"top_released"_s).toArray().at(0).toObject().value(u"subject"_s),
                 QJsonValue(u"1.2.3.4"_s));
        // The statistics check recorded: 3 allowed, 1 denied in the last 15 minutes (flushed
        // before check exits).
        QCOMPARE(hello.value(u"stats_15m"_s).toObject().value(u"denied"_s).toInt(), 1);
        r = cli({u"rules"_s, u"push"_s, m_v2, u"--url"_s, redis.url(), u"--preview"_s});
        QVERIFY2(r.out.contains("~ hello  limit: 3 → 5") && r.out.contains("released: 1.2.3.4") &&
                     r.out.contains("nothing was written"),
                 r.out.constData());
        r = cli({u"rules"_s, u"history"_s, u"--url"_s, redis.url(), u"--json"_s});
        QCOMPARE(json(r).value(u"version"_s).toInt(), 1);
        r = cli({u"rules"_s, u"push"_s, m_v2, u"--url"_s, redis.url(), u"--scan-budget"_s, u"5"_s});
        QCOMPARE(r.exitCode, 2);
    }

    void badUsage()
    {
        struct Case
        {
            QStringList args;
            const char *says;
        };
        const QList<Case> cases = {
            {{u"rules"_s, u"rollback"_s, u"abc"_s, u"--url"_s, m_redis.url()},
             "'abc' is not a version"},
            {{u"rules"_s, u"rollback"_s, u"0"_s, u"--url"_s, m_redis.url()},
             "'0' is not a version"},
            {{u"rules"_s, u"rollback"_s, u"--url"_s, m_redis.url()}, "give the version"},
            {{u"rules"_s, u"rollback"_s, u"1"_s}, "--url is required"},
            {{u"rules"_s, u"diff"_s, m_v1}, "give two rule sets"},
            {{u"rules"_s, u"diff"_s, u"redis@0"_s, m_v1, u"--url"_s, m_redis.url()}, "redis@N"},
            {{u"rules"_s, u"diff"_s, u"redis"_s, m_v1}, "--url is required"},
            {{u"rules"_s, u"history"_s, u"--url"_s, m_redis.url(), u"--force"_s},
             "--force does not apply here"},
            {{u"rules"_s, u"diff"_s, m_v1, m_dir.filePath(u"missing.json"_s)}, "missing.json"},
        };
        for (const Case &c : cases) {
            const test::CliRun r = cli(c.args);
            QVERIFY2(r.exitCode == 2,
                     qPrintable(c.args.join(u' ') + u": "_s + QString::fromUtf8(r.err)));
            QVERIFY2(r.err.contains(c.says),
                     qPrintable(c.args.join(u' ') + u": "_s + QString::fromUtf8(r.err)));
        }
    }

    void emptyStore()
    {
        test::OwnRedis fresh;
        QVERIFY(fresh.start());
        test::CliRun r = cli({u"rules"_s, u"history"_s, u"--url"_s, fresh.url()});
        QVERIFY2(r.exitCode == 0 && r.out.contains("no rules were ever pushed"), r.out.constData());
        r = cli({u"rules"_s, u"rollback"_s, u"1"_s, u"--url"_s, fresh.url()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("nothing was ever pushed"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliRulesHistory)
#include "tst_cli_ruleshistory.moc"
