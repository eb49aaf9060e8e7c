// Rule plugins for a command. The built-in folder comes first, so a user's
// plugin cannot take a built-in rule's name (the host refuses the second).
#include "cli/rule_plugins.hpp"

#include <spdlog/spdlog.h>

namespace engram::cli {

std::vector<std::filesystem::path> rule_folders(const config::Config& config) {
  std::vector<std::filesystem::path> folders;
  if (auto builtin = plugins::builtin_rule_folder(); !builtin.empty()) {
    folders.push_back(std::move(builtin));
  }
  const std::filesystem::path base =
      config.source.empty() ? std::filesystem::current_path() : config.source.parent_path();
  for (const auto& dir : config.global.get_list("plugins.dirs")) {
    folders.push_back(config::normalise_path(dir, base));
  }
  return folders;
}

void load_rule_plugins(plugins::Host& host, const config::Config& config) {
  for (const auto& folder : rule_folders(config)) {
    spdlog::debug("loading rule plugins from {}", folder.string());
    const std::size_t before = host.refused().size();
    host.load_folder(folder);
    // The host logs refused files; a refused folder would otherwise go unsaid.
    for (std::size_t i = before; i < host.refused().size(); ++i) {
      if (host.refused()[i].path == folder.string()) {
        spdlog::warn("plugin folder {} refused: {}", folder.string(), host.refused()[i].reason);
      }
    }
  }
}

} // namespace engram::cli
