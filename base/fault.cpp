// Fault injection: the variable is read once; SIGKILL cannot be caught, so no
// destructor, flush or atexit handler runs, exactly as in a real crash.
#include "base/fault.hpp"

#include <csignal>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace engram {

namespace {

// The value of an environment variable, or empty.
std::string variable(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? value : "";
}

} // namespace

void fault_point(std::string_view point) {
  static const std::string k_target = variable(k_crash_variable);
  static const std::string k_pause = variable(k_pause_variable);
  if (!k_target.empty() && k_target == point) {
    ::kill(::getpid(), SIGKILL);
    ::_exit(137); // not reached: SIGKILL is not deliverable to a handler
  }
  if (!k_pause.empty() && k_pause == point) {
    // To this thread: a stop sent to the process is taken by any thread, and
    // this one could run on past the point before the stop reaches it.
    ::raise(SIGSTOP); // returns once a SIGCONT arrives
  }
}

bool fault_pauses_at(std::string_view point) {
  const char* pause = std::getenv(k_pause_variable);
  return pause != nullptr && point == pause;
}

} // namespace engram
