// The Debian package (cmake/Package.cmake) and `make uninstall`. The package
// is made by CPack from this build, which installs what the release
// package installs; it must hold the binary, the rules, the SDK, the man
// pages, the completions and the service files, and the binary extracted
// from it must run a consolidation with the rules extracted beside it.
#include "lib/process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <engram_version.hpp>

namespace fs = std::filesystem;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::write_file;

namespace {

const fs::path k_build = ENGRAM_BUILD_DIR;

// Makes the package with CPack into `folder` and returns its path.
fs::path make_package(const fs::path& folder) {
  const auto packed =
      engram::test::run({"cpack", "--config", (k_build / "CPackConfig.cmake").string(), "-G", "DEB",
                         "-B", folder.string()});
  INFO(packed.out);
  INFO(packed.err);
  REQUIRE(packed.exit_code == 0);
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".deb") {
      return entry.path();
    }
  }
  FAIL("cpack wrote no .deb into " << folder);
  return {};
}

// The paths `dpkg-deb --contents` lists (`./usr/bin/engram`), without folders.
std::vector<std::string> contents(const fs::path& package) {
  const auto listed = engram::test::run({"dpkg-deb", "--contents", package.string()});
  REQUIRE(listed.exit_code == 0);
  std::vector<std::string> paths;
  for (const auto& line : listed.out_lines()) {
    // `-rwxr-xr-x root/root 123 2024-01-01 00:00 ./usr/bin/engram`
    const auto path = line.substr(line.find(" ./") + 1);
    if (!line.starts_with("d")) {
      paths.push_back(path.substr(0, path.find(" -> ")));
    }
  }
  return paths;
}

// Every file the package must hold, each rule and SDK header from this build and source.
std::vector<std::string> expected_files() {
  std::vector<std::string> files{"./usr/bin/engram",
                                 "./usr/share/man/man1/engram.1.gz",
                                 "./usr/share/man/man5/engram.toml.5.gz",
                                 "./usr/share/bash-completion/completions/engram",
                                 "./usr/share/zsh/vendor-completions/_engram",
                                 "./usr/share/fish/vendor_completions.d/engram.fish",
                                 "./usr/lib/systemd/user/engram.service",
                                 "./usr/share/engram/launchd/io.engram.daemon.plist",
                                 "./usr/lib/cmake/engram/engramConfig.cmake"};
  for (const auto& rule : fs::directory_iterator(k_build / "lib" / "engram" / "rules")) {
    files.push_back("./usr/lib/engram/rules/" + rule.path().filename().string());
  }
  for (const auto& header :
       fs::directory_iterator(fs::path(ENGRAM_SOURCE_DIR) / "include" / "engram")) {
    files.push_back("./usr/include/engram/" + header.path().filename().string());
  }
  return files;
}

} // namespace

TEST_CASE(
    "the package holds what is installed, and its engram runs a consolidation with its rules") {
  const Sandbox sandbox;
  const fs::path package = make_package(sandbox.work("package"));
  const auto info = engram::test::run({"dpkg-deb", "--info", package.string()});
  REQUIRE(info.exit_code == 0);
  CHECK_THAT(info.out, Catch::Contains("Package: engram\n"));
  CHECK_THAT(info.out, Catch::Contains(std::string("Version: ") + engram::k_version + "\n"));
  CHECK_THAT(info.out,
             Catch::Contains("Depends: ") && Catch::Contains("libgit2") && Catch::Contains("git"));

  const auto files = contents(package);
  for (const auto& file : expected_files()) {
    INFO(file);
    CHECK(std::find(files.begin(), files.end(), file) != files.end());
  }
  // Nothing of the tests or the build tree comes along.
  for (const auto& file : files) {
    INFO(file);
    CHECK(file.starts_with("./usr/"));
    CHECK(file.find("test") == std::string::npos);
  }

  const fs::path root = sandbox.work("root");
  REQUIRE(engram::test::run({"dpkg-deb", "-x", package.string(), root.string()}).exit_code == 0);
  const std::string engram = (root / "usr" / "bin" / "engram").string();
  const auto version = engram::test::run({engram, "--version"}, sandbox.environment());
  CHECK(version.exit_code == 0);
  CHECK(version.out == std::string("engram ") + engram::k_version + "\n");
  // The unit starts the packaged binary where the package puts it.
  CHECK_THAT(read_file(root / "usr" / "lib" / "systemd" / "user" / "engram.service"),
             Catch::Contains("ExecStart=/usr/bin/engram daemon\n"));

  // A consolidation by the extracted binary, with the rules extracted beside it.
  const fs::path store = sandbox.work("store");
  const auto environment = sandbox.engram_environment();
  REQUIRE(engram::test::run({engram, "init", store.string()}, environment).exit_code == 0);
  write_file(
      store / "episodic" / "2026-05-04-order-sync.md",
      engram::test::episodic_memory({"shopify", "sync"}, "2026-05-04", "2026-08-02",
                                    "- The nightly order sync timed out after 30 minutes.\n"));
  const auto run = engram::test::run(
      {engram, "consolidate", "--store", store.string(), "--now", "2026-11-22"}, environment);
  INFO(run.out);
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK_FALSE(fs::exists(store / "episodic" / "2026-05-04-order-sync.md"));
  const auto rules =
      sandbox.git(store, {"log", "-1", "--format=%(trailers:key=Engram-Rules,valueonly)"});
  CHECK_THAT(rules.out, Catch::Contains("episodic-decay") && Catch::Contains("working-memory"));
  const auto plugins = engram::test::run({engram, "plugins"}, environment);
  CHECK_THAT(plugins.out, Catch::Contains((root / "usr" / "lib" / "engram" / "rules").string()));
}

TEST_CASE("make uninstall removes what cmake --install put in place, and nothing else") {
  const Sandbox sandbox;
  const fs::path prefix = sandbox.work("prefix");
  // A file of someone else's in a folder the install shares.
  write_file(prefix / "share" / "man" / "man1" / "other.1", ".TH OTHER 1\n");
  // The one component every install rule is in: its manifest has a name of
  // its own, so installs of this build by other tests at the same time do
  // not rewrite the list this test uninstalls.
  const auto installed = engram::test::run({"cmake", "--install", k_build.string(), "--prefix",
                                            prefix.string(), "--component", "Unspecified"});
  INFO(installed.err);
  REQUIRE(installed.exit_code == 0);
  const fs::path manifest = k_build / "install_manifest_Unspecified.txt";
  REQUIRE(fs::is_regular_file(prefix / "bin" / "engram"));
  REQUIRE(fs::is_regular_file(prefix / "share" / "man" / "man1" / "engram.1.gz"));

  const auto removed = engram::test::run(
      {"make", "-C", ENGRAM_SOURCE_DIR, "uninstall", "INSTALL_MANIFEST=" + manifest.string()});
  INFO(removed.out);
  INFO(removed.err);
  REQUIRE(removed.exit_code == 0);
  std::vector<std::string> left;
  for (const auto& entry : fs::recursive_directory_iterator(prefix)) {
    if (!entry.is_directory() || entry.path().filename() == "engram") {
      left.push_back(fs::relative(entry.path(), prefix).string());
    }
  }
  CHECK(left == std::vector<std::string>{"share/man/man1/other.1"});
  // Nothing installed, nothing to remove: a clear failure.
  const auto again = engram::test::run({"make", "-C", ENGRAM_SOURCE_DIR, "uninstall",
                                        "INSTALL_MANIFEST=" + (prefix / "none.txt").string()});
  CHECK(again.exit_code != 0);
  CHECK_THAT(again.err, Catch::Contains("no such file"));
}
