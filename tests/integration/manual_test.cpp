// The man pages the build writes, engram(1) and engram.toml(5): man renders
// them without a warning, engram(1) has every command and option --help
// lists, each under its command, and engram.toml(5) every key
// `engram config keys` lists, with its default.
#include "lib/help_tree.hpp"
#include "lib/process.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <sstream>

namespace fs = std::filesystem;
using engram::test::Sandbox;

namespace {

// Where the build writes the pages, as they are installed under share/.
const fs::path k_man = fs::path(ENGRAM_BUILD_DIR) / "share" / "man";

// A page as `man -l` renders it to a pipe (plain text), with groff's
// warnings on; groff's minus signs and hyphens read back as `-`.
engram::test::Result render(const fs::path& page) {
  auto rendered = engram::test::run({"man", "--warnings", "-l", page.string()},
                                    {{"MANWIDTH", "400"}, {"LC_ALL", "C.UTF-8"}});
  for (const std::string sign : {"\u2212", "\u2010"}) {
    for (auto at = rendered.out.find(sign); at != std::string::npos;
         at = rendered.out.find(sign, at)) {
      rendered.out.replace(at, sign.size(), "-");
    }
  }
  return rendered;
}

// The rendered lines, each without its indentation.
std::vector<std::string> trimmed_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    const auto start = line.find_first_not_of(' ');
    lines.push_back(start == std::string::npos ? "" : line.substr(start));
  }
  return lines;
}

} // namespace

TEST_CASE("engram(1) renders and has every command and option that --help lists") {
  const Sandbox sandbox;
  const auto page = render(k_man / "man1" / "engram.1.gz");
  INFO(page.err);
  REQUIRE(page.exit_code == 0);
  CHECK(page.err.empty()); // no groff warning
  for (const char* section : {"NAME", "SYNOPSIS", "COMMANDS", "JSON OUTPUT", "EXIT STATUS"}) {
    CHECK_THAT(page.out, Catch::Contains(std::string("\n") + section + "\n"));
  }

  const auto tree = engram::test::help_tree(sandbox);
  REQUIRE(tree.size() > 20);
  const auto lines = trimmed_lines(page.out);
  // Each command's heading; its section runs to the next command's heading.
  std::vector<std::size_t> headings;
  for (const auto& command : tree) {
    const auto name = engram::test::full_name(command);
    const auto at =
        command.path.empty() ? lines.begin() : std::find(lines.begin(), lines.end(), name);
    INFO(name);
    REQUIRE(at != lines.end());
    headings.push_back(static_cast<std::size_t>(at - lines.begin()));
  }
  for (std::size_t i = 0; i < tree.size(); ++i) {
    std::size_t end = lines.size();
    for (const auto other : headings) {
      if (other > headings[i] && other < end) {
        end = other;
      }
    }
    std::string section;
    for (auto line = headings[i]; line < end; ++line) {
      section += lines[line] + "\n";
    }
    for (const auto& option : tree[i].options) {
      INFO(engram::test::full_name(tree[i]) << " " << option);
      CHECK_THAT(section, Catch::Contains(option));
    }
  }
  // The exit statuses, each a tag of its own under EXIT STATUS, its text beside it.
  const auto exit_status = std::find(lines.begin(), lines.end(), "EXIT STATUS");
  REQUIRE(exit_status != lines.end());
  for (const std::string status : {"0", "1", "2", "78"}) {
    INFO(status);
    CHECK(std::find_if(exit_status, lines.end(), [&](const std::string& line) {
            return line.starts_with(status + "  ");
          }) != lines.end());
  }
}

TEST_CASE("engram.toml(5) renders and has every key of engram config keys, with its default") {
  const Sandbox sandbox;
  const auto page = render(k_man / "man5" / "engram.toml.5.gz");
  INFO(page.err);
  REQUIRE(page.exit_code == 0);
  CHECK(page.err.empty());
  const auto keys = sandbox.engram({"config", "keys"});
  REQUIRE(keys.exit_code == 0);

  // Each key's entry: its tag line, then its text indented under it, joined
  // into one line however man wrapped it.
  std::map<std::string, std::string> entries;
  std::string tag;
  std::istringstream rendered(page.out);
  for (std::string line; std::getline(rendered, line);) {
    const auto indent = line.find_first_not_of(' ');
    if (indent == std::string::npos) {
      continue;
    }
    if (indent <= 7) {
      tag = line.substr(indent);
      entries[tag];
    } else if (!tag.empty()) {
      entries[tag] += " " + line.substr(indent);
    }
  }
  std::size_t checked = 0;
  std::string table;
  for (const auto& line : keys.out_lines()) {
    if (line.starts_with("[") && line.ends_with("]") && !line.starts_with("[[")) {
      table = line.substr(1, line.size() - 2);
    } else if (line.starts_with("  ") && line[2] != ' ' && line.find(" = ") != std::string::npos &&
               table.find('<') == std::string::npos) {
      const auto key = table + "." + line.substr(2, line.find(" = ") - 2);
      const auto value = line.substr(line.find(" = ") + 3);
      INFO(key);
      REQUIRE(entries.count(key) == 1);
      CHECK_THAT(entries[key], Catch::Contains(" Default: " + value + "."));
      ++checked;
    }
  }
  CHECK(checked > 30);
  CHECK_THAT(page.out, Catch::Contains("[[store]]") && Catch::Contains("[rules.<plugin rule>]"));
}
