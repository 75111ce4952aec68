#include "connection.h"

#include "cluster.h"
#include "errors.h"
#include "sentinel.h"
#include "sshtunnel.h"
#include "stream.h"

#include <hiredis/hiredis.h>

#include <QHash>

#include <charconv>
#include <cstdlib>
#include <cstring>

using namespace std::chrono;

namespace sluice {

namespace {

constexpr size_t readChunk = 64 * 1024;

void appendDecimal(std::string &out, qint64 v)
{
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, size_t(r.ptr - buf));
}

bool isRedirect(const redisReply *r)
{
    return r->type == REDIS_REPLY_ERROR &&
           ((r->len >= 6 && std::strncmp(r->str, "MOVED ", 6) == 0) ||
            (r->len >= 4 && std::strncmp(r->str, "ASK ", 4) == 0));
}

bool isDemotion(const redisReply *r)
{
    return r->type == REDIS_REPLY_ERROR && r->len >= 8 &&
           (std::strncmp(r->str, "READONLY", 8) == 0 ||
            (r->len >= 10 && std::strncmp(r->str, "MASTERDOWN", 10) == 0));
}

// An error reply of our own, in hiredis's layout, freed by freeReplyObject like any other.
redisReply *syntheticError(const QByteArray &message)
{
    auto *r = static_cast<redisReply *>(std::calloc(1, sizeof(redisReply)));
    r->type = REDIS_REPLY_ERROR;
    r->len = size_t(message.size());
    r->str = static_cast<char *>(std::malloc(r->len + 1));
    std::memcpy(r->str, message.constData(), r->len);
    r->str[r->len] = '\0';
    return r;
}

} // namespace

namespace redis {

bool isReadCommand(const QByteArray &nameIn, const QByteArray &subIn)
{
    static const QSet<QByteArray> reads = {
        "PING",           "ECHO",        "AUTH",
        "SELECT",         "HELLO",       "QUIT",
        "INFO",           "TIME",        "DBSIZE",
        "ROLE",           "LASTSAVE",    "SCAN",
        "TYPE",           "PTTL",        "TTL",
        "EXPIRETIME",     "PEXPIRETIME", "EXISTS",
        "RANDOMKEY",      "GET",         "MGET",
        "STRLEN",         "GETRANGE",    "SUBSTR",
        "HGET",           "HMGET",       "HGETALL",
        "HLEN",           "HKEYS",       "HVALS",
        "HEXISTS",        "HSTRLEN",     "HSCAN",
        "HRANDFIELD",     "ZCARD",       "ZCOUNT",
        "ZLEXCOUNT",      "ZRANGE",      "ZRANGEBYSCORE",
        "ZRANGEBYLEX",    "ZREVRANGE",   "ZREVRANGEBYSCORE",
        "ZREVRANGEBYLEX", "ZSCORE",      "ZMSCORE",
        "ZRANK",          "ZREVRANK",    "ZSCAN",
        "ZRANDMEMBER",    "LLEN",        "LRANGE",
        "LINDEX",         "LPOS",        "SCARD",
        "SMEMBERS",       "SISMEMBER",   "SMISMEMBER",
        "SSCAN",          "SRANDMEMBER", "XLEN",
        "XRANGE",         "XREVRANGE",   "XINFO",
        "BITCOUNT",       "BITPOS",      "GETBIT",
        "PFCOUNT",        "DUMP",        "TOUCH",
        "EVALSHA_RO",     "EVAL_RO",     "FCALL_RO",
        "SUBSCRIBE",      "UNSUBSCRIBE", "PSUBSCRIBE",
        "PUNSUBSCRIBE",   "PUBSUB",      "COMMAND",
        "LOLWUT",         "READONLY",    "ASKING",
        "WAIT",
    };
    static const QHash<QByteArray, QSet<QByteArray>> subcommands = {
        {"CLIENT", {"SETNAME", "GETNAME", "ID", "INFO", "LIST", "TRACKINGINFO", "NO-TOUCH"}},
        {"SCRIPT", {"LOAD", "EXISTS"}},
        {"CONFIG", {"GET"}},
        {"CLUSTER",
         {"SLOTS", "SHARDS", "NODES", "INFO", "KEYSLOT", "MYID", "COUNTKEYSINSLOT", "GETKEYSINSLOT",
          "LINKS"}},
        {"OBJECT", {"ENCODING", "FREQ", "IDLETIME", "REFCOUNT", "HELP"}},
        {"MEMORY", {"USAGE", "STATS", "DOCTOR", "MALLOC-STATS", "HELP"}},
        {"LATENCY", {"LATEST", "HISTORY", "DOCTOR", "GRAPH", "HISTOGRAM", "HELP"}},
        {"SLOWLOG", {"GET", "LEN", "HELP"}},
        {"ACL", {"WHOAMI", "CAT", "LIST", "USERS", "GETUSER", "LOG", "DRYRUN", "HELP"}},
        {"SENTINEL",
         {"GET-MASTER-ADDR-BY-NAME", "MASTERS", "MASTER", "REPLICAS", "SLAVES", "SENTINELS", "MYID",
          "INFO-CACHE", "CKQUORUM"}},
    };
    const QByteArray name = nameIn.toUpper();
    if (reads.contains(name)) {
        return true;
    }
    const auto it = subcommands.constFind(name);
    return it != subcommands.cend() && it->contains(subIn.toUpper());
}

} // namespace redis

