#include "keyspace.h"

#include "connection.h"

namespace sluice::redis {

QByteArray globEscaped(const QByteArray &text)
{
    QByteArray out;
    out.reserve(text.size());
    for (char c : text) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out;
}

Result<qint64> deleteByPrefix(Connection &connection, const QByteArray &prefix)
{
    if (prefix.isEmpty()) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("refusing to delete keys without a prefix"));
    }
    qint64 deleted = 0;
    QByteArray cursor = "0";
    const QByteArray match = globEscaped(prefix) + '*';
    do {
        auto r = connection.command({"SCAN", cursor, "MATCH", match, "COUNT", "1000"},
                                    ReplyBound::scanPage(1000));
        if (!r) {
            return r.error();
        }
        if (r->elements.size() != 2 || !r->elements[1].isArray()) {
            return Error::make(Error::Kind::Protocol,
                               QStringLiteral("SCAN replied something else than a cursor and a "
                                              "list of keys"));
        }
        cursor = r->elements[0].str;
        QList<QByteArray> unlink{"UNLINK"};
        for (const Reply &k : r->elements[1].elements) {
            unlink << k.str;
        }
        if (unlink.size() > 1) {
            auto u = connection.command(unlink);
            if (!u) {
                return u.error();
            }
            deleted += u->integer;
        }
    } while (cursor != "0");
    return deleted;
}

} // namespace sluice::redis
