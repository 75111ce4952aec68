# The Monitor page: live per-rule charts, limited subjects, top subjects.
sluice_ui_sources(limitedmodel limitedsubject monitorpage monitorsession monitorsnapshot.h
    monitorworker rulechart topsubjectsmodel foreignwatchmodel foreignwatchpanel
    foreignwatchworker)
