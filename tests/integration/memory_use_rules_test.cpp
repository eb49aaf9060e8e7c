// The rules that act on how memories are used, through the real `engram`
// binary on real stores, read back with the real `git`: forgetting archives
// unused, unhelpful memories with their stats in the day's forgotten list and
// the record, never critical, recently used or confirmed ones, and nothing in
// a store without usage data; promotion writes CORE.md — Deep Truths proven
// across sessions and days or by use, kept after their sessions decay and
// dropped when superseded, and core blocks within their limits — the same
// bytes on a second run, which makes no commit.
#include "lib/history.hpp"
#include "lib/process.hpp"
#include "lib/runs.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <set>

namespace fs = std::filesystem;
using engram::test::git_out;
using engram::test::head_of;
using engram::test::read_file;
using engram::test::new_store;
using engram::test::ok;
using engram::test::Sandbox;
using engram::test::write_file;

namespace {

constexpr const char* k_now = "2026-11-22";


// A full consolidation at `now`, its record as JSON.
nlohmann::json consolidate(const Sandbox& sandbox, const fs::path& store, const std::string& now) {
  return nlohmann::json::parse(
      ok(sandbox, {"consolidate", "--store", store.string(), "--now", now, "--json"}).out);
}

// A memory of `type` whose frontmatter ends with `usage` (lines ending in '\n').
std::string memory(const std::string& type, const std::string& tag, const std::string& created,
                   const std::string& usage, const std::string& body,
                   const std::string& status = "open", const std::string& confidence = "medium") {
  return "---\ntype: " + type + "\ntags: [" + tag +
         "]\nsalience: medium\nconfidence: " + confidence +
         "\n"
         "source: observed\nstatus: " +
         status + "\ntrigger: []\nrelated: []\ncreated: " + created + "\n" + usage + "---\n" + body;
}

// The usage fields the usage log folds into frontmatter.
std::string usage_fields(const std::string& last_accessed, int uses, int helpful, int unhelpful) {
  return fmt::format("last-accessed: {}\nuses: {}\nhelpful: {}\nunhelpful: {}\n", last_accessed,
                     uses, helpful, unhelpful);
}

// The action of a rule with this verb and source, or null.
nlohmann::json find_action(const nlohmann::json& record, const std::string& rule,
                           const std::string& verb, const std::string& source) {
  for (const auto& a : record["actions"]) {
    if (a["rule"] == rule && a["action"] == verb && a["source"] == source) {
      return a;
    }
  }
  return nullptr;
}

// The lines of CORE.md's section `## name` (up to the next heading), without endings.
std::vector<std::string> section(const std::string& core, const std::string& name) {
  std::vector<std::string> out;
  bool in = false;
  std::size_t pos = 0;
  while (pos < core.size()) {
    const auto nl = core.find('\n', pos);
    const auto line = core.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
    pos = nl == std::string::npos ? core.size() : nl + 1;
    if (line.starts_with("## ")) {
      in = line == "## " + name;
      continue;
    }
    if (in && !line.empty()) {
      out.push_back(line);
    }
  }
  return out;
}

// The code points of a block's lines, each with its newline: what its limit measures.
std::size_t block_chars(const std::vector<std::string>& lines) {
  std::size_t n = 0;
  for (const auto& line : lines) {
    for (char c : line) {
      n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
    }
    n += 1;
  }
  return n;
}

const std::vector<std::string> k_blocks = {"user_profile", "project_context", "behavioral_patterns",
                                           "active_decisions", "learned_preferences"};

const std::string k_truth = "Always run the migrations before the seed script.";

} // namespace

