// The transports under Connection against real servers this test starts on free loopback
// ports: redis-server with TLS (certificates made here with openssl: a CA, a server
// certificate for "localhost", an expired one, a client CA), redis-server on a Unix socket, and
// hostile fake servers (a byte every 300 ms, a billion announced elements, a 2 GB bulk). Every
// failure path is also checked for the password.
#include "core/limiter/redislimiter.h"
#include "core/redis/connection.h"
#include "core/redis/subscriber.h"
#include "fakeresp.h"
#include "runcli.h"
#include "testdata.h"
#include "testkit.h"
#include "testpki.h"
#include "testredis.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <csignal>
#include <thread>

#include <sys/socket.h>
#include <unistd.h>

using namespace sluice;
using namespace Qt::StringLiterals;
using namespace std::chrono;

namespace {

const QString secret = u"Tr4nsp0rt-S3cret"_s;

// A redis-server of this test's own, killed in the destructor.
struct Server
{
    QProcess process;
    quint16 port = 0;
    QString socket;

    bool start(const QStringList &extra, const QString &dir, bool tls)
    {
        port = test::freeLoopbackPort();
        QStringList args{u"--save"_s,        u""_s,          u"--appendonly"_s, u"no"_s,
                         u"--bind"_s,        u"127.0.0.1"_s, u"--dir"_s,        dir,
                         u"--requirepass"_s, secret};
        if (tls) {
            args << u"--port"_s << u"0"_s << u"--tls-port"_s << QString::number(port);
        } else {
            args << u"--port"_s << QString::number(port);
        }
        args << extra;
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start(u"redis-server"_s, args);
        if (!process.waitForStarted(5000)) {
            return false;
        }
        // Ready when the port accepts (TCP) or the socket file exists.
        for (int i = 0; i < 100; ++i) {
            if (!socket.isEmpty() ? QFile::exists(socket) : [&] {
                    QTcpSocket s;
                    s.connectToHost(u"127.0.0.1"_s, port);
                    return s.waitForConnected(100);
                }()) {
                return true;
            }
            QThread::msleep(50);
        }
        qWarning("redis-server did not start: %s", process.readAll().constData());
        return false;
    }
    ~Server()
    {
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished(5000);
        }
    }
};

using test::FakeServer;
using test::heldKb;
using test::sendAll;

// The client's first command, whatever it is (a PING here).
void readSome(int fd)
{
    char buf[4096];
    [[maybe_unused]] const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
}

} // namespace

