// Tests of the promotion rule's parts: evidence kept in a comment and read
// back (rules/promotion/evidence.hpp), CORE.md rendered and parsed
// (core_file.hpp), core blocks packed within their limits at claim
// boundaries (core_blocks.hpp), and Deep Truths found across sessions and
// kept or dropped (deep_truths.hpp) against a real store model, and a
// claim's one line (claim_text.hpp) checked against its first definition.
#include "../../rules/promotion/block_sources.hpp"
#include "../../rules/promotion/core_blocks.hpp"
#include "../../rules/promotion/core_file.hpp"
#include "../../rules/promotion/deep_truths.hpp"
#include "../../rules/promotion/evidence.hpp"
#include "lib/store_model.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using namespace engram;
namespace promotion = engram::promotion;

namespace {

const Date k_today(2026, 11, 22);

// An episodic session file of `day` with `body`.
std::string session(const std::string& day, const std::string& body) {
  return "---\ntype: episodic\ntags: [work]\ncreated: " + day + "\n---\n" + body;
}

using Files = std::map<std::string, std::string>;

// A store model of `files` (path → bytes) on k_today, as the promotion rule sees it.
struct Model : test::StoreModel {
  explicit Model(const std::map<std::string, std::string>& files)
      : test::StoreModel(files, k_today, "promotion") {}
};

const std::string k_claim = "- Always run the migrations before the seed script.\n";

// The code points of a block's lines, as pack_block counts them.
std::size_t measured(const promotion::BlockOutput& block) {
  std::size_t n = 0;
  for (const auto& line : block.lines) {
    n += text::count_chars(line) + 1;
  }
  return n;
}

} // namespace

TEST_CASE("evidence written beside a truth reads back the same, odd paths included") {
  promotion::Evidence evidence;
  evidence.add({Date(2026, 11, 8), "episodic/2026-11-08-c.md"});
  evidence.add({Date(2026, 11, 1), "episodic/2026-11-01-a, b;c>d.md"});
  evidence.add({Date(2026, 11, 4), "episodic/2026-11-04-b.md"});
  evidence.memory = promotion::MemoryEvidence{"semantic/deploy.md", 20, 19, 1, Date(2026, 8, 1)};
  const auto comment = promotion::evidence_comment(evidence);
  CHECK(comment ==
        "<!-- evidence: 3 sessions over 7 days: 2026-11-01 episodic/2026-11-01-a%2C b%3Bc%3Ed.md, "
        "2026-11-04 episodic/2026-11-04-b.md, 2026-11-08 episodic/2026-11-08-c.md; memory "
        "semantic/deploy.md, 20 uses, 19 helpful, 1 unhelpful, since 2026-08-01 -->");
  const auto back = promotion::parse_evidence(comment);
  REQUIRE(back);
  CHECK(*back == evidence);
  CHECK(back->span_days() == 7);
  CHECK(back->strength() == 3 + 19);
  CHECK_FALSE(promotion::parse_evidence("<!-- evidence: someone's note -->"));
  CHECK_FALSE(promotion::parse_evidence("<!-- superseded 2026-01-01: previously \"x\" -->"));
}

TEST_CASE("a session already in the evidence is not counted twice") {
  promotion::Evidence evidence;
  evidence.add({Date(2026, 11, 1), "episodic/a.md"});
  evidence.add({Date(2026, 11, 1), "episodic/a.md"});
  CHECK(evidence.sessions.size() == 1);
}

TEST_CASE("CORE.md reads back its shown and held-back truths with their evidence") {
  promotion::Evidence e1;
  e1.add({Date(2026, 11, 1), "episodic/a.md"});
  e1.add({Date(2026, 11, 9), "episodic/b.md"});
  promotion::Evidence e2;
  e2.memory = promotion::MemoryEvidence{"semantic/x.md", 16, 15, 1, std::nullopt};
  promotion::CoreDocument doc;
  doc.cap = 1;
  doc.truths = {{"Deploys need the VPN.", e1}};
  doc.held_back = {{"A claim with --> inside.", e2}};
  doc.blocks = {promotion::pack_block({"user_profile", {"Likes tea."}}, 500)};
  const auto bytes = promotion::render_core(doc);
  CHECK_THAT(bytes, Catch::Contains("## Deep Truths\n\n- Deploys need the VPN.\n  <!-- evidence: "
                                    "2 sessions over 8 days: 2026-11-01 episodic/a.md, 2026-11-09 "
                                    "episodic/b.md -->\n"));
  CHECK_THAT(bytes, Catch::Contains("<!-- held back: A claim with --&gt; inside. -->\n"));
  CHECK_THAT(bytes, Catch::Contains("## user_profile\n\n- Likes tea.\n"));
  CHECK_FALSE(bytes.ends_with("\n\n"));
  const auto truths = promotion::parse_truths(bytes);
  REQUIRE(truths.size() == 2);
  CHECK(truths[0].text == "Deploys need the VPN.");
  CHECK(truths[0].evidence == e1);
  CHECK(truths[1].text == "A claim with --> inside.");
  CHECK(truths[1].evidence == e2);
  // The same document renders the same bytes.
  CHECK(promotion::render_core(doc) == bytes);
}

