#include "checkservice.h"

#include "guardedsocket.h"
#include "guardedtcpserver.h"
#include "httpparse.h"
#include "httpreply.h"

#include "core/common/bytes.h"
#include "core/common/duration.h"
#include "core/limiter/decisionjson.h"
#include "core/limiter/headers.h"
#include "core/rules/rulewatcher.h"

#include <QDateTime>
#include <QHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMetaEnum>
#include <QPointer>
#include <QTcpSocket>

namespace sluice::serve {

namespace {

const QByteArray subjectHeader = QByteArrayLiteral("Sluice-Subject");

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

bool wantsClose(const QHttpServerRequest &request)
{
    return request.value(QByteArrayLiteral("connection")).toLower().contains("close");
}

void error(QTcpSocket *socket, int status, const char *code, const QString &message, bool close,
           const HeaderList &extra = {})
{
    writeResponse(socket, status, extra, errorBody(status, QLatin1String(code), message), close);
}

// 405 unless GET (HEAD is not served: the answers are the point).
bool requireGet(const QHttpServerRequest &request, QTcpSocket *socket)
{
    if (request.method() == QHttpServerRequest::Method::Get) {
        return true;
    }
    error(socket, 405, "method_not_allowed",
          QStringLiteral("%1 is not allowed on %2; use GET")
              .arg(QString::fromLatin1(QMetaEnum::fromType<QHttpServerRequest::Method>().valueToKey(
                                           int(request.method())))
                       .toUpper(),
                   request.url().path()),
          wantsClose(request), {{QByteArrayLiteral("Allow"), QByteArrayLiteral("GET")}});
    return false;
}

} // namespace

CheckService::CheckService(Options options, QObject *parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    m_http = new QHttpServer(this);
    auto route = [this](const char *path, auto handler) {
        m_http->route(
            QString::fromLatin1(path), QHttpServerRequest::Method::AnyKnown,
            [this, handler](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
                (this->*handler)(request, responder.socket());
            });
    };
    route("/v1/check", &CheckService::handleCheck);
    route("/v1/auth", &CheckService::handleAuth);
    route("/healthz", &CheckService::handleHealth);
    m_http->setMissingHandler(
        [this](const QHttpServerRequest &request, QHttpServerResponder &&responder) {
            handleMissing(request, responder.socket());
        });
}

CheckService::~CheckService()
{
    if (m_watcher != nullptr) {
        m_watcher->stop();
    }
    if (m_pool) {
        m_pool->stop(); // before the members its callbacks touch go away
    }
}

Result<quint16> CheckService::listen(const QHostAddress &address, quint16 port)
{
    if (m_tcp != nullptr) {
        return Error::make(Error::Kind::Internal, QStringLiteral("the service listens already"));
    }
    auto *tcp = new GuardedTcpServer(m_options.limits, this);
    // Bursts of new connections (nginx opening its pool, a reconnect storm) wait in the kernel's
    // accept queue instead of being dropped (Qt's default backlog is 50).
    tcp->setListenBacklogSize(1024);
    if (!tcp->listen(address, port)) {
        const QString why = tcp->errorString();
        delete tcp;
        return Error::make(Error::Kind::Io, QStringLiteral("cannot listen on %1:%2: %3")
                                                .arg(address.toString())
                                                .arg(port)
                                                .arg(why));
    }
    m_tcp = tcp;
    m_port = tcp->serverPort();
    m_http->bind(tcp);
    QPointer<CheckService> self(this);
    m_pool = std::make_unique<DecisionPool>(
        m_options.endpoint, m_options.pool,
        [self](std::vector<DecisionOutcome> &&outcomes) {
            // Worker thread: hand the batch to the service's thread. A service already gone
            // drops it (its sockets are gone too).
            if (self.isNull()) {
                return;
            }
            QMetaObject::invokeMethod(
                self.data(),
                [self, batch = std::make_shared<std::vector<DecisionOutcome>>(
                           std::move(outcomes))]() mutable {
                    if (self) {
                        self->deliver(std::move(*batch));
                    }
                },
                Qt::QueuedConnection);
        },
        m_options.record);
    m_pool->start();
    return m_port;
}

void CheckService::setRules(const RuleSet &set, qint64 version, const QString &origin)
{
    m_rules = std::make_shared<const RuleTable>(set, version, origin);
    Q_EMIT rulesChanged(version, int(set.rules.size()));
}

void CheckService::watchRuleStore(const rules::RuleStore &store)
{
    if (m_watcher != nullptr) {
        return;
    }
    m_watcher = new rules::RuleWatcher(m_options.endpoint, store, this);
    connect(m_watcher, &rules::RuleWatcher::rulesChanged, this,
            [this](const RuleSet &set, qint64 version) {
                setRules(set, version,
                         QStringLiteral("the RuleStore at %1 (version %2)")
                             .arg(m_options.endpoint.display())
                             .arg(version));
            });
    connect(m_watcher, &rules::RuleWatcher::errorOccurred, this, &CheckService::ruleWatchError);
    m_watcher->start();
}

DecisionPool::Health CheckService::health() const
{
    return m_pool ? m_pool->health() : DecisionPool::Health{};
}

void CheckService::handleCheck(const QHttpServerRequest &request, QTcpSocket *socket)
{
    handleDecision(request, socket, false);
}

void CheckService::handleAuth(const QHttpServerRequest &request, QTcpSocket *socket)
{
    handleDecision(request, socket, true);
}

void CheckService::handleDecision(const QHttpServerRequest &request, QTcpSocket *socket, bool auth)
{
    const bool close = wantsClose(request);
    const QUrl url = request.url();
    const QByteArray query = url.query(QUrl::FullyEncoded).toLatin1();
    if (url.path(QUrl::FullyEncoded).size() + query.size() + 1 >
        m_options.limits.maxRequestLineBytes) {
        error(socket, 414, "uri_too_long",
              QStringLiteral("the URL is longer than %1 bytes; send shorter subjects (they "
                             "become Redis keys)")
                  .arg(m_options.limits.maxRequestLineBytes),
              close);
        return;
    }
    if (!requireGet(request, socket)) {
        return;
    }
    CheckParams p;
    if (const QString err = parseCheckQuery(query, &p); !err.isEmpty()) {
        error(socket, 400, "invalid_parameter", err, close);
        return;
    }
    if (!p.hasRule || p.rule.isEmpty()) {
        error(socket, 400, "missing_parameter",
              QStringLiteral("parameter 'rule' is required: the id of the rule to decide by "
                             "(GET /v1/check?rule=ID&subject=S)"),
              close);
        return;
    }
    if (!p.hasSubject) {
        p.subject = request.value(subjectHeader);
        if (p.subject.size() > m_options.limits.maxSubjectBytes) {
            error(socket, 431, "request_header_fields_too_large",
                  QStringLiteral("the Sluice-Subject header is longer than %1 bytes (subjects "
                                 "become Redis keys)")
                      .arg(m_options.limits.maxSubjectBytes),
                  close);
            return;
        }
    }
    if (p.subject.isEmpty() && !auth) {
        error(socket, 400, "missing_parameter",
              p.hasSubject ? QStringLiteral("parameter 'subject' is empty; give the client IP, "
                                            "user id, ... the limit applies to")
                           : QStringLiteral("parameter 'subject' is required: the client IP, "
                                            "user id, ... the limit applies to (or the "
                                            "Sluice-Subject header)"),
              close);
        return;
    }
    const RuleTablePtr table = m_rules;
    if (!table) {
        error(socket, 503, "no_rules", QStringLiteral("no rules are loaded yet"), close);
        return;
    }
    const QString ruleId = QString::fromUtf8(p.rule);
    const ServiceRule *rule = table->find(ruleId);
    if (rule == nullptr) {
        QStringList ids = table->ids();
        const qsizetype all = ids.size();
        if (ids.size() > 20) {
            ids = ids.mid(0, 20);
            ids << QStringLiteral("... %1 more").arg(all - 20);
        }
        error(socket, 404, "unknown_rule",
              QStringLiteral("rule '%1' is not in %2 (it has: %3)")
                  .arg(bytes::printable(p.rule.left(128)), table->origin(),
                       ids.isEmpty() ? QStringLiteral("no rules") : ids.join(QStringLiteral(", "))),
              close);
        return;
    }
    qint64 cost = 1;
    if (p.hasCost) {
        if (!parseDigits(p.cost, &cost)) {
            error(socket, 400, "invalid_parameter",
                  QStringLiteral("parameter 'cost' is '%1'; expected a whole number from 0 (peek) "
                                 "to %2 (the capacity of rule '%3')")
                      .arg(bytes::printable(p.cost.left(64)))
                      .arg(rule->capacity)
                      .arg(rule->rule.id),
                  close);
            return;
        }
        if (cost > rule->capacity) {
            error(socket, 400, "invalid_parameter",
                  QStringLiteral("parameter 'cost' is %1, above %2, the capacity of rule '%3': "
                                 "such a request could never be admitted")
                      .arg(cost)
                      .arg(rule->capacity)
                      .arg(rule->rule.id),
                  close);
            return;
        }
    }
    if (p.subject.isEmpty() || !rule->rule.enabled) {
        // auth without a subject (nginx passes none when the scope's header or parameter is
        // absent) and disabled rules: nothing to limit.
        const QJsonObject o{{QStringLiteral("allowed"), true},
                            {QStringLiteral("rule"), rule->rule.id},
                            {QStringLiteral("limited"), false},
                            {QStringLiteral("reason"),
                             rule->rule.enabled ? QStringLiteral("no subject: not limited")
                                                : QStringLiteral("rule is disabled: not limited")}};
        writeResponse(socket, 200,
                      {{QByteArrayLiteral("Sluice-Decision"), QByteArrayLiteral("not-limited")}},
                      QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n', close);
        return;
    }
    DecisionJob job;
    job.table = table;
    job.rule = rule;
    job.key = rule->policy.keyFor(p.subject);
    job.subject = std::move(p.subject);
    job.cost = cost;
    job.socket = socket;
    job.closeAfter = close;
    job.authMode = auth;
    if (auto *guarded = qobject_cast<GuardedSocket *>(socket)) {
        job.seq = guarded->reserve();
        job.gone = guarded->gone();
    }
    m_pool->submit(std::move(job));
}

void CheckService::deliver(std::vector<DecisionOutcome> &&outcomes)
{
    for (const DecisionOutcome &o : outcomes) {
        answer(o);
    }
}

void CheckService::answer(const DecisionOutcome &o)
{
    QTcpSocket *socket = o.job.socket.data();
    if (socket == nullptr) {
        return;
    }
    auto send = [&](int status, const HeaderList &headers, const QByteArray &body) {
        if (auto *guarded = qobject_cast<GuardedSocket *>(socket)) {
            guarded->fill(o.job.seq, formatResponse(status, headers, body, o.job.closeAfter),
                          o.job.closeAfter);
        } else {
            writeResponse(socket, status, headers, body, o.job.closeAfter);
        }
    };
    const ServiceRule &rule = *o.job.rule;
    if (!o.error.isEmpty()) {
        // A bug, not Redis being away: logged in full, answered without script internals.
        qWarning("sluice serve: rule '%s': the decision failed: %s", qPrintable(rule.rule.id),
                 qPrintable(o.error));
        send(500, {},
             errorBody(500, QStringLiteral("decision_failed"),
                       QStringLiteral("rule '%1': the decision failed: %2 (details in the "
                                      "service's log)")
                           .arg(rule.rule.id, publicReason(o.error))));
        return;
    }
    const Decision &d = o.decision;
    const bool shadow = rule.rule.shadow;
    const bool allowed = d.allowed || shadow;
    HeaderList headers = sluice::headers::rateLimitHeaders(rule.policy, rule.policyHeader, d,
                                                           m_options.legacyHeaders);
    if (shadow) {
        // Let through: a Retry-After on a 200 would only confuse clients.
        headers.removeIf([](const auto &h) { return h.first == "Retry-After"; });
    }
    QByteArray verdict =
        d.allowed ? QByteArrayLiteral("allowed")
                  : (shadow ? QByteArrayLiteral("shadow-denied") : QByteArrayLiteral("denied"));
    headers.append({QByteArrayLiteral("Sluice-Decision"), verdict});
    headers.append({QByteArrayLiteral("Sluice-Source"), decisionSourceName(o.source)});
    if (o.uncertain) {
        headers.append({QByteArrayLiteral("Sluice-Uncertain"), QByteArrayLiteral("1")});
    }
    QJsonObject body = decisionJson(d, o.job.key);
    body.insert(QStringLiteral("allowed"), allowed);
    body.insert(QStringLiteral("rule"), rule.rule.id);
    body.insert(QStringLiteral("subject"), bytes::printable(o.job.subject));
    body.insert(QStringLiteral("cost"), o.job.cost);
    body.insert(QStringLiteral("source"), QString::fromLatin1(decisionSourceName(o.source)));
    body.insert(QStringLiteral("shadow"), shadow);
    if (o.uncertain) {
        body.insert(QStringLiteral("uncertain"), true);
    }
    if (shadow) {
        body.insert(QStringLiteral("shadow_denied"), !d.allowed);
    }
    const int status = allowed ? 200 : (o.job.authMode ? 403 : 429);
    send(status, headers, QJsonDocument(body).toJson(QJsonDocument::Compact) + '\n');
}

void CheckService::handleHealth(const QHttpServerRequest &request, QTcpSocket *socket)
{
    if (!requireGet(request, socket)) {
        return;
    }
    const DecisionPool::Health h = health();
    const RuleTablePtr table = m_rules;
    QJsonObject redis{{QStringLiteral("reachable"), h.redisUp},
                      {QStringLiteral("state"), h.state},
                      {QStringLiteral("url"), m_options.endpoint.safeUrl()},
                      {QStringLiteral("since_ms"), h.changedAtMs}};
    if (h.state != QLatin1String("up") && !h.lastError.isEmpty()) {
        redis.insert(QStringLiteral("reason"), h.lastError);
    }
    if (!h.lastError.isEmpty()) {
        redis.insert(QStringLiteral("last_error"), h.lastError);
    }
    QJsonObject rules{{QStringLiteral("loaded"), bool(table)}};
    if (table) {
        rules.insert(QStringLiteral("version"), table->version());
        rules.insert(QStringLiteral("count"), table->size());
        rules.insert(QStringLiteral("origin"), table->origin());
    }
    const bool ok = h.state == QLatin1String("up");
    QJsonObject o{
        {QStringLiteral("status"), !table ? QStringLiteral("starting")
                                   : ok   ? QStringLiteral("ok")
                                          : QStringLiteral("degraded")},
        {QStringLiteral("redis"), redis},
        {QStringLiteral("rules"), rules},
        {QStringLiteral("decisions"), QJsonObject{{QStringLiteral("redis"), h.decisions},
                                                  {QStringLiteral("on_redis_error"), h.fallbacks},
                                                  {QStringLiteral("errors"), h.errors},
                                                  {QStringLiteral("round_trips"), h.batches},
                                                  {QStringLiteral("expired"), h.expired},
                                                  {QStringLiteral("abandoned"), h.abandoned},
                                                  {QStringLiteral("uncertain"), h.uncertain}}},
        {QStringLiteral("connections"), m_tcp != nullptr ? m_tcp->connections() : 0}};
    if (m_options.statsHealth) {
        o.insert(QStringLiteral("stats"), m_options.statsHealth());
    }
    // 200 while the service answers (degraded included: every rule still gets its
    // on_redis_error answer); 503 only before any rules are loaded.
    writeResponse(socket, table ? 200 : 503, {},
                  QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n', wantsClose(request));
}

void CheckService::handleMissing(const QHttpServerRequest &request, QTcpSocket *socket)
{
    error(socket, 404, "not_found",
          QStringLiteral("no such endpoint: %1 (the service answers GET /v1/check, GET /v1/auth "
                         "and GET /healthz)")
              .arg(bytes::printable(request.url().path().left(256).toUtf8())),
          wantsClose(request));
}

} // namespace sluice::serve
