# The replay of access logs (core/replay) and sluice-cli replay; both run the Redis backend
# against the fixture's server.
find_package(ZLIB REQUIRED)
sluice_test(replay REDIS LIBS ZLIB::ZLIB)
sluice_test(cli_replay REDIS LIBS ZLIB::ZLIB)
add_dependencies(tst_cli_replay sluice-cli)
# Simulation > Replay a log…, offscreen.
sluice_test(replaydialog LIBS sluice_pagesupport)
