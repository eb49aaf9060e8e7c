// Look-ups over the key table: a key by name, the rule keys, a value checked
// against its key, and the name nearest a mistyped one.
#include "config/key_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <fmt/format.h>

namespace engram::config {

namespace {

// Edits (insert, delete, substitute, swap two neighbours) between two names.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) {
    d[i][0] = i;
  }
  for (std::size_t j = 0; j <= b.size(); ++j) {
    d[0][j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

} // namespace

const Key* find_key(std::string_view name) {
  const auto found = std::find_if(k_config_key_table.begin(), k_config_key_table.end(),
                                  [&](const Key& key) { return key.name == name; });
  return found == k_config_key_table.end() ? nullptr : &*found;
}

bool is_key_table_prefix(std::string_view name) {
  return std::any_of(k_config_key_table.begin(), k_config_key_table.end(), [&](const Key& key) {
    return key.name.size() > name.size() && key.name.starts_with(name) &&
           key.name[name.size()] == '.';
  });
}

bool is_builtin_rule(std::string_view rule) {
  return std::find(k_builtin_rules.begin(), k_builtin_rules.end(), rule) != k_builtin_rules.end();
}

bool is_plugin_rule_key(std::string_view name) {
  constexpr std::string_view prefix = "rules.";
  if (!name.starts_with(prefix)) {
    return false;
  }
  const std::string_view rest = name.substr(prefix.size());
  const auto dot = rest.find('.');
  return dot != std::string_view::npos && dot > 0 && dot + 1 < rest.size() &&
         !is_builtin_rule(rest.substr(0, dot));
}

std::string_view table_of(std::string_view key) {
  const auto dot = key.rfind('.');
  return dot == std::string_view::npos ? std::string_view{} : key.substr(0, dot);
}

std::string_view leaf_of(std::string_view key) {
  const auto dot = key.rfind('.');
  return dot == std::string_view::npos ? key : key.substr(dot + 1);
}

std::string_view describe_type(Type type) {
  switch (type) {
  case Type::boolean:
    return "a boolean";
  case Type::integer:
    return "an integer";
  case Type::real:
    return "a number";
  case Type::string:
    return "a string";
  case Type::string_list:
    return "a list of strings";
  }
  return "a value";
}

Type type_of(const Value& value) {
  return static_cast<Type>(value.index());
}

std::optional<std::string> check_value(const Key& key, const Value& value) {
  if (key.type == Type::integer || key.type == Type::real) {
    const double number = key.type == Type::integer
                              ? static_cast<double>(std::get<std::int64_t>(value))
                              : std::get<double>(value);
    const auto show = [&](double limit) {
      return key.type == Type::integer ? fmt::format("{}", static_cast<std::int64_t>(limit))
                                       : fmt::format("{}", limit);
    };
    const std::string given = key.type == Type::integer
                                  ? fmt::format("{}", std::get<std::int64_t>(value))
                                  : fmt::format("{}", std::get<double>(value));
    const bool below = key.min && !(number >= *key.min);
    const bool above = key.max && !(number <= *key.max);
    if (below || above || std::isnan(number)) {
      if (key.min && key.max) {
        return fmt::format("must be between {} and {}, not {}", show(*key.min), show(*key.max),
                           given);
      }
      return below ? fmt::format("must be at least {}, not {}", show(*key.min), given)
                   : fmt::format("must be at most {}, not {}", show(*key.max), given);
    }
  }
  if (key.validator) {
    return key.validator(value);
  }
  return std::nullopt;
}

std::optional<std::string> nearest_name(std::string_view name,
                                        const std::vector<std::string_view>& extra) {
  // Short names tolerate one slip, long dotted ones up to three; more than
  // that and the suggestion is a guess that misleads more than it helps.
  const std::size_t tolerance = std::clamp<std::size_t>(name.size() / 5, 1, 3);
  std::optional<std::string> best;
  std::size_t best_distance = tolerance + 1;
  const auto consider = [&](std::string_view candidate) {
    const std::size_t distance = edit_distance(name, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = std::string(candidate);
    }
  };
  for (const auto& table : k_config_tables) {
    consider(table.name);
  }
  consider("rules");
  for (const auto& key : k_config_key_table) {
    consider(key.name);
  }
  for (const auto candidate : extra) {
    consider(candidate);
  }
  return best;
}

} // namespace engram::config
