// `engram init`: creates a store (the layout, a git repository, a first
// commit), or finishes a folder that is half of one. A folder that already has
// files is adopted: what is there is committed first, as a snapshot of its own.
// It never overwrites a file, and leaves a store that already is one as it was.
#include "base/error.hpp"
#include "cli/app.hpp"
#include "cli/store_selection.hpp"
#include "engine/session.hpp"
#include "engine/snapshot.hpp"
#include "git/repository.hpp"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <memory>
#include <spdlog/spdlog.h>
#include <string>
#include <vector>

namespace engram::cli {

namespace {

namespace fs = std::filesystem;

// The first commit's message: a summary line and the run trailer.
constexpr const char* k_init_message = "init: create engram store\n\nEngram-Run: init\n";

// The layers that are folders; each is created with a `.gitkeep` so git keeps it.
constexpr store::Layer k_folder_layers[] = {store::Layer::episodic, store::Layer::semantic,
                                            store::Layer::procedural, store::Layer::reference,
                                            store::Layer::archive};

// What `engram init` was asked to do.
struct InitOptions {
  std::optional<fs::path> path;    // the PATH argument
  std::optional<fs::path> store;   // --store, the same thing by another name
  std::optional<fs::path> example; // --example DIR
};

// Creates a file with `content` unless something is already at `path`; the
// exclusive open makes "never overwrite" hold even against a racing writer.
bool write_new_file(const fs::path& path, std::string_view content) {
  std::FILE* file = std::fopen(path.c_str(), "wbx");
  if (file == nullptr) {
    return false;
  }
  errno = 0;
  const bool written = std::fwrite(content.data(), 1, content.size(), file) == content.size();
  const int write_error = errno;
  if (std::fclose(file) != 0 || !written) {
    const int error = written ? errno : write_error;
    std::filesystem::remove(path); // never left half written: the next init writes it whole
    throw Error("cannot write {}: {}", path.string(),
                std::strerror(error != 0 ? error : EIO));
  }
  return true;
}

// True when something (even a dangling symlink) is at `path`.
bool occupied(const fs::path& path) {
  std::error_code error;
  return fs::symlink_status(path, error).type() != fs::file_type::not_found;
}

// The working-memory template: frontmatter and the headings agents fill in.
std::string working_template(const Date& today, std::int64_t guard_chars) {
  return fmt::format(R"(---
type: working
created: {}
---
# Working memory

What the agent is doing now. engram keeps this file under {} characters: when it
grows past that, completed items (`- [x]`) and then the oldest ones move to episodic/.

## Current focus

## Active context

## Open items
)",
                     today.to_string(), guard_chars);
}

// The index stub; the index rule rewrites it from every layer.
constexpr const char* k_memory_stub = R"(# Memory index

One line per memory file, rebuilt by engram from every layer of this store.

No memories yet.
)";

// True when `root` already is a store: a repository with a commit, and every folder layer.
bool is_store(const fs::path& root, const store::Layout& layout) {
  if (!git::Repository::exists_at(root)) {
    return false;
  }
  for (store::Layer layer : k_folder_layers) {
    if (!fs::is_directory(root / layout.path_of(layer))) {
      return false;
    }
  }
  auto repository = git::Repository::open(root);
  return repository && repository->head().has_value();
}

// True when `root` is a folder holding anything besides a `.git`.
bool has_files(const fs::path& root) {
  std::error_code error;
  for (auto it = fs::directory_iterator(root, error); !error && it != fs::directory_iterator();
       it.increment(error)) {
    if (it->path().filename() != ".git") {
      return true;
    }
  }
  return false;
}

