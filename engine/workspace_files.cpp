// Workspace's files as rules see them: settings, reading a file, its fields
// and body, and writing, editing and removing files, each write parsed back
// as a memory file; the record and diagnostics rules leave. Part of the
// Workspace (engine/workspace.hpp).
#include "base/error.hpp"
#include "engine/workspace.hpp"
#include "store/expiry.hpp"
#include "store/profile.hpp"
#include "store/secrets.hpp"

#include <filesystem>
#include <memory>

namespace engram::engine {

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
  if (key == "profile.user_file") {
    return std::string(profile->user_file);
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

std::string Workspace::store_name() const {
  return m_root_display;
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
