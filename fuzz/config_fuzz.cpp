// libFuzzer target for the configuration loader: any text loads to a
// configuration or to diagnostics, each `file:line: message`, and never
// throws; what loads renders (`engram config show`) to TOML that loads back
// to the same configuration and renders to the same bytes.
#include "config/config.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

// The name the text is loaded under, in diagnostics and as the base of relative paths.
constexpr std::string_view k_name = "/fuzz/config.toml";

// Stops the run with a reason: a broken invariant is a finding.
[[noreturn]] void fail(const char* what, std::string_view detail = {}) {
  std::fprintf(stderr, "config_fuzz: invariant broken: %s\n%.*s\n", what,
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

// Whether `message` is `<k_name>:<line>: <text>` with a line of 1 or more.
bool is_diagnostic(std::string_view message) {
  if (!message.starts_with(k_name) || message.size() <= k_name.size() + 1 ||
      message[k_name.size()] != ':') {
    return false;
  }
  message.remove_prefix(k_name.size() + 1);
  std::size_t digits = 0;
  while (digits < message.size() && message[digits] >= '0' && message[digits] <= '9') {
    ++digits;
  }
  return digits > 0 && message[0] != '0' && message.substr(digits).starts_with(": ") &&
         message.size() > digits + 2;
}

// Whether two loaded configurations are the same, store by store.
bool same(const engram::config::Config& a, const engram::config::Config& b) {
  if (!(a.global == b.global) || a.stores.size() != b.stores.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.stores.size(); ++i) {
    const auto& x = a.stores[i];
    const auto& y = b.stores[i];
    if (x.path != y.path || x.name != y.name || !(x.settings == y.settings)) {
      return false;
    }
  }
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto loaded = engram::config::load_text(text, k_name);
  if (!loaded) {
    if (loaded.error().empty()) {
      fail("a configuration refused without a reason");
    }
    for (const auto& message : loaded.error()) {
      if (!is_diagnostic(message)) {
        fail("a diagnostic that is not file:line: message", message);
      }
    }
    return 0;
  }
  const auto rendered = engram::config::render_toml(*loaded);
  const auto again = engram::config::load_text(rendered, k_name);
  if (!again) {
    fail("`config show` of a loaded configuration does not load",
         rendered + "\n" + again.error().front());
  }
  if (!same(*loaded, *again)) {
    fail("`config show` of a loaded configuration loads to another one", rendered);
  }
  if (engram::config::render_toml(*again) != rendered) {
    fail("rendering a configuration twice gives other bytes", rendered);
  }
  return 0;
}