// Copies every file of `example` into `root` that is not there yet; returns how many.
int copy_example(const fs::path& example, const fs::path& root) {
  int copied = 0;
  for (auto it = fs::recursive_directory_iterator(example);
       it != fs::recursive_directory_iterator(); ++it) {
    const fs::path relative = fs::relative(it->path(), example);
    if (relative.filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    const fs::path target = root / relative;
    if (it->is_directory()) {
      fs::create_directories(target);
    } else if (!it->is_regular_file() || it->is_symlink()) {
      spdlog::warn("example: skipping {} (not a regular file)", relative.string());
    } else if (occupied(target)) {
      spdlog::info("example: keeping the existing {}", relative.string());
    } else {
      fs::copy_file(it->path(), target);
      ++copied;
    }
  }
  return copied;
}

// Makes sure `.gitignore` ignores the state folder, appending to a file the user has.
void ensure_gitignore(const fs::path& root, const store::Layout& layout) {
  const fs::path path = root / ".gitignore";
  const std::string line = layout.state + "/";
  const std::string content =
      fmt::format("# engram's own state (usage log, locks): never committed\n{}\n", line);
  if (write_new_file(path, content)) {
    return;
  }
  std::string existing;
  if (std::FILE* file = std::fopen(path.c_str(), "rb")) {
    char buffer[4096];
    std::size_t count = 0;
    while ((count = std::fread(buffer, 1, sizeof buffer, file)) > 0) {
      existing.append(buffer, count);
    }
    std::fclose(file);
  }
  for (const std::string& form : {line, layout.state, "/" + line, "/" + layout.state}) {
    if (existing == form || existing.starts_with(form + "\n") ||
        existing.find("\n" + form + "\n") != std::string::npos || existing.ends_with("\n" + form)) {
      return;
    }
  }
  std::FILE* file = std::fopen(path.c_str(), "ab");
  if (file == nullptr) {
    throw Error("cannot append to {}", path.string());
  }
  const std::string addition =
      (existing.empty() || existing.ends_with('\n') ? "" : "\n") + line + "\n";
  const bool written = std::fwrite(addition.data(), 1, addition.size(), file) == addition.size();
  if (std::fclose(file) != 0 || !written) {
    throw Error("cannot append to {}", path.string());
  }
  spdlog::info("added {} to .gitignore", line);
}

// Creates whatever of the layout is missing under `root`.
void create_layout(const SelectedStore& store) {
  const fs::path& root = store.root;
  const store::Layout& layout = store.layout;
  for (store::Layer layer : k_folder_layers) {
    const fs::path folder = root / layout.path_of(layer);
    fs::create_directories(folder);
    if (fs::is_empty(folder)) {
      write_new_file(folder / ".gitkeep", "");
    }
  }
  if (write_new_file(
          root / layout.working,
          working_template(local_today(), store.settings.get_int("guard.working_chars")))) {
    spdlog::info("created {}", layout.working);
  }
  if (write_new_file(root / layout.memory_index, k_memory_stub)) {
    spdlog::info("created {}", layout.memory_index);
  }
  ensure_gitignore(root, layout);
  fs::create_directories(root / layout.state);
}

// Runs `engram init`.
int run_init(const Globals& globals, const InitOptions& options) {
  const auto config = load_config(globals);
  if (!config) {
    return k_exit_usage;
  }
  if (options.path && options.store && *options.path != *options.store) {
    fmt::print(stderr, "engram: init: give the store either as PATH or as --store, not both\n");
    return k_exit_usage;
  }
  const SelectedStore store = select_store(*config, options.path ? options.path : options.store);
  const fs::path& root = store.root;

  if (occupied(root) && !fs::is_directory(root)) {
    fmt::print(stderr, "engram: {} exists and is not a folder\n", root.string());
    return k_exit_problems;
  }
  if (is_store(root, store.layout)) {
    fmt::print("{} is already an engram store; nothing changed\n", root.string());
    return k_exit_ok;
  }

  // What was there before engram touched anything: an existing folder's files
  // are adopted in a snapshot commit of their own, before the layout is added.
  const bool had_files = has_files(root);
  const bool had_repository = git::Repository::exists_at(root);
  fs::create_directories(root);
  if (auto created = git::Repository::init(root); !created) {
    fmt::print(stderr, "engram: {}\n", created.error());
    return k_exit_problems;
  }
  if (const auto outer = git::Repository::enclosing(root); outer && !had_repository) {
    fmt::print("note: {} is inside the git repository {}; the store gets a repository of its own, "
               "which {} sees as an untracked folder: add it to {}/.gitignore, or add it as a "
               "submodule\n",
               root.string(), outer->string(), outer->string(), outer->string());
  }
  try {
    engine::Session session = engine::Session::open(root, store.settings);
    if (had_files) {
      const auto reason =
          had_repository ? engine::SnapshotReason::agent : engine::SnapshotReason::adopted;
      // What it holds back, the commit below holds back again and reports.
      std::vector<engine::HeldBack> reported_below;
      if (const auto snapshot = engine::snapshot(session, reason, &reported_below)) {
        fmt::print("commit {} snapshot: {} existing file{}\n", snapshot->commit.substr(0, 12),
                   snapshot->files.size(), snapshot->files.size() == 1 ? "" : "s");
      }
    }
    if (options.example) {
      const int copied = copy_example(*options.example, root);
      spdlog::info("copied {} example files from {}", copied, options.example->string());
    }
    create_layout(store);
    const auto signature = engine::engram_signature(session.repository(), store.settings);
    // Everything not committed yet: the layout, the example's files, and any
    // file the snapshot held back, which stays held back here too.
    std::vector<engine::HeldBack> held;
    const auto commit =
        session.commit("cannot commit the new store", [&](git::Repository& repository) {
          held.clear();
          return repository.commit_all(
              k_init_message, signature, signature,
              engine::keep_out_secrets(held, engine::held_back_limit(store.settings)));
        });
    engine::report_held_back(root, held);
    if (held.empty() && !session.repository().is_clean()) {
      spdlog::warn("{} has changes git could not stage", root.string());
    }
    fmt::print("created engram store at {}\n", root.string());
    if (commit) {
      fmt::print("commit {} init: create engram store\n", commit->substr(0, 12));
    }
  } catch (const Error& error) {
    fmt::print(stderr, "engram: {}\n", error.what());
    return k_exit_problems;
  }
  return k_exit_ok;
}

} // namespace

void add_init_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<InitOptions>();
  CLI::App* command = app.add_subcommand(
      "init", "Create a store: its folders, WORKING.md, MEMORY.md, a git repository and a first "
              "commit. Existing files are never overwritten; an existing store is left as it is.");
  command->add_option("PATH", options->path, "The store folder (default: as for --store)");
  add_store_option(*command, options->store);
  command
      ->add_option("--example", options->example,
                   "A folder of memory files to copy in first (existing files win)")
      ->type_name("DIR")
      ->check(CLI::Validator(CLI::ExistingDirectory).description(""));
  commands.push_back(
      {command, [options](const Globals& globals) { return run_init(globals, *options); }});
}

} // namespace engram::cli
