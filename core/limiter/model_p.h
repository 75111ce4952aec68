#pragma once

// Private to core/limiter: one function per algorithm, called by model::apply().
// Each mirrors its lua/ script line for line. Preconditions: policy validated, cost >= 0.

#include "model.h"

namespace sluice::model::detail {

// The scripts' checks of a stored state (model.h "Foreign state"), one expression each.
inline bool storedTime(qint64 t, qint64 nowUs)
{
    return t >= 0 && t <= maxStored && t - nowUs < maxAheadUs;
}
inline bool storedCount(qint64 c)
{
    return c >= 0 && c <= maxStored;
}

Outcome fixedWindow(const Policy &p, State &s, qint64 cost, qint64 nowUs);
Outcome slidingLog(const Policy &p, State &s, qint64 cost, qint64 nowUs);
Outcome slidingCounter(const Policy &p, State &s, qint64 cost, qint64 nowUs);
Outcome tokenBucket(const Policy &p, State &s, qint64 cost, qint64 nowUs);
Outcome leakyBucket(const Policy &p, State &s, qint64 cost, qint64 nowUs);
Outcome gcra(const Policy &p, State &s, qint64 cost, qint64 nowUs);

} // namespace sluice::model::detail
