// The service's front ends agree: GET /v1/check, gRPC's ShouldRateLimit and POST /json go
// through one admission step, so the same request history gets the same answer on each. For
// every algorithm, a rule with a staged candidate and per-subject overrides (a limit of its
// own, allow, deny) and a shadow rule are asked in lockstep over the three wires, each on a
// subject of its own: the code, the remaining quota, the time to reset and the policy that
// decided (HTTP's RateLimit-Policy, gRPC's current_limit) must be the same, and the staged
// candidate must decide each front end's requests alike. The service runs in this process on
// the fixture's Redis; the clients are real ones over sockets (a grpc++ stub generated from the
// service's .proto files, plain HTTP/1.1).

#include "servefixture.h"
#include "testredis.h"

#include "app/serve/checkservice.h"
#include "app/serve/grpcservice.h"
#include "core/limiter/headers.h"
#include "core/rules/codec.h"
#include "core/rules/override.h"
#include "core/rules/rulestore.h"

#include "envoy/service/ratelimit/v3/rls.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <QElapsedTimer>
#include <QJsonArray>
#include <QMap>
#include <QMutex>
#include <QTest>

#include <future>

using namespace sluice;
using namespace sluice::serve;
using namespace Qt::StringLiterals;

namespace {

namespace rls = envoy::service::ratelimit::v3;
using Unit = rls::RateLimitResponse::RateLimit::Unit;

// Per algorithm: the rule (a whole unit for the buckets, 30 s for the windows) and its override
// limit (the other way round), so that both forms of current_limit are seen.
QByteArray rulesText()
{
    QByteArray rules;
    for (const Algorithm a : algorithm::all) {
        const QByteArray name = algorithm::name(a).toUtf8();
        const bool window = algorithm::isWindow(a);
        const QByteArray params =
            window ? R"("limit": 3, "window": "30s")" : R"("rate": "1/m", "burst": 3)";
        const QByteArray overrideLimit =
            window ? R"({"limit": 2, "window": "1m"})" : R"({"rate": "2/30s", "burst": 2})";
        rules += "{\"id\": \"agree." + name + "\", \"scope\": \"user\", \"algorithm\": \"" + name +
                 "\", " + params + ", \"key_prefix\": \"" + test::keyPrefix() +
                 "\", \"overrides\": [{\"match\": \"lim-*\", \"limit\": " + overrideLimit +
                 "}, {\"match\": \"ok-*\", \"allow\": true}, {\"match\": \"no-*\", \"deny\": "
                 "true}]},\n";
        rules += "{\"id\": \"agree.shadow_" + name +
                 "\", \"scope\": \"user\", \"shadow\": true, \"algorithm\": \"" + name + "\", " +
                 (window ? R"("limit": 1, "window": "30s")" : R"("rate": "1/m", "burst": 1)") +
                 ", \"key_prefix\": \"" + test::keyPrefix() + "\"},\n";
    }
    rules.chop(2);
    return "{\"version\": 1, \"rules\": [" + rules + "]}";
}

// The rules, each `agree.<algorithm>` with a staged candidate of half its capacity (as
// RuleStore::shadowCandidates makes them).
RuleSet ruleSet()
{
    const rules::Loaded l = rules::parseJson(rulesText(), u"agree.json"_s);
    if (!l.ok()) {
        qFatal("bad test rules: %s", qPrintable(l.errors.first().toString()));
    }
    RuleSet set = l.set;
    for (const Rule &r : l.set.rules) {
        if (r.shadow) {
            continue;
        }
        Rule c = r;
        c.id = rules::RuleStore::stagedId(r.id);
        c.shadow = true;
        c.overrides.clear();
        if (algorithm::isWindow(c.algorithm)) {
            c.limit = 1;
        } else {
            c.burst = 1;
        }
        set.staged.push_back(c);
    }
    return set;
}

// One answer, as each wire says it.
struct Answer
{
    bool allowed = false;
    qint64 remaining = -1;
    qint64 resetMs = -1;
    QString name; // gRPC / JSON current_limit: name, requests_per_unit, unit
    qint64 perUnit = -1;
    int unit = -1;
    QByteArray policyHeader; // HTTP only
};

// The unit's seconds, 0 for UNKNOWN.
qint64 unitSeconds(int unit)
{
    static const QMap<int, qint64> s{{rls::RateLimitResponse::RateLimit::SECOND, 1},
                                     {rls::RateLimitResponse::RateLimit::MINUTE, 60},
                                     {rls::RateLimitResponse::RateLimit::HOUR, 3600},
                                     {rls::RateLimitResponse::RateLimit::DAY, 86400}};
    return s.value(unit, 0);
}

// What current_limit must say of `p` (FORMATS.md "The gRPC API").
void expectLimit(const Answer &a, const QString &ruleId, const Policy &p, const char *wire)
{
    const bool window = algorithm::isWindow(p.algorithm);
    const qint64 spanUs = window ? p.windowUs : p.rate.periodUs;
    const qint64 seconds = unitSeconds(a.unit);
    const QByteArray where = QByteArray(wire) + " " + ruleId.toUtf8() + ": " + a.name.toUtf8();
    if (seconds != 0) {
        QVERIFY2(seconds * duration::usPerSecond == spanUs, where.constData());
        QVERIFY2(a.perUnit == (window ? p.limit : p.rate.count), where.constData());
        QVERIFY2(a.name == ruleId, where.constData());
    } else {
        for (const qint64 unit : {duration::usPerSecond, duration::usPerMinute, duration::usPerHour,
                                  duration::usPerDay}) {
            QVERIFY2(spanUs != unit, where.constData());
        }
        QVERIFY2(a.perUnit == p.capacity(), where.constData());
        QVERIFY2(a.name == ruleId + u": "_s + p.describe(), where.constData());
    }
}

class Client
{
public:
    explicit Client(quint16 port)
        : m_stub(rls::RateLimitService::NewStub(grpc::CreateChannel(
              "127.0.0.1:" + std::to_string(port), grpc::InsecureChannelCredentials())))
    {}
    Answer ask(const QString &ruleId, const QByteArray &subject, rls::RateLimitResponse *full)
    {
        rls::RateLimitRequest r;
        const qsizetype dot = ruleId.indexOf(u'.');
        r.set_domain(ruleId.left(dot).toStdString());
        auto *e = r.add_descriptors()->add_entries();
        e->set_key(ruleId.mid(dot + 1).toStdString());
        e->set_value(subject.toStdString());
        grpc::ClientContext context;
        context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
        // The service's gRPC port accepts its connections on this thread's event loop (its
        // gate): the blocking call goes on another thread while this one keeps the loop turning.
        auto call = std::async(std::launch::async,
                               [&] { return m_stub->ShouldRateLimit(&context, r, full); });
        while (call.wait_for(std::chrono::milliseconds(1)) != std::future_status::ready) {
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        }
        const grpc::Status status = call.get();
        Answer a;
        if (!status.ok() || full->statuses_size() != 1) {
            return a;
        }
        const auto &s = full->statuses(0);
        a.allowed = s.code() == rls::RateLimitResponse::OK;
        a.remaining = s.limit_remaining();
        a.resetMs = s.duration_until_reset().seconds() * 1000 +
                    s.duration_until_reset().nanos() / 1'000'000;
        a.name = QString::fromStdString(s.current_limit().name());
        a.perUnit = s.current_limit().requests_per_unit();
        a.unit = int(s.current_limit().unit());
        return a;
    }

private:
    std::unique_ptr<rls::RateLimitService::Stub> m_stub;
};

Answer askHttp(quint16 port, const QString &ruleId, const QByteArray &subject)
{
    const test::HttpReply r =
        test::inProcessGet(port, "/v1/check?rule=" + ruleId.toUtf8() + "&subject=" + subject);
    Answer a;
    a.allowed = r.status == 200;
    a.remaining = r.json().value(u"remaining"_s).toInteger(-1);
    a.resetMs = r.json().value(u"reset_after_ms"_s).toInteger(-1);
    a.policyHeader = r.header("RateLimit-Policy");
    return a;
}

Answer askJson(quint16 port, const QString &ruleId, const QByteArray &subject)
{
    const qsizetype dot = ruleId.indexOf(u'.');
    const QByteArray body = "{\"domain\": \"" + ruleId.left(dot).toUtf8() +
                            "\", \"descriptors\": [{\"entries\": [{\"key\": \"" +
                            ruleId.mid(dot + 1).toUtf8() + "\", \"value\": \"" + subject +
                            "\"}]}]}";
    const test::HttpReply r = test::httpRequest(
        port,
        "POST /json HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: " +
            QByteArray::number(body.size()) + "\r\n\r\n" + body,
        true);
    const QJsonObject s = r.json().value(u"statuses"_s).toArray().at(0).toObject();
    const QJsonObject limit = s.value(u"currentLimit"_s).toObject();
    Answer a;
    a.allowed = s.value(u"code"_s).toString() == u"OK"_s;
    a.remaining = s.value(u"limitRemaining"_s).toInteger(-1);
    QString reset = s.value(u"durationUntilReset"_s).toString();
    reset.chop(1); // "12.345s"
    a.resetMs = qRound64(reset.toDouble() * 1000);
    a.name = limit.value(u"name"_s).toString();
    a.perUnit = limit.value(u"requestsPerUnit"_s).toInteger(-1);
    static const QMap<QString, int> units{
        {u"UNKNOWN"_s, 0}, {u"SECOND"_s, 1}, {u"MINUTE"_s, 2}, {u"HOUR"_s, 3}, {u"DAY"_s, 4}};
    a.unit = units.value(limit.value(u"unit"_s).toString(), -1);
    return a;
}

} // namespace

