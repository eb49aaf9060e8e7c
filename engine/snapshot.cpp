// Snapshot: finding exactly the agent's changes and committing them.
#include "engine/snapshot.hpp"

#include "base/step_timer.hpp"
#include "engine/apply.hpp"
#include "engine/recovery.hpp"
#include "store/secrets.hpp"
#include "store/temporaries.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace engram::engine {

std::string snapshot_message(const std::vector<git::Change>& files, SnapshotReason reason) {
  const std::size_t n = files.size();
  std::string message =
      reason == SnapshotReason::agent
          ? fmt::format("snapshot: {} file{} changed by the agent\n\n", n, n == 1 ? "" : "s")
          : fmt::format("snapshot: {} file{} found when engram adopted the folder\n\n", n,
                        n == 1 ? "" : "s");
  for (const auto& file : files) {
    message += fmt::format("- {} {}\n", git::change_kind_name(file.kind), file.path);
  }
  message += "\nEngram-Run: snapshot\n";
  return store::redact_secrets(message); // a credential used as a file name is not quoted
}

std::vector<git::Change> agent_changes(const git::Repository& repository,
                                       const store::Layout& layout,
                                       const std::vector<std::string>* only) {
  auto changes = repository.changes(only);
  const std::string state = layout.state + "/";
  std::erase_if(changes, [&](const git::Change& change) {
    const auto slash = change.path.rfind('/');
    const std::string_view name =
        std::string_view(change.path).substr(slash == std::string::npos ? 0 : slash + 1);
    // An editor's swap file or backup beside a memory is not the agent's
    // change; one an older engram committed leaves history when it goes.
    const bool temporary = is_temporary_name(name) || store::is_editor_temporary(name);
    return change.path.starts_with(state) || (temporary && change.kind != git::ChangeKind::deleted);
  });
  return changes;
}

std::optional<Snapshot> snapshot(Session& session, SnapshotReason reason,
                                 std::vector<HeldBack>* held_out,
                                 const std::vector<std::string>* only,
                                 std::vector<std::string>* left, Progress* progress) {
  StepTimer timer;
  const auto files = agent_changes(session.repository(), session.layout(), only);
  if (files.empty()) {
    return std::nullopt;
  }
  const auto note_left = [&](const std::vector<git::Change>& committed) {
    if (left == nullptr) {
      return;
    }
    for (const auto& file : files) {
      if (std::none_of(committed.begin(), committed.end(),
                       [&](const git::Change& c) { return c.path == file.path; })) {
        left->push_back(file.path);
      }
    }
  };
  std::vector<std::string> paths;
  for (const auto& file : files) {
    paths.push_back(file.path);
  }
  const auto author = agent_signature(session.settings());
  const auto committer = engram_signature(session.repository(), session.settings());
  // A file the agent is rewriting this instant cannot be read whole; it is
  // left for the next snapshot, and the message lists exactly what was staged.
  // A file that looks like it holds a credential is held back the same way,
  // until the credential is gone.
  std::vector<git::Change> committed;
  std::vector<HeldBack> held;
  timer.step("changes");
  const auto commit =
      session.commit("cannot commit the agent's changes", [&](git::Repository& repository) {
        held.clear();
        auto staged = repository.stage_paths(
            paths, git::Unreadable::skip,
            counting(keep_out_secrets(held, held_back_limit(session.settings()), session.root()),
                     progress, "staging the files already there", paths.size()));
        if (!staged) {
          return Expected<git::CommitId, git::Failure>(unexpected(staged.error()));
        }
        timer.step("stage");
        committed.clear();
        for (const auto& file : files) {
          if (std::find(staged->begin(), staged->end(), file.path) != staged->end()) {
            committed.push_back(file);
          }
        }
        if (committed.empty()) {
          return Expected<git::CommitId, git::Failure>(git::CommitId{});
        }
        return repository.commit_staged(snapshot_message(committed, reason), author, committer,
                                        &*staged);
      });
  timer.step("commit");
  spdlog::debug("{}: snapshot: {}", session.root().string(), timer.line());
  if (held_out != nullptr) {
    held_out->insert(held_out->end(), held.begin(), held.end());
  } else {
    report_held_back(session.root(), held);
  }
  if (!commit) {
    note_left({});
    return std::nullopt; // nothing could be staged, or HEAD had it already
  }
  note_left(committed);
  return Snapshot{*commit, std::move(committed)};
}

std::optional<Snapshot> snapshot(const std::filesystem::path& root,
                                 const config::Settings& settings) {
  Session session = Session::open(root, settings);
  finish_interrupted(session);
  return snapshot(session);
}

bool snapshot_due(std::optional<std::chrono::steady_clock::time_point> last,
                  std::chrono::steady_clock::time_point now, const config::Settings& settings) {
  return !last || now - *last >= std::chrono::seconds(settings.get_int("git.snapshot_interval_s"));
}

} // namespace engram::engine
