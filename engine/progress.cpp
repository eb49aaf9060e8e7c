// Progress told from inside staging, through the Admit every staged file passes.
#include "engine/progress.hpp"

#include <algorithm>
#include <memory>

namespace engram::engine {

git::Admit counting(git::Admit admit, Progress* progress, std::string step, std::size_t total) {
  if (progress == nullptr) {
    return admit;
  }
  auto done = std::make_shared<std::size_t>(0);
  git::Admit::Check judge = std::move(admit.check);
  admit.check = [judge = std::move(judge), progress, step = std::move(step), total,
                 done](const std::string& path, std::string_view bytes) {
    // A file asked about twice (it changed while staged) counts once more:
    // the count stops at the total rather than pass it.
    *done = std::min(*done + 1, total);
    progress->update(step, *done, total, "files");
    return judge ? judge(path, bytes) : true;
  };
  return admit;
}

} // namespace engram::engine
