#include "grpcservice.h"

#include "core/rules/envoyformat.h"
#include "grpcanswer.h"
#include "grpcsession.h"
#include "grpcwire.h"
#include "httpreply.h"
#include "metrics.h"

#include "core/common/bytes.h"
#include "core/common/duration.h"
#include "core/limiter/headers.h"
#include "core/limiter/policy.h"

#include "envoy/service/ratelimit/v3/rls.pb.h"
#include "grpc/health/v1/health.pb.h"

#include <google/protobuf/arena.h>
#include <google/protobuf/stubs/logging.h>
#include <google/protobuf/util/json_util.h>

#include <QCryptographicHash>
#include <QHash>
#include <QJsonObject>
#include <QThread>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <mutex>
#include <optional>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace sluice::serve {

namespace rls = ::envoy::service::ratelimit::v3;
using Descriptor = ::envoy::extensions::common::ratelimit::v3::RateLimitDescriptor;
using Code = rls::RateLimitResponse::Code;
using Result_ = Metrics::GrpcResult;

namespace {

// The descriptor tree of a rule table, by rule id in UTF-8: every rule id (its rule) and every
// proper prefix of one at a '.' (a node that has children). Built once per table; looked up with
// the bytes of a request (a string_view, nothing allocated).
struct Tree
{
    struct Node
    {
        const ServiceRule *rule = nullptr;
        bool parent = false;
    };
    struct Hash
    {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    RuleTablePtr table;
    std::unordered_map<std::string, Node, Hash, std::equal_to<>> nodes;

    const Node *find(std::string_view id) const
    {
        const auto it = nodes.find(id);
        return it == nodes.end() ? nullptr : &it->second;
    }
};

std::shared_ptr<const Tree> treeOf(const RuleTablePtr &table)
{
    auto t = std::make_shared<Tree>();
    t->table = table;
    for (const QString &id : table->ids()) {
        const std::string utf8 = id.toStdString();
        t->nodes[utf8].rule = table->find(id);
        for (size_t at = utf8.find('.'); at != std::string::npos && at > 0;
             at = utf8.find('.', at + 1)) {
            t->nodes[utf8.substr(0, at)].parent = true;
        }
    }
    return t;
}

GrpcStatus invalid(const QString &message)
{
    return GrpcStatus{GrpcCode::InvalidArgument, message.toStdString()};
}

// The protobuf library's own log lines (a string field with invalid UTF-8 is logged as it is
// refused) are dropped: every refusal is answered with a status, and a client must not be
// able to fill the service's log.
void quietProtobufLog(google::protobuf::LogLevel, const char *, int, const std::string &) {}

// envoy ratelimit's walk of descriptor `d` through `tree`: at each entry KEY_VALUE, else KEY
// (any value), on while the node has children; the rule of the node the last entry reaches,
// or none. `domainId`: the domain's id part. `subject`: the values of the entries matched by KEY
// alone, joined by U+001F ("_" for none).
// `D`: the generated Descriptor, or WireRequest's.
template <typename D>
const ServiceRule *walk(const Tree &tree, std::string_view domainId, const D &d,
                        QByteArray *subject)
{
    subject->clear();
    bool anyValue = false; // an entry matched by KEY alone
    const ServiceRule *rule = nullptr;
    // The id of the node reached (ruleIdOf, a part at a time), in a buffer the thread reuses.
    thread_local std::string id;
    id.assign(domainId);
    for (int j = 0; j < d.entries_size(); ++j) {
        const auto &e = d.entries(j);
        id += '.';
        rules::envoy::appendIdPart(id, e.key());
        const size_t keyEnd = id.size();
        if (!e.value().empty()) {
            id += '_';
            rules::envoy::appendIdPart(id, e.value());
        }
        const Tree::Node *node = tree.find(id); // KEY_VALUE (KEY for an empty value)
        if (node == nullptr) {
            if (e.value().empty()) {
                break; // no such descriptor: not limited
            }
            id.resize(keyEnd);
            node = tree.find(id);
            if (node == nullptr) {
                break;
            }
            if (anyValue) {
                subject->append('\x1f');
            }
            subject->append(e.value().data(), qsizetype(e.value().size()));
            anyValue = true;
        }
        if (j == d.entries_size() - 1) {
            rule = node->rule;
        }
        if (!node->parent) {
            break;
        }
    }
    if (!anyValue) {
        *subject = QByteArrayLiteral("_");
    }
    return rule;
}

} // namespace

struct GrpcService::Impl final : GrpcCalls
{
    Impl(CheckService &s, Options o)
        : service(s)
        , options(o)
    {}

