// The working-memory rule: keeps WORKING.md under its guard by moving
// completed items, then the oldest, into today's episodic file. Nothing is
// dropped: every moved item is written to episodic/ and recorded.
#include "../shared/knowledge.hpp"
#include "engram/plugin.hpp"
#include "engram/text.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
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
    Item item{i, i + 1,
              line.size() > 4 && (line.substr(1, 4) == " [x]" || line.substr(1, 4) == " [X]"),
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
  const auto decay =
      store.today().plus_days(int_setting(store, "decay.retention_days", 90)).to_string();
  return "---\ntype: episodic\ntags: [working-memory]\nsalience: low\nconfidence: medium\n"
         "source: observed\nstatus: open\ncreated: " +
         today + "\nlast-accessed: " + today + "\nretention: temporary\ndecay-after: " + decay +
         "\n---\n# Moved out of working memory on " + today + "\n\n";
}

// The marker `engram append` puts on an item it diverted to the overflow
// file, followed by the `## ` section the item was meant for.
constexpr std::string_view k_diverted = "<!-- diverted from WORKING.md: ## ";

// An item an append diverted: where it waits, and where it belongs.
struct Diverted {
  std::string path;    // the overflow file
  std::string text;    // the item, its marker line left out
  std::string marker;  // the marker line, as written
  std::string section; // the WORKING.md section it was meant for
};

// The episodic overflow files (named "…-working-memory.md") of each store,
// kept between runs: a daemon's one-file cycle of a large store looks at the
// files that changed since its last run, not at every episodic file.
class OverflowFiles {
public:
  // The store's overflow files, sorted by path (oldest file first).
  std::vector<std::string> of(const StoreView& store) {
    const std::lock_guard lock(m_mutex);
    auto& known = m_stores[store.store_name()];
    const auto now = store.revision();
    const auto changed = known.revision == 0 ? std::nullopt : store.changed_since(known.revision);
    if (!changed) {
      known.paths.clear();
      for (auto& path : store.files(engram::Layer::episodic)) {
        if (named(path)) {
          known.paths.insert(std::move(path));
        }
      }
    } else {
      for (const auto& path : *changed) {
        if (named(path) && store.exists(path) && store.layer_of(path) == engram::Layer::episodic) {
          known.paths.insert(path);
        } else {
          known.paths.erase(path);
        }
      }
    }
    known.revision = now;
    return {known.paths.begin(), known.paths.end()};
  }

  void forget(std::string_view store) {
    const std::lock_guard lock(m_mutex);
    m_stores.erase(std::string(store));
  }

private:
  static bool named(std::string_view path) { return path.ends_with("-working-memory.md"); }

  struct Known {
    std::uint64_t revision = 0; // the model's revision `paths` are of
    std::set<std::string> paths;
  };
  std::mutex m_mutex; // a daemon runs its stores side by side with one rule
  std::map<std::string, Known, std::less<>> m_stores;
};

// The items appends diverted into the overflow files `files`, oldest file first.
std::vector<Diverted> diverted_items(const StoreView& store,
                                     const std::vector<std::string>& files) {
  std::vector<Diverted> out;
  for (const auto& path : files) {
    if (store.held(path)) {
      continue; // an undo's overflow file stays as it left it
    }
    const auto& body = store.body(path);
    if (body.find(k_diverted) == std::string::npos) {
      continue;
    }
    const auto lines = engram::text::split_lines(body);
    for (const auto& item : find_items(lines)) {
      Diverted d{path, "", "", ""};
      for (std::size_t i = item.first; i < item.last; ++i) {
        const auto line = engram::text::without_eol(lines[i]);
        const auto at = line.find(k_diverted);
        if (at == std::string_view::npos) {
          d.text += lines[i];
          continue;
        }
        d.marker = lines[i];
        auto section = line.substr(at + k_diverted.size());
        section = section.substr(0, section.rfind(" -->"));
        d.section = std::string(section);
      }
      if (!d.marker.empty()) {
        out.push_back(std::move(d));
      }
    }
  }
  return out;
}

// Where each line of a text starts, by the line: whether the text holds
// another at the start of one of its lines, found without searching the
// whole text once per question. A day's overflow file grows all day, and a
// run that moves many items asks once for each.
class LineStarts {
public:
  explicit LineStarts(const std::string& text) : m_text(text) {
    for (std::size_t at = 0; at < text.size();) {
      const auto end = std::min(text.find('\n', at), text.size());
      m_starts[std::string_view(text).substr(at, end - at)].push_back(at);
      at = end + 1;
    }
  }

  // Whether `item` is in the text starting at the start of a line.
  bool holds(std::string_view item) const {
    const auto first = item.substr(0, std::min(item.find('\n'), item.size()));
    const auto it = m_starts.find(first);
    return it != m_starts.end() &&
           std::any_of(it->second.begin(), it->second.end(), [&](std::size_t at) {
             return std::string_view(m_text).substr(at).starts_with(item);
           });
  }

private:
  const std::string& m_text;
  std::unordered_map<std::string_view, std::vector<std::size_t>> m_starts;
};

