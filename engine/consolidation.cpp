// Consolidation: the order of a run is the promise — an interrupted run is
// finished and the agent's changes are committed before engram reads, engram's
// writes land before removals, and the commit message is rendered from the
// record that drove the writes.
#include "engine/consolidation.hpp"

#include "base/error.hpp"
#include "base/step_timer.hpp"
#include "engine/held_back.hpp"
#include "engine/holds.hpp"
#include "engine/kept_notes.hpp"
#include "engine/message.hpp"
#include "engine/pending.hpp"
#include "engine/removal_cap.hpp"
#include "engine/replaced_files.hpp"
#include "engine/snapshot.hpp"
#include "engine/transaction.hpp"
#include "engine/usage_fold.hpp"
#include "engine/usage_run.hpp"
#include "engine/workspace.hpp"
#include "git/repository.hpp"
#include "recall/recall_index.hpp"
#include "store/scan.hpp"

#include <algorithm>
#include <ctime>
#include <memory>
#include <spdlog/spdlog.h>
#include <thread>

namespace engram::engine {

namespace {

// Runs the rules over a fresh scan of the store; `model` is given the
// workspace the plan was made from (see Outcome::model). With a `base` (the
// last run's model of the store) and what changed, the scan looks at what
// changed only and the model is the base updated along those paths.
Plan plan_for(const std::filesystem::path& root, const config::Settings& settings,
              const std::vector<RuleSlot>& rules, Date today, RunKind kind, store::ScanCache* cache,
              const std::vector<std::string>* changed, const std::vector<usage::TakenLog>& logs,
              std::optional<Workspace::Base>* base, std::shared_ptr<Workspace>& model,
              const std::vector<Hold>& holds, Progress* progress) {
  const auto layout = layout_from(settings, root);
  StepTimer timer;
  const bool by_path = base != nullptr && base->has_value() && changed != nullptr;
  auto snapshot = store::scan(
      root, layout,
      store::ScanLimits{static_cast<std::uintmax_t>(settings.get_int("scan.max_file_bytes"))},
      cache, changed, by_path ? store::Entries::looked_at : store::Entries::all);
  timer.step("scan");
  if (cache != nullptr) {
    spdlog::debug("{}: scan reused {} files unchanged since the last, read {}", root.string(),
                  cache->reused,
                  snapshot.entries.size() - (snapshot.looked_at ? 0 : cache->reused));
  }
  std::shared_ptr<Workspace> owned;
  if (snapshot.looked_at) {
    owned = std::make_shared<Workspace>(std::move(**base), std::move(snapshot), layout, settings,
                                        today, kind);
  } else {
    owned = std::make_shared<Workspace>(std::move(snapshot), layout, settings, today, kind);
  }
  if (base != nullptr) {
    base->reset(); // given back by a run that ends well (see keep)
    owned->keep_for_release();
  }
  model = owned;
  Workspace& workspace = *owned;
  timer.step("model");
  // Usage first, so the rules (forgetting, promotion, the index) see this run's counts.
  const auto tallies = usage::tally(events_of(logs));
  if (!tallies.empty()) {
    fold_usage(workspace, layout, tallies);
  }
  timer.step("usage");
  // After the usage counts: an agent's recall of a held file is not a redo
  // (and holds.cpp does not count it as a change that ends the hold).
  // The agent's absorbed notes it keeps (kept_notes.hpp) are left as they are too.
  auto held = held_paths(holds);
  for (auto& note : kept_notes(root, layout)) {
    held.push_back(std::move(note));
  }
  workspace.hold(std::move(held));
  Plan plan = run_rules(workspace, rules, settings, kind, progress);
  for (const auto& hold : holds) {
    plan.holding.push_back(hold.undo);
  }
  timer.step("rules");
  spdlog::debug("{}: planned: {}", root.string(), timer.line());
  for (const auto& log : logs) {
    plan.diagnostics.insert(plan.diagnostics.end(), log.diagnostics.begin(), log.diagnostics.end());
    if (log.path.filename() != usage::live_path(root, layout).filename()) {
      plan.usage_logs.push_back(log.trailer());
    }
  }
  return plan;
}

// A dry run: the plan only. Nothing is written, not even a snapshot or a recovery.
Outcome dry_run(const std::filesystem::path& root, const config::Settings& settings,
                const std::vector<RuleSlot>& rules, Date today, RunKind kind, Progress* progress) {
  if (auto reason = hands_off_reason(root, settings); !reason.empty()) {
    throw Error("{}", reason);
  }
  auto repository = git::Repository::open(root);
  if (!repository) {
    throw Error("{}: not an engram store ({}); run `engram init {}` first", root.string(),
                repository.error(), root.string());
  }
  // Resolved once: the layout reads the store's recorded profile, or its files.
  const auto layout = layout_from(settings, root);
  if (std::filesystem::exists(pending_path(root, layout))) {
    spdlog::warn("{}: an interrupted change waits to be finished; the next consolidation that "
                 "writes finishes it first, and its plan may differ from this one",
                 root.string());
  }
  Outcome outcome;
  std::shared_ptr<Workspace> model;
  outcome.plan =
      plan_for(root, settings, rules, today, kind, nullptr, nullptr, peek_usage(root, layout),
               nullptr, model, active_holds(*repository), progress);
  outcome.model = std::move(model);
  return outcome;
}

// Brings the recall index up to date with `.index.json`, so the next
// recall (an agent's session start) does not pay for the rebuild. Derived
// state: a failure is logged and the next recall rebuilds it.
// With `prepared`, its records are used if `.index.json` holds its bytes.
void refresh_recall_index(const std::filesystem::path& root, const store::Layout& layout,
                          const recall::Prepared* prepared = nullptr) {
  try {
    if (recall::refresh(root, layout, prepared)) {
      spdlog::debug("{}: recall index rebuilt", root.string());
    }
  } catch (const std::exception& error) {
    spdlog::warn("{}: the recall index was not rebuilt: {}", root.string(), error.what());
  }
}

// The bytes `plan` writes to `path`, or nullptr when it does not write it.
const std::string* planned_bytes(const Plan& plan, std::string_view path) {
  for (const auto& change : plan.changes) {
    if (change.path == path && change.new_bytes) {
      return &*change.new_bytes;
    }
  }
  return nullptr;
}

// Reports each file the snapshot held back once: a memory file the scan
// diagnosed too (it saw the same credential, or the same size) has its
// diagnostic say what was held back, so the run's diagnostics, in text and in
// JSON, tell it; a file the scan did not read is warned about on its own.
void report_once(const std::filesystem::path& root, const std::vector<HeldBack>& held,
                 std::vector<store::Diagnostic>& diagnostics) {
  std::vector<HeldBack> unreported;
  for (const auto& file : held) {
    const std::string shown = store::printable_path((root / file.path).string());
    const auto diagnosed =
        std::find_if(diagnostics.begin(), diagnostics.end(),
                     [&](const store::Diagnostic& d) { return d.path == shown; });
    if (diagnosed == diagnostics.end()) {
      unreported.push_back(file);
      continue;
    }
    diagnosed->line = file.line;
    diagnosed->reason = file.reason();
  }
  report_held_back(root, unreported);
}

// At the end of a run for a caller that keeps the store: what the next run
// must look at again (what this one wrote and removed, what it deferred
// because the file on disk was not the one it planned from, besides what
// the snapshot left), the model as this run found it, and the open repository.
void keep(Session& session, Outcome& outcome, Workspace& model, Kept* kept) {
  if (kept == nullptr) {
    return;
  }
  kept->model.emplace(model.release());
  for (const auto* list :
       {&outcome.applied.written, &outcome.applied.removed, &outcome.applied.deferred,
        &outcome.recovery.finished.written, &outcome.recovery.finished.removed}) {
    outcome.look_again.insert(outcome.look_again.end(), list->begin(), list->end());
  }
  kept->repository.emplace(session.take_repository());
}

// Opens the store's session, on the repository a kept run left open if there is one.
Session open_session(const std::filesystem::path& root, const config::Settings& settings,
                     Kept* kept) {
  std::optional<git::Repository> reuse;
  if (kept != nullptr) {
    reuse.swap(kept->repository);
  }
  return Session::open(root, settings, std::move(reuse));
}

// Lines a writer added through a descriptor of a file an earlier run
// replaced reach the live file before the snapshot, which commits them.
// Returns what changed with the files carried over to added (kept in
// `storage`), or `changed` itself when nothing was carried or nothing is
// known to have changed.
const std::vector<std::string>* with_carried(const std::filesystem::path& root,
                                             const store::Layout& layout,
                                             const std::vector<std::string>* changed,
                                             std::vector<std::string>& storage) {
  const auto carried = carry_over(root, layout, std::time(nullptr));
  if (changed != nullptr && !carried.paths.empty()) {
    storage = *changed;
    storage.insert(storage.end(), carried.paths.begin(), carried.paths.end());
    return &storage;
  }
  return changed;
}

// Ends a run whose plan changes nothing: nothing to commit, since the logs
// held nothing that a memory could take (empty, unreadable lines, or only
// files that are gone; said in the log).
void finish_unchanged(const std::filesystem::path& root, const store::Layout& layout,
                      const Plan& plan, const std::vector<usage::TakenLog>& logs) {
  for (const auto& action : plan.record) {
    spdlog::info("{}: {} {}: {} ({})", root.string(), action.rule, action.action, action.target,
                 action.reason);
  }
  finish_usage(root, layout, logs, ApplyResult{});
  refresh_recall_index(root, layout);
}

// The recall index of a new .index.json is made from the plan on a helper
// thread while the plan is applied and committed (the commit mostly waits
// for the device); the stamp of the written file is added after. Starts
// that thread, filling `prepared`, when the plan writes .index.json.
std::jthread prepare_records(const Plan& plan, const store::Layout& layout,
                             std::optional<recall::Prepared>& prepared) {
  std::jthread preparing;
  if (const auto* index_json = planned_bytes(plan, layout.index_json)) {
    prepared.emplace().index_json = *index_json;
    preparing = std::jthread([&prepared, &layout] {
      try {
        prepared->records = recall::RecallIndex::records(prepared->index_json, layout);
      } catch (const std::exception&) {
        prepared.reset(); // not an index: the refresh below says so
      }
    });
  }
  return preparing;
}

// Applies and commits a plan that changes something, then finishes the
// usage logs and brings the recall index up to date.
void apply_plan(const std::filesystem::path& root, Session& session, Outcome& outcome,
                const std::vector<usage::TakenLog>& logs, StepTimer& timer) {
  Pending pending;
  pending.operation = "consolidate";
  pending.record = record_text(outcome.plan, nullptr);
  const store::Layout& layout = session.layout();
  std::optional<recall::Prepared> prepared;
  std::jthread preparing = prepare_records(outcome.plan, layout, prepared);
  auto committed = apply_and_commit(
      session, outcome.plan.changes, std::move(pending),
      [&](const ApplyResult& applied) { return commit_message(outcome.plan, applied); });
  outcome.applied = std::move(committed.applied);
  outcome.commit = std::move(committed.commit);
  outcome.look_again.insert(outcome.look_again.end(), committed.carried.begin(),
                            committed.carried.end());
  if (outcome.commit) {
    note_kept(root, layout, outcome.plan.record);
  }
  timer.step("apply and commit");
  if (outcome.commit || !outcome.applied.written.empty() || !outcome.applied.removed.empty()) {
    finish_usage(root, layout, logs, outcome.applied);
  }
  if (preparing.joinable()) {
    preparing.join();
  }
  // Without records (the plan did not write it, or they could not be made),
  // from the file as it is: written by someone else, if at all.
  refresh_recall_index(root, layout, prepared ? &*prepared : nullptr);
  timer.step("recall index");
}

} // namespace

Outcome consolidate(const std::filesystem::path& root, const config::Settings& settings,
                    const std::vector<RuleSlot>& rules, Date today, RunKind kind, DryRun dry,
                    Kept* kept, const std::vector<std::string>* changed, bool subset,
                    Progress* progress) {
  store::ScanCache* cache = kept != nullptr ? &kept->scan : nullptr;
  if (dry == DryRun::yes) {
    auto outcome = dry_run(root, settings, rules, today, kind, progress);
    outcome.plan.subset = subset;
    return outcome;
  }
  Outcome outcome;
  StepTimer timer;
  if (changed != nullptr && cache == nullptr) {
    changed = nullptr; // what changed is only worth knowing beside what was read before
  }
  Session session = open_session(root, settings, kept);
  outcome.recovery = finish_interrupted(session, changed != nullptr ? Sweep::no : Sweep::yes);
  std::vector<std::string> changed_or_carried;
  changed = with_carried(root, session.layout(), changed, changed_or_carried);
  timer.step("session");
  // The agent's own edits go in a commit of their own, so this
  // consolidation's diff is only engram's.
  std::vector<HeldBack> held;
  // What it leaves uncommitted is looked at again by the next run told what changed.
  if (auto snapshot =
          engine::snapshot(session, SnapshotReason::agent, &held, changed, &outcome.look_again)) {
    outcome.snapshot_commit = snapshot->commit;
  }
  timer.step("snapshot");

  const auto logs = take_usage(root, session.layout());
  std::shared_ptr<Workspace> model;
  outcome.plan = plan_for(root, settings, rules, today, kind, cache, changed, logs,
                          kept != nullptr ? &kept->model : nullptr, model,
                          active_holds(session.repository()), progress);
  outcome.plan.subset = subset;
  outcome.model = model;
  timer.step("plan");
  report_once(root, held, outcome.plan.diagnostics);
  check_removal_cap(root, outcome.plan, model->memory_files(), settings);
  if (outcome.plan.empty()) {
    finish_unchanged(root, session.layout(), outcome.plan, logs);
    timer.step("recall index");
    spdlog::debug("{}: ran: {}", root.string(), timer.line());
    keep(session, outcome, *model, kept);
    return outcome;
  }
  apply_plan(root, session, outcome, logs, timer);
  spdlog::debug("{}: ran: {}", root.string(), timer.line());
  if (!outcome.commit && outcome.applied.written.empty() && outcome.applied.removed.empty()) {
    spdlog::info("{}: every change was deferred; nothing to commit", root.string());
  }
  keep(session, outcome, *model, kept);
  return outcome;
}

} // namespace engram::engine
