// Report page. The charts are built from the history first and then both
// drawn and embedded, so what the page shows and what it says it shows are
// the same values; the page's script compares the two when it is opened.
#include "cli/report_page.hpp"

#include "base/markup.hpp"
#include "git/history.hpp"
#include "store/layout.hpp"

#include <fmt/format.h>

namespace engram::cli {

namespace {

// The most consolidations the page lists.
constexpr std::size_t k_listed_runs = 20;

// Each point's label: the date it ran as.
std::vector<std::string> point_labels(const std::vector<const engine::HistoryPoint*>& points) {
  std::vector<std::string> labels;
  for (const auto* point : points) {
    labels.push_back(point->date.to_string());
  }
  return labels;
}

// A chart of one measure of each layer at every commit.
Chart layer_chart(const engine::StoreHistory& history, std::string id, std::string title,
                  std::string unit, std::size_t engine::LayerTally::*measure) {
  std::vector<const engine::HistoryPoint*> points;
  for (const auto& point : history.points) {
    points.push_back(&point);
  }
  Chart chart{std::move(id),    std::move(title),     std::move(unit),
              ChartKind::lines, point_labels(points), {}};
  for (const Layer layer : store::k_all_layers) {
    ChartSeries series{std::string(store::layer_name(layer)), {}};
    for (const auto* point : points) {
      series.values.push_back(static_cast<std::int64_t>(point->layers.at(series.name).*measure));
    }
    chart.series.push_back(std::move(series));
  }
  return chart;
}

// The actions of each consolidation, by verb.
Chart actions_chart(const engine::StoreHistory& history) {
  std::vector<const engine::HistoryPoint*> runs;
  for (const auto& point : history.points) {
    if (point.consolidation()) {
      runs.push_back(&point);
    }
  }
  Chart chart{"actions",          "Claims and files acted on per consolidation",
              "actions",          ChartKind::bars,
              point_labels(runs), {}};
  for (const char* verb : k_report_verbs) {
    ChartSeries series{verb, {}};
    for (const auto* run : runs) {
      const auto count = run->actions.find(verb);
      series.values.push_back(
          count == run->actions.end() ? 0 : static_cast<std::int64_t>(count->second));
    }
    chart.series.push_back(std::move(series));
  }
  return chart;
}

// One chart per guard: the guarded file's size and the guard's limit at every commit.
std::vector<Chart> guard_charts(const engine::StoreHistory& history) {
  std::vector<Chart> charts;
  if (history.points.empty()) {
    return charts;
  }
  std::vector<const engine::HistoryPoint*> points;
  for (const auto& point : history.points) {
    points.push_back(&point);
  }
  const auto& first = history.points.front().guards;
  for (std::size_t g = 0; g < first.size(); ++g) {
    Chart chart{
        "guard-" + first[g].name,
        fmt::format("Guard headroom: {} ({}) against its limit", first[g].path, first[g].unit),
        first[g].unit,
        ChartKind::lines,
        point_labels(points),
        {}};
    ChartSeries size{"size", {}};
    ChartSeries limit{"limit", {}};
    for (const auto* point : points) {
      size.values.push_back(static_cast<std::int64_t>(point->guards.at(g).size));
      limit.values.push_back(point->guards.at(g).limit);
    }
    chart.series = {std::move(size), std::move(limit)};
    charts.push_back(std::move(chart));
  }
  return charts;
}

// The top tags at the newest commit, by the files carrying them.
Chart tags_chart(const engine::StoreHistory& history) {
  Chart chart{"tags", "Top tags at the newest commit", "files", ChartKind::bars, {}, {}};
  ChartSeries files{"files", {}};
  for (const auto& tag : history.top_tags) {
    chart.labels.push_back(tag.tag);
    files.values.push_back(static_cast<std::int64_t>(tag.files));
  }
  chart.series.push_back(std::move(files));
  return chart;
}

// One commit as JSON.
nlohmann::json point_json(const engine::HistoryPoint& point) {
  nlohmann::json out{{"id", point.id},
                     {"date", point.date.to_string()},
                     {"run", point.run},
                     {"summary", point.summary},
                     {"layers", nlohmann::json::object()},
                     {"actions", point.actions},
                     {"guards", nlohmann::json::array()}};
  for (const auto& [name, tally] : point.layers) {
    out["layers"][name] = {{"files", tally.files}, {"claims", tally.claims}};
  }
  for (const auto& guard : point.guards) {
    out["guards"].push_back({{"name", guard.name},
                             {"path", guard.path},
                             {"unit", guard.unit},
                             {"present", guard.present},
                             {"size", guard.size},
                             {"limit", guard.limit}});
  }
  return out;
}

// One chart as JSON: the values its points carry.
nlohmann::json chart_json(const Chart& chart) {
  nlohmann::json out{
      {"id", chart.id},         {"title", chart.title},
      {"unit", chart.unit},     {"kind", chart.kind == ChartKind::lines ? "lines" : "bars"},
      {"labels", chart.labels}, {"series", nlohmann::json::array()}};
  for (const auto& series : chart.series) {
    out["series"].push_back({{"name", series.name}, {"values", series.values}});
  }
  return out;
}

} // namespace

std::vector<Chart> report_charts(const engine::StoreHistory& history) {
  std::vector<Chart> charts;
  charts.push_back(
      layer_chart(history, "files", "Memory files per layer", "files", &engine::LayerTally::files));
  charts.push_back(
      layer_chart(history, "claims", "Claims per layer", "claims", &engine::LayerTally::claims));
  charts.push_back(actions_chart(history));
  for (auto& chart : guard_charts(history)) {
    charts.push_back(std::move(chart));
  }
  charts.push_back(tags_chart(history));
  return charts;
}

nlohmann::json report_json(const engine::StoreHistory& history, const std::vector<Chart>& charts,
                           const ReportSource& source) {
  nlohmann::json out{{"store", source.store},
                     {"generated", source.generated},
                     {"since", source.since ? nlohmann::json(*source.since) : nlohmann::json()},
                     {"commits", nlohmann::json::array()},
                     {"top_tags", nlohmann::json::array()},
                     {"charts", nlohmann::json::array()}};
  for (const auto& point : history.points) {
    out["commits"].push_back(point_json(point));
  }
  for (const auto& tag : history.top_tags) {
    out["top_tags"].push_back({{"tag", tag.tag}, {"files", tag.files}});
  }
  for (const auto& chart : charts) {
    out["charts"].push_back(chart_json(chart));
  }
  return out;
}

namespace {

// The page's look: plain, printable, readable without the script.
constexpr const char* k_style = R"(
body { font: 14px/1.4 system-ui, sans-serif; color: #222; margin: 24px auto; max-width: 760px; }
h1 { font-size: 22px; margin-bottom: 4px; }
h2 { font-size: 16px; margin: 28px 0 6px; }
.meta { color: #555; margin-top: 0; }
svg.chart { display: block; max-width: 100%; height: auto; }
svg .grid { stroke: #ddd; stroke-width: 1; }
svg text { font: 11px system-ui, sans-serif; fill: #444; }
svg .empty { font-size: 14px; fill: #888; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 3px 8px 3px 0; border-bottom: 1px solid #eee; vertical-align: top; }
code { font: 12px ui-monospace, monospace; }
td:first-child { white-space: nowrap; }
)";

// The page's own check, run when it is opened: every chart the embedded data
// names is drawn with one point per value, and carries those values. What it
// found is left on <body> for people and for the browser test to read.
constexpr const char* k_script = R"(
(function () {
  var body = document.body;
  try {
    var data = JSON.parse(document.getElementById('engram-report-data').textContent);
    var points = 0, wrong = [];
    data.charts.forEach(function (chart) {
      var svg = document.querySelector('svg[data-chart="' + chart.id + '"]');
      var drawn = svg ? svg.querySelectorAll('.point') : [];
      var values = [];
      chart.series.forEach(function (s) { values = values.concat(s.values); });
      var same = drawn.length === values.length;
      for (var i = 0; same && i < drawn.length; i++) {
        same = Number(drawn[i].getAttribute('data-value')) === values[i];
      }
      if (!same) { wrong.push(chart.id); }
      points += drawn.length;
    });
    body.setAttribute('data-report-charts', String(data.charts.length));
    body.setAttribute('data-report-points', String(points));
    body.setAttribute('data-report-status', wrong.length ? 'mismatch: ' + wrong.join(' ') : 'ok');
  } catch (e) {
    body.setAttribute('data-report-status', 'error: ' + e);
    throw e;
  }
})();
)";

// The latest consolidations, newest first, as a table.
std::string runs_table(const engine::StoreHistory& history) {
  std::string rows;
  std::size_t listed = 0;
  for (auto point = history.points.rbegin();
       point != history.points.rend() && listed < k_listed_runs; ++point) {
    if (!point->consolidation()) {
      continue;
    }
    ++listed;
    rows += fmt::format("<tr data-commit=\"{}\"><td>{}</td><td><code>{}</code></td><td>{}</td>"
                        "<td>{}</td></tr>\n",
                        point->id, point->date.to_string(), git::short_id(point->id),
                        escape_markup(point->run), escape_markup(point->summary));
  }
  if (rows.empty()) {
    return "<p>No consolidation in this period.</p>\n";
  }
  return "<table id=\"runs\"><tr><th>date</th><th>commit</th><th>run</th><th>summary</th></tr>\n" +
         rows + "</table>\n";
}

// The page's heading: the store, the period and when it was made.
std::string page_heading(const engine::StoreHistory& history, const ReportSource& source) {
  std::string period = "no commits";
  if (!history.points.empty()) {
    period = fmt::format(
        "{} commit{} from {} to {}", history.points.size(), history.points.size() == 1 ? "" : "s",
        history.points.front().date.to_string(), history.points.back().date.to_string());
  }
  return fmt::format("<h1>engram report</h1>\n<p class=\"meta\"><code>{}</code> · {}{} · made "
                     "{}</p>\n",
                     escape_markup(source.store), period,
                     source.since ? " (since " + escape_markup(*source.since) + ")" : "",
                     escape_markup(source.generated));
}

} // namespace

std::string render_report(const engine::StoreHistory& history, const ReportSource& source) {
  const auto charts = report_charts(history);
  std::string data = report_json(history, charts, source)
                         .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // "</" would end the script element early; "<\/" is the same JSON string.
  for (auto at = data.find("</"); at != std::string::npos; at = data.find("</", at + 3)) {
    data.replace(at, 2, "<\\/");
  }
  std::string page =
      fmt::format("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                  "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                  "style-src 'unsafe-inline'; script-src 'unsafe-inline'\">\n"
                  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                  "<title>engram report: {}</title>\n<style>{}</style>\n</head>\n<body>\n{}",
                  escape_markup(source.store), k_style, page_heading(history, source));
  for (const auto& chart : charts) {
    page += fmt::format("<section>\n<h2>{}</h2>\n{}\n</section>\n", escape_markup(chart.title),
                        render_chart(chart));
  }
  page += "<section>\n<h2>Latest consolidations</h2>\n" + runs_table(history) + "</section>\n";
  page += "<script type=\"application/json\" id=\"engram-report-data\">" + data + "</script>\n";
  page += fmt::format("<script>{}</script>\n</body>\n</html>\n", k_script);
  return page;
}

} // namespace engram::cli
