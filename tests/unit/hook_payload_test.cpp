#include "hook/payload.hpp"

#include <catch2/catch.hpp>

using namespace engram;

TEST_CASE("a hook payload gives its session, folder, event and prompt") {
  std::vector<store::Diagnostic> diagnostics;
  const auto payload = hook::parse_payload(
      R"({"session_id":"s1","cwd":"/p","hook_event_name":"UserPromptSubmit","prompt":"why?","extra":[1]})",
      "<stdin>", diagnostics);
  CHECK(diagnostics.empty());
  CHECK(payload.session_id == "s1");
  CHECK(payload.cwd == "/p");
  CHECK(payload.event == "UserPromptSubmit");
  CHECK(payload.prompt == std::optional<std::string>("why?"));

  const auto start = hook::parse_payload(R"({"session_id":"s2","source":"startup"})", "<stdin>",
                                         diagnostics);
  CHECK(!start.prompt);
  CHECK(diagnostics.empty());
}

TEST_CASE("a hook payload that cannot be read is diagnosed with its line, never thrown") {
  std::vector<store::Diagnostic> diagnostics;
  const auto bad = hook::parse_payload("{\"session_id\": \"x\",\n  \"cwd\": /no}\n", "<stdin>",
                                       diagnostics);
  REQUIRE(diagnostics.size() == 1);
  CHECK(diagnostics[0].to_string().starts_with("<stdin>:2: not JSON"));
  CHECK(bad.session_id.empty());

  diagnostics.clear();
  hook::parse_payload("[1, 2]", "<stdin>", diagnostics);
  hook::parse_payload("", "<stdin>", diagnostics);
  const auto odd = hook::parse_payload(R"({"session_id": 7, "prompt": "p"})", "<stdin>", diagnostics);
  REQUIRE(diagnostics.size() == 3);
  CHECK(diagnostics[0].reason == "the hook payload is not a JSON object");
  CHECK(diagnostics[1].reason.find("no hook payload") != std::string::npos);
  CHECK(diagnostics[2].reason == "\"session_id\" is not a string; ignored");
  CHECK(odd.prompt == std::optional<std::string>("p"));
}
