// sluice-cli serve --grpc under hostile clients (tests/grpc_hostile.py, python3-h2 and
// python3-grpcio): idle connections past the limits, streams on one connection that never
// reads, the rapid-reset pattern, a message of 560,000 descriptors, descriptor limit overrides
// on 8 KB keys (gRPC and POST /json), and the port out of file descriptors. Each attack comes
// from an address of its own (127.0.0.2 and up) while a well-behaved grpc++ client on 127.0.0.1
// is served; the serve process's resident and peak memory (/proc/PID/status) stay bounded.
// Built without gRPC support, the test is skipped.

#include "fakeresp.h"
#include "ownredis.h"
#include "runcli.h"
#include "servefixture.h"
#include "testkit.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#ifdef SLUICE_WITH_GRPC
#include "envoy/service/ratelimit/v3/rls.grpc.pb.h"

#include <grpcpp/grpcpp.h>
#endif

#include <atomic>
#include <memory>

using namespace sluice;

namespace {

// What one attack may add to the service's peak RSS: gRPC's quota (32 MiB), the connections'
// buffers, slack. Before the limits, the same attacks took it to 1.6 to 4 GB.
constexpr qint64 peakGrowthKiB = 96 * 1024;

const QByteArray envoyYaml = R"(domain: edge
descriptors:
  - key: remote_address
    rate_limit: {unit: minute, requests_per_unit: 100000}
)";

qint64 statusKiB(qint64 pid, const char *field)
{
    return test::procStatusKb(QString::number(pid), QByteArray(field));
}

// The sum of the samples of `name` whose labels contain `label`.
double metric(const QByteArray &exposition, const QByteArray &name, const QByteArray &label = {})
{
    double total = 0;
    for (const QByteArray &line : exposition.split('\n')) {
        if ((line.startsWith(name + '{') || line.startsWith(name + ' ')) && line.contains(label)) {
            total += line.mid(line.lastIndexOf(' ') + 1).toDouble();
        }
    }
    return total;
}

#ifdef SLUICE_WITH_GRPC
namespace rls = envoy::service::ratelimit::v3;

// A well-behaved client: a channel of its own (no subchannel shared with another).
class Client
{
public:
    explicit Client(quint16 port)
    {
        static std::atomic<int> count{0};
        grpc::ChannelArguments args;
        args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
        args.SetInt("sluice.test.channel", ++count);
        m_stub = rls::RateLimitService::NewStub(grpc::CreateCustomChannel(
            "127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials(), args));
    }
    grpc::Status call()
    {
        rls::RateLimitRequest r;
        r.set_domain("edge");
        auto *e = r.add_descriptors()->add_entries();
        e->set_key("remote_address");
        e->set_value("10.1.1.1");
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(5));
        rls::RateLimitResponse a;
        grpc::Status s = m_stub->ShouldRateLimit(&context, r, &a);
        if (s.ok() && a.overall_code() != rls::RateLimitResponse::OK) {
            return grpc::Status(grpc::StatusCode::INTERNAL, "not OK");
        }
        return s;
    }

private:
    std::unique_ptr<rls::RateLimitService::Stub> m_stub;
};
#endif

} // namespace

class TestGrpcHostile : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<test::OwnRedis> m_redis;
    std::unique_ptr<test::ServeProcess> m_serve;
    quint16 m_grpcPort = 0;
    qint64 m_peakBefore = 0;

    // Runs an attack of grpc_hostile.py to its end while a well-behaved client calls the
    // service; every call of the client must be answered OK. Returns the attack's JSON line.
    QJsonObject attack(const QStringList &args)
    {
        QProcess p;
        p.start(QStringLiteral("/usr/bin/python3"),
                QStringList{QStringLiteral(SLUICE_SOURCE_DIR "/tests/grpc_hostile.py")} + args);
        if (!p.waitForStarted(5000)) {
            return {};
        }
#ifdef SLUICE_WITH_GRPC
        Client c(m_grpcPort);
        int calls = 0;
        while (p.state() == QProcess::Running) {
            const grpc::Status s = c.call();
            if (!s.ok()) {
                qWarning("the well-behaved client's call %d: %s", calls, s.error_message().c_str());
                p.kill();
                p.waitForFinished(5000);
                return {};
            }
            ++calls;
            p.waitForFinished(20);
        }
        if (calls == 0) {
            qWarning("the attack ended before the well-behaved client called");
        }
#endif
        p.waitForFinished(30000);
        const QByteArray out = p.readAllStandardOutput();
        if (p.exitCode() != 0) {
            qWarning("%s", p.readAllStandardError().constData());
        }
        return QJsonDocument::fromJson(out).object();
    }

    // `attack` on one connection of 127.0.0.2 ends with the connection closed by the service,
    // counted under `reason`.
    void closedBy(const char *attackName, int streams, const char *reason)
    {
        const double before = metric(metrics(), "sluice_grpc_connections_closed_total", reason);
        const QJsonObject r = attack({QLatin1String(attackName), QString::number(m_grpcPort),
                                      QString::number(streams), QStringLiteral("127.0.0.2")});
        QVERIFY2(r.value(QStringLiteral("closed")).toBool(), QJsonDocument(r).toJson().constData());
        QCOMPARE(metric(metrics(), "sluice_grpc_connections_closed_total", reason), before + 1);
        QVERIFY(peakBounded());
    }

    QByteArray metrics()
    {
        return test::httpGet(m_serve->port(), "/metrics").body;
    }

    bool peakBounded()
    {
        const qint64 peak = statusKiB(m_serve->pid(), "VmHWM");
        qInfo("peak RSS %lld KiB (%lld KiB at start), RSS %lld KiB", peak, m_peakBefore,
              statusKiB(m_serve->pid(), "VmRSS"));
        return peak > 0 && peak < m_peakBefore + peakGrowthKiB * test::memoryBoundFactor;
    }

