#pragma once

#include "ownredis.h"

#include "core/redis/endpoint.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <memory>
#include <vector>

namespace sluice::test {

// A Redis Cluster of the test's own: `masters` masters with `replicas` replicas each (3 + 3 by
// default), every node an OwnRedis on 127.0.0.1 (a port whose cluster bus port, +10000, is free
// too), cluster-node-timeout nodeTimeoutMs. Made with CLUSTER ADDSLOTSRANGE, MEET and
// REPLICATE (no redis-cli): it takes a second or two. Slots are split evenly in order, so
// master i serves [i * 16384 / masters, (i + 1) * 16384 / masters). Killed by the destructor.
class OwnCluster
{
public:
    static constexpr int nodeTimeoutMs = 1000;

    explicit OwnCluster(int masters = 3, int replicas = 1);
    ~OwnCluster();
    OwnCluster(const OwnCluster &) = delete;
    OwnCluster &operator=(const OwnCluster &) = delete;

    // False, with *why, when a node did not start or the cluster did not form in 20 s.
    bool start(QString *why);

    int size() const { return int(m_nodes.size()); }
    OwnRedis &node(int i) { return *m_nodes[size_t(i)]; }
    // A node as itself (Endpoint::singleNode): for the test's own admin commands.
    Endpoint nodeEndpoint(int i) const;
    // Every master's address as seeds (redis://127.0.0.1:p0,127.0.0.1:p1,...), and its Endpoint
    // (a cluster endpoint even with one master).
    QString url() const;
    Endpoint endpoint() const;
    // The node (index) on `port`, -1 if none.
    int indexOfPort(quint16 port) const;
    // The index of the master serving `slot` now (CLUSTER SHARDS asked of a running node), -1.
    int masterOf(int slot) const;
    // Until every running node says cluster_state:ok and sees every slot served, or `ms` pass.
    bool waitHealthy(int ms) const;
    QByteArray nodeId(int i) const;
    // Slots [from, to] taken out of node i's map (CLUSTER DELSLOTSRANGE): a cluster with a hole
    // as that node sees it. False, with *why, when the node refused.
    bool uncover(int i, int from, int to, QString *why) const;

private:
    int m_masters;
    int m_replicas;
    std::vector<std::unique_ptr<OwnRedis>> m_nodes;
};

} // namespace sluice::test
