// Memory: mimalloc's collect when the process runs on it, found at run time
// (the library is linked into the executable only), else glibc's trim.
#include "daemon/memory.hpp"

#include <dlfcn.h>
#include <malloc.h>

namespace engram::daemon {

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
