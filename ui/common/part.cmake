# The page kit shared by every page: tones, the page header, the message banner, the worker
# thread and the confirm hook.
target_sources(sluice_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/tone.h
    ${CMAKE_CURRENT_LIST_DIR}/confirm.h
    ${CMAKE_CURRENT_LIST_DIR}/workerthread.h
    ${CMAKE_CURRENT_LIST_DIR}/pageheader.cpp ${CMAKE_CURRENT_LIST_DIR}/pageheader.h
    ${CMAKE_CURRENT_LIST_DIR}/messagebanner.cpp ${CMAKE_CURRENT_LIST_DIR}/messagebanner.h
)
