// Workspace: the in-memory model of a store that rules read and change; the
// host's implementation of the SDK's StoreView, with its Language and its
// StoreIndex (the claim indexes and the change log). Nothing here touches disk.
#pragma once

#include "config/config.hpp"
#include "engine/change_log.hpp"
#include "engine/claim_index.hpp"
#include "engine/conservation.hpp"
#include "engine/plan.hpp"
#include "engram/rule.hpp"
#include "store/scan.hpp"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

namespace engram::engine {

class Progress;

// The model of a store during one consolidation.
// It is its own Language and StoreIndex: language() and index() return this
// model, so what they answer can never outlive or drift from it.
class Workspace : public StoreView, private Language, private StoreIndex {
private:
  // One file of the model: what the snapshot held and what it holds now.
  struct File {
    std::optional<std::string> base_hash; // nullopt: created during this consolidation
    // Rendered when a rule first changes it (keep_base); shared, never
    // copied: the generated index's are the scan's (megabytes in a big store).
    std::shared_ptr<const std::string> base_bytes;
    // Shared with the scan (and the daemon's cache) until a rule changes it;
    // null: removed.
    std::shared_ptr<const store::MemoryFile> current;
    bool touched = false;       // changed by a rule in this run (its hash must be recomputed)
    std::optional<Layer> layer; // the layer its path is in
    std::optional<std::int64_t> modified; // as the snapshot found it; nullopt: created in this run
    bool owned = false; // `current` was made by this model, so it may be changed when not shared
  };
  using Files = std::map<std::string, File, std::less<>>;

public:
  // A model's files as its run found them, and its change log: what a caller
  // that runs the same store again (the daemon, in engine::Kept) keeps, so
  // that the next model is made by path instead of from every file.
  class Base {
  private:
    friend class Workspace;
    Files files;
    ChangeLog log;
  };

  // Builds the model from a snapshot; `settings` are the store's effective settings.
  Workspace(store::Snapshot snapshot, const store::Layout& layout, const config::Settings& settings,
            Date today, RunKind kind);

  // Builds the model from the base a previous run of the same store left
  // (release()) and a scan of what changed since (Snapshot::looked_at set):
  // each looked-at path is as the scan found it, every other file as the
  // base holds it.
  Workspace(Base base, store::Snapshot changes, const store::Layout& layout,
            const config::Settings& settings, Date today, RunKind kind);

  // Keeps, from now on, each changed file's state before its first change,
  // so that release() can undo the run. Only for a caller that keeps the
  // model: a file the run removes or rewrites stays in memory until then
  // (2,500 parsed files in a run that decays 2,000 memories).
  void keep_for_release() { m_journaling = true; }

  // The files as this run found them (every change of the run undone, and
  // noted in the change log as a change), for the constructor above; leaves
  // this model empty. Throws engram::Error without keep_for_release().
  Base release();

  // The files undos hold (holds.hpp): rules may read them but not change
  // them, and the claim indexes leave them out. Set before the rules run.
  void hold(std::vector<std::string> paths);

  // Sets the rule whose actions are being recorded and whose table `setting`
  // reads, after holding what the last one decayed and kept (hold_kept_notes).
  void begin_rule(std::string name);

  // Whom the running rule's progress (StoreView::progress) is told to, as
  // the rule's step; nullptr: nobody.
  void report_progress_to(Progress* progress) { m_progress = progress; }

  // Starts keeping what the next rule changes, so restore() can undo it.
  // Only the files a rule touches are saved (their first state since the
  // checkpoint), never a copy of the whole store.
  void checkpoint();

  // The lines the changes since checkpoint() lose (conservation.hpp): of
  // every file changed or removed but the generated ones (the index, its
  // JSON, CORE.md), what is in no file written and not in the record since.
  std::vector<LostLine> lost_since_checkpoint() const;

  // Undoes everything since checkpoint() (a failed rule's changes are discarded).
  void restore();

  // The plan: every file whose bytes differ from the snapshot, and the record,
  // moved into it (thousands of actions in a full run): made once, after
  // the rules.
  Plan plan();

  // How many memory files the store held when this run found it.
  std::size_t memory_files() const;

  // The file line a frontmatter key is written on (the block's first line
  // when absent; 1 when the file has no frontmatter or is not in the store).
  int line_of(std::string_view path, std::string_view key) const;

  // StoreView: the core.
  Date today() const override { return m_today; }
  RunKind run_kind() const override { return m_kind; }
  std::optional<Setting> setting(std::string_view key) const override;
  std::string layer_path(Layer layer) const override;
  std::vector<std::string> files(Layer layer) const override;
  bool exists(std::string_view path) const override;
  bool held(std::string_view path) const override { return m_held.contains(path); }
  std::string read(std::string_view path) const override;
  const std::string& body(std::string_view path) const override;
  std::optional<std::string> field(std::string_view path, std::string_view key) const override;
  std::vector<std::string> list(std::string_view path, std::string_view key) const override;
  std::optional<Date> decay_date(std::string_view path) const override;
  void write(std::string_view path, std::string bytes) override;
  void set_field(std::string_view path, std::string_view key, std::string_view value) override;
  void set_list(std::string_view path, std::string_view key,
                const std::vector<std::string>& values) override;
  void set_body(std::string_view path, std::string body) override;
  std::string store_name() const override;
  void remove(std::string_view path) override;
  void progress(std::size_t done, std::size_t total, std::string_view units) override;
  void record(Action action) override;
  void diagnose(std::string_view path, int line, std::string reason) override;
  const Language& language() const override { return *this; }
  const StoreIndex* index() const override { return this; }
  StoreIndex* mutable_index() override { return this; }

