// The `--json` promise when things go wrong: stdout holds exactly one JSON
// object whatever failed — a store that is not there, a command line engram
// cannot read — with the exit status the command has without --json.
#include "lib/json_output.hpp"
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using engram::test::json_of;
using engram::test::Sandbox;

TEST_CASE("with --json, a command that cannot do its work prints one error object and keeps its "
          "exit status") {
  const Sandbox sandbox;
  const std::string missing = sandbox.work("no-store").string();
  // Each command's name, then what follows its options.
  const std::vector<std::vector<std::string>> commands = {
      {"status"},           {"consolidate"},
      {"health"},           {"log"},
      {"show", "HEAD"},     {"sync"},
      {"rollback", "HEAD"}, {"restore", "HEAD", "--", "semantic/a.md"},
      {"report"},           {"check"},
      {"append", "- a line"}, {"pack"}};
  for (const auto& command : commands) {
    std::vector<std::string> args{command.front(), "--store", missing};
    args.insert(args.end(), command.begin() + 1, command.end());
    const auto text = sandbox.engram(args);
    args.insert(args.begin() + 1, "--json");
    const auto json = sandbox.engram(args);
    INFO(command.front() << ": " << json.err);
    CHECK(text.exit_code != 0);
    CHECK(json.exit_code == text.exit_code);
    const auto parsed = json_of(json);
    CHECK(parsed["error"].is_string());
    CHECK_FALSE(parsed["error"].get<std::string>().empty());
    CHECK(parsed["diagnostics"].is_array());
  }
}

TEST_CASE("with --json, a command line engram cannot read is an error object and exit status 2") {
  const Sandbox sandbox;
  const auto result = sandbox.engram({"status", "--json", "--no-such-option"});
  CHECK(result.exit_code == 2);
  const auto parsed = json_of(result);
  CHECK_THAT(parsed["error"].get<std::string>(), Catch::Contains("--no-such-option"));
  // Without --json, stdout stays empty: the reason is on stderr only.
  const auto text = sandbox.engram({"status", "--no-such-option"});
  CHECK(text.exit_code == 2);
  CHECK(text.out.empty());
}

TEST_CASE("help --json and report --json print one object each") {
  const Sandbox sandbox;
  const auto help = json_of(sandbox.engram({"help", "status", "--json"}));
  CHECK(help["command"] == "engram status");
  CHECK_THAT(help["help"].get<std::string>(), Catch::Contains("--store"));

  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  const auto figures = sandbox.engram({"report", "--json", "--store", store.string()});
  REQUIRE(figures.exit_code == 0);
  const auto report = json_of(figures);
  CHECK(report["output"].is_null());
  CHECK(report.contains("charts"));
  // With --output the page is written too, and named.
  const fs::path page = sandbox.work("report.html");
  const auto written = json_of(sandbox.engram(
      {"report", "--json", "--store", store.string(), "--output", page.string()}));
  CHECK(written["output"] == page.string());
  CHECK(fs::file_size(page) > 0);
}

TEST_CASE("with --json, a consolidation that cannot run says why in its error object") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  // A detached HEAD: a commit there would be on no branch, so nothing runs.
  REQUIRE(sandbox.git(store, {"checkout", "-q", "--detach"}).exit_code == 0);
  const auto result = sandbox.engram({"consolidate", "--json", "--store", store.string()});
  CHECK(result.exit_code == 1);
  const auto parsed = json_of(result);
  CHECK_THAT(parsed["error"].get<std::string>(), Catch::Contains("detached"));
}
