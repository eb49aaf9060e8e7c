// Profile: the table of known folders, and their detection from the files
// each agent's documentation says it keeps.
#include "store/profile.hpp"

#include "engram/text.hpp"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>

namespace engram::store {

namespace fs = std::filesystem;

namespace {

// Claude Code loads the first 200 lines of MEMORY.md, and at most 25 KB of it.
// OpenClaw injects each bootstrap file up to 20,000 characters.
constexpr std::size_t k_claude_lines = 200;
constexpr std::size_t k_claude_bytes = 25 * 1024;
constexpr std::size_t k_openclaw_chars = 20'000;

std::vector<Profile> make_profiles() {
  const auto openclaw_limit = [](std::string_view path) {
    return LoaderLimit{path, 0, 0, k_openclaw_chars, "OpenClaw cuts the file at injection"};
  };
  return {
      Profile{.name = "four-layer", .agent = "engram"},
      // Claude Code's types: feedback is how to work, user and project are
      // facts, reference points elsewhere.
      Profile{.name = "claude-code",
              .agent = "Claude Code (auto memory)",
              .agent_owns_index = true,
              .agent_files = {"MEMORY.md"},
              .limits = {LoaderLimit{"MEMORY.md", k_claude_lines, k_claude_bytes, 0,
                                     "Claude Code does not load what is past it"}},
              .root_types = {{"feedback", Layer::procedural},
                             {"user", Layer::semantic},
                             {"project", Layer::semantic},
                             {"reference", Layer::reference}},
              .index_style = "pointers",
              .topic_types = {{Layer::procedural, "feedback"},
                              {Layer::semantic, "project"},
                              {Layer::reference, "reference"}}},
      Profile{.name = "openclaw",
              .agent = "OpenClaw",
              .agent_owns_index = true,
              .agent_files = {"MEMORY.md", "AGENTS.md", "SOUL.md", "USER.md", "IDENTITY.md",
                              "TOOLS.md", "HEARTBEAT.md", "BOOTSTRAP.md"},
              // HEARTBEAT.md is a checklist and BOOTSTRAP.md a first-run script:
              // what they say is not what the agent knows.
              .core_files = {"AGENTS.md", "SOUL.md", "USER.md", "IDENTITY.md", "TOOLS.md"},
              .user_file = "USER.md",
              .limits = {openclaw_limit("MEMORY.md"), openclaw_limit("AGENTS.md"),
                         openclaw_limit("SOUL.md"), openclaw_limit("USER.md"),
                         openclaw_limit("IDENTITY.md"), openclaw_limit("TOOLS.md")},
              .episodic = "memory",
              .index_style = "curated",
              .curated = "MEMORY.md",
              // The daily notes are the agent's log, which memory_search reads.
              .keep_notes = true},
      Profile{.name = "letta",
              .agent = "Letta Code (MemFS)",
              .agent_owns_index = true,
              .index_style = "curated",
              .hands_off = "Letta syncs every file of the folder into its agent's memory blocks "
                           "and commits it to its own git repository, so a file engram added or "
                           "rewrote would reach the agent and Letta's history"},
      Profile{.name = "basic-memory",
              .agent = "basic-memory",
              .agent_owns_index = true,
              .index_style = "curated",
              .hands_off = "basic-memory indexes every Markdown file of the folder into its "
                           "knowledge graph, so a file engram added or rewrote would become one "
                           "of its notes"},
      Profile{.name = "unknown",
              .agent = "an agent engram does not know",
              .agent_owns_index = true,
              .index_style = "curated"},
  };
}

// The first `n` lines of a file (fewer when it is shorter; none when unreadable).
std::vector<std::string> head_lines(const fs::path& path, std::size_t n) {
  std::vector<std::string> lines;
  std::ifstream in(path, std::ios::binary);
  std::string line;
  while (lines.size() < n && std::getline(in, line)) {
    lines.push_back(line);
  }
  return lines;
}

// True for a Claude Code index line: `- [Title](file.md)`, a hook after it or not.
bool is_pointer_line(const std::string& line) {
  // Claude Code links topic files beside MEMORY.md: no folder in the link.
  static const std::regex pointer(R"(^\s*[-*]\s+\[[^\]]+\]\([^)\s/]+\.md\).*)");
  return std::regex_match(line, pointer);
}

// The value of `key:` in a file's frontmatter, "" when it has none.
std::string frontmatter_field(const fs::path& path, std::string_view key) {
  const auto lines = head_lines(path, 30);
  if (lines.empty() || lines.front().rfind("---", 0) != 0) {
    return {};
  }
  const std::string prefix = std::string(key) + ":";
  for (std::size_t i = 1; i < lines.size() && lines[i].rfind("---", 0) != 0; ++i) {
    if (lines[i].rfind(prefix, 0) == 0) {
      auto value = lines[i].substr(prefix.size());
      value.erase(0, value.find_first_not_of(" \t\"'"));
      value.erase(value.find_last_not_of(" \t\r\"'") + 1);
      return value;
    }
  }
  return {};
}

// Claude Code's signs: MEMORY.md of pointer lines, topic files typed
// user/feedback/project/reference, or the folder Claude Code keeps them in.
std::string claude_code_signs(const fs::path& root) {
  std::size_t pointers = 0;
  std::size_t lines = 0;
  const auto index = head_lines(root / "MEMORY.md", 400);
  std::string head;
  for (std::size_t i = 0; i < index.size() && i < 8; ++i) {
    head += index[i] + "\n";
  }
  const bool generated = engram::text::is_generated(head);
  for (const auto& line : generated ? std::vector<std::string>{} : index) {
    if (line.find_first_not_of(" \t\r") == std::string::npos || line.starts_with("#")) {
      continue;
    }
    ++lines;
    pointers += is_pointer_line(line) ? 1 : 0;
  }
  std::size_t typed = 0;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(root, error)) {
    if (entry.path().extension() == ".md" && entry.path().filename() != "MEMORY.md") {
      const auto type = frontmatter_field(entry.path(), "type");
      typed += type == "user" || type == "feedback" || type == "project" || type == "reference";
    }
  }
  const auto path = fs::absolute(root).lexically_normal().generic_string();
  const bool home =
      path.find("/.claude/projects/") != std::string::npos && fs::path(path).filename() == "memory";
  if ((pointers == 0 || pointers * 2 < lines) && typed == 0 && !home) {
    return {};
  }
  return fmt::format("MEMORY.md of {} pointer line{}, {} topic file{} with a Claude Code `type`{}",
                     pointers, pointers == 1 ? "" : "s", typed, typed == 1 ? "" : "s",
                     home ? ", in ~/.claude/projects/<project>/memory" : "");
}

// OpenClaw's signs: its bootstrap files, and daily notes in memory/.
std::string openclaw_signs(const fs::path& root) {
  std::vector<std::string> found;
  for (const char* name : {"AGENTS.md", "SOUL.md", "USER.md", "IDENTITY.md"}) {
    if (fs::is_regular_file(root / name)) {
      found.emplace_back(name);
    }
  }
  static const std::regex daily(R"(\d{4}-\d{2}-\d{2}.*\.md)");
  std::size_t notes = 0;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(root / "memory", error)) {
    notes += std::regex_match(entry.path().filename().string(), daily) ? 1 : 0;
  }
  if (found.size() < 2 && !(found.size() == 1 && notes > 0)) {
    return {};
  }
  std::string names;
  for (const auto& name : found) {
    names += (names.empty() ? "" : ", ") + name;
  }
  return fmt::format("{}; {} daily note{} in memory/", names, notes, notes == 1 ? "" : "s");
}

