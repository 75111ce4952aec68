#include "decisionpool.h"

#include "denycache.h"
#include "metrics.h"

#include "core/common/bytes.h"
#include "core/limiter/redislimiter.h"
#include "core/redis/errors.h"
#include "core/redis/lazyconnection.h"

#include <QDateTime>

#include <optional>

namespace sluice::serve {

namespace {

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

// While Redis is down a `deny` rule asks the client to come back after this long: the prober
// retries at least this often, so the answer is neither a busy loop nor a long lock-out.
constexpr qint64 denyRetryMs = 1000;

// Redis cannot decide now, but a new connection (maybe to a new master after a failover) or a
// moment will: a lost connection, or READONLY, MASTERDOWN, LOADING, BUSY, ... (reliability
// review finding 2). Answered by on_redis_error; the pool is marked down and reconnects.
// The error reply itself, also when a step before the call reports it ("refused to load the
// script fixed_window: BUSY Redis is busy ...").
Error innerReply(const Error &e)
{
    if (e.kind != Error::Kind::Reply) {
        return e;
    }
    const qsizetype at = e.message.lastIndexOf(QLatin1String(": "));
    return at < 0 ? e : Error::make(Error::Kind::Reply, e.message.mid(at + 2));
}

// Refused credentials or permissions (NOAUTH after a password was set, WRONGPASS, NOPERM after
// an ACL change): no decision can come from Redis until someone fixes them, and every request
// a 500 would make a fail-closed service of a misconfiguration; on_redis_error answers.
bool isRefused(const Error &e)
{
    return e.kind == Error::Kind::Auth;
}

bool isUnavailable(const Error &e)
{
    return e.isConnectionLoss() || isRefused(e) || redis::isUnavailableReply(e) ||
           redis::isUnavailableReply(innerReply(e));
}

// Redis answers but refuses writes (OOM over maxmemory, MISCONF after a failed save): an
// admission that would write is answered by on_redis_error, denials still come from Redis.
bool isWriteRefused(const Error &e)
{
    return redis::isWriteRefusedReply(e) || redis::isWriteRefusedReply(innerReply(e));
}

bool isDiskError(const Error &e)
{
    return redis::isDiskErrorReply(e) || redis::isDiskErrorReply(innerReply(e));
}

} // namespace

Verdict verdictOf(const DecisionOutcome &o)
{
    Verdict v;
    v.policy = &o.job.effectivePolicy();
    v.policyHeader = &o.job.effectivePolicyHeader();
    const bool shadow = o.job.rule->rule.shadow;
    v.allowed = o.decision.allowed || shadow;
    v.shadowDenied = shadow && !o.decision.allowed;
    v.decision = o.decision.allowed ? QByteArrayView("allowed")
                 : shadow           ? QByteArrayView("shadow-denied")
                                    : QByteArrayView("denied");
    if (o.job.override != nullptr) {
        v.overrideAction = o.job.override->action == Override::Action::Allow  ? "allow"
                           : o.job.override->action == Override::Action::Deny ? "deny"
                                                                              : "limit";
    }
    return v;
}

QByteArray decisionSourceName(DecisionSource s)
{
    switch (s) {
    case DecisionSource::Redis:
        return QByteArrayLiteral("redis");
    case DecisionSource::Local:
        return QByteArrayLiteral("local");
    case DecisionSource::Allow:
        return QByteArrayLiteral("allow");
    case DecisionSource::Cache:
        return QByteArrayLiteral("cache");
    case DecisionSource::Override:
        return QByteArrayLiteral("override");
    case DecisionSource::Deny:
        break;
    }
    return QByteArrayLiteral("deny");
}

DecisionPool::DecisionPool(Endpoint endpoint, Options options, Deliver deliver, Record record)
    : m_endpoint(std::move(endpoint))
    , m_options(options)
    , m_deliver(std::move(deliver))
    , m_record(std::move(record))
{
    m_options.workers = std::max(1, m_options.workers);
    m_options.maxBatch = std::max(1, m_options.maxBatch);
    // Optimistic until proven otherwise: the first batch connects; a failure marks Redis down.
    m_redisUp = true;
    m_health.redisUp = true;
    m_health.changedAtMs = nowMs();
}

DecisionPool::~DecisionPool()
{
    stop();
}

void DecisionPool::start()
{
    if (!m_threads.empty()) {
        return;
    }
    {
        std::lock_guard l(m_queueMutex);
        m_stopping = false;
    }
    m_stopFlag = false;
    m_threads.emplace_back([this] { proberLoop(); });
    for (int i = 0; i < m_options.workers; ++i) {
        m_threads.emplace_back([this, i] { workerLoop(i); });
    }
}

void DecisionPool::stop()
{
    {
        std::lock_guard l(m_queueMutex);
        m_stopping = true;
        m_queue.clear();
    }
    m_queueCv.notify_all();
    {
        std::lock_guard l(m_probeMutex);
        m_stopFlag = true;
    }
    m_probeCv.notify_all();
    for (std::thread &t : m_threads) {
        t.join();
    }
    m_threads.clear();
}

void DecisionPool::submit(DecisionJob &&job)
{
    job.deadline = std::min(job.deadline, std::chrono::steady_clock::now() + m_options.timeout);
    {
        std::lock_guard l(m_queueMutex);
        m_queue.push_back(std::move(job));
    }
    m_queueCv.notify_one();
}

void DecisionPool::submit(std::vector<DecisionJob> &jobs)
{
    if (jobs.empty()) {
        return;
    }
    const auto deadline = std::chrono::steady_clock::now() + m_options.timeout;
    {
        std::lock_guard l(m_queueMutex);
        for (DecisionJob &job : jobs) {
            job.deadline = std::min(job.deadline, deadline);
            m_queue.push_back(std::move(job));
        }
    }
    // One worker takes up to maxBatch; more wake the others.
    if (jobs.size() > size_t(m_options.maxBatch)) {
        m_queueCv.notify_all();
    } else {
        m_queueCv.notify_one();
    }
    jobs.clear();
}

DecisionPool::Health DecisionPool::health() const
{
    std::lock_guard l(m_healthMutex);
    Health h = m_health;
    h.redisUp = m_redisUp.load();
    h.state = !h.redisUp ? (m_credentialsRefused ? QStringLiteral("credentials_refused")
                                                 : QStringLiteral("down"))
              : m_writesRefused.load() == WritesRefused::OutOfMemory ? QStringLiteral("memory_full")
              : m_writesRefused.load() == WritesRefused::DiskError ? QStringLiteral("write_refused")
                                                                   : QStringLiteral("up");
    return h;
}

void DecisionPool::countError(const Error &e)
{
    if (m_options.metrics != nullptr) {
        m_options.metrics->countRedisError(e);
    }
}

void DecisionPool::markDown(const Error &e, bool wakeProber)
{
    markDown(e.message, wakeProber, isRefused(e));
}

void DecisionPool::markDown(const QString &why, bool wakeProber, bool refused)
{
    refused = refused || why.contains(QLatin1String("refused the credentials"));
    QString line;
    {
        std::lock_guard l(m_healthMutex);
        m_health.lastError = why;
        const bool wasUp = m_redisUp.exchange(false);
        if (wasUp) {
            ++m_downEpoch;
        }
        // One line per change of state: up -> down or credentials_refused, and between those
        // two (a refusal found after a cut, a cut while refused).
        if (wasUp || refused != m_credentialsRefused) {
            m_health.changedAtMs = nowMs();
            line = refused
                       ? QStringLiteral("Redis refused the credentials: %1").arg(why)
                       : QStringLiteral("Redis is down, answering by on_redis_error: %1").arg(why);
        }
        m_credentialsRefused = refused;
    }
    if (!line.isEmpty() && m_options.log) {
        m_options.log(line);
    }
    if (!wakeProber) {
        return;
    }
    {
        std::lock_guard l(m_probeMutex);
        m_probeNow = true;
    }
    m_probeCv.notify_all();
}

void DecisionPool::markUp()
{
    bool changed = false;
    {
        std::lock_guard l(m_healthMutex);
        if (!m_redisUp.exchange(true)) {
            m_health.changedAtMs = nowMs();
            changed = true;
        }
        m_credentialsRefused = false;
    }
    if (changed && m_options.log) {
        m_options.log(QStringLiteral("Redis is up again at %1").arg(m_endpoint.display()));
    }
}

void DecisionPool::setWritesRefused(WritesRefused why, const QString &message)
{
    if (m_writesRefused.exchange(why) == why) {
        return;
    }
    if (why != WritesRefused::No) {
        std::lock_guard l(m_healthMutex);
        m_health.lastError = message;
    }
    if (m_options.log) {
        m_options.log(why == WritesRefused::OutOfMemory
                          ? QStringLiteral("Redis is out of memory, admissions are answered by "
                                           "on_redis_error: %1")
                                .arg(message)
                      : why == WritesRefused::DiskError
                          ? QStringLiteral("Redis refuses writes (it cannot persist), admissions "
                                           "are answered by on_redis_error: %1")
                                .arg(message)
                          : QStringLiteral("Redis accepts writes again"));
    }
}

DecisionOutcome DecisionPool::fallback(DecisionJob &&job, bool uncertain)
{
    DecisionOutcome o;
    o.uncertain = uncertain;
    const ServiceRule &r = *job.rule;
    const qint64 capacity = job.policy != nullptr ? job.policy->capacity() : r.capacity;
    switch (r.rule.onRedisError) {
    case OnRedisError::Allow:
        // Nothing is counted while Redis is away: the whole quota is reported.
        o.decision = Decision{true, capacity, capacity, -1, 0, 0};
        o.source = DecisionSource::Allow;
        break;
    case OnRedisError::Deny:
        o.decision = Decision{false, capacity, 0, denyRetryMs, denyRetryMs, 0};
        o.source = DecisionSource::Deny;
        break;
    case OnRedisError::Local: {
        std::lock_guard l(m_localMutex);
        // Maybe counted by Redis already: the twin answers from what it holds (a peek) and is
        // not charged a second time.
        auto d = m_local.decide(
            Request{&job.effectivePolicy(), job.key, uncertain ? 0 : job.cost, std::nullopt, 0});
        if (d) {
            o.decision = *d;
            if (uncertain) {
                o.decision.allowed = d->remaining >= job.cost;
            }
        } else {
            o.error = d.error().message;
        }
        o.source = DecisionSource::Local;
        break;
    }
    }
    o.job = std::move(job);
    return o;
}

// A worker's own: its Redis connection (reconnected by LazyConnection's rule, and after any
// outage found since it was made: a new TCP connection, so a moved VIP, a DNS name or a failover
// is followed), the limiter over it, and the buffers its batches reuse.
struct DecisionPool::Worker
{
    Worker(const Endpoint &endpoint, const Connection::Options &options,
           const std::atomic<quint64> *outages)
        : redis(endpoint, options)
    {
        redis.followOutages(outages);
    }
    LazyConnection redis;
    std::optional<RedisLimiter> limiter; // over redis's connection
    quint64 epoch = 0;                   // m_downEpoch when the connection was made
    std::vector<DecisionJob> batch;      // to send to Redis
    std::vector<Request> requests;       // batch's, for the limiter
    BatchCounts counts;
};

void DecisionPool::workerLoop(int index)
{
    Q_UNUSED(index)
    Worker w(m_endpoint, m_options.connection, &m_downEpoch);
    for (;;) {
        w.batch.clear();
        w.counts = {};
        std::vector<DecisionOutcome> out;
        if (!takeBatch(w, out)) {
            return;
        }
        out.reserve(out.size() + w.batch.size());
        if (!w.batch.empty() && connected(w)) {
            decideOnRedis(w, out);
        } else {
            for (DecisionJob &j : w.batch) {
                out.push_back(fallback(std::move(j)));
            }
        }
        countBatch(w.counts, qint64(out.size()));
        if (out.empty()) {
            continue;
        }
        if (m_record) {
            for (const DecisionOutcome &o : out) {
                // Peeks (cost 0) are questions, not traffic: they are not counted.
                if (o.error.isEmpty() && o.job.cost > 0) {
                    m_record(o.job.rule->rule.id, o.job.subject, o.decision,
                             o.job.rule->rule.shadow);
                }
            }
        }
        m_deliver(std::move(out));
    }
}

bool DecisionPool::takeBatch(Worker &w, std::vector<DecisionOutcome> &out)
{
    std::unique_lock l(m_queueMutex);
    m_queueCv.wait(l, [this] { return m_stopping || !m_queue.empty(); });
    if (m_stopping) {
        return false;
    }
    // A job is sent only if Redis has its whole command timeout to answer before the job's
    // deadline; an older one is answered now, by its rule's on_redis_error.
    const auto sendBy = std::chrono::steady_clock::now() + m_options.connection.commandTimeout;
    while (!m_queue.empty() && w.batch.size() < size_t(m_options.maxBatch)) {
        DecisionJob j = std::move(m_queue.front());
        m_queue.pop_front();
        if (j.gone && j.gone->load()) {
            ++w.counts.abandoned; // the client left: no decision, no answer
        } else if (j.deadline < sendBy) {
            ++w.counts.expired;
            out.push_back(fallback(std::move(j)));
        } else {
            w.batch.push_back(std::move(j));
        }
    }
    return true;
}

bool DecisionPool::connected(Worker &w)
{
    if (!m_redisUp.load()) {
        return false;
    }
    auto c = w.redis.get();
    if (!c) {
        countError(c.error());
        markDown(c.error());
        return false;
    }
    if (!w.limiter) {
        w.limiter.emplace(*c);
    }
    w.epoch = w.redis.outagesSeen();
    return true;
}

void DecisionPool::decideOnRedis(Worker &w, std::vector<DecisionOutcome> &out)
{
    w.requests.clear();
    for (const DecisionJob &j : w.batch) {
        w.requests.push_back(Request{&j.effectivePolicy(), j.key, j.cost, std::nullopt, 0});
    }
    const qint64 sentMs = steadyMs();
    const auto sent = std::chrono::steady_clock::now();
    auto results = w.limiter->decideBatch(w.requests);
    if (m_options.metrics != nullptr) {
        m_options.metrics->observeRedisNs(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                              std::chrono::steady_clock::now() - sent)
                                              .count());
    }
    if (!results) {
        batchFailed(w, results.error(), out);
        return;
    }
    bool wrote = false;
    for (size_t i = 0; i < w.batch.size(); ++i) {
        auto &r = (*results)[i];
        if (!r) {
            countError(r.error());
        }
        if (!r && isUnavailable(r.error())) {
            noteFailed(w.batch[i]);
            markDown(r.error());
            out.push_back(fallback(std::move(w.batch[i])));
            continue;
        }
        if (!r && isWriteRefused(r.error())) {
            // An admission that would write: unavailable for it; denials (which write
            // nothing) keep coming from Redis.
            setWritesRefused(isDiskError(r.error()) ? WritesRefused::DiskError
                                                    : WritesRefused::OutOfMemory,
                             r.error().message);
            out.push_back(fallback(std::move(w.batch[i])));
            continue;
        }
        DecisionOutcome o;
        o.job = std::move(w.batch[i]);
        o.sentMs = sentMs;
        o.epoch = w.epoch;
        if (r) {
            o.decision = *r;
            ++w.counts.redisDecisions;
            wrote = wrote || (r->allowed && o.job.cost > 0);
        } else {
            o.error = r.error().message;
            ++w.counts.errors;
        }
        out.push_back(std::move(o));
    }
    if (wrote) {
        setWritesRefused(WritesRefused::No);
    }
}

