# core/rules: its sources, registered on sluice_core (core/CMakeLists.txt includes every
# <folder>/part.cmake).
target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/adoption.cpp ${CMAKE_CURRENT_LIST_DIR}/adoption.h
    ${CMAKE_CURRENT_LIST_DIR}/codec.cpp ${CMAKE_CURRENT_LIST_DIR}/codec.h
    ${CMAKE_CURRENT_LIST_DIR}/codecinternal.h ${CMAKE_CURRENT_LIST_DIR}/codecread.cpp
    ${CMAKE_CURRENT_LIST_DIR}/codecwriter.cpp ${CMAKE_CURRENT_LIST_DIR}/codecyaml.cpp
    ${CMAKE_CURRENT_LIST_DIR}/diagnostics.cpp ${CMAKE_CURRENT_LIST_DIR}/diagnostics.h
    ${CMAKE_CURRENT_LIST_DIR}/envoyformat.cpp ${CMAKE_CURRENT_LIST_DIR}/envoyformat.h
    ${CMAKE_CURRENT_LIST_DIR}/exporter.cpp ${CMAKE_CURRENT_LIST_DIR}/exporter.h
    ${CMAKE_CURRENT_LIST_DIR}/exportsteps.cpp ${CMAKE_CURRENT_LIST_DIR}/exportsteps.h
    ${CMAKE_CURRENT_LIST_DIR}/export_envoy.cpp ${CMAKE_CURRENT_LIST_DIR}/export_kong.cpp
    ${CMAKE_CURRENT_LIST_DIR}/export_nginx.cpp
    ${CMAKE_CURRENT_LIST_DIR}/jsonlocator.cpp ${CMAKE_CURRENT_LIST_DIR}/jsonlocator.h
    ${CMAKE_CURRENT_LIST_DIR}/keymap.cpp ${CMAKE_CURRENT_LIST_DIR}/keymap.h
    ${CMAKE_CURRENT_LIST_DIR}/override.cpp ${CMAKE_CURRENT_LIST_DIR}/override.h
    ${CMAKE_CURRENT_LIST_DIR}/overridematcher.cpp ${CMAKE_CURRENT_LIST_DIR}/overridematcher.h
    ${CMAKE_CURRENT_LIST_DIR}/overridestore.cpp ${CMAKE_CURRENT_LIST_DIR}/overridestore.h
    ${CMAKE_CURRENT_LIST_DIR}/rule.cpp ${CMAKE_CURRENT_LIST_DIR}/rule.h
    ${CMAKE_CURRENT_LIST_DIR}/rulediff.cpp ${CMAKE_CURRENT_LIST_DIR}/rulediff.h
    ${CMAKE_CURRENT_LIST_DIR}/rulestore.cpp ${CMAKE_CURRENT_LIST_DIR}/rulestore.h
    ${CMAKE_CURRENT_LIST_DIR}/rulestore_p.h ${CMAKE_CURRENT_LIST_DIR}/rulestoresteps.cpp
    ${CMAKE_CURRENT_LIST_DIR}/rulehistory.cpp ${CMAKE_CURRENT_LIST_DIR}/rulestage.cpp
    ${CMAKE_CURRENT_LIST_DIR}/rulewatcher.cpp ${CMAKE_CURRENT_LIST_DIR}/rulewatcher.h
    ${CMAKE_CURRENT_LIST_DIR}/validate.cpp)
