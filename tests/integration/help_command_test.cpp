// `engram help [COMMAND...]`: the text --help prints, for people who type
// help first; a command that does not exist is a usage error.
#include "lib/process.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

using engram::test::Sandbox;

TEST_CASE("engram help COMMAND prints what engram COMMAND --help prints") {
  const Sandbox sandbox;
  const std::vector<std::vector<std::string>> commands{
      {}, {"status"}, {"config"}, {"config", "show"}, {"hook", "session-start"}, {"help"}};
  for (const auto& command : commands) {
    std::vector<std::string> help{"help"};
    help.insert(help.end(), command.begin(), command.end());
    std::vector<std::string> flag = command;
    flag.push_back("--help");
    INFO(fmt::format("engram help {}", fmt::join(command, " ")));
    const auto by_command = sandbox.engram(help);
    const auto by_flag = sandbox.engram(flag);
    CHECK(by_command.exit_code == 0);
    CHECK(by_flag.exit_code == 0);
    CHECK(by_command.err.empty());
    CHECK_FALSE(by_command.out.empty());
    CHECK(by_command.out == by_flag.out);
  }
}

TEST_CASE("engram help is listed among the commands") {
  const Sandbox sandbox;
  const auto result = sandbox.engram({"--help"});
  CHECK_THAT(result.out, Catch::Contains("\n  help ") && Catch::Contains("\n  completion "));
  // The build's own page writer is not a user's command.
  CHECK_THAT(result.out, !Catch::Contains("\n  manual "));
}

TEST_CASE("engram help of a command that does not exist is a usage error") {
  const Sandbox sandbox;
  const auto unknown = sandbox.engram({"help", "nosuch"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.out.empty());
  CHECK_THAT(unknown.err, Catch::Contains("engram has no command 'nosuch'"));

  const auto nested = sandbox.engram({"help", "config", "nosuch"});
  CHECK(nested.exit_code == 2);
  CHECK_THAT(nested.err, Catch::Contains("engram config has no command 'nosuch'"));
}
