#include "recordinglimiter.h"

#include "statsrecorder.h"

#include "core/rules/rule.h"

namespace sluice::stats {

RecordingLimiter::RecordingLimiter(Limiter *inner, StatsRecorder *recorder)
    : m_inner(inner)
    , m_recorder(recorder)
{}

RecordingLimiter::RecordingLimiter(std::unique_ptr<Limiter> inner, StatsRecorder *recorder)
    : m_owned(std::move(inner))
    , m_inner(m_owned.get())
    , m_recorder(recorder)
{}

QSet<QString> RecordingLimiter::shadowRuleIds(const RuleSet &set)
{
    QSet<QString> out;
    for (const Rule &r : set.rules) {
        if (r.shadow) {
            out.insert(r.id);
        }
    }
    return out;
}

QByteArray RecordingLimiter::subjectOf(const Request &request)
{
    if (request.policy == nullptr) {
        return request.key;
    }
    const QByteArray head =
        request.policy->keyPrefix + request.policy->id.toUtf8() + QByteArrayLiteral(":{");
    if (request.key.size() > head.size() && request.key.startsWith(head) &&
        request.key.endsWith('}')) {
        return request.key.mid(head.size(), request.key.size() - head.size() - 1);
    }
    return request.key;
}

void RecordingLimiter::record(const Request &request, const Decision &d)
{
    if (m_recorder == nullptr || request.policy == nullptr || request.cost == 0) {
        return;
    }
    const QString &id = request.policy->id;
    m_recorder->record(id, subjectOf(request), d, m_shadow.contains(id));
}

Result<Decision> RecordingLimiter::decide(const Request &request)
{
    auto d = m_inner->decide(request);
    if (d) {
        record(request, *d);
    }
    return d;
}

Result<std::vector<Result<Decision>>>
RecordingLimiter::decideBatch(std::span<const Request> requests)
{
    auto batch = m_inner->decideBatch(requests);
    if (batch) {
        for (size_t i = 0; i < batch->size() && i < requests.size(); ++i) {
            if ((*batch)[i]) {
                record(requests[i], *(*batch)[i]);
            }
        }
    }
    return batch;
}

} // namespace sluice::stats
