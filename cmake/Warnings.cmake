# Compiler warnings for engram's own targets; errors when ENGRAM_WERROR is on.
# engram_set_warnings(target [TEST_CODE]): TEST_CODE marks a test executable,
# whose own code ASan and UBSan leave uninstrumented (see below).
function(engram_set_warnings target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "TEST_CODE" "" "")
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
    -Wunused -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough)
  if(ENGRAM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  # ON means ASan+UBSan; anything else that is not false is the -fsanitize= list
  # itself (the tsan preset's "thread"). The presets set UBSAN_OPTIONS
  # halt_on_error=1, so a UBSan report fails its test instead of scrolling by.
  if(ENGRAM_SANITIZE)
    set(sanitizers ${ENGRAM_SANITIZE})
    set(address OFF)
    if(sanitizers STREQUAL "ON" OR sanitizers STREQUAL "TRUE" OR sanitizers STREQUAL "1")
      set(sanitizers address,undefined)
      set(address ON)
    endif()
    # The product is instrumented wherever it is linked. The tests' own code
    # is not under ASan and UBSan: it is not what they check, and instrumenting
    # it doubled the time the test binaries take to compile. ThreadSanitizer
    # needs every access seen, so under it the tests are instrumented too.
    if(NOT (arg_TEST_CODE AND address))
      target_compile_options(${target} PRIVATE -fsanitize=${sanitizers} -fno-omit-frame-pointer)
    endif()
    target_link_options(${target} PUBLIC -fsanitize=${sanitizers})
  endif()
endfunction()
