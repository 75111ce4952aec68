#include "grpcservice.h"

#include "core/rules/envoyformat.h"
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
#include <unordered_map>
#include <vector>

namespace sluice::serve {

namespace rls = ::envoy::service::ratelimit::v3;
using Descriptor = ::envoy::extensions::common::ratelimit::v3::RateLimitDescriptor;
using Code = rls::RateLimitResponse::Code;
using Unit = rls::RateLimitResponse::RateLimit::Unit;
using Result_ = Metrics::GrpcResult;

namespace {

// How a request ended: a gRPC status (OK with the response), counted once.
using Done = std::function<void(const GrpcStatus &, const rls::RateLimitResponse *)>;

// Envoy's unit of a window (or a bucket's period), if it is one.
Unit unitOf(qint64 us)
{
    switch (us) {
    case duration::usPerSecond:
        return rls::RateLimitResponse::RateLimit::SECOND;
    case duration::usPerMinute:
        return rls::RateLimitResponse::RateLimit::MINUTE;
    case duration::usPerHour:
        return rls::RateLimitResponse::RateLimit::HOUR;
    case duration::usPerDay:
        return rls::RateLimitResponse::RateLimit::DAY;
    default:
        return rls::RateLimitResponse::RateLimit::UNKNOWN;
    }
}

quint32 clampU32(qint64 v)
{
    return quint32(std::clamp<qint64>(v, 0, std::numeric_limits<quint32>::max()));
}

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

// current_limit of the policy that decided (FORMATS.md "The gRPC API"): N per one unit when its
// window (a bucket's rate period) is one SECOND, MINUTE, HOUR or DAY, `name` the rule id; else
// unit UNKNOWN, requests_per_unit its capacity (RateLimit-Policy's q) and `name` saying the
// truth, "<rule id>: 10 per 30s" (Policy::describe).
void writeLimit(rls::RateLimitResponse::RateLimit *limit, const ServiceRule &r, const Policy &p)
{
    const bool window = algorithm::isWindow(p.algorithm);
    const Unit unit = unitOf(window ? p.windowUs : p.rate.periodUs);
    limit->set_unit(unit);
    if (unit != rls::RateLimitResponse::RateLimit::UNKNOWN) {
        limit->set_name(r.idUtf8.constData(), size_t(r.idUtf8.size()));
        limit->set_requests_per_unit(clampU32(window ? p.limit : p.rate.count));
        return;
    }
    limit->set_name((r.rule.id + QStringLiteral(": ") + p.describe()).toStdString());
    limit->set_requests_per_unit(clampU32(p.capacity()));
}

// One descriptor's entry of dynamic_metadata: {rule, algorithm, decision, source[, override]}.
void describeDecision(google::protobuf::Struct *out, const ServiceRule &r, const Verdict &v,
                      DecisionSource source)
{
    auto &f = *out->mutable_fields();
    f["rule"].set_string_value(r.idUtf8.toStdString());
    f["algorithm"].set_string_value(algorithm::name(v.policy->algorithm).toStdString());
    f["decision"].set_string_value(std::string(v.decision.data(), size_t(v.decision.size())));
    f["source"].set_string_value(decisionSourceName(source).toStdString());
    if (!v.overrideAction.isEmpty()) {
        f["override"].set_string_value(
            std::string(v.overrideAction.data(), size_t(v.overrideAction.size())));
    }
}

// A protobuf arena whose first block is on the stack: messages built or parsed in it cost no
// allocation until they outgrow the block (then the arena takes blocks from the heap).
class StackArena
{
public:
    StackArena()
        : m_arena(options(m_block))
    {}
    template <typename Message> Message &make()
    {
        return *google::protobuf::Arena::CreateMessage<Message>(&m_arena);
    }

private:
    static google::protobuf::ArenaOptions options(char *block)
    {
        google::protobuf::ArenaOptions o;
        o.initial_block = block;
        o.initial_block_size = blockBytes;
        return o;
    }
    static constexpr size_t blockBytes = 4096;
    alignas(16) char m_block[blockBytes];
    google::protobuf::Arena m_arena;
};

// One request in flight: a slot per descriptor, the last outcome sends the answer.
class Call : public OutcomeSink
{
public:
    struct Slot
    {
        const ServiceRule *rule = nullptr; // none: not limited (no rule, or a disabled one)
        RuleTablePtr table;                // keeps `rule` and `verdict`'s policy alive
        Decision decision;
        Verdict verdict; // what decided: the rule's policy or an override's (verdictOf)
        DecisionSource source = DecisionSource::Redis;
        bool failed = false;
    };
    struct Options
    {
        bool headers = false;         // response_headers_to_add
        bool dynamicMetadata = false; // dynamic_metadata
    };

