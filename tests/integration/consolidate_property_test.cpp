// The promise, as a property over generated stores: for every episodic file a
// consolidation removes, every claim it held is accounted for — found word for
// word in a file it went to, or named in the record as a duplicate of existing
// text (which is there) or as superseding an older claim. A second run right
// after changes nothing.
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <random>
#include <set>

namespace fs = std::filesystem;
using engram::test::episodic_memory;
using engram::test::knowledge_text;
using engram::test::Sandbox;
using engram::test::semantic_memory;
using engram::test::write_file;

namespace {

constexpr const char* k_now = "2026-11-22";

const std::vector<std::string> k_systems{"order sync",      "invoice export", "refund queue",
                                         "customer import", "inventory feed", "label printer",
                                         "tax report",      "email digest"};
const std::vector<std::string> k_attributes{"page size",          "batch size",
                                            "retry limit",        "worker count",
                                            "timeout in seconds", "cache lifetime in minutes"};
const std::vector<std::string> k_days{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday"};
const std::vector<std::string> k_tags{"shopify",   "sync",     "orders", "billing", "refunds",
                                      "inventory", "shipping", "email",  "reports", "api"};

// The generator: a seeded PRNG and the words stores are made of.
class Generator {
public:
  explicit Generator(unsigned seed) : m_rng(seed) {}

  // A number in [0, n).
  std::size_t below(std::size_t n) { return static_cast<std::size_t>(m_rng() % n); }

  // True with probability `percent` / 100.
  bool chance(unsigned percent) { return below(100) < percent; }

  // One element of `items`.
  const std::string& pick(const std::vector<std::string>& items) {
    return items[below(items.size())];
  }

  // `n` distinct tags.
  std::vector<std::string> tags(std::size_t n) {
    std::vector<std::string> pool = k_tags;
    std::vector<std::string> out;
    while (out.size() < n) {
      const auto at = below(pool.size());
      out.push_back(pool[at]);
      pool.erase(pool.begin() + static_cast<std::ptrdiff_t>(at));
    }
    return out;
  }

  // A fact with a value: "The order sync page size is 100."
  std::string setting_fact(const std::string& system, const std::string& attribute, int value) {
    return fmt::format("The {} {} is {}.", system, attribute, value);
  }

  // A fresh claim of any kind.
  std::string fresh_claim() {
    const std::string& system = pick(k_systems);
    switch (below(6)) {
    case 0:
      return setting_fact(system, pick(k_attributes), static_cast<int>(10 + below(990)));
    case 1:
      return fmt::format("The {} failed {} times on {}.", system, 2 + below(20), pick(k_days));
    case 2:
      return fmt::format("Always check the {} before deploying on {}.", system, pick(k_days));
    case 3:
      return fmt::format("Never restart the {} while the {} is running.", system, pick(k_systems));
    case 4:
      return fmt::format("The {} runbook can be found at https://wiki.example.com/{}/{}.", system,
                         slug(system), below(1000));
    default:
      return fmt::format("The {} reads its settings from the {} table {} times a day.", system,
                         slug(pick(k_systems)), 2 + below(40));
    }
  }

  // `text` lower-cased with spaces as dashes.
  static std::string slug(std::string text) {
    for (auto& c : text) {
      c = c == ' ' ? '-' : c;
    }
    return text;
  }

private:
  std::mt19937 m_rng;
};

// What a generated store holds, as the test needs to check it.
struct GeneratedStore {
  fs::path root;
  std::map<std::string, std::vector<std::string>> expired; // episodic path → its claims
  std::vector<std::string> kept;                           // episodic paths that must stay
};

// A YYYY-MM-DD of 2026 from a day number (0 to 300).
std::string day_of_2026(std::size_t day) {
  static const int k_month_days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  int month = 0;
  auto rest = static_cast<int>(day);
  while (rest >= k_month_days[month]) {
    rest -= k_month_days[month];
    ++month;
  }
  return fmt::format("2026-{:02}-{:02}", month + 1, rest + 1);
}

// Writes one random store; its existing facts are what duplicates and updates are made of.
GeneratedStore generate(const Sandbox& sandbox, unsigned seed) {
  Generator gen(seed);
  GeneratedStore made{sandbox.work(fmt::format("store-{}", seed)), {}, {}};
  REQUIRE(sandbox.engram({"init", made.root.string()}).exit_code == 0);

  struct Setting {
    std::string system;
    std::string attribute;
    int value;
  };
  // One semantic file: its tags, and the claims and settings it holds.
  struct SemanticFile {
    std::vector<std::string> tags;
    std::vector<std::string> claims;
    std::vector<Setting> settings;
  };
  std::vector<SemanticFile> semantic;
  std::vector<std::string> existing; // every existing claim text, without list markers
  for (std::size_t f = 0, files = 2 + gen.below(4); f < files; ++f) {
    SemanticFile file{gen.tags(3), {}, {}};
    std::string body = "# Notes " + std::to_string(f) + "\n\n";
    for (std::size_t i = 0, n = 2 + gen.below(5); i < n; ++i) {
      std::string claim;
      if (gen.chance(60)) {
        Setting setting{gen.pick(k_systems), gen.pick(k_attributes),
                        static_cast<int>(10 + gen.below(990))};
        claim = gen.setting_fact(setting.system, setting.attribute, setting.value);
        file.settings.push_back(setting);
      } else {
        claim = gen.fresh_claim();
      }
      file.claims.push_back(claim);
      existing.push_back(claim);
      body += "- " + claim + "\n";
    }
    write_file(made.root / "semantic" / fmt::format("notes-{}.md", f),
               semantic_memory(file.tags, day_of_2026(gen.below(100)), body,
                               gen.chance(50) ? "high" : "medium"));
    semantic.push_back(std::move(file));
  }
  if (gen.chance(50)) {
    const auto instruction = fmt::format("Always check the {} before deploying on {}.",
                                         gen.pick(k_systems), gen.pick(k_days));
    existing.push_back(instruction);
    write_file(made.root / "procedural" / "feedback.md",
               "---\ntype: procedural\ntags: [feedback]\n---\n## Deploying\n\n- " + instruction +
                   "\n");
  }

  for (std::size_t e = 0, files = 2 + gen.below(4); e < files; ++e) {
    const auto created_day = gen.below(150);
    const std::string created = day_of_2026(created_day);
    const std::string path = fmt::format("episodic/{}-session-{}.md", created, e);
    // Most episodes are about what one semantic file covers, and share its tags.
    const auto& home = semantic[gen.below(semantic.size())];
    const bool at_home = gen.chance(80);
    std::vector<std::string> claims;
    std::string body = "# Session " + std::to_string(e) + "\n\n";
    bool in_list = false;
    for (std::size_t i = 0, n = 3 + gen.below(8); i < n; ++i) {
      std::string claim;
      const auto roll = gen.below(100);
      if (roll < 20) {
        // A duplicate of what the store already knows.
        claim = at_home ? gen.pick(home.claims) : gen.pick(existing);
      } else if (roll < 40 && at_home && !home.settings.empty()) {
        // A changed value of a setting the store knows.
        const auto& setting = home.settings[gen.below(home.settings.size())];
        claim = gen.setting_fact(setting.system, setting.attribute,
                                 setting.value + 1 + static_cast<int>(gen.below(500)));
      } else {
        claim = gen.fresh_claim();
      }
      claims.push_back(claim);
      // As a list item, a line of a paragraph, or two sentences on one line.
      const auto form = gen.below(3);
      if (form == 0) {
        body += (in_list ? "" : "\n") + std::string("- ") + claim + "\n";
        in_list = true;
      } else {
        body += (in_list ? "\n" : "") + claim + (form == 2 ? " " : "\n");
        in_list = false;
      }
      if (gen.chance(10)) {
        body += "\n## Part " + std::to_string(i) + "\n\n";
        in_list = false;
      }
    }
    if (!body.ends_with('\n')) {
      body += '\n';
    }
    const auto decay = gen.chance(50) ? day_of_2026(created_day + 30) : std::string();
    write_file(made.root / path, episodic_memory(at_home ? home.tags : gen.tags(2 + gen.below(3)),
                                                 created, decay, body));
    made.expired[path] = std::move(claims);
  }
  // One recent episode that is not expired yet.
  write_file(made.root / "episodic" / "2026-11-10-recent.md",
             episodic_memory(gen.tags(2), "2026-11-10", "", "- " + gen.fresh_claim() + "\n"));
  made.kept.push_back("episodic/2026-11-10-recent.md");
  return made;
}

// The text between the first and the last double quote of `reason`.
std::string quoted(const std::string& reason) {
  const auto first = reason.find('"');
  const auto last = reason.rfind('"');
  return first == std::string::npos || last <= first ? std::string()
                                                     : reason.substr(first + 1, last - first - 1);
}

// `text` with every run of whitespace made one space: the record quotes
// existing text on one line, the file may wrap it.
std::string collapsed(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (!space || out.empty() || out.back() != ' ') {
      out += space ? ' ' : c;
    }
  }
  return out;
}

// How a claim was accounted for: "absorbed", "duplicate", "superseded", or "" when it was not.
std::string accounted_for(const std::string& claim, const std::string& source,
                          const nlohmann::json& record, const std::string& knowledge) {
  for (const auto& action : record["actions"]) {
    if (action["source"] != source ||
        action["claim"].get<std::string>().find(claim) == std::string::npos) {
      continue;
    }
    if (action["action"] == "superseded" && knowledge.find(claim) != std::string::npos) {
      // The new value is written, and the old one is kept in a marker.
      const auto old = quoted(action["reason"].get<std::string>());
      const bool nested = old.find('"') != std::string::npos; // a marker inside: escaped
      if (nested ||
          collapsed(knowledge).find("previously \"" + collapsed(old) + "\"") != std::string::npos) {
        return "superseded";
      }
    }
    if (action["action"] == "duplicate") {
      // The record names the existing text, and that text is really there.
      const auto existing = quoted(action["reason"].get<std::string>());
      if (!existing.empty() &&
          collapsed(knowledge).find(collapsed(existing)) != std::string::npos) {
        return "duplicate";
      }
    }
    if (action["action"] == "absorbed" && knowledge.find(claim) != std::string::npos) {
      return "absorbed";
    }
  }
  return {};
}

} // namespace

