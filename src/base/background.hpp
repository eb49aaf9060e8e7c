// Background: helper threads that do work nobody waits on (an index file
// written after its commit, a tree deflated after it was stored) give way to
// the threads somebody does wait on. On two cores, with a device's
// interrupts served on one, a helper at the same priority took the commit's
// thread off its core for milliseconds at a time.
#pragma once

namespace engram {

// Lowers the calling thread's scheduling priority (nice 10: it still runs
// whenever a core is free, and a little when none is). Does nothing where
// the system refuses.
void run_in_background();

} // namespace engram
