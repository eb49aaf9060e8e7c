// Other processes as /proc shows them: for tests of the children a command
// leaves behind (engine/held_files.hpp), which are not the test's to wait for.
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace engram::test {

// Where each descriptor of process `pid` points, sorted (none once it has ended).
inline std::vector<std::string> descriptors_of(pid_t pid) {
  std::vector<std::string> out;
  std::error_code error;
  const auto folder = std::filesystem::path("/proc") / std::to_string(pid) / "fd";
  for (const auto& fd : std::filesystem::directory_iterator(folder, error)) {
    std::error_code unreadable;
    const auto target = std::filesystem::read_symlink(fd.path(), unreadable);
    if (!unreadable) {
      out.push_back(target.string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A process seen in /proc.
struct SeenProcess {
  pid_t pid = 0;
  pid_t parent = 0;
  char state = 0; // R, S, D, T (stopped), Z (ended, not yet reaped), …
};

// Every process whose name (comm) is `name`.
inline std::vector<SeenProcess> processes_named(std::string_view name) {
  std::vector<SeenProcess> out;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const auto id = entry.path().filename().string();
    if (id.find_first_not_of("0123456789") != std::string::npos) {
      continue;
    }
    std::ifstream in(entry.path() / "stat");
    std::string stat; // pid (comm) state ppid …
    std::getline(in, stat);
    const auto open = stat.find('(');
    const auto close = stat.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close < open ||
        std::string_view(stat).substr(open + 1, close - open - 1) != name) {
      continue;
    }
    SeenProcess seen;
    seen.pid = static_cast<pid_t>(std::stoi(id));
    int parent = 0;
    if (std::sscanf(stat.c_str() + close + 1, " %c %d", &seen.state, &parent) == 2) {
      seen.parent = static_cast<pid_t>(parent);
      out.push_back(seen);
    }
  }
  return out;
}

} // namespace engram::test
