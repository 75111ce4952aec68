# Least privilege: one ACL user per feature on a redis-server of the test's own (no fixture).
sluice_test(acl TIMEOUT 120)
add_dependencies(tst_acl sluice-cli)
