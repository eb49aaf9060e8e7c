#!/usr/bin/env python3
"""Benchmark runner: measures engram against baselines run in the same
invocation, prints one table and writes it to bench/RESULTS.md.

Scenarios (issue 6):
  1. full consolidation of 2,000 episodic + 500 semantic files, 100% and 10%
     expired; baseline: read every file + one `git add -A && git commit` of
     the tree the consolidation produced.
  2. change -> commit latency with the daemon (settle_ms = 0) on 10,000 files;
     baselines: `git add -A && git commit`, and an `inotifywait -m -r` loop.
  3. scaling over 1,000 / 10,000 / 100,000 files: a one-file lightweight cycle
     (the daemon's, told by its watcher what changed: its whole run from its
     log, and change -> commit; the command's, which reads the whole store,
     up to 10,000) and a full consolidation.
  4. idle: the daemon watching 10,000 files for 60 s: CPU, wakeups, RSS.
  5. start-up: exec -> READY=1 on 10,000 files.
  6. dedupe over 10,000 semantic files.
  7. recall on a 10,000-entry index and the session-start hook on 10,000
     files; baselines: `cat .index.json`, `grep -c`, `engram --version`.
  8. stores shared through one git remote (bench/sync_bench.py): ten
     machines × 1,000 changes until all agree, bytes pushed per change; one
     sync round at 10,000 files against `git pull --rebase && git push`.
Scenarios 2, 3's daemon cycles, 4 and 5 run only when `engram daemon --help` works.

Every timed run gets its own copy of a pristine generated store (copy time
excluded). Wall time from a monotonic clock around the child; CPU (user+sys)
and peak RSS from wait4() on the child, which includes its reaped children.
Standard library only.
"""

import argparse
import concurrent.futures
import datetime
import json
import os
import re
import platform
import shlex
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import sync_bench

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
NOW = "2026-11-22"


# ---------------------------------------------------------------- measuring

class Sample:
    """One measured child: wall and CPU seconds, peak RSS in KiB."""

    def __init__(self, wall, cpu, rss_kb):
        self.wall, self.cpu, self.rss_kb = wall, cpu, rss_kb

    def __add__(self, other):
        return Sample(self.wall + other.wall, self.cpu + other.cpu, max(self.rss_kb, other.rss_kb))


COMMANDS = []  # every distinct command line measured, for RESULTS.md


def note_command(argv, cwd=None):
    line = " ".join(shlex.quote(a) for a in argv)
    if cwd:
        line = f"(cd {shlex.quote(cwd)} && {line})"
    COMMANDS.append(line)


