// A rule built against SDK 1.2 as it shipped (tests/sdk/1.2/include, and no
// other engram header): the plugin that shows a 1.2 plugin loads and acts in
// this engram. It tells the host its progress, what 1.2 added, over the
// semantic files it counts, and writes how many it counted.
#include "engram/plugin.hpp"

#include <string>

namespace {

// Writes semantic/sdk-1-2.md once it has gone through every semantic file,
// telling the host of each.
class SdkOneTwoRule final : public engram::Rule {
public:
  void run(engram::StoreView& store) override {
    const std::string out = store.layer_path(engram::Layer::semantic) + "/sdk-1-2.md";
    const auto files = store.files(engram::Layer::semantic);
    std::size_t counted = 0;
    for (const auto& path : files) {
      store.progress(counted, files.size(), "semantic files");
      counted += path == out ? 0 : 1;
    }
    store.progress(files.size(), files.size(), "semantic files");
    const std::string text = "Written by a rule built against SDK 1.2 after " +
                             std::to_string(counted) + " semantic files.\n";
    if (store.read(out) != text) {
      store.write(out, text);
      store.record(engram::Action{"", "wrote", "", "", out, "built against the SDK 1.2 headers"});
    }
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(SdkOneTwoRule, "sdk-1-2", engram::Phase::merge,
                   "a test rule built against the frozen SDK 1.2 headers", "1.2.0", false)
