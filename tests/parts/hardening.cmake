# Hardening: foreign state in Redis, bounded parsers.
sluice_test(foreignstate REDIS)

# The override store past its bounds, a rule store that does not read, the envoy reader's
# input and messages, control bytes in what is printed (own redis-servers).
sluice_test(hardening3 TIMEOUT 240)
