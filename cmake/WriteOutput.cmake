# Runs `ENGRAM ARGS` and writes what it prints to OUTPUT, gzipped when GZIP
# is set; a failure fails the build. Run by cmake/Docs.cmake with -P.
separate_arguments(args UNIX_COMMAND "${ARGS}")
execute_process(COMMAND "${ENGRAM}" ${args} OUTPUT_FILE "${OUTPUT}.tmp"
  ERROR_VARIABLE error RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "engram ${ARGS} failed (${status}): ${error}")
endif()
if(GZIP)
  # -n: no name or time in the header, so the same page gives the same bytes.
  execute_process(COMMAND gzip -9n -c "${OUTPUT}.tmp" OUTPUT_FILE "${OUTPUT}"
    RESULT_VARIABLE status)
  file(REMOVE "${OUTPUT}.tmp")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "gzip ${OUTPUT} failed (${status})")
  endif()
else()
  file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
endif()
