// The key table: every configuration key engram knows, with its type,
// default, limits, validator and help. A key exists only because it is here;
// loading, defaults, `engram config show` and `engram config keys` all read it.
#pragma once

#include "config/config.hpp"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace engram::config {

// Checks a value that already has its key's type and is within its range;
// returns what is wrong with it, phrased to follow the key's name
// ("must be one of ..."), or nullopt when it is fine.
using Validator = std::function<std::optional<std::string>(const Value& value)>;

// Where a key may be set: some only make sense once per daemon.
enum class Scope { global_only, global_or_store };

// How a string value is read: paths have a leading `~` expanded at load.
enum class Form { plain, path };

// One configuration key.
struct Key {
  std::string_view name;                // dotted, e.g. "guard.working_chars"
  Type type = Type::string;             // the type its value must have
  Value default_value{};                // its value when no file sets it
  std::optional<double> min{};          // the smallest number allowed
  std::optional<double> max{};          // the largest number allowed
  Validator validator{};                // extra check, or empty
  std::string_view help{};              // one or two sentences for the reference
  Scope scope = Scope::global_or_store; // whether a [[store]] may override it
  Form form = Form::plain;              // whether `~` is expanded
};

// One table of keys, for grouping the reference and the rendered TOML.
struct TableHelp {
  std::string_view name; // e.g. "guard" or "rules.dedupe"
  std::string_view help; // what the keys in it are about
};

// Every key, grouped by table, tables in the order they are documented.
extern const std::vector<Key> k_config_key_table;

// Every table of k_config_key_table, in the same order, with a description.
extern const std::vector<TableHelp> k_config_tables;

// What the configuration file is and how it is read: the reference's first paragraph.
extern const std::string_view k_config_intro;

// What a `[[store]]` section holds.
extern const std::string_view k_store_section_help;

// What a `[rules.<plugin rule>]` table holds.
extern const std::string_view k_plugin_rules_help;

// The names of the rules engram ships; `[rules.<other>]` belongs to a plugin.
extern const std::vector<std::string_view> k_builtin_rules;

// The key called `name`, or nullptr when the table has no such key.
const Key* find_key(std::string_view name);

// True when `name` is a table that holds keys ("guard", "rules", "rules.dedupe").
bool is_key_table_prefix(std::string_view name);

// True for one of the rules engram ships ("dedupe"), false for a plugin's.
bool is_builtin_rule(std::string_view rule);

// True for `rules.<plugin>.<key>`: a key of a rule that is not built in.
bool is_plugin_rule_key(std::string_view name);

// The table part of a dotted key: "guard" for "guard.working_chars".
std::string_view table_of(std::string_view key);

// The key's name within its table: "working_chars" for "guard.working_chars".
std::string_view leaf_of(std::string_view key);

// The type's name with its article, for messages: "an integer".
std::string_view describe_type(Type type);

// The type of a value.
Type type_of(const Value& value);

// A key's type and limits, as the reference lists them: "integer, 1 to 100".
std::string describe_limits(const Key& key);

// What is wrong with a value of the right type (range, then validator), or nullopt.
std::optional<std::string> check_value(const Key& key, const Value& value);

// The known name closest to `name` when it is close enough to be a likely
// typo, for "did you mean ...?"; `extra` are further names valid where it was found.
std::optional<std::string> nearest_name(std::string_view name,
                                        const std::vector<std::string_view>& extra = {});

} // namespace engram::config
