# rules import --format envoy-ratelimit (core/rules/envoyformat.h reads the YAML).
target_sources(sluice-cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/rulesimport.cpp ${CMAKE_CURRENT_LIST_DIR}/rulesimport.h)
