// Randomized kills: a real consolidation of a generated store is SIGKILLed at
// a random moment, over and over, and after each the next run must leave the
// store as an uninterrupted run does. A moment is the N-th call that changes
// the file system (tests/fault/kill_shim.cpp, preloaded): engram's own writes,
// renames and removals and libgit2's objects, index and refs alike, so kills
// land between engram's named fault points and inside git's commits too. N
// comes from a seeded generator, so a failure names a kill that can be rerun.
#include "lib/history.hpp"

#include <catch2/catch.hpp>
#include <csignal>
#include <cstdlib>
#include <fmt/format.h>
#include <optional>
#include <random>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// The seed of the kill moments; a failing kill is reproduced with the same seed.
constexpr std::uint32_t k_seed = 20261123;

// How many kills the test must land: 100, or ENGRAM_TEST_RANDOM_KILLS (the
// sanitizer suite lands fewer, each run there being several times slower).
int kills_wanted() {
  const char* wanted = std::getenv("ENGRAM_TEST_RANDOM_KILLS");
  return wanted != nullptr && std::atoi(wanted) > 0 ? std::atoi(wanted) : 100;
}

// How many expired episodic files the generated store holds (at most 20).
constexpr std::size_t k_expired = 12;

// Word lists the generator combines into distinct claims, one entry per episodic file.
const std::vector<std::string> k_adjectives{
    "amber", "brisk", "coral", "dusky", "eager", "fuzzy", "gaunt", "hazel", "icy",   "jolly",
    "keen",  "lunar", "misty", "noble", "olive", "plush", "quiet", "rusty", "sandy", "tidal"};
const std::vector<std::string> k_nouns{"ledger",  "beacon",  "cabinet", "dynamo",  "easel",
                                       "furnace", "gazebo",  "harbour", "igloo",   "jetty",
                                       "kiln",    "lantern", "marina",  "nursery", "orchard",
                                       "pantry",  "quarry",  "rotunda", "silo",    "turbine"};
const std::vector<std::string> k_places{
    "Aarhus", "Bergen", "Cork",  "Dijon",  "Essen", "Faro",  "Graz",  "Hanoi", "Izmir", "Jena",
    "Kobe",   "Lagos",  "Malmo", "Nantes", "Oulu",  "Porto", "Quito", "Riga",  "Split", "Turku"};
const std::vector<std::string> k_verbs{"drain",   "label", "weigh", "sweep",      "inspect",
                                       "oil",     "paint", "count", "lock",       "seal",
                                       "rinse",   "stack", "sort",  "test",       "audit",
                                       "measure", "clean", "brace", "photograph", "tag"};

// The tag pairs of the generated store's four subjects.
const std::vector<std::vector<std::string>> k_subjects{{"billing", "invoices"},
                                                       {"search", "ranking"},
                                                       {"deploy", "kubernetes"},
                                                       {"mobile", "android"}};

// A store made by `engram init`, then given by "the agent" (uncommitted, so
// the killed run's snapshot commit is at stake too) a semantic file per
// subject, a feedback file, k_expired expired episodic files of three claims
// each and two recent ones. Returns every claim the store holds.
std::vector<std::string> generate_store(const Sandbox& sandbox, const fs::path& store) {
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  std::vector<std::string> claims;
  for (std::size_t s = 0; s < k_subjects.size(); ++s) {
    const std::string claim =
        fmt::format("The {} service keeps {} days of history.", k_subjects[s][0], 30 * (s + 1));
    write_file(
        store / "semantic" / (k_subjects[s][0] + ".md"),
        semantic_memory(k_subjects[s], "2026-02-0" + std::to_string(s + 1), "- " + claim + "\n"));
    claims.push_back(claim);
  }
  write_file(store / "procedural" / "feedback.md",
             "# Feedback\n\n## Always lint\n\nRun the linter before every commit.\n");
  claims.emplace_back("Run the linter before every commit.");
  for (std::size_t i = 0; i < k_expired; ++i) {
    const auto& tags = k_subjects[i % k_subjects.size()];
    const std::string fact = fmt::format("The {} {} report for {} lists {} entries.",
                                         k_adjectives[i], k_nouns[i], k_places[i], 101 + 7 * i);
    const std::string rule =
        fmt::format("Always {} the {} before the {} audit.", k_verbs[i], k_nouns[i], k_places[i]);
    const std::string pointer =
        fmt::format("The {} {} runbook can be found at https://wiki.example.org/{}-{}.",
                    k_adjectives[i], k_nouns[i], k_nouns[i], i);
    const std::string created = fmt::format("2026-0{}-{:02}", 1 + i % 6, 10 + i);
    write_file(store / "episodic" /
                   fmt::format("{}-{}-{}.md", created, k_adjectives[i], k_nouns[i]),
               episodic_memory(tags, created, "2026-09-01",
                               "- " + fact + "\n- " + rule + "\n- " + pointer + "\n"));
    claims.insert(claims.end(), {fact, rule, pointer});
  }
  for (int i = 0; i < 2; ++i) {
    const std::string claim = fmt::format("The nightly backup number {} finished early.", i + 1);
    write_file(store / "episodic" / fmt::format("2026-11-2{}-backup.md", i),
               episodic_memory(k_subjects[static_cast<std::size_t>(i)], "2026-11-20", "",
                               "- " + claim + "\n"));
    claims.push_back(claim);
  }
  return claims;
}

