# Hardening: foreign state in Redis, bounded parsers.
sluice_test(foreignstate REDIS)
