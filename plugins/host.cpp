// Host: Boost.DLL loading. The library handle is declared before the rule in
// Plugin, so the rule is destroyed first and never outlives its code.
#include "plugins/host.hpp"

#include "base/fault.hpp"
#include "base/platform.hpp"

#include <algorithm>
#include <boost/dll/shared_library.hpp>
#include <dlfcn.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

namespace engram::plugins {
namespace fs = std::filesystem;

struct Host::Plugin {
  // The descriptor it was loaded through: held while it is loaded, so no
  // other plugin is loaded through the same descriptor path (the loader
  // takes a name it has loaded for that library again).
  int fd = -1;
  boost::dll::shared_library library; // destroyed before the descriptor is closed
  LoadedPlugin info;
  std::unique_ptr<Rule> rule;

  ~Plugin() {
    rule.reset();
    library.unload();
    if (fd >= 0) {
      ::close(fd);
    }
  }
};

Host::Host() = default;

Host::~Host() {
  // Destroy in reverse load order; each Plugin drops its rule before its library.
  while (!m_plugins.empty()) {
    m_plugins.pop_back();
  }
}

namespace {

// Why what `st` describes, at `path`, lets another user change what is
// loaded ("" when it does not): writable by others, or theirs. A folder
// others may write is safe only when it is sticky and root's (/tmp): no one
// can rename or remove another's entry in it.
std::string unsafe_stat(const fs::path& path, const struct stat& st) {
  const bool sticky_root = S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX) != 0 && st.st_uid == 0;
  if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0 && !sticky_root) {
    return fmt::format("{} is writable by other users (mode {:o})", path.string(),
                       st.st_mode & 07777);
  }
  if (st.st_uid != ::geteuid() && st.st_uid != 0) {
    return fmt::format("{} belongs to another user (uid {})", path.string(), st.st_uid);
  }
  return {};
}

// Why a folder on the way to `path` lets another user swap what is loaded,
// as ssh asks of the folders above a key: each from `path` up to `/`, as
// named (a symlink on the way must be ours or root's) and as resolved.
std::string unsafe_way(const fs::path& path) {
  std::error_code ec;
  const fs::path named = fs::absolute(path, ec).lexically_normal();
  const fs::path resolved = fs::canonical(path, ec);
  if (ec) {
    return "cannot be read";
  }
  for (const fs::path& start : {named.parent_path(), resolved.parent_path()}) {
    for (fs::path at = start;; at = at.parent_path()) {
      struct stat st {};
      if (::lstat(at.c_str(), &st) != 0) {
        return fmt::format("{} cannot be read", at.string());
      }
      auto reason = S_ISLNK(st.st_mode) ? (st.st_uid != ::geteuid() && st.st_uid != 0
                                               ? fmt::format("{} is a symlink of another user's "
                                                             "(uid {})",
                                                             at.string(), st.st_uid)
                                               : std::string())
                                        : unsafe_stat(at, st);
      if (!reason.empty()) {
        return "a folder on its way: " + reason;
      }
      if (at == at.parent_path()) {
        break;
      }
    }
  }
  return {};
}

} // namespace

std::string unsafe_reason(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    return "cannot be read";
  }
  if (auto reason = unsafe_stat(path, st); !reason.empty()) {
    return reason;
  }
  return unsafe_way(path);
}

fs::path builtin_rule_folder() {
  const auto exe = platform::executable_path();
  if (!exe) {
    return {};
  }
  return (exe->parent_path() / ".." / "lib" / "engram" / "rules").lexically_normal();
}

void Host::load_folder(const fs::path& folder) {
  auto refuse = [&](std::string reason) {
    spdlog::warn("plugin folder {} refused: {}", folder.string(), reason);
    m_refused.push_back({folder.string(), std::move(reason)});
  };
  std::error_code ec;
  if (!fs::exists(folder, ec)) {
    return refuse("folder does not exist");
  }
  if (!fs::is_directory(folder, ec)) {
    return refuse("not a folder");
  }
  if (auto reason = unsafe_reason(folder); !reason.empty()) {
    return refuse("folder refused: " + reason);
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder, ec)) {
    if (entry.path().extension() == ".so" || entry.path().extension() == ".dylib") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  for (const auto& file : files) {
    load_file(file);
  }
}

