# The whole console against the fixture's Redis, with a screenshot of every page in both
# languages (tests/screenshots/console-*.png).
sluice_test(console REDIS LIBS sluice_pagesupport Qt6::Network TIMEOUT 180)
