// Sync (see sync.hpp).
#include "engine/sync.hpp"

#include "base/error.hpp"
#include "engine/session.hpp"
#include "engine/sync_merge.hpp"
#include "git/history.hpp"
#include "git/remote.hpp"
#include "store/secrets.hpp"

#include <ctime>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

namespace engram::engine {
namespace {

namespace fs = std::filesystem;

// Where the last round's outcome is kept: git's folder, beside the refs it explains.
fs::path sync_state_path(const fs::path& gitdir) {
  return gitdir / "engram-sync.json";
}

// Keeps the round's outcome for `engram status`; a state that cannot be
// written only costs status its line, never the round.
void write_sync_state(const fs::path& gitdir, const Synced& synced) {
  const nlohmann::json json{{"time", static_cast<std::int64_t>(std::time(nullptr))},
                            {"remote", synced.remote},
                            {"ahead", synced.ahead},
                            {"behind", synced.behind},
                            {"problem", synced.problem}};
  const auto path = sync_state_path(gitdir);
  const auto temporary = fs::path(path.string() + ".tmp");
  std::ofstream(temporary) << json.dump(2) << '\n';
  std::error_code error;
  fs::rename(temporary, path, error);
}

// Refuses a remote whose tip does not hold what this store last synced: its
// history was rewritten (a force-push), and merging it would bring back, or
// lose, what its owner removed. Nothing local is touched.
void refuse_rewritten(const Session& session, const git::Repository& repository,
                      const Synced& synced) {
  const auto last = git::read_ref(repository, git::k_synced_ref);
  if (last && !git::contains(repository, *synced.fetched, *last)) {
    throw Error("{}: the history of {} ({}) was rewritten: its tip {} does not contain {}, "
                "which this store last synced with; nothing was changed. Find out who "
                "force-pushed, then point git.remote at a branch that keeps both histories",
                session.root().string(), synced.remote, synced.branch,
                git::short_id(*synced.fetched), git::short_id(*last));
  }
}

// The commit message of a merge: a summary, one line per file the record
// names, and the trailers; the claim-by-claim record is its note.
CommitText merge_message(const Synced& synced, const MergePlan& plan, const ApplyResult& applied,
                         const std::string& machine) {
  std::map<std::string, std::size_t> per_file;
  for (const auto& action : plan.record) {
    ++per_file[action.target];
  }
  std::string body;
  for (const auto& [path, count] : per_file) {
    body += fmt::format("- {}: {} merge action{}\n", path, count, count == 1 ? "" : "s");
  }
  for (const auto& path : applied.written) {
    if (!per_file.contains(path)) {
      body += fmt::format("- {}: as the remote has it\n", path);
    }
  }
  for (const auto& path : applied.removed) {
    body += fmt::format("- {}: removed, as on the remote\n", path);
  }
  std::string note;
  for (const auto& action : plan.record) {
    note += fmt::format("- {} {}{}: {} → {} ({})\n", action.rule, action.action,
                        action.claim.empty() ? "" : " \"" + action.claim + "\"", action.source,
                        action.target, action.reason);
  }
  return CommitText{fmt::format("sync: merge {} from {} ({})\n\n{}\nEngram-Run: sync\n"
                                "Engram-Machine: {}\nEngram-Merged: {}\n",
                                git::short_id(*synced.fetched), synced.remote, synced.branch, body,
                                machine, *synced.fetched),
                    note};
}

// Merges the fetched tip into HEAD through one transaction.
void merge_fetched(Session& session, const config::Settings& settings, Date today, Synced& synced) {
  git::Repository& repository = session.repository();
  const auto head = repository.head();
  const auto& theirs = *synced.fetched;
  const auto base = head ? git::merge_base(repository, *head, theirs) : std::nullopt;
  const MergeContext context{today, settings.get_real("rules.episodic-decay.near_duplicate"),
                             synced.remote + " " + synced.branch,
                             head ? git::commit_time(repository, *head) : 0,
                             git::commit_time(repository, theirs)};
  const auto plan = head ? merge_plan(repository, base, *head, theirs, context)
                         : merge_plan(repository, std::nullopt, theirs, theirs, context);
  Pending pending;
  pending.operation = "sync";
  pending.merged = theirs;
  const auto machine = machine_name(settings);
  const auto committed =
      apply_and_commit(session, plan.changes, std::move(pending), [&](const ApplyResult& applied) {
        return merge_message(synced, plan, applied, machine);
      });
  // Added to, not replaced: a round that merges twice (its push raced
  // another machine's) reports both merges.
  synced.commit = committed.commit;
  synced.touched.insert(synced.touched.end(), committed.applied.written.begin(),
                        committed.applied.written.end());
  synced.touched.insert(synced.touched.end(), committed.applied.removed.begin(),
                        committed.applied.removed.end());
  synced.record.insert(synced.record.end(), plan.record.begin(), plan.record.end());
  synced.kept_beside.insert(synced.kept_beside.end(), plan.kept_beside.begin(),
                            plan.kept_beside.end());
  if (committed.commit) {
    synced.merge = *committed.commit == theirs ? "fast-forward" : "merge";
  }
}

// Pushes a round makes at most: a push the remote refused because another
// machine pushed first is made again at once, after merging what that
// machine pushed, instead of waiting for the next round (a team's machines
// often sync at the same moment, after the same kind of event).
constexpr int k_push_attempts = 3;

// The first secret any commit about to be pushed adds, as `path:line: kind`.
std::optional<std::string> secret_in_push(const git::Repository& repository,
                                          const std::optional<std::string>& remote,
                                          const std::string& head) {
  for (const auto& change : git::changed_between(repository, remote, head)) {
    if (!change.after) {
      continue;
    }
    const auto bytes = repository.read_blob(*change.after);
    if (!bytes) {
      continue;
    }
    if (const auto found = store::find_secret(*bytes)) {
      return fmt::format("{}:{}: {}", change.path, found->line, found->kind);
    }
  }
  return std::nullopt;
}

// Pushes HEAD when the remote lacks it; says why not in `problem`.
void push_head(Session& session, Synced& synced) {
  git::Repository& repository = session.repository();
  const auto head = repository.head();
  if (!head || (synced.fetched && git::contains(repository, *synced.fetched, *head))) {
    return; // nothing the remote lacks
  }
  if (const auto secret = secret_in_push(repository, synced.fetched, *head)) {
    synced.problem = fmt::format("not pushed: {} looks like a credential; remove it and commit, "
                                 "then sync again",
                                 *secret);
    return;
  }
  if (auto failed = git::push(repository, synced.remote, synced.branch, *head)) {
    synced.refused = failed->rejected;
    synced.problem = failed->rejected
                         ? failed->message + " (the remote refused it; the next round merges "
                                             "what it holds first)"
                         : failed->message;
    return;
  }
  synced.pushed = true;
  git::write_ref(repository, git::k_synced_ref, *head, "engram sync: pushed");
}

// Finishes an interrupted change, commits the agent's edits, and names the
// branch: what a round does once, before it fetches.
void prepare(Session& session, Synced& synced) {
  synced.recovery = finish_interrupted(session);
  synced.branch = session.settings().get_string("git.branch");
  if (synced.branch.empty()) {
    synced.branch = git::head_branch(session.repository()).value_or("main");
  }
  synced.snapshot = snapshot(session);
}

// Fetches, and merges what the remote holds that the store lacks.
void fetch_and_merge(Session& session, Date today, Synced& synced) {
  git::Repository& repository = session.repository();
  auto fetched = git::fetch(repository, synced.remote, synced.branch);
  if (!fetched) {
    synced.problem = fetched.error();
    return;
  }
  synced.fetched = *fetched;
  if (!synced.fetched) {
    return; // an empty remote: the push makes the branch
  }
  refuse_rewritten(session, repository, synced);
  const auto head = repository.head();
  if (!head || !git::contains(repository, *head, *synced.fetched)) {
    merge_fetched(session, session.settings(), today, synced);
  }
  git::write_ref(repository, git::k_synced_ref, *synced.fetched, "engram sync: fetched");
}

} // namespace

Synced sync(const fs::path& root, const config::Settings& settings, Date today,
            const std::function<void()>& after_merge) {
  Synced synced;
  synced.remote = settings.get_string("git.remote");
  if (synced.remote.empty()) {
    throw Error("{}: no remote to sync with: set git.remote in the store's [[store]] table",
                root.string());
  }
  for (int attempt = 1; attempt <= k_push_attempts; ++attempt) {
    const auto fetched_before = synced.fetched;
    const auto commit_before = synced.commit;
    const auto refusal = std::exchange(synced.problem, std::string());
    synced.refused = false;
    {
      Session session = Session::open(root, settings);
      if (attempt == 1) {
        prepare(session, synced);
      }
      fetch_and_merge(session, today, synced);
    }
    if (attempt > 1 && !synced.problem.empty()) {
      // The push was refused (or so git said as its server went away), and
      // the fetch for what beat it failed: both are the round's news.
      synced.problem = refusal + "; then " + synced.problem;
    }
    if (attempt > 1 && synced.problem.empty() && synced.fetched == fetched_before) {
      synced.problem = refusal; // the remote did not move: a hook refused, and would again
      break;
    }
    if (synced.commit != commit_before && after_merge) {
      after_merge(); // the generated files, made again from the merged ones, before the push
    }
    if (!synced.problem.empty()) {
      break;
    }
    Session session = Session::open(root, settings);
    push_head(session, synced);
    if (synced.pushed || !synced.refused) {
      break;
    }
  }
  Session session = Session::open(root, settings);
  git::Repository& repository = session.repository();
  // The remote's tip now: what was pushed, else what was fetched.
  const auto remote_tip =
      synced.pushed ? git::read_ref(repository, git::k_synced_ref) : synced.fetched;
  if (const auto head = repository.head(); head && remote_tip) {
    const auto counts = git::ahead_behind(repository, *head, *remote_tip);
    synced.ahead = counts.ahead;
    synced.behind = counts.behind;
  }
  write_sync_state(repository.gitdir(), synced);
  return synced;
}

std::optional<SyncState> read_sync_state(const fs::path& gitdir) {
  std::ifstream in(sync_state_path(gitdir));
  if (!in) {
    return std::nullopt;
  }
  const auto json = nlohmann::json::parse(in, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return std::nullopt;
  }
  SyncState state;
  state.time = json.value("time", std::int64_t{0});
  state.remote = json.value("remote", std::string{});
  state.ahead = json.value("ahead", std::size_t{0});
  state.behind = json.value("behind", std::size_t{0});
  state.problem = json.value("problem", std::string{});
  return state;
}

} // namespace engram::engine
