# The HTTP check service (app/serve, sluice-cli serve): status codes, headers, JSON, bad input,
# live rule reload, Redis stopped and restarted under it; and a real nginx fronting it.
sluice_test(serve REDIS LIBS sluice_service TIMEOUT 120)
add_dependencies(tst_serve sluice-cli)
sluice_test(serve_nginx REDIS LIBS sluice_service TIMEOUT 120)
add_dependencies(tst_serve_nginx sluice-cli)
# Hostile clients (body, header, connection, idle, pipelining limits) and failing Redis
# (READONLY, OOM, BUSY, a stall, refused credentials) on the test's own servers.
sluice_test(serve_hardening REDIS LIBS sluice_service TIMEOUT 120)
add_dependencies(tst_serve_hardening sluice-cli)
# The pure request parsing of the service (app/serve/httpparse.h: query, request-head screen).
sluice_test(httpparse LIBS sluice_httpparse)
