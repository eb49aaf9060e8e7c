// Apply: writing a plan to disk safely. Each file is checked against the bytes
// the plan was made from, written through a temporary file, fsynced and
// renamed; removals come last and only when every write landed.
#pragma once

#include "engine/plan.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace engram::engine {

// What applying a plan did.
struct ApplyResult {
  std::vector<std::string> written;  // files created or replaced
  std::vector<std::string> removed;  // files removed
  std::vector<std::string> deferred; // files left as they were, for the next run, with why
};

// Applies `plan` under `root`. A file whose bytes changed since the plan was
// made keeps them and is deferred; when anything is deferred, no file is removed.
ApplyResult apply(const Plan& plan, const std::filesystem::path& root);

// Writes `bytes` to `path` atomically: temporary file in the same folder,
// fsync, rename, fsync of the folder. Throws engram::Error on failure.
void write_atomically(const std::filesystem::path& path, std::string_view bytes);

} // namespace engram::engine
