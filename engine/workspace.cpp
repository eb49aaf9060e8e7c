// Workspace: the model rules change. Every write is parsed back as a memory
// file, so a rule cannot leave a file engram itself could not read again.
#include "engine/workspace.hpp"

#include "base/error.hpp"
#include "base/parallel.hpp"
#include "claims/classify.hpp"
#include "claims/compare.hpp"
#include "claims/normalise.hpp"
#include "claims/slug.hpp"
#include "claims/split.hpp"
#include "engram/text.hpp"
#include "store/expiry.hpp"
#include "store/profile.hpp"
#include "store/secrets.hpp"
#include "store/tags.hpp"

#include <algorithm>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>

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

namespace {} // namespace

Plan Workspace::plan() {
  Plan plan;
  plan.kind = m_kind;
  plan.today = m_today;
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

std::optional<Setting> Workspace::setting(std::string_view key) const {
  const std::string full = key.find('.') == std::string_view::npos
                               ? "rules." + m_rule + "." + std::string(key)
                               : std::string(key);
  if (full.starts_with("profile.") || full == "layout.profile") {
    return profile_setting(full);
  }
  const auto& values = m_settings.values();
  const auto it = values.find(full);
  if (it == values.end()) {
    return std::nullopt;
  }
  return std::visit([](const auto& v) -> Setting { return v; }, it->second);
}

std::optional<Setting> Workspace::profile_setting(std::string_view key) const {
  // As resolved, where the configuration may leave the profile to detection.
  const store::Profile* profile = store::profile_named(m_layout.profile);
  if (profile == nullptr) {
    return std::nullopt;
  }
  const store::LoaderLimit* limit = profile->limit_of(m_layout.memory_index);
  if (key == "layout.profile" || key == "profile.name") {
    return std::string(profile->name);
  }
  if (key == "profile.index") {
    return std::string(profile->index_style);
  }
  for (const auto& [layer, type] : profile->topic_types) {
    if (key == "profile.topic_type." + std::string(store::layer_name(layer))) {
      return std::string(type);
    }
  }
  if (key == "profile.keep_notes") {
    return profile->keep_notes;
  }
  if (key == "profile.curated") {
    return std::string(profile->curated);
  }
  if (key == "profile.curated_chars") {
    const store::LoaderLimit* curated = profile->limit_of(profile->curated);
    return static_cast<std::int64_t>(curated == nullptr ? 0 : curated->max_chars);
  }
  if (key == "profile.index_lines" && limit != nullptr) {
    return static_cast<std::int64_t>(limit->max_lines);
  }
  if (key == "profile.index_bytes" && limit != nullptr) {
    return static_cast<std::int64_t>(limit->max_bytes);
  }
  return std::nullopt;
}

std::string Workspace::layer_path(Layer layer) const {
  return m_layout.path_of(layer).generic_string();
}

std::vector<std::string> Workspace::files(Layer layer) const {
  std::vector<std::string> out;
  for (const auto& [path, file] : m_files) {
    if (file.current && file.layer == layer) {
      out.push_back(path);
    }
  }
  return out;
}

std::string Workspace::checked_path(std::string_view path) const {
  if (m_checked.contains(path)) {
    return std::string(path);
  }
  const std::filesystem::path p(path);
  const auto normal = p.lexically_normal().generic_string();
  if (p.is_absolute() || normal.starts_with("..") || normal != path) {
    throw Error("a rule used the path '{}', which is not a plain store-relative path", path);
  }
  const auto first = p.begin()->string();
  if (first == ".git" || first == m_layout.state) {
    throw Error("a rule tried to write '{}', inside {}", path, first);
  }
  if (normal != m_layout.index_json && !m_layout.classify(p)) {
    throw Error("a rule tried to write '{}', which is not in any layer of the store", path);
  }
  m_checked.insert(normal);
  return normal;
}

const store::MemoryFile* Workspace::find(std::string_view path) const {
  const auto it = m_files.find(path);
  return it == m_files.end() ? nullptr : it->second.current.get();
}

store::MemoryFile& Workspace::mutable_file(std::string_view path) {
  const auto it = m_files.find(checked_path(path));
  if (it == m_files.end() || !it->second.current) {
    throw Error("a rule changed '{}', which does not exist", path);
  }
  before_change(it->first);
  auto& file = it->second;
  keep_base(file);
  // Copy on write: the scan, the daemon's cache or the undo log may hold the same object.
  if (!file.owned || file.current.use_count() > 1) {
    file.current = std::make_shared<const store::MemoryFile>(*file.current);
    file.owned = true;
  }
  file.touched = true;
  // Made by this model (above or in write) and held by nothing else.
  return const_cast<store::MemoryFile&>(*file.current);
}

int Workspace::line_of(std::string_view path, std::string_view key) const {
  const auto* file = find(path);
  return file == nullptr || !file->frontmatter() ? 1 : file->frontmatter()->line_of(key);
}

bool Workspace::exists(std::string_view path) const {
  return find(path) != nullptr;
}

std::string Workspace::read(std::string_view path) const {
  const auto* file = find(path);
  return file == nullptr ? std::string() : file->render();
}

const std::string& Workspace::body(std::string_view path) const {
  static const std::string k_none;
  const auto* file = find(path);
  return file == nullptr ? k_none : file->body();
}

std::optional<std::string> Workspace::field(std::string_view path, std::string_view key) const {
  const auto* file = find(path);
  return file == nullptr ? std::nullopt : file->field(key);
}

std::vector<std::string> Workspace::list(std::string_view path, std::string_view key) const {
  const auto* file = find(path);
  if (file == nullptr || !file->frontmatter()) {
    return {};
  }
  return file->frontmatter()->list(key).value_or(std::vector<std::string>{});
}

std::optional<Date> Workspace::decay_date(std::string_view path) const {
  const auto* file = find(path);
  if (file == nullptr) {
    return std::nullopt;
  }
  return store::decay_date(std::filesystem::path(path), *file,
                           static_cast<int>(m_settings.get_int("decay.retention_days")));
}

std::string Workspace::content_hash(std::string_view path) const {
  const auto it = m_files.find(path);
  if (it == m_files.end() || !it->second.current) {
    return {};
  }
  if (!it->second.touched && it->second.base_hash) {
    return *it->second.base_hash;
  }
  return store::content_hash(it->second.current->render());
}

void Workspace::write(std::string_view path, std::string bytes) {
  const auto normal = checked_path(path);
  auto parsed =
      store::MemoryFile::parse((std::filesystem::path(m_root_display) / normal).string(), bytes);
  if (!parsed) {
    throw Error("a rule wrote '{}' in a form engram cannot read back: {}", path,
                parsed.error().to_string());
  }
  before_change(normal);
  auto& file = m_files[normal];
  keep_base(file);
  file.current = std::make_shared<const store::MemoryFile>(std::move(parsed.value()));
  file.owned = true;
  file.touched = true;
  file.layer = m_layout.classify(normal, file.current->field("type"));
  changed(normal);
}

void Workspace::set_field(std::string_view path, std::string_view key, std::string_view value) {
  mutable_file(path).ensure_frontmatter().set_scalar(key, value);
}

void Workspace::set_list(std::string_view path, std::string_view key,
                         const std::vector<std::string>& values) {
  mutable_file(path).ensure_frontmatter().set_list(key, values);
}

void Workspace::set_body(std::string_view path, std::string body) {
  mutable_file(path).set_body(std::move(body));
  changed(checked_path(path));
}

void Workspace::replace_in_body(std::string_view path, std::size_t at, std::size_t count,
                                std::string_view text) {
  auto& file = mutable_file(path);
  if (at > file.body().size()) {
    throw Error("a rule edited '{}' at byte {}, past its body's {} bytes", path, at,
                file.body().size());
  }
  file.replace_in_body(at, count, text);
  changed(checked_path(path));
}

void Workspace::remove(std::string_view path) {
  const auto it = m_files.find(checked_path(path));
  if (it == m_files.end() || !it->second.current) {
    throw Error("a rule removed '{}', which does not exist", path);
  }
  before_change(it->first);
  keep_base(it->second);
  it->second.current.reset();
  changed(it->first);
}

void Workspace::changed(const std::string& path) {
  m_changed.push_back(path);
}

std::vector<Claim> Workspace::claims(std::string_view body) const {
  return claims::split_claims(body, &m_claims.kinds());
}

std::vector<Claim> Workspace::claims_of(std::string_view path, ClaimDetail detail) const {
  const auto it = m_files.find(path);
  if (it == m_files.end() || !it->second.current || !it->second.layer) {
    return definition::claims_of(*this, path, detail);
  }
  // The layer's index splits every file of it once, and each edit's sections again.
  return layer_index(*it->second.layer).claims_of(it->first, kinds_for(detail));
}

ClaimKind Workspace::classify(std::string_view text) const {
  return claims::classify(text);
}

double Workspace::near_threshold() const {
  if (!m_near_duplicate) {
    m_near_duplicate = m_settings.get_real("rules.episodic-decay.near_duplicate");
  }
  return *m_near_duplicate;
}

Relation Workspace::compare(std::string_view incoming, std::string_view existing) const {
  const double threshold = near_threshold();
  const auto in = m_claims.id(incoming);
  const auto ex = m_claims.id(existing); // numbering may grow the table: look entries up after
  return claims::relation(m_claims.shape(in).prepared, m_claims.shape(ex).prepared, threshold);
}

const ClaimIndex& Workspace::layer_index(Layer layer) const {
  auto& [index, read] = m_indexes[layer];
  if (read == 0) {
    std::vector<std::pair<const std::string*, std::string_view>> files;
    for (const auto& [path, file] : m_files) {
      if (file.current && file.layer == layer && !m_held.contains(path)) {
        files.emplace_back(&path, file.current->body());
      }
    }
    index.update_all(files, m_claims);
  } else {
    for (std::size_t i = read - 1; i < m_changed.size(); ++i) {
      const auto& path = m_changed[i];
      const auto it = m_files.find(path);
      if (it != m_files.end() && it->second.current && it->second.layer == layer) {
        index.update(path, it->second.current->body(), m_claims);
      } else {
        index.remove(path);
      }
    }
  }
  read = m_changed.size() + 1; // + 1: 0 means "not built yet"
  return index;
}

std::vector<ClaimMatch> Workspace::related_claims(std::string_view incoming, Layer layer,
                                                  ClaimDetail detail) const {
  const double threshold = near_threshold();
  const auto& index = layer_index(layer);
  return index.related(m_claims.id(incoming), m_claims, threshold, ClaimIndex::Wanted::related,
                       kinds_for(detail));
}

std::vector<std::vector<ClaimMatch>>
Workspace::related_claims_each(const std::vector<std::string>& incoming, Layer layer,
                               ClaimDetail detail) const {
  const double threshold = near_threshold();
  const auto& index = layer_index(layer);
  // Numbered first (a new text's preparation on every core): the queries
  // then only read the table and the index.
  m_claims.add_all(std::vector<std::string_view>(incoming.begin(), incoming.end()));
  std::vector<std::uint32_t> ids;
  ids.reserve(incoming.size());
  for (const auto& text : incoming) {
    ids.push_back(m_claims.id(text));
  }
  std::vector<std::vector<ClaimMatch>> out(incoming.size());
  // Blocks of queries on every core, each thread marking in a scratch of its own.
  constexpr std::size_t k_block = 64;
  constexpr std::size_t k_blocks_per_thread = 4;
  std::mutex pool_lock;
  std::vector<std::unique_ptr<ClaimIndex::Scratch>> pool;
  for_each_index((ids.size() + k_block - 1) / k_block, k_blocks_per_thread, [&](std::size_t b) {
    std::unique_ptr<ClaimIndex::Scratch> scratch;
    {
      const std::lock_guard lock(pool_lock);
      if (!pool.empty()) {
        scratch = std::move(pool.back());
        pool.pop_back();
      }
    }
    if (!scratch) {
      scratch = std::make_unique<ClaimIndex::Scratch>();
    }
    for (auto i = b * k_block; i < std::min(ids.size(), (b + 1) * k_block); ++i) {
      out[i] = index.related(ids[i], m_claims, threshold, ClaimIndex::Wanted::related, nullptr,
                             *scratch);
    }
    const std::lock_guard lock(pool_lock);
    pool.push_back(std::move(scratch));
  });
  // Kinds after, here: the memo is the run's, one thread's.
  if (auto* memo = kinds_for(detail)) {
    for (auto& matches : out) {
      for (auto& match : matches) {
        if (match.kind != ClaimKind::solution) {
          match.kind = memo->classify(match.text);
        }
      }
    }
  }
  return out;
}

std::vector<ClaimMatch> Workspace::duplicate_claims(std::string_view incoming, Layer layer,
                                                    ClaimDetail detail) const {
  const double threshold = near_threshold();
  const auto& index = layer_index(layer);
  return index.related(m_claims.id(incoming), m_claims, threshold, ClaimIndex::Wanted::duplicates,
                       kinds_for(detail));
}

std::string Workspace::store_name() const {
  return m_root_display;
}

std::string Workspace::normalise(std::string_view text) const {
  return claims::normalise(text);
}

std::string Workspace::canonical_tag(std::string_view tag) const {
  return store::canonical_tag(tag);
}

std::string Workspace::slug(std::string_view text) const {
  return claims::slug(text);
}

void Workspace::record(Action action) {
  action.rule = m_rule;
  // The record is the commit's message and the run's output: a claim that
  // holds a credential is never quoted in it.
  for (std::string* text : {&action.claim, &action.source, &action.target, &action.reason}) {
    if (!text->empty()) {
      *text = store::redact_secrets(*text);
    }
  }
  m_record.push_back(std::move(action));
}

void Workspace::diagnose(std::string_view path, int line, std::string reason) {
  m_diagnostics.push_back(
      store::Diagnostic{(std::filesystem::path(m_root_display) / std::string(path)).string(), line,
                        std::move(reason), store::Severity::error});
}

std::optional<Layer> Workspace::layer_of(std::string_view path) const {
  const auto it = m_files.find(path);
  if (it == m_files.end() || !it->second.current) {
    return std::nullopt;
  }
  return it->second.layer;
}

std::optional<std::int64_t> Workspace::modified(std::string_view path) const {
  const auto it = m_files.find(path);
  if (it == m_files.end() || !it->second.current) {
    return std::nullopt;
  }
  return it->second.modified;
}

} // namespace engram::engine
