// Held back: the check staging asks about each of the agent's files, and the
// warning that names what was kept out.
#include "engine/held_back.hpp"

#include "store/scan.hpp"
#include "store/secrets.hpp"

#include <algorithm>
#include <spdlog/spdlog.h>

namespace engram::engine {

git::Admit keep_out_secrets(std::vector<HeldBack>& held) {
  return [&held](const std::string& path, std::string_view bytes) {
    const auto found = store::find_secret(bytes);
    if (!found) {
      return true;
    }
    // Staging may ask twice about one file (before and after it changed).
    std::erase_if(held, [&](const HeldBack& h) { return h.path == path; });
    held.push_back(HeldBack{path, found->line, found->kind});
    return false;
  };
}

void report_held_back(const std::filesystem::path& root, const std::vector<HeldBack>& held) {
  for (const auto& file : held) {
    spdlog::warn("{}:{}: looks like {}; held back: not committed, left as it is, and committed "
                 "once the credential is removed",
                 store::printable_path((root / file.path).string()), file.line, file.kind);
  }
}

} // namespace engram::engine
