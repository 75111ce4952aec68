// Redis Sentinel (core/redis/sentinel.h) against real servers that the test starts on free
// loopback ports: a master, its replica and three sentinels; the answers when the master is
// unknown, the sentinels are down or silent, or the master is a replica; a forced failover;
// and the long-lived parts (the load generator, serve's decision pool, sluice-cli load)
// answering by on_redis_error while the master is demoted and resuming after.
#include "testdata.h"
#include "testredis.h"

#include "app/serve/decisionpool.h"
#include "app/serve/ruletable.h"
#include "core/limiter/redislimiter.h"
#include "core/load/loadgenerator.h"
#include "core/redis/sentinel.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <mutex>

#include <csignal>

#include <sys/prctl.h>
#include <unistd.h>

using namespace sluice;
using namespace std::chrono_literals;
using namespace Qt::StringLiterals;

namespace {

Endpoint tcp(quint16 port, int db = 0)
{
    Endpoint e;
    e.port = port;
    e.db = db;
    return e;
}

// The first word of ROLE on a fresh connection ("master", "slave"), empty if no answer.
QByteArray role(quint16 port)
{
    auto c = Connection::open(tcp(port), Connection::Options{300ms, 300ms});
    if (!c) {
        return {};
    }
    auto r = c->command({"ROLE"});
    return r && r->isArray() && !r->elements.empty() ? r->elements.front().str : QByteArray();
}

QString infoReplication(quint16 port)
{
    auto c = Connection::open(tcp(port), Connection::Options{300ms, 300ms});
    if (!c) {
        return {};
    }
    auto r = c->command({"INFO", "replication"});
    return r ? QString::fromUtf8(r->str) : QString();
}

// The error of a failed result, for QVERIFY2 (whose message Qt 6.4 evaluates in any case).
template <typename T> QString why(const Result<T> &r)
{
    return r ? QString() : r.error().message;
}

template <typename F> bool waitUntil(F done, int ms)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > ms) {
            return false;
        }
        QTest::qWait(25);
    }
    return true;
}

// A rule that Redis always admits (a million an hour) and whose on_redis_error is deny: a
// denial can only be a fallback.
Rule bigRule(const QString &id)
{
    Rule r;
    r.id = id;
    r.algorithm = Algorithm::FixedWindow;
    r.limit = 1'000'000;
    r.windowUs = 3600LL * 1'000'000;
    r.keyPrefix = test::keyPrefix();
    r.onRedisError = OnRedisError::Deny;
    return r;
}

// The units a fixed-window rule admitted on a server: the sum of `c` over its state keys.
qint64 admitted(quint16 port, const Rule &rule)
{
    auto c = Connection::open(tcp(port), Connection::Options{300ms, 300ms});
    if (!c) {
        return -1;
    }
    qint64 sum = 0;
    QByteArray cursor = "0";
    do {
        auto r = c->command(
            {"SCAN", cursor, "MATCH", rule.keyPrefix + rule.id.toUtf8() + ":*", "COUNT", "1000"});
        if (!r || r->elements.size() != 2) {
            return -1;
        }
        cursor = r->elements[0].str;
        for (const Reply &k : r->elements[1].elements) {
            if (auto v = c->command({"HGET", k.str, "c"}); v && !v->isNil()) {
                sum += v->str.toLongLong();
            }
        }
    } while (cursor != "0");
    return sum;
}

} // namespace

