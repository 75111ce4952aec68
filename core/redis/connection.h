#pragma once

#include "endpoint.h"
#include "reply.h"
#include "replyreader.h"

#include "core/common/result.h"

#include <QByteArray>
#include <QList>
#include <QSet>

#include <chrono>
#include <memory>
#include <optional>
#include <string>

struct redisReply;

namespace sluice {

namespace redis {
class Cluster;
class Stream;
class SshTunnel;
} // namespace redis

// One blocking connection to one Redis server (RAII): our own socket (TCP, Unix, either one
// under TLS, maybe through an SSH tunnel) and hiredis's reply reader, which is all of hiredis
// that is used (docs/ARCHITECTURE.md "Transport"). Not thread-safe: a Connection belongs to
// one thread (a worker, a CLI command, a benchmark thread).
//
// Every reply has a deadline (commandTimeout from when its exchange starts: sending what is
// due, reading and parsing, not per recv), and every reply the size bound its command stated
// where it was issued (ReplyBound, replyreader.h: a SHA for SCRIPT LOAD, six integers for a
// decision, a default of a few MiB for the rest): a server that trickles bytes, floods them or
// announces a billion elements or a 2 GB string fails at once with an error, in bounded memory.
//
// Under a read-only endpoint, every command that is not a read (an allowlist: GET, SCAN, TYPE,
// PTTL, HMGET, ZRANGE, EVALSHA_RO, INFO, SUBSCRIBE, ...) is never sent: it gets an error reply
// of kind Invalid in its place ("read-only: 'SET' writes to Redis ..."), in order, so that a
// pipeline stays aligned. appendEncoded() (the engine's decisions, which always write) breaks
// the connection with that error instead. EVALSHA and EVAL are sent as EVALSHA_RO and EVAL_RO:
// Redis runs them as read-only scripts, so a script that reads works and one that writes fails.
//
// Redis Cluster: an endpoint with several seed addresses is a cluster, and so is one whose
// server answers MOVED or ASK (the connection then goes stale, and reconnecting makes it a
// cluster client). Every call below is then forwarded to redis::Cluster (cluster.h), which
// routes each command to its slot's node; the contract stays the same.
//
// After a transport error it is broken: every call fails fast with the same error until
// reconnect() succeeds. After a READONLY or MASTERDOWN reply (a master demoted by a failover)
// it is stale: isBroken() says so, so that long-lived callers reconnect, which for a Sentinel
// endpoint asks the sentinels again; replies already in flight can still be read.
class Connection
{
public:
    struct Options
    {
        std::chrono::milliseconds connectTimeout{2000};
        std::chrono::milliseconds commandTimeout{5000};
        // Ceilings over every command's own ReplyBound (the largest, ReplyBound::values(), is
        // Redis's proto-max-bulk-len and 16 M elements).
        qint64 maxReplyBytes = qint64(512) << 20;   // one reply, as sent
        qint64 maxReplyElements = qint64(16) << 20; // array elements in one reply, nested included
    };

    // Connects (resolving a Sentinel master, opening an SSH tunnel, TLS as the endpoint says),
    // AUTHs (user + password, or password only) and SELECTs the database.
    static Result<Connection> open(const Endpoint &endpoint, Options options);
    static Result<Connection> open(const Endpoint &endpoint) { return open(endpoint, Options{}); }

    Connection(Connection &&) noexcept;
    Connection &operator=(Connection &&) noexcept;
    ~Connection();

    // For a Sentinel endpoint, host and port name the master this connection reached.
    const Endpoint &endpoint() const { return m_endpoint; }
    bool isBroken() const;
    // READONLY/MASTERDOWN was seen: the server is no longer the master.
    bool isStale() const { return m_stale; }
    Result<void> reconnect();

    // Redis Cluster (see above): the client behind this connection, or nullptr.
    redis::Cluster *cluster() const { return m_cluster.get(); }

    // One command, one round trip. Error replies come back as Error values. `bound`: what its
    // reply may be (the default: a few MiB; see ReplyBound).
    Result<Reply> command(const QList<QByteArray> &argv, const ReplyBound &bound = {});

