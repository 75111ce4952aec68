#include "errors.h"

#include "endpoint.h"

#include <hiredis/hiredis.h>

namespace sluice::redis {

Error replyError(const QByteArray &message)
{
    // Connection's own refusal under a read-only endpoint: a usage error, worded for the user.
    if (message.startsWith("SLUICEREADONLY ")) {
        return Error::make(Error::Kind::Invalid, QString::fromUtf8(message.mid(15)));
    }
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

bool isUnavailableReply(const Error &error)
{
    if (error.kind != Error::Kind::Reply) {
        return false;
    }
    static constexpr QLatin1String codes[] = {
        QLatin1String("READONLY"), QLatin1String("MASTERDOWN"), QLatin1String("LOADING"),
        QLatin1String("BUSY"),     QLatin1String("TRYAGAIN"),   QLatin1String("CLUSTERDOWN"),
    };
    for (QLatin1String code : codes) {
        // The whole first word: BUSYKEY (RESTORE onto an existing key) is not BUSY.
        if (error.message.startsWith(code) &&
            (error.message.size() == code.size() || error.message.at(code.size()) == u' ')) {
            return true;
        }
    }
    return false;
}

bool isOutOfMemoryReply(const Error &error)
{
    return error.kind == Error::Kind::Reply && (error.message == QLatin1String("OOM") ||
                                                error.message.startsWith(QLatin1String("OOM ")));
}

} // namespace sluice::redis
