// A real nginx in front of a tiny upstream, asking the real `sluice-cli serve` through
// auth_request, configured by `sluice-cli rules export --format nginx-auth`:
// clients of nginx get 200 until the limit is spent, then 429 with Retry-After and the rate
// headers. Everything runs on loopback, on free ports, in a temporary prefix; the CLI runs end
// to end (argument parsing, rules file, listen, SIGTERM).

#include "runcli.h"
#include "servefixture.h"
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

using namespace sluice;

namespace {

using NginxReply = test::HttpReply;

// One HTTP/1.0 request (the server closes after the answer).
NginxReply request(quint16 port, const QByteArray &path, const QByteArray &extraHeaders = {})
{
    return test::httpGet(port, path, extraHeaders, true);
}

void stopProcess(QProcess &p)
{
    if (p.state() != QProcess::NotRunning) {
        p.terminate();
        if (!p.waitForFinished(5000)) {
            p.kill();
            p.waitForFinished();
        }
    }
}

} // namespace

class TestServeNginx : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cliUsageErrors_data()
    {
        test::usageErrorColumns();
        const QString url = test::redisUrl();
        QTest::newRow("no listen")
            << QStringList{QStringLiteral("--url"), url, QStringLiteral("--from-redis")}
            << QStringLiteral("--listen HOST:PORT is required");
        QTest::newRow("bad listen")
            << QStringList{QStringLiteral("--url"), url, QStringLiteral("--from-redis"),
                           QStringLiteral("--listen"), QStringLiteral("nowhere")}
            << QStringLiteral("--listen 'nowhere'");
        QTest::newRow("no rules") << QStringList{QStringLiteral("--url"), url,
                                                 QStringLiteral("--listen"),
                                                 QStringLiteral("127.0.0.1:0")}
                                  << QStringLiteral("either --rules FILE or --from-redis");
    }
    void cliUsageErrors() { test::checkUsageErrorRow(QStringLiteral("serve")); }

    void nginxFrontsTheService()
    {
        const QString nginx = test::nginxBinary();
        if (nginx.isEmpty()) {
            QFAIL("nginx is not installed (bash tools/dev.sh test installs nginx-light)");
        }
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString p = dir.path();
        const QByteArray rules =
            R"({"version": 1, "rules": [
                {"id": "hello-per-ip", "route": "GET /hello", "scope": "ip",
                 "algorithm": "fixed_window", "limit": 3, "window": "1m", "key_prefix": "PREFIX"},
                {"id": "api-per-key", "route": "/api/", "scope": "header:X-Api-Key",
                 "algorithm": "gcra", "rate": "1/m", "burst": 1, "key_prefix": "PREFIX"},
                {"scope": "global", "id": "no-route", "algorithm": "gcra", "rate": "1/s", "burst": 1}]})";
        QByteArray text = rules;
        text.replace("PREFIX", test::keyPrefix());
        QVERIFY(test::writeFile(p + QStringLiteral("/rules.json"), text));

        // The service: the real CLI, on a port of its choosing.
        test::ServeProcess service;
        auto stopService = qScopeGuard([&] { stopProcess(service.process()); });
        QVERIFY2(service.start({QStringLiteral("--url"), test::redisUrl(),
                                QStringLiteral("--rules"), p + QStringLiteral("/rules.json"),
                                QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")}),
                 service.err().constData());
        const quint16 servicePort = service.port();
        QCOMPARE(request(servicePort, "/v1/check?rule=hello-per-ip&subject=probe").status, 200);

        // The export, by the CLI.
        const quint16 upstreamPort = test::freeLoopbackPort();
        const quint16 frontPort = test::freeLoopbackPort();
        QProcess exporter;
        exporter.start(
            QStringLiteral(SLUICE_CLI),
            {QStringLiteral("rules"), QStringLiteral("export"), p + QStringLiteral("/rules.json"),
             QStringLiteral("--format"), QStringLiteral("nginx-auth"), QStringLiteral("--service"),
             QStringLiteral("http://127.0.0.1:%1").arg(servicePort), QStringLiteral("--upstream"),
             QStringLiteral("http://127.0.0.1:%1").arg(upstreamPort), QStringLiteral("--listen"),
             QStringLiteral("127.0.0.1:%1").arg(frontPort), QStringLiteral("--out"),
             p + QStringLiteral("/sluice.conf")});
        QVERIFY(exporter.waitForFinished(10000));
        const QString exportErr = QString::fromLocal8Bit(exporter.readAllStandardError());
        QCOMPARE(exporter.exitCode(), 0);
        QVERIFY2(exportErr.contains(QStringLiteral("skipped rule 'no-route': no route")),
                 qPrintable(exportErr));

        // nginx: the export plus a tiny upstream (nginx itself, return 200) on another port.
        const QString conf =
            test::nginxConfHead(p) +
            QStringLiteral("    server {\n"
                           "        listen 127.0.0.1:%2;\n"
                           "        location / { return 200 \"upstream ok\\n\"; }\n"
                           "    }\n"
                           "    include %1/sluice.conf;\n"
                           "}\n")
                .arg(p)
                .arg(upstreamPort);
        QVERIFY(test::writeFile(p + QStringLiteral("/nginx.conf"), conf.toUtf8()));
        QProcess front;
        front.setProcessChannelMode(QProcess::MergedChannels);
        front.start(nginx, {QStringLiteral("-p"), p + QLatin1Char('/'), QStringLiteral("-e"),
                            p + QStringLiteral("/error.log"), QStringLiteral("-c"),
                            p + QStringLiteral("/nginx.conf"), QStringLiteral("-g"),
                            QStringLiteral("daemon off; master_process off;")});
        auto stopFront = qScopeGuard([&] { stopProcess(front); });
        QVERIFY(front.waitForStarted(5000));
        NginxReply first;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         first = request(frontPort, "/hello");
                         return first.status > 0 || front.state() != QProcess::Running;
                     },
                     10000),
                 front.readAll().constData());

        // 3 per minute per client address: 200, 200, 200 (from the upstream), then 429.
        QList<NginxReply> replies{first};
        for (int i = 0; i < 3; ++i) {
            replies << request(frontPort, "/hello");
        }
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(replies[i].status, 200);
            QCOMPARE(replies[i].body, QByteArray("upstream ok\n"));
            QCOMPARE(replies[i].header("RateLimit-Policy"),
                     QByteArray("\"hello-per-ip\";q=3;w=60"));
            QCOMPARE(replies[i].header("RateLimit"),
                     QByteArray("\"hello-per-ip\";r=") + QByteArray::number(2 - i) + ";t=60");
        }
        const NginxReply &denied = replies[3];
        QCOMPARE(denied.status, 429);
        const int retryAfter = denied.header("Retry-After").toInt();
        QVERIFY2(retryAfter >= 59 && retryAfter <= 60, denied.header("Retry-After").constData());
        QCOMPARE(denied.header("RateLimit"), QByteArray("\"hello-per-ip\";r=0;t=60"));
        QVERIFY2(denied.body.contains("\"error\":\"rate_limited\""), denied.body.constData());
        QVERIFY(!denied.body.contains("upstream ok"));

        // header:X-Api-Key, gcra burst 1: two per key, then 429; keys are independent; a
        // request without the header is not limited (as nginx limit_req with an empty key).
        QCOMPARE(request(frontPort, "/api/x", "X-Api-Key: k1\r\n").status, 200);
        QCOMPARE(request(frontPort, "/api/x", "X-Api-Key: k1\r\n").status, 200);
        QCOMPARE(request(frontPort, "/api/x", "X-Api-Key: k1\r\n").status, 429);
        QCOMPARE(request(frontPort, "/api/x", "X-Api-Key: k2\r\n").status, 200);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(request(frontPort, "/api/x").status, 200);
        }
        // A client cannot pick its own subject: nginx overwrites Sluice-Subject.
        QCOMPARE(request(frontPort, "/api/x", "X-Api-Key: k1\r\nSluice-Subject: other\r\n").status,
                 429);
        // The state is in Redis, under the rule's keys.
        auto c = test::connect();
        QVERIFY(test::pttl(c, test::keyPrefix() + "hello-per-ip:{127.0.0.1}") > 0);
        QVERIFY(test::pttl(c, test::keyPrefix() + "api-per-key:{k1}") > 0);

        // The CLI stops cleanly on SIGTERM.
        stopFront.dismiss();
        stopProcess(front);
        stopService.dismiss();
        service.process().terminate();
        QVERIFY(service.process().waitForFinished(10000));
        QCOMPARE(service.process().exitStatus(), QProcess::NormalExit);
        QCOMPARE(service.process().exitCode(), 0);
    }
};

QTEST_GUILESS_MAIN(TestServeNginx)
#include "tst_serve_nginx.moc"
