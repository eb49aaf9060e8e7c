// Diagnostic: what engram says about input it will not act on, as `path:line: reason`.
#pragma once

#include <fmt/format.h>
#include <string>

namespace engram::store {

// How serious a diagnostic is.
enum class Severity {
  error,   // the file cannot be used at all; it is left untouched
  warning, // the file is usable, but one field is ignored (e.g. an unparseable date)
};

// One finding about one file, located at a 1-based line.
struct Diagnostic {
  std::string path;
  int line = 1;
  std::string reason;
  Severity severity = Severity::error;

  // Formats as `path:line: reason`, the form editors and CI understand.
  std::string to_string() const { return fmt::format("{}:{}: {}", path, line, reason); }
};

} // namespace engram::store
