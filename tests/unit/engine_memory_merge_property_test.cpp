// Properties of the memory merge (engine/memory_merge.hpp) over generated
// histories: from a random base, each side adds, removes and changes claims
// at random (sometimes the same claim on both sides, sometimes the same value
// to two different values). Whatever they did, the merge writes no conflict
// marker, keeps every claim either side added live or in a superseded marker,
// removes what one side removed and the other left alone, gives the same
// bytes for the same inputs and the same live claims in both orders.
#include "claims/normalise.hpp"
#include "claims/split.hpp"
#include "engine/memory_merge.hpp"
#include "store/conflict_markers.hpp"
#include "store/memory_file.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <engram/markers.hpp>
#include <map>
#include <random>
#include <set>

namespace {

// Subjects no two of which the judgment relates: each claim has its own.
const std::vector<std::string> k_subjects = {
    "otter",  "falcon", "badger", "heron", "lynx",  "marmot", "osprey", "walrus",
    "bison",  "gecko",  "jackal", "koala", "lemur", "mantis", "newt",   "ocelot",
    "puffin", "quokka", "raven",  "stoat", "tapir", "urchin", "viper",  "wombat"};
const std::vector<std::string> k_zones = {"amber", "cobalt", "crimson", "ivory",
                                          "jade",  "ochre",  "teal",    "violet"};
const std::vector<std::string> k_sections = {"Alpha", "Beta", "Gamma"};

// One claim of a generated file: its subject, its value, and how it is written.
struct Entry {
  std::size_t subject = 0;
  int value = 0;
  bool item = true; // a list item, else a sentence of the section's paragraph
  std::size_t section = 0;
  std::vector<int> history; // values it replaced, kept in markers (items only)

  // The claim's words with a value, the same written either way.
  std::string sentence(int with) const {
    return "The " + k_subjects[subject] + " queue keeps " + std::to_string(with) +
           " workers in the " + k_zones[subject % k_zones.size()] + " zone.";
  }
  std::string sentence() const { return sentence(value); }
  // The claim as the file holds it (what a marker quotes).
  std::string own() const { return item ? "- " + sentence() : sentence(); }
  // The claim with its markers, as a list item holds them.
  std::string written() const {
    std::string out = own();
    for (const int old : history) {
      out += "\n  <!-- superseded 2026-01-01: previously \"- " + sentence(old) + "\" -->";
    }
    return out;
  }
};

// A generated file's claims.
using Version = std::vector<Entry>;

// The memory file a version is written as: sections in order, items, then a paragraph.
std::string file_of(const Version& version) {
  std::string body = "# Queues\n";
  for (std::size_t section = 0; section < k_sections.size(); ++section) {
    std::string items;
    std::string paragraph;
    for (const auto& entry : version) {
      if (entry.section == section) {
        (entry.item ? items : paragraph) +=
            entry.item ? entry.written() + "\n" : (paragraph.empty() ? "" : " ") + entry.sentence();
      }
    }
    if (!items.empty() || !paragraph.empty()) {
      body += "\n## " + k_sections[section] + "\n\n" + items;
      body += paragraph.empty() ? "" : (items.empty() ? "" : "\n") + paragraph + "\n";
    }
  }
  return "---\ntype: semantic\ntags: [queues]\n---\n" + body;
}

// The generator of one history, fixed by its seed.
class History {
public:
  explicit History(unsigned seed) : m_random(seed) {}

  // A base of a few claims, each a subject of its own.
  Version base() {
    Version out;
    const auto claims = pick(0, 8);
    for (int i = 0; i < claims; ++i) {
      out.push_back(fresh(out));
    }
    return out;
  }

  // `base` after a side's random edits; `shared` are additions both sides make,
  // sometimes one as a list item and the other as a sentence.
  Version side(Version version, const Version& shared) {
    for (auto entry : shared) {
      entry.item = pick(0, 2) == 0 ? !entry.item : entry.item;
      version.push_back(entry);
    }
    const auto edits = pick(1, 5);
    for (int i = 0; i < edits; ++i) {
      const auto kind = pick(0, 2);
      if (kind == 0 || version.empty()) {
        version.push_back(fresh(version));
      } else if (kind == 1) {
        version.erase(version.begin() + pick(0, static_cast<int>(version.size()) - 1));
      } else {
        // A changed value, kept in a marker half the time (as contradictions would).
        auto& entry =
            version[static_cast<std::size_t>(pick(0, static_cast<int>(version.size()) - 1))];
        if (entry.item && pick(0, 1) == 0) {
          entry.history.push_back(entry.value);
        }
        entry.value = next_value();
      }
    }
    return version;
  }

  // Additions both sides make: none, or one or two of the same claims.
  Version shared(const Version& base) {
    Version out = base;
    const auto n = pick(0, 2) == 0 ? pick(1, 2) : 0;
    for (int i = 0; i < n; ++i) {
      out.push_back(fresh(out));
    }
    return Version(out.begin() + static_cast<std::ptrdiff_t>(base.size()), out.end());
  }

