// `engram consolidate`: one consolidation of one store, now. The rules run over
// a snapshot; the plan is applied and committed, or with --dry-run only shown
// (as a unified diff and the record) while nothing is written.
#include "base/error.hpp"
#include "base/json_text.hpp"
#include "cli/app.hpp"
#include "cli/detached_pack.hpp"
#include "cli/history_output.hpp"
#include "cli/json_output.hpp"
#include "cli/keep_until_exit.hpp"
#include "cli/progress_line.hpp"
#include "cli/rule_plugins.hpp"
#include "cli/store_selection.hpp"
#include "daemon/control_socket.hpp"
#include "engine/consolidation.hpp"
#include "engine/message.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

namespace engram::cli {

namespace {

// What `engram consolidate` was asked to do.
struct ConsolidateOptions {
  std::optional<std::filesystem::path> store; // --store
  std::optional<std::string> now;             // --now YYYY-MM-DD
  bool dry_run = false;                       // --dry-run
  bool lightweight = false;                   // --lightweight
  bool json = false;                          // --json
  std::vector<std::string> only;              // --only RULE,...: run these rules and no other
  std::vector<std::string> skip;              // --skip RULE: run every rule but these
  bool allow_removals = false;                // --allow-removals: no removal cap this run
  bool verbose = false;                       // --verbose: every action, not the counts
  bool quiet = false;                         // --quiet: no progress line
};

// The outcome as JSON text on stdout: the record, what was applied, and the
// commits. Written as it goes (see engine::record_members) and out in
// pieces: a full consolidation's record is megabytes, and a buffer that
// size is a thousand fresh pages to fault in.
void print_outcome_json(const SelectedStore& selected, const engine::Outcome& outcome,
                        engine::DryRun dry, const plugins::Host& host) {
  const auto value = [](nlohmann::json json) {
    return [json = std::move(json)](JsonWriter& writer) { writer.value(json); };
  };
  const auto optional = [](const std::optional<std::string>& id) {
    return id ? nlohmann::json(*id) : nlohmann::json(nullptr);
  };
  auto members =
      engine::record_members(outcome.plan, dry == engine::DryRun::yes ? nullptr : &outcome.applied);
  nlohmann::json refused = nlohmann::json::array();
  for (const auto& plugin : host.refused()) {
    refused.push_back({{"path", plugin.path}, {"reason", plugin.reason}});
  }
  members.push_back({"store", value(selected.root.string())});
  members.push_back({"dry_run", value(dry == engine::DryRun::yes)});
  members.push_back({"nothing_to_consolidate", value(outcome.plan.empty())});
  members.push_back({"commit", value(optional(outcome.commit))});
  members.push_back({"snapshot_commit", value(optional(outcome.snapshot_commit))});
  members.push_back({"recovery", value(recovery_json(outcome.recovery))});
  members.push_back({"refused_plugins", value(std::move(refused))});
  constexpr std::size_t k_piece = 64 * 1024;
  std::string out;
  out.reserve(2 * k_piece);
  JsonWriter writer(out, 2);
  writer.drain_every(k_piece,
                     [](std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); });
  write_object(writer, std::move(members));
  out += '\n';
  writer.drain();
  note_json_printed();
}

// Prints the outcome for people: the plan or what was committed on stdout,
// skipped files and failed rules on stderr. A run that applied prints its
// record counted per rule and per file, every action only when `verbose`: a
// full run over a large store acts tens of thousands of times.
void print_text(const engine::Outcome& outcome, engine::DryRun dry, bool verbose) {
  const auto& plan = outcome.plan;
  for (const auto& diagnostic : plan.diagnostics) {
    fmt::print(stderr, "{} (skipped)\n", diagnostic.to_string());
  }
  for (const auto& rule : plan.failed_rules) {
    fmt::print(stderr, "engram: rule {} failed; its changes were discarded (see the record)\n",
               rule);
  }
  print_recovery(outcome.recovery);
  if (outcome.snapshot_commit) {
    fmt::print("committed the agent's changes first as {}\n", short_id(*outcome.snapshot_commit));
  }
  if (plan.empty()) {
    // What the rules report without changing anything (a likely duplicate
    // that is not merged, a partly stale memory) is still worth reading.
    fmt::print("nothing to consolidate\n{}", engine::render_record(plan));
    return;
  }
  if (dry == engine::DryRun::yes) {
    fmt::print("{}\n{}\n{}", engine::unified_diff(plan), engine::summary_line(plan),
               engine::render_record(plan));
    fmt::print("dry run: nothing was written\n");
    return;
  }
  fmt::print("{}\n", engine::summary_line(plan));
  // Megabytes after a full consolidation: written as rendered, not copied into fmt's buffer.
  const auto record = verbose ? engine::render_record(plan) : engine::render_summary(plan);
  std::fwrite(record.data(), 1, record.size(), stdout);
  const auto& applied = outcome.applied;
  if (!applied.deferred.empty()) {
    fmt::print("deferred to the next run (changed while engram worked, or waiting on one that "
               "did):\n");
    for (const auto& path : applied.deferred) {
      fmt::print("  {}\n", path);
    }
  }
  if (outcome.commit) {
    fmt::print("committed {} ({} written, {} removed){}\n", short_id(*outcome.commit),
               applied.written.size(), applied.removed.size(),
               verbose ? "" : "; every action: engram show " + short_id(*outcome.commit));
  } else {
    fmt::print("every change was deferred; nothing was committed\n");
  }
}

// The record of the daemon's run for people: every action when `verbose`,
// else counted. A record this engram cannot read (a daemon of another
// version) is shown as the daemon rendered it.
std::string daemon_record_text(const nlohmann::json& reply, bool verbose) {
  auto text = reply.value("record_text", std::string());
  if (!verbose) {
    try {
      text = engine::render_summary(
          engine::plan_from_record(reply.value("record", nlohmann::json::object())));
    } catch (const nlohmann::json::exception&) {
      spdlog::debug("the daemon's record cannot be counted here; shown whole");
    }
  }
  return text;
}

// The outcome of a consolidation the daemon ran, printed as print_text and
// to_json print one run here: JSON adds the daemon's pid and why it ran.
int print_daemon_reply(const SelectedStore& selected, const nlohmann::json& reply, bool json,
                       bool verbose) {
  if (!reply.value("ok", false)) {
    const auto why = reply.value("error", std::string("failed"));
    fmt::print(stderr, "engram: consolidate: {}\n", why);
    return report_failure(format_of(json), k_exit_problems, why);
  }
  const nlohmann::json record = reply.value("record", nlohmann::json::object());
  const bool nothing = record.value("changes", nlohmann::json::array()).empty();
  if (json) {
    nlohmann::json out = record;
    out["store"] = selected.root.string();
    out["dry_run"] = false;
    out["nothing_to_consolidate"] = nothing;
    out["commit"] = reply.value("commit", nlohmann::json(nullptr));
    out["snapshot_commit"] = reply.value("snapshot_commit", nlohmann::json(nullptr));
    out["refused_plugins"] = nlohmann::json::array(); // the daemon logs its own
    out["daemon"] = {{"pid", reply.value("pid", 0)}, {"reason", reply.value("reason", "")}};
    print_json(out);
    return k_exit_ok;
  }
  for (const auto& diagnostic : record.value("diagnostics", nlohmann::json::array())) {
    fmt::print(stderr, "{} (skipped)\n", diagnostic.get<std::string>());
  }
  for (const auto& rule : record.value("failed_rules", nlohmann::json::array())) {
    fmt::print(stderr, "engram: rule {} failed; its changes were discarded (see the record)\n",
               rule.get<std::string>());
  }
  fmt::print(stderr, "engram: consolidated by the daemon that keeps this store (pid {})\n",
             reply.value("pid", 0));
  const auto snapshot = reply.value("snapshot_commit", nlohmann::json(nullptr));
  if (snapshot.is_string()) {
    fmt::print("committed the agent's changes first as {}\n",
               short_id(snapshot.get<std::string>()));
  }
  if (nothing) {
    fmt::print("nothing to consolidate\n");
    return k_exit_ok;
  }
  fmt::print("{}\n{}", reply.value("summary", std::string()), daemon_record_text(reply, verbose));
  const auto deferred = record.value("deferred", nlohmann::json::array());
  if (!deferred.empty()) {
    fmt::print("deferred to the next run (changed while engram worked, or waiting on one that "
               "did):\n");
    for (const auto& path : deferred) {
      fmt::print("  {}\n", path.get<std::string>());
    }
  }
  const auto commit = reply.value("commit", nlohmann::json(nullptr));
  if (commit.is_string()) {
    fmt::print("committed {} ({} written, {} removed)\n", short_id(commit.get<std::string>()),
               record.value("written", nlohmann::json::array()).size(),
               record.value("removed", nlohmann::json::array()).size());
  } else {
    fmt::print("every change was deferred; nothing was committed\n");
  }
  return k_exit_ok;
}

// Asks the daemon that keeps the store, if one does, to run the consolidation,
// so the two never race; nullopt when no daemon keeps it. A dry run writes
// nothing and cannot race, so it always runs here.
std::optional<int> consolidate_through_daemon(const SelectedStore& selected,
                                              const ConsolidateOptions& options) {
  if (options.dry_run) {
    return std::nullopt;
  }
  nlohmann::json request = {{"request", "consolidate"},
                            {"kind", options.lightweight ? "lightweight" : "full"}};
  if (options.now) {
    request["now"] = *options.now;
  }
  // The daemon's run drawn here as a run of this command's own would be.
  const auto progress = progress_on_stderr("consolidate", options.quiet);
  if (progress) {
    request["progress"] = true;
  }
  const auto draw = [&progress](const daemon::ProgressReport& report) {
    progress->update(report.step, report.done, report.total, report.units);
  };
  std::optional<nlohmann::json> reply;
  try {
    // No time limit: the reply comes when the run is done, after any run in progress.
    reply = daemon::ask(daemon::socket_path(selected.root), request, std::nullopt,
                        progress ? std::function(draw) : nullptr);
  } catch (const Error& error) {
    if (progress) {
      progress->finish();
    }
    fmt::print(stderr, "engram: consolidate: {}\n", error.what());
    return report_failure(format_of(options.json), k_exit_problems, error.what());
  }
  if (progress) {
    progress->finish();
  }
  if (!reply) {
    return std::nullopt;
  }
  return print_daemon_reply(selected, *reply, options.json, options.verbose);
}

// The rules a consolidation runs: all loaded ones, or the subset --only and
// --skip name. nullopt (with the reason printed) when a name is not a loaded rule.
std::optional<std::vector<engine::RuleSlot>> selected_rules(const plugins::Host& host,
                                                            const ConsolidateOptions& options) {
  auto slots = host.slots();
  for (const auto* names : {&options.only, &options.skip}) {
    for (const auto& name : *names) {
      const bool loaded =
          std::any_of(slots.begin(), slots.end(),
                      [&](const engine::RuleSlot& slot) { return slot.name == name; });
      if (!loaded) {
        std::string known;
        for (const auto& slot : slots) {
          known += (known.empty() ? "" : ", ") + slot.name;
        }
        fmt::print(stderr, "engram: consolidate: no rule named '{}' is loaded (loaded: {})\n", name,
                   known);
        return std::nullopt;
      }
    }
  }
  const auto named = [](const std::vector<std::string>& names, const std::string& rule) {
    return std::find(names.begin(), names.end(), rule) != names.end();
  };
  std::erase_if(slots, [&](const engine::RuleSlot& slot) {
    return (!options.only.empty() && !named(options.only, slot.name)) ||
           named(options.skip, slot.name);
  });
  return slots;
}

// Runs `engram consolidate`.
int run_consolidate(const Globals& globals, const ConsolidateOptions& options) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  const auto today_or_not = today_from(options.now, "consolidate");
  if (!today_or_not) {
    return k_exit_usage;
  }
  const Date today = *today_or_not;
  const SelectedStore selected = select_store(*config, options.store);
  if (!std::filesystem::is_directory(selected.root)) {
    fmt::print(stderr, "engram: consolidate: no store at {}\n", selected.root.string());
    return k_exit_problems;
  }

