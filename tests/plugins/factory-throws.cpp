// A test plugin whose factory throws (its rule's constructor does): the host
// must catch it, refuse the plugin and go on.
#include "engram/plugin.hpp"

#include <stdexcept>

namespace {

// Throws on construction, as a rule that does work in its constructor might.
class FactoryThrowsRule final : public engram::Rule {
public:
  // Throws with a message the host's refusal must carry.
  FactoryThrowsRule() { throw std::runtime_error("factory-throws has no configuration"); }

  // Never reached.
  void run(engram::StoreView&) override {}
};

} // namespace

ENGRAM_RULE_PLUGIN(FactoryThrowsRule, "factory-throws", engram::Phase::merge,
                   "a test rule whose construction throws", "1.0.0", false)
