# Run at every build (cmake -P): writes OUT with the git revision of SOURCE_DIR, only when it
# changed, so that a new commit rebuilds version.cpp and nothing else. Outside a git checkout
# (a source tarball) the revision is SLUICE_GIT_REVISION from the environment, else "unknown".
set(revision "$ENV{SLUICE_GIT_REVISION}")
if(revision STREQUAL "")
    execute_process(COMMAND git -C "${SOURCE_DIR}" describe --always --dirty --abbrev=12
        OUTPUT_VARIABLE revision OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0 OR revision STREQUAL "")
        set(revision "unknown")
    endif()
endif()
set(text "#pragma once\n#define SLUICE_GIT_REVISION \"${revision}\"\n")
if(EXISTS "${OUT}")
    file(READ "${OUT}" old)
    if(old STREQUAL text)
        return()
    endif()
endif()
file(WRITE "${OUT}" "${text}")
