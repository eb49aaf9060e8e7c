// A rule built against SDK 1.0 as it shipped (tests/sdk/1.0/include, and no
// other engram header): the plugin that shows the SDK policy holds, that a
// plugin built against SDK 1.x loads and acts in every engram 1.y, y >= x.
// It uses each part of the SDK a rule leans on: the core of StoreView, its
// helpers (date, claims_of, related_claims, content_hash), the host's
// Language, and the text helpers; and writes what they answered.
#include "engram/plugin.hpp"
#include "engram/text.hpp"

#include <stdexcept>
#include <string>

namespace {

// The claim the test's store holds once, in semantic/cache.md.
constexpr const char* k_probe = "The cache database lives in `var/cache.sqlite3`.";

// Writes semantic/sdk-1-0.md with what the host answered, and records it.
class SdkOneRule final : public engram::Rule {
public:
  void run(engram::StoreView& store) override {
    const std::string folder = store.layer_path(engram::Layer::semantic);
    const std::string out = folder + "/sdk-1-0.md";
    std::size_t files = 0;
    std::size_t claims = 0;
    std::size_t dated = 0;
    for (const auto& path : store.files(engram::Layer::semantic)) {
      if (path == out) {
        continue;
      }
      ++files;
      claims += store.claims_of(path, engram::ClaimDetail::unclassified).size();
      dated += store.date(path, "created") ? 1 : 0;
      if (store.content_hash(path).empty()) {
        throw std::runtime_error("no content hash for " + path);
      }
    }
    std::size_t duplicates = 0;
    for (const auto& match : store.related_claims(k_probe, engram::Layer::semantic)) {
      duplicates += match.relation == engram::Relation::duplicate ? 1 : 0;
    }
    const auto slug = store.language().slug("SDK One Zero");
    const auto text = engram::text::one_line("Written by a rule built against SDK 1.0 on " +
                                             store.today().to_string() + ":\n" +
                                             std::to_string(files) + " files, " +
                                             std::to_string(claims) + " claims, " +
                                             std::to_string(dated) + " dated, " +
                                             std::to_string(duplicates) + " duplicate of the "
                                             "probe, slug " + slug + ".") +
                      "\n";
    if (store.read(out) != text) {
      store.write(out, text);
      store.record(engram::Action{"", "wrote", "", "", out, "built against the SDK 1.0 headers"});
    }
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(SdkOneRule, "sdk-1-0", engram::Phase::merge,
                   "a test rule built against the frozen SDK 1.0 headers", "1.0.0", false)
