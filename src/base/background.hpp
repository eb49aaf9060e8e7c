// Background: helper threads that do work nobody waits on (an index file
// written after its commit, a tree deflated after it was stored) give way to
// the threads somebody does wait on. On two cores, with a device's
// interrupts served on one, a helper at the same priority took the commit's
// thread off its core for milliseconds at a time.
#pragma once

namespace engram {

// Lowers the calling thread's scheduling priority (nice 10: it still runs
// whenever a core is free, and a little when none is), and makes it a batch
// thread (SCHED_BATCH: same share of the CPU), whose wakeups never preempt
// the thread that woke it. A helper at nice 10 woken by a commit's last step
// (told to write a 100,000-file store's index) still took that thread's core
// for 3-5 ms, in one commit of two. Does nothing where the system refuses.
void run_in_background();

} // namespace engram
