#include "cluster.h"

#include "core/common/bytes.h"
#include "errors.h"
#include "stream.h"

#include <hiredis/hiredis.h>

#include <QCryptographicHash>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace std::chrono;

namespace sluice::redis {

namespace {

void appendDecimal(std::string &out, qint64 v)
{
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, size_t(r.ptr - buf));
}

// A reply of our own (an error, an integer), in hiredis's layout: RESP fed to a reader of its
// own, so that freeReplyObject frees it like any other.
Connection::RawReply makeReply(const std::string &resp)
{
    redisReader *reader = redisReaderCreate();
    redisReaderFeed(reader, resp.data(), resp.size());
    void *out = nullptr;
    redisReaderGetReply(reader, &out);
    redisReaderFree(reader);
    return Connection::RawReply(static_cast<redisReply *>(out));
}

Connection::RawReply errorReply(const QByteArray &message)
{
    QByteArray line = message;
    line.replace('\r', ' ').replace('\n', ' ');
    return makeReply("-" + line.toStdString() + "\r\n");
}

Connection::RawReply integerReply(qint64 v)
{
    std::string s = ":";
    appendDecimal(s, v);
    s += "\r\n";
    return makeReply(s);
}

QByteArray upper(const char *p, size_t n)
{
    return QByteArray(p, qsizetype(n)).toUpper();
}

bool startsWithWord(const redisReply *r, const char *word)
{
    const size_t n = std::strlen(word);
    return r->type == REDIS_REPLY_ERROR && r->len >= n && std::strncmp(r->str, word, n) == 0 &&
           (r->len == n || r->str[n] == ' ');
}

// "MOVED 3999 127.0.0.1:6381" -> slot, address (an empty host: the node that said it).
bool parseRedirect(const redisReply *r, int *slot, HostPort *to)
{
    const QList<QByteArray> parts = QByteArray(r->str, qsizetype(r->len)).split(' ');
    if (parts.size() < 3) {
        return false;
    }
    bool ok = false;
    *slot = parts[1].toInt(&ok);
    if (!ok || *slot < 0 || *slot >= clusterSlots) {
        return false;
    }
    const qsizetype colon = parts[2].lastIndexOf(':');
    if (colon < 0) {
        return false;
    }
    to->host = QString::fromUtf8(parts[2].left(colon));
    to->port = quint16(parts[2].mid(colon + 1).toUInt(&ok));
    return ok && to->port != 0;
}

QString printable(const QByteArray &key)
{
    return key.size() > 80 ? bytes::printable(key.left(80)) + QStringLiteral("...")
                           : bytes::printable(key);
}

} // namespace

QString slotRangesText(const QList<std::pair<int, int>> &ranges)
{
    QStringList out;
    for (const auto &[a, b] : ranges) {
        out << (a == b ? QString::number(a) : QStringLiteral("%1-%2").arg(a).arg(b));
    }
    if (out.size() > 6) {
        const qsizetype more = out.size() - 5;
        out = out.mid(0, 5);
        out << QStringLiteral("and %1 more ranges").arg(more);
    }
    return out.join(QStringLiteral(", "));
}

namespace {

enum class Shape {
    Keyless,   // one node (the master of slot 0)
    Broadcast, // every master
    Scan,
    Keys, // keyed: the indexes below
    Multi,
    Exec,      // EXEC, DISCARD
    Subscribe, // SUBSCRIBE, PSUBSCRIBE: the connection becomes a subscriber of one node
};

struct CommandShape
{
    Shape shape = Shape::Keyless;
    std::vector<int> keys;
    bool splittable = false; // DEL, UNLINK, EXISTS, TOUCH: per slot, counts summed
    bool sums = false;       // broadcast: integers summed (DBSIZE)
};

CommandShape shapeOf(const QByteArray &name, int argc, const char **argv, const size_t *len)
{
    CommandShape s;
    static const QSet<QByteArray> keyless = {
        "PING",      "ECHO",     "INFO",     "TIME",      "ROLE",    "LASTSAVE",     "CLIENT",
        "CONFIG",    "COMMAND",  "ACL",      "SLOWLOG",   "LATENCY", "CLUSTER",      "READONLY",
        "READWRITE", "HELLO",    "AUTH",     "SELECT",    "QUIT",    "RANDOMKEY",    "WAIT",
        "PUBLISH",   "PUBSUB",   "LOLWUT",   "SAVE",      "BGSAVE",  "BGREWRITEAOF", "DEBUG",
        "MONITOR",   "SHUTDOWN", "FUNCTION", "MEMORY",    "OBJECT",  "UNWATCH",      "ASKING",
        "SWAPDB",    "RESET",    "FAILOVER", "REPLICAOF", "SLAVEOF", "MODULE",       "SPUBLISH",
    };
    if (name == "SCRIPT") {
        const QByteArray sub = argc > 1 ? upper(argv[1], len[1]) : QByteArray();
        s.shape = sub == "LOAD" || sub == "FLUSH" ? Shape::Broadcast : Shape::Keyless;
        return s;
    }
    if (name == "FLUSHDB" || name == "FLUSHALL" || name == "DBSIZE") {
        s.shape = Shape::Broadcast;
        s.sums = name == "DBSIZE";
        return s;
    }
    if (name == "SCAN") {
        s.shape = Shape::Scan;
        return s;
    }
    if (name == "MULTI") {
        s.shape = Shape::Multi;
        return s;
    }
    if (name == "EXEC" || name == "DISCARD") {
        s.shape = Shape::Exec;
        return s;
    }
    if (name == "SUBSCRIBE" || name == "PSUBSCRIBE") {
        s.shape = Shape::Subscribe;
        return s;
    }
    if ((name == "MEMORY" || name == "OBJECT") && argc > 2) {
        const QByteArray sub = upper(argv[1], len[1]);
        if (sub == "USAGE" || sub == "ENCODING" || sub == "FREQ" || sub == "IDLETIME" ||
            sub == "REFCOUNT") {
            s.shape = Shape::Keys;
            s.keys = {2};
        }
        return s;
    }
    if (keyless.contains(name) || argc < 2) {
        return s;
    }
    s.shape = Shape::Keys;
    if (name == "EVAL" || name == "EVALSHA" || name == "EVAL_RO" || name == "EVALSHA_RO" ||
        name == "FCALL" || name == "FCALL_RO") {
        const qint64 n = argc > 2 ? QByteArray(argv[2], qsizetype(len[2])).toLongLong() : 0;
        for (int i = 3; i < argc && i < 3 + n; ++i) {
            s.keys.push_back(i);
        }
        if (s.keys.empty()) {
            s.shape = Shape::Keyless;
        }
        return s;
    }
    static const QSet<QByteArray> allKeys = {
        "DEL",    "UNLINK", "EXISTS",  "TOUCH",   "MGET",        "WATCH",       "SINTER",
        "SUNION", "SDIFF",  "PFCOUNT", "PFMERGE", "SINTERSTORE", "SUNIONSTORE", "SDIFFSTORE",
    };
    static const QSet<QByteArray> twoKeys = {"RENAME", "RENAMENX",  "COPY",   "SMOVE",
                                             "LMOVE",  "RPOPLPUSH", "BLMOVE", "BRPOPLPUSH"};
    if (allKeys.contains(name)) {
        for (int i = 1; i < argc; ++i) {
            s.keys.push_back(i);
        }
        s.splittable = name == "DEL" || name == "UNLINK" || name == "EXISTS" || name == "TOUCH";
    } else if (twoKeys.contains(name)) {
        s.keys = {1};
        if (argc > 2) {
            s.keys.push_back(2);
        }
    } else if (name == "MSET" || name == "MSETNX") {
        for (int i = 1; i < argc; i += 2) {
            s.keys.push_back(i);
        }
    } else {
        s.keys = {1};
    }
    return s;
}

} // namespace

