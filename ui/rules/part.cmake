# The Rules page (CONSOLE.md "Rules"): the rule table and its editor, import / export, and the
# push / pull of the Redis rule store through a worker thread.
sluice_ui_sources(rulesmodel rulefields ruleeditor rulepreview rulediffdialog historydialog
    rulesworker rulessession rulespage)
