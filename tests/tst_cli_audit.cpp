// `sluice-cli keys audit` and `keys fix --match GLOB --ttl D | --delete`
// on a redis-server of the test's own (a whole-keyspace audit must see only the test's
// keys): 1,000,000 application keys and a few hundred limiter keys audited within the scan
// budget with exact counts; fixes that never extend a TTL, also racing a writer; bad input
// refused with exit 2 and nothing written.
#include "ownredis.h"
#include "runcli.h"
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include "core/keys/audit.h"
#include "core/keys/keyfixer.h"
#include "core/keys/keywatcher.h"

#include <QDateTime>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <random>

using namespace sluice;
using namespace sluice::keys;
using namespace Qt::StringLiterals;

namespace {

QByteArray num(qint64 v)
{
    return QByteArray::number(v);
}

// Sends `commands` pipelined in batches, checking every reply.
bool pipelined(Connection &c, const QList<QList<QByteArray>> &commands)
{
    for (qsizetype from = 0; from < commands.size(); from += 1000) {
        auto r = c.pipeline(commands.mid(from, 1000));
        if (!r) {
            qWarning() << r.error().message;
            return false;
        }
        for (const auto &one : *r) {
            if (!one) {
                qWarning() << one.error().message;
                return false;
            }
        }
    }
    return true;
}

qint64 pttlOf(Connection &c, const QByteArray &key)
{
    auto r = c.command({"PTTL", key});
    return r ? r->integer : -3;
}

QJsonObject groupOf(const QJsonObject &doc, const QString &layout)
{
    for (const QJsonValue &g : doc.value(u"groups"_s).toArray()) {
        if (g.toObject().value(u"layout"_s).toString() == layout) {
            return g.toObject();
        }
    }
    return {};
}

} // namespace

class TestCliAudit : public QObject
{
    Q_OBJECT

    test::OwnRedis m_redis;
    std::optional<Connection> m_c;

