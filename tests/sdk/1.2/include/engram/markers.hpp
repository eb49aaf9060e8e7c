// Superseded markers: how engram keeps a value that a newer one replaced,
// `<!-- superseded DATE: previously "…" -->` beside the claim that replaced
// it, so no claim is lost. Part of the plugin SDK (since 1.1); header-only,
// one copy that the rules and the host's merge both use.
#pragma once

#include "engram/date.hpp"
#include "engram/text.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace engram::markers {

// How a superseded marker starts.
inline constexpr std::string_view k_marker_open = "<!-- superseded ";

// A claim's text made safe to quote inside an HTML comment.
inline std::string quote_for_marker(std::string_view claim) {
  std::string text = text::one_line(claim);
  for (std::size_t at = text.find("-->"); at != std::string::npos; at = text.find("-->", at)) {
    text.replace(at, 3, "--&gt;");
  }
  for (std::size_t at = text.find('"'); at != std::string::npos; at = text.find('"', at + 2)) {
    text.replace(at, 1, "\\\"");
  }
  return text;
}

// The marker that keeps a superseded claim: `<!-- superseded DATE: previously "…" -->`.
inline std::string superseded_marker(Date today, std::string_view claim) {
  return std::string(k_marker_open) + today.to_string() + ": previously \"" +
         quote_for_marker(claim) + "\" -->";
}

// A claim as one unit: what it says, and the superseded markers that keep the
// values it replaced. Markers hold no `-->` of their own (quote_for_marker), so
// the first `-->` closes one, and a marker never holds another.
struct MarkedClaim {
  std::string own;                  // the claim without its markers, trailing space trimmed
  std::vector<std::string> markers; // its `<!-- superseded … -->` markers, in order
};

// Splits a claim's text into what it says and its superseded markers.
inline MarkedClaim split_markers(std::string_view text) {
  MarkedClaim out;
  while (!text.empty()) {
    const auto open = text.find(k_marker_open);
    const auto close =
        open == std::string_view::npos ? open : text.find("-->", open + k_marker_open.size());
    if (close == std::string_view::npos) {
      out.own.append(text);
      break;
    }
    out.own.append(text.substr(0, open));
    out.markers.emplace_back(text.substr(open, close + 3 - open));
    text.remove_prefix(close + 3);
    // The marker's indentation goes with it, and so does its line when it had one of its own.
    while (!out.own.empty() && (out.own.back() == ' ' || out.own.back() == '\t')) {
      out.own.pop_back();
    }
    if (out.own.ends_with('\n') && (text.empty() || text.front() == '\n' || text.front() == '\r')) {
      out.own.pop_back();
      if (out.own.ends_with('\r')) {
        out.own.pop_back();
      }
    }
  }
  while (!out.own.empty() && (out.own.back() == '\n' || out.own.back() == '\r' ||
                              out.own.back() == ' ' || out.own.back() == '\t')) {
    out.own.pop_back();
  }
  return out;
}

// The claim as it is written into another file: a list item when it is one line.
inline std::string as_entry(std::string_view claim) {
  if (text::starts_list_item(claim) || claim.find('\n') != std::string_view::npos) {
    return std::string(claim);
  }
  return "- " + std::string(claim);
}

// The markers a claim carries after it: continuation lines of a list item (so
// they stay part of it), else lines of the claim's own paragraph.
inline std::string markers_after(std::string_view claim, const std::vector<std::string>& markers) {
  std::string out;
  for (const auto& marker : markers) {
    out += (text::starts_list_item(claim) ? "\n  " : "\n") + marker;
  }
  return out;
}

// A claim and its markers as one entry of a body: a one-line claim becomes a
// list item, and its markers follow it as continuation lines.
inline std::string entry_with_markers(const MarkedClaim& claim) {
  const auto entry = as_entry(claim.own);
  return entry + markers_after(entry, claim.markers);
}

} // namespace engram::markers