private Q_SLOTS:
    void initTestCase()
    {
#ifndef SLUICE_WITH_GRPC
        QSKIP("this build has no gRPC support (grpc++ was not found)");
#endif
        if (QProcess::execute(QStringLiteral("/usr/bin/python3"),
                              {QStringLiteral("-c"), QStringLiteral("import hpack, grpc")}) != 0) {
            QSKIP("python3-h2 or python3-grpcio is not installed (tools/dev.sh installs them)");
        }
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("envoy"))));
        QFile f(m_dir.filePath(QStringLiteral("envoy/config.yaml")));
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(envoyYaml) == envoyYaml.size());
        f.close();
        m_redis = std::make_unique<test::OwnRedis>();
        QVERIFY2(m_redis->start(), m_redis->output().constData());
        m_serve = std::make_unique<test::ServeProcess>();
        // The shipped unit's old limit: 1,024 descriptors, which the HTTP and gRPC connection
        // limits (1,000 + 100) would not fit in.
        QVERIFY2(m_serve->start(
                     {QStringLiteral("--url"), m_redis->url(), QStringLiteral("--envoy-config"),
                      m_dir.filePath(QStringLiteral("envoy")), QStringLiteral("--listen"),
                      QStringLiteral("127.0.0.1:0"), QStringLiteral("--grpc"),
                      QStringLiteral("127.0.0.1:0"), QStringLiteral("--grpc-max-connections"),
                      QStringLiteral("100"), QStringLiteral("--grpc-max-connections-per-peer"),
                      QStringLiteral("40"), QStringLiteral("--grpc-max-resets-per-second"),
                      QStringLiteral("100"), QStringLiteral("--grpc-idle-timeout-ms"),
                      QStringLiteral("3000"), QStringLiteral("--no-stats")},
                     {}, 1024),
                 m_serve->err().constData());
        QVERIFY(QTest::qWaitFor([&] { return m_serve->out().contains("grpc on"); }, 10000));
        const auto g = QRegularExpression(QStringLiteral("grpc on \\S+:(\\d+)"))
                           .match(QString::fromUtf8(m_serve->out()));
        m_grpcPort = quint16(g.captured(1).toUInt());
        QVERIFY(m_grpcPort != 0);
#ifdef SLUICE_WITH_GRPC
        QVERIFY(Client(m_grpcPort).call().ok());
