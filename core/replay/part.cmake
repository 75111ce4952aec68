# core/replay: access logs through candidate rules (the twins or the scripts in Redis), with
# the report and the limit suggestion. Reads .gz with zlib.
find_package(ZLIB REQUIRED)
target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/logformat.cpp ${CMAKE_CURRENT_LIST_DIR}/logformat.h
    ${CMAKE_CURRENT_LIST_DIR}/logreader.cpp ${CMAKE_CURRENT_LIST_DIR}/logreader.h
    ${CMAKE_CURRENT_LIST_DIR}/replay.cpp ${CMAKE_CURRENT_LIST_DIR}/replay.h
    ${CMAKE_CURRENT_LIST_DIR}/reportjson.cpp)
target_link_libraries(sluice_core PRIVATE ZLIB::ZLIB)
