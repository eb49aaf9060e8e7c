// `engram report` with the real binary, read back against the real git: the
// page's commits are the first-parent line `git log` gives, every chart's
// points are the files, claims, note actions, guarded sizes and tags each
// commit holds, and the page asks nothing of the network.
#include "claims/split.hpp"
#include "lib/history.hpp"
#include "lib/report_history.hpp"
#include "store/memory_file.hpp"
#include "store/tags.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// The layer of a store-relative path in the four-layer layout, or "" for
// what is no memory file; said here from the layout's names, not engram's code.
std::string layer_of(const std::string& path) {
  if (path == "MEMORY.md" || path == "WORKING.md" || path == "CORE.md") {
    return path == "MEMORY.md" ? "index" : path == "WORKING.md" ? "working" : "core";
  }
  const auto slash = path.find('/');
  if (slash == std::string::npos) {
    return "";
  }
  const std::string folder = path.substr(0, slash);
  if (folder == "archive" && path.ends_with(".json")) {
    return "archive";
  }
  for (const char* layer : {"episodic", "semantic", "procedural", "reference", "archive"}) {
    if (folder == layer && path.ends_with(".md")) {
      return layer;
    }
  }
  return "";
}

// The count under `key`, 0 when there is none.
std::size_t count_of(const std::map<std::string, std::size_t>& counts, const std::string& key) {
  const auto found = counts.find(key);
  return found == counts.end() ? 0 : found->second;
}

// What git says one commit holds, layer by layer.
struct Held {
  std::map<std::string, std::size_t> files;
  std::map<std::string, std::size_t> claims;
  std::map<std::string, std::size_t> tags; // canonical tag → files carrying it
};

// The memory files of commit `id` as `git ls-tree` and `git show` give them.
Held held_at(const Sandbox& sandbox, const fs::path& store, const std::string& id) {
  Held held;
  for (const auto& path : git_lines(sandbox, store, {"ls-tree", "-r", "--name-only", id})) {
    const std::string layer = layer_of(path);
    if (layer.empty()) {
      continue;
    }
    ++held.files[layer];
    if (!path.ends_with(".md")) {
      continue;
    }
    const auto file =
        engram::store::MemoryFile::parse(path, git_out(sandbox, store, {"show", id + ":" + path}));
    REQUIRE(file);
    held.claims[layer] += engram::claims::split_claims(file->body()).size();
    std::set<std::string> tags;
    for (const auto& tag : file->tags()) {
      tags.insert(engram::store::canonical_tag(tag));
    }
    for (const auto& tag : tags) {
      ++held.tags[tag];
    }
  }
  return held;
}

// The count of each verb among the action lines of commit `id`'s engram note.
std::map<std::string, std::size_t> note_actions(const Sandbox& sandbox, const fs::path& store,
                                                const std::string& id) {
  std::map<std::string, std::size_t> counts;
  const auto note = sandbox.git(store, {"notes", "--ref=engram", "show", id});
  if (note.exit_code != 0) {
    return counts; // no note: no record
  }
  for (const auto& line : note.out_lines()) {
    if (!line.starts_with("- ")) {
      break;
    }
    const auto rule_end = line.find(' ', 2);
    // `- rule verb "claim": source → target (reason)`; the claim and the files are optional.
    const auto verb_end = line.find_first_of(" :", rule_end + 1);
    ++counts[line.substr(rule_end + 1, verb_end - rule_end - 1)];
  }
  return counts;
}

// UTF-8 characters (code points) of a text.
std::size_t code_points(const std::string& text) {
  std::size_t n = 0;
  for (const char c : text) {
    n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  }
  return n;
}

// The guard reading named `name` of one commit of the page's data.
nlohmann::json guard_of(const nlohmann::json& commit, const std::string& name) {
  for (const auto& guard : commit["guards"]) {
    if (guard["name"] == name) {
      return guard;
    }
  }
  FAIL("no guard " << name);
  return {};
}

