# The console's Rules page, driven offscreen against the fixture's Redis.
sluice_test(rulespage REDIS LIBS sluice_ui Qt6::Network)
