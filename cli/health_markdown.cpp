// The Markdown form of `engram health`'s report, the seed's "Memory Health
// Report": tables and lists rendered from the JSON report command_health.cpp
// gathers, so the two forms never disagree on what was found.
#include "cli/health_markdown.hpp"

#include <cstddef>
#include <cstdint>
#include <fmt/format.h>
#include <string>
#include <string_view>

namespace engram::cli {
namespace {

using Json = nlohmann::ordered_json;

// The Holds section of the Markdown report; nothing when there are none.
std::string holds_section(const Json& holds) {
  if (holds.empty()) {
    return {};
  }
  std::string out = "### Holds (left alone until one of their files changes)\n\n";
  for (const auto& hold : holds) {
    out += fmt::format("- `{}` {}:", hold["undo"].get<std::string>().substr(0, 12),
                       hold["summary"].get<std::string>());
    for (const auto& path : hold["paths"]) {
      out += fmt::format(" `{}`", path.get<std::string>());
    }
    out += "\n";
  }
  return out + "\n";
}

// One table row per action, for the Markdown report.
std::string action_rows(const Json& actions) {
  std::string out;
  for (const auto& action : actions) {
    const auto target = action.value("target", std::string());
    out += fmt::format("| `{}` | {} | {} |\n", action.value("source", std::string()),
                       target.empty() ? std::string("—") : "`" + target + "`",
                       action.value("reason", std::string()));
  }
  return out;
}

// A section of actions as a Markdown table, or a line saying there are none.
std::string action_section(std::string_view title, const Json& actions, std::string_view none) {
  std::string out = fmt::format("### {}\n\n", title);
  if (actions.empty()) {
    return out + fmt::format("{}\n\n", none);
  }
  return out + "| file | with | why |\n|---|---|---|\n" + action_rows(actions) + "\n";
}

// The Markdown report's title, with the store, the date and the last consolidation.
std::string report_heading(const Json& r) {
  std::string out = fmt::format("## Memory Health Report\n\n**Store:** {}\n**Generated:** {}\n",
                                r["store"].get<std::string>(), r["today"].get<std::string>());
  const auto& last = r["last_consolidation"];
  out += fmt::format("**Last consolidation:** {}\n\n",
                     last.is_null() ? std::string("never")
                                    : fmt::format("{} ({}, {})", last["date"].get<std::string>(),
                                                  last["run"].get<std::string>(),
                                                  last["summary"].get<std::string>()));
  return out;
}

// The Summary statistics table: totals by layer and type, and the average age.
std::string statistics_table(const Json& r) {
  std::string out = "### Summary statistics\n\n| Metric | Value |\n|---|---|\n";
  out += fmt::format("| Total memories | {} |\n", r["totals"]["memories"].get<std::size_t>());
  for (const auto& [layer, count] : r["totals"]["layers"].items()) {
    out += fmt::format("| Files in {} | {} |\n", layer, count.get<std::size_t>());
  }
  for (const auto& [type, count] : r["totals"]["types"].items()) {
    out += fmt::format("| Type {} | {} |\n", type, count.get<std::size_t>());
  }
  out += fmt::format("| Average age (days) | {} |\n\n",
                     r["average_age_days"].is_null()
                         ? std::string("—")
                         : fmt::format("{:.0f}", r["average_age_days"].get<double>()));
  return out;
}

// The Health indicators table: one row per finding, OK or WARN.
std::string indicators_table(const Json& r) {
  const auto status = [](bool ok) { return ok ? "OK" : "WARN"; };
  const auto n = [&](const Json& j) { return j.size(); };
  std::string out = "### Health indicators\n\n| Indicator | Status | Details |\n|---|---|---|\n";
  out += fmt::format("| Unused memories | {} | {} not accessed for over {} days |\n",
                     status(r["unused"]["count"] == 0), r["unused"]["count"].get<std::size_t>(),
                     r["unused"]["days"].get<std::int64_t>());
  out += fmt::format("| Low effectiveness | {} | {} below {:.0f}% helpful |\n",
                     status(r["low_effectiveness"]["count"] == 0),
                     r["low_effectiveness"]["count"].get<std::size_t>(),
                     r["low_effectiveness"]["below"].get<double>() * 100);
  out +=
      fmt::format("| Duplicates | {} | {} would merge, {} not merged automatically |\n",
                  status(n(r["duplicates"]["would_merge"]) + n(r["duplicates"]["not_merged"]) == 0),
                  n(r["duplicates"]["would_merge"]), n(r["duplicates"]["not_merged"]));
  out += fmt::format(
      "| Contradictions | {} | {} would be superseded, {} protected, {} uncertain (both kept) |\n",
      status(n(r["contradictions"]["would_supersede"]) + n(r["contradictions"]["not_changed"]) +
                 n(r["contradictions"]["uncertain"]) ==
             0),
      n(r["contradictions"]["would_supersede"]), n(r["contradictions"]["not_changed"]),
      n(r["contradictions"]["uncertain"]));
  const auto& stale = r["stale_references"];
  out += stale["project_root"].is_null()
             ? std::string("| Stale references | — | not checked: rules.stale-refs.project_root is "
                           "not set |\n")
             : fmt::format("| Stale references | {} | {} would be archived, {} partly stale, {} "
                           "fully stale but kept |\n",
                           status(n(stale["would_archive"]) + n(stale["partly_stale"]) +
                                      n(stale["fully_stale_kept"]) ==
                                  0),
                           n(stale["would_archive"]), n(stale["partly_stale"]),
                           n(stale["fully_stale_kept"]));
  const auto& forget = r["forgetting"];
  out += forget["checked"].get<bool>()
             ? fmt::format("| Forgetting | {} | {} would be archived, {} protected |\n",
                           status(n(forget["would_archive"]) == 0), n(forget["would_archive"]),
                           n(forget["protected"]))
             : std::string("| Forgetting | — | not checked: no memory has usage data yet |\n");
  const auto& promote = r["promotion"];
  out += fmt::format("| Core memory | — | {} would be promoted, {} dropped; {} {} |\n",
                     n(promote["would_promote"]), n(promote["would_drop"]),
                     promote["core"].get<std::string>(),
                     promote["would_rebuild"].get<bool>() ? "would be rebuilt" : "is up to date");
  out += fmt::format("| Orphaned | {} | {} with no relations and no shared tags |\n",
                     status(r["orphans"]["count"] == 0), r["orphans"]["count"].get<std::size_t>());
  for (const auto& g : r["guards"]) {
    out += fmt::format("| Guard {} | {} | {} of {} {} ({} left) |\n", g["path"].get<std::string>(),
                       status(g["headroom"].get<std::int64_t>() >= 0), g["size"].get<std::size_t>(),
                       g["limit"].get<std::int64_t>(), g["unit"].get<std::string>(),
                       g["headroom"].get<std::int64_t>());
  }
  out += fmt::format("| Holds | {} | {} undos hold files the rules leave alone |\n",
                     r["holds"].empty() ? "OK" : "HELD", n(r["holds"]));
  out += fmt::format("| Diagnostics | {} | {} files engram cannot read |\n\n",
                     status(r["diagnostics"].empty()), n(r["diagnostics"]));
  return out;
}

// The sections listing what the rules would do and what they leave for a person.
std::string action_sections(const Json& r) {
  const auto& stale = r["stale_references"];
  const auto& forget = r["forgetting"];
  const auto& promote = r["promotion"];
  std::string out =
      action_section("Likely duplicates (would merge)", r["duplicates"]["would_merge"], "None.");
  out += action_section("Likely duplicates (not merged automatically)",
                        r["duplicates"]["not_merged"], "None.");
  out += action_section("Contradictions (would supersede)", r["contradictions"]["would_supersede"],
                        "None.");
  out += action_section("Contradictions (protected, not changed)",
                        r["contradictions"]["not_changed"], "None.");
  out += action_section("Uncertain pairs (both kept, for a person to judge)",
                        r["contradictions"]["uncertain"], "None.");
  if (!stale["project_root"].is_null()) {
    out += action_section("Stale references (would archive)", stale["would_archive"], "None.");
    out +=
        action_section("Partly stale references (kept, flagged)", stale["partly_stale"], "None.");
    out += action_section("Fully stale but kept", stale["fully_stale_kept"], "None.");
  }
  if (forget["checked"].get<bool>()) {
    out += action_section("Forgetting (would archive)", forget["would_archive"], "None.");
    out += action_section("Forgetting (protected, kept)", forget["protected"], "None.");
  }
  out += action_section("Core memory (would promote)", promote["would_promote"], "None.");
  out += action_section("Core memory (would drop)", promote["would_drop"], "None.");
  return out;
}

// The lists of orphaned memories and of diagnostics (the latter only when there are some).
std::string orphan_and_diagnostic_lists(const Json& r) {
  std::string out = "### Orphaned memories\n\n";
  if (r["orphans"]["files"].empty()) {
    out += "None.\n\n";
  } else {
    for (const auto& path : r["orphans"]["files"]) {
      out += fmt::format("- `{}`\n", path.get<std::string>());
    }
    out += "\n";
  }
  if (!r["diagnostics"].empty()) {
    out += "### Diagnostics\n\n";
    for (const auto& d : r["diagnostics"]) {
      out += fmt::format("- {}\n", d.get<std::string>());
    }
    out += "\n";
  }
  return out;
}

} // namespace

namespace detail {

// The report as Markdown, the seed's "Memory Health Report".
std::string to_markdown(const Json& r) {
  std::string out = report_heading(r);
  out += statistics_table(r);
  out += indicators_table(r);
  out += holds_section(r["holds"]);
  out += action_sections(r);
  out += orphan_and_diagnostic_lists(r);
  out += "### Recommendations\n\n";
  std::size_t i = 0;
  for (const auto& advice : r["recommendations"]) {
    out += fmt::format("{}. {}\n", ++i, advice.get<std::string>());
  }
  return out;
}

} // namespace detail
} // namespace engram::cli