TEST_CASE(
    "an unused, unhelpful memory is archived with its stats in the day's list and the record") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  const std::string stale =
      memory("semantic", "legacy", "2025-12-01", usage_fields("2026-06-01", 1, 0, 1),
             "- The old importer ran on cron.\n");
  write_file(store / "semantic" / "old-importer.md", stale);
  // An archive file of the same name already there is never overwritten.
  write_file(store / "archive" / "semantic" / "old-importer.md",
             "---\ntype: semantic\n---\nolder\n");
  const std::string critical = memory("semantic", "keys", "2025-12-01",
                                      "critical: true\n" + usage_fields("2026-01-01", 0, 0, 3),
                                      "- The signing key lives in the vault.\n");
  write_file(store / "semantic" / "signing.md", critical);
  const std::string recent =
      memory("semantic", "sync", "2025-12-01", usage_fields("2026-11-10", 1, 0, 1),
             "- The sync runs hourly.\n");
  write_file(store / "semantic" / "sync.md", recent);
  const std::string confirmed =
      memory("semantic", "people", "2025-12-01", usage_fields("2026-03-01", 0, 0, 0),
             "- Sam owns billing.\n", "confirmed");
  write_file(store / "semantic" / "owners.md", confirmed);
  const std::string useful =
      memory("reference", "docs", "2025-12-01", usage_fields("2026-03-01", 9, 8, 1),
             "- The API docs can be found at https://docs.example.\n");
  write_file(store / "reference" / "docs.md", useful);

  const auto record = consolidate(sandbox, store, k_now);

  // Archived: moved to a free name under archive/, its bytes unchanged.
  CHECK_FALSE(fs::exists(store / "semantic" / "old-importer.md"));
  CHECK(read_file(store / "archive" / "semantic" / "old-importer.md") ==
        "---\ntype: semantic\n---\nolder\n");
  CHECK(read_file(store / "archive" / "semantic" / "old-importer-2.md") == stale);
  const auto archived = find_action(record, "forgetting", "archived", "semantic/old-importer.md");
  REQUIRE_FALSE(archived.is_null());
  CHECK(archived["target"] == "archive/semantic/old-importer-2.md");
  CHECK_THAT(archived["reason"].get<std::string>(),
             Catch::Contains("unused for 174 days (last used 2026-06-01)") &&
                 Catch::Contains("used 1 time (fewer than 3)") && Catch::Contains("0% helpful"));

  // The day's list holds its stats and the reason.
  const auto list =
      nlohmann::json::parse(read_file(store / "archive" / "2026-11-22-forgotten.json"));
  REQUIRE(list.size() == 1);
  CHECK(list[0]["path"] == "semantic/old-importer.md");
  CHECK(list[0]["archived_to"] == "archive/semantic/old-importer-2.md");
  CHECK(list[0]["uses"] == 1);
  CHECK(list[0]["helpful"] == 0);
  CHECK(list[0]["unhelpful"] == 1);
  CHECK(list[0]["effectiveness"] == 0.0);
  CHECK(list[0]["last_accessed"] == "2026-06-01");
  CHECK(list[0]["days_unused"] == 174);
  CHECK(list[0]["forgotten"] == k_now);
  CHECK(list[0]["reason"] == archived["reason"].get<std::string>().substr(11)); // "forgotten: "

  // Kept: critical (flagged), recently used, confirmed (flagged), useful.
  CHECK(read_file(store / "semantic" / "signing.md") == critical);
  CHECK_THAT(find_action(record, "forgetting", "flagged", "semantic/signing.md")["reason"]
                 .get<std::string>(),
             Catch::Contains("not forgotten: marked critical"));
  CHECK(read_file(store / "semantic" / "sync.md") == recent);
  CHECK(read_file(store / "semantic" / "owners.md") == confirmed);
  CHECK_FALSE(find_action(record, "forgetting", "flagged", "semantic/owners.md").is_null());
  CHECK(read_file(store / "reference" / "docs.md") == useful);

  // One commit holds the move and the list, and says so.
  const auto message = git_out(sandbox, store, {"log", "-1", "--notes=engram", "--format=%B%N"});
  CHECK_THAT(message,
             Catch::Contains("- forgetting archived: semantic/old-importer.md → "
                             "archive/semantic/old-importer-2.md (forgotten: unused for 174 days"));
  CHECK_THAT(message, Catch::Contains("- forgetting listed: archive/2026-11-22-forgotten.json"));
  const auto changed =
      git_out(sandbox, store, {"show", "--no-renames", "--name-status", "--format=", "HEAD"});
  CHECK_THAT(changed, Catch::Contains("D\tsemantic/old-importer.md"));
  CHECK_THAT(changed, Catch::Contains("A\tarchive/semantic/old-importer-2.md"));
  CHECK_THAT(changed, Catch::Contains("A\tarchive/2026-11-22-forgotten.json"));
  engram::test::check_sound(sandbox, store);

  // Configured to, a confirmed memory is forgotten too, and joins the day's list.
  write_file(sandbox.default_config_file(), "[rules.forgetting]\ninclude_confirmed = true\n");
  const auto again = consolidate(sandbox, store, k_now);
  CHECK_FALSE(fs::exists(store / "semantic" / "owners.md"));
  CHECK(read_file(store / "archive" / "semantic" / "owners.md") == confirmed);
  CHECK_FALSE(find_action(again, "forgetting", "archived", "semantic/owners.md").is_null());
  const auto appended =
      nlohmann::json::parse(read_file(store / "archive" / "2026-11-22-forgotten.json"));
  REQUIRE(appended.size() == 2);
  CHECK(appended[0]["path"] == "semantic/old-importer.md");
  CHECK(appended[1]["path"] == "semantic/owners.md");
  CHECK(appended[1]["effectiveness"].is_null()); // no feedback at all
  CHECK(read_file(store / "semantic" / "signing.md") == critical);
}

