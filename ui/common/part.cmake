# The page kit shared by every page: tones, the page header, the message banner, the worker
# thread, the confirm hook, the write gate and the statistics watch.
target_sources(sluice_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/tone.h
    ${CMAKE_CURRENT_LIST_DIR}/confirm.h
    ${CMAKE_CURRENT_LIST_DIR}/filedialog.h
    ${CMAKE_CURRENT_LIST_DIR}/workerthread.h
    ${CMAKE_CURRENT_LIST_DIR}/pageheader.cpp ${CMAKE_CURRENT_LIST_DIR}/pageheader.h
    ${CMAKE_CURRENT_LIST_DIR}/messagebanner.cpp ${CMAKE_CURRENT_LIST_DIR}/messagebanner.h
    ${CMAKE_CURRENT_LIST_DIR}/fieldform.cpp ${CMAKE_CURRENT_LIST_DIR}/fieldform.h
    ${CMAKE_CURRENT_LIST_DIR}/patterndraft.cpp ${CMAKE_CURRENT_LIST_DIR}/patterndraft.h
    ${CMAKE_CURRENT_LIST_DIR}/patternform.cpp ${CMAKE_CURRENT_LIST_DIR}/patternform.h
    ${CMAKE_CURRENT_LIST_DIR}/writegate.cpp ${CMAKE_CURRENT_LIST_DIR}/writegate.h
    ${CMAKE_CURRENT_LIST_DIR}/statswatch.cpp ${CMAKE_CURRENT_LIST_DIR}/statswatch.h
)
