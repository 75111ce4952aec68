# The check service in its ecosystem: GET /metrics (Prometheus, OpenMetrics, envoy ratelimit's
# names) scraped from real serve processes, the JSON log, and envoy ratelimit's configuration.
sluice_test(serve_ecosystem REDIS LIBS sluice_service Qt6::Network TIMEOUT 120)
add_dependencies(tst_serve_ecosystem sluice-cli)
