# The platform backends, chosen here and nowhere else. A Linux build uses
# what Linux has: epoll, timerfd, eventfd, signalfd, inotify, syncfs, /proc,
# libsystemd. Every other system, and the portable preset, which builds on
# Linux the way a build elsewhere would so that a Linux-only call cannot
# come back unnoticed, uses POSIX alone: poll(2) and a pipe for the loop, a
# pipe for signals, the poll watcher, sync and fsync; on macOS also Apple's
# documented calls (F_FULLFSYNC, _NSGetExecutablePath, getpeereid) and an
# FSEvents watcher.
if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
  set(engram_portable_default OFF)
else()
  set(engram_portable_default ON)
endif()
option(ENGRAM_PORTABLE "Build only the POSIX backends, as on a system other than Linux"
  ${engram_portable_default})

if(ENGRAM_PORTABLE)
  set(ENGRAM_BASE_BACKENDS platform_posix.cpp)
  set(ENGRAM_DAEMON_BACKENDS event_loop_poll.cpp signals_pipe.cpp)
  set(ENGRAM_WATCH_BACKENDS "")
  set(ENGRAM_WATCH_NATIVE "")
  set(ENGRAM_WATCH_LIBRARIES "")
  if(APPLE)
    set(ENGRAM_WATCH_BACKENDS fsevents_watcher.cpp)
    set(ENGRAM_WATCH_NATIVE ENGRAM_WATCH_FSEVENTS=1)
    set(ENGRAM_WATCH_LIBRARIES "-framework CoreServices")
  endif()
else()
  set(ENGRAM_BASE_BACKENDS platform_linux.cpp)
  set(ENGRAM_DAEMON_BACKENDS event_loop_epoll.cpp signals_signalfd.cpp)
  set(ENGRAM_WATCH_BACKENDS inotify_watcher.cpp)
  set(ENGRAM_WATCH_NATIVE ENGRAM_WATCH_INOTIFY=1)
  set(ENGRAM_WATCH_LIBRARIES "")
endif()
message(STATUS "engram platform backends: "
  "${ENGRAM_BASE_BACKENDS} ${ENGRAM_DAEMON_BACKENDS} ${ENGRAM_WATCH_BACKENDS} poll_watcher.cpp")