class WorkingMemoryRule final : public engram::Rule {
public:
  void run(StoreView& store) override {
    const auto working = store.layer_path(engram::Layer::working);
    if (!store.exists(working) || store.held(working)) {
      return; // nothing to keep, or an undo brought it back as it was
    }
    const auto guard = int_setting(store, "guard.working_chars", 3000);
    const auto target = int_setting(store, "guard.working_target_chars", 2000);
    auto size = static_cast<std::int64_t>(engram::text::count_chars(store.read(working)));
    const auto diverted = diverted_items(store, m_overflow.of(store));
    // An append diverted an item: WORKING.md is made room in (pruned to its
    // target) even under its guard, or every later append would be diverted too.
    if (size > guard || (!diverted.empty() && size > target)) {
      size = prune(store, working, size, guard, target);
    }
    restore(store, working, diverted, size, guard);
  }

  void forget(std::string_view store) override { m_overflow.forget(store); }

private:
  OverflowFiles m_overflow;

  // Moves completed, then the oldest, items of WORKING.md into today's
  // episodic file until it is under `target`; its size after.
  static std::int64_t prune(StoreView& store, const std::string& working, std::int64_t size,
                            std::int64_t guard, std::int64_t target) {
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
    const auto destination =
        store.layer_path(engram::Layer::episodic) + "/" + today + "-working-memory.md";
    if (store.held(destination)) {
      return size; // an undo took these items out of it: they stay until it changes
    }
    std::vector<bool> moved(lines.size(), false);
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
      moved_items.push_back(text);
      store.record(Action{"", "moved", std::string(engram::text::without_eol(text)), working,
                          destination,
                          std::string(item.completed ? "completed item" : "oldest item") +
                              "; WORKING.md was " + std::to_string(size) + " chars" +
                              (size > guard ? ", over its guard of " + std::to_string(guard)
                                            : ", and an append was diverted")});
    }
    if (moved_items.empty()) {
      store.record(Action{"", "over-guard", "", working, "",
                          "WORKING.md is " + std::to_string(size) + " chars (guard " +
                              std::to_string(guard) + ") and has no list items to move"});
      return size;
    }
    write_moved(store, destination, moved_items, today);
    std::string kept;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (!moved[i]) {
        kept += lines[i];
      }
    }
    store.set_body(working, kept);
    return static_cast<std::int64_t>(engram::text::count_chars(store.read(working)));
  }

  // Writes the moved items into `destination` first; only then are they
  // taken out of WORKING.md.
  static void write_moved(StoreView& store, const std::string& destination,
                          const std::vector<std::string>& moved_items, const std::string& today) {
    if (!store.exists(destination)) {
      std::string moved_text;
      for (const auto& text : moved_items) {
        moved_text += text;
      }
      store.write(destination, episodic_header(store, today) + moved_text);
      return;
    }
    auto existing = store.body(destination);
    if (!existing.empty() && existing.back() != '\n') {
      existing += '\n';
    }
    // An item the destination holds already is not added again: an earlier
    // run wrote it there, and its removal from WORKING.md was deferred (the
    // agent wrote WORKING.md meanwhile). Moving it now only takes it out.
    const LineStarts held(existing);
    std::string added;
    for (const auto& text : moved_items) {
      if (!held.holds(text)) {
        added += text;
      }
    }
    if (!added.empty()) {
      store.set_body(destination, existing + added);
    }
  }

  // Puts diverted items where their appends meant them, under their
  // sections of WORKING.md, while they fit under the guard; each leaves its
  // overflow file (a file left with no item goes).
  static void restore(StoreView& store, const std::string& working,
                      const std::vector<Diverted>& diverted, std::int64_t size,
                      std::int64_t guard) {
    for (const auto& d : diverted) {
      const auto chars = static_cast<std::int64_t>(engram::text::count_chars(d.text));
      if (size + chars > guard) {
        break; // the rest waits for the next run, still marked
      }
      auto body = store.body(working);
      const auto section = engram::knowledge::find_section(body, d.section);
      body = section ? engram::knowledge::insert_in_section(body, *section, d.text)
                     : engram::knowledge::appended(body, "## " + d.section + "\n\n" + d.text, true);
      store.set_body(working, body);
      size += chars;
      auto overflow = store.body(d.path);
      const auto at = overflow.find(d.text + d.marker);
      if (at != std::string::npos) {
        overflow.erase(at, d.text.size() + d.marker.size());
      }
      store.set_body(d.path, overflow);
      store.record(Action{"", "restored", std::string(engram::text::without_eol(d.text)), d.path,
                          working, "diverted by an append; WORKING.md has room again"});
    }
    for (const auto& d : diverted) {
      if (store.exists(d.path) &&
          find_items(engram::text::split_lines(store.body(d.path))).empty()) {
        store.remove(d.path);
      }
    }
  }
};

} // namespace

ENGRAM_RULE_PLUGIN(
    WorkingMemoryRule, "working-memory", engram::Phase::guard,
    "moves completed, then oldest, WORKING.md items to episodic/ when over the guard", "0.1.0",
    true)
