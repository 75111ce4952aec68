#pragma once

#include "endpoint.h"
#include "reply.h"

#include "common/result.h"

#include <QByteArray>
#include <QList>
#include <QSet>

#include <chrono>
#include <memory>

struct redisContext;
struct redisReply;

namespace sluice {

// One blocking hiredis connection (RAII). Not thread-safe: a Connection belongs to one thread
// (a worker, a CLI command, a benchmark thread). After a transport error it is broken: every
// call fails fast with the same error until reconnect() succeeds.
class Connection
{
public:
    struct Options
    {
        std::chrono::milliseconds connectTimeout{2000};
        std::chrono::milliseconds commandTimeout{5000};
    };

    // Connects, AUTHs (user + password, or password only) and SELECTs the database.
    static Result<Connection> open(const Endpoint &endpoint, Options options);
    static Result<Connection> open(const Endpoint &endpoint) { return open(endpoint, Options{}); }

    Connection(Connection &&) noexcept;
    Connection &operator=(Connection &&) noexcept;
    ~Connection();

    const Endpoint &endpoint() const { return m_endpoint; }
    bool isBroken() const;
    Result<void> reconnect();

    // One command, one round trip. Error replies come back as Error values.
    Result<Reply> command(const QList<QByteArray> &argv);

    // Pipelining: append any number of commands (buffered, nothing is sent), then read the
    // replies in order; the first read flushes the buffer. One round trip for the lot.
    void append(const QList<QByteArray> &argv);
    void append(int argc, const char **argv, const size_t *argvlen);
    // Already RESP-encoded commands (any number of them, back to back): copied into the output
    // buffer as they are. The caller reads one reply per command it encoded.
    void appendEncoded(const char *resp, size_t size);
    // The next reply. Transport errors break the connection; error replies are returned as
    // a reply of type REDIS_REPLY_ERROR, for the caller to map with redis::replyError().
    struct ReplyDeleter
    {
        void operator()(redisReply *r) const;
    };
    using RawReply = std::unique_ptr<redisReply, ReplyDeleter>;
    Result<RawReply> readRaw();
    // Appends argv lists, reads as many replies, maps each. A transport error fails it all.
    Result<std::vector<Result<Reply>>> pipeline(const QList<QList<QByteArray>> &commands);

    // Scripts known to be in this server's script cache (SCRIPT LOAD done on this connection).
    // Kept here because it is per server: a reconnect (maybe to a restarted server) clears it.
    QSet<QByteArray> &loadedScripts() { return m_loaded; }

    static Reply toReply(const redisReply *r);

private:
    struct ContextDeleter
    {
        void operator()(redisContext *c) const;
    };
    Connection(Endpoint endpoint, Options options);
    Result<void> connectNow();
    Error brokenError() const;

    Endpoint m_endpoint;
    Options m_options;
    std::unique_ptr<redisContext, ContextDeleter> m_ctx;
    int m_pending = 0; // appended commands whose replies were not read yet
    QSet<QByteArray> m_loaded;
};

} // namespace sluice
