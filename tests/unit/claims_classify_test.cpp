// Tests of claim classification: the four-layer seed's decision tree,
// reference first, then behavioural, then factual.
#include "claims/classify.hpp"
#include "claims/words.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <string>
#include <string_view>
#include <vector>

using engram::ClaimKind;
using engram::claims::classify;

TEST_CASE("claims: a pointer to an external place is a reference") {
  CHECK(classify("The runbook can be found at https://wiki/x") == ClaimKind::reference);
  CHECK(classify("Status page: https://status.example.com") == ClaimKind::reference);
  CHECK(classify("Design notes are on www.example.com/design") == ClaimKind::reference);
  CHECK(classify("The restore procedure can be found in the ops handbook.") ==
        ClaimKind::reference);
  CHECK(classify("The config lives in ~/.config/engram/config.toml") == ClaimKind::reference);
  CHECK(classify("For quotas, refer to the billing wiki.") == ClaimKind::reference);
}

TEST_CASE("claims: \"is at\" and \"see\" make a reference only with a path, link or channel") {
  CHECK(classify("The runbook is at docs/ops/runbook.md") == ClaimKind::reference);
  CHECK(classify("See [the runbook](docs/runbook.md) for restores.") == ClaimKind::reference);
  CHECK(classify("Docs are at docs/internal/ on the share") == ClaimKind::reference);
  CHECK(classify("The build is at 90% coverage.") == ClaimKind::factual);
  CHECK(classify("See you tomorrow.") == ClaimKind::factual);
}

TEST_CASE("claims: a dashboard, doc or channel named with its place is a reference") {
  CHECK(classify("Latency dashboard: grafana.internal/d/latency") == ClaimKind::reference);
  CHECK(classify("Deploy alerts go to the #ops-alerts channel.") == ClaimKind::reference);
  CHECK(classify("The dashboard is slow on Mondays.") == ClaimKind::factual);
}

TEST_CASE("claims: a reference wins over an instruction, as the seed's order says") {
  CHECK(classify("Always check https://status.example.com before deploying.") ==
        ClaimKind::reference);
}

TEST_CASE("claims: a URL inside inline code is part of a command, not a pointer") {
  CHECK(classify("Install with `curl -fsSL https://example.com/install.sh | sh` first.") ==
        ClaimKind::behavioural);
  CHECK(classify("The runbook is at `docs/ops/runbook.md`") == ClaimKind::reference);
}

TEST_CASE("claims: an instruction keyword makes a behavioural claim") {
  CHECK(classify("Always verify with `where python`") == ClaimKind::behavioural);
  CHECK(classify("Never force-push to main.") == ClaimKind::behavioural);
  CHECK(classify("Don't commit secrets.") == ClaimKind::behavioural);
  CHECK(classify("Do not run migrations by hand.") == ClaimKind::behavioural);
  CHECK(classify("Avoid global installs.") == ClaimKind::behavioural);
  CHECK(classify("The user prefers short answers, so prefer bullet lists.") ==
        ClaimKind::behavioural);
  CHECK(classify("Use uv instead of pip.") == ClaimKind::behavioural);
  CHECK(classify("Make sure the VPN is up.") == ClaimKind::behavioural);
  CHECK(classify("Tokens must be rotated every 90 days.") == ClaimKind::behavioural);
  CHECK(classify("Answers should cite the source file.") == ClaimKind::behavioural);
  CHECK(classify("Remember to bump the changelog.") == ClaimKind::behavioural);
}

TEST_CASE("claims: a sentence that starts with an imperative verb is behavioural") {
  CHECK(classify("Run the migrations before deploying.") == ClaimKind::behavioural);
  CHECK(classify("- [ ] Check the logs after each release") == ClaimKind::behavioural);
  CHECK(classify("Build the image before pushing.") == ClaimKind::behavioural);
  CHECK(classify("When the build fails, rerun it with -v.") == ClaimKind::behavioural);
  CHECK(classify("The API is flaky. Retry twice.") == ClaimKind::behavioural);
}

