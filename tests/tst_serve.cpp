// The HTTP check service: status codes, headers with exact values, the JSON,
// Retry-After rounding, legacy headers, shadow rules, statistics, every bad input of the issue
// (and the service answering afterwards), live reload from the RuleStore, and Redis stopped
// and restarted under a running service (each on_redis_error mode, then recovery).
//
// The service runs in process; the client below spins the event loop while it waits, so the
// service answers meanwhile. The CLI runs end to end in tst_serve_nginx.

#include "app/serve/checkservice.h"

#include "core/limiter/headers.h"
#include "core/rules/codec.h"
#include "core/rules/rulestore.h"
#include "core/stats/statsrecorder.h"
#include "inprocessservice.h"
#include "ownredis.h"
#include "servefixture.h"
#include "testkit.h"
#include "testredis.h"

#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTcpSocket>
#include <QTest>

using namespace sluice;
using namespace sluice::serve;
using namespace sluice::headers;

namespace {

using HttpResponse = test::HttpReply;
using test::httpExchange;
using test::parseHttpReply;

// A keep-alive connection to the service; false if it did not connect.
bool connectTo(QTcpSocket &s, quint16 port)
{
    s.connectToHost(QHostAddress::LocalHost, port);
    return QTest::qWaitFor([&] { return s.state() == QAbstractSocket::ConnectedState; });
}

HttpResponse get(quint16 port, const QByteArray &target)
{
    return httpExchange(port, "GET " + target + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
}

QByteArray ruleFile(const QByteArray &rulesJson)
{
    return "{\"version\": 1, \"rules\": [" + rulesJson + "]}";
}

RuleSet parseRules(const QByteArray &rulesJson)
{
    QByteArray text = ruleFile(rulesJson);
    text.replace("PREFIX", test::keyPrefix());
    const rules::Loaded l = rules::parseJson(text, QStringLiteral("test.json"));
    if (!l.ok()) {
        qFatal("bad test rules: %s", qPrintable(l.errors.first().toString()));
    }
    return l.set;
}

const QByteArray standardRules =
    R"({"id": "fw", "algorithm": "fixed_window", "limit": 3, "window": "10s", "scope": "ip",
        "key_prefix": "PREFIX"},
       {"scope": "global", "id": "tb", "algorithm": "token_bucket", "rate": "2/3s", "burst": 1,
        "key_prefix": "PREFIX"},
       {"scope": "global", "id": "shadowed", "algorithm": "fixed_window", "limit": 1, "window": "1m",
        "shadow": true, "key_prefix": "PREFIX"},
       {"scope": "global", "id": "off", "algorithm": "fixed_window", "limit": 1, "window": "1m",
        "enabled": false, "key_prefix": "PREFIX"})";

} // namespace

class TestServe : public QObject
{
    Q_OBJECT

    std::unique_ptr<CheckService> makeService(const RuleSet &set, bool legacy = false,
                                              Endpoint endpoint = test::redisEndpoint(),
                                              bool denyCache = true)
    {
        CheckService::Options o;
        o.endpoint = endpoint;
        o.legacyHeaders = legacy;
        o.denyCache = denyCache;
        o.record = [this](const QString &rule, const QByteArray &subject, const Decision &d,
                          bool shadow) { m_recorder.record(rule, subject, d, shadow); };
        auto s = std::make_unique<CheckService>(o);
        s->setRules(set, 7, QStringLiteral("test.json"));
        auto port = s->listen(QHostAddress::LocalHost, 0);
        if (!port) {
            qFatal("listen: %s", qPrintable(port.error().message));
        }
        return s;
    }

    stats::StatsRecorder m_recorder;

private Q_SLOTS:
    void init() { test::cleanup(); }

    void secondsRoundUp_data()
    {
        test::columns<qint64, qint64>("ms", "seconds");
        QTest::newRow("0") << qint64(0) << qint64(0);
        QTest::newRow("-1") << qint64(-1) << qint64(0);
        QTest::newRow("1") << qint64(1) << qint64(1);
        QTest::newRow("999") << qint64(999) << qint64(1);
        QTest::newRow("1000") << qint64(1000) << qint64(1);
        QTest::newRow("1001") << qint64(1001) << qint64(2);
        QTest::newRow("59999") << qint64(59999) << qint64(60);
    }
    void secondsRoundUp()
    {
        QFETCH(qint64, ms);
        QFETCH(qint64, seconds);
        QCOMPARE(ceilSeconds(ms), seconds);
    }

