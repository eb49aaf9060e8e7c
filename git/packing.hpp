// Packing: the loose objects each commit adds (a one-file change on a large
// store writes a large tree) moved into a pack, where each version of a tree
// is stored as its difference from another, and the loose copies removed.
// git itself does the packing (`git repack`); engram decides when, and says
// what it did.
#pragma once

#include "base/expected.hpp"
#include "git/git_progress.hpp"

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

// The loose objects of the store at `store`'s repository, counted when they
// may take more than `limit` bytes: from a sample of the object folders, an
// estimate under half of `limit` gives nullopt without looking at every
// object. Counted whole otherwise, or when the sample was every folder.
// Nothing when there is no repository.
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

// Packs the loose objects of the repository at `store` with git's own
// `git repack -d -l --geometric=2`, at low priority: every loose object git can read
// into one new pack, small packs merged into it so that the packs stay few
// (a pack marked `.keep` is never touched), and the loose copies removed once
// the pack holds them. A crash at any point leaves every object readable.
// Unreachable objects are packed, never pruned; one that cannot be read is
// left loose and counted in `left`. One packer at a time per repository (a
// lock file held with flock); another gets `busy`. `progress`, when set, is
// told of git's progress as it packs.
[[nodiscard]] Expected<Packed, std::string> pack_loose_objects(const std::filesystem::path& store,
                                                               const GitProgress& progress = {});

} // namespace engram::git