TEST_CASE("a block shows whole claims within its limit and says how many it left out") {
  std::vector<std::string> items;
  for (int i = 0; i < 9; ++i) {
    items.push_back("Fact number " + std::to_string(i) + " is a claim of about forty chars.");
  }
  const auto block = promotion::pack_block({"user_profile", items}, 150);
  CHECK(block.chars <= 150);
  CHECK(block.chars == measured(block));
  CHECK(block.shown == 2);
  CHECK(block.more == 7);
  CHECK(block.lines.back() == "- … and 7 more not shown (over this block's limit)");
  for (std::size_t i = 0; i < block.shown; ++i) {
    CHECK(block.lines[i] == "- " + items[i]); // whole, in rank order
  }
  // Claims that all fit need no note, and none is cut for one.
  const promotion::BlockInput two{"user_profile", {items[0], items[1]}};
  const auto exact = promotion::pack_block(two, promotion::full_size(two));
  CHECK(exact.shown == 2);
  CHECK(exact.more == 0);
  CHECK(exact.lines == std::vector<std::string>{"- " + items[0], "- " + items[1]});
  // At most five are shown even with room for more.
  const auto roomy = promotion::pack_block({"user_profile", items}, 5000);
  CHECK(roomy.shown == 5);
  CHECK(roomy.more == 4);
}

TEST_CASE("a first claim too long for its block is cut between words, never inside one") {
  const std::string item =
      "Supercalifragilistic expialidocious words keep going well past the limit";
  const auto block = promotion::pack_block({"project_context", {item}}, 40);
  REQUIRE(block.shown == 1);
  CHECK(block.lines[0] == "- Supercalifragilistic expialidocious…");
  CHECK(block.chars <= 40);
  CHECK(promotion::cut_at_word("Unbreakableword", 10).empty());
}

TEST_CASE("blocks share the total limit so none is starved, each within its own") {
  std::vector<promotion::BlockInput> inputs;
  for (const char* name : {"user_profile", "project_context", "behavioral_patterns",
                           "active_decisions", "learned_preferences"}) {
    std::vector<std::string> items;
    for (int i = 0; i < 12; ++i) {
      items.push_back(std::string(name) + " item " + std::to_string(i) +
                      " says something long enough to need the room here.");
    }
    inputs.push_back({name, items});
  }
  inputs.push_back({"empty", {}});
  const auto blocks = promotion::pack_blocks(inputs, 500, 2000);
  REQUIRE(blocks.size() == 5); // an empty block is left out
  std::size_t total = 0;
  for (const auto& block : blocks) {
    INFO(block.name);
    CHECK(block.chars <= 500);
    CHECK(block.chars == measured(block));
    CHECK(block.shown >= 1);
    CHECK(block.more == 12 - block.shown);
    total += block.chars;
  }
  CHECK(total <= 2000);
}

TEST_CASE("a claim stated in three sessions across a week becomes a Deep Truth") {
  Model model(Files{{"episodic/2026-11-01-a.md", session("2026-11-01", k_claim + "- Only in A.\n")},
                    {"episodic/2026-11-04-b.md",
                     session("2026-11-04", "- always run the migrations before the seed script\n")},
                    {"episodic/2026-11-08-c.md", session("2026-11-08", k_claim)}});
  const auto out = promotion::deep_truths(*model.workspace, {}, {});
  REQUIRE(out.shown.size() == 1);
  CHECK(out.shown[0].text == "Always run the migrations before the seed script.");
  CHECK(out.shown[0].evidence.sessions.size() == 3);
  CHECK(out.shown[0].evidence.span_days() == 7);
  CHECK(out.promoted.size() == 1);
}

TEST_CASE("two sessions, or three within three days, are not enough") {
  Model two(Files{{"episodic/2026-11-01-a.md", session("2026-11-01", k_claim)},
                  {"episodic/2026-11-20-b.md", session("2026-11-20", k_claim)}});
  CHECK(promotion::deep_truths(*two.workspace, {}, {}).shown.empty());
  Model close(Files{{"episodic/2026-11-01-a.md", session("2026-11-01", k_claim)},
                    {"episodic/2026-11-02-b.md", session("2026-11-02", k_claim)},
                    {"episodic/2026-11-03-c.md", session("2026-11-03", k_claim)}});
  CHECK(promotion::deep_truths(*close.workspace, {}, {}).shown.empty());
}

