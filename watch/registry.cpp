// make_watcher: the registry of watcher backends. Which native backend this
// build has is cmake/Platform.cmake's choice (ENGRAM_WATCH_INOTIFY on Linux,
// ENGRAM_WATCH_FSEVENTS on macOS, neither elsewhere).
#include "base/error.hpp"
#include "watch/poll_watcher.hpp"

#include <spdlog/spdlog.h>

#ifdef ENGRAM_WATCH_INOTIFY
#include "watch/inotify_watcher.hpp"
#endif
#ifdef ENGRAM_WATCH_FSEVENTS
#include "watch/fsevents_watcher.hpp"
#endif

namespace engram::watch {

namespace {

// The name of this build's native backend ("" when it has none).
constexpr std::string_view k_native =
#if defined(ENGRAM_WATCH_INOTIFY)
    "inotify";
#elif defined(ENGRAM_WATCH_FSEVENTS)
    "fsevents";
#else
    "";
#endif

// The native backend of this platform, or nullptr when it has none.
std::unique_ptr<Watcher> make_native(const std::filesystem::path& root,
                                     const WatchOptions& options) {
#if defined(ENGRAM_WATCH_INOTIFY)
  return std::make_unique<InotifyWatcher>(root, options);
#elif defined(ENGRAM_WATCH_FSEVENTS)
  return std::make_unique<FseventsWatcher>(root, options);
#else
  (void)root;
  (void)options;
  return nullptr;
#endif
}

} // namespace

std::unique_ptr<Watcher> make_watcher(const std::filesystem::path& root,
                                      const WatchOptions& options) {
  // Checked here too, so "auto" does not fall back to polling what cannot be polled either.
  std::error_code status_error;
  if (!std::filesystem::is_directory(root, status_error)) {
    throw Error("cannot watch {}: not a folder", root.string());
  }
  if (options.poll_interval_ms <= 0) {
    throw Error("cannot watch {}: the poll interval must be positive, not {} ms", root.string(),
                options.poll_interval_ms);
  }
  if (options.backend == "poll") {
    return std::make_unique<PollWatcher>(root, options);
  }
  if (options.backend == "inotify" || options.backend == "fsevents") {
    if (options.backend != k_native) {
      throw Error("this build has no {} watcher backend ({} has one); use \"poll\" or \"auto\"",
                  options.backend, options.backend == "inotify" ? "Linux" : "macOS");
    }
    return make_native(root, options);
  }
  if (options.backend == "auto") {
    try {
      if (auto watcher = make_native(root, options)) {
        return watcher;
      }
    } catch (const Error& error) {
      // A store that cannot be watched natively can still be polled.
      spdlog::warn("{}; polling every {} ms instead", error.what(), options.poll_interval_ms);
    }
    return std::make_unique<PollWatcher>(root, options);
  }
  throw Error("unknown watcher backend \"{}\" (auto, inotify, fsevents or poll)", options.backend);
}

} // namespace engram::watch
