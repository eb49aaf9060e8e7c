// Printing configuration: the effective settings as TOML (`engram config
// show`) and the reference of every key (`engram config keys`).
#include "config/config.hpp"
#include "config/key_table.hpp"

#include <cmath>
#include <fmt/format.h>
#include <map>

namespace engram::config {

namespace {

// The width the reference's prose is wrapped to.
constexpr std::size_t k_reference_width = 92;

// A string as a TOML basic string, escaped so it reads back byte for byte.
std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\r':
      out += "\\r";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        out += fmt::format("\\u{:04X}", static_cast<unsigned>(static_cast<unsigned char>(c)));
      } else {
        out += c;
      }
    }
  }
  return out + "\"";
}

// A real as TOML: the shortest text that reads back to the same double, with
// a fraction so TOML does not take it for an integer.
std::string toml_real(double number) {
  if (std::isnan(number)) {
    return "nan";
  }
  if (std::isinf(number)) {
    return number < 0 ? "-inf" : "inf";
  }
  std::string text = fmt::format("{}", number);
  if (text.find_first_of(".e") == std::string::npos) {
    text += ".0";
  }
  return text;
}

// The rule a plugin key belongs to, and the key's name inside the rule's table.
std::pair<std::string_view, std::string_view> split_plugin_key(std::string_view key) {
  const std::string_view rest = key.substr(std::string_view("rules.").size());
  const auto dot = rest.find('.');
  return {rest.substr(0, dot), rest.substr(dot + 1)};
}

// `text` wrapped to the reference's width, each line starting with `indent`.
std::string wrap(std::string_view text, std::string_view indent) {
  std::string out;
  std::string line(indent);
  while (!text.empty()) {
    const auto space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    text = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    if (line.size() > indent.size() && line.size() + 1 + word.size() > k_reference_width) {
      out += line + "\n";
      line = std::string(indent);
    }
    if (line.size() > indent.size()) {
      line += ' ';
    }
    line += word;
  }
  return out + line + "\n";
}

} // namespace

std::string render_value(const Value& value) {
  switch (type_of(value)) {
  case Type::boolean:
    return std::get<bool>(value) ? "true" : "false";
  case Type::integer:
    return fmt::format("{}", std::get<std::int64_t>(value));
  case Type::real:
    return toml_real(std::get<double>(value));
  case Type::string:
    return toml_string(std::get<std::string>(value));
  case Type::string_list: {
    std::string out = "[";
    for (const auto& item : std::get<std::vector<std::string>>(value)) {
      out += fmt::format("{}{}", out.size() > 1 ? ", " : "", toml_string(item));
    }
    return out + "]";
  }
  }
  return {};
}

std::string describe_limits(const Key& key) {
  std::string text(describe_type(key.type).substr(describe_type(key.type).find(' ') + 1));
  const auto number = [&](double limit) {
    return key.type == Type::integer ? fmt::format("{}", static_cast<std::int64_t>(limit))
                                     : fmt::format("{}", limit);
  };
  if (key.min && key.max) {
    text += fmt::format(", {} to {}", number(*key.min), number(*key.max));
  } else if (key.min) {
    text += fmt::format(", at least {}", number(*key.min));
  } else if (key.max) {
    text += fmt::format(", at most {}", number(*key.max));
  }
  if (key.scope == Scope::global_only) {
    text += ", top level only";
  }
  return text;
}

std::string render_toml(const Config& config) {
  std::string out = "# engram's effective configuration";
  out += config.source.empty() ? " (built-in defaults).\n"
                               : fmt::format(", from {}.\n", config.source.string());
  out += "# `engram --config FILE` accepts this text as it is.\n";

  for (const auto& table : k_config_tables) {
    out += fmt::format("\n[{}]\n", table.name);
    for (const auto& key : k_config_key_table) {
      if (table_of(key.name) == table.name) {
        out +=
            fmt::format("{} = {}\n", leaf_of(key.name), render_value(config.global.get(key.name)));
      }
    }
  }

  std::string_view current_rule;
  for (const auto& [name, value] : config.global.values()) {
    if (!is_plugin_rule_key(name)) {
      continue;
    }
    const auto [rule, key] = split_plugin_key(name);
    if (rule != current_rule) {
      out += fmt::format("\n# Read by the plugin that provides the rule '{}'.\n[rules.{}]\n", rule,
                         rule);
      current_rule = rule;
    }
    out += fmt::format("{} = {}\n", key, render_value(value));
  }

  for (const auto& store : config.stores) {
    out += fmt::format("\n[[store]]\npath = {}\n", toml_string(store.path.string()));
    if (!store.name.empty()) {
      out += fmt::format("name = {}\n", toml_string(store.name));
    }
    if (!store.profile.empty()) {
      out += fmt::format("profile = {}\n", toml_string(store.profile));
    }
    for (const auto& key : store.overridden) {
      out += fmt::format("{} = {}\n", key, render_value(store.settings.get(key)));
    }
  }
  return out;
}

std::string render_key_reference() {
  std::string out = "engram configuration keys\n=========================\n\n";
  out += wrap(k_config_intro, "");
  for (const auto& table : k_config_tables) {
    out += fmt::format("\n[{}]\n", table.name);
    out += wrap(table.help, "");
    for (const auto& key : k_config_key_table) {
      if (table_of(key.name) != table.name) {
        continue;
      }
      out += fmt::format("\n  {} = {}\n", leaf_of(key.name), render_value(key.default_value));
      out += wrap(fmt::format("({}) {}", describe_limits(key), key.help), "      ");
    }
  }
  out += "\n[[store]]\n";
  out += wrap(k_store_section_help, "");
  out += "\n[rules.<plugin rule>]\n";
  out += wrap(k_plugin_rules_help, "");
  return out;
}

} // namespace engram::config
