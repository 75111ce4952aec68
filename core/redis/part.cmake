target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/cluster.cpp ${CMAKE_CURRENT_LIST_DIR}/cluster.h
    ${CMAKE_CURRENT_LIST_DIR}/cluster_p.h ${CMAKE_CURRENT_LIST_DIR}/clustermap.cpp
    ${CMAKE_CURRENT_LIST_DIR}/clusterroute.cpp
    ${CMAKE_CURRENT_LIST_DIR}/connection.cpp ${CMAKE_CURRENT_LIST_DIR}/connection.h
    ${CMAKE_CURRENT_LIST_DIR}/endpoint.cpp ${CMAKE_CURRENT_LIST_DIR}/endpoint.h
    ${CMAKE_CURRENT_LIST_DIR}/errors.cpp ${CMAKE_CURRENT_LIST_DIR}/errors.h
    ${CMAKE_CURRENT_LIST_DIR}/keyspace.cpp ${CMAKE_CURRENT_LIST_DIR}/keyspace.h
    ${CMAKE_CURRENT_LIST_DIR}/lazyconnection.cpp ${CMAKE_CURRENT_LIST_DIR}/lazyconnection.h
    ${CMAKE_CURRENT_LIST_DIR}/reply.h
    ${CMAKE_CURRENT_LIST_DIR}/replyreader.cpp ${CMAKE_CURRENT_LIST_DIR}/replyreader.h
    ${CMAKE_CURRENT_LIST_DIR}/replyview.cpp ${CMAKE_CURRENT_LIST_DIR}/replyview.h
    ${CMAKE_CURRENT_LIST_DIR}/scriptregistry.cpp ${CMAKE_CURRENT_LIST_DIR}/scriptregistry.h
    ${CMAKE_CURRENT_LIST_DIR}/sentinel.cpp ${CMAKE_CURRENT_LIST_DIR}/sentinel.h
    ${CMAKE_CURRENT_LIST_DIR}/serverfeatures.cpp ${CMAKE_CURRENT_LIST_DIR}/serverfeatures.h
    ${CMAKE_CURRENT_LIST_DIR}/servertime.cpp ${CMAKE_CURRENT_LIST_DIR}/servertime.h
    ${CMAKE_CURRENT_LIST_DIR}/slot.cpp ${CMAKE_CURRENT_LIST_DIR}/slot.h
    ${CMAKE_CURRENT_LIST_DIR}/sshtunnel.cpp ${CMAKE_CURRENT_LIST_DIR}/sshtunnel.h
    ${CMAKE_CURRENT_LIST_DIR}/topology.cpp ${CMAKE_CURRENT_LIST_DIR}/topology.h)

# The transport under Connection: our own sockets, TLS through OpenSSL (docs/ARCHITECTURE.md
# "Transport"). hiredis is linked for its reply reader only.
find_package(OpenSSL 3 REQUIRED)
target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/stream.cpp ${CMAKE_CURRENT_LIST_DIR}/stream.h)
target_link_libraries(sluice_core PUBLIC OpenSSL::SSL OpenSSL::Crypto)
target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/subscriber.cpp ${CMAKE_CURRENT_LIST_DIR}/subscriber.h)
# SSH tunnels to Redis through a bastion (sshtunnel.*); no libssh type in any header.
pkg_check_modules(LIBSSH REQUIRED IMPORTED_TARGET libssh)
target_link_libraries(sluice_core PRIVATE PkgConfig::LIBSSH)
