// `engram append`: the guarded write agents use for working memory. A dated
// item goes under a `## Section` of WORKING.md — unless that would take the
// file past its guard, in which case it goes to today's episodic overflow file
// and a consolidation is requested. Either way the text is kept: nothing is lost.
#include "base/error.hpp"
#include "base/utf8.hpp"
#include "cli/app.hpp"
#include "cli/json_output.hpp"
#include "cli/store_selection.hpp"
#include "cli/working_append.hpp"
#include "engine/apply.hpp"
#include "engine/replaced_files.hpp"
#include "store/memory_file.hpp"
#include "store/scan.hpp"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <spdlog/spdlog.h>
#include <sstream>
#include <sys/file.h>
#include <unistd.h>

namespace engram::cli {

namespace {

namespace fs = std::filesystem;

// What `engram append` was asked to do.
struct AppendOptions {
  std::optional<fs::path> store;  // --store
  std::string section = "Now";    // --section
  std::optional<std::string> now; // --now YYYY-MM-DD
  std::vector<std::string> words; // TEXT (several arguments are joined by spaces)
  bool json = false;              // --json
};

// The name of the marker file that asks the daemon for a consolidation.
constexpr const char* k_request_marker = "consolidate-requested";

// Holds an exclusive lock on the store's append lock file, so two appends
// never read the same WORKING.md and both write it.
class AppendLock {
public:
  // Takes the lock, waiting for another append to finish; throws engram::Error.
  explicit AppendLock(const fs::path& state) {
    fs::create_directories(state);
    const fs::path file = state / "append.lock";
    m_fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (m_fd < 0 || ::flock(m_fd, LOCK_EX) != 0) {
      const std::string reason = std::strerror(errno);
      if (m_fd >= 0) {
        ::close(m_fd);
      }
      throw Error("cannot lock {}: {}", file.string(), reason);
    }
  }
  AppendLock(const AppendLock&) = delete;
  AppendLock& operator=(const AppendLock&) = delete;
  // Releases the lock.
  ~AppendLock() { ::close(m_fd); }

private:
  int m_fd = -1;
};

// A file's bytes, or nullopt when it does not exist; throws when it cannot be read.
std::optional<std::string> read_if_present(const fs::path& path) {
  std::error_code error;
  if (fs::symlink_status(path, error).type() == fs::file_type::not_found) {
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw Error("cannot read {}", path.string());
  }
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Where the text of one append went.
struct Placement {
  fs::path relative; // store-relative path of the file that holds it now
  bool overflow = false;
  std::string why; // for an overflow: why WORKING.md did not take it
};

// Replaces the memory file at `relative`, which held `existing`, with
// `bytes`, as write_atomically_over does with Unchanged::required; the
// replaced file keeps a second name, so what an agent holding it open
// writes after is carried over by the next run (engine/replaced_files.hpp).
bool replace_existing(const SelectedStore& selected, const fs::path& relative,
                      const std::string& bytes, const std::string& existing) {
  const auto hash = store::content_hash(existing);
  engine::ReplacedFiles kept(selected.root, selected.layout);
  kept.begin({engine::Replacing{relative.generic_string(), existing.size(), hash}});
  return engine::write_atomically_over(
      selected.root / relative, bytes, hash, engine::Unchanged::required,
      [&](const fs::path& temporary) { kept.replace(0, temporary); });
}

// Adds `item` to today's episodic overflow file, creating it when missing;
// false, with nothing written, when another writer changed the file meanwhile.
// The item carries a diverted marker naming its section: the next run makes
// room in WORKING.md and puts it there (rules/working-memory).
bool write_overflow(const SelectedStore& selected, const fs::path& relative, const Date& today,
                    const std::string& item_text, const std::string& section) {
  const fs::path path = selected.root / relative;
  const auto existing = read_if_present(path);
  if (!existing) {
    return engine::write_atomically_over(
        path,
        overflow_header(today, selected.settings.get_int("decay.retention_days")) +
            diverted_item(today, item_text, section, "\n"),
        std::nullopt, engine::Unchanged::required);
  }
  auto parsed = store::MemoryFile::parse(path.string(), *existing);
  if (!parsed) {
    throw Error("{}: WORKING.md is full and its overflow file cannot be read ({}); the text was "
                "not saved",
                path.string(), parsed.error().to_string());
  }
  auto file = std::move(parsed).value();
  file.set_body(
      append_at_end(file.body(), diverted_item(today, item_text, section, file.eol()), file.eol()));
  return replace_existing(selected, relative, file.render(), *existing);
}

// Asks for a consolidation: the daemon consumes the marker.
void request_consolidation(const SelectedStore& selected, const std::string& reason) {
  const fs::path marker = selected.root / selected.layout.state / k_request_marker;
  engine::write_atomically(marker, reason + "\n");
}

// Puts the text where it belongs and says where; nullopt, with nothing
// written, when another writer changed the file between the read and the write.
std::optional<Placement> place_once(const SelectedStore& selected, const AppendOptions& options,
                                    const Date& today, const std::string& item_text) {
  const fs::path working = selected.root / selected.layout.working;
  const fs::path overflow =
      fs::path(selected.layout.episodic) / (today.to_string() + "-working-memory.md");
  const auto guard = selected.settings.get_int("guard.working_chars");
  const auto bytes = read_if_present(working);

  std::string why;
  if (!bytes) {
    const std::string result = "---\ntype: working\ncreated: " + today.to_string() + "\n---\n" +
                               insert_under_section("# Working memory\n", options.section,
                                                    dated_item(today, item_text, "\n"), "\n");
    if (static_cast<std::int64_t>(count_chars(result)) <= guard) {
      if (!engine::write_atomically_over(working, result, std::nullopt,
                                         engine::Unchanged::required)) {
        return std::nullopt;
      }
      return Placement{selected.layout.working, false, {}};
    }
    why = fmt::format("the item alone is over WORKING.md's guard of {} chars", guard);
  } else if (auto parsed = store::MemoryFile::parse(working.string(), *bytes); !parsed) {
    // Bad input is never acted on: WORKING.md stays as it is, the text is kept elsewhere.
    why = fmt::format("WORKING.md cannot be read ({})", parsed.error().to_string());
  } else {
    auto file = std::move(parsed).value();
    file.set_body(insert_under_section(file.body(), options.section,
                                       dated_item(today, item_text, file.eol()), file.eol()));
    const std::string result = file.render();
    const auto size = static_cast<std::int64_t>(count_chars(result));
    if (size <= guard) {
      if (!replace_existing(selected, selected.layout.working, result, *bytes)) {
        return std::nullopt;
      }
      return Placement{selected.layout.working, false, {}};
    }
    why = fmt::format("WORKING.md would be {} chars, over its guard of {}", size, guard);
  }
  if (!write_overflow(selected, overflow, today, item_text, options.section)) {
    return std::nullopt;
  }
  return Placement{overflow, true, why};
}

// place_once until no other writer comes between its read and its write: the
// other writer's bytes are never overwritten, and this text is never dropped.
Placement place(const SelectedStore& selected, const AppendOptions& options, const Date& today,
                const std::string& item_text) {
  constexpr int k_attempts = 50;
  for (int attempt = 1; attempt < k_attempts; ++attempt) {
    if (auto placed = place_once(selected, options, today, item_text)) {
      return *placed;
    }
    spdlog::debug("WORKING.md changed while the item was added; adding it again");
  }
  if (auto placed = place_once(selected, options, today, item_text)) {
    return *placed;
  }
  throw Error("WORKING.md kept changing while the item was added ({} attempts); the text was not "
              "saved",
              k_attempts);
}

// Why the text or section cannot be appended, or nullopt when they can.
std::optional<std::string> unusable_input(const std::string& item_text,
                                          const std::string& section) {
  if (item_text.find_first_not_of(" \t\r\n") == std::string::npos) {
    return "the text is empty";
  }
  if (const auto bad = first_invalid_utf8(item_text)) {
    return fmt::format("the text is not valid UTF-8 (byte {})", *bad + 1);
  }
  if (section.empty() || section.find_first_of("\r\n") != std::string::npos) {
    return "--section must be one line of text";
  }
  return std::nullopt;
}

// Says where the text went: for people, or as one JSON object.
void print_placement(Format format, const SelectedStore& selected, const AppendOptions& options,
                     const Placement& placement) {
  if (format == Format::json) {
    print_json(
        {{"store", selected.root.string()},
         {"path", placement.relative.generic_string()},
         {"section", placement.overflow ? nlohmann::json() : nlohmann::json(options.section)},
         {"overflow", placement.overflow},
         {"reason", placement.overflow ? nlohmann::json(placement.why) : nlohmann::json()},
         {"consolidation_requested", placement.overflow}});
  } else if (placement.overflow) {
    fmt::print("saved to {} instead of {} ({}); a consolidation is requested\n",
               placement.relative.generic_string(), selected.layout.working, placement.why);
  } else {
    fmt::print("appended to {} under ## {}\n", placement.relative.generic_string(),
               options.section);
  }
}

// Runs `engram append`.
int run_append(const Globals& globals, const AppendOptions& options) {
  const Format format = format_of(options.json);
  const auto config = load_config(globals, format);
  if (!config) {
    return k_exit_usage;
  }
  const auto today_or_not = today_from(options.now, "append", format);
  if (!today_or_not) {
    return k_exit_usage;
  }
  const Date today = *today_or_not;
  std::string item_text;
  for (const auto& word : options.words) {
    item_text += (item_text.empty() ? "" : " ") + word;
  }
  if (const auto unusable = unusable_input(item_text, options.section)) {
    fmt::print(stderr, "engram: append: {}\n", *unusable);
    return report_failure(format, k_exit_usage, *unusable);
  }
  const SelectedStore selected = select_store(*config, options.store);
  if (refuses_hands_off(selected, "append", format)) {
    return k_exit_problems;
  }
  if (!fs::is_directory(selected.root)) {
    fmt::print(stderr, "engram: append: no store at {}\n", selected.root.string());
    return report_failure(format, k_exit_problems, "no store at " + selected.root.string());
  }

  Placement placement;
  try {
    const AppendLock lock(selected.root / selected.layout.state);
    placement = place(selected, options, today, item_text);
    if (placement.overflow) {
      spdlog::warn("skipping append (await consolidation): {}", placement.why);
      request_consolidation(
          selected, fmt::format("{} working-memory guard: {}", today.to_string(), placement.why));
    }
  } catch (const Error& error) {
    fmt::print(stderr, "engram: append: {}\n", error.what());
    return report_failure(format, k_exit_problems, error.what());
  }
  print_placement(format, selected, options, placement);
  return k_exit_ok;
}

} // namespace

void add_append_command(CLI::App& app, std::vector<Command>& commands) {
  auto options = std::make_shared<AppendOptions>();
  CLI::App* command = app.add_subcommand(
      "append",
      "Append a dated item to WORKING.md under a section. When that would pass the guard, the "
      "text goes to today's episodic overflow file instead and a consolidation is requested; "
      "either way it is kept, and the command says where.");
  add_store_option(*command, options->store);
  command->add_option("--section", options->section, "The `## ` section to append under")
      ->type_name("NAME")
      ->capture_default_str();
  command->add_option("--now", options->now, "Date the item as DATE (default: today)")
      ->type_name("YYYY-MM-DD");
  command->add_flag("--json", options->json, "Print where the text went as one JSON object");
  command->add_option("text", options->words, "The text to remember (words are joined by spaces)")
      ->required()
      ->type_name("TEXT");
  commands.push_back(
      {command, [options](const Globals& globals) { return run_append(globals, *options); }});
}

} // namespace engram::cli
