// The command line itself: version, help for every subcommand, usage errors.
#include "lib/process.hpp"

#include <catch2/catch.hpp>
#include <engram_version.hpp>

using engram::test::Sandbox;

TEST_CASE("engram --version prints the name and the build's version") {
  const Sandbox sandbox;
  const auto result = sandbox.engram({"--version"});
  CHECK(result.exit_code == 0);
  CHECK(result.out == std::string("engram ") + engram::k_version + "\n");
}

TEST_CASE("engram --help describes the command and lists every subcommand") {
  const Sandbox sandbox;
  const auto result = sandbox.engram({"--help"});
  CHECK(result.exit_code == 0);
  for (const char* word :
       {"init", "check", "status", "config", "--config", "--log-level", "--version"}) {
    INFO(word);
    CHECK(result.out.find(word) != std::string::npos);
  }
}

TEST_CASE("every subcommand has --help, and it exits 0 without touching anything") {
  const Sandbox sandbox;
  const std::vector<std::vector<std::string>> commands{
      {"init"}, {"check"}, {"status"}, {"config"}, {"config", "show"}, {"config", "keys"}};
  for (auto command : commands) {
    const std::string name = command.back();
    command.push_back("--help");
    INFO(name);
    const auto result = sandbox.engram(command);
    CHECK(result.exit_code == 0);
    CHECK(result.out.find(name) != std::string::npos);
    CHECK(result.out.find("--help") != std::string::npos);
  }
  CHECK_FALSE(std::filesystem::exists(sandbox.default_store()));
}

TEST_CASE("store commands document --store, status documents --json and --now") {
  const Sandbox sandbox;
  for (const char* command : {"init", "check", "status"}) {
    INFO(command);
    CHECK(sandbox.engram({command, "--help"}).out.find("--store") != std::string::npos);
  }
  const auto status = sandbox.engram({"status", "--help"});
  CHECK(status.out.find("--json") != std::string::npos);
  CHECK(status.out.find("--now") != std::string::npos);
  CHECK(sandbox.engram({"init", "--help"}).out.find("--example") != std::string::npos);
}

TEST_CASE("usage errors exit 2 with a message on stderr") {
  const Sandbox sandbox;
  const std::vector<std::vector<std::string>> mistakes{
      {},                                // no subcommand
      {"frobnicate"},                    // unknown subcommand
      {"check", "--no-such-option"},     // unknown option
      {"--log-level", "loud", "check"},  // a level that does not exist
      {"config"},                        // config without show/keys
      {"status", "--now", "12/31/2026"}, // not YYYY-MM-DD
      {"status", "--now", "2026-02-30"}, // not a real day
  };
  for (const auto& args : mistakes) {
    std::string joined;
    for (const auto& arg : args) {
      joined += arg + " ";
    }
    INFO(joined);
    const auto result = sandbox.engram(args);
    CHECK(result.exit_code == 2);
    CHECK_FALSE(result.err.empty());
  }
}

TEST_CASE("a store command on a folder that does not exist exits 1 and creates nothing") {
  const Sandbox sandbox;
  for (const char* command : {"check", "status"}) {
    INFO(command);
    const auto result = sandbox.engram({command, "--store", sandbox.work("absent").string()});
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("absent") != std::string::npos);
  }
  CHECK_FALSE(std::filesystem::exists(sandbox.work("absent")));
}

TEST_CASE("engram --log-level debug logs to stderr and leaves stdout to the command") {
  const Sandbox sandbox;
  const auto quiet = sandbox.engram({"init", sandbox.work("quiet").string()});
  const auto loud = sandbox.engram({"--log-level", "debug", "init", sandbox.work("loud").string()});
  REQUIRE(quiet.exit_code == 0);
  REQUIRE(loud.exit_code == 0);
  CHECK(quiet.err.empty());
  CHECK_THAT(loud.err, Catch::Contains("engram: debug: "));
  CHECK_THAT(loud.out, Catch::Contains("created engram store"));
  CHECK_THAT(loud.out, !Catch::Contains("debug"));
}
