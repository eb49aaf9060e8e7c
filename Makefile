# Thin wrappers around CMake presets. `make run` and `make test` do all the
# set-up a fresh Debian machine needs.
PRESET ?= $(if $(filter true,$(CI)),ci,dev)
BUILD_DIR := build/$(PRESET)
ENGRAM := $(BUILD_DIR)/bin/engram
XDG_DATA_HOME ?= $(HOME)/.local/share
STORE ?= $(XDG_DATA_HOME)/engram/memory
PREFIX ?= /usr/local
JOBS ?= $(shell nproc)

.PHONY: all setup configure build test run install format clean

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

run: setup build
	@if [ ! -d "$(STORE)" ]; then \
	  $(ENGRAM) init --example examples/store "$(STORE)"; \
	fi
	@$(ENGRAM) status --store "$(STORE)"

install: setup build
	@umask 022 && cmake --install $(BUILD_DIR) --prefix "$(PREFIX)"

format:
	@git ls-files '*.cpp' '*.hpp' | xargs clang-format -i

clean:
	@rm -rf build