struct Cluster::NodeState
{
    Node info;
    std::optional<Connection> conn;
    QSet<QByteArray> loaded; // scripts this node has (SCRIPT LOAD seen to succeed)
    std::deque<Sent> inflight;
    steady_clock::time_point retryAt{};
};

struct Cluster::Op
{
    std::string resp;                            // the command as the caller gave it
    std::vector<std::pair<size_t, size_t>> args; // offset, length in resp
    QByteArray name;                             // upper case
    bool routed = false;
    bool done = false;
    bool hidden = false; // a part of a split command: never returned by readRaw
    bool redirectable = false;
    int slot = -1;
    QByteArray sha;        // EVALSHA: the script
    QByteArray scriptLoad; // SCRIPT LOAD: the script's sha1
    qint64 parent = -1;    // a part: its split command
    int waiting = 0;       // broadcast or split: replies still expected
    bool sums = false;
    qint64 sum = 0;
    int scanIndex = -1; // SCAN: which master (in masters()) it went to
    int scanMasters = 0;
    int attempts = 0;
    RawReply reply;
    RawReply firstError;       // broadcast or split: the first error reply
    std::optional<Error> lost; // written, then the node failed: it may have run
    ReplyBound bound;          // what its reply may be, as the caller stated
};

Cluster::Cluster(Endpoint endpoint, Connection::Options options)
    : m_endpoint(std::move(endpoint))
    , m_options(options)
{
    m_slotNode.fill(-1);
}

Cluster::~Cluster() = default;

Result<std::unique_ptr<Cluster>> Cluster::open(const Endpoint &endpoint,
                                               Connection::Options options)
{
    if (endpoint.ssh.isSet()) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("Redis Cluster at %1: clusters through an SSH tunnel are "
                                          "not supported (each node would need a tunnel of its "
                                          "own); connect from a host that reaches the nodes")
                               .arg(endpoint.display()));
    }
    std::unique_ptr<Cluster> c(new Cluster(endpoint, options));
    const QList<HostPort> seeds = endpoint.seeds.isEmpty()
                                      ? QList<HostPort>{HostPort{endpoint.host, endpoint.port}}
                                      : endpoint.seeds;
    for (const HostPort &s : seeds) {
        c->nodeAt(s);
    }
    if (auto r = c->refresh(); !r) {
        return r.error();
    }
    return c;
}

Cluster::Op &Cluster::opAt(qint64 seq)
{
    return m_ops[size_t(seq - m_opBase)];
}

int Cluster::nodeAt(const HostPort &address)
{
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        if (m_nodes[i]->info.address == address) {
            return int(i);
        }
    }
    auto n = std::make_unique<NodeState>();
    n->info.address = address;
    m_nodes.push_back(std::move(n));
    return int(m_nodes.size() - 1);
}

QList<int> Cluster::masters() const
{
    QList<int> out;
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        if (m_nodes[i]->info.master && !m_nodes[i]->info.slots.isEmpty()) {
            out << int(i);
        }
    }
    std::sort(out.begin(), out.end(), [&](int a, int b) {
        const HostPort &x = m_nodes[size_t(a)]->info.address;
        const HostPort &y = m_nodes[size_t(b)]->info.address;
        return x.host != y.host ? x.host < y.host : x.port < y.port;
    });
    return out;
}

int Cluster::defaultNode()
{
    if (m_slotNode[0] >= 0) {
        return m_slotNode[0];
    }
    const QList<int> m = masters();
    return m.isEmpty() ? 0 : m.front();
}

QString Cluster::slotText(int slot) const
{
    return slot >= 0 ? QStringLiteral(" serving slot %1").arg(slot) : QString();
}

Endpoint Cluster::nodeEndpoint(const HostPort &address) const
{
    Endpoint e = m_endpoint;
    e.host = address.host;
    e.port = address.port;
    e.seeds.clear();
    e.singleNode = true;
    e.db = 0;
    return e;
}

