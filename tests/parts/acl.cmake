# Least privilege: one ACL user per feature on a redis-server of the test's own (no fixture).
sluice_test(acl TIMEOUT 120)
add_dependencies(tst_acl sluice-cli)
# The console under ACL users of a private redis-server: a statistics failure in the status bar,
# unreadable keys in the Keys page's banner, the profile's scan budget (screenshots
# consoleacl-*.png).
sluice_test(consoleacl LIBS sluice_pagesupport Qt6::Network TIMEOUT 180)
