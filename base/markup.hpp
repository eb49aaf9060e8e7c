// Escaping text for markup: the report's HTML and SVG, and the launchd
// agent's property list (XML) are written as text by hand, so what a store
// path or a claim holds must not become markup.
#pragma once

#include <string>
#include <string_view>

namespace engram {

// `text` with &, <, >, " and ' escaped, safe as the content and as a quoted
// attribute value of HTML, SVG and XML.
std::string escape_markup(std::string_view text);

} // namespace engram