#endif
        m_peakBefore = statusKiB(m_serve->pid(), "VmHWM");
        QVERIFY(m_peakBefore > 0);
    }

    void cleanupTestCase()
    {
        m_serve.reset();
    }

    // The descriptor limit is said at start, and the connection limits lowered to fit in it.
    void descriptorsLogged()
    {
        const QByteArray err = m_serve->err();
        QVERIFY2(err.contains("file descriptors: 1024 (the soft limit was 1024)") &&
                     err.contains("lowered from 1100 in all to fit"),
                 err.constData());
    }

    // 1,100 idle connections of one address: 40 kept, the rest told GOAWAY and closed; the
    // client of another address is served meanwhile and after.
    void idleConnections()
    {
        const QJsonObject r = attack({QStringLiteral("idle"), QString::number(m_grpcPort),
                                      QStringLiteral("1100"), QStringLiteral("127.0.0.2")});
        QVERIFY2(r.value(QStringLiteral("opened")).toInt() == 1100,
                 QJsonDocument(r).toJson().constData());
        QVERIFY2(r.value(QStringLiteral("goaway")).toInt() >= 1000,
                 QJsonDocument(r).toJson().constData());
        QVERIFY(metric(metrics(), "sluice_grpc_connections_refused_total",
                       "max_connections_per_peer") >= 1000);
        // Three more addresses take the rest of the places: past them, refused too.
        QProcess more[3];
        for (int i = 0; i < 3; ++i) {
            more[i].start(QStringLiteral("/usr/bin/python3"),
                          {QStringLiteral(SLUICE_SOURCE_DIR "/tests/grpc_hostile.py"),
                           QStringLiteral("idle"), QString::number(m_grpcPort),
                           QStringLiteral("40"), QStringLiteral("127.0.0.%1").arg(3 + i)});
        }
        for (QProcess &p : more) {
            QVERIFY(p.waitForFinished(20000));
        }
        QVERIFY(metric(metrics(), "sluice_grpc_connections_refused_total",
                       "reason=\"max_connections\"") >= 1);
#ifdef SLUICE_WITH_GRPC
        // Once they closed (gRPC sees them end, the gate's sweep follows), a new connection is
        // served again.
        QTRY_VERIFY_WITH_TIMEOUT(Client(m_grpcPort).call().ok(), 5000);
#endif
        QVERIFY(peakBounded());
    }

    // 1,400 streams (a request each, within the connection's flow-control window) on one
    // connection with an initial window of 0 that never reads: closed past twice
    // --grpc-max-streams (100) unfinished calls.
    void streamsNeverRead()
    {
        closedBy("streams", 1400, "streams");
    }

    // HEADERS + RST_STREAM, 800 a second on one connection: closed past
    // --grpc-max-resets-per-second (100) calls ended unanswered.
    void rapidReset()
    {
        closedBy("reset", 20000, "resets");
    }

    // 3.9 MB of 560,000 descriptors: refused from the wire, before 167 MB of objects are made.
    void oversizedMessage()
    {
        const QJsonObject r = attack({QStringLiteral("big"), QString::number(m_grpcPort)});
        const QJsonArray answers = r.value(QStringLiteral("answers")).toArray();
        QCOMPARE(answers.size(), 3);
        for (const auto &a : answers) {
            QVERIFY2(a.toString().startsWith(
                         QLatin1String("INVALID_ARGUMENT: more than 256 descriptors")),
                     qPrintable(a.toString()));
        }
        QVERIFY(peakBounded());
    }

    // 300 limit overrides on 32 unconfigured 8 KB keys each: at most 256 override limits are
    // kept, each named by a digest (no client byte in a label), the rest refused and counted;
    // POST /json the same.
    void overrideSeriesBounded()
    {
        const QJsonObject r = attack(
            {QStringLiteral("overrides"), QString::number(m_grpcPort), QStringLiteral("300")});
        QCOMPARE(r.value(QStringLiteral("OK")).toInt(), 256);
        QCOMPARE(r.value(QStringLiteral("INVALID_ARGUMENT")).toInt(), 44);
        // POST /json (its body within the default 4 KB): past the bound too, and its parse
        // error quotes at most 200 bytes of what the client sent.
        auto postJson = [&](const QByteArray &body) {
            return test::httpRequest(m_serve->port(),
                                     "POST /json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                                     "Content-Length: " +
                                         QByteArray::number(body.size()) + "\r\n\r\n" + body);
        };
        const QByteArray keys(3500, 'k');
        const test::HttpReply j =
            postJson(R"({"domain":"edge","descriptors":[{"entries":[{"key":")" + keys +
                     R"(","value":"v"}],"limit":{"requestsPerUnit":5,"unit":"MINUTE"}}]})");
        QCOMPARE(j.status, 400);
        QVERIFY2(j.json()
                     .value(QLatin1String("message"))
                     .toString()
                     .contains(QLatin1String("different limit overrides")),
                 j.body.left(300).constData());
        const test::HttpReply unknown = postJson(R"({"domain":"edge",")" + keys + R"(":1})");
        QCOMPARE(unknown.status, 400);
        QVERIFY2(unknown.body.size() < 500, unknown.body.left(300).constData());
        const QByteArray m = metrics();
        QVERIFY2(m.size() < 2 * 1024 * 1024, QByteArray::number(m.size()).constData());
        for (const QByteArray &line : m.split('\n')) {
            QVERIFY2(line.size() < 400 && !line.contains("kkkkkkkk"), line.left(200).constData());
        }
        QCOMPARE(metric(m, "sluice_grpc_overrides_refused_total"), 45.0);
        QVERIFY(peakBounded());
    }

    // The gRPC wire's refusals, each a status a client can act on: an unknown method and a
    // compressed message UNIMPLEMENTED (the latter naming identity), another content-type HTTP
    // 415, a message cut short INVALID_ARGUMENT; a header block of CONTINUATION frames that
    // never ends closes the connection (the client reads its end).
    void wireRefusals()
    {
        const QJsonObject r = attack({QStringLiteral("wire"), QString::number(m_grpcPort)});
        const QByteArray json = QJsonDocument(r).toJson();
        QCOMPARE(r.value(QStringLiteral("ok")).toString(), QStringLiteral("0"));
        QVERIFY2(r.value(QStringLiteral("unknown_method")).toString() == QLatin1String("12"),
                 json.constData());
        QVERIFY2(r.value(QStringLiteral("compressed")).toArray() ==
                     QJsonArray({QStringLiteral("12"), QStringLiteral("identity")}),
                 json.constData());
        QVERIFY2(r.value(QStringLiteral("content_type")).toString() == QLatin1String("415"),
                 json.constData());
        QVERIFY2(r.value(QStringLiteral("half")).toString() == QLatin1String("3"),
                 json.constData());
        QVERIFY2(r.value(QStringLiteral("continuation_closed")).toBool(), json.constData());
        QVERIFY(peakBounded());
    }

    // A connection without a call for --grpc-idle-timeout-ms (3 s here) is told so in a GOAWAY
    // with NO_ERROR (a client such as Envoy opens a new connection for its next call), then
    // closed; not before the timeout, and not with an error code.
    void idleConnectionGoesAway()
    {
        const QJsonObject r = attack({QStringLiteral("idleclose"), QString::number(m_grpcPort)});
        const QByteArray json = QJsonDocument(r).toJson();
        QVERIFY2(r.value(QStringLiteral("goaway")).toBool(), json.constData());
        QVERIFY2(r.value(QStringLiteral("error_code")).toInt(-1) == 0, json.constData());
        QVERIFY2(r.value(QStringLiteral("closed")).toBool(), json.constData());
        const double after = r.value(QStringLiteral("after_s")).toDouble();
        QVERIFY2(after >= 2.5 && after < 10, json.constData());
#ifdef SLUICE_WITH_GRPC
        QVERIFY(Client(m_grpcPort).call().ok()); // a client whose channel went idle calls again
#endif
    }

    // Out of file descriptors: refused through the reserve descriptor, said in /healthz, and
    // accepting again once descriptors are free.
    void outOfDescriptors()
    {
        const qint64 pid = m_serve->pid();
        const int open = test::openDescriptors(pid);
        QVERIFY(open > 0);
        QVERIFY(test::setDescriptorLimit(pid, open + 3));
        QProcess p;
        p.start(QStringLiteral("/usr/bin/python3"),
                {QStringLiteral(SLUICE_SOURCE_DIR "/tests/grpc_hostile.py"), QStringLiteral("idle"),
                 QString::number(m_grpcPort), QStringLiteral("20"), QStringLiteral("127.0.0.6")});
        QVERIFY(p.waitForFinished(20000));
        QVERIFY(test::setDescriptorLimit(pid, 1024));
        QVERIFY(metric(metrics(), "sluice_grpc_connections_refused_total", "out_of_descriptors") >=
                1);
        const QJsonObject degraded = test::httpGet(m_serve->port(), "/healthz").json();
        QCOMPARE(degraded.value(QStringLiteral("status")).toString(), QStringLiteral("degraded"));
        QVERIFY2(degraded.value(QStringLiteral("problems"))
                     .toObject()
                     .value(QStringLiteral("grpc"))
                     .toString()
                     .startsWith(QLatin1String("out of file descriptors")),
                 QJsonDocument(degraded).toJson().constData());
#ifdef SLUICE_WITH_GRPC
        QTRY_VERIFY_WITH_TIMEOUT(Client(m_grpcPort).call().ok(), 5000);
#endif
        QTRY_COMPARE_WITH_TIMEOUT(test::httpGet(m_serve->port(), "/healthz")
                                      .json()
                                      .value(QStringLiteral("status"))
                                      .toString(),
                                  QStringLiteral("ok"), 5000);
    }
};

QTEST_GUILESS_MAIN(TestGrpcHostile)
#include "tst_grpc_hostile.moc"
