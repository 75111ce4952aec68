# core/limiter: its sources on sluice_core (core/CMakeLists.txt includes every
# <folder>/part.cmake).
sluice_core_sources(
    decision decisionjson headers limiter localmodel model model_p model_buckets model_migrate
    model_windows policy redislimiter scratchrun)
