# Per-rule statistics: recorder, flusher, reader, recording limiter, a stage beside its rules.
sluice_core_sources(
    stats statsrecorder statsflusher statsreader recordinglimiter stagecompare)
