// Report charts: the plots of `engram report` as inline SVG, drawn by engram
// itself so the page needs no script library and nothing from the network.
// Every plotted value is an element of class `point` carrying its series,
// index and value as data attributes, so a test can read the chart back.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace engram::cli {

// One named line or set of bars of a chart: a value per label.
struct ChartSeries {
  std::string name;
  std::vector<std::int64_t> values;
};

// How a chart draws its series.
enum class ChartKind { lines, bars };

// One chart: labels along the bottom, a value of each series per label.
struct Chart {
  std::string id;    // the svg's data-chart attribute, unique in the page
  std::string title; // what the chart shows, above it
  std::string unit;  // what the values count (files, claims, chars)
  ChartKind kind = ChartKind::lines;
  std::vector<std::string> labels;
  std::vector<ChartSeries> series;
};

// The chart as one <svg> element, with its legend; a chart without labels
// says it has no data and has no points.
std::string render_chart(const Chart& chart);


} // namespace engram::cli
