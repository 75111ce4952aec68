#pragma once

#include "decisionpool.h"
#include "denycache.h"
#include "httpreply.h"
#include "httpserver.h"
#include "metrics.h"
#include "ruletable.h"
#include "servelog.h"

#include "core/common/result.h"
#include "core/redis/endpoint.h"
#include "core/rules/rulestore.h"

#include <QHostAddress>
#include <QJsonObject>
#include <QObject>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

class QThread;

namespace sluice::rules {
class RuleWatcher;
}

namespace sluice::serve {

// The HTTP check service (FORMATS.md `sluice-cli serve`), on HttpServer (our
// HTTP/1.1 layer over epoll, httpserver.h).
//
//   GET /v1/check?rule=ID&subject=S[&cost=N]  200 allowed | 429 denied, the decision as JSON,
//       RateLimit-Policy + RateLimit always, Retry-After (whole s, rounded up) on 429, legacy
//       RateLimit-Limit/-Remaining/-Reset with Options::legacyHeaders. Shadow rules: decided and
//       recorded, always 200, "Sluice-Decision: shadow-denied" when the rule would have denied.
//   GET /v1/auth?rule=ID[&subject=S][&cost=N]  the same for nginx auth_request, which only
//       understands 2xx / 401 / 403: denied is 403 (nginx turns it into 429, see the
//       nginx-auth export). The subject may come in the Sluice-Subject header instead of the
//       query; none at all is not limited (200), as nginx limit_req does with an empty key.
//   GET /healthz  Redis reachability, rules version, decision counters.
//   GET /metrics  the Prometheus metrics (metrics.h), unless listenMetrics() put them on a
//       port of their own.
// Every answer says where its decision came from (Sluice-Source: redis, local, allow, deny);
// one answered by on_redis_error after its batch went unanswered (maybe applied in Redis) has
// "Sluice-Uncertain: 1". Bad input gets 400 / 404 / 405 (+ Allow) / 408 / 413 / 414 / 431 with
// {"status","error","message"}; 503 past --max-connections; 500 only for a failure that is not
// Redis being unavailable (a bug), without script internals in its body.
//
// Threading: lives in one thread with an event loop, which runs the first HTTP server (it
// accepts every connection); Options::httpThreads - 1 more servers run in threads of their
// own, each reading and answering the connections handed to it. The decisions are made by a
// DecisionPool (worker threads with their own Redis connections) and come back as queued
// calls to the connection's thread, so no event loop waits on Redis. The public methods are
// for the service's own thread.
class CheckService : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        Endpoint endpoint;
        bool legacyHeaders = false;
        bool denyCache = true; // denials repeated in-process until their retry (denycache.h)
        int httpThreads = 1;   // HTTP threads (one epoll loop each) on the one port
        DecisionPool::Options pool;
        HttpLimits limits;           // body, header, connection, timeout limits (httpparse.h)
        DecisionPool::Record record; // statistics hook, called in worker threads
        // /healthz in full (the Redis address, the rules' origin, reasons, counters); false:
        // {"status", "redis": {"state"}} only, for a port anyone may reach (--healthz-detail).
        bool healthDetail = true;
        // The "stats" object of /healthz (the statistics writer's state), service thread.
        std::function<QJsonObject()> statsHealth;
        Metrics::Options metrics; // GET /metrics (build info, --metrics-compat)
        ServeLog *log = nullptr;  // where a failed decision is logged; none: qWarning
        // POST /json (the gRPC API's request in the proto3 JSON mapping, grpcservice.h), in
        // the HTTP thread of the request: `reply` may be called from any thread, once. None
        // (built without gRPC support): 501.
        using JsonReply = std::function<void(int status, const QByteArray &body)>;
        std::function<void(const QByteArray &body, JsonReply reply)> json;
        // HTTPS on the service's port (not on listenMetrics()'s); none: plain HTTP.
        std::shared_ptr<ServerTls> tls;
    };

    explicit CheckService(Options options, QObject *parent = nullptr);
    ~CheckService() override; // stops the workers and the rule watcher

    // Listens and starts the workers. Port 0 picks a free port; the port is returned.
    Result<quint16> listen(const QHostAddress &address, quint16 port);
    quint16 port() const { return m_port; }
    // GET /metrics on a port of its own (in the service's thread), instead of the service's.
    // Call it before listen(): from then on the service's port answers /metrics 404.
    Result<quint16> listenMetrics(const QHostAddress &address, quint16 port);

    // The counters (any thread): the command counts its reloads there.
    Metrics &metrics() { return *m_metrics; }

    // Serves `set` from now on (a request in flight finishes with the rules it started with).
    void setRules(const RuleSet &set, qint64 version, const QString &origin);
    // Follows the RuleStore at Options::endpoint (RuleWatcher): every pushed version is served
    // within a round trip of the push. rulesChanged() tells when.
    void watchRuleStore(const rules::RuleStore &store = rules::RuleStore());

    RuleTablePtr rules() const; // any thread
    DecisionPool::Health health() const;
    // What the rule store holds but is not served (RuleWatcher::skipped): /healthz says
    // "degraded" with it while it is not empty; skippedChanged() when it changes.
    void setSkipped(const QStringList &why);

    // The per-subject override of `rule` that matches `subject` now (none for an empty subject
    // or a disabled rule). Any thread.
    struct OverrideMatch
    {
        rules::OverrideMatcher::Hit hit; // none: the rule's own limit decides
        qint64 nowUs = 0;                // when it was matched (unix µs)
        // The most one request may cost: an override limit's capacity, else the rule's (an
        // allow or deny override keeps the rule's policy).
        qint64 capacity = 0;
    };
    static OverrideMatch matchOverride(const ServiceRule &rule, QByteArrayView subject);

    // The admission of every front end (GET /v1/check and /v1/auth, gRPC, POST /json) is these
    // two steps; each front end only finds the rule, subject and cost before and translates the
    // outcome (verdictOf) to its wire after.
    //
    // screen(): the subject's override is matched (once per request), the cost checked against
    // the capacity that decides (an override limit's, else the rule's), then a request without a
    // subject or of a disabled rule is not limited. Any thread.
    enum class Screened { Decide, CostAboveCapacity, NotLimited };
    struct Admission
    {
        Screened screened = Screened::Decide;
        OverrideMatch match;
    };
    static Admission screen(const ServiceRule &rule, QByteArrayView subject, qint64 cost);
    // admit(): a job screened Decide (its `match`), in one order: the rule's staged candidate
    // decides the same request in shadow (a job of its own, into `queue`); an allow or deny
    // override is answered at once, an override limit decides by its own policy and key; the
    // deny cache answers a denial it holds; else the job goes into `queue` for the workers.
    // Returns the outcome answered at once (not yet counted: account()); the others come back
    // from the pool. `served` is the table the service serves (the deny cache is its): a job
    // of another table is never answered from it. Any thread, after listen().
    std::optional<DecisionOutcome> admit(DecisionJob &job, const OverrideMatch &match,
                                         const RuleTablePtr &served,
                                         std::vector<DecisionJob> &queue);

    // Decisions of another front end (the gRPC service): every job has a sink, which gets its
    // outcome (admit(): as HTTP's are), counted in the metrics and statistics as HTTP's.
    // matches[i] is screen() of jobs[i]. Any thread, after listen(); `jobs` is left empty.
    void decide(std::vector<DecisionJob> &jobs, const std::vector<OverrideMatch> &matches);

    // A listener's trouble (`reason`; "" once it is over), e.g. the gRPC port out of file
    // descriptors: /healthz says "degraded" and gives it under "problems". Any thread.
    void setProblem(const QString &listener, const QString &reason);

