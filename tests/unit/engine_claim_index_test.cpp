// The claim index must find exactly what comparing with every claim finds:
// Workspace::related_claims and duplicate_claims against the SDK's own definitions
// (engram::definition, which compares with each claim of each file), over a
// store whose claims duplicate and update each other, before and after edits.
#include "engine/workspace.hpp"
#include "lib/claims_dump.hpp"
#include "lib/temp_dir.hpp"
#include "store/scan.hpp"

#include <catch2/catch.hpp>
#include <random>

using namespace engram;

namespace {

// Claims made of few words, so that many pairs duplicate or update each other.
class ClaimWords {
public:
  explicit ClaimWords(unsigned seed) : m_random(seed) {}

  // A number in [0, n).
  std::size_t below(std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(m_random);
  }

  // One claim.
  std::string claim() {
    static const std::vector<std::string> systems = {"order sync", "refund queue", "tax report",
                                                     "label printer"};
    static const std::vector<std::string> attributes = {"page size", "retry limit", "timeout"};
    const auto& system = systems[below(systems.size())];
    static const std::vector<std::string> days = {"Monday", "Friday"};
    static const std::vector<std::string> times = {"02:00", "03:30"};
    static const std::vector<std::string> versions = {"7", "6.2"};
    switch (below(14)) {
    case 0:
      return "The " + system + " " + attributes[below(attributes.size())] + " is " +
             std::to_string(10 * below(4)) + ".";
    case 1:
      return "The " + system + " " + attributes[below(attributes.size())] + " is not " +
             std::to_string(10 * below(4)) + ".";
    case 2:
      return "Always check the " + system + " before deploying.";
    case 3:
      return "Never restart the " + system + " on Friday.";
    case 4: // an instruction, and below a claim about its object
      return "Send the " + system + " on " + days[below(days.size())] + ".";
    case 5:
      return "The " + system + " was moved to " + days[below(days.size())] + ".";
    case 6: // a subject said in fewer words, the rest in the predicate; below in full
      return "The " + system + " runs nightly at " + times[below(times.size())] + ".";
    case 7:
      return "The nightly " + system + " was moved to " + times[below(times.size())] + ".";
    case 8: { // a move or a switch to a name, and where the thing is or what it uses
      static const std::vector<std::string> verbs = {"moved to",    "has moved to", "lives in",
                                                     "is based in", "switched to",  "uses"};
      static const std::vector<std::string> names = {"Braga",           "Porto",
                                                     "New Haven",       "Salt Lake City",
                                                     "a flat in Porto", "a house in Braga",
                                                     "a standing desk", "a treadmill desk"};
      static const std::vector<std::string> when = {".", " last month.", " in March."};
      return "The " + system + " team " + verbs[below(verbs.size())] + " " +
             names[below(names.size())] + when[below(when.size())];
    }
    case 9: { // a name in a code span or bare (words then, or a value), or a word written
              // whole or in parts, in fewer words or more
      static const std::vector<std::string> names = {"`redis` ",     "redis ",     "`key value` ",
                                                     "key value ",   "key-value ", "keyvalue ",
                                                     "`key-value` ", "`value` "};
      return "The " + system + " cache is " + names[below(names.size())] +
             versions[below(versions.size())] + (below(2) == 0 ? "." : " for sessions.");
    }
    case 10: // values a template shares, and one of its own
      return "Note rw" + std::to_string(below(40)) + "x says the " + system + " ran at " +
             times[below(times.size())] + ".";
    case 11: // an instruction with a value, which an update changes
      return "Restart the " + system + " every " + std::to_string(10 * (1 + below(2))) +
             " minutes.";
    case 12: { // a join, a departure, a change of team; where one works, the team one is on,
               // by names of one word or several
      static const std::vector<std::string> to_names = {
          "joined ", "left ", "works at ", "works for ", "is employed at ", "started at "};
      static const std::vector<std::string> to_teams = {
          "moved to the ",       "joined the ",         "is on the ", "works on the ",
          "transferred to the ", "is a member of the ", "left the ",  "quit the "};
      static const std::vector<std::string> names = {"Umbrella", "Tyrell Corp",
                                                     "Weyland Yutani Corp"};
      static const std::vector<std::string> teams = {"growth", "data platform"};
      static const std::vector<std::string> groups = {" team", " guild"};
      static const std::vector<std::string> when = {".", " last month.", " in May."};
      const std::string changed =
          below(2) == 0 ? to_teams[below(to_teams.size())] + teams[below(teams.size())] +
                              groups[below(groups.size())]
                        : to_names[below(to_names.size())] + names[below(names.size())];
      return "The " + system + " lead " + changed + when[below(when.size())];
    }
    case 13: { // one holder of a thing, and another who holds it (now)
      static const std::vector<std::string> holders = {"Priya", "Marco Rossi", "The data team"};
      static const std::vector<std::string> verbs = {" owns the ", " now owns the ", " leads the ",
                                                     " owns a "};
      return holders[below(holders.size())] + verbs[below(verbs.size())] + system +
             (below(2) == 0 ? "." : " now.");
    }
    default:
      return "The " + system + " runs nightly and " + attributes[below(attributes.size())] +
             " matters.";
    }
  }

