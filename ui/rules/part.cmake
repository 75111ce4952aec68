# The Rules page (CONSOLE.md "Rules"): the rule table and its editor, import / export, and the
# push / pull of the Redis rule store through a worker thread.
sluice_ui_sources(rulesmodel rulefields ruleeditor rulepreview rulediffdialog historydialog
    exportdialog rulesworker rulesfile rulessession overridesmodel overridespanel stagebanner
    addoverridedialog rulespage rulespagefile.cpp rulespageredis.cpp rulessessionredis.cpp
    rulessessionoverrides.cpp)
# The import dialog's first folder in a build tree (an installed console finds share/sluice).
set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/rulespagefile.cpp PROPERTIES
    COMPILE_DEFINITIONS SLUICE_SOURCE_SAMPLES="${PROJECT_SOURCE_DIR}/resources/samples")
