#pragma once

// Private to core/limiter: one function per algorithm, called by model::apply().
// Each mirrors its lua/ script line for line. Preconditions: policy validated, cost >= 0.

#include "model.h"

namespace sluice::model::detail {

Outcome fixedWindow(const Policy &p, State &s, qint64 cost, qint64 nowUs);
Outcome slidingLog(const Policy &p, State &s, qint64 cost, qint64 nowUs);
Outcome slidingCounter(const Policy &p, State &s, qint64 cost, qint64 nowUs);
Outcome tokenBucket(const Policy &p, State &s, qint64 cost, qint64 nowUs);
Outcome leakyBucket(const Policy &p, State &s, qint64 cost, qint64 nowUs);
Outcome gcra(const Policy &p, State &s, qint64 cost, qint64 nowUs);

} // namespace sluice::model::detail
