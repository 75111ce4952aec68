# sluice-cli rules history, diff and rollback: the rule store's versions.
target_sources(sluice-cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/ruleshistory.cpp
    ${CMAKE_CURRENT_LIST_DIR}/ruleshistory.h)
