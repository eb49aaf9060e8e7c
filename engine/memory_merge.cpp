// Memory merge: reading the three versions, deciding claim by claim, writing
// the body and the frontmatter, and checking that what was written reads back
// as a memory file (engine/memory_merge.hpp).
#include "engine/memory_merge.hpp"

#include "engine/merge_body.hpp"
#include "engine/merge_claims.hpp"
#include "engine/merge_fields.hpp"
#include "store/conflict_markers.hpp"
#include "store/memory_file.hpp"

#include <fmt/format.h>
#include <new>

namespace engram::engine {
namespace {

// A version read as a memory file, or why it cannot be merged.
Expected<store::MemoryFile, store::Diagnostic>
read_version(std::string_view text, const std::string& name, const std::string& path) {
  auto file = store::MemoryFile::parse(path, text);
  if (!file) {
    auto diagnostic = file.error();
    diagnostic.reason = fmt::format("{}'s version: {}", name, diagnostic.reason);
    return unexpected(std::move(diagnostic));
  }
  if (const auto line = store::conflict_marker_line(text)) {
    return unexpected(
        store::Diagnostic{path, *line, fmt::format("{}'s version holds conflict markers", name)});
  }
  return file;
}

// True when every line of `text` ends in "\r\n" (and there is at least one).
bool all_crlf(std::string_view text) {
  std::size_t lines = 0;
  for (auto at = text.find('\n'); at != std::string_view::npos; at = text.find('\n', at + 1)) {
    if (at == 0 || text[at - 1] != '\r') {
      return false;
    }
    ++lines;
  }
  return lines > 0;
}

// `text` with every "\n" as "\r\n".
std::string crlf(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 32);
  for (char c : text) {
    if (c == '\n') {
      out += '\r';
    }
    out += c;
  }
  return out;
}

// The side whose values win: the later time, then the greater name, then
// the greater text, so that the answer never depends on the argument order.
merge::Side newer_side(const MergeSide& ours, const MergeSide& theirs) {
  if (ours.time != theirs.time) {
    return theirs.time > ours.time ? merge::theirs : merge::ours;
  }
  if (ours.name != theirs.name) {
    return theirs.name > ours.name ? merge::theirs : merge::ours;
  }
  return theirs.text > ours.text ? merge::theirs : merge::ours;
}

// The merge once both sides are read.
Expected<MergedMemory, store::Diagnostic> merge_read(const std::optional<store::MemoryFile>& base,
                                                     const store::MemoryFile& ours,
                                                     const store::MemoryFile& theirs,
                                                     const merge::Roles& roles) {
  // The work is done on "\n" line ends; a body that has only "\r\n" gets them back.
  const bool crlf_body = all_crlf(ours.body());
  const std::string ours_body = crlf_body ? merge::lf(ours.body()) : ours.body();
  const std::string theirs_body = merge::lf(theirs.body());
  const auto ours_claims = merge::read_claims(ours_body);
  const auto theirs_claims = merge::read_claims(theirs_body);
  const auto base_claims =
      base ? std::optional(merge::read_claims(merge::lf(base->body()))) : std::nullopt;

  auto decisions =
      merge::decide(base_claims ? &*base_claims : nullptr, ours_claims, theirs_claims, roles);
  MergedMemory out;
  out.actions = std::move(decisions.actions);
  auto body = merge::merged_body(ours_body, theirs_body, decisions, roles, out.actions);
  store::MemoryFile merged = ours;
  merged.set_body(crlf_body ? crlf(body) : std::move(body));
  merge::merge_fields(merged, base ? &*base : nullptr, theirs, roles.newer == merge::theirs);
  out.text = merged.render();

  if (auto again = store::MemoryFile::parse(roles.path, out.text); !again) {
    auto diagnostic = again.error();
    diagnostic.reason = "the merged file would not read back: " + diagnostic.reason;
    return unexpected(std::move(diagnostic));
  }
  if (const auto line = store::conflict_marker_line(out.text)) {
    return unexpected(store::Diagnostic{roles.path, *line,
                                        "the merged file would hold lines like conflict markers"});
  }
  return out;
}

} // namespace

Expected<MergedMemory, store::Diagnostic> merge_memory(std::optional<std::string_view> base,
                                                       const MergeSide& ours,
                                                       const MergeSide& theirs,
                                                       const MergeOptions& options) {
  try {
    auto ours_file = read_version(ours.text, ours.name, options.path);
    if (!ours_file) {
      return unexpected(std::move(ours_file.error()));
    }
    auto theirs_file = read_version(theirs.text, theirs.name, options.path);
    if (!theirs_file) {
      return unexpected(std::move(theirs_file.error()));
    }
    // A base that cannot be read is no base: nothing is then removed.
    std::optional<store::MemoryFile> base_file;
    if (base) {
      if (auto read = read_version(*base, "the merge base", options.path)) {
        base_file = std::move(*read);
      }
    }
    const merge::Roles roles{{ours.name, theirs.name},
                             newer_side(ours, theirs),
                             options.today,
                             options.path,
                             options.near_threshold};
    return merge_read(base_file, *ours_file, *theirs_file, roles);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    // A field that cannot be written in place, a body md4c or YAML refuses:
    // nothing is merged, and the caller keeps both versions.
    return unexpected(
        store::Diagnostic{options.path, 1, fmt::format("cannot merge: {}", e.what())});
  }
}

} // namespace engram::engine
