// The Markdown rendering of `engram health`'s report, private to cli/: the
// report is gathered as JSON (command_health.cpp) and rendered from it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace engram::cli::detail {

// The report as Markdown, the seed's "Memory Health Report".
[[nodiscard]] std::string to_markdown(const nlohmann::ordered_json& r);

} // namespace engram::cli::detail
