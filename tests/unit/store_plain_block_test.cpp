// A plain block is read without yaml-cpp; whatever it accepts, yaml-cpp must
// read the same way: the same keys on the same lines, the same nulls,
// scalars and lists. Blocks are generated from pieces chosen to sit on both
// sides of every rule of the subset, and compared with yaml-cpp one by one.
#include "store/frontmatter.hpp"
#include "store/plain_block.hpp"

#include <catch2/catch.hpp>
#include <initializer_list>
#include <iterator>
#include <random>
#include <string>
#include <yaml-cpp/yaml.h>

using engram::store::Frontmatter;
using engram::store::PlainEntry;
using engram::store::read_plain_block;

namespace {

// What yaml-cpp reads `text` as, or why the plain reading differs from it ("" when it does not).
std::string differs_from_yaml(const std::string& text, const std::vector<PlainEntry>& entries) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return "yaml-cpp refuses it: " + e.msg;
  }
  if (entries.empty()) {
    return !root.IsDefined() || root.IsNull() ? "" : "yaml-cpp reads a value, the plain reader none";
  }
  if (!root.IsMap() || root.size() != entries.size()) {
    return "yaml-cpp reads another shape or another number of keys";
  }
  std::size_t i = 0;
  for (const auto& pair : root) {
    const auto& entry = entries[i++];
    if (!pair.first.IsScalar() || pair.first.Scalar() != entry.key) {
      return "key " + entry.key + " is another key to yaml-cpp";
    }
    if (static_cast<std::size_t>(pair.first.Mark().line) != entry.line) {
      return "key " + entry.key + " is on another line to yaml-cpp";
    }
    const auto& value = pair.second;
    switch (entry.kind) {
    case PlainEntry::Kind::null:
      if (!value.IsNull()) {
        return "yaml-cpp reads " + entry.key + " as not null";
      }
      break;
    case PlainEntry::Kind::scalar:
      if (!value.IsScalar() || value.Scalar() != entry.scalar) {
        return "yaml-cpp reads " + entry.key + " as another scalar";
      }
      break;
    case PlainEntry::Kind::list: {
      if (!value.IsSequence() || value.size() != entry.items.size()) {
        return "yaml-cpp reads " + entry.key + " as another list";
      }
      std::size_t k = 0;
      for (const auto& item : value) {
        if (!item.IsScalar() || item.Scalar() != entry.items[k++]) {
          return "yaml-cpp reads an item of " + entry.key + " otherwise";
        }
      }
      break;
    }
    }
  }
  return {};
}

constexpr const char* k_keys[] = {
    "type", "tags", "last-accessed", "x_1", "null", "Key", "k y", "-k", "1", "a.b", "~", "é", "true", "k"};
constexpr const char* k_after_key[] = {": ", ":", ":  ", ":x", " :", ": ", ": ", ":\t"};
constexpr const char* k_values[] = {
    "",         "plain",     "two words",  "null",     "~",          "Null",     "NULL",
    "nULL",     "true",      "-1",         "- a",      "-a",         "a: b",     "a:b",
    "https://example.com/a?b=c#d",         "a #c",     "a#b",        "#c",       "'q'",
    "\"q\"",    "it's",      "[a, b]",     "[]",       "[ ]",        "[a,b]",    "[a, [b]]",
    "[a,]",     "[null]",    "[~, a]",     "[a:b]",     "[a?b]",    "[b, ?c]",    "[a, b] c",   "{a: b}",   "*x",
    "&x y",     "!t v",      "|",          ">",        "%x",         "@x",       "`x`",
    "é",        "naïve café", "\xE2\x80\xA8", "a  b",  "a ",         "?x",       ":x",
    "x:",       ".inf",      "0x1F",       "1e3",      "a\tb",       "\xEF\xBB\xBFx",
    "[ a , b ]", "[a, 'b']", "[a, \"b\"]", "[-a]",     "[- a]",      "[a b, c]", "x\r",
    "2026-11-25", "[a, ~]",  "[#a]",       "[a #b]",   "\xC3",       "a, b",     "{}",
    "=",        "<<",        "a\x01b",        "- [a]",      "a -- b",   "a:",         "[a]]"};
constexpr const char* k_item_starts[] = {"- ", "-", "-  ", "  - ", "    - ", " - ", "  -"};
constexpr const char* k_other_lines[] = {"", "# a comment", "  # indented comment",
                                                      "  continued", "---", "...", "   "};

// A random block of up to eight lines from the pieces above.
std::string random_block(std::mt19937& random) {
  const auto pick = [&](const auto& list) {
    return std::string(list[std::uniform_int_distribution<std::size_t>(0, std::size(list) - 1)(random)]);
  };
  std::string text;
  const int lines = std::uniform_int_distribution<int>(0, 8)(random);
  for (int i = 0; i < lines; ++i) {
    const int shape = std::uniform_int_distribution<int>(0, 9)(random);
    if (shape < 5) {
      text += pick(k_keys) + pick(k_after_key) + pick(k_values);
    } else if (shape < 8) {
      text += pick(k_item_starts) + pick(k_values);
    } else {
      text += pick(k_other_lines);
    }
    text += '\n';
  }
  return text;
}

} // namespace

