// What the server offers, found by name with one COMMAND INFO (core/redis/serverfeatures.*),
// and the key scan's CLIENT NO-TOUCH ON where the server has it: against the fixture's
// redis-server (Debian's 7.0 has none of the commands: what its own answers lead to), and
// against a fake server that has them (tests/fakeresp.h), through KeyScanner and `sluice-cli
// keys`.
#include "fakeresp.h"
#include "runcli.h"
#include "testredis.h"

#include "core/keys/keyreader.h"
#include "core/keys/keyscanner.h"
#include "core/redis/serverfeatures.h"

#include <QTest>

#include <mutex>

using namespace sluice;
using namespace sluice::keys;
using namespace Qt::StringLiterals;

namespace {

// A server like Redis but for COMMAND (answered `commandReply`), SCAN (an empty keyspace) and
// DBSIZE; it keeps every command it was sent.
class Recording
{
public:
    // dropFirstScan: the first SCAN closes the connection unanswered (a lost connection).
    // refused: a command answered NOPERM, as an ACL would.
    explicit Recording(QByteArray commandReply, bool dropFirstScan = false, QByteArray refused = {})
        : m_commandReply(std::move(commandReply))
        , m_drop(dropFirstScan)
        , m_refused(std::move(refused))
    {}

    QList<QList<QByteArray>> sent()
    {
        std::lock_guard l(m_mutex);
        return m_sent;
    }
    qsizetype count(const QList<QByteArray> &argv)
    {
        const auto all = sent();
        return std::count(all.begin(), all.end(), argv);
    }
    test::FakeResp server{[this](int fd, const QList<QByteArray> &argv, const std::atomic<bool> &) {
        {
            std::lock_guard l(m_mutex);
            m_sent << argv;
        }
        const QByteArray name = argv.value(0).toUpper();
        if (name == "SCAN" && m_drop.exchange(false)) {
            return false;
        }
        if (name == m_refused) {
            test::sendAll(fd, "-NOPERM this user has no permissions to run the '" + name.toLower() +
                                  "' command\r\n");
            return true;
        }
        test::sendAll(fd, name == "COMMAND"  ? m_commandReply
                          : name == "SCAN"   ? QByteArray("*2\r\n$1\r\n0\r\n*0\r\n")
                          : name == "DBSIZE" ? QByteArray(":0\r\n")
                                             : test::FakeResp::redisLike(argv));
        return true;
    }};

private:
    QByteArray m_commandReply;
    std::atomic<bool> m_drop;
    QByteArray m_refused;
    std::mutex m_mutex;
    QList<QList<QByteArray>> m_sent;
};

// COMMAND INFO CL.THROTTLE GCRA HEXPIRE CLIENT|NO-TOUCH from a server with all but GCRA (each
// entry cut to its name and arity, which is all that is read).
const QByteArray hasThree =
    "*4\r\n*2\r\n$11\r\ncl.throttle\r\n:-5\r\n*-1\r\n*2\r\n$7\r\nhexpire\r\n"
    ":-6\r\n*2\r\n$15\r\nclient|no-touch\r\n:3\r\n";

const QList<QByteArray> noTouchOn{"CLIENT", "NO-TOUCH", "ON"};

ScanSummary scan(Connection &c)
{
    KeyScanner scanner{KeyReader(std::nullopt)};
    KeyScanner::Options o;
    o.latencyFactor = 0;
    return scanner.run(c, o, [](const QList<KeyInfo> &, const ScanProgress &) {});
}

QByteArray infoSection(Connection &c, const char *section)
{
    auto r = c.command({"INFO", section});
    return r ? r->str : QByteArray();
}

qint64 errorReplies(Connection &c)
{
    const QByteArray s = infoSection(c, "stats");
    const qsizetype at = s.indexOf("total_error_replies:");
    return at < 0 ? -1 : s.mid(at + 20, s.indexOf('\r', at) - at - 20).toLongLong();
}

} // namespace

