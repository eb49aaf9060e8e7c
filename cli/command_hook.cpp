// `engram hook EVENT`: what an agent's hooks run (Claude Code's settings.json
// wires them; see the README). `session-start` prints the context to inject —
// core memory, working memory, recalled memories, within hook.budget_chars —
// as the JSON Claude Code expects; `user-prompt-submit` the memories recalled
// for the prompt; `session-end` asks the daemon for a consolidation and
// returns at once. A hook never fails the agent: every problem is a note on
// stderr, and the exit status is 0.
#include "base/error.hpp"
#include "cli/app.hpp"
#include "cli/store_selection.hpp"
#include "daemon/control_socket.hpp"
#include "hook/context.hpp"
#include "hook/payload.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <unistd.h>

namespace engram::cli {

namespace {

// How long session-end waits for the daemon to take its request.
constexpr std::chrono::milliseconds k_daemon_timeout{2000};

// What `engram hook` was asked to do.
struct HookOptions {
  std::optional<std::filesystem::path> store; // --store
  std::optional<std::string> now;             // --now YYYY-MM-DD
};

// The hook's payload from stdin: at most hook::k_payload_bytes.
std::string read_stdin() {
  std::string text;
  char buffer[65536];
  while (text.size() <= hook::k_payload_bytes) {
    const auto n = ::read(STDIN_FILENO, buffer, sizeof buffer);
    if (n <= 0) {
      break;
    }
    text.append(buffer, static_cast<std::size_t>(n));
  }
  if (text.size() > hook::k_payload_bytes) {
    fmt::print(stderr,
               "engram: hook: <stdin>:1: the payload is larger than {} bytes; read as "
               "empty\n",
               hook::k_payload_bytes);
    return {};
  }
  return text;
}

// The payload, its problems noted on stderr.
hook::Payload payload_from_stdin() {
  std::vector<store::Diagnostic> diagnostics;
  auto payload = hook::parse_payload(read_stdin(), "<stdin>", diagnostics);
  for (const auto& diagnostic : diagnostics) {
    fmt::print(stderr, "engram: hook: {}\n", diagnostic.to_string());
  }
  return payload;
}

// Prints `context` as Claude Code's hook output for `event`.
int print_context(std::string_view event, const hook::Context& context) {
  for (const auto& problem : context.problems) {
    fmt::print(stderr, "engram: hook: skipped {}\n", problem);
  }
  fmt::print("{}", hook::hook_output(event, context.text));
  std::fflush(stdout);
  return k_exit_ok;
}

// session-start and user-prompt-submit: a context, always as valid JSON.
int run_context_hook(const Globals& globals, const HookOptions& options, bool session_start) {
  const std::string_view event = session_start ? "SessionStart" : "UserPromptSubmit";
  const auto payload = payload_from_stdin();
  const auto config = load_config(globals);
  const auto today = today_from(options.now, "hook");
  if (!config || !today) {
    return print_context(event, {});
  }
  const SelectedStore selected = select_store(*config, options.store);
  if (refuses_hands_off(selected, "hook")) {
    return print_context(event, {}); // the agent's own loader has its memory
  }
  hook::ContextRequest request;
  request.query = payload.prompt.value_or("");
  request.today = *today;
  request.session = payload.session_id;
  request.budget_chars = static_cast<std::size_t>(
      selected.settings.get_int(session_start ? "hook.budget_chars" : "hook.prompt_budget_chars"));
  request.recall_limits.limit = static_cast<std::size_t>(selected.settings.get_int("recall.limit"));
  request.recall_limits.budget_chars =
      static_cast<std::size_t>(selected.settings.get_int("recall.budget_chars"));
  request.recall_limits.max_file_bytes = selected.limits.max_file_bytes;
  try {
    return print_context(event, session_start
                                    ? hook::session_start(selected.root, selected.layout, request)
                                    : hook::prompt_submit(selected.root, selected.layout, request));
  } catch (const std::exception& error) {
    fmt::print(stderr, "engram: hook: {}: {}\n", selected.root.string(), error.what());
    return print_context(event, {});
  }
}

// session-end: a full consolidation requested from the daemon, not waited for.
int run_session_end(const Globals& globals, const HookOptions& options) {
  (void)payload_from_stdin(); // read, so the agent's write never blocks on a full pipe
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_ok;
  }
  const SelectedStore selected = select_store(*config, options.store);
  nlohmann::json request = {{"request", "consolidate"}, {"kind", "full"}, {"wait", false}};
  if (options.now) {
    request["now"] = *options.now;
  }
  try {
    const auto reply = daemon::ask(daemon::socket_path(selected.root), request, k_daemon_timeout);
    if (!reply) {
      fmt::print(stderr,
                 "engram: hook: no daemon keeps {}; nothing consolidated (`engram consolidate` "
                 "does it now, `engram daemon` from now on)\n",
                 selected.root.string());
    } else if (!reply->value("ok", false)) {
      fmt::print(stderr, "engram: hook: the daemon refused: {}\n",
                 reply->value("error", std::string("no reason given")));
    }
  } catch (const std::exception& error) {
    fmt::print(stderr, "engram: hook: {}\n", error.what());
  }
  return k_exit_ok;
}

// Adds one `engram hook` event subcommand.
void add_event(CLI::App& hook, std::vector<Command>& commands, const std::string& name,
               const std::string& help,
               std::function<int(const Globals&, const HookOptions&)> run) {
  auto options = std::make_shared<HookOptions>();
  CLI::App* command = hook.add_subcommand(name, help);
  add_store_option(*command, options->store);
  command->add_option("--now", options->now, "Act as on DATE (default: today)")
      ->type_name("YYYY-MM-DD");
  commands.push_back(
      {command, [options, run](const Globals& globals) { return run(globals, *options); }});
}

} // namespace

void add_hook_command(CLI::App& app, std::vector<Command>& commands) {
  CLI::App* hook = app.add_subcommand(
      "hook", "What an agent's hooks run: reads the hook's JSON on stdin, prints the hook's "
              "JSON on stdout, and always exits 0");
  hook->require_subcommand(1);
  add_event(*hook, commands, "session-start",
            "Print the context to inject at session start: CORE.md, WORKING.md and the memories "
            "recalled for the prompt (else for working memory), within hook.budget_chars",
            [](const Globals& globals, const HookOptions& options) {
              return run_context_hook(globals, options, true);
            });
  add_event(*hook, commands, "user-prompt-submit",
            "Print the memories recalled for the prompt, within hook.prompt_budget_chars",
            [](const Globals& globals, const HookOptions& options) {
              return run_context_hook(globals, options, false);
            });
  add_event(*hook, commands, "session-end",
            "Ask the daemon keeping the store for a full consolidation; returns at once",
            run_session_end);
}

} // namespace engram::cli
