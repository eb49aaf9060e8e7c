// The knowledge-quality rules through the real `engram` binary on real stores:
// dedupe merges near-duplicates into the newer file with every claim kept and
// the older text recoverable, never touching young, critical or protected
// files; contradictions keep the newer value and mark the older, never across
// unrelated subjects; stale-refs archives only with a project and after the age
// gate; `engram health` reports what a dry run would do; --only and --skip.
#include "lib/process.hpp"
#include "lib/runs.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <set>

namespace fs = std::filesystem;
using engram::test::read_file;
using engram::test::new_store;
using engram::test::ok;
using engram::test::Sandbox;
using engram::test::write_file;

namespace {

constexpr const char* k_now = "2026-11-22";

// A memory of `type` with the given frontmatter extras (lines ending in '\n') and body.
std::string memory(const std::string& type, const std::vector<std::string>& tags,
                   const std::string& created, const std::string& body,
                   const std::string& extra = "", const std::string& status = "confirmed") {
  return "---\ntype: " + type + "\ntags: " + engram::test::flow_list(tags) +
         "\nsalience: medium\nconfidence: high\nsource: observed\nstatus: " + status +
         "\ntrigger: []\n" + (extra.find("related:") == std::string::npos ? "related: []\n" : "") +
         extra + "created: " + created + "\nlast-accessed: " + created + "\n---\n" + body;
}

// The record's actions of a dry run (or a run) as JSON.
nlohmann::json actions_of(const engram::test::Result& result) {
  return nlohmann::json::parse(result.out)["actions"];
}

// True when the actions hold one with this rule, verb and source.
bool has_action(const nlohmann::json& actions, const std::string& rule, const std::string& verb,
                const std::string& source) {
  for (const auto& a : actions) {
    if (a["rule"] == rule && a["action"] == verb && a["source"] == source) {
      return true;
    }
  }
  return false;
}

const std::vector<std::string> k_old_claims = {
    "- The REST Admin API returns at most 250 items per page.",
    "- Pagination follows the cursor links in the Link header.",
    "- The GraphQL Admin API has a cost-based rate limit.",
};
const std::vector<std::string> k_new_claims = {
    "- The REST Admin API returns at most 250 items per page.",
    "- Pagination follows the cursor links in the Link header.",
    "- Bulk operations export whole tables as JSONL files.",
};

std::string lines(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    out += item + "\n";
  }
  return out;
}

} // namespace

TEST_CASE("near-duplicate files merge into the newer with every claim kept and the older text in the record") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  const std::string older = memory("semantic", {"shopify", "pagination"}, "2026-01-05",
                                   "# Shopify paging\n\n" + lines(k_old_claims),
                                   "related: [semantic/webhooks.md]\n");
  write_file(store / "semantic" / "shopify-pagination.md", older);
  write_file(store / "semantic" / "shopify-api.md",
             memory("semantic", {"shopify", "api"}, "2026-03-01",
                    "# Shopify API\n\n" + lines(k_new_claims), "related: [semantic/orders.md]\n"));
  write_file(store / "semantic" / "webhooks.md",
             memory("semantic", {"webhooks"}, "2026-01-05",
                    "- Webhook deliveries retry for 48 hours.\n",
                    "related: [shopify-pagination]\n"));

  const auto run = ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now, "--json"});
  const auto actions = actions_of(run);

  CHECK_FALSE(fs::exists(store / "semantic" / "shopify-pagination.md"));
  const std::string merged = read_file(store / "semantic" / "shopify-api.md");
  for (const auto& claim : k_old_claims) {
    INFO(claim);
    CHECK(merged.find(claim) != std::string::npos);
  }
  for (const auto& claim : k_new_claims) {
    INFO(claim);
    CHECK(merged.find(claim) != std::string::npos);
  }
  // Duplicates are not doubled.
  CHECK(merged.find(k_old_claims[0]) == merged.rfind(k_old_claims[0]));
  CHECK_THAT(merged, Catch::Contains("tags: [shopify, api, pagination]"));
  CHECK_THAT(merged, Catch::Contains("semantic/orders.md"));
  CHECK_THAT(merged, Catch::Contains("semantic/webhooks.md"));
  // A link to the file that went now points at the one it merged into.
  CHECK_THAT(read_file(store / "semantic" / "webhooks.md"), Catch::Contains("related: [shopify-api]"));

  // The record accounts for every claim of the older file, and where it went.
  for (const auto& claim : k_old_claims) {
    bool accounted = false;
    for (const auto& a : actions) {
      accounted = accounted || (a["rule"] == "dedupe" && a["claim"] == claim &&
                                a["source"] == "semantic/shopify-pagination.md" &&
                                a["target"] == "semantic/shopify-api.md");
    }
    INFO(claim);
    CHECK(accounted);
  }
  CHECK(has_action(actions, "dedupe", "merged", "semantic/shopify-pagination.md"));

  // The commit says so, and the older file's bytes are one `git show` away.
  const auto message = sandbox.git(store, {"log", "-1", "--notes=engram", "--format=%B%N"}).out;
  CHECK_THAT(message, Catch::Contains("1 merged"));
  CHECK_THAT(message, Catch::Contains(
                          "semantic/shopify-pagination.md → semantic/shopify-api.md"));
  CHECK_THAT(message, Catch::Contains("The GraphQL Admin API has a cost-based rate limit."));
  CHECK(sandbox.git(store, {"show", "HEAD~1:semantic/shopify-pagination.md"}).out == older);
  CHECK(sandbox.git(store, {"status", "--porcelain"}).out.empty());

  // A second run right after has nothing to do.
  const auto again = ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now});
  CHECK_THAT(again.out, Catch::Contains("nothing to consolidate"));
}

