// Rule: what a consolidation rule is, and the view of the store it works on.
// Part of the plugin SDK. Everything here is an abstract interface, a plain
// value or an inline helper, so a plugin links nothing of engram's: the host
// implements StoreView and its interfaces (docs/sdk.md).
#pragma once

#include "engram/claim.hpp"
#include "engram/date.hpp"
#include "engram/language.hpp"
#include "engram/layer.hpp"
#include "engram/store_index.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace engram {

// The rule ABI: the layout of PluginDescriptor and of the interfaces below
// as SDK 1.0 made them. It is the first field of every descriptor, so the
// host can read any plugin's; it changes only with a new major SDK version.
// SDKs before 1.0 used 1 to 13.
inline constexpr int k_abi_version = 14;

// The SDK version a plugin was built against. A plugin built against SDK
// 1.x loads in every engram whose SDK is 1.y with y >= x (docs/sdk.md).
inline constexpr int k_sdk_major = 1;
inline constexpr int k_sdk_minor = 2;
inline constexpr const char* k_sdk_version = "1.2"; // the two above, for display

// When a rule runs in a consolidation; rules run in this order.
enum class Phase { guard, decay, merge, resolve, prune, promote, index };

// How much of the rule set a consolidation runs.
enum class RunKind {
  lightweight, // guards and the index only
  full,        // every enabled rule
};

// A configuration value, as in the rule's own `[rules.<name>]` table.
using Setting = std::variant<bool, std::int64_t, double, std::string, std::vector<std::string>>;

// One thing a rule did, with its reason: the record a commit message is made from.
struct Action {
  std::string rule;   // filled in by the host
  std::string action; // a verb: absorbed, duplicate, superseded, moved, archived, rebuilt, ...
  std::string claim;  // the claim's text, when the action is about one
  std::string source; // store-relative path it came from
  std::string target; // store-relative path it went to (or the existing text it duplicates)
  std::string reason; // why, in words
};

// The store as a rule sees it: an in-memory model of every readable memory
// file. Writes change the model only; the host turns them into a plan.
// Paths are store-relative with '/' separators.
// The store as a rule sees it: an in-memory model of every readable memory
// file. Writes change the model only; the host turns them into a plan.
// Paths are store-relative with '/' separators.
//
// The virtual methods are the core every host answers, in the order SDK 1.0
// fixed: a later 1.x appends, never reorders (docs/sdk.md). The non-virtual
// helpers after them are compiled into the plugin: each is derived from the
// core, or asks the optional StoreIndex and falls back on its definition.
class StoreView {
public:
  virtual ~StoreView() = default;

  // The consolidation's date (injectable with --now).
  virtual Date today() const = 0;

  // The store this view is of, the same in every run of it: for a rule that
  // keeps something between runs per store (a daemon keeps several stores
  // with one instance of each rule). Not a path to read: rules never touch disk.
  virtual std::string store_name() const = 0;

  // Whether this is a lightweight or a full run.
  virtual RunKind run_kind() const = 0;

  // A setting: a key of the rule's own table ("near_duplicate"), or a global
  // key with its table ("guard.working_chars"). nullopt when unknown.
  virtual std::optional<Setting> setting(std::string_view key) const = 0;

  // The path of a layer's folder, or of a single-file layer (MEMORY.md, ...).
  virtual std::string layer_path(Layer layer) const = 0;

  // The readable files of a layer, sorted by path.
  virtual std::vector<std::string> files(Layer layer) const = 0;

  // True when the file exists in the model.
  virtual bool exists(std::string_view path) const = 0;

  // True when an undo holds the file (`engram rollback` or `restore` brought
  // it back, and nothing changed it since): a rule must neither change it
  // nor move, merge or retire what it holds, or the next run would redo
  // what was undone. Held files are still listed by files() and readable;
  // related_claims and duplicate_claims leave them out. A rule that changes
  // one anyway fails, and its changes are discarded.
  virtual bool held(std::string_view path) const = 0;

  // A file's whole bytes; empty when it does not exist.
  virtual std::string read(std::string_view path) const = 0;

  // A file's body (everything after the frontmatter); empty when it does not
  // exist. The reference holds until the file is next changed: copy it to
  // keep it longer.
  virtual const std::string& body(std::string_view path) const = 0;

  // A scalar frontmatter field.
  virtual std::optional<std::string> field(std::string_view path, std::string_view key) const = 0;

  // A list frontmatter field (empty when absent).
  virtual std::vector<std::string> list(std::string_view path, std::string_view key) const = 0;

  // The day after which an episodic file decays; nullopt means never. The
  // host's policy (its retention setting, which fields count), so it answers.
  virtual std::optional<Date> decay_date(std::string_view path) const = 0;

  // Creates or replaces a whole file.
  virtual void write(std::string_view path, std::string bytes) = 0;

  // Sets a scalar field, changing only its line.
  virtual void set_field(std::string_view path, std::string_view key, std::string_view value) = 0;

  // Sets a list field, changing only its lines.
  virtual void set_list(std::string_view path, std::string_view key,
                        const std::vector<std::string>& values) = 0;