TEST_CASE("claims: a noun that looks like a verb does not make an instruction") {
  CHECK(classify("Build takes 5 minutes on CI.") == ClaimKind::factual);
  CHECK(classify("Test suites run in parallel.") == ClaimKind::factual);
  CHECK(classify("Log files rotate daily.") == ClaimKind::factual);
}

TEST_CASE("claims: keywords match whole words only and not inside code") {
  CHECK(classify("Nevertheless the mustard is yellow.") == ClaimKind::factual);
  CHECK(classify("The flag `--always-make` rebuilds everything.") == ClaimKind::factual);
  CHECK(classify("The setup script:\n\n```\n# never edit by hand\nmake\n```") ==
        ClaimKind::factual);
}

TEST_CASE("claims: keywords match case-insensitively and with typographic apostrophes") {
  CHECK(classify("ALWAYS pin versions.") == ClaimKind::behavioural);
  CHECK(classify("Don\u2019t retry on 4xx.") == ClaimKind::behavioural);
}

TEST_CASE("claims: a timeless statement is factual") {
  CHECK(classify("Scripts go to `AppData\\Roaming\\Python\\Python312\\Scripts`") ==
        ClaimKind::factual);
  CHECK(classify("The user's name is Ada.") == ClaimKind::factual);
  CHECK(classify("The API returns 100 items per page.") == ClaimKind::factual);
  CHECK(classify("The team uses Postgres 15.") == ClaimKind::factual);
}

TEST_CASE("claims: a phrase set finds what asking has_phrase of each phrase finds") {
  using engram::claims::has_phrase;
  using engram::claims::PhraseSet;
  // Plain phrases, phrases words_of reads differently, and ones sharing first words.
  const std::vector<std::string_view> phrases = {"is at",    "is stored at", "see",
                                                 "don't",    "Make Sure",    "be  careful",
                                                 "must not", "must",         "a b a"};
  const PhraseSet set(phrases);
  const std::vector<std::string> vocabulary = {"is",   "at",   "stored", "see",     "don't",
                                               "make", "sure", "be",     "careful", "must",
                                               "not",  "a",    "b",      "never"};
  std::mt19937 random(7);
  std::size_t found = 0;
  for (int round = 0; round < 20000; ++round) {
    std::vector<std::string> words(random() % 7);
    for (auto& word : words) {
      word = vocabulary[random() % vocabulary.size()];
    }
    const bool any = std::any_of(phrases.begin(), phrases.end(), [&](std::string_view phrase) {
      return has_phrase(words, phrase);
    });
    std::string shown;
    for (const auto& word : words) {
      shown += word + ' ';
    }
    INFO(shown);
    REQUIRE(set.found_in(words) == any);
    found += any ? 1 : 0;
  }
  CHECK(found > 1000); // both answers were asked for many times
  CHECK(found < 19000);
}

TEST_CASE("claims: words_of splits at non-word bytes and can stop after the first words") {
  using engram::claims::words_of;
  using Words = std::vector<std::string>;
  CHECK(words_of("Don\u2019t  retry ON-4xx, it's 'quoted' caf\u00e9.") ==
        Words{"don't", "retry", "on", "4xx", "it's", "quoted", "caf\u00e9"});
  CHECK(words_of("''' ... ").empty());
  // The first `most` words are the first of all words, for every prefix of a text.
  const std::string text = "When it fails, rerun  the job' again\u2019s x";
  const auto all = words_of(text);
  for (std::size_t most = 0; most <= all.size() + 1; ++most) {
    const auto first = words_of(text, most);
    REQUIRE(first.size() == std::min(most, all.size()));
    CHECK(std::equal(first.begin(), first.end(), all.begin()));
  }
}

