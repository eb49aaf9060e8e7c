// The forgetting rule (the memory-consolidation seed's "Selective
// Forgetting"): a memory unused for longer than `unused_days` and rarely used
// or rarely helpful is archived — moved whole to `archive/<its path>` (a free
// name when that is taken) and listed with its stats and the reason in
// `archive/YYYY-MM-DD-forgotten.json`. Never a critical memory, one used in
// the last `recent_days`, a confirmed one (unless `include_confirmed`),
// procedural/feedback.md, an episodic file (decay absorbs those claim by
// claim) or a generated file. Off until some memory has a `uses` field: in a
// store nothing measures yet, every memory looks unused.
#include "../shared/knowledge.hpp"
#include "../shared/usage.hpp"
#include "engram/plugin.hpp"
#include "forgotten_list.hpp"
#include "verdict.hpp"

#include <string>
#include <vector>

namespace {

using engram::Action;
using engram::Layer;
using engram::StoreView;
namespace forgetting = engram::forgetting;
namespace knowledge = engram::knowledge;
namespace usage = engram::usage;

// The thresholds from the rule's table, defaults where unset.
forgetting::Thresholds thresholds_of(const StoreView& store) {
  forgetting::Thresholds t;
  t.unused_days = knowledge::int_setting(store, "unused_days", t.unused_days);
  t.min_uses = knowledge::int_setting(store, "min_uses", t.min_uses);
  t.min_helpful = knowledge::real_setting(store, "min_helpful", t.min_helpful);
  t.recent_days = knowledge::int_setting(store, "recent_days", t.recent_days);
  const auto confirmed = store.setting("include_confirmed");
  const auto* flag = confirmed ? std::get_if<bool>(&*confirmed) : nullptr;
  t.include_confirmed = flag != nullptr && *flag;
  return t;
}

// A count or date as JSON, null when absent.
forgetting::Json date_json(const std::optional<engram::Date>& date) {
  return date ? forgetting::Json(date->to_string()) : forgetting::Json(nullptr);
}

class ForgettingRule final : public engram::Rule {
public:
  void run(StoreView& store) override {
    if (!usage::store_has_usage_data(store)) {
      // Said once for the life of the rule (a command's run, or the daemon's).
      if (!m_said_no_usage) {
        m_said_no_usage = true;
        store.record(Action{"", "skipped", "", "", "",
                            "no memory has usage data (a `uses` field) yet; nothing is forgotten "
                            "until recall and feedback have recorded some"});
      }
      return;
    }
    const auto t = thresholds_of(store);
    const auto archive = store.layer_path(Layer::archive);
    const auto feedback = store.layer_path(Layer::procedural) + "/feedback.md";
    std::vector<forgetting::Json> listed;
    for (const Layer layer : {Layer::semantic, Layer::procedural, Layer::reference}) {
      for (const auto& path : store.files(layer)) {
        if (path == feedback || store.held(path) || path.find('/') == std::string::npos) {
          continue; // every behavioural rule in one file: its use says nothing about one
                    // entry; a file an undo brought back stays; and a topic file at the
                    // root is the agent's own (Claude Code's), which its index links
        }
        const auto used = usage::usage_of(store, path);
        if (!used.problem.empty()) {
          store.diagnose(path, usage::field_line(store, path, used.problem_field), used.problem);
          continue;
        }
        const forgetting::Protection protection{
            knowledge::lower(store.field(path, "critical").value_or("")) == "true",
            knowledge::lower(store.field(path, "status").value_or("")) == "confirmed"};
        const auto verdict = forgetting::decide(used, protection, store.today(), t);
        if (!verdict.candidate) {
          continue;
        }
        if (!verdict.forget) {
          store.record(Action{"", "flagged", "", path, "",
                              verdict.reason + "; not forgotten: " + verdict.kept_because});
          continue;
        }
        const auto target = free_name(store, archive + "/" + path);
        store.write(target, store.read(path));
        store.remove(path);
        store.record(Action{"", "archived", "", path, target, "forgotten: " + verdict.reason});
        const auto effectiveness = used.effectiveness();
        listed.push_back(
            forgetting::Json{{"path", path},
                             {"archived_to", target},
                             {"forgotten", store.today().to_string()},
                             {"reason", verdict.reason},
                             {"last_accessed", date_json(used.last_accessed)},
                             {"created", date_json(used.created)},
                             {"days_unused", verdict.idle_days},
                             {"uses", used.uses},
                             {"helpful", used.helpful},
                             {"unhelpful", used.unhelpful},
                             {"effectiveness", effectiveness ? forgetting::Json(*effectiveness)
                                                             : forgetting::Json(nullptr)}});
      }
    }
    if (listed.empty()) {
      return;
    }
    const auto list = forgetting::list_write(store, archive, store.today(), listed);
    store.write(list.path, list.bytes);
    store.record(Action{"", "listed", "", "", list.path,
                        std::to_string(listed.size()) + " forgotten " +
                            (listed.size() == 1 ? "memory" : "memories") + " with their stats" +
                            (list.appended ? ", added to the day's list" : "")});
  }

private:
  bool m_said_no_usage = false; // the missing usage data was recorded once already

  // `base`, or the first `-N` name after it that no file has: nothing in the
  // archive is ever overwritten.
  static std::string free_name(const StoreView& store, const std::string& base) {
    std::string target = base;
    const auto stem = base.substr(0, base.size() - 3); // without ".md"
    for (int n = 2; store.exists(target) || store.held(target); ++n) {
      target = stem + "-" + std::to_string(n) + ".md";
    }
    return target;
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(ForgettingRule, "forgetting", engram::Phase::prune,
                   "archives memories unused for months and rarely used or rarely helpful", "0.1.0",
                   false)
