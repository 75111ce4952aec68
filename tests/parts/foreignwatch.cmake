# The Monitor's "Other limiters" (ui/monitor/foreignwatch*): other limiters' subjects from
# their keys, on the page, against the fixture's Redis (SLUICE_SHOTS_DIR=DIR saves the looks).
sluice_test(foreignwatch REDIS LIBS sluice_pagesupport Qt6::Network)