  // Replaces a file's body, keeping its frontmatter bytes.
  virtual void set_body(std::string_view path, std::string body) = 0;

  // Removes a file (applied last, after everything it held is written).
  virtual void remove(std::string_view path) = 0;

  // Records one action for the consolidation's record and commit message.
  virtual void record(Action action) = 0;

  // Reports a problem with a file as `path:line: reason`; the file is left alone.
  virtual void diagnose(std::string_view path, int line, std::string reason) = 0;

  // How the host splits, classifies and compares claims: the same answers
  // its claim index gives, which a rule could not copy and stay in step.
  virtual const Language& language() const = 0;

  // The host's index, or nullptr when it has none: then the helpers below
  // compute the same answers from the core. mutable_index() is the same
  // object, for its one edit (replace_in_body).
  virtual const StoreIndex* index() const { return nullptr; }
  virtual StoreIndex* mutable_index() { return nullptr; }

  // Since 1.2. How far the rule's long part has got: `done` of `total`
  // `units` ("episodic files"), for the progress line a consolidation draws
  // on a terminal. Cheap enough to call for every item: the host redraws at
  // most a few times a second. A host that draws nothing ignores it.
  virtual void progress(std::size_t done, std::size_t total, std::string_view units) {
    (void)done;
    (void)total;
    (void)units;
  }

  // Helpers, compiled into the plugin (not part of the host's interface).

  // A date frontmatter field (a YAML date or timestamp, quoted or not);
  // nullopt when absent or not a date.
  std::optional<Date> date(std::string_view path, std::string_view key) const {
    const auto value = field(path, key);
    return value ? parse_date_value(*value) : std::nullopt;
  }

  // language()'s answers, by their names.
  std::vector<Claim> claims(std::string_view body) const { return language().claims(body); }
  ClaimKind classify(std::string_view text) const { return language().classify(text); }
  Relation compare(std::string_view incoming, std::string_view existing) const {
    return language().compare(incoming, existing);
  }
  std::string normalise(std::string_view text) const { return language().normalise(text); }
  std::string canonical_tag(std::string_view tag) const { return language().canonical_tag(tag); }
  std::string slug(std::string_view text) const { return language().slug(text); }

  // The claims of a file's current body: claims(body(path)), with kinds as
  // `detail` asks. The host answers from its claim index of the file's
  // layer, which holds the file split already once a rule has asked
  // related_claims of that layer.
  std::vector<Claim> claims_of(std::string_view path,
                               ClaimDetail detail = ClaimDetail::classified) const;

  // Every claim of the files of `layer` that `incoming` duplicates or updates
  // (compare is not distinct), by path and then by position in the file:
  // what comparing with each claim of claims(body(path)) for every path of
  // files(layer) finds, with kinds as `detail` asks (a rule that reads only
  // relations and texts need not pay for classifying every match).
  std::vector<ClaimMatch> related_claims(std::string_view incoming, Layer layer,
                                         ClaimDetail detail = ClaimDetail::classified) const;

  // related_claims for each of `incoming`, in order: what asking one by one
  // finds, for a rule that asks many questions of a layer before it changes
  // anything. The host answers them side by side on every core.
  std::vector<std::vector<ClaimMatch>>
  related_claims_each(const std::vector<std::string>& incoming, Layer layer,
                      ClaimDetail detail = ClaimDetail::classified) const;

  // The claims of related_claims that `incoming` duplicates, without its
  // updates: what a rule asks when it only groups the same claim. The host
  // answers it with far fewer comparisons where a subject has many values.
  std::vector<ClaimMatch> duplicate_claims(std::string_view incoming, Layer layer,
                                           ClaimDetail detail = ClaimDetail::classified) const;

  // A key of a file's current bytes (empty when it does not exist): equal
  // bytes, equal keys. Lets a rule skip work for files that did not change
  // since it last looked. The host's is the git blob id.
  std::string content_hash(std::string_view path) const;

  // When a file was last modified on disk, in seconds since 1970-01-01 UTC, as
  // the snapshot found it; nullopt for a file this consolidation created, or
  // without an index. What breaks a tie between equal `created` dates.
  std::optional<std::int64_t> modified(std::string_view path) const;

  // The layer of the memory file at `path`; nullopt when there is none, or
  // without an index.
  std::optional<Layer> layer_of(std::string_view path) const;

  // What changed, for a rule that keeps what it derived from the store
  // between runs (per store_name()) and would redo only what changed.
  // revision() names the model as it is now; changed_since(r) lists every
  // path whose file may differ from what it was when r was named (written,
  // created, removed, read again from disk), possibly more than changed;
  // nullopt when the host cannot tell (r is from another process or another
  // model, or too old, or there is no index): then anything may have changed.
  std::uint64_t revision() const;
  std::optional<std::vector<std::string>> changed_since(std::uint64_t revision) const;

  // Replaces `count` bytes of a file's body at byte `at` with `text`, as
  // std::string::replace does (`at` past the body's end is an error): with
  // an index, the edit of a long body that adds a line to it costs the line,
  // not the body.
  void replace_in_body(std::string_view path, std::size_t at, std::size_t count,
                       std::string_view text);
};

