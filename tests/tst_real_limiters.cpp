// Other libraries' limiter keys, written by the real thing: rate-limiter-flexible,
// rate-limit-redis (express-rate-limit's store), @fastify/rate-limit in a fastify app and
// @nest-lab/throttler-storage-redis (@nestjs/throttler's Redis storage), installed from npm at
// test time and run unmodified through tests/real-limiters.js; Spring Cloud Gateway's and Kong's
// Redis scripts restated from their sources and EVALed. For each: `sluice-cli keys audit --json`
// names the layout and decodes the state; one key's TTL is taken away (PERSIST) and the verdict
// checked; the library is sent one more request, and what it then does with the key is what the
// layout table said a lost TTL does (its TTL back: heals; still none and counting: blocks).
// Also: a job scheduler's registry of clients (a zset of ids scored by their last-seen time)
// is not a limiter, is never flagged and never fixed; a key named like a layout whose value is
// not that layout's is never judged as it; huge values are read within the per-key bound.
#include "limiteraudit.h"
#include "runcli.h"
#include "testdata.h"
#include "testredis.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

// The packages, pinned to the majors the layout table was checked against.
const QStringList npmPackages = {u"rate-limiter-flexible@11"_s,
                                 u"rate-limit-redis@4"_s,
                                 u"express-rate-limit@8"_s,
                                 u"@fastify/rate-limit@10"_s,
                                 u"fastify@5"_s,
                                 u"@nest-lab/throttler-storage-redis@1"_s,
                                 u"@nestjs/throttler@6"_s,
                                 u"@nestjs/common@11"_s,
                                 u"@nestjs/core@11"_s,
                                 u"reflect-metadata@0.2"_s,
                                 u"rxjs@7"_s,
                                 u"ioredis@5"_s};

// Spring Cloud Gateway's RedisRateLimiter script: test::springGatewayScript (testdata.h).
const QByteArray springLua = test::springGatewayScript();

// Kong's rate-limiting plugin, policy redis, restated from kong/plugins/rate-limiting/policies/
// init.lua (Kong/kong, commit 003ca36200a06053fd06977d03de0c3c3b77b55f): sync_rate -1 sends
// INCR and, when it answers 1, EXPIRE <the period's seconds>. ARGV the period's seconds.
const QByteArray kongRealtimeLua = R"(local n = redis.call('incr', KEYS[1])
if n == 1 then
  redis.call('expire', KEYS[1], ARGV[1])
end
return n - 1)";
// ... and sync_rate > 0: EXISTS, INCRBY the delta, EXPIREAT when the key was new. ARGV delta,
// the expiry (s since the epoch; the releases that passed the period's start in ms here gave
// keys about 1000 times the period).
const QByteArray kongSyncLua = R"(local e = redis.call('exists', KEYS[1])
redis.call('incrby', KEYS[1], tonumber(ARGV[1]))
if not e or e == 0 then
  redis.call('expireat', KEYS[1], ARGV[2])
end
return 0)";

QByteArray num(qint64 v)
{
    return QByteArray::number(v);
}

} // namespace

class TestRealLimiters : public QObject
{
    Q_OBJECT

    QString m_node;
    QString m_dir;  // the npm cache: node_modules
    QString m_skip; // why the npm libraries cannot run here
    QByteArray m_tag;

