# sluice-cli keys top: the live watch of other limiters' keys (core/keys/keywatcher).
target_sources(sluice-cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/keystop.cpp
                                  ${CMAKE_CURRENT_LIST_DIR}/keystop.h)
