// The plugin host: what it loads, what it refuses and with what reason, and
// the order it tears down in. The plugins are the libraries tests/plugins
// builds, copied into a private folder with mode 0755 first, so the build's
// umask cannot decide what a test sees.
#include "lib/temp_dir.hpp"
#include "plugins/host.hpp"

#include <catch2/catch.hpp>
#include <dlfcn.h>
#include <fmt/format.h>
#include <initializer_list>
#include <map>
#include <unistd.h>

namespace fs = std::filesystem;
using engram::plugins::Host;
using engram::test::TempDir;

namespace {

// The StoreView a rule sees, reduced to a map of files, settings and the actions recorded.
class FakeStore final : public engram::StoreView {
public:
  std::map<std::string, std::string, std::less<>> contents;     // path -> bytes
  std::map<std::string, engram::Setting, std::less<>> settings; // key -> value
  std::vector<engram::Action> actions;                          // what rules recorded

  // StoreView: files, settings and records work; the rest answer "nothing".
  engram::Date today() const override { return engram::Date(2026, 11, 22); }
  engram::RunKind run_kind() const override { return engram::RunKind::full; }
  std::string store_name() const override { return "fake"; }
  std::optional<engram::Setting> setting(std::string_view key) const override {
    const auto it = settings.find(key);
    return it == settings.end() ? std::nullopt : std::optional<engram::Setting>(it->second);
  }
  std::string layer_path(engram::Layer layer) const override {
    return layer == engram::Layer::working ? "WORKING.md" : "semantic";
  }
  std::vector<std::string> files(engram::Layer) const override { return {}; }
  bool exists(std::string_view path) const override { return contents.contains(path); }
  bool held(std::string_view) const override { return false; }
  std::string read(std::string_view path) const override {
    const auto it = contents.find(path);
    return it == contents.end() ? std::string() : it->second;
  }
  const std::string& body(std::string_view path) const override {
    static const std::string k_none;
    const auto it = contents.find(path);
    return it == contents.end() ? k_none : it->second;
  }
  std::optional<std::string> field(std::string_view, std::string_view) const override { return {}; }
  std::vector<std::string> list(std::string_view, std::string_view) const override { return {}; }
  std::optional<engram::Date> decay_date(std::string_view) const override { return {}; }
  void write(std::string_view path, std::string bytes) override {
    contents[std::string(path)] = std::move(bytes);
  }
  void set_field(std::string_view, std::string_view, std::string_view) override {}
  void set_list(std::string_view, std::string_view, const std::vector<std::string>&) override {}
  void set_body(std::string_view path, std::string body) override { write(path, std::move(body)); }
  void remove(std::string_view path) override { contents.erase(std::string(path)); }
  void record(engram::Action action) override { actions.push_back(std::move(action)); }
  void diagnose(std::string_view, int, std::string) override {}
  const engram::Language& language() const override { return m_language; }

private:
  // Language: no claims, every text factual and distinct, names as given.
  class FakeLanguage final : public engram::Language {
  public:
    std::vector<engram::Claim> claims(std::string_view) const override { return {}; }
    engram::ClaimKind classify(std::string_view) const override {
      return engram::ClaimKind::factual;
    }
    engram::Relation compare(std::string_view, std::string_view) const override {
      return engram::Relation::distinct;
    }
    std::string normalise(std::string_view text) const override { return std::string(text); }
    std::string canonical_tag(std::string_view tag) const override { return std::string(tag); }
    std::string slug(std::string_view text) const override { return std::string(text); }
  };
  FakeLanguage m_language;
};

// Copies the named test plugins into `folder` (created if needed) as `<name>.so`, mode 0755.
void install(const fs::path& folder, std::initializer_list<std::string_view> names) {
  fs::create_directories(folder);
  for (const auto name : names) {
    const auto file = std::string(name) + ".so";
    fs::copy_file(fs::path(ENGRAM_TEST_PLUGIN_DIR) / file, folder / file,
                  fs::copy_options::overwrite_existing);
    fs::permissions(folder / file, fs::perms(0755));
  }
}

// The reason `path` was refused, or "(not refused)".
std::string refusal(const Host& host, const fs::path& path) {
  for (const auto& refused : host.refused()) {
    if (refused.path == path.string()) {
      return refused.reason;
    }
  }
  return "(not refused)";
}

// Loads a folder holding only the named plugin and returns why it was refused.
std::string refusal_of(std::string_view name) {
  const TempDir dir;
  install(dir.path(), {name});
  Host host;
  host.load_folder(dir.path());
  CHECK(host.loaded().empty());
  return refusal(host, dir / (std::string(name) + ".so"));
}

// True while the library at `path` is mapped into this process.
bool is_loaded(const fs::path& path) {
  void* handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD);
  if (handle != nullptr) {
    ::dlclose(handle);
  }
  return handle != nullptr;
}

} // namespace

