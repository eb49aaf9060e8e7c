// Kept notes: the notes a profile keeps where the agent wrote them once
// their knowledge is absorbed (OpenClaw's daily notes, a log its agent
// searches; store::Profile::keep_notes). Each absorbed note is listed in the
// state folder with the hash of its bytes; while it holds those bytes, the
// rules leave it alone, so nothing in it is taken twice. A note the agent
// changes afterwards is taken again, and what it already gave is found where
// it went and not added twice.
#pragma once

#include "engine/plan.hpp"
#include "store/layout.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace engram::engine {

// The notes absorbed before that still hold the bytes they were absorbed
// with: the rules must leave them as they are. Empty for a profile that
// removes its decayed notes.
std::vector<std::string> kept_notes(const std::filesystem::path& root, const store::Layout& layout);

// Lists each note the committed `record` decayed and that is still in the
// store, with the hash of its bytes now. A list that cannot be written is
// said in the log: its notes are taken again next time, and give nothing new.
void note_kept(const std::filesystem::path& root, const store::Layout& layout,
               const std::vector<Action>& record);

} // namespace engram::engine
