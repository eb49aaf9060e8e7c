// `engram plugins`: what is loaded, from where, with which versions, and what
// was refused and why — the built-in rules and the configured folders alike.
#include "lib/paused_run.hpp"
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <engram/rule.hpp>
#include <nlohmann/json.hpp>
#include <unistd.h>

namespace fs = std::filesystem;
using engram::test::Sandbox;
using engram::test::write_file;

namespace {

// A folder of copies of the named test plugins with `mode`, and a config naming it.
fs::path plugin_config(const Sandbox& sandbox, const std::vector<std::string>& plugins,
                       fs::perms mode = fs::perms::owner_all | fs::perms::group_read |
                                        fs::perms::group_exec | fs::perms::others_read |
                                        fs::perms::others_exec) {
  const fs::path folder = sandbox.work("plugins");
  fs::create_directories(folder);
  for (const auto& name : plugins) {
    fs::copy_file(fs::path(ENGRAM_TEST_PLUGIN_DIR) / (name + ".so"), folder / (name + ".so"));
  }
  fs::permissions(folder, mode);
  const fs::path config = sandbox.work("config.toml");
  write_file(config, "[plugins]\ndirs = [\"" + folder.string() + "\"]\n");
  return config;
}

// The entry of `list` whose `key` is `value`, or null.
nlohmann::json find(const nlohmann::json& list, const std::string& key, const std::string& value) {
  for (const auto& item : list) {
    if (item[key].get<std::string>().find(value) != std::string::npos) {
      return item;
    }
  }
  return nullptr;
}

} // namespace

TEST_CASE("plugins lists the built-in rules with phase, versions and the file they came from") {
  const Sandbox sandbox;
  const auto result = sandbox.engram({"plugins", "--json"});
  INFO(result.err);
  CHECK(result.exit_code == 0);
  const auto listing = nlohmann::json::parse(result.out);
  CHECK(listing["refused"].empty());
  const std::vector<std::pair<std::string, std::string>> builtins{
      {"working-memory", "guard"}, {"episodic-decay", "decay"}, {"index", "index"}};
  for (const auto& [name, phase] : builtins) {
    INFO(name);
    const auto rule = find(listing["rules"], "name", name);
    REQUIRE_FALSE(rule.is_null());
    CHECK(rule["phase"] == phase);
    CHECK(rule["sdk"] == engram::k_sdk_version);
    CHECK_FALSE(rule["version"].get<std::string>().empty());
    CHECK_FALSE(rule["description"].get<std::string>().empty());
    const fs::path path = rule["path"].get<std::string>();
    CHECK(fs::is_regular_file(path));
    CHECK(path.parent_path() == fs::path(ENGRAM_BUILD_DIR) / "lib" / "engram" / "rules");
  }
  CHECK(find(listing["rules"], "name", "episodic-decay")["lightweight"] == false);
  CHECK(find(listing["rules"], "name", "index")["lightweight"] == true);

  const auto text = sandbox.engram({"plugins"});
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("episodic-decay 0.1.0 (decay phase, full runs only"));
}

TEST_CASE("plugins loads a configured folder and says why each bad file was refused") {
  const Sandbox sandbox;
  const fs::path config = plugin_config(
      sandbox, {"good", "wrong-abi", "other-sdk", "no-factory", "not-a-plugin", "factory-throws"});
  const auto result = sandbox.engram({"--config", config.string(), "plugins", "--json"});
  INFO(result.out);
  CHECK(result.exit_code == 1);
  const auto listing = nlohmann::json::parse(result.out);
  const auto good = find(listing["rules"], "name", "good");
  REQUIRE_FALSE(good.is_null());
  CHECK(good["version"] == "1.2.3");
  CHECK(good["path"] == (sandbox.work("plugins") / "good.so").string());
  const std::vector<std::pair<std::string, std::string>> refusals{
      {"wrong-abi.so", "ABI"},
      {"other-sdk.so", "SDK"},
      {"no-factory.so", "engram_plugin_create"},
      {"not-a-plugin.so", "not an engram rule plugin"},
      {"factory-throws.so", "threw"},
  };
  for (const auto& [file, reason] : refusals) {
    INFO(file);
    const auto refused = find(listing["refused"], "path", file);
    REQUIRE_FALSE(refused.is_null());
    CHECK_THAT(refused["reason"].get<std::string>(), Catch::Contains(reason));
  }
  CHECK(listing["folders"].size() == 2);

  const auto text = sandbox.engram({"--config", config.string(), "plugins"});
  CHECK_THAT(text.out, Catch::Contains("Refused (5):"));
  CHECK_THAT(text.out, Catch::Contains("good 1.2.3 (merge phase"));
}

TEST_CASE("a plugin folder other users can write is refused as a whole") {
  const Sandbox sandbox;
  const fs::path config = plugin_config(sandbox, {"good"}, fs::perms::all);
  const auto result = sandbox.engram({"--config", config.string(), "plugins", "--json"});
  CHECK(result.exit_code == 1);
  const auto listing = nlohmann::json::parse(result.out);
  CHECK(find(listing["rules"], "name", "good").is_null());
  const auto refused = find(listing["refused"], "path", "plugins");
  REQUIRE_FALSE(refused.is_null());
  CHECK_THAT(refused["reason"].get<std::string>(), Catch::Contains("writable by other users"));
}

