#include "metrics.h"

#include "checkservice.h"
#include "httpreply.h"

#include "core/common/bytewriter.h"
#include "core/redis/errors.h"

#include <cstdio>

namespace sluice::serve {

namespace {

// The `le` labels of DurationHistogram::boundsNs, as Prometheus' own clients write them.
constexpr std::array<const char *, DurationHistogram::boundsNs.size()> bucketLabels{
    "5e-05", "0.0001", "0.00025", "0.0005", "0.001", "0.0025", "0.005",
    "0.01",  "0.025",  "0.05",    "0.1",    "0.25",  "0.5",    "1"};

// The classes of sluice_redis_errors_total{kind}, in the order of Metrics::m_redisErrors.
constexpr std::array<const char *, 11> errorKinds{"io",    "timeout",  "closed", "protocol",
                                                  "reply", "noscript", "auth",   "unavailable",
                                                  "oom",   "redirect", "other"};

constexpr std::array<const char *, RuleCounters::outcomes> outcomeNames{"allowed", "denied",
                                                                        "shadow_denied", "error"};
constexpr std::array<const char *, RuleCounters::sources> sourceNames{"redis", "local", "cache",
                                                                      "override"};

void putNumber(QByteArray &out, std::uint64_t v)
{
    char buf[24];
    const int n = std::snprintf(buf, sizeof buf, "%llu", static_cast<unsigned long long>(v));
    out.append(buf, n);
}

// A label value: backslash, double quote and line feed escaped, as the text format wants.
void putLabel(QByteArray &out, QByteArrayView value)
{
    for (const char c : value) {
        if (c == '\\' || c == '"') {
            out.append('\\').append(c);
        } else if (c == '\n') {
            out.append("\\n");
        } else {
            out.append(c);
        }
    }
}

// "# HELP" and "# TYPE" of a family. OpenMetrics names a counter family without its _total.
void family(QByteArray &out, QByteArrayView name, const char *type, const char *help,
            bool openMetrics)
{
    QByteArrayView base = name;
    if (openMetrics && qstrcmp(type, "counter") == 0 && base.endsWith("_total")) {
        base.chop(6);
    }
    if (openMetrics && qstrcmp(type, "info") == 0 && base.endsWith("_info")) {
        base.chop(5);
    }
    out.append("# HELP ").append(base).append(' ').append(help).append('\n');
    out.append("# TYPE ").append(base).append(' ').append(type).append('\n');
}

void putSeconds(QByteArray &out, std::uint64_t ns)
{
    char buf[32];
    const int n = std::snprintf(buf, sizeof buf, "%.9g", double(ns) / 1e9);
    out.append(buf, n);
}

void compatSample(QByteArray &out, const char *name, const RuleCounters &r, std::uint64_t value)
{
    out.append(name).append("{domain=\"");
    putLabel(out, r.domain);
    out.append("\",key1=\"");
    putLabel(out, r.key1);
    if (!r.key2.isEmpty()) {
        out.append("\",key2=\"");
        putLabel(out, r.key2);
    }
    out.append("\"} ");
    putNumber(out, value);
    out.append('\n');
}

} // namespace

void DurationHistogram::observeNs(std::int64_t ns)
{
    size_t i = 0;
    while (i < boundsNs.size() && ns > boundsNs[i]) {
        ++i;
    }
    m_buckets[i].fetch_add(1, std::memory_order_relaxed);
    m_sumNs.fetch_add(std::uint64_t(std::max<std::int64_t>(ns, 0)), std::memory_order_relaxed);
}

void DurationHistogram::render(QByteArray &out, QByteArrayView name) const
{
    std::uint64_t cumulative = 0;
    for (size_t i = 0; i <= boundsNs.size(); ++i) {
        cumulative += m_buckets[i].load(std::memory_order_relaxed);
        out.append(name).append("_bucket{le=\"");
        out.append(i < boundsNs.size() ? bucketLabels[i] : "+Inf").append("\"} ");
        putNumber(out, cumulative);
        out.append('\n');
    }
    out.append(name).append("_sum ");
    putSeconds(out, m_sumNs.load(std::memory_order_relaxed));
    out.append('\n').append(name).append("_count ");
    putNumber(out, cumulative);
    out.append('\n');
}

RuleCounters::Source RuleCounters::sourceOf(DecisionSource s)
{
    switch (s) {
    case DecisionSource::Redis:
        return Redis;
    case DecisionSource::Local:
        return Local;
    case DecisionSource::Cache:
        return Cache;
    case DecisionSource::Allow:
    case DecisionSource::Deny:
    case DecisionSource::Override:
        break;
    }
    return Override;
}

void RuleCounters::count(const Decision &d, DecisionSource source, qint64 cost, bool shadow,
                         bool failed)
{
    constexpr auto relaxed = std::memory_order_relaxed;
    const Outcome o = failed ? Failed : d.allowed ? Allowed : shadow ? ShadowDenied : Denied;
    decisions[o][sourceOf(source)].fetch_add(1, relaxed);
    if (failed || cost <= 0) {
        return; // a peek (cost 0) asks; it spends nothing
    }
    const auto c = std::uint64_t(cost);
    hits.fetch_add(c, relaxed);
    if (!d.allowed) {
        overLimitHits.fetch_add(c, relaxed);
        if (shadow) {
            shadowHits.fetch_add(c, relaxed);
        }
        return;
    }
    // Near the limit: at least 80 % of it used once this request is counted (envoy ratelimit's
    // near_limit_ratio 0.8).
    if (d.limit > 0 && 5 * (d.limit - d.remaining) >= 4 * d.limit) {
        nearLimit.fetch_add(1, relaxed);
        nearLimitHits.fetch_add(c, relaxed);
    } else {
        withinLimitHits.fetch_add(c, relaxed);
    }
}

void compatLabels(const QString &ruleId, QByteArray *domain, QByteArray *key1, QByteArray *key2)
{
    const QByteArray id = ruleId.toUtf8();
    const qsizetype dot = id.indexOf('.');
    if (dot <= 0) {
        *domain = QByteArrayLiteral("sluice");
        *key1 = id;
        key2->clear();
        return;
    }
    *domain = id.left(dot);
    const qsizetype second = id.indexOf('.', dot + 1);
    if (second < 0) {
        *key1 = id.mid(dot + 1);
        key2->clear();
    } else {
        *key1 = id.mid(dot + 1, second - dot - 1);
        *key2 = id.mid(second + 1);
    }
}

QByteArrayView redisErrorKind(const Error &e)
{
    if (redis::isOutOfMemoryReply(e)) {
        return "oom";
    }
    if (redis::isUnavailableReply(e)) {
        return "unavailable";
    }
    if (redis::isRedirectReply(e)) {
        return "redirect";
    }
    switch (e.kind) {
    case Error::Kind::Io:
        return "io";
    case Error::Kind::Timeout:
        return "timeout";
    case Error::Kind::Closed:
        return "closed";
    case Error::Kind::Protocol:
        return "protocol";
    case Error::Kind::Reply:
        return "reply";
    case Error::Kind::NoScript:
        return "noscript";
    case Error::Kind::Auth:
        return "auth";
    case Error::Kind::Invalid:
    case Error::Kind::Conflict:
    case Error::Kind::Internal:
        break;
    }
    return "other";
}

Metrics::Metrics(Options options)
    : m_options(std::move(options))
{}

RuleCounters *Metrics::rule(const QString &id)
{
    std::lock_guard l(m_rulesMutex);
    auto &slot = m_rules[id];
    if (!slot) {
        slot = std::make_unique<RuleCounters>();
        slot->id = id.toUtf8();
        compatLabels(id, &slot->domain, &slot->key1, &slot->key2);
    }
    return slot.get();
}

void Metrics::countRedisError(const Error &e)
{
    const QByteArrayView kind = redisErrorKind(e);
    for (size_t i = 0; i < errorKinds.size(); ++i) {
        if (kind == errorKinds[i]) {
            m_redisErrors[i].fetch_add(1, std::memory_order_relaxed);
            return;
        }
    }
}

QByteArray Metrics::contentType(bool openMetrics)
{
    return openMetrics ? QByteArrayLiteral("application/openmetrics-text; version=1.0.0; "
                                           "charset=utf-8")
                       : QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8");
}

bool Metrics::wantsOpenMetrics(QByteArrayView accept)
{
    return QByteArray(accept.data(), accept.size())
        .toLower()
        .contains("application/openmetrics-text");
}

namespace {

// A counter per reason: NAME{reason="REASON"} N.
template <size_t N>
void putByReason(QByteArray &out, const char *name, const std::array<const char *, N> &reasons,
                 const std::array<std::atomic<std::uint64_t>, N> &counters)
{
    for (size_t i = 0; i < N; ++i) {
        out.append(name).append("{reason=\"").append(reasons[i]).append("\"} ");
        putNumber(out, counters[i].load(std::memory_order_relaxed));
        out.append('\n');
    }
}

} // namespace

void Metrics::renderGrpcGuard(QByteArray &out, bool openMetrics) const
{
    constexpr auto relaxed = std::memory_order_relaxed;
    family(out, "sluice_grpc_connections", "gauge", "Open gRPC connections.", openMetrics);
    out.append("sluice_grpc_connections ");
    putNumber(out, std::uint64_t(std::max(m_grpcConnections.load(relaxed), 0)));
    out.append('\n');
    family(out, "sluice_grpc_connections_refused_total", "counter",
           "gRPC connections refused at accept, by why.", openMetrics);
    static constexpr std::array<const char *, size_t(GrpcRefused::count)> refused{
        "max_connections", "max_connections_per_peer", "out_of_descriptors"};
    putByReason(out, "sluice_grpc_connections_refused_total", refused, m_grpcRefused);
    family(out, "sluice_grpc_connections_closed_total", "counter",
           "gRPC connections the service closed: too many calls unfinished (streams) or ended "
           "unanswered (resets).",
           openMetrics);
    static constexpr std::array<const char *, size_t(GrpcClosed::count)> closed{"streams",
                                                                                "resets"};
    putByReason(out, "sluice_grpc_connections_closed_total", closed, m_grpcClosed);
    family(out, "sluice_grpc_overrides_refused_total", "counter",
           "Descriptors whose limit override was refused: the service keeps a bounded number of "
           "override limits.",
           openMetrics);
    out.append("sluice_grpc_overrides_refused_total ");
    putNumber(out, m_overridesRefused.load(relaxed));
    out.append('\n');
}

QByteArray Metrics::render(const Gauges &gauges, bool openMetrics) const
{
    std::vector<const RuleCounters *> rules;
    {
        std::lock_guard l(m_rulesMutex);
        for (const auto &[id, counters] : m_rules) {
            rules.push_back(counters.get());
        }
    }
    QByteArray out;
    out.reserve(4096 + qsizetype(rules.size()) * 1200);
    constexpr auto relaxed = std::memory_order_relaxed;

    family(out, "sluice_decisions_total", "counter",
           "Decisions answered, by rule, outcome and where the decision came from.", openMetrics);
    for (const RuleCounters *r : rules) {
        for (int o = 0; o < RuleCounters::outcomes; ++o) {
            for (int s = 0; s < RuleCounters::sources; ++s) {
                out.append("sluice_decisions_total{rule=\"");
                putLabel(out, r->id);
                out.append("\",decision=\"").append(outcomeNames[size_t(o)]);
                out.append("\",source=\"").append(sourceNames[size_t(s)]).append("\"} ");
                putNumber(out, r->decisions[size_t(o)][size_t(s)].load(relaxed));
                out.append('\n');
            }
        }
    }
    family(out, "sluice_near_limit_total", "counter",
           "Admissions that left at most 20 % of the rule's limit.", openMetrics);
    for (const RuleCounters *r : rules) {
        out.append("sluice_near_limit_total{rule=\"");
        putLabel(out, r->id);
        out.append("\"} ");
        putNumber(out, r->nearLimit.load(relaxed));
        out.append('\n');
    }
    family(out, "sluice_decision_duration_seconds", "histogram",
           "Time from a request's arrival to its decision.", openMetrics);
    m_decisionDuration.render(out, "sluice_decision_duration_seconds");
    family(out, "sluice_redis_command_duration_seconds", "histogram",
           "Time of one pipelined round trip of decisions to Redis.", openMetrics);
    m_redisDuration.render(out, "sluice_redis_command_duration_seconds");
    family(out, "sluice_redis_errors_total", "counter",
           "Redis errors met while deciding, by class of the error taxonomy.", openMetrics);
    for (size_t i = 0; i < errorKinds.size(); ++i) {
        out.append("sluice_redis_errors_total{kind=\"").append(errorKinds[i]).append("\"} ");
        putNumber(out, m_redisErrors[i].load(relaxed));
        out.append('\n');
    }
    family(out, "sluice_rules_version", "gauge",
           "The version of the rule set served (its RuleStore version; 0 for a file).",
           openMetrics);
    out.append("sluice_rules_version ");
    putNumber(out, std::uint64_t(std::max<qint64>(gauges.rulesVersion, 0)));
    out.append('\n');
    family(out, "sluice_rules_reload_total", "counter", "Rule set reloads, by result.",
           openMetrics);
    out.append("sluice_rules_reload_total{result=\"ok\"} ");
    putNumber(out, m_reloadOk.load(relaxed));
    out.append("\nsluice_rules_reload_total{result=\"error\"} ");
    putNumber(out, m_reloadFailed.load(relaxed));
    out.append('\n');
    family(out, "sluice_grpc_requests_total", "counter",
           "ShouldRateLimit requests (gRPC and POST /json), by how they were answered.",
           openMetrics);
    static constexpr std::array<const char *, size_t(GrpcResult::count)> grpcResults{
        "ok", "over_limit", "unknown_domain", "invalid_argument", "error"};
    for (size_t i = 0; i < grpcResults.size(); ++i) {
        out.append("sluice_grpc_requests_total{result=\"").append(grpcResults[i]).append("\"} ");
        putNumber(out, m_grpc[i].load(relaxed));
        out.append('\n');
    }
    family(out, "sluice_grpc_unmatched_descriptors_total", "counter",
           "Descriptors of a known domain that matched no rule (answered OK).", openMetrics);
    out.append("sluice_grpc_unmatched_descriptors_total ");
    putNumber(out, m_unmatched.load(relaxed));
    out.append('\n');
    renderGrpcGuard(out, openMetrics);
    family(out, "sluice_connections", "gauge", "Open HTTP connections.", openMetrics);
    out.append("sluice_connections ");
    putNumber(out, std::uint64_t(std::max(gauges.connections, 0)));
    out.append('\n');
    family(out, "sluice_build_info", openMetrics ? "info" : "gauge",
           "The version and git revision of this sluice-cli.", openMetrics);
    out.append("sluice_build_info{version=\"");
    putLabel(out, m_options.version);
    out.append("\",commit=\"");
    putLabel(out, m_options.commit);
    out.append("\"} 1\n");

    if (m_options.envoyCompat) {
        struct Compat
        {
            const char *name;
            const char *help;
            std::atomic<std::uint64_t> RuleCounters::*field;
        };
        const Compat compat[] = {
            {"ratelimit_service_rate_limit_total_hits", "Hits (envoy ratelimit's name).",
             &RuleCounters::hits},
            {"ratelimit_service_rate_limit_over_limit", "Hits over the limit.",
             &RuleCounters::overLimitHits},
            {"ratelimit_service_rate_limit_near_limit", "Hits within but near the limit.",
             &RuleCounters::nearLimitHits},
            {"ratelimit_service_rate_limit_within_limit", "Hits within the limit.",
             &RuleCounters::withinLimitHits},
            {"ratelimit_service_rate_limit_shadow_mode",
             "Hits over the limit that a shadow rule let through.", &RuleCounters::shadowHits},
        };
        for (const Compat &c : compat) {
            // statsd_exporter maps envoy ratelimit's statsd counters to Prometheus counters
            // without the _total suffix: the names are kept as dashboards know them.
            const QByteArrayView name(c.name);
            out.append("# HELP ").append(name).append(' ').append(c.help).append('\n');
            out.append("# TYPE ").append(name).append(openMetrics ? " unknown\n" : " counter\n");
            for (const RuleCounters *r : rules) {
                compatSample(out, c.name, *r, (r->*c.field).load(relaxed));
            }
        }
        family(out, "ratelimit_service_response_time_seconds", "histogram",
               "Time from a request's arrival to its decision (envoy ratelimit's name).",
               openMetrics);
        m_decisionDuration.render(out, "ratelimit_service_response_time_seconds");
    }
    if (openMetrics) {
        out.append("# EOF\n");
    }
    return out;
}

// CheckService's GET /metrics (here rather than in checkservice.cpp: the metrics in one place).

Result<quint16> CheckService::listenMetrics(const QHostAddress &address, quint16 port)
{
    if (m_metricsHttp == nullptr) {
        HttpLimits limits = m_options.limits;
        limits.maxConnections = std::min(limits.maxConnections, 100);
        m_metricsHttp = new HttpServer(
            limits,
            [this](const RequestHead &request, const Ticket &ticket, const HttpServer::Gone &) {
                if (request.path != "/metrics") {
                    m_metricsHttp->respond(
                        ticket,
                        formatResponse(404, {},
                                       errorBody(404, QStringLiteral("not_found"),
                                                 QStringLiteral("this port answers GET /metrics "
                                                                "only")),
                                       request.close),
                        request.close);
                    return;
                }
                handleMetrics(*m_metricsHttp, request, ticket);
            },
            0, {}, this);
    }
    auto bound = m_metricsHttp->listen(address, port);
    if (!bound) {
        return bound.error();
    }
    m_metricsHttp->start();
    m_metricsOwnPort = true;
    return *bound;
}

void CheckService::handleMetrics(HttpServer &http, const RequestHead &request, const Ticket &ticket)
{
    if (request.method != "GET") {
        http.respond(ticket,
                     formatResponse(405, {{QByteArrayLiteral("Allow"), QByteArrayLiteral("GET")}},
                                    errorBody(405, QStringLiteral("method_not_allowed"),
                                              QStringLiteral("%1 is not allowed on /metrics; use "
                                                             "GET")
                                                  .arg(QString::fromLatin1(request.method))),
                                    request.close),
                     request.close);
        return;
    }
    Metrics::Gauges g;
    if (const RuleTablePtr table = rules()) {
        g.rulesLoaded = true;
        g.rulesVersion = table->version();
    }
    g.connections = m_loops[0]->http->connections();
    const bool om = Metrics::wantsOpenMetrics(request.accept);
    const QByteArray body = m_metrics->render(g, om);
    QByteArray out;
    {
        bytes::ByteWriter w(out, 200 + body.size());
        w.put("HTTP/1.1 200 OK\r\nContent-Type: ").put(Metrics::contentType(om));
        w.put("\r\nContent-Length: ").number(body.size());
        w.put("\r\nCache-Control: no-store\r\n");
        writeResponseEnd(w, body, request.close);
    }
    http.respond(ticket, std::move(out), request.close);
}

} // namespace sluice::serve