    void headerValues()
    {
        // Exact header values for a known decision, per algorithm family.
        Policy w = Policy::window(Algorithm::SlidingLog, 100, 60'000'000, QStringLiteral("w"));
        QCOMPARE(policyHeaderValue(w), QByteArray("\"w\";q=100;w=60"));
        Policy g = Policy::bucket(Algorithm::Gcra, Rate{10, 1'000'000}, 4, QStringLiteral("g"));
        QCOMPARE(policyHeaderValue(g), QByteArray("\"g\";q=5;w=1")); // 5 x 100 ms, rounded up
        Policy t =
            Policy::bucket(Algorithm::TokenBucket, Rate{1, 60'000'000}, 30, QStringLiteral("t"));
        QCOMPARE(policyHeaderValue(t), QByteArray("\"t\";q=30;w=1800"));
        const Decision denied{false, 100, 0, 1500, 42'001, 0};
        const HeaderList h = rateLimitHeaders(w, policyHeaderValue(w), denied, true);
        QMap<QByteArray, QByteArray> m;
        for (const auto &[k, v] : h) {
            m.insert(k, v);
        }
        QCOMPARE(m.value("RateLimit"), QByteArray("\"w\";r=0;t=43"));
        QCOMPARE(m.value("Retry-After"), QByteArray("2"));
        QCOMPARE(m.value("RateLimit-Limit"), QByteArray("100"));
        QCOMPARE(m.value("RateLimit-Remaining"), QByteArray("0"));
        QCOMPARE(m.value("RateLimit-Reset"), QByteArray("43"));
        // Cost above capacity: denied for good, no Retry-After.
        const Decision never{false, 100, 0, -1, 0, 0};
        for (const auto &[k, v] : rateLimitHeaders(w, policyHeaderValue(w), never, false)) {
            QVERIFY(k != "Retry-After");
        }
    }

    void allowedThenDenied()
    {
        auto service = makeService(parseRules(standardRules));
        const quint16 port = service->port();
        for (int i = 1; i <= 3; ++i) {
            const HttpResponse r = get(port, "/v1/check?rule=fw&subject=1.2.3.4");
            QCOMPARE(r.status, 200);
            QCOMPARE(r.header("Content-Type"), QByteArray("application/json"));
            QCOMPARE(r.header("RateLimit-Policy"), QByteArray("\"fw\";q=3;w=10"));
            // A fresh 10 s window: reset_after is just under 10 s, rounded up to 10.
            QCOMPARE(r.header("RateLimit"),
                     QByteArray("\"fw\";r=") + QByteArray::number(3 - i) + ";t=10");
            QVERIFY(!r.headers.contains("retry-after"));
            QVERIFY(!r.headers.contains("ratelimit-limit")); // legacy headers are opt-in
            QCOMPARE(r.header("Sluice-Decision"), QByteArray("allowed"));
            QCOMPARE(r.header("Sluice-Source"), QByteArray("redis"));
            const QJsonObject j = r.json();
            QCOMPARE(j.value(QLatin1String("allowed")).toBool(), true);
            QCOMPARE(j.value(QLatin1String("rule")).toString(), QStringLiteral("fw"));
            QCOMPARE(j.value(QLatin1String("subject")).toString(), QStringLiteral("1.2.3.4"));
            QCOMPARE(j.value(QLatin1String("limit")).toInteger(), 3);
            QCOMPARE(j.value(QLatin1String("remaining")).toInteger(), 3 - i);
            QCOMPARE(j.value(QLatin1String("retry_after_ms")).toInteger(), -1);
            QCOMPARE(j.value(QLatin1String("cost")).toInteger(), 1);
            QCOMPARE(j.value(QLatin1String("source")).toString(), QStringLiteral("redis"));
            QCOMPARE(j.value(QLatin1String("key")).toString(),
                     QString::fromUtf8(test::keyPrefix()) + QStringLiteral("fw:{1.2.3.4}"));
        }
        const HttpResponse denied = get(port, "/v1/check?rule=fw&subject=1.2.3.4");
        QCOMPARE(denied.status, 429);
        const QJsonObject j = denied.json();
        QCOMPARE(j.value(QLatin1String("allowed")).toBool(), false);
        QCOMPARE(j.value(QLatin1String("remaining")).toInteger(), 0);
        const qint64 retryMs = j.value(QLatin1String("retry_after_ms")).toInteger();
        QVERIFY2(retryMs > 9000 && retryMs <= 10000, qPrintable(QString::number(retryMs)));
        QCOMPARE(denied.header("Retry-After"), QByteArray("10"));
        QCOMPARE(denied.header("RateLimit"), QByteArray("\"fw\";r=0;t=10"));
        QCOMPARE(denied.header("Sluice-Decision"), QByteArray("denied"));
        // Another subject has its own state; the key really is in Redis, with a TTL.
        QCOMPARE(get(port, "/v1/check?rule=fw&subject=5.6.7.8").status, 200);
        auto c = test::connect();
        const qint64 ttl = test::pttl(c, test::keyPrefix() + "fw:{1.2.3.4}");
        QVERIFY2(ttl > 0 && ttl <= 10000, qPrintable(QString::number(ttl)));
        // Every decision was recorded for the statistics: 4 on 1.2.3.4, 1 on 5.6.7.8.
        const stats::Counts totals = m_recorder.totals();
        QVERIFY(totals.allowed >= 4);
        QVERIFY(totals.denied >= 1);
    }

    void retryAfterIsRoundedUp()
    {
        // token_bucket 2/3s, capacity 1: a token every 1.5 s. The second request waits about
        // 1.5 s: Retry-After 2, never 1.
        auto service = makeService(parseRules(standardRules));
        QCOMPARE(get(service->port(), "/v1/check?rule=tb&subject=u").status, 200);
        const HttpResponse r = get(service->port(), "/v1/check?rule=tb&subject=u");
        QCOMPARE(r.status, 429);
        const qint64 retryMs = r.json().value(QLatin1String("retry_after_ms")).toInteger();
        QVERIFY2(retryMs > 1000 && retryMs <= 1500, qPrintable(QString::number(retryMs)));
        QCOMPARE(r.header("Retry-After"), QByteArray("2"));
        QCOMPARE(r.header("RateLimit-Policy"), QByteArray("\"tb\";q=1;w=2"));
    }

    void legacyHeaders()
    {
        auto service = makeService(parseRules(standardRules), true);
        const HttpResponse r = get(service->port(), "/v1/check?rule=fw&subject=legacy");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("RateLimit-Limit"), QByteArray("3"));
        QCOMPARE(r.header("RateLimit-Remaining"), QByteArray("2"));
        QCOMPARE(r.header("RateLimit-Reset"), QByteArray("10"));
        QCOMPARE(r.header("RateLimit"), QByteArray("\"fw\";r=2;t=10")); // draft-10 too
    }

