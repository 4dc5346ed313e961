# Writes OUT with the checkout's `git describe`, only when it changed, so that a build after a
# commit recompiles one small file and a build without git still works ("unknown").
execute_process(COMMAND git describe --tags --always --dirty
                WORKING_DIRECTORY "${SOURCE_DIR}"
                OUTPUT_VARIABLE describe OUTPUT_STRIP_TRAILING_WHITESPACE
                RESULT_VARIABLE failed ERROR_QUIET)
if(failed OR describe STREQUAL "")
  set(describe "unknown")
endif()
set(text "#define ARBITER_GIT_DESCRIBE \"${describe}\"\n")
if(EXISTS "${OUT}")
  file(READ "${OUT}" old)
endif()
if(NOT "${old}" STREQUAL "${text}")
  file(WRITE "${OUT}" "${text}")
endif()
