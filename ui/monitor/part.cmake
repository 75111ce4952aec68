# The Monitor page (issue 6 item 2): live per-rule charts, limited subjects, top subjects.
sluice_ui_sources(limitedmodel limitedsubject monitorpage monitorsession monitorsnapshot.h
    monitorworker rulechart topsubjectsmodel)
