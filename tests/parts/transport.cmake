# The transports under Connection (TLS, Unix socket, deadlines, reply bounds) against servers
# the test starts itself: redis-server with TLS and certificates made by openssl, a Unix socket,
# hostile fake servers; and sluice-cli over TLS.
sluice_test(transport LIBS Qt6::Network TIMEOUT 180)
add_dependencies(tst_transport sluice-cli)
# Every reply held to its command's bound (ReplyBound): hostile fake RESP servers of the test's
# own, the large bound of value reads on the fixture's redis-server, and sluice-cli check and
# the check service against the fakes (stderr, the log and /healthz stay small).
sluice_test(replybounds REDIS LIBS sluice_service Qt6::Network TIMEOUT 180)
add_dependencies(tst_replybounds sluice-cli)
