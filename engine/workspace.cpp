// Workspace: the model rules change. Every write is parsed back as a memory
// file, so a rule cannot leave a file engram itself could not read again.
// This file holds the model's life through a run: taking a snapshot, a
// rule's start, checkpoints, restoring, and the plan it leaves; the files
// rules read and write are workspace_files.cpp's, the claims
// workspace_claims.cpp's.
#include "engine/workspace.hpp"

#include "engine/progress.hpp"
#include "engine/session.hpp"

#include "base/error.hpp"
#include "engram/text.hpp"
#include "store/profile.hpp"

#include <algorithm>
#include <memory>

namespace engram::engine {

Workspace::Workspace(store::Snapshot snapshot, const store::Layout& layout,
                     const config::Settings& settings, Date today, RunKind kind)
    : m_layout(layout), m_settings(settings), m_today(today), m_kind(kind),
      m_diagnostics(std::move(snapshot.diagnostics)), m_root_display(snapshot.root.string()) {
  for (auto& entry : snapshot.entries) {
    take(entry);
  }
  take_index_json(snapshot.index_json);
}

Workspace::Workspace(Base base, store::Snapshot changes, const store::Layout& layout,
                     const config::Settings& settings, Date today, RunKind kind)
    : m_layout(layout), m_settings(settings), m_today(today), m_kind(kind),
      m_files(std::move(base.files)), m_log(std::move(base.log)),
      m_diagnostics(std::move(changes.diagnostics)), m_root_display(changes.root.string()) {
  if (!changes.looked_at) {
    throw Error("{}: a model was to be updated by a scan that did not say what it looked at",
                m_root_display);
  }
  for (const auto& path : *changes.looked_at) {
    m_files.erase(path);
    m_log.note(path);
  }
  for (auto& entry : changes.entries) {
    take(entry);
  }
  // The generated index is read by every scan; it changed when its hash did.
  const auto old = m_files.extract(layout.index_json);
  take_index_json(changes.index_json);
  const auto now = m_files.find(layout.index_json);
  if ((old ? old.mapped().base_hash : std::nullopt) !=
      (now == m_files.end() ? std::nullopt : now->second.base_hash)) {
    m_log.note(layout.index_json);
  }
}

void Workspace::take(store::Entry& entry) {
  // A file's bytes as scanned are rendered only when a rule first changes it
  // (keep_base): most files of a run are never changed.
  m_files.insert_or_assign(entry.relative.generic_string(),
                           File{std::move(entry.content_hash), nullptr, std::move(entry.file),
                                false, entry.layer, entry.modified});
}

void Workspace::take_index_json(std::optional<store::GeneratedFile>& index) {
  // The machine-readable index is generated, not a memory; the index rule reads its old bytes.
  if (index) {
    const auto [it, fresh] = m_files.insert_or_assign(
        m_layout.index_json,
        File{std::move(index->content_hash), index->bytes, std::move(index->file), false,
             m_layout.classify(m_layout.index_json), std::nullopt});
    if (!it->second.current) {
      m_dirty.insert(it->first); // not a model: plan() would remove it
    }
  }
}

Workspace::Base Workspace::release() {
  if (!m_journaling) {
    throw Error("{}: a model was released that did not keep what its run changed", m_root_display);
  }
  for (auto& [path, saved] : m_journal) {
    if (saved) {
      m_files.insert_or_assign(path, std::move(*saved));
    } else {
      m_files.erase(path);
    }
    m_log.note(path); // no longer what the rules saw last
  }
  m_journal.clear();
  m_undo.clear();
  m_indexes.clear();
  m_changed.clear();
  m_dirty.clear(); // every file is as it was before the run again
  Base base;
  base.files = std::move(m_files);
  base.log = std::move(m_log);
  m_files.clear();
  return base;
}

void Workspace::begin_rule(std::string name) {
  hold_kept_notes();
  m_rule = std::move(name);
}

void Workspace::progress(std::size_t done, std::size_t total, std::string_view units) {
  if (m_progress != nullptr) {
    m_progress->update("rule " + m_rule, done, total, units);
  }
}

void Workspace::hold_kept_notes() {
  // From the record the last rule kept (a failed rule's is gone with its
  // changes): a note it decayed and left in place is held, as the next run
  // holds it (kept_notes.hpp), so the rules after see the store as that run will.
  const store::Profile* profile = store::profile_named(m_layout.profile);
  bool held = false;
  for (std::size_t i = m_rule_record_start;
       profile != nullptr && profile->keep_notes && i < m_record.size(); ++i) {
    const Action& action = m_record[i];
    if (action.action == "decayed" && exists(action.source)) {
      held = m_held.insert(action.source).second || held;
    }
  }
  if (held) {
    m_indexes.clear(); // built again without the held notes
  }
  m_rule_record_start = m_record.size();
}

void Workspace::checkpoint() {
  m_undo.clear();
  m_undo_record = m_record.size();
  m_undo_diagnostics = m_diagnostics.size();
}

void Workspace::keep_base(File& file) {
  if (file.base_hash && !file.base_bytes && file.current) {
    file.base_bytes = std::make_shared<const std::string>(file.current->render());
  }
}

void Workspace::hold(std::vector<std::string> paths) {
  m_held = {std::make_move_iterator(paths.begin()), std::make_move_iterator(paths.end())};
  m_indexes.clear(); // built again without the held files
}

void Workspace::before_change(const std::string& path) {
  if (m_held.contains(path)) {
    // A rule that ignores held(): failing it discards all it did, so what
    // it did elsewhere (an episode removed for a claim written here) goes too.
    throw Error("{} is held until it changes (by an undo, engram rollback or restore, or as an "
                "absorbed note the agent keeps); rule {} must not change it",
                path, m_rule);
  }
  if (m_layout.is_agent_core(path)) {
    // The agent loads it every session as its own; engram only reads it.
    throw Error("{} is the agent's own file, which engram reads and never writes; rule {} must "
                "not change it",
                path, m_rule);
  }
  m_log.note(path);
  m_dirty.insert(path);
  const bool saved = m_undo.contains(path);
  const bool journaled = !m_journaling || m_journal.contains(path);
  if (saved && journaled) {
    return; // the state before the first change is the one to go back to
  }
  const auto it = m_files.find(path);
  const auto state = it == m_files.end() ? std::nullopt : std::optional<File>(it->second);
  if (!saved) {
    m_undo.emplace(path, state);
  }
  if (!journaled) {
    m_journal.emplace(path, state);
  }
}

std::size_t Workspace::memory_files() const {
  return static_cast<std::size_t>(
      std::count_if(m_files.begin(), m_files.end(), [](const auto& entry) {
        return entry.second.base_hash.has_value() && entry.second.layer.has_value();
      }));
}

std::vector<LostLine> Workspace::lost_since_checkpoint() const {
  // engram's own files: its JSON index, CORE.md (promotion keeps it within
  // its guards), and MEMORY.md while it is the one engram generated (an
  // agent's own MEMORY.md is checked).
  const auto generated = [&](std::string_view path, const std::string& bytes) {
    return path == m_layout.index_json || path == m_layout.core ||
           (path == m_layout.memory_index && text::is_generated(bytes));
  };
  std::vector<std::string> rendered_before;
  std::vector<std::string> rendered_after;
  std::vector<std::string_view> paths;
  for (const auto& [path, saved] : m_undo) {
    if (path == m_layout.index_json) {
      continue;
    }
    if (saved && saved->current) {
      auto bytes = saved->current->render();
      if (generated(path, bytes)) {
        continue;
      }
      rendered_before.push_back(std::move(bytes));
      paths.push_back(path);
    }
    if (const auto* now = find(path)) {
      rendered_after.push_back(now->render());
    }
  }
  if (rendered_before.empty()) {
    return {};
  }
  std::vector<Before> before;
  for (std::size_t i = 0; i < paths.size(); ++i) {
    before.push_back(Before{paths[i], rendered_before[i]});
  }
  std::vector<std::string_view> after(rendered_after.begin(), rendered_after.end());
  for (std::size_t i = m_undo_record; i < m_record.size(); ++i) {
    after.push_back(m_record[i].claim);
  }
  return lost_lines(before, after);
}

void Workspace::restore() {
  for (auto& [path, saved] : m_undo) {
    if (saved) {
      m_files.insert_or_assign(path, std::move(*saved));
    } else if (const auto it = m_files.find(path); it != m_files.end()) {
      m_files.erase(it);
    }
  }
  m_undo.clear();
  m_indexes.clear(); // rebuilt from the restored files when next asked
  m_changed.clear();
  m_record.resize(m_undo_record);
  m_diagnostics.resize(m_undo_diagnostics);
}

Plan Workspace::plan() {
  Plan plan;
  plan.kind = m_kind;
  plan.today = m_today;
  plan.machine = machine_name(m_settings);
  std::vector<FileChange> removals;
  // In path order, as m_files is, over the files rules changed only.
  for (const auto& path : m_dirty) {
    const auto it = m_files.find(path);
    if (it == m_files.end()) {
      continue; // created, then undone
    }
    const auto& file = it->second;
    if (!file.current) {
      if (file.base_hash) {
        removals.push_back(FileChange{path, file.base_hash, file.base_bytes, std::nullopt});
      }
      continue;
    }
    if (!file.touched && file.base_hash) {
      continue; // no rule changed it: its bytes are the snapshot's
    }
    auto bytes = file.current->render();
    if (!file.base_hash || !file.base_bytes || bytes != *file.base_bytes) {
      plan.changes.push_back(FileChange{path, file.base_hash, file.base_bytes, std::move(bytes)});
    }
  }
  // Removals go last: a file disappears only after everything it held is written.
  plan.changes.insert(plan.changes.end(), std::make_move_iterator(removals.begin()),
                      std::make_move_iterator(removals.end()));
  plan.record = std::move(m_record);
  m_record.clear();
  m_undo_record = 0;
  plan.diagnostics = m_diagnostics;
  return plan;
}

} // namespace engram::engine
