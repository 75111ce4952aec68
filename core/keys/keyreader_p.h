#pragma once

// What the key reader's files (keyreader.cpp, keyreview.cpp) share: replies read as values.

#include "core/redis/replyview.h"

#include <QByteArray>

namespace sluice::keys::readstep {

// An integer reply, or a string or status holding one; `fallback` otherwise.
inline qint64 integerOf(redis::ReplyView r, qint64 fallback = 0)
{
    if (r.isInteger()) {
        return r.integer();
    }
    if (r.isString() || r.isStatus()) {
        bool ok = false;
        const qint64 v = r.bytes().toLongLong(&ok);
        return ok ? v : fallback;
    }
    return fallback;
}

inline QByteArray bytesOf(redis::ReplyView r)
{
    return r.toByteArray(); // empty for anything but a string, status or error
}

} // namespace sluice::keys::readstep
