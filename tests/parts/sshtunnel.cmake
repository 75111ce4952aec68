# SSH tunnels (core/redis/sshtunnel): a real sshd that the test starts on a free loopback port,
# forwarding to the fixture's Redis.
sluice_test(sshtunnel REDIS TIMEOUT 180)
add_dependencies(tst_sshtunnel sluice-cli)
