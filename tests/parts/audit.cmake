# Issue 14: the limiter keys other libraries wrote (core/keys/layouts.*, audit.*, `keys audit`,
# `keys fix --ttl`). tst_layouts installs rate-limiter-flexible and rate-limit-redis from npm
# into the build directory when they are not there yet (skipped when npm cannot reach them).
sluice_test(layouts REDIS)
add_dependencies(tst_layouts sluice-cli)
target_compile_definitions(tst_layouts PRIVATE SLUICE_BUILD_DIR="${PROJECT_BINARY_DIR}")