    CheckService &service;
    Options options;
    std::mutex treeMutex;
    std::shared_ptr<const Tree> tree; // of the table last seen

    std::shared_ptr<const Tree> currentTree()
    {
        const RuleTablePtr table = service.rules();
        if (!table) {
            return nullptr;
        }
        std::lock_guard l(treeMutex);
        if (!tree || tree->table != table) {
            tree = treeOf(table);
        }
        return tree;
    }

    // The decisions of the calls of one turn of the server's loop, handed on together at its
    // end (as HTTP's requests are).
    struct Batch
    {
        std::vector<DecisionJob> jobs;
        std::vector<CheckService::OverrideMatch> matches;
    };
    // ShouldRateLimit for gRPC and POST /json alike: its jobs into `batch`, or (none) decided
    // now.
    // `Request`: the generated message (parsed, or from JSON), or a WireRequest (its usual
    // shape read off the wire).
    template <typename Request>
    void decide(const Request &request, GrpcReply reply, Batch *batch = nullptr);
    template <typename Request> QString refusalOf(const Request &request) const;
    void answerUnknownDomain(int descriptors, const GrpcReply &reply);
    template <typename Request>
    QString addJob(int i, const Request &request, const Tree &tree, std::string_view domainId,
                   const std::shared_ptr<GrpcCall> &call, Batch &out);
    WireRequest wire; // call()'s, reused
    bool parseAndDecide(std::string_view message, const GrpcReply &reply);

    // The HTTP/2 server of the port (grpcsession.h) and what its calls share.
    HttpServer *server = nullptr;
    Batch batch;
    std::shared_ptr<qint64> buffered = std::make_shared<qint64>(0);
    std::shared_ptr<int> open = std::make_shared<int>(0);
    // Answers decided in the workers, written in the server's thread.
    std::shared_ptr<GrpcAnswers> answers = std::make_shared<GrpcAnswers>();
    void drain();
    std::vector<GrpcAnswer> ready; // drain()'s

    // grpc.health.v1.Health: SERVING while rules are loaded and Redis answers; Watch's
    // callers get every change.
    bool serving = false;
    std::map<std::pair<quint64, int32_t>, bool> watchers; // (connection, stream): known service
    void updateHealth();
    void health(GrpcSession &session, int32_t stream, std::string_view message, bool watch);

    void call(GrpcSession &session, int32_t stream, Method method, std::string_view message,
              std::chrono::steady_clock::time_point deadline) override;
    void ended(GrpcSession &session, int32_t stream) override
    {
        watchers.erase({session.connection(), stream});
    }
    QString limitOverride(int i, const Descriptor &d, const QString &domain,
                          const ServiceRule *&rule, RuleTablePtr &ruleTable, QByteArray &subject);

