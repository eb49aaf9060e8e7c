// Temporaries: one list of names, read both as a predicate and as patterns.
#include "store/temporaries.hpp"

#include <algorithm>
#include <array>

namespace engram::store {

namespace {

// File name endings of editor swap files and temporaries (vim, engram's own `.name.XXXXXX.tmp`).
constexpr std::array<std::string_view, 4> k_temporary_suffixes = {".swp", ".swo", ".swx", ".tmp"};

} // namespace

bool is_editor_temporary(std::string_view name) {
  if (name.empty()) {
    return false;
  }
  // vim's probe for a writable folder; vim, emacs and nano backups; emacs
  // autosaves and lock links; LibreOffice locks.
  if (name == "4913" || name.ends_with('~') || name.starts_with(".#") ||
      name.starts_with(".~lock.")) {
    return true;
  }
  if (name.size() >= 2 && name.front() == '#' && name.back() == '#') {
    return true;
  }
  return std::any_of(k_temporary_suffixes.begin(), k_temporary_suffixes.end(),
                     [name](std::string_view suffix) { return name.ends_with(suffix); });
}

const std::vector<std::string>& temporary_patterns() {
  static const std::vector<std::string> patterns = [] {
    std::vector<std::string> out{"4913", "*~", ".#*", ".~lock.*", "\\#*#"};
    for (const auto suffix : k_temporary_suffixes) {
      out.push_back("*" + std::string(suffix));
    }
    return out;
  }();
  return patterns;
}

} // namespace engram::store
