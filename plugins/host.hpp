// Host: loads rule plugins (shared libraries) from configured folders, checks
// each one's descriptor before calling anything, and keeps every library
// loaded as long as any object from it lives.
#pragma once

#include "engine/engine.hpp"
#include "engram/plugin.hpp"

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace engram::plugins {

// A loaded rule plugin, as `engram plugins` lists it.
struct LoadedPlugin {
  std::string name;
  std::string path;
  std::string version;
  std::string sdk_version;
  std::string description;
  Phase phase = Phase::index;
  bool lightweight = false;
};

// A file that was not loaded, and why (one line).
struct RefusedPlugin {
  std::string path;
  std::string reason;
};

// The plugins of one process. Loaded once, at start or reload.
class Host {
public:
  Host();
  ~Host();
  Host(const Host&) = delete;
  Host& operator=(const Host&) = delete;

  // Loads every shared library in `folder` (sorted by name). A rule whose name
  // is already loaded is refused: the first folder wins.
  void load_folder(const std::filesystem::path& folder);

  // The loaded rules, ready for the engine.
  std::vector<engine::RuleSlot> slots() const;

  // What was loaded, in load order.
  std::vector<LoadedPlugin> loaded() const;

  // What was refused, and why.
  const std::vector<RefusedPlugin>& refused() const { return m_refused; }

private:
  struct Plugin;
  void load_file(const std::filesystem::path& file);
  // Checks the descriptor of the loaded `plugin` and makes its rule; why it
  // cannot be used, or "" when it can.
  std::string admit(Plugin& plugin, const std::filesystem::path& file) const;

  std::vector<std::unique_ptr<Plugin>> m_plugins;
  std::vector<RefusedPlugin> m_refused;
};

// The folder of the built-in rules: `<folder of the engram binary>/../lib/engram/rules`.
std::filesystem::path builtin_rule_folder();

// Why a file or folder may not be loaded from (writable by others, not ours), or empty.
std::string unsafe_reason(const std::filesystem::path& path);

} // namespace engram::plugins