namespace {

// Loads `library` through `fd`, the descriptor `file` was opened and checked
// through; why it cannot be loaded, or "" when it is.
std::string load_library(boost::dll::shared_library& library, [[maybe_unused]] int fd,
                         const fs::path& file) {
  boost::dll::fs::error_code ec;
  // Where the system has no path for a descriptor, the checks before loading are the guard.
  const fs::path loaded = platform::path_of_descriptor(fd).value_or(file);
  library.load(loaded, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
  if (!ec) {
    return {};
  }
  // Boost.DLL reports every dlopen failure as "Bad file descriptor"; dlerror
  // still holds the loader's own reason (bad ELF header, undefined symbol, ...).
  const char* loader_reason = ::dlerror();
  std::string reason = loader_reason != nullptr ? loader_reason : ec.message();
  // The loader names the descriptor's path; the user knows the file.
  for (auto at = reason.find(loaded.string()); at != std::string::npos;
       at = reason.find(loaded.string(), at + file.string().size())) {
    reason.replace(at, loaded.string().size(), file.string());
  }
  return fmt::format("cannot be loaded: {}", reason);
}

// Why a descriptor's versions keep it out, or "" when they let it in: the
// rule ABI first (the field every descriptor starts with), then the SDK
// policy of docs/sdk.md: the same major version, and a minor version no
// newer than engram's, whose interfaces only appended to the plugin's.
std::string version_reason(const PluginDescriptor& descriptor) {
  if (descriptor.abi_version < k_abi_version) {
    return fmt::format("built with an SDK before 1.0 (rule ABI {}), engram has SDK {} (rule ABI "
                       "{}): rebuild it against this SDK",
                       descriptor.abi_version, k_sdk_version, k_abi_version);
  }
  if (descriptor.abi_version != k_abi_version) {
    return fmt::format("built for rule ABI {}, engram has rule ABI {} (SDK {}): it needs a "
                       "newer engram",
                       descriptor.abi_version, k_abi_version, k_sdk_version);
  }
  if (descriptor.sdk_major != k_sdk_major || descriptor.sdk_minor < 0 ||
      descriptor.sdk_minor > k_sdk_minor) {
    return fmt::format("built with SDK {}.{}, engram has SDK {} and loads plugins built with SDK "
                       "{}.0 to {}.{}",
                       descriptor.sdk_major, descriptor.sdk_minor, k_sdk_version, k_sdk_major,
                       k_sdk_major, k_sdk_minor);
  }
  return {};
}

} // namespace

void Host::load_file(const fs::path& file) {
  auto refuse = [&](std::string reason) {
    spdlog::warn("plugin {} refused: {}", file.string(), reason);
    m_refused.push_back({file.string(), std::move(reason)});
  };
  if (auto reason = unsafe_reason(file); !reason.empty()) {
    return refuse(reason);
  }
  // Opened once and loaded through that descriptor, so what was checked is
  // what is loaded: a file swapped in after the check is never read.
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (fd >= 0) {
      ::close(fd);
    }
    return refuse("cannot be opened as a file");
  }
  if (auto reason = unsafe_stat(file, st); !reason.empty()) {
    ::close(fd);
    return refuse(reason);
  }
  fault_point("plugin-checked-" + file.filename().string());
  // The plugin owns the descriptor and the library from here: a refusal below
  // unloads the library and closes the descriptor once it is recorded.
  auto plugin = std::make_unique<Plugin>();
  plugin->fd = fd;
  if (auto reason = load_library(plugin->library, fd, file); !reason.empty()) {
    return refuse(reason);
  }
  if (auto reason = admit(*plugin, file); !reason.empty()) {
    return refuse(reason);
  }
  spdlog::debug("loaded rule {} {} from {}", plugin->info.name, plugin->info.version,
                file.string());
  m_plugins.push_back(std::move(plugin));
}

std::string Host::admit(Plugin& plugin, const fs::path& file) const {
  if (!plugin.library.has("engram_plugin_descriptor")) {
    return "no engram_plugin_descriptor symbol: not an engram rule plugin";
  }
  if (!plugin.library.has("engram_plugin_create")) {
    return "no engram_plugin_create symbol";
  }
  const auto& descriptor =
      plugin.library.get_alias<const PluginDescriptor>("engram_plugin_descriptor");
  if (auto reason = version_reason(descriptor); !reason.empty()) {
    return reason;
  }
  const std::string sdk = fmt::format("{}.{}", descriptor.sdk_major, descriptor.sdk_minor);
  const std::string name = descriptor.name == nullptr ? "" : descriptor.name;
  if (name.empty() ||
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_") != std::string::npos) {
    return fmt::format("rule name '{}' is not a lower-case word", name);
  }
  if (static_cast<int>(descriptor.phase) < static_cast<int>(Phase::guard) ||
      static_cast<int>(descriptor.phase) > static_cast<int>(Phase::index)) {
    return fmt::format("unknown phase {}", static_cast<int>(descriptor.phase));
  }
  for (const auto& other : m_plugins) {
    if (other->info.name == name) {
      return fmt::format("rule '{}' is already loaded from {}", name, other->info.path);
    }
  }
  plugin.info = LoadedPlugin{name,
                             file.string(),
                             descriptor.version == nullptr ? "" : descriptor.version,
                             sdk,
                             descriptor.description == nullptr ? "" : descriptor.description,
                             descriptor.phase,
                             descriptor.lightweight};
  auto& create = plugin.library.get_alias<RuleFactory>("engram_plugin_create");
  try {
    plugin.rule.reset(create());
  } catch (const std::exception& e) {
    return fmt::format("its factory threw: {}", e.what());
  } catch (...) {
    return "its factory threw";
  }
  if (!plugin.rule) {
    return "its factory returned no rule";
  }
  return {};
}

std::vector<engine::RuleSlot> Host::slots() const {
  std::vector<engine::RuleSlot> out;
  for (const auto& plugin : m_plugins) {
    out.push_back(
        {plugin->info.name, plugin->info.phase, plugin->info.lightweight, plugin->rule.get()});
  }
  return out;
}

std::vector<LoadedPlugin> Host::loaded() const {
  std::vector<LoadedPlugin> out;
  for (const auto& plugin : m_plugins) {
    out.push_back(plugin->info);
  }
  return out;
}

} // namespace engram::plugins
