// Redis Cluster's routing (cluster.h): each command's shape (keyless, broadcast, SCAN, keyed,
// a transaction, a subscription), and the handler that sends it to its node or nodes.
#include "cluster_p.h"

#include <QCryptographicHash>
#include <QMap>
#include <QSet>

#include <algorithm>
#include <cstring>

namespace sluice::redis {

using namespace clusterstep;

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

} // namespace sluice::redis
