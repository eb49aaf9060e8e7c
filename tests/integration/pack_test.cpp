// Packing the loose objects commits add, as a user sees it: `engram pack` and
// the daemon on real stores, read back with the real `git`. Nothing a commit
// holds may change or go missing; the loose copies go only once a pack holds
// them.
#include "lib/daemon_process.hpp"
#include "lib/history.hpp"
#include "lib/paused_run.hpp"

#include <catch2/catch.hpp>
#include <fcntl.h>
#include <map>
#include <sys/file.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

using engram::test::check_sound;
using engram::test::DaemonProcess;
using engram::test::git_lines;
using engram::test::git_out;
using engram::test::history_of;
using engram::test::k_history_now;
using engram::test::make_history_store;
using engram::test::memory_files;
using engram::test::object_counts;
using engram::test::read_file;
using engram::test::Sandbox;
using engram::test::semantic_memory;
using engram::test::wait_until;
using engram::test::write_file;
using namespace std::chrono_literals;

// A store with several commits of engram's, their objects loose.
fs::path store_with_history(const Sandbox& sandbox) {
  const fs::path store = make_history_store(sandbox);
  REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now})
              .exit_code == 0);
  for (const std::string topic : {"billing", "search", "queues"}) {
    write_file(
        store / "semantic" / (topic + ".md"),
        semantic_memory({topic, "ops"}, "2026-11-01",
                        "# " + topic + "\n\n- The " + topic + " service runs on port 80.\n"));
    REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now})
                .exit_code == 0);
  }
  return store;
}

} // namespace

TEST_CASE(
    "engram pack moves a store's loose objects into one pack and the history reads the same") {
  const Sandbox sandbox;
  const fs::path store = store_with_history(sandbox);
  const auto before = object_counts(sandbox, store);
  REQUIRE(before.at("count") > 0);
  const std::string history = history_of(sandbox, store);
  const auto files = memory_files(store);

  const auto packed = sandbox.engram({"pack", "--store", store.string()});
  INFO(packed.err);
  REQUIRE(packed.exit_code == 0);
  CHECK_THAT(packed.err,
             Catch::Contains("packed " + std::to_string(before.at("count")) + " loose objects"));
  const auto after = object_counts(sandbox, store);
  CHECK(after.at("count") == 0);
  CHECK(after.at("in-pack") == before.at("in-pack") + before.at("count"));
  CHECK(after.at("packs") == before.at("packs") + 1);
  CHECK(history_of(sandbox, store) == history);
  CHECK(memory_files(store) == files);
  check_sound(sandbox, store);

  // Nothing loose: nothing to do. And the store goes on: commits after a
  // pack are loose again, and sound.
  const auto again = sandbox.engram({"pack", "--store", store.string()});
  CHECK(again.exit_code == 0);
  CHECK_THAT(again.err, Catch::Contains("nothing to pack"));
  write_file(store / "semantic" / "payments.md",
             semantic_memory({"payments", "ops"}, "2026-11-02",
                             "# Payments\n\n- Refunds settle within 5 days.\n"));
  REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now})
              .exit_code == 0);
  CHECK(object_counts(sandbox, store).at("count") > 0);
  check_sound(sandbox, store);
}

TEST_CASE("loose objects that cannot be read are left as they are, and every other one is packed") {
  const Sandbox sandbox;
  const fs::path store = store_with_history(sandbox);
  const auto before = object_counts(sandbox, store);
  const std::string history = history_of(sandbox, store);
  const fs::path objects = store / ".git" / "objects";
  // An object file that is not zlib at all, and one whose bytes are another
  // object's (its header reads well; its id does not match what it holds).
  const fs::path garbage = objects / "ab" / std::string(38, 'c');
  fs::create_directories(garbage.parent_path());
  write_file(garbage, "not an object");
  const std::string head_tree = git_out(sandbox, store, {"rev-parse", "HEAD^{tree}"}).substr(0, 40);
  const fs::path mismatched = objects / "ab" / std::string(38, 'd');
  fs::copy_file(objects / head_tree.substr(0, 2) / head_tree.substr(2), mismatched);

  const auto packed = sandbox.engram({"pack", "--store", store.string()});
  INFO(packed.err);
  CHECK(packed.exit_code == 1);
  CHECK_THAT(packed.err, Catch::Contains("1 loose object could not be read"));
  CHECK(read_file(garbage) == "not an object");
  // git reads the other as the tree it holds and packs it under its name,
  // as it packs every object it can read: nothing of it is lost.
  CHECK(git_out(sandbox, store, {"cat-file", "-t", "ab" + std::string(38, 'd')}) == "tree\n");
  const auto after = object_counts(sandbox, store);
  CHECK(after.at("count") == 1);
  CHECK(after.at("in-pack") == before.at("in-pack") + before.at("count") + 1);
  CHECK(history_of(sandbox, store) == history);
}

