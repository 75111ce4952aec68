# The transport under Connection: our own sockets, TLS through OpenSSL (docs/ARCHITECTURE.md
# "Transport"). hiredis is linked for its reply reader only.
find_package(OpenSSL 3 REQUIRED)
target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/stream.cpp ${CMAKE_CURRENT_LIST_DIR}/stream.h)
target_link_libraries(sluice_core PUBLIC OpenSSL::SSL OpenSSL::Crypto)
target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/subscriber.cpp ${CMAKE_CURRENT_LIST_DIR}/subscriber.h)
