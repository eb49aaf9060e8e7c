// Loading a configuration file's [[store]] tables: each store's path
// (relative to the file), name and profile, the keys it overrides, and
// whether two stores share a path or a name.
#include "config/loader.hpp"
#include "store/profile.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace engram::config {
namespace {

// Lists in `store` the keys its [[store]] table (read into `layer`) sets:
// the key table's in its order, then plugin keys, sorted.
void note_overridden(const detail::Layer& layer, StoreConfig& store) {
  for (const auto& key : k_config_key_table) {
    if (layer.lines.contains(key.name)) {
      store.overridden.emplace_back(key.name);
    }
  }
  for (const auto& [key, key_line] : layer.lines) {
    if (find_key(key) == nullptr) {
      store.overridden.push_back(key); // plugin keys, after the table's, sorted
    }
  }
}

} // namespace

namespace detail {

void Loader::read_stores(const toml::node& node) {
  const toml::array* array = node.as_array();
  if (array == nullptr || !std::all_of(array->begin(), array->end(),
                                       [](const toml::node& item) { return item.is_table(); })) {
    report(line_of(node),
           fmt::format("'store' must be written as [[store]] tables, not {}", describe_node(node)));
    return;
  }
  const std::filesystem::path base = std::filesystem::absolute(m_file).parent_path();
  std::vector<std::uint32_t> store_lines;
  for (const toml::node& item : *array) {
    const toml::table& table = *item.as_table();
    const std::uint32_t line = line_of(item);
    StoreConfig store{
        .path = {}, .settings = m_config.global, .overridden = {}, .name = {}, .profile = {}};
    Layer layer{store.settings, {}, true};
    read_table(table, "", layer);
    check_across(layer);
    note_overridden(layer, store);
    read_store_name(table, store);
    read_store_profile(table, store);
    const toml::node* path = read_store_path(table, line, base, store);
    if (path == nullptr) {
      continue;
    }
    report_reused(table, *path, store, store_lines);
    store_lines.push_back(line);
    m_config.stores.push_back(std::move(store));
  }
}

void Loader::read_store_name(const toml::table& table, StoreConfig& store) {
  if (const toml::node* name = table.get("name"); name != nullptr) {
    if (!name->is_string() || name->value<std::string>()->empty()) {
      report(line_of(*name), "a store's 'name' must be a non-empty string");
    } else {
      store.name = *name->value<std::string>();
    }
  }
}

void Loader::read_store_profile(const toml::table& table, StoreConfig& store) {
  if (const toml::node* profile = table.get("profile"); profile != nullptr) {
    const auto value = profile->value<std::string>();
    if (!profile->is_string() || store::profile_named(*value) == nullptr) {
      std::string names;
      for (const auto& known : store::profiles()) {
        names += fmt::format("{}\"{}\"", names.empty() ? "" : ", ", known.name);
      }
      report(line_of(*profile), fmt::format("a store's 'profile' must be one of {}", names));
    } else {
      store.profile = *value;
      store.settings.set("layout.profile", *value); // what the engine reads
    }
  }
}

const toml::node* Loader::read_store_path(const toml::table& table, std::uint32_t line,
                                          const std::filesystem::path& base, StoreConfig& store) {
  const toml::node* path = table.get("path");
  if (path == nullptr) {
    report(line, "[[store]] has no 'path'");
    return nullptr;
  }
  if (!path->is_string()) {
    report(line_of(*path),
           fmt::format("a store's 'path' must be a string, not {}", describe_node(*path)));
    return nullptr;
  }
  if (path->value<std::string>()->empty()) {
    report(line_of(*path), "a store's 'path' must not be empty");
    return nullptr;
  }
  // Relative paths are relative to the file, which does not move when the
  // daemon is started from another folder.
  store.path = normalise_path(*path->value<std::string>(), base);
  return path;
}

void Loader::report_reused(const toml::table& table, const toml::node& path,
                           const StoreConfig& store,
                           const std::vector<std::uint32_t>& store_lines) {
  for (std::size_t i = 0; i < m_config.stores.size(); ++i) {
    if (m_config.stores[i].path == store.path) {
      report(line_of(path), fmt::format("store path '{}' is already used by the [[store]] "
                                        "at line {}",
                                        store.path.string(), store_lines[i]));
    }
    if (!store.name.empty() && m_config.stores[i].name == store.name) {
      report(line_of(*table.get("name")),
             fmt::format("store name '{}' is already used by the [[store]] at line {}", store.name,
                         store_lines[i]));
    }
  }
}

} // namespace detail
} // namespace engram::config