void Connection::StreamDeleter::operator()(redis::Stream *s) const
{
    delete s;
}

void Connection::ClusterDeleter::operator()(redis::Cluster *c) const
{
    delete c;
}

void Connection::ReplyDeleter::operator()(redisReply *r) const
{
    freeReplyObject(r);
}

Connection::Connection(Endpoint endpoint, Options options)
    : m_endpoint(std::move(endpoint))
    , m_options(options)
{}

Connection::Connection(Connection &&) noexcept = default;
Connection &Connection::operator=(Connection &&) noexcept = default;
Connection::~Connection() = default;

Result<Connection> Connection::open(const Endpoint &endpoint, Options options)
{
    Connection c(endpoint, options);
    if (auto r = c.connectNow(); !r) {
        return r.error();
    }
    return c;
}

Result<void> Connection::connectNow()
{
    m_stream.reset();
    m_reader.reset();
    m_out.clear();
    m_pending = 0;
    m_loaded.clear();
    m_noEvalshaRo = false;
    m_stale = false;
    m_refused.clear();
    m_appendSeq = 0;
    m_readSeq = 0;
    m_failed =
        Error::make(Error::Kind::Closed,
                    QStringLiteral("not connected to Redis at %1").arg(m_endpoint.display()));
    m_cluster.reset();
    if (m_endpoint.kind == Endpoint::Kind::Tcp && !m_endpoint.singleNode &&
        (m_endpoint.isCluster() || m_clusterSeen)) {
        auto cluster = redis::Cluster::open(m_endpoint, m_options);
        if (!cluster) {
            return fail(cluster.error());
        }
        m_cluster.reset(cluster->release());
        m_failed.reset();
        return {};
    }
    const auto deadline = redis::deadlineIn(m_options.connectTimeout);

    // Behind Sentinel: ask the sentinels on every (re)connect, so that a failover is followed.
    if (m_endpoint.kind == Endpoint::Kind::Sentinel) {
        auto master = redis::resolveMaster(m_endpoint, m_options.connectTimeout);
        if (!master) {
            return fail(master.error());
        }
        m_endpoint.host = master->host;
        m_endpoint.port = master->port;
    }
    auto leftMs = [&] {
        return std::max(milliseconds(1),
                        duration_cast<milliseconds>(deadline - steady_clock::now()));
    };

    Result<std::unique_ptr<redis::Stream>> stream =
        Error::make(Error::Kind::Internal, QStringLiteral("no transport"));
    const QString where = m_endpoint.display();
    if (m_endpoint.ssh.isSet()) {
        // Through the bastion: the tunnel serves a private Unix socket; TLS (if any) still
        // checks the certificate against the Redis host's name.
        auto tunnel =
            redis::SshTunnel::shared(m_endpoint.ssh, m_endpoint.host, m_endpoint.port, leftMs());
        if (!tunnel) {
            return fail(tunnel.error());
        }
        m_tunnel = *tunnel;
        stream = redis::Stream::connectUnix(m_tunnel->socketPath(), where, deadline);
    } else if (m_endpoint.kind == Endpoint::Kind::Unix) {
        stream = redis::Stream::connectUnix(m_endpoint.socketPath, where, deadline);
    } else {
        stream = redis::Stream::connectTcp(m_endpoint.host, m_endpoint.port, where, deadline);
    }
    if (!stream) {
        return fail(stream.error());
    }
    if (m_endpoint.tls.enabled) {
        if (auto t = (*stream)->startTls(m_endpoint.tls, m_endpoint.host, deadline); !t) {
            return fail(t.error());
        }
    }
    m_stream.reset(stream->release());
    m_reader.emplace(m_endpoint.display());
    m_bounds.clear();
    m_boundAt = 0;
    m_boundsAppended = m_boundsRead = 0;
    if (!m_in) {
        m_in.reset(new char[readChunk]);
    }
    m_failed.reset();

    // A user without a password logs in too (AUTH user ""): a nopass user gets in, any other is
    // refused, where skipping AUTH would have worked as the default user, silently.
    if (!m_endpoint.password.isEmpty() || !m_endpoint.user.isEmpty()) {
        QList<QByteArray> auth{QByteArrayLiteral("AUTH")};
        if (!m_endpoint.user.isEmpty()) {
            auth << m_endpoint.user.toUtf8();
        }
        auth << m_endpoint.password.toUtf8();
        auto r = command(auth);
        if (!r) {
            const Error e = r.error();
            if (e.kind == Error::Kind::Auth || e.kind == Error::Kind::Reply) {
                return fail(Error::make(
                    Error::Kind::Auth,
                    QStringLiteral("Redis at %1 refused the credentials%2: %3; check the user "
                                   "name and password")
                        .arg(m_endpoint.display(),
                             m_endpoint.user.isEmpty()
                                 ? QString()
                                 : QStringLiteral(" of user '%1'").arg(m_endpoint.user),
                             e.message)));
            }
            return fail(e);
        }
    }
    if (m_endpoint.db != 0) {
        auto r = command({QByteArrayLiteral("SELECT"), QByteArray::number(m_endpoint.db)});
        if (!r) {
            if (r.error().kind == Error::Kind::Reply) {
                return fail(Error::make(Error::Kind::Invalid,
                                        QStringLiteral("Redis at %1 cannot select database %2: %3")
                                            .arg(m_endpoint.display())
                                            .arg(m_endpoint.db)
                                            .arg(r.error().message)));
            }
            return fail(r.error());
        }
    }
    return {};
}

