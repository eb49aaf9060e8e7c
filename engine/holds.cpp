// Holds: found by reading history back to the last consolidation, each
// checked against HEAD's tree.
#include "engine/holds.hpp"

#include "base/error.hpp"
#include "git/history.hpp"

#include <algorithm>
#include <optional>
#include <set>

namespace engram::engine {

namespace {

// The runs whose commits name the holds in force (see message.cpp's run_name).
bool is_consolidation(std::string_view run) {
  return run == "full" || run == "lightweight" || run == "subset";
}

// The hold an undo commit names, or nullopt when it names none.
std::optional<Hold> hold_of(const git::TrailedCommit& commit) {
  Hold hold{commit.id, commit.summary, commit.time, {}};
  for (const auto& [key, value] : commit.trailers) {
    if (key == k_hold_trailer) {
      hold.paths.push_back(value);
    }
  }
  if (hold.paths.empty()) {
    return std::nullopt;
  }
  std::sort(hold.paths.begin(), hold.paths.end());
  return hold;
}

// The blob of `path` in commit `id`, nullopt when the commit lacks it.
std::optional<std::string> blob_at(const git::Repository& repository, const std::string& id,
                                   const std::string& path) {
  const auto files = git::files_at(repository, id, path);
  if (files.size() == 1 && files.front().first == path) {
    return files.front().second;
  }
  return std::nullopt;
}

// `bytes` without the frontmatter lines usage_fold.cpp writes: an agent's
// recall of a held file counts there without ending the hold.
std::string without_usage(std::string_view bytes) {
  static constexpr std::string_view k_usage_keys[] = {"uses:", "helpful:", "unhelpful:",
                                                      "last-accessed:"};
  std::string kept;
  bool in_frontmatter = false;
  for (std::size_t at = 0, line = 0; at < bytes.size(); ++line) {
    std::size_t end = bytes.find('\n', at);
    end = end == std::string_view::npos ? bytes.size() : end + 1;
    const auto text = bytes.substr(at, end - at);
    at = end;
    const bool fence = text.starts_with("---") && text.find_first_not_of("-\r\n") ==
                                                      std::string_view::npos;
    if (fence && (line == 0 || in_frontmatter)) {
      in_frontmatter = line == 0;
    } else if (in_frontmatter &&
               std::any_of(std::begin(k_usage_keys), std::end(k_usage_keys),
                           [&](std::string_view key) { return text.starts_with(key); })) {
      continue;
    }
    kept += text;
  }
  return kept;
}

// True when `path` is as the undo left it: the same blob, absent from both,
// or different only in its usage counts.
bool unchanged(const git::Repository& repository, const Hold& hold, const std::string& path) {
  const auto now = git::blob_in_head(repository, path);
  const auto then = blob_at(repository, hold.undo, path);
  if (now == then) {
    return true;
  }
  if (!now || !then) {
    return false;
  }
  const auto now_bytes = repository.read_blob(*now);
  const auto then_bytes = repository.read_blob(*then);
  return now_bytes && then_bytes && without_usage(*now_bytes) == without_usage(*then_bytes);
}

// True while every file of `hold` is unchanged since its undo.
bool in_force(const git::Repository& repository, const Hold& hold) {
  return std::all_of(hold.paths.begin(), hold.paths.end(),
                     [&](const std::string& path) { return unchanged(repository, hold, path); });
}

} // namespace

bool holdable(const store::Layout& layout, std::string_view path) {
  return path != layout.memory_index && path != layout.index_json;
}

std::vector<Hold> active_holds(const git::Repository& repository) {
  std::vector<Hold> found;         // newest first
  std::vector<std::string> listed; // holds the last consolidation found in force
  git::walk_trailers(repository, [&](const git::TrailedCommit& commit) {
    std::string run;
    for (const auto& [key, value] : commit.trailers) {
      if (key == "Engram-Run") {
        run = value;
      }
    }
    if (run == "rollback" || run == "restore") {
      if (auto hold = hold_of(commit)) {
        found.push_back(std::move(*hold));
      }
      return true;
    }
    if (!is_consolidation(run)) {
      return true; // a snapshot, or a commit engram did not make
    }
    for (const auto& [key, value] : commit.trailers) {
      if (key == k_holding_trailer) {
        listed.push_back(value);
      }
    }
    return false;
  });
  for (const auto& id : listed) {
    git::CommitDetail detail;
    try {
      detail = git::show(repository, id);
    } catch (const Error&) {
      continue; // not in this history (a shallow clone): it holds nothing here
    }
    git::TrailedCommit commit{id, detail.entry.summary, detail.entry.time, detail.trailers};
    if (auto hold = hold_of(commit)) {
      found.push_back(std::move(*hold));
    }
  }
  std::vector<Hold> holds;
  std::set<std::string> seen;
  for (auto& hold : found) {
    if (seen.insert(hold.undo).second && in_force(repository, hold)) {
      holds.push_back(std::move(hold));
    }
  }
  std::stable_sort(holds.begin(), holds.end(),
            [](const Hold& a, const Hold& b) { return a.time < b.time; });
  return holds;
}

std::vector<Hold> holds_at(const std::filesystem::path& root) {
  auto repository = git::Repository::open(root);
  if (!repository) {
    return {};
  }
  return active_holds(*repository);
}

std::vector<std::string> held_paths(const std::vector<Hold>& holds) {
  std::set<std::string> paths;
  for (const auto& hold : holds) {
    paths.insert(hold.paths.begin(), hold.paths.end());
  }
  return {paths.begin(), paths.end()};
}

} // namespace engram::engine
