// The bad-input corpus with the real binary: a store holding every kind of
// malformed or hostile file engram knows of (tests/corpus/bad/, plus what
// cannot sensibly be committed — a 50 MB file, NUL bytes, names with newlines
// or bytes that are not UTF-8, symlink loops and links out of the store, a
// FIFO — made here at run time) is consolidated once. Each bad file is named
// at its line and left byte for byte as it was; the odd but valid files (CRLF,
// mixed endings, a BOM, spaces and non-ASCII in a name) and the plain valid
// ones consolidate; engram exits normally and the snapshot leaves git clean
// but for the 50 MB file, held back unread (over scan.max_file_bytes).
#include "lib/history.hpp"

#include <catch2/catch.hpp>
#include <functional>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

namespace fs = std::filesystem;
using namespace engram::test;
using namespace std::string_literals;

namespace {

constexpr const char* k_now = "2026-11-22";

// A bad file: its store-relative path as diagnostics print it (control
// characters and bytes that are not UTF-8 escaped), the line the diagnostic
// names, and a phrase of its reason.
struct Bad {
  std::string shown;
  int line;
  std::string reason;
};

// What each committed corpus file's diagnostic says.
std::vector<Bad> committed_bad() {
  std::vector<Bad> bad = {
      {"semantic/unterminated-frontmatter.md", 1, "unterminated frontmatter"},
      {"semantic/nested-frontmatter.md", 3, "nested frontmatter"},
      {"semantic/second-frontmatter.md", 6, "a second frontmatter block"},
      {"semantic/alias-bomb.md", 5, "aliases (*name) are not accepted"},
      {"semantic/deep-nesting.md", 4, "nested deeper than 16 levels"},
      {"semantic/tags-flow-map.md", 3, "'tags' must be a list"},
      {"semantic/tags-block-map.md", 3, "'tags' must be a list"},
      {"semantic/tags-list-of-maps.md", 3, "'tags' must be a list of words"},
      {"semantic/invalid-utf8.md", 6, "invalid UTF-8"},
      {"semantic/overlong-utf8.md", 5, "invalid UTF-8"},
      {"semantic/surrogate-utf8.md", 6, "invalid UTF-8"},
      {"semantic/truncated-utf8.md", 5, "invalid UTF-8"},
      {"semantic/related-outside.md", 4, "'../../../etc/passwd' points outside the store"},
      {"reference/related-absolute.md", 4, "'/etc/shadow' points outside the store"},
      {"episodic/2019-01-31-created-words.md", 4, "'created: last Tuesday' is not a date"},
  };
  // Every wrong shape of a decay date: the field is diagnosed, never guessed
  // (not even from the file name's date), so the file never decays.
  for (const char* name :
       {"01-date-us", "02-date-impossible-day", "03-date-month-13", "04-date-words",
        "05-date-compact", "06-date-slashes", "07-date-list", "08-date-map", "09-date-empty-quoted",
        "10-date-bad-time", "11-date-number", "12-date-day-first", "13-date-unpadded",
        "14-date-boolean", "15-date-two-digit-year"}) {
    bad.push_back({std::string("episodic/2019-01-") + name + ".md", 5, "is not a date"});
  }
  return bad;
}

// Writes the bad files that are made at run time, and says what each one's
// diagnostic says. `outside` is a folder outside the store.
std::vector<Bad> write_generated(const fs::path& store, const fs::path& outside) {
  write_file(store / "episodic" / "2019-02-01-huge.md",
             "---\ntype: episodic\ntags: [corpus, huge]\n---\n" +
                 std::string(50 * 1024 * 1024, 'x') + "\n");
  write_file(store / "semantic" / "nul-bytes.md",
             "---\ntype: semantic\ntags: [corpus, nul]\n---\nBefore\0after.\n"s);
  write_file(store / "episodic" / "2019-02-02-long-line.md",
             "---\ntype: episodic\ntags: [corpus, long]\n---\n- A short claim.\n- " +
                 std::string(100000, 'y') + "\n");
  write_file(store / "semantic" / "two\nlines.md",
             "---\ntype: semantic\ntags: [corpus, newline]\n---\nA newline in the name.\n");
  write_file(store / "semantic" / "caf\xe9-latin1.md",
             "---\ntype: semantic\ntags: [corpus, latin1]\n---\nA Latin-1 name.\n");
  fs::create_symlink("loop-b.md", store / "semantic" / "loop-a.md");
  fs::create_symlink("loop-a.md", store / "semantic" / "loop-b.md");
  fs::create_symlink("self-loop.md", store / "semantic" / "self-loop.md");
  write_file(outside / "secret-notes.md", k_good_semantic);
  fs::create_symlink(outside / "secret-notes.md", store / "reference" / "outside-link.md");
  fs::create_symlink(fs::relative(outside / "secret-notes.md", store / "semantic"),
                     store / "semantic" / "outside-dotdot.md");
  REQUIRE(mkfifo((store / "semantic" / "pipe.md").c_str(), 0644) == 0);
  return {
      {"episodic/2019-02-01-huge.md", 1, "over the limit"},
      {"semantic/nul-bytes.md", 5, "binary file (NUL byte)"},
      {"episodic/2019-02-02-long-line.md", 6, "line is 100002 bytes long"},
      {"semantic/two\\nlines.md", 1, "control character"},
      {"semantic/caf\\xe9-latin1.md", 1, "not valid UTF-8"},
      {"semantic/loop-a.md", 1, "symlink loop"},
      {"semantic/loop-b.md", 1, "symlink loop"},
      {"semantic/self-loop.md", 1, "symlink loop"},
      {"reference/outside-link.md", 1, "symlink leaves the store"},
      {"semantic/outside-dotdot.md", 1, "symlink leaves the store"},
      {"semantic/pipe.md", 1, "not a regular file"},
  };
}

// The real path of a bad file from the path its diagnostic shows.
fs::path real_path(const std::string& shown) {
  std::string real;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    if (shown.compare(i, 2, "\\n") == 0) {
      real += '\n';
      ++i;
    } else if (shown.compare(i, 4, "\\xe9") == 0) {
      real += '\xe9';
      i += 3;
    } else {
      real += shown[i];
    }
  }
  return real;
}

