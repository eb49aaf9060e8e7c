// `engram discover`: the agent memory folders on this machine (store/
// discovery.hpp), each with its profile, whether it is an engram store,
// whether the configuration names it and whether a daemon keeps it now;
// `--add` writes the ones the configuration lacks as `[[store]]` entries.
#include "base/error.hpp"
#include "cli/app.hpp"
#include "cli/json_output.hpp"
#include "cli/progress_line.hpp"
#include "config/config.hpp"
#include "daemon/control_socket.hpp"
#include "git/repository.hpp"
#include "store/discovery.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

namespace engram::cli {

namespace {

namespace fs = std::filesystem;

// What `engram discover` was asked to do.
struct DiscoverOptions {
  bool add = false;   // --add
  bool json = false;  // --json
  bool quiet = false; // --quiet: no progress line
};

// One folder as discover reports it.
struct Seen {
  store::Found found;
  bool store = false;      // it has an engram history
  bool configured = false; // a [[store]] names it
  int daemon_pid = 0;      // the daemon keeping it, 0 for none
};

// The pid of the daemon that answers on the folder's control socket, or 0.
int daemon_of(const fs::path& root) {
  std::error_code error;
  if (!fs::exists(daemon::socket_path(root), error)) {
    return 0;
  }
  try {
    const auto reply =
        daemon::ask(daemon::socket_path(root), {{"request", "status"}}, std::chrono::seconds(2));
    return reply && reply->value("ok", false) ? reply->value("pid", 0) : 0;
  } catch (const Error&) {
    return 0; // a socket left by a daemon that is gone
  }
}

// A TOML basic string.
std::string toml_quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    out += c == '"' || c == '\\' ? std::string("\\") + c : std::string(1, c);
  }
  return out + "\"";
}

// Appends a [[store]] for each of `seen` the configuration lacks to `file`.
std::vector<fs::path> add_stores(const fs::path& file, const std::vector<Seen>& seen) {
  std::string text;
  std::vector<fs::path> added;
  for (const auto& folder : seen) {
    // A folder engram changes nothing in is no store to keep.
    if (!folder.configured && folder.found.detection.profile->hands_off.empty()) {
      text += fmt::format("\n[[store]]\npath = {}\nprofile = {}\n",
                          toml_quoted(folder.found.path.string()),
                          toml_quoted(std::string(folder.found.detection.profile->name)));
      added.push_back(folder.found.path);
    }
  }
  if (added.empty()) {
    return added;
  }
  fs::create_directories(file.parent_path());
  std::ofstream out(file, std::ios::app | std::ios::binary);
  out << "# Added by `engram discover --add`." << text;
  if (!out.flush()) {
    throw Error("cannot write {}", file.string());
  }
  return added;
}

void print_text(const std::vector<Seen>& seen) {
  if (seen.empty()) {
    fmt::print("no agent memory folder found (looked in ~/.claude/projects/*/memory, "
               "~/.openclaw/workspace*, ~/.letta/agents/*/memory and basic-memory's projects)\n");
    return;
  }
  for (const auto& folder : seen) {
    const auto& hands_off = folder.found.detection.profile->hands_off;
    if (!hands_off.empty()) {
      fmt::print("{}\n  {}; profile {} ({})\n  engram changes nothing in it, because {}\n",
                 folder.found.path.string(), folder.found.where,
                 folder.found.detection.profile->name, folder.found.detection.evidence, hands_off);
      continue;
    }
    fmt::print(
        "{}\n  {}; profile {} ({})\n  {}, {}, {}\n", folder.found.path.string(), folder.found.where,
        folder.found.detection.profile->name, folder.found.detection.evidence,
        folder.store ? "an engram store" : "not an engram store yet",
        folder.configured ? "in the configuration" : "not in the configuration",
        folder.daemon_pid != 0 ? fmt::format("kept by the daemon (pid {})", folder.daemon_pid)
                               : std::string("no daemon keeps it"));
  }
}

nlohmann::json to_json(const std::vector<Seen>& seen) {
  auto out = nlohmann::json::array();
  for (const auto& folder : seen) {
    const auto& hands_off = folder.found.detection.profile->hands_off;
    out.push_back({{"path", folder.found.path.string()},
                   {"where", folder.found.where},
                   {"profile", folder.found.detection.profile->name},
                   {"evidence", folder.found.detection.evidence},
                   {"hands_off", hands_off.empty() ? nlohmann::json(nullptr)
                                                   : nlohmann::json(std::string(hands_off))},
                   {"store", folder.store},
                   {"configured", folder.configured},
                   {"daemon_pid", folder.daemon_pid == 0 ? nlohmann::json(nullptr)
                                                         : nlohmann::json(folder.daemon_pid)}});
  }
  return out;
}

// What engram knows of each found folder: its history, its [[store]], its
// daemon. Asking a daemon can take a while, so `progress` hears of each folder.
std::vector<Seen> look_at(std::vector<store::Found> found_folders, const config::Config& config,
                          ProgressLine* progress) {
  std::vector<Seen> seen;
  for (auto& found : found_folders) {
    if (progress != nullptr) {
      progress->update(found.path.string(), seen.size(), found_folders.size(), "folders");
    }
    Seen folder{std::move(found)};
    // Letta's own repository is no engram history.
    folder.store = folder.found.detection.profile->hands_off.empty() &&
                   git::Repository::exists_at(folder.found.path);
    folder.configured = config.store_for(folder.found.path) != nullptr;
    folder.daemon_pid = daemon_of(folder.found.path);
    seen.push_back(std::move(folder));
  }
  if (progress != nullptr) {
    progress->finish();
  }
  return seen;
}

int run_discover(const Globals& globals, const DiscoverOptions& options) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  const char* home = std::getenv("HOME");
  const auto environment = [](const char* name) {
    const char* value = std::getenv(name);
    return std::string(value == nullptr ? "" : value);
  };
  const auto progress = progress_on_stderr("discover", options.quiet);
  const auto seen =
      look_at(store::discover(home == nullptr ? fs::path("/") : fs::path(home), environment),
              *config, progress.get());
  if (options.json) {
    print_json(to_json(seen));
  } else {
    print_text(seen);
  }
  if (!options.add) {
    return k_exit_ok;
  }
  const fs::path file = globals.config_file.value_or(config::default_config_path());
  try {
    const auto added = add_stores(file, seen);
    for (const auto& path : added) {
      fmt::print(options.json ? stderr : stdout, "added [[store]] {} to {}\n", path.string(),
                 file.string());
    }
    if (!added.empty()) {
      fmt::print(options.json ? stderr : stdout,
                 "run `engram init PATH` for each that is not a store yet, then `engram reload` "
                 "(or start the daemon) to keep them\n");
    }
  } catch (const Error& error) {
    fmt::print(stderr, "engram: discover: {}\n", error.what());
    return k_exit_problems;
  }
  return k_exit_ok;
}

} // namespace

void add_discover_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<DiscoverOptions>();
  CLI::App* command = app.add_subcommand(
      "discover", "List the agent memory folders on this machine (Claude Code's per-project "
                  "memory, OpenClaw's workspaces, Letta's agents, basic-memory's projects) with "
                  "their profile and whether a daemon keeps them");
  command->add_flag("--add", options->add,
                    "Write each one the configuration lacks as a [[store]] entry");
  command->add_flag("--json", options->json, "Print the folders as a JSON array");
  command->add_flag("--quiet", options->quiet, "No progress line on a terminal");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_discover(globals, *options); }});
}

} // namespace engram::cli
