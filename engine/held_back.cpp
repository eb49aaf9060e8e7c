// Held back: the check staging asks about each of the agent's files, and the
// warning that names what was kept out.
#include "engine/held_back.hpp"

#include "store/conflict_markers.hpp"
#include "store/scan.hpp"
#include "store/secrets.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

namespace engram::engine {

std::string HeldBack::reason() const {
  if (!other.empty()) {
    return other;
  }
  if (kind.empty()) {
    return fmt::format("file is {} bytes, over the limit of {} (scan.max_file_bytes); held back "
                       "unread: not committed, left as it is",
                       size, limit);
  }
  return fmt::format("looks like {}; held back: not committed, left as it is, and committed once "
                     "the credential is removed",
                     kind);
}

git::Admit keep_out_secrets(std::vector<HeldBack>& held, std::uintmax_t max_bytes,
                            const std::filesystem::path& root) {
  // Staging may ask twice about one file (before and after it changed): the last answer stands.
  git::Admit admit([&held, root](const std::string& path, std::string_view bytes) {
    struct stat info {};
    if (::lstat((root / path).c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
        info.st_nlink > 1) {
      std::erase_if(held, [&](const HeldBack& h) { return h.path == path; });
      held.push_back(HeldBack{path, 1, {}, 0, 0,
                              fmt::format("has {} hard links, so its bytes may be a file's "
                                          "outside the store; held back: not committed, left "
                                          "as it is",
                                          info.st_nlink)});
      return false;
    }
    if (const auto conflict = store::conflict_marker_line(bytes)) {
      std::erase_if(held, [&](const HeldBack& h) { return h.path == path; });
      held.push_back(HeldBack{path, *conflict, {}, 0, 0,
                              "holds git's conflict markers; held back: not committed, left as "
                              "it is, and committed once the conflict is resolved"});
      return false;
    }
    // Its name too: a credential used as a file name would be in the tree.
    auto found = store::find_secret(path);
    if (found) {
      found->line = 1;
      found->kind += " in its name";
    } else {
      found = store::find_secret(bytes);
    }
    if (!found) {
      return true;
    }
    std::erase_if(held, [&](const HeldBack& h) { return h.path == path; });
    held.push_back(HeldBack{path, found->line, found->kind, 0, 0, {}});
    return false;
  });
  admit.max_bytes = max_bytes;
  admit.too_large = [&held, max_bytes](const std::string& path, std::uintmax_t size) {
    std::erase_if(held, [&](const HeldBack& h) { return h.path == path; });
    held.push_back(HeldBack{path, 1, {}, size, max_bytes, {}});
  };
  return admit;
}

std::uintmax_t held_back_limit(const config::Settings& settings) {
  return static_cast<std::uintmax_t>(settings.get_int("scan.max_file_bytes"));
}

void report_held_back(const std::filesystem::path& root, const std::vector<HeldBack>& held) {
  for (const auto& file : held) {
    spdlog::warn("{}:{}: {}", store::printable_path((root / file.path).string()), file.line,
                 file.reason());
  }
}

} // namespace engram::engine
