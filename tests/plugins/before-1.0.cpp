// A test plugin as an SDK before 1.0 built it: its descriptor has the layout
// those SDKs gave it (the rule ABI, then the SDK version as text), which this
// SDK no longer has. The host must read only its first field and refuse it.
#include "engram/plugin.hpp"

#include <boost/dll/alias.hpp>

namespace {

// Never constructed: the host refuses the library first.
class NeverRun final : public engram::Rule {
public:
  // Does nothing.
  void run(engram::StoreView&) override {}
};

// PluginDescriptor as SDK 0.1 defined it.
struct OldDescriptor {
  int abi_version;
  const char* sdk_version;
  const char* name;
  engram::Phase phase;
  const char* description;
  const char* version;
  bool lightweight;
};

} // namespace

namespace test_exports {

// What the last SDK before 1.0 (rule ABI 13, SDK 0.1) exported.
const OldDescriptor descriptor = {
    .abi_version = 13,
    .sdk_version = "0.1",
    .name = "before-1-0",
    .phase = engram::Phase::merge,
    .description = "built with SDK 0.1",
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
