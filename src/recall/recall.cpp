// Recall: the steps in order; the usage line is written last, and only for
// what was actually returned.
#include "recall/recall.hpp"

#include "base/error.hpp"

#include "recall/keywords.hpp"
#include "recall/rank.hpp"
#include "recall/recall_index.hpp"
#include "usage/log.hpp"

namespace engram::recall {

Result recall(const std::filesystem::path& root, const store::Layout& layout,
              const Request& request) {
  Result result;
  result.keywords = keywords_of(request.query);
  if (result.keywords.empty()) {
    return result;
  }
  const auto index = load(root, layout);
  if (!index) {
    return result;
  }
  result.indexed = true;
  result.selection = select(*index, rank(*index, result.keywords, request.today), root,
                            request.limits);
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
