#pragma once

// The one place where error replies become sluice::Error values (docs/ARCHITECTURE.md
// "Errors"). Transport failures are worded where they happen, in redis/stream.cpp.

#include "core/common/result.h"

#include <QByteArrayView>

struct redisReply;

namespace sluice {

struct Endpoint;

namespace redis {

// An error reply (-ERR ..., -NOSCRIPT ..., -WRONGPASS ...): reply, noscript or auth. The
// server's text is quoted by bytes::quoted(): at most 200 bytes of it, escaped, and its length
// when it is longer.
Error replyError(const redisReply *r);
Error replyError(QByteArrayView message);

// An error reply saying that this server cannot serve the command now, although another server
// (a new master) or the same one a moment later could: READONLY (a demoted master), MASTERDOWN
// (a replica that lost its master), LOADING, BUSY (a script), TRYAGAIN, CLUSTERDOWN. The
// long-lived parts answer those decisions by the rule's on_redis_error and reconnect, as they
// do for a lost connection.
bool isUnavailableReply(const Error &error);

// MOVED or ASK: a Redis Cluster node saying that another node serves the key's slot. The
// command did not run; a cluster connection follows it (core/redis/cluster.*), and a plain one
// that sees it has found a cluster (Connection then reconnects as a cluster client).
bool isRedirectReply(const Error &error);

// OOM: the server is over its maxmemory and refuses commands that may write (a script that
// would write, MULTI/EXEC with a write). Transient: the same command succeeds once memory is
// freed.
bool isOutOfMemoryReply(const Error &error);

// MISCONF: the server refuses commands that may write because it cannot persist (its last
// background save or AOF write failed, with stop-writes-on-bgsave-error). Like OOM: reads
// and writeless scripts still run; the same command succeeds once a save succeeds again.
bool isDiskErrorReply(const Error &error);

// Redis refuses writes now, although it answers: OOM or MISCONF. A decision that would write
// is answered by the rule's on_redis_error (a read or a denial may still come from Redis);
// never a bug, never a reason to reconnect.
bool isWriteRefusedReply(const Error &error);

// What a NOPERM message (as replyError words it) says to grant: "ACL SETUSER <user> +zincrby",
// "ACL SETUSER <user> ~<prefix>* ..."; empty when the message has no such advice. `user`
// non-empty: put in place of "<user>".
QString grantOf(const QString &message, const QString &user = {});

} // namespace redis
} // namespace sluice
