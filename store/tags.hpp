// Canonical tags: the form in which tags are compared (case-folded, stemmed),
// while files keep the tags their authors wrote.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace engram::store {

// The canonical form of one tag: `Scraper`, `scraping` and `scrapers` are equal.
// Each thread remembers the stems of recent words (16,384 slots).
std::string canonical_tag(std::string_view tag);

// Forgets the stems the calling thread remembers: a daemon letting go of a
// store's model lets go of its vocabulary too.
void forget_stems();

// The canonical forms of a list of tags, sorted and without repeats.
std::vector<std::string> canonical_tags(const std::vector<std::string>& tags);

// How many canonical tags two sorted canonical lists share.
std::size_t shared_tag_count(const std::vector<std::string>& a, const std::vector<std::string>& b);

} // namespace engram::store