// The values of series `name` of the page's chart `id`.
std::vector<std::int64_t> series_of(const nlohmann::json& data, const std::string& id,
                                    const std::string& name) {
  for (const auto& chart : data["charts"]) {
    if (chart["id"] != id) {
      continue;
    }
    for (const auto& series : chart["series"]) {
      if (series["name"] == name) {
        return series["values"].get<std::vector<std::int64_t>>();
      }
    }
  }
  FAIL("no series " << name << " in chart " << id);
  return {};
}

// Each first-parent commit, oldest first: its id and the date the page gives
// it (the Engram-Date trailer, else the committer's date).
std::vector<std::pair<std::string, std::string>> dated_commits(const Sandbox& sandbox,
                                                               const fs::path& store) {
  std::vector<std::pair<std::string, std::string>> commits;
  for (const auto& line :
       git_lines(sandbox, store,
                 {"log", "--first-parent", "--reverse",
                  "--format=%H %cs %(trailers:key=Engram-Date,valueonly,separator=%x20)"})) {
    const auto id = line.substr(0, 40);
    const auto trailer = line.size() > 52 ? line.substr(52, 10) : std::string();
    commits.emplace_back(id, trailer.empty() ? line.substr(41, 10) : trailer);
  }
  return commits;
}

// The page `engram report` writes with `args` added.
std::string report_page(const Sandbox& sandbox, const fs::path& store,
                        const std::vector<std::string>& args) {
  std::vector<std::string> command{"report", "--store", store.string()};
  command.insert(command.end(), args.begin(), args.end());
  return ok(sandbox, command).out;
}

} // namespace

