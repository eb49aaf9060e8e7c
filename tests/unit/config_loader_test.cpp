// Loading configuration files: values, per-store overrides, plugin rule
// tables, and the exact `file:line: message` of every kind of bad input.
#include "config/config.hpp"
#include "lib/temp_dir.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

using engram::config::Config;
using engram::test::TempDir;
using engram::test::write_file;

namespace {

// A configuration file in a fresh folder, loaded.
struct Loaded {
  TempDir dir;
  std::filesystem::path file;
  engram::Expected<Config, std::vector<std::string>> result;

  explicit Loaded(std::string_view text)
      : file(dir / "config.toml"), result(load_after_writing(file, text)) {}

  // Writes `text` to `path` and loads it.
  static engram::Expected<Config, std::vector<std::string>>
  load_after_writing(const std::filesystem::path& path, std::string_view text) {
    write_file(path, text);
    return engram::config::load(path);
  }

  // The problems, with the folder cut off so each starts `config.toml:`.
  std::vector<std::string> problems() const {
    REQUIRE_FALSE(result.has_value());
    std::vector<std::string> out;
    const std::string prefix = dir.path().string() + "/";
    for (const auto& message : result.error()) {
      out.push_back(message.starts_with(prefix) ? message.substr(prefix.size()) : message);
    }
    return out;
  }

  // The loaded configuration; fails the test with the problems when there are any.
  const Config& config() const {
    if (!result.has_value()) {
      for (const auto& message : result.error()) {
        UNSCOPED_INFO(message);
      }
    }
    REQUIRE(result.has_value());
    return result.value();
  }
};

// The single problem a file has.
std::string only_problem(std::string_view text) {
  Loaded loaded(text);
  const auto problems = loaded.problems();
  REQUIRE(problems.size() == 1);
  return problems.front();
}

} // namespace

TEST_CASE("an empty file loads the defaults of every key") {
  Loaded loaded("");
  CHECK(loaded.config().global == engram::config::Settings::defaults());
  CHECK(loaded.config().stores.empty());
  CHECK(loaded.config().source == loaded.file);
}

TEST_CASE("values set in the file replace the defaults and leave the other keys alone") {
  Loaded loaded(R"([guard]
working_chars = 5000
[daemon]
watcher = "poll"
full_at = ""
[plugins]
dirs = ["/opt/engram", "/usr/lib/engram"]
[rules.dedupe]
enabled = false
similarity = 0.75
)");
  const auto& global = loaded.config().global;
  CHECK(global.get_int("guard.working_chars") == 5000);
  CHECK(global.get_string("daemon.watcher") == "poll");
  CHECK(global.get_string("daemon.full_at").empty());
  CHECK(global.get_list("plugins.dirs") ==
        std::vector<std::string>{"/opt/engram", "/usr/lib/engram"});
  CHECK_FALSE(global.get_bool("rules.dedupe.enabled"));
  CHECK(global.get_real("rules.dedupe.similarity") == 0.75);
  CHECK(global.get_int("guard.working_target_chars") == 2000);
  CHECK(global.get_bool("rules.index.enabled"));
}

TEST_CASE("dotted keys at the top level are the same as keys in a table") {
  Loaded loaded("guard.working_chars = 4100\nrules.forgetting.min_uses = 5\n");
  CHECK(loaded.config().global.get_int("guard.working_chars") == 4100);
  CHECK(loaded.config().global.get_int("rules.forgetting.min_uses") == 5);
}

TEST_CASE("an integer is accepted where a real is expected") {
  Loaded loaded("[rules.dedupe]\nsimilarity = 1\n");
  CHECK(loaded.config().global.get_real("rules.dedupe.similarity") == 1.0);
}

TEST_CASE("an unknown key is reported at its line with the nearest known key") {
  CHECK(only_problem("[guard]\nworking_chars = 3000\nworking_char = 10\n") ==
        "config.toml:3: unknown key 'guard.working_char'; did you mean 'guard.working_chars'?");
}

TEST_CASE("an unknown table is reported once, with a suggestion when it is a likely typo") {
  CHECK(only_problem("\n[gaurd]\nworking_chars = 10\nmemory_lines = 3\n") ==
        "config.toml:2: unknown key 'gaurd'; did you mean 'guard'?");
}

TEST_CASE("an unknown key far from every known one gets no suggestion") {
  CHECK(only_problem("colour = \"blue\"\n") == "config.toml:1: unknown key 'colour'");
}

TEST_CASE("an unknown key in a built-in rule's table is an error") {
  CHECK(only_problem("[rules.dedupe]\nenable = false\n") ==
        "config.toml:2: unknown key 'rules.dedupe.enable'; did you mean "
        "'rules.dedupe.enabled'?");
}

