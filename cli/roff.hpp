// Writing roff for the man pages: escaping text so groff prints it as it
// is, and the few requests the pages use.
#pragma once

#include <string>
#include <string_view>

namespace engram::cli::roff {

// `text` escaped for a line of running text: backslashes and hyphens are
// printed as typed (so `--store` can be copied), and a line never starts
// with a character groff would take for a request.
std::string text(std::string_view text);

// `text` escaped as text() does, with each `code` span (between backticks)
// in bold instead of in backticks.
std::string prose(std::string_view text);

// `text` as one argument of a request: escaped, in double quotes.
std::string macro_argument(std::string_view text);

// `text` in bold, for what is typed as it is (commands, options, keys).
std::string bold(std::string_view text);

// `text` in italics, for what stands for a value (PATH, N).
std::string italic(std::string_view text);

// The page's title line and the settings every page starts with.
std::string header(std::string_view title, int section, std::string_view version,
                   std::string_view manual);

// A section heading (`.SH`).
std::string section(std::string_view title);

// A subsection heading (`.SS`).
std::string subsection(std::string_view title);

// A new paragraph of prose().
std::string paragraph(std::string_view body);

// A tagged paragraph: `tag` (already formatted) with `body`, as prose(), indented under it.
std::string tagged(std::string_view tag, std::string_view body);

} // namespace engram::cli::roff