    // A descriptor's `limit` override: a fixed window of `perUnit` per `unitUs` named
    // <base>.override-<perUnit>-<unit>, in a table of its own (kept, at most maxOverrides of
    // them: the ids are metric labels). Null past that bound.
    static constexpr int maxOverrides = 256;
    std::mutex overrideMutex;
    QHash<QString, RuleTablePtr> overrides;
    RuleTablePtr overrideTable(const QString &base, const ServiceRule *configured, quint32 perUnit,
                               qint64 unitUs, const char *unitName)
    {
        const QString id =
            QStringLiteral("%1.override-%2-%3").arg(base).arg(perUnit).arg(QLatin1String(unitName));
        std::lock_guard l(overrideMutex);
        if (const auto it = overrides.constFind(id); it != overrides.constEnd()) {
            return *it;
        }
        if (overrides.size() >= maxOverrides) {
            return nullptr;
        }
        Rule rule = Rule::window(id, Algorithm::FixedWindow, perUnit, unitUs);
        if (configured != nullptr) {
            rule.onRedisError = configured->rule.onRedisError;
            rule.keyPrefix = configured->rule.keyPrefix;
        }
        RuleSet set;
        set.rules.push_back(rule);
        Metrics *metrics = &service.metrics();
        auto table = std::make_shared<const RuleTable>(
            set, 0, QStringLiteral("a descriptor's limit override"),
            [metrics](const QString &ruleId) { return metrics->rule(ruleId); });
        overrides.insert(id, table);
        return table;
    }
};

// The request's shape checked before anything is decided: the refusal, or empty.
template <typename Request> QString GrpcService::Impl::refusalOf(const Request &request) const
{
    if (request.domain().empty()) {
        return QStringLiteral("domain is required: the domain of the rate limit configuration "
                              "(envoy ratelimit's domain:, the first part of the rule ids)");
    }
    if (qsizetype(request.domain().size()) > options.maxEntryBytes) {
        return QStringLiteral("domain is %1 bytes, above %2")
            .arg(request.domain().size())
            .arg(options.maxEntryBytes);
    }
    const int count = request.descriptors_size();
    if (count == 0) {
        return QStringLiteral("descriptors is empty: at least one descriptor (a list of "
                              "key/value entries) is required");
    }
    if (count > options.maxDescriptors) {
        return QStringLiteral("%1 descriptors in one request; at most %2 are decided per request")
            .arg(count)
            .arg(options.maxDescriptors);
    }
    for (int i = 0; i < count; ++i) {
        const auto &d = request.descriptors(i);
        if (d.entries_size() == 0) {
            return QStringLiteral("descriptors[%1] has no entries").arg(i);
        }
        if (d.entries_size() > options.maxEntries) {
            return QStringLiteral("descriptors[%1] has %2 entries; at most %3")
                .arg(i)
                .arg(d.entries_size())
                .arg(options.maxEntries);
        }
        for (int j = 0; j < d.entries_size(); ++j) {
            const auto &e = d.entries(j);
            if (e.key().empty()) {
                return QStringLiteral("descriptors[%1].entries[%2].key is empty").arg(i).arg(j);
            }
            const std::string_view key = e.key(), value = e.value();
            for (const auto &[name, text] : {std::pair{"key", key}, {"value", value}}) {
                if (qsizetype(text.size()) > options.maxEntryBytes) {
                    return QStringLiteral("descriptors[%1].entries[%2].%3 is %4 bytes, above %5 "
                                          "(values become Redis keys)")
                        .arg(i)
                        .arg(j)
                        .arg(QLatin1String(name))
                        .arg(text.size())
                        .arg(options.maxEntryBytes);
                }
            }
        }
    }
    return {};
}

// A domain no rule has: --grpc-unknown-domain's answer.
void GrpcService::Impl::answerUnknownDomain(int descriptors, const GrpcReply &reply)
{
    service.metrics().countGrpc(Result_::UnknownDomain);
    if (options.unknownDomain == UnknownDomain::Error) {
        // Neither the domain (the client has it) nor where the rules came from.
        reply(invalid(QStringLiteral("unknown domain: no rule of the service is under the "
                                     "request's domain")),
              nullptr);
        return;
    }
    rls::RateLimitResponse response;
    const Code code = options.unknownDomain == UnknownDomain::Ok
                          ? rls::RateLimitResponse::OK
                          : rls::RateLimitResponse::OVER_LIMIT;
    response.set_overall_code(code);
    for (int i = 0; i < descriptors; ++i) {
        response.add_statuses()->set_code(code);
    }
    reply(GrpcStatus{}, &response);
}

// Descriptor `i`'s rule, subject and cost, screened, into `out` (none when no rule limits it):
// the refusal of the whole request, or empty.
template <typename Request>
QString GrpcService::Impl::addJob(int i, const Request &request, const Tree &tree,
                                  std::string_view domainId, const std::shared_ptr<GrpcCall> &call,
                                  Batch &out)
{
    // (A WireRequest's descriptors have no `limit` and no `hits_addend` of their own.)
    constexpr bool generated = std::is_same_v<Request, rls::RateLimitRequest>;
    const auto &d = request.descriptors(i);
    QByteArray subject;
    const ServiceRule *rule = walk(tree, domainId, d, &subject);
    RuleTablePtr ruleTable = tree.table;
    if constexpr (generated) {
        if (d.has_limit()) {
            if (QString e = limitOverride(i, d, QString::fromStdString(request.domain()), rule,
                                          ruleTable, subject);
                !e.isEmpty()) {
                return e;
            }
        }
    }
    if (rule == nullptr) {
        service.metrics().countUnmatchedDescriptor();
        return {};
    }
    // The descriptor's hits_addend wins (0: look only); the request's 0 is unset: 1.
    qint64 cost = std::max<qint64>(request.hits_addend(), 1);
    if constexpr (generated) {
        if (d.has_hits_addend()) {
            cost = qint64(std::min<quint64>(d.hits_addend().value(), quint64(duration::maxExact)));
        }
    }
    if (subject.size() > options.maxEntryBytes) {
        return QStringLiteral("descriptors[%1]: its values make a subject of %2 bytes, above %3 "
                              "(subjects become Redis keys)")
            .arg(i)
            .arg(subject.size())
            .arg(options.maxEntryBytes);
    }
    // As HTTP: the subject's override matched, the cost checked against the capacity that
    // decides; every descriptor is screened before any is decided.
    const CheckService::Admission admission = CheckService::screen(*rule, subject, cost);
    if (admission.screened == CheckService::Screened::CostAboveCapacity) {
        return QStringLiteral("descriptors[%1]: hits_addend %2 is above %3, the capacity of rule "
                              "'%4': such a request could never be admitted")
            .arg(i)
            .arg(cost)
            .arg(admission.match.capacity)
            .arg(rule->rule.id);
    }
    if (admission.screened == CheckService::Screened::NotLimited) {
        return {}; // a disabled rule (unlimited): not limited, Redis untouched
    }
    call->slots()[size_t(i)].rule = rule;
    DecisionJob &job = out.jobs.emplace_back();
    job.table = std::move(ruleTable);
    job.rule = rule;
    job.subject = std::move(subject);
    job.cost = cost;
    job.received = call->received();
    job.sink = call;
    job.slot = i;
    out.matches.push_back(admission.match);
    return {};
}

template <typename Request>
void GrpcService::Impl::decide(const Request &request, GrpcReply reply, Batch *batch)
{
    Metrics &metrics = service.metrics();
    if (const QString refusal = refusalOf(request); !refusal.isEmpty()) {
        metrics.countGrpc(Result_::Invalid);
        reply(invalid(refusal), nullptr);
        return;
    }
    const std::shared_ptr<const Tree> tree = currentTree();
    if (!tree) {
        metrics.countGrpc(Result_::Failed);
        reply(GrpcStatus{GrpcCode::Unavailable, "no rules are loaded yet"}, nullptr);
        return;
    }
    std::string domainId;
    rules::envoy::appendIdPart(domainId, request.domain());
    const int count = request.descriptors_size();
    if (const Tree::Node *node = tree->find(domainId); node == nullptr || !node->parent) {
        answerUnknownDomain(count, reply);
        return;
    }
    auto call = std::make_shared<GrpcCall>(
        size_t(count), GrpcCall::Options{options.responseHeaders, options.dynamicMetadata},
        &metrics, std::move(reply));
    // The jobs go straight into `batch` (or one of their own, decided now); a refusal takes
    // back those of this request.
    Batch own;
    Batch &out = batch != nullptr ? *batch : own;
    const size_t first = out.jobs.size();
    for (int i = 0; i < count; ++i) {
        if (const QString refusal = addJob(i, request, *tree, domainId, call, out);
            !refusal.isEmpty()) {
            out.jobs.resize(first);
            out.matches.resize(first);
            metrics.countGrpc(Result_::Invalid);
            call->reply()(invalid(refusal), nullptr);
            return;
        }
    }
    call->expect(int(out.jobs.size() - first));
    if (batch == nullptr && !own.jobs.empty()) {
        service.decide(own.jobs, own.matches);
    }
}

void GrpcService::Impl::drain()
{
    {
        std::lock_guard l(answers->mutex);
        ready.swap(answers->queue); // (the two vectors' capacities are kept, and reused)
    }
    for (GrpcAnswer &a : ready) {
        if (auto *s = static_cast<GrpcSession *>(server->session(a.connection))) {
            if (a.status.ok()) {
                s->answerFramed(a.stream, std::move(a.message));
            } else {
                s->answer(a.stream, a.status, {});
            }
            server->wake(a.connection);
        }
    }
    ready.clear();
    server->flush();
}

void GrpcService::Impl::call(GrpcSession &session, int32_t stream, Method method,
                             std::string_view message,
                             std::chrono::steady_clock::time_point deadline)
{
    if (method != Method::ShouldRateLimit) {
        health(session, stream, message, method == Method::HealthWatch);
        return;
    }
    Metrics &metrics = service.metrics();
    const size_t first = batch.jobs.size();
    const GrpcReply reply{{}, answers, session.connection(), stream};
    if (wire.read(message, options.maxDescriptors, options.maxEntries)) {
        decide(wire, reply, &batch); // the usual shape, within the bounds: no message objects
    } else if (const QString screened =
                   screenRequest(message, options.maxDescriptors, options.maxEntries);
               !screened.isEmpty()) {
        // The wire bytes are screened (descriptors and entries counted) before they are parsed.
        metrics.countGrpc(Result_::Invalid);
        session.answer(stream, invalid(screened), {});
        return;
    } else if (!parseAndDecide(message, reply)) {
        metrics.countGrpc(Result_::Invalid);
        session.answer(stream,
                       invalid(QStringLiteral(
                           "the request is not a valid envoy.service.ratelimit.v3.RateLimitRequest "
                           "(a string field that is not valid UTF-8, or bytes that are not that "
                           "message)")),
                       {});
        return;
    }
    // The client's grpc-timeout bounds the decision as --timeout-ms does.
    for (size_t j = first; j < batch.jobs.size(); ++j) {
        batch.jobs[j].deadline = deadline;
    }
}

// Any other request: parsed whole (into an arena that starts on the stack, so a usual request
// allocates nothing; the screen bounds what a request can make), then decided. False: not a
// RateLimitRequest.
bool GrpcService::Impl::parseAndDecide(std::string_view message, const GrpcReply &reply)
{
    StackArena arena;
    auto &parsed = arena.make<rls::RateLimitRequest>();
    if (!parsed.ParseFromArray(message.data(), int(message.size()))) {
        return false;
    }
    decide(parsed, reply, &batch);
    return true;
}

void GrpcService::Impl::health(GrpcSession &session, int32_t stream, std::string_view message,
                               bool watch)
{
    grpc::health::v1::HealthCheckRequest request;
    if (!request.ParseFromArray(message.data(), int(message.size()))) {
        session.answer(stream, invalid(QStringLiteral("not a grpc.health.v1.HealthCheckRequest")),
                       {});
        return;
    }
    const bool known = request.service().empty() ||
                       request.service() == "envoy.service.ratelimit.v3.RateLimitService";
    if (!known && !watch) {
        session.answer(stream, GrpcStatus{GrpcCode::NotFound, "unknown service"}, {});
        return;
    }
    grpc::health::v1::HealthCheckResponse response;
    using R = grpc::health::v1::HealthCheckResponse;
    response.set_status(!known ? R::SERVICE_UNKNOWN : serving ? R::SERVING : R::NOT_SERVING);
    if (watch) {
        watchers[{session.connection(), stream}] = known;
    }
    session.answer(stream, GrpcStatus{}, response.SerializeAsString(), watch);
}

void GrpcService::Impl::updateHealth()
{
    const bool now = service.rules() && service.health().redisUp;
    if (now == serving) {
        return;
    }
    serving = now;
    grpc::health::v1::HealthCheckResponse response;
    response.set_status(serving ? grpc::health::v1::HealthCheckResponse::SERVING
                                : grpc::health::v1::HealthCheckResponse::NOT_SERVING);
    const std::string bytes = response.SerializeAsString();
    for (const auto &[key, known] : watchers) {
        if (auto *s = static_cast<GrpcSession *>(server->session(key.first)); s && known) {
            s->answer(key.second, GrpcStatus{}, bytes, true);
            server->wake(key.first);
        }
    }
    server->flush();
}

// A descriptor's `limit`: envoy ratelimit's override, this limit instead of the configured one
// (or of none), counted per value of every entry: `rule`, `table` and `subject` become the
// override's. The refusal, or empty.
QString GrpcService::Impl::limitOverride(int i, const Descriptor &d, const QString &domain,
                                         const ServiceRule *&rule, RuleTablePtr &ruleTable,
                                         QByteArray &subject)
{
    // envoy ratelimit's override: this limit instead of the configured one (or of none),
    // counted per value of every entry.
    struct UnitOf
    {
        qint64 us;
        const char *name;
    };
    static const std::map<int, UnitOf> units{{1, {duration::usPerSecond, "second"}},
                                             {2, {duration::usPerMinute, "minute"}},
                                             {3, {duration::usPerHour, "hour"}},
                                             {4, {duration::usPerDay, "day"}}};
    const auto unit = units.find(int(d.limit().unit()));
    if (d.limit().requests_per_unit() == 0 || unit == units.end()) {
        return QStringLiteral("descriptors[%1].limit: %2 per unit %3 cannot be "
                              "expressed (requests_per_unit at least 1; unit SECOND, "
                              "MINUTE, HOUR or DAY)")
            .arg(i)
            .arg(d.limit().requests_per_unit())
            .arg(int(d.limit().unit()));
    }
    QList<QPair<QString, QString>> keys;
    QList<QByteArray> values;
    for (const auto &e : d.entries()) {
        keys.append({QString::fromStdString(e.key()), QString()});
        values.append(QByteArray::fromStdString(e.value()));
    }
    // Unconfigured keys: the domain (configured) and a digest of the keys, so that no id (a
    // metric label, a Redis key) is made of a client's bytes.
    const QString base =
        rule != nullptr ? rule->rule.id
                        : domain + QStringLiteral(".keys-") +
                              QString::fromLatin1(QCryptographicHash::hash(
                                                      rules::envoy::ruleIdOf(domain, keys).toUtf8(),
                                                      QCryptographicHash::Sha256)
                                                      .toHex()
                                                      .left(16));
    ruleTable = overrideTable(base, rule, d.limit().requests_per_unit(), unit->second.us,
                              unit->second.name);
    if (!ruleTable) {
        service.metrics().countOverrideRefused();
        return QStringLiteral("descriptors[%1].limit: more than %2 different limit "
                              "overrides; the service keeps at most that many")
            .arg(i)
            .arg(maxOverrides);
    }
    rule = ruleTable->find(ruleTable->ids().first());
    subject = values.join('\x1f');
    return {};
}

GrpcService::GrpcService(CheckService &service, Options options, QObject *parent)
    : QObject(parent)
    , d(std::make_unique<Impl>(service, options))
{
    google::protobuf::SetLogHandler(&quietProtobufLog);
}

GrpcService::~GrpcService()
{
    // Answers still to come from the workers are dropped (their clients see the connection
    // close).
    {
        std::lock_guard l(d->answers->mutex);
        d->answers->closed = true;
    }
    delete d->server;
    d->server = nullptr;
}

namespace {

// An HTTP/2 frame head: 24-bit length, type, no flags, stream 0.
void putFrame(QByteArray &out, int length, char type)
{
    out += char(length >> 16);
    out += char(length >> 8);
    out += char(length);
    out += type;
    out.append(5, '\0');
}

// A connection refused: the server's preface (an empty SETTINGS) and a GOAWAY
// (ENHANCE_YOUR_CALM, the reason as its debug data), which a gRPC client reports as
// UNAVAILABLE with the reason.
QByteArray goaway(const QString &why)
{
    const QByteArray debug = why.toUtf8();
    QByteArray out;
    putFrame(out, 0, '\x04');
    putFrame(out, 8 + int(debug.size()), '\x07');
    out.append(4, '\0');
    out.append("\0\0\0\x0b", 4);
    out += debug;
    return out;
}

} // namespace

Result<quint16> GrpcService::listen(const QHostAddress &address, quint16 port)
{
    CheckService &service = d->service;
    const Options &o = d->options;
    HttpLimits limits;
    limits.maxConnections = o.limits.maxConnections;
    limits.maxConnectionsPerPeer = o.limits.maxConnectionsPerPeer;
    limits.headerTimeoutMs = o.handshakeTimeoutMs;
    limits.idleTimeoutMs = o.limits.idleTimeoutMs;
    d->server = new HttpServer(limits, {}, 0, {}, this);
    auto *log = o.log;
    auto warn = [log](const QString &line) {
        if (log != nullptr) {
            log->write(ServeLog::Level::Warning, "grpc", line);
        }
    };
    d->server->setLog([warn](const QString &line) { warn(QStringLiteral("gRPC: ") + line); });
    d->server->setProblem(
        [&service](const QString &why) { service.setProblem(QStringLiteral("grpc"), why); });
    d->server->setTls(o.tls);
    GrpcSession::Options so;
    so.limits = o.limits;
    so.maxMessageBytes = o.maxMessageBytes;
    so.memoryBytes = o.memoryBytes;
    so.metrics = &service.metrics();
    so.log = warn;
    so.open = d->open;
    Metrics *metrics = &service.metrics();
    d->server->setSessions(
        [this, so](quint64 connection) {
            return std::make_unique<GrpcSession>(connection, so, *d, d->buffered);
        },
        [metrics](Refusal why, const QString &message) {
            metrics->countGrpcRefused(why == Refusal::MaxConnections
                                          ? Metrics::GrpcRefused::MaxConnections
                                      : why == Refusal::MaxConnectionsPerPeer
                                          ? Metrics::GrpcRefused::MaxConnectionsPerPeer
                                          : Metrics::GrpcRefused::OutOfDescriptors);
            return goaway(message);
        },
        QStringLiteral("grpc-"));
    d->server->setTurnEnd([this] {
        if (!d->batch.jobs.empty()) {
            d->service.decide(d->batch.jobs, d->batch.matches);
            d->batch.matches.clear();
        }
    });
    d->answers->target = d->server;
    d->answers->drain = [impl = d.get()] { impl->drain(); };
    const auto bound = d->server->listen(address, port);
    if (!bound) {
        return Error{Error::Kind::Io, QStringLiteral("--grpc: %1").arg(bound.error().message)};
    }
    d->server->start();
    d->updateHealth();
    m_healthTimer = new QTimer(this);
    connect(m_healthTimer, &QTimer::timeout, this, [this] { d->updateHealth(); });
    m_healthTimer->start(250);
    return *bound;
}

void GrpcService::handleJson(const QByteArray &body, const CheckService::Options::JsonReply &reply)
{
    rls::RateLimitRequest request;
    const auto parsed = google::protobuf::util::JsonStringToMessage(
        std::string(body.constData(), size_t(body.size())), &request);
    if (!parsed.ok()) {
        d->service.metrics().countGrpc(Result_::Invalid);
        reply(400, errorBody(400, QStringLiteral("invalid_argument"),
                             QStringLiteral("the body is not a RateLimitRequest in the proto3 "
                                            "JSON mapping: %1")
                                 .arg(bytes::quoted(
                                     QByteArray::fromStdString(std::string(parsed.message()))))));
        return;
    }
    GrpcReply json;
    json.done = [reply](const GrpcStatus &status, const rls::RateLimitResponse *answer) {
        if (!status.ok()) {
            const bool invalidArgument = status.code == GrpcCode::InvalidArgument;
            const int http = invalidArgument                        ? 400
                             : status.code == GrpcCode::Unavailable ? 503
                                                                    : 500;
            reply(http, errorBody(http,
                                  invalidArgument ? QStringLiteral("invalid_argument")
                                  : http == 503   ? QStringLiteral("no_rules")
                                                  : QStringLiteral("decision_failed"),
                                  QString::fromStdString(status.message)));
            return;
        }
        std::string out;
        google::protobuf::util::JsonPrintOptions print;
        print.always_print_primitive_fields = true;
        [[maybe_unused]] const auto printed =
            google::protobuf::util::MessageToJsonString(*answer, &out, print);
        reply(answer->overall_code() == rls::RateLimitResponse::OVER_LIMIT ? 429 : 200,
              QByteArray::fromStdString(out) + '\n');
    };
    d->decide(request, std::move(json));
}

} // namespace sluice::serve
