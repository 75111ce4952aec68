// Redis Cluster (core/redis/cluster.h, slot.h) against a real cluster that the test starts on
// free loopback ports (test::OwnCluster: 3 masters, 3 replicas, cluster-node-timeout 1 s):
// CRC16 and key slots against Redis's own CLUSTER KEYSLOT; discovery from any seed; routing,
// pipelines across nodes, scripts per node; MOVED and ASK while a slot migrates; CROSSSLOT and
// split multi-key commands; SCAN over every master; the bad cases (not a cluster node,
// uncovered slots, a node that stays down); exact limits under concurrency; the load generator
// across a slot migration and across a master killed with SIGKILL.
#include "owncluster.h"
#include "runcli.h"
#include "servefixture.h"
#include "testdata.h"
#include "testredis.h"

#include "app/serve/decisionpool.h"
#include "app/serve/ruletable.h"
#include "core/keys/keyreader.h"
#include "core/limiter/redislimiter.h"
#include "core/load/loadgenerator.h"
#include "core/redis/cluster.h"
#include "core/redis/errors.h"
#include "core/redis/scriptregistry.h"
#include "core/redis/slot.h"
#include "core/redis/subscriber.h"
#include "core/rules/rulestore.h"
#include "core/stats/statsreader.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QScopeGuard>
#include <QSet>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <mutex>
#include <thread>

using namespace sluice;
using namespace std::chrono_literals;
using namespace Qt::StringLiterals;

namespace {

Rule fixedRule(const QString &id, qint64 limit)
{
    Rule r;
    r.id = id;
    r.algorithm = Algorithm::FixedWindow;
    r.limit = limit;
    r.windowUs = 3600LL * 1'000'000;
    r.keyPrefix = test::keyPrefix();
    r.onRedisError = OnRedisError::Deny;
    return r;
}

// The error of a result, empty when it holds a value (QVERIFY2 evaluates its message always).
template <typename T> QString errorOf(const Result<T> &r)
{
    return r ? QString() : r.error().message;
}

template <typename F> bool waitUntil(F f, int ms)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        if (f()) {
            return true;
        }
        QTest::qWait(20);
    }
    return f();
}

// Keys whose slots fall on each of the three masters' ranges (0-5460, 5461-10921, 10922-16383).
QList<QByteArray> keysOnEveryMaster(const QByteArray &prefix, int perMaster)
{
    QList<QByteArray> out;
    int counts[3] = {0, 0, 0};
    for (int i = 0; out.size() < 3 * perMaster; ++i) {
        const QByteArray k = prefix + '{' + QByteArray::number(i) + '}';
        const int m = redis::keySlot(k) * 3 / 16384;
        if (counts[m] < perMaster) {
            ++counts[m];
            out << k;
        }
    }
    return out;
}

// keysOnEveryMaster's keys, each set to "1" for a minute through `c`: the keys it planted, or
// none when a SET failed.
QList<QByteArray> plantOnEveryMaster(Connection &c, const QByteArray &prefix, int perMaster)
{
    const QList<QByteArray> keys = keysOnEveryMaster(prefix, perMaster);
    for (const QByteArray &k : keys) {
        if (!c.command({"SET", k, "1", "EX", "60"})) {
            return {};
        }
    }
    return keys;
}

// The "allowed" of each decision `sluice-cli check --json` printed, in order.
QList<bool> allowedOf(const QByteArray &checkJson)
{
    QList<bool> out;
    for (const QJsonValue &d : QJsonDocument::fromJson(checkJson).array()) {
        out << d.toObject()[QStringLiteral("allowed")].toBool();
    }
    return out;
}

} // namespace

class TestCluster : public QObject
{
    Q_OBJECT

    test::OwnCluster m_cluster;

    Connection open()
    {
        auto c = Connection::open(m_cluster.endpoint());
        if (!c) {
            qFatal("cluster connection: %s", qPrintable(c.error().message));
        }
        return std::move(*c);
    }

private Q_SLOTS:
    void crc16KnownVectors()
    {
        QCOMPARE(redis::crc16("123456789", 9), std::uint16_t(0x31C3));
        QCOMPARE(redis::crc16("", 0), std::uint16_t(0));
        // The cluster specification's examples of hash tags.
        QCOMPARE(redis::keySlot("{user1000}.following"), redis::keySlot("user1000"));
        QCOMPARE(redis::keySlot("{user1000}.followers"), redis::keySlot("user1000"));
        QCOMPARE(redis::keySlot("foo{}{bar}"), int(redis::crc16("foo{}{bar}", 10) & 16383));
        QCOMPARE(redis::keySlot("foo{{bar}}zap"), redis::keySlot("{bar"));
        QCOMPARE(redis::keySlot("foo{bar}{zap}"), redis::keySlot("bar"));
        QCOMPARE(redis::keySlot("foo"), 12182); // CLUSTER KEYSLOT foo, as documented
        QCOMPARE(redis::keySlot("{sluice}:rules"), redis::keySlot("sluice"));
    }

    void initTestCase()
    {
        QString why;
        QElapsedTimer t;
        t.start();
        QVERIFY2(m_cluster.start(&why), qPrintable(why));
        qInfo("3 masters + 3 replicas up in %lld ms", t.elapsed());
    }

    void slotsMatchRedis()
    {
        auto node = Connection::open(m_cluster.nodeEndpoint(0));
        QVERIFY(node);
        QList<QByteArray> keys{"",
                               "a",
                               "foo",
                               "{",
                               "}",
                               "{}",
                               "a{b}c",
                               "{a}{b}",
                               "x{}y{z}",
                               QByteArray("\x00\xff{\x01}", 5),
                               "t:\xe4\xb8\xad:{ip 1}",
                               "{sluice}:"};
        for (int i = 0; i < 200; ++i) {
            keys << "k" + QByteArray::number(i * 7919);
        }
        for (const QByteArray &k : keys) {
            auto r = node->command({"CLUSTER", "KEYSLOT", k});
            QVERIFY(r);
            QCOMPARE(qint64(redis::keySlot(k)), r->integer);
        }
    }

