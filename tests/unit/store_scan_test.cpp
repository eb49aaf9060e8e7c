// Tests of scanning a store folder into layers and diagnostics.
#include "store/expiry.hpp"
#include "store/scan.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <git2.h>
#include <random>
#include <sys/stat.h>

using namespace engram::store;
using engram::Date;
namespace fs = std::filesystem;

namespace {

// A fresh folder, removed at the end of the test.
struct Folder {
  Folder() {
    std::string pattern = (fs::temp_directory_path() / "engram-scan-XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~Folder() { fs::remove_all(path); }
  void write(const fs::path& relative, const std::string& bytes) const {
    fs::create_directories((path / relative).parent_path());
    std::ofstream(path / relative, std::ios::binary) << bytes;
  }
  fs::path path;
};

const Diagnostic* diagnostic_for(const Snapshot& snapshot, const std::string& name) {
  for (const auto& d : snapshot.diagnostics) {
    if (d.path.ends_with(name)) {
      return &d;
    }
  }
  return nullptr;
}

} // namespace

TEST_CASE("a scan sorts files into their layers and skips .git, state and non-memory files") {
  Folder store;
  store.write("MEMORY.md", "# Memory\n");
  store.write("WORKING.md", "---\ntype: working\n---\n## Now\n- [ ] task\n");
  store.write("CORE.md", "# Core\n");
  store.write("episodic/2026-01-05-deploy.md", "---\ntype: episodic\n---\nDeployed.\n");
  store.write("semantic/shopify.md", "---\ntype: semantic\ntags: [a, b]\n---\nFact.\n");
  store.write("procedural/feedback.md", "## Always lint\n");
  store.write("reference/docs.md", "Docs are at https://example.org.\n");
  store.write("archive/old.md", "Old.\n");
  store.write("archive/2026-01-01-forgotten.json", "[]\n"); // forgetting's list of the day
  store.write("semantic/notes.json", "{}");                   // not a memory
  store.write(".git/HEAD", "ref: refs/heads/main\n");
  store.write(".engram/usage.md", "not a memory\n");
  store.write("README.md", "Not a memory file.\n");
  store.write("semantic/.gitkeep", "");

  const auto snapshot = scan(store.path, Layout{}, ScanLimits{});
  CHECK(snapshot.diagnostics.empty());
  REQUIRE(snapshot.entries.size() == 9);
  CHECK(snapshot.in(Layer::episodic).size() == 1);
  CHECK(snapshot.in(Layer::semantic).size() == 1);
  CHECK(snapshot.find("semantic/shopify.md")->file->tags() == std::vector<std::string>{"a", "b"});
  CHECK(snapshot.find("WORKING.md")->layer == Layer::working);
  CHECK(snapshot.find("archive/old.md")->layer == Layer::archive);
  CHECK(snapshot.find("archive/2026-01-01-forgotten.json")->layer == Layer::archive);
  CHECK(snapshot.find("semantic/notes.json") == nullptr);
  CHECK(snapshot.find("README.md") == nullptr);
  CHECK(snapshot.find("semantic/shopify.md")->content_hash.size() == 40);
}

TEST_CASE("a scan turns every unusable file into a diagnostic and reads the rest") {
  Folder store;
  Folder outside;
  outside.write("secret.md", "outside\n");
  store.write("semantic/good.md", "---\ntype: semantic\ntags: [x, y]\n---\nGood.\n");
  store.write("semantic/unterminated.md", "---\ntype: semantic\ntags: [x]\n");
  store.write("semantic/yaml-error.md", "---\ntype: semantic\ntags: [x\n---\n");
  store.write("semantic/tags-string.md", "---\ntype: semantic\n\ntags: x, y\n---\n");
  store.write("semantic/bad-utf8.md", "line one\nline \xff two\n");
  store.write("semantic/binary.md", std::string("\x89PNG\r\n\x1a\n\0\0", 10));
  store.write("semantic/big.md", std::string(2000, 'a'));
  store.write("episodic/2026-01-01-bad-date.md", "---\ntype: episodic\ndecay-after: 12/31/2099\n---\nx\n");
  fs::create_symlink(outside.path / "secret.md", store.path / "semantic" / "escape.md");

  const auto snapshot = scan(store.path, Layout{}, ScanLimits{1000});
  CHECK(snapshot.find("semantic/good.md") != nullptr);
  struct Expected {
    std::string name;
    int line;
    std::string reason;
  };
  for (const auto& e : std::vector<Expected>{{"unterminated.md", 1, "unterminated"},
                                              {"yaml-error.md", 3, "YAML error"},
                                              {"tags-string.md", 4, "must be a list"},
                                              {"bad-utf8.md", 2, "invalid UTF-8"},
                                              {"binary.md", 3, "binary"},
                                              {"big.md", 1, "over the limit"},
                                              {"bad-date.md", 3, "not a date"},
                                              {"escape.md", 1, "symlink leaves the store"}}) {
    INFO(e.name);
    const auto* d = diagnostic_for(snapshot, e.name);
    REQUIRE(d != nullptr);
    CHECK(d->line == e.line);
    CHECK(d->reason.find(e.reason) != std::string::npos);
  }
  CHECK(snapshot.diagnostics.size() == 8);
  CHECK(snapshot.error_count() == 7);
  // The file with an unreadable date is still a memory; it just never decays.
  const auto* bad_date = snapshot.find("episodic/2026-01-01-bad-date.md");
  REQUIRE(bad_date != nullptr);
  CHECK_FALSE(decay_date(*bad_date, 90));
}

TEST_CASE("a symlink to a file inside the store is read") {
  Folder store;
  store.write("semantic/real.md", "Fact.\n");
  fs::create_symlink("real.md", store.path / "semantic" / "alias.md");
  const auto snapshot = scan(store.path, Layout{}, ScanLimits{});
  CHECK(snapshot.diagnostics.empty());
  CHECK(snapshot.find("semantic/alias.md") != nullptr);
}

TEST_CASE("a custom layout is honoured") {
  Folder store;
  Layout layout;
  layout.episodic = "sessions";
  layout.working = "NOW.md";
  store.write("sessions/2026-01-01-a.md", "x\n");
  store.write("NOW.md", "y\n");
  store.write("episodic/2026-01-01-b.md", "z\n");
  const auto snapshot = scan(store.path, layout, ScanLimits{});
  CHECK(snapshot.in(Layer::episodic).size() == 1);
  CHECK(snapshot.find("NOW.md")->layer == Layer::working);
  CHECK(snapshot.find("episodic/2026-01-01-b.md") == nullptr);
}

TEST_CASE("episodic files decay after decay-after, else created plus retention, else the name's date") {
  Folder store;
  store.write("episodic/a.md", "---\ndecay-after: 2026-06-01\ncreated: 2020-01-01\n---\n");
  store.write("episodic/b.md", "---\ncreated: \"2026-01-05\"\n---\n");
  store.write("episodic/2026-02-01-c.md", "no frontmatter\n");
  store.write("episodic/d.md", "---\ncreated: 2026-01-05T10:00:00Z\n---\n");
  store.write("episodic/e.md", "no date at all\n");
  store.write("episodic/2026-01-01-f.md", "---\ncreated: next week\n---\n");
  const auto snapshot = scan(store.path, Layout{}, ScanLimits{});
  auto when = [&](const char* path) { return decay_date(*snapshot.find(path), 90); };
  CHECK(when("episodic/a.md") == Date(2026, 6, 1));
  CHECK(when("episodic/b.md") == Date(2026, 4, 5));
  CHECK(when("episodic/2026-02-01-c.md") == Date(2026, 5, 2));
  CHECK(when("episodic/d.md") == Date(2026, 4, 5));
  CHECK_FALSE(when("episodic/e.md"));
  // An unreadable created date is never replaced by the file name's date: no guessing.
  CHECK_FALSE(when("episodic/2026-01-01-f.md"));
  CHECK(is_expired(*snapshot.find("episodic/b.md"), Date(2026, 4, 6), 90));
  CHECK_FALSE(is_expired(*snapshot.find("episodic/b.md"), Date(2026, 4, 5), 90));
}

TEST_CASE("symlink loops are diagnosed and the rest of the store is read") {
  Folder store;
  store.write("semantic/good.md", "---\ntype: semantic\ntags: [x, y]\n---\nGood.\n");
  fs::create_symlink("b.md", store.path / "semantic" / "a.md");
  fs::create_symlink("a.md", store.path / "semantic" / "b.md");
  fs::create_symlink("self.md", store.path / "semantic" / "self.md");
  const auto snapshot = scan(store.path, Layout{}, ScanLimits{});
  CHECK(snapshot.find("semantic/good.md") != nullptr);
  for (const char* name : {"semantic/a.md", "semantic/b.md", "semantic/self.md"}) {
    INFO(name);
    const auto* d = diagnostic_for(snapshot, name);
    REQUIRE(d != nullptr);
    CHECK(d->line == 1);
    CHECK(d->reason == "symlink loop; not read");
  }
  CHECK(snapshot.diagnostics.size() == 3);
}

TEST_CASE("a file name with a control character or invalid UTF-8 is diagnosed on one line") {
  Folder store;
  store.write("semantic/good.md", "Good.\n");
  store.write("semantic/two\nlines.md", "A file whose name has a newline.\n");
  store.write("semantic/tab\there.md", "A tab.\n");
  store.write("semantic/caf\xe9.md", "A Latin-1 name.\n");
  store.write("semantic/with spaces and caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac.md", "Fine.\n");
  const auto snapshot = scan(store.path, Layout{}, ScanLimits{});
  CHECK(snapshot.find("semantic/good.md") != nullptr);
  // Spaces and non-ASCII UTF-8 are ordinary names.
  CHECK(snapshot.find("semantic/with spaces and caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac.md") !=
        nullptr);
  REQUIRE(snapshot.diagnostics.size() == 3);
  for (const auto& d : snapshot.diagnostics) {
    INFO(d.to_string());
    CHECK(d.line == 1);
    CHECK(d.to_string().find('\n') == std::string::npos);
    CHECK(d.to_string().find('\t') == std::string::npos);
  }
  const auto* newline = diagnostic_for(snapshot, "semantic/two\\nlines.md");
  REQUIRE(newline != nullptr);
  CHECK_THAT(newline->reason, Catch::Contains("control character"));
  const auto* tab = diagnostic_for(snapshot, "semantic/tab\\there.md");
  REQUIRE(tab != nullptr);
  CHECK_THAT(tab->reason, Catch::Contains("control character"));
  const auto* latin1 = diagnostic_for(snapshot, "semantic/caf\\xe9.md");
  REQUIRE(latin1 != nullptr);
  CHECK_THAT(latin1->reason, Catch::Contains("not valid UTF-8"));
}

TEST_CASE("printable_path escapes control characters and bad bytes and keeps UTF-8") {
  CHECK(printable_path("semantic/a.md") == "semantic/a.md");
  CHECK(printable_path("a\nb\tc\rd") == "a\\nb\\tc\\rd");
  CHECK(printable_path(std::string("x\x01y\x7fz", 5)) == "x\\x01y\\x7fz");
  CHECK(printable_path("caf\xe9-\xc3\xa9") == "caf\\xe9-\xc3\xa9");
  CHECK(printable_path("\xff\xfe") == "\\xff\\xfe");
  CHECK_FALSE(bad_file_name("semantic/caf\xc3\xa9 notes.md"));
  CHECK(bad_file_name("semantic/a\nb.md"));
  CHECK(bad_file_name("semantic/\xff.md"));
}

TEST_CASE("a file with a line over the limit is diagnosed at that line") {
  Folder store;
  store.write("semantic/good.md", "Short lines.\nOnly.\n");
  store.write("semantic/long.md", "first\nsecond\n" + std::string(101, 'x') + "\nlast\n");
  store.write("semantic/exact.md", std::string(100, 'y') + "\n");
  store.write("semantic/tail.md", "first\n" + std::string(150, 'z'));
  const auto snapshot = scan(store.path, Layout{}, ScanLimits{1024 * 1024, 100});
  CHECK(snapshot.find("semantic/good.md") != nullptr);
  const auto* long_line = diagnostic_for(snapshot, "semantic/long.md");
  REQUIRE(long_line != nullptr);
  CHECK(long_line->line == 3);
  CHECK_THAT(long_line->reason, Catch::Contains("line is 101 bytes long, over the limit of 100"));
  const auto* tail = diagnostic_for(snapshot, "semantic/tail.md");
  REQUIRE(tail != nullptr);
  CHECK(tail->line == 2);
  CHECK(snapshot.find("semantic/exact.md") != nullptr); // exactly at the limit
  CHECK(snapshot.diagnostics.size() == 2);
}

TEST_CASE("a file that looks like it holds a credential is diagnosed at that line, not read") {
  Folder store;
  store.write("semantic/good.md", "---\ntype: semantic\ntags: [x, y]\n---\nGood.\n");
  store.write("semantic/aws.md", "---\ntype: semantic\ntags: [aws, deploy]\n---\nDeploy notes.\n"
                                 "aws_access_key_id = AKIAIOSFODNN7EXAMPLE\n");
  store.write("reference/key.md",
              "The deploy key:\n\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n");
  store.write("semantic/cache.md", "cache_key = user_profile_v2\n");
  const auto snapshot = scan(store.path, Layout{}, ScanLimits{});
  CHECK(snapshot.find("semantic/good.md") != nullptr);
  CHECK(snapshot.find("semantic/cache.md") != nullptr);
  CHECK(snapshot.find("semantic/aws.md") == nullptr);
  CHECK(snapshot.find("reference/key.md") == nullptr);
  const auto* aws = diagnostic_for(snapshot, "semantic/aws.md");
  REQUIRE(aws != nullptr);
  CHECK(aws->line == 6);
  CHECK_THAT(aws->reason, Catch::Contains("looks like an AWS access key id") &&
                              Catch::Contains("kept out of commits"));
  CHECK(aws->reason.find("AKIA") == std::string::npos);
  const auto* key = diagnostic_for(snapshot, "reference/key.md");
  REQUIRE(key != nullptr);
  CHECK(key->line == 3);
  CHECK_THAT(key->reason, Catch::Contains("a private key"));
  CHECK(snapshot.diagnostics.size() == 2);
}

TEST_CASE("a FIFO is never opened for reading, directly or through a link") {
  Folder store;
  store.write("semantic/good.md", "Good.\n");
  REQUIRE(mkfifo((store.path / "semantic" / "pipe.md").c_str(), 0600) == 0);
  fs::create_directories(store.path / "reference");
  REQUIRE(mkfifo((store.path / "fifo").c_str(), 0600) == 0);
  fs::create_symlink("../fifo", store.path / "reference" / "to-pipe.md");
  // A blocking open of a FIFO with no writer would hang the scan here.
  const auto snapshot = scan(store.path, Layout{}, ScanLimits{});
  CHECK(snapshot.find("semantic/good.md") != nullptr);
  for (const char* name : {"semantic/pipe.md", "reference/to-pipe.md"}) {
    INFO(name);
    const auto* d = diagnostic_for(snapshot, name);
    REQUIRE(d != nullptr);
    CHECK_THAT(d->reason, Catch::Contains("not a regular file"));
  }
}

TEST_CASE("a file over the size limit is diagnosed from its size, and smaller ones are read") {
  Folder store;
  store.write("semantic/good.md", "Good.\n");
  store.write("semantic/at-limit.md", std::string(999, 'a') + "\n");
  store.write("semantic/over.md", std::string(1000, 'a') + "\n");
  const auto snapshot = scan(store.path, Layout{}, ScanLimits{1000, 2000});
  CHECK(snapshot.find("semantic/at-limit.md") != nullptr);
  const auto* over = diagnostic_for(snapshot, "semantic/over.md");
  REQUIRE(over != nullptr);
  CHECK_THAT(over->reason, Catch::Contains("file is 1001 bytes, over the limit of 1000"));
  CHECK(snapshot.diagnostics.size() == 1);
}

TEST_CASE("a scan records when each file was last modified, which breaks ties between equal dates") {
  Folder store;
  store.write("semantic/older.md", "---\ntype: semantic\n---\nFact.\n");
  store.write("semantic/newer.md", "---\ntype: semantic\n---\nFact.\n");
  const auto at = [](std::int64_t seconds) {
    return fs::file_time_type::clock::from_sys(
        std::chrono::sys_seconds(std::chrono::seconds(seconds)));
  };
  fs::last_write_time(store.path / "semantic/older.md", at(1'700'000'000));
  fs::last_write_time(store.path / "semantic/newer.md", at(1'700'086'400));

  const auto snapshot = scan(store.path, Layout{}, ScanLimits{});
  const auto* older = snapshot.find("semantic/older.md");
  const auto* newer = snapshot.find("semantic/newer.md");
  REQUIRE(older != nullptr);
  REQUIRE(newer != nullptr);
  CHECK(older->modified == 1'700'000'000);
  CHECK(newer->modified == 1'700'086'400);
}

TEST_CASE("a scan lists files in path order, folder by folder") {
  Folder store;
  const std::string body = "---\ntype: semantic\n---\n- A fact.\n";
  for (const auto* name :
       {"semantic/a-b.md", "semantic/a/x.md", "semantic/a.md", "semantic/a/b/c.md", "semantic/A.md",
        "semantic/\xc3\xa9t\xc3\xa9.md", "semantic/z.md", "semantic/a0.md"}) {
    store.write(name, body);
  }
  const auto snapshot = scan(store.path, Layout{}, ScanLimits{});
  REQUIRE(snapshot.entries.size() == 8);
  for (std::size_t i = 1; i < snapshot.entries.size(); ++i) {
    CHECK(snapshot.entries[i - 1].relative < snapshot.entries[i].relative);
  }
}

TEST_CASE("the content hash is the blob id git gives the same bytes") {
  // What `git hash-object` prints for them.
  CHECK(content_hash("") == "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
  CHECK(content_hash("hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a");
  // And what libgit2 computes, for sizes around OpenSSL's 64-byte blocks and
  // beyond, with every byte value.
  git_libgit2_init();
  std::mt19937 random(7);
  for (const std::size_t size : {1U, 55U, 56U, 63U, 64U, 65U, 4096U, 100000U}) {
    std::string bytes(size, '\0');
    for (auto& byte : bytes) {
      byte = static_cast<char>(random() & 0xffU);
    }
    git_oid id;
    REQUIRE(git_odb_hash(&id, bytes.data(), bytes.size(), GIT_OBJECT_BLOB) == 0);
    char hex[GIT_OID_HEXSZ + 1] = {};
    git_oid_tostr(hex, sizeof hex, &id);
    CHECK(content_hash(bytes) == hex);
  }
  git_libgit2_shutdown();
}

