// Every reply held to what its command expects (core/redis/replyreader.h, ReplyBound), against
// a fake RESP server the test runs on a loopback port (a real Redis cannot send hostile
// replies), and the large bound of value reads against the real redis-server of the fixtures:
// a hostile announcement is refused at its header, in small memory; a SCRIPT LOAD reply is a
// SHA, a decision six integers, TIME two strings, a SCAN page about COUNT keys; the deadline
// holds while a large allowed reply is parsed; a server's text is quoted in at most 200 bytes.
// End to end, `sluice-cli check` and the check service stay small: stderr, the log, /healthz.

#include "app/serve/checkservice.h"

#include "core/common/bytes.h"
#include "core/limiter/redislimiter.h"
#include "core/redis/connection.h"
#include "core/redis/keyspace.h"
#include "core/redis/replyview.h"
#include "core/redis/scriptregistry.h"
#include "core/rules/codec.h"
#include "fakeresp.h"
#include "runcli.h"
#include "servefixture.h"
#include "testkit.h"
#include "testredis.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include <malloc.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace sluice;
using namespace std::chrono;
using namespace Qt::StringLiterals;

namespace {

using test::bulk;
using test::flood;
using test::heldKb;
using test::sendAll;
// A RESP server on a loopback port (tests/fakeresp.h): every command goes to a handler;
// commands it does not take get a Redis-like answer (FakeResp::redisLike).
using FakeRedis = test::FakeResp;

// A fake that answers like Redis, except `command` (and `sub`, when given), which gets `reply`
// and then, when `piece` is set, `piece` over and over (at most `limit` bytes).
FakeRedis::Handler hostileOn(const QByteArray &command, const QByteArray &sub,
                             const QByteArray &reply, const QByteArray &piece = {},
                             qint64 limit = qint64(768) << 20)
{
    return [=](int fd, const QList<QByteArray> &argv, const std::atomic<bool> &stop) {
        const QByteArray name = argv.value(0).toUpper();
        const bool hit = (name == command || (command == "EVALSHA" && name == "EVALSHA_RO")) &&
                         (sub.isEmpty() || argv.value(1).toUpper() == sub);
        if (!hit) {
            sendAll(fd, FakeRedis::redisLike(argv));
            return true;
        }
        sendAll(fd, reply);
        if (!piece.isEmpty()) {
            flood(fd, piece, limit, stop);
        }
        return true;
    };
}

const ScriptRegistry::Script &fixedWindow()
{
    return *ScriptRegistry::builtin().find(u"fixed_window"_s);
}

Connection::Options options(int commandMs)
{
    Connection::Options o;
    o.connectTimeout = milliseconds(2000);
    o.commandTimeout = milliseconds(commandMs);
    return o;
}

using Answer = test::HttpReply;

// The service's own lines to stderr (qWarning: "the decision failed: ..."), as `sluice-cli
// serve` writes them, caught while a test runs.
std::mutex warningsMutex;
QStringList warnings;
void catchWarning(QtMsgType, const QMessageLogContext &, const QString &text)
{
    std::lock_guard l(warningsMutex);
    warnings << text;
}

} // namespace

