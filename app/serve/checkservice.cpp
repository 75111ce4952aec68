#include "checkservice.h"

#include "httpparse.h"
#include "httpreply.h"

#include "core/common/bytes.h"
#include "core/common/bytewriter.h"
#include "core/common/clock.h"
#include "core/common/duration.h"
#include "core/limiter/decisionjson.h"
#include "core/limiter/headers.h"
#include "core/rules/rulewatcher.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>
#include <QThread>

#include <cstdio>

namespace sluice::serve {

namespace {

// What a 500 may say of an error reply: its first words, never the script's SHA or Lua line
// ("... script: 14129dcb..., on @user_script:92.").
QString publicReason(const QString &message)
{
    QString m = message;
    for (const QLatin1String cut : {QLatin1String(" script: "), QLatin1String("@user_script"),
                                    QLatin1String(" f_"), QLatin1String("user_script:")}) {
        if (const qsizetype at = m.indexOf(cut); at >= 0) {
            m.truncate(at);
        }
    }
    m = m.trimmed();
    while (m.endsWith(QLatin1Char(',')) || m.endsWith(QLatin1Char('.'))) {
        m.chop(1);
    }
    return m.left(200);
}

} // namespace

CheckService::CheckService(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
    , m_metrics(std::make_unique<Metrics>(m_options.metrics))
{
    const int threads = std::max(1, m_options.httpThreads);
    auto open = std::make_shared<std::atomic<int>>(0); // --max-connections counts them all
    for (int i = 0; i < threads; ++i) {
        auto loop = std::make_unique<Loop>();
        Loop *l = loop.get();
        // The first runs in the service's thread (a child); the others in threads of their own.
        l->http = new HttpServer(
            m_options.limits,
            [this, l](const RequestHead &request, const Ticket &ticket,
                      const HttpServer::Gone &gone) { handle(*l, request, ticket, gone); },
            i, open, i == 0 ? this : nullptr);
        l->http->setLog(m_options.pool.log);
        l->http->setTls(m_options.tls);
        l->http->setTurnEnd([this, l] {
            if (m_pool) {
                m_pool->submit(l->jobs);
            }
        });
        m_loops.push_back(std::move(loop));
    }
}

CheckService::~CheckService()
{
    if (m_watcher != nullptr) {
        m_watcher->stop();
    }
    if (m_pool) {
        m_pool->stop(); // before the members its callbacks touch go away
    }
    for (size_t i = 1; i < m_loops.size(); ++i) {
        Loop &l = *m_loops[i];
        if (l.thread != nullptr) {
            QMetaObject::invokeMethod(
                l.http, [&l] { delete l.http; }, Qt::BlockingQueuedConnection);
            l.thread->quit();
            l.thread->wait();
            delete l.thread;
        } else {
            delete l.http;
        }
    }
}

Result<quint16> CheckService::listen(const QHostAddress &address, quint16 port)
{
    auto bound = m_loops[0]->http->listen(address, port);
    if (!bound) {
        return bound.error();
    }
    m_port = *bound;
    // The first server accepts every connection and hands them to the servers in turn.
    std::vector<HttpServer *> servers;
    for (const auto &l : m_loops) {
        servers.push_back(l->http);
    }
    if (servers.size() > 1) {
        m_loops[0]->http->shareWith(servers);
    }
    QPointer<CheckService> self(this);
    DecisionPool::Options poolOptions = m_options.pool;
    poolOptions.metrics = m_metrics.get();
    m_pool = std::make_unique<DecisionPool>(
        m_options.endpoint, poolOptions,
        [this, self, servers](std::vector<DecisionOutcome> &&outcomes) {
            // Worker thread: hand each answer to the thread of its connection's server. The
            // pool stops (joins this thread) before the servers go.
            std::vector<std::vector<DecisionOutcome>> byLoop(servers.size());
            for (DecisionOutcome &o : outcomes) {
                if (o.job.sink) {
                    // Another front end: counted here, answered by its sink (this thread).
                    account(o); // the pool stops before the service goes
                    const std::shared_ptr<OutcomeSink> sink = o.job.sink;
                    sink->take(std::move(o));
                    continue;
                }
                byLoop[size_t(o.job.loop)].push_back(std::move(o));
            }
            for (size_t i = 0; i < servers.size(); ++i) {
                if (byLoop[i].empty()) {
                    continue;
                }
                QMetaObject::invokeMethod(
                    servers[i],
                    [self, i,
                     batch = std::make_shared<std::vector<DecisionOutcome>>(
                         std::move(byLoop[i]))]() mutable {
                        if (self) {
                            self->deliver(*self->m_loops[i], std::move(*batch));
                        }
                    },
                    Qt::QueuedConnection);
            }
        },
        m_options.record);
    m_pool->start();
    m_loops[0]->http->start();
    for (size_t i = 1; i < m_loops.size(); ++i) {
        Loop &l = *m_loops[i];
        l.thread = new QThread;
        l.thread->setObjectName(QStringLiteral("sluice-http-%1").arg(i));
        l.http->moveToThread(l.thread);
        l.thread->start();
        QMetaObject::invokeMethod(l.http, &HttpServer::start, Qt::QueuedConnection);
    }
    return m_port;
}

RuleTablePtr CheckService::rules() const
{
    std::lock_guard l(m_rulesMutex);
    return m_rules;
}

void CheckService::setRules(const RuleSet &set, qint64 version, const QString &origin)
{
    {
        // Each HTTP thread's deny cache sees the new table and starts empty.
        std::lock_guard l(m_rulesMutex);
        m_rules = std::make_shared<const RuleTable>(
            set, version, origin, [this](const QString &id) { return m_metrics->rule(id); });
    }
    Q_EMIT rulesChanged(version, int(set.rules.size()));
}

void CheckService::watchRuleStore(const rules::RuleStore &store)
{
    if (m_watcher != nullptr) {
        return;
    }
    rules::RuleWatcher::Options watch;
    watch.withOverrides = true;  // stored overrides are served as live as the rules
    watch.skipUnreadable = true; // a corrupt store serves what can be read, and says the rest
    m_watcher = new rules::RuleWatcher(m_options.endpoint, store, watch, this);
    connect(m_watcher, &rules::RuleWatcher::skipped, this, &CheckService::setSkipped);
    connect(m_watcher, &rules::RuleWatcher::rulesChanged, this,
            [this](const RuleSet &set, qint64 version) {
                m_metrics->countReload(true);
                setRules(set, version,
                         QStringLiteral("the RuleStore at %1 (version %2)")
                             .arg(m_options.endpoint.display())
                             .arg(version));
            });
    connect(m_watcher, &rules::RuleWatcher::errorOccurred, this, [this](const QString &message) {
        m_metrics->countReload(false);
        Q_EMIT ruleWatchError(message);
    });
    m_watcher->start();
}

void CheckService::setSkipped(const QStringList &why)
{
    {
        std::lock_guard l(m_rulesMutex);
        if (m_skipped == why) {
            return;
        }
        m_skipped = why;
    }
    Q_EMIT skippedChanged(why);
}

DecisionPool::Health CheckService::health() const
{
    return m_pool ? m_pool->health() : DecisionPool::Health{};
}

void CheckService::error(const Ticket &ticket, int status, const char *code, const QString &message,
                         bool close, const HeaderList &extra)
{
    m_loops[size_t(ticket.loop)]->http->respond(
        ticket,
        formatResponse(status, extra, errorBody(status, QLatin1String(code), message), close),
        close);
}

void CheckService::handle(Loop &loop, const RequestHead &request, const Ticket &ticket,
                          const HttpServer::Gone &gone)
{
    const bool check = request.path == "/v1/check";
    const bool auth = request.path == "/v1/auth";
    if (request.path == "/metrics" && !m_metricsOwnPort.load(std::memory_order_relaxed)) {
        handleMetrics(*loop.http, request, ticket);
        return;
    }
    if (request.path == "/json") {
        handleJson(loop, request, ticket);
        return;
    }
    if (!check && !auth && request.path != "/healthz") {
        error(ticket, 404, "not_found",
              QStringLiteral("no such endpoint: %1 (the service answers GET /v1/check, GET "
                             "/v1/auth, GET /healthz, GET /metrics and POST /json)")
                  .arg(bytes::printable(QByteArray::fromPercentEncoding(
                      request.path.first(std::min<qsizetype>(request.path.size(), 256))
                          .toByteArray()))),
              request.close);
        return;
    }
    // 405 unless GET (HEAD is not served: the answers are the point).
    if (request.method != "GET") {
        error(ticket, 405, "method_not_allowed",
              QStringLiteral("%1 is not allowed on %2; use GET")
                  .arg(QString::fromLatin1(request.method), QString::fromLatin1(request.path)),
              request.close, {{QByteArrayLiteral("Allow"), QByteArrayLiteral("GET")}});
        return;
    }
    if (check || auth) {
        handleDecision(loop, request, ticket, gone, auth);
    } else {
        handleHealth(request, ticket);
    }
}

void CheckService::handleDecision(Loop &loop, const RequestHead &request, const Ticket &ticket,
                                  const HttpServer::Gone &gone, bool auth)
{
    const bool close = request.close;
    if (request.target.size() > m_options.limits.maxRequestLineBytes) {
        error(ticket, 414, "uri_too_long",
              QStringLiteral("the URL is longer than %1 bytes; send shorter subjects (they "
                             "become Redis keys)")
                  .arg(m_options.limits.maxRequestLineBytes),
              close);
        return;
    }
    CheckParams p;
    if (const QString err = parseCheckQuery(request.query, &p); !err.isEmpty()) {
        error(ticket, 400, "invalid_parameter", err, close);
        return;
    }
    if (!p.hasRule || p.rule.isEmpty()) {
        error(ticket, 400, "missing_parameter",
              QStringLiteral("parameter 'rule' is required: the id of the rule to decide by "
                             "(GET /v1/check?rule=ID&subject=S)"),
              close);
        return;
    }
    if (!p.hasSubject) {
        p.subject = request.subject.toByteArray();
        if (p.subject.size() > m_options.limits.maxSubjectBytes) {
            error(ticket, 431, "request_header_fields_too_large",
                  QStringLiteral("the Sluice-Subject header is longer than %1 bytes (subjects "
                                 "become Redis keys)")
                      .arg(m_options.limits.maxSubjectBytes),
                  close);
            return;
        }
    }
    if (p.subject.isEmpty() && !auth) {
        error(ticket, 400, "missing_parameter",
              p.hasSubject ? QStringLiteral("parameter 'subject' is empty; give the client IP, "
                                            "user id, ... the limit applies to")
                           : QStringLiteral("parameter 'subject' is required: the client IP, "
                                            "user id, ... the limit applies to (or the "
                                            "Sluice-Subject header)"),
              close);
        return;
    }
    const RuleTablePtr table = rules();
    if (!table) {
        error(ticket, 503, "no_rules", QStringLiteral("no rules are loaded yet"), close);
        return;
    }
    const ServiceRule *rule = table->findUtf8(p.rule);
    if (rule == nullptr) {
        QStringList ids = table->ids();
        const qsizetype all = ids.size();
        if (ids.size() > 20) {
            ids = ids.mid(0, 20);
            ids << QStringLiteral("... %1 more").arg(all - 20);
        }
        error(ticket, 404, "unknown_rule",
              // Not where the rules came from (a path): /healthz --healthz-detail has it.
              QStringLiteral("rule '%1' is not served (it has: %2)")
                  .arg(bytes::printable(p.rule.left(128)),
                       ids.isEmpty() ? QStringLiteral("no rules") : ids.join(QStringLiteral(", "))),
              close);
        return;
    }
    qint64 cost = 1;
    if (p.hasCost && !parseDigits(p.cost, &cost)) {
        error(ticket, 400, "invalid_parameter",
              QStringLiteral("parameter 'cost' is '%1'; expected a whole number from 0 (peek) "
                             "to %2 (the capacity of rule '%3')")
                  .arg(bytes::printable(p.cost.left(64)))
                  .arg(matchOverride(*rule, p.subject).capacity)
                  .arg(rule->rule.id),
              close);
        return;
    }
    const Admission admission = screen(*rule, p.subject, cost);
    if (admission.screened == Screened::CostAboveCapacity) {
        error(ticket, 400, "invalid_parameter",
              QStringLiteral("parameter 'cost' is %1, above %2, the capacity of rule '%3': "
                             "such a request could never be admitted")
                  .arg(cost)
                  .arg(admission.match.capacity)
                  .arg(rule->rule.id),
              close);
        return;
    }
    if (admission.screened == Screened::NotLimited) {
        // auth without a subject (nginx passes none when the scope's header or parameter is
        // absent) and disabled rules: nothing to limit.
        const QJsonObject o{{QStringLiteral("allowed"), true},
                            {QStringLiteral("rule"), rule->rule.id},
                            {QStringLiteral("limited"), false},
                            {QStringLiteral("reason"),
                             rule->rule.enabled ? QStringLiteral("no subject: not limited")
                                                : QStringLiteral("rule is disabled: not limited")}};
        loop.http->respond(
            ticket,
            formatResponse(
                200, {{QByteArrayLiteral("Sluice-Decision"), QByteArrayLiteral("not-limited")}},
                QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n', close),
            close);
        return;
    }
    DecisionJob job;
    job.table = table;
    job.rule = rule;
    job.subject = std::move(p.subject);
    job.cost = cost;
    job.connection = ticket.connection;
    job.seq = ticket.seq;
    job.loop = ticket.loop;
    job.closeAfter = close;
    job.authMode = auth;
    job.gone = gone;
    job.received = std::chrono::steady_clock::now();
    // Submitted at the end of the server's turn, with the other requests of the turn.
    if (auto o = admit(job, admission.match, table, loop.jobs)) {
        answer(loop, *o);
    }
}

std::optional<DecisionOutcome> CheckService::fromCache(DecisionJob &job, const RuleTablePtr &table)
{
    const ServiceRule *rule = job.rule;
    if (job.cost != 1 || !rule->denyCache || !m_options.denyCache || !m_pool->redisUp()) {
        return std::nullopt;
    }
    // Redis found down since, or new rules: the cache starts again.
    auto d = m_denyCache.lookup(job.key, steadyMs(), {table->serial(), m_pool->downEpoch()});
    if (!d) {
        return std::nullopt;
    }
    DecisionOutcome o;
    o.job = std::move(job);
    o.decision = *d;
    o.source = DecisionSource::Cache;
    ++m_cacheAnswers;
    if (m_options.record) {
        m_options.record(rule->rule.id, o.job.subject, o.decision, false);
    }
    return o;
}

namespace {

// Where a staged candidate's outcomes go: nowhere but the statistics and metrics, which
// account() feeds before a sink takes an outcome.
class DroppingSink final : public OutcomeSink
{
public:
    void take(DecisionOutcome &&) override {}
};

} // namespace

CheckService::OverrideMatch CheckService::matchOverride(const ServiceRule &rule,
                                                        QByteArrayView subject)
{
    OverrideMatch m;
    m.capacity = rule.capacity;
    if (rule.overrides.isEmpty() || subject.isEmpty() || !rule.rule.enabled) {
        return m;
    }
    m.nowUs = SystemClock().nowUs();
    m.hit = rule.overrides.match(subject, m.nowUs);
    if (m.hit) {
        m.capacity = rule.overridePolicies[size_t(m.hit.index)].capacity();
    }
    return m;
}

std::optional<DecisionOutcome> CheckService::applyMatch(DecisionJob &job,
                                                        const OverrideMatch &match)
{
    const rules::OverrideMatcher::Hit &hit = match.hit;
    if (!hit) {
        return std::nullopt;
    }
    const ServiceRule &rule = *job.rule;
    const Policy &policy = rule.overridePolicies[size_t(hit.index)];
    if (hit.override->action == Override::Action::Limit) {
        job.override = hit.override;
        job.policy = &policy;
        job.key = rules::overrideKeyFor(rule.rule, job.subject);
        return std::nullopt;
    }
    DecisionOutcome o;
    o.job = std::move(job);
    o.job.override = hit.override;
    o.decision = rules::overrideDecision(policy, hit.override->action, match.nowUs, hit.endUs);
    o.source = DecisionSource::Override;
    if (m_options.record) {
        m_options.record(rule.rule.id, o.job.subject, o.decision, rule.rule.shadow);
    }
    return o;
}

CheckService::Admission CheckService::screen(const ServiceRule &rule, QByteArrayView subject,
                                             qint64 cost)
{
    Admission a;
    a.match = matchOverride(rule, subject);
    if (cost > a.match.capacity) {
        a.screened = Screened::CostAboveCapacity;
    } else if (subject.isEmpty() || !rule.rule.enabled) {
        a.screened = Screened::NotLimited;
    }
    return a;
}

std::optional<DecisionOutcome> CheckService::admit(DecisionJob &job, const OverrideMatch &match,
                                                   const RuleTablePtr &served,
                                                   std::vector<DecisionJob> &queue)
{
    if (job.rule->candidate != nullptr) {
        shadowCandidate(queue, job);
    }
    job.key = job.rule->policy.keyFor(job.subject);
    // An allow or deny answered here, without Redis (and before the deny cache, which holds
    // only the rule's own keys' denials); a limit of its own decides under its own key.
    std::optional<DecisionOutcome> o = applyMatch(job, match);
    // A table of its own (a gRPC limit override): the cache is the served table's; asking it
    // with another would empty it.
    if (!o && job.table == served) {
        o = fromCache(job, job.table);
    }
    if (!o) {
        queue.push_back(std::move(job));
    }
    return o;
}

void CheckService::shadowCandidate(std::vector<DecisionJob> &out, const DecisionJob &of)
{
    static const std::shared_ptr<OutcomeSink> drop = std::make_shared<DroppingSink>();
    const ServiceRule &candidate = *of.rule->candidate;
    // The capacity that would decide under the candidate: its override limit's for a subject
    // with one, as for an enforced rule.
    const Admission a = screen(candidate, of.subject, of.cost);
    if (a.screened != Screened::Decide) {
        return; // the candidate would not limit it, or would refuse the request as a bad one
    }
    DecisionJob job;
    job.table = of.table;
    job.rule = &candidate;
    job.subject = of.subject;
    job.cost = of.cost;
    job.received = of.received;
    job.sink = drop;
    job.key = candidate.policy.keyFor(job.subject);
    if (auto answered = applyMatch(job, a.match)) {
        account(*answered); // an allow or deny of the candidate: counted, no Redis
        return;
    }
    out.push_back(std::move(job));
}

void CheckService::decide(std::vector<DecisionJob> &jobs, const std::vector<OverrideMatch> &matches)
{
    Q_ASSERT(matches.size() == jobs.size());
    std::vector<DecisionJob> toPool;
    toPool.reserve(jobs.size());
    const RuleTablePtr served = rules();
    for (size_t i = 0; i < jobs.size(); ++i) {
        if (std::optional<DecisionOutcome> o = admit(jobs[i], matches[i], served, toPool)) {
            account(*o);
            const std::shared_ptr<OutcomeSink> sink = o->job.sink;
            sink->take(std::move(*o));
        }
    }
    jobs.clear();
    if (!toPool.empty()) {
        m_pool->submit(toPool);
    }
}

void CheckService::handleJson(Loop &loop, const RequestHead &request, const Ticket &ticket)
{
    if (request.method != "POST") {
        error(ticket, 405, "method_not_allowed",
              QStringLiteral("%1 is not allowed on /json; use POST with a RateLimitRequest in "
                             "the proto3 JSON mapping")
                  .arg(QString::fromLatin1(request.method)),
              request.close, {{QByteArrayLiteral("Allow"), QByteArrayLiteral("POST")}});
        return;
    }
    if (!m_options.json) {
        error(ticket, 501, "not_implemented",
              QStringLiteral("POST /json needs gRPC support: this sluice-cli was built without "
                             "it (install libgrpc++-dev and protobuf-compiler-grpc and rebuild)"),
              request.close);
        return;
    }
    // The answer comes from a decision worker (or at once, for bad input): it is written in
    // this loop's thread. The servers outlive the pool, whose workers call `reply`.
    HttpServer *http = loop.http;
    const bool close = request.close;
    m_options.json(
        request.body.toByteArray(), [http, ticket, close](int status, const QByteArray &body) {
            QMetaObject::invokeMethod(
                http,
                [http, ticket, close, status, body] {
                    http->respond(ticket, formatResponse(status, {}, body, close), close);
                    http->flush();
                },
                Qt::QueuedConnection);
        });
}

void CheckService::deliver(Loop &loop, std::vector<DecisionOutcome> &&outcomes)
{
    for (const DecisionOutcome &o : outcomes) {
        answer(loop, o);
    }
    loop.http->flush();
}

bool CheckService::account(const DecisionOutcome &o)
{
    const ServiceRule &rule = *o.job.rule;
    if (rule.counters != nullptr) {
        rule.counters->count(o.decision, o.source, o.job.cost, rule.rule.shadow,
                             !o.error.isEmpty());
        m_metrics->observeDecisionNs(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                         std::chrono::steady_clock::now() - o.job.received)
                                         .count());
    }
    if (!o.error.isEmpty()) {
        // A bug, not Redis being away: logged in full, answered without script internals.
        if (m_options.log != nullptr) {
            m_options.log->write(
                ServeLog::Level::Error, "decision_failed",
                QStringLiteral("rule '%1': the decision failed: %2").arg(rule.rule.id, o.error),
                rule.rule.id);
        } else {
            qWarning("sluice serve: rule '%s': the decision failed: %s", qPrintable(rule.rule.id),
                     qPrintable(o.error));
        }
        return false;
    }
    const Decision &d = o.decision;
    if (o.source == DecisionSource::Redis && !d.allowed && o.job.cost == 1 && rule.denyCache &&
        m_options.denyCache && o.epoch == m_pool->downEpoch() && o.job.table == rules()) {
        m_denyCache.offer(o.job.key, d, o.sentMs, steadyMs(), {o.job.table->serial(), o.epoch});
    }
    return true;
}

void CheckService::answer(Loop &loop, const DecisionOutcome &o)
{
    auto send = [&](int status, const HeaderList &headers, const QByteArray &body) {
        loop.http->respond(Ticket{o.job.connection, o.job.seq},
                           formatResponse(status, headers, body, o.job.closeAfter),
                           o.job.closeAfter);
    };
    const ServiceRule &rule = *o.job.rule;
    if (!account(o)) {
        send(500, {},
             errorBody(500, QStringLiteral("decision_failed"),
                       QStringLiteral("rule '%1': the decision failed: %2 (details in the "
                                      "service's log)")
                           .arg(rule.rule.id, publicReason(o.error))));
        return;
    }
    const Decision &d = o.decision;
    const bool shadow = rule.rule.shadow;
    const Verdict v = verdictOf(o);
    // The body first (its length goes in the head), into the loop's buffer; then the whole
    // response in one array: no list of headers, no temporary per value.
    QByteArray &body = loop.body;
    body.resize(0);
    {
        bytes::ByteWriter w(body, 256 + o.job.key.size() + o.job.subject.size());
        Decision shown = d;
        shown.allowed = v.allowed;
        DecisionJsonExtras extras;
        extras.cost = o.job.cost;
        extras.rule = rule.idUtf8;
        extras.shadow = shadow;
        extras.shadowDenied = !d.allowed;
        extras.source = decisionSourceName(o.source);
        extras.subject = &o.job.subject;
        extras.uncertain = o.uncertain;
        QByteArray overrideMatch;
        if (o.job.override != nullptr) {
            extras.overrideAction = v.overrideAction;
            overrideMatch = o.job.override->describeMatch().toUtf8();
            extras.overrideMatch = overrideMatch;
        }
        writeDecisionJson(w, shown, o.job.key, extras);
        w.put('\n');
    }
    QByteArray out;
    {
        bytes::ByteWriter w(out, 400 + body.size() + v.policyHeader->size());
        writeResponseHead(w, v.allowed ? 200 : (o.job.authMode ? 403 : 429), body.size());
        // Let through by a shadow rule: a Retry-After on a 200 would only confuse clients.
        headers::writeHeaderLines(w, rule.idUtf8, *v.policyHeader, d, m_options.legacyHeaders,
                                  !shadow);
        w.put("Sluice-Decision: ")
            .put(v.decision)
            .put("\r\nSluice-Source: ")
            .put(decisionSourceName(o.source))
            .put("\r\n");
        if (o.uncertain) {
            w.put("Sluice-Uncertain: 1\r\n");
        }
        if (!v.overrideAction.isEmpty()) {
            // Why: a client told 429 by a deny override should not wait for a quota.
            w.put("X-RateLimit-Reason: override-").put(v.overrideAction).put("\r\n");
        }
        writeResponseEnd(w, body, o.job.closeAfter);
    }
    loop.http->respond(Ticket{o.job.connection, o.job.seq}, std::move(out), o.job.closeAfter);
}

void CheckService::setProblem(const QString &listener, const QString &reason)
{
    std::lock_guard l(m_rulesMutex);
    if (reason.isEmpty()) {
        m_problems.remove(listener);
    } else {
        m_problems.insert(listener, reason);
    }
}

void CheckService::handleHealth(const RequestHead &request, const Ticket &ticket)
{
    const DecisionPool::Health h = health();
    const RuleTablePtr table = rules();
    const bool ok = h.state == QLatin1String("up");
    QJsonObject problems;
    QStringList skipped;
    {
        std::lock_guard l(m_rulesMutex);
        problems = m_problems;
        skipped = m_skipped;
    }
    // Degraded: Redis not up, a listener's problem (grpc: out of descriptors), or stored rules
    // that are not served.
    const QString status = !table ? QStringLiteral("starting")
                           : ok && problems.isEmpty() && skipped.isEmpty()
                               ? QStringLiteral("ok")
                               : QStringLiteral("degraded");
    // 200 while the service answers (degraded included: every rule still gets its
    // on_redis_error answer); 503 only before any rules are loaded.
    const int code = table ? 200 : 503;
    if (!m_options.healthDetail) {
        // Anyone who can reach the port may ask: the state, not where Redis is, which file
        // the rules came from or what Redis said (--healthz-detail gives them).
        QJsonObject o{{QStringLiteral("status"), status},
                      {QStringLiteral("redis"), QJsonObject{{QStringLiteral("state"), h.state}}}};
        if (!problems.isEmpty()) {
            o.insert(QStringLiteral("problems"), problems);
        }
        m_loops[size_t(ticket.loop)]->http->respond(
            ticket,
            formatResponse(code, {}, QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n',
                           request.close),
            request.close);
        return;
    }
    QJsonObject redis{{QStringLiteral("reachable"), h.redisUp},
                      {QStringLiteral("state"), h.state},
                      {QStringLiteral("url"), m_options.endpoint.safeUrl()},
                      {QStringLiteral("since_ms"), h.changedAtMs}};
    // Without the script's SHA and Lua line that Redis adds to a script's error (the log
    // has them).
    const QString lastError = publicReason(h.lastError);
    if (h.state != QLatin1String("up") && !lastError.isEmpty()) {
        redis.insert(QStringLiteral("reason"), lastError);
    }
    if (!lastError.isEmpty()) {
        redis.insert(QStringLiteral("last_error"), lastError);
    }
    QJsonObject rules{{QStringLiteral("loaded"), bool(table)}};
    if (!skipped.isEmpty()) {
        rules.insert(QStringLiteral("skipped"), QJsonArray::fromStringList(skipped));
    }
    if (table) {
        rules.insert(QStringLiteral("version"), table->version());
        rules.insert(QStringLiteral("count"), table->size());
        rules.insert(QStringLiteral("origin"), table->origin());
    }
    QJsonObject o{{QStringLiteral("status"), status},
                  {QStringLiteral("redis"), redis},
                  {QStringLiteral("rules"), rules},
                  {QStringLiteral("decisions"),
                   QJsonObject{{QStringLiteral("redis"), h.decisions},
                               {QStringLiteral("on_redis_error"), h.fallbacks},
                               {QStringLiteral("errors"), h.errors},
                               {QStringLiteral("round_trips"), h.batches},
                               {QStringLiteral("expired"), h.expired},
                               {QStringLiteral("abandoned"), h.abandoned},
                               {QStringLiteral("uncertain"), h.uncertain},
                               {QStringLiteral("deny_cache"), m_cacheAnswers.load()}}},
                  {QStringLiteral("connections"), m_loops[0]->http->connections()}};
    if (m_options.statsHealth) {
        o.insert(QStringLiteral("stats"), m_options.statsHealth());
    }
    if (!problems.isEmpty()) {
        o.insert(QStringLiteral("problems"), problems);
    }
    m_loops[size_t(ticket.loop)]->http->respond(
        ticket,
        formatResponse(code, {}, QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n',
                       request.close),
        request.close);
}

} // namespace sluice::serve
