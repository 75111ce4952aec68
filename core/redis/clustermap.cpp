// Redis Cluster's slot map (cluster.h): read from a node (CLUSTER SHARDS, or CLUSTER SLOTS
// before Redis 7), kept per slot, refreshed when a redirect or a lost node says it moved.
#include "cluster_p.h"

#include <algorithm>

using namespace std::chrono;

namespace sluice::redis {

namespace {

// A node as the map names it.
struct Found
{
    HostPort address;
    QByteArray id;
    bool master = false;
    QByteArray masterId;
    QString health;
    QList<std::pair<int, int>> slots;
};

QByteArray replyText(const Reply &r)
{
    return r.type == Reply::Type::Integer ? QByteArray::number(r.integer) : r.str;
}

Error notCluster(const Error &e, const QString &asked)
{
    if (e.message.contains(QLatin1String("cluster support disabled"))) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("%1 is not a Redis Cluster node (cluster support is "
                                          "disabled there); give the address of a cluster "
                                          "node, or a single address for a plain server")
                               .arg(asked));
    }
    return e;
}

// One node of a CLUSTER SHARDS entry; an empty host is the node asked (`askedHost`).
Found shardNode(const Reply &node, const QString &askedHost, bool tls)
{
    Found f;
    QByteArray ip, endpoint, port, tlsPort, role;
    for (size_t j = 0; j + 1 < node.elements.size(); j += 2) {
        const QByteArray nk = node.elements[j].str;
        const QByteArray nv = replyText(node.elements[j + 1]);
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
    const QByteArray host = !endpoint.isEmpty() && endpoint != "?" ? endpoint : ip;
    f.address.host = host.isEmpty() ? askedHost : QString::fromUtf8(host);
    f.address.port = quint16((tls && !tlsPort.isEmpty() ? tlsPort : port).toUInt());
    f.master = role == "master";
    return f;
}

// One CLUSTER SHARDS entry: its slots and its nodes, the slots the master's (the one that is
// up, where a failed one is still listed).
void readShard(const Reply &shard, const QString &askedHost, bool tls, std::vector<Found> &found)
{
    QList<std::pair<int, int>> slots;
    std::vector<Found> members;
    for (size_t k = 0; k + 1 < shard.elements.size(); k += 2) {
        const QByteArray key = shard.elements[k].str;
        const Reply &v = shard.elements[k + 1];
        if (key == "slots") {
            for (size_t j = 0; j + 1 < v.elements.size(); j += 2) {
                slots << std::pair<int, int>(int(replyText(v.elements[j]).toInt()),
                                             int(replyText(v.elements[j + 1]).toInt()));
            }
        } else if (key == "nodes") {
            for (const Reply &node : v.elements) {
                members.push_back(shardNode(node, askedHost, tls));
            }
        }
    }
    int chosen = -1;
    for (size_t j = 0; j < members.size(); ++j) {
        if (members[j].master && (chosen < 0 || members[j].health == QLatin1String("online"))) {
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

// CLUSTER SLOTS (Redis < 7): per range, its master then its replicas.
void readSlots(const Reply &slots, const QString &askedHost, std::vector<Found> &found)
{
    for (const Reply &range : slots.elements) {
        if (range.elements.size() < 3) {
            continue;
        }
        const std::pair<int, int> r(int(range.elements[0].integer), int(range.elements[1].integer));
        QByteArray masterId;
        for (size_t j = 2; j < range.elements.size(); ++j) {
            const Reply &n = range.elements[j];
            if (n.elements.size() < 2) {
                continue;
            }
            HostPort a{n.elements[0].str.isEmpty() ? askedHost
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

// The nodes `c` names, by CLUSTER SHARDS or, before Redis 7, CLUSTER SLOTS.
Result<std::vector<Found>> askMap(Connection &c, bool tls)
{
    const QString asked = c.endpoint().display();
    std::vector<Found> found;
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
            readShard(shard, c.endpoint().host, tls, found);
        }
        return found;
    }
    const Error &e = shards.error();
    if (e.isConnectionLoss()) {
        return e;
    }
    if (e.message.contains(QLatin1String("cluster support disabled"))) {
        return notCluster(e, asked);
    }
    auto slots = c.command({QByteArrayLiteral("CLUSTER"), QByteArrayLiteral("SLOTS")},
                           ReplyBound::topology("CLUSTER SLOTS"));
    if (!slots) {
        return notCluster(slots.error(), asked);
    }
    readSlots(*slots, c.endpoint().host, found);
    return found;
}

} // namespace

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
    auto found = askMap(c, m_endpoint.tls.enabled);
    if (!found) {
        return found.error();
    }
    bool any = false;
    for (const Found &f : *found) {
        any = any || !f.slots.isEmpty();
    }
    if (!any) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("%1 is a Redis Cluster node, but its cluster serves no "
                                          "slot yet (CLUSTER ADDSLOTS, or redis-cli --cluster "
                                          "create)")
                               .arg(c.endpoint().display()));
    }
    for (auto &n : m_nodes) {
        n->info.master = false;
        n->info.slots.clear();
    }
    m_slotNode.fill(-1);
    for (const Found &f : *found) {
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