Connection *Cluster::connectionTo(int node, QString *error)
{
    NodeState &n = *m_nodes[size_t(node)];
    if (n.conn && !n.conn->isBroken()) {
        return &*n.conn;
    }
    const auto now = steady_clock::now();
    if (now < n.retryAt) {
        *error = n.info.lastError;
        return nullptr;
    }
    const Endpoint e = nodeEndpoint(n.info.address);
    n.inflight.clear();
    n.loaded.clear();
    auto c = Connection::open(e, m_options);
    if (!c) {
        n.conn.reset();
        n.info.connected = false;
        n.info.lastError = c.error().message;
        n.retryAt = now + refreshInterval;
        m_refreshDue = true;
        *error = n.info.lastError;
        return nullptr;
    }
    n.conn.emplace(std::move(*c));
    n.info.connected = true;
    n.info.lastError.clear();
    return &*n.conn;
}

void Cluster::failNode(int node, const Error &e)
{
    NodeState &n = *m_nodes[size_t(node)];
    const std::deque<Sent> inflight = std::move(n.inflight);
    n.inflight.clear();
    n.conn.reset();
    n.info.connected = false;
    n.info.lastError = e.message;
    n.retryAt = steady_clock::now(); // one prompt attempt, then refreshInterval apart
    m_refreshDue = true;
    for (const Sent &s : inflight) {
        if (s.op < 0) {
            continue;
        }
        Op &op = opAt(s.op);
        Error lost = e;
        lost.message = QStringLiteral("Redis Cluster node %1%2 failed: %3")
                           .arg(n.info.address.display(), slotText(op.slot), e.message);
        m_broken = lost;
        answerError(s.op, "CLUSTERDOWN " + lost.message.toUtf8());
        op.lost = lost;
        if (op.parent >= 0) {
            opAt(op.parent).lost = lost;
        }
    }
}

void Cluster::append(int argc, const char **argv, const size_t *argvlen, const ReplyBound &bound)
{
    if (m_pubsub >= 0) {
        if (NodeState &n = *m_nodes[size_t(m_pubsub)]; n.conn) {
            n.conn->append(argc, argv, argvlen, bound);
        }
        return;
    }
    Op op;
    op.bound = bound;
    op.resp.push_back('*');
    appendDecimal(op.resp, argc);
    op.resp.append("\r\n", 2);
    for (int i = 0; i < argc; ++i) {
        op.resp.push_back('$');
        appendDecimal(op.resp, qint64(argvlen[i]));
        op.resp.append("\r\n", 2);
        op.args.emplace_back(op.resp.size(), argvlen[i]);
        op.resp.append(argv[i], argvlen[i]);
        op.resp.append("\r\n", 2);
    }
    op.name = argc > 0 ? upper(argv[0], argvlen[0]) : QByteArray();
    m_ops.push_back(std::move(op));
    ++m_nextSeq;
}

void Cluster::appendEncoded(const char *resp, size_t size, const ReplyBound &bound)
{
    // Split into commands (RESP arrays of bulk strings, as the engine encodes them).
    std::vector<const char *> argv;
    std::vector<size_t> lens;
    size_t at = 0;
    auto number = [&](char lead, qint64 *v) {
        if (at >= size || resp[at] != lead) {
            return false;
        }
        const char *end = static_cast<const char *>(std::memchr(resp + at, '\r', size - at));
        if (end == nullptr || size_t(end - resp) + 1 >= size) {
            return false;
        }
        auto r = std::from_chars(resp + at + 1, end, *v);
        at = size_t(end - resp) + 2;
        return r.ec == std::errc() && *v >= 0;
    };
    while (at < size) {
        qint64 n = 0;
        if (!number('*', &n)) {
            break;
        }
        argv.clear();
        lens.clear();
        for (qint64 i = 0; i < n; ++i) {
            qint64 len = 0;
            if (!number('$', &len) || at + size_t(len) + 2 > size) {
                m_broken = Error::make(Error::Kind::Internal,
                                       QStringLiteral("a pipelined command for the Redis Cluster "
                                                      "is not RESP"));
                return;
            }
            argv.push_back(resp + at);
            lens.push_back(size_t(len));
            at += size_t(len) + 2;
        }
        append(int(n), argv.data(), lens.data(), bound);
    }
}

void Cluster::answer(qint64 seq, RawReply reply)
{
    Op &op = opAt(seq);
    if (op.waiting > 0) {
        // A broadcast: every master answers; the first error, else the sum or the first reply.
        if (reply && reply->type == REDIS_REPLY_ERROR) {
            if (!op.firstError) {
                op.firstError = std::move(reply);
            }
        } else if (reply) {
            if (op.sums && reply->type == REDIS_REPLY_INTEGER) {
                op.sum += reply->integer;
            }
            if (!op.reply) {
                op.reply = std::move(reply);
            }
        }
        if (--op.waiting > 0) {
            return;
        }
        if (op.firstError) {
            op.reply = std::move(op.firstError);
        } else if (op.sums) {
            op.reply = integerReply(op.sum);
        }
        op.done = true;
        return;
    }
    op.reply = std::move(reply);
    op.done = true;
    if (op.parent >= 0) {
        Op &p = opAt(op.parent);
        if (op.reply->type == REDIS_REPLY_ERROR) {
            if (!p.firstError) {
                p.firstError = std::move(op.reply);
            }
        } else if (op.reply->type == REDIS_REPLY_INTEGER) {
            p.sum += op.reply->integer;
        }
        if (--p.waiting == 0) {
            p.reply = p.firstError ? std::move(p.firstError) : integerReply(p.sum);
            p.done = true;
        }
    }
}

void Cluster::answerError(qint64 seq, const QByteArray &message)
{
    answer(seq, errorReply(message));
}

