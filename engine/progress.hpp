// Progress: how far a long piece of work has got, told by the engine as it
// goes. The engine only reports; whether and how it is shown (a line on a
// terminal, nothing on a pipe) is the caller's, so no output code enters here.
#pragma once

#include "git/repository.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace engram::engine {

// Told, as work goes, how much of it is done.
class Progress {
public:
  virtual ~Progress() = default;

  // `done` of `total` `units` ("rules", "files") are finished; `step` names
  // the one under way ("rule dedupe").
  virtual void update(std::string_view step, std::size_t done, std::size_t total,
                      std::string_view units) = 0;
};

// `admit` that also tells `progress` (when not null) of each file staging
// judges, as `done` of `total` files of `step`: staging reads every file, so
// on a large folder it is the long part of a snapshot.
git::Admit counting(git::Admit admit, Progress* progress, std::string step, std::size_t total);

} // namespace engram::engine