    // Runs the driver: one JSON object, what the library answered.
    QJsonObject drive(const QString &library, const QString &step)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"NODE_PATH"_s, m_dir + u"/node_modules"_s);
        return test::runDriver(m_node,
                               {QStringLiteral(SLUICE_SOURCE_DIR) + u"/tests/real-limiters.js"_s,
                                library, step, test::redisUrl(), QString::fromLatin1(m_tag)},
                               env);
    }

    void needNpm()
    {
        if (!m_skip.isEmpty()) {
            QSKIP(qPrintable(m_skip));
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_tag = test::keyPrefix() + "real:";
        Connection c = test::connect();
        test::deleteByPrefix(c, test::keyPrefix());
        m_node = QStandardPaths::findExecutable(u"node"_s);
        const QString npm = QStandardPaths::findExecutable(u"npm"_s);
        if (m_node.isEmpty() || npm.isEmpty()) {
            m_skip = u"node and npm are not installed (tools/dev.sh installs them)"_s;
            return;
        }
        m_dir = QStringLiteral(SLUICE_BUILD_DIR) + u"/peers-real"_s;
        QDir().mkpath(m_dir);
        if (QFile::exists(m_dir +
                          u"/node_modules/@nest-lab/throttler-storage-redis/package.json"_s) &&
            QFile::exists(m_dir + u"/node_modules/@fastify/rate-limit/package.json"_s)) {
            return;
        }
        QProcess install;
        install.start(npm, QStringList{u"install"_s, u"--silent"_s, u"--no-audit"_s, u"--no-fund"_s,
                                       u"--prefix"_s, m_dir} +
                               npmPackages);
        if (!install.waitForFinished(240'000) || install.exitCode() != 0) {
            install.kill();
            m_skip = u"npm could not install the limiters (is the npm registry reachable?): "_s +
                     QString::fromLocal8Bit(install.readAllStandardError().right(300));
        }
    }

    void cleanupTestCase()
    {
        Connection c = test::connect();
        for (const QByteArray &p :
             {QByteArray("rlflx:"), QByteArray("rl:"), QByteArray("fastify-rate-limit-"),
              QByteArray("{"), QByteArray("request_rate_limiter.{"), QByteArray("ratelimit:"),
              QByteArray()}) {
            for (const QByteArray &k : test::keysWithPrefix(c, p + m_tag)) {
                (void)c.command({"DEL", k});
            }
        }
        test::deleteByPrefix(c, test::keyPrefix());
    }

    // rate-limiter-flexible: a lost TTL comes back with the subject's next request; block(key,
    // 0) is a key without TTL on purpose (by_design), which `keys fix` leaves alone. Its next
    // consume EXPIREs it after all (the script repairs a PTTL of -1): "forever" lasts until the
    // subject comes back, then one duration.
    void rlflx()
    {
        needNpm();
        QVERIFY(!drive(u"rlflx"_s, u"write"_s).isEmpty());
        const QByteArray user1 = "rlflx:" + m_tag + "user1", user3 = "rlflx:" + m_tag + "user3";
        auto got = test::auditKeys("rlflx:" + m_tag + "*");
        test::expectEntry(got.value(QString::fromLatin1(user1)), u"rlflx"_s, u"ok"_s,
                          u"heals_on_next_request"_s);
        QVERIFY(got.value(QString::fromLatin1(user1))[u"state"_s].toString().startsWith(
            u"3 points consumed in this window, resets in"_s));
        test::expectEntry(got.value(QString::fromLatin1(user3)), u"rlflx"_s, u"by_design"_s,
                          u"heals_on_next_request"_s);
        QVERIFY(test::wouldFix("rlflx:" + m_tag + "*").isEmpty());

        Connection c = test::connect();
        QVERIFY(c.command({"PERSIST", user1}));
        got = test::auditKeys("rlflx:" + m_tag + "*");
        test::expectEntry(got.value(QString::fromLatin1(user1)), u"rlflx"_s, u"by_design"_s,
                          u"heals_on_next_request"_s);
        const QJsonObject again = drive(u"rlflx"_s, u"again"_s);
        QCOMPARE(again[u"user1"_s].toInt(), 4);
        const qint64 t = test::pttl(c, user1);
        QVERIFY2(t > 0 && t <= 60'000, qPrintable(QString::number(t))); // healed
        QCOMPARE(again[u"user3"_s].toString(), u"rejected"_s);
        QVERIFY(test::pttl(c, user3) > 0);
    }

    // `keys top` watches rate-limiter-flexible live while it decides (points 100 in 60 s, adopted
    // by a rule file at that limit): top-busy, past its limit and asking 10 times a second, is
    // named over its limit, first, admitting nothing; top-quiet, 5 times a second, is under it
    // and admits at a plausible rate. Bounds, not exact figures: the library's clock and the
    // samples' are not in step.
    void keysTopWatchesALiveLimiter()
    {
        needNpm();
        QTemporaryDir dir;
        const QString rules = test::fileIn(
            dir, u"rules.json"_s,
            R"({"version": 1, "rules": [{"id": "api", "scope": "user", "key_prefix": "rlflx:",
                "algorithm": "fixed_window", "limit": 100, "window": "60s",
                "adopt": {"match": "rlflx:)" +
                m_tag + R"(top-*", "layout": "rlflx", "window": "60s", "limit": 100}}]})");
        QProcess traffic;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"NODE_PATH"_s, m_dir + u"/node_modules"_s);
        traffic.setProcessEnvironment(env);
        traffic.start(m_node,
                      {QStringLiteral(SLUICE_SOURCE_DIR) + u"/tests/real-limiters.js"_s, u"rlflx"_s,
                       u"traffic"_s, test::redisUrl(), QString::fromLatin1(m_tag)});
        QVERIFY(traffic.waitForStarted());
        while (!traffic.readAllStandardOutput().contains("started")) {
            QVERIFY2(traffic.waitForReadyRead(30'000), traffic.readAllStandardError().constData());
        }
        const test::CliRun r =
            test::runCli({u"keys"_s, u"top"_s, u"--url"_s, test::redisUrl(), u"--rules"_s, rules,
                          u"--match"_s, QString::fromLatin1("rlflx:" + m_tag + "top-*"),
                          u"--interval"_s, u"1.5"_s, u"--json"_s});
        QVERIFY(traffic.waitForFinished(30'000));
        QCOMPARE(traffic.exitCode(), 0);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject top = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(top[u"resolution"_s].toString().startsWith(u"sampled every 1."_s),
                 r.out.constData());
        QCOMPARE(top[u"complete"_s].toBool(), true);
        const QJsonArray subjects = top[u"subjects"_s].toArray();
        QCOMPARE(subjects.size(), 2);
        const QJsonObject busy = subjects[0].toObject(), quiet = subjects[1].toObject();
        QCOMPARE(busy[u"key"_s].toString(), QString::fromLatin1("rlflx:" + m_tag + "top-busy"));
        QCOMPARE(busy[u"level"_s].toString(), u"over"_s);
        QCOMPARE(busy[u"limit"_s].toInt(), 100);
        QCOMPARE(busy[u"rule"_s].toString(), u"api"_s);
        QVERIFY(busy[u"count"_s].toInt() > 110);
        QCOMPARE(busy[u"admitted_per_s"_s].toDouble(), 0.0);
        const double busyRate = busy[u"counted_per_s"_s].toDouble();
        QVERIFY2(busyRate >= 3 && busyRate <= 20, qPrintable(QString::number(busyRate)));
        QCOMPARE(quiet[u"key"_s].toString(), QString::fromLatin1("rlflx:" + m_tag + "top-quiet"));
        QCOMPARE(quiet[u"level"_s].toString(), u"under"_s);
        const double quietRate = quiet[u"admitted_per_s"_s].toDouble();
        QVERIFY2(quietRate >= 1.5 && quietRate <= 10, qPrintable(QString::number(quietRate)));
        QCOMPARE(top[u"limited"_s].toInt(), 1);

        // Bad input is named.
        const test::CliRun bad = test::runCli(
            {u"keys"_s, u"top"_s, u"--url"_s, test::redisUrl(), u"--interval"_s, u"0"_s});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains("--interval '0'"), bad.err.constData());
    }

    // `keys top --watch` prints a report every interval (one JSON object a line) until
    // stopped; a key name's control bytes reach the terminal escaped, never raw.
    void keysTopWatchAndEscapes()
    {
        Connection c = test::connect();
        // Rack::Attack's ban of a discriminator that holds control bytes.
        const QByteArray block = "rack::attack:fail2ban:ban:" + m_tag + "x\x01\nevil\x1b[2J";
        QVERIFY(c.command({"SET", block, "1", "EX", "60"}));
        const QString match =
            u"rack::attack:fail2ban:ban:"_s + QString::fromLatin1(m_tag) + u"x*"_s;
        const test::CliRun text = test::runCli({u"keys"_s, u"top"_s, u"--url"_s, test::redisUrl(),
                                                u"--match"_s, match, u"--interval"_s, u"0.3"_s});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("over   rack_attack_ban"), text.out.constData());
        QVERIFY2(text.out.contains("x\\x01\\x0aevil\\x1b[2J"), text.out.constData());
        for (char ctl : {'\x01', '\x1b'}) {
            QVERIFY(!text.out.contains(ctl));
        }

        QProcess watch;
        watch.start(QStringLiteral(SLUICE_CLI),
                    {u"keys"_s, u"top"_s, u"--url"_s, test::redisUrl(), u"--match"_s, match,
                     u"--interval"_s, u"0.3"_s, u"--watch"_s, u"--json"_s});
        QVERIFY(watch.waitForStarted());
        QByteArray out;
        while (out.count('\n') < 2) {
            QVERIFY2(watch.waitForReadyRead(10'000), watch.readAllStandardError().constData());
            out += watch.readAllStandardOutput();
        }
        watch.terminate();
        QVERIFY(watch.waitForFinished(5'000));
        for (const QByteArray &line : out.split('\n').mid(0, 2)) {
            const QJsonObject o = QJsonDocument::fromJson(line).object();
            QCOMPARE(o[u"limited"_s].toInt(), 1);
            QCOMPARE(o[u"subjects"_s][0][u"layout"_s].toString(), u"rack_attack_ban"_s);
            QVERIFY(o[u"resolution"_s].toString().startsWith(u"sampled every 0."_s));
        }
        QVERIFY(c.command({"DEL", block}));
    }

    // rate-limit-redis 4.3: a key without TTL starts again at 1 with the window's TTL.
    void rateLimitRedis()
    {
        needNpm();
        QCOMPARE(drive(u"rate-limit-redis"_s, u"write"_s)[u"hits"_s].toInt(), 4);
        const QByteArray key = "rl:" + m_tag + "1.2.3.4";
        const QJsonObject e = test::auditThenPersist(
            key, u"rate_limit_redis"_s, u"heals_on_next_request"_s, u"4 requests in this"_s);
        QVERIFY(!e.isEmpty());
        QVERIFY2(e[u"state"_s].toString().contains(u"no TTL (the next request sets one)"_s),
                 qPrintable(e[u"state"_s].toString()));
        QVERIFY2(!e[u"cause"_s].toString().contains(u"denies its subject"_s),
                 qPrintable(e[u"cause"_s].toString()));
        QCOMPARE(drive(u"rate-limit-redis"_s, u"again"_s)[u"hits"_s].toInt(), 1);
        Connection c = test::connect();
        QVERIFY(test::pttl(c, key) > 0); // healed
    }

    // @fastify/rate-limit PEXPIREs only when INCR answers 1: a key without TTL keeps counting
    // and, past the limit, denies its subject for good.
    void fastify()
    {
        needNpm();
        QCOMPARE(drive(u"fastify"_s, u"write"_s)[u"statuses"_s].toArray().size(), 3);
        const QByteArray key = "fastify-rate-limit-" + m_tag + "client";
        QVERIFY(
            test::persistBlockingKey(key, u"fastify_counter"_s, u"3 requests in this window"_s));
        const QJsonArray statuses = drive(u"fastify"_s, u"again"_s)[u"statuses"_s].toArray();
        QCOMPARE(statuses.last().toInt(), 429);
        Connection c = test::connect();
        QCOMPARE(test::pttl(c, key), qint64(-1)); // still none, and counting: it blocks
        QCOMPARE(c.command({"GET", key})->str, QByteArray("7"));
    }

    // @nestjs/throttler's Redis storage: the hits counter gets its TTL back (PEXPIRE when PTTL
    // <= 0) ...
    void nestjsHits()
    {
        needNpm();
        const QJsonObject w = drive(u"nestjs"_s, u"write"_s);
        QVERIFY(!w.isEmpty());
        const QByteArray key = "{" + w[u"hitsKey"_s].toString().toLatin1() + ":default}:hits";
        QVERIFY(!test::auditThenPersist(key, u"nestjs_hits"_s, u"heals_on_next_request"_s,
                                        u"3 requests in this window"_s)
                     .isEmpty());
        QCOMPARE(drive(u"nestjs"_s, u"again"_s)[u"a"_s][u"totalHits"_s].toInt(), 4);
        Connection c = test::connect();
        QVERIFY(test::pttl(c, key) > 0); // healed
    }

    // ... and a block without TTL is lifted by the next request (PTTL <= 0: DEL, hits = 1).
    void nestjsBlocked()
    {
        needNpm();
        const QJsonObject w = drive(u"nestjs"_s, u"write"_s);
        QVERIFY(w[u"b"_s][u"isBlocked"_s].toBool());
        const QByteArray key = "{" + w[u"blockedKey"_s].toString().toLatin1() + ":default}:blocked";
        QVERIFY(!test::auditThenPersist(key, u"nestjs_blocked"_s, u"heals_on_next_request"_s,
                                        u"blocked for"_s)
                     .isEmpty());
        QCOMPARE(drive(u"nestjs"_s, u"again"_s)[u"b"_s][u"isBlocked"_s].toBool(), false);
        Connection c = test::connect();
        QCOMPARE(test::pttl(c, key), qint64(-2)); // healed: the block is gone
    }

    // Spring Cloud Gateway, both key forms (4.2 added the route id inside the braces): both
    // keys are SETEX'd with every request, so a lost TTL comes back.
    void springGateway()
    {
        Connection c = test::connect();
        for (const QByteArray &id : {"{" + m_tag + "user1}", "{route1." + m_tag + "user1}"}) {
            const QByteArray tokens = "request_rate_limiter." + id + ".tokens";
            const QByteArray stamp = "request_rate_limiter." + id + ".timestamp";
            auto eval = [&] {
                return c.command({"EVAL", springLua, "2", tokens, stamp, "5", "10", "", "1"});
            };
            QVERIFY(eval());
            test::expectEntry(test::auditKeys(stamp).value(QString::fromLatin1(stamp)),
                              u"spring_gateway_timestamp"_s, u"ok"_s, u"heals_on_next_request"_s);
            QVERIFY(!test::auditThenPersist(tokens, u"spring_gateway_tokens"_s,
                                            u"heals_on_next_request"_s, u"9 tokens left"_s)
                         .isEmpty());
            QVERIFY(eval());
            QVERIFY(test::pttl(c, tokens) > 0); // healed
            QVERIFY(c.command({"DEL", tokens, stamp}));
        }
    }

    // Kong: a counter that lost its TTL is never given one again, but the next period is
    // another key: orphaned. Past its period (and then some) the name alone says so; a TTL
    // about 1000x the period (old sync_rate releases) is too long.
    void kong()
    {
        Connection c = test::connect();
        auto t = c.command({"TIME"});
        QVERIFY(t);
        const qint64 nowS = t->elements[0].str.toLongLong();
        const QByteArray live =
            "ratelimit:r1:s1:" + m_tag + "1.2.3.4:" + num(nowS / 60 * 60000) + ":minute";
        const QByteArray old =
            "ratelimit:r1:s1:" + m_tag + "1.2.3.4:" + num((nowS / 60 - 30) * 60000) + ":minute";
        const QByteArray slow =
            "ratelimit:r1:s1:" + m_tag + "5.6.7.8:" + num(nowS / 60 * 60000) + ":minute";
        QVERIFY(c.command({"EVAL", kongRealtimeLua, "1", live, "60"}));
        QVERIFY(c.command({"EVAL", kongRealtimeLua, "1", old, "60"}));
        QVERIFY(c.command({"PERSIST", old}));
        QVERIFY(c.command({"EVAL", kongSyncLua, "1", slow, "3", num(nowS + 60'000)}));
        auto got = test::auditKeys("ratelimit:r1:s1:" + m_tag + "*");
        test::expectEntry(got.value(QString::fromLatin1(live)), u"kong_counter"_s, u"ok"_s,
                          u"orphaned_by_window_in_name"_s);
        test::expectEntry(got.value(QString::fromLatin1(old)), u"kong_counter"_s, u"window_ended"_s,
                          u"orphaned_by_window_in_name"_s);
        test::expectEntry(got.value(QString::fromLatin1(slow)), u"kong_counter"_s,
                          u"ttl_too_long"_s, u"orphaned_by_window_in_name"_s);
        QCOMPARE(test::wouldFix("ratelimit:r1:s1:" + m_tag + "*"),
                 QStringList{QString::fromLatin1(old)});
        // The live key without TTL: never_expires, and Kong does not give it one back.
        QVERIFY(c.command({"PERSIST", live}));
        got = test::auditKeys(live);
        test::expectEntry(got.value(QString::fromLatin1(live)), u"kong_counter"_s,
                          u"never_expires"_s, u"orphaned_by_window_in_name"_s);
        QVERIFY(c.command({"EVAL", kongRealtimeLua, "1", live, "60"}));
        QCOMPARE(test::pttl(c, live), qint64(-1));
        QVERIFY(c.command({"DEL", live, old, slow}));
    }

    // A job scheduler's registry of its clients, kept without TTL on purpose: one sorted set
    // per queue, client id -> last seen (ms), under bull:, as the scheduler in the report keeps
    // it (modelled on that description; no particular library's code). Not a sliding log:
    // never flagged, never fixed.
    void jobSchedulerRegistry()
    {
        Connection c = test::connect();
        auto t = c.command({"TIME"});
        QVERIFY(t);
        const qint64 nowMs = t->elements[0].str.toLongLong() * 1000;
        const QByteArray prefix = "bull:" + m_tag;
        for (const QByteArray &queue : {QByteArray("mail"), QByteArray("video")}) {
            QVERIFY(c.command({"ZADD", prefix + queue + ":clients", num(nowMs - 2000),
                               "worker-7f3a:pid-4121", num(nowMs - 100), "worker-9c1e:pid-77"}));
        }
        const auto got = test::auditKeys(prefix + "*");
        QVERIFY2(got.isEmpty(), qPrintable(got.keys().join(u", "_s))); // other keys: not listed
        QVERIFY(test::wouldFix(prefix + "*").isEmpty());
        test::deleteByPrefix(c, prefix);
    }

    // Named like a layout, but the value is not that layout's: looks_like, never decoded,
    // flagged or fixed as it.
    void looksLikeIsNotJudged()
    {
        Connection c = test::connect();
        const QByteArray a = "fastify-rate-limit-" + m_tag + "ll-cfg";
        const QByteArray b = "rl:" + m_tag + "ll-meta";
        QVERIFY(c.command({"SET", a, "hello"}));
        QVERIFY(c.command({"HSET", b, "owner", "web"}));
        // A type no layout keeps (a stream) under a limiter's name, and one under no name:
        // judged like any other key, never an error.
        const QByteArray stream = "rl:" + m_tag + "ll-stream";
        const QByteArray events = m_tag + "ll-events";
        QVERIFY(c.command({"XADD", stream, "*", "f", "1"}));
        QVERIFY(c.command({"XADD", events, "*", "f", "1"}));
        const auto got = test::auditKeys("*" + m_tag + "ll-*");
        for (const QByteArray &k : {a, b}) {
            const QJsonObject e = got.value(QString::fromLatin1(k));
            QCOMPARE(e[u"health"_s].toString(), u"looks_like"_s);
            QVERIFY(e[u"layout"_s].isNull());
            QVERIFY(e[u"state"_s].isNull());
        }
        QCOMPARE(got.value(QString::fromLatin1(a))[u"looks_like"_s].toString(),
                 u"fastify_counter"_s);
        QCOMPARE(got.value(QString::fromLatin1(stream))[u"health"_s].toString(), u"looks_like"_s);
        QVERIFY(!got.contains(QString::fromLatin1(events))); // an application key
        QVERIFY(test::wouldFix("*" + m_tag + "ll-*").isEmpty());
        QVERIFY(c.command({"DEL", a, b, stream, events}));
    }

    // `keys audit --json` writes its entries itself (app/cli/keyrows.cpp): each is byte for byte
    // what QJsonDocument writes for the same object, nulls, numbers and escapes included.
    void jsonEntriesAreQtsWriting()
    {
        Connection c = test::connect();
        const QList<QByteArray> keys{"rl:" + m_tag + "js-say \"hi\"",
                                     "rl:" + m_tag + "js-back\\slash\tand\x01",
                                     "rl:" + m_tag + "js-caf\xc3\xa9 \xf0\x9f\x98\x80",
                                     "rl:" + m_tag + QByteArray("js-\xff\xfe\x00", 6),
                                     "fastify-rate-limit-" + m_tag + "js-word"};
        for (const QByteArray &k : keys) {
            QVERIFY(c.command({"SET", k, k.endsWith("word") ? "x" : "3"}));
        }
        QVERIFY(c.command({"PEXPIRE", keys[0], "60000"}));
        const test::CliRun r =
            test::runCli({u"keys"_s, u"audit"_s, u"--url"_s, test::redisUrl(), u"--match"_s,
                          QString::fromLatin1("*" + m_tag + "js-*"), u"--json"_s});
        QCOMPARE(r.exitCode, 0);
        int entries = 0;
        for (QByteArray line : r.out.split('\n')) {
            if (!line.startsWith("{\"cause\"")) {
                continue;
            }
            if (line.endsWith(',')) {
                line.chop(1);
            }
            const QJsonDocument doc = QJsonDocument::fromJson(line);
            QVERIFY2(doc.isObject(), line.constData());
            QCOMPARE(doc.toJson(QJsonDocument::Compact), line);
            ++entries;
        }
        QCOMPARE(entries, keys.size());
        for (const QByteArray &k : keys) {
            QVERIFY(c.command({"DEL", k}));
        }
    }

    // A 1,000,000-member sliding log and a 64 MB string: read within the per-key bound (the
    // two ends of a sorted set, the first 64 bytes of a string), decoded, in one audit.
    void hugeValues()
    {
        Connection c = test::connect();
        const QByteArray log = m_tag + "huge:log";
        const QByteArray blob = m_tag + "huge:blob";
        // 100 scripts of 10,000 members each: each well within Redis' busy-script limit.
        const QByteArray fill = R"(local t = redis.call('TIME')
local ms = t[1] * 1000 + math.floor(t[2] / 1000)
local from = tonumber(ARGV[1])
for i = from, from + 9999, 1000 do
  local args = {}
  for j = i, i + 999 do
    args[#args + 1] = ms - 1000000 + j
    args[#args + 1] = (ms - 1000000 + j) .. '-' .. j
  end
  redis.call('ZADD', KEYS[1], unpack(args))
end
return 0)";
        for (int from = 1; from < 1'000'000; from += 10'000) {
            QVERIFY(c.command({"EVAL", fill, "1", log, num(from)}));
        }
        QCOMPARE(c.command({"ZCARD", log})->integer, qint64(1'000'000));
        QVERIFY(c.command({"SETRANGE", blob, num(64 * 1024 * 1024 - 1), "x"}));
        const auto got = test::auditKeys(m_tag + "huge:*");
        const QJsonObject e = got.value(QString::fromLatin1(log));
        test::expectEntry(e, u"sorted_set_log"_s, u"never_expires"_s, u"idle_key_kept"_s);
        QVERIFY2(e[u"state"_s].toString().startsWith(u"1000000 timestamps"_s),
                 qPrintable(e[u"state"_s].toString()));
        QVERIFY(!got.contains(QString::fromLatin1(blob))); // an application key: not listed
        QVERIFY(c.command({"UNLINK", log, blob}));
    }
};

QTEST_GUILESS_MAIN(TestRealLimiters)
#include "tst_real_limiters.moc"
