# The Connection page and the connection the whole console shares: profiles (their store and
# form), the controller and its worker, the status, the sandbox, the server and cluster panels.
sluice_ui_sources(connectioncontroller clusterpanel clusternodes connectionpage connectionsession
    connectionprofile.h profiledraft profileform connectionstate connectionstatus
    connectionswitcher connectionworker profilestore sandbox serverpanel)
