# Shipping: serve under systemd (readiness, SIGHUP reload), the help that --help,
# the man pages and the completion share, versions, the console without a display.
sluice_test(serve_sighup REDIS LIBS Qt6::Network TIMEOUT 60)
add_dependencies(tst_serve_sighup sluice-cli)
sluice_test(manpage LIBS sluice_help sluice_ui TIMEOUT 120)
add_dependencies(tst_manpage sluice-cli sluice-console sluice_docs)
target_compile_definitions(tst_manpage PRIVATE SLUICE_BINARY_DIR="${PROJECT_BINARY_DIR}"
    SLUICE_CONSOLE="$<TARGET_FILE:sluice-console>")
# The desktop entry, the metainfo, the systemd unit and the completion, by their own validators.
add_test(NAME shipping_files
    COMMAND bash ${PROJECT_SOURCE_DIR}/tests/check-shipping.sh ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
