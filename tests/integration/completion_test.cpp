// Shell completion: the scripts the build installs are what `engram
// completion SHELL` prints; bash, driven as it drives a completion function,
// offers commands, options, an option's allowed values and paths; zsh and
// fish parse theirs.
#include "lib/help_tree.hpp"
#include "lib/process.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

namespace fs = std::filesystem;
using engram::test::read_file;
using engram::test::Sandbox;

namespace {

// Where the build writes the scripts, as they are installed under share/.
const fs::path k_share = fs::path(ENGRAM_BUILD_DIR) / "share";
const fs::path k_bash = k_share / "bash-completion" / "completions" / "engram";

// What bash offers for the command line `words`, the last being the word
// under the cursor: the script is sourced, the function `complete -p` names
// for engram is called with COMP_WORDS and COMP_CWORD set, and COMPREPLY is
// printed, one offer a line. Runs in `cwd`.
std::vector<std::string> complete_bash(const std::vector<std::string>& words, const fs::path& cwd) {
  std::vector<std::string> args{"bash",
                                "--norc",
                                "--noprofile",
                                "-c",
                                R"(cd "$1" && source "$2" || exit 1
shift 2
function=$(complete -p engram | sed -n 's/.*-F \([^ ]*\).*/\1/p')
[[ -n $function ]] || { echo "no completion function for engram" >&2; exit 1; }
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
COMP_LINE="$*"
COMP_POINT=${#COMP_LINE}
"$function" engram "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
printf '%s\n' "${COMPREPLY[@]}")",
                                "bash",
                                cwd.string(),
                                k_bash.string()};
  args.insert(args.end(), words.begin(), words.end());
  const auto result = engram::test::run(args);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  auto offers = result.out_lines();
  offers.erase(std::remove(offers.begin(), offers.end(), ""), offers.end());
  std::sort(offers.begin(), offers.end());
  return offers;
}

using Offers = std::vector<std::string>;

} // namespace

TEST_CASE("the installed completion scripts are what engram completion prints") {
  const Sandbox sandbox;
  for (const auto& [shell, file] :
       {std::pair{"bash", k_bash},
        std::pair{"zsh", k_share / "zsh" / "vendor-completions" / "_engram"},
        std::pair{"fish", k_share / "fish" / "vendor_completions.d" / "engram.fish"}}) {
    INFO(shell);
    const auto printed = sandbox.engram({"completion", shell});
    CHECK(printed.exit_code == 0);
    CHECK(printed.out == read_file(file));
  }
  const auto unknown = sandbox.engram({"completion", "tcsh"});
  CHECK(unknown.exit_code == 2);
}

TEST_CASE("bash completes commands, subcommands, options and their values") {
  const Sandbox sandbox;
  const fs::path cwd = sandbox.work();
  fs::create_directories(cwd);
  CHECK(complete_bash({"engram", "sta"}, cwd) == Offers{"status"});
  CHECK(complete_bash({"engram", "con"}, cwd) == Offers{"config", "consolidate"});
  CHECK(complete_bash({"engram", "config", ""}, cwd) == Offers{"keys", "show"});
  CHECK(complete_bash({"engram", "log", "--m"}, cwd) == Offers{"--max-count"});
  CHECK(complete_bash({"engram", "--log-level", "d"}, cwd) == Offers{"debug"});
  // An option's value is not a command: `status` is found after --config FILE.
  CHECK(complete_bash({"engram", "--config", "status", "status", "--js"}, cwd) == Offers{"--json"});
  // The hidden command is not offered.
  CHECK(complete_bash({"engram", "man"}, cwd).empty());
  // Every command --help lists is offered under its parent.
  for (const auto& command : engram::test::help_tree(sandbox)) {
    auto words = command.path;
    words.insert(words.begin(), "engram");
    words.push_back("");
    INFO(engram::test::full_name(command));
    auto expected = command.subcommands;
    std::sort(expected.begin(), expected.end());
    if (!expected.empty()) {
      CHECK(complete_bash(words, cwd) == expected);
    }
    words.back() = "-";
    auto options = command.options;
    std::sort(options.begin(), options.end());
    CHECK(complete_bash(words, cwd) == options);
  }
}

TEST_CASE("bash completes a store path with the folders and files there") {
  const Sandbox sandbox;
  const fs::path cwd = sandbox.work();
  fs::create_directories(cwd / "memory-alice");
  fs::create_directories(cwd / "memory-bob");
  fs::create_directories(cwd / "notes");
  engram::test::write_file(cwd / "memory.toml", "");
  const std::string prefix = (cwd / "memory-").string();
  CHECK(complete_bash({"engram", "status", "--store", prefix}, cwd) ==
        Offers{prefix + "alice", prefix + "bob"});
  // Relative to where the shell is, as a user types it.
  CHECK(complete_bash({"engram", "daemon", "--store", "memory-a"}, cwd) == Offers{"memory-alice"});
  CHECK(complete_bash({"engram", "--config", "memory."}, cwd) == Offers{"memory.toml"});
  CHECK(complete_bash({"engram", "init", "no"}, cwd) == Offers{"notes"});
  CHECK(complete_bash({"engram", "init", "--example", "memory"}, cwd) ==
        Offers{"memory-alice", "memory-bob"});
}

TEST_CASE("fish completes a command, an option and a store path") {
  const Sandbox sandbox;
  if (engram::test::run({"sh", "-c", "command -v fish"}).exit_code != 0) {
    WARN("fish is not installed (make setup installs it); its completion was not tried");
    return;
  }
  const fs::path cwd = sandbox.work();
  fs::create_directories(cwd / "memory-alice");
  engram::test::write_file(cwd / "memory.toml", "");
  const fs::path script = k_share / "fish" / "vendor_completions.d" / "engram.fish";
  // `complete -C LINE` prints what fish offers for LINE, one offer a line,
  // a tab before its description.
  const auto offers = [&](const std::string& line) {
    const auto result = engram::test::run(
        {"fish", "--no-config", "-c", "cd $argv[1]; and source $argv[2]; and complete -C $argv[3]",
         cwd.string(), script.string(), line});
    INFO(result.err);
    REQUIRE(result.exit_code == 0);
    Offers words;
    for (const auto& offer : result.out_lines()) {
      words.push_back(offer.substr(0, offer.find('\t')));
    }
    std::sort(words.begin(), words.end());
    return words;
  };
  CHECK(offers("engram sta") == Offers{"status"});
  CHECK(offers("engram config ") == Offers{"keys", "show"});
  CHECK(offers("engram --config status status --js") == Offers{"--json"});
  CHECK(offers("engram status --store memory-") == Offers{"memory-alice/"});
}

TEST_CASE("zsh and fish parse their completion scripts") {
  const Sandbox sandbox;
  const std::vector<std::pair<std::string, std::vector<std::string>>> shells{
      {"zsh", {"zsh", "--no-rcs", "-n"}}, {"fish", {"fish", "--no-config", "--no-execute"}}};
  for (const auto& [shell, check] : shells) {
    INFO(shell);
    if (engram::test::run({"sh", "-c", "command -v " + shell}).exit_code != 0) {
      WARN(shell + " is not installed (make setup installs it); its script was not parsed");
      continue;
    }
    const fs::path script = sandbox.work(shell + "-completion");
    engram::test::write_file(script, sandbox.engram({"completion", shell}).out);
    auto args = check;
    args.push_back(script.string());
    const auto parsed = engram::test::run(args);
    INFO(parsed.err);
    CHECK(parsed.exit_code == 0);
    CHECK(parsed.err.empty());
  }
}
