// Memory: mimalloc's collect when the process runs on it, found at run time
// (the library is linked into the executable only; its options are set in
// base/heap.cpp), else the C library's trim where it has one; and a thread's library state made
// before it reads a store.
#include "daemon/memory.hpp"

#include "base/platform.hpp"
#include "claims/slug.hpp"
#include "claims/split.hpp"
#include "store/tags.hpp"

#include <dlfcn.h>

namespace engram::daemon {

void return_freed_memory() {
  using Collect = void (*)(bool);
  static const auto collect = reinterpret_cast<Collect>(::dlsym(RTLD_DEFAULT, "mi_collect"));
  if (collect != nullptr) {
    collect(true);
  } else {
    platform::trim_heap();
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
