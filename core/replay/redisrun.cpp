// The replay on the real scripts in Redis (runOnRedis, replay.h).
#include "replay.h"

#include "core/limiter/scratchrun.h"

using namespace Qt::StringLiterals;

namespace sluice::replay {

Result<Report> runOnRedis(Options options, const Endpoint &endpoint)
{
    options.keyPrefix = scratchPrefix("replay");
    if (options.minTtlMs == 0) {
        options.minTtlMs = 3'600'000;
    }
    if (options.wallLimitMs == 0) {
        options.wallLimitMs = options.minTtlMs * 9 / 10;
    }
    Result<Report> result = runOnScratchPrefix<Report>(
        endpoint, options.keyPrefix, options.minTtlMs, [&](RedisLimiter &limiter) {
            options.limiter = &limiter;
            return run(options);
        });
    if (result) {
        result->backend = u"redis"_s;
        result->keyPrefix = options.keyPrefix;
    }
    return result;
}

} // namespace sluice::replay
