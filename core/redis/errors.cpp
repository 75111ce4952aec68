#include "errors.h"

#include "endpoint.h"

#include "core/common/bytes.h"

#include <hiredis/hiredis.h>

namespace sluice::redis {

namespace {

// Redis names what its ACL refused; the message adds what to grant.
QString withGrant(const QString &text)
{
    static const QLatin1String run("no permissions to run the '");
    if (const qsizetype at = text.indexOf(run); at >= 0) {
        const qsizetype from = at + run.size();
        const QString command = text.mid(from, text.indexOf(u'\'', from) - from);
        return QStringLiteral("%1; grant it: ACL SETUSER <user> +%2").arg(text, command);
    }
    if (text.contains(QLatin1String("one of the keys"))) {
        return text + QStringLiteral("; grant the keys: ACL SETUSER <user> ~<prefix>* (or "
                                     "%R~<prefix>* where reading is enough)");
    }
    if (text.contains(QLatin1String("one of the channels"))) {
        return text + QStringLiteral("; grant the channel: ACL SETUSER <user> &<channel>");
    }
    return text;
}

} // namespace

Error replyError(QByteArrayView message)
{
    // Connection's own refusal under a read-only endpoint: a usage error, worded for the user.
    if (message.startsWith("SLUICEREADONLY ")) {
        return Error::make(Error::Kind::Invalid, QString::fromUtf8(message.sliced(15)));
    }
    // The server's words, quoted: a reply of any length and bytes makes a short message of one
    // line (the log, /healthz and stderr carry these).
    const QString text = bytes::quoted(message);
    if (message.startsWith("NOSCRIPT")) {
        return Error::make(Error::Kind::NoScript, text);
    }
    if (message.startsWith("NOPERM")) {
        return Error::make(Error::Kind::Auth, withGrant(text));
    }
    if (message.startsWith("WRONGPASS") || message.startsWith("NOAUTH") ||
        message.contains("invalid password") ||
        message.contains("AUTH <password> called without any password")) {
        return Error::make(Error::Kind::Auth, text);
    }
    return Error::make(Error::Kind::Reply, text);
}

QString grantOf(const QString &message, const QString &user)
{
    static const QLatin1String grant("; grant ");
    const qsizetype at = message.indexOf(grant);
    const qsizetype from = at < 0 ? -1 : message.indexOf(QLatin1String("ACL SETUSER "), at);
    if (from < 0) {
        return {};
    }
    // Up to the end of the advice: the message may go on ("...; grant it: ACL SETUSER <user>
    // +scan; the keys listed so far are kept").
    const qsizetype end = message.indexOf(QLatin1String("; "), from);
    QString out = message.mid(from, end < 0 ? -1 : end - from);
    if (!user.isEmpty()) {
        out.replace(QLatin1String("<user>"), user);
    }
    return out;
}

Error replyError(const redisReply *r)
{
    return replyError(QByteArrayView(r->str, qsizetype(r->len)));
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

bool isRedirectReply(const Error &error)
{
    return error.kind == Error::Kind::Reply && (error.message.startsWith(QLatin1String("MOVED ")) ||
                                                error.message.startsWith(QLatin1String("ASK ")));
}

bool isOutOfMemoryReply(const Error &error)
{
    return error.kind == Error::Kind::Reply && (error.message == QLatin1String("OOM") ||
                                                error.message.startsWith(QLatin1String("OOM ")));
}

bool isDiskErrorReply(const Error &error)
{
    return error.kind == Error::Kind::Reply &&
           (error.message == QLatin1String("MISCONF") ||
            error.message.startsWith(QLatin1String("MISCONF ")));
}

bool isWriteRefusedReply(const Error &error)
{
    return isOutOfMemoryReply(error) || isDiskErrorReply(error);
}

} // namespace sluice::redis
