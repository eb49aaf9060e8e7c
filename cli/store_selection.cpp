// Store selection and the settings-derived views (layout, scan limits) of it.
#include "cli/store_selection.hpp"

#include "engine/consolidation.hpp"

#include <CLI/CLI.hpp>
#include <ctime>
#include <fmt/format.h>

namespace engram::cli {

void add_store_option(CLI::App& command, std::optional<std::filesystem::path>& store) {
  command
      .add_option("--store", store,
                  "The store folder (default: the first [[store]] of the configuration, "
                  "else $XDG_DATA_HOME/engram/memory)")
      ->type_name("PATH");
}

bool refuses_hands_off(const SelectedStore& selected, std::string_view command) {
  const auto reason = engine::hands_off_reason(selected.root, selected.settings);
  if (!reason.empty()) {
    fmt::print(stderr, "engram: {}: {}\n", command, reason);
  }
  return !reason.empty();
}

SelectedStore select_store(const config::Config& config,
                           const std::optional<std::filesystem::path>& option) {
  // One spelling per folder, so `[[store]]` sections match however --store was written.
  std::filesystem::path root =
      option ? config::normalise_path(option->string(), std::filesystem::current_path())
      : !config.stores.empty() ? config.stores.front().path
                               : config::default_store_path();

  SelectedStore selected;
  selected.settings = config.settings_for(root);
  selected.layout = engine::layout_from(selected.settings, root);
  selected.limits.max_file_bytes =
      static_cast<std::uintmax_t>(selected.settings.get_int("scan.max_file_bytes"));
  selected.root = std::move(root);
  return selected;
}

std::optional<Date> today_from(const std::optional<std::string>& now, std::string_view command) {
  if (!now) {
    return local_today();
  }
  const auto parsed = Date::parse(*now);
  if (!parsed) {
    fmt::print(stderr, "engram: {}: --now must be a date YYYY-MM-DD, not '{}'\n", command, *now);
  }
  return parsed;
}

Date local_today() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  return Date(local.tm_year + 1900, static_cast<unsigned>(local.tm_mon + 1),
              static_cast<unsigned>(local.tm_mday));
}

} // namespace engram::cli
