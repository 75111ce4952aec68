#include "cluster_p.h"

#include "core/common/bytes.h"
#include "errors.h"
#include "stream.h"

#include <hiredis/hiredis.h>

#include <QMap>
#include <QSet>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <thread>

using namespace std::chrono;

namespace sluice::redis {

using namespace clusterstep;

namespace {

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

} // namespace sluice::redis