TEST_CASE("a value of the wrong type is reported with both types") {
  CHECK(only_problem("[guard]\nworking_chars = \"3000\"\n") ==
        "config.toml:2: 'guard.working_chars' must be an integer, not a string");
  CHECK(only_problem("[rules.dedupe]\n\nmin_age_days = 1.5\n") ==
        "config.toml:3: 'rules.dedupe.min_age_days' must be an integer, not a real number");
  CHECK(only_problem("[plugins]\ndirs = \"/opt/engram\"\n") ==
        "config.toml:2: 'plugins.dirs' must be a list of strings, not a string");
  CHECK(only_problem("[git]\nsync = 1\n") ==
        "config.toml:2: 'git.sync' must be a boolean, not an integer");
  CHECK(only_problem("guard = 3\n") == "config.toml:1: 'guard' must be a table, not an integer");
}

TEST_CASE("a list with an item that is not a string is reported at the item") {
  CHECK(only_problem("[plugins]\ndirs = [\n  \"/a\",\n  3,\n]\n") ==
        "config.toml:4: 'plugins.dirs' must be a list of strings; item 2 is an integer");
}

TEST_CASE("a number out of its range is reported with the range") {
  CHECK(only_problem("[guard]\nworking_chars = 0\n") ==
        "config.toml:2: 'guard.working_chars' must be between 1 and 10000000, not 0");
  CHECK(only_problem("[rules.episodic-decay]\nnear_duplicate = 1.5\n") ==
        "config.toml:2: 'rules.episodic-decay.near_duplicate' must be between 0 and 1, not 1.5");
  CHECK(only_problem("scan.max_file_bytes = 2147483648\n") ==
        "config.toml:1: 'scan.max_file_bytes' must be between 1 and 1073741824, not 2147483648");
  CHECK(only_problem("decay.retention_days = 36501\n") ==
        "config.toml:1: 'decay.retention_days' must be between 1 and 36500, not 36501");
}

TEST_CASE("a word outside its key's choices is reported with the choices") {
  CHECK(only_problem("[daemon]\nwatcher = \"fanotify\"\n") ==
        "config.toml:2: 'daemon.watcher' must be \"auto\", \"inotify\", \"fsevents\" or \"poll\", "
        "not "
        "\"fanotify\"");
  CHECK(only_problem("[daemon]\nlog_level = \"verbose\"\n") ==
        "config.toml:2: 'daemon.log_level' must be \"trace\", \"debug\", \"info\", \"warn\", "
        "\"error\" or \"off\", not \"verbose\"");
}

TEST_CASE("a daily time that is not HH:MM within a day is reported") {
  for (const auto* bad : {"24:00", "2:00", "02:60", "02-00", "noon"}) {
    CAPTURE(bad);
    CHECK(only_problem(std::string("[daemon]\nfull_at = \"") + bad + "\"\n") ==
          std::string("config.toml:2: 'daemon.full_at' must be a time of day HH:MM (00:00 to "
                      "23:59) or \"\" for never, not \"") +
              bad + "\"");
  }
  Loaded loaded("daemon.full_at = \"23:59\"\n");
  CHECK(loaded.config().global.get_string("daemon.full_at") == "23:59");
}

TEST_CASE("a layout name that would leave the store or touch .git is refused") {
  for (const auto* bad : {"", ".", "..", ".git", "a/b", "/etc"}) {
    CAPTURE(bad);
    CHECK(only_problem(std::string("[layout]\nworking = \"") + bad + "\"\n") ==
          std::string("config.toml:2: 'layout.working' must be a single name inside the store "
                      "(no '/', not \"\", \".\", \"..\" or \".git\"), not \"") +
              bad + "\"");
  }
}

TEST_CASE("two layout keys with the same name are reported at the later key's line") {
  CHECK(only_problem("[layout]\nworking = \"NOTES.md\"\ncore = \"NOTES.md\"\n") ==
        "config.toml:3: 'layout.working' and 'layout.core' are both \"NOTES.md\"; each must "
        "be different");
}

TEST_CASE("a TOML syntax error is reported at its line") {
  Loaded loaded("[guard]\nworking_chars = 3000\nmemory_lines = = 4\n");
  const auto problems = loaded.problems();
  REQUIRE(problems.size() == 1);
  CHECK(problems.front().starts_with("config.toml:3: "));
}

TEST_CASE("a key defined twice is a syntax error at the second definition") {
  Loaded loaded("[guard]\nworking_chars = 3000\n\nworking_chars = 4000\n");
  const auto problems = loaded.problems();
  REQUIRE(problems.size() == 1);
  CHECK(problems.front().starts_with("config.toml:4: "));
}

