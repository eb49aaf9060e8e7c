// Durability: making what was written survive a crash of the machine, for
// the steps that need it (the store's writes, the repository's objects).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace engram {

// Flushes the whole file system holding the folder `folder` (syncfs): one
// call makes every file written before it durable, where an fsync per file
// costs one disk flush each. nullopt when done, else why not.
std::optional<std::string> sync_file_system(const std::filesystem::path& folder);

} // namespace engram
