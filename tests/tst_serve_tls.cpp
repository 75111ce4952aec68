// sluice-cli serve with --listen-tls-cert/--listen-tls-key/--listen-tls-client-ca, against real
// clients: curl (HTTPS; client certificates: none, one of another CA, an expired one),
// python3-grpcio (gRPC over TLS and mTLS, by grpc.ssl_channel_credentials), openssl s_client
// (TLS 1.1 refused), Qt's QSslSocket (a keep-alive connection kept across a certificate
// reload); plain clients on TLS ports and the reverse, a handshake that never finishes, a key
// that cannot be read, a garbage certificate on reload.
#include "runcli.h"
#include "servefixture.h"
#include "testpki.h"
#include "testredis.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <unistd.h>

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int code = -1;
    QByteArray out, err;
};

Run run(const QString &program, const QStringList &args, int timeoutMs = 20000)
{
    QProcess p;
    p.start(program, args);
    p.closeWriteChannel();
    Run r;
    if (p.waitForFinished(timeoutMs) && p.exitStatus() == QProcess::NormalExit) {
        r.code = p.exitCode();
    } else {
        p.kill();
        p.waitForFinished(2000);
    }
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

// A gRPC client of python3-grpcio: Health/Check, then ShouldRateLimit for a domain no rule
// has (answered OK), the messages encoded by hand (no generated code needed). Prints
// "health 0801 rls 0801" (SERVING, OK) or "error CODE".
constexpr char grpcClient[] = R"(import sys, grpc
mode, port, files = sys.argv[1], sys.argv[2], [open(f, 'rb').read() for f in sys.argv[3:]]
target = '127.0.0.1:' + port
if mode == 'plain':
    ch = grpc.insecure_channel(target)
else:
    ca, cert, key = (files + [None, None])[:3]
    ch = grpc.secure_channel(target, grpc.ssl_channel_credentials(ca, key, cert),
                             [('grpc.ssl_target_name_override', 'localhost')])
try:
    h = ch.unary_unary('/grpc.health.v1.Health/Check')(b'', timeout=5)
    req = b'\x0a\x08nodomain' + b'\x12\x08\x0a\x06\x0a\x01k\x12\x01v'
    r = ch.unary_unary('/envoy.service.ratelimit.v3.RateLimitService/ShouldRateLimit')(req, timeout=5)
    print('health', h.hex(), 'rls', r.hex()[:4])
except grpc.RpcError as e:
    print('error', e.code().name)
)";

} // namespace

