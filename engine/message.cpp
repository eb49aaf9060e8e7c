// Message: rendering the record. The summary counts actions by verb, in the
// order the verbs first appear, so the same plan gives the same message.
#include "engine/message.hpp"

#include "base/json_text.hpp"
#include "engine/holds.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <git2.h>
#include <map>

namespace engram::engine {
namespace {

// The run kind as the summary line and the Engram-Run trailer name it.
// What the trailer and the record call a run.
std::string_view run_name(const Plan& plan) {
  return plan.subset ? "subset" : plan.kind == RunKind::full ? "full" : "lightweight";
}

// What a summary line calls a run: a subset by its rules ("dedupe,contradictions").
std::string run_title(const Plan& plan) {
  if (!plan.subset) {
    return std::string(run_name(plan));
  }
  std::string rules;
  for (const auto& rule : plan.rules) {
    rules += (rules.empty() ? "" : ",") + rule;
  }
  return rules.empty() ? std::string("subset") : rules;
}

// How a count of a verb reads in a summary line.
std::string counted(std::string_view verb, std::size_t n) {
  if (verb == "absorbed") {
    return fmt::format("{} claim{} absorbed", n, n == 1 ? "" : "s");
  }
  if (verb == "duplicate") {
    return fmt::format("{} duplicate{}", n, n == 1 ? "" : "s");
  }
  if (verb == "decayed") {
    return fmt::format("{} episodic decayed", n);
  }
  if (verb == "counted") {
    return fmt::format("usage of {} memor{} folded", n, n == 1 ? "y" : "ies");
  }
  if (verb == "dropped") {
    return fmt::format("usage of {} missing file{} dropped", n, n == 1 ? "" : "s");
  }
  if (verb == "failed") {
    return fmt::format("{} rule{} failed", n, n == 1 ? "" : "s");
  }
  if (verb == "skipped") {
    return fmt::format("{} rule{} skipped", n, n == 1 ? "" : "s");
  }
  return fmt::format("{} {}", n, verb);
}

// The most of a claim's bytes one line of the message quotes.
constexpr std::size_t k_quoted_bytes = 100;

// Appends a claim, quoted and shortened, for one line of the message.
void append_quoted_claim(std::string& out, std::string_view claim) {
  std::size_t kept = claim.size();
  if (kept > k_quoted_bytes) {
    kept = k_quoted_bytes;
    while (kept > 0 && (static_cast<unsigned char>(claim[kept]) & 0xC0) == 0x80) {
      --kept; // never cut a UTF-8 sequence in half
    }
  }
  out += '"';
  const auto from = out.size();
  out.append(claim.substr(0, kept));
  for (auto i = from; i < out.size(); ++i) {
    if (out[i] == '\n' || out[i] == '\r' || out[i] == '\t') {
      out[i] = ' '; // one line
    }
  }
  if (kept < claim.size()) {
    out += "…";
  }
  out += '"';
}

// Appends one action as one line of the record: rule, verb, claim, source →
// target, reason. Appended in place: a full run records thousands.
void append_action_line(std::string& out, const Action& action) {
  out += "- ";
  out += action.rule;
  out += ' ';
  out += action.action;
  if (!action.claim.empty()) {
    out += ' ';
    append_quoted_claim(out, action.claim);
  }
  if (!action.source.empty() || !action.target.empty()) {
    out += ": ";
    out += action.source;
    out += !action.source.empty() && !action.target.empty() ? " → " : "";
    out += action.target;
  }
  if (!action.reason.empty()) {
    out += " (";
    out += action.reason;
    out += ')';
  }
  out += '\n';
}

// Appends the record, one line per action, reserving what it takes first
// and room for the trailers a commit message adds after it: a record of
// megabytes is then never copied to grow.
void append_record(std::string& out, const Plan& plan) {
  constexpr std::size_t k_line_frame = 24; // "- ", spaces, quotes, "…", " → ", " (", ")"
  constexpr std::size_t k_trailers = 4096;
  std::size_t size = k_trailers;
  for (const auto& a : plan.record) {
    size += a.rule.size() + a.action.size() + std::min(a.claim.size(), k_quoted_bytes) +
            a.source.size() + a.target.size() + a.reason.size() + k_line_frame;
  }
  out.reserve(out.size() + size);
  for (const auto& action : plan.record) {
    append_action_line(out, action);
  }
}

} // namespace

std::string summary_line(const Plan& plan, Recovered recovered) {
  std::vector<std::pair<std::string, std::size_t>> counts;
  for (const auto& action : plan.record) {
    auto it = std::find_if(counts.begin(), counts.end(),
                           [&](const auto& c) { return c.first == action.action; });
    if (it == counts.end()) {
      counts.emplace_back(action.action, 1);
    } else {
      ++it->second;
    }
  }
  std::string summary =
      fmt::format("consolidate({}): ", recovered == Recovered::yes ? "recovered" : run_title(plan));
  if (counts.empty()) {
    return summary + fmt::format("{} file{} updated", plan.changes.size(),
                                 plan.changes.size() == 1 ? "" : "s");
  }
  for (std::size_t i = 0; i < counts.size(); ++i) {
    summary += (i == 0 ? "" : ", ") + counted(counts[i].first, counts[i].second);
  }
  return summary;
}

std::string render_record(const Plan& plan) {
  std::string out;
  append_record(out, plan);
  return out;
}

namespace {

// The file an action is about: where its claim went, else where it was.
const std::string& file_of(const Action& action) {
  return action.target.empty() ? action.source : action.target;
}

// One line per file the record touches, in the order files first appear:
// `semantic/api.md: 3 claims absorbed, 1 superseded (from 2 files)`; past
// k_message_files, one line counts the rest.
void append_file_lines(std::string& out, const Plan& plan) {
  struct FileCounts {
    std::string path;
    std::vector<std::pair<std::string, std::size_t>> verbs; // in order of first appearance
    std::vector<std::string> sources;                       // other files its claims came from
  };
  std::vector<FileCounts> files;
  std::map<std::string, std::size_t, std::less<>> where; // path → index in files
  for (const auto& action : plan.record) {
    const auto [it, added] = where.try_emplace(file_of(action), files.size());
    if (added) {
      files.push_back({file_of(action), {}, {}});
    }
    auto& file = files[it->second];
    auto verb = std::find_if(file.verbs.begin(), file.verbs.end(),
                             [&](const auto& v) { return v.first == action.action; });
    if (verb == file.verbs.end()) {
      file.verbs.emplace_back(action.action, 1);
    } else {
      ++verb->second;
    }
    if (!action.source.empty() && action.source != file.path &&
        std::find(file.sources.begin(), file.sources.end(), action.source) == file.sources.end()) {
      file.sources.push_back(action.source);
    }
  }
  for (std::size_t i = 0; i < files.size() && i < k_message_files; ++i) {
    const auto& file = files[i];
    out += file.path.empty() ? std::string("(the store)") : file.path;
    for (std::size_t v = 0; v < file.verbs.size(); ++v) {
      out += (v == 0 ? ": " : ", ") + counted(file.verbs[v].first, file.verbs[v].second);
    }
    if (!file.sources.empty()) {
      out += fmt::format(" (from {} file{})", file.sources.size(),
                         file.sources.size() == 1 ? "" : "s");
    }
    out += '\n';
  }
  if (files.size() > k_message_files) {
    out += fmt::format("… and {} more files; every action is in this commit's note "
                       "(git log --notes=engram)\n",
                       files.size() - k_message_files);
  }
}

// One line per rule that acted, its actions counted in order of first appearance.
void append_rule_lines(std::string& out, const Plan& plan) {
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::size_t>>>> rules;
  for (const auto& action : plan.record) {
    auto rule = std::find_if(rules.begin(), rules.end(),
                             [&](const auto& r) { return r.first == action.rule; });
    if (rule == rules.end()) {
      rule = rules.insert(rules.end(), {action.rule, {}});
    }
    auto verb = std::find_if(rule->second.begin(), rule->second.end(),
                             [&](const auto& v) { return v.first == action.action; });
    if (verb == rule->second.end()) {
      rule->second.emplace_back(action.action, 1);
    } else {
      ++verb->second;
    }
  }
  for (const auto& [rule, verbs] : rules) {
    out += "  " + rule;
    for (std::size_t v = 0; v < verbs.size(); ++v) {
      out += (v == 0 ? ": " : ", ") + counted(verbs[v].first, verbs[v].second);
    }
    out += '\n';
  }
}

// The files deferred to the next run, under a heading; at most `most` of
// them named, the rest counted.
void append_deferred(std::string& out, const ApplyResult& applied, std::size_t most) {
  if (applied.deferred.empty()) {
    return;
  }
  out += "\nDeferred to the next run (changed while engram worked, or waiting on one that did):\n";
  for (std::size_t i = 0; i < applied.deferred.size() && i < most; ++i) {
    out += "- " + applied.deferred[i] + "\n";
  }
  if (applied.deferred.size() > most) {
    out += fmt::format("- … and {} more\n", applied.deferred.size() - most);
  }
}

// The trailers that end a consolidation's message.
std::string trailers(const Plan& plan, Recovered recovered) {
  std::string rules;
  for (const auto& rule : plan.rules) {
    rules += (rules.empty() ? "" : ", ") + rule;
  }
  std::string out =
      fmt::format("\nEngram-Run: {}\nEngram-Rules: {}\nEngram-Date: {}\n", run_name(plan),
                  rules.empty() ? "none" : rules, plan.today.to_string());
  if (!plan.machine.empty()) {
    out += fmt::format("Engram-Machine: {}\n", plan.machine);
  }
  for (const auto& log : plan.usage_logs) {
    out += fmt::format("Engram-Usage: {}\n", log);
  }
  for (const auto& undo : plan.holding) {
    out += fmt::format("{}: {}\n", k_holding_trailer, undo);
  }
  if (recovered == Recovered::yes) {
    out += "Engram-Recovered: yes\n";
  }
  return out;
}

} // namespace

std::string render_summary(const Plan& plan) {
  std::string out = "by rule:\n";
  append_rule_lines(out, plan);
  std::string files;
  append_file_lines(files, plan);
  out += "by file:\n";
  for (std::size_t at = 0; at < files.size();) {
    const auto end = files.find('\n', at);
    out += "  " + files.substr(at, end - at + 1);
    at = end == std::string::npos ? files.size() : end + 1;
  }
  return out;
}

CommitText commit_message(const Plan& plan, const ApplyResult& applied, Recovered recovered) {
  CommitText text;
  text.message = summary_line(plan, recovered) + "\n\n";
  append_file_lines(text.message, plan);
  append_deferred(text.message, applied, k_message_deferred);
  text.message += trailers(plan, recovered);
  if (!plan.record.empty() || !applied.deferred.empty()) {
    append_record(text.note, plan);
    append_deferred(text.note, applied, applied.deferred.size());
  }
  return text;
}

Plan plan_from_record(const nlohmann::json& record) {
  Plan plan;
  const auto run = record.at("run").get<std::string>();
  plan.kind = run == "lightweight" ? RunKind::lightweight : RunKind::full;
  plan.subset = run == "subset";
  if (const auto today = Date::parse(record.at("date").get<std::string>())) {
    plan.today = *today;
  }
  plan.rules = record.at("rules").get<std::vector<std::string>>();
  plan.failed_rules = record.value("failed_rules", std::vector<std::string>{});
  plan.usage_logs = record.value("usage_logs", std::vector<std::string>{});
  plan.holding = record.value("holding", std::vector<std::string>{});
  for (const auto& a : record.at("actions")) {
    plan.record.push_back(
        Action{a.at("rule").get<std::string>(), a.at("action").get<std::string>(),
               a.at("claim").get<std::string>(), a.at("source").get<std::string>(),
               a.at("target").get<std::string>(), a.at("reason").get<std::string>()});
  }
  return plan;
}

std::string mark_recovered(std::string_view message) {
  std::string result(message);
  while (!result.empty() && result.back() == '\n') {
    result.pop_back();
  }
  return result + "\nEngram-Recovered: yes\n";
}

namespace {

// A list of strings as a JSON array.
void write_strings(JsonWriter& writer, const std::vector<std::string>& strings) {
  writer.begin_array();
  for (const auto& text : strings) {
    writer.string(text);
  }
  writer.end_array();
}

} // namespace

std::vector<JsonMember> record_members(const Plan& plan, const ApplyResult* applied) {
  const auto strings = [](const std::vector<std::string>& list) {
    return [&list](JsonWriter& writer) { write_strings(writer, list); };
  };
  const auto text = [](std::string value) {
    return [value = std::move(value)](JsonWriter& writer) { writer.string(value); };
  };
  std::vector<JsonMember> members{
      {"run", text(std::string(run_name(plan)))},
      {"date", text(plan.today.to_string())},
      {"summary", text(summary_line(plan))},
      {"rules", strings(plan.rules)},
      {"failed_rules", strings(plan.failed_rules)},
      {"usage_logs", strings(plan.usage_logs)},
      {"holding", strings(plan.holding)},
      {"actions",
       [&plan](JsonWriter& writer) {
         writer.begin_array();
         for (const auto& a : plan.record) { // each action's members, sorted by key
           writer.begin_object();
           for (const auto& [key, value] : {std::pair{"action", &a.action},
                                            {"claim", &a.claim},
                                            {"reason", &a.reason},
                                            {"rule", &a.rule},
                                            {"source", &a.source},
                                            {"target", &a.target}}) {
             writer.key(key);
             writer.string(*value);
           }
           writer.end_object();
         }
         writer.end_array();
       }},
      {"changes",
       [&plan](JsonWriter& writer) {
         writer.begin_array();
         for (const auto& c : plan.changes) {
           writer.begin_object();
           writer.key("change");
           writer.string(!c.new_bytes ? "remove" : (c.base_hash ? "modify" : "create"));
           writer.key("path");
           writer.string(c.path);
           writer.end_object();
         }
         writer.end_array();
       }},
      {"diagnostics",
       [&plan](JsonWriter& writer) {
         writer.begin_array();
         for (const auto& d : plan.diagnostics) {
           writer.string(d.to_string());
         }
         writer.end_array();
       }},
  };
  if (applied != nullptr) {
    members.push_back({"written", strings(applied->written)});
    members.push_back({"removed", strings(applied->removed)});
    members.push_back({"deferred", strings(applied->deferred)});
  }
  return members;
}

std::size_t record_size_hint(const Plan& plan, int indent) {
  // Per action: six keys, quotes and commas, and, indented, eight lines at
  // up to three levels; per change, a path and its kind.
  const std::size_t lines = indent >= 0 ? 8 * (3 * static_cast<std::size_t>(indent) + 1) : 0;
  std::size_t size = 4096;
  for (const auto& a : plan.record) {
    size += a.rule.size() + a.action.size() + a.claim.size() + a.source.size() + a.target.size() +
            a.reason.size() + 80 + lines;
  }
  for (const auto& c : plan.changes) {
    size += c.path.size() + 40 + lines / 2;
  }
  return size + size / 16; // escapes
}

std::string record_text(const Plan& plan, const ApplyResult* applied) {
  std::string out;
  out.reserve(record_size_hint(plan, -1));
  JsonWriter writer(out, -1);
  write_object(writer, record_members(plan, applied));
  return out;
}

nlohmann::json record_json(const Plan& plan, const ApplyResult* applied) {
  return nlohmann::json::parse(record_text(plan, applied));
}

std::string unified_diff(const Plan& plan) {
  return unified_diff(plan.changes);
}

std::string unified_diff(const std::vector<FileChange>& changes) {
  static const int k_init = git_libgit2_init();
  (void)k_init;
  std::string out;
  for (const auto& change : changes) {
    // libgit2 adds the a/ and b/ prefixes, and shows a missing side (no
    // buffer) as /dev/null, so a created or removed file reads as git's would.
    const char* old_data = change.base_bytes ? change.base_bytes->data() : nullptr;
    const std::size_t old_size = change.base_bytes ? change.base_bytes->size() : 0;
    const char* new_data = change.new_bytes ? change.new_bytes->data() : nullptr;
    const std::size_t new_size = change.new_bytes ? change.new_bytes->size() : 0;
    git_patch* patch = nullptr;
    if (git_patch_from_buffers(&patch, old_data, old_size, change.path.c_str(), new_data, new_size,
                               change.path.c_str(), nullptr) != 0) {
      continue;
    }
    git_buf buf = GIT_BUF_INIT;
    if (git_patch_to_buf(&buf, patch) == 0) {
      out.append(buf.ptr, buf.size);
    }
    git_buf_dispose(&buf);
    git_patch_free(patch);
  }
  return out;
}

} // namespace engram::engine
