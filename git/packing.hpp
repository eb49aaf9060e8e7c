// Packing: the loose objects each commit adds (a one-file change on a
// 100,000-file store writes a 1.2 MB tree) moved into one pack, where each
// version of a tree is stored as its difference from another, and the loose
// copies removed. What `git gc` does for loose objects, without its pruning.
#pragma once

#include "base/expected.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace engram::git {

// The repository's loose objects: one file each under .git/objects/XX/.
struct LooseObjects {
  std::uint64_t count = 0;
  std::uint64_t bytes = 0; // on disk, as stored (deflated)
};

// The loose objects of the repository whose working tree is `store` (its
// `.git` folder; a gitdir file is followed), counted when they may take more
// than `limit` bytes: from a sample of the object folders, an estimate under
// half of `limit` gives nullopt without looking at every object. Counted
// whole otherwise, or when the sample was every folder. Nothing when there
// is no repository.
std::optional<LooseObjects> loose_objects_if_near(const std::filesystem::path& store,
                                                  std::uint64_t limit);

// What pack_loose_objects did.
struct Packed {
  bool busy = false;             // another process was packing this repository: nothing done
  std::uint64_t objects = 0;     // loose objects now in the new pack, their loose copies removed
  std::uint64_t loose_bytes = 0; // what those loose copies took
  std::uint64_t pack_bytes = 0;  // the new pack and its index
  std::uint64_t left = 0;        // loose objects that could not be read, left as they are
  std::size_t merged_packs = 0;  // packs merged into the new pack and removed (0: none)
  std::string pack;              // the new pack's file, relative to .git ("" when none)
};

// Which packs a packing merges, given their sizes smallest first: the first
// N (0: none). As `git repack --geometric=2`: the packs that already grow by
// at least twice their predecessor stay, the smaller ones are merged, and so
// is each next one smaller than twice their total. The packs stay few
// (logarithmic in the history's size) and each object is merged again only
// about as many times.
std::size_t geometric_split(const std::vector<std::uint64_t>& ascending);

// Writes every loose object of the repository at `store` into one new pack
// (libgit2's packbuilder: similar objects stored as deltas of one another),
// makes it durable, checks that the pack holds each object, and only then
// removes each loose copy. Then merges small packs into one the same way
// (geometric_split), each old pack removed once the new one holds it all. An object written
// meanwhile is not listed and stays loose; one that cannot be read is left loose and counted in
// `left`. Nothing is ever removed that the new pack does not hold, so a crash at any point leaves
// every object readable. One packer at a time per repository (a lock file held with flock); another
// gets `busy`.
[[nodiscard]] Expected<Packed, std::string> pack_loose_objects(const std::filesystem::path& store);

} // namespace engram::git
