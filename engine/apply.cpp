// Apply: the only code that changes memory files on disk.
#include "engine/apply.hpp"

#include "base/durability.hpp"
#include "base/error.hpp"
#include "base/fault.hpp"
#include "base/parallel.hpp"
#include "base/regular_file.hpp"
#include "base/step_timer.hpp"
#include "base/write_all.hpp"
#include "engine/replaced_files.hpp"
#include "engine/temporary_file.hpp"
#include "store/scan.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <fmt/format.h>
#include <functional>
#include <limits>
#include <span>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

namespace engram::engine {
namespace fs = std::filesystem;

using namespace detail;

namespace {

// Puts back the files of the first `count` writes, renamed into place
// already: each its bytes before the plan (a new file removed), while it
// still holds the plan's bytes; a file written again since keeps its writer's.
void undo_renames(const std::vector<FileChange>& changes, const std::vector<std::size_t>& writes,
                  std::size_t count, const fs::path& root) {
  for (std::size_t j = 0; j < count; ++j) {
    const FileChange& change = changes[writes[j]];
    const fs::path path = root / change.path;
    const auto ours = store::content_hash(*change.new_bytes);
    if (!change.base_hash) {
      if (disk_hash(path) == ours) {
        ::unlink(path.c_str());
      }
      continue;
    }
    if (!change.base_bytes || store::content_hash(*change.base_bytes) != *change.base_hash) {
      spdlog::error("{}: written by this run and cannot be put back as it was; its bytes before "
                    "are in HEAD",
                    path.string());
      continue;
    }
    const std::string_view before = *change.base_bytes;
    if (!write_parts_over(path, {&before, 1}, ours, Unchanged::required)) {
      spdlog::warn("{}: written again since this run replaced it; the writer's bytes are kept",
                   path.string());
    }
  }
}

} // namespace

namespace {

// Renames each temporary into place, in plan order, every change still as
// planned (`as_planned`, by index into `changes`): all of them once more
// before the first rename, as one — an agent's write to any file since the
// hash defers the whole plan, not only the file written (an item moved out
// of WORKING.md must not leave it while its target keeps the agent's
// bytes) — then each just before its own. One written in the moment since
// undoes the renames made. The paths written; nullopt: defer the whole plan.
// `place` puts each change's temporary in place (by the change's index).
std::optional<std::vector<std::string>>
rename_all(const std::vector<FileChange>& changes, const std::vector<std::size_t>& writes,
           const std::vector<std::size_t>& removals, std::vector<Temporary>& temporaries,
           const std::function<bool(std::size_t)>& as_planned,
           const std::function<void(std::size_t, const Temporary&)>& place, const fs::path& root) {
  std::vector<std::string> written;
  std::vector<fs::path> renamed;
  for (std::size_t i = 0; i < temporaries.size(); ++i) {
    const std::size_t n = i + 1;
    fault_point(fmt::format("before-rename-{}", n));
    const bool still = i == 0 ? std::all_of(writes.begin(), writes.end(), as_planned) &&
                                    std::all_of(removals.begin(), removals.end(), as_planned)
                              : as_planned(writes[i]);
    if (!still) {
      discard(temporaries, i);
      undo_renames(changes, writes, i, root);
      sync_folders(renamed);
      return std::nullopt;
    }
    try {
      place(writes[i], temporaries[i]);
    } catch (...) {
      discard(temporaries, i);
      throw;
    }
    renamed.push_back(temporaries[i].target);
    written.push_back(changes[writes[i]].path);
    fault_point(fmt::format("after-write-{}", n));
  }
  sync_folders(renamed);
  return written;
}

} // namespace

namespace {

// What the file at `path` holds after the bytes `change` was planned from,
// when it holds those bytes followed by more: an agent appended since the
// plan read it. Only a write counts (a removal of a file with new lines would
// take them away), and only after a whole line (an append must not join the
// plan's last line).
std::optional<std::string> appended_tail(const fs::path& path, const FileChange& change) {
  if (!change.new_bytes || !change.base_hash || !change.base_bytes) {
    return std::nullopt;
  }
  const std::string_view base = *change.base_bytes;
  if (!base.empty() && base.back() != '\n') {
    return std::nullopt;
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return std::nullopt;
  }
  std::string bytes;
  const bool read =
      read_to_end(fd, base.size(), std::numeric_limits<std::uintmax_t>::max() - 1, bytes);
  ::close(fd);
  if (!read || bytes.size() <= base.size() || !bytes.starts_with(base)) {
    return std::nullopt;
  }
  return bytes.substr(base.size());
}

// Notes every file the plan replaces or removes with `replaced` (its index
// there, by change), before the first rename; nothing without one.
std::vector<std::optional<std::size_t>> begin_keeping(const std::vector<FileChange>& changes,
                                                      const std::vector<DiskState>& seen,
                                                      ReplacedFiles* replaced) {
  std::vector<std::optional<std::size_t>> kept(changes.size());
  if (replaced == nullptr) {
    return kept;
  }
  std::vector<Replacing> files;
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const auto& change = changes[i];
    if (!change.base_hash) {
      continue; // a new file replaces nothing
    }
    const auto size = change.base_bytes ? change.base_bytes->size()
                                        : static_cast<std::uintmax_t>(seen[i].identity.size);
    kept[i] = files.size();
    files.push_back(Replacing{change.path, size, *change.base_hash});
  }
  replaced->begin(files);
  return kept;
}

} // namespace

