#include "topology.h"

#include "cluster.h"

#include <algorithm>

namespace sluice::redis {

namespace {

QByteArray infoField(const QByteArray &info, const QByteArray &name)
{
    for (const QByteArray &line : info.split('\n')) {
        if (line.startsWith(name) && line.size() > name.size() && line[name.size()] == ':') {
            return line.mid(name.size() + 1).trimmed();
        }
    }
    return {};
}

// Merges overlapping or touching ranges (inclusive), sorted.
QList<std::pair<int, int>> merged(QList<std::pair<int, int>> ranges)
{
    std::sort(ranges.begin(), ranges.end());
    QList<std::pair<int, int>> out;
    for (const auto &r : ranges) {
        if (!out.isEmpty() && r.first <= out.back().second + 1) {
            out.back().second = std::max(out.back().second, r.second);
        } else {
            out << r;
        }
    }
    return out;
}

} // namespace

QString ClusterProbe::problem(const QString &address) const
{
    if (!clusterNode || (state == QLatin1String("ok") && unserved.isEmpty())) {
        return {};
    }
    QString text =
        state == QLatin1String("ok")
            ? QStringLiteral("the Redis Cluster of %1 does not serve every slot").arg(address)
            : QStringLiteral("the Redis Cluster of %1 is down (cluster_state:%2)")
                  .arg(address, state.isEmpty() ? QStringLiteral("unknown") : state);
    if (!unserved.isEmpty()) {
        text +=
            QStringLiteral(": slots %1 have no master that answers").arg(slotRangesText(unserved));
        if (!failedMasters.isEmpty()) {
            text += QStringLiteral(" (failed: %1)").arg(failedMasters.join(QStringLiteral(", ")));
        }
    }
    return text;
}

bool mayBeClusterNode(const Endpoint &endpoint)
{
    return endpoint.kind == Endpoint::Kind::Tcp && !endpoint.isCluster() && !endpoint.singleNode &&
           !endpoint.ssh.isSet();
}

Result<ClusterProbe> discoverCluster(Endpoint &endpoint, Connection::Options options)
{
    ClusterProbe probe;
    if (!mayBeClusterNode(endpoint)) {
        return probe;
    }
    Endpoint node = endpoint;
    node.singleNode = true; // asked as itself: a MOVED reply is not followed from here
    auto c = Connection::open(node, options);
    if (!c) {
        return c.error();
    }
    // INFO cluster is what the console asks; an ACL user without INFO may still have CLUSTER
    // INFO, which a plain server refuses ("cluster support disabled").
    auto info = c->command({QByteArrayLiteral("INFO"), QByteArrayLiteral("cluster")});
    if (!info && info.error().isConnectionLoss()) {
        return info.error(); // stalled or gone: asking again would wait its deadline out again
    }
    if (info) {
        probe.clusterNode = infoField(info->str, "cluster_enabled") == "1";
    } else if (auto ci = c->command({QByteArrayLiteral("CLUSTER"), QByteArrayLiteral("INFO")});
               ci) {
        probe.clusterNode = !infoField(ci->str, "cluster_state").isEmpty();
    }
    if (!probe.clusterNode) {
        return probe;
    }
    if (auto ci = c->command({QByteArrayLiteral("CLUSTER"), QByteArrayLiteral("INFO")}); ci) {
        probe.state = QString::fromUtf8(infoField(ci->str, "cluster_state"));
    }
    endpoint.seeds = {HostPort{endpoint.host, endpoint.port}};
    auto cluster = Cluster::open(endpoint, options);
    if (!cluster) {
        return cluster.error();
    }
    QList<std::pair<int, int>> unserved = (*cluster)->uncoveredSlots();
    for (const Cluster::Node &n : (*cluster)->nodes()) {
        if (!n.master || n.slots.isEmpty()) {
            continue;
        }
        ++probe.masters;
        if (n.health == QLatin1String("failed")) {
            probe.failedMasters << n.address.display();
            unserved << n.slots;
        }
    }
    probe.unserved = merged(unserved);
    return probe;
}

} // namespace sluice::redis
