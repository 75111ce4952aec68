#The Load page(issue 6 item 3) : real decisions from a traffic pattern, live counters.
sluice_ui_sources(loadpage loadsession keyscope loadaxis.h)
