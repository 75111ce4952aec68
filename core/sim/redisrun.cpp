#include "redisrun.h"

#include "core/limiter/redislimiter.h"
#include "core/redis/connection.h"
#include "core/redis/keyspace.h"

#include <QRandomGenerator>

using namespace Qt::StringLiterals;

namespace sluice::sim {

Result<SimResult> runOnRedis(const Simulator &simulator, const Endpoint &endpoint,
                             RunOptions options)
{
    auto connection = Connection::open(endpoint);
    if (!connection) {
        return connection.error();
    }
    options.keyPrefix =
        "sluice:sim:" +
        QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0') +
        ':';
    if (!options.minTtlMs) {
        options.minTtlMs = defaultRedisMinTtlMs;
    }
    if (options.wallLimitMs == 0 && *options.minTtlMs > 0) {
        options.wallLimitMs = *options.minTtlMs * 9 / 10;
    }
    RedisLimiter limiter(std::move(*connection));
    Result<SimResult> result = simulator.run(limiter, options, u"redis"_s);

    // Whatever happened, the run's keys go. A broken connection (the error may be that) gets
    // one reconnect for it.
    Connection &c = limiter.connection();
    Result<qint64> deleted = Error::make(Error::Kind::Io, u"the connection is lost"_s);
    if (!c.isBroken() || c.reconnect()) {
        deleted = redis::deleteByPrefix(c, options.keyPrefix);
    }
    const QString leftBehind =
        deleted ? QString()
                : u"could not remove the run's keys %1* (%2); they expire within %3 s"_s
                      .arg(QString::fromUtf8(options.keyPrefix), deleted.error().message)
                      .arg(*options.minTtlMs / 1000);
    if (!result) {
        if (leftBehind.isEmpty()) {
            return result;
        }
        return Error::make(result.error().kind, result.error().message + u"; "_s + leftBehind);
    }
    result->warning = leftBehind;
    return result;
}

} // namespace sluice::sim
