// A test plugin that loads fine but whose run() changes the store, records an
// action and then throws: the engine must discard exactly its changes and go
// on with the other rules. Runs in lightweight consolidations too.
#include "engram/plugin.hpp"

#include <stdexcept>
#include <string>

namespace {

// Changes the model, then fails.
class ThrowsOnRunRule final : public engram::Rule {
public:
  // Writes semantic/throws-on-run.md and records it before throwing, so a test
  // can check neither survives.
  void run(engram::StoreView& store) override {
    const std::string path = store.layer_path(engram::Layer::semantic) + "/throws-on-run.md";
    store.write(path, "This file must never be committed.\n");
    store.record(engram::Action{"", "wrote", "", "", path, "about to throw"});
    throw std::runtime_error("throws-on-run always throws");
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(ThrowsOnRunRule, "throws-on-run", engram::Phase::merge,
                   "a test rule whose run always throws", "1.0.0", true)
