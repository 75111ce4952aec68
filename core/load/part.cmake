# Load generator: real decisions in real time over a simulation lab pattern.
target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/loadgenerator.cpp ${CMAKE_CURRENT_LIST_DIR}/loadgenerator.h
)
