#pragma once

// The one place where error replies become sluice::Error values (docs/ARCHITECTURE.md
// "Errors"). Transport failures are worded where they happen, in redis/stream.cpp.

#include "common/result.h"

struct redisReply;

namespace sluice {

struct Endpoint;

namespace redis {

// An error reply (-ERR ..., -NOSCRIPT ..., -WRONGPASS ...): reply, noscript or auth.
Error replyError(const redisReply *r);
Error replyError(const QByteArray &message);

} // namespace redis
} // namespace sluice
