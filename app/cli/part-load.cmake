# sluice-cli load.
target_sources(sluice-cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/load.cpp ${CMAKE_CURRENT_LIST_DIR}/load.h)
