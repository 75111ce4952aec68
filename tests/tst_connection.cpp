#include "ownredis.h"
#include "testkit.h"
#include "testredis.h"

#include "core/limiter/redislimiter.h"
#include "core/redis/errors.h"
#include "core/redis/lazyconnection.h"
#include "core/redis/scriptregistry.h"

#include <QElapsedTimer>
#include <QTest>

using namespace sluice;

namespace {

// One request on the test's key `name` under a fixed window of 1000 a minute.
Request thousandAMinute(const QByteArray &name)
{
    static const Policy p = Policy::window(Algorithm::FixedWindow, 1000, 60'000'000);
    return Request{&p, test::keyPrefix() + name, 1, std::nullopt, 0};
}

} // namespace

class TestConnection : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The one classification of error replies (core/redis/errors.h): what the
    // service answers by on_redis_error (unavailable, OOM, refused) and what is a bug (500).
    void replyClassification_data()
    {
        test::columns<QByteArray, int, bool, bool>("reply", "kind", "unavailable", "oom");
        const int reply = int(Error::Kind::Reply);
        const int auth = int(Error::Kind::Auth);
        auto row = [](const char *r, int kind, bool unavailable, bool oom) {
            QTest::newRow(r) << QByteArray(r) << kind << unavailable << oom;
        };
        row("READONLY You can't write against a read only replica.", reply, true, false);
        row("MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
            reply, true, false);
        row("LOADING Redis is loading the dataset in memory", reply, true, false);
        row("BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN "
            "NOSAVE.",
            reply, true, false);
        row("TRYAGAIN Multiple keys request during rehashing of slot", reply, true, false);
        row("CLUSTERDOWN The cluster is down", reply, true, false);
        row("BUSY", reply, true, false);
        // The whole first word: BUSYKEY (RESTORE onto an existing key) is a plain error.
        row("BUSYKEY Target key name already exists.", reply, false, false);
        row("READONLYX made up", reply, false, false);
        row("OOM command not allowed when used memory > 'maxmemory'.", reply, false, true);
        row("OOM", reply, false, true);
        row("OOMPH made up", reply, false, false);
        row("WRONGTYPE Operation against a key holding the wrong kind of value", reply, false,
            false);
        row("ERR Error running script", reply, false, false);
        row("NOAUTH Authentication required.", auth, false, false);
        row("WRONGPASS invalid username-password pair or user is disabled.", auth, false, false);
        row("NOPERM this user has no permissions to run the 'evalsha' command", auth, false, false);
    }
    void replyClassification()
    {
        QFETCH(QByteArray, reply);
        QFETCH(int, kind);
        QFETCH(bool, unavailable);
        QFETCH(bool, oom);
        const Error e = redis::replyError(reply);
        QCOMPARE(int(e.kind), kind);
        QCOMPARE(redis::isUnavailableReply(e), unavailable);
        QCOMPARE(redis::isOutOfMemoryReply(e), oom);
        QVERIFY2(e.message.contains(QString::fromLatin1(reply.left(reply.indexOf(' ')))),
                 qPrintable(e.message));
    }

    void ping()
    {
        Connection c = test::connect();
        auto r = c.command({"PING"});
        QVERIFY(r.ok());
        QCOMPARE(r->type, Reply::Type::Status);
        QCOMPARE(r->str, QByteArray("PONG"));
    }

    void binarySafeValues()
    {
        Connection c = test::connect();
        const QByteArray key = test::keyPrefix() + QByteArray("bin\0\n{}", 7);
        const QByteArray value("\0\r\n\xff", 4);
        QVERIFY(c.command({"SET", key, value}).ok());
        auto r = c.command({"GET", key});
        QVERIFY(r.ok());
        QCOMPARE(r->str, value);
    }

    void selectsTheDatabase()
    {
        Endpoint e = test::redisEndpoint();
        e.db = 5;
        auto c5 = Connection::open(e);
        QVERIFY(c5.ok());
        const QByteArray key = test::keyPrefix() + "db5";
        QVERIFY(c5->command({"SET", key, "x", "PX", "60000"}).ok());
        Connection c0 = test::connect();
        QCOMPARE(c0.command({"EXISTS", key})->integer, 0);
        QCOMPARE(c5->command({"EXISTS", key})->integer, 1);
        QVERIFY(c5->command({"DEL", key}).ok());

        e.db = 100000;
        auto bad = Connection::open(e);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.contains(QStringLiteral("database 100000")),
                 qPrintable(bad.error().message));
    }

    void aclUserAndPassword()
    {
        Connection admin = test::connect();
        const QByteArray user =
            "sluice-test-" + QByteArray::number(QCoreApplication::applicationPid());
        QVERIFY(admin.command({"ACL", "SETUSER", user, "on", ">right-pass", "~*", "+@all"}).ok());
        Endpoint e = test::redisEndpoint();
        e.user = QString::fromUtf8(user);
        e.password = QStringLiteral("right-pass");
        auto c = Connection::open(e);
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QCOMPARE(c->command({"ACL", "WHOAMI"})->str, user);

        e.password = QStringLiteral("wrong-pass");
        auto bad = Connection::open(e);
        const QString failure = test::failedWith(bad, Error::Kind::Auth, QString::fromUtf8(user));
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY(!bad.error().message.contains(QStringLiteral("wrong-pass")));
        QVERIFY(admin.command({"ACL", "DELUSER", user}).ok());
    }

    void passwordOnly()
    {
        // A server of our own with requirepass, so the shared one stays open for other tests.
        test::OwnRedis server;
        QVERIFY2(server.start({QStringLiteral("--requirepass"), QStringLiteral("pw-only")}),
                 server.output().constData());
        const quint16 port = server.port();
        auto ok = Endpoint::parse(QStringLiteral("redis://:pw-only@127.0.0.1:%1").arg(port));
        QVERIFY(ok.ok());
        auto c = Connection::open(*ok);
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QCOMPARE(c->command({"PING"})->str, QByteArray("PONG"));

        auto anonymous =
            Connection::open(*Endpoint::parse(QStringLiteral("redis://127.0.0.1:%1").arg(port)));
        QVERIFY(anonymous.ok()); // connecting works; commands need AUTH
        auto r = anonymous->command({"GET", "x"});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, Error::Kind::Auth);

        auto wrong = Connection::open(
            *Endpoint::parse(QStringLiteral("redis://:nope@127.0.0.1:%1").arg(port)));
        QVERIFY(!wrong.ok());
        QCOMPARE(wrong.error().kind, Error::Kind::Auth);
    }

    void closedPortNamesTheAddress()
    {
        test::LoopbackSocket s(false); // bound, not listening: connections are refused
        Endpoint e;
        e.port = s.port();
        auto c = Connection::open(e);
        const QString failure =
            test::failedWith(c, Error::Kind::Io, QStringLiteral("127.0.0.1:%1").arg(s.port()));
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }

    void silentServerTimesOut()
    {
        test::LoopbackSocket s(true); // accepts (kernel backlog), never answers
        Endpoint e;
        e.port = s.port();
        Connection::Options o;
        o.connectTimeout = std::chrono::milliseconds(500);
        o.commandTimeout = std::chrono::milliseconds(300);
        QElapsedTimer t;
        t.start();
        auto c = Connection::open(e, o);
        QVERIFY(c.ok());
        auto r = c->command({"PING"});
        const QString failure =
            test::failedWith(r, Error::Kind::Timeout, QStringLiteral("did not answer in time"));
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY(t.elapsed() < 5000);
        QVERIFY(c->isBroken());
        QVERIFY(!c->command({"PING"}).ok()); // stays broken, fails fast
    }

    void pipelineKeepsOrderAndIsolatesErrors()
    {
        Connection c = test::connect();
        const QByteArray key = test::keyPrefix() + "pipe";
        QList<QList<QByteArray>> cmds;
        for (int i = 0; i < 100; ++i) {
            cmds << QList<QByteArray>{"INCR", key};
        }
        cmds << QList<QByteArray>{"HGET", key, "x"}; // WRONGTYPE: only this slot fails
        cmds << QList<QByteArray>{"PEXPIRE", key, "60000"};
        auto r = c.pipeline(cmds);
        QVERIFY(r.ok());
        QCOMPARE(r->size(), size_t(102));
        for (int i = 0; i < 100; ++i) {
            QCOMPARE((*r)[size_t(i)]->integer, i + 1);
        }
        QVERIFY(!(*r)[100].ok());
        QCOMPARE((*r)[100].error().kind, Error::Kind::Reply);
        QVERIFY((*r)[100].error().message.startsWith(QStringLiteral("WRONGTYPE")));
        QCOMPARE((*r)[101]->integer, 1);
    }

    void scriptFlushBetweenCalls()
    {
        RedisLimiter limiter(test::connect());
        Connection admin = test::connect();
        const Request req = thousandAMinute("flush");
        auto first = limiter.decide(req);
        QVERIFY2(first.ok(), qPrintable(first.ok() ? QString() : first.error().message));
        QCOMPARE(first->remaining, 999);
        QVERIFY(admin.command({"SCRIPT", "FLUSH"}).ok());
        auto second = limiter.decide(req);
        QVERIFY2(second.ok(), qPrintable(second.ok() ? QString() : second.error().message));
        QCOMPARE(second->remaining, 998);
        // And inside a pipelined batch: every slot is retried once, in order.
        QVERIFY(admin.command({"SCRIPT", "FLUSH"}).ok());
        std::vector<Request> batch(10, req);
        auto many = limiter.decideBatch(batch);
        QVERIFY(many.ok());
        for (size_t i = 0; i < batch.size(); ++i) {
            QVERIFY((*many)[i].ok());
            QCOMPARE((*many)[i]->remaining, qint64(997 - i));
        }
        // A batch mixing two scripts, both flushed: reloading one must not swallow a reply.
        const Policy g = Policy::bucket(Algorithm::Gcra, {1000, 60'000'000}, 999);
        const Request greq{&g, test::keyPrefix() + "flush-gcra", 1, std::nullopt, 0};
        QVERIFY(admin.command({"SCRIPT", "FLUSH"}).ok());
        std::vector<Request> mixed{req, greq, req, greq};
        auto both = limiter.decideBatch(mixed);
        QVERIFY(both.ok());
        QCOMPARE((*both)[0]->remaining, 987);
        QCOMPARE((*both)[1]->remaining, 999);
        QCOMPARE((*both)[1]->limit, 1000);
        QCOMPARE((*both)[2]->remaining, 986);
        QCOMPARE((*both)[3]->remaining, 998);
    }

    void killedConnectionRecovers()
    {
        RedisLimiter limiter(test::connect());
        Connection admin = test::connect();
        const Request req = thousandAMinute("kill");
        QVERIFY(limiter.decide(req).ok());
        const qint64 id = limiter.connection().command({"CLIENT", "ID"})->integer;
        QVERIFY(admin.command({"CLIENT", "KILL", "ID", QByteArray::number(id)}).ok());
        auto lost = limiter.decide(req);
        QVERIFY(!lost.ok());
        QVERIFY2(lost.error().isConnectionLoss(), qPrintable(lost.error().message));
        auto back = limiter.decide(req); // reconnects
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error().message));
        QCOMPARE(back->remaining, 998);
    }

    // LazyConnection's one rule: opened on first use, kept while it works, reopened when broken
    // and, for connections that follow an outage count, when the count moved since it was made.
    // A limiter over the borrowed connection follows it.
    void lazyConnectionReconnectsByTheRule()
    {
        LazyConnection lazy(test::redisEndpoint());
        QVERIFY(lazy.needsConnect());
        QVERIFY(lazy.current() == nullptr);
        auto idOf = [&] {
            auto c = lazy.get();
            return c ? (*c)->command({"CLIENT", "ID"})->integer : -1;
        };
        const qint64 first = idOf();
        QVERIFY(first > 0);
        QVERIFY(!lazy.needsConnect());
        QCOMPARE(idOf(), first); // kept while it works

        RedisLimiter limiter(lazy.current());
        Connection admin = test::connect();
        QVERIFY(admin.command({"CLIENT", "KILL", "ID", QByteArray::number(first)}).ok());
        auto lost = limiter.decide(thousandAMinute("lazy"));
        QVERIFY(!lost.ok() && lost.error().isConnectionLoss());
        QVERIFY(lazy.needsConnect()); // broken
        const qint64 second = idOf();
        QVERIFY(second > 0 && second != first);
        QVERIFY2(limiter.decide(thousandAMinute("lazy")).ok(), "the limiter follows it");

        std::atomic<quint64> outages{0};
        lazy.followOutages(&outages);
        QVERIFY(!lazy.needsConnect()); // no outage yet
        QCOMPARE(idOf(), second);
        ++outages; // another user found the server down
        QVERIFY(lazy.needsConnect());
        const qint64 fourth = idOf();
        QVERIFY(fourth > 0 && fourth != second);
        QCOMPARE(lazy.outagesSeen(), quint64(1));
        QCOMPARE(idOf(), fourth);
    }

    void scriptsAreEmbedded()
    {
        for (Algorithm a : algorithm::all) {
            const auto *s = ScriptRegistry::builtin().find(algorithm::name(a));
            QVERIFY2(s, qPrintable(algorithm::name(a)));
            QVERIFY(s->body.contains("KEYS[1]"));
            QCOMPARE(s->sha.size(), 40);
        }
        // Every embedded script by its file name, and nothing else; the registry itself knows no
        // algorithm (RedisLimiter maps each algorithm to its script's name).
        QStringList expected;
        for (Algorithm a : algorithm::all) {
            expected << algorithm::name(a);
        }
        expected.sort();
        QCOMPARE(ScriptRegistry::fromResources(QStringLiteral(":/lua")).names(), expected);
        QCOMPARE(ScriptRegistry::fromResources(QStringLiteral(":/no-such-folder")).names(),
                 QStringList());
    }
};

QTEST_GUILESS_MAIN(TestConnection)
#include "tst_connection.moc"
