# Statistics and the load generator.
sluice_test(stats REDIS LIBS Qt6::Network TIMEOUT 60)
sluice_test(loadgen REDIS TIMEOUT 60)
sluice_test(cli_load REDIS TIMEOUT 90)
add_dependencies(tst_cli_load sluice-cli)
