// Selection: the ranked memories read from disk and kept while they fit —
// at most `limit` of them, and at most `budget_chars` characters of context
// in all. A memory that would pass the budget is left out and the next one
// tried; a file that is gone or cannot be read is skipped (the index is
// rebuilt by the next consolidation). Never more than `max_file_bytes` of a file.
#pragma once

#include "recall/rank.hpp"
#include "recall/recall_index.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace engram::recall {

// How many candidates past the limit selection tries when some do not fit.
inline constexpr std::size_t k_extra_tries = 50;

// How much a selection may hold.
struct Limits {
  std::size_t limit = 10;                   // memories
  std::size_t budget_chars = 6000;          // characters of context, in all
  std::uintmax_t max_file_bytes = 1 << 20;  // read of one file
};

// One memory recall returns.
struct Memory {
  std::string path;     // store-relative
  double score = 0;
  std::string via;      // the match whose `related` brought it; empty when it matched itself
  std::string content;  // the file's bytes
  std::size_t chars = 0;// characters of its context block
};

// What selection kept and what it could not read.
struct Selection {
  std::vector<Memory> memories;
  std::vector<std::string> unreadable; // `path: reason`
  std::size_t chars = 0;               // of every context block
};

// The context block of one memory: a `### path` heading and its contents.
std::string context_block(const std::string& path, std::string_view content);

// Reads candidates best first, keeping what fits `limits`.
Selection select(const RecallIndex& index, const std::vector<Candidate>& ranked,
                 const std::filesystem::path& root, const Limits& limits);

} // namespace engram::recall