Q_SIGNALS:
    void rulesChanged(qint64 version, int ruleCount);
    void ruleWatchError(const QString &message);
    void skippedChanged(const QStringList &why);

private:
    // One HTTP thread: its server, and what its requests share without locks.
    struct Loop
    {
        HttpServer *http = nullptr;
        QThread *thread = nullptr;     // none for the first: the service's own thread
        std::vector<DecisionJob> jobs; // of the server's turn, submitted at its end
        QByteArray body;               // an answer's body, while answer() writes it
    };

    // In the thread of `loop` (any of them): no member but the pool, the rules (under their
    // mutex) and the counters is touched.
    void handle(Loop &loop, const RequestHead &request, const Ticket &ticket,
                const HttpServer::Gone &gone);
    void handleDecision(Loop &loop, const RequestHead &request, const Ticket &ticket,
                        const HttpServer::Gone &gone, bool auth);
    void handleHealth(const RequestHead &request, const Ticket &ticket);
    void handleMetrics(HttpServer &http, const RequestHead &request, const Ticket &ticket);
    void error(const Ticket &ticket, int status, const char *code, const QString &message,
               bool close, const HeaderList &extra = {});
    void handleJson(Loop &loop, const RequestHead &request, const Ticket &ticket);
    void deliver(Loop &loop, std::vector<DecisionOutcome> &&outcomes);
    // What every answered decision is counted in (metrics, the failure log, the deny cache),
    // whatever front end asked; false if it failed (o.error). Any thread.
    bool account(const DecisionOutcome &o);
    // The staged candidate of `of`'s rule decides the same request in shadow: a job of its own
    // (appended to `out`; an allow or deny override of the candidate is counted at once) whose
    // outcome is only counted, in the statistics and metrics under the candidate's id.
    void shadowCandidate(std::vector<DecisionJob> &out, const DecisionJob &of);
    // The per-subject override matched for job.rule and job.subject (matchOverride), if any: a
    // limit override sets job.override, job.policy and job.key; an allow or deny is answered
    // here (returned, recorded in the statistics), without Redis. The front ends match first,
    // so that they check the cost against the override's capacity. Any thread.
    std::optional<DecisionOutcome> applyMatch(DecisionJob &job, const OverrideMatch &match);
    // The deny cache's answer for `job`, if it holds one (then counted as a cache answer).
    std::optional<DecisionOutcome> fromCache(DecisionJob &job, const RuleTablePtr &table);
    void answer(Loop &loop, const DecisionOutcome &o);

    Options m_options;
    std::vector<std::unique_ptr<Loop>> m_loops;
    std::unique_ptr<Metrics> m_metrics;        // before the pool: the workers count into it
    HttpServer *m_metricsHttp = nullptr;       // listenMetrics(); a child
    std::atomic<bool> m_metricsOwnPort{false}; // read by every HTTP thread
    std::unique_ptr<DecisionPool> m_pool;
    DenyCache m_denyCache;                 // shared by the HTTP threads
    std::atomic<qint64> m_cacheAnswers{0}; // answered by the deny cache
    rules::RuleWatcher *m_watcher = nullptr;
    mutable std::mutex m_rulesMutex;
    RuleTablePtr m_rules;
    QJsonObject m_problems; // setProblem(), under m_rulesMutex
    QStringList m_skipped;  // under m_rulesMutex
    quint16 m_port = 0;
};

} // namespace sluice::serve