// Letta's signs (MemFS): the folder Letta keeps an agent's memory in, its
// sync state, or a system/ folder of files described in their frontmatter,
// which Letta loads into every turn.
std::string letta_signs(const fs::path& root) {
  const auto path = fs::absolute(root).lexically_normal().generic_string();
  const bool home =
      fs::path(path).filename() == "memory" && (path.find("/.letta/agents/") != std::string::npos ||
                                                path.find("/memfs/") != std::string::npos);
  const bool synced = fs::is_regular_file(root / ".sync-state.json");
  std::size_t described = 0;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(root / "system", error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    described +=
        it->path().extension() == ".md" && !frontmatter_field(it->path(), "description").empty();
  }
  if (!home && !synced && described == 0) {
    return {};
  }
  std::vector<std::string> signs;
  if (home) {
    signs.emplace_back("in Letta's agent memory folder");
  }
  if (synced) {
    signs.emplace_back(".sync-state.json");
  }
  if (described > 0) {
    signs.push_back(fmt::format("system/ of {} file{} with a `description`, loaded every turn",
                                described, described == 1 ? "" : "s"));
  }
  if (fs::exists(root / ".git")) {
    signs.emplace_back("its own git repository");
  }
  std::string evidence;
  for (const auto& sign : signs) {
    evidence += (evidence.empty() ? "" : ", ") + sign;
  }
  return evidence;
}