  // A body of list items and a paragraph, under headings.
  std::string body() {
    std::string out = "# Notes\n\n";
    for (std::size_t i = 0, n = 1 + below(6); i < n; ++i) {
      out += "- " + claim() + "\n";
    }
    out += "\n## More\n\n" + claim() + " " + claim() + "\n";
    if (below(3) == 0) {
      out += "\n## Solution: stuck " + std::to_string(below(3)) + "\n\n1. " + claim() + "\n2. " +
             claim() + "\n";
    }
    return out;
  }

private:
  std::mt19937 m_random;
};

// Both answers, as comparable text.
std::string dump(const std::vector<ClaimMatch>& matches) {
  std::string out;
  for (const auto& m : matches) {
    out += m.path + "#" + std::to_string(m.index) + " " +
           std::to_string(static_cast<int>(m.relation)) + " " +
           std::to_string(static_cast<int>(m.kind)) + " " + m.text + "\n";
  }
  return out;
}

using test::dump;

} // namespace

TEST_CASE(
    "the claim index finds exactly the claims comparing with every claim finds, edit after edit") {
  for (const double threshold : {0.9, 0.0, 1.0, 0.5}) {
    test::TempDir dir;
    ClaimWords words(static_cast<unsigned>(threshold * 10) + 7);
    for (int f = 0; f < 12; ++f) {
      test::write_file(dir / "semantic" / ("notes-" + std::to_string(f) + ".md"),
                       "---\ntype: semantic\ntags: [a, b]\n---\n" + words.body());
    }
    auto settings = config::Settings::defaults();
    settings.set("rules.episodic-decay.near_duplicate", threshold);
    const store::Layout layout;
    const auto snapshot = store::scan(dir.path(), layout, store::ScanLimits{});
    engine::Workspace workspace(snapshot, layout, settings, Date(2026, 11, 22), RunKind::full);
    workspace.begin_rule("episodic-decay");
    for (int step = 0; step < 60; ++step) {
      const auto incoming = words.claim();
      INFO("threshold " << threshold << ", step " << step << ": " << incoming);
      for (const auto detail : {ClaimDetail::classified, ClaimDetail::unclassified}) {
        REQUIRE(
            dump(workspace.related_claims(incoming, Layer::semantic, detail)) ==
            dump(engram::definition::related_claims(workspace, incoming, Layer::semantic, detail)));
        REQUIRE(dump(workspace.duplicate_claims(incoming, Layer::semantic, detail)) ==
                dump(engram::definition::duplicate_claims(workspace, incoming, Layer::semantic,
                                                          detail)));
      }
      // Every claim of the layer asked at once: what asking one by one finds.
      if (step % 10 == 0) {
        std::vector<std::string> asked{incoming};
        for (const auto& path : workspace.files(Layer::semantic)) {
          for (const auto& claim : workspace.claims_of(path, ClaimDetail::unclassified)) {
            asked.push_back(claim.text);
          }
        }
        // Enough questions for several threads to share them.
        for (std::size_t n = asked.size(); asked.size() < 700;) {
          asked.push_back(asked[asked.size() % n]);
        }
        for (const auto detail : {ClaimDetail::classified, ClaimDetail::unclassified}) {
          const auto each = workspace.related_claims_each(asked, Layer::semantic, detail);
          REQUIRE(each.size() == asked.size());
          for (std::size_t i = 0; i < asked.size(); ++i) {
            INFO(asked[i]);
            REQUIRE(dump(each[i]) ==
                    dump(workspace.related_claims(asked[i], Layer::semantic, detail)));
          }
        }
      }
      // A file's claims from the index are the claims of splitting its body.
      const auto files = workspace.files(Layer::semantic);
      for (const auto& path : files) {
        INFO(path);
        for (const auto detail : {ClaimDetail::classified, ClaimDetail::unclassified}) {
          REQUIRE(dump(workspace.claims_of(path, detail)) ==
                  dump(engram::definition::claims_of(workspace, path, detail)));
        }
      }
      // Edit the store as rules do: append, rewrite, edit in place, create, remove.
      const auto& path = files[words.below(files.size())];
      // A line start in the body, for the edits in place.
      const auto line_start = [&] {
        const auto& body = workspace.body(path);
        const auto at = body.rfind('\n', words.below(body.size() + 1));
        return at == std::string::npos ? std::size_t{0} : at + 1;
      };
      switch (words.below(6)) {
      case 0:
        workspace.set_body(path, workspace.body(path) + "- " + incoming + "\n");
        break;
      case 1:
        workspace.set_body(path, "- " + incoming + "\n" + workspace.body(path));
        break;
      case 3: {
        workspace.replace_in_body(path, line_start(), 0, "- " + incoming + "\n");
        break;
      }
      case 4: {
        // A line replaced by the incoming claim, as superseding does.
        const auto at = line_start();
        const auto& body = workspace.body(path);
        const auto end = body.find('\n', at);
        workspace.replace_in_body(path, at, end == std::string::npos ? body.size() - at : end - at,
                                  "- " + incoming);
        break;
      }
      case 2:
        workspace.write("semantic/new-" + std::to_string(step) + ".md",
                        "---\ntype: semantic\n---\n- " + incoming + "\n");
        break;
      default:
        if (files.size() > 4) {
          workspace.remove(path);
        }
      }
    }
  }
}

