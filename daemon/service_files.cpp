// Service files: filling the templates' @NAME@ placeholders for one user.
#include "daemon/service_files.hpp"

#include "engram_service_templates.hpp"

#include <fmt/format.h>

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

// The systemd user unit.
ServiceFile render_systemd(const ServiceParams& params) {
  ServiceFile file;
  file.path = params.config_home / "systemd" / "user" / "engram.service";
  std::string args;
  if (params.config) {
    args = " --config " + systemd_word(params.config->string());
  }
  std::string writable;
  for (const fs::path& path : params.write_paths) {
    // `-`: a store that does not exist yet must not keep the daemon from starting.
    writable += (writable.empty() ? "" : " ") + systemd_word("-" + path.string());
  }
  std::string text = k_systemd_template;
  // The placeholder is the install folder; the whole binary path is one word.
  text = fill(text, "@CMAKE_INSTALL_FULL_BINDIR@/engram", systemd_word(params.binary.string()));
  text = fill(text, "@ENGRAM_GLOBAL_ARGS@", args);
  text = fill(text, "@ENGRAM_WRITE_PATHS@", writable);
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
  file.log_dir = params.home / "Library" / "Logs" / "engram";
  std::string args;
  if (params.config) {
    args = "\n    <string>--config</string>\n    <string>" + xml_escape(params.config->string()) +
           "</string>";
  }
  std::string text = k_launchd_template;
  text = fill(text, "@CMAKE_INSTALL_FULL_BINDIR@/engram", xml_escape(params.binary.string()));
  text = fill(text, "@ENGRAM_PLIST_ARGS@", args);
  text = fill(text, "@ENGRAM_LOG_DIR@", xml_escape(file.log_dir.string()));
  file.content = std::move(text);
  const std::string plist = shell_word(file.path.string());
  file.enable_commands = {"launchctl bootstrap gui/$(id -u) " + plist,
                          "launchctl print gui/$(id -u)/io.engram.daemon"};
  file.disable_commands = {"launchctl bootout gui/$(id -u)/io.engram.daemon"};
  return file;
}

} // namespace

ServiceManager native_service_manager() {
#ifdef __APPLE__
  return ServiceManager::launchd;
#else
  return ServiceManager::systemd;
#endif
}

ServiceFile render_service(ServiceManager manager, const ServiceParams& params) {
  return manager == ServiceManager::systemd ? render_systemd(params) : render_launchd(params);
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

std::string xml_escape(const std::string& text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

} // namespace engram::daemon
