# The Load page: real decisions from a traffic pattern, live counters.
sluice_ui_sources(loadpage loadsession keyscope loadaxis.h)
