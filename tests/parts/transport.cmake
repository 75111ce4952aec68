# The transports under Connection (TLS, Unix socket, deadlines, reply bounds) against servers
# the test starts itself: redis-server with TLS and certificates made by openssl, a Unix socket,
# hostile fake servers; and sluice-cli over TLS.
sluice_test(transport LIBS Qt6::Network TIMEOUT 180)
add_dependencies(tst_transport sluice-cli)
