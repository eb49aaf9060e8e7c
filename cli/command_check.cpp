// `engram check`: scans a store and reports every problem as `path:line:
// reason`. It only reads, so it is safe to run on any folder at any time.
#include "cli/app.hpp"
#include "cli/json_output.hpp"
#include "cli/store_selection.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <memory>

namespace engram::cli {

namespace {

// What `engram check` was asked to do.
struct CheckOptions {
  std::optional<std::filesystem::path> store; // --store
  bool json = false;                          // --json
};

// "1 file" / "2 files".
std::string count_of(std::size_t count, std::string_view noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

// The check as one JSON object: the store, how many files were usable, and every problem.
void print_check_json(const SelectedStore& selected, const store::Snapshot& snapshot) {
  nlohmann::json diagnostics = nlohmann::json::array();
  for (const auto& diagnostic : snapshot.diagnostics) {
    diagnostics.push_back(diagnostic_json(diagnostic));
  }
  const std::size_t errors = snapshot.error_count();
  print_json({{"store", selected.root.string()},
              {"memory_files", snapshot.entries.size()},
              {"errors", errors},
              {"warnings", snapshot.diagnostics.size() - errors},
              {"diagnostics", diagnostics}});
}

// Runs `engram check`.
int run_check(const Globals& globals, const CheckOptions& options) {
  const Format format = format_of(options.json);
  const auto config = load_config(globals, format);
  if (!config) {
    return k_exit_usage;
  }
  const SelectedStore selected = select_store(*config, options.store);
  if (refuses_hands_off(selected, "check", format)) {
    return k_exit_problems;
  }
  if (!std::filesystem::is_directory(selected.root)) {
    fmt::print(stderr, "engram: no store at {}\n", selected.root.string());
    return report_failure(format, k_exit_problems, "no store at " + selected.root.string());
  }

  const store::Snapshot snapshot = store::scan(selected.root, selected.layout, selected.limits);
  const std::size_t errors = snapshot.error_count();
  const std::size_t warnings = snapshot.diagnostics.size() - errors;
  if (format == Format::json) {
    print_check_json(selected, snapshot);
    return snapshot.diagnostics.empty() ? k_exit_ok : k_exit_problems;
  }
  for (const auto& diagnostic : snapshot.diagnostics) {
    fmt::print("{}\n", diagnostic.to_string());
  }
  std::fflush(stdout);
  if (snapshot.diagnostics.empty()) {
    fmt::print(stderr, "engram: {} checked, no problems\n",
               count_of(snapshot.entries.size(), "memory file"));
    return k_exit_ok;
  }
  fmt::print(stderr, "engram: {} ({}, {}); {} usable\n",
             count_of(snapshot.diagnostics.size(), "problem"), count_of(errors, "error"),
             count_of(warnings, "warning"), count_of(snapshot.entries.size(), "memory file"));
  return k_exit_problems;
}

} // namespace

void add_check_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* command = app.add_subcommand(
      "check", "Report every problem in a store's files as `path:line: reason` (exit 1 when there "
               "is any). Reads only; changes nothing.");
  add_store_option(*command, options->store);
  command->add_flag("--json", options->json, "Print the problems as one JSON object");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_check(globals, *options); }});
}

} // namespace engram::cli
