// Memory: mimalloc's collect when the process runs on it, found at run time
// (the library is linked into the executable only), else glibc's trim.
#include "daemon/memory.hpp"

#include <dlfcn.h>
#include <malloc.h>
#if __has_include(<mimalloc.h>)
#include <mimalloc.h>
#define ENGRAM_HAS_MIMALLOC_HEADER 1
#endif

namespace engram::daemon {

void give_back_freed_pages() {
#ifdef ENGRAM_HAS_MIMALLOC_HEADER
  using Set = void (*)(mi_option_t, long);
  const auto set = reinterpret_cast<Set>(::dlsym(RTLD_DEFAULT, "mi_option_set"));
  if (set != nullptr) {
    set(mi_option_decommit_delay, 0);
    set(mi_option_segment_decommit_delay, 0);
  }
#endif
}

void return_freed_memory() {
  using Collect = void (*)(bool);
  static const auto collect = reinterpret_cast<Collect>(::dlsym(RTLD_DEFAULT, "mi_collect"));
  if (collect != nullptr) {
    collect(true);
  } else {
    ::malloc_trim(0);
  }
}

} // namespace engram::daemon
