// `engram consolidate` builds its model in large pages (src/base/heap.hpp):
// paused before its commit, the real binary's heap holds transparent huge
// pages. Seen only where the kernel gives them on request and the binary
// runs on mimalloc (not in sanitizer builds); elsewhere the test says so.
#include "lib/history.hpp"
#include "lib/paused_run.hpp"

#include <catch2/catch.hpp>
#include <fstream>

namespace fs = std::filesystem;
using namespace engram::test;

namespace {

// The kB a /proc/PID/smaps_rollup line gives for `field`; -1 when absent.
long rollup_kb(pid_t pid, const std::string& field) {
  std::ifstream rollup("/proc/" + std::to_string(pid) + "/smaps_rollup");
  std::string line;
  while (std::getline(rollup, line)) {
    if (line.starts_with(field + ":")) {
      return std::stol(line.substr(field.size() + 1));
    }
  }
  return -1;
}

// Whether the kernel gives transparent huge pages, at least to memory that asks.
bool kernel_gives_huge_pages() {
  const fs::path enabled = "/sys/kernel/mm/transparent_hugepage/enabled";
  return fs::exists(enabled) && read_file(enabled).find("[never]") == std::string::npos;
}

} // namespace

TEST_CASE("a consolidation's heap is in transparent huge pages where the kernel gives them") {
  if (!kernel_gives_huge_pages()) {
    WARN("this kernel gives no transparent huge pages: not seen here");
    return;
  }
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  Run run(sandbox, "consolidate",
          {"consolidate", "--store", store.string(), "--now", k_history_now}, "before-commit");
  REQUIRE(run.wait_paused());
  const std::string maps = read_file("/proc/" + std::to_string(run.pid()) + "/maps");
  const long huge_kb = rollup_kb(run.pid(), "AnonHugePages");
  run.resume();
  const auto done = run.finish();
  INFO(done.out << done.err);
  REQUIRE(done.exit_code == 0);
  if (maps.find("libmimalloc") == std::string::npos) {
    WARN("engram does not run on mimalloc in this build: not seen here");
    return;
  }
  // At least one 2 MiB page.
  CHECK(huge_kb >= 2048);
}
