// engram.toml(5): the configuration manual, written from the key table (see manual.hpp).
#include "cli/manual.hpp"
#include "cli/roff.hpp"
#include "config/config.hpp"
#include "config/key_table.hpp"
#include "engram_version.hpp"

#include <fmt/format.h>

namespace engram::cli {

namespace {

// A small configuration that shows each way a key is written.
constexpr const char* k_example = R"([guard]
working_chars = 6000

[[store]]
path = "~/agents/alice/memory"
profile = "claude-code"
guard.working_chars = 4000)";

// One key: its full name, then its type, limits and default, then what it means.
std::string key_entry(const config::Key& key) {
  std::string body =
      fmt::format("{} Type: {}. Default: {}.", key.help, config::describe_limits(key),
                  config::render_value(key.default_value));
  if (key.form == config::Form::path) {
    body += " A leading ~ is your home folder.";
  }
  return roff::tagged(roff::bold(key.name), body);
}

// Every table of the key table, with its keys.
std::string keys() {
  std::string out = roff::section("KEYS");
  out += roff::paragraph("Each key is shown by its full name, which is also how a [[store]] "
                         "section overrides it; in its own table it is written by its last part "
                         "(`working_chars = 4000` under `[guard]`).");
  for (const auto& table : config::k_config_tables) {
    out += roff::subsection(fmt::format("[{}]", table.name));
    out += roff::prose(table.help) + "\n";
    for (const auto& key : config::k_config_key_table) {
      if (config::table_of(key.name) == table.name) {
        out += key_entry(key);
      }
    }
  }
  return out;
}

} // namespace

std::string config_manual() {
  std::string out = roff::header("ENGRAM.TOML", 5, k_version, "File Formats");
  out += roff::section("NAME");
  out += "engram.toml \\- the configuration of engram\n";
  out += roff::section("SYNOPSIS");
  out += roff::italic("$XDG_CONFIG_HOME/engram/config.toml") + "\n";
  out += roff::section("DESCRIPTION");
  out += roff::prose(config::k_config_intro) + "\n";
  out += keys();
  out += roff::section("STORES");
  out += roff::subsection("[[store]]");
  out += roff::prose(config::k_store_section_help) + "\n";
  out += roff::section("PLUGIN RULES");
  out += roff::subsection("[rules.<plugin rule>]");
  out += roff::prose(config::k_plugin_rules_help) + "\n";
  out += roff::section("EXAMPLE");
  out += ".PP\n.nf\n.RS\n";
  std::string_view example = k_example;
  while (!example.empty()) {
    const auto end = example.find('\n');
    out += roff::text(example.substr(0, end)) + "\n";
    example = end == std::string_view::npos ? std::string_view{} : example.substr(end + 1);
  }
  out += ".RE\n.fi\n";
  out += roff::section("SEE ALSO");
  out += roff::bold("engram") + "(1)\n";
  return out;
}

} // namespace engram::cli
