#include "model.h"

#include "model_p.h"

#include <algorithm>

namespace sluice::model {

Outcome apply(const Policy &policy, State &state, qint64 cost, qint64 nowUs, qint64 minTtlMs)
{
    Outcome out;
    switch (policy.algorithm) {
    case Algorithm::FixedWindow:
        out = detail::fixedWindow(policy, state, cost, nowUs);
        break;
    case Algorithm::SlidingLog:
        out = detail::slidingLog(policy, state, cost, nowUs);
        break;
    case Algorithm::SlidingCounter:
        out = detail::slidingCounter(policy, state, cost, nowUs);
        break;
    case Algorithm::TokenBucket:
        out = detail::tokenBucket(policy, state, cost, nowUs);
        break;
    case Algorithm::LeakyBucket:
        out = detail::leakyBucket(policy, state, cost, nowUs);
        break;
    case Algorithm::Gcra:
        out = detail::gcra(policy, state, cost, nowUs);
        break;
    }
    if (out.wrote) {
        // TTL = reset_after_ms, at least 1 ms, raised to min_ttl_ms when given.
        out.ttlMs = std::max({out.decision.resetAfterMs, qint64(1), minTtlMs});
    }
    return out;
}

} // namespace sluice::model