  // A commit time: often equal, so the names break the tie.
  std::int64_t time() { return 100 + pick(0, 2); }

  // A number in [low, high].
  int pick(int low, int high) { return std::uniform_int_distribution<int>(low, high)(m_random); }

private:
  // A claim about a subject `version` does not hold yet, in a random place.
  Entry fresh(const Version& version) {
    std::size_t subject = 0;
    do {
      subject = static_cast<std::size_t>(pick(0, static_cast<int>(k_subjects.size()) - 1));
    } while (std::any_of(version.begin(), version.end(),
                         [&](const Entry& e) { return e.subject == subject; }));
    return Entry{subject,
                 next_value(),
                 pick(0, 2) != 0,
                 static_cast<std::size_t>(pick(0, static_cast<int>(k_sections.size()) - 1)),
                 {}};
  }

  // A value no claim had before: every change is a change.
  int next_value() { return m_value += pick(1, 40); }

  std::mt19937 m_random;
  int m_value = 0;
};

// The live claims of a merged file, in normal form, and its markers.
struct Read {
  std::set<std::string> live;
  std::vector<std::string> markers;
};

Read read(const std::string& file) {
  const auto parsed = engram::store::MemoryFile::parse("m.md", file);
  REQUIRE(parsed);
  Read out;
  for (const auto& claim : engram::claims::split_claims(parsed->body())) {
    out.live.insert(engram::claims::normalise(engram::markers::split_markers(claim.text).own));
  }
  out.markers = engram::markers::split_markers(parsed->body()).markers;
  return out;
}

// True when a marker of `read` keeps `entry` as a side wrote it.
bool in_marker(const Read& read, const Entry& entry) {
  const auto quoted = "previously \"" + engram::markers::quote_for_marker(entry.own()) + "\"";
  return std::any_of(read.markers.begin(), read.markers.end(),
                     [&](const auto& m) { return m.find(quoted) != std::string::npos; });
}

// True when `version` holds `entry`'s claim, worded exactly so.
bool holds(const Version& version, const Entry& entry) {
  return std::any_of(version.begin(), version.end(),
                     [&](const Entry& e) { return e.sentence() == entry.sentence(); });
}

// Checks every property of one generated history.
void check_history(unsigned seed) {
  History history(seed);
  const auto base = history.base();
  const auto shared = history.shared(base);
  const auto a = history.side(base, shared);
  const auto b = history.side(base, shared);
  const auto base_file = file_of(base);
  const auto a_file = file_of(a);
  const auto b_file = file_of(b);
  const auto a_time = history.time();
  const engram::engine::MergeSide one{a_file, a_time, "alice"};
  const engram::engine::MergeSide two{b_file, history.time(), "bob"};
  const engram::engine::MergeOptions options{engram::Date(2026, 11, 22), "semantic/q.md", 0.9};
  const auto forward = engram::engine::merge_memory(base_file, one, two, options);
  const auto again = engram::engine::merge_memory(base_file, one, two, options);
  const auto backward = engram::engine::merge_memory(base_file, two, one, options);
  INFO("seed " << seed << "\nbase:\n"
               << base_file << "\nalice:\n"
               << a_file << "\nbob:\n"
               << b_file);
  REQUIRE(forward);
  REQUIRE(backward);
  REQUIRE(again);
  INFO("merged:\n" << forward->text);
  CHECK(forward->text == again->text);
  for (const auto* text : {&forward->text, &backward->text}) {
    CHECK_FALSE(engram::store::conflict_marker_line(*text));
    for (const char* marker : {"\n<<<<<<<", "\n=======", "\n>>>>>>>"}) {
      CHECK(text->find(marker) == std::string::npos);
    }
    for (const auto& marker : engram::markers::split_markers(*text).markers) {
      CHECK(marker.find("<!--", 1) == std::string::npos); // never nested
    }
  }
  for (const auto* file : {&a_file, &b_file}) { // every marker a side added is kept
    for (const auto& marker : engram::markers::split_markers(*file).markers) {
      CHECK((base_file.find(marker) != std::string::npos ||
             forward->text.find(marker) != std::string::npos));
    }
  }
  const auto merged = read(forward->text);
  CHECK(merged.live == read(backward->text).live);
  for (const auto* version : {&a, &b}) {
    for (const auto& entry : *version) {
      if (!holds(base, entry)) { // added since base: live, or kept in a marker
        INFO(entry.own());
        CHECK((merged.live.contains(engram::claims::normalise(entry.own())) ||
               in_marker(merged, entry)));
      }
    }
  }
  for (const auto& entry : base) { // removed on one side, left alone on the other: gone
    if (holds(a, entry) != holds(b, entry)) {
      INFO(entry.own());
      CHECK_FALSE(merged.live.contains(engram::claims::normalise(entry.own())));
    }
  }
}

} // namespace

TEST_CASE("a merge of random histories keeps every added claim and no conflict marker, the "
          "same both ways") {
  for (unsigned seed = 1; seed <= 300; ++seed) {
    check_history(seed);
  }
}
