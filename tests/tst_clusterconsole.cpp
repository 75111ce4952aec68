// The console on a Redis Cluster (the console half), against a real cluster that the
// test starts (test::OwnCluster: 3 masters, 3 replicas): the key scanner walking every shard
// (masters, or one replica each), the Keys page's controller (Node column, per-shard progress,
// the replicas option), a profile of one node's address becoming the whole cluster, the
// Connection page's node list (roles, slot ranges, health, a replica killed), the slot view
// (a global rule's one slot, the hot-key share), and the pages offscreen with their
// screenshots at 1280x800 and 1920x1080 in English and Chinese. The fixture's plain Redis
// shows that nothing of it appears off a cluster.

#include "owncluster.h"
#include "pageharness.h"
#include "testredis.h"

#include "core/keys/keyscanner.h"
#include "core/limiter/redislimiter.h"
#include "core/redis/cluster.h"
#include "core/redis/slot.h"
#include "ui/connection/clusternodes.h"
#include "ui/connection/clusterpanel.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionpage.h"
#include "ui/keys/keysmodel.h"
#include "ui/keys/keyspage.h"
#include "ui/keys/keyssession.h"
#include "ui/language.h"

#include <QCheckBox>
#include <QHeaderView>
#include <QLabel>
#include <QSet>
#include <QTableView>
#include <QTest>

using namespace sluice;
using namespace sluice::ui;
using namespace sluice::keys;
using namespace Qt::StringLiterals;

namespace {

const QByteArray prefix = "cc:";
constexpr int perMaster = 40;

template <typename T> QString errorOf(const Result<T> &r)
{
    return r ? QString() : r.error().message;
}

// Rule keys of subjects spread over the three masters (0-5460, 5461-10922, 10923-16383),
// `perMaster` each, and one global key.
Rule ipRule()
{
    return Rule::window(u"per-ip"_s, Algorithm::FixedWindow, 5, 60 * duration::usPerSecond,
                        Scope{Scope::Kind::Ip, {}}, prefix);
}
Rule globalRule(const QString &id = u"api-global"_s)
{
    return Rule::window(id, Algorithm::FixedWindow, 1000, 60 * duration::usPerSecond, Scope{},
                        prefix);
}
QList<QByteArray> spreadKeys()
{
    QList<QByteArray> out;
    int counts[3] = {0, 0, 0};
    const Rule r = ipRule();
    for (int i = 0; out.size() < 3 * perMaster; ++i) {
        const QByteArray k = r.keyFor("10.0." + QByteArray::number(i));
        const int slot = redis::keySlot(k);
        const int m = slot * 3 / redis::clusterSlots; // OwnCluster's even split
        if (counts[m] < perMaster) {
            ++counts[m];
            out << k;
        }
    }
    return out;
}

QString shotDir()
{
    const QString dir = qEnvironmentVariable("SLUICE_SHOTS");
    return dir.isEmpty() ? QString() : dir;
}

} // namespace

class TestClusterConsole : public QObject
{
    Q_OBJECT

    test::OwnCluster m_cluster;
    QList<QByteArray> m_keys;

