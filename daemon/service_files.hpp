// Service files: the systemd user unit and the launchd agent plist, rendered
// for one user from the templates in systemd/ and launchd/ (built into the
// binary), with this binary's path, the stores it may write and where it logs.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace engram::daemon {

// The service managers engram can be installed under.
enum class ServiceManager { systemd, launchd };

// What a rendered service file is made from.
struct ServiceParams {
  std::filesystem::path binary;                   // the engram executable
  std::optional<std::filesystem::path> config;    // --config to pass on, when not the default
  std::vector<std::filesystem::path> write_paths; // the stores (systemd's ReadWritePaths=)
  std::filesystem::path home;                     // the user's home folder
  std::filesystem::path config_home;              // $XDG_CONFIG_HOME, or ~/.config
};

// A service file ready to be written, and how to turn it on and off.
struct ServiceFile {
  std::filesystem::path path;                // where it goes
  std::string content;                       // its bytes
  std::filesystem::path log_dir;             // a folder to create first (launchd logs); empty: none
  std::vector<std::string> enable_commands;  // to run after installing
  std::vector<std::string> disable_commands; // to run before uninstalling
};

// The service manager of this platform: launchd on macOS, systemd elsewhere.
ServiceManager native_service_manager();

// Renders the service file for `manager` with `params`.
ServiceFile render_service(ServiceManager manager, const ServiceParams& params);

// A path as one systemd unit-file word: `%` doubled, quoted when it has spaces.
std::string systemd_word(const std::string& text);

// Text escaped for an XML element's content.
std::string xml_escape(const std::string& text);

} // namespace engram::daemon
