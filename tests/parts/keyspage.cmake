# The console's Keys page, driven offscreen against the fixture's Redis and private servers
# that the test starts, kills and restarts.
sluice_test(keyspage REDIS LIBS sluice_pagesupport Qt6::Network TIMEOUT 600)
# The Keys page's controller (KeysSession) without widgets, against the fixture's Redis.
sluice_test(keyssession REDIS LIBS sluice_pagesupport Qt6::Network)
# The Keys page live (rescans on a timer, the one model of the last scan, stale and partial
# results, the tree), against redis-servers of its own.
sluice_test(keyslive REDIS LIBS sluice_pagesupport Qt6::Network)
