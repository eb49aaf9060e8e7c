// The key table: its defaults, its shape, and the look-ups over it.
#include "config/config.hpp"
#include "config/key_table.hpp"

#include <catch2/catch.hpp>
#include <set>
#include <string>

using namespace engram::config;

TEST_CASE("the defaults are the values the design gives") {
  const Settings settings = Settings::defaults();
  CHECK(settings.get_string("layout.memory_index") == "MEMORY.md");
  CHECK(settings.get_string("layout.state") == ".engram");
  CHECK(settings.get_int("guard.working_chars") == 3000);
  CHECK(settings.get_int("guard.working_target_chars") == 2000);
  CHECK(settings.get_int("guard.memory_lines") == 200);
  CHECK(settings.get_int("guard.memory_line_chars") == 150);
  CHECK(settings.get_int("guard.core_chars") == 2000);
  CHECK(settings.get_int("guard.core_block_chars") == 500);
  CHECK(settings.get_int("guard.deep_truths") == 10);
  CHECK(settings.get_int("scan.max_file_bytes") == 1048576);
  CHECK(settings.get_int("decay.retention_days") == 90);
  CHECK(settings.get_string("git.agent_name") == "agent");
  CHECK_FALSE(settings.get_bool("git.sync"));
  CHECK(settings.get_int("daemon.settle_ms") == 500);
  CHECK(settings.get_int("daemon.max_wait_ms") == 10000);
  CHECK(settings.get_string("daemon.full_at") == "02:00");
  CHECK(settings.get_string("daemon.watcher") == "auto");
  CHECK(settings.get_string("daemon.log_level") == "info");
  CHECK(settings.get_list("plugins.dirs").empty());
  CHECK(settings.get_real("rules.episodic-decay.near_duplicate") == 0.9);
  CHECK(settings.get_real("rules.dedupe.similarity") == 0.6);
  CHECK(settings.get_int("rules.forgetting.unused_days") == 90);
  CHECK(settings.get_real("rules.forgetting.min_helpful") == 0.3);
  CHECK_FALSE(settings.get_bool("rules.forgetting.include_confirmed"));
  CHECK(settings.get_int("rules.promotion.min_uses") == 15);
  CHECK(settings.get_real("rules.promotion.min_helpful") == 0.85);
}

TEST_CASE("the defaults hold exactly the keys of the table, each with its type") {
  const Settings settings = Settings::defaults();
  CHECK(settings.values().size() == k_config_key_table.size());
  for (const auto& key : k_config_key_table) {
    CAPTURE(key.name);
    REQUIRE(settings.contains(key.name));
    CHECK(type_of(settings.get(key.name)) == key.type);
    CHECK(settings.get(key.name) == key.default_value);
  }
}

TEST_CASE("every default passes its own key's checks") {
  for (const auto& key : k_config_key_table) {
    CAPTURE(key.name);
    CHECK(type_of(key.default_value) == key.type);
    CHECK_FALSE(check_value(key, key.default_value).has_value());
    CHECK_FALSE(key.help.empty());
  }
}

TEST_CASE("every key belongs to a documented table and each table's keys are together") {
  std::set<std::string_view> finished;
  std::string_view current;
  for (const auto& key : k_config_key_table) {
    CAPTURE(key.name);
    const auto table = table_of(key.name);
    CHECK(std::any_of(k_config_tables.begin(), k_config_tables.end(),
                      [&](const TableHelp& help) { return help.name == table; }));
    if (table != current) {
      CHECK_FALSE(finished.contains(table));
      finished.insert(current);
      current = table;
    }
  }
}

TEST_CASE("every built-in rule has a table with an enabled switch") {
  for (const auto rule : k_builtin_rules) {
    CAPTURE(rule);
    const Key* enabled = find_key(std::string("rules.") + std::string(rule) + ".enabled");
    REQUIRE(enabled != nullptr);
    CHECK(enabled->type == Type::boolean);
  }
}

TEST_CASE("plugin rule keys are told apart from built-in ones") {
  CHECK(is_plugin_rule_key("rules.my-rule.threshold"));
  CHECK(is_plugin_rule_key("rules.my-rule.nested.depth"));
  CHECK_FALSE(is_plugin_rule_key("rules.dedupe.similarity"));
  CHECK_FALSE(is_plugin_rule_key("rules.my-rule"));
  CHECK_FALSE(is_plugin_rule_key("guard.working_chars"));
  CHECK(is_key_table_prefix("rules"));
  CHECK(is_key_table_prefix("rules.dedupe"));
  CHECK_FALSE(is_key_table_prefix("rules.my-rule"));
  CHECK_FALSE(is_key_table_prefix("guard.working_chars"));
}

TEST_CASE("a near miss suggests the key it was meant to be, a far one nothing") {
  CHECK(nearest_name("guard.working_char") == "guard.working_chars");
  CHECK(nearest_name("gaurd") == "guard");
  CHECK(nearest_name("daemon.wacther") == "daemon.watcher");
  CHECK(nearest_name("pth", {"path", "name"}) == "path");
  CHECK_FALSE(nearest_name("colour").has_value());
  CHECK_FALSE(nearest_name("guard.something_else").has_value());
}
