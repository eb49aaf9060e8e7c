// Temporary files: the steps of an atomic write (atomic_write.hpp), shared
// with apply, which writes a whole plan's temporaries before renaming any.
#pragma once

#include "engine/atomic_write.hpp"

#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace engram::engine::detail {

// A temporary file holding a change's new bytes, not yet renamed into place.
struct Temporary {
  std::filesystem::path target;
  std::string path;
  int fd = -1; // open until renamed, when the caller asked to keep it so
};

// Whether write_temporary closes the temporary or leaves it open.
enum class KeepOpen : bool { no, yes };

// Whether write_temporary makes the temporary's folder first.
enum class Folder : bool { make, made };

// Creates `.<name>.XXXXXX.tmp` beside `path` and writes `parts` to it, one
// after the other, with the permissions the file at `path` must keep: the
// replaced file's mode and owner, else a mode as restrictive as its folder's,
// at most 0644. Not flushed: the caller makes every temporary durable at once.
// KeepOpen::yes returns it still open: recovery's sweep (remove_temporaries)
// leaves alone a temporary some process holds open, so a writer outside the
// run lock (`engram append`) holds its own until the rename.
// Its folder is made first, unless the caller made it (Folder::made).
Temporary write_temporary(const std::filesystem::path& path,
                          std::span<const std::string_view> parts, KeepOpen keep = KeepOpen::no,
                          Folder folder = Folder::make);

// Removes temporaries from `from` on that will not be renamed (a failed apply).
void discard(const std::vector<Temporary>& temporaries, std::size_t from);

// Renames a temporary over its target. Throws engram::Error on failure.
void rename_into_place(const Temporary& temporary);

// Makes the renames or unlinks in the folders of each of `paths` durable.
void sync_folders(const std::vector<std::filesystem::path>& paths);

// write_atomically_over, of `parts` one after the other.
bool write_parts_over(const std::filesystem::path& path, std::span<const std::string_view> parts,
                      const std::optional<std::string>& base_hash, Unchanged check,
                      const std::function<void(const std::filesystem::path&)>& place = {});

} // namespace engram::engine::detail
