# The Monitor page (issue 6 item 2): live per-rule charts, limited subjects, top subjects.
target_sources(sluice_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/limitedmodel.cpp ${CMAKE_CURRENT_LIST_DIR}/limitedmodel.h
    ${CMAKE_CURRENT_LIST_DIR}/limitedsubject.cpp ${CMAKE_CURRENT_LIST_DIR}/limitedsubject.h
    ${CMAKE_CURRENT_LIST_DIR}/monitorpage.cpp ${CMAKE_CURRENT_LIST_DIR}/monitorpage.h
    ${CMAKE_CURRENT_LIST_DIR}/monitorsession.cpp ${CMAKE_CURRENT_LIST_DIR}/monitorsession.h
    ${CMAKE_CURRENT_LIST_DIR}/monitorsnapshot.h
    ${CMAKE_CURRENT_LIST_DIR}/monitorworker.cpp ${CMAKE_CURRENT_LIST_DIR}/monitorworker.h
    ${CMAKE_CURRENT_LIST_DIR}/rulechart.cpp ${CMAKE_CURRENT_LIST_DIR}/rulechart.h
    ${CMAKE_CURRENT_LIST_DIR}/topsubjectsmodel.cpp ${CMAKE_CURRENT_LIST_DIR}/topsubjectsmodel.h
)
