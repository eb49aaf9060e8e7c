// Recall: the steps in order; the usage line is written last, and only for
// what was actually returned.
#include "recall/recall.hpp"

#include "base/error.hpp"

#include "recall/keywords.hpp"
#include "recall/rank.hpp"
#include "recall/recall_index.hpp"
#include "usage/log.hpp"

#include <chrono>
#include <spdlog/spdlog.h>

namespace engram::recall {

Result recall(const std::filesystem::path& root, const store::Layout& layout,
              const Request& request) {
  Result result;
  result.keywords = keywords_of(request.query);
  if (result.keywords.empty()) {
    return result;
  }
  const auto started = std::chrono::steady_clock::now();
  const auto index = load(root, layout);
  if (!index) {
    return result;
  }
  result.indexed = true;
  const auto loaded = std::chrono::steady_clock::now();
  result.selection = select(*index, rank(*index, result.keywords, request.today,
                                            request.limits.limit + k_extra_tries), root,
                            request.limits);
  // For whoever profiles a large store (--log-level debug; the benchmark reads it).
  const auto ms = [](auto from, auto to) {
    return std::chrono::duration<double, std::milli>(to - from).count();
  };
  const auto done = std::chrono::steady_clock::now();
  spdlog::debug("recall took {:.2f} ms: index {:.2f} ms ({} entries), rank and read {:.2f} ms",
                ms(started, done), ms(started, loaded), index->size(), ms(loaded, done));
  if (request.note == NoteUse::yes && !result.selection.memories.empty()) {
    usage::Event event;
    event.kind = usage::EventKind::recall;
    event.date = request.today;
    event.query = request.query;
    event.session = request.session;
    for (const auto& memory : result.selection.memories) {
      event.files.push_back(memory.path);
    }
    try {
      usage::append(root, layout, event);
    } catch (const Error& error) {
      result.unnoted = error.what();
    }
  }
  return result;
}

} // namespace engram::recall
