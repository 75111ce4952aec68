# sluice-cli simulate --png/--svg draw the console's charts (ui/sim/SimulationCharts) headless:
# the figures library only, not the console (sluice_ui).
target_link_libraries(sluice-cli PRIVATE sluice_figures)
