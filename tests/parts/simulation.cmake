# The Simulation page (ui/sim) and the charts of sluice-cli simulate --png/--svg.
sluice_test(simulationpage REDIS LIBS sluice_pagesupport TIMEOUT 600)
add_dependencies(tst_simulationpage sluice-cli)
# tst_cli_simulate (registered in tests/CMakeLists.txt) checks the PNG against the figure's size
# and colours: it needs the chart builder too.
target_link_libraries(tst_cli_simulate PRIVATE sluice_figures)
# The pattern and scenario drafts behind the Simulation and Load pages' forms, without widgets.
sluice_test(scenariodraft LIBS sluice_ui)
sluice_test(simulationsession REDIS LIBS sluice_pagesupport TIMEOUT 600)
