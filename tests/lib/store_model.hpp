// A store model for testing a rule's parts without running engram: the given
// files written to a temporary folder, scanned, and held in a Workspace as a
// rule sees it on `today`.
#pragma once

#include "engine/workspace.hpp"
#include "lib/temp_dir.hpp"
#include "store/scan.hpp"

#include <map>
#include <optional>
#include <string>

namespace engram::test {

struct StoreModel {
  TempDir dir;
  config::Settings settings = config::Settings::defaults();
  store::Layout layout;
  std::optional<engine::Workspace> workspace;

  // `files` maps store-relative paths to their bytes; `rule` names the rule
  // whose settings table the model reads.
  StoreModel(const std::map<std::string, std::string>& files, Date today, const std::string& rule) {
    for (const auto& [path, bytes] : files) {
      write_file(dir / path, bytes);
    }
    workspace.emplace(store::scan(dir.path(), layout, store::ScanLimits{}), layout, settings, today,
                      RunKind::full);
    workspace->begin_rule(rule);
  }
};

} // namespace engram::test
