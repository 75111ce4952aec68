# ui/connection: its sources, registered on sluice_ui (ui/CMakeLists.txt includes every
# <folder>/part.cmake).
target_sources(sluice_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/connectioncontroller.cpp ${CMAKE_CURRENT_LIST_DIR}/connectioncontroller.h
    ${CMAKE_CURRENT_LIST_DIR}/clusterpanel.cpp ${CMAKE_CURRENT_LIST_DIR}/clusterpanel.h
    ${CMAKE_CURRENT_LIST_DIR}/clusternodes.cpp ${CMAKE_CURRENT_LIST_DIR}/clusternodes.h
    ${CMAKE_CURRENT_LIST_DIR}/connectionpage.cpp ${CMAKE_CURRENT_LIST_DIR}/connectionpage.h
    ${CMAKE_CURRENT_LIST_DIR}/connectionsession.cpp ${CMAKE_CURRENT_LIST_DIR}/connectionsession.h
    ${CMAKE_CURRENT_LIST_DIR}/connectionprofile.h
    ${CMAKE_CURRENT_LIST_DIR}/profiledraft.cpp ${CMAKE_CURRENT_LIST_DIR}/profiledraft.h
    ${CMAKE_CURRENT_LIST_DIR}/profileform.cpp ${CMAKE_CURRENT_LIST_DIR}/profileform.h
    ${CMAKE_CURRENT_LIST_DIR}/connectionstate.cpp ${CMAKE_CURRENT_LIST_DIR}/connectionstate.h
    ${CMAKE_CURRENT_LIST_DIR}/connectionstatus.cpp ${CMAKE_CURRENT_LIST_DIR}/connectionstatus.h
    ${CMAKE_CURRENT_LIST_DIR}/connectionswitcher.cpp ${CMAKE_CURRENT_LIST_DIR}/connectionswitcher.h
    ${CMAKE_CURRENT_LIST_DIR}/connectionworker.cpp ${CMAKE_CURRENT_LIST_DIR}/connectionworker.h
    ${CMAKE_CURRENT_LIST_DIR}/profilestore.cpp ${CMAKE_CURRENT_LIST_DIR}/profilestore.h
    ${CMAKE_CURRENT_LIST_DIR}/sandbox.cpp ${CMAKE_CURRENT_LIST_DIR}/sandbox.h
    ${CMAKE_CURRENT_LIST_DIR}/serverpanel.cpp ${CMAKE_CURRENT_LIST_DIR}/serverpanel.h)
