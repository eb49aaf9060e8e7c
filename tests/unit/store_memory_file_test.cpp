// Round-trip and edit tests of MemoryFile over the corpus of real-looking files.
#include "store/memory_file.hpp"

#include "base/error.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

using engram::Date;
using engram::store::MemoryFile;
namespace fs = std::filesystem;

namespace {

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::vector<fs::path> corpus() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(fs::path(ENGRAM_TEST_CORPUS) / "roundtrip")) {
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Splits on '\n', keeping each line's ending, so CRLF differences show.
std::vector<std::string> raw_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    auto next = nl == std::string::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(pos, next - pos));
    pos = next;
  }
  return lines;
}

// The indexes of lines that differ between two texts with the same line count.
std::vector<std::size_t> changed_lines(const std::string& before, const std::string& after) {
  auto a = raw_lines(before);
  auto b = raw_lines(after);
  REQUIRE(a.size() == b.size());
  std::vector<std::size_t> changed;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i]) {
      changed.push_back(i);
    }
  }
  return changed;
}

MemoryFile parse(const std::string& bytes) {
  auto parsed = MemoryFile::parse("test.md", bytes);
  if (!parsed) {
    FAIL(parsed.error().to_string());
  }
  return std::move(parsed.value());
}

} // namespace

TEST_CASE("every corpus file renders back byte-identical when nothing changed") {
  const auto files = corpus();
  REQUIRE(files.size() >= 10);
  for (const auto& path : files) {
    INFO(path.filename().string());
    const auto bytes = read_bytes(path);
    const auto file = parse(bytes);
    CHECK(file.render() == bytes);
  }
}

TEST_CASE("changing one field changes only that field's line in every corpus file") {
  for (const auto& path : corpus()) {
    INFO(path.filename().string());
    const auto bytes = read_bytes(path);
    auto file = parse(bytes);
    if (!file.frontmatter() || !file.frontmatter()->has("created")) {
      continue;
    }
    file.frontmatter()->set_scalar("created", "2027-12-31");
    const auto after = file.render();
    const auto changed = changed_lines(bytes, after);
    REQUIRE(changed.size() == 1);
    CHECK(raw_lines(after)[changed[0]].find("2027-12-31") != std::string::npos);
    const auto reparsed = parse(after);
    CHECK(reparsed.date("created") == Date(2027, 12, 31));
    CHECK(reparsed.frontmatter()->keys() == file.frontmatter()->keys());
  }
}

TEST_CASE("changing one body line changes only that line and keeps its ending") {
  for (const auto& path : corpus()) {
    INFO(path.filename().string());
    const auto bytes = read_bytes(path);
    auto file = parse(bytes);
    const auto lines = file.body_lines();
    if (lines.empty()) {
      continue;
    }
    const std::size_t last = lines.size() - 1;
    file.replace_body_line(last, "Edited line.");
    const auto after = file.render();
    const auto changed = changed_lines(bytes, after);
    REQUIRE(changed.size() == 1);
    const auto new_line = raw_lines(after)[changed[0]];
    const auto old_line = raw_lines(bytes)[changed[0]];
    CHECK(new_line.starts_with("Edited line."));
    // The line ending (LF, CRLF or none) is the one the line had.
    CHECK(new_line.substr(std::string("Edited line.").size()) ==
          old_line.substr(old_line.find_first_of("\r\n") == std::string::npos ? old_line.size()
                                                                              : old_line.find_first_of("\r\n")));
  }
}

TEST_CASE("a CRLF file keeps CRLF on edited and appended frontmatter lines") {
  auto file = parse("---\r\ntype: episodic\r\ncreated: 2026-01-01\r\n---\r\nBody.\r\n");
  CHECK(file.eol() == "\r\n");
  file.frontmatter()->set_scalar("created", "2026-02-02");
  file.frontmatter()->set_scalar("last-accessed", "2026-03-03");
  CHECK(file.render() ==
        "---\r\ntype: episodic\r\ncreated: 2026-02-02\r\nlast-accessed: 2026-03-03\r\n---\r\nBody.\r\n");
}