void DecisionPool::batchFailed(Worker &w, const Error &e, std::vector<DecisionOutcome> &out)
{
    countError(e);
    if (isUnavailable(e)) {
        if (!w.batch.empty()) {
            noteFailed(w.batch.front());
        }
        markDown(e);
        // A transport failure after the batch was written: Redis may have applied some of it.
        const bool maybeApplied = e.isConnectionLoss();
        for (DecisionJob &j : w.batch) {
            out.push_back(fallback(std::move(j), maybeApplied));
        }
        w.counts.uncertain += maybeApplied ? qint64(w.batch.size()) : 0;
    } else if (isWriteRefused(e)) {
        setWritesRefused(isDiskError(e) ? WritesRefused::DiskError : WritesRefused::OutOfMemory,
                         e.message);
        for (DecisionJob &j : w.batch) {
            out.push_back(fallback(std::move(j)));
        }
    } else {
        for (DecisionJob &j : w.batch) {
            DecisionOutcome o;
            o.job = std::move(j);
            o.error = e.message;
            out.push_back(std::move(o));
        }
        w.counts.errors += qint64(w.batch.size());
    }
}

void DecisionPool::countBatch(const BatchCounts &c, qint64 outcomes)
{
    std::lock_guard l(m_healthMutex);
    m_health.decisions += c.redisDecisions;
    m_health.errors += c.errors;
    m_health.fallbacks += outcomes - c.redisDecisions - c.errors;
    m_health.batches += (c.redisDecisions + c.errors) > 0 ? 1 : 0;
    m_health.expired += c.expired;
    m_health.abandoned += c.abandoned;
    m_health.uncertain += c.uncertain;
}

