// What a command printed with --json, parsed: the tests of the `--json`
// convention read every command's stdout through this one check.
#pragma once

#include "lib/process.hpp"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace engram::test {

// Parses `result`'s stdout, which must be exactly one JSON object.
inline nlohmann::json json_of(const Result& result) {
  INFO(result.out);
  INFO(result.err);
  REQUIRE_NOTHROW(nlohmann::json::parse(result.out));
  const auto parsed = nlohmann::json::parse(result.out);
  REQUIRE(parsed.is_object());
  return parsed;
}

} // namespace engram::test