    Call(size_t descriptors, Options options, Metrics *metrics, Done done)
        : m_slots(descriptors)
        , m_options(options)
        , m_metrics(metrics)
        , m_done(std::move(done))
    {}

    std::vector<Slot> &slots() { return m_slots; }
    Done &done() { return m_done; }
    // How many outcomes to wait for; 0 answers at once.
    void expect(int jobs)
    {
        if (jobs == 0) {
            finish();
        } else {
            m_pending.store(jobs);
        }
    }

    void take(DecisionOutcome &&o) override
    {
        Slot &s = m_slots[size_t(o.job.slot)];
        s.decision = o.decision;
        s.failed = !o.error.isEmpty();
        s.verdict = verdictOf(o);
        s.source = o.source;
        s.table = std::move(o.job.table);
        if (m_pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            finish();
        }
    }

private:
    void finish()
    {
        // The answer is built in an arena that starts on the stack: a usual answer costs no
        // allocation until it is serialized.
        StackArena arena;
        rls::RateLimitResponse &response = arena.make<rls::RateLimitResponse>();
        bool over = false;
        const Slot *tightest = nullptr;
        for (const Slot &s : m_slots) {
            if (s.failed) {
                m_metrics->countGrpc(Result_::Failed);
                m_done(GrpcStatus{GrpcCode::Internal,
                                  QStringLiteral("rule '%1': the decision failed (not Redis "
                                                 "being unavailable; details in the "
                                                 "service's log)")
                                      .arg(s.rule->rule.id)
                                      .toStdString()},
                       nullptr);
                return;
            }
            auto *status = response.add_statuses();
            if (s.rule == nullptr) {
                status->set_code(rls::RateLimitResponse::OK);
                continue;
            }
            const Decision &d = s.decision;
            const bool allowed = s.verdict.allowed; // a shadow rule never denies
            over = over || !allowed;
            status->set_code(allowed ? rls::RateLimitResponse::OK
                                     : rls::RateLimitResponse::OVER_LIMIT);
            writeLimit(status->mutable_current_limit(), *s.rule, *s.verdict.policy);
            status->set_limit_remaining(clampU32(d.remaining));
            const qint64 resetMs = std::max<qint64>(d.resetAfterMs, 0);
            status->mutable_duration_until_reset()->set_seconds(resetMs / 1000);
            status->mutable_duration_until_reset()->set_nanos(int(resetMs % 1000) * 1'000'000);
            if (tightest == nullptr || (!allowed && tightest->verdict.allowed) ||
                (allowed == tightest->verdict.allowed &&
                 d.remaining < tightest->decision.remaining)) {
                tightest = &s;
            }
        }
        response.set_overall_code(over ? rls::RateLimitResponse::OVER_LIMIT
                                       : rls::RateLimitResponse::OK);
        if (m_options.headers && tightest != nullptr) {
            Decision d = tightest->decision;
            d.allowed = tightest->verdict.allowed;
            for (const auto &[name, value] : headers::rateLimitHeaders(
                     *tightest->verdict.policy, *tightest->verdict.policyHeader, d, true)) {
                auto *h = response.add_response_headers_to_add();
                h->set_key(name.toStdString());
                h->set_value(value.toStdString());
            }
        }
        if (m_options.dynamicMetadata) {
            writeMetadata(response.mutable_dynamic_metadata(), tightest);
        }
        m_metrics->countGrpc(over ? Result_::OverLimit : Result_::Ok);
        m_done(GrpcStatus{}, &response);
    }

