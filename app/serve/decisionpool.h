#pragma once

#include "ruletable.h"

#include "core/common/clock.h"
#include "core/limiter/decision.h"
#include "core/limiter/localmodel.h"
#include "core/redis/connection.h"
#include "core/redis/endpoint.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace sluice::serve {

class Metrics; // metrics.h

// Where a decision came from: the scripts in Redis, or the rule's on_redis_error while Redis
// was unreachable (the local twin, or a blanket allow / deny).
// Cache: the service's deny cache (denycache.h), which repeats a denial of Redis until its retry.
// Override: a per-subject allow or deny override of the rule, answered without Redis.
enum class DecisionSource { Redis, Local, Allow, Deny, Cache, Override };
QByteArray decisionSourceName(DecisionSource s);

struct DecisionOutcome;

// Where the outcome of a job goes when its request did not come over HTTP (the gRPC service,
// POST /json): take() is called once per job, in a decision worker's thread (or in the thread
// that submitted it when the deny cache answers at once). It must not block.
class OutcomeSink
{
public:
    virtual ~OutcomeSink() = default;
    virtual void take(DecisionOutcome &&outcome) = 0;
};

// One decision to make for one HTTP request, and what its answer needs.
struct DecisionJob
{
    RuleTablePtr table; // keeps `rule` alive
    const ServiceRule *rule = nullptr;
    // The policy decided by: the rule's (nullptr), or that of an override limit
    // (rule->overridePolicies), which has its own key.
    const Policy *policy = nullptr;
    const Override *override = nullptr; // the per-subject override that applied, if any
    const Policy &effectivePolicy() const { return policy != nullptr ? *policy : rule->policy; }
    // The RateLimit-Policy value of effectivePolicy().
    const QByteArray &effectivePolicyHeader() const
    {
        return policy != nullptr
                   ? rule->overridePolicyHeaders[size_t(policy - rule->overridePolicies.data())]
                   : rule->policyHeader;
    }
    QByteArray subject;
    QByteArray key;
    qint64 cost = 1;
    // Service-thread data carried through unchanged: where the answer goes (HttpServer).
    quint64 connection = 0;
    quint64 seq = 0; // the answer's place on its connection
    int loop = 0;    // the HTTP thread of the connection
    bool closeAfter = false;
    bool authMode = false;
    // Read by the workers: set once the client has gone (its request costs no decision).
    std::shared_ptr<const std::atomic<bool>> gone;
    // Set by submit() (--timeout-ms from then, or the client's own earlier deadline, a gRPC
    // call's grpc-timeout): past it the job is answered by on_redis_error, never sent to Redis.
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
    // When its request arrived (sluice_decision_duration_seconds).
    std::chrono::steady_clock::time_point received;
    // Not HTTP: the outcome goes to `sink` (its `slot`: the descriptor of the request) instead
    // of an HTTP connection; `gone` is then never set (every such job gets its outcome).
    std::shared_ptr<OutcomeSink> sink;
    int slot = 0;
};

struct DecisionOutcome
{
    DecisionJob job;
    Decision decision;
    DecisionSource source = DecisionSource::Redis;
    QString error; // non-empty: no decision (a script error reply); answered with 500
    // The job was sent to Redis, which did not answer in time (or the connection broke
    // meanwhile): it may have been applied there. Answered by on_redis_error without charging
    // the local twin; the answer says so (Sluice-Uncertain: 1).
    bool uncertain = false;
    qint64 sentMs = 0; // steady clock (denycache.h steadyMs) when its batch was sent to Redis
    quint64 epoch = 0; // DecisionPool::downEpoch() of the connection that decided it
};

// What every front end's answer says of one outcome, whatever its wire (HTTP's headers and
// JSON, gRPC's DescriptorStatus, POST /json): each front end only translates this.
struct Verdict
{
    const Policy *policy = nullptr;           // the policy that decided (an override limit's)
    const QByteArray *policyHeader = nullptr; // its RateLimit-Policy value
    bool allowed = false;          // as answered: a shadow rule lets every request through
    bool shadowDenied = false;     // a shadow rule's denial (answered allowed)
    QByteArrayView decision;       // "allowed", "denied" or "shadow-denied"
    QByteArrayView overrideAction; // "allow", "deny", "limit" (an override applied), or empty
};
Verdict verdictOf(const DecisionOutcome &o);

