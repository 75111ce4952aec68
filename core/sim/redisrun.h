#pragma once

#include "simulator.h"

#include "core/redis/endpoint.h"

namespace sluice::sim {

// A scenario on the real scripts in Redis: the scoped Redis backend of the simulator, which
// itself knows only Limiter. It opens a connection of its own, runs under a fresh run prefix
// `sluice:sim:<16 hex digits>:` (RunOptions::keyPrefix is ignored), passes min_ttl_ms
// (defaultRedisMinTtlMs unless set: Redis expires keys on the wall clock, the run is on
// virtual time), guards the wall clock at 90% of it (unless RunOptions::wallLimitMs is set),
// and deletes the run's keys at the end (redis::deleteByPrefix), after success, error or
// cancel. A clean-up that fails is said in SimResult::warning, or added to the run's error.
constexpr qint64 defaultRedisMinTtlMs = 3'600'000;

Result<SimResult> runOnRedis(const Simulator &simulator, const Endpoint &endpoint,
                             RunOptions options = {});

} // namespace sluice::sim
