// Temporaries: the files editors and engram write beside a memory for a
// moment (swap files, backups, autosaves, locks). They are never memories
// and never reach history: the watcher takes no change of them, a snapshot
// commits none, and a store's `.gitignore` and git's exclude list name them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace engram::store {

// True for a file name an editor uses for a temporary, a backup or a lock
// (vim's `.name.swp` and `4913`, `name~`, emacs's `#name#` and `.#name`,
// LibreOffice's `.~lock.name#`), or a temporary of engram's own (`.tmp`).
bool is_editor_temporary(std::string_view name);

// The same names as gitignore patterns, for a store's `.gitignore` and
// git's info/exclude.
const std::vector<std::string>& temporary_patterns();

} // namespace engram::store
