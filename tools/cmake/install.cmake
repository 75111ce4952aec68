# Install layout (FHS) and the Debian package: `bash tools/dev.sh package` builds
# sluice-redis_<version>_amd64.deb with cpack. Everything is relative to the prefix (/usr in the
# package), so that an installed console finds bin/../share/sluice wherever it is installed.
#
# Debian 12 has a package named sluice (a rate-limiting pipe tool: /usr/bin/sluice, sluice.1,
# /usr/share/doc/sluice/, a completion named sluice), whose version 0.02.15 dpkg orders above
# ours: the package is sluice-redis, the console sluice-console, and no path below is one a
# Debian 12 package ships (apt-file search), so that both install side by side and apt never
# takes ours for an older version of theirs.
#
#   bin/sluice-console, bin/sluice-cli, bin/sluice-render (the chart renderer sluice-cli simulate
#     --png/--svg runs from its own folder, so that sluice-cli links no Qt Gui or Widgets)
#   share/sluice/lua/*.lua              the scripts, byte for byte as embedded in the binaries
#   share/sluice/samples/, scenarios/   rule files and the simulation presets
#   share/sluice/grafana/               the Grafana dashboard of serve's GET /metrics
#   share/sluice/translations/*.qm      the console's translations (ui/language.cpp reads them)
#   share/applications/, metainfo/, icons/hicolor/   desktop integration
#   share/man/man1/, bash-completion/completions/    generated from app/help
#   lib/systemd/system/sluice-serve@.service
#   share/doc/sluice-redis/             the user guide, the changelog, examples
set(SLUICE_HOMEPAGE "https://sluice.example.org" CACHE STRING
    "Project homepage for the AppStream metainfo (its screenshots are under /screenshots/)")
string(TIMESTAMP SLUICE_RELEASE_DATE "%Y-%m-%d" UTC)
# The package version: the project's (CMakeLists.txt project(VERSION): the release being made,
# bumped after each) for a commit tagged v<version>; otherwise <version>~git<commit time, UTC>.
# <hash>, a build on the way to that release: dpkg orders it after the release before and the
# builds of earlier commits, and before the release itself.
# SLUICE_PACKAGE_VERSION in the environment overrides it (a source tarball has no git).
set(SLUICE_PACKAGE_VERSION "$ENV{SLUICE_PACKAGE_VERSION}")
if(SLUICE_PACKAGE_VERSION STREQUAL "")
    set(SLUICE_PACKAGE_VERSION ${PROJECT_VERSION})
    execute_process(COMMAND git -C ${PROJECT_SOURCE_DIR} tag --points-at HEAD
        OUTPUT_VARIABLE tags OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
    execute_process(COMMAND ${CMAKE_COMMAND} -E env TZ=UTC git -C ${PROJECT_SOURCE_DIR} log -1
                            --date=format-local:%Y%m%d%H%M%S --format=%cd.%h
        OUTPUT_VARIABLE stamp OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    string(REPLACE "\n" ";" tags "${tags}")
    if(rc EQUAL 0 AND NOT "v${PROJECT_VERSION}" IN_LIST tags AND NOT stamp STREQUAL "")
        set(SLUICE_PACKAGE_VERSION "${PROJECT_VERSION}~git${stamp}")
    endif()
endif()

install(TARGETS sluice-console sluice-cli sluice-render RUNTIME DESTINATION bin)

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
foreach(page sluice-cli sluice-console)
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
    DESTINATION share/doc/sluice-redis/examples)
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
    DESTINATION share/doc/sluice-redis)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/screenshots DESTINATION share/doc/sluice-redis)

# The Debian package.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sluice-redis)
set(CPACK_PACKAGE_VERSION ${SLUICE_PACKAGE_VERSION})
# Our own package was named sluice up to 0.1.0: its files are ours now. Versioned below 0.1.1~
# so that Debian's sluice (0.02.15-1, above it) is never matched: both stay installable.
set(CPACK_DEBIAN_PACKAGE_REPLACES "sluice (<< 0.1.1~)")
set(CPACK_DEBIAN_PACKAGE_BREAKS "sluice (<< 0.1.1~)")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "console, CLI and HTTP check service for Redis rate limits")
set(CPACK_PACKAGE_DESCRIPTION "Six atomic Lua limiter scripts for Redis (fixed window, \
sliding log,\nsliding counter, token bucket, leaky bucket, GCRA), a Qt desktop console to\n\
edit their rules and watch the live keys, a command line (sluice-cli) and an\n\
HTTP check service with a systemd unit (sluice-serve@.service).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # sluice-redis_<version>_<arch>.deb
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
