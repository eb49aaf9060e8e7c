// Memory: mimalloc's options and collect when the process runs on it, found
// at run time (the library is linked into the executable only), else
// glibc's trim; and a thread's library state made before it reads a store.
#include "daemon/memory.hpp"

#include "claims/slug.hpp"
#include "claims/split.hpp"
#include "store/tags.hpp"

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

void prepare_thread_state() {
  thread_local bool prepared = false;
  if (prepared) {
    return;
  }
  prepared = true;
  static_cast<void>(claims::split_claims("A first sentence. And a second one.\n- an item\n"));
  static_cast<void>(claims::slug("Prêt à l'emploi"));
  static_cast<void>(store::canonical_tag("preparing"));
}

} // namespace engram::daemon
