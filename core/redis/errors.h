#pragma once

// The one place where hiredis failures become sluice::Error values (ARCHITECTURE.md "Errors").

#include "common/result.h"

struct redisContext;
struct redisReply;

namespace sluice {

struct Endpoint;

namespace redis {

// A broken context (c->err set): io, timeout, closed or protocol, naming the server.
Error contextError(const redisContext *c, const Endpoint &endpoint);
// A failed connect: like contextError, worded for connecting, with what to check.
Error connectError(const redisContext *c, const Endpoint &endpoint);
// An error reply (-ERR ..., -NOSCRIPT ..., -WRONGPASS ...): reply, noscript or auth.
Error replyError(const redisReply *r);
Error replyError(const QByteArray &message);

} // namespace redis
} // namespace sluice
