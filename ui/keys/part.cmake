# The Keys page (CONSOLE.md "Keys"): the limiter keys of the session's Redis, scanned and
# refreshed by a core KeysWorker on its own thread, their health and the fixes.
sluice_ui_sources(keypresentation keysmodel keysfilterproxy ttldelegate sparkline keydetails
    healthbanner auditsession auditpanel keycolumn keyspage keyspageview.cpp keyssession scanstate
    keystree)
