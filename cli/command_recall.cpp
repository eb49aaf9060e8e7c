// `engram recall`: the memories that answer a query, best first, within a
// limit and a character budget — as paths, as the context to inject
// (`--context`), or as JSON. Each recall that returns something is noted in
// the usage log; memory files are only read.
#include "base/error.hpp"
#include "cli/app.hpp"
#include "cli/json_output.hpp"
#include "cli/store_selection.hpp"
#include "recall/recall.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace engram::cli {

namespace {

// What `engram recall` was asked to do.
struct RecallOptions {
  std::optional<std::filesystem::path> store; // --store
  bool json = false;                          // --json
  bool context = false;                       // --context
  std::optional<std::size_t> limit;           // --limit, else recall.limit
  std::optional<std::size_t> budget;          // --budget, else recall.budget_chars
  std::optional<std::string> now;             // --now YYYY-MM-DD
  std::vector<std::string> words;             // QUERY (joined by spaces)
};

// The result as JSON.
nlohmann::json to_json(const std::string& query, const recall::Result& result, bool context) {
  nlohmann::json memories = nlohmann::json::array();
  for (const auto& memory : result.selection.memories) {
    nlohmann::json item = {
        {"path", memory.path},
        {"score", memory.score},
        {"chars", memory.chars},
        {"via", memory.via.empty() ? nlohmann::json() : nlohmann::json(memory.via)}};
    if (context) {
      item["content"] = memory.content;
    }
    memories.push_back(std::move(item));
  }
  return {{"query", query},
          {"keywords", result.keywords},
          {"indexed", result.indexed},
          {"chars", result.selection.chars},
          {"memories", memories},
          {"unreadable", result.selection.unreadable}};
}

int run_recall(const Globals& globals, const RecallOptions& options) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  const auto today = today_from(options.now, "recall");
  if (!today) {
    return k_exit_usage;
  }
  const SelectedStore selected = select_store(*config, options.store);
  if (refuses_hands_off(selected, "recall")) { // its index and usage log would be written there
    return k_exit_problems;
  }
  std::string query;
  for (const auto& word : options.words) {
    query += (query.empty() ? "" : " ") + word;
  }
  recall::Request request;
  request.query = query;
  request.today = *today;
  request.limits.limit =
      options.limit.value_or(static_cast<std::size_t>(selected.settings.get_int("recall.limit")));
  request.limits.budget_chars = options.budget.value_or(
      static_cast<std::size_t>(selected.settings.get_int("recall.budget_chars")));
  request.limits.max_file_bytes = selected.limits.max_file_bytes;

  recall::Result result;
  try {
    result = recall::recall(selected.root, selected.layout, request);
  } catch (const Error& error) {
    fmt::print(stderr, "engram: recall: {}\n", error.what());
    return k_exit_problems;
  }
  for (const auto& problem : result.selection.unreadable) {
    fmt::print(stderr, "engram: recall: skipped {}\n", problem);
  }
  if (!result.unnoted.empty()) {
    fmt::print(stderr, "engram: recall: not noted in the usage log: {}\n", result.unnoted);
  }
  if (options.json) {
    print_json(to_json(query, result, options.context));
  } else {
    for (const auto& memory : result.selection.memories) {
      if (options.context) {
        fmt::print("{}", recall::context_block(memory.path, memory.content));
      } else {
        fmt::print("{}\n", memory.path);
      }
    }
  }
  if (!result.indexed && !result.keywords.empty()) {
    fmt::print(stderr, "engram: recall: {} has no {} yet; `engram consolidate` builds it\n",
               selected.root.string(), selected.layout.index_json);
    return k_exit_problems;
  }
  if (result.keywords.empty()) {
    fmt::print(stderr, "engram: recall: the query has no keywords (only stopwords or nothing)\n");
  }
  return k_exit_ok;
}

} // namespace

void add_recall_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<RecallOptions>();
  CLI::App* command = app.add_subcommand(
      "recall",
      "Print the memories that answer QUERY, best first: its keywords against tags, trigger "
      "words (twice the weight) and summaries, times salience; related memories one hop; "
      "superseded ones never. Within --limit memories and --budget characters. Noted in the "
      "usage log, which the next consolidation folds into the memories.");
  add_store_option(*command, options->store);
  command->add_flag("--json", options->json, "Print the result as JSON");
  command->add_flag("--context", options->context,
                    "Print the memories' contents, ready to inject into an agent's context");
  command->add_option("--limit", options->limit, "The most memories (default: recall.limit)")
      ->type_name("N")
      ->check(CLI::PositiveNumber);
  command
      ->add_option("--budget", options->budget,
                   "The most characters of memory (default: recall.budget_chars)")
      ->type_name("CHARS")
      ->check(CLI::PositiveNumber);
  command->add_option("--now", options->now, "Recall as on DATE (default: today)")
      ->type_name("YYYY-MM-DD");
  command->add_option("query", options->words, "What to recall (words are joined by spaces)")
      ->required()
      ->type_name("QUERY");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_recall(globals, *options); }});
}

} // namespace engram::cli
