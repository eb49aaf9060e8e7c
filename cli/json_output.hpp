// What every `--json` prints, in one place so all commands share one schema
// style: one JSON object on stdout, snake_case keys, null for a value that is
// absent, and each problem in a file as an object with its path, line and reason.
#pragma once

#include "cli/app.hpp"
#include "cli/store_selection.hpp"
#include "store/diagnostic.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace engram::cli {

// Whether a command speaks to people or prints one JSON object.
enum class Format { text, json };

// The format a `--json` flag asked for.
inline Format format_of(bool json) {
  return json ? Format::json : Format::text;
}

// Prints `value` as the one JSON object of a command's stdout.
void print_json(const nlohmann::json& value);

// True once print_json has printed, or note_json_printed was called: the
// command's stdout has its value.
bool json_printed();

// Notes that stdout has its value, written some other way (consolidate's
// record, streamed out in pieces).
void note_json_printed();

// A problem in a file as JSON: {"path", "line", "reason", "severity"}.
nlohmann::json diagnostic_json(const store::Diagnostic& diagnostic);

// A `path:line: reason` line (the configuration's problems, the daemon's) as
// diagnostic_json gives it; a line without a place keeps it all as the reason.
nlohmann::json problem_json(std::string_view text);

// With Format::json, prints why the command could not do its work as
// {"error": reason, "diagnostics": [...]} (stderr has said it for people
// already). Returns `exit_code`, which --json never changes.
int report_failure(Format format, int exit_code, std::string_view reason,
                   const std::vector<std::string>& problems = {});

// load_config, and with Format::json its problems as report_failure's object.
std::optional<config::Config> load_config(const Globals& globals, Format format);

// refuses_hands_off, and with Format::json its reason as report_failure's object.
bool refuses_hands_off(const SelectedStore& selected, std::string_view command, Format format);

// today_from, and with Format::json why `now` is not a date as report_failure's object.
std::optional<Date> today_from(const std::optional<std::string>& now, std::string_view command,
                               Format format);

} // namespace engram::cli