TEST_CASE("a good plugin loads with its name, phase, version and path, and its rule runs") {
  const TempDir dir;
  install(dir.path(), {"good"});
  Host host;
  host.load_folder(dir.path());

  CHECK(host.refused().empty());
  const auto loaded = host.loaded();
  REQUIRE(loaded.size() == 1);
  CHECK(loaded[0].name == "good");
  CHECK(loaded[0].phase == engram::Phase::merge);
  CHECK(loaded[0].version == "1.2.3");
  CHECK(loaded[0].sdk_version == engram::k_sdk_version);
  CHECK(loaded[0].description == "a test rule that writes semantic/good.md");
  CHECK(loaded[0].path == (dir / "good.so").string());
  CHECK_FALSE(loaded[0].lightweight);

  const auto slots = host.slots();
  REQUIRE(slots.size() == 1);
  CHECK(slots[0].name == "good");
  CHECK(slots[0].phase == engram::Phase::merge);
  REQUIRE(slots[0].rule != nullptr);
  FakeStore store;
  slots[0].rule->run(store);
  CHECK(store.read("semantic/good.md") == "Written by the good test rule on 2026-11-22.\n");
  REQUIRE(store.actions.size() == 1);
  CHECK(store.actions[0].action == "wrote");
  CHECK(store.actions[0].target == "semantic/good.md");
}

TEST_CASE("a plugin built for a newer rule ABI is refused with a reason naming both ABIs") {
  const auto reason = refusal_of("wrong-abi");
  CHECK(reason == "built for rule ABI " + std::to_string(engram::k_abi_version + 1) +
                      ", engram has rule ABI " + std::to_string(engram::k_abi_version) +
                      " (SDK " + engram::k_sdk_version + "): it needs a newer engram");
}

TEST_CASE("a plugin built with an SDK before 1.0 is refused, its descriptor read no further") {
  CHECK(refusal_of("before-1.0") ==
        std::string("built with an SDK before 1.0 (rule ABI 13), engram has SDK ") +
            engram::k_sdk_version + " (rule ABI " + std::to_string(engram::k_abi_version) +
            "): rebuild it against this SDK");
}

TEST_CASE("a plugin built with a newer minor SDK version is refused with both versions") {
  const auto minor = std::to_string(engram::k_sdk_minor);
  const auto major = std::to_string(engram::k_sdk_major);
  CHECK(refusal_of("other-sdk") ==
        "built with SDK " + major + "." + std::to_string(engram::k_sdk_minor + 1) +
            ", engram has SDK " + engram::k_sdk_version + " and loads plugins built with SDK " +
            major + ".0 to " + major + "." + minor);
}

TEST_CASE("a plugin built with another major SDK version is refused with both versions") {
  const auto major = std::to_string(engram::k_sdk_major);
  CHECK(refusal_of("other-major") ==
        "built with SDK " + std::to_string(engram::k_sdk_major + 1) + ".0, engram has SDK " +
            engram::k_sdk_version + " and loads plugins built with SDK " + major + ".0 to " +
            major + "." + std::to_string(engram::k_sdk_minor));
}

TEST_CASE("a plugin without a factory is refused with a reason naming the missing symbol") {
  CHECK(refusal_of("no-factory") == "no engram_plugin_create symbol");
}

TEST_CASE("a shared library without engram symbols is refused as not a plugin") {
  CHECK(refusal_of("not-a-plugin") ==
        "no engram_plugin_descriptor symbol: not an engram rule plugin");
}

TEST_CASE("a plugin whose factory throws is refused with the exception's message") {
  CHECK(refusal_of("factory-throws") == "its factory threw: factory-throws has no configuration");
}

TEST_CASE("a file that is not a loadable library is refused with the loader's reason") {
  const TempDir dir;
  engram::test::write_file(dir / "broken.so", std::string(4096, '#'));
  fs::permissions(dir / "broken.so", fs::perms(0644));
  Host host;
  host.load_folder(dir.path());
  CHECK(host.loaded().empty());
  // The loader's own words, not Boost.DLL's generic "Bad file descriptor".
  CHECK(refusal(host, dir / "broken.so") ==
        "cannot be loaded: " + (dir / "broken.so").string() + ": invalid ELF header");
}

TEST_CASE(
    "bad plugins do not stop the good ones in the same folder, and every reason is one line") {
  const TempDir dir;
  install(dir.path(), {"good", "wrong-abi", "other-sdk", "no-factory", "not-a-plugin",
                       "factory-throws", "throws-on-run"});
  engram::test::write_file(dir / "README.md", "Files that are not libraries are not plugins.\n");
  Host host;
  host.load_folder(dir.path());

  std::vector<std::string> names;
  for (const auto& plugin : host.loaded()) {
    names.push_back(plugin.name);
  }
  CHECK(names == std::vector<std::string>{"good", "throws-on-run"});
  CHECK(host.refused().size() == 5);
  for (const auto& refused : host.refused()) {
    INFO(refused.path << ": " << refused.reason);
    CHECK(refused.path.ends_with(".so"));
    CHECK_FALSE(refused.reason.empty());
    CHECK(refused.reason.find('\n') == std::string::npos);
  }
}

