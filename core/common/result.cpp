#include "result.h"

namespace sluice {

QString Error::kindName(Kind kind)
{
    switch (kind) {
    case Kind::Io:
        return QStringLiteral("io");
    case Kind::Timeout:
        return QStringLiteral("timeout");
    case Kind::Closed:
        return QStringLiteral("closed");
    case Kind::Protocol:
        return QStringLiteral("protocol");
    case Kind::Reply:
        return QStringLiteral("reply");
    case Kind::NoScript:
        return QStringLiteral("noscript");
    case Kind::Auth:
        return QStringLiteral("auth");
    case Kind::Invalid:
        return QStringLiteral("invalid");
    case Kind::Conflict:
        return QStringLiteral("conflict");
    case Kind::Internal:
        break;
    }
    return QStringLiteral("internal");
}

} // namespace sluice
