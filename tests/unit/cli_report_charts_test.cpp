// Report charts: every value becomes one point carrying it, on an axis that
// starts at zero; text is escaped; a chart with no labels draws no point.
#include "base/markup.hpp"
#include "cli/report_charts.hpp"

#include <catch2/catch.hpp>
#include <regex>

using engram::escape_markup;
using namespace engram::cli;

namespace {

// The data-value of each point of an svg, in drawing order.
std::vector<long long> point_values(const std::string& svg) {
  static const std::regex k_point(R"re(class="point"[^>]*data-value="(-?[0-9]+)")re");
  std::vector<long long> values;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), k_point);
       it != std::sregex_iterator(); ++it) {
    values.push_back(std::stoll((*it)[1].str()));
  }
  return values;
}

} // namespace

TEST_CASE("a line chart draws one point per value of each series, series after series") {
  const Chart chart{"files",
                    "Files",
                    "files",
                    ChartKind::lines,
                    {"2026-01-01", "2026-01-02", "2026-01-03"},
                    {{"semantic", {1, 4, 9}}, {"episodic", {3, 0, 2}}}};
  const auto svg = render_chart(chart);
  CHECK(svg.starts_with("<svg class=\"chart\" data-chart=\"files\""));
  CHECK(svg.ends_with("</svg>"));
  CHECK(point_values(svg) == std::vector<long long>{1, 4, 9, 3, 0, 2});
  CHECK(svg.find("<circle") != std::string::npos);
  // The largest value sits under the axis' top, and the axis starts at zero.
  CHECK(svg.find(">0</text>") != std::string::npos);
  CHECK(svg.find(">10</text>") != std::string::npos);
}

TEST_CASE("a bar chart draws one bar per value") {
  const Chart chart{"actions",
                    "Actions",
                    "actions",
                    ChartKind::bars,
                    {"2026-01-01", "2026-02-01"},
                    {{"absorbed", {12, 0}}, {"decayed", {3, 1}}}};
  const auto svg = render_chart(chart);
  CHECK(point_values(svg) == std::vector<long long>{12, 0, 3, 1});
  CHECK(svg.find("<rect class=\"point\"") != std::string::npos);
}

TEST_CASE("a chart without labels says it has no data and draws no point") {
  const Chart chart{"tags", "Tags", "files", ChartKind::bars, {}, {{"files", {}}}};
  const auto svg = render_chart(chart);
  CHECK(point_values(svg).empty());
  CHECK(svg.find("No data") != std::string::npos);
}

TEST_CASE("a chart escapes every text it draws") {
  const Chart chart{"tags", "<b>&\"", "files", ChartKind::bars, {"a<b"}, {{"x\"y", {1}}}};
  const auto svg = render_chart(chart);
  CHECK(svg.find("<b>") == std::string::npos);
  CHECK(svg.find("a&lt;b") != std::string::npos);
  CHECK(svg.find("x&quot;y") != std::string::npos);
  CHECK(escape_markup("<a href='x'>&</a>") == "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;");
}
