// Held back: the agent's files that look like they hold a credential are kept
// out of every commit that stages the agent's work (snapshots, adopting a
// folder). A store is a git repository, and a pushed commit cannot be
// unpushed; the file itself stays on disk untouched, reported each time, and
// is committed by the first snapshot after the credential is gone.
#pragma once

#include "git/repository.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace engram::engine {

// One file kept out of a commit: where the credential is and what it looks
// like, never the credential itself.
struct HeldBack {
  std::string path; // store-relative, '/'-separated
  int line = 1;     // 1-based line of the credential
  std::string kind; // e.g. "an AWS access key id"
};

// An Admit for staging that refuses the bytes store::find_secret flags,
// noting each refusal in `held` (which must outlive the staging).
git::Admit keep_out_secrets(std::vector<HeldBack>& held);

// Warns once per file: `<root>/<path>:<line>: looks like <kind>; held back ...`.
void report_held_back(const std::filesystem::path& root, const std::vector<HeldBack>& held);

} // namespace engram::engine