  // Language (each hides StoreView's helper of its name, which asks this).
  std::vector<Claim> claims(std::string_view body) const override;
  ClaimKind classify(std::string_view text) const override;
  Relation compare(std::string_view incoming, std::string_view existing) const override;
  std::string normalise(std::string_view text) const override;
  std::string canonical_tag(std::string_view tag) const override;
  std::string slug(std::string_view text) const override;

  // StoreIndex (each hides StoreView's helper of its name, which asks this).
  std::vector<Claim> claims_of(std::string_view path,
                               ClaimDetail detail = ClaimDetail::classified) const override;
  std::vector<ClaimMatch>
  related_claims(std::string_view incoming, Layer layer,
                 ClaimDetail detail = ClaimDetail::classified) const override;
  std::vector<std::vector<ClaimMatch>>
  related_claims_each(const std::vector<std::string>& incoming, Layer layer,
                      ClaimDetail detail = ClaimDetail::classified) const override;
  std::vector<ClaimMatch>
  duplicate_claims(std::string_view incoming, Layer layer,
                   ClaimDetail detail = ClaimDetail::classified) const override;
  std::string content_hash(std::string_view path) const override;
  std::optional<std::int64_t> modified(std::string_view path) const override;
  std::optional<Layer> layer_of(std::string_view path) const override;
  std::uint64_t revision() const override { return m_log.revision(); }
  std::optional<std::vector<std::string>> changed_since(std::uint64_t revision) const override {
    return m_log.since(revision);
  }
  void replace_in_body(std::string_view path, std::size_t at, std::size_t count,
                       std::string_view text) override;

private:
  // The `profile.*` settings: the resolved profile's, which no file configures.
  std::optional<Setting> profile_setting(std::string_view key) const;
  // A layer's claim index and how far it has read the log of body changes.
  struct LayerIndex {
    ClaimIndex index;
    std::size_t read = 0; // entries of m_changed already applied
  };

  // The near-duplicate threshold of comparisons (rules.episodic-decay.near_duplicate).
  double near_threshold() const;

  // What classifies the claims a rule asked for with `detail`: nothing when unclassified.
  claims::KindMemo* kinds_for(ClaimDetail detail) const {
    return detail == ClaimDetail::classified ? &m_claims.kinds() : nullptr;
  }

  // The claim index of a layer, brought up to date with the bodies changed since.
  const ClaimIndex& layer_index(Layer layer) const;

  // Notes that a file's body changed (or the file came or went), for the claim indexes.
  void changed(const std::string& path);

  // Renders a file's scanned bytes before its first change, for the plan's diff.
  static void keep_base(File& file);
  // Holds the notes the last rule decayed and the profile keeps in place.
  void hold_kept_notes();

  // Takes a scanned file (and the generated index, when there is one) into m_files.
  void take(store::Entry& entry);
  void take_index_json(std::optional<store::GeneratedFile>& index);

  // Before each change of a file: saves its state (or its absence) at its
  // first change since the checkpoint (restore()) and at its first in the
  // run (release()), and notes the change in the log.
  void before_change(const std::string& path);

  store::MemoryFile& mutable_file(std::string_view path);
  const store::MemoryFile* find(std::string_view path) const;
  std::string checked_path(std::string_view path) const;

  store::Layout m_layout;
  // Paths checked_path accepted: a rule edits the same few targets thousands
  // of times, and the answer depends only on the path and the layout.
  mutable std::unordered_set<std::string, TextHash, std::equal_to<>> m_checked;
  config::Settings m_settings;
  Date m_today;
  RunKind m_kind;
  std::string m_rule;
  Progress* m_progress = nullptr; // see report_progress_to
  Files m_files;
  ChangeLog m_log;
  // Each changed file's state before its first change in this run (nullopt: absent).
  std::map<std::string, std::optional<File>, std::less<>> m_journal;
  bool m_journaling = false; // keep_for_release()
  // Since the checkpoint: each changed file's state before its first change (nullopt: absent).
  std::map<std::string, std::optional<File>, std::less<>> m_undo;
  std::size_t m_undo_record = 0;      // m_record's size at the checkpoint
  std::size_t m_undo_diagnostics = 0; // m_diagnostics's size at the checkpoint
  std::vector<Action> m_record;
  std::vector<store::Diagnostic> m_diagnostics;
  std::string m_root_display;
  // Comparison state, kept across a run: preparing a claim (ICU folding,
  // stemming) costs more than comparing it, and rules compare the same texts
  // many times.
  mutable ClaimTable m_claims;
  mutable std::map<Layer, LayerIndex> m_indexes; // built on a layer's first related_claims
  std::vector<std::string> m_changed;            // paths whose bodies changed, in order
  // Every path a rule changed (before_change), and a generated index taken
  // in without a model: the only files plan() has to look at. Every other
  // file is as the scan or the last run's released model left it — there,
  // untouched and unchanged — and a store's model can hold 100,000 of them.
  std::set<std::string, std::less<>> m_dirty;
  std::set<std::string, std::less<>> m_held;      // hold(), and hold_kept_notes()
  std::size_t m_rule_record_start = 0;            // the record's size when the rule began
  mutable std::optional<double> m_near_duplicate; // read once
};

} // namespace engram::engine