    void discoversFromAnySeed()
    {
        auto c = open();
        QVERIFY(c.cluster());
        const QList<redis::Cluster::Node> nodes = c.cluster()->nodes();
        QCOMPARE(nodes.size(), 6);
        int masters = 0;
        for (const auto &n : nodes) {
            masters += n.master ? 1 : 0;
            QVERIFY(!n.id.isEmpty());
        }
        QCOMPARE(masters, 3);
        QVERIFY(c.cluster()->uncoveredSlots().isEmpty());

        // A dead seed first, then a replica: the map comes from the one that answers.
        const QString url = u"redis://127.0.0.1:%1,127.0.0.1:%2"_s.arg(test::freeLoopbackPort())
                                .arg(m_cluster.node(4).port());
        auto viaReplica = Connection::open(*Endpoint::parse(url));
        QVERIFY2(viaReplica, qPrintable(errorOf(viaReplica)));
        QVERIFY(viaReplica->cluster());
        QCOMPARE(viaReplica->cluster()->nodes().size(), 6);

        // One address: a plain connection until the first MOVED, then a cluster client; the
        // command that was redirected still gets its answer.
        auto single = Connection::open(m_cluster.node(0).endpoint());
        QVERIFY(single);
        QVERIFY(!single->cluster());
        QByteArray onOther; // a key of the third master's range, not node 0's
        for (const QByteArray &k : keysOnEveryMaster(test::keyPrefix() + "single", 1)) {
            if (redis::keySlot(k) >= 10923) {
                onOther = k;
            }
        }
        auto set = single->command({"SET", onOther, "1", "EX", "60"});
        QVERIFY2(set, qPrintable(errorOf(set)));
        QVERIFY(single->cluster());
        auto get = single->command({"GET", onOther});
        QVERIFY2(get, qPrintable(errorOf(get)));
        QCOMPARE(get->str, QByteArray("1"));
    }

