// Reading the command line back from CLI11's App tree (see command_tree.hpp).
#include "cli/command_tree.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cctype>

namespace engram::cli {

namespace {

// CLI11's name for a value whose type says nothing more (strings, paths).
constexpr std::string_view k_plain_type = "TEXT";

// The values a validator such as CLI::IsMember allows: CLI11 describes it
// as `{a,b,c}` after the type name, and that text is all it keeps.
std::vector<std::string> choices_of(const std::string& full_type) {
  const auto open = full_type.find(":{");
  const auto close = full_type.find('}', open == std::string::npos ? 0 : open);
  if (open == std::string::npos || close == std::string::npos) {
    return {};
  }
  std::vector<std::string> choices;
  std::string item;
  for (const char c : full_type.substr(open + 2, close - open - 2)) {
    if (c == ',') {
      choices.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  choices.push_back(item);
  return choices;
}

// What a value named so is: the names the commands give paths.
ValueKind kind_of(const std::string& value_name, bool has_choices) {
  if (value_name.empty()) {
    return ValueKind::none;
  }
  if (has_choices) {
    return ValueKind::choice;
  }
  if (value_name == "FILE") {
    return ValueKind::file;
  }
  if (value_name == "DIR") {
    return ValueKind::directory;
  }
  return value_name == "PATH" ? ValueKind::path : ValueKind::text;
}

// `name` in capitals: an argument's name as its help shows it.
std::string upper(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return name;
}

// One option or argument as plain values.
OptionInfo describe_option(const CLI::Option& option) {
  OptionInfo info;
  for (const auto& name : option.get_snames()) {
    info.names.push_back("-" + name);
  }
  for (const auto& name : option.get_lnames()) {
    info.names.push_back("--" + name);
  }
  const std::string full_type = option.get_type_name();
  std::string value_name = full_type.substr(0, full_type.find(':'));
  if (option.get_type_size_max() == 0) {
    value_name.clear();
  } else if (!option.nonpositional() && (value_name.empty() || value_name == k_plain_type)) {
    value_name = upper(option.get_name(true));
  }
  info.choices = choices_of(full_type);
  info.kind = kind_of(value_name, !info.choices.empty());
  info.value_name = std::move(value_name);
  info.description = option.get_description();
  info.default_value = option.get_default_str();
  info.required = option.get_required();
  info.repeatable = option.get_items_expected_max() > 1 ||
                    option.get_multi_option_policy() == CLI::MultiOptionPolicy::TakeAll;
  return info;
}

// A command and everything under it; `path` is its own path.
CommandInfo describe(const CLI::App& app, std::vector<std::string> path) {
  CommandInfo info;
  info.path = std::move(path);
  info.description = app.get_description();
  info.needs_subcommand = app.get_require_subcommand_min() > 0;
  for (const CLI::Option* option : app.get_options()) {
    if (option->get_group().empty()) {
      continue; // hidden
    }
    (option->nonpositional() ? info.options : info.arguments).push_back(describe_option(*option));
  }
  const auto visible = [](const CLI::App* sub) {
    return !sub->get_name().empty() && !sub->get_group().empty();
  };
  for (const CLI::App* sub : app.get_subcommands(visible)) {
    auto sub_path = info.path;
    sub_path.push_back(sub->get_name());
    info.subcommands.push_back(describe(*sub, std::move(sub_path)));
  }
  return info;
}

// Appends `command` and everything under it to `out`.
void collect(const CommandInfo& command, std::vector<const CommandInfo*>& out) {
  out.push_back(&command);
  for (const auto& sub : command.subcommands) {
    collect(sub, out);
  }
}

} // namespace

std::string CommandInfo::full_name() const {
  std::string name = "engram";
  for (const auto& word : path) {
    name += " " + word;
  }
  return name;
}

CommandInfo describe_commands(const CLI::App& root) {
  return describe(root, {});
}

std::vector<const CommandInfo*> flatten(const CommandInfo& root) {
  std::vector<const CommandInfo*> out;
  collect(root, out);
  return out;
}

bool takes_value(const OptionInfo& option) {
  return option.kind != ValueKind::none;
}

std::string summary(const std::string& description) {
  // A period followed by a space ends the sentence; one inside a word ("e.g")
  // or an ellipsis ("PATH... ") does not, and one sentence is kept whole.
  auto end = description.find(". ");
  while (end != std::string::npos && end > 0 && description[end - 1] == '.') {
    end = description.find(". ", end + 1);
  }
  std::string first = description.substr(0, end);
  if (!first.empty() && first.back() == '.') {
    first.pop_back();
  }
  return first;
}

} // namespace engram::cli
