# Install layout (FHS) and the Debian package: `bash tools/dev.sh package` builds
# sluice_<version>_amd64.deb with cpack. Everything is relative to the prefix (/usr in the
# package), so that an installed console finds bin/../share/sluice wherever it is installed.
#
#   bin/sluice, bin/sluice-cli, bin/sluice-render (the chart renderer sluice-cli simulate
#     --png/--svg runs from its own folder, so that sluice-cli links no Qt Gui or Widgets)
#   share/sluice/lua/*.lua              the scripts, byte for byte as embedded in the binaries
#   share/sluice/samples/, scenarios/   rule files and the simulation presets
#   share/sluice/grafana/               the Grafana dashboard of serve's GET /metrics
#   share/sluice/translations/*.qm      the console's translations (ui/language.cpp reads them)
#   share/applications/, metainfo/, icons/hicolor/   desktop integration
#   share/man/man1/, bash-completion/completions/    generated from app/help
#   lib/systemd/system/sluice-serve@.service
#   share/doc/sluice/                   the user guide, the changelog, examples
set(SLUICE_HOMEPAGE "https://sluice.example.org" CACHE STRING
    "Project homepage for the AppStream metainfo (its screenshots are under /screenshots/)")
string(TIMESTAMP SLUICE_RELEASE_DATE "%Y-%m-%d" UTC)

install(TARGETS sluice sluice-cli sluice-render RUNTIME DESTINATION bin)

file(GLOB SLUICE_LUA_FILES ${PROJECT_SOURCE_DIR}/lua/*.lua)
install(FILES ${SLUICE_LUA_FILES} ${PROJECT_SOURCE_DIR}/lua/README.md DESTINATION share/sluice/lua)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/samples/ DESTINATION share/sluice/samples)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/scenarios/ DESTINATION share/sluice/scenarios)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/grafana/ DESTINATION share/sluice/grafana)
install(FILES ${PROJECT_BINARY_DIR}/ui/sluice_zh_CN.qm ${PROJECT_BINARY_DIR}/ui/sluice_en.qm
    DESTINATION share/sluice/translations)

set(SLUICE_APP_ID org.sluice.Sluice)
install(FILES ${PROJECT_SOURCE_DIR}/resources/desktop/${SLUICE_APP_ID}.desktop
    DESTINATION share/applications)
configure_file(${PROJECT_SOURCE_DIR}/resources/desktop/${SLUICE_APP_ID}.metainfo.xml.in
    ${PROJECT_BINARY_DIR}/share/${SLUICE_APP_ID}.metainfo.xml @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/share/${SLUICE_APP_ID}.metainfo.xml DESTINATION share/metainfo)
foreach(size 16 32 48 64 128 256)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/sluice-${size}.png
        DESTINATION share/icons/hicolor/${size}x${size}/apps RENAME ${SLUICE_APP_ID}.png)
endforeach()
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/sluice.svg
    DESTINATION share/icons/hicolor/scalable/apps RENAME ${SLUICE_APP_ID}.svg)

# Man pages, compressed as Debian wants them (gzip -n: no timestamp, reproducible).
find_program(GZIP_PROGRAM gzip REQUIRED)
foreach(page sluice-cli sluice)
    add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/share/man/${page}.1.gz
        COMMAND ${GZIP_PROGRAM} -9nc ${PROJECT_BINARY_DIR}/share/man/${page}.1
                > ${PROJECT_BINARY_DIR}/share/man/${page}.1.gz
        DEPENDS ${PROJECT_BINARY_DIR}/share/man/${page}.1)
    list(APPEND SLUICE_MAN_GZ ${PROJECT_BINARY_DIR}/share/man/${page}.1.gz)
endforeach()
add_custom_target(sluice_man_gz ALL DEPENDS ${SLUICE_MAN_GZ})
add_dependencies(sluice_man_gz sluice_docs)
install(FILES ${SLUICE_MAN_GZ} DESTINATION share/man/man1)
install(FILES ${PROJECT_BINARY_DIR}/share/completion/sluice-cli
    DESTINATION share/bash-completion/completions)

install(FILES ${PROJECT_SOURCE_DIR}/resources/systemd/sluice-serve@.service
    DESTINATION lib/systemd/system)
install(FILES ${PROJECT_SOURCE_DIR}/resources/systemd/sluice-serve.conf.example
    DESTINATION share/doc/sluice/examples)
# Debian wants a changelog in its own format as changelog.gz beside the copyright file; it
# points to CHANGELOG.md.
set(CPACK_PACKAGE_CONTACT "Sluice developers <sluice@example.org>")
string(TIMESTAMP SLUICE_CHANGELOG_DATE "%a, %d %b %Y 00:00:00 +0000" UTC)
configure_file(${PROJECT_SOURCE_DIR}/resources/debian/changelog.in
    ${PROJECT_BINARY_DIR}/share/changelog @ONLY)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/share/changelog.gz
    COMMAND ${GZIP_PROGRAM} -9nc ${PROJECT_BINARY_DIR}/share/changelog > ${PROJECT_BINARY_DIR}/share/changelog.gz
    DEPENDS ${PROJECT_BINARY_DIR}/share/changelog)
add_custom_target(sluice_changelog_gz ALL DEPENDS ${PROJECT_BINARY_DIR}/share/changelog.gz)
install(FILES ${PROJECT_SOURCE_DIR}/docs/USER-GUIDE.md ${PROJECT_SOURCE_DIR}/CHANGELOG.md
    ${PROJECT_BINARY_DIR}/share/changelog.gz ${PROJECT_SOURCE_DIR}/resources/debian/copyright
    DESTINATION share/doc/sluice)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/screenshots DESTINATION share/doc/sluice)

# The Debian package.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sluice)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "console, CLI and HTTP check service for Redis rate limits")
set(CPACK_PACKAGE_DESCRIPTION "Six atomic Lua limiter scripts for Redis (fixed window, \
sliding log,\nsliding counter, token bucket, leaky bucket, GCRA), a Qt desktop console to\n\
edit their rules and watch the live keys, a command line (sluice-cli) and an\n\
HTTP check service with a systemd unit (sluice-serve@.service).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # sluice_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION database)
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE ${SLUICE_HOMEPAGE})
# The libraries' packages, as dpkg-shlibdeps finds them; Qt's xcb and offscreen platform
# plugins come with libqt6gui6, which it finds too.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# The console's sandbox runs redis-server; bench compares with redis-benchmark; Qt's own
# dialogs in Chinese; a keyring to keep passwords across sessions.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "redis-server, qt6-translations-l10n")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "redis-tools, gnome-keyring | kwalletmanager, nginx")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA ${PROJECT_SOURCE_DIR}/resources/debian/postinst)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
include(CPack)
