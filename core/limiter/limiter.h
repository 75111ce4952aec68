#pragma once

#include "decision.h"
#include "policy.h"

#include "core/common/result.h"

#include <QByteArray>

#include <optional>
#include <span>
#include <vector>

namespace sluice {

// One decision to make: which policy, on which key, at what cost.
struct Request
{
    const Policy *policy = nullptr; // not owned; outlives the call
    QByteArray key;                 // the state key, usually policy->keyFor(subject)
    qint64 cost = 1;                // >= 0; 0 peeks
    std::optional<qint64> nowUs;    // tests and simulator only; production uses Redis TIME
    qint64 minTtlMs = 0;            // simulator only: raises the TTL floor (0 = not passed)
};

// Something that makes decisions: the scripts in Redis, or their in-process twins.
// Not thread-safe: one Limiter per thread (each RedisLimiter owns one connection).
class Limiter
{
public:
    virtual ~Limiter() = default;
    virtual Result<Decision> decide(const Request &request) = 0;
    // Many decisions, in order, as one unit of work (one round trip for Redis). A failure of
    // the transport fails the whole batch; a bad request fails only its own slot.
    virtual Result<std::vector<Result<Decision>>> decideBatch(std::span<const Request> requests);
};

} // namespace sluice
