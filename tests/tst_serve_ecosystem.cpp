// GET /metrics of sluice-cli serve, end to end: real serve processes on the fixture's Redis
// (and on a redis-server of the test's own, stopped under it), scraped over real sockets, the
// exposition parsed and checked: the families and their TYPE lines, the labels (no subject
// ever, every rule label a configured rule), the counters equal to the decisions made, the
// histogram consistent, OpenMetrics on request, --metrics-listen, envoy ratelimit's names, a
// storm of 100 concurrent scrapes during rule reloads (no counter goes down), Redis errors by
// class. Plus the pure pieces (compatLabels, redisErrorKind, RuleCounters::count).
// --log-format json: every line of stderr one JSON object with time, level, event, rule,
// message and fields, for Redis going down and up and for a reload that fails and one that
// works.

#include "app/serve/metrics.h"

#include "ownredis.h"
#include "runcli.h"
#include "servefixture.h"
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <memory>

using namespace sluice;
using namespace sluice::serve;

namespace {

using test::writeFile;

QByteArray rulesText(const QByteArray &extra = {})
{
    QByteArray text = R"({"version": 1, "rules": [
        {"id": "fw", "scope": "ip", "algorithm": "fixed_window", "limit": 5, "window": "1m",
         "key_prefix": "PREFIX"},
        {"id": "shadowed", "scope": "ip", "algorithm": "fixed_window", "limit": 1,
         "window": "1m", "shadow": true, "key_prefix": "PREFIX"},
        {"id": "api.path_users.method_GET", "scope": "ip", "algorithm": "gcra", "rate": "10/s",
         "burst": 2, "key_prefix": "PREFIX"})" +
                      extra + "]}";
    text.replace("PREFIX", test::keyPrefix());
    return text;
}

using Http = test::HttpReply;

// One GET on a connection of its own (Connection: close), read to the end.
Http get(quint16 port, const QByteArray &target, const QByteArray &extraHeaders = {})
{
    return test::httpGet(port, target, extraHeaders);
}

// One sample of the exposition.
struct Sample
{
    QByteArray name;
    QMap<QByteArray, QByteArray> labels;
    double value = 0;
};

// The text format parsed strictly: every line a comment (# HELP / # TYPE / # EOF) or
// name{label="value",...} value. A line that is neither fails the parse (empty result, error).
struct Exposition
{
    QList<Sample> samples;
    QMap<QByteArray, QByteArray> types; // family -> type
    QString error;

    // The sum of the samples named `name` whose labels include every one of `match`.
    double sum(const QByteArray &name, const QMap<QByteArray, QByteArray> &match = {}) const
    {
        double total = 0;
        for (const Sample &s : samples) {
            if (s.name != name) {
                continue;
            }
            bool ok = true;
            for (auto it = match.begin(); it != match.end(); ++it) {
                ok = ok && s.labels.value(it.key()) == it.value();
            }
            total += ok ? s.value : 0;
        }
        return total;
    }
    bool has(const QByteArray &name) const
    {
        for (const Sample &s : samples) {
            if (s.name == name) {
                return true;
            }
        }
        return false;
    }
};

