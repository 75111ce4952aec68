# core/limiter: its sources, registered on sluice_core (core/CMakeLists.txt includes every
# <folder>/part.cmake).
target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/decision.h
    ${CMAKE_CURRENT_LIST_DIR}/decisionjson.cpp ${CMAKE_CURRENT_LIST_DIR}/decisionjson.h
    ${CMAKE_CURRENT_LIST_DIR}/headers.cpp ${CMAKE_CURRENT_LIST_DIR}/headers.h
    ${CMAKE_CURRENT_LIST_DIR}/limiter.cpp ${CMAKE_CURRENT_LIST_DIR}/limiter.h
    ${CMAKE_CURRENT_LIST_DIR}/localmodel.cpp ${CMAKE_CURRENT_LIST_DIR}/localmodel.h
    ${CMAKE_CURRENT_LIST_DIR}/model.cpp ${CMAKE_CURRENT_LIST_DIR}/model.h
    ${CMAKE_CURRENT_LIST_DIR}/model_p.h
    ${CMAKE_CURRENT_LIST_DIR}/model_buckets.cpp ${CMAKE_CURRENT_LIST_DIR}/model_migrate.cpp
    ${CMAKE_CURRENT_LIST_DIR}/model_windows.cpp ${CMAKE_CURRENT_LIST_DIR}/policy.cpp ${CMAKE_CURRENT_LIST_DIR}/policy.h
    ${CMAKE_CURRENT_LIST_DIR}/redislimiter.cpp ${CMAKE_CURRENT_LIST_DIR}/redislimiter.h
    ${CMAKE_CURRENT_LIST_DIR}/scratchrun.cpp ${CMAKE_CURRENT_LIST_DIR}/scratchrun.h)