TEST_CASE("a short file whose words a much longer one holds is its duplicate: the overlap is of the smaller") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  const std::vector<std::string> short_claims = {
      "- Webhook deliveries retry for 48 hours.",
      "- Failed webhooks are removed after nineteen attempts.",
  };
  write_file(store / "semantic" / "webhooks-short.md",
             memory("semantic", {"webhooks"}, "2026-01-05", lines(short_claims)));
  write_file(store / "semantic" / "webhooks-long.md",
             memory("semantic", {"webhooks", "shopify"}, "2026-02-05",
                    "- Webhook deliveries retry for 48 hours with exponential backoff.\n"
                    "- Failed webhooks are removed after nineteen attempts in a row.\n"
                    "- Every payload carries an HMAC signature header.\n"
                    "- Verify the signature against the raw request body.\n"
                    "- Topics cover orders, products, customers and fulfillments.\n"
                    "- Mandatory compliance topics handle customer data requests.\n"
                    "- Subscriptions are managed through the GraphQL Admin API.\n"
                    "- EventBridge and Pub/Sub can receive deliveries instead of HTTPS.\n"
                    "- Duplicate deliveries share one event identifier header.\n"));
  const auto actions = actions_of(
      ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now, "--json"}));
  CHECK(has_action(actions, "dedupe", "merged", "semantic/webhooks-short.md"));
  CHECK_FALSE(fs::exists(store / "semantic" / "webhooks-short.md"));
  for (const auto& claim : short_claims) {
    bool accounted = false;
    for (const auto& a : actions) {
      accounted = accounted || (a["rule"] == "dedupe" && a["claim"] == claim &&
                                a["target"] == "semantic/webhooks-long.md");
    }
    INFO(claim);
    CHECK(accounted);
  }
}

TEST_CASE(
    "files written from one template share their words but not their claims, and stay apart") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  // The same sentences about two different services: most significant words
  // are shared, no claim of one is a claim of the other.
  const auto notes = [](const std::string& service, const std::string& port,
                        const std::string& day) {
    return "- The " + service + " service listens on port " + port + ".\n" + "- The " + service +
           " service writes its logs to the central bucket.\n" + "- The " + service +
           " service is deployed every " + day + " morning.\n" + "- The " + service +
           " service retries failed jobs three times.\n";
  };
  const std::string billing =
      memory("semantic", {"billing"}, "2026-01-05", notes("billing", "8080", "Monday"));
  const std::string shipping =
      memory("semantic", {"shipping"}, "2026-02-05", notes("shipping", "9090", "Tuesday"));
  write_file(store / "semantic" / "billing-service.md", billing);
  write_file(store / "semantic" / "shipping-service.md", shipping);

  const auto actions = actions_of(ok(sandbox, {"consolidate", "--store", store.string(), "--now",
                                               k_now, "--json", "--only", "dedupe"}));
  CHECK_FALSE(has_action(actions, "dedupe", "merged", "semantic/billing-service.md"));
  CHECK_FALSE(has_action(actions, "dedupe", "flagged", "semantic/billing-service.md"));
  CHECK(read_file(store / "semantic" / "billing-service.md") == billing);
  CHECK(read_file(store / "semantic" / "shipping-service.md") == shipping);

  // Judged by words alone, the same pair merges: the claims are what keep it apart.
  write_file(sandbox.default_config_file(), "[rules.dedupe]\nshared_claims = 0\n");
  const auto by_words = actions_of(ok(sandbox, {"consolidate", "--store", store.string(), "--now",
                                                k_now, "--json", "--only", "dedupe", "--dry-run"}));
  CHECK(has_action(by_words, "dedupe", "merged", "semantic/billing-service.md"));
}