TEST_CASE("a truth keeps its evidence when its sessions are gone, and leaves when superseded") {
  promotion::Evidence evidence;
  evidence.add({Date(2026, 8, 1), "episodic/2026-08-01-a.md"});
  evidence.add({Date(2026, 8, 4), "episodic/2026-08-04-b.md"});
  evidence.add({Date(2026, 8, 9), "episodic/2026-08-09-c.md"});
  const promotion::Truth truth{"Always run the migrations before the seed script.", evidence};
  Model decayed(Files{{"semantic/db.md", "---\ntype: semantic\ntags: [db]\n---\n" + k_claim}});
  const auto kept = promotion::deep_truths(*decayed.workspace, {truth}, {});
  REQUIRE(kept.shown.size() == 1);
  CHECK(kept.shown[0].evidence == evidence);
  CHECK(kept.promoted.empty());
  CHECK(kept.dropped.empty());

  Model superseded(Files{
      {"semantic/db.md",
       "---\ntype: semantic\ntags: [db]\n---\n- Never run the migrations before the seed script.\n"
       "  <!-- superseded 2026-10-01: previously \"- Always run the migrations before the seed "
       "script.\" -->\n"}});
  const auto gone = promotion::deep_truths(*superseded.workspace, {truth}, {});
  CHECK(gone.shown.empty());
  REQUIRE(gone.dropped.size() == 1);
  CHECK(gone.dropped[0].reason == "superseded on 2026-10-01 in semantic/db.md");

  Model archived(
      Files{{"archive/semantic/db.md", "---\ntype: semantic\ntags: [db]\n---\n" + k_claim}});
  const auto retired = promotion::deep_truths(*archived.workspace, {truth}, {});
  CHECK(retired.shown.empty());
  REQUIRE(retired.dropped.size() == 1);
  CHECK(retired.dropped[0].reason == "its memory was archived to archive/semantic/db.md");
}

TEST_CASE(
    "a heavily used, helpful, month-old memory is promoted, and a young or unhelpful one is not") {
  const auto memory = [](const std::string& created, int uses, int helpful, int unhelpful) {
    return "---\ntype: semantic\ntags: [deploy]\ncreated: " + created +
           "\nuses: " + std::to_string(uses) + "\nhelpful: " + std::to_string(helpful) +
           "\nunhelpful: " + std::to_string(unhelpful) + "\n---\n- Deploys go through the VPN.\n";
  };
  Model model(Files{{"semantic/proven.md", memory("2026-09-01", 20, 18, 2)},
                    {"semantic/young.md", memory("2026-11-01", 20, 20, 0)},
                    {"semantic/unhelpful.md", memory("2026-01-01", 40, 10, 30)}});
  const auto out = promotion::deep_truths(*model.workspace, {}, {});
  REQUIRE(out.shown.size() == 1);
  REQUIRE(out.shown[0].evidence.memory);
  CHECK(out.shown[0].evidence.memory->path == "semantic/proven.md");
  CHECK(out.shown[0].text == "Deploys go through the VPN.");
}

TEST_CASE("the cap keeps the best-proven truths and holds the rest back, in a stable order") {
  std::map<std::string, std::string> files;
  for (int i = 0; i < 4; ++i) {
    const auto claim = "- Service " + std::string(1, static_cast<char>('a' + i)) +
                       " restarts need a ticket number " + std::to_string(100 + i) + ".\n";
    // Claim i is stated in 3 + i sessions a week apart.
    for (int s = 0; s < 3 + i; ++s) {
      const auto day = Date(2026, 10, 1).plus_days(7 * s).to_string();
      files["episodic/" + day + "-s" + std::to_string(i) + ".md"] = session(day, claim);
    }
  }
  Model model(files);
  promotion::TruthSettings settings;
  settings.cap = 2;
  const auto out = promotion::deep_truths(*model.workspace, {}, settings);
  REQUIRE(out.shown.size() == 2);
  CHECK_THAT(out.shown[0].text, Catch::StartsWith("Service d"));
  CHECK_THAT(out.shown[1].text, Catch::StartsWith("Service c"));
  REQUIRE(out.held_back.size() == 2);
  CHECK_THAT(out.held_back[0].text, Catch::StartsWith("Service b"));
  CHECK(out.not_kept == 0);

  // At most as many are held back as are shown; the rest are counted, and the file says so.
  settings.cap = 1;
  const auto tight = promotion::deep_truths(*model.workspace, {}, settings);
  CHECK(tight.shown.size() == 1);
  CHECK(tight.held_back.size() == 1);
  CHECK(tight.not_kept == 2);
  CHECK(tight.promoted.size() == 2);
  promotion::CoreDocument doc{tight.shown, tight.held_back, tight.not_kept, 1, {}};
  CHECK_THAT(promotion::render_core(doc),
             Catch::Contains("2 more proven claims rank below these and are not kept"));
}

