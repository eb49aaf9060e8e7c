// A test plugin that says it was built with a newer minor SDK version than
// engram's: its interfaces may have virtuals this engram lacks, so the host
// must refuse it before calling its factory.
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

// The right ABI but an SDK minor version after engram's.
const engram::PluginDescriptor descriptor = {
    .abi_version = engram::k_abi_version,
    .sdk_major = engram::k_sdk_major,
    .sdk_minor = engram::k_sdk_minor + 1,
    .name = "other-sdk",
    .phase = engram::Phase::merge,
    .description = "built with a newer minor SDK",
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
