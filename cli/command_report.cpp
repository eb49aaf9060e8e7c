// `engram report`: how a store changed over time, as one self-contained HTML
// page drawn from its git history and the records in its notes. Read-only:
// it needs no lock and works on any clone of a store's history.
#include "cli/app.hpp"
#include "cli/report_page.hpp"
#include "cli/store_selection.hpp"
#include "engine/store_history.hpp"
#include "git/history.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <fstream>
#include <memory>

namespace engram::cli {

namespace {

// How many tags the page ranks.
constexpr std::size_t k_top_tags = 10;

// What `engram report` was asked to do.
struct ReportOptions {
  std::optional<std::filesystem::path> store;  // --store
  std::optional<std::string> since;            // --since YYYY-MM-DD
  std::optional<std::filesystem::path> output; // --output; stdout when absent or `-`
};

// Writes `page` to `file`; says why on stderr and returns false when it cannot.
bool write_page(const std::filesystem::path& file, const std::string& page) {
  std::ofstream out(file, std::ios::trunc | std::ios::binary);
  out << page;
  if (!out.flush()) {
    fmt::print(stderr, "engram: report: cannot write {}\n", file.string());
    return false;
  }
  return true;
}

// Runs `engram report`.
int run_report(const Globals& globals, const ReportOptions& options) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  engine::HistoryQuery query{std::nullopt, k_top_tags};
  if (options.since) {
    query.since = Date::parse(*options.since);
    if (!query.since) {
      fmt::print(stderr, "engram: report: --since must be a date YYYY-MM-DD, not '{}'\n",
                 *options.since);
      return k_exit_usage;
    }
  }
  const SelectedStore selected = select_store(*config, options.store);
  auto repository = git::Repository::open(selected.root);
  if (!repository) {
    fmt::print(stderr, "engram: report: {}: not an engram store ({})\n", selected.root.string(),
               repository.error());
    return k_exit_problems;
  }
  const auto history = engine::read_history(*repository, selected.layout, selected.settings, query);
  const ReportSource source{selected.root.string(), local_today().to_string(), options.since};
  const std::string page = render_report(history, source);
  if (!options.output || *options.output == "-") {
    fmt::print("{}", page);
    return k_exit_ok;
  }
  if (!write_page(*options.output, page)) {
    return k_exit_problems;
  }
  fmt::print("wrote {} ({} commit{})\n", options.output->string(), history.points.size(),
             history.points.size() == 1 ? "" : "s");
  return k_exit_ok;
}

} // namespace

void add_report_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* command = app.add_subcommand(
      "report", "Write one self-contained HTML page of how the store changed over time: files "
                "and claims per layer, actions per consolidation, guard headroom, top tags and "
                "the latest consolidations, drawn from its git history.");
  add_store_option(*command, options->store);
  command->add_option("--since", options->since, "Leave out commits dated before DATE")
      ->type_name("DATE");
  command->add_option("-o,--output", options->output, "Write the page to FILE instead of stdout")
      ->type_name("FILE");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_report(globals, *options); }});
}

} // namespace engram::cli
