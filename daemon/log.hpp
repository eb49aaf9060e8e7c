// Daemon logging: every line names the store it is about, including lines the
// engine and the rules log from the worker thread, which know nothing of
// stores. The name lives in a thread-local set by StoreLogScope and is printed
// by a pattern flag, so no call site has to pass it along.
#pragma once

#include <spdlog/common.h>
#include <string>

namespace engram::daemon {

// Names `store` in every log line this thread writes while the scope lives.
class StoreLogScope {
public:
  // Sets the store name of this thread's log lines.
  explicit StoreLogScope(std::string store);
  // Restores the name that was set before.
  ~StoreLogScope();
  StoreLogScope(const StoreLogScope&) = delete;
  StoreLogScope& operator=(const StoreLogScope&) = delete;

private:
  std::string m_previous;
};

// Sends the log to stderr at `level`, each line as `LEVEL [store] message`,
// with a timestamp unless the journal (which stamps lines itself) captures it.
void set_up_daemon_logging(spdlog::level::level_enum level);

} // namespace engram::daemon
