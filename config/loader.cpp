// Loading a configuration file: parse it with toml++, check every key against
// the key table, and collect every problem as `file:line: message`. The
// [[store]] tables are read by loader_stores.cpp.
#include "config/loader.hpp"

#include "config/config.hpp"
#include "config/key_table.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <sstream>
#include <toml++/toml.h>

namespace engram::config {

namespace {

// Two keys whose values must be ordered; `strict` for "less than".
struct Ordering {
  std::string_view lower; // the key that must be the smaller
  std::string_view upper; // the key that must be the larger
  bool strict;            // equal values are wrong too
};

// The checks that involve two keys at once.
constexpr Ordering k_orderings[] = {
    {"guard.working_target_chars", "guard.working_chars", true},
    {"guard.core_block_chars", "guard.core_chars", false},
    {"daemon.settle_ms", "daemon.max_wait_ms", false},
};

// A key that can be written bare in TOML, so it can be rendered back as one.
bool is_bare_key(std::string_view key) {
  return !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
}

// True for `rules.<plugin>` and anything under it, where the rule is not built in.
bool is_plugin_rule_part(std::string_view name) {
  constexpr std::string_view prefix = "rules.";
  if (!name.starts_with(prefix)) {
    return false;
  }
  const std::string_view rule =
      name.substr(prefix.size(), name.find('.', prefix.size()) - prefix.size());
  return !rule.empty() && !is_builtin_rule(rule);
}

} // namespace

namespace detail {

// The line a node starts on; 1 when toml++ does not know it.
std::uint32_t line_of(const toml::node& node) {
  const auto line = node.source().begin.line;
  return line == 0 ? 1 : line;
}

// What a TOML node is, with its article, for "must be X, not Y".
std::string_view describe_node(const toml::node& node) {
  switch (node.type()) {
  case toml::node_type::table:
    return "a table";
  case toml::node_type::array:
    return "a list";
  case toml::node_type::string:
    return "a string";
  case toml::node_type::integer:
    return "an integer";
  case toml::node_type::floating_point:
    return "a real number";
  case toml::node_type::boolean:
    return "a boolean";
  case toml::node_type::date:
    return "a date";
  case toml::node_type::time:
    return "a time";
  case toml::node_type::date_time:
    return "a date-time";
  case toml::node_type::none:
    break;
  }
  return "nothing";
}

void Loader::report(std::uint32_t line, std::string message) {
  m_problems.push_back({line, std::move(message)});
}

Expected<Config, std::vector<std::string>> Loader::run(std::string_view text) {
  const std::string file = m_file.string();
  toml::table document;
  try {
    document = toml::parse(text, std::string_view(file));
  } catch (const toml::parse_error& error) {
    return unexpected(std::vector<std::string>{
        fmt::format("{}:{}: {}", file, std::max<std::uint32_t>(error.source().begin.line, 1),
                    error.description())});
  }

  m_config.source = m_file;
  m_config.global = Settings::defaults();
  Layer global{m_config.global, {}, false};
  read_table(document, "", global);
  check_across(global);
  if (const toml::node* stores = document.get("store"); stores != nullptr) {
    read_stores(*stores);
  }

  if (m_problems.empty()) {
    return std::move(m_config);
  }
  std::stable_sort(m_problems.begin(), m_problems.end(),
                   [](const Problem& a, const Problem& b) { return a.line < b.line; });
  std::vector<std::string> messages;
  for (const auto& problem : m_problems) {
    messages.push_back(fmt::format("{}:{}: {}", file, problem.line, problem.message));
  }
  return unexpected(std::move(messages));
}

void Loader::read_table(const toml::table& table, const std::string& prefix, Layer& layer) {
  for (const auto& [leaf, node] : table) {
    const std::string name =
        prefix.empty() ? std::string(leaf.str()) : prefix + "." + std::string(leaf.str());
    if (prefix.empty() && (layer.is_store ? (name == "path" || name == "name" || name == "profile")
                                          : name == "store")) {
      continue; // read by read_stores
    }
    if (const Key* key = find_key(name); key != nullptr) {
      read_key(*key, node, layer);
    } else if (is_key_table_prefix(name)) {
      if (const toml::table* inner = node.as_table(); inner != nullptr) {
        read_table(*inner, name, layer);
      } else {
        report(line_of(node),
               fmt::format("'{}' must be a table, not {}", name, describe_node(node)));
      }
    } else if (is_plugin_rule_part(name)) {
      // A rule engram does not ship: a plugin loaded later reads these keys.
      if (const toml::table* inner = node.as_table(); inner != nullptr) {
        read_table(*inner, name, layer);
      } else if (is_plugin_rule_key(name)) {
        read_plugin_key(name, node, layer);
      } else {
        report(line_of(node), fmt::format("'{}' must be a table of the plugin rule's settings, "
                                          "not {}",
                                          name, describe_node(node)));
      }
    } else {
      std::string message =
          fmt::format("unknown key '{}'{}", name, layer.is_store ? " in [[store]]" : "");
      const std::vector<std::string_view> extra =
          layer.is_store ? std::vector<std::string_view>{"path", "name", "profile"}
                         : std::vector<std::string_view>{"store"};
      if (const auto suggestion = nearest_name(name, extra)) {
        message += fmt::format("; did you mean '{}'?", *suggestion);
      }
      report(line_of(node), std::move(message));
    }
  }
}

std::optional<Value> Loader::convert(const std::string& name, Type type, const toml::node& node) {
  const auto wrong = [&]() -> std::optional<Value> {
    report(line_of(node),
           fmt::format("'{}' must be {}, not {}", name, describe_type(type), describe_node(node)));
    return std::nullopt;
  };
  switch (type) {
  case Type::boolean:
    return node.is_boolean() ? std::optional<Value>(*node.value<bool>()) : wrong();
  case Type::integer:
    return node.is_integer() ? std::optional<Value>(*node.value<std::int64_t>()) : wrong();
  case Type::real:
    // `1` means 1.0 to anyone writing a threshold; 0.5 is never an integer.
    if (node.is_integer()) {
      return Value(static_cast<double>(*node.value<std::int64_t>()));
    }
    return node.is_floating_point() ? std::optional<Value>(*node.value<double>()) : wrong();
  case Type::string:
    return node.is_string() ? std::optional<Value>(*node.value<std::string>()) : wrong();
  case Type::string_list: {
    const toml::array* array = node.as_array();
    if (array == nullptr) {
      return wrong();
    }
    std::vector<std::string> items;
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& item = *array->get(i);
      if (!item.is_string()) {
        report(line_of(item), fmt::format("'{}' must be a list of strings; item {} is {}", name,
                                          i + 1, describe_node(item)));
        return std::nullopt;
      }
      items.push_back(*item.value<std::string>());
    }
    return Value(std::move(items));
  }
  }
  return wrong();
}

void Loader::read_key(const Key& key, const toml::node& node, Layer& layer) {
  const std::string name(key.name);
  if (layer.is_store && key.scope == Scope::global_only) {
    report(line_of(node),
           fmt::format("'{}' applies to the whole daemon; set it outside [[store]]", name));
    return;
  }
  auto value = convert(name, key.type, node);
  if (!value) {
    return;
  }
  if (const auto problem = check_value(key, *value)) {
    report(line_of(node), fmt::format("'{}' {}", name, *problem));
    return;
  }
  if (key.form == Form::path) {
    if (auto* text = std::get_if<std::string>(&*value); text != nullptr) {
      *text = expand_home(*text).string();
    } else if (auto* items = std::get_if<std::vector<std::string>>(&*value); items != nullptr) {
      for (auto& item : *items) {
        item = expand_home(item).string();
      }
    }
  }
  layer.settings.set(name, std::move(*value));
  layer.lines.emplace(name, line_of(node));
}

void Loader::read_plugin_key(const std::string& name, const toml::node& node, Layer& layer) {
  // Every part is rendered back bare by render_toml, so each must be one.
  std::string_view rest = std::string_view(name).substr(std::string_view("rules.").size());
  bool bare = true;
  for (auto dot = rest.find('.'); bare; dot = rest.find('.')) {
    bare = is_bare_key(rest.substr(0, dot));
    if (dot == std::string_view::npos) {
      break;
    }
    rest.remove_prefix(dot + 1);
  }
  if (!bare) {
    report(line_of(node), fmt::format("'{}': a plugin rule's keys must be bare keys (letters, "
                                      "digits, '_' and '-')",
                                      name));
    return;
  }
  std::optional<Type> type;
  switch (node.type()) {
  case toml::node_type::boolean:
    type = Type::boolean;
    break;
  case toml::node_type::integer:
    type = Type::integer;
    break;
  case toml::node_type::floating_point:
    type = Type::real;
    break;
  case toml::node_type::string:
    type = Type::string;
    break;
  case toml::node_type::array:
    type = Type::string_list;
    break;
  default:
    report(line_of(node), fmt::format("'{}' is {}; a plugin rule's keys may be booleans, "
                                      "integers, numbers, strings or lists of strings",
                                      name, describe_node(node)));
    return;
  }
  // A store's override of a plugin key keeps the type the top level gave it.
  if (layer.is_store && m_config.global.contains(name)) {
    const Type global_type = type_of(m_config.global.get(name));
    if (global_type != *type && !(global_type == Type::real && *type == Type::integer)) {
      report(line_of(node), fmt::format("'{}' must be {} as at the top level, not {}", name,
                                        describe_type(global_type), describe_node(node)));
      return;
    }
    type = global_type;
  }
  auto value = convert(name, *type, node);
  if (value) {
    layer.settings.set(name, std::move(*value));
    layer.lines.emplace(name, line_of(node));
  }
}

void Loader::check_across(const Layer& layer) {
  // The line where this layer sets `key`, or 0 when it does not.
  const auto line = [&](std::string_view key) -> std::uint32_t {
    const auto found = layer.lines.find(key);
    return found == layer.lines.end() ? 0 : found->second;
  };
  for (const auto& [lower, upper, strict] : k_orderings) {
    // Only pairs this layer set: a store inherits the top level's values,
    // whose problems are reported once, at the top level.
    if (line(lower) == 0 && line(upper) == 0) {
      continue;
    }
    const auto low = layer.settings.get_int(lower);
    const auto high = layer.settings.get_int(upper);
    if (strict ? low < high : low <= high) {
      continue;
    }
    // At the lower key, which is the one to change; else at the upper key
    // that this layer lowered below the lower key's default.
    report(line(lower) != 0 ? line(lower) : line(upper),
           fmt::format("'{}' ({}) must be {} '{}' ({})", lower, low,
                       strict ? "less than" : "at most", upper, high));
  }
  // Two layout names alike would make two layers one file.
  std::vector<std::string_view> layout;
  for (const auto& key : k_config_key_table) {
    if (table_of(key.name) == "layout") {
      layout.push_back(key.name);
    }
  }
  for (std::size_t i = 0; i < layout.size(); ++i) {
    for (std::size_t j = i + 1; j < layout.size(); ++j) {
      const auto a = layout[i];
      const auto b = layout[j];
      // The later of the two lines is the one that made them clash.
      const auto clash_line = std::max(line(a), line(b));
      if (clash_line != 0 && layer.settings.get_string(a) == layer.settings.get_string(b)) {
        report(clash_line, fmt::format("'{}' and '{}' are both \"{}\"; each must be different", a,
                                       b, layer.settings.get_string(a)));
      }
    }
  }
}

} // namespace detail

Expected<Config, std::vector<std::string>> load(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    return unexpected(std::vector<std::string>{
        fmt::format("{}: cannot read the configuration: {}", file.string(), std::strerror(errno))});
  }
  std::ostringstream text;
  text << in.rdbuf();
  return detail::Loader(file).run(text.str());
}

Expected<Config, std::vector<std::string>> load_text(std::string_view text,
                                                     const std::filesystem::path& file) {
  return detail::Loader(file).run(text);
}

} // namespace engram::config
