# The console's Rules page, driven offscreen against the fixture's Redis.
sluice_test(rulespage REDIS LIBS sluice_pagesupport Qt6::Network)
# The Rules page's controller (RulesSession) without widgets, against the fixture's Redis.
sluice_test(rulessession REDIS LIBS sluice_pagesupport Qt6::Network)
# The preview's headers are the service's (core/limiter/headers.h), for every algorithm.
sluice_test(rulepreview LIBS sluice_ui)
# A staged rollout through the Rules page and the Monitor, on a redis-server of its own with a
# real serve deciding the candidate.
sluice_test(stagingconsole LIBS sluice_pagesupport Qt6::Network TIMEOUT 120)
add_dependencies(tst_stagingconsole sluice-cli)
