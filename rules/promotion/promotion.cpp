// The promotion rule: generates CORE.md, the core memory agents load every
// session — Deep Truths (deep_truths.hpp) with their evidence beside them, and
// the five core blocks (block_sources.hpp) within `guard.core_block_chars`
// each and `guard.core_chars` in all (core_blocks.hpp). Like MEMORY.md it is
// generated whole; the same store and clock give the same bytes, so a second
// run changes nothing. A store with nothing to promote gets no CORE.md.
#include "block_sources.hpp"
#include "core_file.hpp"
#include "deep_truths.hpp"
#include "engram/plugin.hpp"

#include <string>
#include <vector>

namespace {

using engram::Action;
using engram::Layer;
using engram::StoreView;
namespace knowledge = engram::knowledge;
namespace promotion = engram::promotion;

// The Deep Truth thresholds from the configuration, defaults where unset.
promotion::TruthSettings truth_settings(const StoreView& store) {
  promotion::TruthSettings s;
  s.min_sessions = knowledge::int_setting(store, "min_sessions", s.min_sessions);
  s.min_days = knowledge::int_setting(store, "min_days", s.min_days);
  s.min_uses = knowledge::int_setting(store, "min_uses", s.min_uses);
  s.min_helpful = knowledge::real_setting(store, "min_helpful", s.min_helpful);
  s.min_age_days = knowledge::int_setting(store, "min_age_days", s.min_age_days);
  s.cap = static_cast<std::size_t>(
      std::max<std::int64_t>(0, knowledge::int_setting(store, "guard.deep_truths", 10)));
  return s;
}

// What proves a truth, in words, for the record.
std::string proof(const promotion::Evidence& evidence) {
  std::string out;
  if (!evidence.sessions.empty()) {
    out += std::to_string(evidence.sessions.size()) + " sessions from " +
           evidence.sessions.front().day.to_string() + " to " +
           evidence.sessions.back().day.to_string();
  }
  if (evidence.memory) {
    const auto& m = *evidence.memory;
    out += std::string(out.empty() ? "" : "; ") + m.path + " used " + std::to_string(m.uses) +
           " times, " + std::to_string(m.helpful) + " helpful, " + std::to_string(m.unhelpful) +
           " unhelpful";
  }
  return out;
}

// Where a truth's evidence is, for the record's source.
std::string source_of(const promotion::Evidence& evidence) {
  if (evidence.memory) {
    return evidence.memory->path;
  }
  return evidence.sessions.empty() ? std::string() : evidence.sessions.back().path;
}

class PromotionRule final : public engram::Rule {
public:
  void run(StoreView& store) override {
    const auto core = store.layer_path(Layer::core);
    if (store.held(core)) {
      return; // an undo brought CORE.md back as it was: it stays until it changes
    }
    const auto settings = truth_settings(store);
    const auto previous = promotion::parse_truths(store.read(core));
    promotion::ClaimCache cache(store);
    auto truths = promotion::deep_truths(store, cache, previous, settings);

    promotion::CoreDocument doc;
    doc.cap = settings.cap;
    const auto block_chars = knowledge::int_setting(store, "guard.core_block_chars", 500);
    const auto total_chars = knowledge::int_setting(store, "guard.core_chars", 2000);
    doc.blocks =
        promotion::pack_blocks(promotion::block_inputs(store, cache, truths.shown),
                               static_cast<std::size_t>(std::max<std::int64_t>(0, block_chars)),
                               static_cast<std::size_t>(std::max<std::int64_t>(0, total_chars)));
    doc.truths = truths.shown;
    doc.held_back = truths.held_back;
    doc.not_kept = truths.not_kept;

    const bool nothing = doc.truths.empty() && doc.held_back.empty() && doc.blocks.empty();
    if (nothing && !store.exists(core)) {
      return; // nothing proven and nothing to summarise: no CORE.md yet
    }
    const auto bytes = promotion::render_core(doc);
    if (store.exists(core) && store.read(core) == bytes) {
      return;
    }
    for (const auto& truth : truths.promoted) {
      const bool held =
          std::any_of(doc.held_back.begin(), doc.held_back.end(),
                      [&](const promotion::Truth& t) { return t.text == truth.text; });
      store.record(
          Action{"", "promoted", truth.text, source_of(truth.evidence), core,
                 "a Deep Truth: " + proof(truth.evidence) +
                     (held ? "; held back: over the limit of " + std::to_string(settings.cap)
                           : std::string())});
    }
    for (const auto& gone : truths.dropped) {
      store.record(Action{"", "dropped", gone.truth.text, core, "",
                          "no longer a Deep Truth: " + gone.reason});
    }
    std::size_t items = 0;
    std::size_t left_out = 0;
    std::size_t chars = 0;
    for (const auto& block : doc.blocks) {
      items += block.shown;
      left_out += block.more;
      chars += block.chars;
    }
    store.write(core, bytes);
    store.record(
        Action{"", "rebuilt", "", "", core,
               std::to_string(doc.truths.size()) + " Deep Truths, " + std::to_string(items) +
                   " core block items in " + std::to_string(chars) + " characters" +
                   (left_out > 0 ? ", " + std::to_string(left_out) + " left out" : std::string())});
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(PromotionRule, "promotion", engram::Phase::promote,
                   "generates CORE.md: Deep Truths proven across sessions or by use, and the core "
                   "blocks",
                   "0.1.0", false)
