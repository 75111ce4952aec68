# rules import --format envoy-ratelimit (app/serve/envoyconfig.h reads the YAML).
target_sources(sluice-cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/rulesimport.cpp ${CMAKE_CURRENT_LIST_DIR}/rulesimport.h)
