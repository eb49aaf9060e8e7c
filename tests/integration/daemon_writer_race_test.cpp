// The randomized race: one daemon keeps four stores, each WORKING.md at its
// guard, and on each an agent writes in one of the patterns engram supports —
// appending a line at a time (`>>`), through one descriptor held open for the
// whole test (`exec 3>>`), saving through a temporary renamed over the file
// (an editor, `sed -i`), and truncating the file and writing it whole (`>`).
// One pattern a store: a writer that rewrites the file loses what another
// writer appended in the meantime, with or without engram. The writers go on
// until the daemon has run at least 1,000 consolidations; then every line any
// of them wrote must be in a memory file of its store, not only in history.
// The pacing is random from a seed the test prints; the end is waited for
// through the daemon's status and git, never guessed with a sleep.
#include "lib/daemon_process.hpp"
#include "lib/history.hpp"

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <fcntl.h>
#include <fmt/format.h>
#include <iostream>
#include <optional>
#include <random>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace engram::test;
using namespace std::chrono_literals;

namespace {

// How many consolidations the daemon runs, over all four stores, before the
// writers stop (each snapshots the agent's lines; those that find WORKING.md
// over its guard move items out of it, in a consolidation commit of their
// own); and how long that may take at most.
constexpr std::size_t k_consolidations = 1000;
constexpr auto k_at_most = 10min;

// The writer patterns, one a store.
enum class Pattern { append, held_open, rename_save, truncate_write };
constexpr Pattern k_patterns[] = {Pattern::append, Pattern::held_open, Pattern::rename_save,
                                  Pattern::truncate_write};

std::string name_of(Pattern pattern) {
  switch (pattern) {
  case Pattern::append:
    return "append";
  case Pattern::held_open:
    return "held-open";
  case Pattern::rename_save:
    return "rename-save";
  case Pattern::truncate_write:
    return "truncate-write";
  }
  return "?";
}

// `n` as four lowercase letters: a marker no rule reads as a number.
std::string letters(std::size_t n) {
  std::string out(4, 'a');
  for (std::size_t i = 4; i-- > 0; n /= 26) {
    out[i] = static_cast<char>('a' + n % 26);
  }
  return out;
}

// Reads the whole file at `path` ("" when it cannot).
std::string read_whole(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  std::string out;
  if (fd < 0) {
    return out;
  }
  char buffer[65536];
  for (ssize_t got; (got = ::read(fd, buffer, sizeof buffer)) > 0;) {
    out.append(buffer, static_cast<std::size_t>(got));
  }
  ::close(fd);
  return out;
}

bool write_whole(int fd, const std::string& bytes) {
  return ::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
}

// One agent: writes its lines into WORKING.md in its pattern until told to stop.
class Agent {
public:
  Agent(Pattern pattern, fs::path store, std::uint32_t seed)
      : m_pattern(pattern), m_store(std::move(store)), m_random(seed) {}

