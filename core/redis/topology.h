#pragma once

#include "connection.h"

#include <QList>
#include <QString>

#include <utility>

namespace sluice::redis {

// What one address turned out to be when asked (INFO cluster): a plain server, or a node of a
// Redis Cluster, and then how that cluster stands.
struct ClusterProbe
{
    bool clusterNode = false;
    QString state;                       // CLUSTER INFO cluster_state: "ok", "fail"
    int masters = 0;                     // masters that serve slots, as the node's map shows them
    QList<std::pair<int, int>> unserved; // slot ranges no master serves, or served by a master
                                         // the cluster marks failed
    QStringList failedMasters;           // host:port of those failed masters
    // Empty when the cluster is healthy: otherwise one sentence naming the state, the slots
    // and the masters, e.g. "the Redis Cluster of 127.0.0.1:7000 is down (cluster_state:fail):
    // slots 0-5460 have no master that answers (127.0.0.1:7000 failed)".
    QString problem(const QString &address) const;
};

// One address given where a cluster may be meant (Kind::Tcp, no seeds, not singleNode, no SSH
// tunnel): when it is a Redis Cluster node, `endpoint` becomes that whole cluster with the
// address as its seed (Cluster::open reads the slot map from it), so every command walks and
// routes to every master, as the console does with a profile of one address. Not a cluster
// node, or not eligible: `endpoint` is left as it is and clusterNode is false. An address that
// does not answer is an error (the caller decides: a service may start with Redis down and
// find the cluster on its first MOVED reply, Connection's fallback).
Result<ClusterProbe> discoverCluster(Endpoint &endpoint, Connection::Options options = {});

// Whether discoverCluster would ask `endpoint` at all.
bool mayBeClusterNode(const Endpoint &endpoint);

} // namespace sluice::redis
