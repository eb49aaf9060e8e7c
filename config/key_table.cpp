// The key table itself and the validators its keys use; the look-ups over
// it are key_lookup.cpp's.
#include "config/key_table.hpp"

#include "store/profile.hpp"

#include <algorithm>
#include <cstddef>
#include <fmt/format.h>

namespace engram::config {

namespace {

// A yes/no switch.
Key flag(std::string_view name, bool value, std::string_view help) {
  return Key{.name = name, .type = Type::boolean, .default_value = value, .help = help};
}

// A whole number within [min, max].
Key integer(std::string_view name, std::int64_t value, std::int64_t min, std::int64_t max,
            std::string_view help, Scope scope = Scope::global_or_store) {
  return Key{.name = name,
             .type = Type::integer,
             .default_value = value,
             .min = static_cast<double>(min),
             .max = static_cast<double>(max),
             .help = help,
             .scope = scope};
}

// A number within [min, max]; integers in the file are accepted too.
Key real(std::string_view name, double value, double min, double max, std::string_view help) {
  return Key{.name = name,
             .type = Type::real,
             .default_value = value,
             .min = min,
             .max = max,
             .help = help};
}

// A string, checked by `validator` when it has one.
Key text(std::string_view name, std::string_view value, Validator validator, std::string_view help,
         Scope scope = Scope::global_or_store, Form form = Form::plain) {
  return Key{.name = name,
             .type = Type::string,
             .default_value = std::string(value),
             .validator = std::move(validator),
             .help = help,
             .scope = scope,
             .form = form};
}

// A list of strings, empty by default.
Key list(std::string_view name, std::string_view help, Scope scope, Form form) {
  return Key{.name = name,
             .type = Type::string_list,
             .default_value = std::vector<std::string>{},
             .help = help,
             .scope = scope,
             .form = form};
}

// A string shown the way TOML writes it, for messages.
std::string in_quotes(std::string_view text) {
  return fmt::format("\"{}\"", text);
}

// A profile engram knows, or "" for the one detected from the store's files.
std::optional<std::string> known_profile(const Value& value) {
  const auto& name = std::get<std::string>(value);
  if (name.empty() || store::profile_named(name) != nullptr) {
    return std::nullopt;
  }
  std::string names;
  for (const auto& known : store::profiles()) {
    names += fmt::format("{}{}", names.empty() ? "" : ", ", in_quotes(known.name));
  }
  return fmt::format("must be one of {} (or \"\" to detect it), not {}", names, in_quotes(name));
}

// A single file or folder name inside the store: layout names are joined to
// the store root, so a '/' or '..' would reach outside it, and ".git" is git's.
std::optional<std::string> safe_name(const Value& value) {
  const auto& name = std::get<std::string>(value);
  const bool bad = name.empty() || name == "." || name == ".." || name == ".git" ||
                   name.find('/') != std::string::npos || name.find('\0') != std::string::npos;
  if (!bad) {
    return std::nullopt;
  }
  return fmt::format("must be a single name inside the store (no '/', not \"\", \".\", "
                     "\"..\" or \".git\"), not {}",
                     in_quotes(name));
}

// A time of day as HH:MM, or "" for never.
std::optional<std::string> clock_time(const Value& value) {
  const auto& time = std::get<std::string>(value);
  if (time.empty()) {
    return std::nullopt;
  }
  const auto digit = [&](std::size_t i) { return time[i] >= '0' && time[i] <= '9'; };
  if (time.size() == 5 && digit(0) && digit(1) && time[2] == ':' && digit(3) && digit(4)) {
    const int hours = (time[0] - '0') * 10 + (time[1] - '0');
    const int minutes = (time[3] - '0') * 10 + (time[4] - '0');
    if (hours < 24 && minutes < 60) {
      return std::nullopt;
    }
  }
  return fmt::format("must be a time of day HH:MM (00:00 to 23:59) or \"\" for never, not {}",
                     in_quotes(time));
}

// One of a fixed set of words.
Validator one_of(std::vector<std::string_view> choices) {
  return [choices = std::move(choices)](const Value& value) -> std::optional<std::string> {
    const auto& word = std::get<std::string>(value);
    if (std::find(choices.begin(), choices.end(), word) != choices.end()) {
      return std::nullopt;
    }
    std::string listed;
    for (std::size_t i = 0; i < choices.size(); ++i) {
      listed += i == 0 ? "" : (i + 1 == choices.size() ? " or " : ", ");
      listed += in_quotes(choices[i]);
    }
    return fmt::format("must be {}, not {}", listed, in_quotes(word));
  };
}

constexpr std::int64_t k_days_max = 36'500;         // a century: "never", in practice
constexpr std::int64_t k_count_max = 1'000'000'000; // any count a store could reach
constexpr std::int64_t k_chars_max = 10'000'000;    // far beyond any context window
constexpr std::int64_t k_hour_ms = 3'600'000;       // waits longer than this are mistakes
constexpr std::int64_t k_day_s = 86'400;

} // namespace

const std::vector<std::string_view> k_builtin_rules = {
    "working-memory", "episodic-decay", "dedupe",    "contradictions",
    "stale-refs",     "forgetting",     "promotion", "index"};

const std::string_view k_config_intro =
    "engram reads TOML from $XDG_CONFIG_HOME/engram/config.toml "
    "(~/.config/engram/config.toml when XDG_CONFIG_HOME is unset), or from the file given with "
    "`--config FILE`. Every key is optional; a key left out has the default shown. Unknown keys "
    "and bad values are errors, reported as `file:line: message`, and nothing runs until they "
    "are fixed. `engram config show` prints the effective configuration.";

const std::string_view k_store_section_help =
    "One section per store. `path` is required: the store's folder (`~` is expanded; a relative "
    "path is relative to the configuration file's folder); no two stores may share one. `name` "
    "is an optional label. `profile` says what kind of memory folder it is — `four-layer` "
    "(engram's own), `claude-code`, `openclaw` or `unknown` — and is detected from its "
    "files when left out (`engram status` shows it). Any other key above, written by its full "
    "name (`guard.working_chars = 4000`) or in a sub-table (`[store.guard]` after the "
    "`[[store]]` line), overrides the top-level value for that store only.";

const std::string_view k_plugin_rules_help =
    "A table for a rule engram does not ship belongs to a plugin loaded from `plugins.dirs`. Its "
    "keys are kept as they are typed (booleans, integers, numbers, strings, lists of strings) "
    "for the plugin to read; a `[[store]]` may override them like any other key. Unknown keys in "
    "a built-in rule's table are errors.";

const std::vector<TableHelp> k_config_tables = {
    {"layout", "The names of a store's files and folders, relative to its root. Each is a single "
               "name: no '/', not \".\", \"..\" or \".git\"."},
    {"guard", "Size limits on the files agents load into their context. Going over one starts a "
              "full consolidation at once."},
    {"scan", "How a store is read."},
    {"decay", "When episodic memories decay into the other layers."},
    {"git", "History: every change is a commit in the store's own repository."},
    {"daemon", "`engram daemon`: when it consolidates and how it watches."},
    {"recall", "`engram recall`: how many memories a query returns and how much text."},
    {"hook", "`engram hook`: the context agent hooks inject at session start and per prompt."},
    {"plugins", "Where rule plugins are loaded from. Files or folders other users can write are "
                "refused."},
    {"rules.working-memory", "Moves items out of WORKING.md when it is over its guard."},
    {"rules.episodic-decay", "Splits expired episodic files into claims and absorbs them into "
                             "semantic/, procedural/ and reference/."},
    {"rules.dedupe", "Merges near-duplicate files of one type into the newer one."},
    {"rules.contradictions", "Resolves claims that contradict each other: the newer wins, the "
                             "older is kept in a superseded marker."},
    {"rules.stale-refs", "Archives memories whose every file or symbol reference is gone from the "
                         "project tree."},
    {"rules.forgetting", "Archives memories that are unused, rarely used or not helpful."},
    {"rules.promotion", "Promotes proven memories to CORE.md."},
    {"rules.index", "Rebuilds MEMORY.md and .index.json."},
};

const std::vector<Key> k_config_key_table = {
    text("layout.memory_index", "MEMORY.md", safe_name,
         "The index agents load at session start; generated by the index rule."),
    text("layout.working", "WORKING.md", safe_name,
         "Working memory: what the agent is doing now. Written by the agent, size-guarded."),
    text("layout.core", "CORE.md", safe_name,
         "Core memory: proven knowledge agents always load; generated by the promotion rule."),
    text("layout.episodic", "episodic", safe_name,
         "The folder of session notes (YYYY-MM-DD-<slug>.md); they decay."),
    text("layout.semantic", "semantic", safe_name,
         "The folder of distilled, timeless facts, grouped by tags."),
    text("layout.procedural", "procedural", safe_name,
         "The folder of behavioural rules and solutions (feedback.md)."),
    text("layout.reference", "reference", safe_name,
         "The folder of pointers to things outside the store."),
    text("layout.archive", "archive", safe_name,
         "The folder retired memories are moved to (they stay in git history too)."),
    text("layout.index_json", ".index.json", safe_name, "The machine-readable index (generated)."),
    text("layout.state", ".engram", safe_name,
         "engram's own state (usage log, locks); never committed."),
    text("layout.profile", "", known_profile,
         "What kind of memory folder the store is: \"four-layer\", \"claude-code\", "
         "\"openclaw\" or \"unknown\"; \"\" detects it (a [[store]]'s `profile` sets it)."),

    integer("guard.working_chars", 3000, 1, k_chars_max,
            "WORKING.md's size guard in characters. Over it, the working-memory rule moves "
            "completed, then oldest, items to episodic/."),
    integer("guard.working_target_chars", 2000, 1, k_chars_max,
            "The size the working-memory rule trims WORKING.md to; less than working_chars."),
    integer("guard.memory_lines", 200, 1, k_count_max,
            "The most lines MEMORY.md may have; beyond it, low-salience entries are folded into "
            "counts."),
    integer("guard.memory_line_chars", 150, 1, k_chars_max,
            "The longest a MEMORY.md line may be, in characters."),
    integer("guard.core_chars", 2000, 1, k_chars_max,
            "The most characters CORE.md's core blocks may hold in all."),
    integer("guard.core_block_chars", 500, 1, k_chars_max,
            "The longest one core block may be, in characters; at most core_chars."),
    integer("guard.deep_truths", 10, 0, k_count_max, "The most Deep Truths CORE.md may list."),
    integer("guard.max_removals_per_run", 100, 0, k_count_max,
            "A consolidation that would remove more memory files than this, and more than "
            "guard.max_removals_share of them, commits nothing and says what it would remove; "
            "`engram consolidate --allow-removals` lets one such run through. 0 means no cap."),
    real("guard.max_removals_share", 0.25, 0, 1,
         "The share of a store's memory files one consolidation may remove beyond "
         "guard.max_removals_per_run (see there)."),

    integer("scan.max_file_bytes", 1'048'576, 1, 1'073'741'824,
            "Larger files are reported and skipped, never parsed."),

    integer("decay.retention_days", 90, 1, k_days_max,
            "An episodic file without `decay-after` expires this many days after `created`."),

    text("git.author_name", "", {}, "Author of engram's commits; empty means \"engram\"."),
    text("git.author_email", "", {}, "Email of engram's commits; empty means engram@<host name>."),
    text("git.agent_name", "agent", {},
         "Author of the snapshot commits that record the agent's own edits."),
    text("git.agent_email", "", {},
         "Email of the agent's snapshot commits; empty lets engram derive one from the host name."),
    integer("git.snapshot_interval_s", 60, 0, k_day_s,
            "Agent edits are snapshot-committed at most once per this many seconds (coalesced)."),
    integer("git.lock_wait_s", 60, 0, k_day_s,
            "How long engram waits for a git operation of the user's (index.lock, a merge, a "
            "rebase, a cherry-pick) to finish before it gives up on the run."),
    integer("git.stale_lock_s", 60, 1, k_day_s,
            "A git lock file no process holds and unchanged this many seconds is removed, with "
            "a warning."),
    integer("git.pack_loose_bytes", 64 * 1024 * 1024, 0, std::int64_t{1} << 40,
            "Once the loose git objects commits add take more than this many bytes, the daemon "
            "has git pack them (git repack --geometric=2) when the store goes quiet "
            "(daemon.release_after_s); 0 means never. `engram pack` packs them now."),
    text("git.remote", "", {},
         "The git remote to share the store through (any URL git speaks: ssh, https, a path); "
         "empty means the store is local only."),
    text("git.branch", "", {},
         "The remote's branch the store shares; empty means the branch the store is on."),
    flag("git.sync", false,
         "Fetch and merge from git.remote before each consolidation and push after it; "
         "`engram sync` does one round by hand."),
    integer("git.sync_interval_s", 300, 0, k_day_s,
            "While idle, the daemon syncs with the remote this often; 0 syncs only around "
            "consolidations."),
    text("git.machine", "", {},
         "The name this machine's commits carry in their Engram-Machine trailer; empty means "
         "the host name."),

    integer("daemon.settle_ms", 500, 0, k_hour_ms,
            "The quiet period after the last change before the daemon acts."),
    integer("daemon.max_wait_ms", 10'000, 0, k_hour_ms,
            "The longest changes wait for a quiet period; at least settle_ms."),
    integer("daemon.idle_full_after_s", 300, 0, k_day_s,
            "A full consolidation runs after this many idle seconds following changes; 0 is off."),
    integer("daemon.release_after_s", 60, 0, k_day_s,
            "What the daemon keeps of a store between runs (every file, parsed: hundreds of MB "
            "for 10,000 files) is let go after this many seconds without a run, and read again "
            "by the next; 0 keeps it for ever."),
    integer("daemon.lightweight_every_writes", 50, 0, k_count_max,
            "A lightweight consolidation runs after this many writes; 0 is off."),
    text("daemon.full_at", "02:00", clock_time,
         "A daily full consolidation at this local time (HH:MM); \"\" is off."),
    integer("daemon.poll_interval_ms", 2000, 10, k_hour_ms,
            "How often the polling watcher looks for changes."),
    text("daemon.watcher", "auto", one_of({"auto", "inotify", "fsevents", "poll"}),
         "How changes are noticed: \"inotify\" (Linux), \"fsevents\" (macOS), \"poll\", or "
         "\"auto\" for the best one available."),
    text("daemon.log_level", "info", one_of({"trace", "debug", "info", "warn", "error", "off"}),
         "The least severe message the daemon logs: trace, debug, info, warn, error or off.",
         Scope::global_only),

    integer("recall.limit", 10, 1, 1000, "The most memories one recall returns."),
    integer("recall.budget_chars", 6000, 1, k_chars_max,
            "The most characters of memory one recall returns (their contents, as --context "
            "prints them); memories that would pass it are left out."),
    integer("hook.budget_chars", 8000, 1, k_chars_max,
            "The most characters `engram hook session-start` injects: CORE.md, then WORKING.md, "
            "then recalled memories in what is left."),
    integer("hook.prompt_budget_chars", 4000, 0, k_chars_max,
            "The most characters of recalled memories `engram hook user-prompt-submit` injects "
            "per prompt; 0 turns it off."),

    list("plugins.dirs", "Folders searched for rule plugins (`~` is expanded).", Scope::global_only,
         Form::path),

    flag("rules.working-memory.enabled", true, "Whether the rule runs."),

    flag("rules.episodic-decay.enabled", true, "Whether the rule runs."),
    real("rules.episodic-decay.near_duplicate", 0.9, 0, 1,
         "A claim whose words are contained in an existing claim to at least this share is a "
         "duplicate of it."),

    flag("rules.dedupe.enabled", true, "Whether the rule runs."),
    real("rules.dedupe.similarity", 0.6, 0, 1,
         "Files sharing at least this share of their significant words are merged."),
    real("rules.dedupe.shared_claims", 0.25, 0, 1,
         "Files are merged only when at least this share of the claims of the one with fewer "
         "claims are in the other (equal, near-equal, or an older or newer value): words alone "
         "do not make two files one. 0 judges by words alone."),
    integer("rules.dedupe.min_age_days", 14, 0, k_days_max,
            "Files younger than this many days are left alone."),
    integer("rules.dedupe.max_merged_bytes", 32768, 1024, 1024 * 1024,
            "Two files whose bodies would together be larger are reported, not merged: "
            "merging must not grow one file without bound."),

    flag("rules.contradictions.enabled", true, "Whether the rule runs."),

    flag("rules.stale-refs.enabled", true, "Whether the rule runs."),
    text("rules.stale-refs.project_root", "", {},
         "The project tree references are checked against (`~` is expanded); empty means the "
         "rule has nothing to check.",
         Scope::global_or_store, Form::path),
    integer("rules.stale-refs.min_age_days", 14, 0, k_days_max,
            "Memories younger than this many days are left alone."),

    flag("rules.forgetting.enabled", true, "Whether the rule runs."),
    integer("rules.forgetting.unused_days", 90, 1, k_days_max,
            "A memory last accessed more than this many days ago is unused."),
    integer("rules.forgetting.min_uses", 3, 0, k_count_max,
            "An unused memory with fewer uses than this is archived."),
    real("rules.forgetting.min_helpful", 0.3, 0, 1,
         "An unused memory helpful in less than this share of its rated uses "
         "(helpful / (helpful + unhelpful)) is archived."),
    integer("rules.forgetting.recent_days", 30, 0, k_days_max,
            "A memory used in the last this many days is never archived."),
    flag("rules.forgetting.include_confirmed", false,
         "Whether memories a person confirmed (`status: confirmed`) may be archived too."),

    flag("rules.promotion.enabled", true, "Whether the rule runs."),
    integer("rules.promotion.min_sessions", 3, 1, k_count_max,
            "A claim becomes a Deep Truth when at least this many sessions (episodic files) "
            "state it..."),
    integer("rules.promotion.min_days", 7, 0, k_days_max,
            "...and those sessions span at least this many days, first to last."),
    integer("rules.promotion.min_uses", 15, 1, k_count_max,
            "A memory becomes a Deep Truth when it was used at least this many times..."),
    real("rules.promotion.min_helpful", 0.85, 0, 1,
         "...was helpful in at least this share of its rated uses "
         "(helpful / (helpful + unhelpful))..."),
    integer("rules.promotion.min_age_days", 30, 0, k_days_max,
            "...and is at least this many days old (`created`)."),

    flag("rules.index.enabled", true, "Whether the rule runs."),
};

} // namespace engram::config
