# sluice-cli serve: the HTTP check service (issue 6 item 4). The service is a static library of
# its own (app/serve/) because it needs Qt Network and Qt HTTP Server, which core must not link;
# sluice-cli and the tests link it. GLOBAL: the tests directory links the imported target too.
find_package(Qt6 6.4 REQUIRED COMPONENTS Network HttpServer GLOBAL)

add_library(sluice_service STATIC
    ${CMAKE_CURRENT_LIST_DIR}/../serve/checkservice.cpp ${CMAKE_CURRENT_LIST_DIR}/../serve/checkservice.h
    ${CMAKE_CURRENT_LIST_DIR}/../serve/decisionpool.cpp ${CMAKE_CURRENT_LIST_DIR}/../serve/decisionpool.h
    ${CMAKE_CURRENT_LIST_DIR}/../serve/ruletable.cpp ${CMAKE_CURRENT_LIST_DIR}/../serve/ruletable.h
    ${CMAKE_CURRENT_LIST_DIR}/../serve/guardedtcpserver.cpp ${CMAKE_CURRENT_LIST_DIR}/../serve/guardedtcpserver.h
    ${CMAKE_CURRENT_LIST_DIR}/../serve/guardedsocket.cpp ${CMAKE_CURRENT_LIST_DIR}/../serve/guardedsocket.h
    ${CMAKE_CURRENT_LIST_DIR}/../serve/httpreply.cpp ${CMAKE_CURRENT_LIST_DIR}/../serve/httpreply.h
)
target_include_directories(sluice_service PUBLIC ${CMAKE_CURRENT_LIST_DIR}/..)
target_link_libraries(sluice_service PUBLIC sluice_core Qt6::Network Qt6::HttpServer)

target_sources(sluice-cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/serve.cpp ${CMAKE_CURRENT_LIST_DIR}/serve.h)
target_link_libraries(sluice-cli PRIVATE sluice_service)
