#!/usr/bin/env python3
"""Checks that no file of the product names a call only one platform has,
outside the backend files cmake/Platform.cmake chooses from: a Linux-only
call elsewhere would break the build on macOS, where nobody here builds, and
an Apple-only one the build here.

Usage: check.py PROJECT_ROOT. Prints `path:line: reason` for each and exits 1."""

import os
import re
import sys

# The backends, where such calls belong.
BACKENDS = {
    "base/platform_linux.cpp", "base/platform_posix.cpp",
    "daemon/event_loop_epoll.cpp", "daemon/event_loop_poll.cpp",
    "daemon/signals_signalfd.cpp", "daemon/signals_pipe.cpp",
    "watch/inotify_watcher.cpp", "watch/inotify_watcher.hpp",
    "watch/fsevents_watcher.cpp", "watch/fsevents_watcher.hpp",
    "watch/registry.cpp",  # includes the native watcher the build chose
}
# The product's folders (tests, benchmarks and fuzzers run on Linux only).
PRODUCT = ["base", "claims", "cli", "config", "daemon", "engine", "git", "hook", "include",
           "plugins", "recall", "rules", "store", "usage", "watch"]
# Calls, headers and constants only Linux (or glibc) has.
LINUX_ONLY = [
    r"\bepoll_\w+", r"\bEPOLL\w+", r"sys/epoll\.h", r"\beventfd\b", r"sys/eventfd\.h",
    r"\btimerfd_\w+", r"sys/timerfd\.h", r"\bsignalfd\b", r"sys/signalfd\.h",
    r"\binotify_\w+", r"sys/inotify\.h", r"\bsyncfs\b", r'"/proc/', r"\baccept4\b",
    r"\bpipe2\b", r"\bMSG_NOSIGNAL\b", r"\bSOCK_CLOEXEC\b", r"\bSOCK_NONBLOCK\b",
    r"\bSO_PEERCRED\b", r"\bMAP_POPULATE\b", r"\bmalloc_trim\b", r"<malloc\.h>",
    r"\.st_mtim\b", r"\.st_ctim\b", r"\.st_atim\b", r"\bO_PATH\b", r"\bO_TMPFILE\b",
    r"\brenameat2\b", r"\bcopy_file_range\b", r"\bfallocate\b", r"\bposix_fadvise\b",
    r"\bprctl\b", r"\bSCHED_BATCH\b", r"\bclose_range\b", r"\bmemfd_create\b", r"<linux/",
    r"\bgetrandom\b", r"\bsendfile\b",
]
# Calls and headers only Apple's systems have.
APPLE_ONLY = [
    r"\bFSEvent\w+", r"\bkFSEvent\w+", r"CoreServices/", r"\bdispatch_\w+", r"\bCF\w+Ref\b",
]
PATTERN = re.compile("|".join(LINUX_ONLY + APPLE_ONLY))


def main():
    root = sys.argv[1]
    problems = 0
    for folder in PRODUCT:
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for name in sorted(files):
                if not name.endswith((".cpp", ".hpp", ".h", ".in")):
                    continue
                path = os.path.join(dirpath, name)
                relative = os.path.relpath(path, root)
                if relative in BACKENDS:
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    for number, line in enumerate(f, 1):
                        code = line.split("//", 1)[0]
                        found = PATTERN.search(code)
                        if found:
                            print(f"{relative}:{number}: {found.group(0)} is not on every platform; "
                                  "call it through base/platform.hpp or a backend file")
                            problems += 1
    if problems:
        print(f"{problems} platform-specific call(s) outside the platform backends")
        return 1
    print("no platform-specific call outside the platform backends")
    return 0


if __name__ == "__main__":
    sys.exit(main())