def measure(argv, cwd=None, env=None, check=True, stdin=None, stderr_sink=None):
    """Runs argv to completion; returns (Sample, stdout bytes). With a list as
    stderr_sink, its standard error is appended to it as text."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        child = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=err,
                                 stdin=subprocess.DEVNULL if stdin is None else stdin)
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    if stderr_sink is not None:
        stderr_sink.append(stderr.decode(errors="replace"))
    if check and child.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {child.returncode}:\n"
                           f"{stderr.decode(errors='replace')[-3000:]}")
    return Sample(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss), stdout


def run(argv, cwd=None, env=None, check=True):
    """Runs argv, unmeasured; returns stdout as text."""
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    if check and done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}:\n{done.stderr[-3000:]}")
    return done.stdout


class Stats:
    """Median and spread of some samples of one quantity."""

    def __init__(self, values):
        self.values = sorted(values)
        self.median = statistics.median(self.values) if self.values else float("nan")
        self.low = self.values[0] if self.values else float("nan")
        self.high = self.values[-1] if self.values else float("nan")

    def percentile(self, p):
        if not self.values:
            return float("nan")
        k = (len(self.values) - 1) * p / 100
        lo, hi = int(k), min(int(k) + 1, len(self.values) - 1)
        return self.values[lo] + (self.values[hi] - self.values[lo]) * (k - lo)


def seconds(value):
    if value != value:  # nan
        return "-"
    if value < 1:
        return f"{value * 1000:.1f} ms"
    return f"{value:.2f} s"


def spread(stats, unit=seconds):
    return f"{unit(stats.median)} ({unit(stats.low)}–{unit(stats.high)})"


def mib(kb):
    return f"{kb / 1024:.1f} MiB"


# ---------------------------------------------------------------- stores

class Bench:
    """The environment of one invocation: binaries, folders, the results."""

    def __init__(self, args):
        self.args = args
        self.engram = os.path.abspath(args.engram)
        self.work = tempfile.mkdtemp(prefix="engram-bench-", dir=args.work_dir)
        self.runs = os.path.join(self.work, "runs")
        os.makedirs(self.runs)
        # Each copy in a block group of its own (ext4's Orlov allocator spreads
        # the folders made in a "top" folder): a copy's new files then do not
        # share their group with the inodes other copies freed (see drop).
        self.spread = subprocess.run(["chattr", "+T", self.runs], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL).returncode == 0
        self.home = os.path.join(self.work, "home")
        for sub in ("config/engram", "data", "runtime", "state"):
            os.makedirs(os.path.join(self.home, sub), mode=0o700, exist_ok=True)
        self.config = os.path.join(self.home, "config/engram/config.toml")
        with open(self.config, "w") as f:
            f.write("# engram benchmark: defaults only\n")
        self.env = dict(os.environ)
        self.env.update({
            "HOME": self.home,
            "XDG_CONFIG_HOME": os.path.join(self.home, "config"),
            "XDG_DATA_HOME": os.path.join(self.home, "data"),
            "XDG_STATE_HOME": os.path.join(self.home, "state"),
            "XDG_RUNTIME_DIR": os.path.join(self.home, "runtime"),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
            "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com",
        })
        self.env.pop("NOTIFY_SOCKET", None)
        self.rows = []    # table rows
        self.notes = []   # closing notes
        self.pristine = {}
        self.planted = {}  # store name -> the planted duplicate pairs
        self.dropped = []  # copies set aside (see drop)

    def log(self, message):
        print(f"bench: {message}", file=sys.stderr, flush=True)

    def store(self, name, episodic, expired, semantic, templated=False):
        """A pristine generated store (an engram store with everything committed)."""
        if name in self.pristine:
            return self.pristine[name]
        path = os.path.join(self.work, "pristine", name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        start = time.perf_counter()
        manifest = path + ".planted.json"
        gen = [sys.executable, os.path.join(HERE, "generate.py"), "--out", path, "--episodic",
               str(episodic), "--expired", str(expired), "--semantic", str(semantic), "--seed",
               str(self.args.seed), "--now", NOW, "--manifest", manifest]
        if templated:
            gen.append("--templated")
        note_command(gen)
        run(gen)
        with open(manifest) as f:
            self.planted[name] = {frozenset((p["duplicate"], p["of"])) for p in json.load(f)["planted duplicates"]}
        run([self.engram, "init", path], env=self.env)
        files = len(memory_files(path))
        self.log(f"store {name}: {files} files, generated and committed in "
                 f"{time.perf_counter() - start:.1f} s")
        self.pristine[name] = path
        return path

    def fresh_copy(self, pristine, tag):
        """A fresh copy of a pristine store (not timed)."""
        target = os.path.join(self.runs, f"{os.path.basename(pristine)}-{tag}")
        assert not os.path.exists(target), f"{target}: a copy's name is used twice"
        os.makedirs(os.path.dirname(target), exist_ok=True)
        subprocess.run(["cp", "-a", pristine, target], check=True)
        # On disk before anything is timed: engram's syncfs would otherwise
        # write the copy out too (an agent's store is on disk already).
        os.sync()
        return target

    def drop(self, path):
        """Sets a copy aside; copies are removed when nothing is timed any
        more (scenario 4's idle minute, the bench's end), not here.

        On ext4 without a journal (this machine's root file system), making a
        file skips every inode of its block group freed in the last one to
        five minutes, looking each one up (fs/ext4/ialloc.c, recently_deleted).
        Removing a 2,500-file copy between two timed runs made the next run's
        file creations, engram's temporaries and git's loose objects alike,
        scan thousands of freed inodes each: the times then measured what the
        bench had just removed, by as much as 2× between runs. So nothing is
        removed while the bench runs."""
        self.dropped.append(path)

    def consolidate(self, store, *extra):
        # The bench's stores decay thousands of episodes in one run: past the
        # removal cap that stops such a run unasked.
        argv = [self.engram, "consolidate", "--store", store, "--now", NOW, "--allow-removals",
                *extra]
        return measure(argv, env=self.env)

    def row(self, scenario, measure_name, value, baseline, ratio, target, verdict):
        self.rows.append((scenario, measure_name, value, baseline, ratio, target, verdict))
        self.log(f"{scenario} | {measure_name} | {value} | {baseline} | {ratio} | {verdict}")


def memory_files(store):
    """Every file of a store's working tree, .git left out."""
    out = []
    for folder, dirs, files in os.walk(store):
        if ".git" in dirs:
            dirs.remove(".git")
        out.extend(os.path.join(folder, f) for f in files)
    return out


def tree_with_history(bench, result, pristine, tag):
    """A folder holding `result`'s working tree and `pristine`'s .git: the
    consolidated files, not yet committed. Made by copying only (see drop)."""
    target = os.path.join(bench.runs, f"{os.path.basename(pristine)}-{tag}")
    shutil.copytree(result, target, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    subprocess.run(["cp", "-a", os.path.join(pristine, ".git"), os.path.join(target, ".git")],
                   check=True)
    os.sync()  # as fresh_copy does
    return target


def floor_sample(bench, pristine, result, tag):
    """The floor: read every file of the input, then one `git add -A && git commit`
    of the tree `result` holds on top of the input's history. Making the
    folders is not timed."""
    copy = bench.fresh_copy(pristine, f"floor-{tag}")
    to_commit = tree_with_history(bench, result, pristine, f"floor-commit-{tag}")
    read = ["sh", "-c", "find . -path ./.git -prune -o -type f -print0 | xargs -0 cat > /dev/null"]
    commit = ["sh", "-c", "git add -A && git commit -q -m 'baseline: consolidated tree'"]
    if tag == "0":
        note_command(read, "<copy of the store>")
        note_command(commit, "<copy, its tree replaced by engram's result>")
    read_sample, _ = measure(read, cwd=copy, env=bench.env)
    commit_sample, _ = measure(commit, cwd=to_commit, env=bench.env)
    bench.drop(copy)
    bench.drop(to_commit)
    return read_sample + commit_sample


def verdict(value, limit):
    if value != value:
        return "not measured"
    if value <= limit:
        return f"met ({value / limit:.2f}× of target)" if limit else "met"
    return f"**missed** by {value / limit:.1f}×"


# ---------------------------------------------------------------- scenario 1

def claim_share(store):
    """Claims a consolidated store holds live, and claims it holds only in
    superseded markers, across the layers claims are filed in: each line of
    a body outside comments, headings and frontmatter is one claim."""
    from generate import SETTING_PATTERN  # the updates the generator plants
    live = marked = planted = superseded_files = 0
    for layer in ("semantic", "procedural", "reference"):
        folder = os.path.join(store, layer)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                text = f.read()
            head, _, body = text.partition("\n---\n") if text.startswith("---\n") else ("", "", text)
            superseded_files += "\nstatus: superseded" in head
            for quoted in re.findall(r'<!-- superseded [0-9-]+: previously "(.*?)" -->', body):
                marked += 1
                planted += SETTING_PATTERN.match(quoted) is not None
            body = re.sub(r"<!--.*?-->", "", body, flags=re.S)
            live += sum(1 for line in body.splitlines()
                        if line.strip() and not line.lstrip().startswith("#"))
    return live, marked, planted, superseded_files


def check_judgments(bench, copy, s):
    """What the first full run kept live, and whether a second run finds nothing to do."""
    live, marked, planted, files = claim_share(copy)
    hidden = marked - planted  # superseded, though the generator planted no update
    share = live / (live + hidden) if live + hidden else 1.0
    bench.row(s, "claims live after the run (not only in superseded markers), "
              "planted updates aside",
              f"{live:,} of {live + hidden:,} ({share:.1%}); {planted:,} planted updates "
              f"superseded; {files} files superseded", "", "",
              "≥ 95%", "met" if share >= 0.95 else "**missed**")
    before = subprocess.run(["git", "-C", copy, "rev-list", "--count", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    bench.consolidate(copy)
    after = subprocess.run(["git", "-C", copy, "rev-list", "--count", "HEAD"],
                           capture_output=True, text=True).stdout.strip()
    bench.row(s, "commits made by a second full run right after", str(int(after) - int(before)),
              "", "", "0", "met" if after == before else "**missed**")


def file_merges(bench, name, out, s):
    """The files dedupe merged, against the near-duplicates the generator
    planted: how many of those it found, and how many merges were of files
    not planted (templated notes share most words whatever they are about)."""
    merged = {frozenset((a["source"], a["target"])) for a in json.loads(out)["actions"]
              if a["rule"] == "dedupe" and a["action"] == "merged" and not a["claim"]}
    planted = bench.planted[name]
    found = len(merged & planted)
    bench.row(s, "files merged by dedupe, against the planted near-duplicates",
              f"{found} of {len(planted)} planted merged; {len(merged) - found} merges of "
              f"files not planted", "", "", "", "")


def scenario_full(bench, runs):
    for label, expired, wall_target, templated in (
            ("100% expired", 1.0, 0.5, False), ("10% expired", 0.1, 0.1, False),
            ("100% expired, templated notes", 1.0, None, True)):
        name = f"s1-{int(expired * 100)}" + ("-templated" if templated else "")
        pristine = bench.store(name, 2000, expired, 500, templated)
        engram, floor = [], []
        actions = None
        for i in range(runs):
            copy = bench.fresh_copy(pristine, f"engram-{i}")
            if i == 0:
                note_command([bench.engram, "consolidate", "--store", "<copy>", "--now", NOW,
                              "--allow-removals", "--json"])
            sample, out = bench.consolidate(copy, "--json")
            s = "1. full, 2,000 episodic (" + label + ") + 500 semantic"
            if i == 0:
                actions = out.count(b'"action":')
            engram.append(sample)
            floor.append(floor_sample(bench, pristine, copy, str(i)))
            if i == 0:
                check_judgments(bench, copy, s)
                file_merges(bench, name, out, s)
            bench.drop(copy)
        wall = Stats([x.wall for x in engram])
        base = Stats([x.wall for x in floor])
        ratio = wall.median / base.median
        if wall_target is None:
            bench.row(s, "wall", spread(wall), spread(base), f"{ratio:.1f}×", "≤ 3× floor",
                      f"ratio {verdict(ratio, 3.0)}")
        else:
            bench.row(s, "wall", spread(wall), spread(base), f"{ratio:.1f}×",
                      f"≤ {seconds(wall_target)}, ≤ 3× floor",
                      f"{verdict(wall.median, wall_target)}; ratio {verdict(ratio, 3.0)}")
        cpu = Stats([x.cpu for x in engram])
        bcpu = Stats([x.cpu for x in floor])
        bench.row(s, "CPU (user+sys)", spread(cpu), spread(bcpu), f"{cpu.median / bcpu.median:.1f}×", "", "")
        rss = Stats([x.rss_kb for x in engram])
        brss = Stats([x.rss_kb for x in floor])
        bench.row(s, "peak RSS", spread(rss, mib), spread(brss, mib),
                  f"{rss.median / brss.median:.1f}×", "", "")
        bench.notes.append(f"Scenario 1 ({label}): the first run's record holds {actions} actions.")


# ---------------------------------------------------------------- scenario 3

def append_line(path, text):
    with open(path, "a") as f:
        f.write(text)


def one_semantic_file(store):
    folder = os.path.join(store, "semantic")
    return os.path.join(folder, sorted(f for f in os.listdir(folder) if f.endswith(".md"))[0])


def daemon_cycles(bench, copy, total, trials):
    """The daemon's one-file cycles on `copy`, committed and indexed: change →
    commit latencies (HEAD moves: the snapshot commit) and the daemon's own
    time for each whole run (snapshot, rules, commit), from its log."""
    daemon = Daemon(bench, copy, f"cycle-{total}", debug=True)
    try:
        daemon.start(timeout=600)
        # Not counted: the daemon's first run reads the whole store (it has
        # read nothing yet), and a file whose ctime is under two seconds old
        # is read again on every run (ScanCache::settled_ns, against racily
        # clean files) — every file of a copy made a moment ago. Steady state
        # is the store as an agent's is: written over time, read once.
        time.sleep(2.5)
        latency_trials(copy, 1, f"warm-up {total}", daemon)
        latencies = latency_trials(copy, trials, f"cycle {total}", daemon)
        daemon.wait_idle()
    finally:
        daemon.stop()
    with open(daemon.log.name, errors="replace") as f:
        log = f.read()
    runs = [float(m.group(1)) / 1000 for m in
            re.finditer(r"\(([\d.]+) ms\); agent's changes committed as", log)]
    return latencies, runs[-trials:]


def commit_count(store):
    return int(run(["git", "rev-list", "--count", "HEAD"], cwd=store).strip())


def objects_kib(store):
    """What .git/objects holds, loose and packed, in KiB (`git count-objects -v`)."""
    counts = dict(line.split(": ", 1) for line in
                  run(["git", "count-objects", "-v"], cwd=store).splitlines())
    return int(counts["size"]) + int(counts["size-pack"])


def git_cycles(bench, copy, target, argv, label, runs, note):
    """`argv` run `runs` times in `copy`, a line appended to `target` before
    each (`label` with the run's number); their wall times, as Stats."""
    walls = []
    for i in range(runs):
        append_line(target, f"- The {label.format(i)} is done.\n")
        if i == 0 and note:
            note_command(argv, "<copy, one line appended>")
        walls.append(measure(argv, cwd=copy, env=bench.env)[0].wall)
    return Stats(walls)


def scenario_scaling(bench, runs, sizes, full_sizes, trials):
    cycle, commit_at, git_one = {}, {}, {}
    for total in sizes:
        episodic, semantic = total * 8 // 10, total * 2 // 10
        pristine = bench.store(f"s3-{total}", episodic, 0.1, semantic)
        s = f"3. scaling, {total:,} files"
        # One copy serves the three, in turn (copying 100,000 files is slow
        # here): the baseline, a one-line change committed with `git add -A &&
        # git commit`; the command's cycle; then the daemon's.
        # Copied even when nothing else uses the store (20 s at 100,000
        # files): every timed store is a copy in a block group of its own (see
        # drop). The generated store itself was tried: 15.8 and 17.1 ms
        # cycles at 100,000 files in two whole runs, then 14.8 ms on the copy
        # in the next; the machine moved them, not the copy.
        copy = bench.fresh_copy(pristine, "cycle")
        target = one_semantic_file(copy)
        commit = ["sh", "-c", "git add -A && git commit -q -m 'baseline: one file'"]
        git = git_cycles(bench, copy, target, commit, f"git cycle {{}} of store {total}", runs,
                         total == sizes[0])
        # git's own commit of one named file: no scan of the tree, only what
        # the format costs (the whole index written, the trees along the path
        # rewritten), the floor any tool committing through git has.
        rel = os.path.relpath(target, copy)
        named = ["sh", "-c", f"git add -- '{rel}' && git commit -q -m 'baseline: one named file'"]
        one = git_cycles(bench, copy, target, named, f"named git cycle {{}} of store {total}", runs,
                         total == sizes[0])
        git_one[total] = one.median
        bench.consolidate(copy, "--lightweight")  # the index built, the store committed
        if total <= 10000:
            # The cycle as a command: a process that knows nothing of what
            # changed, so it reads the whole store. For reference; no target.
            light = []
            for i in range(runs):
                append_line(target, f"- The bench cycle {i} of store {total} is done.\n")
                if i == 0 and total == sizes[0]:
                    note_command([bench.engram, "consolidate", "--store", "<copy>", "--now", NOW,
                                  "--lightweight"])
                light.append(bench.consolidate(copy, "--lightweight")[0].wall)
            light = Stats(light)
        # The one-file cycle as engram runs it: the daemon, told by its watcher
        # which file changed, snapshots it and runs the lightweight rules.
        # What its commits add to .git is measured from a store with nothing
        # loose (packed first, not timed): loose, then once `engram pack` ran.
        pack = [bench.engram, "pack", "--store", copy]
        run(pack, env=bench.env)
        commits_before, objects_before = commit_count(copy), objects_kib(copy)
        latencies, took = daemon_cycles(bench, copy, total, trials)
        changes = commit_count(copy) - commits_before
        loose_kib = objects_kib(copy) - objects_before
        if total == sizes[0]:
            note_command(pack[:-1] + ["<copy>"])
        packed = measure(pack, env=bench.env)[0]
        packed_kib = objects_kib(copy) - objects_before
        bench.drop(copy)
        latency, took = Stats(latencies), Stats(took)
        cycle[total], commit_at[total] = took.median, latency.median
        bench.row(s, f"one-file cycle, the daemon's whole run ({len(took.values)} changes)",
                  spread(took), spread(git), f"{took.median / git.median:.1f}×", "", "")
        bench.row(s, "one-file change → its commit (HEAD moves), with the daemon", spread(latency),
                  spread(git), f"{latency.median / git.median:.1f}×", "", "")
        bench.row(s, "one-file cycle, the daemon's whole run, against git's commit of that one "
                  "named file (`git add FILE && git commit`)", spread(took), spread(one),
                  f"{took.median / one.median:.1f}×", "", "")
        if changes > 0:
            bench.row(s, f"`.git` growth per one-file change, its objects loose ({changes} changes)",
                      f"{loose_kib / changes:.1f} KiB", "", "", "", "")
            bench.row(s, "`.git` growth per one-file change, once `engram pack` packed them",
                      f"{packed_kib / changes:.1f} KiB", f"loose {loose_kib / changes:.1f} KiB",
                      f"{packed_kib / loose_kib:.2f}×" if loose_kib > 0 else "-", "", "")
            bench.row(s, f"`engram pack` of those {changes} changes' objects",
                      f"{seconds(packed.wall)} (CPU {seconds(packed.cpu)})", "", "", "", "")
        if total <= 10000:
            bench.row(s, "one-file cycle, `engram consolidate --lightweight` (reads the whole store)",
                      spread(light), spread(git), f"{light.median / git.median:.1f}×", "", "")
        if total in full_sizes:
            fruns = runs if total <= 10000 else max(1, min(runs, 2))
            full, fl = [], []
            for i in range(fruns):
                copy = bench.fresh_copy(pristine, f"full-{i}")
                sample, _ = bench.consolidate(copy)
                full.append(sample)
                fl.append(floor_sample(bench, pristine, copy, f"s3-{i}"))
                bench.drop(copy)
            wall, base = Stats([x.wall for x in full]), Stats([x.wall for x in fl])
            rss = Stats([x.rss_kb for x in full])
            bench.row(f"3. scaling, {total:,} files", f"full consolidation (10% expired), peak RSS {mib(rss.median)}",
                      spread(wall), spread(base), f"{wall.median / base.median:.1f}×", "", "")
        else:
            bench.row(f"3. scaling, {total:,} files", "full consolidation", "not measured (time budget)",
                      "", "", "", "")
    small, large = min(cycle), max(cycle)
    if small != large:
        ratio = cycle[large] / cycle[small]
        bench.row("3. scaling", f"one-file cycle (the daemon's run) at {large:,} ÷ at {small:,}",
                  f"{ratio:.2f}×", "", "", "≤ 3×", verdict(ratio, 3.0))
        ratio = commit_at[large] / commit_at[small]
        bench.row("3. scaling", f"one-file change → commit at {large:,} ÷ at {small:,}",
                  f"{ratio:.2f}×", "", "", "", "")
        ratio = git_one[large] / git_one[small]
        bench.row("3. scaling", f"git's own commit of one named file at {large:,} ÷ at {small:,} "
                  "(what git's format costs as a store grows)", f"{ratio:.2f}×", "", "", "", "")
        bench.notes.append(
            "Scenario 3 slope (the daemon's one-file run, ms per 1,000 files): " +
            f"{(cycle[large] - cycle[small]) * 1000 / ((large - small) / 1000):.2f}")


# ---------------------------------------------------------------- scenario 6

def scenario_dedupe(bench, runs):
    """Issue 8: the dedupe rule over 10,000 semantic files, target under a
    second. A dry run (it writes nothing, so every run sees the same store);
    the rule's own time comes from the engine's debug log. Baseline: reading
    every file of the store. The generator plants near-duplicates: the
    merges found are checked against them (each planted file merged with the
    file it copies, nothing else merged)."""
    pristine = bench.store("s6-dedupe", 0, 0.0, 10000)
    argv = [bench.engram, "--log-level", "debug", "consolidate", "--store", pristine, "--now", NOW,
            "--only", "dedupe", "--dry-run", "--json"]
    read = ["sh", "-c", "find . -path ./.git -prune -o -type f -print0 | xargs -0 cat > /dev/null"]
    note_command([a if a != pristine else "<store>" for a in argv])
    walls, rule, floor = [], [], []
    actions = None
    for _ in range(runs):
        errors = []
        sample, out = measure(argv, env=bench.env, stderr_sink=errors)
        found = re.search(r"rule dedupe ran in ([0-9.]+) ms", errors[0])
        if found:
            rule.append(float(found.group(1)) / 1000)
        walls.append(sample.wall)
        if actions is None:
            record = json.loads(out).get("actions", [])
            kinds = [a.get("action") for a in record]
            actions = {kind: kinds.count(kind)
                       for kind in ("merged", "absorbed", "duplicate", "superseded", "flagged")}
            merged = {frozenset((a.get("source"), a.get("target"))) for a in record
                      if a.get("action") == "merged"}
        sample, _ = measure(read, cwd=pristine, env=bench.env)
        floor.append(sample.wall)
    s = "6. dedupe, 10,000 semantic files"
    r, w, f = Stats(rule), Stats(walls), Stats(floor)
    bench.row(s, "dedupe rule (from the debug log)", spread(r), spread(f), f"{r.median / f.median:.1f}×",
              "< 1 s", verdict(r.median, 1.0))
    bench.row(s, "whole dry run (scan, all of it)", spread(w), spread(f), f"{w.median / f.median:.1f}×", "", "")
    # Files that copy one another (a planted file, what it copies, other
    # copies of that) are one subject: k of them should make k - 1 merges,
    # each between two of them, whichever two they are.
    cluster = {}
    def root(path):
        while cluster.get(path, path) != path:
            path = cluster[path]
        return path
    for pair in bench.planted["s6-dedupe"]:
        a, b = (root(p) for p in pair)
        if a != b:
            cluster[a] = b
    expected = len(bench.planted["s6-dedupe"])
    members = set().union(*bench.planted["s6-dedupe"])
    within = sum(1 for pair in merged if pair <= members and len({root(p) for p in pair}) == 1)
    stray = len(merged) - within
    bench.row(s, "merges of planted near-duplicates", f"{within} of {expected}", "", "",
              "all, and no other", "met" if within == expected and not stray else
              f"**missed**: {expected - within} not merged, {stray} merged that were not planted")
    bench.notes.append(f"Scenario 6: the dry run's record holds {actions} (by action); "
                       f"{stray} merges of files that were not planted as duplicates.")


# ---------------------------------------------------------------- scenario 7

RECALL_QUERIES = [
    "Why does the order sync time out on shopify webhooks?",
    "refund queue retry limit after a stale lock",
    "billing payments fraud check",
]


def scenario_recall(bench, runs):
    """Issue 9: `engram recall` on a 10,000-entry index (target < 10 ms) and
    `engram hook session-start` on a 10,000-file store (target < 50 ms), both
    as whole processes (exec, configuration, the recall index, the files it
    returns, the usage-log line). The store is indexed once by a lightweight
    consolidation (not timed), which also writes the recall index. Baselines:
    `cat .index.json > /dev/null` and `grep -c '"path"' .index.json`, the least
    any reader of the index does, and `engram --version`, the floor of
    starting the binary. Also: one recall after .index.json changed, which
    rebuilds the recall index first."""
    pristine = bench.store("s7-recall", 2000, 0.0, 8000)
    store = bench.fresh_copy(pristine, "recall")
    bench.consolidate(store, "--lightweight")
    with open(os.path.join(store, ".index.json")) as f:
        entries = len(json.load(f)["entries"])
    payload = os.path.join(bench.work, "session-start.json")
    with open(payload, "w") as f:
        json.dump({"session_id": "bench", "cwd": store, "hook_event_name": "SessionStart",
                   "source": "startup", "prompt": RECALL_QUERIES[0]}, f)
    recall = [bench.engram, "recall", "--store", store, "--now", NOW]
    hook = [bench.engram, "hook", "session-start", "--store", store, "--now", NOW]
    cat = ["sh", "-c", "cat .index.json > /dev/null"]
    grep = ["grep", "-c", '"path"', ".index.json"]
    version = [bench.engram, "--version"]
    note_command([a if a != store else "<store>" for a in recall + [RECALL_QUERIES[0]]])
    note_command([a if a != store else "<store>" for a in hook] + ["< session-start.json"])
    note_command(cat, "<store>")
    note_command(grep, "<store>")
    walls, hooks, cats, greps, starts, cold, inside = [], [], [], [], [], [], []
    found = None
    for i in range(max(runs, 5)):
        for query in RECALL_QUERIES:
            errors = []
            sample, out = measure(recall[:1] + ["--log-level", "debug"] + recall[1:] + [query],
                                  env=bench.env, stderr_sink=errors)
            walls.append(sample.wall)
            took = re.search(r"recall took ([0-9.]+) ms", errors[0])
            if took:
                inside.append(float(took.group(1)) / 1000)
            if found is None:
                found = len(out.splitlines())
        with open(payload) as stdin:
            sample, out = measure(hook, env=bench.env, stdin=stdin)
        json.loads(out)  # the hook's output must be valid JSON
        hooks.append(sample.wall)
        cats.append(measure(cat, cwd=store, env=bench.env)[0].wall)
        greps.append(measure(grep, cwd=store, env=bench.env, check=False)[0].wall)
        starts.append(measure(version, env=bench.env)[0].wall)
        if i < runs:
            os.utime(os.path.join(store, ".index.json"))  # stale: the next recall rebuilds
            cold.append(measure(recall + [RECALL_QUERIES[1]], env=bench.env)[0].wall)
    bench.drop(store)
    s = f"7. recall, {entries:,}-entry index"
    w, h, c, g, v, k, n = (Stats(x) for x in (walls, hooks, cats, greps, starts, cold, inside))
    bench.row(s, "recall in the process: index, rank, read (from the debug log)", spread(n),
              f"cat {spread(c)}; grep -c {spread(g)}", f"{n.median / c.median:.2f}× cat", "< 10 ms",
              verdict(n.median, 0.010))
    bench.row(s, "`engram recall QUERY` (whole process)", spread(w), f"cat {spread(c)}; grep -c {spread(g)}",
              f"{w.median / c.median:.1f}× cat", "", "")
    bench.row(s, "`engram hook session-start` (whole process)", spread(h), f"cat {spread(c)}",
              f"{h.median / c.median:.1f}× cat", "< 50 ms", verdict(h.median, 0.050))
    bench.row(s, "`engram --version` (starting the binary)", spread(v), "", "", "", "")
    bench.row(s, "recall right after .index.json changed (rebuilds recall.idx)", spread(k),
              f"cat {spread(c)}", f"{k.median / c.median:.1f}× cat", "", "")
    bench.notes.append(f"Scenario 7: the first query returned {found} memories; each recall "
                       "appends one line to the usage log, as in use.")


# ---------------------------------------------------------------- daemon

def daemon_available(bench):
    done = subprocess.run([bench.engram, "daemon", "--help"], capture_output=True, env=bench.env)
    return done.returncode == 0


RUN_DONE = re.compile(r" \([\d.]+ ms\)")  # a run's summary line in the daemon's log


class Daemon:
    """An `engram daemon` over one store, with READY=1 read from NOTIFY_SOCKET."""

    def __init__(self, bench, store, tag, daemon_keys="", debug=False):
        self.bench = bench
        self.config = os.path.join(bench.work, f"daemon-{tag}.toml")
        with open(self.config, "w") as f:
            # snapshot_interval_s = 0: the agent's change is committed at
            # once, as the scenario measures, not coalesced for a minute.
            f.write(f'[daemon]\nsettle_ms = 0\n{daemon_keys}\n[git]\nsnapshot_interval_s = 0\n\n'
                    f'[[store]]\npath = "{store}"\n')
        self.notify_path = os.path.join(bench.work, f"notify-{tag}.sock")
        if os.path.exists(self.notify_path):
            os.unlink(self.notify_path)
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(self.notify_path)
        self.argv = [bench.engram, "--config", self.config] + \
            (["--log-level", "debug"] if debug else []) + ["daemon"]
        self.log = open(os.path.join(bench.work, f"daemon-{tag}.log"), "wb")
        self.process = None

    def start(self, timeout=120):
        """Starts it; returns seconds from exec to READY=1."""
        env = dict(self.bench.env, NOTIFY_SOCKET=self.notify_path)
        self.notify.settimeout(timeout)
        start = time.perf_counter()
        self.process = subprocess.Popen(self.argv, env=env, stdout=self.log, stderr=self.log)
        deadline = start + timeout
        while True:
            self.notify.settimeout(max(0.01, deadline - time.perf_counter()))
            try:
                message = self.notify.recv(4096).decode(errors="replace")
            except socket.timeout:
                self.stop()
                raise RuntimeError("the daemon did not send READY=1")
            if "READY=1" in message.split("\n"):
                return time.perf_counter() - start
            if self.process.poll() is not None:
                raise RuntimeError(f"the daemon exited {self.process.returncode} before READY")

    def wait_idle(self, timeout=60.0):
        """Waits until every run the daemon started has finished, as its log
        says: one "consolidating (…)" line per run, then its summary ("… (N ms)…")
        or its failure. Its own writes start no run."""
        deadline = time.perf_counter() + timeout
        with open(self.log.name, errors="replace") as log:
            started = finished = 0
            while time.perf_counter() < deadline:
                for line in log.readlines():
                    if "consolidating (" in line:
                        started += 1
                    elif RUN_DONE.search(line) or "consolidation failed" in line:
                        finished += 1
                if started == finished:
                    return
                time.sleep(0.0005)
        raise RuntimeError(f"the daemon's runs did not finish within {timeout} s")

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.notify.close()
        self.log.close()


def head_ref(store):
    with open(os.path.join(store, ".git", "HEAD")) as f:
        head = f.read().strip()
    return os.path.join(store, ".git", head[5:]) if head.startswith("ref: ") else os.path.join(store, ".git", "HEAD")


def read_ref(ref):
    try:
        with open(ref) as f:
            return f.read()
    except FileNotFoundError:
        return ""


def wait_head_moves(ref, before, timeout=30.0):
    """Seconds until the ref file's content differs from `before` (polled every 0.2 ms)."""
    start = time.perf_counter()
    while True:
        if read_ref(ref) != before:
            return time.perf_counter() - start
        if time.perf_counter() - start > timeout:
            return float("nan")
        time.sleep(0.0002)


def wait_quiet(ref, quiet=0.3, timeout=60.0):
    """Waits until the ref has not moved for `quiet` seconds."""
    start = time.perf_counter()
    last, since = read_ref(ref), time.perf_counter()
    while time.perf_counter() - start < timeout:
        time.sleep(0.02)
        now = read_ref(ref)
        if now != last:
            last, since = now, time.perf_counter()
        elif time.perf_counter() - since >= quiet:
            return


def latency_trials(store, trials, trigger, daemon=None):
    """Latency of `trials` changes: each appends a line, then waits for HEAD to
    move. Each starts once the last is done: the daemon's log says when its runs
    have finished; a loop without one is done when HEAD has not moved for 0.3 s."""
    ref = head_ref(store)
    target = one_semantic_file(store)
    out = []
    for i in range(trials):
        if daemon is not None:
            daemon.wait_idle()
        else:
            wait_quiet(ref)
        before = read_ref(ref)
        start = time.perf_counter()
        append_line(target, f"- The latency trial {i} ({trigger}) is done.\n")
        moved = wait_head_moves(ref, before)
        if moved == moved:  # not nan: HEAD moved before the timeout
            out.append(time.perf_counter() - start)
    return out


def scenario_latency(bench, trials):
    pristine = bench.store("daemon-10k", 8000, 0.0, 2000)
    s = "2. change → commit, 10,000 files"
    # Baseline a: `git add -A && git commit` of a one-line change.
    copy = bench.fresh_copy(pristine, "git")
    target = one_semantic_file(copy)
    commit = ["sh", "-c", "git add -A && git commit -q -m 'baseline: change'"]
    git = []
    for i in range(trials):
        append_line(target, f"- The git trial {i} is done.\n")
        sample, _ = measure(commit, cwd=copy, env=bench.env)
        git.append(sample.wall)
    bench.drop(copy)
    git = Stats(git)
    # Baseline b: a persistent inotifywait loop that commits every change.
    copy = bench.fresh_copy(pristine, "inotifywait")
    loop = ("inotifywait -m -r -q -e close_write,moved_to,create,delete --exclude '/\\.git(/|$)' . "
            "| while read -r line; do git add -A && git commit -q -m 'inotifywait: change'; done")
    note_command(["sh", "-c", loop], "<copy>")
    watcher = subprocess.Popen(["sh", "-c", loop], cwd=copy, env=bench.env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(3.0)  # inotifywait -r sets its watches up before it reads events
    inotify = Stats(latency_trials(copy, trials, "inotifywait"))
    os.killpg(watcher.pid, 15)
    watcher.wait()
    bench.drop(copy)
    # engram daemon.
    copy = bench.fresh_copy(pristine, "daemon")
    daemon = Daemon(bench, copy, "latency")
    note_command(daemon.argv + ["# NOTIFY_SOCKET set; config: settle_ms = 0, git.snapshot_interval_s = 0, one [[store]]"])
    try:
        daemon.start()
        time.sleep(2.5)  # as in daemon_cycles: files copied a moment ago are not yet settled
        latency_trials(copy, 1, "warm-up", daemon)  # not counted: the first run reads the whole store
        engram = Stats(latency_trials(copy, trials, "engram", daemon))
    finally:
        daemon.stop()
    bench.drop(copy)
    for p, label in ((50, "p50"), (90, "p90")):
        value = engram.percentile(p)
        bench.row(s, f"{label} latency ({trials} trials)", seconds(value),
                  f"git add+commit {seconds(git.percentile(p))}; inotifywait loop {seconds(inotify.percentile(p))}",
                  f"{value / git.percentile(p):.2f}× / {value / inotify.percentile(p):.2f}×",
                  "p50 ≤ 10 ms" if p == 50 else "",
                  verdict(value, 0.010) if p == 50 else "")


def proc_cpu(pid):
    """User+sys CPU seconds of a process (all threads), from /proc/PID/stat."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def proc_wakeups(pid):
    """Context switches of every thread of a process: how often it woke up."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        total += int(line.split()[1])
        except FileNotFoundError:
            pass
    return total


def proc_rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def scenario_idle_and_startup(bench, idle_seconds, runs):
    pristine = bench.store("daemon-10k", 8000, 0.0, 2000)
    # 5. Start-up: exec to READY=1. Baseline: `git status` on the same store.
    ready, status = [], []
    for i in range(runs):
        copy = bench.fresh_copy(pristine, f"startup-{i}")
        daemon = Daemon(bench, copy, f"startup-{i}")
        try:
            ready.append(daemon.start())
        finally:
            daemon.stop()
        sample, _ = measure(["git", "status", "--porcelain"], cwd=copy, env=bench.env)
        status.append(sample.wall)
        bench.drop(copy)
    ready, status = Stats(ready), Stats(status)
    bench.row("5. start-up, 10,000 files", "exec → READY=1", spread(ready), f"git status {spread(status)}",
              f"{ready.median / status.median:.1f}×", "", "")
    # 4. Idle: the daemon and, beside it, an idle `inotifywait -m -r` on a copy.
    copy = bench.fresh_copy(pristine, "idle")
    other = bench.fresh_copy(pristine, "idle-inotifywait")
    release_after = 5  # daemon.release_after_s (60 by default), short for the bench
    daemon = Daemon(bench, copy, "idle", f"release_after_s = {release_after}\n")
    removing = None
    watcher = subprocess.Popen(["inotifywait", "-m", "-r", "-q", "--exclude", "/\\.git(/|$)", other],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        daemon.start()
        wait_quiet(head_ref(copy), quiet=2.0)
        pid = daemon.process.pid
        cpu0, wake0 = proc_cpu(pid), proc_wakeups(pid)
        wcpu0, wwake0 = proc_cpu(watcher.pid), proc_wakeups(watcher.pid)
        # The minute counts only these two processes' CPU and wakeups, and
        # neither watches the other stores: they are removed meanwhile
        # (the 100,000-file store takes most of a minute), and nothing is
        # timed after it. The bench then ends a minute sooner.
        stores = (os.path.join(bench.work, "pristine"), bench.runs)
        removing = start_removing([p for p in store_folders(bench.work)
                                   if os.path.dirname(p) in stores
                                   and not p.startswith((pristine, copy, other))])
        time.sleep(idle_seconds)
        cpu, wake, rss = proc_cpu(pid) - cpu0, proc_wakeups(pid) - wake0, proc_rss_kb(pid)
        wcpu, wwake = proc_cpu(watcher.pid) - wcpu0, proc_wakeups(watcher.pid) - wwake0
        wrss = proc_rss_kb(watcher.pid)
        # Then one change: what the run keeps of the store, and what is left
        # once the daemon lets go of it (release_after_s after the run).
        ref = head_ref(copy)
        before = read_ref(ref)
        semantic = os.path.join(copy, "semantic")
        with open(os.path.join(semantic, sorted(os.listdir(semantic))[0]), "a") as f:
            f.write("- one more line for the idle scenario.\n")
        deadline = time.monotonic() + 120
        while read_ref(ref) == before and time.monotonic() < deadline:
            time.sleep(0.05)
        daemon.wait_idle()
        rss_kept = proc_rss_kb(pid)
        time.sleep(release_after + 2)
        rss_released = proc_rss_kb(pid)
    finally:
        daemon.stop()
        watcher.terminate()
        watcher.wait()
        if removing is not None:
            removing.shutdown(wait=True)
    bench.drop(copy)
    bench.drop(other)
    s = f"4. idle {idle_seconds} s, 10,000 files"
    bench.row(s, "CPU", seconds(cpu), f"inotifywait -m -r {seconds(wcpu)}", "-", "< 5 ms",
              verdict(cpu, 0.005) if cpu > 0 else "met (0 ticks of 10 ms)")
    bench.row(s, "wakeups (context switches)", str(wake), str(wwake), "-", "", "")
    bench.row(s, "RSS", mib(rss), mib(wrss), f"{rss / max(wrss, 1):.1f}×", "< 30 MB",
              verdict(rss / 1024, 30 * 1000 * 1000 / 1024 / 1024))
    bench.row(s, "RSS right after one change (the store's model kept)", mib(rss_kept), mib(wrss),
              f"{rss_kept / max(wrss, 1):.1f}×", "", "")
    bench.row(s, f"RSS idle again, release_after_s ({release_after} s) after that change",
              mib(rss_released), mib(wrss), f"{rss_released / max(wrss, 1):.1f}×", "< 30 MB",
              verdict(rss_released / 1024, 30 * 1000 * 1000 / 1024 / 1024))


# ---------------------------------------------------------------- report

def machine():
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cores (nproc)": str(os.cpu_count()), "CPU": model,
            "kernel": platform.release(), "OS": platform.platform(),
            "load average at start": " ".join(f"{x:.2f}" for x in os.getloadavg())}


def commit_id():
    head = run(["git", "-C", REPO, "rev-parse", "HEAD"], check=False).strip() or "unknown"
    # The results file itself does not count: an earlier run rewrote it.
    dirty = run(["git", "-C", REPO, "status", "--porcelain", "--untracked-files=no", "--", ".",
                 ":(exclude)bench/RESULTS.md"], check=False).strip()
    return f"{head}{' (dirty: uncommitted changes in tracked files)' if dirty else ''}"


def report(bench, started, elapsed):
    lines = ["# Benchmark results", "",
             "Generated by `make bench` (bench/run.py); do not edit by hand. Each value is the median "
             "of the runs with the range (min–max) in brackets; ratios divide engram's median by the "
             "baseline's median measured in the same invocation.", ""]
    lines += ["| scenario | measure | engram | baseline (same run) | ratio | target | verdict |",
              "|---|---|---|---|---|---|---|"]
    for row in bench.rows:
        lines.append("| " + " | ".join(str(c) for c in row) + " |")
    lines += ["", "## Machine", ""]
    for k, v in machine().items():
        lines.append(f"- {k}: {v}")
    version = run([bench.engram, "--version"], env=bench.env, check=False).strip()
    lines += [f"- commit: {commit_id()}", f"- engram: {version} ({bench.engram})",
              f"- run: {started} UTC, {elapsed:.0f} s, {bench.args.runs} runs per scenario"
              f" ({bench.args.trials} latency trials), seed {bench.args.seed}", ""]
    if bench.notes:
        lines += ["## Notes", ""] + [f"- {n}" for n in bench.notes] + [""]
    lines += ["## Commands", "", "Baselines and engram run on fresh copies (`cp -a`) of the same "
              "generated store; copying (and a `sync` after it) is not timed. Nothing is removed "
              "while anything is timed (the stores are removed during scenario 4's idle minute, "
              "which counts only the daemon's CPU and wakeups, and at the end), and each copy "
              "sits in a folder of its own block group"
              + ("" if bench.spread else " (not here: `chattr +T` failed)")
              + ": on ext4 without a journal, making a file scans the inodes freed in the last "
              "minutes, so what the bench had removed would be timed too.", "", "```"]
    seen = set()
    for c in COMMANDS:
        c = c.replace(bench.work, "$WORK").replace(REPO + "/", "")
        if c not in seen:
            seen.add(c)
            lines.append(c)
    lines += ["```", ""]
    return "\n".join(lines)


def store_folders(path):
    """The stores and copies in the bench's folder (what remove_tree removes one by one)."""
    entries = []
    for top in sorted(os.listdir(path)):
        full = os.path.join(path, top)
        if os.path.isdir(full) and not os.path.islink(full):
            entries.extend(os.path.join(full, name) for name in sorted(os.listdir(full)))
    return entries


def start_removing(entries):
    """Starts one `rm -rf` per entry, as many at once as there are cores, and
    returns the pool: its shutdown() waits for them. Unlinking is the
    kernel's work, and it is most of a run's end: on this machine's ext4, one
    `rm -rf` of a 100,000-file copy took 45 s, and two of them side by side
    49 s; with one remover the bench spent 190 s of its 580 s removing."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1)
    for entry in entries:
        pool.submit(subprocess.run, ["rm", "-rf", "--", entry], check=False)
    return pool


def remove_tree(path):
    """Removes the bench's folder, one `rm -rf` per store or copy in it.
    Nothing is timed by then."""
    start_removing(store_folders(path)).shutdown(wait=True)
    shutil.rmtree(path, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engram", default=os.path.join(REPO, "build/release/bin/engram"))
    # The defaults are what bench/RESULTS.md was made with: sized to the
    # time budget of one run on a 2-core machine.
    parser.add_argument("--runs", type=int, default=3, help="runs per measurement")
    parser.add_argument("--trials", type=int, default=50, help="latency trials (scenario 2)")
    parser.add_argument("--cycle-trials", type=int, default=10,
                        help="one-file changes per store size with the daemon (scenario 3)")
    parser.add_argument("--idle", type=int, default=60, help="idle seconds (scenario 4)")
    parser.add_argument("--sizes", default="1000,10000,100000", help="scenario 3 store sizes")
    parser.add_argument("--full-sizes", default="1000,10000",
                        help="scenario 3 sizes that also get a full consolidation")
    parser.add_argument("--scenarios", default="1,2,3,4,5,6,7,8")
    parser.add_argument("--sync-changes", type=int, default=1000,
                        help="changes per machine (scenario 8)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work-dir", default=None, help="where stores are generated (default: $TMPDIR)")
    parser.add_argument("--results", default=os.path.join(HERE, "RESULTS.md"))
    parser.add_argument("--keep", action="store_true", help="keep the generated stores")
    args = parser.parse_args()
    if not os.access(args.engram, os.X_OK):
        sys.exit(f"bench: no engram binary at {args.engram}; run `make bench`")

    started = datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M")
    begin = time.perf_counter()
    bench = Bench(args)
    scenarios = set(args.scenarios.split(","))
    spent = []  # (scenario, seconds), stores generated on the way included

    def timed(name, fn, *fn_args):
        start = time.perf_counter()
        fn(*fn_args)
        spent.append((name, time.perf_counter() - start))

    try:
        if "1" in scenarios:
            timed("1", scenario_full, bench, args.runs)
        if "3" in scenarios:
            timed("3", scenario_scaling, bench, args.runs, [int(x) for x in args.sizes.split(",")],
                  {int(x) for x in args.full_sizes.split(",") if x}, args.cycle_trials)
        if "6" in scenarios:
            timed("6", scenario_dedupe, bench, args.runs)
        if "7" in scenarios:
            timed("7", scenario_recall, bench, args.runs)
        if "8" in scenarios:
            timed("8", sync_bench.scenario_sync, bench, args.runs, note_command, Stats, spread,
                  10, args.sync_changes)
        daemon_scenarios = scenarios & {"2", "4", "5"}
        if daemon_scenarios and not daemon_available(bench):
            for s in sorted(daemon_scenarios):
                name = {"2": "2. change → commit latency", "4": "4. idle", "5": "5. start-up"}[s]
                bench.row(name, "-", "not measured: daemon not available", "", "", "", "not measured")
        else:
            if "2" in scenarios:
                timed("2", scenario_latency, bench, args.trials)
            if "4" in scenarios or "5" in scenarios:
                timed("4 and 5", scenario_idle_and_startup, bench, args.idle, args.runs)
    finally:
        if not args.keep:
            remove_tree(bench.work)
    bench.notes.append("Time per scenario, generating its stores included: " +
                       ", ".join(f"{name} {secs:.0f} s" for name, secs in spent) + ".")
    text = report(bench, started, time.perf_counter() - begin)
    with open(args.results, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
