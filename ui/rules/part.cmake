# The Rules page (CONSOLE.md "Rules"): the rule table and its editor, import / export, and the
# push / pull of the Redis rule store through a worker thread.
target_sources(sluice_ui PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/rulesmodel.cpp ${CMAKE_CURRENT_LIST_DIR}/rulesmodel.h
    ${CMAKE_CURRENT_LIST_DIR}/ruleeditor.cpp ${CMAKE_CURRENT_LIST_DIR}/ruleeditor.h
    ${CMAKE_CURRENT_LIST_DIR}/rulepreview.cpp ${CMAKE_CURRENT_LIST_DIR}/rulepreview.h
    ${CMAKE_CURRENT_LIST_DIR}/rulediff.cpp ${CMAKE_CURRENT_LIST_DIR}/rulediff.h
    ${CMAKE_CURRENT_LIST_DIR}/rulediffdialog.cpp ${CMAKE_CURRENT_LIST_DIR}/rulediffdialog.h
    ${CMAKE_CURRENT_LIST_DIR}/rulesworker.cpp ${CMAKE_CURRENT_LIST_DIR}/rulesworker.h
    ${CMAKE_CURRENT_LIST_DIR}/rulessession.cpp ${CMAKE_CURRENT_LIST_DIR}/rulessession.h
    ${CMAKE_CURRENT_LIST_DIR}/rulespage.cpp ${CMAKE_CURRENT_LIST_DIR}/rulespage.h
)
