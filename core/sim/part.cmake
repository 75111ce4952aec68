# core/sim: its sources, registered on sluice_core (core/CMakeLists.txt includes every
# <folder>/part.cmake).
target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/foreigncounter.cpp ${CMAKE_CURRENT_LIST_DIR}/foreigncounter.h
    ${CMAKE_CURRENT_LIST_DIR}/metrics.cpp ${CMAKE_CURRENT_LIST_DIR}/metrics.h
    ${CMAKE_CURRENT_LIST_DIR}/redisrun.cpp ${CMAKE_CURRENT_LIST_DIR}/redisrun.h
    ${CMAKE_CURRENT_LIST_DIR}/resultfile.cpp ${CMAKE_CURRENT_LIST_DIR}/resultfile.h
    ${CMAKE_CURRENT_LIST_DIR}/scenario.cpp ${CMAKE_CURRENT_LIST_DIR}/scenario.h
    ${CMAKE_CURRENT_LIST_DIR}/simulator.cpp ${CMAKE_CURRENT_LIST_DIR}/simulator.h
    ${CMAKE_CURRENT_LIST_DIR}/trafficpattern.cpp ${CMAKE_CURRENT_LIST_DIR}/trafficpattern.h)
