# The tests of serve --grpc: real serve processes called with a grpc++ client generated from the
# service's own .proto files. Built without gRPC support, each checks what it can (the flag
# says so) and skips the rest.
function(sluice_grpc_test name)
    sluice_test(${name} LIBS Qt6::Network ${ARGN})
    add_dependencies(tst_${name} sluice-cli)
    if(TARGET sluice_proto)
        target_link_libraries(tst_${name} PRIVATE sluice_proto)
        target_compile_definitions(tst_${name} PRIVATE SLUICE_WITH_GRPC=1)
    endif()
endfunction()

# Envoy's rate limit service API and POST /json, end to end.
sluice_grpc_test(serve_grpc TIMEOUT 180)
# Hostile clients (tests/grpc_hostile.py: python3-h2, python3-grpcio): connection, stream,
# reset, message and override limits, out of file descriptors.
sluice_grpc_test(grpc_hostile TIMEOUT 120)

# The gRPC port's allocator for libnghttp2: blocks, realloc, calloc, reuse, its bounded cache.
if(TARGET sluice_grpc)
    sluice_test(grpc_alloc LIBS sluice_grpc PkgConfig::NGHTTP2 TIMEOUT 30)
endif()

# GET /v1/check, gRPC and POST /json answer alike (one admission step): the service in process,
# a grpc++ client and plain HTTP over sockets, every algorithm with overrides, shadow, a staged
# candidate. Only with gRPC support.
if(TARGET sluice_grpc)
    sluice_test(frontends_agree REDIS LIBS sluice_grpc sluice_proto TIMEOUT 120)
endif()

# The port's wire shortcuts against protobuf: WireRequest reads what the generated parser reads
# (or declines), isUtf8 accepts what it accepts, encodeAnswer writes what its serializer writes.
if(TARGET sluice_grpc)
    sluice_test(grpcwire LIBS sluice_grpc sluice_proto TIMEOUT 30)
endif()
