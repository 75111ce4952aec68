# sluice-cli overrides add, remove and list: per-subject overrides kept in Redis.
target_sources(sluice-cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/overrides.cpp
    ${CMAKE_CURRENT_LIST_DIR}/overrides.h)
