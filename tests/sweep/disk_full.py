#!/usr/bin/env python3
"""Disk-full sweep: runs one engram command on a store in a small tmpfs filled
to leave 0, STEP, 2*STEP, ... bytes free, so the disk runs out at every moment
of the run, and checks each outcome. `make sweep` runs it for consolidate,
rollback and restore; it needs root (it mounts a tmpfs).

The integration tests run a few fixed levels of the same thing on every
`make test`; this walks all of them, which is how the three disk-full bugs of
2026-11-27 were found (a commit object libgit2 failed to write without saying
so, an index that did not fit said nothing, a rerun of `rollback HEAD` undoing
its own recovered commit).

For each level:
  - a run that fails says "No space left on device", leaves every memory file
    as it was or as one run on an ordinary disk makes it, removes nothing that
    run keeps, and leaves a repository `git fsck --strict` finds sound;
  - with the space back, the failed command run again leaves the files exactly
    as one run on an ordinary disk does (the twin);
  - in the end `git fsck` is clean and `git status` empty, unless the run said
    the index did not fit (then the next run writes it).
Exit status 1 when any level breaks one of these.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
NOW = "2026-11-22"  # the store's generated dates are relative to it


def run(argv, env):
    return subprocess.run(argv, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)


def memory_files(store):
    """Every file of the store but git's and engram's own state, by path."""
    found = {}
    for folder, folders, names in os.walk(store):
        for own in (".git", ".engram"):
            if own in folders:
                folders.remove(own)
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, store)] = f.read()
    return found


def fill(mount, leave):
    """Writes a filler file until the tmpfs is full, then frees `leave` bytes."""
    filler = os.path.join(mount, "filler")
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    size = 0
    block = b"f" * 4096
    while True:
        try:
            wrote = os.write(fd, block)
        except OSError:
            break
        if wrote <= 0:
            break
        size += wrote
    os.close(fd)
    os.truncate(filler, max(0, size - leave))
    return filler


class Sweep:
    def __init__(self, args, work):
        self.engram = os.path.abspath(args.engram)
        self.command = args.command
        self.work = work
        home = os.path.join(work, "home")
        for sub in ("config", "data", "runtime"):
            os.makedirs(os.path.join(home, sub))
        self.env = dict(os.environ, HOME=home, XDG_CONFIG_HOME=os.path.join(home, "config"),
                        XDG_DATA_HOME=os.path.join(home, "data"),
                        XDG_RUNTIME_DIR=os.path.join(home, "runtime"),
                        GIT_AUTHOR_NAME="", GIT_AUTHOR_EMAIL="", GIT_COMMITTER_NAME="",
                        GIT_COMMITTER_EMAIL="")
        self.base = self.make_base(args)

    def make_base(self, args):
        """The store every level starts from: generated, made a store, and for
        rollback and restore consolidated once."""
        base = os.path.join(self.work, "base")
        made = run([sys.executable, os.path.join(ROOT, "bench", "generate.py"), "--out", base,
                    "--episodic", str(args.episodic), "--expired", "1.0", "--semantic",
                    str(args.semantic), "--seed", "5", "--now", NOW, "--manifest",
                    os.path.join(self.work, "manifest.json")], self.env)
        if made.returncode != 0:
            sys.exit(f"cannot generate the store: {made.stderr}")
        self.must([self.engram, "init", base])
        if self.command != "consolidate":
            self.must(self.argv(base, "consolidate"))
        return base

    def must(self, argv):
        result = run(argv, self.env)
        if result.returncode != 0:
            sys.exit(f"{' '.join(argv)} failed: {result.stderr}")
        return result

    def argv(self, store, command=None):
        command = command or self.command
        if command == "consolidate":
            return [self.engram, "consolidate", "--store", store, "--now", NOW]
        if command == "rollback":
            return [self.engram, "rollback", "--store", store, "HEAD"]
        return [self.engram, "restore", "--store", store, "HEAD~1", "--", "episodic"]

    def copy(self, to):
        shutil.rmtree(to, ignore_errors=True)
        shutil.copytree(self.base, to, symlinks=True)
        return to

    def level(self, mount, leave, expected):
        """The problems of one level, empty when there are none; and whether it failed."""
        store = self.copy(os.path.join(mount, "store"))
        before = memory_files(store)
        filler = fill(mount, leave)
        first = run(self.argv(store), self.env)
        problems = []
        if first.returncode != 0:
            if "No space left on device" not in first.stderr:
                problems.append("its message does not name the full disk: " + first.stderr.strip())
            now = memory_files(store)
            for path, data in now.items():
                if before.get(path) != data and expected.get(path) != data:
                    problems.append(f"{path}: neither as it was nor as the run makes it")
            for path in before:
                if path not in now and path in expected:
                    problems.append(f"{path}: removed, yet one run keeps it")
            fsck = run(["git", "-C", store, "fsck", "--full", "--strict"], self.env)
            if fsck.returncode != 0:
                problems.append("git fsck, disk full: " + fsck.stdout + fsck.stderr)
        os.remove(filler)
        if first.returncode != 0:
            again = run(self.argv(store), self.env)
            if again.returncode != 0:
                problems.append("run again, it failed: " + again.stderr.strip())
        now = memory_files(store)
        if now != expected:
            differ = sorted(p for p in set(now) | set(expected) if now.get(p) != expected.get(p))
            problems.append(f"{len(differ)} files differ from one run's: {differ[:5]}")
        fsck = run(["git", "-C", store, "fsck", "--full", "--strict"], self.env)
        if fsck.returncode != 0:
            problems.append("git fsck: " + fsck.stdout + fsck.stderr)
        status = run(["git", "-C", store, "status", "--porcelain"], self.env).stdout
        if status and "the index was not written" not in first.stderr:
            problems.append("git status is not empty, and no run said why:\n" + status[:400])
        shutil.rmtree(store)
        return problems, first.returncode != 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engram", default=os.path.join(ROOT, "build", "dev", "bin", "engram"))
    parser.add_argument("--command", choices=("consolidate", "rollback", "restore"),
                        default="consolidate")
    parser.add_argument("--step", type=int, default=16384, help="bytes between levels")
    parser.add_argument("--to", type=int, default=2 << 20, help="the most bytes left")
    parser.add_argument("--episodic", type=int, default=150)
    parser.add_argument("--semantic", type=int, default=40)
    args = parser.parse_args()
    if os.geteuid() != 0:
        sys.exit("the disk-full sweep mounts a tmpfs: run it as root")
    with tempfile.TemporaryDirectory(prefix="engram-sweep-") as work:
        sweep = Sweep(args, work)
        twin = sweep.copy(os.path.join(work, "twin"))
        sweep.must(sweep.argv(twin))
        expected = memory_files(twin)
        mount = os.path.join(work, "disk")
        os.makedirs(mount)
        size = 4 * (sum(len(b) for b in memory_files(sweep.base).values()) + (8 << 20))
        mounted = run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", mount], sweep.env)
        if mounted.returncode != 0:
            sys.exit(f"cannot mount a tmpfs: {mounted.stderr}")
        broken = failed = levels = 0
        try:
            for leave in range(0, args.to + 1, args.step):
                problems, did_fail = sweep.level(mount, leave, expected)
                levels += 1
                failed += did_fail
                if problems:
                    broken += 1
                    print(f"{args.command}, {leave} bytes left:")
                    for problem in problems:
                        print("  " + problem)
        finally:
            run(["umount", "-l", mount], sweep.env)
        print(f"{args.command}: {levels} levels, {failed} ran out of space, {broken} broke a promise")
        return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