class TestSentinel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QSet<quint16> m_taken;
    quint16 m_masterPort = 0;  // the master at the start
    quint16 m_replicaPort = 0; // its replica at the start
    quint16 m_lonelyPort = 0;  // a replica of nothing, that sentinel 3 calls master 'stale'
    quint16 m_soloPort = 0;    // a server of its own, demoted and promoted by hand
    QList<quint16> m_sentinelPorts;
    std::vector<std::unique_ptr<QProcess>> m_processes;

    quint16 port()
    {
        for (;;) {
            const quint16 p = test::freeLoopbackPort();
            if (!m_taken.contains(p)) {
                m_taken.insert(p);
                return p;
            }
        }
    }

    bool startRedis(quint16 p, const QStringList &extra)
    {
        const QString dir = m_dir.filePath(QString::number(p));
        QDir().mkpath(dir);
        auto proc = std::make_unique<QProcess>();
        // A crashed or aborted test must not leave its servers running on a shared machine.
        proc->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        proc->setProcessChannelMode(QProcess::MergedChannels);
        proc->setStandardOutputFile(dir + u"/log"_s);
        proc->start(u"redis-server"_s,
                    QStringList{u"--port"_s, QString::number(p), u"--bind"_s, u"127.0.0.1"_s,
                                u"--dir"_s, dir, u"--save"_s, u""_s, u"--appendonly"_s, u"no"_s} +
                        extra);
        if (!proc->waitForStarted(5000)) {
            return false;
        }
        m_processes.push_back(std::move(proc));
        return waitUntil([&] { return !role(p).isEmpty(); }, 5000);
    }

    bool startSentinel(quint16 p, const QString &extraConf)
    {
        const QString dir = m_dir.filePath(QString::number(p));
        QDir().mkpath(dir);
        const QString conf = dir + u"/sentinel.conf"_s;
        QFile f(conf);
        if (!f.open(QIODevice::WriteOnly)) {
            return false;
        }
        f.write(QStringLiteral("port %1\nbind 127.0.0.1\ndir %2\n"
                               "sentinel monitor mymaster 127.0.0.1 %3 2\n"
                               "sentinel down-after-milliseconds mymaster 1000\n"
                               "sentinel failover-timeout mymaster 5000\n%4")
                    .arg(p)
                    .arg(dir)
                    .arg(m_masterPort)
                    .arg(extraConf)
                    .toUtf8());
        f.close();
        auto proc = std::make_unique<QProcess>();
        // A crashed or aborted test must not leave its servers running on a shared machine.
        proc->setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        proc->setProcessChannelMode(QProcess::MergedChannels);
        proc->setStandardOutputFile(dir + u"/log"_s);
        proc->start(u"redis-server"_s, {conf, u"--sentinel"_s});
        if (!proc->waitForStarted(5000)) {
            return false;
        }
        m_processes.push_back(std::move(proc));
        return waitUntil([&] { return role(p) == "sentinel"; }, 5000);
    }

    QString hosts(const QList<quint16> &ports) const
    {
        QStringList list;
        for (quint16 p : ports) {
            list << u"127.0.0.1:%1"_s.arg(p);
        }
        return list.join(u',');
    }

    Endpoint sentinelEndpoint(const QString &master = u"mymaster"_s, int db = 0,
                              QList<quint16> ports = {}) const
    {
        if (ports.isEmpty()) {
            ports = m_sentinelPorts;
        }
        auto e = Endpoint::parse(u"redis+sentinel://%1/%2/%3"_s.arg(hosts(ports), master).arg(db));
        return e ? *e : Endpoint{};
    }

    Result<Reply> askSentinel(quint16 p, const QList<QByteArray> &argv)
    {
        auto c = Connection::open(tcp(p));
        if (!c) {
            return c.error();
        }
        return c->command(argv);
    }

    // SENTINEL FAILOVER, again while the sentinel has no replica it finds good yet.
    bool forceFailover(quint16 sentinel)
    {
        QString last;
        const bool ok = waitUntil(
            [&] {
                auto r = askSentinel(sentinel, {"SENTINEL", "FAILOVER", "mymaster"});
                if (!r) {
                    last = r.error().message;
                }
                return r.ok();
            },
            8000);
        if (!ok) {
            qWarning("SENTINEL FAILOVER: %s", qPrintable(last));
        }
        return ok;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_masterPort = port();
        m_replicaPort = port();
        m_lonelyPort = port();
        m_soloPort = port();
        const quint16 nowhere = port(); // the lonely replica's master: nothing listens there
        QVERIFY(startRedis(m_masterPort, {}));
        QVERIFY(startRedis(m_replicaPort,
                           {u"--replicaof"_s, u"127.0.0.1"_s, QString::number(m_masterPort)}));
        QVERIFY(
            startRedis(m_lonelyPort, {u"--replicaof"_s, u"127.0.0.1"_s, QString::number(nowhere)}));
        QVERIFY(startRedis(m_soloPort, {}));
        QVERIFY2(
            waitUntil(
                [&] { return infoReplication(m_replicaPort).contains(u"master_link_status:up"_s); },
                10000),
            "the replica did not sync");
        for (int i = 0; i < 3; ++i) {
            m_sentinelPorts << port();
        }
        for (int i = 0; i < 3; ++i) {
            // Sentinel 3 also calls the lonely replica a master: a sentinel that names a
            // replica (as during a failover), for ever.
            QVERIFY(startSentinel(
                m_sentinelPorts[i],
                i == 2 ? u"sentinel monitor stale 127.0.0.1 %1 1\n"_s.arg(m_lonelyPort)
                       : QString()));
        }
        // Every sentinel knows the replica (from the master's INFO) and the two others (from
        // their hello messages): a failover then reaches all three.
        for (quint16 s : std::as_const(m_sentinelPorts)) {
            QVERIFY2(waitUntil(
                         [&] {
                             auto r = askSentinel(s, {"SENTINEL", "REPLICAS", "mymaster"});
                             auto o = askSentinel(s, {"SENTINEL", "SENTINELS", "mymaster"});
                             return r && r->elements.size() == 1 && o && o->elements.size() == 2;
                         },
                         10000),
                     "the sentinels did not find the replica and each other");
        }
    }

    void cleanupTestCase()
    {
        for (auto &p : m_processes) {
            p->kill();
            p->waitForFinished(3000);
        }
        m_processes.clear();
    }

    // The master's address, checked; the same db, the decision through it, and a dead first
    // sentinel skipped.
    void resolve()
    {
        const Endpoint e = sentinelEndpoint(u"mymaster"_s, 3);
        QCOMPARE(e.kind, Endpoint::Kind::Sentinel);
        QElapsedTimer t;
        t.start();
        auto m = redis::resolveMaster(e, 2000ms);
        const qint64 ms = t.elapsed();
        QVERIFY2(m, qPrintable(why(m)));
        QCOMPARE(m->kind, Endpoint::Kind::Tcp);
        QCOMPARE(m->host, u"127.0.0.1"_s);
        QCOMPARE(m->port, m_masterPort);
        QCOMPARE(m->db, 3);
        QVERIFY(m->sentinels.isEmpty());
        QCOMPARE(role(m->port), QByteArray("master"));
        qInfo("resolveMaster: %lld ms", ms);

        auto c = redis::openSentinelMaster(e, Connection::Options{});
        QVERIFY2(c, qPrintable(why(c)));
        QCOMPARE(c->endpoint().port, m_masterPort);
        const QByteArray key = test::keyPrefix() + "resolve";
        QVERIFY(c->command({"DEL", key}));
        auto incr = c->command({"INCR", key});
        QVERIFY2(incr, qPrintable(why(incr)));
        QCOMPARE(incr->integer, qint64(1));
        // In db 3 of the master, as the URL says.
        auto plain = Connection::open(tcp(m_masterPort, 3));
        QVERIFY(plain);
        auto got = plain->command({"GET", key});
        QVERIFY(got);
        QCOMPARE(got->str, QByteArray("1"));
        QVERIFY(plain->command({"DEL", key}));

        // A decision by the scripts, over the connection the sentinels led to.
        RedisLimiter limiter(std::move(*c));
        const Policy p = bigRule(u"t-sentinel-resolve"_s).policy();
        auto d = limiter.decide(Request{&p, p.keyFor("10.9.9.9"), 1, std::nullopt, 0});
        QVERIFY2(d, qPrintable(why(d)));
        QVERIFY(d->allowed);
        QCOMPARE(d->remaining, qint64(999'999));
        QVERIFY(plain->command({"DEL", p.keyFor("10.9.9.9")}));

        // Nothing at the first sentinel's address: the next one answers.
        const quint16 dead = port();
        auto m2 = redis::resolveMaster(
            sentinelEndpoint(u"mymaster"_s, 0, {dead, m_sentinelPorts[1]}), 2000ms);
        QVERIFY2(m2, qPrintable(why(m2)));
        QCOMPARE(m2->port, m_masterPort);
    }

    void errors()
    {
        const QString secret = u"pw-s3cret"_s;
        // Every sentinel answers: none knows the name.
        {
            auto e = Endpoint::parse(
                u"redis+sentinel://:%1@%2/nosuchmaster"_s.arg(secret, hosts(m_sentinelPorts)));
            QVERIFY(e);
            QElapsedTimer t;
            t.start();
            auto r = redis::resolveMaster(*e, 2000ms);
            QVERIFY(!r);
            const QString msg = r.error().message;
            QCOMPARE(r.error().kind, Error::Kind::Invalid);
            QVERIFY2(msg.contains(u"no sentinel knows a master named 'nosuchmaster'"_s),
                     qPrintable(msg));
            for (quint16 p : std::as_const(m_sentinelPorts)) {
                QVERIFY2(msg.contains(u"127.0.0.1:%1"_s.arg(p)), qPrintable(msg));
            }
            QVERIFY2(!msg.contains(secret), qPrintable(msg));
            // Answered by every sentinel: well before the 2 s deadline.
            QVERIFY2(t.elapsed() < 1500, qPrintable(QString::number(t.elapsed())));
        }
        // Nothing listens at any sentinel address: refused at once, each named.
        {
            const QList<quint16> dead{port(), port(), port()};
            auto e =
                Endpoint::parse(u"redis+sentinel://:%1@%2/mymaster"_s.arg(secret, hosts(dead)));
            QVERIFY(e);
            QElapsedTimer t;
            t.start();
            auto r = redis::resolveMaster(*e, 1500ms);
            QVERIFY(!r);
            const QString msg = r.error().message;
            QCOMPARE(r.error().kind, Error::Kind::Io);
            QVERIFY2(msg.contains(u"cannot reach any sentinel of master 'mymaster'"_s),
                     qPrintable(msg));
            for (quint16 p : dead) {
                QVERIFY2(msg.contains(u"sentinel 127.0.0.1:%1: "_s.arg(p)), qPrintable(msg));
            }
            QVERIFY2(!msg.contains(secret), qPrintable(msg));
            QVERIFY2(t.elapsed() < 1500, qPrintable(QString::number(t.elapsed())));
        }
        // Three hung sentinels: each gets its slice, the whole stays within the deadline.
        {
            // Hung sentinels: listening sockets that never answer.
            test::LoopbackSocket s1(true), s2(true), s3(true);
            const QList<quint16> hung{s1.port(), s2.port(), s3.port()};
            QElapsedTimer t;
            t.start();
            auto r = redis::resolveMaster(sentinelEndpoint(u"mymaster"_s, 0, hung), 900ms);
            const qint64 ms = t.elapsed();
            QVERIFY(!r);
            const QString msg = r.error().message;
            QCOMPARE(r.error().kind, Error::Kind::Timeout);
            for (quint16 p : hung) {
                QVERIFY2(msg.contains(u"sentinel 127.0.0.1:%1: "_s.arg(p)), qPrintable(msg));
            }
            // The deadline plus slack for a loaded machine: a hang would be many seconds past it.
            QVERIFY2(ms >= 800 && ms < 1500, qPrintable(QString::number(ms)));
            qInfo("three hung sentinels, deadline 900 ms: gave up after %lld ms", ms);
        }
        // The sentinel names a server whose ROLE is slave: asked again until the deadline.
        {
            QElapsedTimer t;
            t.start();
            auto r =
                redis::resolveMaster(sentinelEndpoint(u"stale"_s, 0, {m_sentinelPorts[2]}), 1000ms);
            const qint64 ms = t.elapsed();
            QVERIFY(!r);
            const QString msg = r.error().message;
            QCOMPARE(r.error().kind, Error::Kind::Io);
            QVERIFY2(msg.contains(u"master 'stale' at 127.0.0.1:%1 is a replica: a failover is in "
                                  "progress"_s.arg(m_lonelyPort)),
                     qPrintable(msg));
            QVERIFY2(ms >= 500 && ms < 1600, qPrintable(QString::number(ms)));
            QVERIFY2(!msg.contains(u"asked 1 sentinel round"_s), qPrintable(msg));
        }
        // Not a Sentinel endpoint at all.
        auto notSentinel = redis::resolveMaster(tcp(m_masterPort), 500ms);
        QVERIFY(!notSentinel);
        QCOMPARE(notSentinel.error().kind, Error::Kind::Invalid);
    }

    // SENTINEL FAILOVER: the sentinels then name the former replica, the data went with it,
    // and the former master, once demoted, refuses writes with READONLY.
    void forcedFailover()
    {
        const Endpoint e = sentinelEndpoint();
        auto old = redis::openSentinelMaster(e, Connection::Options{});
        QVERIFY2(old, qPrintable(why(old)));
        QCOMPARE(old->endpoint().port, m_masterPort);
        const QByteArray key = test::keyPrefix() + "failover";
        QVERIFY(old->command({"DEL", key}));
        auto one = old->command({"INCR", key});
        QVERIFY(one);
        QCOMPARE(one->integer, qint64(1));
        auto acked = old->command({"WAIT", "1", "2000"});
        QVERIFY(acked);
        QCOMPARE(acked->integer, qint64(1)); // the replica has it

        QElapsedTimer t;
        t.start();
        QVERIFY(forceFailover(m_sentinelPorts[0]));
        qint64 switchedMs = -1;
        QVERIFY2(waitUntil(
                     [&] {
                         auto m = redis::resolveMaster(e, 1000ms);
                         return m && m->port == m_replicaPort;
                     },
                     10000),
                 "the sentinels never named the replica");
        switchedMs = t.elapsed();
        QCOMPARE(role(m_replicaPort), QByteArray("master"));
        auto fresh = redis::openSentinelMaster(e, Connection::Options{});
        QVERIFY2(fresh, qPrintable(why(fresh)));
        QCOMPARE(fresh->endpoint().port, m_replicaPort);
        auto two = fresh->command({"INCR", key});
        QVERIFY2(two, qPrintable(why(two)));
        QCOMPARE(two->integer, qint64(2));

        // Sentinel demotes the old master some 10 s later (its INFO period), killing its
        // clients as it does.
        QVERIFY2(waitUntil([&] { return role(m_masterPort) == "slave"; }, 20000),
                 "the old master was never demoted");
        const qint64 demotedMs = t.elapsed();
        auto onOld = old->command({"INCR", key});
        QVERIFY(!onOld);
        QVERIFY2(redis::isUnavailableReply(onOld.error()) || onOld.error().isConnectionLoss(),
                 qPrintable(onOld.error().message));
        auto plainOld = Connection::open(tcp(m_masterPort));
        QVERIFY(plainOld);
        auto refused = plainOld->command({"INCR", key});
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.startsWith(u"READONLY"_s),
                 qPrintable(refused.error().message));
        QVERIFY(redis::isUnavailableReply(refused.error()));
        qInfo("forced failover: sentinels named the new master after %lld ms; the old master "
              "was demoted after %lld ms; its old connection got: %s",
              switchedMs, demotedMs, qPrintable(onOld.error().message));
        QVERIFY(fresh->command({"DEL", key}));
    }

    // The load generator against one server demoted (REPLICAOF) and promoted back under it:
    // READONLY decisions are answered by on_redis_error (deny), none fails, and decisions come
    // from Redis again after the promotion.
    void loadFollowsDemotion()
    {
        const Rule rule = bigRule(u"t-sentinel-load-%1"_s.arg(QCoreApplication::applicationPid()));
        RuleSet set;
        set.rules = {rule};
        load::LoadGenerator g(test::constantLoad(tcp(m_soloPort), set, 200, 3'000'000, 4));
        QVERIFY(g.start());
        QTest::qWait(800);
        auto admin = Connection::open(tcp(m_soloPort));
        QVERIFY(admin);
        QVERIFY(admin->command({"REPLICAOF", "127.0.0.1", QByteArray::number(port())}));
        QTest::qWait(800);
        QVERIFY(admin->command({"REPLICAOF", "NO", "ONE"}));
        QElapsedTimer t;
        t.start();
        const qint64 atPromotion = admitted(m_soloPort, rule);
        qint64 resumedMs = -1;
        waitUntil(
            [&] {
                if (admitted(m_soloPort, rule) > atPromotion) {
                    resumedMs = t.elapsed();
                }
                return resumedMs >= 0;
            },
            2000);
        g.wait();
        const load::LoadProgress p = g.progress();
        QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
        QCOMPARE(p.errors, qint64(0));
        QCOMPARE(p.sent, qint64(600));
        QVERIFY2(p.fallbacks > 0, "no decision was answered by on_redis_error");
        QCOMPARE(p.denied, p.fallbacks); // Redis admits all: each denial is the fallback
        QCOMPARE(p.allowed + p.denied, p.sent);
        QCOMPARE(p.rules[0].fallbacks, p.fallbacks);
        QVERIFY2(p.lastUnavailable.contains(u"READONLY"_s), qPrintable(p.lastUnavailable));
        QVERIFY2(resumedMs >= 0, "no decision came from Redis after the promotion");
        QCOMPARE(admitted(m_soloPort, rule), p.allowed);
        qInfo("load over a demotion: %lld of %lld decisions by on_redis_error; Redis decided "
              "again %lld ms after the promotion",
              p.fallbacks, p.sent, resumedMs);
    }

    // serve's decision pool: the same demotion gives on_redis_error answers (not 500s) and a
    // pool marked down; after the promotion decisions come from Redis again.
    void decisionPoolFollowsDemotion()
    {
        using namespace sluice::serve;
        RuleSet set;
        set.rules = {bigRule(u"t-sentinel-pool-%1"_s.arg(QCoreApplication::applicationPid()))};
        auto table = std::make_shared<const RuleTable>(set, 1, u"test"_s);
        const ServiceRule *rule = table->find(set.rules[0].id);
        QVERIFY(rule);
        std::mutex mutex;
        std::vector<DecisionOutcome> outcomes;
        DecisionPool::Options options;
        options.workers = 1;
        DecisionPool pool(tcp(m_soloPort), options, [&](std::vector<DecisionOutcome> &&out) {
            std::lock_guard l(mutex);
            for (auto &o : out) {
                outcomes.push_back(std::move(o));
            }
        });
        pool.start();
        // One decision, waited for: its source and error.
        auto decide = [&]() -> std::optional<DecisionOutcome> {
            size_t before = 0;
            {
                std::lock_guard l(mutex);
                before = outcomes.size();
            }
            DecisionJob job;
            job.table = table;
            job.rule = rule;
            job.subject = "10.1.1.1";
            job.key = rule->policy.keyFor(job.subject);
            pool.submit(std::move(job));
            std::optional<DecisionOutcome> got;
            waitUntil(
                [&] {
                    std::lock_guard l(mutex);
                    if (outcomes.size() > before) {
                        got = outcomes.back();
                    }
                    return got.has_value();
                },
                3000);
            return got;
        };
        auto first = decide();
        QVERIFY(first);
        QCOMPARE(first->source, DecisionSource::Redis);
        QVERIFY(first->decision.allowed);

        auto admin = Connection::open(tcp(m_soloPort));
        QVERIFY(admin);
        QVERIFY(admin->command({"REPLICAOF", "127.0.0.1", QByteArray::number(port())}));
        for (int i = 0; i < 5; ++i) {
            auto o = decide();
            QVERIFY(o);
            QVERIFY2(o->error.isEmpty(), qPrintable(o->error)); // never a 500
            QCOMPARE(o->source, DecisionSource::Deny);
            QVERIFY(!o->decision.allowed);
        }
        const DecisionPool::Health down = pool.health();
        QVERIFY2(down.lastError.contains(u"READONLY"_s), qPrintable(down.lastError));
        QCOMPARE(down.errors, qint64(0));

        QVERIFY(admin->command({"REPLICAOF", "NO", "ONE"}));
        QElapsedTimer t;
        t.start();
        bool resumed = waitUntil(
            [&] {
                auto o = decide();
                return o && o->source == DecisionSource::Redis;
            },
            5000);
        QVERIFY2(resumed, "the pool never decided by Redis again");
        qInfo("decision pool over a demotion: Redis decided again %lld ms after the promotion",
              t.elapsed());
        pool.stop();
        QVERIFY(admin->command({"DEL", rule->policy.keyFor("10.1.1.1")}));
    }

    // sluice-cli load against the sentinel URL, with a failover under it: it exits 0, the
    // decisions while the master was away came from on_redis_error, and it went on deciding on
    // the new master.
    void failoverUnderLoad()
    {
        const Endpoint e = sentinelEndpoint();
        {
            auto probe = Connection::open(e, Connection::Options{1000ms, 1000ms});
            if (!probe) {
                const QByteArray why = "needs Connection re-resolve (lead): Connection::open does "
                                       "not resolve redis+sentinel:// yet (" +
                                       probe.error().message.toUtf8() + ')';
                QSKIP(why.constData());
            }
        }
        // After forcedFailover the replica is the master; the old master must be its replica,
        // in sync, before it can be promoted back.
        const quint16 now = m_replicaPort;
        const quint16 next = m_masterPort;
        QVERIFY2(waitUntil(
                     [&] {
                         return infoReplication(now).contains(u"state=online"_s) &&
                                infoReplication(next).contains(u"master_link_status:up"_s);
                     },
                     15000),
                 "the old master did not sync from the new one");

        const Rule rule = bigRule(u"t-sentinel-cli-%1"_s.arg(QCoreApplication::applicationPid()));
        const QString rules = m_dir.filePath(u"rules.json"_s);
        QVERIFY(test::writeFile(
            rules, u"{\"version\": 1, \"rules\": [{\"id\": \"%1\", \"scope\": \"ip\", "
                   "\"algorithm\": \"fixed_window\", \"limit\": 1000000, \"window\": \"1h\", "
                   "\"key_prefix\": \"%2\", \"on_redis_error\": \"deny\"}]}"_s
                       .arg(rule.id, QString::fromUtf8(rule.keyPrefix))
                       .toUtf8()));
        // 16 s: the failover comes at 2 s, and Sentinel demotes the old master (whose clients
        // then reconnect) about 10 s after that.
        QProcess cli;
        cli.start(QStringLiteral(SLUICE_CLI),
                  {u"load"_s, u"--url"_s, e.safeUrl(), u"--rules"_s, rules, u"--pattern"_s,
                   u"constant:200/s"_s, u"--duration"_s, u"16s"_s, u"--threads"_s, u"2"_s,
                   u"--subjects"_s, u"4"_s, u"--json"_s,
                   // the rule's own keys, which the test counts on each server
                   u"--rule-prefixes"_s});
        QVERIFY(cli.waitForStarted());
        QTest::qWait(2000);
        QElapsedTimer t;
        t.start();
        QVERIFY(forceFailover(m_sentinelPorts[1]));
        qint64 promotedMs = -1, demotedMs = -1, resumedMs = -1;
        qint64 atPromotion = -1;
        while (cli.state() != QProcess::NotRunning && t.elapsed() < 40000) {
            if (promotedMs < 0 && role(next) == "master") {
                promotedMs = t.elapsed();
                atPromotion = admitted(next, rule);
            }
            if (demotedMs < 0 && role(now) == "slave") {
                demotedMs = t.elapsed();
            }
            if (promotedMs >= 0 && resumedMs < 0 && admitted(next, rule) > atPromotion) {
                resumedMs = t.elapsed();
            }
            cli.waitForFinished(25);
        }
        if (cli.state() != QProcess::NotRunning) {
            QVERIFY(cli.waitForFinished(10000));
        }
        const QByteArray out = cli.readAllStandardOutput();
        const QByteArray err = cli.readAllStandardError();
        QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
        QVERIFY2(cli.exitCode() == 0, err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(out).object();
        QVERIFY2(!doc.isEmpty(), out.constData());
        QCOMPARE(doc.value(u"errors").toInteger(), qint64(0));
        QCOMPARE(doc.value(u"sent").toInteger(), qint64(3200));
        QVERIFY(doc.value(u"allowed").toInteger() > 0);
        // Every denial is an on_redis_error answer (Redis admits them all).
        QCOMPARE(doc.value(u"denied").toInteger(), doc.value(u"on_redis_error").toInteger());
        QVERIFY2(promotedMs >= 0, "the old replica was never promoted");
        QVERIFY2(demotedMs >= 0, "the old master was never demoted");
        QVERIFY2(resumedMs >= 0, err.constData()); // decisions on the new master
        qInfo("failover under sluice-cli load: promoted after %lld ms, old master demoted after "
              "%lld ms, decisions on the new master after %lld ms (%lld ms after the "
              "demotion); %lld of %lld decisions by on_redis_error",
              promotedMs, demotedMs, resumedMs, resumedMs - demotedMs,
              qint64(doc.value(u"on_redis_error").toInteger()),
              qint64(doc.value(u"sent").toInteger()));
    }
};

QTEST_GUILESS_MAIN(TestSentinel)
#include "tst_sentinel.moc"
