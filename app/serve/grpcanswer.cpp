#include "grpcanswer.h"

#include "core/common/duration.h"
#include "core/limiter/headers.h"
#include "core/limiter/policy.h"

#include <algorithm>
#include <limits>

namespace sluice::serve {

namespace {

using Unit = rls::RateLimitResponse::RateLimit::Unit;
using Result_ = Metrics::GrpcResult;

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

// current_limit of the policy that decided (FORMATS.md "The gRPC API"): N per one unit when its
// window (a bucket's rate period) is one SECOND, MINUTE, HOUR or DAY, `name` the rule id; else
// unit UNKNOWN, requests_per_unit its capacity (RateLimit-Policy's q) and `name` saying the
// truth, "<rule id>: 10 per 30s" (Policy::describe).
struct Limit
{
    Unit unit = rls::RateLimitResponse::RateLimit::UNKNOWN;
    quint32 perUnit = 0;
    std::string_view id; // the rule id (UTF-8), when the unit is one
    std::string described;
    std::string_view name() const { return described.empty() ? id : described; }
};

Limit limitOf(const ServiceRule &r, const Policy &p)
{
    Limit l;
    const bool window = algorithm::isWindow(p.algorithm);
    l.unit = unitOf(window ? p.windowUs : p.rate.periodUs);
    if (l.unit != rls::RateLimitResponse::RateLimit::UNKNOWN) {
        l.id = std::string_view(r.idUtf8.constData(), size_t(r.idUtf8.size()));
        l.perUnit = clampU32(window ? p.limit : p.rate.count);
        return l;
    }
    l.described = (r.rule.id + QStringLiteral(": ") + p.describe()).toStdString();
    l.perUnit = clampU32(p.capacity());
    return l;
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

// What a slot's DescriptorStatus says, whichever way it is written.
struct StatusFields
{
    rls::RateLimitResponse::Code code = rls::RateLimitResponse::OK;
    Limit limit;
    quint32 remaining = 0;
    qint64 seconds = 0;
    int nanos = 0;
};

StatusFields statusOf(const GrpcCall::Slot &s)
{
    StatusFields f;
    f.code = s.verdict.allowed ? rls::RateLimitResponse::OK : rls::RateLimitResponse::OVER_LIMIT;
    f.limit = limitOf(*s.rule, *s.verdict.policy);
    f.remaining = clampU32(s.decision.remaining);
    const qint64 resetMs = std::max<qint64>(s.decision.resetAfterMs, 0);
    f.seconds = resetMs / 1000;
    f.nanos = int(resetMs % 1000) * 1'000'000;
    return f;
}

// The protobuf wire format, as much of it as the answer needs (fields 1 to 15), written through
// a pointer into bytes sized beforehand.
size_t varintSize(quint64 v)
{
    size_t n = 1;
    for (; v >= 0x80; v >>= 7) {
        ++n;
    }
    return n;
}

char *putVarint(char *p, quint64 v)
{
    for (; v >= 0x80; v >>= 7) {
        *p++ = char(v | 0x80);
    }
    *p++ = char(v);
    return p;
}

// A varint field, left out when 0 (proto3's default).
size_t uintSize(quint64 v)
{
    return v == 0 ? 0 : 1 + varintSize(v);
}

char *putUint(char *p, int field, quint64 v)
{
    if (v == 0) {
        return p;
    }
    *p++ = char(field << 3);
    return putVarint(p, v);
}

// A length-delimited field's head (a message's or a string's).
char *putHead(char *p, int field, size_t length)
{
    *p++ = char(field << 3 | 2);
    return putVarint(p, length);
}

// A DescriptorStatus's parts' sizes.
struct StatusSizes
{
    size_t limit = 0, reset = 0, status = 0;
};

StatusSizes sizesOf(const StatusFields &f)
{
    StatusSizes z;
    const size_t name = f.limit.name().size();
    z.limit = uintSize(f.limit.perUnit) + uintSize(quint64(f.limit.unit)) +
              (name == 0 ? 0 : 1 + varintSize(name) + name);
    z.reset = uintSize(quint64(f.seconds)) + uintSize(quint64(f.nanos));
    z.status = uintSize(quint64(f.code)) + 1 + varintSize(z.limit) + z.limit +
               uintSize(f.remaining) + 1 + varintSize(z.reset) + z.reset;
    return z;
}

// A slot's DescriptorStatus as field 2 of the response (a slot no rule limits: code OK alone).
char *putStatus(char *p, const GrpcCall::Slot &s, const StatusFields &f, const StatusSizes &z)
{
    if (s.rule == nullptr) {
        p = putHead(p, 2, 2);
        return putUint(p, 1, rls::RateLimitResponse::OK);
    }
    p = putHead(p, 2, z.status);
    p = putUint(p, 1, quint64(f.code));
    p = putHead(p, 2, z.limit);
    p = putUint(p, 1, f.limit.perUnit);
    p = putUint(p, 2, quint64(f.limit.unit));
    if (const std::string_view name = f.limit.name(); !name.empty()) {
        p = putHead(p, 3, name.size());
        p = std::copy(name.begin(), name.end(), p);
    }
    p = putUint(p, 3, f.remaining);
    p = putHead(p, 4, z.reset);
    p = putUint(p, 1, quint64(f.seconds));
    return putUint(p, 2, quint64(f.nanos));
}

} // namespace

std::string encodeAnswer(const std::vector<GrpcCall::Slot> &slots, bool over)
{
    // Each slot's fields and sizes, taken once, in a list the worker thread reuses.
    thread_local std::vector<std::pair<StatusFields, StatusSizes>> fields;
    fields.resize(slots.size());
    const quint64 overall = over ? rls::RateLimitResponse::OVER_LIMIT : rls::RateLimitResponse::OK;
    size_t n = uintSize(overall);
    for (size_t i = 0; i < slots.size(); ++i) {
        size_t status = 2; // a slot no rule limits: code OK alone
        if (slots[i].rule != nullptr) {
            auto &[f, z] = fields[i];
            f = statusOf(slots[i]);
            z = sizesOf(f);
            status = z.status;
        }
        n += 1 + varintSize(status) + status;
    }
    std::string out(5 + n, '\0');
    out[1] = char(n >> 24);
    out[2] = char(n >> 16);
    out[3] = char(n >> 8);
    out[4] = char(n);
    char *p = putUint(out.data() + 5, 1, overall);
    for (size_t i = 0; i < slots.size(); ++i) {
        p = putStatus(p, slots[i], fields[i].first, fields[i].second);
    }
    Q_ASSERT(p == out.data() + out.size());
    if (fields.size() > 256) {
        std::vector<std::pair<StatusFields, StatusSizes>>().swap(fields); // (kept small)
    }
    return out;
}

void postAnswer(const std::shared_ptr<GrpcAnswers> &a, GrpcAnswer answer)
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

void GrpcReply::operator()(const GrpcStatus &status, const rls::RateLimitResponse *response) const
{
    if (done) {
        done(status, response);
        return;
    }
    GrpcAnswer answer{connection, stream, status, {}};
    if (response != nullptr) {
        answer.message = framedMessage(*response);
    }
    postAnswer(answers, std::move(answer));
}

void GrpcReply::framed(std::string bytes) const
{
    postAnswer(answers, GrpcAnswer{connection, stream, GrpcStatus{}, std::move(bytes)});
}

std::string framedMessage(const google::protobuf::MessageLite &m)
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

void GrpcCall::expect(int jobs)
{
    if (jobs == 0) {
        finish();
    } else {
        m_pending.store(jobs);
    }
}

void GrpcCall::take(DecisionOutcome &&o)
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

void GrpcCall::finish()
{
    bool over = false;
    const Slot *tightest = nullptr;
    for (const Slot &s : m_slots) {
        if (s.failed) {
            m_metrics->countGrpc(Result_::Failed);
            m_reply(GrpcStatus{GrpcCode::Internal,
                               QStringLiteral("rule '%1': the decision failed (not Redis being "
                                              "unavailable; details in the service's log)")
                                   .arg(s.rule->rule.id)
                                   .toStdString()},
                    nullptr);
            return;
        }
        if (s.rule == nullptr) {
            continue;
        }
        const bool allowed = s.verdict.allowed; // a shadow rule never denies
        over = over || !allowed;
        if (tightest == nullptr || (!allowed && tightest->verdict.allowed) ||
            (allowed == tightest->verdict.allowed &&
             s.decision.remaining < tightest->decision.remaining)) {
            tightest = &s;
        }
    }
    m_metrics->countGrpc(over ? Result_::OverLimit : Result_::Ok);
    if (m_reply.toStream() && !m_options.headers && !m_options.dynamicMetadata) {
        m_reply.framed(encodeAnswer(m_slots, over)); // (no message objects)
        return;
    }
    // The answer is built in an arena that starts on the stack: a usual answer costs no
    // allocation until it is serialized.
    StackArena arena;
    rls::RateLimitResponse &response = arena.make<rls::RateLimitResponse>();
    response.set_overall_code(over ? rls::RateLimitResponse::OVER_LIMIT
                                   : rls::RateLimitResponse::OK);
    for (const Slot &s : m_slots) {
        auto *status = response.add_statuses();
        if (s.rule == nullptr) {
            status->set_code(rls::RateLimitResponse::OK);
            continue;
        }
        const StatusFields f = statusOf(s);
        status->set_code(f.code);
        auto *limit = status->mutable_current_limit();
        limit->set_unit(f.limit.unit);
        limit->set_requests_per_unit(f.limit.perUnit);
        const std::string_view name = f.limit.name();
        limit->set_name(name.data(), name.size());
        status->set_limit_remaining(f.remaining);
        status->mutable_duration_until_reset()->set_seconds(f.seconds);
        status->mutable_duration_until_reset()->set_nanos(f.nanos);
    }
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
    m_reply(GrpcStatus{}, &response);
}

// dynamic_metadata: the deciding descriptor's (the one of the headers) rule, algorithm,
// decision and source, and one such object per descriptor in "descriptors" ({"decision":
// "not-limited"} for one no rule limits).
void GrpcCall::writeMetadata(google::protobuf::Struct *out, const Slot *tightest) const
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

} // namespace sluice::serve