bool Connection::isBroken() const
{
    if (m_cluster) {
        return m_failed.has_value() || m_cluster->isBroken();
    }
    return m_failed.has_value() || !m_stream || m_stale;
}

Result<void> Connection::reconnect()
{
    if (m_cluster && !m_failed) {
        return m_cluster->reconnect();
    }
    return connectNow();
}

Error Connection::brokenError() const
{
    if (m_failed) {
        return *m_failed;
    }
    return Error::make(Error::Kind::Closed,
                       QStringLiteral("not connected to Redis at %1").arg(m_endpoint.display()));
}

Error Connection::fail(Error e)
{
    m_failed = e;
    m_stream.reset();
    m_reader.reset();
    m_out.clear();
    m_out.shrink_to_fit();
    m_pending = 0;
    m_bounds.clear();
    m_boundAt = 0;
    m_boundsAppended = m_boundsRead = 0;
    return e;
}

void Connection::noteBound(const ReplyBound &boundIn, qint64 commands)
{
    ReplyBound bound = boundIn;
    bound.bulk = std::min(bound.bulkBound(), m_options.maxReplyBytes);
    bound.bytes = std::min(bound.bytes, m_options.maxReplyBytes);
    bound.elements = std::min(bound.elements, m_options.maxReplyElements);
    m_boundsAppended += commands;
    if (m_boundAt < m_bounds.size() && m_bounds.back().bound == bound) {
        m_bounds.back().last = m_boundsAppended;
    } else {
        m_bounds.push_back({m_boundsAppended, bound});
    }
}

