// Unit tests for the scan cache: what a long-running process reuses between
// scans of one store, and what it must read again.
#include "store/scan.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace engram::store;
namespace fs = std::filesystem;

namespace {

// A fresh folder, removed at the end of the test.
struct Folder {
  Folder() {
    std::string pattern = (fs::temp_directory_path() / "engram-scan-cache-XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~Folder() { fs::remove_all(path); }
  void write(const fs::path& relative, const std::string& bytes) const {
    fs::create_directories((path / relative).parent_path());
    std::ofstream(path / relative, std::ios::binary) << bytes;
  }
  // Writes a temporary and renames it over the file, as editors save.
  void rename_save(const fs::path& relative, const std::string& bytes) const {
    const auto temp = path / relative.parent_path() / ".save.tmp";
    std::ofstream(temp, std::ios::binary) << bytes;
    fs::rename(temp, path / relative);
  }
  fs::path path;
};

std::string semantic(const std::string& fact) {
  return "---\ntype: semantic\ntags: [deploy]\nsalience: loud\n---\n- " + fact + "\n";
}

} // namespace

TEST_CASE("a scan with a cache reuses unchanged files and reads changed ones again") {
  Folder store;
  store.write("semantic/a.md", semantic("Deploys run at noon."));
  store.write("semantic/b.md", semantic("The queue holds 40 jobs."));
  store.write("semantic/c.md", semantic("Reports go out on Fridays."));
  ScanCache cache;
  cache.settled_ns = 0; // keep files written a moment ago

  const auto first = scan(store.path, Layout{}, ScanLimits{}, &cache);
  REQUIRE(first.entries.size() == 3);
  CHECK(cache.reused == 0);
  CHECK(cache.items.size() == 3);

  const auto second = scan(store.path, Layout{}, ScanLimits{}, &cache);
  CHECK(cache.reused == 3);
  REQUIRE(second.entries.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(second.entries[i].relative == first.entries[i].relative);
    CHECK(second.entries[i].content_hash == first.entries[i].content_hash);
    CHECK(second.entries[i].file->body() == first.entries[i].file->body());
  }
  // The field warning (salience: loud) comes with the reused file too.
  CHECK(second.diagnostics.size() == first.diagnostics.size());
  CHECK(second.diagnostics.size() == 3);

  // An append changes the size; a rename-save with the same size is a new inode.
  std::ofstream(store.path / "semantic/a.md", std::ios::app) << "- Deploys skip holidays.\n";
  store.rename_save("semantic/b.md", semantic("The queue holds 41 jobs."));
  const auto third = scan(store.path, Layout{}, ScanLimits{}, &cache);
  CHECK(cache.reused == 1);
  REQUIRE(third.find("semantic/a.md") != nullptr);
  CHECK(third.find("semantic/a.md")->file->body().find("skip holidays") != std::string::npos);
  CHECK(third.find("semantic/b.md")->file->body().find("41 jobs") != std::string::npos);
  CHECK(third.find("semantic/b.md")->content_hash !=
        second.find("semantic/b.md")->content_hash);
}

TEST_CASE("a scan cache forgets removed files and never keeps a diagnosed one") {
  Folder store;
  store.write("semantic/a.md", semantic("Deploys run at noon."));
  store.write("semantic/b.md", semantic("The queue holds 40 jobs."));
  store.write("semantic/broken.md", "---\ntype: [unclosed\n---\nBody.\n");
  ScanCache cache;
  cache.settled_ns = 0;

  const auto first = scan(store.path, Layout{}, ScanLimits{}, &cache);
  CHECK(first.entries.size() == 2);
  CHECK(cache.items.size() == 2);
  CHECK(cache.items.count("semantic/broken.md") == 0);

  fs::remove(store.path / "semantic/b.md");
  const auto second = scan(store.path, Layout{}, ScanLimits{}, &cache);
  CHECK(second.entries.size() == 1);
  CHECK(second.find("semantic/b.md") == nullptr);
  CHECK(cache.items.size() == 1);
  CHECK(cache.reused == 1);
  // The broken file is diagnosed again on every scan, never served from the cache.
  CHECK(second.error_count() == 1);
}

TEST_CASE("a scan cache does not keep a file written within the settling time") {
  Folder store;
  store.write("semantic/a.md", semantic("Deploys run at noon."));
  ScanCache cache; // the default: two seconds
  const auto first = scan(store.path, Layout{}, ScanLimits{}, &cache);
  CHECK(first.entries.size() == 1);
  // Written a moment ago: a same-size rewrite in the same timestamp tick
  // would look unchanged, so the file is read again next time.
  CHECK(cache.items.empty());
  scan(store.path, Layout{}, ScanLimits{}, &cache);
  CHECK(cache.reused == 0);
}
