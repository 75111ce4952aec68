#pragma once

#include "decisionpool.h"

#include "core/common/result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace sluice::serve {

// A histogram of durations with fixed buckets (seconds: 50 µs to 1 s), lock-free: observe()
// is one relaxed increment of its bucket and one of the sum. The count is the sum of the
// buckets when it is rendered, so _count always equals the +Inf bucket.
class DurationHistogram
{
public:
    static constexpr std::array<std::int64_t, 14> boundsNs{
        50'000,     100'000,    250'000,    500'000,     1'000'000,   2'500'000,   5'000'000,
        10'000'000, 25'000'000, 50'000'000, 100'000'000, 250'000'000, 500'000'000, 1'000'000'000};

    void observeNs(std::int64_t ns);
    // `name`_bucket{le=...} (cumulative), `name`_sum, `name`_count.
    void render(QByteArray &out, QByteArrayView name) const;

private:
    std::array<std::atomic<std::uint64_t>, boundsNs.size() + 1> m_buckets{};
    std::atomic<std::uint64_t> m_sumNs{0};
};

// The counters of one rule (by id): kept for the life of the process, so that a rule reloaded
// (or removed and added again) never sees its counters go down. The service's hot path
// reaches them through ServiceRule::counters: relaxed atomic increments, no lock, no lookup.
struct RuleCounters
{
    enum Outcome { Allowed, Denied, ShadowDenied, Failed, outcomes };
    // The source label: redis, local (the twin), cache (the deny cache), override
    // (on_redis_error allow / deny).
    enum Source { Redis, Local, Cache, Override, sources };

    QByteArray id; // the rule id (UTF-8): the `rule` label
    // envoy ratelimit's labels (--metrics-compat envoy-ratelimit): see compatLabels().
    QByteArray domain, key1, key2;

    std::array<std::array<std::atomic<std::uint64_t>, sources>, outcomes> decisions{};
    std::atomic<std::uint64_t> nearLimit{0};
    // In hits (the costs), as envoy ratelimit counts them.
    std::atomic<std::uint64_t> hits{0}, overLimitHits{0}, nearLimitHits{0}, withinLimitHits{0},
        shadowHits{0};

    static Source sourceOf(DecisionSource s);
    // One answered decision: `shadow` the rule's shadow mode; `failed` no decision (an error).
    void count(const Decision &d, DecisionSource source, qint64 cost, bool shadow,
               bool failed = false);
};

// envoy ratelimit's domain, key1 and key2 for a rule id: a rule imported from its configuration
// is named DOMAIN.KEY[_VALUE].KEY[_VALUE]... (core/rules/envoyformat.h), which gives them back; any
// other rule is domain "sluice", key1 its id.
void compatLabels(const QString &ruleId, QByteArray *domain, QByteArray *key1, QByteArray *key2);

// The classes of the error taxonomy (core/redis/errors.h, core/common/result.h) a Redis error
// is counted under in sluice_redis_errors_total{kind}: io, timeout, closed, protocol, reply,
// noscript, auth, unavailable (READONLY, MASTERDOWN, LOADING, BUSY, ...), oom, redirect.
QByteArrayView redisErrorKind(const Error &e);

// The service's Prometheus metrics (FORMATS.md "GET /metrics"). Every label value comes from
// the configured rules or from fixed sets: no subject, key or request value is ever a label, so
// the number of series is bounded by the rules served.
class Metrics
{
public:
    struct Options
    {
        QByteArray version, commit; // sluice_build_info
        bool envoyCompat = false;   // --metrics-compat envoy-ratelimit
    };
    // What the scrape reads from the service at the time of the scrape.
    struct Gauges
    {
        qint64 rulesVersion = 0;
        bool rulesLoaded = false;
        int connections = 0;
    };

    explicit Metrics(Options options);

    // The counters of rule `id`, made on first use; the pointer lives as long as the Metrics.
    // Any thread (takes a lock: for rule-set loads, not for decisions).
    RuleCounters *rule(const QString &id);

    // Hot path (any thread, lock-free).
    void observeDecisionNs(std::int64_t ns) { m_decisionDuration.observeNs(ns); }
    void observeRedisNs(std::int64_t ns) { m_redisDuration.observeNs(ns); }
    void countRedisError(const Error &e);
    void countReload(bool ok) { (ok ? m_reloadOk : m_reloadFailed).fetch_add(1); }
    // The requests of the gRPC API (and POST /json), by how they were answered:
    // sluice_grpc_requests_total{result}. Unknown domains are answered by their policy and
    // counted apart; a descriptor of a known domain that matches no rule is answered OK.
    enum class GrpcResult { Ok, OverLimit, UnknownDomain, Invalid, Failed, count };
    void countGrpc(GrpcResult r) { m_grpc[size_t(r)].fetch_add(1, std::memory_order_relaxed); }
    void countUnmatchedDescriptor() { m_unmatched.fetch_add(1, std::memory_order_relaxed); }
    // The gRPC port's guard (grpcsession.h): connections refused at accept, by why
    // (sluice_grpc_connections_refused_total{reason}); connections closed for abuse
    // (sluice_grpc_connections_closed_total{reason}); those open (sluice_grpc_connections).
    enum class GrpcRefused { MaxConnections, MaxConnectionsPerPeer, OutOfDescriptors, count };
    enum class GrpcClosed { Streams, Resets, count };
    void countGrpcRefused(GrpcRefused r) { m_grpcRefused[size_t(r)].fetch_add(1); }
    void countGrpcClosed(GrpcClosed r) { m_grpcClosed[size_t(r)].fetch_add(1); }
    void setGrpcConnections(int n) { m_grpcConnections.store(n, std::memory_order_relaxed); }
    // A descriptor's limit override refused: the service keeps a bounded number of them
    // (sluice_grpc_overrides_refused_total).
    void countOverrideRefused() { m_overridesRefused.fetch_add(1, std::memory_order_relaxed); }

    // The exposition: the classic text format (0.0.4), or OpenMetrics 1.0 (`openMetrics`).
    // Consistent under concurrent decisions: every counter is read once, none goes down.
    QByteArray render(const Gauges &gauges, bool openMetrics) const;
    // The Content-Type of each.
    static QByteArray contentType(bool openMetrics);
    // Whether an Accept header asks for OpenMetrics (application/openmetrics-text).
    static bool wantsOpenMetrics(QByteArrayView accept);

private:
    void renderGrpcGuard(QByteArray &out, bool openMetrics) const;

    Options m_options;
    mutable std::mutex m_rulesMutex;
    std::map<QString, std::unique_ptr<RuleCounters>> m_rules;
    DurationHistogram m_decisionDuration;
    DurationHistogram m_redisDuration;
    std::array<std::atomic<std::uint64_t>, 10> m_redisErrors{};
    std::atomic<std::uint64_t> m_reloadOk{0}, m_reloadFailed{0};
    std::array<std::atomic<std::uint64_t>, size_t(GrpcResult::count)> m_grpc{};
    std::atomic<std::uint64_t> m_unmatched{0};
    std::array<std::atomic<std::uint64_t>, size_t(GrpcRefused::count)> m_grpcRefused{};
    std::array<std::atomic<std::uint64_t>, size_t(GrpcClosed::count)> m_grpcClosed{};
    std::atomic<int> m_grpcConnections{0};
    std::atomic<std::uint64_t> m_overridesRefused{0};
};

} // namespace sluice::serve
