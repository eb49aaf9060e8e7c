// A test plugin with a valid descriptor but no factory: the host must refuse
// it, naming the missing symbol.
#include "engram/plugin.hpp"

#include <boost/dll/alias.hpp>

namespace test_exports {

// A descriptor that is fine on its own.
const engram::PluginDescriptor descriptor = {
    .abi_version = engram::k_abi_version,
    .sdk_major = engram::k_sdk_major,
    .sdk_minor = engram::k_sdk_minor,
    .name = "no-factory",
    .phase = engram::Phase::merge,
    .description = "exports no factory",
    .version = "1.0.0",
    .lightweight = false,
};

} // namespace test_exports

BOOST_DLL_ALIAS(test_exports::descriptor, engram_plugin_descriptor)
