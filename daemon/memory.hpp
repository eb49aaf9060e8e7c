// Memory: handing what a thread freed back to the system, so that a daemon
// that let go of a quiet store's model (daemon.release_after_s) is as small
// as one that never read it.
#pragma once

namespace engram::daemon {

// Gives the memory freed on the calling thread back to the system. The
// engram executable runs on mimalloc (see cmake/Dependencies.cmake), which
// keeps freed pages until that thread's next allocations purge them, and a
// thread gone quiet makes none: mi_collect(force) purges now. A process
// without it (sanitizer builds, tests) has the C library's malloc: its
// trim where it has one (glibc's malloc_trim).
void return_freed_memory();

// Makes the calling thread's own library state — ICU's sentence iterator
// and transliterator, the stemmer, all thread_local — once, before the
// thread reads a store. Made in the middle of its first run instead, their
// thousands of small blocks sit in the pages of the model around them and
// keep those pages when the model is let go.
void prepare_thread_state();

} // namespace engram::daemon