// Makes the service's decisions off the HTTP thread.
//
// Threads: `workers` decision threads, each with its own Redis connection (RedisLimiter is not
// thread-safe). A worker takes everything queued (up to maxBatch) and decides it in one
// pipelined round trip, so under load the round trips per request fall, and a slow call stalls
// only the requests of that worker's batch, never the HTTP thread or the other workers. One
// prober thread PINGs Redis on its own connection: once a second while Redis is up (so
// /healthz is fresh), with exponential back-off while it is down.
//
// Redis down: the first batch to fail (bounded by the command timeout), or to get an error reply
// that means "not now, not here" (READONLY from a demoted master, MASTERDOWN, LOADING, BUSY:
// redis::isUnavailableReply), or refused credentials or permissions (NOAUTH, WRONGPASS, NOPERM:
// state credentials_refused), marks Redis down and wakes the prober; from then on no worker touches
// the network: each job is answered at once by its rule's on_redis_error (allow, deny, or `local`:
// one shared LocalModel twin, so a subject's state is not split across workers). When the prober
// gets an answer again (on a new connection: after a failover, to wherever a connection now
// goes) and the decision that failed, asked again as a peek, succeeds, workers reconnect their
// own connections on their next batch and decisions come from Redis again.
//
// Redis answers but refuses writes (OOM over maxmemory, MISCONF after a failed save): Redis
// stays up; each admission that would write is answered by on_redis_error, denials still come
// from Redis (state memory_full or write_refused) until a write succeeds again.
//
// Results are handed to `deliver` in the worker thread, one call per batch; the receiver posts
// them to its own thread. `record` (optional) is called in the worker thread for every decision
// (statistics: core/stats StatsRecorder::record is thread-safe and cheap).
class DecisionPool
{
public:
    struct Options
    {
        int workers = 2;
        int maxBatch = 64;
        // The time a decision may take, from submit() to its answer (--timeout-ms). A job is
        // sent to Redis only while at least `connection.commandTimeout` of it is left, so an
        // answer comes within it (plus the time to write it); setTimeout() sets both.
        std::chrono::milliseconds timeout{500};
        Connection::Options connection{std::chrono::milliseconds(250),
                                       std::chrono::milliseconds(250)};
        // One line per change of state (Redis down, up, credentials refused), any thread.
        std::function<void(const QString &)> log;
        void setTimeout(std::chrono::milliseconds t)
        {
            timeout = t;
            connection.connectTimeout = connection.commandTimeout = t / 2;
        }
        // Optional: the round trips' durations and the Redis errors are counted there (any
        // thread; it outlives the pool).
        Metrics *metrics = nullptr;
        std::chrono::milliseconds probeInterval{1000}; // while Redis is up
        std::chrono::milliseconds minBackoff{100};     // while it is down: doubling up to
        std::chrono::milliseconds maxBackoff{2000};    // this
    };
    using Deliver = std::function<void(std::vector<DecisionOutcome> &&)>;
    using Record = std::function<void(const QString &ruleId, const QByteArray &subject,
                                      const Decision &d, bool shadow)>;

    struct Health
    {
        bool redisUp = false;
        // "up", "down", "credentials_refused" (both: Redis is not used), "memory_full" (OOM)
        // or "write_refused" (MISCONF: it cannot persist); in both Redis is up: admissions
        // that would write are answered by on_redis_error, denials come from Redis.
        QString state;
        QString lastError;      // why Redis was last found down (kept after recovery)
        qint64 changedAtMs = 0; // unix ms of the last up/down change
        qint64 decisions = 0;   // answered by Redis
        qint64 fallbacks = 0;   // answered by on_redis_error
        qint64 errors = 0;      // script error replies
        qint64 batches = 0;     // Redis round trips for decisions
        qint64 expired = 0;     // past their deadline before a worker took them
        qint64 abandoned = 0;   // their client had gone: not decided
        qint64 uncertain = 0;   // sent, no answer in time: maybe applied in Redis
    };

    DecisionPool(Endpoint endpoint, Options options, Deliver deliver, Record record = {});
    ~DecisionPool(); // stop()
    DecisionPool(const DecisionPool &) = delete;
    DecisionPool &operator=(const DecisionPool &) = delete;