void Cluster::sendTo(qint64 seq, int node, bool asking)
{
    Op &op = opAt(seq);
    QString error;
    Connection *c = connectionTo(node, &error);
    if (c == nullptr) {
        ++m_counters.unreachable;
        answerError(
            seq, QStringLiteral("CLUSTERDOWN the Redis Cluster node %1%2 is unreachable: %3")
                     .arg(m_nodes[size_t(node)]->info.address.display(), slotText(op.slot), error)
                     .toUtf8());
        return;
    }
    NodeState &n = *m_nodes[size_t(node)];
    if (!op.sha.isEmpty() && !n.loaded.contains(op.sha)) {
        const QByteArray body = m_scripts.value(op.sha);
        if (!body.isEmpty()) {
            c->append({QByteArrayLiteral("SCRIPT"), QByteArrayLiteral("LOAD"), body},
                      ReplyBound::sha());
            n.inflight.push_back({-1, op.sha});
            n.loaded.insert(op.sha);
        }
    }
    if (asking) {
        c->append({QByteArrayLiteral("ASKING")});
        n.inflight.push_back({-1, {}});
    }
    if (m_endpoint.readOnly) {
        // Through append(): the node's connection refuses writes one by one, in order.
        std::vector<const char *> argv;
        std::vector<size_t> lens;
        for (const auto &[offset, length] : op.args) {
            argv.push_back(op.resp.data() + offset);
            lens.push_back(length);
        }
        c->append(int(argv.size()), argv.data(), lens.data(), op.bound);
    } else {
        c->appendEncoded(op.resp.data(), op.resp.size(), 1, op.bound); // as encoded: one copy
    }
    n.inflight.push_back({seq, {}});
}

// The command being routed: its words, its shape, and the slots of its keys (all the same,
// or `cross` with the first key of another slot).
struct Cluster::Routing
{
    qint64 seq = -1;
    std::vector<const char *> argv;
    std::vector<size_t> lens;
    int argc = 0;
    CommandShape shape;
    int slot = -1;
    bool cross = false;
    QByteArray firstKey, otherKey;
    int otherSlot = -1;

    QByteArray arg(int i) const { return QByteArray(argv[size_t(i)], qsizetype(lens[size_t(i)])); }
};

void Cluster::route(qint64 seq)
{
    Op &op = opAt(seq);
    if (op.routed) {
        return;
    }
    op.routed = true;
    Routing r = routingOf(seq);
    op.slot = r.slot;
    if (r.cross && !r.shape.splittable) {
        refuseCrossSlot(r);
        return;
    }
    if (m_txnOpen) {
        routeInTransaction(r);
        return;
    }
    switch (r.shape.shape) {
    case Shape::Multi:
        m_txnOpen = true;
        m_txnNode = -1;
        m_txnSlot = -1;
        m_txnDeferred = {seq};
        return;
    case Shape::Exec:
    case Shape::Keyless:
        sendTo(seq, op.name == "UNWATCH" && m_watchNode >= 0 ? m_watchNode : defaultNode(), false);
        if (op.name == "UNWATCH") {
            m_watchNode = -1;
        }
        return;
    case Shape::Subscribe: {
        const int node = defaultNode();
        sendTo(seq, node, false);
        m_pubsub = node;
        return;
    }
    case Shape::Broadcast:
        routeBroadcast(r);
        return;
    case Shape::Scan:
        routeScan(r);
        return;
    case Shape::Keys:
        routeKeyed(r);
        return;
    }
}

Cluster::Routing Cluster::routingOf(qint64 seq)
{
    const Op &op = opAt(seq);
    Routing r;
    r.seq = seq;
    for (const auto &[offset, length] : op.args) {
        r.argv.push_back(op.resp.data() + offset);
        r.lens.push_back(length);
    }
    r.argc = int(r.argv.size());
    r.shape = shapeOf(op.name, r.argc, r.argv.data(), r.lens.data());
    // Slots of the keys, all the same or a CROSSSLOT (for a split, grouped by slot).
    for (int i : r.shape.keys) {
        const int s = keySlot(r.argv[size_t(i)], r.lens[size_t(i)]);
        if (r.slot < 0) {
            r.slot = s;
            r.firstKey = r.arg(i);
        } else if (s != r.slot && !r.cross) {
            r.cross = true;
            r.otherSlot = s;
            r.otherKey = r.arg(i);
        }
    }
    return r;
}

void Cluster::refuseCrossSlot(const Routing &r)
{
    answerError(r.seq, QStringLiteral("CROSSSLOT %1 on the keys '%2' (slot %3) and '%4' (slot %5): "
                                      "a Redis Cluster runs a multi-key command only on keys of "
                                      "one slot; give the keys one hash tag, such as "
                                      "{user1}:a and {user1}:b")
                           .arg(QString::fromUtf8(opAt(r.seq).name), printable(r.firstKey))
                           .arg(r.slot)
                           .arg(printable(r.otherKey))
                           .arg(r.otherSlot)
                           .toUtf8());
}

int Cluster::ownerOf(qint64 seq, int slot, const QByteArray &key)
{
    const int node = m_slotNode[size_t(slot)];
    if (node < 0) {
        m_refreshDue = true;
        answerError(seq,
                    QStringLiteral("CLUSTERDOWN slot %1 (key '%2') is not served by any node "
                                   "of the Redis Cluster at %3; uncovered slots: %4")
                        .arg(slot)
                        .arg(printable(key), m_endpoint.display(), slotRangesText(uncoveredSlots()))
                        .toUtf8());
    }
    return node;
}