class TestReplyBounds : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void headerIsRefusedAtOnce_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<QByteArray>("piece"); // then this, until the client hangs up
        QTest::addColumn<QString>("says");
        QTest::newRow("$2000000000 then data")
            << QByteArray("$2000000000\r\n") << QByteArray(1 << 16, 'x') << u"string of"_s;
        QTest::newRow("$2000000000 alone")
            << QByteArray("$2000000000\r\n") << QByteArray() << u"string of 2000000000 bytes"_s;
        QTest::newRow("$2000000000 without its line end")
            << QByteArray("$2000000000") << QByteArray() << u"string of"_s;
        QTest::newRow("*1000000000 then integers")
            << QByteArray("*1000000000\r\n") << QByteArray(":1\r\n").repeated(1 << 14)
            << u"array of 1000000000 elements"_s;
        QTest::newRow("*16000000 alone")
            << QByteArray("*16000000\r\n") << QByteArray() << u"array of 16000000"_s;
        QTest::newRow("a 41-byte string") << bulk(QByteArray(41, 'a')) << QByteArray()
                                          << u"string of 41 bytes (at most 40 bytes expected)"_s;
    }
    // SCRIPT LOAD expects a 40-byte SHA: a larger announcement fails at its header, with no
    // body read (memory) and without waiting for the deadline (the kind: not a timeout).
    void headerIsRefusedAtOnce()
    {
        QFETCH(QByteArray, reply);
        QFETCH(QByteArray, piece);
        QFETCH(QString, says);
        FakeRedis fake(hostileOn("SCRIPT", "LOAD", reply, piece));
        auto c = Connection::open(fake.endpoint(), options(3000));
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        const qint64 before = heldKb();
        auto r = ScriptRegistry::ensureLoaded(*c, fixedWindow());
        const qint64 grown = heldKb() - before;
        const QString failure = test::failedWith(r, Error::Kind::Protocol, says);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY2(r.error().message.contains(u"in its reply to SCRIPT LOAD"_s),
                 qPrintable(r.error().message));
        QVERIFY2(grown < 32 * 1024, qPrintable(u"memory grew by %1 kB"_s.arg(grown)));
        QVERIFY(c->isBroken());
    }

    void decisionIsSixIntegers_data()
    {
        test::columns<QByteArray, QByteArray, QString>("reply", "piece", "says");
        QTest::newRow("seven integers")
            << QByteArray("*7\r\n:1\r\n:1\r\n:1\r\n:1\r\n:1\r\n:1\r\n:1\r\n") << QByteArray()
            << u"array of 7 elements (at most 6 expected)"_s;
        QTest::newRow("a nested array")
            << QByteArray("*6\r\n:1\r\n*1000000\r\n") << QByteArray(":1\r\n").repeated(1 << 14)
            << u"1000006 in all (at most 6 expected)"_s;
        QTest::newRow("a 1 MiB string in slot 3")
            << QByteArray("*6\r\n:1\r\n:1\r\n$1048576\r\n") << QByteArray(1 << 16, 'y')
            << u"string of 1 MiB"_s;
        QTest::newRow("16,000,000 elements")
            << QByteArray("*16000000\r\n") << QByteArray(":1\r\n").repeated(1 << 14)
            << u"array of 16000000 elements"_s;
    }
    // A decision script returns six integers (lua/*.lua): the engine's pipelined EVALSHA
    // reads nothing beyond that.
    void decisionIsSixIntegers()
    {
        QFETCH(QByteArray, reply);
        QFETCH(QByteArray, piece);
        QFETCH(QString, says);
        FakeRedis fake(hostileOn("EVALSHA", {}, reply, piece));
        auto c = Connection::open(fake.endpoint(), options(3000));
        QVERIFY(c.ok());
        RedisLimiter limiter(std::move(*c));
        const Policy p = Policy::window(Algorithm::FixedWindow, 10, 60'000'000);
        const Request req{&p, "k", 1, std::nullopt, 0};
        const qint64 before = heldKb();
        auto d = limiter.decide(req);
        const qint64 grown = heldKb() - before;
        const QString failure = test::failedWith(d, Error::Kind::Protocol, says);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY2(d.error().message.contains(u"EVALSHA"_s), qPrintable(d.error().message));
        QVERIFY2(grown < 32 * 1024, qPrintable(u"memory grew by %1 kB"_s.arg(grown)));
    }

    // The happy path of the same fake: a decision within its bound is read as ever.
    void decisionWithinItsBound()
    {
        FakeRedis fake([](int fd, const QList<QByteArray> &argv, const std::atomic<bool> &) {
            sendAll(fd, FakeRedis::redisLike(argv));
            return true;
        });
        auto c = Connection::open(fake.endpoint(), options(3000));
        QVERIFY(c.ok());
        RedisLimiter limiter(std::move(*c));
        const Policy p = Policy::window(Algorithm::FixedWindow, 10, 60'000'000);
        const Request req{&p, "k", 1, std::nullopt, 0};
        std::vector<Request> batch(500, req);
        auto many = limiter.decideBatch(batch);
        QVERIFY2(many.ok(), qPrintable(many.ok() ? QString() : many.error().message));
        for (const auto &d : *many) {
            QVERIFY(d.ok());
            QCOMPARE(d->remaining, 9);
        }
    }

    void timeIsTwoStrings()
    {
        FakeRedis fake(hostileOn("TIME", {}, "*3\r\n" + bulk("1") + bulk("2") + bulk("3")));
        auto c = Connection::open(fake.endpoint(), options(3000));
        QVERIFY(c.ok());
        auto r = c->command({"TIME"}, ReplyBound::time());
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(u"array of 3 elements (at most 2 expected) in its "
                                            "reply to TIME"_s),
                 qPrintable(r.error().message));
        // A 25-digit "second": not a clock.
        FakeRedis longer(hostileOn("TIME", {}, "*2\r\n" + bulk(QByteArray(25, '9')) + bulk("1")));
        auto c2 = Connection::open(longer.endpoint(), options(3000));
        QVERIFY(c2.ok());
        auto r2 = c2->command({"TIME"}, ReplyBound::time());
        QVERIFY(!r2.ok());
        QVERIFY2(r2.error().message.contains(u"string of 25 bytes (at most 24 bytes expected)"_s),
                 qPrintable(r2.error().message));
        // And the real thing passes.
        FakeRedis good(hostileOn("NOTHING", {}, {}));
        auto c3 = Connection::open(good.endpoint(), options(3000));
        QVERIFY(c3.ok());
        auto r3 = c3->command({"TIME"}, ReplyBound::time());
        QVERIFY(r3.ok());
        QCOMPARE(r3->elements.size(), size_t(2));
    }

    // deleteByPrefix scans with COUNT 1000: a page announcing 20,000 keys is refused at its
    // header, one of 1,000 is read.
    void scanPageIsBoundedByCount()
    {
        FakeRedis fake(
            hostileOn("SCAN", {}, "*2\r\n" + bulk("0") + "*20000\r\n", bulk("key").repeated(4096)));
        auto c = Connection::open(fake.endpoint(), options(3000));
        QVERIFY(c.ok());
        const qint64 before = heldKb();
        auto r = redis::deleteByPrefix(*c, "p:");
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(u"array of 20000 elements"_s) &&
                     r.error().message.contains(u"SCAN"_s),
                 qPrintable(r.error().message));
        QVERIFY2(heldKb() - before < 32 * 1024, "memory grew");

        QByteArray page = "*2\r\n" + bulk("0") + "*1000\r\n";
        for (int i = 0; i < 1000; ++i) {
            page += bulk("p:" + QByteArray::number(i));
        }
        FakeRedis fine(hostileOn("SCAN", {}, page));
        auto c2 = Connection::open(fine.endpoint(), options(3000));
        QVERIFY(c2.ok());
        auto r2 = redis::deleteByPrefix(*c2, "p:");
        QVERIFY2(r2.ok(), qPrintable(r2.ok() ? QString() : r2.error().message));
    }

    // Real Redis: a 5 MiB value is over the default bound of a command, and read whole by a
    // read of values (the key reader's, the key details').
    void valuesGetTheLargeBound()
    {
        Connection c = test::connect();
        const QByteArray key = test::keyPrefix() + "big";
        const QByteArray value(5 << 20, 'v');
        QVERIFY(c.command({"SET", key, value}).ok());
        auto small = c.command({"GET", key});
        QVERIFY(!small.ok());
        QVERIFY2(small.error().message.contains(u"string of 5 MiB (at most 4 MiB expected)"_s),
                 qPrintable(small.error().message));
        Connection c2 = test::connect();
        auto large = c2.command({"GET", key}, ReplyBound::values());
        QVERIFY2(large.ok(), qPrintable(large.ok() ? QString() : large.error().message));
        QCOMPARE(large->str.size(), value.size());
        // Pipelined with small ones around it: each reply under its own command's bound.
        c2.append({"PING"});
        c2.append({"GET", key}, ReplyBound::values());
        c2.append({"TIME"}, ReplyBound::time());
        c2.append({"GET", key});
        auto pong = c2.readRaw();
        auto got = c2.readRaw();
        auto time = c2.readRaw();
        QVERIFY(pong.ok() && got.ok() && time.ok());
        QCOMPARE(redis::ReplyView(*got).bytes().size(), value.size());
        auto refused = c2.readRaw();
        QVERIFY(!refused.ok());
        Connection c3 = test::connect();
        QVERIFY(c3.command({"DEL", key}).ok());
    }

    // A pipeline kept one batch ahead (the key scanner's overlap) is never empty, so the bounds
    // of the replies due were only freed by a reply that drained it: 200,000 runs of bounds
    // (100 a batch, alternating) held 10 MB more at the end than at the start (the audit of a
    // million keys peaked at 144 MB instead of 51). The heap must not grow with the batches.
    void pipelineKeptAheadStaysSmall()
    {
        Connection c = test::connect();
        const auto appendBatch = [&c] {
            for (int i = 0; i < 50; ++i) {
                c.append({"PING"});
                c.append({"TIME"}, ReplyBound::time());
            }
        };
        const auto readBatch = [&c] {
            for (int i = 0; i < 100; ++i) {
                if (!c.readRaw().ok()) {
                    return false;
                }
            }
            return true;
        };
        appendBatch();
        size_t start = 0;
        for (int batch = 0; batch < 2000; ++batch) {
            appendBatch(); // the next batch goes out before this one is read
            QVERIFY(readBatch());
            if (batch == 100) {
                start = mallinfo2().uordblks;
            }
        }
        const size_t end = mallinfo2().uordblks;
        QVERIFY(readBatch());
        QVERIFY2(end < start + (1 << 20),
                 qPrintable(u"the heap grew from %1 to %2 bytes"_s.arg(start).arg(end)));
    }

    // A large reply that its bound allows (a values read, 16,000,000 elements, sent as fast as
    // loopback goes: the socket is always readable) still ends at the deadline.
    void deadlineHoldsWhileALargeReplyIsParsed()
    {
        FakeRedis fake(hostileOn("GET", {}, "*16000000\r\n", QByteArray(":1\r\n").repeated(1 << 14),
                                 qint64(16000000) * 4));
        auto c = Connection::open(fake.endpoint(), options(200));
        QVERIFY(c.ok());
        auto r = c->command({"GET", "k"}, ReplyBound::values());
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, Error::Kind::Timeout);
        QVERIFY(c->isBroken());
    }

    // A server's text in an error: at most 200 bytes of it, escaped, and its whole length.
    void errorTextIsQuotedShort()
    {
        const QByteArray text = "ERR \x1b[31mred " + QByteArray(1 << 20, 'x');
        FakeRedis fake(hostileOn("PING", {}, '-' + text + "\r\n"));
        auto c = Connection::open(fake.endpoint(), options(3000));
        QVERIFY(c.ok());
        auto r = c->command({"PING"});
        QVERIFY(!r.ok());
        const QString m = r.error().message;
        QVERIFY2(m.size() < 400, qPrintable(m.left(400)));
        QVERIFY2(m.startsWith(u"ERR \\x1b[31mred xxx"_s), qPrintable(m));
        QVERIFY2(m.endsWith(u"\u2026 (%1 bytes)"_s.arg(text.size())), qPrintable(m));
        QVERIFY(!m.contains(QChar(0x1b)));
        QVERIFY(!c->isBroken()); // an error reply, read whole: the connection goes on

        // Through SCRIPT LOAD's wording too (an error line within the 64 KiB every bound lets
        // through: a longer one is refused as too large).
        const QByteArray shorter = text.left(60000);
        FakeRedis load(hostileOn("SCRIPT", "LOAD", '-' + shorter + "\r\n"));
        auto c2 = Connection::open(load.endpoint(), options(3000));
        QVERIFY(c2.ok());
        auto l = ScriptRegistry::ensureLoaded(*c2, fixedWindow());
        QVERIFY(!l.ok());
        QVERIFY2(l.error().message.size() < 600, qPrintable(l.error().message.left(600)));
        QVERIFY2(l.error().message.contains(u"refused to load the script fixed_window"_s) &&
                     l.error().message.endsWith(u"(60000 bytes)"_s),
                 qPrintable(l.error().message));
    }

    // The quote itself: whole when short; cut before a character that would not fit whole.
    void quoteCutsBetweenCharacters()
    {
        QCOMPARE(bytes::quoted("ERR short\n"), u"ERR short\\x0a"_s);
        const QByteArray text = QByteArray(199, 'a') + "\xc3\xa9" + QByteArray(100, 'b');
        const QString q = bytes::quoted(text);
        QCOMPARE(q, QString(199, u'a') + u"\u2026 (301 bytes)"_s);
        const QByteArray binary = QByteArray(199, 'a') + QByteArray(10, '\x80');
        QCOMPARE(bytes::quoted(binary), QString(199, u'a') + u"\\x80\u2026 (209 bytes)"_s);
    }

    void checkStaysSmall_data()
    {
        test::columns<QByteArray, QByteArray, QByteArray, QByteArray, QByteArray>(
            "command", "sub", "reply", "piece", "says");
        // 60,000 bytes: quoted short; 4 MiB: over the 64 KiB any error line may have.
        const QByteArray longError = "-ERR " + QByteArray(60000, 'e') + "\r\n";
        const QByteArray hugeError = "-ERR " + QByteArray(4 << 20, 'e') + "\r\n";
        QTest::newRow("SCRIPT LOAD: a 60,000-byte error")
            << QByteArray("SCRIPT") << QByteArray("LOAD") << longError << QByteArray()
            << QByteArray("(60004 bytes)");
        QTest::newRow("SCRIPT LOAD: a 4 MiB error")
            << QByteArray("SCRIPT") << QByteArray("LOAD") << hugeError << QByteArray()
            << QByteArray("sent more than 64 KiB");
        QTest::newRow("SCRIPT LOAD: a 500 MB string")
            << QByteArray("SCRIPT") << QByteArray("LOAD") << QByteArray("$500000000\r\n")
            << QByteArray(1 << 16, 'z') << QByteArray("in its reply to SCRIPT LOAD");
        QTest::newRow("EVALSHA: 16,000,000 elements")
            << QByteArray("EVALSHA") << QByteArray() << QByteArray("*16000000\r\n")
            << QByteArray(":1\r\n").repeated(1 << 14) << QByteArray("in its reply to EVALSHA");
        QTest::newRow("EVALSHA: a 60,000-byte error")
            << QByteArray("EVALSHA") << QByteArray() << longError << QByteArray()
            << QByteArray("(60004 bytes)");
    }
    // `sluice-cli check` against the fake: exit 1 with a short stderr naming what was wrong.
    void checkStaysSmall()
    {
        QFETCH(QByteArray, command);
        QFETCH(QByteArray, sub);
        QFETCH(QByteArray, reply);
        QFETCH(QByteArray, piece);
        QFETCH(QByteArray, says);
        FakeRedis fake(hostileOn(command, sub, reply, piece));
        const test::CliRun r = test::runCli({u"check"_s, u"--url"_s, fake.url(), u"--algorithm"_s,
                                             u"fixed_window"_s, u"--limit"_s, u"5"_s, u"--window"_s,
                                             u"1m"_s, u"--subject"_s, u"s"_s, u"--no-stats"_s},
                                            {}, {}, 30000);
        QVERIFY(!r.timedOut);
        QVERIFY2(r.exitCode != 0, r.out.constData());
        QVERIFY2(r.err.size() < 1024, r.err.left(1024).constData());
        QVERIFY2(r.err.contains(says), r.err.constData());
    }

    void serveStaysSmall_data()
    {
        test::columns<QByteArray, QByteArray, QByteArray, QByteArray>("command", "sub", "reply",
                                                                      "piece");
        const QByteArray longError = "-ERR " + QByteArray(60000, 'e') + "\r\n";
        const QByteArray hugeError = "-ERR " + QByteArray(4 << 20, 'e') + "\r\n";
        QTest::newRow("EVALSHA: a 60,000-byte error")
            << QByteArray("EVALSHA") << QByteArray() << longError << QByteArray();
        QTest::newRow("EVALSHA: a 4 MiB error")
            << QByteArray("EVALSHA") << QByteArray() << hugeError << QByteArray();
        QTest::newRow("SCRIPT LOAD: a 60,000-byte error")
            << QByteArray("SCRIPT") << QByteArray("LOAD") << longError << QByteArray();
        QTest::newRow("SCRIPT LOAD: a 500 MB string")
            << QByteArray("SCRIPT") << QByteArray("LOAD") << QByteArray("$500000000\r\n")
            << QByteArray(1 << 16, 'z');
        QTest::newRow("EVALSHA: 16,000,000 elements")
            << QByteArray("EVALSHA") << QByteArray() << QByteArray("*16000000\r\n")
            << QByteArray(":1\r\n").repeated(1 << 14);
    }
    // The check service against the fake: every answer by the rule's policy (allow), in small
    // memory; each log line and the /healthz body short, and the reason says what was wrong.
    void serveStaysSmall()
    {
        QFETCH(QByteArray, command);
        QFETCH(QByteArray, sub);
        QFETCH(QByteArray, reply);
        QFETCH(QByteArray, piece);
        FakeRedis fake(hostileOn(command, sub, reply, piece));
        std::mutex mutex;
        QStringList log;
        serve::CheckService::Options o;
        o.endpoint = fake.endpoint();
        o.pool.setTimeout(milliseconds(500));
        o.pool.log = [&](const QString &line) {
            std::lock_guard l(mutex);
            log << line;
        };
        const rules::Loaded rules = rules::parseJson(
            R"({"version": 1, "rules": [{"id": "r", "scope": "ip", "algorithm": "fixed_window",
                "limit": 100, "window": "1m", "on_redis_error": "allow"}]})",
            u"test.json"_s);
        QVERIFY(rules.ok());
        {
            std::lock_guard l(warningsMutex);
            warnings.clear();
        }
        const QtMessageHandler previous = qInstallMessageHandler(catchWarning);
        const auto restore = qScopeGuard([previous] { qInstallMessageHandler(previous); });
        const qint64 before = heldKb();
        serve::CheckService s(o);
        s.setRules(rules.set, 1, u"test.json"_s);
        auto port = s.listen(QHostAddress::LocalHost, 0);
        QVERIFY(port.ok());
        for (int i = 0; i < 5; ++i) {
            const Answer a =
                test::inProcessGet(s.port(), "/v1/check?rule=r&subject=s" + QByteArray::number(i));
            QVERIFY2(a.status == 200 || a.status == 500, qPrintable(QString::number(a.status)));
            QVERIFY2(a.body.size() < 2048, a.body.left(2048).constData());
        }
        const Answer health = test::inProcessGet(s.port(), "/healthz");
        QVERIFY2(health.status > 0, "no /healthz answer");
        QVERIFY2(health.body.size() < 4096, health.body.left(4096).constData());
        const qint64 grown = heldKb() - before;
        QVERIFY2(grown < 128 * 1024, qPrintable(u"memory grew by %1 kB"_s.arg(grown)));
        std::lock_guard l(mutex);
        for (const QString &line : std::as_const(log)) {
            QVERIFY2(line.size() < 1024, qPrintable(line.left(1024)));
        }
        std::lock_guard w(warningsMutex);
        for (const QString &line : std::as_const(warnings)) {
            QVERIFY2(line.size() < 1024, qPrintable(line.left(1024)));
        }
    }
};

QTEST_GUILESS_MAIN(TestReplyBounds)
#include "tst_replybounds.moc"
