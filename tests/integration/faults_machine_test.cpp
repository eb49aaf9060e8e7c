// Faults of the machine, with the real binary: a disk that fills up during a
// consolidation (a rollback, a restore, an init, a packing), a store that is
// read-only, a store folder removed or renamed under the daemon, and inotify
// out of watches. Disk and read-only faults need mounts (a small tmpfs, a
// read-only bind mount), so those tests run as root and skip, saying why,
// where mounting is not allowed.
#include "base/platform.hpp"
#include "lib/daemon_process.hpp"
#include "lib/history.hpp"

#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <optional>
#include <sys/mount.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace engram::test;
using namespace std::chrono_literals;

namespace {

// A mount made for one test, undone (lazily, so a daemon's open files cannot
// keep it) when it goes.
class Mounted {
public:
  // Mounts a tmpfs of `bytes` at `target`; nullopt, with why in `error`, when it cannot.
  static std::optional<Mounted> tmpfs(const fs::path& target, std::size_t bytes,
                                      std::string& error) {
    fs::create_directories(target);
    const std::string options = fmt::format("size={}", bytes);
    if (::mount("tmpfs", target.c_str(), "tmpfs", 0, options.c_str()) != 0) {
      error = std::strerror(errno);
      return std::nullopt;
    }
    return Mounted(target);
  }