    Connection &c() { return *m_c; }
    QString url() const { return m_redis.url(); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_redis.start({u"--enable-debug-command"_s, u"yes"_s}),
                 m_redis.output().constData());
        auto c = Connection::open(m_redis.endpoint());
        QVERIFY2(c, qPrintable(c ? QString() : c.error().message));
        m_c.emplace(std::move(*c));
    }

    void init() { QVERIFY(c().command({"FLUSHALL"})); }

    // 1,000,000 application keys without TTL (DEBUG POPULATE) and a few hundred limiter keys:
    // every count exact, application keys only counted.
    void millionKeys()
    {
        QVERIFY(c().command({"DEBUG", "POPULATE", "1000000", "key"}));
        auto t = c().command({"TIME"});
        QVERIFY(t);
        const qint64 nowS = t->elements[0].str.toLongLong();
        const qint64 nowMs = nowS * 1000;
        QList<QList<QByteArray>> plant;
        for (int i = 0; i < 200; ++i) { // GET/INCR/EXPIRE counters that lost their TTL
            plant << QList<QByteArray>{"SET", "rate_limit:10.0." + num(i) + ".1-hello", num(i)};
        }
        // express-rate-limit, healthy. An hour's TTL: under ASan the plant and the scan took
        // over a minute, and a minute's TTL let 15 of them expire before they were counted.
        for (int i = 0; i < 100; ++i) {
            plant << QList<QByteArray>{"SET", "rl:10.1.0." + num(i), "3", "PX", "3600000"};
        }
        for (int i = 0; i < 10; ++i) { // named like rl: but not a counter
            plant << QList<QByteArray>{"HSET", "rl:meta:" + num(i), "owner", "web"};
        }
        for (int i = 0; i < 50; ++i) { // Kong minute counters with an hour's TTL
            plant << QList<QByteArray>{
                "SET", "ratelimit:r:s:10.2.0." + num(i) + ":" + num(nowS / 60 * 60000) + ":minute",
                "1", "EX", "3600"};
        }
        for (int i = 0; i < 30; ++i) { // sliding logs without TTL
            plant << QList<QByteArray>{"ZADD", "sliding:user" + num(i), num(nowMs), num(nowMs)};
        }
        for (int i = 0; i < 20; ++i) { // hand-written counters: suspects
            plant << QList<QByteArray>{"SET", "api_quota:user" + num(i), "7"};
        }
        for (int i = 0; i < 40; ++i) { // application keys with a TTL
            plant << QList<QByteArray>{"SET", "cache:page" + num(i), "<html>", "EX", "600"};
        }
        QVERIFY(pipelined(c(), plant));

        const test::CliRun r = test::runCli({u"keys"_s, u"audit"_s, u"--url"_s, url(), u"--json"_s,
                                             u"--scan-budget"_s, u"250000"_s},
                                            {}, {}, 280'000);
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(!doc.isEmpty(), r.out.left(300).constData());
        QCOMPARE(doc.value(u"complete"_s).toBool(), true);
        QCOMPARE(doc.value(u"scanned"_s).toInteger(), qint64(1'000'450));
        QCOMPARE(doc.value(u"other_keys_without_ttl"_s).toInteger(), qint64(1'000'000));
        QCOMPARE(doc.value(u"other_keys"_s).toInteger(), qint64(40));
        QCOMPARE(doc.value(u"suspects"_s).toInteger(), qint64(20));
        const QJsonObject counters = groupOf(doc, u"string_counter"_s);
        QCOMPARE(counters.value(u"keys"_s).toInteger(), qint64(200));
        QCOMPARE(counters.value(u"never_expires"_s).toInteger(), qint64(200));
        const QJsonObject rl = groupOf(doc, u"rate_limit_redis"_s);
        QCOMPARE(rl.value(u"keys"_s).toInteger(), qint64(100));
        QCOMPARE(rl.value(u"ok"_s).toInteger(), qint64(100));
        QCOMPARE(rl.value(u"lost_ttl"_s).toString(), u"heals_on_next_request"_s);
        // Named like rl: but a hash: looks like it, not judged as it, not flagged.
        QCOMPARE(doc.value(u"looks_like"_s).toInteger(), qint64(10));
        const QJsonObject kong = groupOf(doc, u"kong_counter"_s);
        QCOMPARE(kong.value(u"ttl_too_long"_s).toInteger(), qint64(50));
        const QJsonObject logs = groupOf(doc, u"sorted_set_log"_s);
        QCOMPARE(logs.value(u"never_expires"_s).toInteger(), qint64(30));
        QCOMPARE(doc.value(u"flagged"_s).toInteger(), qint64(200 + 50 + 30 + 20));
        // Limiter keys and suspects are listed, application keys never are.
        const QJsonArray keys = doc.value(u"keys"_s).toArray();
        QCOMPARE(keys.size(), 410);
        for (const QJsonValue &v : keys) {
            const QJsonObject o = v.toObject();
            for (const char *field :
                 {"key", "type", "ttl_ms", "layout", "health", "state", "cause"}) {
                QVERIFY2(o.contains(QLatin1String(field)), field);
            }
            QVERIFY(!o.value(u"key"_s).toString().startsWith(u"key:"_s));
        }
        // The first group is the worst: its keys block their subjects without a TTL.
        QCOMPARE(doc.value(u"groups"_s).toArray().first().toObject().value(u"layout"_s).toString(),
                 u"string_counter"_s);

        // The text report: groups, the suspects with their reason, the other keys counted.
        const test::CliRun text =
            test::runCli({u"keys"_s, u"audit"_s, u"--url"_s, url(), u"--match"_s, u"[rsa]*"_s});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("string_counter: 200 flagged of 200"), text.out.constData());
        QVERIFY(text.out.contains("suspects: 20"));
        QVERIFY(text.out.contains("whose name says \"quota\""));
        QVERIFY(text.out.contains("other keys without TTL: 0"));
    }

    // A writer sets a TTL between the scan and the fix: the fix leaves it as it is, longer or
    // shorter than the fix's own (sets a TTL only on keys that still have none).
    void fixNeverTouchesATtlSetMeanwhile()
    {
        QList<KeyInfo> stale;
        QList<QList<QByteArray>> plant;
        for (int i = 0; i < 90; ++i) {
            const QByteArray key = "rate_limit:race" + num(i);
            plant << QList<QByteArray>{"SET", key, "5"};
            KeyInfo k;
            k.key = key;
            k.type = "string";
            k.pttlMs = -1; // as the scan saw it
            k.health = Health::NoTtl;
            k.maxTtlMs = 60'000;
            stale << k;
        }
        QVERIFY(pipelined(c(), plant));
        // The writer, after the scan: a long TTL on a third, a short one on another third.
        QList<QList<QByteArray>> writer;
        for (int i = 0; i < 60; ++i) {
            writer << QList<QByteArray>{"PEXPIRE", stale[i].key, i < 30 ? "7200000" : "5000"};
        }
        QVERIFY(pipelined(c(), writer));
        KeyFixer::Options o;
        o.onlyWithoutTtl = true;
        o.onlyFlagged = true;
        const KeyFixer::Report report = KeyFixer::run(c(), stale, KeyFixer::Action::SetTtl, o);
        QVERIFY(!report.error);
        QCOMPARE(report.count(KeyFixer::Status::AlreadyFine), qint64(60));
        QCOMPARE(report.count(KeyFixer::Status::Done), qint64(30));
        for (int i = 0; i < 90; ++i) {
            const qint64 t = pttlOf(c(), stale[i].key);
            if (i < 30) {
                QVERIFY2(t > 7'000'000, qPrintable(QString::number(t))); // not lowered
            } else if (i < 60) {
                QVERIFY2(t > 0 && t <= 5000, qPrintable(QString::number(t))); // not extended
            } else {
                QVERIFY2(t > 50'000 && t <= 60'000, qPrintable(QString::number(t)));
            }
        }
    }

    // The same race with the real command and a real concurrent writer: whoever comes first, no
    // key ends with more than the writer's 5 s.
    void fixRacingAWriter()
    {
        QList<QByteArray> keys;
        QList<QList<QByteArray>> plant;
        for (int i = 0; i < 20'000; ++i) {
            keys << "throttle:w" + num(i);
            plant << QList<QByteArray>{"SET", keys.last(), "1"};
        }
        QVERIFY(pipelined(c(), plant));
        std::shuffle(keys.begin(), keys.end(), std::mt19937(7));
        QProcess fix;
        fix.start(test::cliPath(),
                  {u"keys"_s, u"fix"_s, u"--url"_s, url(), u"--match"_s, u"throttle:w*"_s,
                   u"--ttl"_s, u"1h"_s, u"--scan-budget"_s, u"0"_s, u"--json"_s});
        QVERIFY(fix.waitForStarted());
        QList<QList<QByteArray>> writer;
        for (const QByteArray &k : std::as_const(keys)) {
            writer << QList<QByteArray>{"PEXPIRE", k, "5000"};
        }
        QVERIFY(pipelined(c(), writer));
        QVERIFY(fix.waitForFinished(120'000));
        QCOMPARE(fix.exitCode(), 0);
        const QJsonObject doc = QJsonDocument::fromJson(fix.readAllStandardOutput()).object();
        qInfo() << "fix set" << doc.value(u"done"_s).toInteger() << "TTLs;"
                << doc.value(u"got_ttl_meanwhile"_s).toInteger() << "keys got one meanwhile,"
                << doc.value(u"had_ttl"_s).toInteger() << "had one at the scan";
        QList<QList<QByteArray>> check;
        for (const QByteArray &k : std::as_const(keys)) {
            check << QList<QByteArray>{"PTTL", k};
        }
        auto replies = c().pipeline(check);
        QVERIFY(replies);
        for (qsizetype i = 0; i < keys.size(); ++i) {
            const qint64 t = (*replies)[size_t(i)] ? (*replies)[size_t(i)]->integer : -3;
            QVERIFY2(t > 0 && t <= 5000, (keys[i] + " " + num(t)).constData());
        }
    }

    // --delete removes only the keys of GLOB still without TTL; --dry-run writes nothing.
    void deleteAndDryRun()
    {
        QVERIFY(pipelined(c(), {{"SET", "limit:a", "1"},
                                {"SET", "limit:b", "2"},
                                {"SET", "limit:c", "3", "EX", "60"},
                                {"SET", "session:x", "y"}}));
        test::CliRun r = test::runCli({u"keys"_s, u"fix"_s, u"--url"_s, url(), u"--match"_s,
                                       u"limit:*"_s, u"--ttl"_s, u"2m"_s, u"--dry-run"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("would set a TTL of 2 min on 2 keys"), r.out.constData());
        QCOMPARE(pttlOf(c(), "limit:a"), qint64(-1));
        r = test::runCli(
            {u"keys"_s, u"fix"_s, u"--url"_s, url(), u"--match"_s, u"limit:*"_s, u"--delete"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("deleted 2 keys without TTL"), r.out.constData());
        QCOMPARE(pttlOf(c(), "limit:a"), qint64(-2));
        QCOMPARE(pttlOf(c(), "limit:b"), qint64(-2));
        QVERIFY(pttlOf(c(), "limit:c") > 0);
        QCOMPARE(pttlOf(c(), "session:x"), qint64(-1));
    }

    // A glob that covers application keys (here '*') fixes only the keys a known limiter
    // layout recognises; sessions and configuration without TTL are listed as skipped, with
    // why, in the dry run and the real run, and only --any-key includes them. (It used to set
    // a TTL on, or with --delete remove, every key without TTL in the database.)
    void globFixTouchesOnlyLimiterKeys()
    {
        const QList<QByteArray> application{"config:feature_flags", "config:rate_limit_max",
                                            "session:4f1c", "session:9a2e", "config:db"};
        QVERIFY(pipelined(c(), {{"SET", "config:feature_flags", "{\"beta\": true}"},
                                {"SET", "config:rate_limit_max", "100"},
                                {"HSET", "session:4f1c", "user", "ann", "seen", "1700000000"},
                                {"HSET", "session:9a2e", "user", "bob"},
                                {"RPUSH", "config:db", "primary", "replica"},
                                {"SET", "limit:login:ann", "4"},
                                {"SET", "rl:api:bob", "7"},
                                {"SET", "limit:login:kept", "1", "EX", "60"}}));
        const QList<QByteArray> limiter{"limit:login:ann", "rl:api:bob"};
        const QStringList base{u"keys"_s, u"fix"_s, u"--url"_s, url(), u"--match"_s, u"*"_s};
        auto untouched = [&] {
            for (const QByteArray &k : application) {
                if (pttlOf(c(), k) != -1) {
                    return false;
                }
            }
            return true;
        };

        test::CliRun r = test::runCli(base + QStringList{u"--ttl"_s, u"1m"_s, u"--dry-run"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("would set a TTL of 1 min on 2 keys"), r.out.constData());
        QVERIFY2(r.out.contains("dry run: 5 keys without TTL left alone"), r.out.constData());
        QVERIFY2(r.out.contains("--any-key"), r.out.constData());
        for (const QByteArray &k : application) {
            QVERIFY2(r.out.contains("  " + k + "  skipped: "), r.out.constData());
        }
        QVERIFY2(r.out.contains("config:rate_limit_max  skipped: named like a limit"),
                 r.out.constData());
        QVERIFY(untouched());
        QCOMPARE(pttlOf(c(), "limit:login:ann"), qint64(-1));

        r = test::runCli(base + QStringList{u"--ttl"_s, u"1m"_s, u"--json"_s});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(doc.value(u"done"_s).toInteger(), 2);
        QCOMPARE(doc.value(u"skipped"_s).toInteger(), 5);
        QCOMPARE(doc.value(u"had_ttl"_s).toInteger(), 1);
        QStringList skippedKeys;
        for (const QJsonValue &v : doc.value(u"skipped_keys"_s).toArray()) {
            skippedKeys << v.toObject().value(u"key"_s).toString();
            QVERIFY(!v.toObject().value(u"why"_s).toString().isEmpty());
        }
        skippedKeys.sort();
        QStringList expected;
        for (const QByteArray &k : application) {
            expected << QString::fromUtf8(k);
        }
        expected.sort();
        QCOMPARE(skippedKeys, expected);
        QVERIFY(untouched());
        for (const QByteArray &k : limiter) {
            const qint64 t = pttlOf(c(), k);
            QVERIFY2(t > 0 && t <= 60'000, (k + " " + num(t)).constData());
        }

        // --delete: the same split; the application keys stay.
        QVERIFY(pipelined(c(), {{"PERSIST", "limit:login:ann"}, {"PERSIST", "rl:api:bob"}}));
        r = test::runCli(base + QStringList{u"--delete"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("deleted 2 keys without TTL"), r.out.constData());
        QVERIFY2(r.out.contains("skipped: 5 keys without TTL left alone"), r.out.constData());
        QCOMPARE(pttlOf(c(), "limit:login:ann"), qint64(-2));
        QCOMPARE(pttlOf(c(), "rl:api:bob"), qint64(-2));
        QVERIFY(untouched());

        // --any-key: asked for, every key of the glob without TTL.
        r = test::runCli(base + QStringList{u"--ttl"_s, u"1m"_s, u"--any-key"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("set a TTL of 1 min on 5 keys"), r.out.constData());
        for (const QByteArray &k : application) {
            QVERIFY(pttlOf(c(), k) > 0);
        }
        // And only with --ttl / --delete.
        r = test::runCli({u"keys"_s, u"audit"_s, u"--url"_s, url(), u"--any-key"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--any-key applies to"), r.err.constData());
    }

    // A never-expiring string counter under a rule's prefix (the GET/INCR/EXPIRE limiter the
    // rule replaced) is no_ttl, not wrong_type, and `keys fix --rules` gives it the rule's
    // window; one that expires soon, or a hash that is not the rule's, stays wrong_type.
    void stringCounterUnderARule()
    {
        QTemporaryDir dir;
        const QString rules = dir.filePath(u"rules.json"_s);
        QVERIFY(test::writeFile(rules, R"({"version": 1, "rules": [{"id": "hello", "scope": "ip",
                  "algorithm": "fixed_window", "limit": 3, "window": "5s"}]})"));
        QVERIFY(pipelined(c(), {{"SET", "rate_limit:hello:{1.2.3.4}", "57"},
                                {"SET", "rate_limit:hello:{5.6.7.8}", "2", "PX", "3000"},
                                {"HSET", "rate_limit:hello:{9.9.9.9}", "x", "1"}}));
        test::CliRun r =
            test::runCli({u"keys"_s, u"--url"_s, url(), u"--rules"_s, rules, u"--json"_s});
        QCOMPARE(r.exitCode, 0);
        QHash<QString, QString> health;
        for (const QJsonValue &v : QJsonDocument::fromJson(r.out).array()) {
            health.insert(v[u"key"_s].toString(), v[u"health"_s].toString());
        }
        QCOMPARE(health.value(u"rate_limit:hello:{1.2.3.4}"_s), u"never_expires"_s);
        QCOMPARE(health.value(u"rate_limit:hello:{5.6.7.8}"_s), u"wrong_type"_s);
        QCOMPARE(health.value(u"rate_limit:hello:{9.9.9.9}"_s), u"wrong_type"_s);

        // The audit names its layout and the rule.
        r = test::runCli(
            {u"keys"_s, u"audit"_s, u"--url"_s, url(), u"--rules"_s, rules, u"--json"_s});
        QCOMPARE(r.exitCode, 0);
        bool seen = false;
        for (const QJsonValue &v : QJsonDocument::fromJson(r.out)[u"keys"_s].toArray()) {
            if (v[u"key"_s].toString() == u"rate_limit:hello:{1.2.3.4}"_s) {
                seen = true;
                QCOMPARE(v[u"layout"_s].toString(), u"string_counter"_s);
                QCOMPARE(v[u"health"_s].toString(), u"never_expires"_s);
                QCOMPARE(v[u"rule"_s].toString(), u"hello"_s);
                QVERIFY(v[u"cause"_s].toString().contains(u"keys fix --rules"_s));
            }
        }
        QVERIFY(seen);

        r = test::runCli({u"keys"_s, u"fix"_s, u"--url"_s, url(), u"--rules"_s, rules});
        QCOMPARE(r.exitCode, 0);
        const qint64 t = pttlOf(c(), "rate_limit:hello:{1.2.3.4}");
        QVERIFY2(t > 0 && t <= 5000, qPrintable(QString::number(t)));
        QCOMPARE(pttlOf(c(), "rate_limit:hello:{9.9.9.9}"), qint64(-1)); // left as it is
    }

    // A rule file adopting another limiter's keys: decoded against its limit ("57 / 100 in
    // this window") by `keys` and `keys audit`, fixed from its window by `keys fix --rules`.
    void adoptedKeys()
    {
        QTemporaryDir dir;
        const QString rules = dir.filePath(u"rules.json"_s);
        QVERIFY(test::writeFile(rules, R"({"version": 1, "rules": [{"id": "hello", "scope": "ip",
                  "algorithm": "fixed_window", "limit": 3, "window": "5s",
                  "adopt": {"match": "rate_limit:*-hello", "layout": "string_counter",
                            "window": "1m", "limit": 100}}]})"));
        const QByteArray stuck = "rate_limit:127.0.0.1-com.example.HelloController-hello";
        const QByteArray live = "rate_limit:10.0.0.2-com.example.HelloController-hello";
        const QByteArray longer = "rate_limit:10.0.0.3-com.example.HelloController-hello";
        QVERIFY(pipelined(c(), {{"SET", stuck, "57"},
                                {"SET", live, "100", "EX", "30"},
                                {"SET", longer, "4", "EX", "7200"},
                                {"SET", "rate_limit:other", "5"}}));
        test::CliRun r =
            test::runCli({u"keys"_s, u"--url"_s, url(), u"--rules"_s, rules, u"--json"_s});
        QCOMPARE(r.exitCode, 0);
        QHash<QString, QJsonObject> byKey;
        for (const QJsonValue &v : QJsonDocument::fromJson(r.out).array()) {
            byKey.insert(v[u"key"_s].toString(), v.toObject());
        }
        const QJsonObject s = byKey.value(QString::fromLatin1(stuck));
        QCOMPARE(s[u"health"_s].toString(), u"never_expires"_s);
        QCOMPARE(s[u"rule"_s].toString(), u"hello"_s);
        QCOMPARE(s[u"max_ttl_ms"_s].toInteger(), qint64(60'000));
        QCOMPARE(s[u"state"_s][u"text"_s].toString(),
                 u"57 / 100 in this window, never resets (no TTL)"_s);
        QVERIFY2(
            byKey.value(QString::fromLatin1(live))[u"state"_s][u"text"_s].toString().startsWith(
                u"100 / 100 in this window (full), resets in"_s),
            r.out.constData());
        QCOMPARE(byKey.value(QString::fromLatin1(longer))[u"health"_s].toString(),
                 u"ttl_too_long"_s);
        QCOMPARE(byKey.value(u"rate_limit:other"_s)[u"health"_s].toString(), u"no_rule"_s);

        r = test::runCli(
            {u"keys"_s, u"audit"_s, u"--url"_s, url(), u"--rules"_s, rules, u"--json"_s});
        QCOMPARE(r.exitCode, 0);
        bool seen = false;
        for (const QJsonValue &v : QJsonDocument::fromJson(r.out)[u"keys"_s].toArray()) {
            if (v[u"key"_s].toString() == QString::fromLatin1(stuck)) {
                seen = true;
                QCOMPARE(v[u"layout"_s].toString(), u"string_counter"_s);
                QCOMPARE(v[u"health"_s].toString(), u"never_expires"_s);
                QCOMPARE(v[u"limit"_s].toInteger(), qint64(100));
                QCOMPARE(v[u"window_ms"_s].toInteger(), qint64(60'000));
                QVERIFY(v[u"state"_s].toString().startsWith(u"57 / 100 in this window"_s));
            }
        }
        QVERIFY(seen);

        r = test::runCli({u"keys"_s, u"fix"_s, u"--url"_s, url(), u"--rules"_s, rules});
        QCOMPARE(r.exitCode, 0);
        qint64 t = pttlOf(c(), stuck);
        QVERIFY2(t > 50'000 && t <= 60'000, qPrintable(QString::number(t)));
        t = pttlOf(c(), longer);
        QVERIFY2(t > 50'000 && t <= 60'000, qPrintable(QString::number(t))); // lowered
        t = pttlOf(c(), live);
        QVERIFY2(t > 0 && t <= 30'000, qPrintable(QString::number(t))); // never extended
        QCOMPARE(pttlOf(c(), "rate_limit:other"), qint64(-1));          // an orphan: left
    }

    // A bad adopt block: exit 2 naming the field, nothing scanned or written.
    void badAdopt_data()
    {
        test::columns<QByteArray, QString>("adopt", "message");
        QTest::newRow("unknown layout")
            << QByteArray(R"({"match": "rate_limit:*", "layout": "spring_counter"})")
            << u"rules[0].adopt.layout: unknown layout 'spring_counter'; expected one of"_s;
        QTest::newRow("not adoptable")
            << QByteArray(R"({"match": "rate_limit:*", "layout": "bucket4j"})")
            << u"rules[0].adopt.layout: cannot adopt the layout 'bucket4j'"_s;
        QTest::newRow("outside the prefix")
            << QByteArray(R"({"match": "count_rate_limit:*", "layout": "string_counter"})")
            << u"rules[0].adopt.match: 'count_rate_limit:*' contradicts the rule's key_prefix "
               "'rate_limit:'"_s;
        QTest::newRow("unknown field")
            << QByteArray(R"({"match": "rate_limit:*", "layout": "string_counter", "ttl": "1m"})")
            << u"rules[0].adopt.ttl: unknown field 'ttl'"_s;
    }

    void badAdopt()
    {
        QFETCH(QByteArray, adopt);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QString rules = dir.filePath(u"rules.json"_s);
        QVERIFY(test::writeFile(rules, R"({"version": 1, "rules": [{"id": "hello", "scope": "ip",
                  "algorithm": "fixed_window", "limit": 3, "window": "5s", "adopt": )" +
                                           adopt + "}]}"));
        QVERIFY(pipelined(c(), {{"SET", "rate_limit:x", "1"}}));
        for (const QStringList &args :
             {QStringList{u"keys"_s, u"audit"_s}, QStringList{u"keys"_s, u"fix"_s},
              QStringList{u"rules"_s, u"validate"_s, rules}}) {
            QStringList all = args;
            if (args.first() == u"keys"_s) {
                all << u"--url"_s << url() << u"--rules"_s << rules;
            }
            const test::CliRun r = test::runCli(all);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(QString::fromUtf8(r.err + r.out).contains(message), r.err.constData());
        }
        QCOMPARE(pttlOf(c(), "rate_limit:x"), qint64(-1));
    }

    // The audit's value reads, counted by Redis: every key's value read once, within its
    // budget, in the scan's own round trips. A string of up to 128 bytes comes whole from one
    // GETRANGE (no STRLEN); only a longer one that may be a serialized bucket gets its length;
    // a sorted set of up to 7 members comes whole from one ZRANGE (no ZCARD), a larger one
    // gets its size and newest end after; a key judged from its Sluice rule's state (read by
    // the scan) is not read again.
    void valuesReadOnceInTheScansRoundTrips()
    {
        QList<QList<QByteArray>> plant;
        for (int i = 0; i < 300; ++i) {
            plant << QList<QByteArray>{"SET", "rl:10.3.0." + num(i), "3", "PX", "3600000"};
        }
        const QByteArray bucket = QByteArray(3, '\0') + '\1' + QByteArray(116, 'b');
        const QByteArray bigBucket = QByteArray(3, '\0') + '\1' + QByteArray(296, 'b');
        const QByteArray ms = QByteArray::number(QDateTime::currentMSecsSinceEpoch());
        for (int i = 0; i < 10; ++i) {
            plant << QList<QByteArray>{"SET", "bigbucket:" + num(i), bigBucket};
            plant << QList<QByteArray>{"ZADD", "sw:10.5.0." + num(i), ms, ms, ms, ms + "-1"};
            QList<QByteArray> log{"ZADD", "sw:10.6.0." + num(i)};
            for (int j = 0; j < 20; ++j) {
                log << ms << ms + "-" + num(j);
            }
            plant << log;
        }
        for (int i = 0; i < 100; ++i) {
            plant << QList<QByteArray>{"SET", "bucket:" + num(i), bucket};
            plant << QList<QByteArray>{"SET", "page:" + num(i), QByteArray(5000, 'x'), "EX", "600"};
            plant << QList<QByteArray>{
                "HSET", "rate_limit:fw:{10.4.0." + num(i) + "}", "s", "1700000000000000", "c", "1"};
        }
        QVERIFY(pipelined(c(), plant));
        QVERIFY(c().command({"CONFIG", "RESETSTAT"}));

        KeyAuditor::Options o;
        o.rules.emplace();
        o.rules->rules = {Rule::window(u"fw"_s, Algorithm::FixedWindow, 10, 3'600'000'000)};
        o.scan.patterns = {QByteArrayLiteral("*")};
        o.scan.maxKeysPerSecond = 0;
        o.scan.initialCount = o.scan.maxCount = 100; // about 6 pages
        o.pageUsesConnection = false;
        QHash<QByteArray, AuditEntry> got;
        const AuditReport report = KeyAuditor::run(c(), o, [&](const auto &page, auto &) {
            for (const AuditEntry &e : page) {
                got.insert(e.key, e);
            }
        });
        QCOMPARE(int(report.scan.status), int(ScanSummary::Status::Completed));
        QCOMPARE(got.size(), 630);
        QCOMPARE(report.group(u"rate_limit_redis"_s)->keys, qint64(300));
        QCOMPARE(report.group(u"bucket4j"_s)->keys, qint64(110));
        QCOMPARE(report.group(u"sorted_set_log"_s)->keys, qint64(20));
        QVERIFY2(got.value("bigbucket:3").state.contains(u"300 B"_s),
                 qPrintable(got.value("bigbucket:3").state));
        QCOMPARE(got.value("sw:10.5.0.4").entries, qint64(2));
        QCOMPARE(got.value("sw:10.6.0.4").entries, qint64(20));
        QVERIFY2(got.value("sw:10.6.0.4").state.startsWith(u"20 timestamps"_s),
                 qPrintable(got.value("sw:10.6.0.4").state));
        QCOMPARE(report.group(u"sluice_fixed_window"_s)->keys, qint64(100));
        QCOMPARE(report.other, qint64(100));
        QVERIFY2(got.value("bucket:7").state.contains(u"120 B"_s),
                 qPrintable(got.value("bucket:7").state));

        auto calls = [&](const char *command) {
            auto stats = c().command({"INFO", "commandstats"});
            const QByteArray tag = "cmdstat_" + QByteArray(command) + ":calls=";
            const qsizetype at = stats ? stats->str.indexOf(tag) : -1;
            return at < 0 ? 0 : stats->str.mid(at + tag.size()).split(',').first().toLongLong();
        };
        QCOMPARE(calls("getrange"), qint64(510)); // every string once
        QCOMPARE(calls("strlen"), qint64(10));    // the buckets longer than 128 bytes only
        QCOMPARE(calls("zrange"), qint64(30));    // every set once, the 20-member ones again
        QCOMPARE(calls("zcard"), qint64(10));     // the 20-member sets only
        QCOMPARE(calls("hscan"), qint64(0));      // the rule's keys: read by the scan
        QCOMPARE(calls("hmget"), qint64(100));
        // No TYPE for a key whose name says its type (the 300 rate-limit-redis counters) or
        // whose shape's keys before it had one type: read with its PTTL, its value proves it.
        QVERIFY2(calls("type") <= 330, qPrintable(QString::number(calls("type"))));
        // No round trip of their own: the values of a page ride with the next SCAN, and one
        // more round trip reads the last page's (and its buckets' lengths, one more).
        const ScanProgress &p = report.scan.progress;
        QVERIFY2(p.roundTrips <= p.pages + p.latencyProbes + 5,
                 qPrintable(u"%1 round trips, %2 pages"_s.arg(p.roundTrips).arg(p.pages)));
        // Redis's own count of TIME: the scanner's one a page and the values' one a page.
        QVERIFY2(calls("time") <= 2 * p.pages + 4, qPrintable(QString::number(calls("time"))));
    }

    // The values read with a key's PTTL instead of its TYPE (ValueReads' TypedReads: the type
    // its shape had, or its name says): a key of another type, named like a layout or shaped
    // like the keys before it, is judged exactly as a TYPE-first read judges it (never read as
    // the layout its name says, never an error), and most keys cost no TYPE.
    void typedReadsNeverMisattribute()
    {
        const QByteArray ms = QByteArray::number(QDateTime::currentMSecsSinceEpoch());
        QList<QList<QByteArray>> plant;
        for (int i = 0; i < 200; ++i) {
            plant << QList<QByteArray>{"SET", "rl:10.7.0." + num(i), "3"};
            plant << QList<QByteArray>{
                "HSET", "rate_limit:fw:{10.7.0." + num(i) + "}", "s", ms + "000", "c", "1"};
            plant << QList<QByteArray>{"ZADD", "sw:10.7.0." + num(i), ms, ms, ms, ms + "-1"};
        }
        for (int i = 0; i < 20; ++i) {
            plant << QList<QByteArray>{"RPUSH", "LIMITS:LIMITER/u" + num(i) + "/5/1/minute",
                                       ms.left(10), ms.left(10)};
        }
        // Named like a string layout (rate-limit-redis, @nestjs/throttler, @fastify/rate-limit)
        // or shaped like the strings before them, but of other types; and the other way round.
        const QByteArray hits = "{" + QByteArray(64, 'a') + ":default}:hits";
        const QList<QList<QByteArray>> odd{
            {"HSET", "rl:hash", "c", "1"},
            {"HSET", hits, "totalHits", "5"},
            {"HSET", "fastify-rate-limit-10.7.9.9", "c", "1"},
            {"ZADD", "rl:zset", ms, ms, ms, ms + "-1"},
            {"RPUSH", "rl:list", "1", "2"},
            {"SADD", "rl:set", "a"},
            {"XADD", "rl:stream", "*", "f", "v"},
            {"SET", "rl:not-a-number", "abc"},
            {"SET", "rl:\x01\n\x1b[31mred", "4"},
            {"SET", "sw:string", "7"},
            {"SET", "rate_limit:fw:{string}", "5"},
            {"HSET", "sw:hash", "c", "1"},
            {"SET", "LIMITS:LIMITER/s/5/1/minute", "3"},
            {"SADD", "LIMITS:LIMITER/set/5/1/minute", "x"},
        };
        plant << odd;
        QVERIFY(pipelined(c(), plant));
        QVERIFY(c().command({"CONFIG", "RESETSTAT"}));

        KeyAuditor::Options o;
        o.scan.patterns = {QByteArrayLiteral("*")};
        o.scan.maxKeysPerSecond = 0;
        o.scan.initialCount = o.scan.maxCount = 50; // about 13 pages: the shapes are learned
        QHash<QByteArray, AuditEntry> typed;
        const AuditReport report = KeyAuditor::run(c(), o, [&](const auto &page, auto &) {
            for (const AuditEntry &e : page) {
                typed.insert(e.key, e);
            }
        });
        QCOMPARE(int(report.scan.status), int(ScanSummary::Status::Completed));
        const qsizetype total = 620 + odd.size();
        QCOMPARE(typed.size(), total);
        auto stats = c().command({"INFO", "commandstats"});
        QVERIFY(stats);
        const QByteArray tag = "cmdstat_type:calls=";
        const qint64 types = stats->str.indexOf(tag) < 0
                                 ? 0
                                 : stats->str.mid(stats->str.indexOf(tag) + tag.size())
                                       .split(',')
                                       .first()
                                       .toLongLong();
        // The first page's keys, the shapes not learned yet, and the odd ones.
        QVERIFY2(types < 150, qPrintable(QString::number(types)));

        // The same keys read TYPE first (KeyReader alone, then the values by their type).
        QList<QByteArray> keys = typed.keys();
        KeyReader reader;
        auto infos = reader.read(c(), keys);
        QVERIFY2(infos, qPrintable(infos ? QString() : infos.error().message));
        auto plain = KeyAuditor::judge(c(), *infos, {});
        QVERIFY2(plain, qPrintable(plain ? QString() : plain.error().message));
        QCOMPARE(plain->size(), total);
        for (const AuditEntry &want : std::as_const(*plain)) {
            const AuditEntry got = typed.value(want.key);
            const QByteArray k = want.key.toPercentEncoding();
            QVERIFY2(got.type == want.type, (k + ": " + got.type).constData());
            QVERIFY2(got.layout == want.layout, (k + ": " + got.layout.toUtf8()).constData());
            QVERIFY2(got.health == want.health,
                     (k + ": " + auditHealthName(got.health).toUtf8()).constData());
            QVERIFY2(got.looksLike == want.looksLike,
                     (k + ": " + got.looksLike.toUtf8()).constData());
            // Read a moment apart: "newest 2 ms ago" and "newest 3 ms ago" are the same state.
            static const QRegularExpression age(u"[0-9.]+ (ms|s|min) ago"_s);
            QVERIFY2(QString(got.state).replace(age, u"T ago"_s) ==
                         QString(want.state).replace(age, u"T ago"_s),
                     (k + ": " + got.state.toUtf8() + " / " + want.state.toUtf8()).constData());
            QVERIFY2(got.cause == want.cause, (k + ": " + got.cause.toUtf8()).constData());
            QVERIFY2(got.count == want.count, k.constData());
            QCOMPARE(got.entries, want.entries);
        }
        // What that means for the odd ones: their own type, never the name's layout.
        QCOMPARE(typed.value("rl:hash").type, QByteArray("hash"));
        QCOMPARE(typed.value("rl:hash").health, AuditHealth::LooksLike);
        QCOMPARE(typed.value("rl:hash").looksLike, u"rate_limit_redis"_s);
        QCOMPARE(typed.value(hits).type, QByteArray("hash"));
        QVERIFY(typed.value(hits).layout != u"nestjs_hits"_s);
        QCOMPARE(typed.value("rl:set").type, QByteArray("set"));
        QCOMPARE(typed.value("rl:stream").type, QByteArray("stream"));
        QCOMPARE(typed.value("sw:string").type, QByteArray("string"));
        QCOMPARE(typed.value("rate_limit:fw:{string}").type, QByteArray("string"));
        QCOMPARE(typed.value("LIMITS:LIMITER/s/5/1/minute").type, QByteArray("string"));
        QCOMPARE(report.group(u"rate_limit_redis"_s)->keys, qint64(201));
        QCOMPARE(report.group(u"sluice_fixed_window"_s)->keys, qint64(200));
    }

    // `keys top` and the Monitor's Other limiters: a sample of several globs (three adopted,
    // and the in-key ones) is one SCAN walk, the globs matched on the keys it lists; a key no
    // glob matches is neither read nor watched.
    void watchWalksTheKeyspaceOnce()
    {
        QList<QList<QByteArray>> plant;
        for (int i = 0; i < 20; ++i) {
            plant << QList<QByteArray>{"SET", "rl:10.7.0." + num(i), "3", "PX", "3600000"};
            plant << QList<QByteArray>{"SET", "rlflx:10.7.0." + num(i), "2", "PX", "3600000"};
            plant << QList<QByteArray>{"SET", "app:" + num(i), "x", "PX", "3600000"};
        }
        plant << QList<QByteArray>{"SET", "fastify-rate-limit-10.7.0.1", "9", "PX", "3600000"};
        plant << QList<QByteArray>{"SET", "request_rate_limiter.{10.7.0.1}.tokens", "0", "EX",
                                   "60"};
        QVERIFY(pipelined(c(), plant));
        QVERIFY(c().command({"CONFIG", "RESETSTAT"}));

        KeyWatcher::Options o;
        for (const char *glob : {"rl:*", "rlflx:*", "fastify-rate-limit-*"}) {
            o.adoptions << Adoption{u"r"_s, QByteArray(glob),
                                    QByteArray(glob) == "rl:*"      ? u"rate_limit_redis"_s
                                    : QByteArray(glob) == "rlflx:*" ? u"rlflx"_s
                                                                    : u"fastify_counter"_s,
                                    60'000, 5};
        }
        o.scan.maxKeysPerSecond = 0;
        const WatchSample s = KeyWatcher::sample(c(), o);
        QVERIFY(!s.error);
        QCOMPARE(s.patterns.size(), 6); // three adopted globs, three in-key ones
        QCOMPARE(s.keys.size(), 42);    // 20 + 20 + 1 counters, and Spring's tokens
        for (const WatchedKey &k : s.keys) {
            QVERIFY2(!k.key.startsWith("app:"), k.key.constData());
        }
        auto calls = [&](const char *command) {
            auto stats = c().command({"INFO", "commandstats"});
            const QByteArray tag = "cmdstat_" + QByteArray(command) + ":calls=";
            const qsizetype at = stats ? stats->str.indexOf(tag) : -1;
            return at < 0 ? 0 : stats->str.mid(at + tag.size()).split(',').first().toLongLong();
        };
        // One walk: 82 keys in one SCAN page (six walks made six SCAN calls at least).
        QCOMPARE(calls("scan"), qint64(1));
        QCOMPARE(s.scan.progress.pages, qint64(1));
        QCOMPARE(calls("pttl"), qint64(42)); // the application keys are not read
    }

    void badInput_data()
    {
        test::columns<QStringList, QString>("args", "message");
        QTest::newRow("audit glob matching nothing")
            << QStringList{u"keys"_s, u"audit"_s, u"--match"_s, u"nothing:*"_s}
            << u"--match 'nothing:*': no key matches it"_s;
        QTest::newRow("fix glob matching nothing")
            << QStringList{u"keys"_s, u"fix"_s, u"--match"_s, u"nothing:*"_s, u"--ttl"_s, u"1m"_s}
            << u"--match 'nothing:*': no key matches it"_s;
        QTest::newRow("ttl 0") << QStringList{u"keys"_s,    u"fix"_s,   u"--match"_s,
                                              u"limit:*"_s, u"--ttl"_s, u"0"_s}
                               << u"--ttl '0': expected a duration from 1ms to 30d"_s;
        QTest::newRow("ttl 31d") << QStringList{u"keys"_s,    u"fix"_s,   u"--match"_s,
                                                u"limit:*"_s, u"--ttl"_s, u"31d"_s}
                                 << u"--ttl '31d': expected a duration from 1ms to 30d"_s;
        QTest::newRow("ttl text") << QStringList{u"keys"_s,    u"fix"_s,   u"--match"_s,
                                                 u"limit:*"_s, u"--ttl"_s, u"soon"_s}
                                  << u"--ttl 'soon'"_s;
        QTest::newRow("ttl without match")
            << QStringList{u"keys"_s, u"fix"_s, u"--ttl"_s, u"1m"_s} << u"--ttl needs --match"_s;
        QTest::newRow("ttl and delete")
            << QStringList{u"keys"_s,  u"fix"_s, u"--match"_s, u"limit:*"_s,
                           u"--ttl"_s, u"1m"_s,  u"--delete"_s}
            << u"--ttl and --delete"_s;
        QTest::newRow("read-only")
            << QStringList{u"keys"_s,  u"fix"_s, u"--match"_s,    u"limit:*"_s,
                           u"--ttl"_s, u"1m"_s,  u"--read-only"_s}
            << u"--read-only"_s;
        QTest::newRow("ttl on keys list")
            << QStringList{u"keys"_s, u"--match"_s, u"limit:*"_s, u"--ttl"_s, u"1m"_s}
            << u"--ttl applies to `keys fix` only"_s;
    }

    void badInput()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        QVERIFY(pipelined(c(), {{"SET", "limit:a", "1"}}));
        args << u"--url"_s << url();
        test::checkUsageError(args, message);
        if (QTest::currentTestFailed()) {
            return;
        }
        QCOMPARE(pttlOf(c(), "limit:a"), qint64(-1)); // nothing written
    }
};

QTEST_GUILESS_MAIN(TestCliAudit)
#include "tst_cli_audit.moc"