// True when basic-memory's configuration names `root` as one of its projects.
bool listed_by_basic_memory(const fs::path& root) {
  const char* home = std::getenv("HOME");
  if (home == nullptr) {
    return false;
  }
  std::error_code error;
  for (const auto& project : basic_memory_projects(home)) {
    if (fs::equivalent(project, root, error)) {
      return true;
    }
  }
  return false;
}

// basic-memory's signs: notes with a `permalink` in their frontmatter, and
// observation lines (`- [category] fact`), anywhere in the folder. Only the
// first files are read: detection stays cheap on a large folder.
std::string basic_memory_signs(const fs::path& root) {
  static const std::regex observation(R"(^\s*-\s+\[[\w -]+\]\s+\S.*)");
  std::size_t notes = 0;
  std::size_t linked = 0;
  std::size_t observed = 0;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(root, error);
       !error && it != fs::recursive_directory_iterator() && notes < 500; it.increment(error)) {
    if (it->path().filename().string().starts_with(".")) {
      it.disable_recursion_pending(); // .git, and any tool's hidden state
      continue;
    }
    if (it->path().extension() != ".md" || !it->is_regular_file(error)) {
      continue;
    }
    ++notes;
    linked += frontmatter_field(it->path(), "permalink").empty() ? 0 : 1;
    const auto lines = head_lines(it->path(), 200);
    observed += std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
      return std::regex_match(line, observation);
    });
  }
  if (linked == 0 || (linked * 2 < notes && observed == 0)) {
    return {};
  }
  return fmt::format("{} of {} note{} with a `permalink`, {} with observation lines", linked, notes,
                     notes == 1 ? "" : "s", observed);
}

// engram's own signs: its layer folders, or nothing at all yet.
bool four_layer_signs(const fs::path& root) {
  std::error_code error;
  if (!fs::exists(root, error) || fs::is_empty(root, error)) {
    return true;
  }
  for (const char* folder : {"episodic", "semantic", "procedural", "reference"}) {
    if (fs::is_directory(root / folder)) {
      return true;
    }
  }
  return fs::is_regular_file(root / "WORKING.md");
}

} // namespace

// The folders basic-memory's configuration names as its projects, under
// `home` (its `projects` table; its default one when it has no file yet).
std::vector<fs::path> basic_memory_projects(const fs::path& home) {
  std::vector<fs::path> projects;
  std::ifstream in(home / ".basic-memory" / "config.json", std::ios::binary);
  const auto config = nlohmann::json::parse(in, nullptr, false);
  if (config.is_object() && config.contains("projects") && config["projects"].is_object()) {
    for (const auto& [name, path] : config["projects"].items()) {
      if (path.is_string()) {
        const std::string text = path.get<std::string>();
        projects.emplace_back(text.starts_with("~/") ? home / text.substr(2) : fs::path(text));
      }
    }
  }
  return projects;
}

