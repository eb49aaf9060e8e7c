// Canonical tags: the form in which tags are compared (case-folded, stemmed),
// while files keep the tags their authors wrote.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace engram::store {

// The canonical form of one tag: `Scraper`, `scraping` and `scrapers` are equal.
std::string canonical_tag(std::string_view tag);

// The canonical forms of a list of tags, sorted and without repeats.
std::vector<std::string> canonical_tags(const std::vector<std::string>& tags);

// How many canonical tags two sorted canonical lists share.
std::size_t shared_tag_count(const std::vector<std::string>& a, const std::vector<std::string>& b);

} // namespace engram::store
