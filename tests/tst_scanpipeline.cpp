// core/keys: the scanner's pipeline with the overlap on (KeyScanner::Options::pageNeedsConnection
// false, no budget, no probes): the next round trip goes out as soon as a page's SCAN reply is
// read, before its reads are collected. Every way out of that state pairs each reply with the
// page that asked for it: the next round trip is really in flight while a page is delivered; a
// cancel leaves no reply due on the connection (the scanner's and the audit's, whose value
// reads ride along); pages that need the connection idle (string counters under a rule's
// prefix) read the next round trip back and lose or repeat nothing; a SCRIPT FLUSH, keys an
// ACL refuses and a connection killed mid-pipeline are each survived with every key once.
#include "ownredis.h"
#include "testredis.h"

#include "core/keys/audit.h"
#include "core/keys/keyreader.h"
#include "core/keys/keyscanner.h"

#include <QElapsedTimer>
#include <QHash>
#include <QSet>
#include <QTest>

#include <atomic>

using namespace sluice;
using namespace sluice::keys;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 sec = 1'000'000;
const Scope ip{Scope::Kind::Ip, {}};

// A rule of fixed windows under "p:" (hashes "p:big:{<subject>}").
RuleSet windows()
{
    RuleSet set;
    set.rules = {Rule::window(u"big"_s, Algorithm::FixedWindow, 10, 60 * sec, ip, "p:")};
    return set;
}

// The options that turn the overlap on: nothing paces the scan, nothing probes it, and the
// callback leaves the connection alone. Pages of `count` keys.
KeyScanner::Options overlapped(int count)
{
    KeyScanner::Options o;
    o.patterns = {QByteArrayLiteral("p:*")};
    o.maxKeysPerSecond = 0;
    o.latencyFactor = 0;
    o.initialCount = o.maxCount = o.minCount = count;
    o.pageNeedsConnection = [] { return false; };
    return o;
}

qint64 statOf(Connection &c, const QByteArray &command)
{
    auto stats = c.command({"INFO", "commandstats"});
    const QByteArray tag = "cmdstat_" + command + ":calls=";
    if (!stats || stats->str.indexOf(tag) < 0) {
        return 0;
    }
    return stats->str.mid(stats->str.indexOf(tag) + tag.size()).split(',').first().toLongLong();
}

// The connection answers the next commands with their own replies: nothing of the scan due.
bool answersItsOwn(Connection &c)
{
    auto pong = c.command({"PING"});
    auto v = c.command({"GET", "probe-value"});
    return pong && pong->str == "PONG" && v && v->str == "42";
}

} // namespace

class TestScanPipeline : public QObject
{
    Q_OBJECT

    test::OwnRedis m_server;
    std::optional<Connection> m_control;

    // A fresh keyspace of `n` fixed windows "p:big:{<i>}" and the probe value.
    bool plant(qint64 n)
    {
        return m_control->command({"FLUSHALL"}) &&
               test::plantFixedWindows(*m_control, "p:", 0, n, 60'000) &&
               m_control->command({"SET", "probe-value", "42"}) &&
               m_control->command({"CONFIG", "RESETSTAT"});
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_server.start(), m_server.output().constData());
        m_control.emplace(m_server.connect());
    }

    void nextRoundTripIsInFlightDuringThePage()
    {
        // Each callback runs while the next page's SCAN is already with Redis: its SCAN count
        // reaches the pages read + 1 without the scanner reading anything more.
        QVERIFY(plant(3000));
        Connection c = m_server.connect();
        KeyScanner scanner{KeyReader(windows())};
        int ahead = 0;
        int callbacks = 0;
        const ScanSummary s =
            scanner.run(c, overlapped(500), [&](const QList<KeyInfo> &, const ScanProgress &p) {
                if (++callbacks > 3) {
                    return;
                }
                QElapsedTimer t;
                t.start();
                while (statOf(*m_control, "scan") < p.pages + 1 && t.elapsed() < 5000) {
                    QTest::qWait(5);
                }
                ahead += statOf(*m_control, "scan") == p.pages + 1 ? 1 : 0;
            });
        QCOMPARE(s.status, ScanSummary::Status::Completed);
        QCOMPARE(s.progress.keys, qint64(3000));
        QCOMPARE(ahead, 3);
    }