// Inside MULTI: everything goes to the node of the transaction's first key; what comes before
// that key waits, and EXEC sends the lot.
void Cluster::routeInTransaction(const Routing &r)
{
    const qint64 seq = r.seq;
    if (r.shape.shape == Shape::Exec) {
        m_txnOpen = false;
        const int node = m_txnNode >= 0     ? m_txnNode
                         : m_watchNode >= 0 ? m_watchNode
                                            : defaultNode();
        for (qint64 d : m_txnDeferred) {
            sendTo(d, node, false);
        }
        m_txnDeferred.clear();
        sendTo(seq, node, false);
        m_txnNode = -1;
        m_watchNode = -1;
        return;
    }
    if (m_txnNode < 0) {
        if (r.slot < 0) {
            m_txnDeferred.push_back(seq);
            return;
        }
        const int node = ownerOf(seq, r.slot, r.firstKey);
        if (node < 0) {
            return;
        }
        m_txnNode = node;
        m_txnSlot = r.slot;
        for (qint64 d : m_txnDeferred) {
            sendTo(d, node, false);
        }
        m_txnDeferred.clear();
    } else if (r.slot >= 0 && r.slot != m_txnSlot) {
        answerError(seq, QStringLiteral("CROSSSLOT %1 on the key '%2' (slot %3) inside a "
                                        "transaction on slot %4: a Redis Cluster transaction "
                                        "runs on keys of one slot")
                             .arg(QString::fromUtf8(opAt(seq).name), printable(r.firstKey))
                             .arg(r.slot)
                             .arg(m_txnSlot)
                             .toUtf8());
        return;
    }
    sendTo(seq, m_txnNode, false);
}

// To every master; SCRIPT LOAD remembers the body (a node that lacks it later gets it first).
void Cluster::routeBroadcast(const Routing &r)
{
    const qint64 seq = r.seq;
    Op &op = opAt(seq);
    const QList<int> all = masters();
    if (op.name == "SCRIPT" && r.argc > 2 && upper(r.argv[1], r.lens[1]) == "LOAD") {
        const QByteArray body = r.arg(2);
        const QByteArray sha = QCryptographicHash::hash(body, QCryptographicHash::Sha1).toHex();
        m_scripts.insert(sha, body);
        op.scriptLoad = sha;
    } else if (op.name == "SCRIPT" || op.name == "FLUSHALL") {
        for (auto &n : m_nodes) {
            n->loaded.clear();
        }
    }
    if (all.isEmpty()) {
        sendTo(seq, defaultNode(), false);
        return;
    }
    op.sums = r.shape.sums;
    op.waiting = int(all.size());
    for (int node : all) {
        if (!op.scriptLoad.isEmpty()) {
            m_nodes[size_t(node)]->loaded.insert(op.scriptLoad); // removed if it fails
        }
        sendTo(seq, node, false);
    }
}

// SCAN under one cursor: its top 16 bits say which master (by address), the rest are that
// master's own cursor.
void Cluster::routeScan(const Routing &r)
{
    const qint64 seq = r.seq;
    Op &op = opAt(seq);
    const QList<int> all = masters();
    bool ok = false;
    const quint64 cursor = r.argc > 1 ? r.arg(1).toULongLong(&ok) : 0;
    const int index = int(cursor >> 48);
    if (!ok || all.isEmpty() || index >= all.size()) {
        answerError(seq, QStringLiteral("ERR the SCAN cursor is not one of this Redis "
                                        "Cluster's (its masters changed since the scan "
                                        "began?); start again from 0")
                             .toUtf8());
        return;
    }
    // The same command with the node's own cursor.
    const QByteArray nodeCursor = QByteArray::number(cursor & ((quint64(1) << 48) - 1));
    QList<QByteArray> args;
    for (int i = 0; i < r.argc; ++i) {
        args << (i == 1 ? nodeCursor : r.arg(i));
    }
    op.resp.clear();
    op.args.clear();
    op.resp.push_back('*');
    appendDecimal(op.resp, r.argc);
    op.resp.append("\r\n", 2);
    for (const QByteArray &a : args) {
        op.resp.push_back('$');
        appendDecimal(op.resp, a.size());
        op.resp.append("\r\n", 2);
        op.args.emplace_back(op.resp.size(), size_t(a.size()));
        op.resp.append(a.constData(), size_t(a.size()));
        op.resp.append("\r\n", 2);
    }
    op.scanIndex = index;
    op.scanMasters = int(all.size());
    sendTo(seq, all[index], false);
}

// A keyed command: to the master of its slot, or split per slot (DEL and friends).
void Cluster::routeKeyed(const Routing &r)
{
    const qint64 seq = r.seq;
    Op &op = opAt(seq);
    if (op.name == "EVALSHA" || op.name == "EVALSHA_RO") {
        op.sha = r.arg(1).toLower();
    }
    if (r.cross) {
        routeSplit(r);
        return;
    }
    const int node = ownerOf(seq, r.slot, r.firstKey);
    if (node < 0) {
        return;
    }
    op.redirectable = true;
    if (op.name == "WATCH") {
        m_watchNode = node;
    }
    sendTo(seq, node, false);
}

// Split per slot; the parts' counts are summed into this op's reply.
void Cluster::routeSplit(const Routing &r)
{
    const qint64 seq = r.seq;
    QMap<int, QList<QByteArray>> bySlot;
    for (int i : r.shape.keys) {
        const QByteArray key = r.arg(i);
        bySlot[keySlot(key)] << key;
    }
    Op &self = opAt(seq);
    self.waiting = int(bySlot.size());
    const ReplyBound bound = self.bound;
    const QByteArray name = r.arg(0);
    for (auto it = bySlot.cbegin(); it != bySlot.cend(); ++it) {
        QList<QByteArray> partArgv{name};
        partArgv << it.value();
        std::vector<const char *> pa;
        std::vector<size_t> pl;
        for (const QByteArray &a : partArgv) {
            pa.push_back(a.constData());
            pl.push_back(size_t(a.size()));
        }
        append(int(pa.size()), pa.data(), pl.data(), bound);
        const qint64 part = m_nextSeq - 1;
        Op &p = opAt(part);
        p.hidden = true;
        p.parent = seq;
        p.slot = it.key();
        p.redirectable = true;
        p.routed = true;
        const int node = m_slotNode[size_t(it.key())];
        if (node < 0) {
            answerError(part, QStringLiteral("CLUSTERDOWN slot %1 (key '%2') is not served "
                                             "by any node of the Redis Cluster")
                                  .arg(it.key())
                                  .arg(printable(it.value().front()))
                                  .toUtf8());
            continue;
        }
        sendTo(part, node, false);
    }
}

