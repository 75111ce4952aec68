# The console never loses or silently changes work: the mouse wheel over the forms, File > Save
# and Save as… (the file changed on disk, read-only, gone, YAML comments), and the question
# asked before unsaved rules are left (quit, another server, another file). No Redis.
sluice_test(consoleforms LIBS sluice_pagesupport Qt6::Network)
# The window never grows and always lands on a screen (every page with its longest texts, in
# English and Chinese; saved geometry larger than the screen or from a monitor that is gone;
# settings of a newer console), and every text is readable in both themes (WCAG AA contrast
# measured on the drawn pixels).
sluice_test(windowfit LIBS sluice_pagesupport Qt6::Network)
