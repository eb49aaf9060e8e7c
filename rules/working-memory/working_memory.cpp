// The working-memory rule: keeps WORKING.md under its guard by moving
// completed items, then the oldest, into today's episodic file. Nothing is
// dropped: every moved item is written to episodic/ and recorded.
#include "engram/plugin.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace {

using engram::Action;
using engram::StoreView;

// One top-level list item of WORKING.md: its lines and how to rank it.
struct Item {
  std::size_t first; // index of its first line
  std::size_t last;  // one past its last line
  bool completed;    // `- [x]`
  std::string date;  // YYYY-MM-DD written at its start by `engram append`, if any
};

std::int64_t int_setting(const StoreView& store, std::string_view key, std::int64_t fallback) {
  const auto value = store.setting(key);
  const auto* n = value ? std::get_if<std::int64_t>(&*value) : nullptr;
  return n == nullptr ? fallback : *n;
}

// The date an item starts with, after its marker and checkbox, or empty.
std::string item_date(std::string_view line) {
  auto rest = line.substr(2);
  if (rest.starts_with("[ ] ") || rest.starts_with("[x] ") || rest.starts_with("[X] ")) {
    rest.remove_prefix(4);
  }
  if (rest.size() >= 10 && engram::Date::parse(rest.substr(0, 10))) {
    return std::string(rest.substr(0, 10));
  }
  return {};
}

std::vector<Item> find_items(const std::vector<std::string>& lines) {
  std::vector<Item> items;
  for (std::size_t i = 0; i < lines.size();) {
    const auto line = engram::text::without_eol(lines[i]);
    if (!engram::text::starts_list_item(line)) {
      ++i;
      continue;
    }
    Item item{i, i + 1, line.size() > 4 && (line.substr(1, 4) == " [x]" || line.substr(1, 4) == " [X]"),
              item_date(line)};
    // Continuation lines are indented; a blank line, heading or new item ends the item.
    while (item.last < lines.size()) {
      const auto next = engram::text::without_eol(lines[item.last]);
      if (next.empty() || (next[0] != ' ' && next[0] != '\t')) {
        break;
      }
      ++item.last;
    }
    items.push_back(item);
    i = item.last;
  }
  return items;
}

std::string episodic_header(const StoreView& store, const std::string& today) {
  const auto decay = store.today().plus_days(int_setting(store, "decay.retention_days", 90)).to_string();
  return "---\ntype: episodic\ntags: [working-memory]\nsalience: low\nconfidence: medium\n"
         "source: observed\nstatus: open\ncreated: " + today + "\nlast-accessed: " + today +
         "\nretention: temporary\ndecay-after: " + decay + "\n---\n# Moved out of working memory on " +
         today + "\n\n";
}

class WorkingMemoryRule final : public engram::Rule {
public:
  void run(StoreView& store) override {
    const auto working = store.layer_path(engram::Layer::working);
    if (!store.exists(working)) {
      return;
    }
    const auto guard = int_setting(store, "guard.working_chars", 3000);
    const auto target = int_setting(store, "guard.working_target_chars", 2000);
    const auto whole = store.read(working);
    const auto size = static_cast<std::int64_t>(engram::text::count_chars(whole));
    if (size <= guard) {
      return;
    }
    const auto body = store.body(working);
    const auto lines = engram::text::split_lines(body);
    auto items = find_items(lines);
    // Completed first, then the oldest: dated items by date, undated ones in file order.
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      if (a.completed != b.completed) {
        return a.completed;
      }
      if (!a.date.empty() && !b.date.empty()) {
        return a.date < b.date;
      }
      return !a.date.empty() && b.date.empty();
    });

    const auto today = store.today().to_string();
    const auto destination = store.layer_path(engram::Layer::episodic) + "/" + today + "-working-memory.md";
    std::vector<bool> moved(lines.size(), false);
    std::string moved_text;
    std::vector<std::string> moved_items; // each item's lines, as moved
    std::int64_t remaining = size;
    for (const auto& item : items) {
      if (remaining <= target) {
        break;
      }
      std::string text;
      for (std::size_t i = item.first; i < item.last; ++i) {
        text += lines[i];
        moved[i] = true;
      }
      if (text.empty() || (text.back() != '\n')) {
        text += '\n';
      }
      remaining -= static_cast<std::int64_t>(engram::text::count_chars(text));
      moved_text += text;
      moved_items.push_back(text);
      store.record(Action{"", "moved", std::string(engram::text::without_eol(text)), working, destination,
                          std::string(item.completed ? "completed item" : "oldest item") +
                              "; WORKING.md was " + std::to_string(size) + " chars, over its guard of " +
                              std::to_string(guard)});
    }
    if (moved_text.empty()) {
      store.record(Action{"", "over-guard", "", working, "",
                          "WORKING.md is " + std::to_string(size) + " chars, over its guard of " +
                              std::to_string(guard) + ", and has no list items to move"});
      return;
    }
    // Write the items first; only then take them out of WORKING.md.
    if (store.exists(destination)) {
      auto existing = store.body(destination);
      if (!existing.empty() && existing.back() != '\n') {
        existing += '\n';
      }
      // An item the destination holds already is not added again: an earlier
      // run wrote it there, and its removal from WORKING.md was deferred (the
      // agent wrote WORKING.md meanwhile). Moving it now only takes it out.
      std::string added;
      for (const auto& text : moved_items) {
        if (existing.starts_with(text) || existing.find("\n" + text) != std::string::npos) {
          continue;
        }
        added += text;
      }
      if (!added.empty()) {
        store.set_body(destination, existing + added);
      }
    } else {
      store.write(destination, episodic_header(store, today) + moved_text);
    }
    std::string kept;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (!moved[i]) {
        kept += lines[i];
      }
    }
    store.set_body(working, kept);
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(WorkingMemoryRule, "working-memory", engram::Phase::guard,
                   "moves completed, then oldest, WORKING.md items to episodic/ when over the guard",
                   "0.1.0", true)