TEST_CASE("engram pack leaves the objects alone while another engram is packing") {
  const Sandbox sandbox;
  const fs::path store = store_with_history(sandbox);
  const auto before = object_counts(sandbox, store);
  const fs::path lock = store / ".git" / "engram-packing";
  const int held = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  REQUIRE(held >= 0);
  REQUIRE(::flock(held, LOCK_EX) == 0);
  const auto busy = sandbox.engram({"pack", "--store", store.string()});
  CHECK(busy.exit_code == 0);
  CHECK_THAT(busy.err, Catch::Contains("another engram is packing"));
  CHECK(object_counts(sandbox, store) == before);
  ::close(held); // the other packer is gone: its lock with it
  CHECK(sandbox.engram({"pack", "--store", store.string()}).exit_code == 0);
  CHECK(object_counts(sandbox, store).at("count") == 0);
}

TEST_CASE("the daemon packs a quiet store's loose objects once they pass git.pack_loose_bytes") {
  const Sandbox sandbox;
  const auto made =
      engram::test::daemon_store(sandbox, "", "release_after_s = 1\nlog_level = \"debug\"\n");
  // Any loose object is over one byte.
  std::string config = read_file(made.config);
  const std::string git_table = "[git]\n";
  config.replace(config.find(git_table), git_table.size(), git_table + "pack_loose_bytes = 1\n");
  write_file(made.config, config);
  DaemonProcess daemon(sandbox, made.store, made.config);

  const auto before = engram::test::head_of(made.store);
  write_file(made.store / "semantic" / "billing.md",
             semantic_memory({"billing", "ops"}, "2026-11-01",
                             "# Billing\n\n- Invoices are sent on the first day of the month.\n"));
  INFO(daemon.log());
  REQUIRE(wait_until([&] { return engram::test::head_of(made.store) != before; }, 10s));
  // Released a second after its last run, then packed on the packer's thread.
  REQUIRE(wait_until([&] { return daemon.log().find("packed ") != std::string::npos; }, 20s));
  CHECK(object_counts(sandbox, made.store).at("count") == 0);
  check_sound(sandbox, made.store);

  // The daemon's next commit, after the pack under it, is as sound.
  const auto packed_head = engram::test::head_of(made.store);
  write_file(made.store / "semantic" / "search.md",
             semantic_memory({"search", "ops"}, "2026-11-01",
                             "# Search\n\n- The search index is rebuilt every night.\n"));
  REQUIRE(wait_until([&] { return engram::test::head_of(made.store) != packed_head; }, 10s));
  REQUIRE(daemon.wait_idle_after(0, 10s));
  CHECK(daemon.stop() == 0);
  check_sound(sandbox, made.store);
  CHECK(git_out(sandbox, made.store, {"show", "HEAD:semantic/search.md"}).find("rebuilt") !=
        std::string::npos);
}

