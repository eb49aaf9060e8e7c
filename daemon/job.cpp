// The engine consolidator: one engine::consolidate per job, its outcome turned
// into what the loop needs, and nothing thrown across the thread boundary.
#include "daemon/job.hpp"

#include "base/error.hpp"
#include "daemon/log.hpp"
#include "daemon/memory.hpp"
#include "daemon/packer.hpp"
#include "daemon/sync_job.hpp"
#include "engine/consolidation.hpp"
#include "engine/message.hpp"
#include "store/scan.hpp"
#include "store/tags.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <spdlog/spdlog.h>

namespace engram::daemon {

namespace {

// The hashes of what a plan wrote and the removals it made, by path.
WrittenFiles own_writes(const std::filesystem::path& root, const engine::Outcome& outcome) {
  WrittenFiles written;
  for (const auto& change : outcome.plan.changes) {
    if (change.new_bytes) {
      written[change.path] = store::content_hash(*change.new_bytes);
    }
  }
  // Only what really landed: a deferred file keeps the agent's bytes.
  WrittenFiles landed;
  for (const auto& path : outcome.applied.written) {
    if (const auto found = written.find(path); found != written.end()) {
      landed.insert(*found);
    }
  }
  for (const auto& path : outcome.applied.removed) {
    landed[path] = std::nullopt;
  }
  // What recovery finished first was engram's too; its bytes are on disk now.
  for (const auto& path : outcome.recovery.finished.written) {
    landed.emplace(path, file_hash(root / path));
  }
  for (const auto& path : outcome.recovery.finished.removed) {
    landed.emplace(path, std::nullopt);
  }
  return landed;
}

// What the daemon keeps of each store, by folder: what the last run of it
// read and parsed, so a run after a one-file change reads one file, and its
// open repository. A store's jobs run one at a time; the lock guards only
// the map.
class KeptStores {
public:
  engine::Kept& of(const std::filesystem::path& root) {
    const std::lock_guard lock(m_mutex);
    return m_caches[root.string()];
  }

  // Lets go of what is kept of a store; the next job of it starts afresh.
  void release(const std::filesystem::path& root) {
    std::optional<engine::Kept> dropped;
    {
      const std::lock_guard lock(m_mutex);
      const auto it = m_caches.find(root.string());
      if (it == m_caches.end()) {
        return;
      }
      dropped.emplace(std::move(it->second));
      m_caches.erase(it);
    }
    // Freed outside the lock (a big store's model is millions of objects),
    // then handed back to the system: freed heap stays the process's
    // otherwise, and an idle daemon is to be cheap to leave running.
    dropped.reset();
    store::forget_stems(); // the vocabulary this worker thread stemmed
    return_freed_memory();
  }

private:
  std::mutex m_mutex;
  std::map<std::string, engine::Kept> m_caches;
};

// `result` with how long its job took since `started`.
JobResult finish(JobResult& result, std::chrono::steady_clock::time_point started) {
  result.took = std::chrono::duration_cast<std::chrono::microseconds>(
      std::chrono::steady_clock::now() - started);
  return std::move(result);
}

// Runs one job; every failure becomes the result's error.
JobResult run(const Job& job, const std::vector<engine::RuleSlot>& rules, KeptStores& caches,
              Packer& packer) {
  const StoreLogScope scope(job.name);
  const auto started = std::chrono::steady_clock::now();
  JobResult result;
  result.id = job.id;
  result.store = job.store;
  result.kind = job.kind;
  result.reason = job.reason;
  prepare_thread_state();
  if (job.release) {
    // The rules first: what they keep may be interleaved in memory with the
    // model, and freeing both together is what gives whole pages back.
    for (const auto& slot : rules) {
      try {
        slot.rule->forget(job.root.string()); // the name their StoreView gave
      } catch (const std::exception& error) {
        spdlog::warn("rule {} could not let go of the store: {}", slot.name, error.what());
      }
    }
    caches.release(job.root);
    // A quiet store: the loose objects its commits added are packed, on
    // the packer's thread, once they pass git.pack_loose_bytes.
    packer.consider(job.root, job.name, job.settings);
    result.ok = true;
    result.released = true;
    return finish(result, started);
  }
  try {
    if (job.consume_marker) {
      // Removed before the store is read: an append that asks again while
      // this run works leaves a new marker, and is served by the next run.
      const auto state = engine::layout_from(job.settings, job.root).state;
      std::error_code ignored;
      std::filesystem::remove(job.root / state / k_request_marker, ignored);
    }
    if (job.sync_only) {
      sync_round(job, rules, &caches.of(job.root), result);
      result.ok = true;
      result.synced = true;
      result.summary = "synced";
      return finish(result, started);
    }
    const engine::Outcome outcome =
        engine::consolidate(job.root, job.settings, rules, job.today, job.kind, engine::DryRun::no,
                            &caches.of(job.root), job.changed ? &*job.changed : nullptr,
                            false, job.progress.get());
    result.ok = true;
    result.commit = outcome.commit;
    result.snapshot_commit = outcome.snapshot_commit;
    result.record = engine::record_json(outcome.plan, &outcome.applied);
    result.summary = outcome.plan.empty() ? std::string("nothing to consolidate")
                                          : engine::summary_line(outcome.plan);
    result.record_text = outcome.plan.empty() ? std::string() : engine::render_record(outcome.plan);
    result.written = own_writes(job.root, outcome);
    result.look_again = outcome.look_again;
    for (const auto& diagnostic : outcome.plan.diagnostics) {
      spdlog::warn("{} (skipped)", diagnostic.to_string());
    }
    for (const auto& rule : outcome.plan.failed_rules) {
      spdlog::error("rule {} failed; its changes were discarded", rule);
    }
    if (syncs(job.settings) && (outcome.commit || outcome.snapshot_commit)) {
      sync_round(job, rules, &caches.of(job.root), result); // pushed while it is news
      result.synced = true;
    }
    if (job.kind == RunKind::full) {
      // A store never quiet for release_after_s still gets its full runs.
      packer.consider(job.root, job.name, job.settings);
    }
  } catch (const std::exception& error) {
    // engram::Error for a store that cannot be consolidated; anything else is
    // a bug, but the daemon must outlive it and keep the other stores.
    result.ok = false;
    result.error = error.what();
  }
  return finish(result, started);
}

} // namespace

Consolidator engine_consolidator(std::vector<engine::RuleSlot> rules) {
  return [rules = std::move(rules), caches = std::make_shared<KeptStores>(),
          packer = std::make_shared<Packer>()](const Job& job) {
    return run(job, rules, *caches, *packer);
  };
}

} // namespace engram::daemon
