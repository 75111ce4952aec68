#include "decisionpool.h"

#include "core/limiter/redislimiter.h"
#include "core/redis/errors.h"

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
bool isUnavailable(const Error &e)
{
    return e.isConnectionLoss() || redis::isUnavailableReply(e);
}

} // namespace

QByteArray decisionSourceName(DecisionSource s)
{
    switch (s) {
    case DecisionSource::Redis:
        return QByteArrayLiteral("redis");
    case DecisionSource::Local:
        return QByteArrayLiteral("local");
    case DecisionSource::Allow:
        return QByteArrayLiteral("allow");
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
    {
        std::lock_guard l(m_queueMutex);
        m_queue.push_back(std::move(job));
    }
    m_queueCv.notify_one();
}

DecisionPool::Health DecisionPool::health() const
{
    std::lock_guard l(m_healthMutex);
    Health h = m_health;
    h.redisUp = m_redisUp.load();
    return h;
}

void DecisionPool::markDown(const QString &why)
{
    {
        std::lock_guard l(m_healthMutex);
        m_health.lastError = why;
        if (m_redisUp.exchange(false)) {
            ++m_downEpoch;
            m_health.changedAtMs = nowMs();
        }
    }
    {
        std::lock_guard l(m_probeMutex);
        m_probeNow = true;
    }
    m_probeCv.notify_all();
}

void DecisionPool::markUp()
{
    std::lock_guard l(m_healthMutex);
    if (!m_redisUp.exchange(true)) {
        m_health.changedAtMs = nowMs();
    }
}

DecisionOutcome DecisionPool::fallback(DecisionJob &&job)
{
    DecisionOutcome o;
    const ServiceRule &r = *job.rule;
    switch (r.rule.onRedisError) {
    case OnRedisError::Allow:
        // Nothing is counted while Redis is away: the whole quota is reported.
        o.decision = Decision{true, r.capacity, r.capacity, -1, 0, 0};
        o.source = DecisionSource::Allow;
        break;
    case OnRedisError::Deny:
        o.decision = Decision{false, r.capacity, 0, denyRetryMs, denyRetryMs, 0};
        o.source = DecisionSource::Deny;
        break;
    case OnRedisError::Local: {
        std::lock_guard l(m_localMutex);
        auto d = m_local.decide(Request{&r.policy, job.key, job.cost, std::nullopt, 0});
        if (d) {
            o.decision = *d;
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

void DecisionPool::workerLoop(int index)
{
    Q_UNUSED(index)
    std::optional<RedisLimiter> limiter;
    quint64 epoch = 0; // m_downEpoch when the connection was made
    std::vector<DecisionJob> batch;
    std::vector<Request> requests;
    for (;;) {
        batch.clear();
        {
            std::unique_lock l(m_queueMutex);
            m_queueCv.wait(l, [this] { return m_stopping || !m_queue.empty(); });
            if (m_stopping) {
                return;
            }
            const size_t n = std::min(m_queue.size(), size_t(m_options.maxBatch));
            for (size_t i = 0; i < n; ++i) {
                batch.push_back(std::move(m_queue.front()));
                m_queue.pop_front();
            }
        }
        std::vector<DecisionOutcome> out;
        out.reserve(batch.size());
        bool useRedis = m_redisUp.load();
        if (useRedis) {
            const quint64 e = m_downEpoch.load();
            if (!limiter) {
                auto c = Connection::open(m_endpoint, m_options.connection);
                if (c) {
                    limiter.emplace(std::move(*c));
                    epoch = e;
                } else {
                    markDown(c.error().message);
                    useRedis = false;
                }
            } else if (limiter->connection().isBroken() || epoch != e) {
                if (auto r = limiter->connection().reconnect(); r) {
                    epoch = e;
                } else {
                    markDown(r.error().message);
                    useRedis = false;
                }
            }
        }
        qint64 redisDecisions = 0;
        qint64 errors = 0;
        if (useRedis) {
            requests.clear();
            for (const DecisionJob &j : batch) {
                requests.push_back(Request{&j.rule->policy, j.key, j.cost, std::nullopt, 0});
            }
            auto results = limiter->decideBatch(requests);
            if (!results) {
                if (isUnavailable(results.error())) {
                    markDown(results.error().message);
                    useRedis = false; // answered by on_redis_error below
                } else {
                    for (DecisionJob &j : batch) {
                        DecisionOutcome o;
                        o.job = std::move(j);
                        o.error = results.error().message;
                        out.push_back(std::move(o));
                    }
                    errors += qint64(out.size());
                }
            } else {
                for (size_t i = 0; i < batch.size(); ++i) {
                    auto &r = (*results)[i];
                    if (!r && isUnavailable(r.error())) {
                        markDown(r.error().message);
                        out.push_back(fallback(std::move(batch[i])));
                        continue;
                    }
                    DecisionOutcome o;
                    o.job = std::move(batch[i]);
                    if (r) {
                        o.decision = *r;
                        ++redisDecisions;
                    } else {
                        o.error = r.error().message;
                        ++errors;
                    }
                    out.push_back(std::move(o));
                }
            }
        }
        if (!useRedis && out.empty()) {
            for (DecisionJob &j : batch) {
                out.push_back(fallback(std::move(j)));
            }
        }
        {
            std::lock_guard l(m_healthMutex);
            m_health.decisions += redisDecisions;
            m_health.errors += errors;
            m_health.fallbacks += qint64(out.size()) - redisDecisions - errors;
            m_health.batches += (redisDecisions + errors) > 0 ? 1 : 0;
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

void DecisionPool::proberLoop()
{
    std::optional<Connection> c;
    quint64 epoch = 0; // m_downEpoch when `c` was made
    auto backoff = m_options.minBackoff;
    for (;;) {
        {
            std::lock_guard l(m_queueMutex);
            if (m_stopping) {
                return;
            }
        }
        QString error;
        const quint64 e = m_downEpoch.load();
        if (!c) {
            auto opened = Connection::open(m_endpoint, m_options.connection);
            if (opened) {
                c.emplace(std::move(*opened));
                epoch = e;
            } else {
                error = opened.error().message;
            }
        } else if (c->isBroken() || epoch != e) {
            // A worker found Redis down since this connection was made: probe where a new
            // connection goes (after a failover, the new master), not the old socket's server,
            // which may be a demoted master that still answers PING.
            if (auto r = c->reconnect(); !r) {
                error = r.error().message;
            } else {
                epoch = e;
            }
        }
        if (error.isEmpty()) {
            auto pong = c->command({QByteArrayLiteral("PING")});
            if (!pong) {
                error = pong.error().message;
            }
        }
        std::chrono::milliseconds wait = m_options.probeInterval;
        if (error.isEmpty()) {
            markUp();
            backoff = m_options.minBackoff;
        } else {
            {
                std::lock_guard l(m_healthMutex);
                m_health.lastError = error;
                if (m_redisUp.exchange(false)) {
                    ++m_downEpoch;
                    m_health.changedAtMs = nowMs();
                }
            }
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
