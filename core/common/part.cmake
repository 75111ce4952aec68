# core/common: its sources on sluice_core (core/CMakeLists.txt includes every
# <folder>/part.cmake).
sluice_core_sources(
    clock bytes bytewriter duration glob names network plural readfile result)
