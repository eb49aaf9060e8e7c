// `engram show REV`: one commit's record — a consolidation's actions, a
// snapshot's files, a rollback's target — rendered from its commit message
// and its note (refs/notes/engram), with the files it changed. Read-only; REV is anything git names
// a commit by.
#include "cli/app.hpp"
#include "cli/history_output.hpp"
#include "cli/json_output.hpp"
#include "cli/store_selection.hpp"
#include "git/history.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <string_view>

namespace engram::cli {

namespace {

// What `engram show` was asked to do.
struct ShowOptions {
  std::optional<std::filesystem::path> store; // --store
  std::string rev = "HEAD";                   // REV
  bool json = false;                          // --json
};

// The lines of `text` that are actions of a record (`- …`), in order: the
// note's, or for a commit with none (an older engram's), the message's.
std::vector<std::string> action_lines(const std::string& text, bool note) {
  std::vector<std::string> lines;
  std::size_t begin = 0;
  bool first = !note; // a message's summary is no action
  while (begin < text.size()) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) {
      end = text.size();
    }
    const std::string_view line(text.data() + begin, end - begin);
    if (!first && line.starts_with("- ")) {
      lines.emplace_back(line.substr(2));
    }
    first = false;
    begin = end + 1;
  }
  return lines;
}

// The commit as JSON.
nlohmann::json detail_json(const git::CommitDetail& detail) {
  auto out = log_entry_json(detail.entry);
  out["parents"] = detail.parents;
  out["message"] = detail.message;
  out["note"] = detail.note;
  out["actions"] =
      detail.note.empty() ? action_lines(detail.message, false) : action_lines(detail.note, true);
  out["trailers"] = nlohmann::json::object();
  for (const auto& [key, value] : detail.trailers) {
    out["trailers"][key] = value;
  }
  out["files"] = nlohmann::json::array();
  for (const auto& file : detail.files) {
    out["files"].push_back({{"path", file.path}, {"change", git::change_kind_name(file.kind)}});
  }
  return out;
}

// Prints the commit for people: header, message, files.
void print_detail(const git::CommitDetail& detail) {
  const auto& entry = detail.entry;
  fmt::print("commit {}\n", entry.id);
  fmt::print("Author:    {} <{}>\n", entry.author.name, entry.author.email);
  if (entry.committer.name != entry.author.name || entry.committer.email != entry.author.email) {
    fmt::print("Committer: {} <{}>\n", entry.committer.name, entry.committer.email);
  }
  fmt::print("Date:      {}\n\n", commit_time(entry.time, entry.offset_minutes));
  fmt::print("{}", detail.message);
  if (!detail.message.ends_with('\n')) {
    fmt::print("\n");
  }
  if (!detail.note.empty()) { // as `git log --notes=engram` shows it, indented under a heading
    fmt::print("\nNotes (engram):\n");
    std::size_t begin = 0;
    while (begin < detail.note.size()) {
      const std::size_t end = std::min(detail.note.find('\n', begin), detail.note.size());
      fmt::print("    {}\n", std::string_view(detail.note).substr(begin, end - begin));
      begin = end + 1;
    }
  }
  fmt::print("\nFiles ({}, +{} -{}):\n", detail.files.size(), entry.insertions, entry.deletions);
  for (const auto& file : detail.files) {
    fmt::print("  {:<9} {}\n", git::change_kind_name(file.kind), file.path);
  }
}

// Runs `engram show`.
int run_show(const Globals& globals, const ShowOptions& options) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  const SelectedStore selected = select_store(*config, options.store);
  auto repository = git::Repository::open(selected.root);
  if (!repository) {
    fmt::print(stderr, "engram: show: {}: not an engram store ({})\n", selected.root.string(),
               repository.error());
    return k_exit_problems;
  }
  const auto id = git::resolve(*repository, options.rev);
  if (!id) {
    fmt::print(stderr, "engram: show: {}\n", id.error());
    return k_exit_problems;
  }
  const auto detail = git::show(*repository, *id);
  if (options.json) {
    print_json(detail_json(detail));
  } else {
    print_detail(detail);
  }
  return k_exit_ok;
}

} // namespace

void add_show_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<ShowOptions>();
  CLI::App* command = app.add_subcommand(
      "show", "Show one commit's record (its message: summary, files, trailers; its note: every "
              "action) and the files it changed.");
  command->add_option("REV", options->rev, "The commit: an id or prefix, HEAD, HEAD~2, a branch")
      ->capture_default_str();
  add_store_option(*command, options->store);
  command->add_flag("--json", options->json,
                    "Print the commit as JSON (message, note, actions, trailers, files)");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_show(globals, *options); }});
}

} // namespace engram::cli
