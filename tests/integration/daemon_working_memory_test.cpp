// The working-memory rule in one daemon's life: the rule keeps each store's
// overflow files between runs and looks only at what changed since, so an
// overflow file an append makes after the daemon's first run must still be
// found, and the items diverted into it put back.
#include "lib/daemon_process.hpp"
#include "lib/stores.hpp"

#include <catch2/catch.hpp>
#include <fmt/format.h>

namespace fs = std::filesystem;
using engram::test::DaemonProcess;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::wait_until;
using namespace std::chrono_literals;

TEST_CASE("with the daemon, every append diverted past the guard is back in WORKING.md") {
  const Sandbox sandbox;
  const auto made = engram::test::daemon_store(
      sandbox, "[guard]\nworking_chars = 600\nworking_target_chars = 400\n");
  DaemonProcess daemon(sandbox, made.store, made.config);
  INFO(daemon.log());
  const fs::path working = made.store / "WORKING.md";
  int diverted = 0;
  int appends = 0;
  for (int i = 0; i < 60 && diverted < 4; ++i, ++appends) {
    const auto text = fmt::format("step {:03}: checked the import batch {}", i, 4000 + i);
    const auto appended = sandbox.engram(
        {"--config", made.config.string(), "append", "--store", made.store.string(), text});
    REQUIRE(appended.exit_code == 0);
    if (appended.out.find("instead of") == std::string::npos) {
      continue;
    }
    // Diverted: the run the append asked for puts it where it was meant.
    ++diverted;
    INFO("append " << i << ": " << appended.out);
    REQUIRE(wait_until([&] { return read_file(working).find(text) != std::string::npos; }, 10s));
    REQUIRE(daemon.wait_idle_after(0, 10s));
    for (const auto& entry : fs::directory_iterator(made.store / "episodic")) {
      REQUIRE_THAT(read_file(entry.path()), !Catch::Contains("diverted from WORKING.md"));
    }
  }
  // The guard was reached more than once: the later overflow files came after
  // the daemon's first run had listed the store's.
  CHECK(diverted >= 2);
  // Every item is somewhere: WORKING.md or an episodic file.
  std::string everything = read_file(working);
  for (const auto& entry : fs::directory_iterator(made.store / "episodic")) {
    everything += read_file(entry.path());
  }
  for (int i = 0; i < appends; ++i) {
    CHECK_THAT(everything, Catch::Contains(fmt::format("step {:03}:", i)));
  }
  CHECK(daemon.stop() == 0);
}