class TestServeTls : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_rules;

    QString pki(const char *name) const { return m_dir.filePath(QString::fromLatin1(name)); }

    // serve with TLS on both listeners (`extra` after the certificate flags).
    bool startTls(test::ServeProcess &serve, const QString &cert, const QString &key,
                  const QStringList &extra = {})
    {
        // $TMPDIR is the test's directory: a copy of the key written there would be seen
        // (certificateReloadedWithoutDroppingConnections).
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"TMPDIR"_s, m_dir.path());
        return serve.start(test::serveArgs(m_rules, test::redisUrl()) +
                               QStringList{u"--grpc"_s, u"127.0.0.1:0"_s, u"--listen-tls-cert"_s,
                                           cert, u"--listen-tls-key"_s, key} +
                               extra,
                           env);
    }
    static quint16 grpcPort(test::ServeProcess &serve)
    {
        const auto m =
            QRegularExpression(u"grpc on [^\\s]+:(\\d+)"_s).match(QString::fromUtf8(serve.out()));
        return m.hasMatch() ? quint16(m.captured(1).toUInt()) : 0;
    }
    // curl on https://localhost:PORT/healthz (127.0.0.1): the HTTP status, "000" when none.
    static QByteArray curl(quint16 port, const QStringList &extra, const char *scheme = "https")
    {
        const QString url = u"%1://localhost:%2/healthz"_s.arg(QLatin1String(scheme)).arg(port);
        return run(u"curl"_s, QStringList{u"-sS"_s, u"--max-time"_s, u"10"_s, u"-o"_s,
                                          u"/dev/null"_s, u"-w"_s, u"%{http_code}"_s,
                                          u"--resolve"_s, u"localhost:%1:127.0.0.1"_s.arg(port)} +
                                  extra + QStringList{url})
            .out;
    }
    QByteArray grpc(quint16 port, const QStringList &mode) const
    {
        return run(u"/usr/bin/python3"_s, QStringList{m_dir.filePath(u"grpcclient.py"_s),
                                                      mode.first(), QString::number(port)} +
                                              mode.mid(1))
            .out.trimmed();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(test::makeTestPki(m_dir.path()));
        m_rules = m_dir.filePath(u"rules.json"_s);
        QFile rules(m_rules);
        QVERIFY(rules.open(QIODevice::WriteOnly));
        rules.write(R"({"version": 1, "rules": [{"id": "r", "scope": "ip", "algorithm":
            "fixed_window", "limit": 5, "window": "1m", "key_prefix": ")" +
                    test::keyPrefix() + R"("}]})");
        rules.close();
        QFile py(m_dir.filePath(u"grpcclient.py"_s));
        QVERIFY(py.open(QIODevice::WriteOnly));
        py.write(grpcClient);
        py.close();
        if (run(u"/usr/bin/python3"_s, {u"-c"_s, u"import grpc"_s}).code != 0) {
            QSKIP("python3-grpcio is not installed (bash tools/dev.sh test installs it)");
        }
    }

    void httpsAndGrpcOverTls()
    {
        test::ServeProcess serve;
        QVERIFY2(startTls(serve, pki("server.pem"), pki("server-key.pem")),
                 serve.err().constData());
        QVERIFY(serve.out().contains("listening on https://127.0.0.1:"));
        const quint16 port = serve.port();
        QCOMPARE(curl(port, {u"--cacert"_s, pki("ca.pem")}), "200");
        // A client that does not trust the certificate's CA refuses it (the server presents it).
        QCOMPARE(curl(port, {u"--cacert"_s, pki("otherca.pem")}), "000");
        // Plain HTTP on the HTTPS port: 400 in plain HTTP, then HTTPS still answers.
        const test::HttpReply plain = test::httpGet(port, "/healthz");
        QCOMPARE(plain.status, 400);
        QVERIFY2(plain.body.contains("tls_required"), plain.body.constData());
        QCOMPARE(curl(port, {u"--cacert"_s, pki("ca.pem")}), "200");
        // TLS below 1.2 is refused; 1.2 is served.
        const QStringList sClient{u"s_client"_s, u"-connect"_s, u"127.0.0.1:%1"_s.arg(port)};
        QVERIFY(run(u"openssl"_s,
                    sClient + QStringList{u"-tls1_1"_s, u"-cipher"_s, u"DEFAULT@SECLEVEL=0"_s})
                    .code != 0);
        QCOMPARE(run(u"openssl"_s, sClient + QStringList{u"-tls1_2"_s}).code, 0);

        const quint16 g = grpcPort(serve);
        QVERIFY(g != 0);
        QCOMPARE(grpc(g, {u"tls"_s, pki("ca.pem")}), "health 0801 rls 0801");
        QCOMPARE(grpc(g, {u"plain"_s}), "error UNAVAILABLE");
        QCOMPARE(grpc(g, {u"tls"_s, pki("otherca.pem")}), "error UNAVAILABLE");
        QCOMPARE(grpc(g, {u"tls"_s, pki("ca.pem")}), "health 0801 rls 0801");
        QVERIFY(serve.process().state() == QProcess::Running);
    }

    void clientCertificatesRequired()
    {
        test::ServeProcess serve;
        QVERIFY2(startTls(serve, pki("server.pem"), pki("server-key.pem"),
                          {u"--listen-tls-client-ca"_s, pki("clientca.pem")}),
                 serve.err().constData());
        const quint16 port = serve.port();
        const QStringList ca{u"--cacert"_s, pki("ca.pem")};
        auto as = [&](const char *cert, const char *key) {
            return ca + QStringList{u"--cert"_s, pki(cert), u"--key"_s, pki(key)};
        };
        QCOMPARE(curl(port, as("client.pem", "client-key.pem")), "200");
        QCOMPARE(curl(port, ca), "000");                                         // none
        QCOMPARE(curl(port, as("stranger.pem", "stranger-key.pem")), "000");     // another CA
        QCOMPARE(curl(port, as("client-expired.pem", "client-key.pem")), "000"); // expired
        QCOMPARE(curl(port, as("client.pem", "client-key.pem")), "200");

        const quint16 g = grpcPort(serve);
        const QString c = pki("ca.pem");
        QCOMPARE(grpc(g, {u"tls"_s, c, pki("client.pem"), pki("client-key.pem")}),
                 "health 0801 rls 0801");
        QCOMPARE(grpc(g, {u"tls"_s, c}), "error UNAVAILABLE");
        QCOMPARE(grpc(g, {u"tls"_s, c, pki("stranger.pem"), pki("stranger-key.pem")}),
                 "error UNAVAILABLE");
        QCOMPARE(grpc(g, {u"tls"_s, c, pki("client-expired.pem"), pki("client-key.pem")}),
                 "error UNAVAILABLE");
        QCOMPARE(grpc(g, {u"tls"_s, c, pki("client.pem"), pki("client-key.pem")}),
                 "health 0801 rls 0801");
    }

    void tlsClientsOnPlainPorts()
    {
        test::ServeProcess serve;
        QVERIFY2(serve.start(test::serveArgs(m_rules, test::redisUrl()) +
                             QStringList{u"--grpc"_s, u"127.0.0.1:0"_s}),
                 serve.err().constData());
        QCOMPARE(curl(serve.port(), {u"--cacert"_s, pki("ca.pem")}), "000");
        QCOMPARE(curl(serve.port(), {}, "http"), "200");
        const quint16 g = grpcPort(serve);
        QCOMPARE(grpc(g, {u"tls"_s, pki("ca.pem")}), "error UNAVAILABLE");
        QCOMPARE(grpc(g, {u"plain"_s}), "health 0801 rls 0801");
    }

    void handshakeThatNeverEndsIsCut()
    {
        test::ServeProcess serve;
        QVERIFY2(startTls(serve, pki("server.pem"), pki("server-key.pem"),
                          {u"--header-timeout-ms"_s, u"500"_s}),
                 serve.err().constData());
        QTcpSocket s;
        s.connectToHost(u"127.0.0.1"_s, serve.port());
        QVERIFY(s.waitForConnected(5000));
        s.write("\x16\x03\x01", 3); // the start of a ClientHello, and no more
        QElapsedTimer t;
        t.start();
        QVERIFY(s.state() == QAbstractSocket::UnconnectedState || s.waitForDisconnected(5000));
        QVERIFY2(t.elapsed() >= 300, "closed before the header timeout");
        QVERIFY(s.readAll().isEmpty()); // nothing can be said to it
        QCOMPARE(curl(serve.port(), {u"--cacert"_s, pki("ca.pem")}), "200");
        // gRPC's port: the same timeout.
        QTcpSocket g;
        g.connectToHost(u"127.0.0.1"_s, grpcPort(serve));
        QVERIFY(g.waitForConnected(5000));
        g.write("\x16\x03\x01", 3);
        t.restart();
        QVERIFY(g.state() == QAbstractSocket::UnconnectedState || g.waitForDisconnected(5000));
        QVERIFY2(t.elapsed() >= 300, "closed before the header timeout");
        QCOMPARE(grpc(grpcPort(serve), {u"tls"_s, pki("ca.pem")}), "health 0801 rls 0801");
    }

    void unreadableKeyIsRefused()
    {
        const QString key = m_dir.filePath(u"locked-key.pem"_s);
        QVERIFY(QFile::copy(pki("server-key.pem"), key));
        QVERIFY(QFile::setPermissions(key, QFileDevice::Permissions()));
        QStringList cmd =
            QStringList{test::cliPath(), u"serve"_s} + test::serveArgs(m_rules, test::redisUrl()) +
            QStringList{u"--listen-tls-cert"_s, pki("server.pem"), u"--listen-tls-key"_s, key};
        if (::geteuid() == 0) { // root reads any file: drop the capabilities that let it
            cmd.prepend(u"--bounding-set=-dac_override,-dac_read_search"_s);
            cmd.prepend(u"setpriv"_s);
        }
        const QString program = cmd.takeFirst();
        const Run r = run(program, cmd);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.err.contains(QFile::encodeName(key) + ": cannot be read (Permission denied)"),
                 r.err.constData());
        QVERIFY(!r.out.contains("listening"));
    }

    void certificateReloadedWithoutDroppingConnections()
    {
        const QString cert = m_dir.filePath(u"live.pem"_s), key = m_dir.filePath(u"live-key.pem"_s);
        QFile::remove(cert);
        QVERIFY(QFile::copy(pki("server.pem"), cert));
        QVERIFY(QFile::copy(pki("server-key.pem"), key));
        test::ServeProcess serve;
        QVERIFY2(startTls(serve, cert, key), serve.err().constData());
        const quint16 port = serve.port(), g = grpcPort(serve);
        // Both ports take the certificate from the service's memory: no copy of the key is
        // written anywhere (grpc++ once needed one on disk).
        QVERIFY(QDir(m_dir.path()).entryList({u"sluice-grpc-tls-*"_s}, QDir::Dirs).isEmpty());
        // A keep-alive connection, open across both reloads.
        QSslSocket kept;
        QSslConfiguration conf = QSslConfiguration::defaultConfiguration();
        conf.setCaCertificates(QSslCertificate::fromPath(pki("ca.pem")));
        kept.setSslConfiguration(conf);
        kept.connectToHostEncrypted(u"127.0.0.1"_s, port, u"localhost"_s);
        QVERIFY2(kept.waitForEncrypted(5000), qPrintable(kept.errorString()));
        auto keptGet = [&] {
            kept.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n");
            QByteArray in;
            test::HttpReply r;
            while (!test::parseHttpReply(in, &r) && kept.waitForReadyRead(5000)) {
                in += kept.readAll();
            }
            return r.status;
        };
        QCOMPARE(keptGet(), 200);

        // Garbage, then SIGHUP: the old certificate stays, one line says so.
        QFile f(cert);
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write("-----BEGIN CERTIFICATE-----\ngarbage\n-----END CERTIFICATE-----\n");
        f.close();
        QVERIFY(::kill(pid_t(serve.pid()), SIGHUP) == 0);
        QVERIFY(QTest::qWaitFor([&] { return serve.err().contains("not reloaded"); }, 10000));
        QVERIFY2(serve.err().contains(QFile::encodeName(cert) + ": not a PEM certificate"),
                 serve.err().constData());
        QCOMPARE(curl(port, {u"--cacert"_s, pki("ca.pem")}), "200");
        QCOMPARE(grpc(g, {u"tls"_s, pki("ca.pem")}), "health 0801 rls 0801");
        QTest::qWait(1500); // a poll of the files or two: a failed change is not tried again
        QCOMPARE(serve.err().count("SIGHUP: the TLS certificate was not reloaded"), 1);
        QVERIFY(serve.err().count("changed: the TLS certificate was not reloaded") <= 1);

        // A renewal from another CA, without a signal: noticed, served to new connections.
        QFile::remove(cert);
        QVERIFY(QFile::copy(pki("server-other.pem"), cert));
        QVERIFY(QTest::qWaitFor([&] { return serve.err().contains("reloaded the TLS"); }, 10000));
        QCOMPARE(curl(port, {u"--cacert"_s, pki("otherca.pem")}), "200");
        QCOMPARE(curl(port, {u"--cacert"_s, pki("ca.pem")}), "000");
        QByteArray answer;
        QVERIFY(QTest::qWaitFor(
            [&] {
                return (answer = grpc(g, {u"tls"_s, pki("otherca.pem")})) == "health 0801 rls 0801";
            },
            10000));
        QCOMPARE(keptGet(), 200); // the connection of before, on the certificate of before
        QVERIFY(kept.state() == QAbstractSocket::ConnectedState);
    }

    void flagsGoTogether()
    {
        test::checkUsageError({u"serve"_s, u"--url"_s, test::redisUrl(), u"--rules"_s, m_rules,
                               u"--listen"_s, u"127.0.0.1:0"_s, u"--listen-tls-cert"_s,
                               pki("server.pem")},
                              u"--listen-tls-cert FILE and --listen-tls-key FILE go together"_s);
    }
};

QTEST_GUILESS_MAIN(TestServeTls)
#include "tst_serve_tls.moc"
