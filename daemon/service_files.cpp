// Service files: filling the templates' @NAME@ placeholders, for a package or one user.
#include "daemon/service_files.hpp"

#include "base/markup.hpp"
#include "engram_service_templates.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <unistd.h>

namespace engram::daemon {

namespace fs = std::filesystem;

namespace {

// `text` with every `placeholder` replaced by `value`.
std::string fill(std::string text, const std::string& placeholder, const std::string& value) {
  for (auto at = text.find(placeholder); at != std::string::npos;
       at = text.find(placeholder, at + value.size())) {
    text.replace(at, placeholder.size(), value);
  }
  return text;
}

// A command line word for a shell, quoted when it needs to be.
std::string shell_word(const std::string& text) {
  if (text.find_first_of(" \t'\"\\$`") == std::string::npos) {
    return text;
  }
  std::string out = "'";
  for (const char c : text) {
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  }
  return out + "'";
}

// `path` relative to `home` as `~/…` when it lies inside it; else unchanged.
fs::path home_relative(const fs::path& path, const fs::path& home) {
  if (home.empty() || !path.is_absolute()) {
    return path;
  }
  const fs::path relative = path.lexically_normal().lexically_relative(home.lexically_normal());
  if (relative.empty() || *relative.begin() == "..") {
    return path;
  }
  return relative == "." ? fs::path("~") : fs::path("~") / relative;
}

// True when `path` is `folder` or inside it (both in one spelling).
bool within(const std::string& path, const std::string& folder) {
  return path == folder || (path.starts_with(folder) && path[folder.size()] == '/');
}

// The ReadWritePaths= words: each folder once, none inside another, `%h` for
// the home folder (so a unit for the default store reads as the packaged one),
// and `-` before each, so a store that does not exist yet does not keep the
// daemon from starting.
std::string write_path_words(const ServiceParams& params) {
  std::vector<std::string> folders;
  for (const fs::path& path : params.write_paths) {
    std::string folder = home_relative(path, params.home).lexically_normal().string();
    if (folder.size() > 1 && folder.ends_with('/')) {
      folder.pop_back(); // one spelling per folder
    }
    folders.push_back(std::move(folder));
  }
  std::string words;
  for (const std::string& folder : folders) {
    const bool covered = std::any_of(folders.begin(), folders.end(), [&](const std::string& other) {
      return &other != &folder && within(folder, other) && (folder != other || &other < &folder);
    });
    if (covered) {
      continue;
    }
    std::string word = systemd_word("-" + folder);
    if (folder == "~" || folder.starts_with("~/")) {
      // `%h` must stay a specifier: put it in after `%` was doubled.
      const auto at = word.find("-~");
      word.replace(at, 2, "-%h");
    }
    words += (words.empty() ? "" : " ") + word;
  }
  return words;
}

// The systemd user unit.
ServiceFile render_systemd(const ServiceParams& params) {
  ServiceFile file;
  file.path = params.config_home / "systemd" / "user" / "engram.service";
  std::string args;
  if (params.config) {
    args = " --config " + systemd_word(params.config->string());
  }
  std::string text = k_systemd_template;
  text = fill(text, "@ENGRAM_BINARY@", systemd_word(params.binary.string()));
  text = fill(text, "@ENGRAM_GLOBAL_ARGS@", args);
  text = fill(text, "@ENGRAM_WRITE_PATHS@", write_path_words(params));
  file.content = std::move(text);
  file.enable_commands = {"systemctl --user daemon-reload",
                          "systemctl --user enable --now engram.service",
                          "systemctl --user status engram.service"};
  // The file is gone by then, so `disable` could not find it: the enablement
  // link is removed with it, and what is left is stopping the running daemon.
  file.disable_commands = {"systemctl --user stop engram.service",
                           "systemctl --user daemon-reload"};
  return file;
}

// The launchd agent plist.
ServiceFile render_launchd(const ServiceParams& params) {
  ServiceFile file;
  file.path = params.home / "Library" / "LaunchAgents" / "io.engram.daemon.plist";
  std::string args;
  if (params.config) {
    args = "\n    <string>--config</string>\n    <string>" +
           escape_markup(params.config->string()) + "</string>";
  }
  std::string text = k_launchd_template;
  text = fill(text, "@ENGRAM_BINARY@", escape_markup(params.binary.string()));
  text = fill(text, "@ENGRAM_PLIST_ARGS@", args);
  text = fill(text, "@ENGRAM_LOG_FILE@", k_launchd_log_file);
  file.content = std::move(text);
  const std::string plist = shell_word(file.path.string());
  file.enable_commands = {"launchctl bootstrap gui/$(id -u) " + plist,
                          "launchctl print gui/$(id -u)/io.engram.daemon"};
  file.disable_commands = {"launchctl bootout gui/$(id -u)/io.engram.daemon"};
  return file;
}

// Folders a systemd unit with this template's sandbox does not share with the
// rest of the system, and why.
struct HiddenFolder {
  const char* folder;
  const char* reason;
};
constexpr HiddenFolder k_hidden_by_unit[] = {
    {"/tmp", "the unit's PrivateTmp=yes gives the daemon an empty /tmp of its own"},
    {"/var/tmp", "the unit's PrivateTmp=yes gives the daemon an empty /var/tmp of its own"},
    {"/dev", "the unit's PrivateDevices=yes gives the daemon a /dev of its own"},
    {"/proc", "/proc is the kernel's, not a place for files"},
    {"/sys", "/sys is the kernel's, not a place for files"},
};

} // namespace

ServiceManager native_service_manager() {
#ifdef __APPLE__
  return ServiceManager::launchd;
#else
  return ServiceManager::systemd;
#endif
}

ServiceParams packaged_params(const fs::path& binary) {
  ServiceParams params;
  params.binary = binary;
  // The data folder rather than the store, so histories kept outside a store
  // are writable too; systemd's user manager does not see $XDG_DATA_HOME.
  params.write_paths = {"~/.local/share/engram"};
  return params;
}

ServiceFile render_service(ServiceManager manager, const ServiceParams& params) {
  return manager == ServiceManager::systemd ? render_systemd(params) : render_launchd(params);
}

std::optional<std::string> unwritable_reason(ServiceManager manager, const fs::path& store) {
  std::error_code error;
  // Where it really is: a symbolic link into /tmp is as hidden as /tmp.
  const fs::path real = fs::weakly_canonical(fs::absolute(store), error);
  const std::string where = (error ? store : real).string();
  if (manager == ServiceManager::systemd) {
    for (const HiddenFolder& hidden : k_hidden_by_unit) {
      if (within(where, hidden.folder)) {
        return fmt::format("{}: under {}, which the daemon's service cannot write: {}",
                           store.string(), hidden.folder, hidden.reason);
      }
    }
  }
  // The daemon runs as this user: what the user cannot write, neither can it.
  // A store that does not exist yet must be creatable in its nearest folder.
  fs::path probe = error ? store : real;
  while (!fs::exists(probe, error) && probe.has_relative_path()) {
    probe = probe.parent_path();
  }
  if (!fs::is_directory(probe, error)) {
    return fmt::format("{}: {} is a file, where a folder would have to be", store.string(),
                       probe.string());
  }
  if (::access(probe.c_str(), W_OK) != 0) {
    return fmt::format("{}: {} is not writable by you, and the daemon runs as you ({})",
                       store.string(), probe.string(), std::strerror(errno));
  }
  return std::nullopt;
}

std::string systemd_word(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '%') {
      escaped += "%%"; // a specifier otherwise
    } else if (c == '"' || c == '\\') {
      escaped += '\\';
      escaped += c;
    } else {
      escaped += c;
    }
  }
  if (escaped.find_first_of(" \t\"\\") == std::string::npos) {
    return escaped;
  }
  return "\"" + escaped + "\"";
}

} // namespace engram::daemon
