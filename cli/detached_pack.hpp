// Detached packing: after a full `engram consolidate` that ran without a
// daemon, the loose objects the store's commits added are packed once they
// pass `git.pack_loose_bytes`, by `engram pack` started as a process of its
// own that the command does not wait for (as `git gc --auto` detaches). With
// a daemon, the daemon's packer does it.
#pragma once

#include "cli/app.hpp"
#include "cli/store_selection.hpp"

namespace engram::cli {

// Counts the store's loose objects and, when they take more than its
// `git.pack_loose_bytes` (0: never), starts `engram pack` on it detached: its
// own session, standard streams on /dev/null, a low priority. Says so at
// debug level; a failure to start it is a warning, never the command's.
void pack_detached_if_due(const Globals& globals, const SelectedStore& selected);

} // namespace engram::cli
