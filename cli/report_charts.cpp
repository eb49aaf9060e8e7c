// Report charts. The value axis starts at zero and ends at a round number, so
// two charts of one page read alike; labels along the bottom are thinned to
// what fits, while every value keeps its point.
#include "cli/report_charts.hpp"

#include "base/markup.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace engram::cli {

namespace {

constexpr int k_width = 720;
constexpr int k_height = 260;
constexpr int k_left = 56;   // room for the value axis' numbers
constexpr int k_right = 160; // room for the legend
constexpr int k_top = 16;
constexpr int k_bottom = 56;   // room for the labels, slanted or not
constexpr int k_label_px = 84; // the least room a label along the bottom takes
constexpr int k_ticks = 4;     // about how many lines cross the value axis

// Colours the series take in turn, from a palette made to be told apart.
constexpr const char* k_colours[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                     "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};

// The colour of series `index`.
const char* colour(std::size_t index) {
  return k_colours[index % std::size(k_colours)];
}

// The top of the value axis for values up to `most`, a round number, and its tick step.
std::pair<std::int64_t, std::int64_t> axis_top(std::int64_t most) {
  most = std::max<std::int64_t>(most, 1);
  const std::int64_t rough = std::max<std::int64_t>((most + k_ticks - 1) / k_ticks, 1);
  std::int64_t magnitude = 1;
  while (magnitude * 10 <= rough) {
    magnitude *= 10;
  }
  std::int64_t step = magnitude;
  for (const std::int64_t factor : {1, 2, 5, 10}) {
    step = factor * magnitude;
    if (step >= rough) {
      break;
    }
  }
  return {((most + step - 1) / step) * step, step};
}

// Where a chart draws: the plot's box and the value axis' top.
struct Frame {
  double left = k_left;
  double top = k_top;
  double width = k_width - k_left - k_right;
  double height = k_height - k_top - k_bottom;
  std::int64_t axis_top = 1;

  // The y of value `value`.
  double y(std::int64_t value) const {
    return top + height - height * static_cast<double>(value) / static_cast<double>(axis_top);
  }
};

// The value axis: its lines and numbers.
void draw_axis(std::string& out, const Frame& frame, std::int64_t step, const std::string& unit) {
  for (std::int64_t value = 0; value <= frame.axis_top; value += step) {
    const double y = frame.y(value);
    out += fmt::format("<line class=\"grid\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" "
                       "y2=\"{:.1f}\"/><text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" "
                       "text-anchor=\"end\">{}</text>",
                       frame.left, y, frame.left + frame.width, y, frame.left - 6, y + 4, value);
  }
  out += fmt::format("<text class=\"unit\" x=\"4\" y=\"{:.1f}\">{}</text>", frame.top - 4,
                     escape_markup(unit));
}

// The x at the middle of label `index` of `count`.
double label_x(const Frame& frame, std::size_t index, std::size_t count, ChartKind kind) {
  if (kind == ChartKind::bars || count == 1) {
    const double band = frame.width / static_cast<double>(count);
    return frame.left + band * (static_cast<double>(index) + 0.5);
  }
  return frame.left + frame.width * static_cast<double>(index) / static_cast<double>(count - 1);
}

// The labels along the bottom, as many as fit. A bar chart of a few more
// labels than fit side by side (tags) slants them rather than leave any out.
void draw_labels(std::string& out, const Frame& frame, const Chart& chart) {
  const std::size_t count = chart.labels.size();
  const auto fit = std::max<std::size_t>(static_cast<std::size_t>(frame.width / k_label_px), 1);
  const bool slant = chart.kind == ChartKind::bars && count > fit && count <= 2 * fit;
  const std::size_t every = slant ? 1 : (count + fit - 1) / fit;
  for (std::size_t i = 0; i < count; i += every) {
    const double x = label_x(frame, i, count, chart.kind);
    const double y = frame.top + frame.height + (slant ? 12 : 18);
    out += fmt::format(
        "<text class=\"label\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\"{}>{}</text>", x, y,
        slant ? "end" : "middle",
        slant ? fmt::format(" transform=\"rotate(-30 {:.1f} {:.1f})\"", x, y) : "",
        escape_markup(chart.labels[i]));
  }
}

// The hover text and data attributes of one point.
std::string point_attributes(const Chart& chart, std::size_t s, std::size_t i) {
  const auto& series = chart.series[s];
  return fmt::format("data-series=\"{}\" data-index=\"{}\" data-value=\"{}\"",
                     escape_markup(series.name), i, series.values[i]);
}

// One series as a line through its points.
void draw_line(std::string& out, const Frame& frame, const Chart& chart, std::size_t s) {
  const auto& series = chart.series[s];
  const std::size_t count = chart.labels.size();
  std::string path;
  for (std::size_t i = 0; i < count; ++i) {
    path += fmt::format("{}{:.1f},{:.1f}", i == 0 ? "" : " ", label_x(frame, i, count, chart.kind),
                        frame.y(series.values[i]));
  }
  out += fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"/>",
                     colour(s), path);
  for (std::size_t i = 0; i < count; ++i) {
    out += fmt::format("<circle class=\"point\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"3\" fill=\"{}\" "
                       "{}><title>{}: {} {}</title></circle>",
                       label_x(frame, i, count, chart.kind), frame.y(series.values[i]), colour(s),
                       point_attributes(chart, s, i), escape_markup(chart.labels[i]),
                       escape_markup(series.name), series.values[i]);
  }
}

// One series as a bar in each label's band, beside the other series' bars.
void draw_bars(std::string& out, const Frame& frame, const Chart& chart, std::size_t s) {
  const auto& series = chart.series[s];
  const std::size_t count = chart.labels.size();
  const double band = frame.width / static_cast<double>(count);
  const double bar = band * 0.8 / static_cast<double>(chart.series.size());
  for (std::size_t i = 0; i < count; ++i) {
    const double x =
        frame.left + band * (static_cast<double>(i) + 0.1) + bar * static_cast<double>(s);
    const double y = frame.y(series.values[i]);
    out += fmt::format("<rect class=\"point\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" "
                       "height=\"{:.1f}\" fill=\"{}\" {}><title>{}: {} {}</title></rect>",
                       x, y, bar, frame.top + frame.height - y, colour(s),
                       point_attributes(chart, s, i), escape_markup(chart.labels[i]),
                       escape_markup(series.name), series.values[i]);
  }
}

// The legend: one swatch and name per series, right of the plot.
void draw_legend(std::string& out, const Chart& chart) {
  for (std::size_t s = 0; s < chart.series.size(); ++s) {
    const int y = k_top + 14 + static_cast<int>(s) * 18;
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"10\" height=\"10\" fill=\"{}\"/>"
                       "<text class=\"legend\" x=\"{}\" y=\"{}\">{}</text>",
                       k_width - k_right + 16, y - 9, colour(s), k_width - k_right + 32, y,
                       escape_markup(chart.series[s].name));
  }
}

} // namespace

std::string render_chart(const Chart& chart) {
  std::string out = fmt::format(
      "<svg class=\"chart\" data-chart=\"{}\" "
      "viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" role=\"img\" aria-label=\"{}\">",
      escape_markup(chart.id), k_width, k_height, k_width, k_height, escape_markup(chart.title));
  if (chart.labels.empty()) {
    out += fmt::format("<text class=\"empty\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">"
                       "No data in this period</text></svg>",
                       k_width / 2, k_height / 2);
    return out;
  }
  std::int64_t most = 0;
  for (const auto& series : chart.series) {
    for (const auto value : series.values) {
      most = std::max(most, value);
    }
  }
  Frame frame;
  const auto [top, step] = axis_top(most);
  frame.axis_top = top;
  draw_axis(out, frame, step, chart.unit);
  draw_labels(out, frame, chart);
  for (std::size_t s = 0; s < chart.series.size(); ++s) {
    if (chart.kind == ChartKind::lines) {
      draw_line(out, frame, chart, s);
    } else {
      draw_bars(out, frame, chart, s);
    }
  }
  draw_legend(out, chart);
  return out + "</svg>";
}

} // namespace engram::cli