TEST_CASE("a plain block reads as yaml-cpp reads it", "[frontmatter][plain]") {
  std::mt19937 random(20261125);
  int accepted = 0;
  for (int n = 0; n < 40000; ++n) {
    const auto text = random_block(random);
    const auto entries = read_plain_block(text);
    if (!entries) {
      continue;
    }
    ++accepted;
    INFO("block:\n" << text);
    CHECK(differs_from_yaml(text, *entries).empty());
  }
  // The comparison means something only when many blocks are accepted.
  CHECK(accepted > 4000);
}

TEST_CASE("the frontmatter engram and agents write is a plain block", "[frontmatter][plain]") {
  const std::string text = "type: semantic\n"
                           "tags: [analytics, loyalty, alerts]\n"
                           "salience: medium\n"
                           "status: confirmed\n"
                           "trigger: []\n"
                           "summary: Deploys go out on Tuesdays; ask ops first.\n"
                           "source: https://wiki.example.com/deploys\n"
                           "related:\n"
                           "  - semantic/ci.md\n"
                           "  - semantic/release.md\n"
                           "# kept by hand\n"
                           "confidence:\n"
                           "created: 2025-12-28\n"
                           "expires: null\n";
  const auto entries = read_plain_block(text);
  REQUIRE(entries);
  REQUIRE(entries->size() == 11);
  CHECK(differs_from_yaml(text, *entries).empty());
  CHECK((*entries)[1].items == std::vector<std::string>{"analytics", "loyalty", "alerts"});
  CHECK((*entries)[7].items == std::vector<std::string>{"semantic/ci.md", "semantic/release.md"});
  CHECK((*entries)[7].line == 7);
  CHECK((*entries)[8].kind == PlainEntry::Kind::null);
  CHECK((*entries)[10].kind == PlainEntry::Kind::null);

  // Frontmatter answers from it as it did from yaml-cpp's tree.
  const auto frontmatter = Frontmatter::parse(text, 2, "\n");
  REQUIRE(frontmatter);
  CHECK(frontmatter->scalar("summary") == "Deploys go out on Tuesdays; ask ops first.");
  CHECK(frontmatter->list("related") ==
        std::vector<std::string>{"semantic/ci.md", "semantic/release.md"});
  CHECK(frontmatter->is_null("confidence"));
  CHECK_FALSE(frontmatter->scalar("expires"));
  CHECK(frontmatter->line_of("created") == 14);
}

TEST_CASE("what only a YAML parser can read is left to it", "[frontmatter][plain]") {
  for (const std::string& text : std::initializer_list<std::string>{
           "summary: 'quoted'\n", "summary: \"quoted\"\n", "summary: a # comment\n",
           "tags: [a, [b]]\n", "tags:\n- a\n  - b\n", "summary: first\n  continued\n",
           "key:\ttab\n", "key: value\r\n", "meta:\n  nested: map\n", "\"key\": value\n",
           "tags: [null]\n", "- item\n", "key: *alias\n", "key: |\n  text\n",
           // Found by the plain_block fuzzer: yaml-cpp ends a scalar in brackets at a `?`,
           // and its input at a NUL, even in a comment.
           "ts: [anal,ticaler?ts]\n", std::string("#\0x\na: b\n", 10),
           // A key twice is the caller's to report.
           "a: b\na: c\n"}) {
    INFO(text);
    CHECK_FALSE(read_plain_block(text));
  }
}

TEST_CASE("an edit of a plain block keeps it exact", "[frontmatter][plain]") {
  auto frontmatter = Frontmatter::parse("type: semantic\ntags:\n  - a\n  - b\nstatus: open # why\n",
                                        2, "\n");
  REQUIRE(frontmatter);
  frontmatter->set_list("tags", {"a", "b", "c"});
  frontmatter->set_scalar("type", "null"); // a word YAML reads as null is quoted
  CHECK(frontmatter->text() ==
        "type: 'null'\ntags:\n  - a\n  - b\n  - c\nstatus: open # why\n");
  CHECK(frontmatter->scalar("type") == "null");
  CHECK(frontmatter->scalar("status") == "open");
}

TEST_CASE("an item yaml-cpp cannot read plain in brackets is written quoted", "[frontmatter][plain]") {
  auto frontmatter = Frontmatter::parse("type: semantic\ntags: [a, b]\n", 2, "\n");
  REQUIRE(frontmatter);
  frontmatter->set_list("tags", {"a", "why?"});
  CHECK(frontmatter->text() == "type: semantic\ntags: [a, 'why?']\n");
  CHECK(frontmatter->list("tags") == std::vector<std::string>{"a", "why?"});
}