TEST_CASE("a file that cannot be read is reported with the reason") {
  TempDir dir;
  const auto result = engram::config::load(dir / "missing.toml");
  REQUIRE_FALSE(result.has_value());
  REQUIRE(result.error().size() == 1);
  CHECK(result.error().front() == (dir / "missing.toml").string() +
                                      ": cannot read the configuration: No such file or directory");
}

TEST_CASE("a working target not below the guard is reported at the target's line") {
  CHECK(only_problem("[guard]\nworking_chars = 2500\nworking_target_chars = 3000\n") ==
        "config.toml:3: 'guard.working_target_chars' (3000) must be less than "
        "'guard.working_chars' (2500)");
  CHECK(only_problem("[guard]\nworking_target_chars = 3000\n") ==
        "config.toml:2: 'guard.working_target_chars' (3000) must be less than "
        "'guard.working_chars' (3000)");
}

TEST_CASE("a guard lowered below the default target is reported at the guard's line") {
  CHECK(only_problem("\n[guard]\nworking_chars = 1500\n") ==
        "config.toml:3: 'guard.working_target_chars' (2000) must be less than "
        "'guard.working_chars' (1500)");
}

TEST_CASE("every problem in a file is reported, in the order of its lines") {
  Loaded loaded(R"([guard]
working_chars = "big"
memory_lines = 0
[daemon]
watcher = "kqueue"
sttle_ms = 100
[[store]]
name = "orphan"
)");
  CHECK(loaded.problems() ==
        std::vector<std::string>{
            "config.toml:2: 'guard.working_chars' must be an integer, not a string",
            "config.toml:3: 'guard.memory_lines' must be between 1 and 1000000000, not 0",
            "config.toml:5: 'daemon.watcher' must be \"auto\", \"inotify\", \"fsevents\" or "
            "\"poll\", not "
            "\"kqueue\"",
            "config.toml:6: unknown key 'daemon.sttle_ms'; did you mean 'daemon.settle_ms'?",
            "config.toml:7: [[store]] has no 'path'",
        });
}

TEST_CASE("a store override applies to that store only") {
  Loaded loaded(R"([guard]
working_chars = 5000

[[store]]
path = "/srv/memory/a"
[store.guard]
working_chars = 4000

[[store]]
path = "/srv/memory/b"
name = "b"
rules.dedupe.similarity = 0.8
)");
  const auto& config = loaded.config();
  REQUIRE(config.stores.size() == 2);
  CHECK(config.stores[0].path == "/srv/memory/a");
  CHECK(config.stores[0].overridden == std::vector<std::string>{"guard.working_chars"});
  CHECK(config.stores[1].name == "b");
  CHECK(config.stores[1].overridden == std::vector<std::string>{"rules.dedupe.similarity"});

  const auto a = config.settings_for("/srv/memory/a");
  CHECK(a.get_int("guard.working_chars") == 4000);
  CHECK(a.get_real("rules.dedupe.similarity") == 0.6);
  const auto b = config.settings_for("/srv/memory/b/");
  CHECK(b.get_int("guard.working_chars") == 5000);
  CHECK(b.get_real("rules.dedupe.similarity") == 0.8);
  const auto other = config.settings_for("/srv/memory/c");
  CHECK(other == config.global);
}

TEST_CASE("a store override is checked like a top-level value, at its own line") {
  Loaded loaded(R"([[store]]
path = "/m"
guard.working_chars = -1
[store.daemon]
watcher = "none"
)");
  CHECK(loaded.problems() ==
        std::vector<std::string>{
            "config.toml:3: 'guard.working_chars' must be between 1 and 10000000, not -1",
            "config.toml:5: 'daemon.watcher' must be \"auto\", \"inotify\", \"fsevents\" or "
            "\"poll\", not "
            "\"none\"",
        });
}

TEST_CASE("a store whose override breaks the working target is reported at the override") {
  CHECK(only_problem("[[store]]\npath = \"/m\"\n\nguard.working_chars = 1000\n") ==
        "config.toml:4: 'guard.working_target_chars' (2000) must be less than "
        "'guard.working_chars' (1000)");
}

TEST_CASE("an unknown key in a store is reported with a suggestion") {
  CHECK(only_problem("[[store]]\npath = \"/m\"\npth = \"/n\"\n") ==
        "config.toml:3: unknown key 'pth' in [[store]]; did you mean 'path'?");
}

TEST_CASE("a daemon-wide key cannot be set per store") {
  CHECK(only_problem("[[store]]\npath = \"/m\"\nplugins.dirs = []\n") ==
        "config.toml:3: 'plugins.dirs' applies to the whole daemon; set it outside [[store]]");
}

