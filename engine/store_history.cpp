// Store history. The walk starts from the first commit asked for, read whole,
// and then follows each commit's diff from the one before, so a long history
// of a large store costs what changed rather than every file at every commit.
// Each blob is parsed once, however many commits and paths hold it.
#include "engine/store_history.hpp"

#include "claims/split.hpp"
#include "git/history.hpp"
#include "store/memory_file.hpp"
#include "store/tags.hpp"

#include <algorithm>
#include <set>
#include <unordered_map>

namespace engram::engine {

bool HistoryPoint::consolidation() const {
  return run == "full" || run == "lightweight" || run == "subset";
}

std::map<std::string, std::size_t> count_actions(std::string_view note) {
  std::map<std::string, std::size_t> counts;
  std::size_t begin = 0;
  while (begin < note.size()) {
    const std::size_t end = std::min(note.find('\n', begin), note.size());
    const std::string_view line = note.substr(begin, end - begin);
    if (!line.starts_with("- ")) {
      break; // the record ends; what follows names deferred files
    }
    const std::size_t rule_end = line.find(' ', 2);
    if (rule_end != std::string_view::npos) {
      // The verb ends at the claim (` "…"`), at the files (`: a → b`) or with the line.
      const std::size_t verb_end = std::min(line.find_first_of(" :", rule_end + 1), line.size());
      ++counts[std::string(line.substr(rule_end + 1, verb_end - rule_end - 1))];
    }
    begin = end + 1;
  }
  return counts;
}

namespace {

// What one memory file's bytes say, parsed once per blob.
struct BlobFacts {
  std::optional<std::string> type;
  std::size_t claims = 0;
  std::vector<std::string> tags; // as written
};

// One commit of the walk, oldest first.
struct WalkedCommit {
  std::string id;
  Date date{1970, 1, 1};
  std::string run;
  std::string summary;
};

// The date of a commit: the run's own (Engram-Date, the date a consolidation
// ran as), else the commit time in its committer's zone.
Date commit_date(const git::TrailedCommit& commit) {
  for (const auto& [key, value] : commit.trailers) {
    if (key == "Engram-Date") {
      if (const auto date = Date::parse(value)) {
        return *date;
      }
    }
  }
  constexpr std::int64_t k_day = 24 * 60 * 60;
  const std::int64_t local = commit.time + std::int64_t{commit.offset_minutes} * 60;
  return Date::from_days(local >= 0 ? local / k_day : (local - k_day + 1) / k_day);
}

// HEAD's first-parent line, oldest first.
std::vector<WalkedCommit> first_parent_line(const git::Repository& repository) {
  std::vector<WalkedCommit> line;
  git::walk_trailers(repository, [&](const git::TrailedCommit& commit) {
    WalkedCommit walked{commit.id, commit_date(commit), {}, commit.summary};
    for (const auto& [key, value] : commit.trailers) {
      if (key == "Engram-Run") {
        walked.run = value;
      }
    }
    line.push_back(std::move(walked));
    return true;
  });
  std::reverse(line.begin(), line.end());
  return line;
}

// The store as the walk has reached it: each memory file's layer and blob,
// the tallies per layer, and what each blob said.
class HistoryWalk {
public:
  HistoryWalk(const git::Repository& repository, const store::Layout& layout,
              const config::Settings& settings)
      : m_repository(repository), m_layout(layout), m_settings(settings) {
    for (const Layer layer : store::k_all_layers) {
      m_tallies[std::string(store::layer_name(layer))];
    }
  }

  // Brings the store to commit `to` from `from` (nullopt: from nothing).
  void advance(const std::optional<std::string>& from, const std::string& to) {
    for (const auto& change : git::changed_between(m_repository, from, to)) {
      if (change.before) {
        forget(change.path);
      }
      if (change.after) {
        learn(change.path, *change.after);
      }
      if (std::find(m_guarded.begin(), m_guarded.end(), change.path) != m_guarded.end()) {
        if (change.after) {
          m_guard_blobs[change.path] = *change.after;
        } else {
          m_guard_blobs.erase(change.path);
        }
      }
    }
  }

  // The point of commit `commit`, which the walk has reached.
  HistoryPoint point(const WalkedCommit& commit) const {
    HistoryPoint point{commit.id, commit.date, commit.run, commit.summary, m_tallies, {}, {}};
    point.actions = count_actions(git::note_of(m_repository, commit.id));
    for (const auto& path : m_guarded) {
      const auto blob = m_guard_blobs.find(path);
      std::optional<std::string> bytes;
      if (blob != m_guard_blobs.end()) {
        bytes = git::blob_bytes(m_repository, blob->second);
      }
      for (auto& reading : read_guards(path, bytes, m_layout, m_settings)) {
        point.guards.push_back(std::move(reading));
      }
    }
    return point;
  }

