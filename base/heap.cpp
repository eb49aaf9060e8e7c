// The heap: mimalloc's options, set when the process runs on mimalloc.
#include "base/heap.hpp"

#include <dlfcn.h>
#if __has_include(<mimalloc.h>)
#include <mimalloc.h>
#define ENGRAM_HAS_MIMALLOC_HEADER 1
#endif

namespace engram {

#ifdef ENGRAM_HAS_MIMALLOC_HEADER
namespace {

// Sets one of mimalloc's options; nothing when the process does not run on it.
void set_option(mi_option_t option, long value) {
  using Set = void (*)(mi_option_t, long);
  static const auto set = reinterpret_cast<Set>(::dlsym(RTLD_DEFAULT, "mi_option_set"));
  if (set != nullptr) {
    set(option, value);
  }
}

} // namespace

void heap_gives_back_at_once() {
  set_option(mi_option_decommit_delay, 0);
  set_option(mi_option_segment_decommit_delay, 0);
}

#else

void heap_gives_back_at_once() {}

#endif

} // namespace engram