class TestFrontendsAgree : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { test::cleanup(); }

    void everyAlgorithmEveryCase()
    {
        const RuleSet set = ruleSet();
        // The staged candidates' decisions, by rule and the wire of the subject (its suffix).
        QMutex mutex;
        QMap<QString, int> recorded;
        CheckService::Options o;
        o.endpoint = test::redisEndpoint();
        o.denyCache = true;
        o.record = [&](const QString &ruleId, const QByteArray &subject, const Decision &d, bool) {
            QMutexLocker l(&mutex);
            recorded[ruleId + u' ' + QString::fromUtf8(subject.right(2)) +
                     (d.allowed ? u" allowed"_s : u" denied"_s)] += 1;
        };
        GrpcService *grpcService = nullptr;
        o.json = [&grpcService](const QByteArray &body, CheckService::Options::JsonReply reply) {
            grpcService->handleJson(body, reply);
        };
        CheckService service(o);
        service.setRules(set, 1, u"agree.json"_s);
        QVERIFY(service.listen(QHostAddress::LocalHost, 0).ok());
        GrpcService grpc(service, GrpcService::Options{});
        grpcService = &grpc;
        const auto grpcPort = grpc.listen(QHostAddress::LocalHost, 0);
        QVERIFY(grpcPort.ok());
        Client client(*grpcPort);
        const quint16 port = service.port();

        for (const Rule &rule : set.rules) {
            // Subjects: the rule's own limit, an override limit, allow, deny. One more request
            // than the capacity: allowed, then denied (a shadow rule's denial: allowed).
            for (const QByteArray prefix : {"u-", "lim-", "ok-", "no-"}) {
                if (rule.shadow && prefix != "u-") {
                    continue;
                }
                const Override *ov = nullptr;
                for (const Override &x : rule.overrides) {
                    if (x.pattern.startsWith(QLatin1String(prefix))) {
                        ov = &x;
                    }
                }
                const Policy policy = ov != nullptr && ov->action == Override::Action::Limit
                                          ? rules::overridePolicy(rule, *ov)
                                          : rule.policy();
                for (qint64 i = 0; i <= policy.capacity(); ++i) {
                    QElapsedTimer t;
                    t.start();
                    const Answer h = askHttp(port, rule.id, prefix + "-h");
                    rls::RateLimitResponse full;
                    const Answer g = client.ask(rule.id, prefix + "-g", &full);
                    const Answer j = askJson(port, rule.id, prefix + "-j");
                    const qint64 apart = t.elapsed() + 250; // the requests are not simultaneous
                    const QByteArray where = rule.id.toUtf8() + ' ' + prefix + " request " +
                                             QByteArray::number(i + 1) + ": " +
                                             QByteArray::fromStdString(full.ShortDebugString());
                    const char *at = where.constData();
                    QVERIFY2(h.allowed == g.allowed && g.allowed == j.allowed, at);
                    QVERIFY2(h.allowed == (rule.shadow || prefix == "ok-" ||
                                           (prefix != "no-" && i < policy.capacity())),
                             at);
                    QVERIFY2(h.remaining == g.remaining && g.remaining == j.remaining, at);
                    QVERIFY2(std::abs(h.resetMs - g.resetMs) <= apart, at);
                    QVERIFY2(std::abs(g.resetMs - j.resetMs) <= apart, at);
                    // The policy that decided, on each wire: HTTP's RateLimit-Policy, gRPC's
                    // and JSON's current_limit.
                    QCOMPARE(h.policyHeader, headers::policyHeaderValue(policy));
                    expectLimit(g, rule.id, policy, "grpc");
                    expectLimit(j, rule.id, policy, "json");
                    if (QTest::currentTestFailed()) {
                        return;
                    }
                }
            }
        }
        // Each staged candidate decided every front end's requests alike (and some it denied).
        QMutexLocker l(&mutex);
        for (const Rule &rule : set.staged) {
            for (const char *verdict : {" allowed", " denied"}) {
                const int http = recorded.value(rule.id + u" -h"_s + QLatin1String(verdict));
                QVERIFY2(http > 0, qPrintable(rule.id + QLatin1String(verdict)));
                QCOMPARE(recorded.value(rule.id + u" -g"_s + QLatin1String(verdict)), http);
                QCOMPARE(recorded.value(rule.id + u" -j"_s + QLatin1String(verdict)), http);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestFrontendsAgree)
#include "tst_frontends_agree.moc"
