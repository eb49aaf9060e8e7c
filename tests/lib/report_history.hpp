// A store with a history worth a report, for the `engram report` tests: the
// example store, then three consolidations on different days (the injected
// clock, --now) with the agent's own notes and edits between them; and the
// page's parts read back: its embedded JSON and each chart's plotted values.
#pragma once

#include "lib/runs.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

namespace engram::test {

// The days the store's consolidations run as, in order.
inline const std::vector<std::string> k_report_days = {"2026-06-01", "2026-09-01", "2027-03-01"};

// The WORKING.md guard the report tests configure, so the page's limit is
// seen to come from the configuration rather than the default.
inline constexpr int k_report_working_chars = 2600;

// Makes the store: init --example, then a consolidation on each of
// k_report_days, the agent writing between them.
inline std::filesystem::path make_report_store(const Sandbox& sandbox) {
  write_file(sandbox.default_config_file(),
             "[guard]\nworking_chars = " + std::to_string(k_report_working_chars) + "\n");
  const std::filesystem::path store = sandbox.work("store");
  ok(sandbox,
     {"init", "--example", std::string(ENGRAM_SOURCE_DIR) + "/examples/store", store.string()});
  const auto consolidate = [&](const std::string& day) {
    ok(sandbox, {"consolidate", "--store", store.string(), "--now", day});
  };
  consolidate(k_report_days[0]);
  write_file(store / "episodic" / "2026-06-20-webhook-deploy.md",
             episodic_memory({"shopify", "webhooks", "deploy"}, "2026-06-20", "2026-07-20",
                             "# Webhook deploy\n\nThe webhook receiver went live on the staging "
                             "shop.\n- The receiver must answer within 5 seconds.\n- Never log "
                             "the webhook secret.\n"));
  write_file(store / "WORKING.md",
             read_file(store / "WORKING.md") + "- [ ] Check the refund report with Dana\n");
  consolidate(k_report_days[1]);
  write_file(store / "semantic" / "shopify-webhooks.md",
             semantic_memory({"shopify", "webhooks", "sync"}, "2026-10-01",
                             "Shopify retries a failed webhook 19 times over 48 hours.\n"));
  consolidate(k_report_days[2]);
  return store;
}

// The JSON block the page embeds.
inline nlohmann::json report_data(const std::string& page) {
  const std::string open = "<script type=\"application/json\" id=\"engram-report-data\">";
  const auto begin = page.find(open);
  REQUIRE(begin != std::string::npos);
  const auto end = page.find("</script>", begin);
  REQUIRE(end != std::string::npos);
  return nlohmann::json::parse(page.substr(begin + open.size(), end - begin - open.size()));
}

// The values the points of the page's chart `id` carry, in drawing order.
inline std::vector<std::int64_t> plotted_values(const std::string& page, const std::string& id) {
  const auto begin = page.find("<svg class=\"chart\" data-chart=\"" + id + "\"");
  REQUIRE(begin != std::string::npos);
  const auto end = page.find("</svg>", begin);
  REQUIRE(end != std::string::npos);
  const std::string svg = page.substr(begin, end - begin);
  static const std::regex k_point(R"re(class="point"[^>]*data-value="(-?[0-9]+)")re");
  std::vector<std::int64_t> values;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), k_point);
       it != std::sregex_iterator(); ++it) {
    values.push_back(std::stoll((*it)[1].str()));
  }
  return values;
}

} // namespace engram::test