void Cluster::handle(qint64 seq, int node, RawReply reply,
                     std::vector<std::pair<qint64, std::pair<int, bool>>> &retry, bool &backoff)
{
    Op &op = opAt(seq);
    const redisReply *r = reply.get();
    if (r->type == REDIS_REPLY_ERROR && op.redirectable && op.attempts < maxRedirects &&
        steady_clock::now() < m_deadline) {
        int slot = -1;
        HostPort to;
        const bool moved = startsWithWord(r, "MOVED");
        if ((moved || startsWithWord(r, "ASK")) && parseRedirect(r, &slot, &to)) {
            if (to.host.isEmpty()) {
                to.host = m_nodes[size_t(node)]->info.address.host;
            }
            const int target = nodeAt(to);
            if (moved) {
                ++m_counters.moved;
                m_slotNode[size_t(slot)] = qint16(target);
                m_refreshDue = true;
            } else {
                ++m_counters.ask;
            }
            ++op.attempts;
            op.reply = std::move(reply);
            retry.push_back({seq, {target, !moved}});
            return;
        }
        if (startsWithWord(r, "TRYAGAIN") || startsWithWord(r, "CLUSTERDOWN")) {
            ++m_counters.tryAgain;
            ++op.attempts;
            backoff = true;
            m_refreshDue = m_refreshDue || startsWithWord(r, "CLUSTERDOWN");
            op.reply = std::move(reply);
            retry.push_back({seq, {-1, false}});
            return;
        }
        if (startsWithWord(r, "NOSCRIPT") && !op.sha.isEmpty() && m_scripts.contains(op.sha)) {
            m_nodes[size_t(node)]->loaded.remove(op.sha);
            ++op.attempts;
            op.reply = std::move(reply);
            retry.push_back({seq, {node, false}});
            return;
        }
    }
    if (op.scanIndex >= 0 && r->type == REDIS_REPLY_ARRAY && r->elements == 2 &&
        r->element[0]->type == REDIS_REPLY_STRING) {
        // The node's cursor under this master's index; its end moves on to the next master.
        const quint64 nodeCursor =
            QByteArray(r->element[0]->str, qsizetype(r->element[0]->len)).toULongLong();
        quint64 next = 0;
        if (nodeCursor != 0) {
            next = (quint64(op.scanIndex) << 48) | nodeCursor;
        } else if (op.scanIndex + 1 < op.scanMasters) {
            next = quint64(op.scanIndex + 1) << 48;
        }
        const std::string text = std::to_string(next);
        redisReply *c = r->element[0];
        free(c->str);
        c->str = static_cast<char *>(malloc(text.size() + 1));
        std::memcpy(c->str, text.c_str(), text.size() + 1);
        c->len = text.size();
    }
    answer(seq, std::move(reply));
}

void Cluster::refreshIfDue()
{
    if (!m_refreshDue || steady_clock::now() < m_nextRefresh) {
        return;
    }
    (void)refresh(); // failing: the old map stays, and the nodes' errors say why
}

Result<void> Cluster::collect()
{
    m_deadline = steady_clock::now() + m_options.commandTimeout;
    refreshIfDue();
    while (m_routed < m_nextSeq) {
        route(m_routed++);
    }
    if (m_txnOpen && !m_txnDeferred.empty()) {
        // A reply is wanted before the transaction's first key: it goes where WATCH went.
        m_txnNode = m_watchNode >= 0 ? m_watchNode : defaultNode();
        const std::vector<qint64> deferred = std::move(m_txnDeferred);
        m_txnDeferred.clear();
        for (qint64 d : deferred) {
            sendTo(d, m_txnNode, false);
        }
    }
    auto pause = milliseconds(5);
    for (;;) {
        ++m_counters.roundTrips;
        // Every node's part written before any reply is read: one round trip.
        for (size_t i = 0; i < m_nodes.size(); ++i) {
            NodeState &n = *m_nodes[i];
            if (!n.inflight.empty() && n.conn) {
                if (auto f = n.conn->flush(); !f) {
                    failNode(int(i), f.error());
                }
            }
        }
        std::vector<std::pair<qint64, std::pair<int, bool>>> retry;
        bool backoff = false;
        for (size_t i = 0; i < m_nodes.size(); ++i) {
            NodeState &n = *m_nodes[i];
            while (!n.inflight.empty()) {
                auto r = n.conn->readRaw();
                if (!r) {
                    failNode(int(i), r.error());
                    break;
                }
                const Sent s = n.inflight.front();
                n.inflight.pop_front();
                if (s.op < 0) {
                    if (!s.sha.isEmpty() && (*r)->type == REDIS_REPLY_ERROR) {
                        n.loaded.remove(s.sha);
                    }
                    continue;
                }
                Op &op = opAt(s.op);
                if (!op.scriptLoad.isEmpty() && (*r)->type == REDIS_REPLY_ERROR) {
                    n.loaded.remove(op.scriptLoad);
                }
                handle(s.op, int(i), std::move(*r), retry, backoff);
            }
        }
        if (retry.empty()) {
            break;
        }
        if (backoff) {
            const auto left = duration_cast<milliseconds>(m_deadline - steady_clock::now());
            std::this_thread::sleep_for(std::clamp(pause, milliseconds(0), left));
            pause = std::min(pause * 2, milliseconds(100));
        }
        if (m_refreshDue) {
            m_nextRefresh = {};
            refreshIfDue();
        }
        for (const auto &[seq, target] : retry) {
            Op &op = opAt(seq);
            int node = target.first;
            if (node < 0) {
                node = op.slot >= 0 ? m_slotNode[size_t(op.slot)] : defaultNode();
            }
            if (node < 0) {
                answer(seq, std::move(op.reply)); // uncovered now: the last reply stands
                continue;
            }
            sendTo(seq, node, target.second);
        }
    }
    return {};
}

