// Config: engram's settings, loaded from TOML and checked against one key
// table. Global values, overridden per store by `[[store]]` sections.
#pragma once

#include "base/expected.hpp"

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace engram::config {

// The type of a configuration value.
enum class Type { boolean, integer, real, string, string_list };

// One configuration value.
using Value = std::variant<bool, std::int64_t, double, std::string, std::vector<std::string>>;

// A set of settings: every key of the key table, each with a value.
class Settings {
public:
  // The defaults of every key in the key table.
  static Settings defaults();

  // Typed access; each throws engram::Error for a key not in the table or a
  // key of another type, which is a programming error, not a user's.
  bool get_bool(std::string_view key) const;
  // The value of an integer key.
  std::int64_t get_int(std::string_view key) const;
  // The value of a real key (or of a plugin's key, integer or real).
  double get_real(std::string_view key) const;
  // The value of a string key.
  const std::string& get_string(std::string_view key) const;
  // The value of a string-list key.
  const std::vector<std::string>& get_list(std::string_view key) const;

  // True when the key has a value: every table key, and the plugin keys the file set.
  bool contains(std::string_view key) const;

  // The value of a key; throws engram::Error for a key not in the table.
  const Value& get(std::string_view key) const;

  // Sets a key already checked against the table; throws engram::Error for
  // a key neither in it nor a plugin rule's (`rules.<plugin>.<key>`), or of the wrong type.
  void set(std::string_view key, Value value);

  // All values, by key name.
  const std::map<std::string, Value, std::less<>>& values() const { return m_values; }

  // Equal when every key has the same value.
  bool operator==(const Settings& other) const = default;

private:
  std::map<std::string, Value, std::less<>> m_values;
};

// One store the configuration names, with its effective settings.
struct StoreConfig {
  std::filesystem::path path;          // `~` expanded
  Settings settings;                   // global settings with this store's overrides
  std::vector<std::string> overridden; // keys this store sets itself
  std::string name;                    // its optional `name`; empty when unnamed
  std::string profile;                 // its optional `profile`; empty: detected from its files
};

// A loaded configuration.
struct Config {
  std::filesystem::path source; // the file it came from; empty for defaults
  Settings global = Settings::defaults();
  std::vector<StoreConfig> stores;

  // The effective settings for a store path: its `[[store]]` section when it
  // has one (paths compared after normalising), else the global settings.
  Settings settings_for(const std::filesystem::path& store) const;

  // The `[[store]]` section of a store path, or nullptr when it has none.
  const StoreConfig* store_for(const std::filesystem::path& store) const;
};

// `path` with a leading `~` or `~user` replaced by that home folder.
std::filesystem::path expand_home(std::string_view path);

// `path` with `~` expanded, made absolute against `base` and lexically
// normalised without a trailing separator, so two spellings of one folder compare equal.
std::filesystem::path normalise_path(std::string_view path, const std::filesystem::path& base);

// `$XDG_CONFIG_HOME/engram/config.toml` (or `~/.config/...`).
std::filesystem::path default_config_path();

// `$XDG_DATA_HOME/engram/memory` (or `~/.local/share/...`).
std::filesystem::path default_store_path();

// Loads and validates a configuration file. Every problem is reported as
// `file:line: message` (unknown keys, wrong types, out-of-range values,
// TOML syntax errors); all are collected, not just the first.
Expected<Config, std::vector<std::string>> load(const std::filesystem::path& file);

// Loads and validates `text` as the contents of `file` (which is not read:
// it names the problems and is the base of relative paths), as load() does.
Expected<Config, std::vector<std::string>> load_text(std::string_view text,
                                                     const std::filesystem::path& file);

// Loads `file` when given, else the default path when it exists, else defaults.
Expected<Config, std::vector<std::string>>
load_or_default(const std::optional<std::filesystem::path>& file);

// The effective configuration as TOML that load() accepts (`engram config show`).
std::string render_toml(const Config& config);

// A value as TOML text: `4000`, `"semantic"`, `["a", "b"]`.
std::string render_value(const Value& value);

// Every key with its type, default and help (`engram config keys`).
std::string render_key_reference();

} // namespace engram::config
