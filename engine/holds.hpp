// Holds: what keeps an undo undone. A rollback or a restore names, in its
// commit (`Engram-Hold: <path>` trailers), the files it brought back; while
// every one of them is as the undo left it, the rules leave them alone, so
// the next consolidation does not redo what was undone. The first change to
// any of them (an agent's edit, a person's) ends the hold. Each
// consolidation commit names the holds still in force (`Engram-Holding:
// <undo id>`), so finding them reads history back to the last consolidation
// only; nothing is kept outside history, so a hold survives a restart and a
// clone.
#pragma once

#include "git/repository.hpp"
#include "store/layout.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace engram::engine {

// One undo whose files the rules leave alone.
struct Hold {
  std::string undo;               // the rollback's or restore's commit (full id)
  std::string summary;            // its summary line
  std::int64_t time = 0;          // its commit time, seconds since the epoch
  std::vector<std::string> paths; // the files it holds, sorted
};

// The trailer an undo names each held file with, and the one a consolidation
// names each hold still in force with.
inline constexpr std::string_view k_hold_trailer = "Engram-Hold";
inline constexpr std::string_view k_holding_trailer = "Engram-Holding";

// Whether an undo that changed `path` holds it: every memory file but the
// generated index (MEMORY.md and `.index.json`), which the index rule
// rebuilds from the others and never redoes anything.
bool holdable(const store::Layout& layout, std::string_view path);

// The holds in force at HEAD, oldest first. Throws engram::Error when the
// history cannot be read.
std::vector<Hold> active_holds(const git::Repository& repository);

// The holds in force in the store at `root`; none when it is no repository
// (`engram status` on a folder not yet initialised).
std::vector<Hold> holds_at(const std::filesystem::path& root);

// Every path the holds hold, sorted, without repeats.
std::vector<std::string> held_paths(const std::vector<Hold>& holds);

} // namespace engram::engine
