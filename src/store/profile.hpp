// Profile: what kind of memory folder a store is, as data. engram's own
// four-layer store, Claude Code's auto memory, an OpenClaw workspace, or a
// folder engram does not know. A profile names the files the agent owns and
// loads itself (which engram never rewrites), who owns MEMORY.md, and the
// limits of the agent's loader; `engram init` detects one and says what it
// recognised, `engram status` shows it and measures the loader's limits.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace engram::store {

// A limit of what an agent loads from one file at the start of a session.
struct LoaderLimit {
  std::string_view path;     // store-relative
  std::size_t max_lines = 0; // 0: no limit in lines
  std::size_t max_bytes = 0; // 0: no limit in bytes
  std::size_t max_chars = 0; // 0: no limit in characters (code points)
  std::string_view what;     // what happens past it, in the agent's words
};

// One kind of memory folder.
struct Profile {
  std::string_view name;                    // as `[[store]] profile = "…"` names it
  std::string_view agent;                   // who keeps such a folder
  bool agent_owns_index = false;            // MEMORY.md is the agent's, not engram's
  std::vector<std::string_view> agent_files; // files the agent owns and loads; never rewritten
  std::vector<LoaderLimit> limits;
};

// Every profile engram knows, the default (four-layer) first.
const std::vector<Profile>& profiles();

// The profile called `name`, or nullptr.
const Profile* profile_named(std::string_view name);

// What detection found in a folder: the profile and the signs it saw.
struct Detection {
  const Profile* profile = nullptr;
  std::string evidence; // "MEMORY.md of 4 pointer lines, 4 topic files with `type`"
};

// The profile a folder looks like, from what its files are, never from what
// they say beyond their first lines: an empty folder or engram's own layout
// is four-layer.
Detection detect_profile(const std::filesystem::path& root);

// One file measured against its loader's limit.
struct LoaderReading {
  LoaderLimit limit;
  bool present = false;
  std::size_t lines = 0;
  std::size_t bytes = 0;
  std::size_t chars = 0;

  // True when the agent's loader would not load all of it.
  bool over() const {
    return (limit.max_lines != 0 && lines > limit.max_lines) ||
           (limit.max_bytes != 0 && bytes > limit.max_bytes) ||
           (limit.max_chars != 0 && chars > limit.max_chars);
  }
};

// Each of `profile`'s loader limits, measured on the files under `root`.
std::vector<LoaderReading> read_loader_limits(const std::filesystem::path& root,
                                              const Profile& profile);

} // namespace engram::store
