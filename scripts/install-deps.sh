#!/usr/bin/env bash
# Installs the Debian packages engram needs to build, test and run, skipping
# those already installed. Non-interactive: safe for CI and fresh machines.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git clang-format clang libclang-rt-14-dev
  libboost-dev libboost-filesystem-dev
  libtomlplusplus-dev nlohmann-json3-dev libspdlog-dev libfmt-dev
  libgit2-dev libssl-dev libcli11-dev libyaml-cpp-dev libmd4c-dev libicu-dev
  libstemmer-dev libsystemd-dev libmimalloc-dev catch2 inotify-tools python3
  universal-ctags
  openssh-server openssh-client lighttpd
  man-db groff-base zsh fish
  chromium
)

# man-db and groff render the man pages in their test; zsh and fish check
# that the completion scripts written for them parse; the report test opens
# `engram report`'s page in a headless chromium.

# Servers the sync tests start themselves, on 127.0.0.1 and a free port:
# installing them must not start them as system services too.
servers=(openssh-server lighttpd)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#packages[@]} packages present"
  exit 0
fi

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then sudo="sudo -n"; else
    echo "setup: not root and no sudo; install these yourself: ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq </dev/null
# Debian's documented way to install a daemon without starting it: a
# policy-rc.d that denies every start (exit 101), removed right after.
policy=/usr/sbin/policy-rc.d
made_policy=""
for p in "${servers[@]}"; do
  if [[ " ${missing[*]} " == *" $p "* ]] && [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
    $sudo chmod 755 "$policy"
    made_policy=yes
    break
  fi
done
status=0
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null || status=$?
if [ -n "$made_policy" ]; then
  $sudo rm -f "$policy"
fi
exit $status