ReplyBound Connection::nextBound()
{
    ++m_boundsRead;
    while (m_boundAt < m_bounds.size() && m_bounds[m_boundAt].last < m_boundsRead) {
        ++m_boundAt;
    }
    ReplyBound bound;
    if (m_boundAt < m_bounds.size()) {
        bound = m_bounds[m_boundAt].bound;
    } else {
        // A reply no command asked for (a pub/sub message): the default, under the ceilings.
        bound.bytes = std::min(bound.bytes, m_options.maxReplyBytes);
        bound.elements = std::min(bound.elements, m_options.maxReplyElements);
    }
    if (m_boundsRead >= m_boundsAppended) {
        m_bounds.clear(); // every reply due was read; keeps the capacity
        m_boundAt = 0;
        m_boundsAppended = m_boundsRead = 0;
    } else if (m_boundAt >= 64 && m_boundAt * 2 >= m_bounds.size()) {
        // A pipeline that never drains (the key scanner keeps a round trip ahead) never gets
        // to the clear above: the runs already read go once they are half the list.
        m_bounds.erase(m_bounds.begin(), m_bounds.begin() + std::ptrdiff_t(m_boundAt));
        m_boundAt = 0;
    }
    return bound;
}

void Connection::append(int argc, const char **argv, const size_t *argvlen, const ReplyBound &bound)
{
    if (m_failed) {
        return; // readRaw() reports the error
    }
    if (m_cluster) {
        m_cluster->append(argc, argv, argvlen, bound);
        return;
    }
    noteBound(bound, 1);
    if (m_endpoint.readOnly) {
        const QByteArray name =
            argc > 0 ? QByteArray(argv[0], qsizetype(argvlen[0])) : QByteArray();
        const QByteArray sub = argc > 1 ? QByteArray(argv[1], qsizetype(argvlen[1])) : QByteArray();
        const qint64 seq = m_appendSeq++;
        // A script run under a read-only endpoint runs as a read-only script (Redis >= 7):
        // the server then refuses any write inside it, and %R~ key permissions apply. Reading
        // scripts (the key reader's, the rule store's) work; on an older server the _RO form is
        // an unknown command, which the callers take as "no scripting" and read plainly.
        const QByteArray upper = name.toUpper();
        if (upper == "EVALSHA" || upper == "EVAL") {
            std::vector<const char *> ro(argv, argv + argc);
            std::vector<size_t> roLen(argvlen, argvlen + argc);
            static const QByteArray evalshaRo = "EVALSHA_RO", evalRo = "EVAL_RO";
            const QByteArray &n = upper == "EVAL" ? evalRo : evalshaRo;
            ro[0] = n.constData();
            roLen[0] = size_t(n.size());
            --m_appendSeq; // the call below counts it
            m_boundsAppended -= 1;
            m_bounds.back().last -= 1; // and states the bound again
            append(argc, ro.data(), roLen.data(), bound);
            return;
        }
        if (!redis::isReadCommand(name, sub)) {
            const QByteArray shown =
                (name + (sub.isEmpty() || name.toUpper() == "EVALSHA" ? QByteArray() : ' ' + sub))
                    .toUpper()
                    .left(64);
            m_refused.push_back(
                {seq, "SLUICEREADONLY read-only: '" + shown + "' would write to Redis at " +
                          m_endpoint.display().toUtf8() +
                          ", and this connection is read-only (a read-only profile or "
                          "--read-only)"});
            ++m_pending;
            return;
        }
    }
    m_out.push_back('*');
    appendDecimal(m_out, argc);
    m_out.append("\r\n", 2);
    for (int i = 0; i < argc; ++i) {
        m_out.push_back('$');
        appendDecimal(m_out, qint64(argvlen[i]));
        m_out.append("\r\n", 2);
        m_out.append(argv[i], argvlen[i]);
        m_out.append("\r\n", 2);
    }
    ++m_pending;
}

void Connection::appendEncoded(const char *resp, size_t size, qint64 commands,
                               const ReplyBound &bound)
{
    if (m_failed || size == 0) {
        return; // readRaw() reports the error
    }
    if (m_endpoint.readOnly) {
        fail(Error::make(Error::Kind::Invalid,
                         QStringLiteral("read-only: rate-limit decisions write to Redis at %1, "
                                        "and this connection is read-only (a read-only profile "
                                        "or --read-only)")
                             .arg(m_endpoint.display())));
        return;
    }
    if (m_cluster) {
        m_cluster->appendEncoded(resp, size, bound);
        return;
    }
    noteBound(bound, commands);
    m_pending += int(commands);
    m_out.append(resp, size);
}

