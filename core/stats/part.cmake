# Per-rule statistics: recorder, flusher, reader, recording limiter, a stage beside its rules.
target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/stats.cpp ${CMAKE_CURRENT_LIST_DIR}/stats.h
    ${CMAKE_CURRENT_LIST_DIR}/statsrecorder.cpp ${CMAKE_CURRENT_LIST_DIR}/statsrecorder.h
    ${CMAKE_CURRENT_LIST_DIR}/statsflusher.cpp ${CMAKE_CURRENT_LIST_DIR}/statsflusher.h
    ${CMAKE_CURRENT_LIST_DIR}/statsreader.cpp ${CMAKE_CURRENT_LIST_DIR}/statsreader.h
    ${CMAKE_CURRENT_LIST_DIR}/recordinglimiter.cpp ${CMAKE_CURRENT_LIST_DIR}/recordinglimiter.h
    ${CMAKE_CURRENT_LIST_DIR}/stagecompare.cpp ${CMAKE_CURRENT_LIST_DIR}/stagecompare.h
)
