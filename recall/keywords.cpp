// Keywords: words_of() splits, the claims' stopword list filters, and
// canonical_tag() stems, exactly as tags are compared elsewhere.
#include "recall/keywords.hpp"

#include "claims/tokens.hpp"
#include "claims/words.hpp"
#include "store/tags.hpp"

#include <algorithm>

namespace engram::recall {

namespace {

// Sorts and removes repeats.
void sort_unique(std::vector<std::string>& words) {
  std::sort(words.begin(), words.end());
  words.erase(std::unique(words.begin(), words.end()), words.end());
}

} // namespace

std::vector<std::string> keywords_of(std::string_view text) {
  std::vector<std::string> out;
  for (auto& word : claims::words_of(text)) {
    std::erase(word, '\'');
    if (word.size() < 2 || claims::is_stopword(word)) {
      continue;
    }
    // A word with inner separators ("v1.2") stems part by part, as a tag would.
    for (auto& part : tag_keywords(word)) {
      out.push_back(std::move(part));
    }
  }
  sort_unique(out);
  return out;
}

std::vector<std::string> tag_keywords(std::string_view tag) {
  std::vector<std::string> out;
  const std::string canonical = store::canonical_tag(tag);
  std::size_t start = 0;
  while (start < canonical.size()) {
    const auto end = std::min(canonical.find('-', start), canonical.size());
    if (end > start) {
      out.push_back(canonical.substr(start, end - start));
    }
    start = end + 1;
  }
  sort_unique(out);
  return out;
}

} // namespace engram::recall
