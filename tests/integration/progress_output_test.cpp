// What long commands say as they work and when they are done: a progress
// line on a terminal (run under a pseudo-terminal with util-linux's
// `script`), none on a pipe or with --quiet; consolidate's record counted per
// rule and per file by default, every action with --verbose.
#include "lib/daemon_process.hpp"
#include "lib/history.hpp"
#include "lib/process.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <regex>

namespace fs = std::filesystem;
using engram::test::k_history_now;
using engram::test::make_history_store;
using engram::test::Sandbox;

namespace {

// `args` quoted for the shell `script` runs its command with.
std::string shell_words(const std::vector<std::string>& args) {
  std::string out;
  for (const auto& arg : args) {
    std::string quoted = "'";
    for (const char c : arg) {
      quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    }
    out += (out.empty() ? "" : " ") + quoted + "'";
  }
  return out;
}

// Runs the engram under test with `args` on a pseudo-terminal: stdout and
// stderr both reach the terminal, whose bytes `script` passes on.
engram::test::Result on_terminal(const Sandbox& sandbox, std::vector<std::string> args) {
  args.insert(args.begin(), ENGRAM_BINARY);
  return engram::test::run({"script", "-qec", shell_words(args), "/dev/null"},
                           sandbox.engram_environment());
}

// The progress line's shape: the rule under way, how many of how many, and the time.
const std::regex k_progress_line(
    R"(consolidate: rule [a-z-]+, [0-9]+ of [0-9]+ rules, [0-9]+\.[0-9] s elapsed)");

// Three copies of the history store with the agent's files committed: one
// run on a terminal, one on a pipe, one with --quiet, each on a store of its own.
struct ThreeStores {
  fs::path terminal;
  fs::path piped;
  fs::path quiet;
};
ThreeStores three_stores(const Sandbox& sandbox) {
  const fs::path store = make_history_store(sandbox);
  sandbox.git(store, {"add", "-A"});
  sandbox.git(store, {"commit", "-qm", "the agent's files"});
  ThreeStores stores{store, sandbox.work("piped"), sandbox.work("quiet")};
  fs::copy(store, stores.piped, fs::copy_options::recursive);
  fs::copy(store, stores.quiet, fs::copy_options::recursive);
  return stores;
}

} // namespace

