# core/rules: its sources on sluice_core (core/CMakeLists.txt includes every
# <folder>/part.cmake).
sluice_core_sources(
    adoption codec codecinternal codecread codecwriter codecyaml diagnostics envoyformat
    exporter exportsteps export_envoy export_kong export_nginx jsonlocator keymap override
    overridematcher overridestore rule rulediff rulestore rulestore_p rulestoresteps
    rulehistory rulestage rulewatcher validate)
