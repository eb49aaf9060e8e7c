// Settings and their typed access, the default locations of the configuration
// and the store, and choosing which file to load.
#include "config/config.hpp"

#include "base/error.hpp"
#include "config/key_table.hpp"

#include <cstdlib>
#include <pwd.h>
#include <system_error>
#include <unistd.h>

namespace engram::config {

namespace {

// The home folder of `user`, or of the current user when empty; empty when unknown.
std::string home_of(const std::string& user) {
  if (user.empty()) {
    if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
      return home;
    }
  }
  long size = sysconf(_SC_GETPW_R_SIZE_MAX);
  std::vector<char> buffer(size > 0 ? static_cast<std::size_t>(size) : 16384);
  passwd entry{};
  passwd* found = nullptr;
  const int status = user.empty()
                         ? getpwuid_r(getuid(), &entry, buffer.data(), buffer.size(), &found)
                         : getpwnam_r(user.c_str(), &entry, buffer.data(), buffer.size(), &found);
  return status == 0 && found != nullptr && found->pw_dir != nullptr ? found->pw_dir : "";
}

// An XDG base folder: the variable when it holds an absolute path (the
// specification says relative ones are to be ignored), else `~/<fallback>`.
std::filesystem::path xdg_home(const char* variable, std::string_view fallback) {
  if (const char* value = std::getenv(variable); value != nullptr) {
    std::filesystem::path path(value);
    if (path.is_absolute()) {
      return path;
    }
  }
  return std::filesystem::path(home_of("")) / fallback;
}

// Two spellings of one folder, also through symbolic links when both exist.
bool same_folder(const std::filesystem::path& a, const std::filesystem::path& b) {
  if (a == b) {
    return true;
  }
  std::error_code a_error;
  std::error_code b_error;
  const auto real_a = std::filesystem::weakly_canonical(a, a_error);
  const auto real_b = std::filesystem::weakly_canonical(b, b_error);
  return !a_error && !b_error && real_a == real_b;
}

// The entry of `key` in the table, checked to have `type`.
void expect_type(std::string_view key, Type type) {
  const Key* entry = find_key(key);
  if (entry != nullptr && entry->type != type) {
    throw Error("configuration key '{}' is {}, not {}", key, describe_type(entry->type),
                describe_type(type));
  }
}

// The value of `key` as a T, or engram::Error naming what was asked for.
template <typename T> const T& typed(const Settings& settings, std::string_view key, Type type) {
  expect_type(key, type);
  const T* value = std::get_if<T>(&settings.get(key));
  if (value == nullptr) {
    throw Error("configuration key '{}' is not {}", key, describe_type(type));
  }
  return *value;
}

} // namespace

Settings Settings::defaults() {
  Settings settings;
  for (const auto& key : k_config_key_table) {
    settings.m_values.emplace(std::string(key.name), key.default_value);
  }
  return settings;
}

bool Settings::get_bool(std::string_view key) const {
  return typed<bool>(*this, key, Type::boolean);
}

std::int64_t Settings::get_int(std::string_view key) const {
  return typed<std::int64_t>(*this, key, Type::integer);
}

double Settings::get_real(std::string_view key) const {
  expect_type(key, Type::real);
  const Value& value = get(key);
  // A plugin's key has the type its TOML had, and `1` is a fine threshold.
  if (const auto* whole = std::get_if<std::int64_t>(&value); whole != nullptr) {
    if (find_key(key) == nullptr) {
      return static_cast<double>(*whole);
    }
  }
  if (const auto* number = std::get_if<double>(&value); number != nullptr) {
    return *number;
  }
  throw Error("configuration key '{}' is not a number", key);
}

const std::string& Settings::get_string(std::string_view key) const {
  return typed<std::string>(*this, key, Type::string);
}

const std::vector<std::string>& Settings::get_list(std::string_view key) const {
  return typed<std::vector<std::string>>(*this, key, Type::string_list);
}

bool Settings::contains(std::string_view key) const {
  return m_values.find(key) != m_values.end();
}

const Value& Settings::get(std::string_view key) const {
  const auto found = m_values.find(key);
  if (found == m_values.end()) {
    throw Error("unknown configuration key '{}'", key);
  }
  return found->second;
}

void Settings::set(std::string_view key, Value value) {
  const Key* entry = find_key(key);
  if (entry == nullptr && !is_plugin_rule_key(key)) {
    throw Error("unknown configuration key '{}'", key);
  }
  if (entry != nullptr && type_of(value) != entry->type) {
    throw Error("configuration key '{}' is {}, not {}", key, describe_type(entry->type),
                describe_type(type_of(value)));
  }
  m_values.insert_or_assign(std::string(key), std::move(value));
}

Settings Config::settings_for(const std::filesystem::path& store) const {
  std::error_code error;
  const auto here = std::filesystem::current_path(error);
  const auto wanted = normalise_path(store.string(), error ? "/" : here);
  for (const auto& candidate : stores) {
    if (same_folder(candidate.path, wanted)) {
      return candidate.settings;
    }
  }
  return global;
}

const StoreConfig* Config::store_for(const std::filesystem::path& store) const {
  std::error_code error;
  const auto here = std::filesystem::current_path(error);
  const auto wanted = normalise_path(store.string(), error ? "/" : here);
  for (const auto& candidate : stores) {
    if (same_folder(candidate.path, wanted)) {
      return &candidate;
    }
  }
  return nullptr;
}

std::filesystem::path expand_home(std::string_view path) {
  if (!path.starts_with('~')) {
    return std::filesystem::path(path);
  }
  const auto slash = path.find('/');
  const std::string user(path.substr(1, slash == std::string_view::npos ? path.npos : slash - 1));
  const std::string home = home_of(user);
  if (home.empty()) {
    return std::filesystem::path(path); // `~nobody-known`: left as written, like a shell does
  }
  if (slash == std::string_view::npos) {
    return std::filesystem::path(home);
  }
  return std::filesystem::path(home) / path.substr(slash + 1);
}

std::filesystem::path normalise_path(std::string_view path, const std::filesystem::path& base) {
  std::filesystem::path result = expand_home(path);
  if (result.is_relative()) {
    result = base / result;
  }
  result = result.lexically_normal();
  if (!result.has_filename() && result.has_parent_path() && result != result.root_path()) {
    result = result.parent_path();
  }
  return result;
}

std::filesystem::path default_config_path() {
  return xdg_home("XDG_CONFIG_HOME", ".config") / "engram" / "config.toml";
}

std::filesystem::path default_store_path() {
  return xdg_home("XDG_DATA_HOME", ".local/share") / "engram" / "memory";
}

Expected<Config, std::vector<std::string>>
load_or_default(const std::optional<std::filesystem::path>& file) {
  if (file) {
    return load(*file);
  }
  const auto path = default_config_path();
  std::error_code error;
  if (std::filesystem::exists(path, error)) {
    return load(path);
  }
  return Config{.source = {}, .global = Settings::defaults(), .stores = {}};
}

} // namespace engram::config