  // Makes `folder` read-only by bind-mounting it onto itself read-only.
  static std::optional<Mounted> read_only(const fs::path& folder, std::string& error) {
    if (::mount(folder.c_str(), folder.c_str(), nullptr, MS_BIND, nullptr) != 0) {
      error = std::strerror(errno);
      return std::nullopt;
    }
    Mounted bound(folder);
    if (::mount(nullptr, folder.c_str(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) != 0) {
      error = std::strerror(errno);
      return std::nullopt; // `bound` unmounts the writable bind
    }
    return bound;
  }

  Mounted(Mounted&& other) noexcept : m_target(std::exchange(other.m_target, {})) {}
  Mounted& operator=(Mounted&&) = delete;
  ~Mounted() { release(); }

  // Unmounts now.
  void release() {
    if (!m_target.empty()) {
      ::umount2(m_target.c_str(), MNT_DETACH);
      m_target.clear();
    }
  }

private:
  explicit Mounted(fs::path target) : m_target(std::move(target)) {}
  fs::path m_target;
};

// Why mounting cannot be tested here, or empty when it can.
std::string cannot_mount() {
  return ::geteuid() == 0 ? std::string() : std::string("not root");
}

// Fills the file system holding `filler` until a write fails, then frees
// `leave` bytes of it again.
void fill(const fs::path& filler, std::size_t leave) {
  const int fd = ::open(filler.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  REQUIRE(fd >= 0);
  const std::string block(4096, 'f');
  std::size_t size = 0;
  for (;;) {
    const ssize_t wrote = ::write(fd, block.data(), block.size());
    if (wrote <= 0) {
      break;
    }
    size += static_cast<std::size_t>(wrote);
  }
  REQUIRE(::ftruncate(fd, static_cast<off_t>(size > leave ? size - leave : 0)) == 0);
  ::close(fd);
}

// The bytes of each memory file a store would have after a consolidation at
// k_history_now, from a twin of make_history_store() on an ordinary disk.
std::map<std::string, std::string> consolidated_twin(const Sandbox& sandbox) {
  const fs::path twin = make_history_store(sandbox, "twin");
  const auto result =
      sandbox.engram({"consolidate", "--store", twin.string(), "--now", k_history_now});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return memory_files(twin);
}

// A 4 MiB tmpfs at the sandbox's disk/ folder; nullopt, with a warning,
// where none can be mounted (not root).
std::optional<Mounted> small_disk(const Sandbox& sandbox) {
  if (const auto why = cannot_mount(); !why.empty()) {
    WARN("disk full not tested: mounting a small tmpfs needs root (" + why + ")");
    return std::nullopt;
  }
  std::string error;
  auto disk = Mounted::tmpfs(sandbox.work("disk"), 4 << 20, error);
  if (!disk) {
    WARN("disk full not tested: cannot mount a tmpfs (" + error + ")");
  }
  return disk;
}

// Checks a run that failed on a full disk: it says so, each memory file is
// as it was (`before`) or as the run makes it (`expected`), nothing the run
// keeps is removed, and git finds the repository sound.
void check_failed_cleanly(const Sandbox& sandbox, const fs::path& store, const Result& failed,
                          const std::map<std::string, std::string>& before,
                          const std::map<std::string, std::string>& expected) {
  CHECK(failed.exit_code == 1);
  CHECK_THAT(failed.err, Catch::Contains("No space left on device"));
  const auto now = memory_files(store);
  for (const auto& [path, bytes] : now) {
    const bool as_before = before.contains(path) && before.at(path) == bytes;
    const bool as_after = expected.contains(path) && expected.at(path) == bytes;
    INFO(path);
    CHECK((as_before || as_after));
  }
  // A removal comes only after every write landed, and then its claims are written.
  for (const auto& [path, bytes] : before) {
    INFO(path);
    CHECK((now.contains(path) || !expected.contains(path)));
  }
  const auto fsck = sandbox.git(store, {"fsck", "--full", "--strict"});
  INFO(fsck.out + fsck.err);
  CHECK(fsck.exit_code == 0);
}

} // namespace

TEST_CASE("a consolidation that runs out of disk space fails cleanly, and the next one succeeds") {
  const Sandbox sandbox;
  const auto disk = small_disk(sandbox);
  if (!disk) {
    return;
  }
  const auto expected = consolidated_twin(sandbox);
  // Out of space at different moments of the run: the snapshot, the objects,
  // the working state, the writes, the commit. Around 36 KiB and 128 KiB
  // left, the commit object is what no longer fits (libgit2's
  // git_commit_create did not report that; see git/commit.cpp).
  std::size_t failed = 0;
  const std::size_t leaves[] = {0,     4096,  8192,   16384,  32768, 36864,
                                38912, 65536, 126976, 129024, 131072};
  for (const std::size_t leave : leaves) {
    INFO("space left: " << leave);
    const fs::path store = make_history_store(sandbox, fmt::format("disk/store-{}", leave));
    const auto before = memory_files(store);
    fill(sandbox.work("disk/filler"), leave);

    const auto full =
        sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
    INFO(full.out << full.err);
    if (full.exit_code == 0) {
      // Done, though the index may not have fitted after the commit: then
      // it says so, and git status is off only until the next run.
      const auto status = sandbox.git(store, {"status", "--porcelain"});
      INFO(status.out);
      CHECK(
          (status.out.empty() || full.err.find("the index was not written") != std::string::npos));
    } else {
      ++failed;
      check_failed_cleanly(sandbox, store, full, before, expected);
      check_every_claim(store);
    }

    // Space back: the next run finishes the work, and the store is as it should be.
    fs::remove(sandbox.work("disk/filler"));
    const auto again =
        sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
    INFO(again.out << again.err);
    CHECK(again.exit_code == 0);
    check_every_claim(store);
    check_sound(sandbox, store);
    CHECK(memory_files(store) == expected);
    fs::remove_all(store);
  }
  std::cout << fmt::format("disk full: {} of {} runs ran out of space and failed cleanly\n", failed,
                           std::size(leaves));
  CHECK(failed >= 3);
}

TEST_CASE("a rollback or restore that runs out of disk space fails cleanly, and run again "
          "it does what it would have done") {
  struct Undo {
    std::string name;
    std::vector<std::string> args; // after `--store PATH`
  };
  const Undo undo =
      GENERATE(Undo{"rollback", {"HEAD"}}, Undo{"restore", {"HEAD~1", "--", "episodic"}});
  INFO(undo.name);
  const Sandbox sandbox;
  const auto disk = small_disk(sandbox);
  if (!disk) {
    return;
  }
  // A consolidated store, and a twin of it undone on an ordinary disk.
  const auto consolidated = [&](const std::string& name) {
    const fs::path store = make_history_store(sandbox, name);
    REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now})
                .exit_code == 0);
    return store;
  };
  const auto command = [&](const fs::path& store) {
    std::vector<std::string> args{undo.name, "--store", store.string()};
    args.insert(args.end(), undo.args.begin(), undo.args.end());
    return args;
  };
  const fs::path twin = consolidated("twin");
  REQUIRE(sandbox.engram(command(twin)).exit_code == 0);
  const auto expected = memory_files(twin);
  std::size_t failed = 0;
  for (const std::size_t leave : {0, 4096, 8192, 16384, 32768, 49152, 65536, 131072}) {
    INFO("space left: " << leave);
    const fs::path store = consolidated(fmt::format("disk/store-{}", leave));
    const auto before = memory_files(store);
    fill(sandbox.work("disk/filler"), leave);
    const auto full = sandbox.engram(command(store));
    INFO(full.out << full.err);
    if (full.exit_code != 0) {
      ++failed;
      check_failed_cleanly(sandbox, store, full, before, expected);
    }
    // Space back, and a failed command run again: what one run on a roomy
    // disk does (a rollback of HEAD undoes the same commit, not its own).
    fs::remove(sandbox.work("disk/filler"));
    if (full.exit_code != 0) {
      const auto again = sandbox.engram(command(store));
      INFO(again.out << again.err);
      CHECK(again.exit_code == 0);
    }
    CHECK(memory_files(store) == expected);
    if (full.exit_code == 0 && full.err.find("the index was not written") != std::string::npos) {
      // Done, with git status off until the next run (it says so): sound all the same.
      CHECK(sandbox.git(store, {"fsck", "--full", "--strict"}).exit_code == 0);
    } else {
      check_sound(sandbox, store);
    }
    fs::remove_all(store);
  }
  std::cout << fmt::format("disk full: {} of 8 {}s ran out of space and failed cleanly\n", failed,
                           undo.name);
  CHECK(failed >= 2);
}

