# core/sim: its sources on sluice_core (core/CMakeLists.txt includes every
# <folder>/part.cmake).
sluice_core_sources(
    foreigncounter metrics redisrun resultfile scenario simulator trafficpattern)
