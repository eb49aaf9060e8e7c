// Writing roff for the man pages (see roff.hpp).
#include "cli/roff.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace engram::cli::roff {

namespace {

// One character as groff should print it.
std::string escape(char c) {
  switch (c) {
  case '\\':
    return "\\e";
  case '-':
    return "\\-";
  case '"':
    return "\\(dq";
  case '\n':
    return " ";
  default:
    return std::string(1, c);
  }
}

} // namespace

std::string text(std::string_view text) {
  std::string out;
  // A line starting with `.` or `'` would be read as a request: `\&`, a
  // character that prints nothing, goes first.
  if (!text.empty() && (text.front() == '.' || text.front() == '\'')) {
    out += "\\&";
  }
  for (const char c : text) {
    out += escape(c);
  }
  return out;
}

std::string prose(std::string_view text) {
  if (std::count(text.begin(), text.end(), '`') % 2 != 0) {
    return roff::text(text); // an unpaired backtick is printed as it is
  }
  std::string out;
  bool code = false;
  std::size_t start = 0;
  for (auto tick = text.find('`'); tick != std::string_view::npos; tick = text.find('`', start)) {
    out += roff::text(text.substr(start, tick - start)) + (code ? "\\fR" : "\\fB");
    code = !code;
    start = tick + 1;
  }
  return out + roff::text(text.substr(start));
}

std::string macro_argument(std::string_view text) {
  return "\"" + roff::text(text) + "\"";
}

std::string bold(std::string_view text) {
  return "\\fB" + roff::text(text) + "\\fR";
}

std::string italic(std::string_view text) {
  return "\\fI" + roff::text(text) + "\\fR";
}

std::string header(std::string_view title, int section, std::string_view version,
                   std::string_view manual) {
  // No date: the page is the same for the same version, whenever it is built.
  // `.nh` and `.ad l`: option names and dotted keys are never hyphenated or
  // stretched, so what the page shows can be typed.
  return fmt::format(".TH {} {} \"\" {} {}\n.nh\n.ad l\n", macro_argument(title), section,
                     macro_argument(fmt::format("engram {}", version)), macro_argument(manual));
}

std::string section(std::string_view title) {
  return fmt::format(".SH {}\n", macro_argument(title));
}

std::string subsection(std::string_view title) {
  return fmt::format(".SS {}\n", macro_argument(title));
}

std::string paragraph(std::string_view body) {
  return fmt::format(".PP\n{}\n", prose(body));
}

std::string tagged(std::string_view tag, std::string_view body) {
  return fmt::format(".TP\n{}\n{}\n", tag, prose(body));
}

} // namespace engram::cli::roff