TEST_CASE("objects a commit writes while engram pack works stay whole") {
  const Sandbox sandbox;
  const fs::path store = store_with_history(sandbox);
  const auto listed = object_counts(sandbox, store).at("count");
  // The packer has listed the loose objects; a consolidation then commits.
  engram::test::Run packing(sandbox, "pack", {"pack", "--store", store.string()}, "packing-listed");
  REQUIRE(packing.wait_paused());
  write_file(store / "semantic" / "payments.md",
             semantic_memory({"payments", "ops"}, "2026-11-02",
                             "# Payments\n\n- Refunds settle within 5 days.\n"));
  REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now})
              .exit_code == 0);
  REQUIRE(object_counts(sandbox, store).at("count") > listed);
  const std::string history = history_of(sandbox, store);
  packing.resume();
  const auto packed = packing.finish();
  INFO(packed.err);
  CHECK(packed.exit_code == 0);
  CHECK_THAT(packed.err, Catch::Contains("packed " + std::to_string(listed) + " loose objects"));
  CHECK(history_of(sandbox, store) == history);
  check_sound(sandbox, store);
}

TEST_CASE("engram pack killed at any step loses no object, and the next one finishes") {
  const Sandbox sandbox;
  const auto point = GENERATE(as<std::string>{}, "packing-listed", "packing-repacked");
  INFO(point);
  const fs::path store = store_with_history(sandbox);
  const auto before = object_counts(sandbox, store);
  const std::string history = history_of(sandbox, store);
  const auto killed = engram::test::engram_with(sandbox, {"pack", "--store", store.string()},
                                                {{"ENGRAM_TEST_CRASH_AT", point}});
  CHECK(killed.exit_code == 128 + SIGKILL);
  CHECK(history_of(sandbox, store) == history);
  check_sound(sandbox, store);
  // Whatever git had done when its caller died stays done, and the next
  // packing finishes the rest.
  REQUIRE(sandbox.engram({"pack", "--store", store.string()}).exit_code == 0);
  const auto after = object_counts(sandbox, store);
  CHECK(after.at("count") == 0);
  CHECK(after.at("packs") > before.at("packs"));
  CHECK(history_of(sandbox, store) == history);
  check_sound(sandbox, store);
}

TEST_CASE("packing after each change keeps the packs few, and one killed after its repack loses "
          "nothing") {
  const Sandbox sandbox;
  const fs::path store = store_with_history(sandbox);
  bool killed = false;
  for (int round = 0; round < 8; ++round) {
    write_file(store / "semantic" / ("topic-" + std::to_string(round) + ".md"),
               semantic_memory({"topic", "round" + std::to_string(round)}, "2026-11-03",
                               "# Topic\n\n- Round " + std::to_string(round) + " is done.\n"));
    REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now})
                .exit_code == 0);
    const std::string history = history_of(sandbox, store);
    // Until one is killed after writing its merged pack, every packing is.
    const auto packed = engram::test::engram_with(
        sandbox, {"pack", "--store", store.string()},
        killed ? engram::test::Environment{}
               : engram::test::Environment{{"ENGRAM_TEST_CRASH_AT", "packing-repacked"}});
    INFO("round " << round << ": " << packed.err);
    if (packed.exit_code == 128 + SIGKILL) {
      killed = true; // git's repack was done: killing its caller loses nothing
    } else {
      REQUIRE(packed.exit_code == 0);
    }
    CHECK(history_of(sandbox, store) == history);
    check_sound(sandbox, store);
  }
  CHECK(killed);
  const auto last = sandbox.engram({"pack", "--store", store.string()});
  CHECK(last.exit_code == 0);
  const auto counts = object_counts(sandbox, store);
  CHECK(counts.at("count") == 0);
  CHECK(counts.at("packs") <= 4); // a few, growing geometrically: not one a round
  check_sound(sandbox, store);
}

TEST_CASE("a full consolidation without a daemon starts engram pack once the loose objects pass "
          "git.pack_loose_bytes, and returns without waiting for it") {
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  const fs::path config = sandbox.work("pack.toml");
  write_file(config, "[git]\npack_loose_bytes = 1\n");
  const auto consolidated = sandbox.engram({"--config", config.string(), "consolidate", "--store",
                                            store.string(), "--now", k_history_now});
  INFO(consolidated.err);
  REQUIRE(consolidated.exit_code == 0);
  REQUIRE(wait_until([&] { return object_counts(sandbox, store).at("count") == 0; }, 20s));
  CHECK(object_counts(sandbox, store).at("packs") >= 1);
  check_sound(sandbox, store);
  engram::test::check_every_claim(store);
}
