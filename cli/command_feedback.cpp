// `engram feedback FILE --helpful|--unhelpful`: an agent says whether a
// memory helped. One line goes to the usage log; the next consolidation
// folds it into the memory's `helpful` or `unhelpful` count.
#include "base/error.hpp"
#include "cli/app.hpp"
#include "cli/json_output.hpp"
#include "cli/store_selection.hpp"
#include "usage/log.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <memory>

namespace engram::cli {

namespace {

namespace fs = std::filesystem;

// What `engram feedback` was asked to do.
struct FeedbackOptions {
  std::optional<fs::path> store;  // --store
  std::string file;               // FILE
  bool helpful = false;           // --helpful
  bool unhelpful = false;         // --unhelpful
  std::optional<std::string> now; // --now YYYY-MM-DD
  bool json = false;              // --json
};

// FILE as a store-relative path: taken from the store's root when it names a
// file there, else from the working folder. Says why when it is not a memory.
Expected<std::string, std::string> memory_path(const SelectedStore& selected,
                                               const std::string& file) {
  std::error_code error;
  const fs::path given(file);
  fs::path absolute = given.is_absolute()                                 ? given
                      : fs::is_regular_file(selected.root / given, error) ? selected.root / given
                                                                          : fs::absolute(given);
  const auto root = fs::weakly_canonical(selected.root, error);
  absolute = fs::weakly_canonical(absolute, error);
  const auto relative = absolute.lexically_relative(root);
  if (relative.empty() || *relative.begin() == "..") {
    return unexpected(fmt::format("{} is not in the store {}", file, selected.root.string()));
  }
  if (!fs::is_regular_file(absolute, error)) {
    return unexpected(fmt::format("{} is not a file", file));
  }
  const auto layer = selected.layout.classify(relative);
  if (!layer || *layer == Layer::index || *layer == Layer::working || *layer == Layer::core ||
      *layer == Layer::archive) {
    return unexpected(fmt::format(
        "{} is not a memory that recall returns (episodic, semantic, procedural or reference)",
        relative.generic_string()));
  }
  return relative.generic_string();
}

int run_feedback(const Globals& globals, const FeedbackOptions& options) {
  const Format format = format_of(options.json);
  const auto config = load_config(globals, format);
  if (!config) {
    return k_exit_usage;
  }
  const auto today = today_from(options.now, "feedback", format);
  if (!today) {
    return k_exit_usage;
  }
  if (options.helpful == options.unhelpful) {
    const char* why = "give exactly one of --helpful and --unhelpful";
    fmt::print(stderr, "engram: feedback: {}\n", why);
    return report_failure(format, k_exit_usage, why);
  }
  const SelectedStore selected = select_store(*config, options.store);
  if (refuses_hands_off(selected, "feedback", format)) {
    return k_exit_problems;
  }
  const auto path = memory_path(selected, options.file);
  if (!path) {
    fmt::print(stderr, "engram: feedback: {}\n", path.error());
    return report_failure(format, k_exit_problems, path.error());
  }
  usage::Event event;
  event.kind = usage::EventKind::feedback;
  event.date = *today;
  event.files = {*path};
  event.helpful = options.helpful;
  try {
    usage::append(selected.root, selected.layout, event);
  } catch (const Error& error) {
    fmt::print(stderr, "engram: feedback: {}\n", error.what());
    return report_failure(format, k_exit_problems, error.what());
  }
  if (format == Format::json) {
    print_json({{"store", selected.root.string()},
                {"path", *path},
                {"helpful", options.helpful},
                {"date", today->to_string()}});
    return k_exit_ok;
  }
  fmt::print("noted: {} was {}; the next consolidation counts it\n", *path,
             options.helpful ? "helpful" : "not helpful");
  return k_exit_ok;
}

} // namespace

void add_feedback_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<FeedbackOptions>();
  CLI::App* command = app.add_subcommand(
      "feedback",
      "Note whether a memory helped (--helpful) or not (--unhelpful). The note goes to the "
      "usage log; the next consolidation adds it to the memory's `helpful` or `unhelpful` "
      "count.");
  add_store_option(*command, options->store);
  command->add_flag("--helpful", options->helpful, "The memory helped");
  command->add_flag("--unhelpful", options->unhelpful, "The memory did not help");
  command->add_option("--now", options->now, "Note it as on DATE (default: today)")
      ->type_name("YYYY-MM-DD");
  command->add_flag("--json", options->json, "Print what was noted as one JSON object");
  command->add_option("file", options->file, "The memory (store-relative, or a path to the file)")
      ->required()
      ->type_name("FILE");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_feedback(globals, *options); }});
}

} // namespace engram::cli
