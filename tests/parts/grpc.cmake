# serve --grpc (Envoy's rate limit service API) and POST /json, end to end with a grpc++ client
# generated from the service's own .proto files. Built without gRPC support, the test checks
# that the flag says so and skips the rest.
sluice_test(serve_grpc LIBS Qt6::Network TIMEOUT 180)
add_dependencies(tst_serve_grpc sluice-cli)
if(TARGET sluice_proto)
    target_link_libraries(tst_serve_grpc PRIVATE sluice_proto)
    target_compile_definitions(tst_serve_grpc PRIVATE SLUICE_WITH_GRPC=1)
endif()