  // A subset of the rules is this command's own choice, which the daemon's
  // request does not carry: it runs here, and the run lock keeps it from
  // racing the daemon's runs.
  // So is --allow-removals: it lifts the cap for this run only.
  const bool subset = !options.only.empty() || !options.skip.empty();
  if (!subset && !options.allow_removals) {
    if (const auto through_daemon = consolidate_through_daemon(selected, options)) {
      return *through_daemon;
    }
  }

  // The rules keep what they derived per store; like the outcome, that is
  // left to the exit (see keep_until_exit.hpp).
  const auto kept_host = std::make_shared<plugins::Host>();
  plugins::Host& host = *kept_host;
  load_rule_plugins(host, *config);
  const auto rules = selected_rules(host, options);
  if (!rules) {
    return k_exit_usage;
  }
  const auto dry = options.dry_run ? engine::DryRun::yes : engine::DryRun::no;
  const auto kind = options.lightweight ? RunKind::lightweight : RunKind::full;
  config::Settings settings = selected.settings;
  if (options.allow_removals) {
    settings.set("guard.max_removals_per_run", std::int64_t{0});
  }
  engine::Outcome outcome;
  const auto progress = progress_on_stderr("consolidate", options.quiet);
  try {
    outcome = engine::consolidate(selected.root, settings, *rules, today, kind, dry, nullptr,
                                  nullptr, subset, progress.get());
  } catch (const Error& error) {
    if (progress) {
      progress->finish();
    }
    fmt::print(stderr, "engram: consolidate: {}\n", error.what());
    return report_failure(format_of(options.json), k_exit_problems, error.what());
  }
  if (progress) {
    progress->finish();
  }

