// What the recall index's writer (recall_index_build.cpp) and its reader
// (recall_index.cpp) must agree on, private to recall/.
#pragma once

#include <string_view>

namespace engram::recall::detail {

// The first line of every recall index, before the stamp.
inline constexpr std::string_view k_magic = "engram-recall\t1\t";

} // namespace engram::recall::detail