// What each StoreIndex query means: the answer computed from StoreView's
// core alone. StoreView's helpers use these when the host has no index, and
// a host's index must answer exactly the same.
namespace definition {

inline std::vector<Claim> claims_of(const StoreView& store, std::string_view path,
                                    ClaimDetail detail) {
  return with_detail(store.claims(store.body(path)), detail);
}

inline std::vector<ClaimMatch> related_claims(const StoreView& store, std::string_view incoming,
                                              Layer layer, ClaimDetail detail) {
  std::vector<ClaimMatch> out;
  for (const auto& path : store.files(layer)) {
    if (store.held(path)) {
      continue;
    }
    const auto found = with_detail(store.claims(store.body(path)), detail);
    for (std::size_t i = 0; i < found.size(); ++i) {
      const auto relation = store.compare(incoming, found[i].text);
      if (relation != Relation::distinct) {
        out.push_back(ClaimMatch{path, i, found[i].text, found[i].kind, relation});
      }
    }
  }
  return out;
}

inline std::vector<std::vector<ClaimMatch>>
related_claims_each(const StoreView& store, const std::vector<std::string>& incoming, Layer layer,
                    ClaimDetail detail) {
  std::vector<std::vector<ClaimMatch>> out;
  out.reserve(incoming.size());
  for (const auto& text : incoming) {
    out.push_back(related_claims(store, text, layer, detail));
  }
  return out;
}

inline std::vector<ClaimMatch> duplicate_claims(const StoreView& store, std::string_view incoming,
                                                Layer layer, ClaimDetail detail) {
  auto out = related_claims(store, incoming, layer, detail);
  std::erase_if(out, [](const ClaimMatch& match) { return match.relation != Relation::duplicate; });
  return out;
}

// The bytes themselves, marked so that an empty file's key is not empty:
// exact, where a short hash computed here could collide.
inline std::string content_hash(const StoreView& store, std::string_view path) {
  return store.exists(path) ? "=" + store.read(path) : std::string();
}

inline void replace_in_body(StoreView& store, std::string_view path, std::size_t at,
                            std::size_t count, std::string_view text) {
  std::string edited = store.body(path);
  edited.replace(at, count, text);
  store.set_body(path, std::move(edited));
}

} // namespace definition

inline std::vector<Claim> StoreView::claims_of(std::string_view path, ClaimDetail detail) const {
  const auto* found = index();
  return found ? found->claims_of(path, detail) : definition::claims_of(*this, path, detail);
}

inline std::vector<ClaimMatch> StoreView::related_claims(std::string_view incoming, Layer layer,
                                                         ClaimDetail detail) const {
  const auto* found = index();
  return found ? found->related_claims(incoming, layer, detail)
               : definition::related_claims(*this, incoming, layer, detail);
}

inline std::vector<std::vector<ClaimMatch>>
StoreView::related_claims_each(const std::vector<std::string>& incoming, Layer layer,
                               ClaimDetail detail) const {
  const auto* found = index();
  return found ? found->related_claims_each(incoming, layer, detail)
               : definition::related_claims_each(*this, incoming, layer, detail);
}

inline std::vector<ClaimMatch> StoreView::duplicate_claims(std::string_view incoming, Layer layer,
                                                           ClaimDetail detail) const {
  const auto* found = index();
  return found ? found->duplicate_claims(incoming, layer, detail)
               : definition::duplicate_claims(*this, incoming, layer, detail);
}

inline std::string StoreView::content_hash(std::string_view path) const {
  const auto* found = index();
  return found ? found->content_hash(path) : definition::content_hash(*this, path);
}

inline std::optional<std::int64_t> StoreView::modified(std::string_view path) const {
  const auto* found = index();
  return found ? found->modified(path) : std::nullopt;
}

inline std::optional<Layer> StoreView::layer_of(std::string_view path) const {
  const auto* found = index();
  return found ? found->layer_of(path) : std::nullopt;
}

inline std::uint64_t StoreView::revision() const {
  const auto* found = index();
  return found ? found->revision() : 0;
}

inline std::optional<std::vector<std::string>>
StoreView::changed_since(std::uint64_t revision) const {
  const auto* found = index();
  return found ? found->changed_since(revision) : std::nullopt;
}

inline void StoreView::replace_in_body(std::string_view path, std::size_t at, std::size_t count,
                                       std::string_view text) {
  if (auto* found = mutable_index()) {
    found->replace_in_body(path, at, count, text);
  } else {
    definition::replace_in_body(*this, path, at, count, text);
  }
}

// A consolidation rule. Constructors do nothing; run does the work.
class Rule {
public:
  virtual ~Rule() = default;

  // Changes the model and records why. Throwing discards this rule's changes.
  virtual void run(StoreView& store) = 0;

  // Lets go of what the rule keeps between runs for the store named
  // `store` (StoreView::store_name): the daemon calls it when it lets go of
  // its own model of a store gone quiet (daemon.release_after_s), so that
  // an idle daemon holds nothing of the store. The next run starts afresh.
  virtual void forget(std::string_view store) { static_cast<void>(store); }
};

} // namespace engram