    // Starts the threads; the prober connects at once. Never blocks on the network.
    void start();
    // Wakes and joins every thread; queued jobs are dropped. Bounded by the timeouts.
    void stop();

    void submit(DecisionJob &&job); // any thread
    // Every job of `jobs` (one lock, one wake-up), which is left empty.
    void submit(std::vector<DecisionJob> &jobs);
    Health health() const;                            // any thread
    bool redisUp() const { return m_redisUp.load(); } // any thread, cheap
    // Bumped whenever Redis is found down (any thread, cheap): what Redis said before may
    // no longer hold (a restart without persistence, a failover to a replica behind).
    quint64 downEpoch() const { return m_downEpoch.load(); }

private:
    void workerLoop(int index);
    // A worker's batch, step by step (decisionpool.cpp).
    struct Worker;
    struct BatchCounts
    {
        qint64 redisDecisions = 0, errors = 0, uncertain = 0, abandoned = 0, expired = 0;
    };
    // Waits for jobs and takes up to maxBatch: those to send into w.batch, those past their
    // deadline answered into `out`. False: the pool stops.
    bool takeBatch(Worker &w, std::vector<DecisionOutcome> &out);
    bool connected(Worker &w); // Redis is up and w's connection open
    // w.batch decided in one round trip (or, failing, by on_redis_error) into `out`.
    void decideOnRedis(Worker &w, std::vector<DecisionOutcome> &out);
    void batchFailed(Worker &w, const Error &e, std::vector<DecisionOutcome> &out);
    void countBatch(const BatchCounts &c, qint64 outcomes); // into m_health
    void proberLoop();
    // `refused`: the credentials (or the user's permissions) were refused: state
    // credentials_refused. A message saying "refused the credentials" is refused too.
    void markDown(const QString &why, bool wakeProber = true, bool refused = false);
    void markDown(const Error &e, bool wakeProber = true);
    void countError(const Error &e); // in Options::metrics, if any
    void markUp();
    // Why Redis refuses writes while it answers (OOM, MISCONF), or No.
    enum class WritesRefused { No, OutOfMemory, DiskError };
    void setWritesRefused(WritesRefused why, const QString &message = {});
    DecisionOutcome fallback(DecisionJob &&job, bool uncertain = false);

    Endpoint m_endpoint;
    Options m_options;
    Deliver m_deliver;
    Record m_record;

    std::mutex m_queueMutex;
    std::condition_variable m_queueCv;
    std::deque<DecisionJob> m_queue;
    bool m_stopping = false;

    std::mutex m_probeMutex;
    std::condition_variable m_probeCv;
    bool m_probeNow = false;
    std::atomic<bool> m_stopFlag{false};

    // The last decision that failed as unavailable (LOADING, READONLY, MASTERDOWN, BUSY,
    // TRYAGAIN, CLUSTERDOWN, a lost connection) or refused (credentials, permissions): while it
    // is set, the prober asks Redis that decision again as a peek (cost 0, nothing written)
    // and reports Redis up only once it succeeds, since a server that refuses every decision
    // may well answer PING and ROLE (LOADING, a NOPERM after an ACL change, a cluster that
    // lost a slot). Without it Redis flaps up and down at the rate of requests.
    // Under m_healthMutex.
    struct FailedProbe
    {
        RuleTablePtr table; // keeps `rule` alive
        const ServiceRule *rule = nullptr;
        const Policy *policy = nullptr; // the job's (an override limit's), or the rule's
        QByteArray key;
    };
    std::optional<FailedProbe> m_failedProbe;
    void noteFailed(const DecisionJob &job);
    QString probeFailed(bool *refused); // prober thread; the error, or empty

    std::atomic<bool> m_redisUp{false};
    std::atomic<WritesRefused> m_writesRefused{WritesRefused::No};
    bool m_credentialsRefused = false; // under m_healthMutex
    // Bumped whenever Redis is found down: a worker whose connection predates the current
    // epoch reconnects before using it (its socket may be to the old, dead server).
    std::atomic<quint64> m_downEpoch{0};
    mutable std::mutex m_healthMutex;
    Health m_health;

    SystemClock m_clock;
    std::mutex m_localMutex;
    LocalModel m_local{m_clock};

    std::vector<std::thread> m_threads;
};

} // namespace sluice::serve