TEST_CASE("core blocks follow the seed's sources and never repeat a Deep Truth") {
  Model model(Files{
      {"semantic/used.md", "---\ntype: semantic\nuses: 5\n---\n- The user works in Berlin.\n"},
      {"semantic/unused.md", "---\ntype: semantic\n---\n- Nobody asked about this.\n"},
      {"episodic/2026-11-20-x.md", session("2026-11-20", "- Newest session note.\n")},
      {"episodic/2026-11-10-y.md", session("2026-11-10", "- Older session note.\n")},
      {"procedural/feedback.md",
       "---\ntype: procedural\nconfidence: high\nuses: 4\n---\n## Reviews\n\n- Always squash "
       "before merging.\n- We decided to ship on Tuesdays.\n"},
      {"semantic/prefs.md",
       "---\ntype: semantic\nconfidence: high\n---\n- The user prefers tabs over spaces.\n"}});
  const std::vector<promotion::Truth> shown = {{"The user works in Berlin.", {}}};
  const auto blocks = promotion::block_inputs(*model.workspace, shown);
  REQUIRE(blocks.size() == 5);
  CHECK(blocks[0].name == "user_profile");
  CHECK(blocks[0].items.empty()); // its one used fact is a Deep Truth already
  CHECK(blocks[1].items == std::vector<std::string>{"Newest session note.", "Older session note."});
  // Instructions are patterns; the decision recorded beside them is a decision.
  CHECK(blocks[2].items == std::vector<std::string>{"Always squash before merging."});
  CHECK(blocks[3].items == std::vector<std::string>{"We decided to ship on Tuesdays."});
  CHECK(blocks[4].items == std::vector<std::string>{"The user prefers tabs over spaces."});
}

namespace {

// claim_line as it was first written (split_markers, one_line, then copies
// at each step; its blanks collapsed another way): the one-pass version must
// give the same line for any text.
std::string claim_line_reference(std::string_view claim) {
  std::string text = knowledge::one_line(knowledge::split_markers(claim).own);
  const auto start = text.find_first_not_of(" \t");
  text = start == std::string::npos ? std::string() : text.substr(start);
  if (text::starts_list_item(text)) {
    text = text.substr(text.find(' ') + 1);
  }
  for (std::string_view box : {"[ ] ", "[x] ", "[X] "}) {
    if (text.starts_with(box)) {
      text = text.substr(box.size());
    }
  }
  // Tabs as spaces, each run of spaces as one, none at either end.
  std::replace(text.begin(), text.end(), '\t', ' ');
  text.erase(
      std::unique(text.begin(), text.end(), [](char a, char b) { return a == ' ' && b == ' '; }),
      text.end());
  const auto first = text.find_first_not_of(' ');
  return first == std::string::npos ? std::string()
                                    : text.substr(first, text.find_last_not_of(' ') - first + 1);
}

} // namespace

TEST_CASE("a claim's line is the same whatever markers, list marks, boxes and blanks it has") {
  const std::vector<std::string> cases = {
      "",
      " \t\r\n",
      "- The bridge sends faxes.",
      "  * [ ] Restart the  queue\tat noon.  \n",
      "12. [x] [X] done\r\n",
      "-\tTab after the dash splits at the first space",
      "+ item\n  continued on a second line\n",
      "The limit is 600. <!-- superseded 2026-01-02: previously \"The limit is 500.\" -->\n",
      "<!-- superseded 2026-01-02: previously \"x\" -->\n- Only after the marker",
      "An unclosed <!-- superseded comment stays text",
      "Ends with a marker\n  <!-- superseded 2026-01-02: previously \"y\" -->\n",
      "1) numbered with a paren",
      "1.no space after the dot",
      "\n\n- starts after blank lines"};
  for (const auto& text : cases) {
    INFO(text);
    CHECK(promotion::claim_line(text) == claim_line_reference(text));
  }
  // And texts put together at random from the pieces those are made of.
  const std::vector<std::string_view> pieces = {
      "- ",
      "* ",
      "+ ",
      "1. ",
      "2) ",
      "[ ] ",
      "[x] ",
      "[X] ",
      " ",
      "  ",
      "\t",
      "\n",
      "\r\n",
      "word",
      "two words",
      ".",
      "<!-- superseded 2026-03-04: previously \"old\" -->",
      "<!--",
      "-->",
      "#"};
  std::mt19937 random(11);
  for (int round = 0; round < 2000; ++round) {
    std::string text;
    const auto count = random() % 9;
    for (unsigned i = 0; i < count; ++i) {
      text += pieces[random() % pieces.size()];
    }
    INFO(text);
    CHECK(promotion::claim_line(text) == claim_line_reference(text));
  }
}
