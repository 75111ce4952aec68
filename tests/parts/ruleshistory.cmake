# The rule store's versions from the command line: rules history, diff and rollback on a
# redis-server of the test's own (the store's default namespace would be shared otherwise).
sluice_test(cli_ruleshistory TIMEOUT 120)
add_dependencies(tst_cli_ruleshistory sluice-cli)
# The push preview on states the real scripts wrote in the fixture's Redis.
sluice_test(changepreview REDIS)
# Per-subject overrides: the file form, the matcher, check and serve against the fixture's
# Redis, the store.
sluice_test(overrides REDIS LIBS sluice_service TIMEOUT 180)
add_dependencies(tst_overrides sluice-cli)
# A staged rollout: stage, promote, discard on a redis-server of the test's own, a real serve
# deciding the candidate in shadow, and the two compared from the statistics.
sluice_test(staging TIMEOUT 120)
add_dependencies(tst_staging sluice-cli)