    void costAndPeek()
    {
        auto service = makeService(parseRules(standardRules));
        const quint16 port = service->port();
        HttpResponse r = get(port, "/v1/check?rule=fw&subject=c&cost=2");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QLatin1String("remaining")).toInteger(), 1);
        r = get(port, "/v1/check?rule=fw&subject=c&cost=0"); // a peek consumes nothing
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QLatin1String("remaining")).toInteger(), 1);
        r = get(port, "/v1/check?rule=fw&subject=c&cost=2");
        QCOMPARE(r.status, 429);
        // Percent-encoding and '+' decode: the subject is "a b&c".
        r = get(port, "/v1/check?rule=fw&subject=a+b%26c");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.json().value(QLatin1String("subject")).toString(), QStringLiteral("a b&c"));
    }

    void shadowAndDisabledRules()
    {
        auto service = makeService(parseRules(standardRules));
        const quint16 port = service->port();
        HttpResponse r = get(port, "/v1/check?rule=shadowed&subject=s");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Sluice-Decision"), QByteArray("allowed"));
        r = get(port, "/v1/check?rule=shadowed&subject=s");
        QCOMPARE(r.status, 200); // would have been 429
        QCOMPARE(r.header("Sluice-Decision"), QByteArray("shadow-denied"));
        QVERIFY(!r.headers.contains("retry-after"));
        QCOMPARE(r.json().value(QLatin1String("allowed")).toBool(), true);
        QCOMPARE(r.json().value(QLatin1String("shadow")).toBool(), true);
        QCOMPARE(r.json().value(QLatin1String("shadow_denied")).toBool(), true);
        QCOMPARE(r.header("RateLimit"), QByteArray("\"shadowed\";r=0;t=60"));
        QVERIFY(m_recorder.totals().shadowDenied >= 1);

        r = get(port, "/v1/check?rule=off&subject=s");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Sluice-Decision"), QByteArray("not-limited"));
    }

    void authEndpoint()
    {
        // nginx auth_request understands 2xx / 401 / 403 only: denied is 403 there. The
        // subject may come in the Sluice-Subject header; none at all is not limited.
        auto service = makeService(parseRules(standardRules));
        const quint16 port = service->port();
        const QByteArray req =
            "GET /v1/auth?rule=fw HTTP/1.1\r\nHost: x\r\nSluice-Subject: 9.9.9.9\r\n\r\n";
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(httpExchange(port, req).status, 200);
        }
        const HttpResponse denied = httpExchange(port, req);
        QCOMPARE(denied.status, 403);
        QCOMPARE(denied.header("Retry-After"), QByteArray("10"));
        QCOMPARE(denied.json().value(QLatin1String("subject")).toString(),
                 QStringLiteral("9.9.9.9"));
        const HttpResponse none = get(port, "/v1/auth?rule=fw");
        QCOMPARE(none.status, 200);
        QCOMPARE(none.header("Sluice-Decision"), QByteArray("not-limited"));
    }

    void keepAliveConnection()
    {
        // Several requests on one connection, each answered in order.
        auto service = makeService(parseRules(standardRules));
        QTcpSocket s;
        QVERIFY(connectTo(s, service->port()));
        QByteArray data;
        connect(&s, &QTcpSocket::readyRead, &s, [&] { data += s.readAll(); });
        for (int i = 1; i <= 4; ++i) {
            data.clear();
            s.write("GET /v1/check?rule=fw&subject=ka HTTP/1.1\r\nHost: x\r\n\r\n");
            HttpResponse r;
            QVERIFY(QTest::qWaitFor([&] { return parseHttpReply(data, &r); }, 5000));
            QCOMPARE(r.status, i <= 3 ? 200 : 429);
        }
        QCOMPARE(s.state(), QAbstractSocket::ConnectedState);
    }

    // HTTP/1.1 pipelining: requests sent back to back in one write, without waiting, are all
    // answered, in the order sent, whether their answers come from Redis (decided by the
    // workers, in any order) or at once (an unknown rule, /healthz). Qt HTTP Server 6.4 answered
    // only the last request of such a batch.
    void pipelinedRequestsAreAllAnsweredInOrder()
    {
        auto service = makeService(parseRules(standardRules));
        QTcpSocket s;
        QVERIFY(connectTo(s, service->port()));
        QByteArray batch;
        QList<QByteArray> expected; // the subject each answer is about; "" for the others
        for (int i = 0; i < 24; ++i) {
            const QByteArray subject = "pipe" + QByteArray::number(i);
            if (i % 8 == 3) {
                batch +=
                    "GET /v1/check?rule=nope&subject=" + subject + " HTTP/1.1\r\nHost: x\r\n\r\n";
                expected << QByteArray();
            } else if (i % 8 == 6) {
                batch += "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
                expected << QByteArray();
            } else {
                batch +=
                    "GET /v1/check?rule=fw&subject=" + subject + " HTTP/1.1\r\nHost: x\r\n\r\n";
                expected << subject;
            }
        }
        s.write(batch);
        QByteArray data;
        QList<HttpResponse> answers;
        connect(&s, &QTcpSocket::readyRead, &s, [&] {
            data += s.readAll();
            HttpResponse r;
            while (parseHttpReply(data, &r)) {
                answers << r;
                data.remove(0, data.indexOf("\r\n\r\n") + 4 + r.body.size());
                r = HttpResponse{};
            }
        });
        QVERIFY(QTest::qWaitFor([&] { return answers.size() >= expected.size(); }, 10000));
        QCOMPARE(answers.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i) {
            const QJsonObject j = answers[i].json();
            if (i % 8 == 3) {
                QCOMPARE(answers[i].status, 404);
            } else if (i % 8 == 6) {
                QCOMPARE(answers[i].status, 200);
                QVERIFY(j.contains(QLatin1String("redis")));
            } else {
                QCOMPARE(answers[i].status, 200);
                QCOMPARE(j.value(QLatin1String("subject")).toString().toUtf8(), expected[i]);
            }
        }
        QCOMPARE(s.state(), QAbstractSocket::ConnectedState);
    }

    // The deny cache: a subject Redis denied with nothing left is answered
    // in-process until its retry, and the answer is what Redis says at that moment: for every
    // algorithm, the cached answer's headers equal those of a service without the cache asking
    // Redis right after (when both fall in the same second: the headers are whole seconds), its
    // limit and remaining are Redis's, and its times lie between Redis's answer after it and
    // the first denial (never earlier than Redis would say, never later than what it repeats).
    void denyCacheAnswersAsRedisWould()
    {
        const RuleSet set = parseRules(
            R"({"scope": "ip", "id": "fw", "algorithm": "fixed_window", "limit": 1, "window": "1h",
                "key_prefix": "PREFIX"},
               {"scope": "ip", "id": "sl", "algorithm": "sliding_log", "limit": 1, "window": "1h",
                "key_prefix": "PREFIX"},
               {"scope": "ip", "id": "sc", "algorithm": "sliding_counter", "limit": 1, "window": "1h",
                "key_prefix": "PREFIX"},
               {"scope": "ip", "id": "tb", "algorithm": "token_bucket", "rate": "1/1h", "burst": 1,
                "key_prefix": "PREFIX"},
               {"scope": "ip", "id": "lb", "algorithm": "leaky_bucket", "rate": "1/1h", "burst": 1,
                "key_prefix": "PREFIX"},
               {"scope": "ip", "id": "gc", "algorithm": "gcra", "rate": "1/1h", "burst": 1,
                "key_prefix": "PREFIX"})");
        auto cached = makeService(set, true);
        auto plain = makeService(set, true, test::redisEndpoint(), false);
        const QList<QByteArray> timeHeaders{"RateLimit", "Retry-After", "RateLimit-Reset"};
        for (const char *id : {"fw", "sl", "sc", "tb", "lb", "gc"}) {
            const QByteArray target = "/v1/check?rule=" + QByteArray(id) + "&subject=dc";
            HttpResponse first;
            for (int i = 0; i < 5 && first.status != 429; ++i) {
                first = get(cached->port(), target);
                QCOMPARE(first.header("Sluice-Source"), QByteArray("redis"));
            }
            QCOMPARE(first.status, 429);
            QCOMPARE(first.json().value(QLatin1String("remaining")).toInteger(), 0);
            bool sameSecond = false;
            for (int attempt = 0; attempt < 10 && !sameSecond; ++attempt) {
                const HttpResponse c = get(cached->port(), target);
                const HttpResponse r = get(plain->port(), target);
                QCOMPARE(c.status, 429);
                QCOMPARE(c.header("Sluice-Source"), QByteArray("cache"));
                QCOMPARE(r.header("Sluice-Source"), QByteArray("redis"));
                QCOMPARE(c.header("Sluice-Decision"), QByteArray("denied"));
                QCOMPARE(c.header("RateLimit-Policy"), r.header("RateLimit-Policy"));
                QCOMPARE(c.header("RateLimit-Limit"), r.header("RateLimit-Limit"));
                QCOMPARE(c.header("RateLimit-Remaining"), r.header("RateLimit-Remaining"));
                const QJsonObject cj = c.json();
                const QJsonObject rj = r.json();
                const QJsonObject fj = first.json();
                for (const char *field : {"allowed", "limit", "remaining", "delay_ms", "key"}) {
                    QCOMPARE(cj.value(QLatin1String(field)), rj.value(QLatin1String(field)));
                }
                for (const char *field : {"retry_after_ms", "reset_after_ms"}) {
                    const qint64 cv = cj.value(QLatin1String(field)).toInteger();
                    QVERIFY2(cv >= rj.value(QLatin1String(field)).toInteger() &&
                                 cv <= fj.value(QLatin1String(field)).toInteger(),
                             qPrintable(QStringLiteral("%1 %2: cache %3, redis after %4, first %5")
                                            .arg(QLatin1String(id), QLatin1String(field))
                                            .arg(cv)
                                            .arg(rj.value(QLatin1String(field)).toInteger())
                                            .arg(fj.value(QLatin1String(field)).toInteger())));
                }
                sameSecond =
                    ceilSeconds(cj.value(QLatin1String("retry_after_ms")).toInteger()) ==
                        ceilSeconds(rj.value(QLatin1String("retry_after_ms")).toInteger()) &&
                    ceilSeconds(cj.value(QLatin1String("reset_after_ms")).toInteger()) ==
                        ceilSeconds(rj.value(QLatin1String("reset_after_ms")).toInteger());
                if (sameSecond) {
                    for (const QByteArray &h : timeHeaders) {
                        QCOMPARE(c.header(h.constData()), r.header(h.constData()));
                    }
                }
            }
            QVERIFY2(sameSecond, id);
        }
        const QJsonObject decisions =
            get(cached->port(), "/healthz").json().value(QLatin1String("decisions")).toObject();
        QVERIFY(decisions.value(QLatin1String("deny_cache")).toInteger() >= 6);
    }

    // The first request after the retry time goes to Redis (and is admitted there); a shadow
    // rule's denials, other costs and peeks always do.
    void denyCacheEndsAtTheRetryTime()
    {
        const RuleSet set = parseRules(
            R"({"scope": "ip", "id": "w", "algorithm": "fixed_window", "limit": 2, "window": "1s",
                "key_prefix": "PREFIX"},
               {"scope": "ip", "id": "s", "algorithm": "fixed_window", "limit": 1, "window": "1h",
                "shadow": true, "key_prefix": "PREFIX"})");
        auto service = makeService(set);
        const quint16 port = service->port();
        const QByteArray target = "/v1/check?rule=w&subject=t";
        QCOMPARE(get(port, target).status, 200);
        QCOMPARE(get(port, target + "&cost=1").status, 200);
        const HttpResponse denied = get(port, target);
        QCOMPARE(denied.status, 429);
        QCOMPARE(denied.header("Sluice-Source"), QByteArray("redis"));
        const HttpResponse again = get(port, target);
        QCOMPARE(again.status, 429);
        QCOMPARE(again.header("Sluice-Source"), QByteArray("cache"));
        // Other costs and a peek are Redis's to answer.
        QCOMPARE(get(port, target + "&cost=2").header("Sluice-Source"), QByteArray("redis"));
        QCOMPARE(get(port, target + "&cost=0").header("Sluice-Source"), QByteArray("redis"));
        QTest::qWait(int(again.json().value(QLatin1String("retry_after_ms")).toInteger()) + 20);
        const HttpResponse after = get(port, target);
        QCOMPARE(after.status, 200);
        QCOMPARE(after.header("Sluice-Source"), QByteArray("redis"));

        const QByteArray shadow = "/v1/check?rule=s&subject=t";
        QCOMPARE(get(port, shadow).header("Sluice-Decision"), QByteArray("allowed"));
        for (int i = 0; i < 3; ++i) {
            const HttpResponse r = get(port, shadow);
            QCOMPARE(r.status, 200);
            QCOMPARE(r.header("Sluice-Decision"), QByteArray("shadow-denied"));
            QCOMPARE(r.header("Sluice-Source"), QByteArray("redis"));
        }
    }

    void badInput_data()
    {
        test::columns<QByteArray, int>("request", "status");
        QTest::addColumn<QString>("mentions"); // in the JSON message
        auto row = [](const char *name, const QByteArray &target, int status, const char *m) {
            QTest::newRow(name) << QByteArray("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n")
                                << status << QString::fromLatin1(m);
        };
        row("no rule", "/v1/check?subject=a", 400, "'rule' is required");
        row("empty rule", "/v1/check?rule=&subject=a", 400, "'rule' is required");
        row("no subject", "/v1/check?rule=fw", 400, "'subject' is required");
        row("empty subject", "/v1/check?rule=fw&subject=", 400, "'subject' is empty");
        row("unknown rule", "/v1/check?rule=nope&subject=a", 404,
            "rule 'nope' is not served (it has: ");
        row("negative cost", "/v1/check?rule=fw&subject=a&cost=-1", 400, "'cost' is '-1'");
        row("fractional cost", "/v1/check?rule=fw&subject=a&cost=1.5", 400, "'cost' is '1.5'");
        row("text cost", "/v1/check?rule=fw&subject=a&cost=lots", 400, "'cost' is 'lots'");
        row("huge cost", "/v1/check?rule=fw&subject=a&cost=99999999999999999999999", 400,
            "'cost' is '99999999999999999999999'");
        row("cost above capacity", "/v1/check?rule=fw&subject=a&cost=4", 400,
            "above 3, the capacity of rule 'fw'");
        row("unknown parameter", "/v1/check?rule=fw&subject=a&sort=1", 400,
            "unknown parameter 'sort'");
        row("repeated parameter", "/v1/check?rule=fw&rule=tb&subject=a", 400,
            "'rule' is given twice");
        row("unknown path", "/v2/check?rule=fw&subject=a", 404, "no such endpoint: /v2/check");
        QTest::newRow("POST") << QByteArray("POST /v1/check?rule=fw&subject=a HTTP/1.1\r\nHost: "
                                            "x\r\nContent-Length: 2\r\n\r\n{}")
                              << 405 << QStringLiteral("POST is not allowed on /v1/check");
        QTest::newRow("DELETE healthz")
            << QByteArray("DELETE /healthz HTTP/1.1\r\nHost: x\r\n\r\n") << 405
            << QStringLiteral("DELETE is not allowed on /healthz");
        QTest::newRow("1 MB query")
            << QByteArray("GET /v1/check?rule=fw&subject=" + QByteArray(1 << 20, 'a') +
                          " HTTP/1.1\r\nHost: x\r\n\r\n")
            << 414 << QStringLiteral("longer than 8192 bytes");
        QTest::newRow("9 KB query")
            << QByteArray("GET /v1/check?rule=fw&subject=" + QByteArray(9000, 'a') +
                          " HTTP/1.1\r\nHost: x\r\n\r\n")
            << 414 << QStringLiteral("longer than 8192 bytes");
        QTest::newRow("garbage") << QByteArray("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03 hello",
                                               18)
                                 << 400 << QStringLiteral("not an HTTP/1.x request");
        QTest::newRow("TLS hello") << QByteArray("\x16\x03\x01\x00\xa5\x01\x00\x00\xa1\x03\x03", 11)
                                   << 400 << QStringLiteral("not an HTTP/1.x request");
        QTest::newRow("lower-case method")
            << QByteArray("get /v1/check?rule=fw&subject=a HTTP/1.1\r\n\r\n") << 400
            << QStringLiteral("not an HTTP/1.x request");
    }
    void badInput()
    {
        QFETCH(QByteArray, request);
        QFETCH(int, status);
        QFETCH(QString, mentions);
        auto service = makeService(parseRules(standardRules));
        const HttpResponse r = httpExchange(service->port(), request);
        QCOMPARE(r.status, status);
        const QJsonObject j = r.json();
        QCOMPARE(j.value(QLatin1String("status")).toInt(), status);
        QVERIFY(!j.value(QLatin1String("error")).toString().isEmpty());
        QVERIFY2(j.value(QLatin1String("message")).toString().contains(mentions),
                 r.body.constData());
        if (status == 405) {
            QCOMPARE(r.header("Allow"), QByteArray("GET"));
        }
        // The service stays up and keeps answering.
        const HttpResponse good = get(service->port(), "/v1/check?rule=fw&subject=after");
        QCOMPARE(good.status, 200);
        QCOMPARE(good.json().value(QLatin1String("allowed")).toBool(), true);
    }

    void healthz()
    {
        auto service = makeService(parseRules(standardRules));
        QCOMPARE(get(service->port(), "/v1/check?rule=fw&subject=h").status, 200);
        const HttpResponse r = get(service->port(), "/healthz");
        QCOMPARE(r.status, 200);
        const QJsonObject j = r.json();
        QCOMPARE(j.value(QLatin1String("status")).toString(), QStringLiteral("ok"));
        const QJsonObject redis = j.value(QLatin1String("redis")).toObject();
        QCOMPARE(redis.value(QLatin1String("reachable")).toBool(), true);
        QCOMPARE(redis.value(QLatin1String("url")).toString(), test::redisEndpoint().safeUrl());
        const QJsonObject rules = j.value(QLatin1String("rules")).toObject();
        QCOMPARE(rules.value(QLatin1String("version")).toInteger(), 7);
        QCOMPARE(rules.value(QLatin1String("count")).toInteger(), 4);
        QCOMPARE(rules.value(QLatin1String("origin")).toString(), QStringLiteral("test.json"));
        QVERIFY(j.value(QLatin1String("decisions"))
                    .toObject()
                    .value(QLatin1String("redis"))
                    .toInteger() >= 1);
    }

    void liveReloadFromRuleStore()
    {
        const rules::RuleStore store(test::keyPrefix() + "{store}:");
        auto c = test::connect();
        RuleSet v1 = parseRules(
            R"({"scope": "global", "id": "a", "algorithm": "fixed_window", "limit": 1, "window": "1m",
                "key_prefix": "PREFIX"})");
        QVERIFY(store.push(c, v1, true).ok());

        CheckService service(test::onFixtureRedis());
        QVERIFY(test::followAndListen(service, store));
        const quint16 port = service.port();
        QCOMPARE(get(port, "/v1/check?rule=a&subject=x").header("RateLimit-Policy"),
                 QByteArray("\"a\";q=1;w=60"));
        QCOMPARE(get(port, "/v1/check?rule=b&subject=x").status, 404);

        // Push a new version: rule a changes, rule b appears; the running service serves them.
        RuleSet v2 = parseRules(
            R"({"scope": "global", "id": "a", "algorithm": "fixed_window", "limit": 5, "window": "1m",
                "key_prefix": "PREFIX"},
               {"scope": "global", "id": "b", "algorithm": "gcra", "rate": "10/s", "burst": 4,
                "key_prefix": "PREFIX"})");
        auto pushed = store.push(c, v2, true);
        QVERIFY(pushed.ok());
        QVERIFY(QTest::qWaitFor(
            [&] { return service.rules() && service.rules()->version() == pushed->version; },
            10000));
        const HttpResponse b = get(port, "/v1/check?rule=b&subject=x");
        QCOMPARE(b.status, 200);
        QCOMPARE(b.header("RateLimit-Policy"), QByteArray("\"b\";q=5;w=1"));
        QCOMPARE(get(port, "/v1/check?rule=a&subject=y").header("RateLimit-Policy"),
                 QByteArray("\"a\";q=5;w=60"));
        const QJsonObject health = get(port, "/healthz").json();
        QCOMPARE(health.value(QLatin1String("rules"))
                     .toObject()
                     .value(QLatin1String("version"))
                     .toInteger(),
                 pushed->version);
        c.command({"DEL", store.hashKey(), store.versionKey(), store.historyKey()}).ok();
    }

    void redisStoppedAndRestarted()
    {
        // The service's own Redis dies while it runs: each rule answers by its on_redis_error
        // at once (no waiting on a dead socket), /healthz says so; when Redis is back on the
        // same port, decisions come from Redis again without a restart.
        test::OwnRedis redis; // the fixture's must not be killed
        QVERIFY(redis.start());
        const RuleSet set = parseRules(
            R"({"scope": "global", "id": "open", "algorithm": "fixed_window", "limit": 1, "window": "1m",
                "on_redis_error": "allow"},
               {"scope": "global", "id": "closed", "algorithm": "fixed_window", "limit": 100, "window": "1m",
                "on_redis_error": "deny"},
               {"scope": "global", "id": "twin", "algorithm": "fixed_window", "limit": 2, "window": "1m",
                "on_redis_error": "local"})");
        auto service = makeService(set, false, redis.endpoint());
        const quint16 port = service->port();
        for (const char *rule : {"open", "closed", "twin"}) {
            const HttpResponse r =
                get(port, QByteArray("/v1/check?rule=") + rule + "&subject=before");
            QCOMPARE(r.status, 200);
            QCOMPARE(r.header("Sluice-Source"), QByteArray("redis"));
        }
        QCOMPARE(get(port, "/v1/check?rule=open&subject=before").status, 429); // limit 1
        // Denied with nothing left: the deny cache repeats it while Redis is up.
        QCOMPARE(get(port, "/v1/check?rule=open&subject=before").header("Sluice-Source"),
                 QByteArray("cache"));

        redis.kill();
        QElapsedTimer t;
        t.start();
        // The first request to reach Redis finds it gone; from then on on_redis_error answers,
        // cached denials included (until Redis is back, and then Redis decides afresh).
        QCOMPARE(get(port, "/v1/check?rule=open&subject=first").header("Sluice-Source"),
                 QByteArray("allow"));
        // allow: admitted, beyond the limit (nothing is counted while Redis is away).
        for (int i = 0; i < 3; ++i) {
            const HttpResponse r = get(port, "/v1/check?rule=open&subject=before");
            QCOMPARE(r.status, 200);
            QCOMPARE(r.header("Sluice-Source"), QByteArray("allow"));
            QCOMPARE(r.json().value(QLatin1String("source")).toString(), QStringLiteral("allow"));
        }
        // deny: 429, come back in a second.
        const HttpResponse denied = get(port, "/v1/check?rule=closed&subject=down");
        QCOMPARE(denied.status, 429);
        QCOMPARE(denied.header("Sluice-Source"), QByteArray("deny"));
        QCOMPARE(denied.header("Retry-After"), QByteArray("1"));
        // local: the in-process twin counts for itself: 2 admitted, then denied.
        QList<int> local;
        for (int i = 0; i < 3; ++i) {
            const HttpResponse r = get(port, "/v1/check?rule=twin&subject=down");
            QCOMPARE(r.header("Sluice-Source"), QByteArray("local"));
            local << r.status;
        }
        QCOMPARE(local, (QList<int>{200, 200, 429}));
        // Eight answers without Redis; none waited for a dead socket (the loopback refusal is
        // immediate; the bound is the connect/command timeout, 500 ms, per batch at most).
        qInfo("8 decisions with Redis down took %lld ms", qint64(t.elapsed()));
        const QJsonObject health = get(port, "/healthz").json();
        QCOMPARE(health.value(QLatin1String("status")).toString(), QStringLiteral("degraded"));
        QCOMPARE(health.value(QLatin1String("redis"))
                     .toObject()
                     .value(QLatin1String("reachable"))
                     .toBool(),
                 false);
        QVERIFY(!health.value(QLatin1String("redis"))
                     .toObject()
                     .value(QLatin1String("last_error"))
                     .toString()
                     .isEmpty());

        // Redis returns (empty: no persistence). The prober notices within its back-off (at
        // most 2 s); decisions come from Redis again.
        QVERIFY(redis.start());
        QVERIFY(QTest::qWaitFor(
            [&] {
                return get(port, "/healthz")
                    .json()
                    .value(QLatin1String("redis"))
                    .toObject()
                    .value(QLatin1String("reachable"))
                    .toBool();
            },
            10000));
        // The denial cached before the outage is gone: the new, empty Redis admits.
        const HttpResponse fresh = get(port, "/v1/check?rule=open&subject=before");
        QCOMPARE(fresh.status, 200);
        QCOMPARE(fresh.header("Sluice-Source"), QByteArray("redis"));
        HttpResponse back = get(port, "/v1/check?rule=closed&subject=after");
        QCOMPARE(back.status, 200);
        QCOMPARE(back.header("Sluice-Source"), QByteArray("redis"));
        back = get(port, "/v1/check?rule=open&subject=after");
        QCOMPARE(back.header("Sluice-Source"), QByteArray("redis"));
        QCOMPARE(get(port, "/v1/check?rule=open&subject=after").status, 429);
        auto c = Connection::open(redis.endpoint());
        QVERIFY(c.ok());
        auto exists = c->command({"EXISTS", "rate_limit:open:{after}"});
        QVERIFY(exists.ok());
        QCOMPARE(exists->integer, 1);
    }
};

QTEST_GUILESS_MAIN(TestServe)
#include "tst_serve.moc"
