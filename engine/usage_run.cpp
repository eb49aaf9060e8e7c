// Usage run: taking, reading and releasing usage logs around a consolidation.
#include "engine/usage_run.hpp"

#include "base/fault.hpp"
#include "git/history.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <spdlog/spdlog.h>

namespace engram::engine {

namespace fs = std::filesystem;

std::vector<std::string> release_committed_usage(Session& session) {
  const auto taken = usage::taken_paths(session.root(), session.layout());
  if (taken.empty()) {
    return {};
  }
  std::map<std::string, std::string> named; // log name → hash, from the trailers
  for (const auto& value :
       git::recent_trailers(session.repository(), "Engram-Usage", k_usage_history)) {
    const auto space = value.find(' ');
    named.emplace(value.substr(0, space),
                  space == std::string::npos ? std::string() : value.substr(space + 1));
  }
  std::vector<std::string> released;
  for (const auto& path : taken) {
    const auto name = path.filename().string();
    const auto it = named.find(name);
    if (it == named.end()) {
      continue; // not folded yet: this run folds it
    }
    const auto log = usage::read_log(path, k_usage_log_bytes);
    if (log.hash != it->second) {
      spdlog::warn("{}: a commit folded this usage log when it had other bytes (hash {}, now "
                   "{}); it is not folded again",
                   path.string(), it->second, log.hash);
    }
    usage::release(path);
    spdlog::info("{}: released usage log {}, folded by an earlier run", session.root().string(),
                 name);
    released.push_back(name);
  }
  return released;
}

std::vector<usage::TakenLog> take_usage(const fs::path& root, const store::Layout& layout) {
  usage::take(root, layout);
  fault_point("after-usage-take");
  std::vector<usage::TakenLog> logs;
  for (const auto& path : usage::taken_paths(root, layout)) {
    logs.push_back(usage::read_log(path, k_usage_log_bytes));
  }
  return logs;
}

std::vector<usage::TakenLog> peek_usage(const fs::path& root, const store::Layout& layout) {
  std::vector<usage::TakenLog> logs;
  for (const auto& path : usage::taken_paths(root, layout)) {
    logs.push_back(usage::read_log(path, k_usage_log_bytes));
  }
  const auto live = usage::live_path(root, layout);
  std::error_code error;
  if (fs::exists(live, error)) {
    logs.push_back(usage::read_log(live, k_usage_log_bytes));
  }
  return logs;
}

std::vector<usage::Event> events_of(const std::vector<usage::TakenLog>& logs) {
  std::vector<usage::Event> events;
  for (const auto& log : logs) {
    events.insert(events.end(), log.events.begin(), log.events.end());
  }
  return events;
}

void finish_usage(const fs::path& root, const store::Layout& layout,
                  const std::vector<usage::TakenLog>& logs, const ApplyResult& applied) {
  const std::set<std::string> deferred(applied.deferred.begin(), applied.deferred.end());
  if (!deferred.empty()) {
    for (const auto& event : events_of(logs)) {
      usage::Event kept = event;
      std::erase_if(kept.files, [&](const std::string& file) { return !deferred.contains(file); });
      if (!kept.files.empty()) {
        usage::append(root, layout, kept);
      }
    }
  }
  fault_point("before-usage-release");
  for (const auto& log : logs) {
    usage::release(log.path);
  }
}

} // namespace engram::engine
