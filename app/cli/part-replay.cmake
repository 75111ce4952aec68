# sluice-cli replay: access logs through candidate rules (core/replay).
target_sources(sluice-cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/replay.cpp
                                  ${CMAKE_CURRENT_LIST_DIR}/replay.h)
