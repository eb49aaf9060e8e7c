// Profile: what kind of memory folder a store is, as data. engram's own
// four-layer store, Claude Code's auto memory, an OpenClaw workspace, the
// folders engram recognises and leaves alone (Letta's MemFS, basic-memory),
// or a folder engram does not know. A profile names the files the agent owns and
// loads itself (which engram never rewrites), who owns MEMORY.md, and the
// limits of the agent's loader; `engram init` detects one and says what it
// recognised, `engram status` shows it and measures the loader's limits.
#pragma once

#include "store/layout.hpp"

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
  std::string_view name{};                     // as `[[store]] profile = "…"` names it
  std::string_view agent{};                    // who keeps such a folder
  bool agent_owns_index = false;               // MEMORY.md is the agent's, not engram's
  std::vector<std::string_view> agent_files{}; // files the agent owns and loads; never rewritten
  // The agent files that hold what it knows, loaded into every session
  // (OpenClaw's USER.md, TOOLS.md, …): in the store's core layer, so a claim
  // they already state is not added again elsewhere; read, never written.
  std::vector<std::string_view> core_files{};
  // The one of them about the agent's user (OpenClaw's USER.md): its lines
  // leave the user unnamed, where notes name them ("" for none).
  std::string_view user_file{};
  std::vector<LoaderLimit> limits{};
  // Topic files at the root, in the layer their frontmatter `type` names.
  std::vector<std::pair<std::string_view, Layer>> root_types{};
  // The folder of the agent's session notes, when not engram's `episodic`.
  std::string_view episodic{};
  // What MEMORY.md is: "generated" (engram's index), "pointers" (the agent's
  // index of links, to which engram adds a line for each memory it lacks) or
  // "curated" (the agent's own text, left as written).
  std::string_view index_style = "generated";
  // The file the agent keeps its lasting knowledge in and loads every
  // session, into which decay appends what its notes taught ("" for none).
  std::string_view curated{};
  // The `type` of a new topic file engram makes at the root, per layer (named
  // `<type>_<subject>.md`); none: new files go to engram's layer folders.
  std::vector<std::pair<Layer, std::string_view>> topic_types{};
  // Why engram changes nothing in such a folder ("" when it keeps it): the
  // agent's own tool takes in every file there, so a file engram added or
  // rewrote would become the agent's memory, or its history.
  std::string_view hands_off{};
  // The agent's notes are its own log, which it searches (OpenClaw's daily
  // notes): decay copies their knowledge out and leaves each note in place.
  bool keep_notes = false;

  // The loader limit on `path`, or nullptr when the agent loads it whole.
  const LoaderLimit* limit_of(std::string_view path) const;
};

// `layout` as `profile` keeps its files: its root topic files, and its notes'
// folder where the configuration left engram's default.
void apply_profile(const Profile& profile, Layout& layout);

// The folders basic-memory's configuration (`home`/.basic-memory/config.json)
// names as its projects.
std::vector<std::filesystem::path> basic_memory_projects(const std::filesystem::path& home);

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

// The store's profile: `configured` when it names one (a [[store]]'s
// `profile`), else the one `engram init` recorded in the state folder, else
// the one its files look like now. `evidence` says which (empty for a
// configured one): "recorded by engram init …" or "detected: …".
struct Resolved {
  const Profile* profile = nullptr;
  bool configured = false;
  std::string evidence;
};
Resolved resolve_profile(const std::filesystem::path& root, std::string_view configured,
                         const std::string& state);

// Records `profile` as the one `engram init` found, in the state folder.
void record_profile(const std::filesystem::path& root, const std::string& state,
                    const Profile& profile);

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
