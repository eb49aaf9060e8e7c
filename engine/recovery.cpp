// Recovery: finishing an interrupted change from its working state. Each
// decision is made from the disk and the state alone, so running recovery
// twice (say, killed during recovery itself) does no harm.
#include "engine/recovery.hpp"

#include "base/error.hpp"
#include "engine/message.hpp"
#include "engine/pending.hpp"
#include "engine/usage_run.hpp"
#include "git/locks.hpp"

#include <spdlog/spdlog.h>

namespace engram::engine {

namespace fs = std::filesystem;

namespace {

// Finishes the writes of `pending` into `result`: each file ends at its new
// content, or is deferred when someone else changed it.
void finish_writes(Session& session, const Pending& pending, ApplyResult& result) {
  for (const auto& file : pending.files) {
    if (!file.target) {
      continue;
    }
    const fs::path path = session.root() / file.path;
    const auto now = disk_hash(path);
    if (now == file.target) {
      result.written.push_back(file.path); // landed before the crash
      continue;
    }
    const auto bytes =
        now == file.base ? session.repository().read_blob(*file.target) : std::nullopt;
    if (!bytes) {
      if (now == file.base) {
        spdlog::error("{}: the new content of {} (blob {}) is missing from the repository; "
                      "leaving the file as it is",
                      session.root().string(), file.path, *file.target);
      }
      result.deferred.push_back(file.path); // someone else's bytes win
      continue;
    }
    write_atomically(path, *bytes);
    result.written.push_back(file.path);
  }
}

// Finishes the removals of `pending` into `result`, only when no write was
// deferred: a removed file's claims may have been bound for a deferred one.
void finish_removals(Session& session, const Pending& pending, ApplyResult& result) {
  const bool writes_complete = result.deferred.empty();
  for (const auto& file : pending.files) {
    if (file.target) {
      continue;
    }
    const fs::path path = session.root() / file.path;
    const auto now = disk_hash(path);
    if (!now) {
      result.removed.push_back(file.path); // removed before the crash, after every write
    } else if (writes_complete && now == file.base) {
      std::error_code error;
      fs::remove(path, error);
      if (error) {
        throw Error("{}: cannot remove: {}", path.string(), error.message());
      }
      result.removed.push_back(file.path);
    } else {
      result.deferred.push_back(file.path);
    }
  }
}

// The message and note of the commit that finishes `pending`.
CommitText recovered_message(const Pending& pending, const ApplyResult& finished) {
  if (!pending.record.empty()) {
    try {
      return commit_message(plan_from_record(nlohmann::json::parse(pending.record)), finished,
                            Recovered::yes);
    } catch (const std::exception& error) {
      spdlog::warn("the interrupted consolidation's record cannot be rendered again ({}); "
                   "committing with the message it was made with",
                   error.what());
    }
  }
  return {mark_recovered(pending.message), {}};
}

} // namespace

std::vector<std::string> remove_temporaries(const fs::path& root) {
  std::vector<std::string> removed;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(
           root, fs::directory_options::skip_permission_denied, error);
       !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
    if (it->path().filename() == ".git") {
      it.disable_recursion_pending();
      continue;
    }
    std::error_code type_error;
    if (!it->is_regular_file(type_error) || it->is_symlink(type_error) ||
        !is_temporary_name(it->path().filename().string()) || git::held_open(it->path())) {
      continue;
    }
    std::error_code remove_error;
    if (fs::remove(it->path(), remove_error)) {
      removed.push_back(fs::relative(it->path(), root).generic_string());
    }
  }
  for (const auto& path : removed) {
    spdlog::info("{}: removed {}, a temporary file an interrupted run left", root.string(), path);
  }
  return removed;
}

Recovery finish_interrupted(Session& session, Sweep sweep) {
  Recovery recovery;
  if (sweep == Sweep::yes) {
    recovery.removed_temporaries = remove_temporaries(session.root());
  }
  const auto pending = read_pending(session.root(), session.layout());
  if (!pending) {
    release_committed_usage(session);
    return recovery;
  }
  spdlog::warn("{}: finishing an interrupted {} (its working state is in {})",
               session.root().string(), pending->operation,
               pending_path(session.root(), session.layout()).string());
  recovery.operation = pending->operation;
  finish_writes(session, *pending, recovery.finished);
  finish_removals(session, *pending, recovery.finished);

  std::vector<std::string> touched = recovery.finished.written;
  touched.insert(touched.end(), recovery.finished.removed.begin(), recovery.finished.removed.end());
  if (!touched.empty() || pending->merged) {
    const CommitText text = recovered_message(*pending, recovery.finished);
    const auto signature = engram_signature(session.repository(), session.settings());
    recovery.commit =
        session.commit("cannot commit the interrupted change", [&](git::Repository& repository) {
          return pending->merged
                     ? repository.commit_merge(touched, *pending->merged, text.message, signature,
                                               text.note)
                     : repository.commit_paths(touched, text.message, signature, text.note);
        });
  }
  clear_pending(session.root(), session.layout());
  // The commit just made (or the one the interrupted run made) may name
  // usage logs it folded: they go only now, after it.
  release_committed_usage(session);
  return recovery;
}

Recovery recover(const fs::path& root, const config::Settings& settings) {
  Session session = Session::open(root, settings);
  Recovery recovery = finish_interrupted(session);
  recovery.snapshot = snapshot(session);
  return recovery;
}

} // namespace engram::engine
