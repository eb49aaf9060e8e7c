// `engram report`: how a store changed over time, as one self-contained HTML
// page drawn from its git history and the records in its notes. Read-only:
// it needs no lock and works on any clone of a store's history.
#include "cli/app.hpp"
#include "cli/json_output.hpp"
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
  bool json = false;                           // --json: the figures, not the page
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

// The page's figures as one JSON object: what the page embeds, and where
// the page was written (null when it was not).
void print_report_json(const engine::StoreHistory& history, const ReportSource& source,
                       const std::optional<std::filesystem::path>& written) {
  nlohmann::json out = report_json(history, report_charts(history), source);
  out["output"] = written ? nlohmann::json(written->string()) : nlohmann::json();
  print_json(out);
}

// Runs `engram report`.
int run_report(const Globals& globals, const ReportOptions& options) {
  const Format format = format_of(options.json);
  const auto config = load_config(globals, format);
  if (!config) {
    return k_exit_usage;
  }
  engine::HistoryQuery query{std::nullopt, k_top_tags};
  if (options.since) {
    query.since = Date::parse(*options.since);
    if (!query.since) {
      const auto why = fmt::format("--since must be a date YYYY-MM-DD, not '{}'", *options.since);
      fmt::print(stderr, "engram: report: {}\n", why);
      return report_failure(format, k_exit_usage, why);
    }
  }
  const SelectedStore selected = select_store(*config, options.store);
  auto repository = git::Repository::open(selected.root);
  if (!repository) {
    const auto why = fmt::format("{}: not an engram store ({})", selected.root.string(),
                                 repository.error());
    fmt::print(stderr, "engram: report: {}\n", why);
    return report_failure(format, k_exit_problems, why);
  }
  const auto history = engine::read_history(*repository, selected.layout, selected.settings, query);
  const ReportSource source{selected.root.string(), local_today().to_string(), options.since};
  const bool to_stdout = !options.output || *options.output == "-";
  if (format == Format::json && to_stdout) {
    print_report_json(history, source, std::nullopt); // stdout holds the JSON, not the page
    return k_exit_ok;
  }
  const std::string page = render_report(history, source);
  if (to_stdout) {
    fmt::print("{}", page);
    return k_exit_ok;
  }
  if (!write_page(*options.output, page)) {
    return report_failure(format, k_exit_problems, "cannot write " + options.output->string());
  }
  if (format == Format::json) {
    print_report_json(history, source, options.output);
    return k_exit_ok;
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
  command->add_flag("--json", options->json,
                    "Print the page's figures as one JSON object (the page goes only to --output)");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_report(globals, *options); }});
}

} // namespace engram::cli
