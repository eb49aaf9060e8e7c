// Transaction: the one code path from a change to its commit.
#include "engine/transaction.hpp"

#include "base/error.hpp"
#include "base/fault.hpp"
#include "base/step_timer.hpp"
#include "engine/replaced_files.hpp"

#include <ctime>
#include <spdlog/spdlog.h>
#include <string_view>
#include <vector>

namespace engram::engine {

Committed apply_and_commit(Session& session, const std::vector<FileChange>& changes,
                           Pending pending, const MessageFor& message) {
  git::Repository& repository = session.repository();
  StepTimer timer;
  // New contents go into the object database before the working state names
  // them, so recovery can always write what the state says.
  ApplyResult everything;
  std::vector<std::string_view> contents;
  for (const auto& change : changes) {
    if (change.new_bytes) {
      contents.emplace_back(*change.new_bytes);
    }
  }
  const auto ids = repository.write_blobs(contents);
  if (!ids) {
    throw Error("{}: nothing was changed: {}", session.root().string(), ids.error().message);
  }
  pending.files.clear();
  std::size_t next = 0;
  for (const auto& change : changes) {
    PendingFile file{change.path, change.base_hash, std::nullopt};
    if (change.new_bytes) {
      file.target = (*ids)[next++];
      everything.written.push_back(change.path);
    } else {
      everything.removed.push_back(change.path);
    }
    pending.files.push_back(std::move(file));
  }
  if (auto failed = repository.flush()) { // the blobs are durable before the state names them
    throw Error("{}: nothing was changed: {}", session.root().string(), failed->message);
  }
  timer.step("blobs");
  pending.head = repository.head();
  const CommitText planned = message(everything);
  pending.message = planned.message;
  timer.step("message");
  write_pending(session.root(), session.layout(), pending);
  fault_point("after-pending");
  timer.step("pending");

  Committed result;
  ReplacedFiles kept(session.root(), session.layout());
  result.applied = apply(changes, session.root(), &kept);
  timer.step("apply");
  std::vector<std::string> touched = result.applied.written;
  touched.insert(touched.end(), result.applied.removed.begin(), result.applied.removed.end());
  // A merge is recorded (the remote's commit as a parent) only when all of
  // it landed: what was left for later must be merged again next time.
  const bool merging = pending.merged && result.applied.deferred.empty();
  if (!touched.empty() || merging) {
    fault_point("before-commit");
    const CommitText text = result.applied == everything ? planned : message(result.applied);
    const auto signature = engram_signature(repository, session.settings());
    result.commit = session.commit(
        "the change was written but not committed (the next run commits it)",
        [&](git::Repository& open) {
          return merging ? open.commit_merge(touched, *pending.merged, text.message, signature,
                                             text.note)
                         : open.commit_paths(touched, text.message, signature, text.note);
        });
    fault_point("after-commit");
    timer.step("commit");
  }
  clear_pending(session.root(), session.layout());
  timer.step("clear");
  // What an agent appended while the plan was applied, or through a
  // descriptor of a replaced file, goes to the live file now, as the agent's.
  result.carried = carry_over(session.root(), session.layout(), std::time(nullptr)).paths;
  timer.step("carry over");
  spdlog::debug("{}: applied: {}", session.root().string(), timer.line());
  return result;
}

} // namespace engram::engine