TEST_CASE("a BOM is kept and is not part of the first line") {
  const std::string bytes = "\xEF\xBB\xBF---\ntype: semantic\n---\nText\n";
  auto file = parse(bytes);
  CHECK(file.has_bom());
  CHECK(file.type() == "semantic");
  file.frontmatter()->set_scalar("type", "reference");
  CHECK(file.render() == "\xEF\xBB\xBF---\ntype: reference\n---\nText\n");
}

TEST_CASE("quoting style, trailing comments and unknown fields survive an edit") {
  const std::string bytes = "---\n"
                            "# top comment\n"
                            "owner: 'data team'\n"
                            "created: \"2026-02-10\"   # from the session\n"
                            "salience: high # keep\n"
                            "custom:\n"
                            "  nested: [1, 2]\n"
                            "---\n";
  auto file = parse(bytes);
  file.frontmatter()->set_scalar("created", "2026-03-01");
  file.frontmatter()->set_scalar("salience", "low");
  file.frontmatter()->set_scalar("owner", "it's ours");
  CHECK(file.render() == "---\n"
                         "# top comment\n"
                         "owner: 'it''s ours'\n"
                         "created: \"2026-03-01\"   # from the session\n"
                         "salience: low # keep\n"
                         "custom:\n"
                         "  nested: [1, 2]\n"
                         "---\n");
}

TEST_CASE("a block list is rewritten as a block list with its indentation and quoting") {
  auto file = parse("---\ntags:\n  - \"alpha\"\n  - \"beta\"\n# after\ncreated: 2026-01-01\n---\n");
  file.frontmatter()->set_list("tags", {"alpha", "beta", "gamma delta"});
  CHECK(file.render() ==
        "---\ntags:\n  - \"alpha\"\n  - \"beta\"\n  - \"gamma delta\"\n# after\ncreated: 2026-01-01\n---\n");
  CHECK(file.tags() == std::vector<std::string>{"alpha", "beta", "gamma delta"});
}

TEST_CASE("a flow list stays a flow list and quotes only items that need it") {
  auto file = parse("---\ntags: [a, b]  # three to six\n---\n");
  file.frontmatter()->set_list("tags", {"a", "b", "c, d", "e"});
  CHECK(file.render() == "---\ntags: [a, b, 'c, d', e]  # three to six\n---\n");
  CHECK(file.tags() == std::vector<std::string>{"a", "b", "c, d", "e"});
}

TEST_CASE("removing a key removes only its lines") {
  auto file = parse("---\ntype: semantic\ntags:\n  - a\n  - b\ncreated: 2026-01-01\n---\nBody\n");
  file.frontmatter()->remove("tags");
  CHECK(file.render() == "---\ntype: semantic\ncreated: 2026-01-01\n---\nBody\n");
}

TEST_CASE("a file without frontmatter gains one only when a field is set") {
  const std::string bytes = "# Notes\nSome text.\n";
  auto file = parse(bytes);
  CHECK_FALSE(file.frontmatter());
  CHECK(file.render() == bytes);
  file.ensure_frontmatter().set_scalar("type", "semantic");
  CHECK(file.render() == "---\ntype: semantic\n---\n# Notes\nSome text.\n");
}

TEST_CASE("typed accessors read the four-layer fields") {
  auto file = parse("---\ntype: episodic\ntags: [Deploy, k8s]\ntrigger:\n  - oom\nrelated: [semantic/a.md]\n"
                    "salience: high\ncreated: '2026-01-05'\nlast-accessed: 2026-02-01\n"
                    "decay-after: 2026-04-05\n---\n");
  CHECK(file.type() == "episodic");
  CHECK(file.tags() == std::vector<std::string>{"Deploy", "k8s"});
  CHECK(file.trigger() == std::vector<std::string>{"oom"});
  CHECK(file.related() == std::vector<std::string>{"semantic/a.md"});
  CHECK(file.salience() == engram::store::Salience::high);
  CHECK(file.date("created") == Date(2026, 1, 5));
  CHECK(file.date("last-accessed") == Date(2026, 2, 1));
  CHECK(file.date("decay-after") == Date(2026, 4, 5));
  CHECK(file.field_diagnostics().empty());
}

