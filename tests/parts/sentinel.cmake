# Redis Sentinel: discovery, the ROLE check and following a failover, against a master, a
# replica and three sentinels that the test starts itself (no fixture); and sluice-cli load
# across a failover.
sluice_test(sentinel LIBS sluice_service TIMEOUT 120)
add_dependencies(tst_sentinel sluice-cli)
