// The FSEvents backend, written against Apple's documented File System Events
// API (CoreServices): a stream with file-level events delivered on a private
// serial dispatch queue, whose callback records the touched paths and wakes
// the daemon through a pipe.
#include "watch/fsevents_watcher.hpp"

#include "base/error.hpp"
#include "base/platform.hpp"

#include <CoreServices/CoreServices.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <utility>

namespace engram::watch {

namespace {

// How long FSEvents may gather events before it calls back, in seconds. The
// daemon settles bursts itself, so this only needs to be short.
constexpr CFTimeInterval k_latency_s = 0.05;

// Events after which FSEvents no longer knows which paths changed.
constexpr FSEventStreamEventFlags k_lost_flags =
    kFSEventStreamEventFlagMustScanSubDirs | kFSEventStreamEventFlagUserDropped |
    kFSEventStreamEventFlagKernelDropped | kFSEventStreamEventFlagEventIdsWrapped |
    kFSEventStreamEventFlagRootChanged;

// The stream's callback: hands the paths of one delivery to the watcher.
void on_events(ConstFSEventStreamRef, void* info, std::size_t count, void* paths,
               const FSEventStreamEventFlags flags[], const FSEventStreamEventId[]) {
  auto* const names = static_cast<char**>(paths); // no kFSEventStreamCreateFlagUseCFTypes
  std::vector<std::string> absolute;
  absolute.reserve(count);
  bool lost = false;
  for (std::size_t i = 0; i < count; ++i) {
    absolute.emplace_back(names[i]);
    lost = lost || (flags[i] & k_lost_flags) != 0;
  }
  static_cast<FseventsWatcher*>(info)->deliver(std::move(absolute), lost);
}

// Runs nothing: dispatched synchronously, it returns once every callback
// queued before it has returned.
void drain(void*) {}

} // namespace

// The CoreServices objects of one watcher, released in the order Apple's
// documentation gives: stop, invalidate, release.
struct FseventsWatcher::Stream {
  dispatch_queue_t queue = nullptr;
  FSEventStreamRef stream = nullptr;

  ~Stream() {
    if (stream != nullptr) {
      FSEventStreamStop(stream);
      FSEventStreamInvalidate(stream);
      dispatch_sync_f(queue, nullptr, drain); // no callback still running
      FSEventStreamRelease(stream);
    }
    if (queue != nullptr) {
      dispatch_release(queue);
    }
  }
};

namespace {

// A stream on `root` calling back `watcher` on `queue`; throws when it cannot start.
FSEventStreamRef start_stream(const std::filesystem::path& root, FseventsWatcher* watcher,
                              dispatch_queue_t queue) {
  CFStringRef path = CFStringCreateWithFileSystemRepresentation(kCFAllocatorDefault, root.c_str());
  if (path == nullptr) {
    throw Error("cannot watch {}: the path cannot be given to FSEvents", root.string());
  }
  const void* values[] = {path};
  CFArrayRef paths = CFArrayCreate(kCFAllocatorDefault, values, 1, &kCFTypeArrayCallBacks);
  CFRelease(path);
  FSEventStreamContext context{0, watcher, nullptr, nullptr, nullptr};
  const FSEventStreamCreateFlags flags = kFSEventStreamCreateFlagFileEvents |
                                         kFSEventStreamCreateFlagNoDefer |
                                         kFSEventStreamCreateFlagWatchRoot;
  FSEventStreamRef stream = FSEventStreamCreate(kCFAllocatorDefault, on_events, &context, paths,
                                                kFSEventStreamEventIdSinceNow, k_latency_s, flags);
  CFRelease(paths);
  if (stream == nullptr) {
    throw Error("cannot watch {}: FSEvents would not create a stream", root.string());
  }
  FSEventStreamSetDispatchQueue(stream, queue);
  if (!FSEventStreamStart(stream)) {
    FSEventStreamInvalidate(stream);
    FSEventStreamRelease(stream);
    throw Error("cannot watch {}: FSEvents would not start the stream", root.string());
  }
  return stream;
}

} // namespace

FseventsWatcher::FseventsWatcher(const std::filesystem::path& root, const WatchOptions& options)
    : m_root(watch_root(root)), m_index(m_root, relative_state_dir(m_root, options)) {
  if (!platform::cloexec_pipe(m_wake)) {
    throw Error("cannot watch {}: no pipe: {}", m_root.string(), std::strerror(errno));
  }
  for (const int end : m_wake) {
    ::fcntl(end, F_SETFL, ::fcntl(end, F_GETFL) | O_NONBLOCK);
  }
  auto stream = std::make_unique<Stream>();
  stream->queue = dispatch_queue_create("engram.fsevents", DISPATCH_QUEUE_SERIAL);
  try {
    stream->stream = start_stream(m_root, this, stream->queue);
  } catch (...) {
    ::close(m_wake[0]);
    ::close(m_wake[1]);
    throw;
  }
  m_stream = std::move(stream);
}

FseventsWatcher::~FseventsWatcher() {
  m_stream.reset(); // no callback may run once the pipe is closed
  ::close(m_wake[0]);
  ::close(m_wake[1]);
}

void FseventsWatcher::deliver(std::vector<std::string> absolute, bool lost) {
  const std::string prefix = m_root.string() + '/';
  {
    const std::lock_guard lock(m_mutex);
    for (std::string& path : absolute) {
      if (path.compare(0, prefix.size(), prefix) == 0) {
        m_touched.push_back(path.substr(prefix.size()));
      } else {
        m_lost = true; // the root itself, or a name FSEvents spelled another way
      }
    }
    m_lost = m_lost || lost;
  }
  const char byte = 1;
  (void)::write(m_wake[1], &byte, 1); // a full pipe is already readable
}

void FseventsWatcher::read_changes(std::vector<Change>& out) {
  char bytes[256];
  while (::read(m_wake[0], bytes, sizeof bytes) > 0) {
  }
  std::vector<std::string> touched;
  bool lost = false;
  {
    const std::lock_guard lock(m_mutex);
    touched.swap(m_touched);
    lost = std::exchange(m_lost, false);
  }
  if (lost) {
    m_index.refresh_all(out);
  } else {
    m_index.refresh(touched, out);
  }
}

} // namespace engram::watch
