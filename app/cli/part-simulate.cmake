# sluice-cli simulate --png/--svg draw the console's charts (ui/sim/SimulationCharts) headless.
target_link_libraries(sluice-cli PRIVATE sluice_ui)
