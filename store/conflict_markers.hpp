// Conflict markers: the lines git leaves in a file a merge could not join
// (`<<<<<<< ours`, `=======`, `>>>>>>> theirs`). Such a file is half of two
// versions; it is not read as memories and not committed until the user
// resolves it.
#pragma once

#include <optional>
#include <string_view>

namespace engram::store {

// The 1-based line of the first `<<<<<<<` that `=======` and `>>>>>>>` lines
// follow, in that order; nullopt when the text holds no conflict.
std::optional<int> conflict_marker_line(std::string_view text);

} // namespace engram::store
