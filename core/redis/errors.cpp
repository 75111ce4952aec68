#include "errors.h"

#include "endpoint.h"

#include <hiredis/hiredis.h>

namespace sluice::redis {

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
