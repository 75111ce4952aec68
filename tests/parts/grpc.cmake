# serve --grpc (Envoy's rate limit service API) and POST /json, end to end with a grpc++ client
# generated from the service's own .proto files. Built without gRPC support, the test checks
# that the flag says so and skips the rest.
sluice_test(serve_grpc LIBS Qt6::Network TIMEOUT 180)
add_dependencies(tst_serve_grpc sluice-cli)
if(TARGET sluice_proto)
    target_link_libraries(tst_serve_grpc PRIVATE sluice_proto)
    target_compile_definitions(tst_serve_grpc PRIVATE SLUICE_WITH_GRPC=1)
endif()

# GET /v1/check, gRPC and POST /json answer alike (one admission step): the service in process,
# a grpc++ client and plain HTTP over sockets, every algorithm with overrides, shadow, a staged
# candidate. Only with gRPC support.
if(TARGET sluice_grpc)
    sluice_test(frontends_agree REDIS LIBS sluice_grpc sluice_proto TIMEOUT 120)
endif()