// What a file is, read without following links or opening FIFOs: a link's
// target, a FIFO's kind, or a regular file's size and a hash of its bytes.
std::string fingerprint(const fs::path& file) {
  const auto status = fs::symlink_status(file);
  if (fs::is_symlink(status)) {
    return "-> " + fs::read_symlink(file).string();
  }
  if (status.type() == fs::file_type::fifo) {
    return "fifo";
  }
  const auto bytes = read_file(file);
  return std::to_string(bytes.size()) + " " + std::to_string(std::hash<std::string_view>{}(bytes));
}

// The diagnostic of the record that names `bad` at its line, or empty.
std::string diagnostic_for(const nlohmann::json& record, const Bad& bad) {
  const std::string location = "/" + bad.shown + ":" + std::to_string(bad.line) + ": ";
  for (const auto& diagnostic : record["diagnostics"]) {
    const auto text = diagnostic.get<std::string>();
    if (text.find(location) != std::string::npos) {
      return text;
    }
  }
  return {};
}

// The odd but valid expired files, and a claim of each that must be absorbed.
const std::vector<std::pair<std::string, std::string>> k_valid{
    {"episodic/2020-02-01-crlf.md", "The CRLF corpus file says the ferry leaves at nine."},
    {"episodic/2020-02-02-mixed-endings.md",
     "The mixed-endings corpus file says the bakery opens at six."},
    {"episodic/2020-02-02-mixed-endings.md", "Its second claim says the bakery closes at two."},
    {"episodic/2020-02-03-bom.md", "The BOM corpus file says the library is closed on Mondays."},
    {"episodic/2020-02-04-spaces and \xc3\xbcn\xc3\xaf"
     "c\xc3\xb6"
     "d\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac.md",
     "The corpus file with spaces in its name says the museum is free on Sundays."},
    {"episodic/2020-03-01-valid.md", "The valid corpus file says the river froze in March."},
    {"episodic/2020-03-01-valid.md", "Always check the ice report before skating."},
};

} // namespace

