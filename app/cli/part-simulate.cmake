# sluice-cli simulate --png/--svg draw the console's charts (ui/sim/SimulationCharts) headless
# through sluice-render, a program of its own beside sluice-cli (app/render_main.cpp), so that
# sluice-cli links no Qt Gui, Widgets or Charts (tests/tst_cli_simulate checks with ldd). Built
# with sluice-cli, so that a build always has its renderer beside it.
add_executable(sluice-render render_main.cpp)
target_include_directories(sluice-render PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(sluice-render PRIVATE sluice_figures)
add_dependencies(sluice-cli sluice-render)