TEST_CASE("claims: without_code drops code spans and fenced blocks, and keeps the rest") {
  using engram::claims::without_code;
  CHECK(without_code("Run `make` then ``a ` b`` now") == "Run   then   now\n");
  CHECK(without_code("An unclosed ` tick") == "An unclosed ` tick\n");
  CHECK(without_code("``two` unmatched") == "``two` unmatched\n");
  CHECK(without_code("Before\n```\ncode\n```\nafter") == "Before\nafter\n");
}

TEST_CASE("claims: to-dos and open items are tasks, not knowledge") {
  for (const char* text :
       {"TODO: check the quota next week", "- [ ] rotate the API key",
        "FIXME: the retry loop never stops", "Need to ask Dana about the invoice.",
        "Next step: benchmark the new index.", "Follow up with legal on Monday.",
        "Investigate the flaky test tomorrow.",
        "Ask Sven whether his admin role can be removed."}) {
    INFO(text);
    CHECK(classify(text) == ClaimKind::task);
  }
  // A recurring checklist step is a rule; a sentence about tomorrow is not a task.
  CHECK(classify("- [ ] Check the logs after each release") == ClaimKind::behavioural);
  CHECK(classify("See you tomorrow.") == ClaimKind::factual);
}

TEST_CASE("claims: lines about the session itself are metadata") {
  for (const char* text :
       {"**Session ID**: 7f3a-22c1", "**Source**: telegram", "Model: claude-sonnet-4",
        "Started: 2026-03-04 09:12", "Context window at end: 61%",
        "Time zone of the session: Europe/Lisbon", "Conversation with Dana via Slack"}) {
    INFO(text);
    CHECK(classify(text) == ClaimKind::metadata);
  }
  CHECK(classify("The owner of the billing service is Priya.") == ClaimKind::factual);
  // The session's user is named in a few words; a description says who the user is.
  CHECK(classify("User: ryan") == ClaimKind::metadata);
  CHECK(classify("User: data scientist, focused on observability.") != ClaimKind::metadata);
}

TEST_CASE("claims: where things are kept is a reference when a place is named") {
  CHECK(classify("The Terraform modules are in the infra-modules repository.") ==
        ClaimKind::reference);
  CHECK(classify("Contract PDFs are in DocuSign under the Vendors folder.") ==
        ClaimKind::reference);
  CHECK(classify("- Benchmarks: bench/RESULTS.md") == ClaimKind::reference);
  CHECK(classify("Aunt Rosa lives in Porto.") == ClaimKind::factual);
  CHECK(classify("The bug is in the parser.") == ClaimKind::factual);
}

TEST_CASE("claims: a verb no list names opens an instruction when a determiner follows it") {
  CHECK(classify("Offer a refund for outages longer than four hours.") == ClaimKind::behavioural);
  // A gerund or a past form is a fact's subject or verb, a label a label, a name a name.
  CHECK(classify("Raising the page size brought the run down to 6 minutes.") == ClaimKind::factual);
  CHECK(classify("Note: the VPN drops connections when the laptop sleeps.") == ClaimKind::factual);
  CHECK(classify("Miso the cat is four years old.") == ClaimKind::factual);
}

TEST_CASE("claims: a label that names an instruction makes the line one") {
  // Claude Code files the user's corrections of how it works as feedback.
  CHECK(classify("**Feedback:** stop adding a summary paragraph at the end of every answer.") ==
        ClaimKind::behavioural);
  CHECK(classify("**Rule:** no emojis in commit messages.") == ClaimKind::behavioural);
  CHECK(classify("- Style guideline: sentence case for headings") == ClaimKind::behavioural);
  // Other labels leave the line to what it says.
  CHECK(classify("**Team:** four backend engineers, two designers.") == ClaimKind::factual);
  CHECK(classify("Refund policy: full refund within 14 days.") == ClaimKind::factual);
}

