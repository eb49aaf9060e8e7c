// The memory merge of team sync (engine/memory_merge.hpp), rule by rule, on
// realistic memory files: both sides' claims kept, a claim added twice kept
// once, a value changed on both sides resolved by time with the other kept
// in a marker, removals honoured, frontmatter merged field by field, and bad
// input refused without losing either version.
#include "claims/split.hpp"
#include "engine/memory_merge.hpp"
#include "lib/occurrences.hpp"
#include "store/memory_file.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <engram/markers.hpp>

using engram::engine::merge_memory;
using engram::engine::MergedMemory;
using engram::engine::MergeOptions;
using engram::engine::MergeSide;
using engram::test::occurrences;

namespace {

// A four-layer semantic memory with the given tags and body.
std::string memory(const std::string& tags, const std::string& body,
                   const std::string& extra = "") {
  return "---\ntype: semantic\ntags: [" + tags + "]\ncreated: 2026-05-01\n" + extra + "---\n" +
         body;
}

// The body every side starts from: a list, a paragraph, a marker kept from before.
const std::string k_base_body =
    "# Deploys\n"
    "\n"
    "- Deploys go through the `deploy` pipeline in CI.\n"
    "- The staging cluster runs 3 replicas of the billing service.\n"
    "  <!-- superseded 2026-04-02: previously \"- The staging cluster runs 2 replicas of the "
    "billing service.\" -->\n"
    "- Rollbacks use `kubectl rollout undo`.\n"
    "\n"
    "## Freezes\n"
    "\n"
    "Deploys freeze on Fridays after 15:00. The freeze is announced in #ops.\n";

const std::string k_base = memory("deploy, ci", k_base_body);

// `text` with `from` replaced by `to` (which must be there).
std::string with(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

// Merges ours (this machine, at `ours_time`) with theirs (origin/main, at `theirs_time`).
MergedMemory merged(const std::optional<std::string>& base, const std::string& ours,
                    const std::string& theirs, std::int64_t ours_time = 100,
                    std::int64_t theirs_time = 200) {
  const auto result = merge_memory(
      base ? std::optional<std::string_view>(*base) : std::nullopt,
      MergeSide{ours, ours_time, "this machine"}, MergeSide{theirs, theirs_time, "origin/main"},
      MergeOptions{engram::Date(2026, 11, 22), "semantic/deploys.md", 0.9});
  if (!result) {
    FAIL(result.error().to_string());
  }
  return *result;
}

// The live claims of a file's body, each without its markers.
std::vector<std::string> live(const std::string& file) {
  const auto parsed = engram::store::MemoryFile::parse("merged.md", file);
  REQUIRE(parsed);
  std::vector<std::string> out;
  for (const auto& claim : engram::claims::split_claims(parsed->body())) {
    out.push_back(engram::markers::split_markers(claim.text).own);
  }
  return out;
}

// The actions of a merge with the verb `action`.
std::vector<engram::Action> actions(const MergedMemory& merge, const std::string& action) {
  std::vector<engram::Action> out;
  std::copy_if(merge.actions.begin(), merge.actions.end(), std::back_inserter(out),
               [&](const auto& a) { return a.action == action; });
  return out;
}

const std::string k_canary = "- Canary deploys take 10 % of traffic for 30 minutes.\n";
const std::string k_blue = "- Blue-green deploys keep the old pods for an hour.\n";
const std::string k_rollbacks = "- Rollbacks use `kubectl rollout undo`.\n";
const std::string k_replicas_3 = "- The staging cluster runs 3 replicas of the billing service.";

} // namespace

TEST_CASE("a merge keeps the claims both sides appended to the same section") {
  const auto ours = with(k_base, k_rollbacks, k_rollbacks + k_canary);
  const auto theirs = with(k_base, k_rollbacks, k_rollbacks + k_blue);
  const auto result = merged(k_base, ours, theirs);
  CHECK(result.text == with(k_base, k_rollbacks, k_rollbacks + k_canary + k_blue));
  const auto merges = actions(result, "merged");
  REQUIRE(merges.size() == 1);
  CHECK(merges[0].rule == "sync");
  CHECK(merges[0].claim == "- Blue-green deploys keep the old pods for an hour.");
  CHECK(merges[0].source == "origin/main");
  CHECK(merges[0].target == "semantic/deploys.md");
  CHECK(result.actions.size() == 1);
}

TEST_CASE("a merge adds a claim that both sides added only once, even worded apart") {
  const auto ours = with(k_base, k_rollbacks, k_rollbacks + k_canary + k_blue);
  const auto theirs =
      with(k_base, k_rollbacks,
           k_rollbacks + k_canary + "- blue-green deploys keep the old pods for an hour\n");
  const auto result = merged(k_base, ours, theirs);
  CHECK(occurrences(result.text, "Canary deploys") == 1);
  CHECK(occurrences(result.text, "lue-green deploys") == 1);
  // Theirs is newer: its wording takes the place of ours'.
  CHECK_THAT(result.text, Catch::Contains(k_canary + "- blue-green deploys keep the old pods"));
  const auto duplicates = actions(result, "duplicate");
  REQUIRE(duplicates.size() == 1);
  CHECK(duplicates[0].claim == "- Blue-green deploys keep the old pods for an hour.");
  CHECK(duplicates[0].source == "this machine");
  CHECK(actions(result, "merged").size() == 1);
  // Both orders keep one of each.
  const auto swapped = merged(k_base, theirs, ours, 200, 100);
  CHECK(occurrences(swapped.text, "lue-green deploys") == 1);
  CHECK(live(swapped.text) == live(result.text));
}

TEST_CASE("a merge of a value changed on both sides keeps the newer one live and the other "
          "in a marker, in either order") {
  const auto ours = with(k_base, "runs 3 replicas", "runs 5 replicas");
  const auto theirs = with(k_base, "runs 3 replicas", "runs 7 replicas");
  const std::string kept_5 = "<!-- superseded 2026-11-22: previously \"- The staging cluster runs "
                             "5 replicas of the billing service.\" -->";
  const std::string kept_2 = "<!-- superseded 2026-04-02: previously \"- The staging cluster runs "
                             "2 replicas of the billing service.\" -->";
  const std::string expected = "- The staging cluster runs 7 replicas of the billing service.\n  " +
                               kept_2 + "\n  " + kept_5 + "\n";
  for (const bool swap : {false, true}) {
    INFO("swapped: " << swap);
    // Theirs is newer (time 200) as ours, or as theirs when the arguments are swapped.
    const auto result =
        swap ? merged(k_base, theirs, ours, 200, 100) : merged(k_base, ours, theirs);
    CHECK_THAT(result.text, Catch::Contains(expected));
    CHECK(occurrences(result.text, "runs 5 replicas") == 1); // only in its marker
    const auto superseded = actions(result, "superseded");
    REQUIRE(superseded.size() == 1);
    CHECK(superseded[0].claim == "- The staging cluster runs 7 replicas of the billing service.");
    CHECK_THAT(superseded[0].reason, Catch::Contains("runs 5 replicas"));
    CHECK_THAT(superseded[0].reason, Catch::Contains("this machine"));
    CHECK_THAT(superseded[0].reason, Catch::Contains("origin/main"));
  }
  // Times equal: the side with the greater name wins ("this machine"), whichever argument it is.
  const MergeOptions options{engram::Date(2026, 11, 22), "semantic/deploys.md", 0.9};
  const MergeSide mine{ours, 100, "this machine"};
  const MergeSide origin{theirs, 100, "origin/main"};
  const auto forward = merge_memory(k_base, mine, origin, options);
  const auto backward = merge_memory(k_base, origin, mine, options);
  REQUIRE((forward && backward));
  CHECK(live(forward->text) == live(backward->text));
  CHECK(occurrences(forward->text,
                    "- The staging cluster runs 5 replicas of the billing service.\n") == 1);
}

TEST_CASE("a merge of a value changed on both sides within a paragraph keeps the paragraph") {
  const auto ours = with(k_base, "Fridays after 15:00", "Fridays after 14:00");
  const auto theirs = with(k_base, "Fridays after 15:00", "Fridays after 16:00");
  const auto result = merged(k_base, ours, theirs);
  CHECK_THAT(result.text,
             Catch::EndsWith("Deploys freeze on Fridays after 16:00. The freeze is announced in "
                             "#ops.\n\n<!-- superseded 2026-11-22: previously \"Deploys freeze on "
                             "Fridays after 14:00.\" -->\n"));
  CHECK(live(result.text) == live(merged(k_base, theirs, ours, 200, 100).text));
}

TEST_CASE("a merge removes a claim one side removed and the other left alone") {
  const auto removed = with(k_base, k_rollbacks, "");
  const auto kept = with(k_base, k_rollbacks, k_rollbacks + k_canary);
  const auto result = merged(k_base, kept, removed);
  CHECK(result.text == with(k_base, k_rollbacks, k_canary));
  const auto removals = actions(result, "removed");
  REQUIRE(removals.size() == 1);
  CHECK(removals[0].claim == "- Rollbacks use `kubectl rollout undo`.");
  CHECK(removals[0].source == "origin/main");
  // The other way round, ours' removal stands and is not reported again.
  const auto other_way = merged(k_base, removed, kept);
  CHECK(other_way.text == with(k_base, k_rollbacks, k_canary));
  CHECK(actions(other_way, "removed").empty());
  // A sentence removed from a paragraph goes, and the rest of it stays.
  const auto no_announce = with(k_base, " The freeze is announced in #ops.", "");
  CHECK(merged(k_base, kept, no_announce).text ==
        with(kept, " The freeze is announced in #ops.", ""));
}

TEST_CASE("a merge keeps a claim one side removed and the other changed, as changed") {
  const auto removed = with(k_base, k_rollbacks, "");
  const auto changed =
      with(k_base, "`kubectl rollout undo`", "`kubectl rollout undo --to-revision`");
  for (const bool swap : {false, true}) {
    const auto result = swap ? merged(k_base, changed, removed) : merged(k_base, removed, changed);
    CHECK(occurrences(result.text, "kubectl rollout undo --to-revision") == 1);
    CHECK(occurrences(result.text, "kubectl rollout undo`") == 0);
  }
  // A value one side changed and the other left alone takes the change.
  const auto five = with(k_base, "runs 3 replicas", "runs 5 replicas");
  const auto result = merged(k_base, with(k_base, k_rollbacks, k_rollbacks + k_canary), five);
  CHECK(occurrences(result.text, "runs 5 replicas") == 1);
  CHECK(occurrences(result.text, "runs 3 replicas") == 0);
  CHECK_THAT(result.text, Catch::Contains("- The staging cluster runs 5 replicas of the billing "
                                          "service.\n  <!-- superseded 2026-04-02"));
}

TEST_CASE("a merge keeps the superseded markers either side carried, never nested") {
  const std::string ours_marker =
      "<!-- superseded 2026-10-01: previously \"- Rollbacks use `helm rollback`.\" -->";
  const std::string theirs_marker =
      "<!-- superseded 2026-10-03: previously \"- Rollbacks use `argo rollback`.\" -->";
  const auto ours = with(k_base, k_rollbacks, k_rollbacks + "  " + ours_marker + "\n");
  const auto theirs = with(k_base, k_rollbacks, k_rollbacks + "  " + theirs_marker + "\n");
  const auto result = merged(k_base, ours, theirs);
  CHECK_THAT(result.text,
             Catch::Contains(k_rollbacks + "  " + ours_marker + "\n  " + theirs_marker + "\n"));
  for (const auto& marker : engram::markers::split_markers(result.text).markers) {
    CHECK(occurrences(marker, "<!--") == 1);
  }
  // A marker standing after a paragraph (as rules write one beside a sentence) is kept too.
  const std::string after = "<!-- superseded 2026-10-04: previously \"Deploys freeze on "
                            "Thursdays.\" -->";
  const auto paragraph = with(k_base, "in #ops.\n", "in #ops.\n\n" + after + "\n");
  CHECK(occurrences(merged(k_base, ours, paragraph).text, after) == 1);
  CHECK(occurrences(merged(k_base, paragraph, ours).text, after) == 1);
}

TEST_CASE("a merge takes a new sentence of theirs as a list item of its section") {
  const auto theirs =
      with(k_base, "announced in #ops.", "announced in #ops. Hotfixes may skip it.");
  const auto result = merged(k_base, with(k_base, k_rollbacks, ""), theirs);
  CHECK_THAT(result.text,
             Catch::EndsWith("## Freezes\n\nDeploys freeze on Fridays after 15:00. The freeze is "
                             "announced in #ops.\n\n- Hotfixes may skip it.\n"));
}

TEST_CASE("a merge adds a claim under headings ours lacks at the end, with those headings") {
  const auto theirs = k_base + "\n## Secrets\n\n- Deploy keys live in Vault under `ci/deploy`.\n";
  const auto ours = with(k_base, k_rollbacks, k_rollbacks + k_canary);
  const auto result = merged(k_base, ours, theirs);
  CHECK(result.text == ours + "\n## Secrets\n\n- Deploy keys live in Vault under `ci/deploy`.\n");
  const auto parsed = engram::store::MemoryFile::parse("m.md", result.text);
  REQUIRE(parsed);
  CHECK(engram::claims::split_claims(parsed->body()).back().context == "Deploys > Secrets");
}

TEST_CASE("a merge joins frontmatter field by field") {
  const auto base = memory("deploy, ci", k_base_body,
                           "salience: medium\nconfidence: 0.6\nlast-accessed: 2026-06-01\n"
                           "uses: 3\nowner: platform\n");
  const auto ours = memory("deploy, ci, k8s", k_base_body,
                           "salience: medium\nconfidence: 0.7\nlast-accessed: 2026-07-09\n"
                           "uses: 5\nowner: platform\n");
  const auto theirs = memory("deploy, staging", k_base_body,
                             "salience: high\nconfidence: 0.9\nlast-accessed: 2026-07-02\n"
                             "uses: 4\nowner: platform\nreviewed: true\n");
  const auto result = merged(base, ours, theirs);
  // ci went on theirs; k8s and staging came on one side each; salience changed
  // on theirs only; confidence on both (theirs is newer); the later access; both
  // sides' uses; a field theirs added.
  CHECK(result.text == memory("deploy, k8s, staging", k_base_body,
                              "salience: high\nconfidence: 0.9\nlast-accessed: 2026-07-09\n"
                              "uses: 6\nowner: platform\nreviewed: true\n"));
  // Without a base, every list is a union, nothing is removed.
  CHECK_THAT(merged(std::nullopt, ours, theirs).text,
             Catch::StartsWith("---\ntype: semantic\ntags: [deploy, ci, k8s, staging]\n"));
}

TEST_CASE("a merge of a file new on both sides keeps every claim of each") {
  const auto ours = memory("deploy", "# Deploys\n\n- Deploys run from CI.\n" + k_canary);
  const auto theirs = memory("deploy", "# Deploys\n\n- Deploys run from CI.\n" + k_blue +
                                           "\n# Access\n\nOnly the platform team may deploy.\n");
  const auto result = merged(std::nullopt, ours, theirs);
  CHECK(result.text ==
        memory("deploy", "# Deploys\n\n- Deploys run from CI.\n" + k_canary + k_blue +
                             "\n# Access\n\n- Only the platform team may deploy.\n"));
  CHECK(actions(result, "merged").size() == 2);
  CHECK(actions(result, "removed").empty());
}

TEST_CASE("a merge keeps unicode text byte for byte") {
  const std::string zurich = "- Der Server läuft in Zürich auf Port 8443 — nicht 443.\n";
  const std::string freeze = "- 部署在周五冻结，紧急修复除外。\n";
  const auto ours = with(k_base, k_rollbacks, k_rollbacks + zurich);
  const auto theirs = with(k_base, k_rollbacks, k_rollbacks + freeze);
  const auto result = merged(k_base, ours, theirs);
  CHECK(result.text == with(k_base, k_rollbacks, k_rollbacks + zurich + freeze));
}

TEST_CASE("a merge of files with CRLF line ends keeps them") {
  const auto crlf = [](const std::string& text) {
    std::string out;
    for (char c : text) {
      out += c == '\n' ? std::string("\r\n") : std::string(1, c);
    }
    return out;
  };
  const auto ours = with(k_base, k_rollbacks, k_rollbacks + k_canary);
  const auto theirs = with(k_base, "runs 3 replicas", "runs 7 replicas") + "\n## Secrets\n\n- "
                                                                           "Keys live in Vault.\n";
  const auto plain = merged(k_base, ours, theirs);
  const auto result = merged(crlf(k_base), crlf(ours), crlf(theirs));
  CHECK(result.text == crlf(plain.text));
  CHECK(occurrences(result.text, "\n") == occurrences(result.text, "\r\n"));
  CHECK_THAT(result.text, Catch::Contains("runs 7 replicas"));
  CHECK_THAT(result.text, Catch::Contains("- Keys live in Vault.\r\n"));
}

TEST_CASE("a merge refuses a side it cannot read, and merges nothing") {
  const auto bad_yaml = "---\ntype: semantic\ntags: [deploy\n---\n" + k_base_body;
  const MergeOptions options{engram::Date(2026, 11, 22), "semantic/deploys.md", 0.9};
  const auto refused = merge_memory(k_base, MergeSide{k_base, 1, "this machine"},
                                    MergeSide{bad_yaml, 2, "origin/main"}, options);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().path == "semantic/deploys.md");
  CHECK_THAT(refused.error().reason, Catch::StartsWith("origin/main's version: "));

  const auto conflicted = with(k_base, k_rollbacks,
                               "<<<<<<< HEAD\n- Rollbacks use helm.\n=======\n" + k_rollbacks +
                                   ">>>>>>> origin/main\n");
  const auto refused_ours = merge_memory(k_base, MergeSide{conflicted, 1, "this machine"},
                                         MergeSide{k_base, 2, "origin/main"}, options);
  REQUIRE_FALSE(refused_ours);
  CHECK_THAT(refused_ours.error().reason, Catch::Contains("conflict markers"));

  // A base that cannot be read is no base: nothing is removed, everything is kept.
  const auto removed = with(k_base, k_rollbacks, "");
  const auto result = merged(bad_yaml, k_base, removed);
  CHECK(occurrences(result.text, "kubectl rollout undo") == 1);
}