Result<Connection::RawReply> Cluster::readRaw()
{
    if (m_pubsub >= 0) {
        NodeState &n = *m_nodes[size_t(m_pubsub)];
        if (m_ops.empty()) {
            if (!n.conn) {
                return Error::make(Error::Kind::Closed,
                                   QStringLiteral("the subscription's Redis Cluster node %1 is "
                                                  "gone")
                                       .arg(n.info.address.display()));
            }
            return n.conn->readRaw();
        }
    }
    for (;;) {
        while (!m_ops.empty() && m_ops.front().hidden && m_ops.front().done) {
            m_ops.pop_front();
            ++m_opBase;
        }
        if (m_ops.empty()) {
            return Error::make(Error::Kind::Internal,
                               QStringLiteral("a reply was read from the Redis Cluster at %1 "
                                              "for no command")
                                   .arg(m_endpoint.display()));
        }
        Op &front = m_ops.front();
        if (!front.done) {
            if (m_broken) {
                return *m_broken;
            }
            if (auto c = collect(); !c) {
                return c.error();
            }
            if (!m_ops.front().done && !m_ops.front().hidden) {
                return Error::make(Error::Kind::Internal,
                                   QStringLiteral("the Redis Cluster at %1 left a command "
                                                  "unanswered")
                                       .arg(m_endpoint.display()));
            }
            continue;
        }
        Op op = std::move(front);
        m_ops.pop_front();
        ++m_opBase;
        if (op.hidden) {
            continue;
        }
        if (op.lost) {
            return *op.lost;
        }
        return std::move(op.reply);
    }
}

Result<void> Cluster::flush()
{
    if (m_pubsub >= 0) {
        NodeState &n = *m_nodes[size_t(m_pubsub)];
        return n.conn ? n.conn->flush() : Result<void>();
    }
    // Routed and written; the replies are read by the next readRaw().
    while (m_routed < m_nextSeq) {
        route(m_routed++);
    }
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        NodeState &n = *m_nodes[i];
        if (!n.inflight.empty() && n.conn) {
            if (auto f = n.conn->flush(); !f) {
                failNode(int(i), f.error());
            }
        }
    }
    return {};
}

Result<std::optional<Connection::RawReply>> Cluster::waitReply(milliseconds wait, int wakeFd,
                                                               bool *woken)
{
    if (m_pubsub < 0 || !m_nodes[size_t(m_pubsub)]->conn) {
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("waiting for a message on the Redis Cluster at %1 "
                                          "without a subscription")
                               .arg(m_endpoint.display()));
    }
    return m_nodes[size_t(m_pubsub)]->conn->waitReply(wait, wakeFd, woken);
}

Result<void> Cluster::reconnect()
{
    m_ops.clear();
    m_opBase = m_nextSeq;
    m_routed = m_nextSeq;
    m_txnOpen = false;
    m_txnDeferred.clear();
    m_txnNode = -1;
    m_watchNode = -1;
    m_pubsub = -1;
    for (auto &n : m_nodes) {
        if (!n->inflight.empty()) {
            n->inflight.clear();
            n->conn.reset(); // replies still coming: that stream is out of step
        }
        if (n->conn && n->conn->isBroken()) {
            n->conn.reset();
        }
    }
    m_broken.reset();
    return refresh();
}

Result<void> Cluster::refresh()
{
    m_nextRefresh = steady_clock::now() + refreshInterval;
    m_refreshDue = false;
    // Ask the masters first (an open connection first), then any node, then the seeds.
    QList<int> order = masters();
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return bool(m_nodes[size_t(a)]->conn) > bool(m_nodes[size_t(b)]->conn);
    });
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        if (!order.contains(int(i))) {
            order << int(i);
        }
    }
    QStringList why;
    for (int i : order) {
        NodeState &n = *m_nodes[size_t(i)];
        if (!n.inflight.empty()) {
            continue; // replies of a batch are on their way: not now
        }
        QString error;
        Connection *c = connectionTo(i, &error);
        if (c == nullptr) {
            why << QStringLiteral("%1: %2").arg(n.info.address.display(), error);
            continue;
        }
        auto r = readMap(*c);
        if (r) {
            ++m_counters.refreshes;
            return {};
        }
        why << QStringLiteral("%1: %2").arg(n.info.address.display(), r.error().message);
        if (r.error().isConnectionLoss()) {
            n.conn.reset();
            n.info.connected = false;
        }
    }
    m_refreshDue = true;
    return Error::make(Error::Kind::Io,
                       QStringLiteral("no node of the Redis Cluster at %1 gave its slot map: %2")
                           .arg(m_endpoint.display(), why.join(QStringLiteral("; "))));
}