const LoaderLimit* Profile::limit_of(std::string_view path) const {
  for (const auto& limit : limits) {
    if (limit.path == path) {
      return &limit;
    }
  }
  return nullptr;
}

void apply_profile(const Profile& profile, Layout& layout) {
  layout.profile = profile.name;
  for (const auto& [type, layer] : profile.root_types) {
    layout.root_types.emplace_back(type, layer);
  }
  for (const auto name : profile.core_files) {
    layout.agent_core.emplace_back(name);
  }
  if (!profile.episodic.empty() && layout.episodic == Layout{}.episodic) {
    layout.episodic = profile.episodic;
  }
}

const std::vector<Profile>& profiles() {
  static const std::vector<Profile> known = make_profiles();
  return known;
}

const Profile* profile_named(std::string_view name) {
  for (const auto& profile : profiles()) {
    if (profile.name == name) {
      return &profile;
    }
  }
  return nullptr;
}

std::vector<LoaderReading> read_loader_limits(const fs::path& root, const Profile& profile) {
  std::vector<LoaderReading> readings;
  for (const auto& limit : profile.limits) {
    LoaderReading reading{limit};
    std::ifstream in(root / limit.path, std::ios::binary);
    if (in) {
      reading.present = true;
      const std::string bytes((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
      reading.bytes = bytes.size();
      reading.lines = static_cast<std::size_t>(std::count(bytes.begin(), bytes.end(), '\n')) +
                      (!bytes.empty() && bytes.back() != '\n' ? 1 : 0);
      reading.chars =
          static_cast<std::size_t>(std::count_if(bytes.begin(), bytes.end(), [](char c) {
            return (static_cast<unsigned char>(c) & 0xC0) != 0x80; // not a continuation byte
          }));
    }
    readings.push_back(reading);
  }
  return readings;
}

Detection detect_profile(const fs::path& root) {
  if (auto signs = claude_code_signs(root); !signs.empty()) {
    return {profile_named("claude-code"), std::move(signs)};
  }
  if (auto signs = openclaw_signs(root); !signs.empty()) {
    return {profile_named("openclaw"), std::move(signs)};
  }
  if (auto signs = letta_signs(root); !signs.empty()) {
    return {profile_named("letta"), std::move(signs)};
  }
  if (listed_by_basic_memory(root)) {
    return {profile_named("basic-memory"), "a project in ~/.basic-memory/config.json"};
  }
  // After engram's own signs, which are cheap: this one reads many files.
  if (four_layer_signs(root)) {
    return {profile_named("four-layer"), "engram's layer folders, or an empty folder"};
  }
  if (auto signs = basic_memory_signs(root); !signs.empty()) {
    return {profile_named("basic-memory"), std::move(signs)};
  }
  return {profile_named("unknown"), "files engram does not recognise as any agent's"};
}

Resolved resolve_profile(const fs::path& root, std::string_view configured,
                         const std::string& state) {
  if (const Profile* named = profile_named(configured); named != nullptr) {
    return {named, true, {}};
  }
  const auto recorded = head_lines(root / state / "profile", 1);
  if (!recorded.empty()) {
    if (const Profile* named = profile_named(recorded.front()); named != nullptr) {
      return {named, false, "recorded by engram init in " + state + "/profile"};
    }
  }
  auto detected = detect_profile(root);
  return {detected.profile, false, "detected: " + detected.evidence};
}

void record_profile(const fs::path& root, const std::string& state, const Profile& profile) {
  std::error_code error;
  fs::create_directories(root / state, error);
  std::ofstream out(root / state / "profile", std::ios::binary | std::ios::trunc);
  out << profile.name << "\n";
}

} // namespace engram::store
