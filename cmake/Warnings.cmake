# Compiler warnings for engram's own targets; errors when ENGRAM_WERROR is on.
function(engram_set_warnings target)
  target_compile_options(${target} PRIVATE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
    -Wunused -Woverloaded-virtual -Wnull-dereference -Wimplicit-fallthrough)
  if(ENGRAM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(ENGRAM_SANITIZE)
    target_compile_options(${target} PUBLIC -fsanitize=address,undefined -fno-omit-frame-pointer)
    target_link_options(${target} PUBLIC -fsanitize=address,undefined)
  endif()
endfunction()
