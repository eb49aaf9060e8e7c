// The Loader behind config::load, private to config/: the keys, values and
// checks across keys (loader.cpp) and the [[store]] tables (loader_stores.cpp)
// fill one Config and report into one list of problems.
#pragma once

#include "config/config.hpp"
#include "config/key_table.hpp"

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <toml++/toml.h>
#include <vector>

namespace engram::config::detail {

// A problem in the file, kept with its line so all print in file order.
struct Problem {
  std::uint32_t line;  // 1-based, as editors count
  std::string message; // without the `file:line: ` prefix
};

// The keys one part of the file sets (the top level, or one [[store]]) and where.
struct Layer {
  Settings& settings;                                      // where its values go
  std::map<std::string, std::uint32_t, std::less<>> lines; // the line of each key it sets
  bool is_store;                                           // a [[store]], not the top level
};

// The line a node starts on; 1 when toml++ does not know it.
[[nodiscard]] std::uint32_t line_of(const toml::node& node);

// What a TOML node is, with its article, for "must be X, not Y".
[[nodiscard]] std::string_view describe_node(const toml::node& node);

// Checks every key of one file and builds its Config.
class Loader {
public:
  // Prepares to load the text of `file`.
  explicit Loader(std::filesystem::path file) : m_file(std::move(file)) {}

  // Loads `text`, the file's contents; the Config, or every problem found in it.
  Expected<Config, std::vector<std::string>> run(std::string_view text);

private:
  // Records a problem at `line`.
  void report(std::uint32_t line, std::string message);

  // Reads every key of `table`, whose own name is `prefix`, into `layer`.
  void read_table(const toml::table& table, const std::string& prefix, Layer& layer);

  // Reads one value of a key in the table.
  void read_key(const Key& key, const toml::node& node, Layer& layer);

  // Reads one value of a plugin rule's key, keeping its TOML type.
  void read_plugin_key(const std::string& name, const toml::node& node, Layer& layer);

  // Reads the `store` array: one StoreConfig per `[[store]]`.
  void read_stores(const toml::node& node);

  // Reads a [[store]] table's `name` into `store`.
  void read_store_name(const toml::table& table, StoreConfig& store);

  // Reads a [[store]] table's `profile` into `store` and its settings.
  void read_store_profile(const toml::table& table, StoreConfig& store);

  // Reads a [[store]] table's `path` into `store`, relative to `base`; the
  // path's node, or nullptr after reporting why the store has none (it starts at `line`).
  const toml::node* read_store_path(const toml::table& table, std::uint32_t line,
                                    const std::filesystem::path& base, StoreConfig& store);

  // Reports a path or name `store` shares with a [[store]] read before
  // (they start at `store_lines`); `path` is its table's path node.
  void report_reused(const toml::table& table, const toml::node& path, const StoreConfig& store,
                     const std::vector<std::uint32_t>& store_lines);

  // The checks that involve several keys, over the settings of one layer.
  void check_across(const Layer& layer);

  // The value of `node` as a Value of `type`, or nullopt after reporting why not.
  std::optional<Value> convert(const std::string& name, Type type, const toml::node& node);

  std::filesystem::path m_file;
  std::vector<Problem> m_problems;
  Config m_config;
};

} // namespace engram::config::detail