  if (options.json) {
    print_outcome_json(selected, outcome, dry, *kept_host);
  } else {
    print_text(outcome, dry, options.verbose);
  }
  if (kind == RunKind::full && dry == engine::DryRun::no) {
    pack_detached_if_due(globals, selected);
  }
  keep_until_exit(std::make_shared<engine::Outcome>(std::move(outcome)));
  keep_until_exit(kept_host);
  return k_exit_ok;
}

} // namespace

void add_consolidate_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<ConsolidateOptions>();
  CLI::App* command = app.add_subcommand(
      "consolidate",
      "Run the rules over a store now, write the result and commit it with a message made from "
      "the record. Exit 0 when it ran (also when there was nothing to do), 1 when it could not.");
  add_store_option(*command, options->store);
  command->add_option("--now", options->now, "Consolidate as if today were DATE (default: today)")
      ->type_name("YYYY-MM-DD");
  command->add_flag("--dry-run", options->dry_run,
                    "Print the plan as a unified diff and the record; write and commit nothing");
  command->add_flag("--lightweight", options->lightweight,
                    "Run only the guards and the index, not every rule");
  command->add_flag("--json", options->json,
                    "Print the record as JSON (with the commit ids and skipped files)");
  auto* only =
      command
          ->add_option("--only", options->only,
                       "Run only these rules (comma-separated), e.g. dedupe,contradictions")
          ->type_name("RULES")
          ->delimiter(',');
  command
      ->add_option("--skip", options->skip,
                   "Run every rule but this one (repeatable, or comma-separated)")
      ->type_name("RULE")
      ->delimiter(',')
      ->excludes(only);
  command->add_flag("--verbose", options->verbose,
                    "Print every action of the record, not its counts per rule and per file");
  command->add_flag("--quiet", options->quiet, "No progress line on a terminal");
  command->add_flag("--allow-removals", options->allow_removals,
                    "Let this run remove more memory files than guard.max_removals_per_run and "
                    "guard.max_removals_share allow (a first run over a large backlog)");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_consolidate(globals, *options); }});
}

} // namespace engram::cli
