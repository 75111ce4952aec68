# The Load page (issue 6 item 3): real decisions from a traffic pattern, live counters.
target_sources(sluice_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/loadpage.cpp ${CMAKE_CURRENT_LIST_DIR}/loadpage.h
    ${CMAKE_CURRENT_LIST_DIR}/loadsession.cpp ${CMAKE_CURRENT_LIST_DIR}/loadsession.h
    ${CMAKE_CURRENT_LIST_DIR}/keyscope.cpp ${CMAKE_CURRENT_LIST_DIR}/keyscope.h
    ${CMAKE_CURRENT_LIST_DIR}/loadaxis.h
)
