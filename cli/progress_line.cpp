// The progress line (see progress_line.hpp).
#include "cli/progress_line.hpp"

#include <fmt/format.h>
#include <unistd.h>

namespace engram::cli {

namespace {

// Seconds as people read them on a progress line.
std::string seconds(std::chrono::steady_clock::duration duration) {
  return fmt::format("{:.1f} s", std::chrono::duration<double>(duration).count());
}

// Back to the line's start, and what was there erased.
constexpr const char* k_clear_line = "\r\x1b[K";

} // namespace

ProgressLine::ProgressLine(std::FILE* out, std::string command, Clock clock,
                           std::chrono::milliseconds every)
    : m_out(out), m_command(std::move(command)), m_clock(std::move(clock)), m_every(every),
      m_started(m_clock()) {}

void ProgressLine::update(std::string_view step, std::size_t done, std::size_t total,
                          std::string_view units) {
  const auto now = m_clock();
  const auto pace = pace_of(done, total, units, now);
  if (m_drawn && now - *m_drawn < m_every) {
    return;
  }
  m_drawn = now;
  fmt::print(m_out, "{}{}", k_clear_line,
             render(m_command, step, done, total, units, now - m_started, pace));
  std::fflush(m_out);
}

ProgressLine::Pace ProgressLine::pace_of(std::size_t done, std::size_t total,
                                         std::string_view units,
                                         std::chrono::steady_clock::time_point now) {
  // The rules of a run are one count across its rule steps, with a rule's
  // own count between them; git's phases are counts of their own, one after
  // another. A count that goes back is a new one of the same kind.
  for (auto& count : m_counts) {
    if (count.units == units && count.total == total) {
      if (done < count.done) {
        count.first = done;
        count.seen = now;
      }
      count.done = done;
      return Pace{now - count.seen, done - count.first};
    }
  }
  m_counts.push_back(Count{std::string(units), total, done, done, now});
  return Pace{};
}

void ProgressLine::finish() {
  if (m_drawn) {
    fmt::print(m_out, "{}", k_clear_line);
    std::fflush(m_out);
  }
}

std::string ProgressLine::render(std::string_view command, std::string_view step, std::size_t done,
                                 std::size_t total, std::string_view units,
                                 std::chrono::steady_clock::duration elapsed,
                                 std::optional<Pace> pace) {
  std::string line = fmt::format("{}: {}, {} of {} {}, {} elapsed", command, step, done, total,
                                 units, seconds(elapsed));
  const Pace known = pace.value_or(Pace{elapsed, done});
  if (known.items > 0 && done < total) {
    // What is left, at the pace so far: rough, and said to be.
    const auto left =
        known.spent * static_cast<long>(total - done) / static_cast<long>(known.items);
    line += fmt::format(", about {} left", seconds(left));
  }
  return line;
}

std::unique_ptr<ProgressLine> progress_on_stderr(std::string command, bool quiet) {
  if (quiet || ::isatty(STDERR_FILENO) == 0) {
    return nullptr;
  }
  return std::make_unique<ProgressLine>(stderr, std::move(command));
}

} // namespace engram::cli