    // dynamic_metadata: the deciding descriptor's (the one of the headers) rule, algorithm,
    // decision and source, and one such object per descriptor in "descriptors" ({"decision":
    // "not-limited"} for one no rule limits).
    void writeMetadata(google::protobuf::Struct *out, const Slot *tightest) const
    {
        if (tightest != nullptr) {
            describeDecision(out, *tightest->rule, tightest->verdict, tightest->source);
        } else {
            (*out->mutable_fields())["decision"].set_string_value("not-limited");
        }
        auto *list = (*out->mutable_fields())["descriptors"].mutable_list_value();
        for (const Slot &s : m_slots) {
            auto *one = list->add_values()->mutable_struct_value();
            if (s.rule == nullptr) {
                (*one->mutable_fields())["decision"].set_string_value("not-limited");
            } else {
                describeDecision(one, *s.rule, s.verdict, s.source);
            }
        }
    }

    std::vector<Slot> m_slots;
    Options m_options;
    Metrics *m_metrics;
    Done m_done;
    std::atomic<int> m_pending{0};
};

// A message as one gRPC frame: flag 0 (not compressed), its length (4 bytes), its bytes.
std::string framed(const google::protobuf::MessageLite &m)
{
    const size_t n = m.ByteSizeLong();
    std::string out(5 + n, '\0');
    out[1] = char(n >> 24);
    out[2] = char(n >> 16);
    out[3] = char(n >> 8);
    out[4] = char(n);
    m.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t *>(out.data() + 5));
    return out;
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
const ServiceRule *walk(const Tree &tree, std::string_view domainId, const Descriptor &d,
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
    void decide(const rls::RateLimitRequest &request, Done done, Batch *batch = nullptr);

    // The HTTP/2 server of the port (grpcsession.h) and what its calls share.
    HttpServer *server = nullptr;
    Batch batch;
    std::shared_ptr<qint64> buffered = std::make_shared<qint64>(0);
    std::shared_ptr<int> open = std::make_shared<int>(0);
    // Answers decided in the workers, written in the server's thread: the first of a batch
    // wakes it.
    struct Answer
    {
        quint64 connection = 0;
        int32_t stream = 0;
        GrpcStatus status;
        std::string message;
    };
    struct Answers
    {
        std::mutex mutex;
        std::vector<Answer> queue;
        bool closed = false; // the service is going: nothing more is posted
        QObject *target = nullptr;
        std::function<void()> drain;
    };
    std::shared_ptr<Answers> answers = std::make_shared<Answers>();
    static void post(const std::shared_ptr<Answers> &a, Answer answer);
    void drain();
    std::vector<Answer> ready; // drain()'s

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

void GrpcService::Impl::decide(const rls::RateLimitRequest &request, Done done, Batch *batch)
{
    Metrics &metrics = service.metrics();
    Done *answer = &done; // (once the Call has it, the Call's)
    auto refuse = [&](const QString &message) {
        metrics.countGrpc(Result_::Invalid);
        (*answer)(invalid(message), nullptr);
    };
    if (request.domain().empty()) {
        refuse(QStringLiteral("domain is required: the domain of the rate limit configuration "
                              "(envoy ratelimit's domain:, the first part of the rule ids)"));
        return;
    }
    if (qsizetype(request.domain().size()) > options.maxEntryBytes) {
        refuse(QStringLiteral("domain is %1 bytes, above %2")
                   .arg(request.domain().size())
                   .arg(options.maxEntryBytes));
        return;
    }
    const int count = request.descriptors_size();
    if (count == 0) {
        refuse(QStringLiteral("descriptors is empty: at least one descriptor (a list of "
                              "key/value entries) is required"));
        return;
    }
    if (count > options.maxDescriptors) {
        refuse(QStringLiteral("%1 descriptors in one request; at most %2 are decided per "
                              "request")
                   .arg(count)
                   .arg(options.maxDescriptors));
        return;
    }
    for (int i = 0; i < count; ++i) {
        const Descriptor &d = request.descriptors(i);
        if (d.entries_size() == 0) {
            refuse(QStringLiteral("descriptors[%1] has no entries").arg(i));
            return;
        }
        if (d.entries_size() > options.maxEntries) {
            refuse(QStringLiteral("descriptors[%1] has %2 entries; at most %3")
                       .arg(i)
                       .arg(d.entries_size())
                       .arg(options.maxEntries));
            return;
        }
        for (int j = 0; j < d.entries_size(); ++j) {
            const auto &e = d.entries(j);
            if (e.key().empty()) {
                refuse(QStringLiteral("descriptors[%1].entries[%2].key is empty").arg(i).arg(j));
                return;
            }
            for (const auto &[name, text] : {std::pair{"key", &e.key()}, {"value", &e.value()}}) {
                if (qsizetype(text->size()) > options.maxEntryBytes) {
                    refuse(QStringLiteral("descriptors[%1].entries[%2].%3 is %4 bytes, above "
                                          "%5 (values become Redis keys)")
                               .arg(i)
                               .arg(j)
                               .arg(QLatin1String(name))
                               .arg(text->size())
                               .arg(options.maxEntryBytes));
                    return;
                }
            }
        }
    }
    const std::shared_ptr<const Tree> tree = currentTree();
    if (!tree) {
        metrics.countGrpc(Result_::Failed);
        done(GrpcStatus{GrpcCode::Unavailable, "no rules are loaded yet"}, nullptr);
        return;
    }
    std::string domainId;
    rules::envoy::appendIdPart(domainId, request.domain());
    if (const Tree::Node *node = tree->find(domainId); node == nullptr || !node->parent) {
        metrics.countGrpc(Result_::UnknownDomain);
        if (options.unknownDomain == UnknownDomain::Error) {
            // Neither the domain (the client has it) nor where the rules came from.
            done(invalid(QStringLiteral("unknown domain: no rule of the service is under the "
                                        "request's domain")),
                 nullptr);
            return;
        }
        rls::RateLimitResponse response;
        const Code code = options.unknownDomain == UnknownDomain::Ok
                              ? rls::RateLimitResponse::OK
                              : rls::RateLimitResponse::OVER_LIMIT;
        response.set_overall_code(code);
        for (int i = 0; i < count; ++i) {
            response.add_statuses()->set_code(code);
        }
        done(GrpcStatus{}, &response);
        return;
    }

    auto call = std::make_shared<Call>(
        size_t(count), Call::Options{options.responseHeaders, options.dynamicMetadata}, &metrics,
        std::move(done));
    answer = &call->done();
    // The jobs go straight into `batch` (or one of their own, decided now); a refusal takes
    // back those of this request.
    Batch own;
    Batch &out = batch != nullptr ? *batch : own;
    const size_t first = out.jobs.size();
    auto refuseAll = [&](const QString &message) {
        out.jobs.resize(first);
        out.matches.resize(first);
        refuse(message);
    };
    const auto received = std::chrono::steady_clock::now();
    for (int i = 0; i < count; ++i) {
        const Descriptor &d = request.descriptors(i);
        QByteArray subject;
        const ServiceRule *rule = walk(*tree, domainId, d, &subject);
        RuleTablePtr ruleTable = tree->table;
        if (d.has_limit()) {
            if (const QString e = limitOverride(i, d, QString::fromStdString(request.domain()),
                                                rule, ruleTable, subject);
                !e.isEmpty()) {
                refuseAll(e);
                return;
            }
        }
        if (rule == nullptr) {
            metrics.countUnmatchedDescriptor();
            continue;
        }
        // The descriptor's hits_addend wins (0: look only); the request's 0 is unset: 1.
        const qint64 cost =
            d.has_hits_addend()
                ? qint64(std::min<quint64>(d.hits_addend().value(), quint64(duration::maxExact)))
                : std::max<qint64>(request.hits_addend(), 1);
        if (subject.size() > options.maxEntryBytes) {
            refuseAll(QStringLiteral("descriptors[%1]: its values make a subject of %2 bytes, "
                                     "above %3 (subjects become Redis keys)")
                          .arg(i)
                          .arg(subject.size())
                          .arg(options.maxEntryBytes));
            return;
        }
        // As HTTP: the subject's override matched, the cost checked against the capacity that
        // decides; every descriptor is screened before any is decided.
        const CheckService::Admission admission = CheckService::screen(*rule, subject, cost);
        if (admission.screened == CheckService::Screened::CostAboveCapacity) {
            refuseAll(QStringLiteral("descriptors[%1]: hits_addend %2 is above %3, the capacity "
                                     "of rule '%4': such a request could never be admitted")
                          .arg(i)
                          .arg(cost)
                          .arg(admission.match.capacity)
                          .arg(rule->rule.id));
            return;
        }
        if (admission.screened == CheckService::Screened::NotLimited) {
            continue; // a disabled rule (unlimited): not limited, Redis untouched
        }
        call->slots()[size_t(i)].rule = rule;
        DecisionJob &job = out.jobs.emplace_back();
        job.table = std::move(ruleTable);
        job.rule = rule;
        job.subject = std::move(subject);
        job.cost = cost;
        job.received = received;
        job.sink = call;
        job.slot = i;
        out.matches.push_back(admission.match);
    }
    call->expect(int(out.jobs.size() - first));
    if (batch == nullptr && !own.jobs.empty()) {
        service.decide(own.jobs, own.matches);
    }
}

void GrpcService::Impl::post(const std::shared_ptr<Answers> &a, Answer answer)
{
    std::lock_guard l(a->mutex);
    if (a->closed) {
        return;
    }
    const bool wake = a->queue.empty();
    a->queue.push_back(std::move(answer));
    if (wake) {
        QMetaObject::invokeMethod(
            a->target, [a] { a->drain(); }, Qt::QueuedConnection);
    }
}

void GrpcService::Impl::drain()
{
    {
        std::lock_guard l(answers->mutex);
        ready.swap(answers->queue); // (the two vectors' capacities are kept, and reused)
    }
    for (Answer &a : ready) {
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
    // The wire bytes are screened (descriptors and entries counted) before they are parsed.
    const QString screened = screenRequest(message, options.maxDescriptors, options.maxEntries);
    if (!screened.isEmpty()) {
        metrics.countGrpc(Result_::Invalid);
        session.answer(stream, invalid(screened), {});
        return;
    }
    // Parsed into an arena that starts on the stack (a usual request allocates nothing); the
    // screen above bounds what a request can make.
    StackArena arena;
    auto &parsed = arena.make<rls::RateLimitRequest>();
    if (!parsed.ParseFromArray(message.data(), int(message.size()))) {
        metrics.countGrpc(Result_::Invalid);
        session.answer(stream,
                       invalid(QStringLiteral(
                           "the request is not a valid envoy.service.ratelimit.v3.RateLimitRequest "
                           "(a string field that is not valid UTF-8, or bytes that are not that "
                           "message)")),
                       {});
        return;
    }
    const size_t first = batch.jobs.size();
    decide(
        parsed,
        [a = answers, connection = session.connection(),
         stream](const GrpcStatus &status, const rls::RateLimitResponse *response) {
            Answer answer{connection, stream, status, {}};
            if (response != nullptr) {
                answer.message = framed(*response);
            }
            post(a, std::move(answer));
        },
        &batch);
    // The client's grpc-timeout bounds the decision as --timeout-ms does.
    for (size_t j = first; j < batch.jobs.size(); ++j) {
        batch.jobs[j].deadline = deadline;
    }
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
    d->decide(request, [reply](const GrpcStatus &status, const rls::RateLimitResponse *answer) {
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
    });
}

} // namespace sluice::serve
