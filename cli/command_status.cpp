// `engram status`: what a store holds per layer, how close the guarded files
// are to their guards, which episodic files wait to decay, and how many
// problems `engram check` would report. As a table, or as stable JSON.
#include "base/error.hpp"
#include "cli/app.hpp"
#include "cli/json_output.hpp"
#include "cli/store_selection.hpp"
#include "daemon/control_socket.hpp"
#include "engine/guards.hpp"
#include "engine/holds.hpp"
#include "engine/sync.hpp"
#include "git/repository.hpp"
#include "store/expiry.hpp"
#include "store/profile.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fmt/chrono.h>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace engram::cli {

namespace {

namespace fs = std::filesystem;

// What `engram status` was asked to do.
struct StatusOptions {
  std::optional<fs::path> store;  // --store
  bool json = false;              // --json
  std::optional<std::string> now; // --now YYYY-MM-DD
};

// Files and bytes of one layer.
struct LayerCount {
  store::Layer layer;
  std::size_t files = 0;
  std::uintmax_t bytes = 0;
};

// Everything `engram status` reports.
struct StatusReport {
  fs::path store;
  fs::path history; // the git folder of the store's history
  Date today{1970, 1, 1};
  std::vector<LayerCount> layers;
  std::vector<engine::GuardReading> guards;
  std::vector<std::string> expired;        // store-relative paths of expired episodic files
  std::vector<engine::Hold> holds;         // undos whose files the rules leave alone
  const store::Profile* profile = nullptr; // configured, else detected
  bool profile_configured = false;
  std::string profile_evidence;             // what detection saw; empty when configured
  std::vector<store::LoaderReading> loader; // the profile's loader limits, measured
  std::int64_t retention_days = 0;
  std::size_t errors = 0;
  std::size_t warnings = 0;
  std::string remote;                      // git.remote; empty when the store is not shared
  std::optional<engine::SyncState> synced; // the last sync round, when there was one
};

// The store's profile: as its `[[store]]` section says, else as init found it, else detected.
void read_profile(const SelectedStore& selected, StatusReport& report) {
  const auto resolved = store::resolve_profile(
      selected.root, selected.settings.get_string("layout.profile"), selected.layout.state);
  report.profile = resolved.profile;
  report.profile_configured = resolved.configured;
  report.profile_evidence = resolved.evidence;
  report.loader = store::read_loader_limits(selected.root, *report.profile);
}

// Reads the store and gathers the report.
StatusReport gather(const SelectedStore& selected, const Date& today) {
  const store::Snapshot snapshot = store::scan(selected.root, selected.layout, selected.limits);
  const config::Settings& settings = selected.settings;

  StatusReport report;
  report.store = selected.root;
  report.history = git::Repository::gitdir_of(selected.root);
  report.today = today;
  for (store::Layer layer : store::k_all_layers) {
    LayerCount count{layer};
    for (const store::Entry* entry : snapshot.in(layer)) {
      ++count.files;
      count.bytes += entry->bytes;
    }
    report.layers.push_back(count);
  }
  for (const auto& path : engine::guarded_paths(selected.layout)) {
    const store::Entry* entry = snapshot.find(path);
    for (auto& reading :
         engine::read_guards(path, entry ? std::optional(entry->file->render()) : std::nullopt,
                             selected.layout, settings)) {
      report.guards.push_back(std::move(reading));
    }
  }
  report.retention_days = settings.get_int("decay.retention_days");
  for (const store::Entry* entry : snapshot.in(store::Layer::episodic)) {
    if (store::is_expired(*entry, today, static_cast<int>(report.retention_days))) {
      report.expired.push_back(entry->relative.generic_string());
    }
  }
  report.holds = engine::holds_at(selected.root);
  report.errors = snapshot.error_count();
  report.warnings = snapshot.diagnostics.size() - report.errors;
  report.remote = settings.get_string("git.remote");
  report.synced = engine::read_sync_state(report.history);
  return report;
}

// The report as one JSON object; its keys and their order are part of the interface.
nlohmann::ordered_json to_json(const StatusReport& report) {
  nlohmann::ordered_json json;
  json["store"] = report.store.string();
  json["history"] = report.history.string();
  json["today"] = report.today.to_string();
  auto loader = nlohmann::ordered_json::array();
  for (const auto& reading : report.loader) {
    loader.push_back({{"path", reading.limit.path},
                      {"present", reading.present},
                      {"lines", reading.lines},
                      {"bytes", reading.bytes},
                      {"chars", reading.chars},
                      {"max_lines", reading.limit.max_lines},
                      {"max_bytes", reading.limit.max_bytes},
                      {"max_chars", reading.limit.max_chars},
                      {"over", reading.over()}});
  }
  json["profile"] = {{"name", report.profile->name},
                     {"agent", report.profile->agent},
                     {"configured", report.profile_configured},
                     {"evidence", report.profile_evidence},
                     {"loader_limits", loader}};
  std::size_t files = 0;
  std::uintmax_t bytes = 0;
  auto& layers = json["layers"] = nlohmann::ordered_json::object();
  for (const LayerCount& count : report.layers) {
    layers[std::string(store::layer_name(count.layer))] = {{"files", count.files},
                                                           {"bytes", count.bytes}};
    files += count.files;
    bytes += count.bytes;
  }
  json["total"] = {{"files", files}, {"bytes", bytes}};
  auto& guards = json["guards"] = nlohmann::ordered_json::object();
  for (const engine::GuardReading& guard : report.guards) {
    guards[guard.name] = {{"path", guard.path}, {"present", guard.present}, {"size", guard.size},
                          {"unit", guard.unit}, {"limit", guard.limit},     {"over", guard.over()}};
  }
  json["expired"] = {{"count", report.expired.size()},
                     {"retention_days", report.retention_days},
                     {"files", report.expired}};
  auto& holds = json["holds"] = nlohmann::ordered_json::array();
  for (const engine::Hold& hold : report.holds) {
    holds.push_back({{"undo", hold.undo}, {"summary", hold.summary}, {"paths", hold.paths}});
  }
  json["diagnostics"] = {{"count", report.errors + report.warnings},
                         {"errors", report.errors},
                         {"warnings", report.warnings}};
  json["sync"] = nullptr;
  if (!report.remote.empty()) {
    const auto& last = report.synced;
    json["sync"] = {{"remote", report.remote},
                    {"last", last ? nlohmann::ordered_json(last->time) : nullptr},
                    {"ahead", last ? last->ahead : 0},
                    {"behind", last ? last->behind : 0},
                    {"problem", last ? last->problem : ""}};
  }
  return json;
}

// The holds as lines for people; nothing when there are none.
std::string holds_text(const std::vector<engine::Hold>& holds) {
  if (holds.empty()) {
    return {};
  }
  std::string out = fmt::format("\nheld by undos (the rules leave these files until one of them "
                                "changes): {}\n",
                                holds.size());
  for (const engine::Hold& hold : holds) {
    out += fmt::format("  {} {}\n", hold.undo.substr(0, 12), hold.summary);
    for (const auto& path : hold.paths) {
      out += fmt::format("    {}\n", path);
    }
  }
  return out;
}

// The sync line for people: the remote, how far apart, when, and what went wrong.
std::string sync_text(const StatusReport& report) {
  if (report.remote.empty()) {
    return {};
  }
  if (!report.synced) {
    return fmt::format("sync: {}: never synced (`engram sync` does a round)\n", report.remote);
  }
  const auto& last = *report.synced;
  std::tm local{};
  const std::time_t when = last.time;
  localtime_r(&when, &local);
  return fmt::format("sync: {}: {} ahead, {} behind, last round {:%Y-%m-%d %H:%M}{}\n",
                     report.remote, last.ahead, last.behind, local,
                     last.problem.empty() ? "" : ": " + last.problem);
}

// The report as a table for people.
std::string to_text(const StatusReport& report) {
  std::string out = fmt::format(
      "store    {}\nhistory  {}\nprofile  {} ({}{})\ntoday    {}\n\n", report.store.string(),
      report.history.string(), report.profile->name, report.profile->agent,
      report.profile_configured ? ", configured" : "; " + report.profile_evidence,
      report.today.to_string());
  out += fmt::format("{:<12} {:>7} {:>10}\n", "layer", "files", "bytes");
  std::size_t files = 0;
  std::uintmax_t bytes = 0;
  for (const LayerCount& count : report.layers) {
    out += fmt::format("{:<12} {:>7} {:>10}\n", store::layer_name(count.layer), count.files,
                       count.bytes);
    files += count.files;
    bytes += count.bytes;
  }
  out += fmt::format("{:<12} {:>7} {:>10}\n\n", "total", files, bytes);

  out += fmt::format("{:<16} {:>12} {:>8}\n", "guard", "size", "limit");
  for (const engine::GuardReading& guard : report.guards) {
    const std::string size =
        guard.present ? fmt::format("{} {}", guard.size, guard.unit) : std::string("missing");
    out += fmt::format("{:<16} {:>12} {:>8}  {}\n", guard.path, size, guard.limit,
                       guard.over() ? "OVER" : "ok");
  }

  for (const auto& reading : report.loader) {
    if (reading.present) {
      out += fmt::format("{:<16} {:>12} {:>8}  {}{}\n", reading.limit.path,
                         reading.limit.max_chars != 0 ? fmt::format("{} chars", reading.chars)
                                                      : fmt::format("{} lines", reading.lines),
                         reading.limit.max_chars != 0 ? reading.limit.max_chars
                                                      : reading.limit.max_lines,
                         reading.over() ? "OVER: " : "ok (the agent's loader)",
                         reading.over() ? std::string(reading.limit.what) : "");
    }
  }

  out += fmt::format("\nexpired episodic files waiting to decay: {}\n", report.expired.size());
  const auto held = engine::held_paths(report.holds);
  for (const std::string& path : report.expired) {
    const bool is_held = std::binary_search(held.begin(), held.end(), path);
    out += fmt::format("  {}{}\n", path, is_held ? "  (held by an undo)" : "");
  }
  out += holds_text(report.holds);
  out += fmt::format("diagnostics: {} ({} errors, {} warnings){}\n",
                     report.errors + report.warnings, report.errors, report.warnings,
                     report.errors + report.warnings > 0 ? "; `engram check` lists them" : "");
  out += sync_text(report);
  return out;
}

// The daemon's view of the store when a daemon keeps it: its pid and
// version, and the store's state there (nullopt when none keeps it).
std::optional<nlohmann::json> daemon_view(const fs::path& root) {
  try {
    const auto reply =
        daemon::ask(daemon::socket_path(root), {{"request", "status"}}, std::chrono::seconds(5));
    if (!reply || !reply->value("ok", false)) {
      return std::nullopt;
    }
    nlohmann::json view = reply->value("store", nlohmann::json::object());
    view["pid"] = reply->value("pid", 0);
    view["version"] = reply->value("version", "");
    return view;
  } catch (const Error& error) {
    fmt::print(stderr, "engram: status: cannot ask the daemon: {}\n", error.what());
    return std::nullopt;
  }
}

// A duration in milliseconds as people read it.
std::string human_ms(std::int64_t ms) {
  if (ms < 10'000) {
    return fmt::format("{:.1f} s", static_cast<double>(ms) / 1000.0);
  }
  if (ms < 2 * 3'600'000) {
    return fmt::format("{} min {} s", ms / 60'000, (ms / 1000) % 60);
  }
  return fmt::format("{} h {} min", ms / 3'600'000, (ms / 60'000) % 60);
}

// The daemon's view as lines for people.
std::string daemon_text(const std::optional<nlohmann::json>& view) {
  if (!view) {
    return "\ndaemon: none keeps this store (`engram daemon` starts one)\n";
  }
  const auto& d = *view;
  std::string out = fmt::format("\ndaemon  pid {}, {} watcher, {}\n", d.value("pid", 0),
                                d.value("watcher", ""), d.value("state", ""));
  const auto settings = d.value("settings", nlohmann::json::object());
  out += fmt::format("  pending changes  {} (settle {} ms, max wait {} ms)\n",
                     d.value("pending_changes", 0), settings.value("settle_ms", 0),
                     settings.value("max_wait_ms", 0));
  if (const auto last = d.value("last", nlohmann::json(nullptr)); last.is_object()) {
    const auto commit = last.value("commit", nlohmann::json(nullptr));
    out += fmt::format("  last             {} {} ({}){}: {}\n", last.value("at", ""),
                       last.value("kind", ""), last.value("reason", ""),
                       commit.is_string() ? " " + commit.get<std::string>().substr(0, 12) : "",
                       last.value("summary", ""));
  } else {
    out += "  last             none since it started\n";
  }
  for (const auto& next : d.value("next", nlohmann::json::array())) {
    out += fmt::format("  next             {} in {}\n", next.value("trigger", ""),
                       human_ms(next.value("in_ms", std::int64_t{0})));
  }
  return out;
}

// Runs `engram status`.
int run_status(const Globals& globals, const StatusOptions& options) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  const auto today_or_not = today_from(options.now, "status");
  if (!today_or_not) {
    return k_exit_usage;
  }
  const Date today = *today_or_not;
  const SelectedStore selected = select_store(*config, options.store);
  if (!fs::is_directory(selected.root)) {
    fmt::print(stderr, "engram: no store at {}; create one with `engram init`\n",
               selected.root.string());
    return k_exit_problems;
  }
  StatusReport report = gather(selected, today);
  read_profile(selected, report);
  const auto daemon = daemon_view(selected.root);
  if (options.json) {
    auto json = to_json(report);
    json["daemon"] = daemon ? nlohmann::ordered_json(*daemon) : nlohmann::ordered_json(nullptr);
    print_json(json);
  } else {
    fmt::print("{}{}", to_text(report), daemon_text(daemon));
  }
  return k_exit_ok;
}

} // namespace

void add_status_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<StatusOptions>();
  CLI::App* command = app.add_subcommand(
      "status", "Show files and bytes per layer, the guarded files against their guards, the "
                "episodic files waiting to decay, and the number of problems");
  add_store_option(*command, options->store);
  command->add_flag("--json", options->json, "Print one JSON object instead of a table");
  command->add_option("--now", options->now, "Take this date as today, to preview decay")
      ->type_name("YYYY-MM-DD");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_status(globals, *options); }});
}

} // namespace engram::cli
