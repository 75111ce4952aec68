# core/common: its sources on sluice_core (core/CMakeLists.txt includes every
# <folder>/part.cmake).
sluice_core_sources(
    clock bytes bytewriter duration glob network plural readfile result)