TEST_CASE("a store without a path is reported at its [[store]] line") {
  CHECK(only_problem("[guard]\nworking_chars = 3000\n\n[[store]]\nname = \"x\"\n") ==
        "config.toml:4: [[store]] has no 'path'");
  CHECK(only_problem("[[store]]\npath = 7\n") ==
        "config.toml:2: a store's 'path' must be a string, not an integer");
  CHECK(only_problem("[[store]]\npath = \"\"\n") ==
        "config.toml:2: a store's 'path' must not be empty");
}

TEST_CASE("two stores with the same path are reported at the second path") {
  CHECK(only_problem("[[store]]\npath = \"/srv/m\"\n\n[[store]]\npath = \"/srv/./m/\"\n") ==
        "config.toml:5: store path '/srv/m' is already used by the [[store]] at line 1");
}

TEST_CASE("store written as a plain table is an error") {
  CHECK(only_problem("[store]\npath = \"/m\"\n") ==
        "config.toml:1: 'store' must be written as [[store]] tables, not a table");
}

TEST_CASE("a store path starting with ~ is expanded to the home folder") {
  const char* home = std::getenv("HOME");
  REQUIRE(home != nullptr);
  Loaded loaded("[[store]]\npath = \"~/memories/work\"\n");
  REQUIRE(loaded.config().stores.size() == 1);
  CHECK(loaded.config().stores[0].path ==
        (std::filesystem::path(home) / "memories/work").lexically_normal());
}

TEST_CASE("a relative store path is relative to the configuration file's folder") {
  Loaded loaded("[[store]]\npath = \"memory\"\n");
  REQUIRE(loaded.config().stores.size() == 1);
  CHECK(loaded.config().stores[0].path == loaded.dir / "memory");
}

TEST_CASE("a plugin rule's table is kept with the types its values have") {
  Loaded loaded(R"([rules.my-plugin-rule]
enabled = true
threshold = 3
ratio = 0.25
label = "x"
paths = ["a", "b"]
nested.depth = 2
)");
  const auto& global = loaded.config().global;
  CHECK(global.get_bool("rules.my-plugin-rule.enabled"));
  CHECK(global.get_int("rules.my-plugin-rule.threshold") == 3);
  CHECK(global.get_real("rules.my-plugin-rule.threshold") == 3.0);
  CHECK(global.get_real("rules.my-plugin-rule.ratio") == 0.25);
  CHECK(global.get_string("rules.my-plugin-rule.label") == "x");
  CHECK(global.get_list("rules.my-plugin-rule.paths") == std::vector<std::string>{"a", "b"});
  CHECK(global.get_int("rules.my-plugin-rule.nested.depth") == 2);
}

TEST_CASE("a store may override a plugin rule's key, keeping its type") {
  Loaded loaded(R"([rules.mine]
ratio = 0.5
[[store]]
path = "/m"
rules.mine.ratio = 1
)");
  const auto settings = loaded.config().settings_for("/m");
  CHECK(std::get<double>(settings.get("rules.mine.ratio")) == 1.0);

  CHECK(only_problem("[rules.mine]\nratio = 0.5\n[[store]]\npath = \"/m\"\n"
                     "rules.mine.ratio = \"high\"\n") ==
        "config.toml:5: 'rules.mine.ratio' must be a number as at the top level, not a string");
}

TEST_CASE("a plugin rule value engram cannot hold is reported") {
  CHECK(only_problem("[rules.mine]\nsince = 2024-01-01\n") ==
        "config.toml:2: 'rules.mine.since' is a date; a plugin rule's keys may be booleans, "
        "integers, numbers, strings or lists of strings");
  CHECK(only_problem("rules.mine = 3\n") ==
        "config.toml:1: 'rules.mine' must be a table of the plugin rule's settings, not an "
        "integer");
}

TEST_CASE("text loads as the file it is named after would, without reading that file") {
  const auto loaded = engram::config::load_text("[guard]\nworking_chars = 5000\n[[store]]\n"
                                                "path = \"memory\"\nnope = 1\n",
                                                "/nowhere/config.toml");
  REQUIRE_FALSE(loaded.has_value());
  REQUIRE(loaded.error().size() == 1);
  CHECK(loaded.error().front().starts_with("/nowhere/config.toml:5: "));
  const auto good = engram::config::load_text("[[store]]\npath = \"memory\"\n", "/nowhere/c.toml");
  REQUIRE(good.has_value());
  CHECK(good->stores.at(0).path == "/nowhere/memory");
}
