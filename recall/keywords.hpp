// Keywords: the words recall matches on, in the canonical form tags are
// compared in (lower-case, stemmed: `scraper` = `scraping`), stopwords out.
// A query and the index's tags, triggers and summaries go through the same
// function, so they meet in one vocabulary.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace engram::recall {

// The canonical keywords of free text (a query, a summary): sorted, unique;
// stopwords and one-letter words left out.
[[nodiscard]] std::vector<std::string> keywords_of(std::string_view text);

// The canonical keywords of one tag or trigger (`command-not-found` gives
// `command`, `not`, `found`): sorted, unique.
[[nodiscard]] std::vector<std::string> tag_keywords(std::string_view tag);

} // namespace engram::recall