ApplyResult apply(const Plan& plan, const fs::path& root) {
  return apply(plan.changes, root);
}

namespace {

// The changes' indexes sorted into writes and removals, and each write's new
// bytes in a temporary beside its file, all of them flushed by one syncfs.
struct Staged {
  std::vector<std::size_t> writes;   // the change each temporary holds
  std::vector<std::size_t> removals; // indexes into changes
  std::vector<Temporary> temporaries;
};

Staged write_temporaries(const std::vector<FileChange>& changes, const fs::path& root,
                         StepTimer& timer) {
  Staged staged;
  try {
    std::vector<fs::path> folders;
    for (std::size_t i = 0; i < changes.size(); ++i) {
      if (!changes[i].new_bytes) {
        staged.removals.push_back(i);
        continue;
      }
      staged.writes.push_back(i);
      folders.push_back((root / changes[i].path).parent_path());
    }
    // Each folder made once, not looked up again for each of its files. One
    // thread: two measured no faster, each create waiting on its folder's lock.
    std::sort(folders.begin(), folders.end());
    folders.erase(std::unique(folders.begin(), folders.end()), folders.end());
    for (const auto& folder : folders) {
      std::error_code ec;
      fs::create_directories(folder, ec);
    }
    for (const std::size_t w : staged.writes) {
      const std::string_view bytes = *changes[w].new_bytes;
      staged.temporaries.push_back(
          write_temporary(root / changes[w].path, {&bytes, 1}, KeepOpen::no, Folder::made));
    }
    timer.step("temporaries");
    if (!staged.temporaries.empty()) {
      sync_filesystem(root);
    }
    timer.step("flush");
  } catch (...) {
    discard(staged.temporaries, 0);
    throw;
  }
  return staged;
}

// Removes the files of `removals` that are still as planned (`remove_one`
// removes one), into `result`: removed, or deferred. Each removal is
// independent of the others once every write is durable, and where the file
// system discards a file's blocks as it goes each unlink waits for the
// device: removed from several threads, the waits overlap. Results are taken
// in plan order; the fault points count removals as they happen.
void remove_all(const std::vector<FileChange>& changes, const std::vector<std::size_t>& removals,
                const fs::path& root, const std::function<bool(std::size_t)>& as_planned,
                const std::function<void(std::size_t)>& remove_one, ApplyResult& result) {
  enum class Removal : char { not_tried, deferred, removed };
  std::vector<Removal> outcome(removals.size(), Removal::not_tried);
  std::atomic<std::size_t> done{0};
  const auto collect = [&] {
    std::vector<fs::path> unlinked;
    for (std::size_t k = 0; k < removals.size(); ++k) {
      const auto& path = changes[removals[k]].path;
      if (outcome[k] == Removal::removed) {
        unlinked.push_back(root / path);
        result.removed.push_back(path);
      } else if (outcome[k] == Removal::deferred) {
        result.deferred.push_back(path);
      }
    }
    sync_folders(unlinked);
  };
  constexpr std::size_t k_removals_per_thread = 64;
  constexpr std::size_t k_removal_threads = 4;
  try {
    for_each_waiting(removals.size(), k_removals_per_thread, k_removal_threads, [&](std::size_t k) {
      if (!as_planned(removals[k])) {
        outcome[k] = Removal::deferred;
        return;
      }
      remove_one(removals[k]);
      outcome[k] = Removal::removed;
      fault_point(fmt::format("after-remove-{}", ++done));
    });
  } catch (...) {
    collect(); // what was removed is made durable before the failure is told
    throw;
  }
  collect();
}

// The plan again, where the agent only appended to a file since the plan
// read it: that file's change made from what it holds now, its new bytes
// followed by the agent's lines, its temporary written again. The agent's
// lines are in the file engram puts in place, so no reader ever finds them
// gone (a writer that reads the file and saves it whole would drop lines
// carried over later). `adjusted` stays empty when nothing was appended to;
// false: a file was rewritten otherwise, and the whole plan waits.
bool take_appends(const std::vector<FileChange>& changes, const fs::path& root, Staged& staged,
                  std::vector<DiskState>& seen, std::vector<FileChange>& adjusted) {
  for (std::size_t i = 0; i < changes.size(); ++i) {
    if (seen[i].hash == changes[i].base_hash) {
      continue;
    }
    const auto tail = appended_tail(root / changes[i].path, changes[i]);
    if (!tail) {
      return false;
    }
    if (adjusted.empty()) {
      adjusted = changes;
    }
    FileChange& change = adjusted[i];
    const auto base = std::make_shared<const std::string>(*change.base_bytes + *tail);
    change.base_bytes = base;
    change.base_hash = store::content_hash(*base);
    change.new_bytes = *change.new_bytes + *tail;
    const auto k = static_cast<std::size_t>(
        std::find(staged.writes.begin(), staged.writes.end(), i) - staged.writes.begin());
    ::unlink(staged.temporaries[k].path.c_str());
    const std::string_view bytes = *change.new_bytes;
    auto temporary = write_temporary(root / change.path, {&bytes, 1}, KeepOpen::yes, Folder::made);
    const bool flushed = ::fsync(temporary.fd) == 0;
    ::close(temporary.fd);
    temporary.fd = -1;
    staged.temporaries[k] = std::move(temporary);
    if (!flushed) {
      throw Error("{}: cannot flush: {}", change.path, std::strerror(errno));
    }
    seen[i] = disk_state(root / change.path);
  }
  return true;
}

} // namespace

