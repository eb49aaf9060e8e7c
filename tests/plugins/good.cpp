// A well-behaved test rule. It writes one file, records one action, and
// appends its life's events (run, rule destroyed, library unloaded) to the
// file its `trace_file` setting names, so a test can see the host's teardown
// order from outside the library. Keep it free of GNU_UNIQUE symbols (`nm -D`
// shows `u`; std::to_string makes one): glibc never unloads a library that has
// one, and the teardown test could no longer see the unload.
#include "engram/plugin.hpp"

#include <fstream>
#include <string>
#include <variant>

namespace {

// Where events go; set by run and kept for the destructors that come later.
// Declared before g_unload_trace so it is destroyed after it.
std::string g_trace_file;

// Appends one event line to the trace file, when a test asked for one.
void trace(const char* event) {
  if (g_trace_file.empty()) {
    return;
  }
  std::ofstream out(g_trace_file, std::ios::app);
  out << event << '\n';
}

// Traces the destruction of the library's statics: at dlclose when the library
// really unloads, else at exit.
struct UnloadTrace {
  ~UnloadTrace() { trace("library unloaded"); }
};
UnloadTrace g_unload_trace;

// Writes semantic/good.md and says so.
class GoodRule final : public engram::Rule {
public:
  // Traces its own destruction, which must come before the library's unloading.
  ~GoodRule() override { trace("rule destroyed"); }

  // Writes a dated file, records it, and traces the run.
  void run(engram::StoreView& store) override {
    if (const auto file = store.setting("trace_file")) {
      if (const auto* path = std::get_if<std::string>(&*file)) {
        g_trace_file = *path;
      }
    }
    trace("run");
    const std::string path = store.layer_path(engram::Layer::semantic) + "/good.md";
    store.write(path, "Written by the good test rule on " + store.today().to_string() + ".\n");
    store.record(engram::Action{"", "wrote", "", "", path, "the good test rule always writes it"});
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(GoodRule, "good", engram::Phase::merge,
                   "a test rule that writes semantic/good.md", "1.2.3", false)