TEST_CASE(
    "an edit in place is the edit of the whole body, and one past the body's end is refused") {
  test::TempDir dir;
  test::write_file(dir / "semantic" / "a.md", "---\ntype: semantic\n---\n- one\n- two\n");
  test::write_file(dir / "semantic" / "b.md", "---\ntype: semantic\n---\n- one\n- two\n");
  const store::Layout layout;
  const auto snapshot = store::scan(dir.path(), layout, store::ScanLimits{});
  engine::Workspace workspace(snapshot, layout, config::Settings::defaults(), Date(2026, 11, 22),
                              RunKind::full);
  workspace.begin_rule("episodic-decay");
  workspace.replace_in_body("semantic/a.md", 6, 0, "- one and a half\n");
  engram::definition::replace_in_body(workspace, "semantic/b.md", 6, 0, "- one and a half\n");
  CHECK(workspace.body("semantic/a.md") == "- one\n- one and a half\n- two\n");
  CHECK(workspace.read("semantic/a.md") == workspace.read("semantic/b.md"));
  CHECK(workspace.claims_of("semantic/a.md", ClaimDetail::unclassified).size() == 3);
  CHECK_THROWS_WITH(workspace.replace_in_body("semantic/a.md", 100, 0, "x"),
                    Catch::Contains("past its body's"));
  CHECK(workspace.body("semantic/a.md") == "- one\n- one and a half\n- two\n");
}

namespace {

// A workspace on the store in `dir` of one semantic file, `body`, before any rule runs.
engine::Workspace one_file_workspace(const test::TempDir& dir, const std::string& body) {
  test::write_file(dir / "semantic" / "a.md", "---\ntype: semantic\n---\n" + body);
  const store::Layout layout;
  return engine::Workspace(store::scan(dir.path(), layout, store::ScanLimits{}), layout,
                           config::Settings::defaults(), Date(2026, 11, 22), RunKind::full);
}

// Each of `incoming` finds one claim of the semantic file `body` as its
// update through the claim index, and what comparing with every claim finds.
void check_found_as_update(const std::string& body, std::initializer_list<std::string> incoming) {
  test::TempDir dir;
  auto workspace = one_file_workspace(dir, body);
  workspace.begin_rule("episodic-decay");
  for (const auto& text : incoming) {
    INFO(text);
    const auto found = workspace.related_claims(text, Layer::semantic, ClaimDetail::unclassified);
    REQUIRE(found.size() == 1);
    CHECK(found.front().relation == Relation::update);
    CHECK(dump(found) == dump(engram::definition::related_claims(workspace, text, Layer::semantic,
                                                                 ClaimDetail::unclassified)));
  }
}

// Each claim of `restated` finds the claim at its index in `workspace`'s
// semantic file as its one duplicate through the claim index, and both
// queries answer what comparing with every claim does.
void check_found_as_duplicate(const engine::Workspace& workspace,
                              const std::vector<std::pair<std::string, std::size_t>>& restated) {
  for (const auto& [incoming, index] : restated) {
    INFO(incoming);
    const auto found =
        workspace.duplicate_claims(incoming, Layer::semantic, ClaimDetail::unclassified);
    REQUIRE(dump(found) == dump(engram::definition::duplicate_claims(
                               workspace, incoming, Layer::semantic, ClaimDetail::unclassified)));
    REQUIRE(found.size() == 1);
    CHECK(found.front().index == index);
    CHECK(dump(workspace.related_claims(incoming, Layer::semantic, ClaimDetail::unclassified)) ==
          dump(engram::definition::related_claims(workspace, incoming, Layer::semantic,
                                                  ClaimDetail::unclassified)));
  }
}

} // namespace

