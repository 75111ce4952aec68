#include "serverfeatures.h"

#include "connection.h"
#include "replyview.h"

#include <QStringList>

namespace sluice::redis {

using namespace Qt::StringLiterals;

namespace {

// In the order of featuresCommand()'s arguments after COMMAND INFO.
constexpr const char *names[] = {"CL.THROTTLE", "GCRA", "HEXPIRE", "CLIENT|NO-TOUCH"};
constexpr std::size_t nameCount = std::size(names);

} // namespace

QList<QByteArray> featuresCommand()
{
    QList<QByteArray> argv{QByteArrayLiteral("COMMAND"), QByteArrayLiteral("INFO")};
    for (const char *n : names) {
        argv << QByteArray(n);
    }
    return argv;
}

ReplyBound featuresBound()
{
    // Redis 7.4's entry for HEXPIRE, the largest, is under 1 KiB with its key specs.
    return {qint64(64) << 10, 1024, 4096, "COMMAND INFO"};
}

ServerFeatures featuresFromReply(const redisReply *reply)
{
    ServerFeatures f;
    const ReplyView r(reply);
    if (r.isError()) {
        f.unknownWhy = u"COMMAND INFO refused: "_s + r.error().message;
        return f;
    }
    if (!r.isArray() || r.size() != nameCount) {
        f.unknownWhy = QStringLiteral("COMMAND INFO answered %1, not %2 entries")
                           .arg(r.isNull() ? QStringLiteral("nothing") : r.typeName())
                           .arg(nameCount);
        return f;
    }
    bool *flags[] = {&f.clThrottle, &f.gcra, &f.hexpire, &f.clientNoTouch};
    for (std::size_t i = 0; i < nameCount; ++i) {
        // An entry is [name, arity, flags, ...]; nil (or an empty array) for an unknown name.
        *flags[i] = r[i].isArray() && r[i].size() > 0;
    }
    f.known = true;
    return f;
}

ServerFeatures detectFeatures(Connection &c)
{
    c.append(featuresCommand(), featuresBound());
    auto reply = c.readRaw();
    if (!reply) {
        ServerFeatures f;
        f.unknownWhy = u"COMMAND INFO failed: "_s + reply.error().message;
        return f;
    }
    return featuresFromReply(reply->get());
}

QString ServerFeatures::describe() const
{
    if (!known) {
        return QStringLiteral("unknown (%1)").arg(unknownWhy);
    }
    QStringList have;
    const std::pair<bool, const char *> all[] = {{clThrottle, "CL.THROTTLE"},
                                                 {gcra, "GCRA"},
                                                 {hexpire, "HEXPIRE"},
                                                 {clientNoTouch, "CLIENT NO-TOUCH"}};
    for (const auto &[on, name] : all) {
        if (on) {
            have << QLatin1String(name);
        }
    }
    if (have.isEmpty()) {
        return QStringLiteral("has none of CL.THROTTLE, GCRA, HEXPIRE, CLIENT NO-TOUCH");
    }
    return u"has "_s + have.join(u", ");
}

} // namespace sluice::redis
