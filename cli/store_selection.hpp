// Store selection: which store a command works on (--store, else the first
// `[[store]]` of the configuration, else the default path) and its settings.
#pragma once

#include "config/config.hpp"
#include "engram/date.hpp"
#include "store/layout.hpp"
#include "store/scan.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace CLI {
class App;
} // namespace CLI

namespace engram::cli {

// The store a command works on, with the settings that apply to it.
struct SelectedStore {
  std::filesystem::path root;
  config::Settings settings;
  store::Layout layout;
  store::ScanLimits limits;
};

// Adds `--store PATH` to a subcommand.
void add_store_option(CLI::App& command, std::optional<std::filesystem::path>& store);

// The store named by `option`, else the configuration's first `[[store]]`,
// else config::default_store_path(), with its effective settings.
SelectedStore select_store(const config::Config& config,
                           const std::optional<std::filesystem::path>& option);

// True, after saying why on stderr, when `selected` is a folder engram must
// change nothing in (engine::hands_off_reason: Letta's, basic-memory's).
bool refuses_hands_off(const SelectedStore& selected, std::string_view command);

// Today's date in the local time zone.
Date local_today();

// The date a command runs as: `--now` when given (printing why it is not a
// date and returning nullopt when it is not one), else local_today().
std::optional<Date> today_from(const std::optional<std::string>& now, std::string_view command);

} // namespace engram::cli