TEST_CASE("a file that shares a quarter of its claims with another of its words is its duplicate") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  write_file(store / "semantic" / "billing-service.md",
             memory("semantic", {"billing"}, "2026-01-05",
                    "- The billing service listens on port 8080.\n"
                    "- The billing service writes its logs to the central bucket.\n"
                    "- The billing service is deployed every Monday morning.\n"
                    "- The billing service retries failed jobs three times.\n"));
  write_file(store / "semantic" / "billing-notes.md",
             memory("semantic", {"billing"}, "2026-02-05",
                    "- The billing service listens on port 8080.\n"
                    "- The billing service keeps its logs in the central bucket for a year.\n"
                    "- The billing service is deployed on Monday mornings after review.\n"
                    "- The billing service pages the on-call team after three failed jobs.\n"));
  const auto actions = actions_of(ok(sandbox, {"consolidate", "--store", store.string(), "--now",
                                               k_now, "--json", "--only", "dedupe"}));
  CHECK(has_action(actions, "dedupe", "merged", "semantic/billing-service.md"));
  CHECK_FALSE(fs::exists(store / "semantic" / "billing-service.md"));
}

namespace {

// Twelve claims about `service` from one template: two such files share most
// of their words whatever service each is about.
std::vector<std::string> service_claims(const std::string& service) {
  const std::vector<std::string> templates = {
      "listens on port 8080.",
      "writes its logs to the central bucket.",
      "is deployed every Monday morning.",
      "retries failed jobs three times.",
      "reads its settings from the vault.",
      "sends alerts to the platform channel.",
      "keeps its queue in Redis.",
      "times out requests after 30 seconds.",
      "exports metrics to Prometheus.",
      "stores uploads in the media bucket.",
      "rotates its keys every quarter.",
      "caches sessions for ten minutes.",
  };
  std::vector<std::string> out;
  for (const auto& predicate : templates) {
    out.push_back("- The " + service + " service " + predicate);
  }
  return out;
}

} // namespace

TEST_CASE("files of many claims share a quarter of them or stay apart, markers and all") {
  // Files this size are judged through the layer's claim index rather than
  // claim by claim: the quarter must be counted the same either way.
  for (const bool marked : {false, true}) {
    for (const std::size_t shared : {std::size_t{2}, std::size_t{3}}) {
      const Sandbox sandbox;
      const fs::path store = new_store(sandbox);
      const auto billing = service_claims("billing");
      auto notes = service_claims("shipping");
      std::string body;
      for (std::size_t i = 0; i < notes.size(); ++i) {
        body += (i < shared ? billing[i] : notes[i]) + "\n";
        if (marked && i < shared) {
          body += "  <!-- superseded 2026-06-01: previously \"" + billing[i] + " Maybe.\" -->\n";
        }
      }
      write_file(store / "semantic" / "billing-service.md",
                 memory("semantic", {"services"}, "2026-01-05", lines(billing)));
      write_file(store / "semantic" / "service-notes.md",
                 memory("semantic", {"services"}, "2026-02-05", body));
      const auto actions = actions_of(ok(sandbox, {"consolidate", "--store", store.string(),
                                                   "--now", k_now, "--json", "--only", "dedupe"}));
      INFO("shared " << shared << (marked ? ", marked" : ""));
      CHECK(has_action(actions, "dedupe", "merged", "semantic/billing-service.md") ==
            (shared == 3));
      CHECK(fs::exists(store / "semantic" / "billing-service.md") == (shared != 3));
    }
  }
}

TEST_CASE("two duplicates that together would pass max_merged_bytes are reported, not merged") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  write_file(sandbox.default_config_file(), "[rules.dedupe]\nmax_merged_bytes = 1024\n");
  std::string long_body;
  for (int i = 0; i < 12; ++i) {
    long_body += fmt::format("- Webhook deliveries retry for 48 hours, attempt group {} of the "
                             "queue, with exponential backoff.\n",
                             i);
  }
  const std::string short_file = memory("semantic", {"webhooks"}, "2026-01-05",
                                        "- Webhook deliveries retry for 48 hours.\n");
  const std::string long_file =
      memory("semantic", {"webhooks", "shopify"}, "2026-02-05", long_body);
  write_file(store / "semantic" / "webhooks-short.md", short_file);
  write_file(store / "semantic" / "webhooks-long.md", long_file);
  REQUIRE(long_body.size() > 1024);

  // Only dedupe: the long file's lines differ in a number, which is the
  // contradictions rule's business, not this test's.
  const auto actions = actions_of(ok(sandbox, {"consolidate", "--store", store.string(), "--now",
                                               k_now, "--json", "--only", "dedupe"}));
  CHECK_FALSE(has_action(actions, "dedupe", "merged", "semantic/webhooks-short.md"));
  bool flagged = false;
  for (const auto& a : actions) {
    flagged = flagged || (a["rule"] == "dedupe" && a["action"] == "flagged" &&
                          a["reason"].get<std::string>().find("max_merged_bytes") != std::string::npos);
  }
  CHECK(flagged);
  CHECK(read_file(store / "semantic" / "webhooks-short.md") == short_file);
  CHECK(read_file(store / "semantic" / "webhooks-long.md") == long_file);

  // With room for both, the same pair merges.
  write_file(sandbox.default_config_file(), "[rules.dedupe]\nmax_merged_bytes = 65536\n");
  const auto merged = actions_of(ok(sandbox, {"consolidate", "--store", store.string(), "--now",
                                              k_now, "--json", "--only", "dedupe"}));
  CHECK(has_action(merged, "dedupe", "merged", "semantic/webhooks-short.md"));
}