class TestServerFeatures : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The fixture's server says for itself, one name at a time, which commands it has; one
    // COMMAND INFO for the four agrees, and a scan sends CLIENT NO-TOUCH ON only if it has that
    // (Debian's 7.0: none, no error reply anywhere).
    void realServerAnswersForItself()
    {
        Connection c = test::connect();
        bool expected[4] = {};
        const char *names[] = {"CL.THROTTLE", "GCRA", "HEXPIRE", "CLIENT|NO-TOUCH"};
        for (int i = 0; i < 4; ++i) {
            auto r = c.command({"COMMAND", "INFO", names[i]});
            QVERIFY2(r, "COMMAND INFO of one name");
            QCOMPARE(r->elements.size(), size_t(1));
            expected[i] = r->elements[0].type == Reply::Type::Array;
        }
        const redis::ServerFeatures f = redis::detectFeatures(c);
        QVERIFY2(f.known, qPrintable(f.unknownWhy));
        QCOMPARE(f.clThrottle, expected[0]);
        QCOMPARE(f.gcra, expected[1]);
        QCOMPARE(f.hexpire, expected[2]);
        QCOMPARE(f.clientNoTouch, expected[3]);

        const qint64 errorsBefore = errorReplies(c);
        QVERIFY(errorsBefore >= 0);
        Connection scanning = test::connect();
        const ScanSummary s = scan(scanning);
        QCOMPARE(int(s.status), int(ScanSummary::Status::Completed));
        QVERIFY(s.server.known);
        QCOMPARE(s.server.clientNoTouch, f.clientNoTouch);
        QCOMPARE(s.noTouch, f.clientNoTouch);
        QCOMPARE(errorReplies(c), errorsBefore);
        if (!f.clientNoTouch) {
            QVERIFY(s.server.describe().startsWith(u"has none of"_s) || f.clThrottle || f.hexpire);
            QVERIFY(!infoSection(c, "commandstats").contains("no-touch"));
        }
    }

    // A server with CL.THROTTLE, HEXPIRE and CLIENT NO-TOUCH: reported, and the scan sends
    // CLIENT NO-TOUCH ON once, before its first SCAN; `sluice-cli keys` says so.
    void serverWithTheCommands()
    {
        Recording fake(hasThree);
        auto c = Connection::open(fake.server.endpoint());
        QVERIFY(c);
        const ScanSummary s = scan(*c);
        QCOMPARE(int(s.status), int(ScanSummary::Status::Completed));
        QVERIFY(s.server.known);
        QVERIFY(s.server.clThrottle);
        QVERIFY(!s.server.gcra);
        QVERIFY(s.server.hexpire);
        QVERIFY(s.server.clientNoTouch);
        QVERIFY(s.noTouch);
        const auto sent = fake.sent();
        const qsizetype at = sent.indexOf(noTouchOn);
        QVERIFY(at >= 0);
        QCOMPARE(fake.count(noTouchOn), qsizetype(1));
        for (qsizetype i = 0; i < at; ++i) {
            QVERIFY2(sent[i].value(0) != "SCAN", "CLIENT NO-TOUCH ON before the first SCAN");
        }

        const test::CliRun run = test::runCli({u"keys"_s, u"--url"_s, fake.server.url()});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("server: has CL.THROTTLE, HEXPIRE, CLIENT NO-TOUCH; the scan "
                                  "ran under CLIENT NO-TOUCH"),
                 run.out.constData());
    }

    // A connection lost mid-scan and resumed (the same run id): NO-TOUCH is sent again on the
    // new connection, before its SCAN.
    void noTouchAgainAfterAReconnect()
    {
        Recording fake(hasThree, true);
        auto c = Connection::open(fake.server.endpoint());
        QVERIFY(c);
        const ScanSummary s = scan(*c);
        QCOMPARE(int(s.status), int(ScanSummary::Status::Completed));
        QCOMPARE(s.reconnects, qint64(1));
        QVERIFY(s.noTouch);
        QCOMPARE(fake.count(noTouchOn), qsizetype(2));
        const auto sent = fake.sent();
        qsizetype lastScan = -1;
        for (qsizetype i = 0; i < sent.size(); ++i) {
            lastScan = sent[i].value(0) == "SCAN" ? i : lastScan;
        }
        QVERIFY(sent.lastIndexOf(noTouchOn) < lastScan);
    }

    // A user without COMMAND (an ACL), and a server without it: features unknown and said
    // why; the scan goes on, and no CLIENT NO-TOUCH is sent.
    void commandRefusedLeavesThemUnknown_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<QString>("why");
        QTest::newRow("acl") << QByteArray("-NOPERM User x has no permissions to run the "
                                           "'command|info' command\r\n")
                             << u"NOPERM"_s;
        QTest::newRow("no COMMAND")
            << QByteArray("-ERR unknown command 'COMMAND'\r\n") << u"unknown command"_s;
        QTest::newRow("not an array") << QByteArray("+OK\r\n") << u"not 4 entries"_s;
        QTest::newRow("three entries")
            << QByteArray("*3\r\n*-1\r\n*-1\r\n*-1\r\n") << u"not 4 entries"_s;
    }
    void commandRefusedLeavesThemUnknown()
    {
        QFETCH(QByteArray, reply);
        QFETCH(QString, why);
        Recording fake(reply);
        auto c = Connection::open(fake.server.endpoint());
        QVERIFY(c);
        const ScanSummary s = scan(*c);
        QCOMPARE(int(s.status), int(ScanSummary::Status::Completed));
        QVERIFY(!s.server.known);
        QVERIFY2(s.server.unknownWhy.contains(why), qPrintable(s.server.unknownWhy));
        QVERIFY(!s.server.clientNoTouch);
        QVERIFY(!s.noTouch);
        QCOMPARE(fake.count(noTouchOn), qsizetype(0));
        QVERIFY(s.server.describe().startsWith(u"unknown ("_s));
    }

    // A scan stopped before it asked (TIME refused by an ACL) says nothing of the server's
    // features, rather than "unknown ()".
    void stoppedBeforeAskingSaysNothing()
    {
        Recording fake(hasThree, false, "TIME");
        const test::CliRun run = test::runCli({u"keys"_s, u"--url"_s, fake.server.url()});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.contains("NOPERM"), run.err.constData());
        QVERIFY2(!run.out.contains("server"), run.out.constData());
        QCOMPARE(fake.count(noTouchOn), qsizetype(0));
    }

    // A hostile answer (a billion entries announced) fails the read at once, in bounded
    // memory: features unknown, nothing thrown or waited for.
    void hostileReplyIsBounded()
    {
        Recording fake("*1000000000\r\n");
        auto c = Connection::open(fake.server.endpoint());
        QVERIFY(c);
        const redis::ServerFeatures f = redis::detectFeatures(*c);
        QVERIFY(!f.known);
        QVERIFY2(f.unknownWhy.contains(u"COMMAND INFO"_s), qPrintable(f.unknownWhy));
    }
};

QTEST_GUILESS_MAIN(TestServerFeatures)
#include "tst_serverfeatures.moc"
