// The heap: the process's allocator tuned for how the process will use it.
// The engram executable runs on mimalloc (cmake/Dependencies.cmake), linked
// into the executable only, so its options are found at run time; a process
// without it (sanitizer builds, the tests) keeps glibc's malloc as it is.
#pragma once

namespace engram {

// For the daemon, for its whole life: freed pages go back to the system as
// they are freed. mimalloc otherwise holds them for a while, and returns them
// only at the thread's next allocations after that: a thread gone quiet — a
// daemon's worker once a store is let go — would keep them for ever, and the
// idle daemon's memory (`make bench`, scenario 4) with them.
void heap_gives_back_at_once();

} // namespace engram
