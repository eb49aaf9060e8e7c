// `engram pack`: has git move the loose objects each commit adds into one
// pack, where a folder's successive trees are stored as deltas, and remove the
// loose copies; small packs are merged as they accumulate. The daemon does it
// on its own once they pass `git.pack_loose_bytes`; this does it now.
#include "cli/app.hpp"
#include "cli/json_output.hpp"
#include "cli/progress_line.hpp"
#include "cli/store_selection.hpp"
#include "git/packing.hpp"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <string>

namespace engram::cli {

namespace {

// What `engram pack` was asked to do.
struct PackOptions {
  std::optional<std::filesystem::path> store; // --store
  bool json = false;                          // --json
  bool quiet = false;                         // --quiet
};

std::string mib(std::uint64_t bytes) {
  return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
}

// What was packed as one JSON object.
void print_packed_json(const SelectedStore& selected, const git::Packed& packed) {
  print_json({{"store", selected.root.string()},
              {"busy", packed.busy},
              {"objects", packed.objects},
              {"loose_bytes", packed.loose_bytes},
              {"pack", packed.pack.empty() ? nlohmann::json() : nlohmann::json(packed.pack)},
              {"pack_bytes", packed.pack_bytes},
              {"merged_packs", packed.merged_packs},
              {"left", packed.left}});
}

// Runs `engram pack`.
int run_pack(const Globals& globals, const PackOptions& options) {
  const Format format = format_of(options.json);
  const auto config = load_config(globals, format);
  if (!config) {
    return k_exit_usage;
  }
  const SelectedStore selected = select_store(*config, options.store);
  // git's phases, each counted in objects, on one line on a terminal.
  const auto line = progress_on_stderr("pack", options.quiet);
  git::GitProgress progress;
  if (line) {
    progress = [&line](std::string_view step, std::size_t done, std::size_t total) {
      line->update(step, done, total, "objects");
    };
  }
  const auto packed = git::pack_loose_objects(selected.root, progress);
  if (line) {
    line->finish();
  }
  if (!packed) {
    fmt::print(stderr, "engram: pack: {}: {}\n", selected.root.string(), packed.error());
    return report_failure(format, k_exit_problems, packed.error());
  }
  if (format == Format::json) {
    print_packed_json(selected, *packed);
    return packed->left != 0 ? k_exit_problems : k_exit_ok;
  }
  if (packed->busy) {
    fmt::print(stderr, "engram: pack: another engram is packing {}; nothing done\n",
               selected.root.string());
    return k_exit_ok;
  }
  if (packed->objects == 0 && packed->merged_packs == 0) {
    fmt::print(stderr, "engram: nothing to pack\n");
  } else {
    const std::string merged = packed->merged_packs == 0
                                   ? std::string()
                                   : fmt::format(", merging {} packs", packed->merged_packs);
    fmt::print(stderr, "engram: packed {} loose object{} ({}) into {} ({}){}\n", packed->objects,
               packed->objects == 1 ? "" : "s", mib(packed->loose_bytes), packed->pack,
               mib(packed->pack_bytes), merged);
  }
  if (packed->left != 0) {
    fmt::print(stderr,
               "engram: pack: {} loose object{} could not be read and stay as they are; "
               "`git fsck` names them\n",
               packed->left, packed->left == 1 ? "" : "s");
    return k_exit_problems;
  }
  return k_exit_ok;
}

} // namespace

void add_pack_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<PackOptions>();
  CLI::App* command = app.add_subcommand(
      "pack", "Have git move the store's loose objects into one pack (git repack "
              "--geometric=2) and remove the loose copies (the daemon does it once they pass "
              "git.pack_loose_bytes).");
  add_store_option(*command, options->store);
  command->add_flag("--json", options->json, "Print what was packed as one JSON object");
  command->add_flag("--quiet", options->quiet, "No progress line on a terminal");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_pack(globals, *options); }});
}

} // namespace engram::cli
