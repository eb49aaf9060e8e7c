// Plugin: how a shared library offers a rule to engram. A plugin defines a
// Rule and names it once with ENGRAM_RULE_PLUGIN. Part of the plugin SDK.
#pragma once

#include "engram/rule.hpp"

#include <boost/dll/alias.hpp>

namespace engram {

// What a plugin says about itself; the host reads it before calling anything.
// Its first field is where every SDK has put its ABI version, so the host
// reads that before anything else of a descriptor of any version.
struct PluginDescriptor {
  int abi_version;         // k_abi_version the plugin was built with
  int sdk_major;           // k_sdk_major the plugin was built with
  int sdk_minor;           // k_sdk_minor the plugin was built with
  const char* name;        // the rule's name, as in `[rules.<name>]`
  Phase phase;             // when the rule runs
  const char* description; // one line for `engram plugins`
  const char* version;     // the plugin's own version
  bool lightweight;        // runs in lightweight consolidations too
};

// The factory a plugin exports: a new rule, owned by the caller.
using RuleFactory = Rule*();

} // namespace engram

// Exports a rule class from a plugin library, with its descriptor.
#define ENGRAM_RULE_PLUGIN(RuleClass, rule_name, rule_phase, rule_description, rule_version,       \
                           runs_lightweight)                                                       \
  namespace engram_plugin_exports {                                                                \
  const engram::PluginDescriptor engram_descriptor = {engram::k_abi_version,                       \
                                                      engram::k_sdk_major,                         \
                                                      engram::k_sdk_minor,                         \
                                                      rule_name,                                   \
                                                      rule_phase,                                  \
                                                      rule_description,                            \
                                                      rule_version,                                \
                                                      runs_lightweight};                           \
  engram::Rule* engram_create_rule() { return new RuleClass(); }                                   \
  }                                                                                                \
  BOOST_DLL_ALIAS(engram_plugin_exports::engram_descriptor, engram_plugin_descriptor)              \
  BOOST_DLL_ALIAS(engram_plugin_exports::engram_create_rule, engram_plugin_create)
