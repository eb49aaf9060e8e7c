// Test stores: memory files written the way agents write them, and a store
// folder holding one file per way a file can be unusable. Header-only so unit
// and integration tests can both use it.
#pragma once

#include "lib/temp_dir.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

namespace engram::test {

// A valid semantic memory.
inline constexpr const char* k_good_semantic = R"(---
type: semantic
tags: [sqlite, pagination, shopify]
salience: medium
confidence: high
source: observed
status: confirmed
trigger: []
related: []
created: 2026-01-05
last-accessed: 2026-02-01
---
Shopify's admin API pages at 250 rows.
)";

// `[a, b, c]`: a YAML flow list.
inline std::string flow_list(const std::vector<std::string>& items) {
  std::string out = "[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += (i == 0 ? "" : ", ") + items[i];
  }
  return out + "]";
}

// A semantic memory with `tags`, created on `created`, and `body`.
inline std::string semantic_memory(const std::vector<std::string>& tags, const std::string& created,
                                   const std::string& body,
                                   const std::string& salience = "medium") {
  return "---\ntype: semantic\ntags: " + flow_list(tags) + "\nsalience: " + salience +
         "\nconfidence: high\nsource: observed\nstatus: confirmed\ntrigger: []\nrelated: []\n"
         "created: " +
         created + "\nlast-accessed: " + created + "\n---\n" + body;
}

// An episodic memory with `tags`, created on `created`, decaying after `decay_after`
// (no `decay-after` line when empty), and `body`.
inline std::string episodic_memory(const std::vector<std::string>& tags, const std::string& created,
                                   const std::string& decay_after, const std::string& body) {
  return "---\ntype: episodic\ntags: " + flow_list(tags) +
         "\nsalience: medium\nconfidence: medium\nsource: observed\nstatus: open\ntrigger: []\n"
         "related: []\ncreated: " +
         created + "\nlast-accessed: " + created + "\nretention: temporary\n" +
         (decay_after.empty() ? "" : "decay-after: " + decay_after + "\n") + "---\n" + body;
}

// The store-relative paths of the unusable files write_malformed_store writes,
// each with the 1-based line its diagnostic names (with scan.max_file_bytes = 4096).
inline std::vector<std::pair<std::string, int>> malformed_files() {
  return {
      {"semantic/unterminated.md", 1},       // the opening fence
      {"semantic/yaml-error.md", 3},         // the line YAML fails on
      {"semantic/tags-scalar.md", 4},        // the `tags:` line
      {"semantic/latin1.md", 6},             // the line with the bad byte
      {"reference/blob.md", 3},              // the line of its first NUL byte
      {"episodic/2026-01-01-huge.md", 1},    // over scan.max_file_bytes
      {"reference/outside.md", 1},           // a symlink leaving the store
      {"episodic/2026-03-01-meeting.md", 5}, // the `decay-after:` line
  };
}

// A store folder of one good file and one file per way a file can be unusable;
// `outside` is a file outside the store that a symlink in it points to.
inline void write_malformed_store(const std::filesystem::path& store,
                                  const std::filesystem::path& outside) {
  write_file(store / "WORKING.md", "---\ntype: working\n---\n# Working memory\n\n## Open items\n");
  write_file(store / "semantic" / "good.md", k_good_semantic);
  write_file(store / "semantic" / "unterminated.md",
             "---\ntype: semantic\ntags: [alpha, beta]\n\nThe fence never closes.\n");
  write_file(store / "semantic" / "yaml-error.md",
             "---\ntype: semantic\nsummary: broken: value\ntags: [alpha, beta]\n---\nBody.\n");
  write_file(store / "semantic" / "tags-scalar.md",
             "---\ntype: semantic\nsalience: medium\ntags: alpha, beta\n---\nBody.\n");
  write_file(
      store / "semantic" / "latin1.md",
      "---\ntype: semantic\ntags: [cafe, menu]\n---\nFirst line is fine.\nCaf\xe9 au lait.\n");
  write_file(store / "reference" / "blob.md", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
  write_file(store / "episodic" / "2026-01-01-huge.md",
             "---\ntype: episodic\n---\n" + std::string(10000, 'x') + "\n");
  write_file(store / "episodic" / "2026-03-01-meeting.md",
             "---\ntype: episodic\ntags: [meeting, planning]\ncreated: 2026-03-01\n"
             "decay-after: 12/31/2099\n---\nWe met.\n");
  write_file(outside, k_good_semantic);
  std::filesystem::create_directories(store / "reference");
  std::filesystem::create_symlink(outside, store / "reference" / "outside.md");
}

// The store-relative paths of the regular files under `root`, `.git` left out, sorted.
inline std::vector<std::string> files_under(const std::filesystem::path& root) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator();
       ++it) {
    if (it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    // The link test first: is_regular_file() follows a link, and throws on a loop.
    if (!it->is_symlink() && it->is_regular_file()) {
      files.push_back(fs::relative(it->path(), root).generic_string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The bytes of every regular file of the layers knowledge decays into
// (semantic/, procedural/, reference/), concatenated in path order.
inline std::string knowledge_text(const std::filesystem::path& store) {
  std::string all;
  for (const auto& path : files_under(store)) {
    if (path.starts_with("semantic/") || path.starts_with("procedural/") ||
        path.starts_with("reference/")) {
      all += read_file(store / path);
      all += '\n';
    }
  }
  return all;
}

} // namespace engram::test