  // The most carried tags of the files the walk has reached.
  std::vector<TagTally> top_tags(std::size_t most) const;

private:
  // A memory file `path` held by blob `blob` enters the tallies.
  void learn(const std::string& path, const std::string& blob) {
    if (!m_layout.classify(path)) {
      return; // not a memory file
    }
    const BlobFacts& facts = facts_of(path, blob);
    const auto layer = m_layout.classify(path, facts.type);
    if (!layer) {
      return;
    }
    auto& tally = m_tallies[std::string(store::layer_name(*layer))];
    ++tally.files;
    tally.claims += facts.claims;
    m_files[path] = File{*layer, blob};
  }

  // The memory file at `path`, if it was one, leaves the tallies.
  void forget(const std::string& path) {
    const auto file = m_files.find(path);
    if (file == m_files.end()) {
      return;
    }
    auto& tally = m_tallies[std::string(store::layer_name(file->second.layer))];
    --tally.files;
    tally.claims -= m_facts.at(file->second.blob).claims;
    m_files.erase(file);
  }

  // What blob `blob` says, as the memory file `path`.
  const BlobFacts& facts_of(const std::string& path, const std::string& blob) {
    const auto known = m_facts.find(blob);
    if (known != m_facts.end()) {
      return known->second;
    }
    BlobFacts facts;
    const std::string bytes = git::blob_bytes(m_repository, blob);
    // The archive's JSON lists are memory files without Markdown claims.
    if (path.ends_with(".md")) {
      if (auto parsed = store::MemoryFile::parse(path, bytes)) {
        facts.type = parsed->type();
        facts.tags = parsed->tags();
        facts.claims = claims::split_claims(parsed->body()).size();
      }
    }
    return m_facts.emplace(blob, std::move(facts)).first->second;
  }

  // One memory file the walk has reached.
  struct File {
    Layer layer;
    std::string blob;
  };

  const git::Repository& m_repository;
  const store::Layout& m_layout;
  const config::Settings& m_settings;
  const std::vector<std::string> m_guarded = guarded_paths(m_layout);
  std::map<std::string, LayerTally> m_tallies;
  std::map<std::string, File> m_files; // by path, so tags are labelled in path order
  std::unordered_map<std::string, BlobFacts> m_facts;
  std::map<std::string, std::string> m_guard_blobs; // guarded path → its blob
};

std::vector<TagTally> HistoryWalk::top_tags(std::size_t most) const {
  std::map<std::string, TagTally> by_canonical;
  for (const auto& [path, file] : m_files) {
    std::set<std::string> counted; // a file carries a tag once, however it spells it
    for (const auto& tag : m_facts.at(file.blob).tags) {
      const std::string canonical = store::canonical_tag(tag);
      if (canonical.empty() || !counted.insert(canonical).second) {
        continue;
      }
      auto& tally = by_canonical[canonical];
      if (tally.files++ == 0) {
        tally.tag = tag;
      }
    }
  }
  std::vector<TagTally> tags;
  for (auto& [canonical, tally] : by_canonical) {
    tags.push_back(std::move(tally));
  }
  std::sort(tags.begin(), tags.end(), [](const TagTally& a, const TagTally& b) {
    return a.files != b.files ? a.files > b.files : a.tag < b.tag;
  });
  tags.resize(std::min(tags.size(), most));
  return tags;
}

} // namespace

StoreHistory read_history(const git::Repository& repository, const store::Layout& layout,
                          const config::Settings& settings, const HistoryQuery& query) {
  StoreHistory history;
  const auto line = first_parent_line(repository);
  const auto wanted = [&](const WalkedCommit& commit) {
    return !query.since || commit.date >= *query.since;
  };
  const auto first = std::find_if(line.begin(), line.end(), wanted);
  if (first == line.end()) {
    return history;
  }
  HistoryWalk walk(repository, layout, settings);
  std::optional<std::string> reached;
  for (auto commit = first; commit != line.end(); ++commit) {
    walk.advance(reached, commit->id);
    reached = commit->id;
    if (wanted(*commit)) {
      history.points.push_back(walk.point(*commit));
    }
  }
  history.top_tags = walk.top_tags(query.top_tags);
  return history;
}

} // namespace engram::engine