Result<void> Cluster::readMap(Connection &c)
{
    struct Found
    {
        HostPort address;
        QByteArray id;
        bool master = false;
        QByteArray masterId;
        QString health;
        QList<std::pair<int, int>> slots;
    };
    std::vector<Found> found;
    const QString asked = c.endpoint().display();
    auto text = [](const Reply &r) {
        return r.type == Reply::Type::Integer ? QByteArray::number(r.integer) : r.str;
    };
    auto notCluster = [&](const Error &e) -> Error {
        if (e.message.contains(QLatin1String("cluster support disabled"))) {
            return Error::make(Error::Kind::Invalid,
                               QStringLiteral("%1 is not a Redis Cluster node (cluster support is "
                                              "disabled there); give the address of a cluster "
                                              "node, or a single address for a plain server")
                                   .arg(asked));
        }
        return e;
    };
    auto shards = c.command({QByteArrayLiteral("CLUSTER"), QByteArrayLiteral("SHARDS")},
                            ReplyBound::topology("CLUSTER SHARDS"));
    if (shards) {
        if (!shards->isArray()) {
            return Error::make(Error::Kind::Protocol,
                               QStringLiteral("%1 answered CLUSTER SHARDS with something else "
                                              "than a list of shards")
                                   .arg(asked));
        }
        for (const Reply &shard : shards->elements) {
            QList<std::pair<int, int>> slots;
            std::vector<Found> members;
            for (size_t k = 0; k + 1 < shard.elements.size(); k += 2) {
                const QByteArray key = shard.elements[k].str;
                const Reply &v = shard.elements[k + 1];
                if (key == "slots") {
                    for (size_t j = 0; j + 1 < v.elements.size(); j += 2) {
                        slots << std::pair<int, int>(int(text(v.elements[j]).toInt()),
                                                     int(text(v.elements[j + 1]).toInt()));
                    }
                } else if (key == "nodes") {
                    for (const Reply &node : v.elements) {
                        Found f;
                        QByteArray ip, endpoint, port, tlsPort, role;
                        for (size_t j = 0; j + 1 < node.elements.size(); j += 2) {
                            const QByteArray nk = node.elements[j].str;
                            const QByteArray nv = text(node.elements[j + 1]);
                            if (nk == "id") {
                                f.id = nv;
                            } else if (nk == "ip") {
                                ip = nv;
                            } else if (nk == "endpoint") {
                                endpoint = nv;
                            } else if (nk == "port") {
                                port = nv;
                            } else if (nk == "tls-port") {
                                tlsPort = nv;
                            } else if (nk == "role") {
                                role = nv;
                            } else if (nk == "health") {
                                f.health = QString::fromUtf8(nv);
                            }
                        }
                        const QByteArray host =
                            !endpoint.isEmpty() && endpoint != "?" ? endpoint : ip;
                        f.address.host =
                            host.isEmpty() ? c.endpoint().host : QString::fromUtf8(host);
                        f.address.port =
                            quint16((m_endpoint.tls.enabled && !tlsPort.isEmpty() ? tlsPort : port)
                                        .toUInt());
                        f.master = role == "master";
                        members.push_back(f);
                    }
                }
            }
            // The shard's master: the one that is up, where a failed one is still listed.
            int chosen = -1;
            for (size_t j = 0; j < members.size(); ++j) {
                if (members[j].master &&
                    (chosen < 0 || members[j].health == QLatin1String("online"))) {
                    chosen = int(j);
                }
            }
            for (size_t j = 0; j < members.size(); ++j) {
                members[j].master = int(j) == chosen;
                if (int(j) == chosen) {
                    members[j].slots = slots;
                } else if (chosen >= 0) {
                    members[j].masterId = members[size_t(chosen)].id;
                }
                found.push_back(members[j]);
            }
        }
    } else {
        const Error &e = shards.error();
        if (e.isConnectionLoss()) {
            return e;
        }
        if (e.message.contains(QLatin1String("cluster support disabled"))) {
            return notCluster(e);
        }
        // Redis < 7: CLUSTER SLOTS.
        auto slots = c.command({QByteArrayLiteral("CLUSTER"), QByteArrayLiteral("SLOTS")},
                               ReplyBound::topology("CLUSTER SLOTS"));
        if (!slots) {
            return notCluster(slots.error());
        }
        for (const Reply &range : slots->elements) {
            if (range.elements.size() < 3) {
                continue;
            }
            const std::pair<int, int> r(int(range.elements[0].integer),
                                        int(range.elements[1].integer));
            QByteArray masterId;
            for (size_t j = 2; j < range.elements.size(); ++j) {
                const Reply &n = range.elements[j];
                if (n.elements.size() < 2) {
                    continue;
                }
                HostPort a{n.elements[0].str.isEmpty() ? c.endpoint().host
                                                       : QString::fromUtf8(n.elements[0].str),
                           quint16(n.elements[1].integer)};
                const QByteArray id = n.elements.size() > 2 ? n.elements[2].str : QByteArray();
                auto it = std::find_if(found.begin(), found.end(),
                                       [&](const Found &f) { return f.address == a; });
                if (it == found.end()) {
                    Found f;
                    f.address = a;
                    f.id = id;
                    found.push_back(f);
                    it = found.end() - 1;
                }
                if (j == 2) {
                    it->master = true;
                    it->slots << r;
                    masterId = id;
                } else {
                    it->masterId = masterId;
                }
            }
        }
    }
    bool any = false;
    for (const Found &f : found) {
        any = any || !f.slots.isEmpty();
    }
    if (!any) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("%1 is a Redis Cluster node, but its cluster serves no "
                                          "slot yet (CLUSTER ADDSLOTS, or redis-cli --cluster "
                                          "create)")
                               .arg(asked));
    }
    for (auto &n : m_nodes) {
        n->info.master = false;
        n->info.slots.clear();
    }
    m_slotNode.fill(-1);
    for (const Found &f : found) {
        const int i = nodeAt(f.address);
        Node &info = m_nodes[size_t(i)]->info;
        info.id = f.id;
        info.master = f.master;
        info.masterId = f.masterId;
        info.health = f.health;
        info.slots = f.slots;
        for (const auto &[a, b] : f.slots) {
            for (int s = std::max(a, 0); s <= b && s < clusterSlots; ++s) {
                m_slotNode[size_t(s)] = qint16(i);
            }
        }
    }
    return {};
}

QList<Cluster::Node> Cluster::nodes() const
{
    QList<Node> out;
    for (int i : masters()) {
        out << m_nodes[size_t(i)]->info;
    }
    for (const auto &n : m_nodes) {
        if (!n->info.master && !n->info.id.isEmpty()) {
            out << n->info;
        }
    }
    return out;
}

std::optional<HostPort> Cluster::masterOf(int slot) const
{
    if (slot < 0 || slot >= clusterSlots || m_slotNode[size_t(slot)] < 0) {
        return std::nullopt;
    }
    return m_nodes[size_t(m_slotNode[size_t(slot)])]->info.address;
}

QList<std::pair<int, int>> Cluster::uncoveredSlots() const
{
    QList<std::pair<int, int>> out;
    for (int s = 0; s < clusterSlots; ++s) {
        if (m_slotNode[size_t(s)] >= 0) {
            continue;
        }
        if (!out.isEmpty() && out.back().second == s - 1) {
            out.back().second = s;
        } else {
            out << std::pair<int, int>(s, s);
        }
    }
    return out;
}

} // namespace sluice::redis
