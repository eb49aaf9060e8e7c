// Consolidation: the order of a run is the promise — agent changes are
// committed before engram reads, engram's writes land before removals, and
// the commit message is rendered from the record that drove the writes.
#include "engine/consolidation.hpp"

#include "base/error.hpp"
#include "engine/message.hpp"
#include "engine/workspace.hpp"
#include "git/repository.hpp"
#include "store/scan.hpp"

#include <spdlog/spdlog.h>

namespace engram::engine {

store::Layout layout_from(const config::Settings& settings) {
  store::Layout layout;
  layout.memory_index = settings.get_string("layout.memory_index");
  layout.working = settings.get_string("layout.working");
  layout.core = settings.get_string("layout.core");
  layout.episodic = settings.get_string("layout.episodic");
  layout.semantic = settings.get_string("layout.semantic");
  layout.procedural = settings.get_string("layout.procedural");
  layout.reference = settings.get_string("layout.reference");
  layout.archive = settings.get_string("layout.archive");
  layout.index_json = settings.get_string("layout.index_json");
  layout.state = settings.get_string("layout.state");
  return layout;
}

namespace {

git::Signature configured_signature(const config::Settings& settings) {
  return git::Signature{settings.get_string("git.author_name"), settings.get_string("git.author_email")};
}

git::Signature agent_signature(const config::Settings& settings) {
  return git::Signature{settings.get_string("git.agent_name"), settings.get_string("git.agent_email")};
}

} // namespace

Outcome consolidate(const std::filesystem::path& root, const config::Settings& settings,
                    const std::vector<RuleSlot>& rules, Date today, RunKind kind, DryRun dry) {
  Outcome outcome;
  auto repository = git::Repository::open(root);
  if (!repository) {
    throw Error("{}: not an engram store ({}); run `engram init {}` first", root.string(), repository.error(),
                root.string());
  }
  if (dry == DryRun::no && !repository->is_clean()) {
    // The agent's own edits go in a commit of their own, so this consolidation's diff is only engram's.
    auto signature = agent_signature(settings);
    if (signature.email.empty()) {
      signature.email = repository->signature_for({}).email;
    }
    auto snapshot = repository->commit_all("snapshot: changes by the agent\n\nEngram-Run: snapshot\n", signature);
    if (!snapshot) {
      throw Error("{}: cannot commit the agent's changes: {}", root.string(), snapshot.error());
    }
    outcome.snapshot_commit = *snapshot;
  }

  const auto layout = layout_from(settings);
  const auto snapshot = store::scan(root, layout,
                                    store::ScanLimits{static_cast<std::uintmax_t>(settings.get_int("scan.max_file_bytes"))});
  Workspace workspace(snapshot, layout, settings, today, kind);
  outcome.plan = run_rules(workspace, rules, settings, kind);
  if (dry == DryRun::yes || outcome.plan.empty()) {
    return outcome;
  }

  outcome.applied = apply(outcome.plan, root);
  if (outcome.applied.written.empty() && outcome.applied.removed.empty()) {
    spdlog::info("{}: every change was deferred; nothing to commit", root.string());
    return outcome;
  }
  // Stage exactly what engram wrote and removed: a file the agent changed
  // meanwhile was deferred and is not engram's to commit.
  std::vector<std::string> touched = outcome.applied.written;
  touched.insert(touched.end(), outcome.applied.removed.begin(), outcome.applied.removed.end());
  auto commit = repository->commit_paths(touched, commit_message(outcome.plan, outcome.applied),
                                         repository->signature_for(configured_signature(settings)));
  if (!commit) {
    throw Error("{}: the consolidation was written but not committed: {}; the next run commits it",
                root.string(), commit.error());
  }
  outcome.commit = *commit;
  return outcome;
}

} // namespace engram::engine
