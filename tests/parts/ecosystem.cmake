# The check service in its ecosystem: GET /metrics (Prometheus, OpenMetrics, envoy ratelimit's
# names) scraped from real serve processes, the JSON log, and envoy ratelimit's configuration.
sluice_test(serve_ecosystem REDIS LIBS sluice_service Qt6::Network TIMEOUT 120)
add_dependencies(tst_serve_ecosystem sluice-cli)
# envoy ratelimit's YAML into Sluice rules (core/rules/envoyformat.h), `rules import`, and the
# Envoy export read back.
sluice_test(envoy_import LIBS sluice_service TIMEOUT 60)
add_dependencies(tst_envoy_import sluice-cli)
