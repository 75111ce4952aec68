#include "servertime.h"

namespace sluice::redis {

Result<qint64> serverTimeUs(Connection &c)
{
    auto t = c.command({"TIME"}, ReplyBound::integers(2, "TIME"));
    if (!t) {
        return t.error();
    }
    if (!t->isArray() || t->elements.size() != 2) {
        return Error::make(Error::Kind::Protocol,
                           QStringLiteral("Redis at %1 answered TIME with an unexpected reply")
                               .arg(c.endpoint().display()));
    }
    return t->elements[0].str.toLongLong() * 1'000'000 + t->elements[1].str.toLongLong();
}

} // namespace sluice::redis
