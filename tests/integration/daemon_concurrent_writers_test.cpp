// Concurrent writers against the real daemon: while it consolidates under
// load (WORKING.md kept over its guard, so full runs follow one another),
// writers append with `engram append`, append lines to an episodic and a
// semantic file with plain writes, and rename-save another semantic file the
// way `sed -i` does. At the end every line written is in the store or in a
// commit, no line is twice in a file, none was overwritten. The writers pace
// themselves; the end is waited for through the daemon's status and git, never
// guessed with a sleep.
#include "lib/daemon_process.hpp"
#include "lib/history.hpp"
#include "lib/line_writer.hpp"
#include "lib/occurrences.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <ctime>
#include <fcntl.h>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace engram::test;
using namespace std::chrono_literals;

namespace {

// The marker of line `n` of writer `writer`; unique in the whole store.
std::string marker(const std::string& writer, std::size_t n) {
  return "cw" + writer + "x" + letters(n) + "q";
}

// True for the files engram generates from the others (they quote memories).
bool generated(const std::string& path) {
  return path == "MEMORY.md" || path == "CORE.md" || path == ".index.json";
}

} // namespace

TEST_CASE("with the daemon consolidating under load, concurrent writers lose no line and none is "
          "doubled or overwritten") {
  const Sandbox sandbox;
  // A small guard: the appends keep WORKING.md over it, so full runs (the
  // working-memory rule moving items out) follow one another all along.
  const auto made =
      daemon_store(sandbox, "[guard]\nworking_chars = 900\nworking_target_chars = 600\n");
  const std::string today = local_today();
  const fs::path episodic = made.store / "episodic" / (today + "-cw-session.md");
  const fs::path semantic = made.store / "semantic" / "cw-plain.md";
  const fs::path renamed = made.store / "semantic" / "cw-renamed.md";
  // Created today and decaying far ahead: no rule may move their lines away.
  write_file(episodic,
             episodic_memory({"cwsession", "cwlog"}, today, "2099-01-01", "# Session log\n\n"));
  write_file(semantic, semantic_memory({"cwplain", "cwfacts"}, today, "# Plain facts\n\n"));
  write_file(renamed, semantic_memory({"cwrenamed", "cwsaved"}, today, "# Saved facts\n\n"));
  DaemonProcess daemon(sandbox, made.store, made.config);

  constexpr std::size_t k_appends = 24; // per `engram append` writer, two of them
  constexpr std::size_t k_plain = 90;   // lines per plain writer
  constexpr std::size_t k_rename = 60;  // rename-saves
  constexpr std::size_t k_working = 60; // lines appended to WORKING.md with plain writes
  std::vector<std::string> written;     // every marker, once all writers are done
  std::atomic<int> append_failures{0};  // `engram append` runs that failed
  std::mutex failure_mutex;
  std::string first_failure;          // what the first failed `engram append` said
  std::atomic<int> write_failures{0}; // plain appends that were not written whole
  std::vector<std::thread> writers;
  for (const std::string name : {"apa", "apb"}) {
    writers.emplace_back([&, name] {
      for (std::size_t n = 0; n < k_appends; ++n) {
        const auto result = sandbox.engram(
            {"--config", made.config.string(), "append", "--store", made.store.string(),
             "Appended note " + marker(name, n) + " about the order sync."});
        if (result.exit_code != 0) {
          const std::lock_guard lock(failure_mutex);
          if (append_failures++ == 0) {
            first_failure = result.out + result.err;
          }
        }
      }
    });
  }
  writers.emplace_back([&] {
    // An agent that writes WORKING.md itself (`>>`): dated items the
    // working-memory rule moves out once the guard is passed.
    for (std::size_t n = 0; n < k_working; ++n) {
      if (!append_line(made.store / "WORKING.md", "- " + today + ": Working note " +
                                                      marker("wk", n) +
                                                      " about the retry path.\n")) {
        ++write_failures;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(15 + n % 13));
    }
  });
  writers.emplace_back([&] {
    for (std::size_t n = 0; n < k_plain; ++n) {
      if (!append_line(episodic, "- Session step " + marker("ep", n) + " was logged.\n")) {
        ++write_failures;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(3 + n % 7));
    }
  });
  writers.emplace_back([&] {
    for (std::size_t n = 0; n < k_plain; ++n) {
      if (!append_line(semantic, "- Plain fact " + marker("se", n) + " holds.\n")) {
        ++write_failures;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2 + n % 11));
    }
  });
  writers.emplace_back([&] {
    for (std::size_t n = 0; n < k_rename; ++n) {
      // An editor's save: the file as it is now, a line added, a temporary
      // in the same folder renamed over it.
      const std::string bytes =
          read_file(renamed) + "- Saved fact " + marker("rn", n) + " holds.\n";
      const fs::path temporary = made.store / "semantic" / fmt::format("sedcw{:04}", n);
      write_file(temporary, bytes);
      fs::rename(temporary, renamed);
      std::this_thread::sleep_for(std::chrono::milliseconds(4 + n % 9));
    }
  });
  for (auto& writer : writers) {
    writer.join();
  }
  INFO("the first failed append said: " << first_failure);
  REQUIRE(append_failures == 0);
  REQUIRE(write_failures == 0);
  for (const std::string name : {"apa", "apb"}) {
    for (std::size_t n = 0; n < k_appends; ++n) {
      written.push_back(marker(name, n));
    }
  }
  for (std::size_t n = 0; n < k_plain; ++n) {
    written.push_back(marker("ep", n));
    written.push_back(marker("se", n));
  }
  for (std::size_t n = 0; n < k_rename; ++n) {
    written.push_back(marker("rn", n));
  }
  for (std::size_t n = 0; n < k_working; ++n) {
    written.push_back(marker("wk", n));
  }

  // The end: nothing settling or running, nothing asked for, git clean.
  const auto request_marker = made.store / ".engram" / "consolidate-requested";
  nlohmann::json last_status;
  std::string last_git_status;
  const bool settled = wait_until(
      [&] {
        last_status = daemon.store_status();
        last_git_status = sandbox.git(made.store, {"status", "--porcelain"}).out;
        return last_status.value("state", "") == "idle" &&
               last_status.value("pending_changes", 1) == 0 && !fs::exists(request_marker) &&
               last_git_status.empty();
      },
      30s);
  // What the daemon did up to now (taken after the wait, so a run that never
  // settles shows its last runs), and what it and git said last.
  INFO(daemon.log());
  INFO("last status: " << last_status.dump() << "; consolidation requested: "
                       << fs::exists(request_marker) << "; git status:\n"
                       << last_git_status);
  REQUIRE(settled);
  const auto status = daemon.store_status();
  CHECK(status.value("consolidations", 0) >= 2);
  check_sound(sandbox, made.store);

  // Every line is in exactly one memory file, once; or, failing that, in history.
  const auto files = memory_files(made.store);
  const std::string history = git_out(sandbox, made.store, {"log", "-p", "--all", "--format=%B"});
  std::size_t in_files = 0;
  std::size_t only_in_history = 0;
  std::map<std::string, std::size_t> history_by_writer; // of the lines only in history
  for (const auto& line : written) {
    std::size_t holders = 0;
    for (const auto& [path, bytes] : files) {
      if (generated(path)) {
        continue;
      }
      const auto count = occurrences(bytes, line);
      INFO(line << " in " << path << (count > 1 ? ":\n" + bytes : std::string()));
      CHECK(count <= 1);
      holders += count > 0 ? 1 : 0;
    }
    INFO(line);
    CHECK(holders <= 1);
    if (holders == 1) {
      ++in_files;
    } else if (history.find(line) != std::string::npos) {
      ++only_in_history;
      ++history_by_writer[line.substr(2, line.find('x', 2) - 2)];
    } else {
      FAIL_CHECK("lost: " << line);
    }
  }
  std::cout << fmt::format("concurrent writers: {} lines checked, {} in the store's files, {} only "
                           "in history; {} consolidations\n",
                           written.size(), in_files, only_in_history,
                           status.value("consolidations", 0));
  for (const auto& [writer, count] : history_by_writer) {
    std::cout << fmt::format("  only in history: {} of writer {}\n", count, writer);
  }
  CHECK(in_files + only_in_history == written.size());
  // Under load: WORKING.md over its guard started full runs all along.
  CHECK(occurrences(daemon.log(), "consolidating (full: guard)") >= 1);
  CHECK(daemon.stop() == 0);
}