    // COUNT grows no further than a page of about maxListed keys on a dense keyspace (its
    // keys' reads come a round trip after their SCAN, and Redis finds small pages still in its
    // caches: bench-keys' audit ran 4.9 to 5.5 s with pages of 4,300 keys, 3.7 to 3.8 with
    // 500). COUNT's target is worked out from the density of the page just read, for the
    // COUNT it was sent with: from the COUNT of the moment, a round trip later, the pages swung
    // between 250 and 1,000 keys.
    void pagesStayNearMaxListed()
    {
        QVERIFY(plant(20'000));
        Connection c = m_server.connect();
        KeyScanner scanner{KeyReader(windows())};
        KeyScanner::Options o = overlapped(200);
        o.maxCount = 10000;
        o.minCount = 10;
        QCOMPARE(o.maxListed, qint64(500));
        QList<qsizetype> pages;
        const ScanSummary s =
            scanner.run(c, o, [&](const QList<KeyInfo> &page, auto &) { pages << page.size(); });
        QCOMPARE(s.status, ScanSummary::Status::Completed);
        QCOMPARE(s.progress.keys, qint64(20'000));
        QVERIFY2(pages.size() >= 20'000 / 650, qPrintable(u"%1 pages"_s.arg(pages.size())));
        for (qsizetype i = 3; i < pages.size(); ++i) {
            QVERIFY2(pages[i] <= 650, qPrintable(u"page %1 of %2 keys"_s.arg(i).arg(pages[i])));
        }
    }

    void cancelLeavesNoReplyDue()
    {
        QVERIFY(plant(20'000));
        Connection c = m_server.connect();
        KeyScanner scanner{KeyReader(windows())};
        std::atomic<bool> cancel{false};
        KeyScanner::Options o = overlapped(1000);
        o.cancel = &cancel;
        qint64 delivered = 0;
        const ScanSummary s = scanner.run(c, o, [&](const QList<KeyInfo> &page, auto &) {
            delivered += page.size();
            cancel = delivered > 0; // with the next round trip in flight
        });
        QCOMPARE(s.status, ScanSummary::Status::Cancelled);
        QVERIFY(delivered > 0 && delivered < 20'000);
        QVERIFY(answersItsOwn(c));
    }

    void auditCancelLeavesNoReplyDue()
    {
        // The audit's value reads ride in the same round trips, one or two pages behind.
        QVERIFY(plant(20'000));
        Connection c = m_server.connect();
        std::atomic<bool> cancel{false};
        KeyAuditor::Options o;
        o.scan = overlapped(1000);
        o.scan.cancel = &cancel;
        o.pageUsesConnection = false;
        qint64 judged = 0;
        int pages = 0;
        const AuditReport r = KeyAuditor::run(c, o, [&](const QList<AuditEntry> &page, auto &) {
            judged += page.size();
            cancel = ++pages == 4;
        });
        QCOMPARE(r.scan.status, ScanSummary::Status::Cancelled);
        QVERIFY(judged > 0);
        QVERIFY(answersItsOwn(c));
    }

    void pagesNeedingTheConnectionLoseNothing()
    {
        // A plain string counter under the rule's prefix on every page: each page reviews it
        // on the idle connection, so the round trip sent ahead is read back and sent again.
        QVERIFY(plant(4000));
        for (int i = 0; i < 4000; i += 50) {
            QVERIFY(m_control->command({"SET", "p:big:{c" + QByteArray::number(i) + "}", "7"}));
        }
        Connection c = m_server.connect();
        KeyScanner scanner{KeyReader(windows())};
        QHash<QByteArray, KeyInfo> seen;
        qint64 twice = 0;
        const ScanSummary s =
            scanner.run(c, overlapped(200), [&](const QList<KeyInfo> &page, auto &) {
                for (const KeyInfo &k : page) {
                    twice += seen.contains(k.key) ? 1 : 0;
                    seen.insert(k.key, k);
                }
            });
        QCOMPARE(s.status, ScanSummary::Status::Completed);
        QCOMPARE(twice, qint64(0));
        QCOMPARE(seen.size(), 4080);
        for (const KeyInfo &k : std::as_const(seen)) {
            const bool counter = k.key.startsWith("p:big:{c");
            QVERIFY2(k.type == (counter ? "string" : "hash"), k.key.constData());
            // A counter without TTL is no_ttl once its value was read (the review).
            QVERIFY2(k.health == (counter ? Health::NoTtl : Health::Ok), k.key.constData());
        }
        QVERIFY(answersItsOwn(c));
    }

    void scriptFlushMidPipelineIsSurvived()
    {
        QVERIFY(plant(3000));
        Connection c = m_server.connect();
        KeyScanner scanner{KeyReader(windows(), {KeyReader::Mode::Script})};
        QSet<QByteArray> seen;
        qint64 notOk = 0;
        int pages = 0;
        const ScanSummary s =
            scanner.run(c, overlapped(100), [&](const QList<KeyInfo> &page, auto &) {
                for (const KeyInfo &k : page) {
                    seen.insert(k.key);
                    notOk += k.health == Health::Ok ? 0 : 1;
                }
                if (++pages % 5 == 0) {
                    QVERIFY(m_control->command({"SCRIPT", "FLUSH"}));
                }
            });
        QVERIFY2(s.status == ScanSummary::Status::Completed,
                 s.error ? qPrintable(s.error->message) : "");
        QCOMPARE(seen.size(), 3000);
        QCOMPARE(s.progress.keys, qint64(3000));
        QCOMPARE(notOk, qint64(0));
        QVERIFY(answersItsOwn(c));
    }

    void refusedKeysMidPipelineAreUnreadable()
    {
        // An ACL user that may read p:big:{<even>} only: every page mixes keys it reads with
        // keys whose reads are refused (NOPERM error replies amid the pipeline).
        QVERIFY(plant(2000));
        QVERIFY(m_control->command({"ACL", "SETUSER", "half", "reset", "on", ">pw", "+@all",
                                    "~p:big:{*0}", "~p:big:{*2}", "~p:big:{*4}", "~p:big:{*6}",
                                    "~p:big:{*8}", "~probe-value"}));
        Endpoint e = m_server.endpoint();
        e.user = u"half"_s;
        e.password = u"pw"_s;
        auto c = Connection::open(e);
        QVERIFY(c);
        KeyScanner scanner{KeyReader(windows())};
        QHash<QByteArray, KeyInfo> seen;
        const ScanSummary s =
            scanner.run(*c, overlapped(100), [&](const QList<KeyInfo> &page, auto &) {
                for (const KeyInfo &k : page) {
                    seen.insert(k.key, k);
                }
            });
        QCOMPARE(s.status, ScanSummary::Status::Completed);
        QCOMPARE(seen.size(), 2000);
        for (const KeyInfo &k : std::as_const(seen)) {
            const char last = k.key.at(k.key.size() - 2);
            const bool readable = (last - '0') % 2 == 0;
            QVERIFY2(k.health == (readable ? Health::Ok : Health::Unreadable), k.key.constData());
            QVERIFY2(readable || k.state.permissionRefused, k.key.constData());
        }
        QVERIFY(answersItsOwn(*c));
    }

    void connectionKilledMidPipelineResumes()
    {
        QVERIFY(plant(3000));
        Connection c = m_server.connect();
        KeyScanner scanner{KeyReader(windows())};
        KeyScanner::Options o = overlapped(100);
        o.reconnectDelay = std::chrono::milliseconds(50);
        QSet<QByteArray> seen;
        qint64 delivered = 0;
        int pages = 0;
        const ScanSummary s = scanner.run(c, o, [&](const QList<KeyInfo> &page, auto &) {
            delivered += page.size();
            for (const KeyInfo &k : page) {
                seen.insert(k.key);
            }
            if (++pages == 4) {
                QVERIFY(m_control->command({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"}));
            }
        });
        QVERIFY2(s.status == ScanSummary::Status::Completed,
                 s.error ? qPrintable(s.error->message) : "");
        QCOMPARE(s.reconnects, qint64(1));
        QCOMPARE(delivered, qint64(3000)); // nothing lost, nothing twice
        QCOMPARE(seen.size(), 3000);
    }
};

QTEST_GUILESS_MAIN(TestScanPipeline)
#include "tst_scanpipeline.moc"