TEST_CASE("a store without usage data forgets nothing, and the record says so once") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  const std::string old = memory("semantic", "legacy", "2025-01-01", "last-accessed: 2025-02-01\n",
                                 "- The old importer ran on cron.\n");
  write_file(store / "semantic" / "old-importer.md", old);
  const auto record = consolidate(sandbox, store, k_now);
  CHECK(read_file(store / "semantic" / "old-importer.md") == old);
  CHECK_FALSE(fs::exists(store / "archive" / "2026-11-22-forgotten.json"));
  std::size_t said = 0;
  for (const auto& a : record["actions"]) {
    if (a["rule"] == "forgetting") {
      ++said;
      CHECK(a["action"] == "skipped");
      CHECK_THAT(a["reason"].get<std::string>(), Catch::Contains("no memory has usage data"));
    }
  }
  CHECK(said == 1);
}

TEST_CASE(
    "a claim seen in three sessions over a week becomes a Deep Truth and outlives its sessions") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  const std::string fact = "The staging database runs PostgreSQL 14.";
  const std::vector<std::pair<std::string, std::string>> sessions = {
      {"2026-11-01", "- " + fact + "\n- The seed script lives in the tools folder.\n"},
      {"2026-11-04", "- the staging database runs postgresql 14\n"},
      {"2026-11-08", "- " + fact + "\n"}};
  for (const auto& [day, body] : sessions) {
    write_file(store / "episodic" / (day + "-db.md"),
               engram::test::episodic_memory({"database", "staging"}, day, "", body));
  }
  consolidate(sandbox, store, k_now);
  const std::string core = read_file(store / "CORE.md");
  const auto truths = section(core, "Deep Truths");
  REQUIRE(truths.size() == 2);
  CHECK(truths[0] == "- " + fact);
  const std::string evidence =
      "  <!-- evidence: 3 sessions over 7 days: 2026-11-01 episodic/2026-11-01-db.md, 2026-11-04 "
      "episodic/2026-11-04-db.md, 2026-11-08 episodic/2026-11-08-db.md -->";
  CHECK(truths[1] == evidence);
  const auto message = git_out(sandbox, store, {"log", "-1", "--notes=engram", "--format=%B%N"});
  CHECK_THAT(message, Catch::Contains("- promotion promoted \"" + fact + "\""));

  // Months later every session has decayed; the truth and its evidence stay.
  consolidate(sandbox, store, "2027-03-01");
  for (const auto& [day, body] : sessions) {
    CHECK_FALSE(fs::exists(store / "episodic" / (day + "-db.md")));
  }
  const auto kept = section(read_file(store / "CORE.md"), "Deep Truths");
  REQUIRE(kept.size() == 2);
  CHECK(kept[0] == "- " + fact);
  CHECK(kept[1] == evidence);

  // A newer memory that changes the value supersedes the claim, and the truth leaves.
  std::string absorbed;
  for (const auto& path : engram::test::files_under(store / "semantic")) {
    if (read_file(store / "semantic" / path).find(fact) != std::string::npos) {
      absorbed = path;
    }
  }
  REQUIRE_FALSE(absorbed.empty());
  write_file(store / "semantic" / "database-now.md",
             memory("semantic", "database", "2027-03-05", "",
                    "- The staging database runs PostgreSQL 16.\n"));
  const auto record = consolidate(sandbox, store, "2027-03-10");
  CHECK_THAT(read_file(store / "semantic" / absorbed),
             Catch::Contains("<!-- superseded 2027-03-10: previously"));
  CHECK(section(read_file(store / "CORE.md"), "Deep Truths") ==
        std::vector<std::string>{"None yet."});
  bool said = false;
  for (const auto& a : record["actions"]) {
    said = said || (a["rule"] == "promotion" && a["action"] == "dropped" && a["claim"] == fact);
  }
  CHECK(said);
}