TEST_CASE("a date that is not YYYY-MM-DD is a warning at its line, never a guess") {
  for (const std::string value : {"12/31/2099", "next week", "2026-02-30", "2026-1-5", "'05-01-2026'"}) {
    INFO(value);
    auto file = parse("---\ntype: episodic\ndecay-after: " + value + "\n---\n");
    CHECK_FALSE(file.date("decay-after"));
    REQUIRE(file.field_diagnostics().size() == 1);
    CHECK(file.field_diagnostics()[0].line == 3);
    CHECK(file.field_diagnostics()[0].severity == engram::store::Severity::warning);
    CHECK(file.field_diagnostics()[0].reason.find("not a date") != std::string::npos);
  }
}

TEST_CASE("YAML timestamps are read as their date") {
  CHECK(engram::store::parse_date_value("2026-07-04T09:30:00Z") == Date(2026, 7, 4));
  CHECK(engram::store::parse_date_value("2026-07-04 09:30:00 +02:00") == Date(2026, 7, 4));
  CHECK(engram::store::parse_date_value("2026-7-4t9:30:00.25-5") == Date(2026, 7, 4));
  CHECK_FALSE(engram::store::parse_date_value("2026-07-04T"));
  CHECK_FALSE(engram::store::parse_date_value("2026-07-04 tomorrow"));
  CHECK_FALSE(engram::store::parse_date_value("2026-13-01T00:00:00Z"));
  // A time of day that does not exist makes the whole value unreadable: no guessing.
  CHECK_FALSE(engram::store::parse_date_value("2026-07-04T25:00:00"));
  CHECK_FALSE(engram::store::parse_date_value("2026-07-04T23:60:00"));
  CHECK_FALSE(engram::store::parse_date_value("2026-07-04T23:59:61"));
  CHECK_FALSE(engram::store::parse_date_value("2026-07-04T10:00:00+24:00"));
  CHECK_FALSE(engram::store::parse_date_value("2026-07-04T10:00:00+02:75"));
  CHECK(engram::store::parse_date_value("2026-07-04T23:59:60Z") == Date(2026, 7, 4));
  CHECK(engram::store::parse_date_value("2026-07-04T00:00:00-23:59") == Date(2026, 7, 4));
}

TEST_CASE("malformed files are errors with the line of the problem") {
  struct Case {
    std::string bytes;
    int line;
    std::string reason;
  };
  const std::vector<Case> cases = {
      {"---\ntype: semantic\ntags: [a, b\n", 1, "unterminated frontmatter"},
      {"---\ntype: semantic\ntags: [a, b\n---\nbody\n", 3, "YAML error"},
      {"---\ntype: semantic\nkey: : bad\n  indented: wrong\n---\n", 3, "YAML error"},
      {"---\ntype: semantic\ntags: scraping, http\n---\n", 3, "must be a list"},
      {"---\ntype: semantic\ntrigger: {a: 1}\n---\n", 3, "must be a list"},
      {"---\ntags:\n  - [nested]\n---\n", 2, "list of words"},
      {"---\ntype: a\ntype: b\n---\n", 3, "duplicate key 'type'"},
      {"---\ntype: a\ntitle: \"never closed\nmore: text\n---\n", 3, "unterminated quoted string"},
      {"---\ntags:\n  - 'open\n---\n", 3, "unterminated quoted string"},
      {"---\n- just\n- a list\n---\n", 2, "not a mapping"},
      {"text\n\xff\xfe bad bytes\n", 2, "invalid UTF-8"},
      {std::string("bin\nary\0data", 12), 2, "binary file"},
  };
  for (const auto& c : cases) {
    INFO(c.bytes);
    auto parsed = MemoryFile::parse("bad.md", c.bytes);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().line == c.line);
    CHECK(parsed.error().reason.find(c.reason) != std::string::npos);
    CHECK(parsed.error().to_string().starts_with("bad.md:" + std::to_string(c.line) + ": "));
  }
}

