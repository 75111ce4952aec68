# sluice-cli serve: the command over the service library (app/serve/CMakeLists.txt).
target_sources(sluice-cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/serve.cpp ${CMAKE_CURRENT_LIST_DIR}/serve.h
    ${CMAKE_CURRENT_LIST_DIR}/servetls.cpp ${CMAKE_CURRENT_LIST_DIR}/servetls.h)
target_link_libraries(sluice-cli PRIVATE sluice_service)
# Readiness and reload for systemd (Type=notify, resources/systemd/sluice-serve@.service).
target_sources(sluice-cli PRIVATE ${CMAKE_CURRENT_LIST_DIR}/sdnotify.cpp ${CMAKE_CURRENT_LIST_DIR}/sdnotify.h)
# serve --grpc and POST /json: only when app/serve found grpc++ (else they say they are missing).
if(TARGET sluice_grpc)
    target_link_libraries(sluice-cli PRIVATE sluice_grpc)
    target_compile_definitions(sluice-cli PRIVATE SLUICE_WITH_GRPC=1)
endif()