    Connection open()
    {
        auto c = Connection::open(m_cluster.endpoint());
        if (!c) {
            qFatal("cluster connection: %s", qPrintable(c.error().message));
        }
        return std::move(*c);
    }
    RuleSet rules() const
    {
        RuleSet s;
        s.rules = {ipRule(), globalRule()};
        return s;
    }
    // The rules' keys scanned on the cluster, unbudgeted; `got` gets every key delivered.
    ScanSummary scanKeys(bool replicas, QList<KeyInfo> *got,
                         const KeyScanner::PageCallback &also = {})
    {
        Connection c = open();
        KeyScanner scanner{KeyReader(rules())};
        KeyScanner::Options o;
        o.patterns = {prefix + '*'};
        o.maxKeysPerSecond = 0;
        o.replicas = replicas;
        return scanner.run(c, o, [&](const QList<KeyInfo> &page, const ScanProgress &p) {
            *got << page;
            if (also) {
                also(page, p);
            }
        });
    }
    void saveShot(QWidget *w, const QString &name)
    {
        const QString path = test::screenshotPath(name);
        QVERIFY(w->grab().save(path));
        if (!shotDir().isEmpty()) {
            QVERIFY(w->grab().save(shotDir() + u'/' + name));
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(!test::redisUrl().isEmpty(), "no test Redis: run through ctest");
        test::useTestSettings();
        qRegisterMetaType<KeyInfo>();
        qRegisterMetaType<QList<KeyInfo>>();
        qRegisterMetaType<NodeScan>();
        qRegisterMetaType<ScanProgress>();
        qRegisterMetaType<ScanSummary>();
        qRegisterMetaType<KeyFixer::Report>();
        qRegisterMetaType<KeysWorker::RawValue>();
        QString why;
        QVERIFY2(m_cluster.start(&why), qPrintable(why));
        // Real limiter state: the engine decides 1 to 3 requests for each subject.
        m_keys = spreadKeys();
        {
            RedisLimiter limiter(open());
            const Policy policy = ipRule().policy();
            std::vector<Request> batch;
            for (qsizetype i = 0; i < m_keys.size(); ++i) {
                for (qsizetype n = 0; n <= i % 3; ++n) {
                    batch.push_back(Request{&policy, m_keys[i], 1, {}, 0});
                }
            }
            auto r = limiter.decideBatch(batch);
            QVERIFY2(r, qPrintable(errorOf(r)));
        }
        Connection c = open();
        // Replicas catch up before the replica scans.
        QVERIFY(QTest::qWaitFor(
            [&] {
                for (int i = 0; i < m_cluster.size(); ++i) {
                    auto n = Connection::open(m_cluster.nodeEndpoint(i));
                    auto size = n ? n->command({"DBSIZE"}) : Result<Reply>(n.error());
                    if (!size || size->integer != perMaster) {
                        return false;
                    }
                }
                return true;
            },
            10000));
        // ... and CLUSTER SHARDS says so: a replica is "loading" there until the gossip
        // carries a replication offset of it (the scanner reads only "online" replicas).
        QVERIFY(QTest::qWaitFor(
            [&] {
                if (!c.cluster()->refresh()) {
                    return false;
                }
                const auto nodes = c.cluster()->nodes();
                return nodes.size() == 6 &&
                       std::all_of(nodes.begin(), nodes.end(), [](const redis::Cluster::Node &n) {
                           return n.health == u"online"_s;
                       });
            },
            10000));
    }

    // KeyScanner on a cluster connection: every master scanned on a connection of its own,
    // every key once, tagged with the master that serves its slot; per-shard progress.
    void scannerWalksEveryMaster()
    {
        QList<KeyInfo> got;
        int sizes = 3; // every progress lists the 3 shards
        bool sawScanning = false;
        const ScanSummary s =
            scanKeys(false, &got, [&](const QList<KeyInfo> &, const ScanProgress &p) {
                sizes = std::min(sizes, int(p.nodes.size()));
                sawScanning = sawScanning ||
                              std::any_of(p.nodes.begin(), p.nodes.end(), [](const NodeScan &n) {
                                  return n.state == NodeScan::State::Scanning;
                              });
            });
        QCOMPARE(sizes, 3);
        QVERIFY2(s.status == ScanSummary::Status::Completed,
                 qPrintable(s.error ? s.error->message : u"?"_s));
        QVERIFY(sawScanning);
        QCOMPARE(got.size(), m_keys.size());
        QSet<QByteArray> keys;
        for (const KeyInfo &k : got) {
            keys.insert(k.key);
            const int master = m_cluster.masterOf(redis::keySlot(k.key));
            QCOMPARE(k.node, u"127.0.0.1:%1"_s.arg(m_cluster.node(master).port()));
            QCOMPARE(k.ruleId, u"per-ip"_s);
        }
        QCOMPARE(keys.size(), m_keys.size());
        QCOMPARE(s.progress.nodes.size(), 3);
        for (const NodeScan &n : s.progress.nodes) {
            QCOMPARE(n.state, NodeScan::State::Done);
            QCOMPARE(n.keys, qint64(perMaster));
            QVERIFY(!n.replica);
            QCOMPARE(n.address, n.masterAddress);
        }
        QCOMPARE(s.progress.keys, qint64(m_keys.size()));
        QCOMPARE(s.progress.fraction, 1.0);
        QCOMPARE(s.health.keys, qint64(m_keys.size()));
    }

    // Options::replicas: one replica per shard (READONLY), never a SCAN on a master.
    void scannerReadsReplicas()
    {
        QSet<quint16> masterPorts;
        for (int i = 0; i < m_cluster.size(); ++i) {
            auto n = Connection::open(m_cluster.nodeEndpoint(i));
            QVERIFY(n);
            auto role = n->command({"ROLE"});
            QVERIFY(role);
            if (role->elements[0].str == "master") {
                masterPorts.insert(m_cluster.node(i).port());
                QVERIFY(n->command({"CONFIG", "RESETSTAT"}));
            }
        }
        QCOMPARE(masterPorts.size(), 3);
        QList<KeyInfo> got;
        const ScanSummary s = scanKeys(true, &got);
        QVERIFY2(s.status == ScanSummary::Status::Completed,
                 qPrintable(s.error ? s.error->message : u"?"_s));
        QCOMPARE(got.size(), m_keys.size());
        for (const NodeScan &n : s.progress.nodes) {
            QVERIFY(n.replica);
            QVERIFY(!n.noReplica);
            QVERIFY(n.address != n.masterAddress);
            QCOMPARE(n.keys, qint64(perMaster));
            QVERIFY(!masterPorts.contains(quint16(n.address.section(u':', 1).toUInt())));
            QVERIFY(masterPorts.contains(quint16(n.masterAddress.section(u':', 1).toUInt())));
        }
        for (const KeyInfo &k : got) {
            QVERIFY(!masterPorts.contains(quint16(k.node.section(u':', 1).toUInt())));
        }
        // The masters ran no SCAN (their statistics were reset before).
        for (int i = 0; i < m_cluster.size(); ++i) {
            if (!masterPorts.contains(m_cluster.node(i).port())) {
                continue;
            }
            auto n = Connection::open(m_cluster.nodeEndpoint(i));
            QVERIFY(n);
            auto stats = n->command({"INFO", "commandstats"});
            QVERIFY(stats);
            QVERIFY2(!stats->str.contains("cmdstat_scan:"),
                     qPrintable(QString::fromUtf8(stats->str)));
        }
    }

    // CLUSTER NODES parsed: 3 masters with the test's slot ranges, each followed by its
    // replica; a malformed line is an error quoting it.
    void nodesParse()
    {
        Connection c = open();
        auto nodes = readClusterNodes(c);
        QVERIFY2(nodes, qPrintable(errorOf(nodes)));
        QCOMPARE(nodes->size(), 6);
        QStringList ranges;
        for (int i = 0; i < 6; i += 2) {
            const ClusterNode &m = (*nodes)[i];
            const ClusterNode &r = (*nodes)[i + 1];
            QVERIFY(m.master);
            QVERIFY(!r.master);
            QCOMPARE(r.masterAddress, m.address);
            QCOMPARE(m.health, ClusterNode::Health::Ok);
            QCOMPARE(r.health, ClusterNode::Health::Ok);
            QCOMPARE(roleText(r), u"replica of %1"_s.arg(m.address));
            ranges << slotRangesText(m.slots);
        }
        ranges.sort();
        QCOMPARE(ranges, (QStringList{u"0-5460"_s, u"10922-16383"_s, u"5461-10921"_s}));
        auto bad = parseClusterNodes("abc 127.0.0.1:1@2 master\n");
        QVERIFY(!bad);
        QVERIFY2(bad.error().message.contains(u"line 1"_s) &&
                     bad.error().message.contains(u"abc 127.0.0.1:1@2 master"_s),
                 qPrintable(bad.error().message));
        auto fail = parseClusterNodes("a 127.0.0.1:1@2 master,fail - 0 0 1 connected 0-10\n"
                                      "b 127.0.0.1:2@3 slave,fail? a 0 0 1 connected\n"
                                      "c 127.0.0.1:3@4 myself,slave a 0 0 1 disconnected\n");
        QVERIFY2(fail, qPrintable(errorOf(fail)));
        QCOMPARE((*fail)[0].health, ClusterNode::Health::Unreachable);
        QCOMPARE((*fail)[1].health, ClusterNode::Health::Failing);
        QCOMPARE((*fail)[2].health, ClusterNode::Health::Ok); // myself: its own link is no link
        QCOMPARE((*fail)[1].masterAddress, u"127.0.0.1:1"_s);
    }

    // The slot view: a global rule is one key in the slot of {global}, on the master serving
    // it; a per-subject rule spreads by slot share; the hot-key share is rate / capacity.
    void slotView()
    {
        Connection c = open();
        auto nodes = readClusterNodes(c);
        QVERIFY(nodes);
        RuleSet set = rules();
        set.rules.push_back(globalRule(u"second-global"_s));
        const QList<RuleSpread> spreads = ruleSpreads(set, *nodes);
        QCOMPARE(spreads.size(), 3);
        const RuleSpread &ip = spreads[0];
        QVERIFY(!ip.global);
        QCOMPARE(ip.shares.size(), 3);
        double sum = 0;
        for (const auto &[node, share] : ip.shares) {
            QVERIFY(share > 0.33 && share < 0.34);
            sum += share;
        }
        QVERIFY(qAbs(sum - 1) < 1e-9);
        const RuleSpread &g = spreads[1];
        QVERIFY(g.global);
        QCOMPARE(g.key, prefix + "api-global:{global}");
        auto slot =
            Connection::open(m_cluster.nodeEndpoint(0))->command({"CLUSTER", "KEYSLOT", g.key});
        QCOMPARE(qint64(g.slot), slot->integer);
        QCOMPARE(g.node, u"127.0.0.1:%1"_s.arg(m_cluster.node(m_cluster.masterOf(g.slot)).port()));
        QCOMPARE(spreads[2].slot, g.slot); // every global rule: the same {global} slot
        QVERIFY2(describeSpread(ip, 1000, 100'000).nodes.contains(u"33% each"_s),
                 qPrintable(describeSpread(ip, 1000, 100'000).nodes));
        QCOMPARE(hotKeyShare(25'000, 100'000), 0.25);
        const SpreadText t = describeSpread(g, 60'000, 100'000);
        QCOMPARE(t.tone, Tone::Bad);
        QVERIFY2(t.warning.contains(u"60%"_s) && t.warning.contains(g.node) &&
                     t.warning.contains(QString::number(g.slot)),
                 qPrintable(t.warning));
        QCOMPARE(describeSpread(g, 1000, 100'000).tone, Tone::Info);
        QVERIFY(describeSpread(g, 200'000, 100'000).warning.contains(u"more than one node"_s));
    }

    // A profile of one node's address: the console connects to the whole cluster, and the
    // state carries the node list.
    void profileOfOneNodeBecomesTheCluster()
    {
        test::PageHarness h;
        QVERIFY(h.connect(m_cluster.nodeEndpoint(1)));
        QVERIFY(QTest::qWaitFor([&] { return h.controller()->state().nodes.size() == 6; }, 5000));
        QVERIFY(h.controller()->state().cluster);
        QVERIFY(h.controller()->endpoint()->isCluster());
        QCOMPARE(h.controller()->endpoint()->seeds.front().port, m_cluster.node(1).port());
        int masters = 0;
        for (const ClusterNode &n : h.controller()->state().nodes) {
            masters += n.master ? 1 : 0;
        }
        QCOMPARE(masters, 3);
    }

    // The Keys page's controller: a Node column's worth of addresses, one line per shard,
    // the replicas option rescanning from replicas.
    void keysSessionOnCluster()
    {
        test::PageHarness h;
        QVERIFY(h.connect(m_cluster.nodeEndpoint(0)));
        KeysModel model;
        KeysSession session(h.controller(), &model);
        session.setRules(rules());
        session.setPatterns({prefix + '*'});
        session.startSession();
        QVERIFY(
            QTest::qWaitFor([&] { return !session.isScanning() && model.rowCount() > 0; }, 20000));
        QVERIFY(session.isCluster());
        QCOMPARE(model.rowCount(), int(m_keys.size()));
        QCOMPARE(model.headerData(KeysModel::NodeColumn, Qt::Horizontal).toString(), u"Node"_s);
        for (int r = 0; r < model.rowCount(); ++r) {
            const int master = m_cluster.masterOf(redis::keySlot(model.info(r).key));
            QCOMPARE(model.data(model.index(r, KeysModel::NodeColumn)).toString(),
                     u"127.0.0.1:%1"_s.arg(m_cluster.node(master).port()));
        }
        QCOMPARE(session.nodeScans().size(), 3);
        for (const NodeScan &n : session.nodeScans()) {
            QCOMPARE(KeysSession::describeNode(n),
                     u"%1: %2 keys, done"_s.arg(n.address).arg(perMaster));
        }
        QVERIFY2(session.nodesHeading().contains(u"masters"_s), qPrintable(session.nodesHeading()));

        session.setScanReplicas(true); // rescans
        QVERIFY(QTest::qWaitFor(
            [&] {
                return !session.isScanning() && !session.nodeScans().isEmpty() &&
                       session.nodeScans().front().replica;
            },
            20000));
        QCOMPARE(model.rowCount(), int(m_keys.size()));
        for (const NodeScan &n : session.nodeScans()) {
            QVERIFY(n.replica);
            QCOMPARE(KeysSession::describeNode(n),
                     u"%1 (replica of %2): %3 keys, done"_s.arg(n.address, n.masterAddress)
                         .arg(perMaster));
        }
        QVERIFY2(session.nodesHeading().contains(u"replicas"_s),
                 qPrintable(session.nodesHeading()));
    }

    // Off a cluster nothing of it shows: no Node column, no replicas option, no shards.
    void plainRedisHidesTheClusterParts()
    {
        test::PageHarness h;
        QVERIFY(h.connect());
        QVERIFY(!h.controller()->state().cluster);
        auto *page = new KeysPage(h.controller());
        QVERIFY(h.show(page));
        QVERIFY(QTest::qWaitFor([&] { return !page->isScanning(); }, 10000));
        QVERIFY(!page->session()->isCluster());
        QVERIFY(h.find<QTableView>("keysTable")->isColumnHidden(KeysModel::NodeColumn));
        QVERIFY(!h.find<QCheckBox>("scanReplicasCheck")->isVisible());
        QVERIFY(!h.find<QLabel>("nodeProgress")->isVisible());
        ConnectionPage conn(h.controller());
        QVERIFY(conn.clusterPanel()->isHidden());
    }

    // A replica killed: the node list says so (failing, then unreachable once the masters
    // agree), refreshed by the worker without any action.
    void killedReplicaShowsInTheNodeList()
    {
        test::PageHarness h;
        QVERIFY(h.connect(m_cluster.nodeEndpoint(0)));
        QVERIFY(QTest::qWaitFor([&] { return h.controller()->state().nodes.size() == 6; }, 5000));
        // The last node is a replica (OwnCluster: masters first).
        const int victim = m_cluster.size() - 1;
        const QString address = u"127.0.0.1:%1"_s.arg(m_cluster.node(victim).port());
        m_cluster.node(victim).kill();
        auto healthOf = [&] {
            for (const ClusterNode &n : h.controller()->state().nodes) {
                if (n.address == address) {
                    return n.health;
                }
            }
            return ClusterNode::Health::Ok;
        };
        QVERIFY(
            QTest::qWaitFor([&] { return healthOf() == ClusterNode::Health::Unreachable; }, 15000));
        // Scanning replicas meanwhile: that shard is read on its master, and says so.
        {
            QList<KeyInfo> got;
            const ScanSummary s = scanKeys(true, &got);
            QVERIFY2(s.status == ScanSummary::Status::Completed,
                     qPrintable(s.error ? s.error->message : u"?"_s));
            QCOMPARE(got.size(), m_keys.size());
            int fallbacks = 0;
            for (const NodeScan &n : s.progress.nodes) {
                if (n.noReplica) {
                    ++fallbacks;
                    QCOMPARE(n.address, n.masterAddress);
                    QVERIFY(!n.replica);
                    QCOMPARE(KeysSession::describeNode(n),
                             u"%1 (master: no replica online): %2 keys, done"_s.arg(n.address).arg(
                                 perMaster));
                }
            }
            QCOMPARE(fallbacks, 1);
        }
        QVERIFY(m_cluster.node(victim).restart());
        QVERIFY(QTest::qWaitFor([&] { return healthOf() == ClusterNode::Health::Ok; }, 15000));
    }

    // The pages on the cluster, offscreen, in both languages and both sizes.
    void screenshots()
    {
        for (const QString &lang : {u"en"_s, u"zh_CN"_s}) {
            QVERIFY(test::useLanguage(lang));
            for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
                const QString tag = u"%1-%2x%3"_s.arg(lang).arg(size.width()).arg(size.height());
                {
                    test::PageHarness h;
                    QVERIFY(h.connect(m_cluster.nodeEndpoint(0)));
                    QVERIFY(QTest::qWaitFor(
                        [&] { return h.controller()->state().nodes.size() == 6; }, 5000));
                    auto *page = new ConnectionPage(h.controller());
                    RuleSet set = rules();
                    set.rules.push_back(globalRule(u"login-global"_s));
                    page->clusterPanel()->setRules(set);
                    page->clusterPanel()->setRate(30'000);
                    QVERIFY(h.show(page, size, 0));
                    QTest::qWait(300);
                    QVERIFY(page->clusterPanel()->isVisible());
                    QVERIFY(page->clusterPanel()->warnings().contains(u"30%"_s));
                    saveShot(h.window(), u"cluster-connection-%1.png"_s.arg(tag));
                }
                {
                    test::PageHarness h;
                    QVERIFY(h.connect(m_cluster.nodeEndpoint(0)));
                    auto *page = new KeysPage(h.controller());
                    page->setRules(rules());
                    QVERIFY(h.show(page, size, 2));
                    QVERIFY(QTest::qWaitFor(
                        [&] { return !page->isScanning() && page->model()->rowCount() > 0; },
                        20000));
                    QTest::qWait(200);
                    QVERIFY(
                        !h.find<QTableView>("keysTable")->isColumnHidden(KeysModel::NodeColumn));
                    QVERIFY(h.find<QCheckBox>("scanReplicasCheck")->isVisible());
                    QVERIFY(h.find<QLabel>("nodeProgress")->isVisible());
                    saveShot(h.window(), u"cluster-keys-%1.png"_s.arg(tag));
                }
            }
        }
        QString error;
        QVERIFY(test::useLanguage(u"en"_s));
    }
};

QTEST_MAIN(TestClusterConsole)
#include "tst_clusterconsole.moc"
