// Running the real engram in integration tests: a new store made by
// `engram init`, and a run that must succeed (its output shown when not).
#pragma once

#include "lib/process.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

namespace engram::test {

// A new, empty store made by `engram init`.
inline std::filesystem::path new_store(const Sandbox& sandbox) {
  const std::filesystem::path store = sandbox.work("store");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  return store;
}

// Runs engram and requires it to succeed; returns its output.
inline Result ok(const Sandbox& sandbox, const std::vector<std::string>& args) {
  auto result = sandbox.engram(args);
  INFO(result.out);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return result;
}

} // namespace engram::test
