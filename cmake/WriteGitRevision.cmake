# Run at build time (cmake -P): writes git_revision.cpp only when the revision changed, so a
# new commit is recorded in timing captures without rebuilding anything else.
execute_process(COMMAND git describe --always --dirty --abbrev=12
                WORKING_DIRECTORY ${SOURCE_DIR}
                OUTPUT_VARIABLE MENISCUS_GIT_REVISION
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
if(NOT MENISCUS_GIT_REVISION)
  set(MENISCUS_GIT_REVISION "unknown")
endif()
configure_file(${INPUT} ${OUTPUT} @ONLY)
