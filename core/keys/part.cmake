# core/keys: its sources, registered on sluice_core (core/CMakeLists.txt includes every
# <folder>/part.cmake).
target_sources(sluice_core PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/audit.cpp ${CMAKE_CURRENT_LIST_DIR}/audit.h
    ${CMAKE_CURRENT_LIST_DIR}/clusterscan.cpp ${CMAKE_CURRENT_LIST_DIR}/clusterscan.h
    ${CMAKE_CURRENT_LIST_DIR}/changepreview.cpp ${CMAKE_CURRENT_LIST_DIR}/changepreview.h
    ${CMAKE_CURRENT_LIST_DIR}/keyfixer.cpp ${CMAKE_CURRENT_LIST_DIR}/keyfixer.h
    ${CMAKE_CURRENT_LIST_DIR}/keyhealth.cpp ${CMAKE_CURRENT_LIST_DIR}/keyhealth.h
    ${CMAKE_CURRENT_LIST_DIR}/keyinfo.cpp ${CMAKE_CURRENT_LIST_DIR}/keyinfo.h
    ${CMAKE_CURRENT_LIST_DIR}/keyreader.cpp ${CMAKE_CURRENT_LIST_DIR}/keyreader.h
    ${CMAKE_CURRENT_LIST_DIR}/keyreader_p.h ${CMAKE_CURRENT_LIST_DIR}/keyreview.cpp
    ${CMAKE_CURRENT_LIST_DIR}/keyscanner.cpp ${CMAKE_CURRENT_LIST_DIR}/keyscanner.h
    ${CMAKE_CURRENT_LIST_DIR}/keyscanner_p.h
    ${CMAKE_CURRENT_LIST_DIR}/layouts.cpp ${CMAKE_CURRENT_LIST_DIR}/layouts.h
    ${CMAKE_CURRENT_LIST_DIR}/layouts_p.h ${CMAKE_CURRENT_LIST_DIR}/layoutwords.cpp
    ${CMAKE_CURRENT_LIST_DIR}/layouttable.cpp
    ${CMAKE_CURRENT_LIST_DIR}/keysworker.cpp ${CMAKE_CURRENT_LIST_DIR}/keysworker.h
    ${CMAKE_CURRENT_LIST_DIR}/keywatcher.cpp ${CMAKE_CURRENT_LIST_DIR}/keywatcher.h
    ${CMAKE_CURRENT_LIST_DIR}/statedecoder.cpp ${CMAKE_CURRENT_LIST_DIR}/statedecoder.h
    ${CMAKE_CURRENT_LIST_DIR}/valuereads.cpp ${CMAKE_CURRENT_LIST_DIR}/valuereads.h)
