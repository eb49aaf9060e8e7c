// git's own progress, read by engram. git draws its progress
// ("Writing objects:  45% (41/90)") only on a terminal, so a git run whose
// progress is wanted writes its standard error to a pseudo-terminal, and
// what comes out of it is sorted here: progress to the caller, the rest kept
// as what git said.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace engram::git {

// Told, as git works, that `done` of `total` of its current `step`
// ("writing objects") are done.
using GitProgress = std::function<void(std::string_view step, std::size_t done, std::size_t total)>;

// One progress report of git's, read from its line.
struct ProgressReport {
  std::string step; // git's words, in lower case: "compressing objects"
  std::size_t done = 0;
  std::size_t total = 0;
};

// The report in one piece of git's standard error (text between carriage
// returns or newlines): "Counting objects:  45% (41/90)", with or without
// ", done." after it. nullopt for anything else.
std::optional<ProgressReport> parse_progress(std::string_view piece);

// Sorts the bytes git writes to its standard error as they come: each
// progress report goes to `progress`, git's other progress chatter ("Total 90
// (delta 58)") is dropped, and every other line is kept in `said`, up to
// `limit` bytes, for the error message.
class ErrorSorter {
public:
  ErrorSorter(GitProgress progress, std::string& said, std::size_t limit);

  // Takes the next bytes; a piece cut between two reads waits for its end.
  void feed(std::string_view bytes);

  // Sorts what is left once git has closed its standard error.
  void finish();

private:
  void sort(std::string_view piece);

  GitProgress m_progress;
  std::string& m_said;
  std::size_t m_limit;
  std::string m_pending; // the start of a piece whose end has not come yet
};

} // namespace engram::git