TEST_CASE("a merge moves each claim with its superseded markers as one unit and never nests them") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  const std::string page_100 =
      "<!-- superseded 2026-06-01: previously \"- The order sync page size is 100.\" -->";
  const std::string every_5 =
      "<!-- superseded 2026-06-01: previously \"- The order sync runs every 5 minutes.\" -->";
  const std::string rest_api =
      "<!-- superseded 2026-05-01: previously \"- The order sync used the REST API.\" -->";
  const std::string note = "<!-- a note the person left -->";
  write_file(store / "semantic" / "sync-a.md",
             memory("semantic", {"sync", "orders"}, "2026-01-05",
                    "# Order sync\n\n- The order sync page size is 250.\n  " + page_100 +
                        "\n- The order sync runs every 15 minutes.\n  " + every_5 +
                        "\n- Orders are matched by their name field.\n\n" + rest_api + "\n" +
                        note + "\n"));
  write_file(store / "semantic" / "sync-b.md",
             memory("semantic", {"sync", "orders"}, "2026-03-01",
                    "# Order sync\n\n- The order sync page size is 500.\n"
                    "- The order sync runs every 15 minutes.\n"
                    "- Orders are matched by their name field.\n"
                    "- Failed orders are retried three times.\n"));

  const auto run = ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now, "--json"});
  const auto actions = actions_of(run);
  REQUIRE_FALSE(fs::exists(store / "semantic" / "sync-a.md"));
  const auto merged = read_file(store / "semantic" / "sync-b.md");
  // The older value is kept in a marker of its own text, its history follows flat.
  CHECK_THAT(merged,
             Catch::Contains("- The order sync page size is 500.\n"
                             "  <!-- superseded 2026-11-22: previously \"- The order sync page size "
                             "is 250.\" -->\n  " +
                             page_100 + "\n"));
  // A duplicate's markers stay beside the claim it duplicates.
  CHECK_THAT(merged, Catch::Contains("- The order sync runs every 15 minutes.\n  " + every_5 + "\n"));
  // Comments outside any claim are kept, once each.
  CHECK_THAT(merged, Catch::Contains(rest_api));
  CHECK_THAT(merged, Catch::Contains(note));
  for (const auto& comment : {page_100, every_5, rest_api, note}) {
    INFO(comment);
    CHECK(merged.find(comment) == merged.rfind(comment));
  }
  // Never a marker inside a marker: no quote is ever escaped.
  CHECK(merged.find("\\\"") == std::string::npos);
  CHECK(merged.find("Orders are matched by their name field.") ==
        merged.rfind("Orders are matched by their name field."));
  bool superseded = false;
  for (const auto& a : actions) {
    superseded = superseded || (a["rule"] == "dedupe" && a["action"] == "superseded" &&
                                a["claim"] == "- The order sync page size is 250.");
  }
  CHECK(superseded);

  const auto again = ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now});
  CHECK_THAT(again.out, Catch::Contains("nothing to consolidate"));
}