// The order makes every step safe to die in and cheap on a large plan: all
// new contents go to temporaries, one syncfs makes them durable together
// (one flush instead of one per file), then the renames, one fsync per
// folder, and only then the removals, again with one fsync per folder. A
// removal is never durable before the writes that took its claims.
//
// Each file is hashed once, after the flush (the slow step): any file that
// is not as the plan read it defers everything. Just before its own rename
// or removal, one stat shows a file is still the one hashed; only a file
// whose stat says otherwise is hashed again.
//
// The changes of a plan belong together (an item moved out of WORKING.md
// and into an episodic file): when an agent wrote any of the files after
// the plan read them, nothing is written and everything waits for the next
// run. Writing the rest would take a moved item out of its source while its
// target keeps the agent's bytes, and the item would be gone.
ApplyResult apply(const std::vector<FileChange>& changes, const fs::path& root,
                  ReplacedFiles* replaced) {
  ApplyResult result;
  StepTimer timer;
  const auto defer_all = [&] {
    for (const auto& change : changes) {
      result.deferred.push_back(change.path);
    }
    return result;
  };
  Staged staged = write_temporaries(changes, root, timer);
  // Reading and hashing every file again is independent work per file.
  std::vector<DiskState> seen(changes.size());
  constexpr std::size_t k_hashes_per_thread = 64;
  for_each_index(changes.size(), k_hashes_per_thread,
                 [&](std::size_t i) { seen[i] = disk_state(root / changes[i].path); });
  // With the replaced files kept, a file the agent only appended to since
  // the plan read it is no reason to wait: its lines are written with ours.
  std::vector<FileChange> adjusted; // the plan, where the agent appended since it read
  bool as_planned = true;
  try {
    as_planned = replaced != nullptr ? take_appends(changes, root, staged, seen, adjusted)
                                     : std::equal(seen.begin(), seen.end(), changes.begin(),
                                                  [](const DiskState& s, const FileChange& c) {
                                                    return s.hash == c.base_hash;
                                                  });
  } catch (...) {
    discard(staged.temporaries, 0);
    throw;
  }
  if (!as_planned) {
    discard(staged.temporaries, 0);
    return defer_all();
  }
  const std::vector<FileChange>& plan = adjusted.empty() ? changes : adjusted;
  timer.step("hash");
  // Checked again at the last moment: the agent may have written meanwhile;
  // an append made since is carried over from the replaced file.
  const auto still_as_planned = [&](std::size_t i) {
    const auto path = root / plan[i].path;
    return unchanged_since(path, seen[i]) || disk_hash(path) == plan[i].base_hash ||
           (replaced != nullptr && appended_tail(path, plan[i]));
  };
  const auto kept = begin_keeping(plan, seen, replaced);
  const auto place = [&](std::size_t i, const Temporary& temporary) {
    if (kept[i]) {
      replaced->replace(*kept[i], temporary.path);
    } else {
      rename_into_place(temporary);
    }
  };
  auto written = rename_all(plan, staged.writes, staged.removals, staged.temporaries,
                            still_as_planned, place, root);
  if (!written) {
    return defer_all();
  }
  result.written = std::move(*written);
  timer.step("renames");
  fault_point("before-remove");
  remove_all(
      plan, staged.removals, root, still_as_planned,
      [&](std::size_t i) {
        const auto path = root / plan[i].path;
        if (kept[i]) {
          (void)replaced->move_aside(*kept[i]); // gone already: nothing to keep
        } else if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
          throw Error("{}: cannot remove: {}", path.string(), std::strerror(errno));
        }
      },
      result);
  timer.step("removals");
  spdlog::debug("{}: apply: {}", root.string(), timer.line());
  return result;
}

} // namespace engram::engine
