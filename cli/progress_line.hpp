// The progress line: what the engine reports of long work (engine::Progress),
// drawn on one line of a terminal and redrawn at most a few times a second.
// Nothing is drawn on a pipe or a file, nor with --quiet.
#pragma once

#include "engine/progress.hpp"

#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::cli {

// One progress line on a terminal, redrawn in place.
class ProgressLine : public engine::Progress {
public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  // Draws on `out` (a terminal), at most once per `every`; `clock` is
  // injectable so tests need not wait.
  explicit ProgressLine(std::FILE* out, std::string command,
                        Clock clock = std::chrono::steady_clock::now,
                        std::chrono::milliseconds every = std::chrono::milliseconds(250));

  // Redraws the line, unless it was drawn less than `every` ago.
  void update(std::string_view step, std::size_t done, std::size_t total,
              std::string_view units) override;

  // Clears the line, so what the command prints next starts on a clean one.
  void finish();

  // How fast the count under way goes: `items` of it done in `spent`.
  struct Pace {
    std::chrono::steady_clock::duration spent{};
    std::size_t items = 0;
  };

  // The line's text: `command: step, done of total units, elapsed, about N s left`.
  // The estimate goes at `pace` (when omitted: `done` in `elapsed`), and is
  // left out while the pace is not known yet.
  static std::string render(std::string_view command, std::string_view step, std::size_t done,
                            std::size_t total, std::string_view units,
                            std::chrono::steady_clock::duration elapsed,
                            std::optional<Pace> pace = {});

private:
  std::FILE* m_out;
  std::string m_command;
  Clock m_clock;
  std::chrono::milliseconds m_every;
  std::chrono::steady_clock::time_point m_started;
  std::optional<std::chrono::steady_clock::time_point> m_drawn; // when the line was last drawn

  // One count the work reports (the rules of a run, a rule's episodic
  // files, git's objects written): its own pace makes its estimate.
  // A count seen only from its middle (a daemon's run, reported four times
  // a second) is timed from there.
  struct Count {
    std::string units;
    std::size_t total = 0;
    std::size_t done = 0;
    std::size_t first = 0; // done when it was first seen
    std::chrono::steady_clock::time_point seen; // when it was first seen
  };
  // Notes `done` in the count of `units` of `total`: its pace so far.
  Pace pace_of(std::size_t done, std::size_t total, std::string_view units,
               std::chrono::steady_clock::time_point now);
  std::vector<Count> m_counts; // every count seen, a handful
};

// A progress line for `command` on stderr when stderr is a terminal and not
// `quiet`; else nullptr, and the command reports nothing as it goes.
std::unique_ptr<ProgressLine> progress_on_stderr(std::string command, bool quiet);

} // namespace engram::cli
