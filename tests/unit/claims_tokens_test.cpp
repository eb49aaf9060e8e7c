// Tests of comparison tokens: which words are significant, what is a value,
// and what negates.
#include "claims/tokens.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

using engram::claims::tokens_of;

namespace {

// Whether `list` holds `item`.
bool has(const std::vector<std::string>& list, const std::string& item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

} // namespace

TEST_CASE("claims: stopwords are dropped and words are stemmed") {
  const auto tokens = tokens_of("The API is returning the items");
  CHECK(tokens.words == tokens_of("API returns items").words);
  CHECK_FALSE(has(tokens.words, "the"));
}

TEST_CASE("claims: numbers, versions, dates, paths, URLs and quoted values are values") {
  const auto tokens = tokens_of("Pin v1.4.2, 1,000 rows, on 2024-03-01 in /etc/x.conf per "
                                "https://x.org and `make` with \"fast\"");
  CHECK(has(tokens.values, "1.4.2"));
  CHECK(has(tokens.values, "1000"));
  CHECK(has(tokens.values, "2024-03-01"));
  CHECK(has(tokens.values, "/etc/x.conf"));
  CHECK(has(tokens.values, "https://x.org"));
  CHECK(has(tokens.values, "make")); // quotes are markup: `make` is the value make
  CHECK(has(tokens.words, "fast"));  // a word in quotes is the word
  CHECK(tokens_of("Edit `/etc/x.conf`").values == tokens_of("Edit /etc/x.conf").values);
  CHECK(tokens_of("Pin 1.4.2").values == tokens_of("Pin v1.4.2").values);
}

TEST_CASE("claims: month and weekday names are values, plural or not") {
  CHECK(tokens_of("Freeze on Fridays").values == tokens_of("Freeze on Friday").values);
  CHECK(has(tokens_of("Released in March").values, "march"));
}

TEST_CASE("claims: negations set the polarity and are not words") {
  CHECK(tokens_of("Tests do not need the network").negated);
  CHECK(tokens_of("Never use tabs").negated);
  CHECK(tokens_of("It is no longer supported").negated);
  CHECK(tokens_of("It doesn\u2019t retry").negated);
  CHECK(tokens_of("Build without the cache").negated);
  CHECK_FALSE(tokens_of("Tests need the network").negated);
  CHECK(tokens_of("It is no longer supported").words == tokens_of("It is supported").words);
}

TEST_CASE("claims: an apostrophe inside a word is not a quote") {
  const auto tokens = tokens_of("Don't use the user's 'legacy' flag");
  CHECK(tokens.values.empty()); // 'legacy' is the word legacy, quoted
  CHECK(std::find(tokens.words.begin(), tokens.words.end(), "legaci") != tokens.words.end());
}

TEST_CASE("claims: a claim's subject is what comes before its predicate") {
  using V = std::vector<std::string>;
  CHECK(tokens_of("Server web-1 has 16 GB of RAM.").subject.size() == 2);
  CHECK(tokens_of("Server web-1 has 16 GB of RAM.").subject.back() == "web-1");
  CHECK(tokens_of("Host web1 runs Ubuntu 22.04").subject == V{"host", "web1"});
  CHECK(tokens_of("The module leaks file handles after a reload.").subject == V{"modul"});
  CHECK(tokens_of("Integration tests need network access").subject ==
        tokens_of("Integration tests do not need network access").subject);
  CHECK(tokens_of("Always pin versions").subject.empty());     // an instruction is all predicate
  CHECK(tokens_of("The session store is Memcached.").copular); // a name, not a participle
  CHECK_FALSE(tokens_of("The cache is invalidated nightly").copular);
  CHECK(tokens_of("Release 412 of the api went out.").subject == V{"412", "api", "relea"});
  CHECK(tokens_of("The left panel shows alerts.").subject.size() == 2); // "left", "panel"
  CHECK(tokens_of("CI runs on Travis.").copular); // a verb and a preposition name a value
  CHECK_FALSE(tokens_of("The team uses Slack.").copular);
  // A plural noun before a past verb and its preposition is the subject's;
  // a verb before a past that qualifies its object is not.
  CHECK(tokens_of("The team docs moved to Notion.").subject == V{"doc", "team"});
  CHECK(tokens_of("Alice sends signed emails.").subject == V{"alic"});
  // "left" is a verb after a subject; "in May" names a month, no modal.
  CHECK(tokens_of("Noor left Umbrella in June.").subject == V{"noor"});
  CHECK(tokens_of("Noor started at Umbrella in May.").subject == V{"noor"});
  CHECK(tokens_of("Noor may start at Umbrella.").subject == V{"noor"});
  // "on" before a noun phrase or a value says where, not that a switch is on.
  CHECK(tokens_of("Noor is on the growth team.").values.empty());
  CHECK(tokens_of("Python is on 3.11.").values == V{"3.11"});
  CHECK(tokens_of("The flag is on.").values == V{"on"});
  CHECK(tokens_of("Dark mode is on in the app.").values == V{"on"});
}

TEST_CASE("claims: a name is a name in any alphabet") {
  // A place written capitalised is a place one can move to, whatever its letters.
  CHECK(tokens_of("Tom relocated to Wrocław in March.").moved == "reloc");
  CHECK(tokens_of("Tom relocated to wrocław in March.").moved.empty());
  CHECK(tokens_of("Tom relocated to Wrocław in March.").moved_when ==
        std::vector<std::string>{"march"});
}

TEST_CASE("claims: a log line's opening stamp is when it was written, not what it says") {
  using V = std::vector<std::string>;
  const V race{"not", "rac", "rw7x"};
  CHECK(tokens_of("2026-12-06: Race note rw7x says the job ran.").subject == race);
  CHECK(tokens_of("- 2026-12-06 14:32 \u2014 Race note rw7x says the job ran.").subject == race);
  CHECK(tokens_of("1. [2026-12-06T14:32] Race note rw7x says the job ran.").subject == race);
  CHECK(tokens_of("- [x] 14:32 Race note rw7x says the job ran.").subject == race);
  CHECK(tokens_of("> 14:32 - Race note rw7x says the job ran.").subject == race);
  const auto stamped = tokens_of("2026-12-06: The API version is 4.");
  CHECK(stamped.subject == V{"api", "version"});
  CHECK_FALSE(has(stamped.values, "2026-12-06"));
  CHECK(tokens_of("[14:32] Restarted the cache job.").values.empty());
  // Not a stamp: a date a verb follows is the subject; a range, a date run
  // into a word, a stamp with nothing after it.
  CHECK(tokens_of("2026-12-06 is the release date.").subject == V{"dat", "relea"});
  CHECK(tokens_of("14:30-15:00 standup in room 4.").subject ==
        tokens_of("14:30-15:00 standup in room 4").subject);
  CHECK(tokens_of("2026-12-06abc: Race note rw7x says the job ran.").subject != race);
  CHECK(has(tokens_of("2026-12-06:").values, "2026-12-06"));
}

TEST_CASE("claims: numbers compare as numbers however they are written") {
  CHECK(tokens_of("at least twelve characters").values ==
        tokens_of("at least 12 characters").values);
  CHECK(tokens_of("thirty-five people").values == tokens_of("35 people").values);
  CHECK(tokens_of("March 5th").values == tokens_of("5 March").values);
  CHECK(tokens_of("99.90% availability").values == tokens_of("99.9% availability").values);
  CHECK(tokens_of("16GB of RAM").values == tokens_of("16 GB of RAM").values);
  CHECK(tokens_of("16GB of RAM").words == tokens_of("16 GB of RAM").words);
}

TEST_CASE("claims: 'one' is a number where it counts, a word where it stands for a thing") {
  using V = std::vector<std::string>;
  CHECK(tokens_of("Every pull request needs one approval.").values == V{"1"});
  CHECK(tokens_of("Tokens expire after one hour.").values ==
        tokens_of("Tokens expire after 1 hour.").values);
  CHECK(tokens_of("One worker drains the queue.").values == V{"1"});
  CHECK(tokens_of("one thousand rows").values == V{"1000"});
  // A pronoun: after a determiner, before "of", at the end, in an idiom.
  CHECK(tokens_of("Use the fast one for builds.").values.empty());
  CHECK(tokens_of("No one owns the billing service.").values.empty());
  CHECK(tokens_of("One of the backups failed.").values.empty());
  CHECK(tokens_of("Ana bought a new one.").values.empty());
  CHECK(tokens_of("One thing to check is the cache.").values.empty());
  // A name: "One" capitalised after a word.
  CHECK(tokens_of("The speaker is a Sonos One.").values.empty());
  CHECK(tokens_of("The console is an Xbox One with one controller.").values.empty());
}

TEST_CASE("claims: a bound on a number is one word however it is written") {
  const auto words = [](const char* text) { return tokens_of(text).words; };
  CHECK(words("Keep PRs at most 400 lines.") == words("Keep PRs under 400 lines."));
  CHECK(words("Keep PRs no more than 400 lines.") == words("Keep PRs under 400 lines."));
  CHECK(words("Returns up to 50 results.") == words("Returns less than 50 results."));
  CHECK(words("Coverage above 80%.") == words("Coverage at least 80%."));
  CHECK(words("Costs a minimum of $20.") == words("Costs more than $20."));
  CHECK(words("Ask before spending over $50.") == words("Ask before spending more than $50."));
  CHECK(words("Coverage above 80%.") != words("Coverage under 80%."));
  // "No more than" is a bound, not a negation.
  CHECK_FALSE(tokens_of("Keep PRs no more than 400 lines.").negated);
  // Before anything but a number the words are what they say.
  CHECK(words("Back up to Backblaze nightly.") != words("Back under Backblaze nightly."));
  CHECK(words("Secrets live under kv/prod.") != words("Secrets live below kv/prod."));
  CHECK(words("Prefers tea over coffee.") != words("Prefers tea above coffee."));
}

TEST_CASE("claims: scopes and identifiers are what a fact holds in") {
  using V = std::vector<std::string>;
  CHECK(tokens_of("The flow is enabled in staging").scopes == V{"staging"});
  CHECK(tokens_of("Drain runner ci-01 first").scopes == V{"ci-01"});
}

TEST_CASE("claims: a number with its magnitude, or after a designator, is one value") {
  CHECK(tokens_of("about 2.5 million rows").values == tokens_of("about 2,500,000 rows").values);
  CHECK(tokens_of("a cap of \u20ac500k").values == tokens_of("a cap of \u20ac500,000").values);
  CHECK(tokens_of("A cleaning costs $120.00.").values ==
        tokens_of("A cleaning costs $120.").values);
  CHECK(tokens_of("It costs $120.50.").values != tokens_of("It costs $120.").values);
  using V = std::vector<std::string>;
  CHECK(tokens_of("Run ANALYZE on shard 3").scopes == V{"shard-3"});
  CHECK(tokens_of("The project targets C++17.").scopes.empty());           // a version, not a name
  CHECK(tokens_of("The primary AWS region is us-east-1.").scopes.empty()); // the value stated
}

TEST_CASE("claims: what a contrast ', not X' names is passed over") {
  const auto tokens = tokens_of("Post the daily summary in #ops now, not #general.");
  CHECK(has(tokens.passed_over, "#general"));
  CHECK_FALSE(has(tokens.passed_over, "#ops"));
  CHECK(has(tokens_of("Use tabs; not spaces.").passed_over, "spac"));
  // A marker on the next line is no part of the contrast.
  CHECK(has(tokens_of("Use tabs, not spaces.\n  <!-- superseded 2026-11-22 -->").passed_over,
            "spac"));
  // "not only", "not yet" and a clause after "not" pass nothing over.
  CHECK(tokens_of("The cache is cleared nightly, not only on deploys.").passed_over.empty());
  CHECK(tokens_of("Works with Postgres, not yet with MySQL.").passed_over.empty());
  CHECK(tokens_of("Deploys go out on Fridays, not Mondays when half of the team is out of the "
                  "office.")
            .passed_over.empty());
}

TEST_CASE("claims: a reason after a dash, 'because' or a closing parenthesis is set apart") {
  const auto allergic =
      tokens_of("Ryan is not allergic to penicillin — the 2025 test was negative.");
  CHECK(allergic.reason == std::vector<std::string>{"2025", "negat", "test"});
  CHECK(allergic.words == tokens_of("Ryan is not allergic to penicillin.").words);
  CHECK(allergic.scopes.empty()); // "test" is the reason's, not a scope the claim holds in
  CHECK(tokens_of("Builds are slow because the cache is cold").reason ==
        std::vector<std::string>{"cach", "cold"});
  CHECK(tokens_of("Ryan is not allergic (a skin check was negative).").reason.size() == 3);
  CHECK(tokens_of("Always pin versions; otherwise builds break").words ==
        tokens_of("Always pin versions").words);
  CHECK(
      tokens_of("Don't mock the database: we got burned when the migration failed").reason.size() ==
      5);
  // A superseded marker is no part of the claim, and no reason: the claim
  // with it reads as the claim without it.
  const auto marked = tokens_of("Keep PRs small - under 400 lines\n"
                                "  <!-- superseded 2026-11-22: previously \"it was decided\" -->");
  CHECK(marked.words == tokens_of("Keep PRs small - under 400 lines").words);
  CHECK(marked.reason.empty());
  // A section of several paragraphs has labels after its colons.
  CHECK(tokens_of("## Solution: sync-lock\n\n**Symptom:** it stalls after a stale lock\n"
                  "**Solution:** it was rebuilt")
            .reason.empty());
  // A label's colon opens its value.
  CHECK(tokens_of("Owner: the platform team is on call").reason.empty());
  // No reason: a thing named, an exception, a next step, a short claim, an aside with no verb.
  for (const auto* text : {"Use pnpm — not npm", "Never deploy on Fridays — except hotfixes",
                           "Run the migrations — then restart the workers",
                           "Note — the VPN is required", "The API is v2 (the one in us-east-1)"}) {
    CAPTURE(text);
    CHECK(tokens_of(text).reason.empty());
  }
}
