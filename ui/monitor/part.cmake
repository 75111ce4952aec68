# The Monitor page: live per-rule charts, limited subjects, top subjects.
sluice_ui_sources(blockdialog limitedmodel limitedsubject monitorpage monitorpageactions.cpp
    monitorsession monitorsnapshot.h monitorworker rulechart rulechartdialog topsubjectsmodel foreignwatchmodel
    foreignwatchpanel foreignwatchworker)