TEST_CASE("an edit that would not read back is refused and the frontmatter is left as it was") {
  // A flow mapping cannot be edited line by line; the edit is refused, nothing changes.
  auto file = parse("---\n{type: semantic, tags: [a]}\n---\nBody\n");
  const auto before = file.render();
  CHECK_THROWS_AS(file.frontmatter()->set_scalar("created", "2026-01-01"), engram::Error);
  CHECK(file.render() == before);
}

TEST_CASE("fuzzer-found inputs stay fixed") {
  // A double-quoted value left open at the end of the block once swallowed keys appended after it.
  auto parsed = MemoryFile::parse("f.md", "---\ntypegs: [x, y]\ncreated: 2025-01\ntitle: \"open quotes5\n---\nbody\n");
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().reason.find("unterminated quoted string") != std::string::npos);
}

TEST_CASE("a second frontmatter block is an error at its opening fence") {
  struct Case {
    std::string bytes;
    int line;
    std::string reason;
  };
  const std::vector<Case> cases = {
      {"---\ntype: semantic\n---\n---\ntags: [a, b]\n---\nBody.\n", 4,
       "a second frontmatter block"},
      {"---\ntype: semantic\n---\n\n\n---\ntags: [a, b]\n---\nBody.\n", 6,
       "a second frontmatter block"},
      {"---\r\ntype: semantic\r\n---\r\n---\r\ntags: [a, b]\r\n---\r\nBody.\r\n", 4,
       "a second frontmatter block"},
      {"---\ntype: semantic\n---\n---\ntags: [a, b]\n...\nBody.\n", 4,
       "a second frontmatter block"},
      // `---` twice opens an empty block; the YAML after it was meant as frontmatter.
      {"---\n---\ntype: semantic\ntags: [a, b]\n---\nBody.\n", 3, "nested frontmatter"},
      {"---\n---\n---\ntype: semantic\n---\nBody.\n", 3, "nested frontmatter"},
  };
  for (const auto& c : cases) {
    INFO(c.bytes);
    auto parsed = MemoryFile::parse("semantic/twice.md", c.bytes);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().line == c.line);
    CHECK(parsed.error().reason.find(c.reason) != std::string::npos);
    CHECK(parsed.error().to_string().starts_with("semantic/twice.md:" + std::to_string(c.line) +
                                                 ": "));
  }
}

TEST_CASE("a thematic break or prose after the frontmatter is not a second block") {
  for (const std::string bytes : {
           "---\ntype: semantic\n---\nText.\n\n---\n\nMore text.\n",
           "---\ntype: semantic\n---\n---\n\nA rule, then prose.\n---\n",
           "---\ntype: semantic\n---\n---\nNot a key line here\n---\n",
           "---\ntype: semantic\n---\n---\ntags: [a, b]\nno closing fence\n",
           "---\n---\nPlain prose after an empty block.\n",
           "---\n---\n",
       }) {
    INFO(bytes);
    const auto file = parse(bytes);
    CHECK(file.render() == bytes);
  }
}

TEST_CASE("'related' entries that leave the store are warned about at their line") {
  auto file =
      parse("---\ntype: semantic\nrelated:\n  - semantic/ok.md\n  - ../outside.md\n"
            "  - /etc/passwd\n  - semantic/../../escape.md\n  - semantic/../reference/x.md\n"
            "---\nBody.\n");
  std::vector<std::string> warned;
  for (const auto& d : file.field_diagnostics()) {
    CHECK(d.severity == engram::store::Severity::warning);
    CHECK(d.line == 3);
    warned.push_back(d.reason);
  }
  REQUIRE(warned.size() == 3);
  CHECK_THAT(warned[0], Catch::Contains("'../outside.md' points outside the store"));
  CHECK_THAT(warned[1], Catch::Contains("'/etc/passwd' points outside the store"));
  CHECK_THAT(warned[2], Catch::Contains("'semantic/../../escape.md' points outside the store"));
  // A warning, not an error: the file is still read, its fields kept.
  CHECK(file.related().size() == 5);
}
