// Fault injection: named crash points for the crash-recovery tests. A test
// sets ENGRAM_TEST_CRASH_AT=<point> and the process kills itself with SIGKILL
// when it reaches that point, so every step of an apply and a commit can be
// shown recoverable with the real binary; ENGRAM_TEST_PAUSE_AT=<point> stops
// it there instead, so a concurrency test can act while a run holds the store. Compiled into every build (the tests
// run the binary that ships); without the variable a point does nothing.
#pragma once

#include <string_view>

namespace engram {

// The environment variable that names the crash point; unset in normal use.
inline constexpr const char* k_crash_variable = "ENGRAM_TEST_CRASH_AT";

// The environment variable that names a point to pause at; unset in normal use.
inline constexpr const char* k_pause_variable = "ENGRAM_TEST_PAUSE_AT";

// Kills the process with SIGKILL, as a power cut or `kill -9` would, when
// ENGRAM_TEST_CRASH_AT equals `point`; stops it with SIGSTOP, until a SIGCONT,
// when ENGRAM_TEST_PAUSE_AT does (a test sees the stop with waitpid(WUNTRACED)
// and knows exactly where the run is); otherwise returns at once.
void fault_point(std::string_view point);

// Whether ENGRAM_TEST_PAUSE_AT names `point`, read at each call: for code
// that must stop itself where fault_point cannot run (a child between fork
// and _exit), and asks before the fork.
bool fault_pauses_at(std::string_view point);

} // namespace engram
