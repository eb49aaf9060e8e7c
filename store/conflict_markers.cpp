// Conflict markers: one pass over the lines, each marker seven characters
// at the start of its line, as git writes them.
#include "store/conflict_markers.hpp"

namespace engram::store {

namespace {

// True when `line` is the marker `mark` (seven of one character), alone or
// followed by a space and a label.
bool is_marker(std::string_view line, char mark) {
  if (!line.empty() && line.back() == '\r') {
    line.remove_suffix(1);
  }
  if (line.size() < 7 || line.find_first_not_of(mark) < 7) {
    return false;
  }
  return line.size() == 7 || line[7] == ' ';
}

} // namespace

std::optional<int> conflict_marker_line(std::string_view text) {
  int number = 1;
  std::optional<int> opened;
  bool divided = false;
  for (std::size_t pos = 0; pos <= text.size(); ++number) {
    const auto nl = text.find('\n', pos);
    const std::size_t end = nl == std::string_view::npos ? text.size() : nl;
    const auto line = text.substr(pos, end - pos);
    if (is_marker(line, '<')) {
      opened = number;
      divided = false;
    } else if (opened && (line == "=======" || line == "=======\r")) {
      divided = true;
    } else if (opened && divided && is_marker(line, '>')) {
      return opened;
    }
    if (nl == std::string_view::npos) {
      break;
    }
    pos = nl + 1;
  }
  return std::nullopt;
}

} // namespace engram::store