TEST_CASE("young, critical, procedural and confirmed never-rule files are never merged and are reported") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  const std::map<std::string, std::string> files = {
      {"semantic/young-a.md", memory("semantic", {"shopify"}, "2026-01-05", lines(k_old_claims))},
      {"semantic/young-b.md", memory("semantic", {"shopify"}, "2026-11-15", lines(k_new_claims))},
      {"reference/crit-a.md",
       memory("reference", {"docs"}, "2026-01-05",
              "- The API reference can be found at https://shopify.dev/docs/api for every version.\n",
              "critical: true\n")},
      {"reference/crit-b.md",
       memory("reference", {"docs"}, "2026-02-05",
              "- The API reference can be found at https://shopify.dev/docs/api for each version.\n")},
      {"procedural/deploy-a.md",
       memory("procedural", {"deploy"}, "2026-01-05",
              "## Deploy\n\n- Always run the smoke tests after a deploy to production.\n")},
      {"procedural/deploy-b.md",
       memory("procedural", {"deploy"}, "2026-02-05",
              "## Deploy\n\n- Always run the smoke tests after a deploy to production.\n"
              "- Tell the support team before a deploy.\n")},
      {"semantic/rule-a.md",
       memory("semantic", {"git"}, "2026-01-05",
              "- Never force-push to the main branch of the shop repository.\n"
              "- Review every migration before it runs.\n")},
      {"semantic/rule-b.md",
       memory("semantic", {"git"}, "2026-02-05",
              "- Never force-push to the main branch of the shop repository.\n"
              "- Review every migration before it runs on staging.\n",
              "", "open")},
  };
  for (const auto& [path, bytes] : files) {
    write_file(store / path, bytes);
  }
  const auto dry = ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now,
                                "--dry-run", "--json", "--only", "dedupe"});
  const auto actions = actions_of(dry);
  // Each guarded file is reported once, with the reason it is not merged.
  std::map<std::string, std::string> flagged;
  for (const auto& a : actions) {
    CHECK(a["action"] != "merged");
    if (a["action"] == "flagged") {
      CHECK(flagged.count(a["source"]) == 0);
      flagged[a["source"]] = a["reason"];
    }
  }
  CHECK_THAT(flagged["semantic/young-b.md"], Catch::Contains("younger than 14 days"));
  CHECK_THAT(flagged["reference/crit-a.md"], Catch::Contains("marked critical"));
  CHECK_THAT(flagged["procedural/deploy-a.md"],
             Catch::Contains("procedural entries are never merged automatically"));
  CHECK_THAT(flagged["semantic/rule-a.md"],
             Catch::Contains("a confirmed rule that says \"never\""));
  CHECK(flagged.count("semantic/rule-b.md") == 0); // open, old: it would merge but for rule-a
  // Two procedural files are one pair for a person to look at, flagged once.
  CHECK(flagged.count("procedural/deploy-b.md") == 0);

  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now});
  for (const auto& [path, bytes] : files) {
    INFO(path);
    REQUIRE(fs::exists(store / path));
    CHECK(read_file(store / path) == bytes);
  }
}

TEST_CASE("a value change keeps the new value and marks the old, and a file of superseded claims says so") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  write_file(store / "semantic" / "sync-old.md",
             memory("semantic", {"shopify", "sync"}, "2026-02-01",
                    "- The order sync runs every 15 minutes.\n- Orders are matched by their name field.\n"));
  write_file(store / "semantic" / "sync-new.md",
             memory("semantic", {"shopify", "sync"}, "2026-06-01",
                    "- The order sync runs every 30 minutes.\n"));
  write_file(store / "semantic" / "db-old.md",
             memory("semantic", {"database", "staging"}, "2026-01-10",
                    "- The staging database is PostgreSQL 14.\n"));
  write_file(store / "semantic" / "db-new.md",
             memory("semantic", {"database", "staging"}, "2026-05-10",
                    "- The staging database is PostgreSQL 16.\n- Backups run nightly.\n"));

  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now, "--only", "contradictions"});

  const auto sync_old = read_file(store / "semantic" / "sync-old.md");
  CHECK_THAT(sync_old, Catch::Contains("<!-- superseded 2026-11-22: previously \"- The order sync "
                                       "runs every 15 minutes.\" -->"));
  CHECK(sync_old.find("- The order sync runs every 15 minutes.\n") == std::string::npos);
  CHECK_THAT(sync_old, Catch::Contains("- Orders are matched by their name field."));
  CHECK_THAT(sync_old, Catch::Contains("status: confirmed")); // one claim still stands
  CHECK_THAT(read_file(store / "semantic" / "sync-new.md"),
             Catch::Contains("- The order sync runs every 30 minutes.\n"));

  const auto db_old = read_file(store / "semantic" / "db-old.md");
  CHECK_THAT(db_old, Catch::Contains("previously \"- The staging database is PostgreSQL 14.\""));
  CHECK_THAT(db_old, Catch::Contains("status: superseded"));
  CHECK_THAT(read_file(store / "semantic" / "db-new.md"),
             Catch::Contains("- The staging database is PostgreSQL 16.\n"));

  const auto message = sandbox.git(store, {"log", "-1", "--notes=engram", "--format=%B%N"}).out;
  CHECK_THAT(message, Catch::Contains("contradictions superseded \"- The order sync runs every 15 minutes.\""));
  const auto again = ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now,
                                  "--only", "contradictions"});
  CHECK_THAT(again.out, Catch::Contains("nothing to consolidate"));
}