TEST_CASE("every claim of every removed episodic file is accounted for, over generated stores") {
  const Sandbox sandbox;
  std::map<std::string, std::size_t> outcomes;
  for (unsigned seed = 1; seed <= 20; ++seed) {
    INFO("seed " << seed);
    const auto made = generate(sandbox, seed);
    const auto result =
        sandbox.engram({"consolidate", "--store", made.root.string(), "--now", k_now, "--json"});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    const auto record = nlohmann::json::parse(result.out);
    CHECK(record["failed_rules"].empty());
    CHECK(record["deferred"].empty());
    const std::set<std::string> removed(record["removed"].begin(), record["removed"].end());
    const std::string knowledge = knowledge_text(made.root);

    for (const auto& [path, claims] : made.expired) {
      INFO(path);
      CHECK(removed.count(path) == 1); // every generated episode has expired
      CHECK_FALSE(fs::exists(made.root / path));
      if (removed.count(path) == 0) {
        continue;
      }
      for (const auto& claim : claims) {
        INFO(claim);
        const auto how = accounted_for(claim, path, record, knowledge);
        if (how.empty()) {
          for (const auto& action : record["actions"]) {
            if (action["claim"].get<std::string>().find(claim) != std::string::npos) {
              UNSCOPED_INFO("record: " << action.dump());
            }
          }
        }
        CHECK_FALSE(how.empty());
        ++outcomes[how];
      }
    }
    for (const auto& path : made.kept) {
      CHECK(fs::exists(made.root / path));
      CHECK(removed.count(path) == 0);
    }
    CHECK(sandbox.git(made.root, {"status", "--porcelain"}).out.empty());

    // Idempotent: a second run right after makes no commit.
    const auto head = sandbox.git(made.root, {"rev-parse", "HEAD"}).out;
    const auto again =
        sandbox.engram({"consolidate", "--store", made.root.string(), "--now", k_now});
    INFO(again.out);
    CHECK(again.exit_code == 0);
    CHECK_THAT(again.out, Catch::Contains("nothing to consolidate"));
    CHECK(sandbox.git(made.root, {"rev-parse", "HEAD"}).out == head);
  }
  // The generator reaches every way a claim can be accounted for.
  INFO("absorbed " << outcomes["absorbed"] << ", duplicate " << outcomes["duplicate"]
                   << ", superseded " << outcomes["superseded"]);
  CHECK(outcomes["absorbed"] > 0);
  CHECK(outcomes["duplicate"] > 0);
  CHECK(outcomes["superseded"] > 0);
}