TEST_CASE("every file of the bad-input corpus is named at its line and left untouched while "
          "the valid files consolidate") {
  const Sandbox sandbox;
  const fs::path store = sandbox.work("store");
  const fs::path outside = sandbox.work("outside");
  REQUIRE(sandbox.engram({"init", store.string()}).exit_code == 0);
  fs::copy(fs::path(ENGRAM_TEST_CORPUS) / "bad", store,
           fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  auto bad = committed_bad();
  const auto generated = write_generated(store, outside);
  bad.insert(bad.end(), generated.begin(), generated.end());

  std::map<std::string, std::string> before;
  for (const auto& file : bad) {
    before[file.shown] = fingerprint(store / real_path(file.shown));
  }

  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now, "--json"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto record = nlohmann::json::parse(result.out);

  // Each bad file: named at its line with its reason, on one line, and byte for byte as it was.
  for (const auto& file : bad) {
    INFO(file.shown << ":" << file.line);
    const auto diagnostic = diagnostic_for(record, file);
    CHECK_THAT(diagnostic, Catch::Contains(file.reason));
    CHECK(diagnostic.find('\n') == std::string::npos);
    CHECK(fingerprint(store / real_path(file.shown)) == before[file.shown]);
  }
  // No action of the record reads or writes a bad file.
  for (const auto& action : record["actions"]) {
    for (const auto& file : bad) {
      CHECK(action["source"] != real_path(file.shown).string());
      CHECK(action["target"] != real_path(file.shown).string());
    }
  }

  // The valid files, odd ones included, decayed: gone, their claims where knowledge goes.
  const std::string knowledge = knowledge_text(store);
  for (const auto& [path, claim] : k_valid) {
    INFO(path);
    CHECK_FALSE(fs::exists(store / path));
    CHECK_THAT(knowledge, Catch::Contains(claim));
    for (const auto& diagnostic : record["diagnostics"]) {
      CHECK_THAT(diagnostic.get<std::string>(), !Catch::Contains("/" + path + ":"));
    }
  }

  // Absorbed as text: no CR of a CRLF line, no BOM, carried into the target.
  CHECK_THAT(knowledge, !Catch::Contains("\r") && !Catch::Contains("\xef\xbb\xbf"));

  // The snapshot committed the agent's files, bad ones too, as they were; the
  // consolidation only engram's. Only the 50 MB file is left over: over
  // scan.max_file_bytes, it is held back unread, never committed unchecked.
  CHECK(git_out(sandbox, store, {"status", "--porcelain"}) == "?? episodic/2019-02-01-huge.md\n");
  CHECK_THAT(diagnostic_for(record, {"episodic/2019-02-01-huge.md", 1, "over the limit"}),
             Catch::Contains("held back unread"));
  const auto fsck = sandbox.git(store, {"fsck", "--full", "--strict"});
  INFO(fsck.out + fsck.err);
  CHECK(fsck.exit_code == 0);
  CHECK(git_out(sandbox, store, {"show", "HEAD~1:semantic/alias-bomb.md"}) ==
        read_file(store / "semantic" / "alias-bomb.md"));

  // A second run changes nothing and says the same.
  const std::string head = head_of(sandbox, store);
  const auto again =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_now, "--json"});
  REQUIRE(again.exit_code == 0);
  CHECK(head_of(sandbox, store) == head);
  CHECK(nlohmann::json::parse(again.out)["diagnostics"] == record["diagnostics"]);
}
