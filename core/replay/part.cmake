# core/replay: access logs through candidate rules (the twins or the scripts in Redis), with
# the report and the limit suggestion. Reads .gz with zlib.
find_package(ZLIB REQUIRED)
target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/deciding.cpp
    ${CMAKE_CURRENT_LIST_DIR}/engine.cpp ${CMAKE_CURRENT_LIST_DIR}/engine.h
    ${CMAKE_CURRENT_LIST_DIR}/findings.cpp
    ${CMAKE_CURRENT_LIST_DIR}/handoff.h
    ${CMAKE_CURRENT_LIST_DIR}/intake.cpp
    ${CMAKE_CURRENT_LIST_DIR}/interner.h
    ${CMAKE_CURRENT_LIST_DIR}/logformat.cpp ${CMAKE_CURRENT_LIST_DIR}/logformat.h
    ${CMAKE_CURRENT_LIST_DIR}/logreader.cpp ${CMAKE_CURRENT_LIST_DIR}/logreader.h
    ${CMAKE_CURRENT_LIST_DIR}/peaktop.cpp ${CMAKE_CURRENT_LIST_DIR}/peaktop.h
    ${CMAKE_CURRENT_LIST_DIR}/redisrun.cpp
    ${CMAKE_CURRENT_LIST_DIR}/replay.h
    ${CMAKE_CURRENT_LIST_DIR}/reportjson.cpp
    ${CMAKE_CURRENT_LIST_DIR}/routes.cpp ${CMAKE_CURRENT_LIST_DIR}/routes.h
    ${CMAKE_CURRENT_LIST_DIR}/state.h)
target_link_libraries(sluice_core PRIVATE ZLIB::ZLIB)