  // Writes line after line, 100-600 ms apart, until `stop`; false on a failed write.
  bool run(const std::atomic<bool>& stop, const std::string& today) {
    const fs::path working = m_store / "WORKING.md";
    int held = -1;
    if (m_pattern == Pattern::held_open) {
      held = ::open(working.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
      if (held < 0) {
        return false;
      }
    }
    std::uniform_int_distribution<int> pause(100, 600);
    bool ok = true;
    for (std::size_t n = 0; ok && !stop; ++n) {
      m_written.push_back(fmt::format("rw{}x{}q", static_cast<int>(m_pattern), letters(n)));
      // Sentences of a few shapes about different things, as notes are:
      // no two of them one claim with a changed value.
      static constexpr const char* k_things[] = {"cache",  "deploy", "invoice", "login",
                                                 "backup", "search", "upload",  "billing"};
      const std::string line = fmt::format(
          "- {}: Race note {} says the {} {} ran {} the {} writer.\n", today, m_written.back(),
          k_things[n % 8], n % 3 == 0 ? "job" : (n % 3 == 1 ? "check" : "task"),
          n % 2 == 0 ? "beside" : "after", name_of(m_pattern));
      ok = write_line(working, line, held, n);
      std::this_thread::sleep_for(std::chrono::milliseconds(pause(m_random)));
    }
    if (held >= 0) {
      ::close(held);
    }
    return ok;
  }

  const std::vector<std::string>& written() const { return m_written; }
  Pattern pattern() const { return m_pattern; }
  const fs::path& store() const { return m_store; }

private:
  bool write_line(const fs::path& working, const std::string& line, int held, std::size_t n) {
    switch (m_pattern) {
    case Pattern::append: {
      const int fd = ::open(working.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
      const bool ok = fd >= 0 && write_whole(fd, line);
      ::close(fd);
      return ok;
    }
    case Pattern::held_open:
      return write_whole(held, line);
    case Pattern::rename_save: {
      const std::string bytes = read_whole(working) + line;
      const fs::path temporary = m_store / fmt::format("sedrace{:05}", n);
      const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
      const bool ok = fd >= 0 && write_whole(fd, bytes);
      ::close(fd);
      return ok && ::rename(temporary.c_str(), working.c_str()) == 0;
    }
    case Pattern::truncate_write: {
      const std::string bytes = read_whole(working) + line;
      const int fd = ::open(working.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
      const bool ok = fd >= 0 && write_whole(fd, bytes);
      ::close(fd);
      return ok;
    }
    }
    return false;
  }

  Pattern m_pattern;
  fs::path m_store;
  std::mt19937 m_random;
  std::vector<std::string> m_written;
};

// The daemon's consolidations over all its stores; nullopt when it did not answer.
std::optional<std::size_t> consolidations(const DaemonProcess& daemon) {
  nlohmann::json status;
  try {
    status = daemon.ask({{"request", "status"}});
  } catch (const std::exception&) {
    return std::nullopt;
  }
  std::size_t runs = 0;
  for (const auto& store : status.value("stores", nlohmann::json::array())) {
    runs += store.value("consolidations", std::size_t{0});
  }
  return runs;
}

// engram's consolidation commits in `store` (not the agent's snapshots).
std::size_t consolidation_commits(const Sandbox& sandbox, const fs::path& store) {
  const std::string subjects = "\n" + git_out(sandbox, store, {"log", "--format=%s"});
  std::size_t count = 0;
  for (auto at = subjects.find("\nconsolidate("); at != std::string::npos;
       at = subjects.find("\nconsolidate(", at + 1)) {
    ++count;
  }
  return count;
}

// Every store idle with nothing pending or waiting to be carried over from a
// replaced file, and its git status clean.
bool all_settled(const Sandbox& sandbox, const DaemonProcess& daemon,
                 const std::vector<fs::path>& stores) {
  const auto status = daemon.ask({{"request", "status"}});
  for (const auto& store : status.value("stores", nlohmann::json::array())) {
    if (store.value("state", "") != "idle" || store.value("pending_changes", 1) != 0 ||
        store.value("carry_over_waiting", true)) {
      return false;
    }
  }
  return std::all_of(stores.begin(), stores.end(), [&](const fs::path& store) {
    return sandbox.git(store, {"status", "--porcelain"}).out.empty();
  });
}

// Where each line is: in a memory file of its store, or only in its history.
struct Tally {
  std::size_t commits = 0; // engram's consolidation commits (not the agent's snapshots)
  std::size_t written = 0;
  std::size_t in_store = 0;
  std::size_t only_in_history = 0;
  std::vector<std::string> lost;
};

Tally tally(const Sandbox& sandbox, const Agent& agent) {
  Tally out;
  std::string files;
  for (const auto& [path, bytes] : memory_files(agent.store())) {
    if (path != "MEMORY.md" && path != "CORE.md" && path != ".index.json") {
      files += bytes;
    }
  }
  const std::string history = git_out(sandbox, agent.store(), {"log", "-p", "--format=%B"});
  out.commits = consolidation_commits(sandbox, agent.store());
  for (const auto& marker : agent.written()) {
    ++out.written;
    if (files.find(marker) != std::string::npos) {
      ++out.in_store;
    } else if (history.find(marker) != std::string::npos) {
      ++out.only_in_history;
      out.lost.push_back(marker + " (only in history)");
    } else {
      out.lost.push_back(marker);
    }
  }
  return out;
}

} // namespace

TEST_CASE(
    "with agents of every supported writer pattern at the guard, a thousand consolidations lose "
    "no line") {
  const Sandbox sandbox;
  // A small guard: the lines keep WORKING.md at it all along.
  const std::string guard = "[guard]\nworking_chars = 900\nworking_target_chars = 600\n";
  std::vector<DaemonStore> made;
  std::vector<fs::path> stores;
  for (const Pattern pattern : k_patterns) {
    made.push_back(daemon_store(sandbox, guard, "", "store-" + name_of(pattern)));
    stores.push_back(made.back().store);
  }
  // A short settle, so runs follow the writes closely.
  write_file(made.front().config, guard + "\n[git]\nsnapshot_interval_s = 0\n"
                                          "\n[daemon]\nsettle_ms = 20\nmax_wait_ms = 200\n"
                                          "idle_full_after_s = 0\nfull_at = \"\"\n");
  DaemonProcess daemon(sandbox, stores.front(), made.front().config, {},
                       {stores.begin() + 1, stores.end()});

  const std::uint32_t seed = std::random_device{}();
  std::cout << "writer race: seed " << seed << "\n";
  const std::string today = local_today();
  std::vector<Agent> agents;
  for (std::size_t i = 0; i < stores.size(); ++i) {
    agents.emplace_back(k_patterns[i], stores[i], seed + static_cast<std::uint32_t>(i));
  }
  std::atomic<bool> stop{false};
  std::atomic<int> failed_writers{0};
  std::vector<std::thread> threads;
  for (auto& agent : agents) {
    threads.emplace_back([&] {
      if (!agent.run(stop, today)) {
        ++failed_writers;
      }
    });
  }
  // The daemon is asked for its status all along: it must answer under the storm.
  std::optional<std::size_t> runs;
  const bool enough = wait_until(
      [&] {
        runs = consolidations(daemon);
        return !runs || *runs >= k_consolidations;
      },
      k_at_most);
  stop = true;
  for (auto& thread : threads) {
    thread.join();
  }
  INFO(daemon.log().substr(0, 20000));
  REQUIRE(runs); // the daemon answered every status request within 10 s
  INFO(*runs << " consolidations");
  REQUIRE(enough);
  REQUIRE(failed_writers == 0);

  const bool settled = wait_until([&] { return all_settled(sandbox, daemon, stores); }, 60s);
  REQUIRE(settled);
  Tally total;
  for (const auto& agent : agents) {
    const Tally one = tally(sandbox, agent);
    std::cout << fmt::format("  {}: {} lines written, {} in the store, {} only in history; {} "
                             "consolidation commits\n",
                             name_of(agent.pattern()), one.written, one.in_store,
                             one.only_in_history, one.commits);
    for (const auto& lost : one.lost) {
      FAIL_CHECK(name_of(agent.pattern()) << ": lost " << lost);
    }
    total.commits += one.commits;
    total.written += one.written;
    total.in_store += one.in_store;
    total.only_in_history += one.only_in_history;
    check_sound(sandbox, agent.store());
  }
  std::cout << fmt::format("writer race: {} consolidations ({} consolidation commits moving items "
                           "out of WORKING.md, the rest committing the agents' lines); {} lines "
                           "written, {} in the store, {} only in history\n",
                           *runs, total.commits, total.written, total.in_store,
                           total.only_in_history);
  CHECK(total.in_store == total.written);
  CHECK(total.only_in_history == 0);
  CHECK(daemon.stop() == 0);
}