void Connection::append(const QList<QByteArray> &argv, const ReplyBound &bound)
{
    constexpr int stackArgs = 16;
    const char *ptrStack[stackArgs];
    size_t lenStack[stackArgs];
    std::vector<const char *> ptrHeap;
    std::vector<size_t> lenHeap;
    const char **ptrs = ptrStack;
    size_t *lens = lenStack;
    if (argv.size() > stackArgs) {
        ptrHeap.resize(size_t(argv.size()));
        lenHeap.resize(size_t(argv.size()));
        ptrs = ptrHeap.data();
        lens = lenHeap.data();
    }
    for (qsizetype i = 0; i < argv.size(); ++i) {
        ptrs[i] = argv[i].constData();
        lens[i] = size_t(argv[i].size());
    }
    append(int(argv.size()), ptrs, lens, bound);
}

Result<void> Connection::flush()
{
    if (m_cluster && !m_failed) {
        return m_cluster->flush();
    }
    return flushBy(redis::deadlineIn(m_options.commandTimeout));
}

Result<void> Connection::flushBy(steady_clock::time_point deadline)
{
    if (m_failed || !m_stream) {
        return brokenError();
    }
    if (m_out.empty()) {
        return {};
    }
    auto w = m_stream->writeAll(m_out.data(), m_out.size(), deadline);
    if (!w) {
        return fail(w.error());
    }
    // Keep the capacity for the next batch, unless one huge command grew it.
    if (m_out.capacity() > (size_t(4) << 20)) {
        m_out = std::string();
    } else {
        m_out.clear();
    }
    return {};
}

Result<redisReply *> Connection::takeBuffered(const ReplyBound &bound)
{
    auto r = m_reader->take(bound);
    if (!r) {
        return fail(r.error());
    }
    return *r;
}

Result<void> Connection::feed(steady_clock::time_point deadline)
{
    // The deadline bounds the whole exchange: a server that floods bytes is always readable,
    // so the wait in readSome alone would never see it pass.
    if (steady_clock::now() >= deadline) {
        return fail(Error::make(Error::Kind::Timeout,
                                QStringLiteral("Redis at %1 did not answer in time (reading the "
                                               "reply passed its deadline)")
                                    .arg(m_endpoint.display())));
    }
    auto n = m_stream->readSome(m_in.get(), readChunk, deadline);
    if (!n) {
        return fail(n.error());
    }
    if (auto f = m_reader->feed(m_in.get(), *n); !f) {
        return fail(f.error());
    }
    return {};
}

Result<Connection::RawReply> Connection::readRaw()
{
    if (m_cluster && !m_failed) {
        return m_cluster->readRaw();
    }
    if (m_failed || !m_stream) {
        return brokenError();
    }
    const ReplyBound bound = nextBound();
    if (m_endpoint.readOnly) {
        const qint64 seq = m_readSeq++;
        if (!m_refused.empty() && m_refused.front().seq == seq) {
            const QByteArray message = m_refused.front().message;
            m_refused.erase(m_refused.begin());
            if (m_pending > 0) {
                --m_pending;
            }
            return RawReply(syntheticError(message));
        }
    }
    const auto deadline = redis::deadlineIn(m_options.commandTimeout);
    if (auto f = flushBy(deadline); !f) {
        return f.error();
    }
    for (;;) {
        auto r = takeBuffered(bound);
        if (!r) {
            return r.error();
        }
        if (*r) {
            if (m_pending > 0) {
                --m_pending;
            }
            if (isDemotion(*r)) {
                m_stale = true;
            } else if (isRedirect(*r) && !m_endpoint.singleNode &&
                       m_endpoint.kind == Endpoint::Kind::Tcp && !m_endpoint.ssh.isSet()) {
                // A Redis Cluster node: reconnecting makes this a cluster client.
                m_clusterSeen = true;
                m_stale = true;
            }
            return RawReply(*r);
        }
        if (auto f = feed(deadline); !f) {
            return f.error();
        }
    }
}

