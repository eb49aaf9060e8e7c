// Held back: the agent's files that look like they hold a credential are kept
// out of every commit that stages the agent's work (snapshots, adopting a
// folder). A store is a git repository, and a pushed commit cannot be
// unpushed; the file itself stays on disk untouched, reported each time, and
// is committed by the first snapshot after the credential is gone.
#pragma once

#include "config/config.hpp"
#include "git/repository.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace engram::engine {

// One file kept out of a commit: where the credential is and what it looks
// like, never the credential itself; or a file too large to be checked.
struct HeldBack {
  std::string path;        // store-relative, '/'-separated
  int line = 1;            // 1-based line of the credential
  std::string kind;        // e.g. "an AWS access key id"; empty for a file too large
  std::uintmax_t size = 0; // a file too large: its size, over `limit`; it was not read
  std::uintmax_t limit = 0;
  std::string other; // held back for another reason, said in full (a hard link)

  // Why it was held back, for a report after `path:line: `.
  std::string reason() const;
};

// An Admit for staging that refuses the bytes store::find_secret flags, a
// file whose name it flags, a file of the store at `root` with more than
// one hard link (its bytes may be another file's, outside the store), and
// any file over `max_bytes` (scan.max_file_bytes) unread, noting each
// refusal in `held` (which must outlive the staging).
git::Admit keep_out_secrets(std::vector<HeldBack>& held, std::uintmax_t max_bytes,
                            const std::filesystem::path& root);

// The secrets check's size limit for a store: scan.max_file_bytes.
std::uintmax_t held_back_limit(const config::Settings& settings);

// Warns once per file: `<root>/<path>:<line>: looks like <kind>; held back ...`.
void report_held_back(const std::filesystem::path& root, const std::vector<HeldBack>& held);

} // namespace engram::engine
