# The replay of access logs (core/replay) and sluice-cli replay; both run the Redis backend
# against the fixture's server.
find_package(ZLIB REQUIRED)
sluice_test(replay REDIS LIBS ZLIB::ZLIB)
sluice_test(cli_replay REDIS LIBS ZLIB::ZLIB)
# The subjects a limit would deny (the bounded highest peaks), staged candidates in shadow.
sluice_test(replay_heavy)
add_dependencies(tst_cli_replay sluice-cli)
# Simulation > Replay a log…, offscreen.
sluice_test(replaydialog LIBS sluice_pagesupport)
# The GUI thread's longest gap while the dialog replays a big log: a measuring tool run by
# tools/bench-replay-gui.sh, not a test (no timed assertion).
add_executable(replay_gui_gap replay_gui_gap.cpp)
target_link_libraries(replay_gui_gap PRIVATE sluice_ui)
# Replay's bounds as a process: peak memory, the subject cap, signals, bad input.
sluice_test(replay_bounds REDIS LIBS ZLIB::ZLIB)
add_dependencies(tst_replay_bounds sluice-cli)
