// What the recall index's writer (recall_index_build.cpp) and its reader
// (recall_index.cpp) must agree on, private to recall/.
#pragma once

#include <string_view>

namespace engram::recall::detail {

// The first line of every recall index, before the stamp. Its version
// changes with what an index leaves out, so that one an older engram made
// is rebuilt, not read: version 2 leaves out the files an agent loads whole
// every session (OpenClaw's USER.md, TOOLS.md, …), which version 1 listed.
inline constexpr std::string_view k_magic = "engram-recall\t2\t";

} // namespace engram::recall::detail
