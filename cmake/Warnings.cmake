# Compiler warnings for engram's own targets; errors when ENGRAM_WERROR is on;
# and the sanitizers ENGRAM_SANITIZE asks for.

# ON means ASan+UBSan; anything else that is not false is the -fsanitize= list
# itself (the tsan preset's "thread").
set(engram_sanitizers ${ENGRAM_SANITIZE})
set(engram_asan OFF)
if(ENGRAM_SANITIZE MATCHES "^(ON|TRUE|1)$")
  set(engram_sanitizers address,undefined)
  set(engram_asan ON)
endif()

# Under ASan and UBSan a position-independent executable spends most of a short
# run relocating the checks' metadata (millions of relocations) before main;
# the tests start the binaries thousands of times, so that build links
# fixed-address executables. ThreadSanitizer keeps PIE, which it maps around.
if(engram_asan)
  string(APPEND CMAKE_EXE_LINKER_FLAGS " -no-pie")
endif()

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
  # The presets set UBSAN_OPTIONS halt_on_error=1, so a UBSan report fails
  # its test instead of scrolling by.
  if(ENGRAM_SANITIZE)
    # The product is instrumented wherever it is linked. The tests' own code
    # is not under ASan and UBSan: it is not what they check, and instrumenting
    # it doubled the time the test binaries take to compile. ThreadSanitizer
    # needs every access seen, so under it the tests are instrumented too.
    if(NOT (arg_TEST_CODE AND engram_asan))
      target_compile_options(${target} PRIVATE -fsanitize=${engram_sanitizers}
        -fno-omit-frame-pointer)
    endif()
    target_link_options(${target} PUBLIC -fsanitize=${engram_sanitizers})
  endif()
endfunction()
