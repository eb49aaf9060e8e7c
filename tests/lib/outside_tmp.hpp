// Where the sandboxes of tests that install a systemd unit go. Integration
// tests only (it needs ENGRAM_BUILD_DIR).
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace engram::test {

// A folder not under /tmp or /var/tmp, which a unit's PrivateTmp=yes hides
// from its daemon, so `service install` would refuse a store there: the
// build folder, unless the clone itself is under one of them; then a folder
// of the user's cache (each sandbox in it removes itself).
inline std::filesystem::path outside_tmp() {
  namespace fs = std::filesystem;
  const auto hidden = [](const fs::path& path) {
    const std::string where = fs::weakly_canonical(path).string() + "/";
    return where.starts_with("/tmp/") || where.starts_with("/var/tmp/");
  };
  const char* home = std::getenv("HOME");
  if (!hidden(ENGRAM_BUILD_DIR) || home == nullptr || *home == '\0' || hidden(home)) {
    return fs::path(ENGRAM_BUILD_DIR) / "test-sandboxes";
  }
  return fs::path(home) / ".cache" / "engram-test-sandboxes";
}

} // namespace engram::test
