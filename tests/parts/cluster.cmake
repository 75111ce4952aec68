# Redis Cluster: the client (core/redis/cluster.*, slot.*) against a cluster of 3 masters and
# 3 replicas that the test starts itself (test::OwnCluster, no fixture besides the shared
# server, which serves as "not a cluster node"); failover and resharding under load; and the
# CLI commands on a cluster.
sluice_test(cluster REDIS LIBS sluice_service Qt6::Network TIMEOUT 180)
add_dependencies(tst_cluster sluice-cli)
# The console on a cluster: the Keys page's shard scans (masters or replicas, Node column,
# per-shard progress), the Connection page's node list and slot view, with screenshots
# (SLUICE_SHOTS=<dir> copies them there too).
sluice_test(clusterconsole REDIS LIBS sluice_pagesupport Qt6::Network TIMEOUT 300)