TEST_CASE("engram init that runs out of disk space fails cleanly, and run again it makes the "
          "store") {
  const Sandbox sandbox;
  const auto disk = small_disk(sandbox);
  if (!disk) {
    return;
  }
  const fs::path twin = sandbox.work("twin");
  REQUIRE(sandbox.engram({"init", twin.string()}).exit_code == 0);
  const auto expected = memory_files(twin);
  // Out of space in git's init (its templates, its config), in the files
  // engram writes, and in the first commit.
  std::size_t failed = 0;
  const std::size_t leaves[] = {0, 4096, 8192, 12288, 16384, 20480, 24576, 28672, 65536};
  for (const std::size_t leave : leaves) {
    INFO("space left: " << leave);
    const fs::path store = sandbox.work(fmt::format("disk/store-{}", leave));
    fill(sandbox.work("disk/filler"), leave);
    const auto full = sandbox.engram({"init", store.string()});
    INFO(full.out << full.err);
    if (full.exit_code != 0) {
      ++failed;
      CHECK(full.exit_code == 1);
      CHECK_THAT(full.err, Catch::Contains("No space left on device"));
    }
    // Space back: init again finishes the store, whatever the first left.
    fs::remove(sandbox.work("disk/filler"));
    const auto again = sandbox.engram({"init", store.string()});
    INFO(again.out << again.err);
    CHECK(again.exit_code == 0);
    CHECK(memory_files(store) == expected);
    check_sound(sandbox, store);
    fs::remove_all(store);
  }
  std::cout << fmt::format("disk full: {} of {} inits ran out of space and failed cleanly\n",
                           failed, std::size(leaves));
  CHECK(failed >= 4);
}

TEST_CASE("engram pack that runs out of disk space removes nothing, and run again it packs") {
  const Sandbox sandbox;
  const auto disk = small_disk(sandbox);
  if (!disk) {
    return;
  }
  std::size_t failed = 0;
  const std::size_t leaves[] = {0, 4096, 8192, 16384, 32768, 65536};
  for (const std::size_t leave : leaves) {
    INFO("space left: " << leave);
    const fs::path store = make_history_store(sandbox, fmt::format("disk/store-{}", leave));
    REQUIRE(sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now})
                .exit_code == 0);
    const auto before = object_counts(sandbox, store);
    REQUIRE(before.at("count") > 0);
    const std::string history = history_of(sandbox, store);
    fill(sandbox.work("disk/filler"), leave);

    const auto packed = sandbox.engram({"pack", "--store", store.string()});
    INFO(packed.out << packed.err);
    const auto after = object_counts(sandbox, store);
    if (packed.exit_code == 0) {
      CHECK(after.at("count") == 0);
    } else {
      ++failed;
      CHECK(packed.exit_code == 1);
      // In the words of git, which packs: "write error. Out of diskspace".
      CHECK_THAT(packed.err,
                 Catch::Contains("No space left on device") || Catch::Contains("Out of diskspace"));
      CHECK(after.at("count") == before.at("count")); // no loose copy removed
    }
    const auto fsck = sandbox.git(store, {"fsck", "--full", "--strict"});
    INFO(fsck.out + fsck.err);
    CHECK(fsck.exit_code == 0);

    // Space back: packed, and nothing of the failed run left in the pack folder.
    fs::remove(sandbox.work("disk/filler"));
    CHECK(sandbox.engram({"pack", "--store", store.string()}).exit_code == 0);
    CHECK(object_counts(sandbox, store).at("count") == 0);
    for (const auto& entry : fs::directory_iterator(store / ".git" / "objects" / "pack")) {
      const auto name = entry.path().filename().string();
      INFO(name);
      CHECK((name.starts_with("pack-") && (name.ends_with(".pack") || name.ends_with(".idx"))));
    }
    CHECK(history_of(sandbox, store) == history);
    check_sound(sandbox, store);
    fs::remove_all(store);
  }
  std::cout << fmt::format("disk full: {} of {} packings ran out of space\n", failed,
                           std::size(leaves));
  CHECK(failed >= 2);
}

