# core/common: its sources, registered on sluice_core (core/CMakeLists.txt includes every
# <folder>/part.cmake).
target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/clock.cpp ${CMAKE_CURRENT_LIST_DIR}/clock.h
    ${CMAKE_CURRENT_LIST_DIR}/bytes.cpp ${CMAKE_CURRENT_LIST_DIR}/bytes.h
    ${CMAKE_CURRENT_LIST_DIR}/bytewriter.h
    ${CMAKE_CURRENT_LIST_DIR}/duration.cpp ${CMAKE_CURRENT_LIST_DIR}/duration.h
    ${CMAKE_CURRENT_LIST_DIR}/glob.cpp ${CMAKE_CURRENT_LIST_DIR}/glob.h
    ${CMAKE_CURRENT_LIST_DIR}/network.cpp ${CMAKE_CURRENT_LIST_DIR}/network.h
    ${CMAKE_CURRENT_LIST_DIR}/plural.h
    ${CMAKE_CURRENT_LIST_DIR}/readfile.cpp ${CMAKE_CURRENT_LIST_DIR}/readfile.h
    ${CMAKE_CURRENT_LIST_DIR}/result.cpp ${CMAKE_CURRENT_LIST_DIR}/result.h)