Exposition parse(const QByteArray &text)
{
    Exposition e;
    static const QRegularExpression sampleRe(
        QStringLiteral("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? (\\S+)$"));
    static const QRegularExpression labelRe(
        QStringLiteral("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"(,|$)"));
    int lineNo = 0;
    for (const QByteArray &line : text.split('\n')) {
        ++lineNo;
        if (line.isEmpty()) {
            continue;
        }
        if (line.startsWith("# TYPE ")) {
            const QList<QByteArray> parts = line.mid(7).split(' ');
            if (parts.size() != 2) {
                e.error = QStringLiteral("line %1: bad TYPE").arg(lineNo);
                return e;
            }
            e.types.insert(parts[0], parts[1]);
            continue;
        }
        if (line.startsWith("# HELP ") || line == "# EOF") {
            continue;
        }
        const auto m = sampleRe.match(QString::fromUtf8(line));
        if (!m.hasMatch()) {
            e.error = QStringLiteral("line %1: not a sample: %2")
                          .arg(lineNo)
                          .arg(QString::fromUtf8(line));
            return e;
        }
        Sample s;
        s.name = m.captured(1).toUtf8();
        const QString labels = m.captured(3);
        qsizetype at = 0;
        while (at < labels.size()) {
            const auto l = labelRe.match(labels, at, QRegularExpression::NormalMatch,
                                         QRegularExpression::AnchorAtOffsetMatchOption);
            if (!l.hasMatch()) {
                e.error = QStringLiteral("line %1: bad labels: %2").arg(lineNo).arg(labels);
                return e;
            }
            s.labels.insert(l.captured(1).toUtf8(), l.captured(2).toUtf8());
            at = l.capturedEnd();
        }
        bool ok = false;
        s.value = m.captured(4) == QLatin1String("+Inf") ? qInf() : m.captured(4).toDouble(&ok);
        if (!ok && !qIsInf(s.value)) {
            e.error = QStringLiteral("line %1: bad value").arg(lineNo);
            return e;
        }
        e.samples.append(s);
    }
    return e;
}

// The family a sample belongs to: its name, or its name less a suffix of its type.
QByteArray familyOf(const Exposition &e, const QByteArray &name)
{
    if (e.types.contains(name)) {
        return name;
    }
    for (const char *suffix : {"_bucket", "_sum", "_count", "_total", "_info"}) {
        if (name.endsWith(suffix)) {
            const QByteArray base = name.first(name.size() - qstrlen(suffix));
            if (e.types.contains(base)) {
                return base;
            }
        }
    }
    return {};
}

// A running `sluice-cli serve`, killed at the end (tests/servefixture.h).
class Service : public test::ServeProcess
{
public:
    explicit Service(const QStringList &args) { start(args); }
};

// A Service of rulesText(), written to a folder of its own, on the Redis at `url`, with
// serve's usual flags and `extra`.
class RulesService : public test::ServeProcess
{
public:
    explicit RulesService(const QStringList &extra = {}, const QString &url = test::redisUrl())
    {
        if (writeFile(rulesPath(), rulesText())) {
            start(test::serveArgs(rulesPath(), url) + extra);
        } else {
            qWarning("cannot write %s", qPrintable(rulesPath()));
        }
    }
    QString rulesPath() const { return m_dir.filePath(QStringLiteral("rules.json")); }

private:
    QTemporaryDir m_dir;
};

} // namespace

class TestServeEcosystem : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void compatLabelsFromTheRuleId()
    {
        QByteArray d, k1, k2;
        compatLabels(QStringLiteral("fw"), &d, &k1, &k2);
        QCOMPARE(d, QByteArray("sluice"));
        QCOMPARE(k1, QByteArray("fw"));
        QVERIFY(k2.isEmpty());
        compatLabels(QStringLiteral("mongo_cps.database_default"), &d, &k1, &k2);
        QCOMPARE(d, QByteArray("mongo_cps"));
        QCOMPARE(k1, QByteArray("database_default"));
        QVERIFY(k2.isEmpty());
        compatLabels(QStringLiteral("api.path_users.method_GET.x"), &d, &k1, &k2);
        QCOMPARE(d, QByteArray("api"));
        QCOMPARE(k1, QByteArray("path_users"));
        QCOMPARE(k2, QByteArray("method_GET.x"));
    }

    void redisErrorsByClass()
    {
        QCOMPARE(redisErrorKind(Error::make(Error::Kind::Io, QStringLiteral("refused"))),
                 QByteArrayView("io"));
        QCOMPARE(redisErrorKind(Error::make(Error::Kind::Timeout, QStringLiteral("t"))),
                 QByteArrayView("timeout"));
        QCOMPARE(redisErrorKind(
                     Error::make(Error::Kind::Reply, QStringLiteral("LOADING Redis is loading"))),
                 QByteArrayView("unavailable"));
        QCOMPARE(redisErrorKind(
                     Error::make(Error::Kind::Reply, QStringLiteral("OOM command not allowed"))),
                 QByteArrayView("oom"));
        QCOMPARE(redisErrorKind(Error::make(Error::Kind::Auth, QStringLiteral("NOPERM x"))),
                 QByteArrayView("auth"));
    }

    void nearLimitAndHits()
    {
        RuleCounters c;
        Decision d;
        d.limit = 10;
        d.allowed = true;
        d.remaining = 3; // 7 of 10 used: within
        c.count(d, DecisionSource::Redis, 1, false);
        d.remaining = 2; // 8 of 10: near
        c.count(d, DecisionSource::Redis, 2, false);
        d.allowed = false;
        d.remaining = 0;
        c.count(d, DecisionSource::Cache, 1, false);
        c.count(d, DecisionSource::Deny, 1, true);
        c.count(d, DecisionSource::Redis, 0, false); // a peek: a decision, no hits
        QCOMPARE(c.decisions[RuleCounters::Allowed][RuleCounters::Redis].load(), 2u);
        QCOMPARE(c.decisions[RuleCounters::Denied][RuleCounters::Cache].load(), 1u);
        QCOMPARE(c.decisions[RuleCounters::Denied][RuleCounters::Redis].load(), 1u);
        QCOMPARE(c.decisions[RuleCounters::ShadowDenied][RuleCounters::Override].load(), 1u);
        QCOMPARE(c.nearLimit.load(), 1u);
        QCOMPARE(c.hits.load(), 5u);
        QCOMPARE(c.withinLimitHits.load(), 1u);
        QCOMPARE(c.nearLimitHits.load(), 2u);
        QCOMPARE(c.overLimitHits.load(), 2u);
        QCOMPARE(c.shadowHits.load(), 1u);
    }

    void countersMatchTheDecisions()
    {
        RulesService service(
            {QStringLiteral("--metrics-compat"), QStringLiteral("envoy-ratelimit")});
        QVERIFY2(service.port() != 0, service.err().constData());

        // fw (limit 5): 7 requests of one subject: 5 allowed (the last two at 80 % and 100 %
        // of the limit: near), 2 denied. shadowed (limit 1): 1 allowed, 2 shadow-denied.
        int statuses[2] = {0, 0};
        for (int i = 0; i < 7; ++i) {
            const int s = get(service.port(), "/v1/check?rule=fw&subject=10.0.0.1").status;
            statuses[s == 200 ? 0 : 1] += (s == 200 || s == 429) ? 1 : 0;
        }
        QCOMPARE(statuses[0], 5);
        QCOMPARE(statuses[1], 2);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(get(service.port(), "/v1/check?rule=shadowed&subject=s").status, 200);
        }
        // A subject that must never become a label.
        QCOMPARE(
            get(service.port(), "/v1/check?rule=api.path_users.method_GET&subject=secret-subject")
                .status,
            200);

        const Http m = get(service.port(), "/metrics");
        QCOMPARE(m.status, 200);
        QCOMPARE(m.headers.value("content-type"),
                 QByteArray("text/plain; version=0.0.4; charset=utf-8"));
        const Exposition e = parse(m.body);
        QVERIFY2(e.error.isEmpty(),
                 qPrintable(e.error + QLatin1Char('\n') + QString::fromUtf8(m.body)));
        QVERIFY(!m.body.contains("secret-subject"));
        QVERIFY(!m.body.contains("10.0.0.1"));

        // Every sample belongs to a family with a TYPE; labels only from the fixed sets.
        const QSet<QByteArray> ruleIds{"fw", "shadowed", "api.path_users.method_GET"};
        const QSet<QByteArray> allowedLabels{"rule",   "decision", "source",  "le",
                                             "kind",   "result",   "version", "commit",
                                             "domain", "key1",     "key2",    "reason"};
        for (const Sample &s : e.samples) {
            QVERIFY2(!familyOf(e, s.name).isEmpty(), s.name.constData());
            for (auto it = s.labels.begin(); it != s.labels.end(); ++it) {
                QVERIFY2(allowedLabels.contains(it.key()), it.key().constData());
            }
            if (s.labels.contains("rule")) {
                QVERIFY2(ruleIds.contains(s.labels.value("rule")),
                         s.labels.value("rule").constData());
            }
        }
        for (const char *family : {"sluice_decisions_total", "sluice_near_limit_total",
                                   "sluice_redis_errors_total", "sluice_rules_reload_total"}) {
            QCOMPARE(e.types.value(family), QByteArray("counter"));
        }
        QCOMPARE(e.types.value("sluice_decision_duration_seconds"), QByteArray("histogram"));
        QCOMPARE(e.types.value("sluice_redis_command_duration_seconds"), QByteArray("histogram"));
        QCOMPARE(e.types.value("sluice_rules_version"), QByteArray("gauge"));
        QCOMPARE(e.types.value("sluice_connections"), QByteArray("gauge"));

        QCOMPARE(e.sum("sluice_decisions_total", {{"rule", "fw"}, {"decision", "allowed"}}), 5.0);
        QCOMPARE(e.sum("sluice_decisions_total",
                       {{"rule", "fw"}, {"decision", "allowed"}, {"source", "redis"}}),
                 5.0);
        QCOMPARE(e.sum("sluice_decisions_total", {{"rule", "fw"}, {"decision", "denied"}}), 2.0);
        QCOMPARE(e.sum("sluice_decisions_total", {{"rule", "shadowed"}, {"decision", "allowed"}}),
                 1.0);
        QCOMPARE(
            e.sum("sluice_decisions_total", {{"rule", "shadowed"}, {"decision", "shadow_denied"}}),
            2.0);
        QCOMPARE(e.sum("sluice_decisions_total", {{"decision", "error"}}), 0.0);
        QCOMPARE(e.sum("sluice_near_limit_total", {{"rule", "fw"}}), 2.0);
        // The histogram: one observation per decision, buckets cumulative, +Inf = _count.
        QCOMPARE(e.sum("sluice_decision_duration_seconds_count"), 11.0);
        QCOMPARE(e.sum("sluice_decision_duration_seconds_bucket", {{"le", "+Inf"}}), 11.0);
        double previous = 0;
        int buckets = 0;
        for (const Sample &s : e.samples) {
            if (s.name == "sluice_decision_duration_seconds_bucket") {
                QVERIFY(s.value >= previous);
                previous = s.value;
                ++buckets;
            }
        }
        QCOMPARE(buckets, 15); // 50 µs .. 1 s, and +Inf
        QVERIFY(e.sum("sluice_decision_duration_seconds_bucket", {{"le", "5e-05"}}) <= 11.0);
        QVERIFY(e.sum("sluice_redis_command_duration_seconds_count") >= 1.0);
        QCOMPARE(e.sum("sluice_redis_errors_total"), 0.0);
        QVERIFY(e.has("sluice_build_info"));
        QCOMPARE(e.sum("sluice_connections"), 1.0); // the scrape's own
        // The labels of the error taxonomy are all there from the start.
        QCOMPARE(e.sum("sluice_redis_errors_total", {{"kind", "timeout"}}), 0.0);

        // envoy ratelimit's names, in hits.
        QCOMPARE(e.sum("ratelimit_service_rate_limit_total_hits",
                       {{"domain", "sluice"}, {"key1", "fw"}}),
                 7.0);
        QCOMPARE(e.sum("ratelimit_service_rate_limit_over_limit", {{"key1", "fw"}}), 2.0);
        QCOMPARE(e.sum("ratelimit_service_rate_limit_near_limit", {{"key1", "fw"}}), 2.0);
        QCOMPARE(e.sum("ratelimit_service_rate_limit_within_limit", {{"key1", "fw"}}), 3.0);
        QCOMPARE(e.sum("ratelimit_service_rate_limit_shadow_mode", {{"key1", "shadowed"}}), 2.0);
        QCOMPARE(e.sum("ratelimit_service_rate_limit_total_hits",
                       {{"domain", "api"}, {"key1", "path_users"}, {"key2", "method_GET"}}),
                 1.0);
        QCOMPARE(e.sum("ratelimit_service_response_time_seconds_count"), 11.0);
    }

    void openMetricsWhenAsked()
    {
        RulesService service;
        QVERIFY2(service.port() != 0, service.err().constData());
        QCOMPARE(get(service.port(), "/v1/check?rule=fw&subject=om").status, 200);
        const Http m = get(service.port(), "/metrics",
                           "Accept: application/openmetrics-text;version=1.0.0,text/plain;"
                           "version=0.0.4;q=0.5\r\n");
        QCOMPARE(m.status, 200);
        QVERIFY2(m.headers.value("content-type").startsWith("application/openmetrics-text"),
                 m.headers.value("content-type").constData());
        QVERIFY(m.body.endsWith("# EOF\n"));
        const Exposition e = parse(m.body);
        QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
        QCOMPARE(e.types.value("sluice_decisions"), QByteArray("counter"));
        QCOMPARE(e.types.value("sluice_build"), QByteArray("info"));
        QCOMPARE(e.sum("sluice_decisions_total", {{"rule", "fw"}, {"decision", "allowed"}}), 1.0);
        // Without compat, none of envoy ratelimit's names.
        QVERIFY(!m.body.contains("ratelimit_service_"));
        // POST is refused with Allow.
        QTcpSocket s;
        s.connectToHost(QStringLiteral("127.0.0.1"), service.port());
        QVERIFY(s.waitForConnected(5000));
        s.write("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: "
                "close\r\n\r\n");
        QByteArray data;
        while (s.waitForReadyRead(5000)) {
            data += s.readAll();
        }
        QVERIFY2(data.startsWith("HTTP/1.1 405"), data.constData());
        QVERIFY(data.contains("Allow: GET"));
    }

    void metricsOnAPortOfTheirOwn()
    {
        RulesService service({QStringLiteral("--metrics-listen"), QStringLiteral("127.0.0.1:0")});
        QVERIFY2(service.port() != 0, service.err().constData());
        QVERIFY2(service.metricsPort() != 0, service.out().constData());
        QVERIFY(service.metricsPort() != service.port());
        QCOMPARE(get(service.port(), "/v1/check?rule=fw&subject=own").status, 200);
        QCOMPARE(get(service.port(), "/metrics").status, 404); // not on the service's port
        const Http m = get(service.metricsPort(), "/metrics");
        QCOMPARE(m.status, 200);
        QCOMPARE(parse(m.body).sum("sluice_decisions_total", {{"rule", "fw"}}), 1.0);
        QCOMPARE(get(service.metricsPort(), "/v1/check?rule=fw&subject=own").status, 404);
    }

    void badFlags_data()
    {
        test::columns<QString, QString, QByteArray>("flag", "value", "says");
        QTest::newRow("metrics-compat")
            << QStringLiteral("--metrics-compat") << QStringLiteral("statsd")
            << QByteArray("--metrics-compat 'statsd' is unknown; expected envoy-ratelimit");
        QTest::newRow("metrics-listen")
            << QStringLiteral("--metrics-listen") << QStringLiteral("nowhere")
            << QByteArray("--metrics-listen 'nowhere': expected HOST:PORT");
    }
    void badFlags()
    {
        QFETCH(QString, flag);
        QFETCH(QString, value);
        QFETCH(QByteArray, says);
        const auto r =
            test::runCli({QStringLiteral("serve"), QStringLiteral("--url"), test::redisUrl(),
                          QStringLiteral("--rules"), QStringLiteral("x.json"),
                          QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"), flag, value});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(says), r.err.constData());
    }

    // 100 scrapes at once, five rounds, while decisions are made and the rules are reloaded
    // (SIGHUP, one good file and one bad): every scrape answers 200 with a whole exposition,
    // and no counter of a later round is below the same counter of an earlier one.
    void scrapeStormDuringReloads()
    {
        RulesService service({QStringLiteral("--max-connections"), QStringLiteral("1000")});
        const QString path = service.rulesPath();
        QVERIFY2(service.port() != 0, service.err().constData());

        QMap<QByteArray, double> seen; // the highest value of each counter sample so far
        auto keyOf = [](const Sample &s) {
            QByteArray k = s.name;
            for (auto it = s.labels.begin(); it != s.labels.end(); ++it) {
                k += ',' + it.key() + '=' + it.value();
            }
            return k;
        };
        for (int round = 0; round < 5; ++round) {
            if (round == 2) {
                QVERIFY(writeFile(path, rulesText(R"(, {"id": "added", "scope": "global",
                    "algorithm": "fixed_window", "limit": 9, "window": "1m",
                    "key_prefix": "X"})")));
                QVERIFY(::kill(pid_t(service.pid()), SIGHUP) == 0);
            }
            if (round == 3) {
                QVERIFY(writeFile(path, "{\"version\": 1, \"rules\": [{\"id\": \"\"}]}"));
                QVERIFY(::kill(pid_t(service.pid()), SIGHUP) == 0);
            }
            std::vector<std::unique_ptr<QTcpSocket>> sockets;
            for (int i = 0; i < 100; ++i) {
                auto s = std::make_unique<QTcpSocket>();
                s->connectToHost(QStringLiteral("127.0.0.1"), service.port());
                sockets.push_back(std::move(s));
            }
            // Decisions between the scrapes' connects and their requests.
            for (int i = 0; i < 5; ++i) {
                get(service.port(), "/v1/check?rule=fw&subject=storm" + QByteArray::number(i));
            }
            for (auto &s : sockets) {
                QVERIFY(s->waitForConnected(5000));
                s->write("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            }
            for (auto &s : sockets) {
                QByteArray data;
                while (s->state() == QAbstractSocket::ConnectedState &&
                       s->waitForReadyRead(10000)) {
                    data += s->readAll();
                }
                data += s->readAll();
                QVERIFY2(data.startsWith("HTTP/1.1 200"), data.left(200).constData());
                const Exposition e = parse(data.mid(data.indexOf("\r\n\r\n") + 4));
                QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
                QVERIFY(e.has("sluice_build_info")); // the whole of it
                for (const Sample &x : e.samples) {
                    const QByteArray family = familyOf(e, x.name);
                    const QByteArray type = e.types.value(family);
                    if (type != "counter" && type != "histogram") {
                        continue;
                    }
                    const QByteArray k = keyOf(x);
                    QVERIFY2(x.value >= seen.value(k, 0), k.constData());
                    seen[k] = x.value;
                }
            }
        }
        QCOMPARE(seen.value("sluice_rules_reload_total,result=ok"), 1.0);
        QCOMPARE(seen.value("sluice_rules_reload_total,result=error"), 1.0);
        // The rule that came with the reload has its series; fw's decisions all counted.
        QVERIFY(seen.contains("sluice_near_limit_total,rule=added"));
        QCOMPARE(seen.value("sluice_decisions_total,decision=allowed,rule=fw,source=redis"), 25.0);
    }

    // Redis stopped under the service: the decisions are on_redis_error's (source override),
    // the errors counted by class.
    void redisErrorsCounted()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        RulesService service({QStringLiteral("--timeout-ms"), QStringLiteral("200")}, redis.url());
        QVERIFY2(service.port() != 0, service.err().constData());
        QCOMPARE(get(service.port(), "/v1/check?rule=fw&subject=e").status, 200);
        redis.kill();
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(get(service.port(), "/v1/check?rule=fw&subject=e").status, 200);
        }
        const Exposition e = parse(get(service.port(), "/metrics").body);
        QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
        QCOMPARE(e.sum("sluice_decisions_total", {{"rule", "fw"}}), 4.0);
        QCOMPARE(e.sum("sluice_decisions_total",
                       {{"rule", "fw"}, {"decision", "allowed"}, {"source", "override"}}),
                 3.0);
        // The connection lost under the first decision after the kill.
        QVERIFY(e.sum("sluice_redis_errors_total") >= 1.0);
        QVERIFY(e.sum("sluice_redis_errors_total", {{"kind", "io"}}) +
                    e.sum("sluice_redis_errors_total", {{"kind", "closed"}}) +
                    e.sum("sluice_redis_errors_total", {{"kind", "timeout"}}) >=
                1.0);
    }

    // --log-format json: Redis killed and started again, a bad file and a good file on SIGHUP;
    // every line on stderr is one JSON object with the six members, the events named.
    void jsonLog()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        RulesService service({QStringLiteral("--log-format"), QStringLiteral("json")}, redis.url());
        const QString path = service.rulesPath();
        QVERIFY2(service.port() != 0, service.err().constData());
        redis.kill();
        QCOMPARE(get(service.port(), "/v1/check?rule=fw&subject=j").status, 200);
        QVERIFY2(QTest::qWaitFor([&] { return service.err().contains("redis_down"); }, 10000),
                 service.err().constData());
        QVERIFY(redis.restart());
        QVERIFY2(QTest::qWaitFor([&] { return service.err().contains("redis_up"); }, 10000),
                 service.err().constData());
        QVERIFY(writeFile(path, "{\"version\": 1,\n \"rules\": [{\"id\": \"x\", \"limit\": 0}]}"));
        QVERIFY(::kill(pid_t(service.pid()), SIGHUP) == 0);
        QVERIFY(
            QTest::qWaitFor([&] { return service.err().contains("rules_reload_failed"); }, 10000));
        QVERIFY(writeFile(path, rulesText()));
        QVERIFY(::kill(pid_t(service.pid()), SIGHUP) == 0);
        QVERIFY(QTest::qWaitFor([&] { return service.err().contains("rules_reloaded"); }, 10000));

        QMap<QString, QJsonObject> byEvent;
        const QList<QByteArray> lines = service.err().trimmed().split('\n');
        QVERIFY(lines.size() >= 4);
        static const QRegularExpression time(
            QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z$"));
        for (const QByteArray &line : lines) {
            QJsonParseError pe;
            const QJsonDocument doc = QJsonDocument::fromJson(line, &pe);
            QVERIFY2(pe.error == QJsonParseError::NoError && doc.isObject(), line.constData());
            const QJsonObject o = doc.object();
            QCOMPARE(o.keys(), (QStringList{QStringLiteral("event"), QStringLiteral("fields"),
                                            QStringLiteral("level"), QStringLiteral("message"),
                                            QStringLiteral("rule"), QStringLiteral("time")}));
            QVERIFY2(time.match(o.value(QStringLiteral("time")).toString()).hasMatch(),
                     line.constData());
            QVERIFY(o.value(QStringLiteral("fields")).isObject());
            byEvent.insert(o.value(QStringLiteral("event")).toString(), o);
        }
        QCOMPARE(byEvent.value(QStringLiteral("redis_down")).value(QStringLiteral("level")),
                 QJsonValue(QStringLiteral("warning")));
        QCOMPARE(byEvent.value(QStringLiteral("redis_up")).value(QStringLiteral("level")),
                 QJsonValue(QStringLiteral("info")));
        // The file's error at its line and column, in fields.
        const QJsonObject bad = byEvent.value(QStringLiteral("rules_error"));
        QCOMPARE(bad.value(QStringLiteral("level")), QJsonValue(QStringLiteral("error")));
        const QJsonObject f = bad.value(QStringLiteral("fields")).toObject();
        QCOMPARE(f.value(QStringLiteral("file")).toString(), path);
        QCOMPARE(f.value(QStringLiteral("line")).toInt(), 2);
        QVERIFY(f.value(QStringLiteral("column")).toInt() > 0);
        QVERIFY(bad.value(QStringLiteral("message"))
                    .toString()
                    .contains(QStringLiteral("rules.json:2:")));
        QCOMPARE(byEvent.value(QStringLiteral("rules_reloaded"))
                     .value(QStringLiteral("fields"))
                     .toObject()
                     .value(QStringLiteral("count"))
                     .toInt(),
                 3);
        // Not the text lines of the default.
        QVERIFY(!service.err().contains("sluice-cli serve: "));
    }

    void badLogFormat()
    {
        const auto r = test::runCli(
            {QStringLiteral("serve"), QStringLiteral("--url"), test::redisUrl(),
             QStringLiteral("--rules"), QStringLiteral("x.json"), QStringLiteral("--listen"),
             QStringLiteral("127.0.0.1:0"), QStringLiteral("--log-format"), QStringLiteral("xml")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--log-format 'xml' is unknown; expected text"), r.err.constData());
    }

    // serve --envoy-config DIR: envoy ratelimit's YAML served as it is (rule ids from the
    // descriptor paths), reloaded when a file changes; a broken file keeps the rules served and
    // is counted as a failed reload; the compat metrics carry the domain and keys.
    void envoyConfigServedAndReloaded()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("config.yaml"));
        auto config = [](int perMinute) {
            return "domain: edge\n"
                   "descriptors:\n"
                   "  - key: generic_key\n"
                   "    value: login\n"
                   "    descriptors:\n"
                   "      - key: remote_address\n"
                   "        rate_limit:\n"
                   "          unit: minute\n"
                   "          requests_per_unit: " +
                   QByteArray::number(perMinute) + "\n";
        };
        QVERIFY(writeFile(file, config(2)));
        Service service({QStringLiteral("--url"), test::redisUrl(),
                         QStringLiteral("--envoy-config"), dir.path(), QStringLiteral("--listen"),
                         QStringLiteral("127.0.0.1:0"), QStringLiteral("--no-stats"),
                         QStringLiteral("--metrics-compat"), QStringLiteral("envoy-ratelimit")});
        QVERIFY2(service.port() != 0, service.err().constData());
        const QByteArray subject = "/v1/check?rule=edge.generic_key_login.remote_address&subject=" +
                                   test::keyPrefix().toPercentEncoding() + "ip1";
        QCOMPARE(get(service.port(), subject).status, 200);
        QCOMPARE(get(service.port(), subject).status, 200);
        QCOMPARE(get(service.port(), subject).status, 429);

        // A new limit in the file: served without a signal.
        QVERIFY(writeFile(file, config(50)));
        int polls = 0; // a subject of its own each time: the old limit denies none of them
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         return get(service.port(), subject + "p" + QByteArray::number(++polls))
                             .headers.value("ratelimit-policy")
                             .contains(";q=50;");
                     },
                     10000),
                 service.err().constData());
        // The log line follows the new table: the answer may come before it is read.
        QVERIFY(QTest::qWaitFor(
            [&] { return service.err().contains("changed: reloaded 1 rules from"); }, 5000));

        // A broken file: named at its place, the rules served stay.
        QVERIFY(writeFile(file, "domain: edge\ndescriptors:\n  - key: k\n    rate_limit: {unit: "
                                "eon, requests_per_unit: 1}\n"));
        QVERIFY2(QTest::qWaitFor([&] { return service.err().contains("not reloaded"); }, 10000),
                 service.err().constData());
        QVERIFY2(service.err().contains("config.yaml:4:24: descriptors[0].rate_limit.unit: invalid "
                                        "rate limit unit 'eon'"),
                 service.err().constData());
        QCOMPARE(get(service.port(), subject + "y").status, 200);

        const Exposition e = parse(get(service.port(), "/metrics").body);
        QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
        QCOMPARE(e.sum("sluice_rules_reload_total", {{"result", "ok"}}), 1.0);
        QVERIFY(e.sum("sluice_rules_reload_total", {{"result", "error"}}) >= 1.0);
        QCOMPARE(e.sum("sluice_rules_version"), 2.0);
        QCOMPARE(
            e.sum("ratelimit_service_rate_limit_over_limit",
                  {{"domain", "edge"}, {"key1", "generic_key_login"}, {"key2", "remote_address"}}),
            1.0);
    }

    // envoy ratelimit counts a denied request (its INCRBY runs for every hit) unless its
    // process runs with STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true: --envoy-config serves
    // its files so, and --stop-cache-key-increment-when-overlimit as the switch. Seen by a
    // client: after a denied request of cost 5 on 8 of 10 spent, a request of cost 1 is denied
    // (8 + 5 + 1 counted) by default and admitted (8 + 1) with the switch.
    void envoyConfigCountsDenialsAsEnvoyDoes()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("config.yaml")),
                          "domain: count\n"
                          "descriptors:\n"
                          "  - key: remote_address\n"
                          "    rate_limit: {unit: minute, requests_per_unit: 10}\n"));
        for (const bool stop : {false, true}) {
            QStringList args{QStringLiteral("--url"),          test::redisUrl(),
                             QStringLiteral("--envoy-config"), dir.path(),
                             QStringLiteral("--listen"),       QStringLiteral("127.0.0.1:0"),
                             QStringLiteral("--no-stats")};
            if (stop) {
                args << QStringLiteral("--stop-cache-key-increment-when-overlimit");
            }
            Service service(args);
            QVERIFY2(service.port() != 0, service.err().constData());
            const QByteArray check = "/v1/check?rule=count.remote_address&subject=" +
                                     test::keyPrefix().toPercentEncoding() + "denials-" +
                                     (stop ? "stop" : "count") + "&cost=";
            QCOMPARE(get(service.port(), check + "8").status, 200);
            QCOMPARE(get(service.port(), check + "5").status, 429);
            QCOMPARE(get(service.port(), check + "1").status, stop ? 200 : 429);
            QVERIFY2(service.err().contains(stop ? "denied requests are not counted"
                                                 : "denied requests count on the window"),
                     service.err().constData());
        }
        // The switch is envoy's: a rule file says count_rejected per rule.
        const auto r =
            test::runCli({QStringLiteral("serve"), QStringLiteral("--url"), test::redisUrl(),
                          QStringLiteral("--rules"), QStringLiteral("x.json"),
                          QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                          QStringLiteral("--stop-cache-key-increment-when-overlimit")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--stop-cache-key-increment-when-overlimit goes with "
                                "--envoy-config"),
                 r.err.constData());
    }

    void envoyConfigRefusedAtStart()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("a.yaml")),
                          "domain: d\ndescriptors:\n  - key: k\n    value: v\n  - key: k\n    "
                          "value: v\n"));
        const auto r = test::runCli({QStringLiteral("serve"), QStringLiteral("--url"),
                                     test::redisUrl(), QStringLiteral("--envoy-config"), dir.path(),
                                     QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("a.yaml:5:5: descriptors[1]: duplicate descriptor composite key "
                                "'d.k_v'"),
                 r.err.constData());
        const auto both = test::runCli(
            {QStringLiteral("serve"), QStringLiteral("--url"), test::redisUrl(),
             QStringLiteral("--envoy-config"), dir.path(), QStringLiteral("--rules"),
             QStringLiteral("x.json"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")});
        QCOMPARE(both.exitCode, 2);
        QVERIFY(both.err.contains("does not go with --rules or --from-redis"));
    }

    // The Grafana dashboard (resources/grafana/, installed to /usr/share/sluice/grafana/) asks
    // only for names and labels a scrape has.
    void dashboardAsksForWhatIsExported()
    {
        QFile f(QStringLiteral(SLUICE_SOURCE_DIR "/resources/grafana/sluice-serve.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError, qPrintable(pe.errorString()));
        QStringList exprs;
        const QJsonArray panels = doc.object().value(QStringLiteral("panels")).toArray();
        QVERIFY(panels.size() >= 8);
        for (const QJsonValue &p : panels) {
            for (const QJsonValue &t : p.toObject().value(QStringLiteral("targets")).toArray()) {
                exprs << t.toObject().value(QStringLiteral("expr")).toString();
            }
        }
        for (const QJsonValue &v : doc.object()
                                       .value(QStringLiteral("templating"))
                                       .toObject()
                                       .value(QStringLiteral("list"))
                                       .toArray()) {
            exprs << v.toObject().value(QStringLiteral("definition")).toString();
        }

        RulesService service;
        QVERIFY2(service.port() != 0, service.err().constData());
        QCOMPARE(get(service.port(), "/v1/check?rule=fw&subject=dash").status, 200);
        const Exposition e = parse(get(service.port(), "/metrics").body);
        QVERIFY2(e.error.isEmpty(), qPrintable(e.error));
        QSet<QString> labels{QStringLiteral("instance"), QStringLiteral("le")};
        for (const Sample &s : e.samples) {
            for (auto it = s.labels.begin(); it != s.labels.end(); ++it) {
                labels.insert(QString::fromUtf8(it.key()));
            }
        }
        static const QRegularExpression name(QStringLiteral("\\bsluice_[a-z_]+"));
        static const QRegularExpression by(QStringLiteral("by \\(([a-z_, ]+)\\)"));
        static const QRegularExpression matcher(QStringLiteral("([a-z_]+)=~?\""));
        int names = 0;
        for (const QString &x : std::as_const(exprs)) {
            for (const auto &m : name.globalMatch(x)) {
                QVERIFY2(e.has(m.captured(0).toUtf8()), qPrintable(m.captured(0) + u' ' + x));
                ++names;
            }
            for (const auto &m : by.globalMatch(x)) {
                for (const QString &l : m.captured(1).split(QLatin1Char(','))) {
                    QVERIFY2(labels.contains(l.trimmed()), qPrintable(l + u' ' + x));
                }
            }
            for (const auto &m : matcher.globalMatch(x)) {
                QVERIFY2(labels.contains(m.captured(1)), qPrintable(m.captured(1) + u' ' + x));
            }
        }
        QVERIFY(names >= 14);
    }
};

QTEST_GUILESS_MAIN(TestServeEcosystem)
#include "tst_serve_ecosystem.moc"