TEST_CASE("a superseded sentence on a line of its own leaves its paragraph whole") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  write_file(store / "semantic" / "api-old.md",
             memory("semantic", {"api", "limits"}, "2026-02-01",
                    "The API timeout is 30 seconds.\nThe API retry limit is 3.\n"
                    "The API cache holds 100 items.\n"));
  write_file(store / "semantic" / "api-new.md",
             memory("semantic", {"api", "limits"}, "2026-06-01", "The API retry limit is 5.\n"));
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now, "--only", "contradictions"});
  const auto old = read_file(store / "semantic" / "api-old.md");
  CHECK_THAT(old, Catch::Contains("The API timeout is 30 seconds.\nThe API cache holds 100 items.\n"
                                  "\n<!-- superseded 2026-11-22: previously \"The API retry limit "
                                  "is 3.\" -->"));
}

TEST_CASE("a flipped switch keeps the newer setting, and a confirmed never-rule is reported, not changed") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  write_file(store / "semantic" / "webhooks-old.md",
             memory("semantic", {"webhooks", "shopify"}, "2026-02-01",
                    "- Retries for the webhook queue are enabled.\n"
                    "- The webhook queue keeps deliveries for 48 hours.\n",
                    "", "open"));
  write_file(store / "semantic" / "webhooks-new.md",
             memory("semantic", {"webhooks"}, "2026-07-01",
                    "- Retries for the webhook queue are disabled.\n", "", "open"));
  const std::string rule = memory("procedural", {"deploy"}, "2026-01-01",
                                  "## Deploys\n\n- Never deploy the storefront theme on Fridays.\n");
  write_file(store / "procedural" / "deploy-rules.md", rule);
  write_file(store / "procedural" / "deploy-new.md",
             memory("procedural", {"deploy"}, "2026-06-01",
                    "## Deploys\n\n- Deploy the storefront theme on Fridays.\n", "", "open"));

  const auto actions = actions_of(ok(sandbox, {"consolidate", "--store", store.string(), "--now",
                                               k_now, "--json", "--only", "contradictions"}));
  const auto old = read_file(store / "semantic" / "webhooks-old.md");
  CHECK_THAT(old, Catch::Contains("<!-- superseded 2026-11-22: previously \"- Retries for the "
                                  "webhook queue are enabled.\" -->"));
  CHECK_THAT(old, Catch::Contains("- The webhook queue keeps deliveries for 48 hours.\n"));
  CHECK_THAT(old, Catch::Contains("status: open"));
  CHECK_THAT(read_file(store / "semantic" / "webhooks-new.md"),
             Catch::Contains("- Retries for the webhook queue are disabled.\n"));

  CHECK(read_file(store / "procedural" / "deploy-rules.md") == rule);
  bool reported = false;
  for (const auto& a : actions) {
    reported = reported ||
               (a["rule"] == "contradictions" && a["action"] == "flagged" &&
                a["source"] == "procedural/deploy-rules.md" &&
                a["reason"].get<std::string>().find("confirmed rule that says \"never\"") !=
                    std::string::npos);
  }
  CHECK(reported);
}

TEST_CASE("unrelated files with a never and an always are left alone") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  const std::string cooking = memory("semantic", {"cooking"}, "2026-01-05",
                                     "- Never rinse pasta after draining it.\n");
  const std::string deploys = memory("semantic", {"deploy", "ci"}, "2026-03-05",
                                     "- Always run the smoke tests after a deploy.\n");
  const std::string rule_a = memory("procedural", {"kitchen"}, "2026-01-05",
                                    "## Oven\n\n- Never leave the oven door open overnight.\n");
  const std::string rule_b = memory("procedural", {"garage"}, "2026-04-05",
                                    "## Garage\n\n- Always leave the garage door open for the cat.\n");
  write_file(store / "semantic" / "cooking.md", cooking);
  write_file(store / "semantic" / "deploys.md", deploys);
  write_file(store / "procedural" / "kitchen.md", rule_a);
  write_file(store / "procedural" / "garage.md", rule_b);
  const auto run = ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now, "--json"});
  for (const auto& a : actions_of(run)) {
    CHECK(a["rule"] != "contradictions");
  }
  CHECK(read_file(store / "semantic" / "cooking.md") == cooking);
  CHECK(read_file(store / "semantic" / "deploys.md") == deploys);
  CHECK(read_file(store / "procedural" / "kitchen.md") == rule_a);
  CHECK(read_file(store / "procedural" / "garage.md") == rule_b);
}

