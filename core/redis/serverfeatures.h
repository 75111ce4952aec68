#pragma once

#include "replyreader.h"

#include <QByteArray>
#include <QList>
#include <QString>

struct redisReply;

namespace sluice {
class Connection;
}

namespace sluice::redis {

// What a Redis-compatible server offers beyond Redis 7.0, found by name with one
// `COMMAND INFO CL.THROTTLE GCRA HEXPIRE CLIENT|NO-TOUCH` (never by version: forks and
// Dragonfly report versions that say nothing of their commands). COMMAND INFO answers nil for
// a command the server does not have; a server without COMMAND, or an ACL user not allowed it,
// leaves every feature unknown, and `unknownWhy` says why. Detecting never fails a connection.
struct ServerFeatures
{
    bool known = false;
    QString unknownWhy;         // !known: the server's error, or what was wrong with its reply
    bool clThrottle = false;    // CL.THROTTLE: redis-cell's GCRA (also Dragonfly's)
    bool gcra = false;          // a native GCRA command (some forks)
    bool hexpire = false;       // HEXPIRE: hash field TTLs (Redis 7.4+)
    bool clientNoTouch = false; // CLIENT NO-TOUCH (Redis 7.2+): reads leave LRU/LFU alone

    // "has CL.THROTTLE, HEXPIRE, CLIENT NO-TOUCH"; "has none of CL.THROTTLE, GCRA, HEXPIRE,
    // CLIENT NO-TOUCH"; "unknown (why)".
    QString describe() const;
};

// The command and its reply's bound (four entries of a few hundred bytes each; a hostile
// reply larger than that fails the read, not the caller).
QList<QByteArray> featuresCommand();
ReplyBound featuresBound();
// The features its reply says (an error reply or an unexpected shape: unknown, with why).
ServerFeatures featuresFromReply(const redisReply *reply);
// One round trip on `c`. A transport error leaves the features unknown, as an error reply does.
ServerFeatures detectFeatures(Connection &c);

} // namespace sluice::redis