TEST_CASE("a plugin of another user, or in another user's folder, is refused") {
  if (::geteuid() != 0) {
    WARN("not root: files of another user cannot be made here; not tested");
    return;
  }
  const Sandbox sandbox;
  const fs::path config = plugin_config(sandbox, {"good", "throws-on-run"});
  const fs::path folder = sandbox.work("plugins");
  // The file first, then (in a second look) the whole folder.
  REQUIRE(::chown((folder / "good.so").c_str(), 65534, 65534) == 0);
  auto result = sandbox.engram({"--config", config.string(), "plugins", "--json"});
  CHECK(result.exit_code == 1);
  auto listing = nlohmann::json::parse(result.out);
  CHECK_FALSE(find(listing["rules"], "name", "throws-on-run").is_null()); // its own user's
  CHECK(find(listing["rules"], "name", "good").is_null());
  auto refused = find(listing["refused"], "path", "/good.so");
  REQUIRE_FALSE(refused.is_null());
  CHECK_THAT(refused["reason"].get<std::string>(),
             Catch::Contains("belongs to another user (uid 65534)"));

  REQUIRE(::chown(folder.c_str(), 65534, 65534) == 0);
  result = sandbox.engram({"--config", config.string(), "plugins", "--json"});
  CHECK(result.exit_code == 1);
  listing = nlohmann::json::parse(result.out);
  CHECK(find(listing["rules"], "name", "throws-on-run").is_null());
  refused = find(listing["refused"], "path", "plugins");
  REQUIRE_FALSE(refused.is_null());
  CHECK_THAT(refused["reason"].get<std::string>(),
             Catch::Contains("belongs to another user (uid 65534)"));
}

TEST_CASE("a plugin cannot take a built-in rule's name") {
  const Sandbox sandbox;
  const fs::path folder = sandbox.work("plugins");
  fs::create_directories(folder);
  fs::copy_file(fs::path(ENGRAM_BUILD_DIR) / "lib" / "engram" / "rules" / "index.so",
                folder / "my-index.so");
  const fs::path config = sandbox.work("config.toml");
  write_file(config, "[plugins]\ndirs = [\"" + folder.string() + "\"]\n");
  const auto result = sandbox.engram({"--config", config.string(), "plugins", "--json"});
  const auto listing = nlohmann::json::parse(result.out);
  const auto refused = find(listing["refused"], "path", "my-index.so");
  REQUIRE_FALSE(refused.is_null());
  CHECK_THAT(refused["reason"].get<std::string>(), Catch::Contains("already loaded"));
}

TEST_CASE("a plugin folder under a folder others can write, or reached through a link in one, "
          "is refused") {
  const Sandbox sandbox;
  const fs::path config = plugin_config(sandbox, {"good"});
  const fs::path folder = sandbox.work("plugins");
  // Moved under a parent anyone can write (and that is not sticky): anyone
  // could rename the folder away and put another in its place.
  const fs::path open_parent = sandbox.work("shared");
  fs::create_directories(open_parent);
  fs::permissions(open_parent, fs::perms::all);
  fs::rename(folder, open_parent / "plugins");
  write_file(config, "[plugins]\ndirs = [\"" + (open_parent / "plugins").string() + "\"]\n");
  auto listing = nlohmann::json::parse(
      sandbox.engram({"--config", config.string(), "plugins", "--json"}).out);
  CHECK(find(listing["rules"], "name", "good").is_null());
  auto refused = find(listing["refused"], "path", "plugins");
  REQUIRE_FALSE(refused.is_null());
  CHECK_THAT(refused["reason"].get<std::string>(),
             Catch::Contains("a folder on its way") && Catch::Contains("shared"));

  // Back in a safe place, but named through a link that sits in the open folder.
  fs::rename(open_parent / "plugins", folder);
  fs::create_directory_symlink(folder, open_parent / "link");
  write_file(config, "[plugins]\ndirs = [\"" + (open_parent / "link").string() + "\"]\n");
  listing = nlohmann::json::parse(
      sandbox.engram({"--config", config.string(), "plugins", "--json"}).out);
  CHECK(find(listing["rules"], "name", "good").is_null());
  refused = find(listing["refused"], "path", "link");
  REQUIRE_FALSE(refused.is_null());
  CHECK_THAT(refused["reason"].get<std::string>(), Catch::Contains("shared"));
}

TEST_CASE("a plugin file swapped after it was checked is not what is loaded") {
  const Sandbox sandbox;
  const fs::path config = plugin_config(sandbox, {"good"});
  const fs::path folder = sandbox.work("plugins");
  fs::copy_file(fs::path(ENGRAM_TEST_PLUGIN_DIR) / "throws-on-run.so", sandbox.work("swap.so"));
  engram::test::Run listing(sandbox, "plugins", {"--config", config.string(), "plugins", "--json"},
                            "plugin-checked-good.so");
  REQUIRE(listing.wait_paused());
  fs::rename(sandbox.work("swap.so"), folder / "good.so"); // another file under the checked name
  listing.resume();
  const auto done = listing.finish();
  INFO(done.out << done.err);
  const auto loaded = nlohmann::json::parse(done.out);
  CHECK_FALSE(find(loaded["rules"], "name", "good").is_null()); // the checked file's rule
  CHECK(find(loaded["rules"], "name", "throws-on-run").is_null());
}
