# The Simulation page: scenario editor, runner thread, charts (Qt Charts) and their export
# (PNG through QImage, SVG through Qt SVG's QSvgGenerator: Debian package qt6-svg-dev). The
# charts themselves are the sluice_figures library (ui/CMakeLists.txt).
find_package(Qt6 REQUIRED COMPONENTS Svg)
sluice_ui_sources(simulationchartview simulationmetricsmodel simulationpage scenariodraft
    simulationreport simulationrunner simulationsession simulationworker replaydialog
    replaysession peakchartview scenarioeditor)
target_link_libraries(sluice_ui PUBLIC Qt6::Svg)
