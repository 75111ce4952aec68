# The limiter keys other libraries wrote (core/keys/layouts.*, layouttable.cpp, audit.*,
# `keys audit`, `keys fix --ttl`): a row per layout planted from its library's source.
sluice_test(layouts REDIS)
add_dependencies(tst_layouts sluice-cli)
# `keys audit` on 1,000,000 keys and `keys fix --ttl/--delete` on a private redis-server.
sluice_test(cli_audit TIMEOUT 600)
add_dependencies(tst_cli_audit sluice-cli)
# The Keys page's audit mode controller (ui/keys/auditsession.h), without widgets.
sluice_test(auditsession LIBS sluice_ui Qt6::Network)
# The audit mode's widget, offscreen (SLUICE_SHOTS_DIR=DIR saves its screenshots).
sluice_test(auditpanel LIBS sluice_pagesupport Qt6::Network)
# Other libraries' keys written by the real thing (npm: rate-limiter-flexible, rate-limit-redis,
# @fastify/rate-limit, @nestjs/throttler's Redis storage, driven by tests/real-limiters.js;
# installed into the build directory at test time, skipped with the reason when npm cannot),
# Spring Cloud Gateway's and Kong's scripts EVALed: what a lost TTL does, checked.
sluice_test(real_limiters REDIS)
add_dependencies(tst_real_limiters sluice-cli)
target_compile_definitions(tst_real_limiters PRIVATE SLUICE_BUILD_DIR="${PROJECT_BINARY_DIR}")
# The key watcher's arithmetic (`keys top`, the Monitor's other limiters), without Redis.
sluice_test(keywatcher)
# Other libraries' keys written by the real thing from Debian's archive (ruby-rack-attack,
# python3-limits, php-laravel-framework; tools/dev.sh installs them), driven by
# tests/debian-*.{rb,py,php}: what a lost TTL does, checked. A missing package fails, by name.
sluice_test(debian_limiters REDIS)
add_dependencies(tst_debian_limiters sluice-cli)