TEST_CASE("a read-only store is a clear error and is left as it was") {
  if (const auto why = cannot_mount(); !why.empty()) {
    WARN("read-only store not tested: a read-only bind mount needs root (" + why + ")");
    return;
  }
  const Sandbox sandbox;
  const fs::path store = make_history_store(sandbox);
  const auto before = snapshot_tree(store);
  std::string error;
  auto read_only = Mounted::read_only(store, error);
  if (!read_only) {
    WARN("read-only store not tested: cannot bind-mount read-only (" + error + ")");
    return;
  }
  const auto result =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(result.out << result.err);
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("Read-only file system"));
  CHECK(snapshot_tree(store) == before);

  read_only->release();
  const auto writable =
      sandbox.engram({"consolidate", "--store", store.string(), "--now", k_history_now});
  INFO(writable.out << writable.err);
  CHECK(writable.exit_code == 0);
  check_every_claim(store);
  check_sound(sandbox, store);
}

TEST_CASE("the daemon reports a read-only store, keeps running, and retries until it is writable") {
  if (const auto why = cannot_mount(); !why.empty()) {
    WARN("read-only store not tested: a read-only bind mount needs root (" + why + ")");
    return;
  }
  const Sandbox sandbox;
  const auto made = daemon_store(sandbox);
  DaemonProcess daemon(sandbox, made.store, made.config);
  const auto before = head_of(made.store);

  // Paused, the daemon notes the agent's change and runs nothing yet.
  REQUIRE(daemon.ask({{"request", "pause"}}).value("ok", false));
  write_file(
      made.store / "semantic" / "read-only.md",
      semantic_memory({"readonly", "mounts"}, "2026-11-20", "- Written before the mount.\n"));
  INFO(daemon.log());
  REQUIRE(wait_until([&] { return daemon.store_status().value("pending_changes", 0) > 0; }, 10s));
  std::string error;
  auto read_only = Mounted::read_only(made.store, error);
  if (!read_only) {
    WARN("read-only store not tested: cannot bind-mount read-only (" + error + ")");
    return;
  }
  REQUIRE(daemon.ask({{"request", "resume"}}).value("ok", false));

  // The run fails, is reported in the status and the log, and a retry is planned.
  REQUIRE(wait_until(
      [&] {
        const auto last = daemon.store_status().value("last", nlohmann::json());
        return last.is_object() && !last.value("ok", true);
      },
      10s));
  const auto failed = daemon.store_status();
  CHECK_THAT(failed["last"].value("summary", ""), Catch::Contains("Read-only file system"));
  CHECK_THAT(failed["next"].dump(), Catch::Contains("retry after failure"));
  CHECK_THAT(daemon.log(),
             Catch::Contains("consolidation failed") && Catch::Contains("Read-only file system"));
  CHECK(head_of(made.store) == before);

  // Writable again: the retry commits the change, and the daemon never stopped.
  read_only->release();
  REQUIRE(wait_until(
      [&] {
        const auto last = daemon.store_status().value("last", nlohmann::json());
        return last.is_object() && last.value("ok", false) &&
               sandbox.git(made.store, {"status", "--porcelain"}).out.empty();
      },
      20s));
  CHECK(head_of(made.store) != before);
  CHECK(sandbox.git(made.store, {"ls-files", "semantic/read-only.md"}).out ==
        "semantic/read-only.md\n");
  CHECK(daemon.stop() == 0);
}

