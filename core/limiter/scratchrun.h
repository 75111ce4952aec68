#pragma once

// A run of the scripts in Redis under a prefix of its own (the simulator's and the replay's
// Redis backends): the keys it writes are the run's, and they go when it ends.

#include "redislimiter.h"

#include "core/common/result.h"
#include "core/redis/connection.h"
#include "core/redis/endpoint.h"
#include "core/redis/lazyconnection.h"

#include <functional>

namespace sluice {

// "sluice:<kind>:<16 random hex digits>:".
QByteArray scratchPrefix(QByteArrayView kind);

// Deletes the keys under `prefix` on `connection` (one reconnect for a broken connection: the
// run's error may be that). Returns what could not be removed, as a message that says they
// expire within `ttlMs` anyway; empty when they are gone.
QString removeScratch(Connection &connection, const QByteArray &prefix, qint64 ttlMs);

// Opens a connection of its own to `endpoint` (a LazyConnection), runs `body` on a RedisLimiter
// over it, then removes the keys under `prefix` whatever happened (success, error or cancel). A
// clean-up that fails is added to the body's error, or said in its result's `warning`.
template <typename T>
Result<T> runOnScratchPrefix(const Endpoint &endpoint, const QByteArray &prefix, qint64 ttlMs,
                             const std::function<Result<T>(RedisLimiter &)> &body)
{
    LazyConnection redis(endpoint);
    auto connection = redis.get();
    if (!connection) {
        return connection.error();
    }
    RedisLimiter limiter(*connection);
    Result<T> result = body(limiter);
    const QString leftBehind = removeScratch(**connection, prefix, ttlMs);
    if (!result) {
        if (leftBehind.isEmpty()) {
            return result;
        }
        return Error::make(result.error().kind,
                           result.error().message + QStringLiteral("; ") + leftBehind);
    }
    result->warning = leftBehind;
    return result;
}

} // namespace sluice
