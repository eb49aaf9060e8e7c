// Store history: how a store changed over its commits, gathered for
// `engram report` — its files and claims per layer, each consolidation's
// actions by verb, the guarded files against their guards, and its tags.
// Read from the store's git history and the records in its notes, never
// from the working tree, so the figures are those any clone would give.
#pragma once

#include "config/config.hpp"
#include "engine/guards.hpp"
#include "engram/date.hpp"
#include "git/repository.hpp"
#include "store/layout.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace engram::engine {

// The memory files of one layer at one commit and the claims their bodies hold.
struct LayerTally {
  std::size_t files = 0;
  std::size_t claims = 0;
};

// One commit of HEAD's first-parent line, with the store as that commit left it.
struct HistoryPoint {
  std::string id;        // 40 hex digits
  Date date{1970, 1, 1}; // the run's date (Engram-Date), else the commit's own
  std::string run;       // the Engram-Run trailer; empty for commits engram did not make
  std::string summary;   // the message's first line
  std::map<std::string, LayerTally> layers;   // by store::layer_name; every layer present
  std::map<std::string, std::size_t> actions; // the note's actions by verb (absorbed, …)
  std::vector<GuardReading> guards;           // each guard of each guarded file

  // True for a consolidation: a full, lightweight or subset run.
  bool consolidation() const;
};

// One tag and how many memory files carry it.
struct TagTally {
  std::string tag; // as the first file carrying it (in path order) writes it
  std::size_t files = 0;
};

// A store's history, oldest commit first.
struct StoreHistory {
  std::vector<HistoryPoint> points;
  std::vector<TagTally> top_tags; // at the newest commit, most files first, then by tag
};

// What to gather.
struct HistoryQuery {
  std::optional<Date> since; // leave out commits dated before it
  std::size_t top_tags = 0;  // how many tags to keep
};

// The history of the store whose repository is `repository`, its files
// classified by `layout` and its guards measured against `settings`. Empty
// when HEAD is unborn. Throws engram::Error when the history cannot be read.
StoreHistory read_history(const git::Repository& repository, const store::Layout& layout,
                          const config::Settings& settings, const HistoryQuery& query);

// The count of each verb among a note's action lines (`- rule verb …`), up
// to the first line that is not one (the deferred files that may follow).
std::map<std::string, std::size_t> count_actions(std::string_view note);

} // namespace engram::engine
