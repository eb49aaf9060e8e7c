// Unit tests for the scan cache: what a long-running process reuses between
// scans of one store, and what it must read again.
#include "store/scan.hpp"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

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
  CHECK(third.find("semantic/b.md")->content_hash != second.find("semantic/b.md")->content_hash);
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

TEST_CASE("a scan told what changed looks at those paths only and takes the rest from the cache") {
  Folder store;
  store.write("semantic/a.md", semantic("Deploys run at noon."));
  store.write("semantic/b.md", semantic("The queue holds 40 jobs."));
  store.write("episodic/2026-11-01-x.md", "---\ntype: episodic\n---\n- We shipped.\n");
  ScanCache cache;
  cache.settled_ns = 0;
  const std::vector<std::string> nothing;
  // Before a whole scan, the cache knows nothing: being told does not help.
  scan(store.path, Layout{}, ScanLimits{}, &cache, &nothing);
  CHECK(cache.complete);
  CHECK(cache.reused == 0);

  // b.md changes unannounced: a scan told that nothing changed does not
  // even stat it, so it still serves the bytes it read.
  store.rename_save("semantic/b.md", semantic("The queue holds 41 jobs."));
  const auto untold = scan(store.path, Layout{}, ScanLimits{}, &cache, &nothing);
  CHECK(cache.reused == 3);
  CHECK(untold.find("semantic/b.md")->file->body().find("40 jobs") != std::string::npos);

  // Named, it is read; a new file named appears, a removed one named goes.
  store.write("semantic/new.md", semantic("Backups run at two."));
  fs::remove(store.path / "episodic/2026-11-01-x.md");
  const std::vector<std::string> changed{"semantic/b.md", "semantic/new.md",
                                         "episodic/2026-11-01-x.md", "README.md"};
  const auto told = scan(store.path, Layout{}, ScanLimits{}, &cache, &changed);
  CHECK(told.find("semantic/b.md")->file->body().find("41 jobs") != std::string::npos);
  REQUIRE(told.find("semantic/new.md") != nullptr);
  CHECK(told.find("episodic/2026-11-01-x.md") == nullptr);
  CHECK(told.entries.size() == 3);
  CHECK(cache.reused == 1); // a.md, untouched
  // The same store walked whole agrees with it.
  const auto walked = scan(store.path, Layout{}, ScanLimits{});
  REQUIRE(walked.entries.size() == told.entries.size());
  for (std::size_t i = 0; i < walked.entries.size(); ++i) {
    CHECK(walked.entries[i].relative == told.entries[i].relative);
    CHECK(walked.entries[i].content_hash == told.entries[i].content_hash);
  }
}

TEST_CASE(
    "a scan asked for the looked-at files gives only those, and the whole store's diagnostics") {
  Folder store;
  store.write("semantic/a.md", semantic("Deploys run at noon."));
  store.write("semantic/b.md", semantic("The queue holds 40 jobs."));
  store.write("semantic/plain.md", "---\ntype: semantic\n---\n- Backups run at two.\n");
  ScanCache cache;
  cache.settled_ns = 0;
  const std::vector<std::string> nothing;
  // Before a whole scan there is nothing to take the rest from: every entry.
  const auto whole = scan(store.path, Layout{}, ScanLimits{}, &cache, &nothing, Entries::looked_at);
  CHECK_FALSE(whole.looked_at.has_value());
  CHECK(whole.entries.size() == 3);
  REQUIRE(whole.diagnostics.size() == 2); // a.md and b.md: salience "loud"
  CHECK(cache.warned == std::set<std::string>{"semantic/a.md", "semantic/b.md"});

  store.rename_save("semantic/b.md", semantic("The queue holds 41 jobs."));
  store.write("semantic/new.md", "---\ntype: semantic\n---\n- Reports go out on Fridays.\n");
  fs::remove(store.path / "semantic/plain.md");
  const std::vector<std::string> changed{"semantic/b.md", "semantic/new.md", "semantic/plain.md"};
  const auto told = scan(store.path, Layout{}, ScanLimits{}, &cache, &changed, Entries::looked_at);
  REQUIRE(told.looked_at.has_value());
  CHECK(*told.looked_at == changed); // in path order
  REQUIRE(told.entries.size() == 2);
  CHECK(told.entries[0].relative == "semantic/b.md");
  CHECK(told.entries[0].file->body().find("41 jobs") != std::string::npos);
  CHECK(told.entries[1].relative == "semantic/new.md");
  CHECK(cache.reused == 1); // a.md
  // a.md's warning comes from the cache, b.md's from reading it again.
  const auto walked = scan(store.path, Layout{}, ScanLimits{});
  REQUIRE(told.diagnostics.size() == walked.diagnostics.size());
  for (std::size_t i = 0; i < walked.diagnostics.size(); ++i) {
    CHECK(told.diagnostics[i].to_string() == walked.diagnostics[i].to_string());
  }

  // Fixed, b.md warns no more; the cache's list of warned files follows.
  store.rename_save("semantic/b.md", "---\ntype: semantic\n---\n- The queue holds 41 jobs.\n");
  const std::vector<std::string> fixed{"semantic/b.md"};
  const auto after = scan(store.path, Layout{}, ScanLimits{}, &cache, &fixed, Entries::looked_at);
  CHECK(after.diagnostics.size() == 1);
  CHECK(cache.warned == std::set<std::string>{"semantic/a.md"});
}

TEST_CASE("a scan told what changed still looks again at what it could not keep") {
  Folder store;
  store.write("semantic/a.md", semantic("Deploys run at noon."));
  store.write("semantic/broken.md", "---\ntype: [unclosed\n---\nBody.\n");
  ScanCache cache; // two seconds: a.md, just written, is not kept
  scan(store.path, Layout{}, ScanLimits{}, &cache);
  CHECK(cache.items.empty());
  CHECK(cache.unkept == std::vector<std::string>{"semantic/a.md", "semantic/broken.md"});

  // Neither is named, and both are read again: a.md's new bytes are seen,
  // and the broken file is diagnosed again.
  std::ofstream(store.path / "semantic/a.md", std::ios::app) << "- Deploys skip holidays.\n";
  const std::vector<std::string> nothing;
  const auto second = scan(store.path, Layout{}, ScanLimits{}, &cache, &nothing);
  REQUIRE(second.find("semantic/a.md") != nullptr);
  CHECK(second.find("semantic/a.md")->file->body().find("skip holidays") != std::string::npos);
  CHECK(second.error_count() == 1);
}

TEST_CASE("a scan told that a folder changed walks the whole store") {
  Folder store;
  store.write("semantic/a.md", semantic("Deploys run at noon."));
  ScanCache cache;
  cache.settled_ns = 0;
  scan(store.path, Layout{}, ScanLimits{}, &cache);
  // A folder of files appears where the watcher saw only its name.
  store.write("semantic/more/b.md", semantic("The queue holds 40 jobs."));
  const std::vector<std::string> changed{"semantic/more"};
  const auto told = scan(store.path, Layout{}, ScanLimits{}, &cache, &changed);
  CHECK(told.find("semantic/more/b.md") != nullptr);
  CHECK(told.entries.size() == 2);
  // Paths a walk never enters are never read, named or not.
  store.write(".engram/x.md", semantic("State."));
  store.write(".git/y.md", semantic("Git's."));
  const std::vector<std::string> outside{".engram/x.md", ".git/y.md", "../escape.md"};
  const auto after = scan(store.path, Layout{}, ScanLimits{}, &cache, &outside);
  CHECK(after.entries.size() == 2);
}
