#include "errors.h"

#include "endpoint.h"

#include <hiredis/hiredis.h>

namespace sluice::redis {

namespace {

Error::Kind classify(const redisContext *c)
{
    if (c == nullptr) {
        return Error::Kind::Io; // hiredis could not even allocate a context
    }
    const QByteArray text(c->errstr);
    switch (c->err) {
    case REDIS_ERR_EOF:
        return Error::Kind::Closed;
    case REDIS_ERR_PROTOCOL:
        return Error::Kind::Protocol;
    case REDIS_ERR_IO:
        // hiredis reports SO_RCVTIMEO/SO_SNDTIMEO and connect timeouts as I/O errors whose text
        // is strerror(EAGAIN) or strerror(ETIMEDOUT).
        if (text.contains("temporarily unavailable") || text.contains("timed out") ||
            text.contains("Timeout")) {
            return Error::Kind::Timeout;
        }
        return Error::Kind::Io;
    default:
        return Error::Kind::Io;
    }
}

QString detail(const redisContext *c)
{
    return c ? QString::fromLocal8Bit(c->errstr) : QStringLiteral("out of memory");
}

} // namespace

Error contextError(const redisContext *c, const Endpoint &endpoint)
{
    const Error::Kind kind = classify(c);
    QString what;
    switch (kind) {
    case Error::Kind::Timeout:
        what = QStringLiteral("Redis at %1 did not answer in time (%2)");
        break;
    case Error::Kind::Closed:
        what = QStringLiteral("Redis at %1 closed the connection (%2)");
        break;
    case Error::Kind::Protocol:
        what = QStringLiteral("Redis at %1 sent something that is not the Redis protocol (%2)");
        break;
    default:
        what = QStringLiteral("lost the connection to Redis at %1 (%2)");
        break;
    }
    return Error::make(kind, what.arg(endpoint.display(), detail(c)));
}

Error connectError(const redisContext *c, const Endpoint &endpoint)
{
    const Error::Kind kind = classify(c);
    const QString hint = kind == Error::Kind::Timeout
                             ? QStringLiteral("is the address right and the port reachable?")
                             : QStringLiteral("is redis-server running there?");
    return Error::make(kind, QStringLiteral("cannot connect to Redis at %1: %2; %3")
                                 .arg(endpoint.display(), detail(c), hint));
}

Error replyError(const QByteArray &message)
{
    const QString text = QString::fromUtf8(message);
    if (message.startsWith("NOSCRIPT")) {
        return Error::make(Error::Kind::NoScript, text);
    }
    if (message.startsWith("WRONGPASS") || message.startsWith("NOAUTH") ||
        message.startsWith("NOPERM") || message.contains("invalid password") ||
        message.contains("AUTH <password> called without any password")) {
        return Error::make(Error::Kind::Auth, text);
    }
    return Error::make(Error::Kind::Reply, text);
}

Error replyError(const redisReply *r)
{
    return replyError(QByteArray(r->str, qsizetype(r->len)));
}

} // namespace sluice::redis
