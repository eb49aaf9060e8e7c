// How much longer tests wait in a slow build: ENGRAM_TEST_TIME_SCALE (the
// sanitizer presets set it; ASan makes engram several times slower), else 1.
// Deadlines and the delays that stand for a slow user are scaled, never what
// a test expects to happen.
#pragma once

#include <chrono>
#include <cstdlib>

namespace engram::test {

// The factor, at least 1.
inline int time_scale() {
  const char* scale = std::getenv("ENGRAM_TEST_TIME_SCALE");
  const int factor = scale != nullptr ? std::atoi(scale) : 1;
  return factor > 1 ? factor : 1;
}

// `duration` times time_scale().
template <typename Rep, typename Period>
std::chrono::duration<Rep, Period> scaled(std::chrono::duration<Rep, Period> duration) {
  return duration * time_scale();
}

} // namespace engram::test
