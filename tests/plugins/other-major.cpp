// A test plugin that says it was built with another major SDK version (with
// this engram's rule ABI, which a real one would not have): the host must
// refuse it before calling its factory.
#include "engram/plugin.hpp"

#include <boost/dll/alias.hpp>

namespace {

// Never constructed: the host refuses the library first.
class NeverRun final : public engram::Rule {
public:
  // Does nothing.
  void run(engram::StoreView&) override {}
};

} // namespace

namespace test_exports {

// The right ABI but the next major SDK version.
const engram::PluginDescriptor descriptor = {
    .abi_version = engram::k_abi_version,
    .sdk_major = engram::k_sdk_major + 1,
    .sdk_minor = 0,
    .name = "other-major",
    .phase = engram::Phase::merge,
    .description = "built with the next major SDK",
    .version = "1.0.0",
    .lightweight = false,
};

// The factory the host must never call.
engram::Rule* create() {
  return new NeverRun();
}

} // namespace test_exports

BOOST_DLL_ALIAS(test_exports::descriptor, engram_plugin_descriptor)
BOOST_DLL_ALIAS(test_exports::create, engram_plugin_create)