TEST_CASE("two sessions, or three within three days, make no Deep Truth") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  for (const char* day : {"2026-11-01", "2026-11-15"}) {
    write_file(store / "episodic" / (std::string(day) + "-a.md"),
               engram::test::episodic_memory({"database"}, day, "", "- " + k_truth + "\n"));
  }
  for (const char* day : {"2026-11-18", "2026-11-19", "2026-11-20"}) {
    write_file(
        store / "episodic" / (std::string(day) + "-b.md"),
        engram::test::episodic_memory({"deploys"}, day, "", "- Deploys need the VPN to be up.\n"));
  }
  consolidate(sandbox, store, k_now);
  const std::string core = read_file(store / "CORE.md");
  CHECK(section(core, "Deep Truths") == std::vector<std::string>{"None yet."});
  // They are still recent context.
  CHECK_THAT(core, Catch::Contains("## project_context\n\n- Deploys need the VPN to be up.\n"));
}

TEST_CASE("a heavily used, helpful, month-old memory is promoted with its usage as evidence") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  write_file(store / "semantic" / "deploys.md",
             memory("semantic", "deploys", "2026-09-01", usage_fields("2026-11-20", 20, 18, 2),
                    "- Deploys go through the bastion host.\n"));
  write_file(store / "semantic" / "young.md",
             memory("semantic", "young", "2026-11-10", usage_fields("2026-11-20", 20, 20, 0),
                    "- The new cluster is in Frankfurt.\n"));
  consolidate(sandbox, store, k_now);
  const auto truths = section(read_file(store / "CORE.md"), "Deep Truths");
  REQUIRE(truths.size() == 2);
  CHECK(truths[0] == "- Deploys go through the bastion host.");
  CHECK(truths[1] == "  <!-- evidence: memory semantic/deploys.md, 20 uses, 18 helpful, 2 "
                     "unhelpful, since 2026-09-01 -->");
}

