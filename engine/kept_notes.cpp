// Kept notes: the list is `<state>/kept-notes.json`, an object of
// store-relative path to content hash, replaced whole through a temporary.
#include "engine/kept_notes.hpp"

#include "store/profile.hpp"
#include "store/scan.hpp"

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <optional>
#include <spdlog/spdlog.h>

namespace engram::engine {

namespace fs = std::filesystem;

namespace {

fs::path list_path(const fs::path& root, const store::Layout& layout) {
  return root / layout.state / "kept-notes.json";
}

bool keeps_notes(const store::Layout& layout) {
  const store::Profile* profile = store::profile_named(layout.profile);
  return profile != nullptr && profile->keep_notes;
}

// The file's bytes, or nullopt when it cannot be read.
std::optional<std::string> bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return std::nullopt;
  }
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The list as written, empty when there is none or it is not one.
nlohmann::json read_list(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  auto list = nlohmann::json::parse(in, nullptr, false);
  return list.is_object() ? list : nlohmann::json::object();
}

} // namespace

std::vector<std::string> kept_notes(const fs::path& root, const store::Layout& layout) {
  std::vector<std::string> kept;
  if (!keeps_notes(layout)) {
    return kept;
  }
  const auto list = read_list(list_path(root, layout));
  for (const auto& [path, hash] : list.items()) {
    const auto bytes = bytes_of(root / path);
    if (bytes && hash.is_string() && store::content_hash(*bytes) == hash.get<std::string>()) {
      kept.push_back(path);
    }
  }
  return kept;
}

void note_kept(const fs::path& root, const store::Layout& layout,
               const std::vector<Action>& record) {
  if (!keeps_notes(layout)) {
    return;
  }
  const fs::path path = list_path(root, layout);
  auto list = read_list(path);
  bool noted = false;
  for (const auto& action : record) {
    if (action.action != "decayed") {
      continue;
    }
    if (const auto bytes = bytes_of(root / action.source)) {
      list[action.source] = store::content_hash(*bytes);
      noted = true;
    }
  }
  if (!noted) {
    return;
  }
  // Notes gone since are no longer listed.
  for (auto it = list.begin(); it != list.end();) {
    std::error_code error;
    it = fs::exists(root / it.key(), error) ? std::next(it) : list.erase(it);
  }
  const fs::path temporary = path.string() + ".tmp";
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << list.dump(1) << "\n";
    if (!out.flush()) {
      spdlog::warn("{}: cannot write {}; its notes are read again next time", root.string(),
                   path.string());
      return;
    }
  }
  fs::rename(temporary, path, error);
  if (error) {
    spdlog::warn("{}: cannot write {} ({}); its notes are read again next time", root.string(),
                 path.string(), error.message());
  }
}

} // namespace engram::engine