    // An ACL user on every node, refused CLUSTER SHARDS: the map comes from CLUSTER SLOTS (the
    // Redis < 7 path), and the user's credentials reach every node.
    void aclUserAndSlotsFallback()
    {
        for (int i = 0; i < m_cluster.size(); ++i) {
            auto n = Connection::open(m_cluster.nodeEndpoint(i));
            QVERIFY(n);
            QVERIFY(n->command({"ACL", "SETUSER", "t-slots", "on", ">t-pw", "~*", "&*", "+@all",
                                "-cluster|shards"}));
        }
        Endpoint e = m_cluster.endpoint();
        e.user = u"t-slots"_s;
        e.password = u"t-pw"_s;
        auto c = Connection::open(e);
        QVERIFY2(c, qPrintable(errorOf(c)));
        // CLUSTER SLOTS lists a replica only once its replication offset was gossiped (Redis
        // 7.0 isReplicaAvailable): the masters are what is sure.
        int masters = 0;
        for (const auto &n : c->cluster()->nodes()) {
            masters += n.master ? 1 : 0;
        }
        QCOMPARE(masters, 3);
        QVERIFY(c->cluster()->uncoveredSlots().isEmpty());
        const QList<QByteArray> keys = keysOnEveryMaster(test::keyPrefix() + "acl", 1);
        for (const QByteArray &k : keys) {
            auto r = c->command({"SET", k, "1", "EX", "60"});
            QVERIFY2(r, qPrintable(errorOf(r)));
            QCOMPARE(c->command({"ACL", "WHOAMI"})->str, QByteArray("t-slots"));
        }
        QList<QByteArray> del{"DEL"};
        del << keys;
        QCOMPARE(c->command(del)->integer, qint64(3));
        e.password = u"wrong"_s;
        auto refused = Connection::open(e);
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.contains(u"refused the credentials"_s),
                 qPrintable(refused.error().message));
    }

    // The engine from one address: its first batch meets MOVED, reconnects as a cluster client
    // and decides the redirected requests at once (none fails).
    void limiterFromOneAddress()
    {
        const Rule rule = fixedRule(u"t-cluster-one-address"_s, 5);
        const Policy policy = rule.policy();
        auto c = Connection::open(m_cluster.node(0).endpoint());
        QVERIFY(c);
        RedisLimiter limiter(std::move(*c));
        std::vector<Request> batch;
        for (const QByteArray &k : keysOnEveryMaster(rule.keyPrefix + rule.id.toUtf8() + ':', 3)) {
            batch.push_back(Request{&policy, k, 1, {}, 0});
        }
        auto r = limiter.decideBatch(batch);
        QVERIFY2(r, qPrintable(errorOf(r)));
        for (const auto &d : *r) {
            QVERIFY2(d, qPrintable(errorOf(d)));
            QVERIFY(d->allowed);
        }
        QVERIFY(limiter.connection().cluster());
        auto admin = open();
        QCOMPARE(test::deleteByPrefix(admin, rule.keyPrefix + rule.id.toUtf8()), qint64(9));
    }

    // A subscription on the cluster (what the rule watcher uses): PUBLISH on any node reaches
    // it (the cluster bus carries it to every node).
    void subscribeOnCluster()
    {
        const QByteArray channel = test::keyPrefix() + "chan";
        auto sub = redis::Subscriber::open(m_cluster.endpoint(), {channel}, {}, "t-cluster");
        QVERIFY2(sub, qPrintable(errorOf(sub)));
        auto pub = Connection::open(m_cluster.nodeEndpoint(2));
        QVERIFY(pub);
        QVERIFY(pub->command({"PUBLISH", channel, "hello"}));
        std::atomic<bool> stopping{false};
        auto m = sub->next(-1, stopping, 2000ms, 2000ms);
        QVERIFY2(m, qPrintable(errorOf(m)));
        QVERIFY(m->has_value());
        QCOMPARE((*m)->channel, channel);
        QCOMPARE((*m)->payload, QByteArray("hello"));
    }

    void routesAndPipelinesAcrossNodes()
    {
        auto c = open();
        const QList<QByteArray> keys = keysOnEveryMaster(test::keyPrefix() + "route", 20);
        QList<QList<QByteArray>> sets;
        for (const QByteArray &k : keys) {
            sets.append({"SET", k, k, "EX", "60"});
        }
        // 60 commands on 3 masters: every node's part written, then the replies read, once.
        const qint64 before = c.cluster()->counters().roundTrips;
        auto r = c.pipeline(sets);
        QCOMPARE(c.cluster()->counters().roundTrips, before + 1);
        QVERIFY(r);
        for (const auto &x : *r) {
            QVERIFY2(x, qPrintable(errorOf(x)));
        }
        // Each key is on the master of its slot, as that master says itself.
        for (const QByteArray &k : keys) {
            const int owner = m_cluster.masterOf(redis::keySlot(k));
            QVERIFY(owner >= 0);
            auto direct = Connection::open(m_cluster.nodeEndpoint(owner));
            QVERIFY(direct);
            QCOMPARE(direct->command({"GET", k})->str, k);
        }
        // Keyless: DBSIZE sums the masters; a split DEL counts every key it deleted.
        QVERIFY(c.command({"DBSIZE"})->integer >= keys.size());
        QList<QByteArray> del{"DEL"};
        del << keys;
        QCOMPARE(c.command(del)->integer, qint64(keys.size()));
    }

    void crossSlotNamesTheKeys()
    {
        auto c = open();
        auto r = c.command({"MGET", "foreign:a", "foreign:b"});
        QVERIFY(!r);
        QVERIFY2(r.error().message.startsWith(u"CROSSSLOT"_s), qPrintable(errorOf(r)));
        QVERIFY2(r.error().message.contains(u"'foreign:a'"_s) &&
                     r.error().message.contains(u"'foreign:b'"_s),
                 qPrintable(r.error().message));
        // With one hash tag it runs.
        QVERIFY(c.command({"MGET", "{foreign}:a", "{foreign}:b"}));
        // A script over keys of two slots, the same.
        auto e = c.command({"EVAL", "return 1", "2", "foreign:a", "foreign:b"});
        QVERIFY(!e);
        QVERIFY2(e.error().message.contains(u"foreign:b"_s), qPrintable(errorOf(e)));
    }

    void scriptsPerNode()
    {
        auto c = open();
        const ScriptRegistry &reg = ScriptRegistry::builtin();
        const ScriptRegistry::Script *s = reg.find(u"fixed_window"_s);
        QVERIFY(s);
        const Rule rule = fixedRule(u"t-cluster-scripts"_s, 100);
        const Policy policy = rule.policy();
        const QList<QByteArray> keys = keysOnEveryMaster(test::keyPrefix() + "script", 2);
        auto runAll = [&] {
            for (const QByteArray &k : keys) {
                auto r = ScriptRegistry::eval(c, *s, {k},
                                              policy.scriptArgs() << "1"
                                                                  << "");
                if (!r) {
                    return r.error().message;
                }
            }
            return QString();
        };
        QCOMPARE(runAll(), QString());
        // One master loses its script cache: only that node reloads (NOSCRIPT per node).
        auto direct = Connection::open(m_cluster.nodeEndpoint(1));
        QVERIFY(direct);
        QVERIFY(direct->command({"SCRIPT", "FLUSH"}));
        QCOMPARE(runAll(), QString());
        QCOMPARE(direct->command({"SCRIPT", "EXISTS", s->sha})->elements.at(0).integer, 1);
        QList<QByteArray> del{"DEL"};
        del << keys;
        QVERIFY(c.command(del));
    }

    void scanWalksEveryMaster()
    {
        auto c = open();
        const QByteArray prefix = test::keyPrefix() + "scan:";
        const QList<QByteArray> keys = plantOnEveryMaster(c, prefix, 30);
        QCOMPARE(keys.size(), 90);
        QSet<QByteArray> seen;
        QByteArray cursor = "0";
        int rounds = 0;
        do {
            auto r = c.command({"SCAN", cursor, "MATCH", prefix + "*", "COUNT", "7"});
            QVERIFY2(r, qPrintable(errorOf(r)));
            cursor = r->elements[0].str;
            for (const Reply &k : r->elements[1].elements) {
                seen.insert(k.str);
            }
            QVERIFY(++rounds < 10000);
        } while (cursor != "0");
        QCOMPARE(seen.size(), keys.size());
        QCOMPARE(test::deleteByPrefix(c, prefix), qint64(keys.size()));
    }

    // The key reader (Keys page, sluice-cli keys) on keys of all three masters: its read script
    // goes one key per call on a cluster (a call's keys must share a slot).
    void keyReaderOnCluster()
    {
        auto c = open();
        const QByteArray prefix = test::keyPrefix() + "reader:";
        const QList<QByteArray> keys = plantOnEveryMaster(c, prefix, 5);
        QCOMPARE(keys.size(), 15);
        keys::KeyReader reader;
        auto read = reader.read(c, keys);
        QVERIFY2(read, qPrintable(errorOf(read)));
        QCOMPARE(reader.mode(), keys::KeyReader::Mode::Script);
        QCOMPARE(read->size(), keys.size());
        for (const keys::KeyInfo &k : *read) {
            QVERIFY(k.exists());
            QVERIFY(k.pttlMs > 0);
        }
        // A scan's reads: plain commands, each routed to its key's master.
        keys::KeyReader bulk;
        bulk.setBulk(true);
        auto plain = bulk.read(c, keys);
        QVERIFY2(plain, qPrintable(errorOf(plain)));
        QCOMPARE(bulk.mode(), keys::KeyReader::Mode::Plain);
        QCOMPARE(plain->size(), keys.size());
        for (qsizetype i = 0; i < keys.size(); ++i) {
            QCOMPARE((*plain)[i].key, keys[i]);
            QCOMPARE((*plain)[i].type, QByteArray("string"));
            QVERIFY((*plain)[i].pttlMs > 0);
        }
        QCOMPARE(test::deleteByPrefix(c, prefix), qint64(keys.size()));
    }

    void ruleStoreOnCluster()
    {
        auto c = open();
        const QByteArray ns =
            "{t-cluster-" + QByteArray::number(QCoreApplication::applicationPid()) + "}:";
        rules::RuleStore store(ns);
        RuleSet set;
        set.rules = {fixedRule(u"t-cluster-store"_s, 5)};
        auto pushed = store.push(c, set, false);
        QVERIFY2(pushed, qPrintable(errorOf(pushed)));
        auto pulled = store.pull(c);
        QVERIFY2(pulled, qPrintable(errorOf(pulled)));
        QCOMPARE(pulled->set.rules.size(), 1);
        QCOMPARE(pulled->set.rules[0].id, u"t-cluster-store"_s);
        QVERIFY(test::deleteByPrefix(c, ns) > 0);
    }

    // Every thread its own limiter (its own cluster connection): subjects on all three
    // masters, each admitted exactly `limit` times.
    void exactLimitUnderConcurrency()
    {
        const qint64 limit = 50;
        const Rule rule = fixedRule(u"t-cluster-exact"_s, limit);
        const Policy policy = rule.policy();
        QList<QByteArray> subjects;
        for (int i = 0; i < 12; ++i) {
            subjects << "s" + QByteArray::number(i);
        }
        QSet<int> mastersHit;
        for (const QByteArray &s : subjects) {
            mastersHit.insert(redis::keySlot(policy.keyFor(s)) * 3 / 16384);
        }
        QCOMPARE(mastersHit.size(), 3);
        std::atomic<qint64> admitted[12] = {};
        std::atomic<int> failures{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&] {
                auto c = Connection::open(m_cluster.endpoint());
                if (!c) {
                    ++failures;
                    return;
                }
                RedisLimiter limiter(std::move(*c));
                for (int round = 0; round < 40; ++round) {
                    std::vector<Request> batch;
                    for (const QByteArray &s : subjects) {
                        batch.push_back(Request{&policy, policy.keyFor(s), 1, {}, 0});
                    }
                    auto r = limiter.decideBatch(batch);
                    if (!r) {
                        ++failures;
                        continue;
                    }
                    for (size_t i = 0; i < r->size(); ++i) {
                        if (!(*r)[i]) {
                            ++failures;
                        } else if ((*r)[i]->allowed) {
                            ++admitted[i];
                        }
                    }
                }
            });
        }
        for (auto &t : threads) {
            t.join();
        }
        QCOMPARE(failures.load(), 0);
        for (int i = 0; i < 12; ++i) {
            QCOMPARE(admitted[i].load(), limit); // 4 x 40 = 160 tries each
        }
        auto c = open();
        QVERIFY(test::deleteByPrefix(c, rule.keyPrefix + rule.id.toUtf8()) == 12);
    }

    // sluice-cli on the cluster: check with two --url seeds (subjects on all three masters,
    // exact counts), bench, and load (no error, every decision from Redis).
    void cliOnCluster()
    {
        const QString id = u"t-cluster-cli-%1"_s.arg(QCoreApplication::applicationPid());
        QList<QByteArray> subjects; // one per master
        for (int i = 0; subjects.size() < 3; ++i) {
            const QByteArray s = "10.0.0." + QByteArray::number(i);
            const int m = redis::keySlot(s) * 3 / 16384;
            if (m == subjects.size()) {
                subjects << s;
            }
        }
        const QStringList urls{m_cluster.node(0).url(), m_cluster.node(4).url()};
        for (const QByteArray &s : subjects) {
            test::CliRun r = test::runCli(
                {u"check"_s, u"--url"_s, urls[0], u"--url"_s, urls[1], u"--algorithm"_s,
                 u"fixed_window"_s, u"--limit"_s, u"3"_s, u"--window"_s, u"60s"_s, u"--id"_s, id,
                 u"--subject"_s, QString::fromUtf8(s), u"--count"_s, u"4"_s, u"--json"_s});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QCOMPARE(allowedOf(r.out), (QList<bool>{true, true, true, false}));
        }
        auto c = open();
        QCOMPARE(test::deleteByPrefix(c, "rate_limit:" + id.toUtf8() + ':'), qint64(3));
        // Stats went to {sluice}:stats:<id>:<second> (one slot, MULTI/EXEC on its node).
        const stats::Counts counts = test::recordedCounts(c, id, 120);
        QCOMPARE(counts.allowed, qint64(9));
        QCOMPARE(counts.denied, qint64(3));
        QVERIFY(test::deleteByPrefix(c, "{sluice}:stats:" + id.toUtf8() + ':') > 0);

        test::CliRun b =
            test::runCli({u"bench"_s, u"--url"_s, m_cluster.url(), u"--seconds"_s, u"1"_s,
                          u"--rounds"_s, u"1"_s, u"--algorithm"_s, u"fixed_window"_s, u"--json"_s});
        QVERIFY2(b.exitCode == 0, b.err.constData());
        const QJsonArray rows =
            QJsonDocument::fromJson(b.out).object().value(u"results"_s).toArray();
        QVERIFY2(!rows.isEmpty(), b.out.constData());
        for (const QJsonValue &row : rows) {
            QVERIFY(row.toObject()[u"decisions_per_s"_s].toInteger() > 0);
        }

        QTemporaryDir dir;
        const QString rules = dir.filePath(u"rules.json"_s);
        QVERIFY(test::writeFile(
            rules, u"{\"version\": 1, \"rules\": [{\"id\": \"%1\", \"scope\": \"ip\", "
                   "\"algorithm\": \"fixed_window\", \"limit\": 1000000, \"window\": \"1h\", "
                   "\"key_prefix\": \"%2\", \"on_redis_error\": \"deny\"}]}"_s
                       .arg(id, QString::fromUtf8(test::keyPrefix()))
                       .toUtf8()));
        test::CliRun l =
            test::runCli({u"load"_s, u"--url"_s, m_cluster.url(), u"--rules"_s, rules,
                          u"--pattern"_s, u"constant:200/s"_s, u"--duration"_s, u"2s"_s,
                          u"--threads"_s, u"2"_s, u"--subjects"_s, u"30"_s, u"--json"_s});
        QVERIFY2(l.exitCode == 0, l.err.constData());
        const QJsonObject doc = QJsonDocument::fromJson(l.out).object();
        QCOMPARE(doc.value(u"errors"_s).toInteger(), qint64(0));
        QCOMPARE(doc.value(u"sent"_s).toInteger(), qint64(400));
        QCOMPARE(doc.value(u"allowed"_s).toInteger(), qint64(400));
        QCOMPARE(doc.value(u"on_redis_error"_s).toInteger(), qint64(0));
    }

    // simulate --backend redis on the cluster: the same results as the twins.
    void simulateOnCluster()
    {
        const test::CliRun local =
            test::runCli({u"simulate"_s, u"preset:3-per-5s-per-ip"_s, u"--json"_s});
        QVERIFY2(local.exitCode == 0, local.err.constData());
        const test::CliRun redis =
            test::runCli({u"simulate"_s, u"preset:3-per-5s-per-ip"_s, u"--json"_s, u"--url"_s,
                          m_cluster.node(0).url(), u"--url"_s, m_cluster.node(1).url()});
        QVERIFY2(redis.exitCode == 0, redis.err.constData());
        QVERIFY(redis.out.contains(R"("backend":"redis")"));
        QCOMPARE(QByteArray(redis.out).replace(R"("backend":"redis")", R"("backend":"local")"),
                 local.out);
    }

    // serve's decision pool (what `sluice-cli serve` decides with) on the cluster: subjects on
    // all three masters, exactly `limit` admitted each, every answer from Redis.
    void decisionPoolOnCluster()
    {
        using namespace sluice::serve;
        RuleSet set;
        Rule r = fixedRule(u"t-cluster-pool-%1"_s.arg(QCoreApplication::applicationPid()), 2);
        set.rules = {r};
        auto table = std::make_shared<const RuleTable>(set, 1, u"test"_s);
        const ServiceRule *rule = table->find(r.id);
        QVERIFY(rule);
        std::mutex mutex;
        std::vector<DecisionOutcome> outcomes;
        DecisionPool::Options options;
        options.workers = 2;
        DecisionPool pool(m_cluster.endpoint(), options, [&](std::vector<DecisionOutcome> &&out) {
            std::lock_guard l(mutex);
            for (auto &o : out) {
                outcomes.push_back(std::move(o));
            }
        });
        pool.start();
        const QList<QByteArray> subjects = {"a", "b", "c", "d", "e", "f", "g", "h", "i"};
        QSet<int> masters;
        for (const QByteArray &s : subjects) {
            masters.insert(redis::keySlot(rule->policy.keyFor(s)) * 3 / 16384);
            for (int i = 0; i < 3; ++i) {
                DecisionJob job;
                job.table = table;
                job.rule = rule;
                job.subject = s;
                job.key = rule->policy.keyFor(s);
                pool.submit(std::move(job));
            }
        }
        QCOMPARE(masters.size(), 3);
        QVERIFY(waitUntil(
            [&] {
                std::lock_guard l(mutex);
                return outcomes.size() == size_t(3 * subjects.size());
            },
            10000));
        pool.stop();
        QHash<QByteArray, int> admitted;
        for (const DecisionOutcome &o : outcomes) {
            QVERIFY2(o.error.isEmpty(), qPrintable(o.error));
            QCOMPARE(o.source, DecisionSource::Redis);
            admitted[o.job.subject] += o.decision.allowed ? 1 : 0;
        }
        for (const QByteArray &s : subjects) {
            QCOMPARE(admitted.value(s), 2);
        }
        auto c = open();
        QCOMPARE(test::deleteByPrefix(c, r.keyPrefix + r.id.toUtf8()), qint64(subjects.size()));
    }

    // One address of one master (--url redis://<node 0>) is the whole cluster, in every
    // command: keys lists the keys of all three masters and flags the never-expiring ones on
    // the others; keys audit and keys fix reach them too; --no-cluster keeps the one node.
    void oneSeedKeysAuditFix()
    {
        const QByteArray prefix =
            "rate_limit:t-seed-" + QByteArray::number(QCoreApplication::applicationPid()) + ':';
        const QList<QByteArray> keys = keysOnEveryMaster(prefix, 3); // 9 keys, 3 per master
        auto c = open();
        QSet<QByteArray> noTtl;
        QSet<int> seen;
        for (qsizetype i = 0; i < keys.size(); ++i) {
            // The first key of each master's three has no TTL.
            if (!seen.contains(redis::keySlot(keys[i]) * 3 / 16384)) {
                seen.insert(redis::keySlot(keys[i]) * 3 / 16384);
                QVERIFY(c.command({"SET", keys[i], "7"}));
                noTtl.insert(keys[i]);
            } else {
                QVERIFY(c.command({"SET", keys[i], "7", "PX", "600000"}));
            }
        }
        QSet<int> masters;
        for (const QByteArray &k : noTtl) {
            masters.insert(redis::keySlot(k) * 3 / 16384);
        }
        QCOMPARE(masters.size(), 3);
        const QString seed = m_cluster.node(0).url();
        const QString glob = QString::fromUtf8(prefix) + u'*';

        test::CliRun k =
            test::runCli({u"keys"_s, u"--url"_s, seed, u"--match"_s, glob, u"--json"_s});
        QVERIFY2(k.exitCode == 0, k.err.constData());
        const QJsonArray listed = QJsonDocument::fromJson(k.out).array();
        QCOMPARE(listed.size(), keys.size());
        QSet<QByteArray> flagged;
        for (const QJsonValue &v : listed) {
            if (v[u"health"_s].toString() == u"never_expires"_s) {
                flagged.insert(v[u"key"_s].toString().toUtf8());
            }
        }
        QCOMPARE(flagged, noTtl);
        test::CliRun text = test::runCli({u"keys"_s, u"--url"_s, seed, u"--match"_s, glob});
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QVERIFY2(text.out.contains("3 limiter keys never expire"), text.out.constData());

        // --no-cluster: the node alone, as before (its three keys).
        test::CliRun one = test::runCli(
            {u"keys"_s, u"--url"_s, seed, u"--no-cluster"_s, u"--match"_s, glob, u"--json"_s});
        QVERIFY2(one.exitCode == 0, one.err.constData());
        QCOMPARE(QJsonDocument::fromJson(one.out).array().size(), 3);

        test::CliRun a = test::runCli(
            {u"keys"_s, u"audit"_s, u"--url"_s, seed, u"--match"_s, glob, u"--json"_s});
        QVERIFY2(a.exitCode == 0, a.err.constData());
        const QJsonObject audit = QJsonDocument::fromJson(a.out).object();
        QCOMPARE(audit[u"scanned"_s].toInteger(), qint64(keys.size()));
        QCOMPARE(audit[u"complete"_s].toBool(), true);
        QCOMPARE(audit[u"flagged"_s].toInteger(), qint64(3));

        test::CliRun f = test::runCli({u"keys"_s, u"fix"_s, u"--url"_s, seed, u"--match"_s, glob,
                                       u"--ttl"_s, u"1h"_s, u"--json"_s});
        QVERIFY2(f.exitCode == 0, f.err.constData());
        const QJsonObject fix = QJsonDocument::fromJson(f.out).object();
        QCOMPARE(fix[u"scanned"_s].toInteger(), qint64(keys.size()));
        QCOMPARE(fix[u"done"_s].toInteger(), qint64(3));
        for (const QByteArray &key : noTtl) {
            auto ttl = c.command({"PTTL", key});
            QVERIFY(ttl);
            QVERIFY2(ttl->integer > 0, key.constData());
        }
        QCOMPARE(test::deleteByPrefix(c, prefix), qint64(keys.size()));
    }

    // check (and its statistics), bench, load, simulate --backend redis, rules push / pull and
    // serve, each given one address of one node.
    void oneSeedEveryOtherCommand()
    {
        const QString seed = m_cluster.node(0).url();
        const QString id = u"t-seed-cmd-%1"_s.arg(QCoreApplication::applicationPid());
        QList<QByteArray> subjects; // one per master
        for (int i = 0; subjects.size() < 3; ++i) {
            const QByteArray s = "10.1.0." + QByteArray::number(i);
            if (redis::keySlot("rate_limit:" + id.toUtf8() + ":{" + s + '}') * 3 / 16384 ==
                subjects.size()) {
                subjects << s;
            }
        }
        for (const QByteArray &s : subjects) {
            test::CliRun r = test::runCli(
                {u"check"_s, u"--url"_s, seed, u"--algorithm"_s, u"fixed_window"_s, u"--limit"_s,
                 u"2"_s, u"--window"_s, u"60s"_s, u"--id"_s, id, u"--subject"_s,
                 QString::fromUtf8(s), u"--count"_s, u"3"_s, u"--json"_s});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY2(r.err.isEmpty(), r.err.constData());
            QCOMPARE(allowedOf(r.out), (QList<bool>{true, true, false}));
        }
        auto c = open();
        QCOMPARE(test::deleteByPrefix(c, "rate_limit:" + id.toUtf8() + ':'), qint64(3));
        QCOMPARE(test::recordedCounts(c, id, 120).allowed, qint64(6));
        QVERIFY(test::deleteByPrefix(c, "{sluice}:stats:" + id.toUtf8() + ':') > 0);

        // bench: one address is a cluster, so no redis-benchmark ceiling (one node's).
        test::CliRun b =
            test::runCli({u"bench"_s, u"--url"_s, seed, u"--seconds"_s, u"1"_s, u"--rounds"_s,
                          u"1"_s, u"--algorithm"_s, u"fixed_window"_s, u"--json"_s});
        QVERIFY2(b.exitCode == 0, b.err.constData());
        const QJsonObject bench = QJsonDocument::fromJson(b.out).object();
        QVERIFY2(bench[u"server"_s].toString().endsWith(u"(cluster)"_s), b.out.constData());
        const QJsonArray rows = bench.value(u"results"_s).toArray();
        QVERIFY2(!rows.isEmpty(), b.out.constData());
        for (const QJsonValue &row : rows) {
            QVERIFY(row.toObject()[u"decisions_per_s"_s].toInteger() > 0);
            QVERIFY2(row.toObject()[u"ceiling_per_s"_s].isNull(), b.out.constData());
        }

        QTemporaryDir dir;
        const QString rules = dir.filePath(u"rules.json"_s);
        {
            QFile file(rules);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(u"{\"version\": 1, \"rules\": [{\"id\": \"%1\", \"scope\": \"ip\", "
                       "\"algorithm\": \"fixed_window\", \"limit\": 2, \"window\": \"1h\", "
                       "\"key_prefix\": \"%2\", \"on_redis_error\": \"deny\"}]}"_s
                           .arg(id, QString::fromUtf8(test::keyPrefix()))
                           .toUtf8());
        }
        test::CliRun l = test::runCli({u"load"_s, u"--url"_s, seed, u"--rules"_s, rules,
                                       u"--pattern"_s, u"constant:100/s"_s, u"--duration"_s,
                                       u"1s"_s, u"--subjects"_s, u"30"_s, u"--json"_s});
        QVERIFY2(l.exitCode == 0, l.err.constData());
        const QJsonObject load = QJsonDocument::fromJson(l.out).object();
        QCOMPARE(load[u"errors"_s].toInteger(), qint64(0));
        QCOMPARE(load[u"on_redis_error"_s].toInteger(), qint64(0));
        // (load decides under a run prefix of its own and removes those keys at the end)

        const test::CliRun local =
            test::runCli({u"simulate"_s, u"preset:3-per-5s-per-ip"_s, u"--json"_s});
        const test::CliRun sim =
            test::runCli({u"simulate"_s, u"preset:3-per-5s-per-ip"_s, u"--json"_s, u"--backend"_s,
                          u"redis"_s, u"--url"_s, seed});
        QVERIFY2(sim.exitCode == 0, sim.err.constData());
        QCOMPARE(QByteArray(sim.out).replace(R"("backend":"redis")", R"("backend":"local")"),
                 local.out);

        // rules push through one node, pull through another.
        test::CliRun push = test::runCli({u"rules"_s, u"push"_s, rules, u"--url"_s, seed});
        QVERIFY2(push.exitCode == 0, push.err.constData());
        test::CliRun pull =
            test::runCli({u"rules"_s, u"pull"_s, u"--url"_s, m_cluster.node(2).url()});
        QVERIFY2(pull.exitCode == 0, pull.err.constData());
        QVERIFY2(pull.out.contains(id.toUtf8()), pull.out.constData());

        // serve: subjects on all three masters, each admitted exactly twice, from Redis.
        test::ServeProcess service;
        QVERIFY2(service.start({u"--url"_s, seed, u"--rules"_s, rules, u"--listen"_s,
                                u"127.0.0.1:0"_s, u"--no-deny-cache"_s}),
                 service.err().constData());
        const quint16 port = service.port();
        for (const QByteArray &s : subjects) {
            for (int i = 0; i < 3; ++i) {
                const QByteArray answer =
                    test::httpGet(port, "/v1/check?rule=" + id.toUtf8() + "&subject=" + s).body;
                QVERIFY2(answer.contains(R"("source":"redis")"), answer.constData());
                QVERIFY2(answer.contains(i < 2 ? R"("allowed":true)" : R"("allowed":false)"),
                         answer.constData());
            }
        }
        QCOMPARE(test::deleteByPrefix(c, test::keyPrefix() + id.toUtf8() + ':'), qint64(3));
        QVERIFY(c.command(
            {"UNLINK", "{sluice}:rules", "{sluice}:rules:version", "{sluice}:rules:history"}));
    }

    // One address of a cluster that leaves slots unserved, then of one whose master died: the
    // command says so and names the slots (and the master), and the scan is not called clean.
    void oneSeedOfABrokenCluster()
    {
        test::OwnCluster three(3, 0);
        QString why;
        QVERIFY2(three.start(&why) && three.uncover(0, 0, 99, &why), qPrintable(why));
        const QString seed = three.node(0).url(); // the node whose map has the hole
        test::CliRun k = test::runCli({u"keys"_s, u"--url"_s, seed});
        QVERIFY2(k.exitCode != 0, k.out.constData());
        QVERIFY2(k.err.contains("slots 0-99"), k.err.constData());
        QVERIFY2(k.err.contains("not scanned"), k.err.constData());
        QVERIFY2(!k.out.contains("healthy"), k.out.constData());
        QVERIFY2(k.out.contains("incomplete"), k.out.constData());

        const QByteArray deadId = three.nodeId(2);
        QVERIFY(!deadId.isEmpty());
        three.node(2).kill();
        // Until the seed marks it failed (FAIL, not the PFAIL of "fail?").
        QVERIFY(waitUntil(
            [&] {
                auto n = Connection::open(three.nodeEndpoint(0));
                auto nodes = n ? n->command({"CLUSTER", "NODES"}) : Result<Reply>(n.error());
                if (!nodes) {
                    return false;
                }
                for (const QByteArray &line : nodes->str.split('\n')) {
                    if (line.startsWith(deadId)) {
                        return line.contains(",fail ") || line.contains(",fail,");
                    }
                }
                return false;
            },
            15000));
        const QString dead = u"127.0.0.1:%1"_s.arg(three.node(2).port());
        test::CliRun d = test::runCli({u"keys"_s, u"audit"_s, u"--url"_s, seed, u"--json"_s});
        QVERIFY2(d.exitCode != 0, d.out.constData());
        QVERIFY2(d.err.contains("cluster_state:fail"), d.err.constData());
        QVERIFY2(d.err.contains(dead.toUtf8()), d.err.constData());
        QVERIFY2(d.err.contains("could not be scanned"), d.err.constData());
        QCOMPARE(QJsonDocument::fromJson(d.out).object()[u"complete"_s].toBool(), false);
    }

    // Bad input: a plain server where a cluster node was expected; uncovered slots; a node
    // that stays down. Each names what is wrong, none hangs.
    void notAClusterNode()
    {
        const QString plain = HostPort{u"127.0.0.1"_s, test::redisEndpoint().port}.display();
        const QString url =
            u"redis://%1,127.0.0.1:%2"_s.arg(plain, QString::number(test::freeLoopbackPort()));
        QElapsedTimer t;
        t.start();
        auto e = Endpoint::parse(url);
        QVERIFY2(e, qPrintable(errorOf(e)));
        auto c = Connection::open(*e);
        QVERIFY(!c);
        QVERIFY2(c.error().message.contains(u"is not a Redis Cluster node"_s),
                 qPrintable(c.error().message));
        QVERIFY2(c.error().message.contains(plain), qPrintable(c.error().message));
        QVERIFY(t.elapsed() < 10000);
        auto db = Endpoint::parse(u"redis://127.0.0.1:1,127.0.0.1:2/3"_s);
        QVERIFY(!db);
        QVERIFY2(db.error().message.contains(u"database 0 only"_s), qPrintable(errorOf(db)));
    }

    void uncoveredSlotIsNamed()
    {
        test::OwnCluster one(1, 0);
        QString why;
        QVERIFY2(one.start(&why) && one.uncover(0, 0, 99, &why), qPrintable(why));
        auto c = Connection::open(one.endpoint());
        QVERIFY2(c, qPrintable(errorOf(c)));
        QCOMPARE(c->cluster()->uncoveredSlots().size(), 1);
        QByteArray key;
        for (int i = 0; key.isEmpty(); ++i) {
            const QByteArray k = "u" + QByteArray::number(i);
            if (redis::keySlot(k) < 100) {
                key = k;
            }
        }
        QElapsedTimer t;
        t.start();
        auto r = c->command({"GET", key});
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(u"slot %1"_s.arg(redis::keySlot(key))) &&
                     r.error().message.contains(u"0-99"_s),
                 qPrintable(r.error().message));
        QVERIFY(redis::isUnavailableReply(r.error()));
        QVERIFY(t.elapsed() < 6000);

        // The only master stays down: every command answers at once, naming the node.
        one.node(0).kill();
        QByteArray covered;
        for (int i = 0; covered.isEmpty(); ++i) {
            const QByteArray k = "d" + QByteArray::number(i);
            if (redis::keySlot(k) >= 100) {
                covered = k;
            }
        }
        t.restart();
        for (int i = 0; i < 20; ++i) {
            auto down = c->command({"GET", covered});
            QVERIFY(!down);
            QVERIFY2(down.error().message.contains(u"127.0.0.1:%1"_s.arg(one.node(0).port())) ||
                         down.error().message.contains(u"no node of the Redis Cluster"_s),
                     qPrintable(down.error().message));
            if (c->isBroken()) {
                (void)c->reconnect(); // fails: no node gives its map
            }
        }
        qInfo("20 commands against a cluster whose only master is down: %lld ms", t.elapsed());
        QVERIFY(t.elapsed() < 20 * 3000);
    }

    // A slot migrated under the load generator (CLUSTER SETSLOT MIGRATING/IMPORTING, MIGRATE key
    // by key, SETSLOT NODE): no decision fails, no subject is admitted beyond its limit, and the
    // client went through ASK (keys already moved) and MOVED (after the move) redirects.
    void migrationUnderLoad()
    {
        const qint64 limit = 400;
        const Rule rule = fixedRule(u"t-cluster-migrate"_s, limit);
        const Policy policy = rule.policy();
        // Subjects whose keys share one slot of master 0 (so the slot has keys to move).
        QList<QByteArray> subjects;
        int slot = -1;
        for (int i = 0; subjects.size() < 8; ++i) {
            const QByteArray s = "m" + QByteArray::number(i);
            const int sl = redis::keySlot(policy.keyFor(s));
            if (sl < 5461 && (slot < 0 || sl == slot)) {
                slot = sl;
                subjects << s;
            }
            QVERIFY(i < 20'000'000);
        }
        const int from = m_cluster.masterOf(slot);
        int to = m_cluster.masterOf(8000);
        if (to == from) {
            to = m_cluster.masterOf(13000);
        }
        QVERIFY(from >= 0 && to >= 0 && from != to);
        std::atomic<bool> stop{false};
        std::atomic<qint64> admitted{0}, failures{0};
        QString firstError;
        std::mutex mutex;
        qint64 asks = 0, moved = 0;
        std::thread load([&] {
            auto c = Connection::open(m_cluster.endpoint());
            if (!c) {
                ++failures;
                return;
            }
            RedisLimiter limiter(std::move(*c));
            while (!stop) {
                std::vector<Request> batch;
                for (const QByteArray &s : subjects) {
                    batch.push_back(Request{&policy, policy.keyFor(s), 1, {}, 0});
                }
                auto r = limiter.decideBatch(batch);
                std::lock_guard l(mutex);
                if (!r) {
                    ++failures;
                    firstError = firstError.isEmpty() ? r.error().message : firstError;
                    continue;
                }
                for (const auto &d : *r) {
                    if (!d) {
                        ++failures;
                        firstError = firstError.isEmpty() ? d.error().message : firstError;
                    } else if (d->allowed) {
                        ++admitted;
                    }
                }
            }
            asks = limiter.connection().cluster()->counters().ask;
            moved = limiter.connection().cluster()->counters().moved;
        });
        QTest::qWait(200);
        auto src = Connection::open(m_cluster.nodeEndpoint(from));
        auto dst = Connection::open(m_cluster.nodeEndpoint(to));
        QVERIFY(src && dst);
        const QByteArray s = QByteArray::number(slot);
        const QByteArray srcId = m_cluster.nodeId(from), dstId = m_cluster.nodeId(to);
        QVERIFY(dst->command({"CLUSTER", "SETSLOT", s, "IMPORTING", srcId}));
        QVERIFY(src->command({"CLUSTER", "SETSLOT", s, "MIGRATING", dstId}));
        // Key by key, with pauses, so that decisions meet a half-moved slot.
        for (;;) {
            auto keys = src->command({"CLUSTER", "GETKEYSINSLOT", s, "1"});
            QVERIFY(keys);
            if (keys->elements.empty()) {
                break;
            }
            auto m =
                src->command({"MIGRATE", "127.0.0.1", QByteArray::number(m_cluster.node(to).port()),
                              "", "0", "5000", "KEYS", keys->elements[0].str});
            QVERIFY2(m, qPrintable(errorOf(m)));
            QTest::qWait(60);
        }
        for (int i = 0; i < m_cluster.size(); ++i) {
            if (auto n = Connection::open(m_cluster.nodeEndpoint(i))) {
                (void)n->command({"CLUSTER", "SETSLOT", s, "NODE", dstId});
            }
        }
        QTest::qWait(500);
        stop = true;
        load.join();
        QVERIFY2(failures == 0, qPrintable(firstError));
        QCOMPARE(admitted.load(), limit * subjects.size()); // the load ran past every limit
        QCOMPARE(m_cluster.masterOf(slot), to);
        QVERIFY2(asks > 0, "no ASK redirect was followed");
        QVERIFY2(moved > 0, "no MOVED redirect was followed");
        qInfo("slot %d migrated from node %d to %d under load: %lld ASK and %lld MOVED "
              "redirects followed, no error, %lld admitted (limit %lld x %lld subjects)",
              slot, from, to, asks, moved, qint64(admitted.load()), limit, qint64(subjects.size()));
        auto c = open();
        QCOMPARE(test::deleteByPrefix(c, rule.keyPrefix + rule.id.toUtf8()),
                 qint64(subjects.size()));
    }

    // A multi-key command on a slot half migrated gets TRYAGAIN: retried with a growing pause
    // until the command timeout, then the reply stands; it never loops.
    void tryAgainEndsAtTheDeadline()
    {
        const QByteArray a = "{t-cluster-try}:a", b = "{t-cluster-try}:b";
        const int slot = redis::keySlot(a);
        const int from = m_cluster.masterOf(slot);
        int to = m_cluster.masterOf(8000);
        if (to == from) {
            to = m_cluster.masterOf(13000);
        }
        auto c = open();
        QVERIFY(c.command({"SET", a, "1", "EX", "60"}));
        QVERIFY(c.command({"SET", b, "2", "EX", "60"}));
        auto src = Connection::open(m_cluster.nodeEndpoint(from));
        auto dst = Connection::open(m_cluster.nodeEndpoint(to));
        QVERIFY(src && dst);
        const QByteArray s = QByteArray::number(slot);
        QVERIFY(dst->command({"CLUSTER", "SETSLOT", s, "IMPORTING", m_cluster.nodeId(from)}));
        QVERIFY(src->command({"CLUSTER", "SETSLOT", s, "MIGRATING", m_cluster.nodeId(to)}));
        QVERIFY(src->command({"MIGRATE", "127.0.0.1", QByteArray::number(m_cluster.node(to).port()),
                              "", "0", "5000", "KEYS", a}));
        Endpoint e = m_cluster.endpoint();
        auto shortDeadline = Connection::open(e, Connection::Options{1000ms, 400ms});
        QVERIFY(shortDeadline);
        QElapsedTimer t;
        t.start();
        auto r = shortDeadline->command({"MGET", a, b});
        const qint64 took = t.elapsed();
        QVERIFY(!r);
        QVERIFY2(r.error().message.startsWith(u"TRYAGAIN"_s), qPrintable(r.error().message));
        QVERIFY(shortDeadline->cluster()->counters().tryAgain > 1);
        QVERIFY2(took >= 300 && took < 5000, qPrintable(QString::number(took)));
        // Single keys of that slot still work: a by ASK, b where it is.
        QCOMPARE(shortDeadline->command({"GET", a})->str, QByteArray("1"));
        QCOMPARE(shortDeadline->command({"GET", b})->str, QByteArray("2"));
        // Finish the move: the MGET runs again.
        QVERIFY(src->command({"MIGRATE", "127.0.0.1", QByteArray::number(m_cluster.node(to).port()),
                              "", "0", "5000", "KEYS", b}));
        for (int i = 0; i < m_cluster.size(); ++i) {
            if (auto n = Connection::open(m_cluster.nodeEndpoint(i))) {
                (void)n->command({"CLUSTER", "SETSLOT", s, "NODE", m_cluster.nodeId(to)});
            }
        }
        auto again = shortDeadline->command({"MGET", a, b});
        QVERIFY2(again, qPrintable(errorOf(again)));
        QCOMPARE(again->elements.size(), size_t(2));
        QVERIFY(c.command({"DEL", a, b}));
        qInfo("TRYAGAIN on a half-moved slot: the reply after %lld ms (command timeout 400 ms), "
              "%lld retries",
              took, shortDeadline->cluster()->counters().tryAgain);
    }

    // A master killed with SIGKILL under the load generator: decisions for its slots follow
    // on_redis_error (deny) until its replica is promoted, within cluster-node-timeout + 2 s,
    // then come from Redis again; no decision fails. Last: the cluster is not restored.
    void masterKilledUnderLoad()
    {
        const Rule rule = fixedRule(u"t-cluster-failover"_s, 1'000'000);
        RuleSet set;
        set.rules = {rule};
        load::LoadGenerator g(test::constantLoad(m_cluster.endpoint(), set, 300, 9'000'000, 30));
        QVERIFY(g.start());
        QTest::qWait(1500);
        const int victim = m_cluster.masterOf(0);
        QVERIFY(victim >= 0);
        const load::LoadProgress before = g.progress();
        QElapsedTimer t;
        t.start();
        m_cluster.node(victim).kill();
        // The gap: from the kill until fallbacks stop growing (decisions from Redis again).
        qint64 lastFallbacks = before.fallbacks, lastChangeMs = 0;
        while (t.elapsed() < 7000) {
            const qint64 f = g.progress().fallbacks;
            if (f != lastFallbacks) {
                lastFallbacks = f;
                lastChangeMs = t.elapsed();
            }
            QTest::qWait(20);
        }
        const qint64 promotedTo = m_cluster.masterOf(0);
        g.wait();
        const load::LoadProgress p = g.progress();
        QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
        QCOMPARE(p.errors, qint64(0));
        QVERIFY2(p.fallbacks > before.fallbacks, "no decision was answered by on_redis_error");
        QVERIFY2(promotedTo >= 0 && promotedTo != victim, "the replica was not promoted");
        QCOMPARE(p.fallbacks, p.denied); // Redis admits all: each denial is the fallback
        qInfo("master %d killed under load: on_redis_error answers for %lld ms (bound: "
              "cluster-node-timeout %d ms + 2000 ms), %lld of %lld decisions by on_redis_error; "
              "last unavailable: %s",
              victim, lastChangeMs, test::OwnCluster::nodeTimeoutMs, p.fallbacks, p.sent,
              qPrintable(p.lastUnavailable));
        QVERIFY2(lastChangeMs <= test::OwnCluster::nodeTimeoutMs + 2000,
                 qPrintable(u"decisions resumed only after %1 ms"_s.arg(lastChangeMs)));
    }
};

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