TEST_CASE("a fully stale memory is archived only with project_root set and after the age gate") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  const fs::path project = sandbox.work("project");
  write_file(project / "src" / "app.py", "def load_orders():\n    return []\n");
  const std::string fresh = memory("semantic", {"app"}, "2026-01-05",
                                   "- Orders load through `load_orders()` in `src/app.py`.\n");
  const std::string gone = memory("semantic", {"legacy"}, "2026-01-05",
                                  "- The old sync lived in `src/old_sync.py` as `sync_legacy()`.\n");
  const std::string gone_young = memory("semantic", {"legacy2"}, "2026-11-20",
                                        "- The importer was `src/importer.py`.\n");
  const std::string partly = memory("semantic", {"mixed"}, "2026-01-05",
                                    "- Config is read in `src/app.py` and `src/settings.py`.\n");
  const std::string evergreen = memory("semantic", {"team"}, "2026-01-05",
                                       "- The team prefers small pull requests.\n");
  write_file(store / "semantic" / "fresh.md", fresh);
  write_file(store / "semantic" / "gone.md", gone);
  write_file(store / "semantic" / "gone-young.md", gone_young);
  write_file(store / "semantic" / "partly.md", partly);
  write_file(store / "semantic" / "evergreen.md", evergreen);

  // Without project_root: nothing is checked, nothing moves, and the record says so once.
  const auto unchecked = actions_of(
      ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now, "--json"}));
  CHECK(fs::exists(store / "semantic" / "gone.md"));
  std::size_t said = 0;
  for (const auto& a : unchecked) {
    CHECK((a["rule"] != "stale-refs" || a["action"] == "skipped"));
    said += a["rule"] == "stale-refs" ? 1 : 0;
  }
  CHECK(said == 1);
  const auto health = nlohmann::json::parse(
      ok(sandbox, {"health", "--store", store.string(), "--now", k_now, "--json"}).out);
  CHECK(health["stale_references"]["checked"] == false);

  write_file(sandbox.default_config_file(),
             fmt::format("[rules.stale-refs]\nproject_root = \"{}\"\n", project.string()));
  const auto run = ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now, "--json"});
  const auto actions = actions_of(run);
  CHECK_FALSE(fs::exists(store / "semantic" / "gone.md"));
  REQUIRE(fs::exists(store / "archive" / "semantic" / "gone.md"));
  CHECK(read_file(store / "archive" / "semantic" / "gone.md") == gone);
  CHECK(has_action(actions, "stale-refs", "archived", "semantic/gone.md"));
  CHECK(read_file(store / "semantic" / "gone-young.md") == gone_young);
  CHECK(has_action(actions, "stale-refs", "flagged", "semantic/gone-young.md"));
  CHECK(read_file(store / "semantic" / "partly.md") == partly);
  CHECK(has_action(actions, "stale-refs", "flagged", "semantic/partly.md"));
  CHECK(read_file(store / "semantic" / "fresh.md") == fresh);
  CHECK(read_file(store / "semantic" / "evergreen.md") == evergreen);
  CHECK_FALSE(has_action(actions, "stale-refs", "flagged", "semantic/fresh.md"));
  CHECK(sandbox.git(store, {"status", "--porcelain"}).out.empty());
}

