# The Simulation page: scenario editor, runner thread, charts (Qt Charts) and their export
# (PNG through QImage, SVG through Qt SVG's QSvgGenerator: Debian package qt6-svg-dev). The
# charts themselves are the sluice_figures library (ui/CMakeLists.txt).
find_package(Qt6 REQUIRED COMPONENTS Svg)
target_sources(sluice_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/simulationchartview.cpp ${CMAKE_CURRENT_LIST_DIR}/simulationchartview.h
    ${CMAKE_CURRENT_LIST_DIR}/simulationmetricsmodel.cpp ${CMAKE_CURRENT_LIST_DIR}/simulationmetricsmodel.h
    ${CMAKE_CURRENT_LIST_DIR}/simulationpage.cpp ${CMAKE_CURRENT_LIST_DIR}/simulationpage.h
    ${CMAKE_CURRENT_LIST_DIR}/scenariodraft.cpp ${CMAKE_CURRENT_LIST_DIR}/scenariodraft.h
    ${CMAKE_CURRENT_LIST_DIR}/simulationreport.cpp ${CMAKE_CURRENT_LIST_DIR}/simulationreport.h
    ${CMAKE_CURRENT_LIST_DIR}/simulationrunner.cpp ${CMAKE_CURRENT_LIST_DIR}/simulationrunner.h
)
target_link_libraries(sluice_ui PUBLIC Qt6::Svg)
