// A rule built against SDK 1.1 as it shipped (tests/sdk/1.1/include, and no
// other engram header): the plugin that shows a 1.1 plugin loads and acts in
// this engram. It uses what 1.1 added, the superseded markers and the
// section edits, and writes what they made.
#include "engram/markers.hpp"
#include "engram/plugin.hpp"
#include "engram/section_edits.hpp"

#include <string>

namespace {

// Writes semantic/sdk-1-1.md: a section with a claim that superseded another,
// its marker written, split back and written again by the 1.1 helpers.
class SdkOneOneRule final : public engram::Rule {
public:
  void run(engram::StoreView& store) override {
    const std::string out = store.layer_path(engram::Layer::semantic) + "/sdk-1-1.md";
    const std::string body = "# SDK 1.1\n\n- Written by a rule built against SDK 1.1.\n\n# End\n";
    const auto marker = engram::markers::superseded_marker(store.today(), "The probe is 1.");
    const auto claim = engram::markers::split_markers("The probe is 2. " + marker);
    const auto entry = engram::markers::entry_with_markers(claim);
    const auto text = engram::sections::insert_in_section(body, {0, body.find("# End")}, entry);
    if (store.read(out) != text) {
      store.write(out, text);
      store.record(engram::Action{"", "wrote", "", "", out, "built against the SDK 1.1 headers"});
    }
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(SdkOneOneRule, "sdk-1-1", engram::Phase::merge,
                   "a test rule built against the frozen SDK 1.1 headers", "1.1.0", false)
