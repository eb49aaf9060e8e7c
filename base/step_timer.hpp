// StepTimer: how long each step of a run took, for whoever profiles a large
// store (--log-level debug): the one line that says where the time goes.
#pragma once

#include <chrono>
#include <fmt/format.h>
#include <string>

namespace engram {

class StepTimer {
public:
  // Ends the step called `name`, which began at the last step's end.
  void step(const char* name) {
    const auto now = std::chrono::steady_clock::now();
    m_line += fmt::format("{}{} {:.1f} ms", m_line.empty() ? "" : ", ", name,
                          std::chrono::duration<double, std::milli>(now - m_last).count());
    m_last = now;
  }
  const std::string& line() const { return m_line; }

private:
  std::chrono::steady_clock::time_point m_last = std::chrono::steady_clock::now();
  std::string m_line;
};

} // namespace engram
