// Tests of what the knowledge-quality rules share (rules/shared/knowledge.hpp):
// a claim and its superseded markers as one unit, markers put beside a claim
// without nesting or repeating, and the guards against automatic edits.
#include "../../rules/shared/knowledge.hpp"

#include <catch2/catch.hpp>

namespace knowledge = engram::knowledge;

namespace {

const std::string k_old_100 =
    "<!-- superseded 2026-06-01: previously \"- The page size is 100.\" -->";
const std::string k_old_50 = "<!-- superseded 2026-05-01: previously \"- The page size is 50.\" -->";

} // namespace

TEST_CASE("a claim splits into its own text and the superseded markers it carries") {
  const auto item = knowledge::split_markers("- The page size is 250.\n  " + k_old_100 + "\n  " +
                                             k_old_50);
  CHECK(item.own == "- The page size is 250.");
  CHECK(item.markers == std::vector<std::string>{k_old_100, k_old_50});

  const auto inline_marker = knowledge::split_markers("The page size is 250. " + k_old_100);
  CHECK(inline_marker.own == "The page size is 250.");
  CHECK(inline_marker.markers.size() == 1);

  // Other comments are part of what the claim says; an unclosed marker is text.
  const auto note = knowledge::split_markers("- Use the bulk API <!-- ask Sam -->");
  CHECK(note.own == "- Use the bulk API <!-- ask Sam -->");
  CHECK(note.markers.empty());
  const auto unclosed = knowledge::split_markers("- Odd <!-- superseded 2026-01-01: never closed");
  CHECK(unclosed.own == "- Odd <!-- superseded 2026-01-01: never closed");
  CHECK(unclosed.markers.empty());
}

TEST_CASE("a marker quotes only a claim's own text, so superseding twice never nests markers") {
  const auto unit = knowledge::split_markers("- The page size is 250.\n  " + k_old_100);
  const auto marker = knowledge::superseded_marker(engram::Date(2026, 11, 22), unit.own);
  CHECK(marker == "<!-- superseded 2026-11-22: previously \"- The page size is 250.\" -->");
  // A claim that holds the end of a comment cannot close the marker early.
  CHECK(knowledge::superseded_marker(engram::Date(2026, 11, 22), "a --> b") ==
        "<!-- superseded 2026-11-22: previously \"a --&gt; b\" -->");
}

TEST_CASE("markers go beside a list item as continuation lines, each at most once") {
  const std::string body = "# Sync\n\n- The page size is 500.\n- Orders sync hourly.\n";
  std::string beside = "- The page size is 500.";
  const auto once = knowledge::with_markers_beside(body, beside, {k_old_100, k_old_50});
  CHECK(once == "# Sync\n\n- The page size is 500.\n  " + k_old_100 + "\n  " + k_old_50 +
                    "\n- Orders sync hourly.\n");
  CHECK(beside == "- The page size is 500.\n  " + k_old_100 + "\n  " + k_old_50);
  // The same history again changes nothing.
  CHECK(knowledge::with_markers_beside(once, beside, {k_old_50, k_old_100}) == once);
}

TEST_CASE("markers beside a sentence follow its paragraph, and go at the end when it is gone") {
  const std::string body = "The page size is 500. It was raised in May.\n\nOther text.\n";
  std::string sentence = "The page size is 500.";
  CHECK(knowledge::with_markers_beside(body, sentence, {k_old_100}) ==
        "The page size is 500. It was raised in May.\n\n" + k_old_100 + "\n\nOther text.\n");
  std::string missing = "- Not in the body.";
  CHECK(knowledge::with_markers_beside("- Something else.\n", missing, {k_old_100}) ==
        "- Something else.\n\n" + k_old_100 + "\n");
}

TEST_CASE("a one-line claim with markers is written as a list item that carries them") {
  const knowledge::MarkedClaim unit{"The page size is 250.", {k_old_100}};
  CHECK(knowledge::entry_with_markers(unit) == "- The page size is 250.\n  " + k_old_100);
  CHECK(knowledge::comments_of("a <!-- x --> b <!-- y --> c <!-- open") ==
        std::vector<std::string>{"<!-- x -->", "<!-- y -->"});
}

TEST_CASE("a claim is found where it stands, not where a marker quotes it or inside a word") {
  const std::string body =
      "- The page size is 250.\n  " + k_old_100 + "\n- Its limit:The page size is 100.\n" +
      "- The page size is 100.\n";
  const auto item = knowledge::find_claim(body, "- The page size is 100.");
  CHECK(item == body.rfind("- The page size is 100."));
  CHECK(knowledge::find_claim(body, "The page size is 100.") == item + 2);
  CHECK(knowledge::find_claim("<!-- - The page size is 50. -->", "- The page size is 50.") ==
        std::string::npos);
  // An unclosed comment is text, as comments_of reads it.
  CHECK(knowledge::find_claim("<!-- open\n- The page size is 50.\n", "- The page size is 50.") ==
        10);
  CHECK(knowledge::find_claim(body, "") == std::string::npos);
}

TEST_CASE("significant words leave out stopwords, short words and comments, and overlap counts the smaller set") {
  auto words = knowledge::raw_significant_words(
      "The REST API returns 250 items per page. " + k_old_100 + " It is 42.");
  std::sort(words.begin(), words.end());
  CHECK(words == std::vector<std::string>{"250", "api", "items", "page", "per", "rest", "returns"});
  const std::vector<std::string> small{"api", "page", "rest"};
  const std::vector<std::string> large{"api", "bulk", "export", "page", "rest"};
  CHECK(knowledge::overlap(small, large) == 1.0);
  CHECK(knowledge::overlap(small, std::vector<std::string>{}) == 0.0);
}
