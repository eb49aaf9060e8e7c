// The recall index: `.index.json` reduced to what ranking needs, with every
// word already in canonical form, kept in `<store>/.engram/recall.idx`.
// Parsing a 10,000-entry `.index.json` and stemming its words takes a good
// part of a second; reading this takes about a millisecond. It is derived
// state, never committed: rebuilt whenever `.index.json` is not the file it
// was made from (size, modification time, inode), by a consolidation after
// its commit and, failing that, by the first recall that finds it stale.
//
// The format, one record a line, fields split by tabs:
//   engram-recall 2 <size> <mtime-ns> <inode>     the header: what it was made from
//   E <path> <salience 1-3> <episodic 0/1> <created|-> <related entry numbers, comma-separated|->
//   W <keyword> <entry>:<match bits>,…            sorted by keyword
// Entries are numbered from 0 in the order of their E lines.
#pragma once

#include "base/mapped_file.hpp"
#include "engram/date.hpp"
#include "store/layout.hpp"

#include <cstdint>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace engram::recall {

// What a keyword matched in an entry (bits of a posting).
enum MatchBits : unsigned {
  k_match_tag = 1,     // one of its tags
  k_match_trigger = 2, // one of its trigger words
  k_match_summary = 4, // its summary
};

// The identity of the `.index.json` a recall index was made from.
struct SourceStamp {
  std::uintmax_t size = 0;
  std::int64_t mtime_ns = 0;
  std::uint64_t inode = 0;

  // Equal when all three are.
  bool operator==(const SourceStamp&) const = default;
};

// The stamp of `file` now; nullopt when it does not exist or is not a regular file.
std::optional<SourceStamp> stamp_of(const std::filesystem::path& file);

// One memory as recall sees it.
struct Entry {
  std::string_view path;       // store-relative
  int salience = 2;            // high 3, medium 2 (also when missing), low 1
  bool episodic = false;       // its type or layer is episodic
  std::optional<Date> created; // nullopt when missing or not a date
  std::string_view related;    // entry numbers, comma-separated; empty for none
};

// A loaded recall index. Move-only; the entries point into its text.
class RecallIndex {
public:
  // The compact text for the `.index.json` bytes `index_json`, whose stamp is
  // `stamp`. Left out: superseded memories, the files agents load whole
  // (working memory, core memory, MEMORY.md), paths with a tab or newline.
  // Throws engram::Error when `index_json` is not an index.
  static std::string build(std::string_view index_json, const SourceStamp& stamp,
                           const store::Layout& layout);

  // build() in two steps: the records (every line but the header), which
  // depend on the bytes alone and are most of the cost, and the whole text
  // once the stamp of the file holding those bytes is known.
  static std::string records(std::string_view index_json, const store::Layout& layout);
  static std::string stamped(const SourceStamp& stamp, std::string_view records);

  // Reads compact text; nullopt when it is not in this format.
  static std::optional<RecallIndex> parse(std::string text);

  // parse(), of a mapped recall index file (kept mapped while the index lives).
  static std::optional<RecallIndex> parse(MappedFile file);

  // The stamp of the `.index.json` it was made from.
  const SourceStamp& source() const { return m_source; }

  // How many entries it has.
  std::size_t size() const { return m_entry_lines.size(); }

  // Entry `number` (< size()), parsed from its line when first asked for:
  // a recall reads the few entries its keywords reach, not all of them.
  const Entry& entry(std::uint32_t number) const;

  // The (entry, match bits) pairs of `keyword`; empty when no entry has it.
  std::vector<std::pair<std::uint32_t, unsigned>> postings(std::string_view keyword) const;

  // The entries `entry`'s `related` field names (those in the index).
  std::vector<std::uint32_t> related(std::uint32_t entry) const;

private:
  RecallIndex() = default;

  // Finds the header and the lines of `all`, the text now owned; false when
  // it is not in this format.
  bool read_lines(std::string_view all);

  // Own what the views below point into: the built text, or the mapped file.
  std::unique_ptr<std::string> m_text;
  MappedFile m_mapped;
  SourceStamp m_source;
  std::vector<std::string_view> m_entry_lines; // each E line, by entry number
  std::vector<std::string_view> m_word_lines;  // each W line, sorted by keyword
  // The entries parsed so far, and where each is in it by number (0: not yet,
  // else its place + 1): a recall reaches a part of them, and a whole Entry
  // for each would be fresh memory (page faults) for all of them.
  mutable std::deque<Entry> m_parsed;
  mutable std::vector<std::uint32_t> m_parsed_at;
};

// Where a store keeps its recall index.
std::filesystem::path index_path(const std::filesystem::path& root, const store::Layout& layout);

// The store's recall index, rebuilt from `.index.json` when missing or stale
// (and saved, when the state folder can be written); nullopt when the store
// has no `.index.json` yet. Throws engram::Error when `.index.json` cannot be read.
std::optional<RecallIndex> load(const std::filesystem::path& root, const store::Layout& layout);

// `.index.json` bytes and their records (RecallIndex::records), made before
// the file was written: a consolidation makes them from its plan while it
// applies and commits it.
struct Prepared {
  std::string_view index_json; // the bytes the records were made from
  std::string records;
};

// Rebuilds and saves the recall index when it is missing or stale; true when
// it did. With `prepared`, its records are used when `.index.json` holds
// exactly its bytes; otherwise the index is built from the file. Throws
// engram::Error when `.index.json` cannot be read.
bool refresh(const std::filesystem::path& root, const store::Layout& layout,
             const Prepared* prepared = nullptr);

} // namespace engram::recall