TEST_CASE("engram health reports what a dry run would do and writes nothing") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  write_file(store / "semantic" / "shopify-pagination.md",
             memory("semantic", {"shopify", "pagination"}, "2026-01-05", lines(k_old_claims)));
  write_file(store / "semantic" / "shopify-api.md",
             memory("semantic", {"shopify", "api"}, "2026-03-01", lines(k_new_claims)));
  // Related (a shared tag) but not duplicates: most of db-old's words are its own,
  // so the flip of the version is the contradictions rule's, not a merge.
  write_file(store / "semantic" / "db-old.md",
             memory("semantic", {"database", "staging"}, "2026-01-10",
                    "- The staging database is PostgreSQL 14.\n"
                    "- Schema migrations are applied by Flyway during every release.\n"));
  write_file(store / "semantic" / "db-new.md",
             memory("semantic", {"database", "staging"}, "2026-05-10",
                    "- The staging database is PostgreSQL 16.\n- Backups run nightly at two.\n"));
  write_file(store / "semantic" / "lonely.md",
             memory("semantic", {"astronomy"}, "2026-01-05", "- Saturn has many moons.\n"));
  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now, "--lightweight"});
  const auto before = engram::test::files_under(store);

  const auto dry = nlohmann::json::parse(
      ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now, "--dry-run", "--json"}).out);
  const auto health = nlohmann::json::parse(
      ok(sandbox, {"health", "--store", store.string(), "--now", k_now, "--json"}).out);

  // Every merge and supersession of the dry run, and nothing else, is in the report.
  std::set<std::pair<std::string, std::string>> dry_merges;
  std::set<std::pair<std::string, std::string>> dry_supersede;
  for (const auto& a : dry["actions"]) {
    if (a["rule"] == "dedupe" && a["action"] == "merged") {
      dry_merges.emplace(a["source"], a["target"]);
    }
    if (a["rule"] == "contradictions" && a["action"] == "superseded") {
      dry_supersede.emplace(a["source"], a["target"]);
    }
  }
  std::set<std::pair<std::string, std::string>> health_merges;
  for (const auto& a : health["duplicates"]["would_merge"]) {
    health_merges.emplace(a["source"], a["target"]);
  }
  std::set<std::pair<std::string, std::string>> health_supersede;
  for (const auto& a : health["contradictions"]["would_supersede"]) {
    health_supersede.emplace(a["source"], a["target"]);
  }
  CHECK(health_merges == dry_merges);
  CHECK(health_merges.count({"semantic/shopify-pagination.md", "semantic/shopify-api.md"}) == 1);
  CHECK(health_supersede == dry_supersede);
  CHECK(health_supersede.count({"semantic/db-old.md", "semantic/db-new.md"}) == 1);
  CHECK(health["dry_run_changes"] == dry["changes"].size());
  const auto orphans = health["orphans"]["files"];
  CHECK(std::find(orphans.begin(), orphans.end(), "semantic/lonely.md") != orphans.end());
  CHECK(std::find(orphans.begin(), orphans.end(), "semantic/db-old.md") == orphans.end());
  CHECK(health["totals"]["memories"] == 5);
  CHECK_FALSE(health["last_consolidation"].is_null());
  // WORKING.md, MEMORY.md, and CORE.md's two: its Deep Truths and its core blocks.
  REQUIRE(health["guards"].size() == 4);
  CHECK(health["guards"][2]["path"] == "CORE.md");
  CHECK(health["guards"][2]["unit"] == "truths");
  CHECK(health["guards"][3]["unit"] == "chars");
  CHECK_FALSE(health["recommendations"].empty());

  const auto markdown = ok(sandbox, {"health", "--store", store.string(), "--now", k_now});
  CHECK_THAT(markdown.out, Catch::Contains("## Memory Health Report"));
  CHECK_THAT(markdown.out, Catch::Contains("`semantic/shopify-pagination.md`"));
  CHECK_THAT(markdown.out, Catch::Contains("### Recommendations"));

  CHECK(engram::test::files_under(store) == before);
  CHECK(sandbox.git(store, {"status", "--porcelain"}).out.empty());
}

TEST_CASE("consolidate --only and --skip run a subset of the rules and refuse unknown names") {
  const Sandbox sandbox;
  const fs::path store = new_store(sandbox);
  write_file(store / "semantic" / "shopify-pagination.md",
             memory("semantic", {"shopify", "pagination"}, "2026-01-05", lines(k_old_claims)));
  write_file(store / "semantic" / "shopify-api.md",
             memory("semantic", {"shopify", "api"}, "2026-03-01", lines(k_new_claims)));

  const auto only = nlohmann::json::parse(
      ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now, "--dry-run", "--json",
                   "--only", "dedupe,contradictions"})
          .out);
  CHECK(only["rules"] == nlohmann::json::array({"dedupe", "contradictions"}));

  const auto skipped = ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now,
                                    "--skip", "dedupe", "--json"});
  const auto rules = nlohmann::json::parse(skipped.out)["rules"];
  CHECK(std::find(rules.begin(), rules.end(), "dedupe") == rules.end());
  CHECK(std::find(rules.begin(), rules.end(), "index") != rules.end());
  CHECK(fs::exists(store / "semantic" / "shopify-pagination.md"));

  const auto unknown = sandbox.engram({"consolidate", "--store", store.string(), "--only", "dedup"});
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("no rule named 'dedup'"));
  const auto both = sandbox.engram(
      {"consolidate", "--store", store.string(), "--only", "dedupe", "--skip", "index"});
  CHECK(both.exit_code == 2);

  ok(sandbox, {"consolidate", "--store", store.string(), "--now", k_now, "--only", "dedupe"});
  CHECK_FALSE(fs::exists(store / "semantic" / "shopify-pagination.md"));
  // A subset is recorded as one: its title names its rules, its trailer says subset.
  const auto message = sandbox.git(store, {"log", "-1", "--format=%B"}).out;
  CHECK(message.starts_with("consolidate(dedupe): "));
  CHECK_THAT(message, Catch::Contains("\nEngram-Run: subset\n"));
  CHECK(only["run"] == "subset");
  CHECK(only["summary"].get<std::string>().starts_with("consolidate(dedupe,contradictions)"));
}