Result<std::optional<Connection::RawReply>> Connection::waitReply(milliseconds wait, int wakeFd,
                                                                  bool *woken)
{
    if (woken) {
        *woken = false;
    }
    if (m_cluster && !m_failed) {
        return m_cluster->waitReply(wait, wakeFd, woken);
    }
    if (m_failed || !m_stream) {
        return brokenError();
    }
    if (auto f = flush(); !f) {
        return f.error();
    }
    const auto until = steady_clock::now() + wait;
    const ReplyBound bound = ReplyBound{}; // a message no command asked for
    for (;;) {
        auto r = takeBuffered(bound);
        if (!r) {
            return r.error();
        }
        if (*r) {
            return std::optional<RawReply>(RawReply(*r));
        }
        auto w = m_stream->waitReadable(until, wakeFd);
        if (!w) {
            return fail(w.error());
        }
        if (*w != 1) {
            if (woken && *w == 2) {
                *woken = true;
            }
            return std::optional<RawReply>();
        }
        // Readable: the bytes are there (for TLS, at most a record's worth is awaited).
        if (auto f = feed(std::max(until, redis::deadlineIn(m_options.commandTimeout))); !f) {
            return f.error();
        }
    }
}

Reply Connection::toReply(const redisReply *r)
{
    Reply out;
    switch (r->type) {
    case REDIS_REPLY_INTEGER:
        out.type = Reply::Type::Integer;
        out.integer = r->integer;
        break;
    case REDIS_REPLY_STRING:
        out.type = Reply::Type::String;
        out.str = QByteArray(r->str, qsizetype(r->len));
        break;
    case REDIS_REPLY_STATUS:
        out.type = Reply::Type::Status;
        out.str = QByteArray(r->str, qsizetype(r->len));
        break;
    case REDIS_REPLY_ARRAY:
        out.type = Reply::Type::Array;
        out.elements.reserve(r->elements);
        for (size_t i = 0; i < r->elements; ++i) {
            out.elements.push_back(toReply(r->element[i]));
        }
        break;
    default:
        out.type = Reply::Type::Nil;
        break;
    }
    return out;
}

Result<Reply> Connection::command(const QList<QByteArray> &argv, const ReplyBound &bound)
{
    append(argv, bound);
    auto raw = readRaw();
    if (!raw) {
        return raw.error();
    }
    if ((*raw)->type == REDIS_REPLY_ERROR) {
        if (!m_cluster && m_clusterSeen && m_pending == 0 && isRedirect(raw->get())) {
            // The server is a cluster node: once more, as a cluster client.
            if (auto r = reconnect(); !r) {
                return r.error();
            }
            return command(argv, bound);
        }
        return redis::replyError(raw->get());
    }
    return toReply(raw->get());
}

Result<std::vector<Result<Reply>>> Connection::pipeline(const QList<QList<QByteArray>> &commands,
                                                        const ReplyBound &bound)
{
    for (const auto &argv : commands) {
        append(argv, bound);
    }
    std::vector<Result<Reply>> out;
    out.reserve(size_t(commands.size()));
    bool redirected = false;
    for (qsizetype i = 0; i < commands.size(); ++i) {
        auto raw = readRaw();
        if (!raw) {
            return raw.error();
        }
        if ((*raw)->type == REDIS_REPLY_ERROR) {
            redirected = redirected || isRedirect(raw->get());
            out.emplace_back(redis::replyError(raw->get()));
        } else {
            out.emplace_back(toReply(raw->get()));
        }
    }
    if (redirected && !m_cluster && m_clusterSeen && m_pending == 0) {
        // A cluster node: the redirected commands once more, as a cluster client (not within a
        // transaction, whose queued commands cannot be sent again alone).
        for (const auto &argv : commands) {
            if (!argv.isEmpty() && argv.front().toUpper() == "MULTI") {
                return out;
            }
        }
        if (auto r = reconnect(); !r) {
            return out;
        }
        for (qsizetype i = 0; i < commands.size(); ++i) {
            if (!out[size_t(i)] && redis::isRedirectReply(out[size_t(i)].error())) {
                out[size_t(i)] = command(commands[i], bound);
            }
        }
    }
    return out;
}

} // namespace sluice