class TestTransport : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_pki;
    Server m_tls;     // server certificate for localhost, clients not checked
    Server m_mutual;  // clients must show a certificate from the client CA
    Server m_expired; // an expired server certificate
    Server m_unix;    // a Unix socket only

    QString file(const QString &name) const { return m_pki + u'/' + name; }

    Endpoint tlsEndpoint(const QString &host, quint16 port) const
    {
        Endpoint e;
        e.host = host;
        e.port = port;
        e.password = secret;
        e.tls.enabled = true;
        e.tls.caFile = file(u"ca.pem"_s);
        return e;
    }

    static void noSecret(const QString &text)
    {
        QVERIFY2(!text.contains(secret), qPrintable(u"the password leaked: "_s + text));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_pki = m_dir.path() + u"/pki"_s;
        QVERIFY(QDir().mkpath(m_pki));
        QVERIFY(test::makeTestPki(m_pki));
        const QStringList common{u"--tls-key-file"_s, file(u"server-key.pem"_s)};
        QVERIFY(m_tls.start(common + QStringList{u"--tls-cert-file"_s, file(u"server.pem"_s),
                                                 u"--tls-ca-cert-file"_s, file(u"ca.pem"_s),
                                                 u"--tls-auth-clients"_s, u"no"_s},
                            m_dir.path(), true));
        QVERIFY(
            m_mutual.start(common + QStringList{u"--tls-cert-file"_s, file(u"server.pem"_s),
                                                u"--tls-ca-cert-file"_s, file(u"clientca.pem"_s),
                                                u"--tls-auth-clients"_s, u"yes"_s},
                           m_dir.path(), true));
        QVERIFY(m_expired.start(common + QStringList{u"--tls-cert-file"_s, file(u"expired.pem"_s),
                                                     u"--tls-ca-cert-file"_s, file(u"ca.pem"_s),
                                                     u"--tls-auth-clients"_s, u"no"_s},
                                m_dir.path(), true));
        m_unix.socket = m_dir.path() + u"/redis.sock"_s;
        QVERIFY(m_unix.start({u"--unixsocket"_s, m_unix.socket, u"--unixsocketperm"_s, u"700"_s},
                             m_dir.path(), false));
    }

    void tlsDecidesAndPipelines()
    {
        auto c = Connection::open(tlsEndpoint(u"localhost"_s, m_tls.port));
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        auto pong = c->command({"PING"});
        QVERIFY(pong.ok());
        QCOMPARE(pong->str, QByteArray("PONG"));
        // 2000 pipelined INCRs in one batch, then a 3 MB value both ways.
        (void)c->command({"DEL", "t:tls:n"});
        QList<QList<QByteArray>> batch;
        for (int i = 0; i < 2000; ++i) {
            batch << QList<QByteArray>{"INCR", "t:tls:n"};
        }
        auto replies = c->pipeline(batch);
        QVERIFY(replies.ok());
        QCOMPARE(replies->back()->integer, 2000);
        const QByteArray big(3 << 20, 'x');
        QVERIFY(c->command({"SET", "t:tls:big", big}).ok());
        auto back = c->command({"GET", "t:tls:big"});
        QVERIFY(back.ok());
        QCOMPARE(back->str.size(), big.size());
        QVERIFY(back->str == big);
        (void)c->command({"DEL", "t:tls:n", "t:tls:big"});

        // A real decision through the scripts.
        RedisLimiter limiter(std::move(*c));
        Policy p = Policy::window(Algorithm::FixedWindow, 2, 60 * sluice::duration::usPerSecond);
        p.id = u"tls"_s;
        p.keyPrefix = "t:tls:";
        const QByteArray key = p.keyFor("alice");
        int admitted = 0;
        for (int i = 0; i < 3; ++i) {
            auto d = limiter.decide(Request{&p, key, 1, std::nullopt, 0});
            QVERIFY2(d.ok(), qPrintable(d.ok() ? QString() : d.error().message));
            admitted += d->allowed ? 1 : 0;
        }
        QCOMPARE(admitted, 2);
        (void)limiter.connection().command({"DEL", key});
    }

    void tlsFailures_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<QString>("server"); // which server
        test::columns<QString, QString, QString, int>("ca", "serverName", "says", "kind");
        QTest::newRow("wrong CA") << u"localhost"_s << u"tls"_s << u"otherca.pem"_s << u""_s
                                  << u"not trusted by"_s << int(Error::Kind::Auth);
        QTest::newRow("system store") << u"localhost"_s << u"tls"_s << u""_s << u""_s
                                      << u"the system's trust store"_s << int(Error::Kind::Auth);
        QTest::newRow("name mismatch") << u"127.0.0.1"_s << u"tls"_s << u"ca.pem"_s << u""_s
                                       << u"not for '127.0.0.1'"_s << int(Error::Kind::Auth);
        QTest::newRow("server name wrong")
            << u"localhost"_s << u"tls"_s << u"ca.pem"_s << u"cache.example"_s
            << u"not for 'cache.example'"_s << int(Error::Kind::Auth);
        QTest::newRow("expired") << u"localhost"_s << u"expired"_s << u"ca.pem"_s << u""_s
                                 << u"expired"_s << int(Error::Kind::Auth);
        QTest::newRow("client certificate missing") << u"localhost"_s << u"mutual"_s << u"ca.pem"_s
                                                    << u""_s << u"client certificate"_s << -1;
        QTest::newRow("CA file missing") << u"localhost"_s << u"tls"_s << u"nothere.pem"_s << u""_s
                                         << u"--tls-ca"_s << int(Error::Kind::Invalid);
        QTest::newRow("CA file is not PEM") << u"localhost"_s << u"tls"_s << u"index.txt"_s << u""_s
                                            << u"not a PEM"_s << int(Error::Kind::Invalid);
    }
    void tlsFailures()
    {
        QFETCH(QString, host);
        QFETCH(QString, server);
        QFETCH(QString, ca);
        QFETCH(QString, serverName);
        QFETCH(QString, says);
        QFETCH(int, kind);
        const quint16 port = server == u"tls"_s      ? m_tls.port
                             : server == u"mutual"_s ? m_mutual.port
                                                     : m_expired.port;
        Endpoint e = tlsEndpoint(host, port);
        e.tls.caFile = ca.isEmpty() ? QString() : file(ca);
        e.tls.serverName = serverName;
        QElapsedTimer t;
        t.start();
        auto c = Connection::open(e);
        QVERIFY(!c.ok());
        QVERIFY2(t.elapsed() < 8000, "a TLS failure must not wait past the deadlines");
        const QString m = c.error().message;
        QVERIFY2(m.contains(says), qPrintable(m));
        if (kind >= 0) {
            QCOMPARE(int(c.error().kind), kind);
        }
        noSecret(m);
    }

    void subscriberOverTls()
    {
        // A subscription (the rule watcher's) over TLS: messages published together each come
        // out at once, not at the next PING.
        const Endpoint e = tlsEndpoint(u"localhost"_s, m_tls.port);
        auto sub = redis::Subscriber::open(e, {"t:tls:chan"}, Connection::Options{}, "t-sub");
        QVERIFY2(sub.ok(), qPrintable(sub.ok() ? QString() : sub.error().message));
        auto pub = Connection::open(e);
        QVERIFY(pub.ok());
        QList<QList<QByteArray>> three;
        for (int i = 0; i < 3; ++i) {
            three << QList<QByteArray>{"PUBLISH", "t:tls:chan", "m" + QByteArray::number(i)};
        }
        QVERIFY(pub->pipeline(three).ok());
        std::atomic<bool> stop{false};
        for (int i = 0; i < 3; ++i) {
            QElapsedTimer t;
            t.start();
            auto m = sub->next(-1, stop, milliseconds(5000), milliseconds(1000));
            QVERIFY2(m.ok(), qPrintable(m.ok() ? QString() : m.error().message));
            QVERIFY(m->has_value());
            QCOMPARE((*m)->payload, "m" + QByteArray::number(i));
            QVERIFY2(t.elapsed() < 1000,
                     qPrintable(u"message %1 took %2 ms"_s.arg(i).arg(t.elapsed())));
        }
    }

    void tlsServerNameAndInsecure()
    {
        // By address, with the name the certificate carries.
        Endpoint byName = tlsEndpoint(u"127.0.0.1"_s, m_tls.port);
        byName.tls.serverName = u"localhost"_s;
        auto c = Connection::open(byName);
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QVERIFY(c->command({"PING"}).ok());
        // --tls-insecure: even an untrusted, expired certificate is accepted.
        Endpoint insecure = tlsEndpoint(u"127.0.0.1"_s, m_expired.port);
        insecure.tls.caFile.clear();
        insecure.tls.insecure = true;
        auto i = Connection::open(insecure);
        QVERIFY2(i.ok(), qPrintable(i.ok() ? QString() : i.error().message));
        QVERIFY(i->command({"PING"}).ok());
    }

    void tlsClientCertificates()
    {
        Endpoint e = tlsEndpoint(u"localhost"_s, m_mutual.port);
        e.tls.certFile = file(u"client.pem"_s);
        e.tls.keyFile = file(u"client-key.pem"_s);
        auto c = Connection::open(e);
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QVERIFY(c->command({"PING"}).ok());

        // A certificate the server does not trust.
        e.tls.certFile = file(u"stranger.pem"_s);
        e.tls.keyFile = file(u"stranger-key.pem"_s);
        auto s = Connection::open(e);
        QVERIFY(!s.ok());
        QVERIFY2(s.error().message.contains(u"client certificate"_s),
                 qPrintable(s.error().message));

        // A key that is not the certificate's.
        e.tls.certFile = file(u"client.pem"_s);
        e.tls.keyFile = file(u"stranger-key.pem"_s);
        auto k = Connection::open(e);
        const QString failure = test::failedWith(k, Error::Kind::Invalid, u"does not belong"_s);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }

    void plainAndTlsMixedUp()
    {
        // rediss:// to a plain port: the hint says so.
        Endpoint e = tlsEndpoint(u"127.0.0.1"_s, m_unix.port);
        e.tls.insecure = true;
        auto c = Connection::open(e);
        QVERIFY(!c.ok());
        QVERIFY2(c.error().message.contains(u"TLS"_s), qPrintable(c.error().message));
        noSecret(c.error().message);
        // redis:// to a TLS port: no answer the client can read, within the deadline.
        Endpoint plain;
        plain.host = u"127.0.0.1"_s;
        plain.port = m_tls.port;
        plain.password = secret;
        QElapsedTimer t;
        t.start();
        auto p =
            Connection::open(plain, Connection::Options{milliseconds(1000), milliseconds(1500)});
        QVERIFY(!p.ok());
        QVERIFY(t.elapsed() < 5000);
        noSecret(p.error().message);
    }

    void unixSocket()
    {
        auto e = Endpoint::parse(u"unix://:%1@%2?db=2"_s.arg(secret, m_unix.socket));
        QVERIFY2(e.ok(), qPrintable(e.ok() ? QString() : e.error().message));
        auto c = Connection::open(*e);
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QVERIFY(c->command({"SET", "t:unix", "1"}).ok());
        auto info = c->command({"CLIENT", "INFO"});
        QVERIFY(info.ok());
        QVERIFY2(info->str.contains("db=2"), info->str.constData());
        (void)c->command({"DEL", "t:unix"});

        // No socket there.
        Endpoint missing = *e;
        missing.socketPath = m_dir.path() + u"/nothere.sock"_s;
        auto m = Connection::open(missing);
        QVERIFY(!m.ok());
        QVERIFY2(m.error().message.contains(u"no socket at"_s), qPrintable(m.error().message));
        noSecret(m.error().message);
    }

    void localhostNeedsNoHostsFile()
    {
        // *.localhost is loopback by definition (RFC 6761), with or without /etc/hosts (a
        // minimal container may have none): no DNS query, a connection to 127.0.0.1.
        Endpoint e;
        e.host = u"sluice-test.localhost"_s;
        e.port = m_unix.port;
        e.password = secret;
        auto c = Connection::open(e);
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QVERIFY(c->command({"PING"}).ok());
    }

    void readOnlyEndpointSendsNoWrite()
    {
        Endpoint admin;
        admin.port = m_unix.port;
        admin.password = secret;
        auto a = Connection::open(admin);
        QVERIFY(a.ok());
        QVERIFY(a->command({"SET", "t:ro:k", "1"}).ok());
        QVERIFY(a->command({"CONFIG", "RESETSTAT"}).ok());

        Endpoint ro = admin;
        ro.readOnly = true;
        auto c = Connection::open(ro);
        QVERIFY(c.ok());
        // A pipeline mixing reads and writes: the writes get their error in place, in order.
        auto replies = c->pipeline({{"GET", "t:ro:k"},
                                    {"SET", "t:ro:k", "2"},
                                    {"SCAN", "0", "MATCH", "t:ro:*"},
                                    {"INCR", "t:ro:k"},
                                    {"SCRIPT", "FLUSH"},
                                    {"CLIENT", "SETNAME", "ro-test"},
                                    {"PTTL", "t:ro:k"}});
        QVERIFY(replies.ok());
        QCOMPARE(replies->size(), size_t(7));
        QVERIFY((*replies)[0].ok());
        QCOMPARE((*replies)[0]->str, QByteArray("1"));
        for (size_t i : {size_t(1), size_t(3), size_t(4)}) {
            QVERIFY(!(*replies)[i].ok());
            QCOMPARE((*replies)[i].error().kind, Error::Kind::Invalid);
            QVERIFY2((*replies)[i].error().message.contains(u"read-only"_s),
                     qPrintable((*replies)[i].error().message));
        }
        QVERIFY((*replies)[2].ok());
        QVERIFY((*replies)[5].ok());
        QVERIFY((*replies)[6].ok());
        QVERIFY(!c->isBroken());
        // Scripts run as read-only scripts: one that reads works, one that writes is refused by
        // Redis itself.
        auto readSha = c->command({"SCRIPT", "LOAD", "return redis.call('GET', KEYS[1])"});
        auto writeSha = c->command({"SCRIPT", "LOAD", "return redis.call('SET', KEYS[1], 'w')"});
        QVERIFY(readSha.ok() && writeSha.ok());
        auto read = c->command({"EVALSHA", readSha->str, "1", "t:ro:k"});
        QVERIFY2(read.ok(), qPrintable(read.ok() ? QString() : read.error().message));
        QCOMPARE(read->str, QByteArray("1"));
        auto wrote = c->command({"EVALSHA", writeSha->str, "1", "t:ro:k"});
        QVERIFY(!wrote.ok());
        QVERIFY2(wrote.error().message.contains(u"Write commands are not allowed"_s),
                 qPrintable(wrote.error().message));
        // A decision (the engine's encoded EVALSHA) is refused before it is sent.
        RedisLimiter limiter(std::move(*c));
        Policy p = Policy::window(Algorithm::FixedWindow, 2, 60 * sluice::duration::usPerSecond);
        p.id = u"ro"_s;
        p.keyPrefix = "t:ro:";
        auto d = limiter.decide(Request{&p, p.keyFor("x"), 1, std::nullopt, 0});
        QVERIFY(!d.ok());
        QVERIFY2(d.error().message.contains(u"read-only"_s), qPrintable(d.error().message));

        // The server saw reads only.
        auto stats = a->command({"INFO", "commandstats"});
        QVERIFY(stats.ok());
        // (the refused SET inside the read-only script shows as calls=0, rejected_calls=1)
        for (const char *write : {"cmdstat_set:", "cmdstat_incr:", "cmdstat_evalsha:",
                                  "cmdstat_eval:", "cmdstat_script|flush:"}) {
            const qsizetype at = stats->str.indexOf(write);
            QVERIFY2(at < 0 ||
                         stats->str.mid(at + qsizetype(qstrlen(write))).startsWith("calls=0,"),
                     stats->str.constData());
        }
        QVERIFY(stats->str.contains("cmdstat_get:"));
        QVERIFY(stats->str.contains("cmdstat_evalsha_ro:"));
        auto still = a->command({"GET", "t:ro:k"});
        QCOMPARE(still->str, QByteArray("1"));
        (void)a->command({"DEL", "t:ro:k"});
    }

    void cliReadOnly()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"REDISCLI_AUTH"_s, secret);
        const QString url = u"redis://127.0.0.1:%1"_s.arg(m_unix.port);
        const QString rules =
            QStringLiteral(SLUICE_SOURCE_DIR) + u"/resources/samples/rules.json"_s;
        // Reads work.
        auto list =
            test::runCli({u"keys"_s, u"--url"_s, url, u"--rules"_s, rules, u"--read-only"_s}, env);
        QVERIFY2(list.exitCode == 0, list.err.constData());
        // Writes are refused before connecting, naming what they would write.
        for (const QStringList &args :
             {QStringList{u"keys"_s, u"fix"_s, u"--url"_s, url, u"--rules"_s, rules},
              QStringList{u"rules"_s, u"push"_s, rules, u"--url"_s, url},
              QStringList{u"check"_s, u"--url"_s, url, u"--algorithm"_s, u"fixed_window"_s,
                          u"--limit"_s, u"1"_s, u"--window"_s, u"1m"_s, u"--subject"_s, u"x"_s}}) {
            auto r = test::runCli(args + QStringList{u"--read-only"_s}, env);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains("--read-only") && r.err.contains("writes to Redis"),
                     r.err.constData());
        }
    }

    void trickleFailsAtTheDeadline()
    {
        // Answers PING with "+PONG\r\n", one byte every 300 ms: each recv succeeds, the reply
        // never completes within a 1 s deadline.
        FakeServer fake([](int fd, const std::atomic<bool> &stop) {
            readSome(fd);
            const QByteArray reply = "+PONGPONGPONGPONGPONG\r\n";
            for (char ch : reply) {
                if (stop) {
                    return;
                }
                sendAll(fd, QByteArray(1, ch));
                QThread::msleep(300);
            }
        });
        Endpoint e;
        e.port = fake.port();
        auto c = Connection::open(e, Connection::Options{milliseconds(1000), milliseconds(1000)});
        QVERIFY(c.ok());
        QElapsedTimer t;
        t.start();
        auto r = c->command({"PING"});
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, Error::Kind::Timeout);
        QVERIFY2(t.elapsed() >= 900 && t.elapsed() < 2000,
                 qPrintable(u"failed after %1 ms, not at the 1 s deadline"_s.arg(t.elapsed())));
        QVERIFY(c->isBroken());
    }

    void hugeAnnouncementsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("header");
        QTest::addColumn<bool>("stream"); // then send filler until the client hangs up
        QTest::addColumn<QString>("says");
        QTest::newRow("a billion elements")
            << QByteArray("*1000000000\r\n") << true << u"array of 1000000000 elements"_s;
        QTest::newRow("nested arrays") << QByteArray("*2\r\n*9000000\r\n*9000000\r\n") << false
                                       << u"array of 9000000 elements"_s;
        QTest::newRow("a 2 GB bulk")
            << QByteArray("$2000000000\r\n") << true << u"string of 2000000000 bytes"_s;
    }
    void hugeAnnouncementsAreRefused()
    {
        QFETCH(QByteArray, header);
        QFETCH(bool, stream);
        QFETCH(QString, says);
        FakeServer fake([header, stream](int fd, const std::atomic<bool> &stop) {
            readSome(fd);
            sendAll(fd, header);
            const QByteArray filler(1 << 16, '1');
            const QByteArray ints = QByteArray(":1\r\n").repeated(1 << 14);
            for (int i = 0; stream && !stop && i < 4096; ++i) { // at most 256 MB
                const QByteArray &chunk = header.startsWith('*') ? ints : filler;
                if (::send(fd, chunk.constData(), size_t(chunk.size()), MSG_NOSIGNAL) <= 0) {
                    return;
                }
            }
        });
        Endpoint e;
        e.port = fake.port();
        Connection::Options o;
        o.maxReplyBytes = 32 << 20;
        o.maxReplyElements = 1 << 20;
        auto c = Connection::open(e, o);
        QVERIFY(c.ok());
        const qint64 before = heldKb();
        auto r = c->command({"PING"});
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(says), qPrintable(r.error().message));
        const qint64 grown = heldKb() - before;
        QVERIFY2(grown < 200 * 1024, qPrintable(u"memory grew by %1 kB"_s.arg(grown)));
        QVERIFY(c->isBroken());
    }

    void demotionMakesTheConnectionStale()
    {
        // A replica answers writes with READONLY: the connection asks to be replaced.
        Server replica;
        QVERIFY(replica.start({u"--replicaof"_s, u"127.0.0.1"_s, QString::number(m_unix.port),
                               u"--masterauth"_s, secret},
                              m_dir.path(), false));
        Endpoint e;
        e.port = replica.port;
        e.password = secret;
        auto c = Connection::open(e);
        QVERIFY(c.ok());
        QVERIFY(!c->isBroken());
        auto w = c->command({"SET", "t:ro", "1"});
        QVERIFY(!w.ok());
        QVERIFY2(w.error().message.startsWith(u"READONLY"_s), qPrintable(w.error().message));
        QVERIFY(c->isStale());
        QVERIFY(c->isBroken());
        QVERIFY(c->reconnect().ok());
        QVERIFY(!c->isStale());
    }

    void cliOverTls()
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"REDISCLI_AUTH"_s, secret);
        const QStringList decide{u"check"_s,   u"--algorithm"_s,  u"fixed_window"_s, u"--limit"_s,
                                 u"5"_s,       u"--window"_s,     u"1m"_s,           u"--subject"_s,
                                 u"tls-cli"_s, u"--key-prefix"_s, u"t:tlscli:"_s};
        const QString url = u"rediss://localhost:%1"_s.arg(m_tls.port);
        auto ok = test::runCli(
            decide + QStringList{u"--url"_s, url, u"--tls-ca"_s, file(u"ca.pem"_s)}, env);
        QVERIFY2(ok.exitCode == 0, ok.err.constData());
        // Wrong CA: a runtime failure (1), named.
        auto bad = test::runCli(
            decide + QStringList{u"--url"_s, url, u"--tls-ca"_s, file(u"otherca.pem"_s)}, env);
        QCOMPARE(bad.exitCode, 1);
        QVERIFY2(bad.err.contains("not trusted"), bad.err.constData());
        // A missing file or a TLS flag without TLS: usage (2).
        auto missing = test::runCli(
            decide + QStringList{u"--url"_s, url, u"--tls-ca"_s, u"/nonexistent.pem"_s}, env);
        QCOMPARE(missing.exitCode, 2);
        QVERIFY2(missing.err.contains("--tls-ca /nonexistent.pem: no such file"),
                 missing.err.constData());
        auto noTls =
            test::runCli(decide + QStringList{u"--url"_s, u"redis://localhost:%1"_s.arg(m_tls.port),
                                              u"--tls-ca"_s, file(u"ca.pem"_s)},
                         env);
        QCOMPARE(noTls.exitCode, 2);
        QVERIFY2(noTls.err.contains("rediss://"), noTls.err.constData());
        // --tls-insecure works and warns.
        auto insecure =
            test::runCli(decide + QStringList{u"--url"_s, url, u"--tls-insecure"_s}, env);
        QVERIFY2(insecure.exitCode == 0, insecure.err.constData());
        QVERIFY2(insecure.err.contains("warning: --tls-insecure"), insecure.err.constData());
        // A password in the URL works, warns, and never comes back in any output.
        auto inUrl = test::runCli(
            decide + QStringList{u"--url"_s,
                                 u"rediss://:%1@localhost:%2"_s.arg(secret).arg(m_tls.port),
                                 u"--tls-ca"_s, file(u"ca.pem"_s)});
        QVERIFY2(inUrl.exitCode == 0, inUrl.err.constData());
        QVERIFY2(inUrl.err.contains("--password-file"), inUrl.err.constData());
        for (const test::CliRun &r : {ok, bad, missing, noTls, insecure, inUrl}) {
            noSecret(QString::fromUtf8(r.out + r.err));
        }
        // --password-file
        const QString pwFile = m_dir.path() + u"/pw"_s;
        QVERIFY(test::writeFile(pwFile, secret.toUtf8() + "\n"));
        auto fromFile =
            test::runCli(decide + QStringList{u"--url"_s, url, u"--tls-ca"_s, file(u"ca.pem"_s),
                                              u"--password-file"_s, pwFile});
        QVERIFY2(fromFile.exitCode == 0, fromFile.err.constData());
        QVERIFY(fromFile.err.isEmpty());
        // A wrong password from the file: refused, and neither password is printed.
        QVERIFY(test::writeFile(pwFile, "not-" + secret.toUtf8() + "\n"));
        auto wrong =
            test::runCli(decide + QStringList{u"--url"_s, url, u"--tls-ca"_s, file(u"ca.pem"_s),
                                              u"--password-file"_s, pwFile});
        QCOMPARE(wrong.exitCode, 1);
        QVERIFY2(wrong.err.contains("refused the credentials"), wrong.err.constData());
        noSecret(QString::fromUtf8(wrong.out + wrong.err));
    }

    void benchOverTlsComparesWithRedisBenchmark()
    {
        // The ceiling runs redis-benchmark --tls with the same CA; the server needs a password,
        // which redis-benchmark would take only on its command line: so no ceiling, said so.
        auto r = test::runCli({u"bench"_s, u"--url"_s, u"rediss://localhost:%1"_s.arg(m_tls.port),
                               u"--tls-ca"_s, file(u"ca.pem"_s), u"--seconds"_s, u"0.2"_s,
                               u"--rounds"_s, u"1"_s, u"--algorithm"_s, u"fixed_window"_s},
                              [] {
                                  auto env = QProcessEnvironment::systemEnvironment();
                                  env.insert(u"REDISCLI_AUTH"_s, secret);
                                  return env;
                              }());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("no ceiling figures"), r.out.constData());
        QVERIFY2(r.out.contains("pipelined"), r.out.constData());
        noSecret(QString::fromUtf8(r.out + r.err));
    }

    void childCommandLinesCarryNoPassword()
    {
        // serve with the password in its URL: its own /proc/<pid>/cmdline is masked once it
        // has read its arguments.
        QProcess p;
        p.start(QStringLiteral(SLUICE_CLI),
                {u"serve"_s, u"--url"_s, u"redis://:%1@127.0.0.1:%2"_s.arg(secret).arg(m_unix.port),
                 u"--listen"_s, u"127.0.0.1:%1"_s.arg(test::freeLoopbackPort()), u"--rules"_s,
                 QStringLiteral(SLUICE_SOURCE_DIR) + u"/resources/samples/rules.json"_s});
        QVERIFY(p.waitForStarted());
        QByteArray cmdline;
        for (int i = 0; i < 50; ++i) {
            QThread::msleep(100);
            QFile f(u"/proc/%1/cmdline"_s.arg(p.processId()));
            if (f.open(QIODevice::ReadOnly)) {
                cmdline = f.readAll();
                if (cmdline.contains("****")) {
                    break;
                }
            }
        }
        p.kill();
        p.waitForFinished();
        QVERIFY2(!cmdline.isEmpty(), "could not read the service's command line");
        cmdline.replace('\0', ' ');
        QVERIFY2(!cmdline.contains(secret.toUtf8()), cmdline.constData());
        QVERIFY2(cmdline.contains("redis://:" + QByteArray(secret.size(), '*') + "@127.0.0.1"),
                 cmdline.constData());
    }
};

QTEST_GUILESS_MAIN(TestTransport)
#include "tst_transport.moc"