TEST_CASE("CORE.md stays within its limits with many candidates and says how many were left out") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  // Words no two memories share, so no rule merges or supersedes them.
  int next = 0;
  const auto word = [&next] {
    std::string w = "q";
    for (int n = next++, i = 0; i < 4; ++i, n /= 26) {
      w += static_cast<char>('a' + n % 26);
    }
    return w;
  };
  for (int i = 0; i < 30; ++i) {
    const auto n = std::to_string(i);
    const auto fact = word() + " " + word() + " is preferred over " + word() + " " + word();
    const auto decision = "We decided " + word() + " " + word() + " handles " + word() + " builds";
    write_file(store / "semantic" / ("fact-" + n + ".md"),
               memory("semantic", word(), "2026-06-01", usage_fields("2026-11-20", 1 + i, 1, 0),
                      "- " + fact + ".\n- " + decision + ".\n", "open", "high"));
    const auto date = fmt::format("2026-11-{:02}", 1 + i % 20);
    write_file(store / "episodic" / (date + "-s" + n + ".md"),
               engram::test::episodic_memory({word()}, date, "",
                                             "- Worked on " + word() + " " + word() + " " + word() +
                                                 " today.\n"));
  }
  std::string rules = "---\ntype: procedural\nconfidence: high\n---\n";
  for (int i = 0; i < 20; ++i) {
    rules += "## Rule " + word() + "\n\n- Always check " + word() + " " + word() +
             " before release.\n\n";
  }
  write_file(store / "procedural" / "feedback.md", rules);
  consolidate(sandbox, store, k_now);
  const std::string core = read_file(store / "CORE.md");
  std::size_t total = 0;
  for (const auto& name : k_blocks) {
    INFO(name);
    const auto lines = section(core, name);
    REQUIRE_FALSE(lines.empty());
    CHECK(block_chars(lines) <= 500);
    total += block_chars(lines);
    // Each block left some out, and says how many.
    CHECK_THAT(lines.back(), Catch::StartsWith("- … and ") &&
                                 Catch::EndsWith(" more not shown (over this block's limit)"));
  }
  CHECK(total <= 2000);
  // The most used semantic memory leads the profile.
  CHECK_THAT(read_file(store / "semantic" / "fact-29.md"),
             Catch::Contains(section(core, "user_profile").front().substr(2)));

  // The same store and clock give the same bytes: a second run makes no commit.
  const auto head = head_of(sandbox, store);
  const auto second = ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now});
  CHECK_THAT(second.out + second.err, Catch::Contains("nothing to consolidate"));
  CHECK(head_of(sandbox, store) == head);
  CHECK(read_file(store / "CORE.md") == core);
}

TEST_CASE("health, plugins and consolidate --only/--skip know forgetting and promotion") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  write_file(store / "semantic" / "old.md",
             memory("semantic", "legacy", "2025-12-01", usage_fields("2026-06-01", 0, 0, 2),
                    "- The old importer ran on cron.\n"));
  const auto only =
      nlohmann::json::parse(ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now,
                                         "--dry-run", "--json", "--only", "forgetting,promotion"})
                                .out);
  CHECK(only["rules"] == nlohmann::json::array({"forgetting", "promotion"}));
  CHECK_FALSE(find_action(only, "forgetting", "archived", "semantic/old.md").is_null());

  const auto health = nlohmann::json::parse(
      ok(sandbox, {"health", "--store", store.string(), "--now", k_now, "--json"}).out);
  CHECK(health["forgetting"]["checked"] == true);
  REQUIRE(health["forgetting"]["would_archive"].size() == 1);
  CHECK(health["forgetting"]["would_archive"][0]["source"] == "semantic/old.md");
  CHECK(health["promotion"]["checked"] == true);
  CHECK(fs::exists(store / "semantic" / "old.md")); // health writes nothing

  const auto skipped =
      nlohmann::json::parse(ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now,
                                         "--json", "--skip", "forgetting"})
                                .out);
  const auto rules = skipped["rules"];
  CHECK(std::find(rules.begin(), rules.end(), "forgetting") == rules.end());
  CHECK(std::find(rules.begin(), rules.end(), "promotion") != rules.end());
  CHECK(fs::exists(store / "semantic" / "old.md"));

  const auto plugins = nlohmann::json::parse(ok(sandbox, {"plugins", "--json"}).out);
  std::set<std::string> names;
  for (const auto& rule : plugins["rules"]) {
    names.insert(rule["name"].get<std::string>());
  }
  CHECK(names.contains("forgetting"));
  CHECK(names.contains("promotion"));
}
