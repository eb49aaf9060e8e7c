// The list-marker test shared by claim splitting and the section scan,
// private to claims/: one definition, so the two cannot disagree on where a
// list item starts.
#pragma once

#include <string_view>

namespace engram::claims::detail {

// Whether `line` (container prefix skipped) starts with a list marker.
[[nodiscard]] bool starts_with_list_marker(std::string_view line);

} // namespace engram::claims::detail