TEST_CASE("a claim naming its subject in full finds the claim that says part of it in its "
          "predicate") {
  check_found_as_update(
      "- The order sync runs nightly at 02:00.\n"
      "- Invoice runs happen weekly at 09:00.\n",
      {"The nightly order sync was moved to 03:30.", "The weekly invoice run was moved to 14:00."});
}

TEST_CASE("a name of several words replaced by another is found, as comparing with every "
          "claim finds it") {
  check_found_as_update("- Priya lives in Salt Lake City.\n"
                        "- Dana's manager is Sarah Jane Connor.\n"
                        "- The user works at St. Mary's Hospital.\n",
                        {"Priya now lives in San Diego.", "Dana's manager is now Tom Baker.",
                         "The user now works at Riverside Clinic."});
}

TEST_CASE("a name written in a code span in one claim and bare in another is found either way, "
          "as comparing with every claim finds it") {
  test::TempDir dir;
  auto workspace = one_file_workspace(dir, "- The refund queue cache is `redis` 6.2 for sessions.\n"
                                           "- The order sync cache is redis 7 for sessions.\n"
                                           "- Note rw1x says the tax report ran at 02:00.\n"
                                           "- Note rw2x says the tax report ran at 03:30.\n");
  workspace.begin_rule("episodic-decay");
  // Each restates one claim of the file: a duplicate, however its names are written.
  check_found_as_duplicate(workspace, {{"The refund queue cache is redis 6.2.", 0},
                                       {"The order sync cache is `redis` 7.", 1},
                                       {"Note rw1x says the tax report ran at 02:00.", 2}});
  // Another note of the same template, with an id of its own: no duplicate.
  CHECK(workspace
            .duplicate_claims("Note rw3x says the tax report ran at 02:00.", Layer::semantic,
                              ClaimDetail::unclassified)
            .empty());
}

TEST_CASE("a word written whole in one claim and in parts in another, or words in a code span "
          "and bare, are found either way, as comparing with every claim finds them") {
  test::TempDir dir;
  auto workspace = one_file_workspace(dir, "- Wifi is off.\n"
                                           "- The e-mail digest is off.\n"
                                           "- Run `make test`.\n"
                                           "- Run make lint.\n");
  workspace.begin_rule("episodic-decay");
  check_found_as_duplicate(workspace, {{"Wi-Fi is off.", 0},
                                       {"The email digest is off.", 1},
                                       {"Run make test.", 2},
                                       {"Run `make lint`.", 3}});
}

TEST_CASE("a link's target written bare in one claim is found from either claim, as comparing "
          "with every claim finds it") {
  test::TempDir dir;
  auto workspace =
      one_file_workspace(dir, "- See [the runbook](docs/runbook.md) for failover.\n"
                              "- Read the style guide before reviews: https://style.example.com\n"
                              "- See the guide for upgrades: docs/upgrade.md\n");
  workspace.begin_rule("episodic-decay");
  check_found_as_duplicate(
      workspace, {{"See the runbook for failover: docs/runbook.md", 0},
                  {"Read the [style guide](https://style.example.com) before reviews.", 1},
                  {"See [the guide](docs/upgrade.md) for upgrades.", 2}});
}

TEST_CASE("a value changed with its unit is found as an update, as comparing with every claim "
          "finds it") {
  check_found_as_update("- Wait 30 minutes.\n"
                        "- Keep logs for 90 days.\n"
                        "- The upload limit is 500 MB.\n",
                        {"Wait 2 hours.", "Keep logs for 2 years.", "The upload limit is 2 GB."});
}