TEST_CASE("a store folder removed or renamed under the daemon is reported and the others go on") {
  const Sandbox sandbox;
  const auto kept = daemon_store(sandbox, "", "", "kept");
  const auto moved = daemon_store(sandbox, "", "", "moved");
  const auto removed = daemon_store(sandbox, "", "", "removed");
  DaemonProcess daemon(sandbox, kept.store, kept.config, {}, {moved.store, removed.store});
  INFO(daemon.log());

  fs::rename(moved.store, sandbox.work("moved-away"));
  // The daemon may write in it meanwhile (its state folder): remove until it is gone.
  REQUIRE(wait_until(
      [&] {
        std::error_code error;
        fs::remove_all(removed.store, error);
        return !fs::exists(removed.store);
      },
      5s));
  // Each is reported, by name, in the log and in the status.
  REQUIRE(wait_until(
      [&] {
        const std::string log = daemon.log();
        return log.find(moved.store.string() + ": the store's folder is gone") !=
                   std::string::npos &&
               log.find(removed.store.string() + ": the store's folder is gone") !=
                   std::string::npos;
      },
      10s));
  std::string status;
  const bool both_missing = wait_until(
      [&] {
        const auto reply = daemon.ask({{"request", "status"}});
        status = reply.dump();
        std::size_t missing = 0;
        for (const auto& store : reply.value("stores", nlohmann::json::array())) {
          missing += store.value("missing", false) ? 1 : 0;
        }
        return missing == 2;
      },
      20s);
  INFO(status);
  REQUIRE(both_missing);

  // The store still there goes on consolidating.
  const auto before = head_of(kept.store);
  write_file(kept.store / "semantic" / "still-kept.md",
             semantic_memory({"kept", "stores"}, "2026-11-20", "- The daemon goes on.\n"));
  REQUIRE(wait_until(
      [&] {
        return head_of(kept.store) != before &&
               sandbox.git(kept.store, {"status", "--porcelain"}).out.empty();
      },
      10s));
  CHECK(sandbox.git(kept.store, {"ls-files", "semantic/still-kept.md"}).out ==
        "semantic/still-kept.md\n");

  // Moved back, the store is kept again.
  fs::rename(sandbox.work("moved-away"), moved.store);
  write_file(moved.store / "semantic" / "moved-back.md",
             semantic_memory({"moved", "back"}, "2026-11-20", "- It came back.\n"));
  CHECK(wait_until(
      [&] {
        return sandbox.git(moved.store, {"ls-files", "semantic/moved-back.md"}).out ==
                   "semantic/moved-back.md\n" &&
               sandbox.git(moved.store, {"status", "--porcelain"}).out.empty();
      },
      15s));
  CHECK(daemon.stop() == 0);
}

TEST_CASE("out of inotify watches, the daemon polls the unwatched folders, says which sysctl to "
          "raise, and commits their changes") {
  if (std::string(engram::platform::name()) != "linux") {
    WARN("this build has no inotify watcher (cmake/Platform.cmake); not tested");
    return;
  }
  const Sandbox sandbox;
  const auto made = daemon_store(sandbox, "", "poll_interval_ms = 100\n");
  // One watch: the store's own folder. Every folder below it goes unwatched.
  DaemonProcess daemon(sandbox, made.store, made.config,
                       {{"LD_PRELOAD", ENGRAM_WATCH_LIMIT_SHIM}, {"ENGRAM_TEST_MAX_WATCHES", "1"}});
  INFO(daemon.log());
  CHECK_THAT(daemon.log(), Catch::Contains("out of inotify watches") &&
                               Catch::Contains("fs.inotify.max_user_watches"));
  CHECK(daemon.store_status().value("watcher", "") == "inotify");
  const auto before = head_of(made.store);

  // A file in a polled folder, and a file in a new folder below it.
  write_file(made.store / "semantic" / "polled.md",
             semantic_memory({"polled", "watches"}, "2026-11-20", "- Seen by polling.\n"));
  write_file(made.store / "semantic" / "deeper" / "nested.md",
             semantic_memory({"nested", "watches"}, "2026-11-20", "- Seen in a new folder.\n"));
  REQUIRE(wait_until(
      [&] {
        return head_of(made.store) != before &&
               sandbox.git(made.store, {"status", "--porcelain"}).out.empty() &&
               read_file(made.store / "MEMORY.md").find("semantic/deeper/nested.md") !=
                   std::string::npos;
      },
      10s));
  CHECK(sandbox.git(made.store, {"ls-files", "semantic/polled.md", "semantic/deeper"}).out ==
        "semantic/deeper/nested.md\nsemantic/polled.md\n");
  CHECK_THAT(read_file(made.store / "MEMORY.md"), Catch::Contains("semantic/deeper/nested.md"));

  // The watched folder still works by its events.
  const auto polled = head_of(made.store);
  write_file(made.store / "WORKING.md", read_file(made.store / "WORKING.md") + "- [ ] watched\n");
  REQUIRE(wait_until(
      [&] {
        return head_of(made.store) != polled &&
               sandbox.git(made.store, {"status", "--porcelain"}).out.empty();
      },
      10s));
  CHECK(daemon.stop() == 0);
}