TEST_CASE("claims: what the agent did in the session, dated today, is about the session") {
  CHECK(classify("- Working on the refund flow today.") == ClaimKind::metadata);
  CHECK(classify("Spent the afternoon chasing the flaky login test.") == ClaimKind::metadata);
  // Without a day of the session, or opened by something else, it may hold after it.
  CHECK(classify("Working on weekends needs a manager's approval.") == ClaimKind::factual);
  CHECK(classify("The staging DB was migrated to Postgres 16 today.") == ClaimKind::factual);
}

TEST_CASE(
    "claims: a talk the session spent time on, its heartbeat and its compaction are about it") {
  CHECK(classify("Talked with Ben for an hour about the billing migration.") ==
        ClaimKind::metadata);
  CHECK(classify("Spoke with Ben on the phone for half an hour.") == ClaimKind::metadata);
  CHECK(classify("Heartbeat run, nothing new in the inbox.") == ClaimKind::metadata);
  CHECK(classify("Compacted the context at 14:10.") == ClaimKind::metadata);
  CHECK(classify("Cost so far: $0.42.") == ClaimKind::metadata);
  CHECK(classify("Total tokens: 18,204") == ClaimKind::metadata);
  // Said of the world, the same words hold after the session.
  CHECK(classify("The heartbeat interval is 30 minutes.") == ClaimKind::factual);
  CHECK(classify("Ben spoke at the Lisbon JS meetup last year.") == ClaimKind::factual);
}

TEST_CASE("claims: an errand due on a day is a task, a standing instruction a rule") {
  CHECK(classify("Rotate the API key before Friday.") == ClaimKind::task);
  CHECK(classify("Renew the domain by tomorrow.") == ClaimKind::task);
  CHECK(classify("Send the weekly report every Friday before noon.") == ClaimKind::behavioural);
  CHECK(classify("Don't book flights before Monday.") == ClaimKind::behavioural);
}

TEST_CASE("claims: an instruction someone gave, reported, is a rule, and a wish a fact") {
  CHECK(classify("Ana asked to keep the changelog newest entry first.") == ClaimKind::behavioural);
  CHECK(classify("The user asked us to stop adding emojis to commit messages.") ==
        ClaimKind::behavioural);
  CHECK(classify("Ana wants to move to Berlin next spring.") == ClaimKind::factual);
  CHECK(classify("Ben asked to be added to the billing channel.") != ClaimKind::behavioural);
}

TEST_CASE("claims: a folder path within a tool, after under, makes a reference") {
  CHECK(classify("Support macros live in Zendesk under Macros/Billing.") == ClaimKind::reference);
  CHECK(classify("The invoice PDF generator is a Lambda in eu-west-1.") == ClaimKind::factual);
}

TEST_CASE("claims: a product one works at or for is an employer, not a place things are kept") {
  CHECK(classify("- **Work:** Product designer at Figma") == ClaimKind::factual);
  CHECK(classify("Ana lives in Lisbon and works for Dropbox.") == ClaimKind::factual);
  CHECK(classify("- **Designs:** Figma project Checkout v3") == ClaimKind::reference);
}

TEST_CASE("claims: an album, an inbox or a calendar is a place things are kept") {
  CHECK(classify("- The family photos are in the Google Photos shared album \"Casa\".") ==
        ClaimKind::reference);
  CHECK(classify("- Marco's work calendar is in Outlook, not Google Calendar.") ==
        ClaimKind::reference);
  CHECK(classify("- Ana is in Lisbon until Friday.") == ClaimKind::factual);
}

TEST_CASE("claims: a fact after a time clause is a fact, an instruction after one an instruction") {
  CHECK(classify("Since the April release, the API rate limit is 200 requests per minute.") ==
        ClaimKind::factual);
  CHECK(classify("As of March, the office opens at 8.") == ClaimKind::factual);
  CHECK(classify("Since the April release, check the rate limit before a bulk import.") ==
        ClaimKind::behavioural);
}