TEST_CASE("a plugin whose run throws loads, and its exception reaches the caller") {
  const TempDir dir;
  install(dir.path(), {"throws-on-run"});
  Host host;
  host.load_folder(dir.path());
  const auto slots = host.slots();
  REQUIRE(slots.size() == 1);
  CHECK(slots[0].name == "throws-on-run");
  CHECK(slots[0].lightweight);
  FakeStore store;
  CHECK_THROWS_WITH(slots[0].rule->run(store), "throws-on-run always throws");
}

TEST_CASE("a plugin file that other users can write is refused") {
  const TempDir dir;
  install(dir.path(), {"good"});
  const auto mode = GENERATE(0775, 0757, 0777);
  fs::permissions(dir / "good.so", fs::perms(mode));
  Host host;
  host.load_folder(dir.path());
  CHECK(host.loaded().empty());
  CHECK(refusal(host, dir / "good.so") ==
        fmt::format("{} is writable by other users (mode {:o})", (dir / "good.so").string(), mode));
}

TEST_CASE("a plugin folder that other users can write is refused, and nothing in it is loaded") {
  const TempDir dir;
  const auto folder = dir / "plugins";
  install(folder, {"good"});
  fs::permissions(folder, fs::perms(0777));
  Host host;
  host.load_folder(folder);
  CHECK(host.loaded().empty());
  REQUIRE(host.refused().size() == 1);
  CHECK(host.refused()[0].path == folder.string());
  CHECK(host.refused()[0].reason ==
        "folder refused: " + folder.string() + " is writable by other users (mode 777)");
}

TEST_CASE(
    "a second plugin with a rule name already loaded is refused, naming the first one's path") {
  const TempDir dir;
  install(dir / "first", {"good"});
  install(dir / "second", {"good"});
  Host host;
  host.load_folder(dir / "first");
  host.load_folder(dir / "second");
  REQUIRE(host.loaded().size() == 1);
  CHECK(host.loaded()[0].path == (dir / "first" / "good.so").string());
  CHECK(refusal(host, dir / "second" / "good.so") ==
        "rule 'good' is already loaded from " + (dir / "first" / "good.so").string());
}

TEST_CASE("a plugin folder that does not exist is reported") {
  const TempDir dir;
  Host host;
  host.load_folder(dir / "missing");
  CHECK(host.loaded().empty());
  CHECK(refusal(host, dir / "missing") == "folder does not exist");
}

TEST_CASE("a plugin folder that is a file is reported") {
  const TempDir dir;
  engram::test::write_file(dir / "plugins", "");
  Host host;
  host.load_folder(dir / "plugins");
  CHECK(refusal(host, dir / "plugins") == "not a folder");
}

TEST_CASE("the host destroys each rule before it unloads the rule's library") {
  const TempDir dir;
  install(dir.path(), {"good"});
  const auto trace = dir / "trace";
  {
    Host host;
    host.load_folder(dir.path());
    REQUIRE(is_loaded(dir / "good.so"));
    FakeStore store;
    store.settings["trace_file"] = trace.string();
    REQUIRE(host.slots().size() == 1);
    host.slots()[0].rule->run(store);
  }
  // The library's statics are destroyed (and trace) only when it really unloads.
  CHECK_FALSE(is_loaded(dir / "good.so"));
  CHECK(engram::test::read_file(trace) == "run\nrule destroyed\nlibrary unloaded\n");
}

TEST_CASE("a refused plugin's library is unloaded at once, not kept until the host goes") {
  const TempDir dir;
  install(dir.path(), {"wrong-abi"});
  Host host;
  host.load_folder(dir.path());
  CHECK(host.loaded().empty());
  CHECK_FALSE(is_loaded(dir / "wrong-abi.so"));
}

TEST_CASE("a file and folder only their owner can write are safe to load from") {
  const TempDir dir;
  install(dir.path(), {"good"});
  CHECK(engram::plugins::unsafe_reason(dir.path()).empty());
  CHECK(engram::plugins::unsafe_reason(dir / "good.so").empty());
  CHECK(engram::plugins::unsafe_reason(dir / "missing.so") == "cannot be read");
}

TEST_CASE("a plugin file owned by another user is refused") {
  if (::geteuid() != 0) {
    WARN("not root: a file of another user cannot be made here; not tested");
    return;
  }
  const TempDir dir;
  install(dir.path(), {"good"});
  REQUIRE(::chown((dir / "good.so").c_str(), 65534, 65534) == 0);
  Host host;
  host.load_folder(dir.path());
  CHECK(host.loaded().empty());
  CHECK(refusal(host, dir / "good.so") ==
        (dir / "good.so").string() + " belongs to another user (uid 65534)");
}

TEST_CASE("a plugin folder owned by another user is refused, and nothing in it is loaded") {
  if (::geteuid() != 0) {
    WARN("not root: a folder of another user cannot be made here; not tested");
    return;
  }
  const TempDir dir;
  const auto folder = dir / "plugins";
  install(folder, {"good"});
  REQUIRE(::chown(folder.c_str(), 65534, 65534) == 0);
  Host host;
  host.load_folder(folder);
  CHECK(host.loaded().empty());
  REQUIRE(host.refused().size() == 1);
  CHECK(host.refused()[0].reason ==
        "folder refused: " + folder.string() + " belongs to another user (uid 65534)");
}
