# Compiler warnings for engram's own targets; errors when ENGRAM_WERROR is on.
function(engram_set_warnings target)
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
    if(sanitizers STREQUAL "ON" OR sanitizers STREQUAL "TRUE" OR sanitizers STREQUAL "1")
      set(sanitizers address,undefined)
    endif()
    target_compile_options(${target} PUBLIC -fsanitize=${sanitizers} -fno-omit-frame-pointer)
    target_link_options(${target} PUBLIC -fsanitize=${sanitizers})
  endif()
endfunction()
