#pragma once

#include "core/limiter/limiter.h"

#include <QSet>
#include <QString>

#include <memory>

namespace sluice {
struct RuleSet;
}

namespace sluice::stats {

class StatsRecorder;

// The way to have "every decision made through the engine" counted: a Limiter that forwards to
// another (usually a RedisLimiter) and records each decision it returns into a StatsRecorder.
//   RedisLimiter redis(std::move(connection));
//   RecordingLimiter limiter(&redis, &recorder);
//   limiter.setShadowRules(RecordingLimiter::shadowRuleIds(ruleSet));
//   limiter.decide({&policy, policy.keyFor(subject)});   // decided, then counted
// The rule is Request::policy->id (Rule::policy() carries the rule id); the subject is read back
// from the key <key_prefix><id>:{<subject>} (the whole key if it is not of that form). A rule in
// setShadowRules() counts its denials as shadowDenied. The decision is returned unchanged:
// letting a shadow denial through is the caller's business. Transport failures and bad requests
// are not decisions and are not counted. Peeks (cost 0) are not counted either.
// Threading: like any Limiter, one per thread; the recorder is shared and thread-safe.
class RecordingLimiter final : public Limiter
{
public:
    RecordingLimiter(Limiter *inner, StatsRecorder *recorder);
    RecordingLimiter(std::unique_ptr<Limiter> inner, StatsRecorder *recorder);

    void setShadowRules(QSet<QString> ruleIds) { m_shadow = std::move(ruleIds); }
    const QSet<QString> &shadowRules() const { return m_shadow; }
    static QSet<QString> shadowRuleIds(const RuleSet &set);

    Limiter *inner() const { return m_inner; }

    Result<Decision> decide(const Request &request) override;
    Result<std::vector<Result<Decision>>> decideBatch(std::span<const Request> requests) override;

    // The subject a request's key names: the bytes between "<prefix><id>:{" and the final "}".
    static QByteArray subjectOf(const Request &request);

private:
    void record(const Request &request, const Decision &d);

    std::unique_ptr<Limiter> m_owned;
    Limiter *m_inner;
    StatsRecorder *m_recorder;
    QSet<QString> m_shadow;
};

} // namespace sluice::stats

namespace sluice {
using stats::RecordingLimiter;
}
