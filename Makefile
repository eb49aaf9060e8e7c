# Thin wrappers around CMake presets. `make run` and `make test` do all the
# set-up a fresh Debian machine needs.
PRESET ?= $(if $(filter true,$(CI)),ci,dev)
BUILD_DIR := build/$(PRESET)
ENGRAM := $(BUILD_DIR)/bin/engram
XDG_DATA_HOME ?= $(HOME)/.local/share
STORE ?= $(XDG_DATA_HOME)/engram/memory
PREFIX ?= /usr/local
JOBS ?= $(shell nproc)

.PHONY: all setup configure build test test-portable test-asan test-tsan run install uninstall package format clean fuzz release bench sweep judgments secrets

all: build

setup:
	@scripts/install-deps.sh

# umask 022: the plugin host refuses rule folders that other users can write,
# so the build must not create them group-writable whatever the caller's umask.
configure:
	@umask 022 && cmake --preset $(PRESET) >/dev/null

build: configure
	@umask 022 && cmake --build --preset $(PRESET) -j $(JOBS)

test: setup build
	@ctest --preset $(PRESET) -j $(JOBS)

# The POSIX backends only, built as a build off Linux would be (no epoll,
# inotify, signalfd, syncfs or /proc; see cmake/Platform.cmake), as a unity
# build; then the daemon's, the watchers' and the sync tests on it, and the
# judgments corpora, which CI runs here rather than under the sanitizers.
test-portable: setup
	@umask 022 && cmake --preset portable >/dev/null && cmake --build --preset portable -j $(JOBS)
	@ctest --preset portable -j $(JOBS)

# The whole suite under AddressSanitizer and UBSan (CI runs it after `test`).
test-asan: setup
	@umask 022 && cmake --preset asan >/dev/null && cmake --build --preset asan -j $(JOBS)
	@ctest --preset asan -j $(JOBS)

# The daemon's tests (names containing "daemon") under ThreadSanitizer.
test-tsan: setup
	@umask 022 && cmake --preset tsan >/dev/null && cmake --build --preset tsan -j $(JOBS)
	@ctest --preset tsan -j $(JOBS)

# The daemon in the foreground on the default store (created from the example
# store the first time); Ctrl-C stops it cleanly.
run: setup build
	@if [ ! -d "$(STORE)" ]; then \
	  $(ENGRAM) init --example examples/store "$(STORE)"; \
	fi
	@$(ENGRAM) status --store "$(STORE)"
	@exec $(ENGRAM) daemon --store "$(STORE)"

# The release build, stripped: what a user runs every day, not the debug build.
install: release
	@umask 022 && cmake --install build/release --prefix "$(PREFIX)" --strip

# Removes what `make install` put in place: the files its install_manifest.txt
# lists, and the engram folders left empty.
INSTALL_MANIFEST ?= build/release/install_manifest.txt
uninstall:
	@cmake -DMANIFEST="$(INSTALL_MANIFEST)" -P cmake/Uninstall.cmake

# The Debian package of the release build (what `make install` installs, under
# /usr), written to build/release/: `sudo apt install ./build/release/engram_*.deb`.
package: release
	@cd build/release && umask 022 && cpack -G DEB

# The release build of what runs and is installed (the executable, its rules,
# man pages and completions; no tests).
# The release preset is a unity build (16 files a unit, to build in minutes):
# two files of one unit may not give one name to two things in their
# anonymous namespaces. The ci preset is batched the same way, so CI's
# `make test` finds such a clash before a release build does.
release: setup
	@umask 022 && cmake --preset release >/dev/null && \
	  cmake --build --preset release -j $(JOBS) --target engram-product

# The benchmark, on the release build: one table, also written to bench/RESULTS.md.
# BENCH_ARGS passes options to bench/run.py (e.g. --runs 3 --scenarios 1,3).
BENCH_ARGS ?=
bench: release
	@python3 bench/run.py --engram build/release/bin/engram $(BENCH_ARGS)

# The judgments corpus (bench/judgments/): engram's verdicts on labelled claim
# pairs, placements and classified lines, each case a tiny store run through
# the built engram, with per-label precision and recall and the peer's rule
# as the baseline; run on engram's own layout and again with every case's
# store a Claude Code memory folder; then a note's claims against an OpenClaw
# agent's own files. JUDGMENTS_ARGS passes options (e.g. --misses).
JUDGMENTS_ARGS ?=
judgments: build
	@python3 bench/judgments/run.py --engram $(ENGRAM) $(JUDGMENTS_ARGS)
	@python3 bench/judgments/run.py --engram $(ENGRAM) --profile claude-code $(JUDGMENTS_ARGS)
	@python3 bench/judgments/agent_files.py --engram $(ENGRAM) $(JUDGMENTS_ARGS)

# The secrets corpus (bench/secrets/run.py): credentials of the shapes real
# issuers mint and look-alikes that are not (hashes, UUIDs, base64 images,
# public keys, placeholders), read by `engram check`; detection and false alarms.
secrets: build
	@python3 bench/secrets/run.py --engram $(ENGRAM)

# The disk-full sweep (tests/sweep/disk_full.py): consolidate, rollback and
# restore on a tmpfs filled to leave 0, SWEEP_STEP, 2*SWEEP_STEP, ... bytes up
# to 2 MiB, each outcome checked. Needs root (it mounts the tmpfs).
SWEEP_STEP ?= 16384
sweep: build
	@for command in consolidate rollback restore; do \
	  python3 tests/sweep/disk_full.py --engram $(ENGRAM) --command $$command \
	    --step $(SWEEP_STEP) --to 2097152 || exit 1; \
	done

# Each libFuzzer target (or those named in FUZZ_TARGETS) for FUZZ_SECONDS over
# its seed corpus; new inputs go to build/fuzz/corpus/<name>/, findings to
# build/fuzz/artifacts/. A finding's input belongs in fuzz/regressions/<name>/.
FUZZ_SECONDS ?= 60
FUZZ_TIMEOUT ?= 10
FUZZ_TARGETS ?= $(patsubst fuzz/%_fuzz.cpp,%,$(wildcard fuzz/*_fuzz.cpp))
fuzz: setup
	@umask 022 && cmake --preset fuzz >/dev/null && cmake --build --preset fuzz -j $(JOBS) --target fuzzers
	@mkdir -p build/fuzz/artifacts
	@for name in $(FUZZ_TARGETS); do \
	  mkdir -p build/fuzz/corpus/$$name; \
	  echo "fuzz: $$name for $(FUZZ_SECONDS) s"; \
	  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 build/fuzz/bin/$${name}_fuzz \
	    -max_total_time=$(FUZZ_SECONDS) -timeout=$(FUZZ_TIMEOUT) -rss_limit_mb=2048 -max_len=4096 \
	    -print_final_stats=1 -artifact_prefix=build/fuzz/artifacts/$$name- \
	    build/fuzz/corpus/$$name fuzz/corpus/$$name || exit 1; \
	done

format:
	@git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

clean:
	@rm -rf build