TEST_CASE("engram report charts what each commit of the store's history holds, as git says") {
  const Sandbox sandbox;
  const fs::path store = make_report_store(sandbox);
  const fs::path file = sandbox.work("report.html");
  const auto wrote = ok(sandbox, {"report", "--store", store.string(), "--output", file.string()});
  CHECK_THAT(wrote.out, Catch::Contains(file.string()));
  const std::string page = read_file(file);
  const auto data = report_data(page);

  const auto commits = dated_commits(sandbox, store);
  REQUIRE(data["commits"].size() == commits.size());
  std::vector<std::string> runs; // the consolidations, oldest first
  std::size_t absorbed = 0;
  std::size_t decayed = 0;
  for (std::size_t i = 0; i < commits.size(); ++i) {
    const auto& [id, date] = commits[i];
    const auto& commit = data["commits"][i];
    INFO("commit " << i << " " << id);
    REQUIRE(commit["id"] == id);
    CHECK(commit["date"] == date);
    const Held held = held_at(sandbox, store, id);
    for (const char* layer : {"index", "working", "core", "episodic", "semantic", "procedural",
                              "reference", "archive"}) {
      INFO(layer);
      CHECK(commit["layers"][layer]["files"] == count_of(held.files, layer));
      CHECK(commit["layers"][layer]["claims"] == count_of(held.claims, layer));
      CHECK(series_of(data, "files", layer).at(i) == commit["layers"][layer]["files"]);
      CHECK(series_of(data, "claims", layer).at(i) == commit["layers"][layer]["claims"]);
    }
    const auto actions = note_actions(sandbox, store, id);
    CHECK(commit["actions"].get<std::map<std::string, std::size_t>>() == actions);
    absorbed += count_of(actions, "absorbed");
    decayed += count_of(actions, "decayed");
    const auto run =
        git_out(sandbox, store, {"log", "-1", "--format=%(trailers:key=Engram-Run,valueonly)", id});
    if (run.starts_with("full") || run.starts_with("lightweight") || run.starts_with("subset")) {
      runs.push_back(id);
    }

    const auto working = guard_of(commit, "working");
    CHECK(working["size"] == code_points(git_out(sandbox, store, {"show", id + ":WORKING.md"})));
    CHECK(working["limit"] == k_report_working_chars);
    CHECK(series_of(data, "guard-working", "size").at(i) == working["size"]);
    CHECK(series_of(data, "guard-working", "limit").at(i) == k_report_working_chars);
    const auto index = guard_of(commit, "memory_index");
    CHECK(index["size"] == git_lines(sandbox, store, {"show", id + ":MEMORY.md"}).size());
    CHECK(series_of(data, "guard-memory_index", "size").at(i) == index["size"]);
  }
  // The history is worth charting: knowledge decayed and was absorbed.
  CHECK(absorbed > 0);
  CHECK(decayed > 0);
  CHECK(runs.size() == k_report_days.size());

  // The actions chart: one band per consolidation, each verb's count from its note.
  for (const char* verb : {"absorbed", "decayed", "superseded", "merged"}) {
    const auto values = series_of(data, "actions", verb);
    REQUIRE(values.size() == runs.size());
    for (std::size_t r = 0; r < runs.size(); ++r) {
      const auto actions = note_actions(sandbox, store, runs[r]);
      CHECK(values[r] == static_cast<std::int64_t>(count_of(actions, verb)));
    }
  }

  // Top tags at HEAD, by the files carrying them.
  const Held head = held_at(sandbox, store, commits.back().first);
  REQUIRE(!data["top_tags"].empty());
  for (const auto& tag : data["top_tags"]) {
    INFO(tag["tag"]);
    CHECK(tag["files"] ==
          head.tags.at(engram::store::canonical_tag(tag["tag"].get<std::string>())));
  }

  // Every chart draws exactly the values the page's data gives it.
  REQUIRE(data["charts"].size() >= 6);
  for (const auto& chart : data["charts"]) {
    INFO(chart["id"]);
    std::vector<std::int64_t> values;
    for (const auto& series : chart["series"]) {
      for (const auto& value : series["values"]) {
        values.push_back(value.get<std::int64_t>());
      }
    }
    CHECK(plotted_values(page, chart["id"]) == values);
  }

  // The latest consolidations, newest first, with their summaries.
  for (std::size_t r = 0; r < runs.size(); ++r) {
    const auto row = page.find("<tr data-commit=\"" + runs[runs.size() - 1 - r] + "\"");
    REQUIRE(row != std::string::npos);
    const auto summary = git_out(sandbox, store, {"log", "-1", "--format=%s", runs[r]});
    CHECK_THAT(page, Catch::Contains(summary.substr(0, summary.size() - 1)));
  }

  // Self-contained: nothing for a browser to fetch.
  for (const char* fetch : {"http:", "https:", "src=", "<link", "@import", "url("}) {
    CHECK(page.find(fetch) == std::string::npos);
  }
}

TEST_CASE("engram report --since leaves out the commits dated before it") {
  const Sandbox sandbox;
  const fs::path store = make_report_store(sandbox);
  const std::string since = k_report_days[1];
  std::vector<std::string> expected;
  for (const auto& [id, date] : dated_commits(sandbox, store)) {
    if (date >= since) {
      expected.push_back(id);
    }
  }
  REQUIRE(!expected.empty());
  const auto data = report_data(report_page(sandbox, store, {"--since", since}));
  CHECK(data["since"] == since);
  std::vector<std::string> listed;
  for (const auto& commit : data["commits"]) {
    listed.push_back(commit["id"]);
  }
  CHECK(listed == expected);
  CHECK(listed.size() < dated_commits(sandbox, store).size());

  const auto bad = sandbox.engram({"report", "--store", store.string(), "--since", "03/01/2027"});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--since must be a date YYYY-MM-DD"));
}

TEST_CASE("engram report on a folder that is no store says so and writes nothing") {
  const Sandbox sandbox;
  const fs::path folder = sandbox.work("plain");
  fs::create_directories(folder);
  const fs::path file = sandbox.work("report.html");
  const auto result =
      sandbox.engram({"report", "--store", folder.string(), "--output", file.string()});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("not an engram store"));
  CHECK(!fs::exists(file));
}