TEST_CASE("consolidate shows a progress line on a terminal, and none on a pipe or with --quiet") {
  const Sandbox sandbox;
  const auto [store, copy, quiet] = three_stores(sandbox);

  const auto terminal =
      on_terminal(sandbox, {"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(terminal.out << terminal.err);
  REQUIRE(terminal.exit_code == 0);
  CHECK(std::regex_search(terminal.out, k_progress_line));
  // Cleared before the summary, so the summary starts a clean line.
  CHECK_THAT(terminal.out, Catch::Contains("\r\x1b[Kconsolidate(full): "));

  const auto piped =
      sandbox.engram({"consolidate", "--store", copy.string(), "--now", k_history_now});
  REQUIRE(piped.exit_code == 0);
  CHECK_FALSE(std::regex_search(piped.err, k_progress_line));
  CHECK(piped.err.find('\r') == std::string::npos);

  const auto silenced = on_terminal(
      sandbox, {"consolidate", "--quiet", "--store", quiet.string(), "--now", k_history_now});
  REQUIRE(silenced.exit_code == 0);
  CHECK_FALSE(std::regex_search(silenced.out, k_progress_line));
  CHECK_THAT(silenced.out, Catch::Contains("consolidate(full): "));
}

TEST_CASE("init of a folder with files shows how many are staged on a terminal, none on a pipe") {
  const Sandbox sandbox;
  // An agent's folder engram adopts: its files are staged in a snapshot of their own.
  const auto folder_with_notes = [&](const std::string& name) {
    const fs::path folder = sandbox.work(name);
    for (int n = 0; n < 40; ++n) {
      engram::test::write_file(folder / "notes" / fmt::format("note-{:02}.md", n),
                               fmt::format("- Note {} about the deploy.\n", n));
    }
    return folder;
  };
  const std::regex line(
      R"(init: staging the files already there, [0-9]+ of 40 files, [0-9]+\.[0-9] s elapsed)");

  const fs::path shown = folder_with_notes("shown");
  const auto terminal = on_terminal(sandbox, {"init", shown.string()});
  INFO(terminal.out << terminal.err);
  REQUIRE(terminal.exit_code == 0);
  CHECK(std::regex_search(terminal.out, line));
  CHECK(sandbox.git(shown, {"ls-files", "notes"}).out_lines().size() == 40);

  const fs::path piped = folder_with_notes("piped");
  const auto quiet_pipe = sandbox.engram({"init", piped.string()});
  REQUIRE(quiet_pipe.exit_code == 0);
  CHECK_FALSE(std::regex_search(quiet_pipe.err, line));
  CHECK(quiet_pipe.err.find('\r') == std::string::npos);

  const fs::path silenced = folder_with_notes("silenced");
  const auto quiet = on_terminal(sandbox, {"init", "--quiet", silenced.string()});
  REQUIRE(quiet.exit_code == 0);
  CHECK_FALSE(std::regex_search(quiet.out, line));
}

TEST_CASE("consolidate prints the record counted per rule and per file, every action with "
          "--verbose") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  const fs::path copy = sandbox.work("copy");
  fs::copy(store, copy, fs::copy_options::recursive);

  const auto counted =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(counted.out << counted.err);
  REQUIRE(counted.exit_code == 0);
  CHECK_THAT(counted.out, Catch::Contains("by rule:\n  episodic-decay: "));
  CHECK_THAT(counted.out, Catch::Contains("episodic decayed"));
  CHECK_THAT(counted.out, Catch::Contains("by file:\n"));
  CHECK_THAT(counted.out, Catch::Contains("  semantic/shopify-api.md: "));
  CHECK_THAT(counted.out, !Catch::Contains("- episodic-decay "));
  // Every action is one command away, in the commit's note.
  const auto head = engram::test::head_of(sandbox, store);
  CHECK_THAT(counted.out, Catch::Contains("every action: engram show " + head.substr(0, 12)));
  const auto shown = sandbox.engram({"show", "--store", store.string(), head});
  CHECK_THAT(shown.out, Catch::Contains("- episodic-decay "));

  const auto verbose = sandbox.engram(
      {"consolidate", "--verbose", "--store", copy.string(), "--now", k_history_now});
  REQUIRE(verbose.exit_code == 0);
  CHECK_THAT(verbose.out, Catch::Contains("- episodic-decay "));
  CHECK_THAT(verbose.out, !Catch::Contains("by rule:"));
}

TEST_CASE("discover shows a progress line of the folders it looks at, on a terminal only") {
  const Sandbox sandbox;
  const fs::path home = sandbox.work().parent_path() / "home"; // HOME, as the sandbox sets it
  for (const auto* project : {"-home-dev-shop", "-home-dev-blog"}) {
    engram::test::write_file(home / ".claude/projects" / project / "memory" / "MEMORY.md",
                             "- [User role](user_role.md) — backend developer\n");
  }
  const std::regex line(R"(discover: [^,]+/memory, [01] of 2 folders, [0-9]+\.[0-9] s elapsed)");

  const auto terminal = on_terminal(sandbox, {"discover"});
  INFO(terminal.out << terminal.err);
  REQUIRE(terminal.exit_code == 0);
  CHECK(std::regex_search(terminal.out, line));
  CHECK_THAT(terminal.out, Catch::Contains("-home-dev-shop/memory"));

  const auto piped = sandbox.engram({"discover"});
  REQUIRE(piped.exit_code == 0);
  CHECK_FALSE(std::regex_search(piped.err, line));
  CHECK(piped.err.find('\r') == std::string::npos);

  const auto silenced = on_terminal(sandbox, {"discover", "--quiet"});
  CHECK_FALSE(std::regex_search(silenced.out, line));
}

TEST_CASE("a consolidation the daemon runs is counted the same way, every action with --verbose") {
  const Sandbox sandbox;
  for (const bool verbose : {false, true}) {
    const auto made = engram::test::daemon_store(sandbox, "", "", verbose ? "verbose" : "counted");
    engram::test::DaemonProcess daemon(sandbox, made.store, made.config);
    std::vector<std::string> args{"--config",  made.config.string(), "consolidate",
                                  "--store",   made.store.string(),  "--now",
                                  "2026-11-22"};
    if (verbose) {
      args.push_back("--verbose");
    }
    const auto result = sandbox.engram(args);
    INFO(result.out << result.err);
    REQUIRE(result.exit_code == 0);
    CHECK_THAT(result.err, Catch::Contains(fmt::format("pid {}", daemon.pid())));
    const bool counted = result.out.find("by rule:\n  episodic-decay: ") != std::string::npos;
    const bool every = result.out.find("- episodic-decay ") != std::string::npos;
    CHECK(counted == !verbose);
    CHECK(every == verbose);
  }
}

TEST_CASE("pack shows git's phases as a progress line on a terminal, none on a pipe or with "
          "--quiet") {
  const Sandbox sandbox;
  // Stores whose history is all loose objects.
  const auto [store, piped_store, quiet_store] = three_stores(sandbox);
  const std::regex line(
      R"(pack: [a-z ]+ objects, [0-9]+ of [0-9]+ objects, [0-9]+\.[0-9] s elapsed)");

  const auto terminal = on_terminal(sandbox, {"pack", "--store", store.string()});
  INFO(terminal.out << terminal.err);
  REQUIRE(terminal.exit_code == 0);
  // Drawn at most four times a second, the line shows whichever of git's
  // phases is under way then; git's first report is always drawn.
  CHECK(std::regex_search(terminal.out, line));
  CHECK_THAT(terminal.out, Catch::Contains("\r\x1b[Kengram: packed "));
  CHECK(sandbox.git(store, {"count-objects", "-v"}).out.find("count: 0\n") != std::string::npos);

  const auto piped = sandbox.engram({"pack", "--store", piped_store.string()});
  REQUIRE(piped.exit_code == 0);
  CHECK(piped.err.find('\r') == std::string::npos);
  CHECK_THAT(piped.err, Catch::Contains("engram: packed "));

  const auto silenced = on_terminal(sandbox, {"pack", "--quiet", "--store", quiet_store.string()});
  REQUIRE(silenced.exit_code == 0);
  CHECK_FALSE(std::regex_search(silenced.out, line));
  CHECK_THAT(silenced.out, Catch::Contains("engram: packed "));
}

TEST_CASE("a consolidation the daemon runs draws its progress line on the asking terminal") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(sandbox, "", "", "drawn");
  engram::test::DaemonProcess daemon(sandbox, made.store, made.config);
  const std::regex line(
      R"(consolidate: (rule [a-z-]+|planned), [0-9]+ of [0-9]+ [a-z ]+, [0-9]+\.[0-9] s elapsed)");

  const auto terminal = on_terminal(sandbox, {"--config", made.config.string(), "consolidate",
                                              "--store", made.store.string(), "--now",
                                              "2026-11-22"});
  INFO(terminal.out);
  REQUIRE(terminal.exit_code == 0);
  CHECK_THAT(terminal.out, Catch::Contains(fmt::format("pid {}", daemon.pid())));
  CHECK(std::regex_search(terminal.out, line));
  CHECK_THAT(terminal.out, Catch::Contains("\r\x1b[K"));

  // On a pipe the daemon is not asked for it, and nothing is drawn.
  const auto piped = sandbox.engram({"--config", made.config.string(), "consolidate", "--store",
                                     made.store.string(), "--now", "2026-11-22"});
  REQUIRE(piped.exit_code == 0);
  CHECK(piped.err.find('\r') == std::string::npos);
  CHECK_THAT(daemon.log(), !Catch::Contains("error"));
}
