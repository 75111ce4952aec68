# The Monitor and Load pages, offscreen against the fixture's Redis.
sluice_test(monitorpage REDIS LIBS sluice_pagesupport Qt6::Network)
sluice_test(monitorsession REDIS LIBS sluice_pagesupport Qt6::Network)
sluice_test(loadpage REDIS LIBS sluice_pagesupport Qt6::Network)
# The Load page's controller (LoadSession) without widgets, against the fixture's Redis.
sluice_test(loadsession REDIS LIBS sluice_pagesupport Qt6::Network)