void DecisionPool::noteFailed(const DecisionJob &job)
{
    std::lock_guard l(m_healthMutex);
    m_failedProbe = FailedProbe{job.table, job.rule, &job.effectivePolicy(), job.key};
}

QString DecisionPool::probeFailed(bool *refused)
{
    std::optional<FailedProbe> probe;
    {
        std::lock_guard l(m_healthMutex);
        probe = m_failedProbe;
    }
    if (!probe) {
        return {};
    }
    LazyConnection once(m_endpoint, m_options.connection); // one attempt: no retry here
    auto c = once.get();
    if (!c) {
        *refused = isRefused(c.error());
        return c.error().message;
    }
    RedisLimiter limiter(*c);
    const auto d = limiter.decide(Request{probe->policy, probe->key, 0, std::nullopt, 0});
    if (!d && (isRefused(d.error()) || isUnavailable(d.error()))) {
        *refused = isRefused(d.error());
        return d.error().message;
    }
    std::lock_guard l(m_healthMutex);
    m_failedProbe.reset();
    return {};
}

void DecisionPool::proberLoop()
{
    // A worker that found Redis down since this connection was made makes it reconnect: the
    // probe goes where a new connection goes (after a failover, the new master), not to the
    // old socket's server, which may be a demoted master that still answers PING.
    LazyConnection redis(m_endpoint, m_options.connection);
    redis.followOutages(&m_downEpoch);
    auto backoff = m_options.minBackoff;
    for (;;) {
        {
            std::lock_guard l(m_queueMutex);
            if (m_stopping) {
                return;
            }
        }
        QString error;
        bool refused = false;
        Connection *c = nullptr;
        if (auto got = redis.get(); got) {
            c = *got;
        } else {
            error = got.error().message;
            countError(got.error());
            refused = isRefused(got.error());
        }
        if (error.isEmpty()) {
            // ROLE: a demoted master answers PING but refuses every admission (READONLY), so
            // it is not "up". A user that may not run ROLE is probed with PING.
            auto role = c->command({QByteArrayLiteral("ROLE")});
            if (role && role->isArray() && !role->elements.empty() &&
                role->elements[0].str != "master") {
                error = QStringLiteral("Redis at %1 is a replica (ROLE %2): it refuses writes "
                                       "(READONLY)")
                            .arg(m_endpoint.display(), bytes::quoted(role->elements[0].str));
                redis.reset();
            } else if (!role && role.error().kind != Error::Kind::Auth) {
                error = role.error().message;
                countError(role.error());
            } else if (!role) {
                // A user that may not run ROLE, or no credentials at all (NOAUTH).
                auto pong = c->command({QByteArrayLiteral("PING")});
                if (!pong) {
                    error = pong.error().message;
                    countError(pong.error());
                    refused = isRefused(pong.error());
                }
            }
        }
        if (error.isEmpty()) {
            // ROLE and PING answer while the server is LOADING, and a user refused EVALSHA may
            // still run them: Redis is up once the decision that failed is allowed again.
            error = probeFailed(&refused);
        }
        std::chrono::milliseconds wait = m_options.probeInterval;
        if (error.isEmpty()) {
            markUp();
            backoff = m_options.minBackoff;
        } else {
            markDown(error, false, refused);
            wait = backoff;
            backoff = std::min(backoff * 2, m_options.maxBackoff);
        }
        std::unique_lock l(m_probeMutex);
        // A worker that finds Redis down wakes the prober at once (m_probeNow), but only while
        // the prober is not backing off: a storm of failures must not become a storm of probes.
        m_probeCv.wait_for(l, wait,
                           [&] { return m_stopFlag.load() || (m_probeNow && error.isEmpty()); });
        m_probeNow = false;
        if (m_stopFlag) {
            return;
        }
    }
}

} // namespace sluice::serve
