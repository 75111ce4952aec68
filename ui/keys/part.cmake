# The Keys page (CONSOLE.md "Keys"): the limiter keys of the session's Redis, scanned and
# refreshed by a core KeysWorker on its own thread, their health and the fixes.
target_sources(sluice_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/keypresentation.cpp ${CMAKE_CURRENT_LIST_DIR}/keypresentation.h
    ${CMAKE_CURRENT_LIST_DIR}/keysmodel.cpp ${CMAKE_CURRENT_LIST_DIR}/keysmodel.h
    ${CMAKE_CURRENT_LIST_DIR}/keysfilterproxy.cpp ${CMAKE_CURRENT_LIST_DIR}/keysfilterproxy.h
    ${CMAKE_CURRENT_LIST_DIR}/ttldelegate.cpp ${CMAKE_CURRENT_LIST_DIR}/ttldelegate.h
    ${CMAKE_CURRENT_LIST_DIR}/sparkline.cpp ${CMAKE_CURRENT_LIST_DIR}/sparkline.h
    ${CMAKE_CURRENT_LIST_DIR}/keydetails.cpp ${CMAKE_CURRENT_LIST_DIR}/keydetails.h
    ${CMAKE_CURRENT_LIST_DIR}/healthbanner.cpp ${CMAKE_CURRENT_LIST_DIR}/healthbanner.h
    ${CMAKE_CURRENT_LIST_DIR}/auditsession.cpp ${CMAKE_CURRENT_LIST_DIR}/auditsession.h
    ${CMAKE_CURRENT_LIST_DIR}/auditpanel.cpp ${CMAKE_CURRENT_LIST_DIR}/auditpanel.h
    ${CMAKE_CURRENT_LIST_DIR}/keycolumn.cpp ${CMAKE_CURRENT_LIST_DIR}/keycolumn.h
    ${CMAKE_CURRENT_LIST_DIR}/keyspage.cpp ${CMAKE_CURRENT_LIST_DIR}/keyspage.h
    ${CMAKE_CURRENT_LIST_DIR}/keyssession.cpp ${CMAKE_CURRENT_LIST_DIR}/keyssession.h
    ${CMAKE_CURRENT_LIST_DIR}/scanstate.cpp ${CMAKE_CURRENT_LIST_DIR}/scanstate.h
    ${CMAKE_CURRENT_LIST_DIR}/keystree.cpp ${CMAKE_CURRENT_LIST_DIR}/keystree.h
)
