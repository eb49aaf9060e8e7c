// Discovery: the places agents keep memory folders, as a table, and a walk
// of each (one level: a project or a workspace per folder).
#include "store/discovery.hpp"

#include <algorithm>

namespace engram::store {

namespace fs = std::filesystem;

namespace {

// Where one agent keeps its folders: under `base`, every folder whose name
// starts with `prefix` (with `suffix` joined to it), or `base` itself when
// `prefix` is empty.
struct Place {
  fs::path base;
  std::string prefix;
  fs::path suffix;
  std::string where;
};

std::vector<Place> places(const fs::path& home,
                          const std::function<std::string(const char*)>& environment) {
  const std::string claude_dir = environment("CLAUDE_CONFIG_DIR");
  const std::string openclaw_dir = environment("OPENCLAW_STATE_DIR");
  const fs::path claude = claude_dir.empty() ? home / ".claude" : fs::path(claude_dir);
  const fs::path openclaw = openclaw_dir.empty() ? home / ".openclaw" : fs::path(openclaw_dir);
  const std::string letta_dir = environment("LETTA_LOCAL_BACKEND_DIR");
  const fs::path letta_local =
      letta_dir.empty() ? home / ".letta" / "lc-local-backend" : fs::path(letta_dir);
  return {
      {claude / "projects", "*", "memory", "Claude Code's auto memory of a project"},
      {openclaw, "workspace", "", "OpenClaw's workspace"},
      {home / ".letta" / "agents", "*", "memory", "Letta Code's memory of an agent"},
      {letta_local / "memfs", "*", "memory", "Letta Code's memory of a local agent"},
  };
}

bool is_folder(const fs::path& path) {
  std::error_code error;
  return fs::is_directory(path, error);
}

} // namespace

std::vector<Found> discover(const fs::path& home,
                            const std::function<std::string(const char*)>& environment) {
  std::vector<Found> found;
  const auto add = [&](const fs::path& path, const std::string& where) {
    if (is_folder(path)) {
      found.push_back(Found{path.lexically_normal(), detect_profile(path), where});
    }
  };
  for (const Place& place : places(home, environment)) {
    std::error_code error;
    for (auto it = fs::directory_iterator(place.base, error);
         !error && it != fs::directory_iterator(); it.increment(error)) {
      const std::string name = it->path().filename().string();
      // "*" takes every folder (each project), else the name and its variants
      // (workspace, workspace-<profile>).
      if (place.prefix == "*" || name == place.prefix || name.starts_with(place.prefix + "-")) {
        add(place.suffix.empty() ? it->path() : it->path() / place.suffix, place.where);
      }
    }
  }
  auto projects = basic_memory_projects(home);
  const std::string main_project = environment("BASIC_MEMORY_HOME");
  projects.push_back(main_project.empty() ? home / "basic-memory" : fs::path(main_project));
  for (const auto& project : projects) {
    const bool seen = std::any_of(found.begin(), found.end(), [&](const Found& folder) {
      return folder.path == project.lexically_normal();
    });
    if (!seen) {
      add(project, "a basic-memory project");
    }
  }
  std::sort(found.begin(), found.end(),
            [](const Found& a, const Found& b) { return a.path < b.path; });
  return found;
}

} // namespace engram::store