    // Pipelining: append any number of commands (buffered, nothing is sent), then read the
    // replies in order; the first read flushes the buffer. One round trip for the lot. Each
    // command states the bound of its reply here, where it is issued.
    void append(const QList<QByteArray> &argv, const ReplyBound &bound = {});
    void append(int argc, const char **argv, const size_t *argvlen, const ReplyBound &bound = {});
    // Already RESP-encoded commands (`commands` of them, back to back): copied into the output
    // buffer as they are, each reply under `bound`. The caller reads one reply per command.
    void appendEncoded(const char *resp, size_t size, qint64 commands, const ReplyBound &bound);
    // The next reply. Transport errors break the connection; error replies are returned as
    // a reply of type REDIS_REPLY_ERROR, for the caller to map with redis::replyError().
    struct ReplyDeleter
    {
        void operator()(redisReply *r) const;
    };
    using RawReply = std::unique_ptr<redisReply, ReplyDeleter>;
    Result<RawReply> readRaw();
    // Sends what was appended, without reading.
    Result<void> flush();
    // For a subscriber: waits up to `wait` for one complete reply (a pub/sub message), or until
    // `wakeFd` (if >= 0) is readable (then *woken is set). nullopt when none came: the connection
    // stays usable, and a partial reply stays buffered. Transport errors break the connection as
    // anywhere else.
    Result<std::optional<RawReply>> waitReply(std::chrono::milliseconds wait, int wakeFd = -1,
                                              bool *woken = nullptr);
    // Appends argv lists, reads as many replies (each under `bound`), maps each. A transport
    // error fails it all.
    Result<std::vector<Result<Reply>>> pipeline(const QList<QList<QByteArray>> &commands,
                                                const ReplyBound &bound = {});

    // Scripts known to be in this server's script cache (SCRIPT LOAD done on this connection).
    // Kept here because it is per server: a reconnect (maybe to a restarted server) clears it.
    QSet<QByteArray> &loadedScripts() { return m_loaded; }
    // The EVALSHA spelling for a read-only script: EVALSHA_RO (Redis >= 7: its keys count as
    // read, so an ACL's %R~ key permission allows them) until this server said it does not
    // know it, then EVALSHA. Per server, like loadedScripts(): a reconnect forgets it.
    QByteArray readOnlyEvalsha() const
    {
        return m_noEvalshaRo ? QByteArrayLiteral("EVALSHA") : QByteArrayLiteral("EVALSHA_RO");
    }
    void setNoEvalshaRo() { m_noEvalshaRo = true; }

    static Reply toReply(const redisReply *r);

private:
    struct StreamDeleter
    {
        void operator()(redis::Stream *s) const;
    };
    struct ClusterDeleter
    {
        void operator()(redis::Cluster *c) const;
    };
    Connection(Endpoint endpoint, Options options);
    Result<void> connectNow();
    Error brokenError() const;
    // Breaks the connection with `e` (closing the socket, dropping buffers) and returns it.
    Error fail(Error e);
    // One complete reply from the reader, or none yet; errors for protocol and size bounds.
    Result<redisReply *> takeBuffered(const ReplyBound &bound);
    Result<void> feed(std::chrono::steady_clock::time_point deadline);
    Result<void> flushBy(std::chrono::steady_clock::time_point deadline);
    // The bound of the next `commands` replies (appended now), under the Options' ceilings.
    void noteBound(const ReplyBound &bound, qint64 commands);
    // The bound of the reply read now.
    ReplyBound nextBound();

    Endpoint m_endpoint;
    Options m_options;
    std::shared_ptr<redis::SshTunnel> m_tunnel;
    std::unique_ptr<redis::Stream, StreamDeleter> m_stream;
    std::optional<redis::ReplyReader> m_reader;
    std::string m_out;             // encoded commands not sent yet
    std::unique_ptr<char[]> m_in;  // read buffer
    std::optional<Error> m_failed; // set: broken
    // The bounds of the replies due, run-length encoded by the count of replies up to the last
    // one of each run (a batch of one bound is one run, so this does not grow per reply).
    struct BoundRun
    {
        qint64 last;
        ReplyBound bound;
    };
    std::vector<BoundRun> m_bounds;
    size_t m_boundAt = 0;
    qint64 m_boundsAppended = 0;
    qint64 m_boundsRead = 0;
    bool m_stale = false;
    int m_pending = 0; // appended commands whose replies were not read yet
    QSet<QByteArray> m_loaded;
    bool m_noEvalshaRo = false;
    std::unique_ptr<redis::Cluster, ClusterDeleter> m_cluster;
    bool m_clusterSeen = false; // a MOVED or ASK came: reconnect as a cluster
    // Read-only endpoints only: the commands refused, by their place in the order of append().
    struct Refusal
    {
        qint64 seq;
        QByteArray message;
    };
    std::vector<Refusal> m_refused;
    qint64 m_appendSeq = 0;
    qint64 m_readSeq = 0;
};

namespace redis {
// True when the command (argv[0], with its subcommand in argv[1] where that decides) only
// reads: what a read-only endpoint lets through.
bool isReadCommand(const QByteArray &name, const QByteArray &sub);
} // namespace redis

} // namespace sluice
