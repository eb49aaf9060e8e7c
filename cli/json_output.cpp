// The shared shape of `--json` output (see json_output.hpp).
#include "cli/json_output.hpp"

#include "base/json_text.hpp"
#include "engine/session.hpp"

#include <cstdio>
#include <fmt/format.h>
#include <regex>

namespace engram::cli {

namespace {

// Whether this process has printed its JSON value (see json_printed).
bool g_printed = false;

} // namespace

void print_json(const nlohmann::json& value) {
  // json_text, as the record's writer: invalid UTF-8 in a file name or claim
  // becomes U+FFFD instead of an exception halfway through the output.
  const std::string text = json_text(value, 2) + "\n";
  std::fwrite(text.data(), 1, text.size(), stdout);
  std::fflush(stdout);
  g_printed = true;
}

bool json_printed() {
  return g_printed;
}

void note_json_printed() {
  g_printed = true;
}

nlohmann::json diagnostic_json(const store::Diagnostic& diagnostic) {
  return {{"path", diagnostic.path},
          {"line", diagnostic.line},
          {"reason", diagnostic.reason},
          {"severity", diagnostic.severity == store::Severity::error ? "error" : "warning"}};
}

nlohmann::json problem_json(std::string_view text) {
  static const std::regex k_located(R"(^(.*?):([0-9]+): (.*)$)");
  std::match_results<std::string_view::const_iterator> match;
  if (std::regex_match(text.begin(), text.end(), match, k_located)) {
    return {{"path", match[1].str()},
            {"line", std::stoi(match[2].str())},
            {"reason", match[3].str()},
            {"severity", "error"}};
  }
  return {{"path", nullptr}, {"line", nullptr}, {"reason", text}, {"severity", "error"}};
}

int report_failure(Format format, int exit_code, std::string_view reason,
                   const std::vector<std::string>& problems) {
  if (format == Format::json) {
    nlohmann::json diagnostics = nlohmann::json::array();
    for (const auto& problem : problems) {
      diagnostics.push_back(problem_json(problem));
    }
    print_json({{"error", reason}, {"diagnostics", diagnostics}});
  }
  return exit_code;
}

std::optional<config::Config> load_config(const Globals& globals, Format format) {
  if (format == Format::text) {
    return load_config(globals);
  }
  auto loaded = config::load_or_default(globals.config_file);
  if (!loaded) {
    for (const auto& problem : loaded.error()) {
      fmt::print(stderr, "{}\n", problem);
    }
    report_failure(format, k_exit_usage, "the configuration has errors", loaded.error());
    return std::nullopt;
  }
  return std::move(loaded).value();
}

bool refuses_hands_off(const SelectedStore& selected, std::string_view command, Format format) {
  if (!refuses_hands_off(selected, command)) {
    return false;
  }
  report_failure(format, k_exit_problems,
                 engine::hands_off_reason(selected.root, selected.settings));
  return true;
}

std::optional<Date> today_from(const std::optional<std::string>& now, std::string_view command,
                               Format format) {
  auto today = today_from(now, command);
  if (!today) {
    report_failure(format, k_exit_usage,
                   fmt::format("--now must be a date YYYY-MM-DD, not '{}'", now.value_or("")));
  }
  return today;
}

} // namespace engram::cli