// Runs `engram consolidate` on `store` at k_history_now with `extra` variables.
Result consolidate(const Sandbox& sandbox, const fs::path& store, const fs::path& config,
                   const Environment& extra = {}) {
  return engram_with(sandbox,
                     {"--config", config.string(), "consolidate", "--store", store.string(),
                      "--now", k_history_now},
                     extra);
}

// Replaces `to` with a copy of the folder `from`, links and git data included.
void copy_folder(const fs::path& from, const fs::path& to) {
  fs::remove_all(to);
  fs::copy(from, to, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
}

// The consolidation commits of the store's history.
int consolidation_commits(const Sandbox& sandbox, const fs::path& store) {
  int n = 0;
  for (const auto& subject : git_lines(sandbox, store, {"log", "--format=%s"})) {
    n += subject.starts_with("consolidate(") ? 1 : 0;
  }
  return n;
}

// Puts the test's temporary folders in memory (/dev/shm) while it lives, when
// there is one: a SIGKILL, unlike a power cut, loses nothing fsync would have
// saved, and a few hundred runs' fsyncs on a busy disk cost minutes.
class InMemoryTemp {
public:
  InMemoryTemp() {
    const char* old = std::getenv("TMPDIR");
    m_old = old != nullptr ? std::optional<std::string>(old) : std::nullopt;
    if (fs::is_directory("/dev/shm") && ::access("/dev/shm", W_OK) == 0) {
      ::setenv("TMPDIR", "/dev/shm", 1);
    }
  }
  InMemoryTemp(const InMemoryTemp&) = delete;
  InMemoryTemp& operator=(const InMemoryTemp&) = delete;
  ~InMemoryTemp() {
    if (m_old) {
      ::setenv("TMPDIR", m_old->c_str(), 1);
    } else {
      ::unsetenv("TMPDIR");
    }
  }

private:
  std::optional<std::string> m_old;
};

} // namespace

TEST_CASE("a consolidation killed at any of a hundred random moments is finished by the next "
          "run, as if it had never been killed") {
  const InMemoryTemp in_memory;
  const Sandbox sandbox;
  const fs::path generated = sandbox.work("generated");
  const auto claims = generate_store(sandbox, generated);
  // A lock file a killed git step leaves is stale once no one holds it for a second.
  const fs::path config = sandbox.work("config.toml");
  write_file(config, "[git]\nstale_lock_s = 1\n");
  const Environment preload{{"LD_PRELOAD", ENGRAM_KILL_SHIM},
                            {"ASAN_OPTIONS", "verify_asan_link_order=0"}};

  // An uninterrupted run: the state every killed one must end in, and how many
  // calls a run makes, which is where the kill moments are drawn from.
  const fs::path reference = sandbox.work("reference");
  copy_folder(generated, reference);
  auto counting = preload;
  counting["ENGRAM_TEST_COUNT_CALLS_TO"] = sandbox.work("calls").string();
  const auto whole = consolidate(sandbox, reference, config, counting);
  INFO(whole.out << whole.err);
  REQUIRE(whole.exit_code == 0);
  const long calls = std::stol(read_file(sandbox.work("calls")));
  REQUIRE(calls > 100);
  const auto expected = memory_files(reference);
  const std::string reference_text = all_text(reference);
  for (const auto& claim : claims) {
    INFO(claim);
    REQUIRE_THAT(reference_text, Catch::Contains(claim));
  }
  check_sound(sandbox, reference);
  REQUIRE(consolidation_commits(sandbox, reference) == 1);

  std::mt19937 random(k_seed);
  std::uniform_int_distribution<long> moment(1, calls);
  const fs::path store = sandbox.work("store");
  const int kills = kills_wanted();
  int killed = 0;
  for (int attempt = 0; killed < kills; ++attempt) {
    REQUIRE(attempt < 2 * kills);
    const long at = moment(random);
    INFO("seed " << k_seed << ", attempt " << attempt << ": killed at call " << at << " of "
                 << calls);
    copy_folder(generated, store);
    auto kill = preload;
    kill["ENGRAM_TEST_KILL_AT_CALL"] = std::to_string(at);
    const auto interrupted = consolidate(sandbox, store, config, kill);
    INFO(interrupted.out << interrupted.err);
    REQUIRE((interrupted.exit_code == 128 + SIGKILL || interrupted.exit_code == 0));
    killed += interrupted.exit_code == 128 + SIGKILL ? 1 : 0;

    const auto rerun = consolidate(sandbox, store, config);
    INFO(rerun.out << rerun.err);
    REQUIRE(rerun.exit_code == 0);
    // Every claim where an uninterrupted run put it, byte for byte; one
    // consolidation commit; nothing left for git status; a sound repository.
    const std::string text = all_text(store);
    for (const auto& claim : claims) {
      INFO(claim);
      CHECK_THAT(text, Catch::Contains(claim));
    }
    // The first failing kill stops the test: one reproducible failure is enough to read.
    REQUIRE(memory_files(store) == expected);
    REQUIRE(consolidation_commits(sandbox, store) == 1);
    REQUIRE(git_out(sandbox, store, {"status", "--porcelain"}).empty());
    const auto fsck = sandbox.git(store, {"fsck", "--full"});
    INFO(fsck.out + fsck.err);
    REQUIRE(fsck.exit_code == 0);
    REQUIRE_THAT(fsck.out + fsck.err, !Catch::Contains("error") && !Catch::Contains("broken") &&
                                          !Catch::Contains("missing"));
  }
  CHECK(killed >= kills);
}
