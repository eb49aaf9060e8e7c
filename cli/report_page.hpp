// Report page: `engram report`'s one self-contained HTML page — its charts
// (report_charts.hpp), the latest consolidations, and every figure as an
// embedded JSON block that the page's own script checks the charts against.
// Nothing is loaded from elsewhere when it is opened; its content security
// policy forbids it.
#pragma once

#include "cli/report_charts.hpp"
#include "engine/store_history.hpp"

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace engram::cli {

// Where a report's figures came from, for its heading.
struct ReportSource {
  std::string store;                // the store's path
  std::string generated;            // the date the report was made
  std::optional<std::string> since; // --since, when given
};

// The verbs whose counts the actions chart shows, one series each.
inline constexpr const char* k_report_verbs[] = {"absorbed", "decayed",   "superseded",
                                                 "merged",   "duplicate", "archived"};

// The charts of a history: files and claims per layer, actions per
// consolidation, each guard against its limit, and the top tags.
std::vector<Chart> report_charts(const engine::StoreHistory& history);

// The history and its charts as the JSON the page embeds.
nlohmann::json report_json(const engine::StoreHistory& history, const std::vector<Chart>& charts,
                           const ReportSource& source);

// The whole page.
std::string render_report(const engine::StoreHistory& history, const ReportSource& source);

} // namespace engram::cli
