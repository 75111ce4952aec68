#include "redisrun.h"

#include "core/limiter/scratchrun.h"

using namespace Qt::StringLiterals;

namespace sluice::sim {

Result<SimResult> runOnRedis(const Simulator &simulator, const Endpoint &endpoint,
                             RunOptions options)
{
    options.keyPrefix = scratchPrefix("sim");
    if (!options.minTtlMs) {
        options.minTtlMs = defaultRedisMinTtlMs;
    }
    if (options.wallLimitMs == 0 && *options.minTtlMs > 0) {
        options.wallLimitMs = *options.minTtlMs * 9 / 10;
    }
    return runOnScratchPrefix<SimResult>(
        endpoint, options.keyPrefix, *options.minTtlMs,
        [&](RedisLimiter &limiter) { return simulator.run(limiter, options, u"redis"_s); });
}

} // namespace sluice::sim
