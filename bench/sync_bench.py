"""Scenario 8 of the benchmark (bench/run.py): stores shared through one git
remote with `engram sync`.

  a. Ten stores ("machines") on one bare remote, 1,000 changes each: every
     machine appends lines in batches, to a file of its own and to one file
     every machine writes, and runs `engram sync` after each batch, all ten at
     once. Then rounds of `engram sync` on every machine until all ten are at
     the remote's tip. Measured: the wall time of the whole, the time from the
     last change until all ten agree, the rounds that took, and the bytes the
     remote grew by per change (what was pushed, as git stores it). Checked:
     every line written is in every machine's files, once.
  b. One sync round at 10,000 files: a machine that changed one file while
     another machine pushed a change to a different file; `engram sync`
     against `git add -A && git commit && git pull --rebase && git push` on
     copies of the same repositories, in the same run.
"""

import os
import shutil
import subprocess
import threading
import time

NOW = "2026-11-22"


def git(args, cwd, env):
    done = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)} in {cwd}: {done.stderr[-2000:]}")
    return done.stdout.strip()


class Machine:
    """One store sharing the remote, with the configuration that says so."""

    def __init__(self, bench, folder, name, remote, branch="main"):
        self.bench, self.name = bench, name
        self.store = os.path.join(folder, name)
        self.config = os.path.join(folder, name + ".toml")
        with open(self.config, "w") as f:
            f.write(f'[[store]]\npath = "{self.store}"\ngit.remote = "{remote}"\n'
                    f'git.branch = "{branch}"\ngit.sync = true\ngit.machine = "{name}"\n')

    def engram(self, *args, check=True):
        argv = [self.bench.engram, "--config", self.config, *args]
        done = subprocess.run(argv, env=self.bench.env, capture_output=True, text=True)
        if check and done.returncode != 0:
            raise RuntimeError(f"{' '.join(argv)} exited {done.returncode}: {done.stderr[-2000:]}")
        return done

    def sync(self):
        """One round; whether it ended with the store on the remote."""
        return self.engram("sync", "--store", self.store, "--now", NOW, check=False).returncode == 0

    def head(self):
        return git(["rev-parse", "HEAD"], self.store, self.bench.env)


def semantic(title, tag):
    return (f"---\ntype: semantic\ncreated: 2026-01-05\ntags: [{tag}]\n---\n# {title}\n\n")


def letters(n):
    """n as four letters: a marker no rule reads as a number or a changed value."""
    out = ""
    for _ in range(4):
        out = chr(ord("a") + n % 26) + out
        n //= 26
    return out


def remote_kib(remote, env):
    counts = dict(line.split(": ") for line in
                  git(["count-objects", "-v"], remote, env).splitlines())
    return int(counts["size"]) + int(counts["size-pack"])


def ten_machines(bench, machines_count, changes, batch):
    folder = os.path.join(bench.work, "sync-a")
    remote = os.path.join(folder, "remote.git")
    os.makedirs(folder)
    git(["init", "-q", "--bare", "-b", "main", remote], folder, bench.env)
    machines = [Machine(bench, folder, f"m{i}", remote) for i in range(machines_count)]
    first = machines[0]
    first.engram("init", first.store)
    with open(os.path.join(first.store, "semantic", "shared.md"), "w") as f:
        f.write(semantic("Shared facts", "shared"))
    if not first.sync():
        raise RuntimeError("the first machine could not push")
    for m in machines[1:]:
        git(["clone", "-q", remote, m.store], folder, bench.env)
        m.engram("init", m.store)
    for m in machines:
        with open(os.path.join(m.store, "semantic", f"{m.name}.md"), "w") as f:
            f.write(semantic(f"Facts of {m.name}", m.name))
    before_kib = remote_kib(remote, bench.env)
    failed_rounds = [0] * machines_count
    errors = []

    def work(i):
        m = machines[i]
        try:
            for start in range(0, changes, batch):
                for n in range(start, min(start + batch, changes)):
                    # One change in five goes to the file every machine writes.
                    target = "shared.md" if n % 5 == 0 else f"{m.name}.md"
                    with open(os.path.join(m.store, "semantic", target), "a") as f:
                        f.write(f"- Plain fact sy{m.name}x{letters(n)}q holds.\n")
                if not m.sync():
                    failed_rounds[i] += 1
        except Exception as error:  # reported after the join
            errors.append(error)

    start = time.perf_counter()
    threads = [threading.Thread(target=work, args=(i,)) for i in range(machines_count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    written = time.perf_counter()
    rounds = 0
    while True:
        rounds += 1
        for m in machines:
            m.sync()
        tip = git(["rev-parse", "main"], remote, bench.env)
        if all(m.head() == tip for m in machines):
            break
        if rounds > 20:
            raise RuntimeError("ten machines did not agree within 20 rounds")
    agreed = time.perf_counter()
    grown = remote_kib(remote, bench.env) - before_kib
    missing = check_every_line(machines, changes)
    merges = len([s for s in git(["log", "--format=%s", "main"], remote, bench.env).splitlines()
                  if s.startswith("sync: merge")])
    return {
        "whole": agreed - start, "to_agree": agreed - written, "rounds": rounds,
        "bytes_per_change": grown * 1024 / (machines_count * changes),
        "failed_rounds": sum(failed_rounds), "rounds_total": machines_count * (changes // batch),
        "missing": missing, "merges": merges,
    }


def check_every_line(machines, changes):
    """How many (machine, line) pairs are not live exactly once."""
    missing = 0
    for m in machines:
        text = ""
        for name in os.listdir(os.path.join(m.store, "semantic")):
            with open(os.path.join(m.store, "semantic", name)) as f:
                text += f.read()
        for other in machines:
            for n in range(changes):
                if text.count(f"sy{other.name}x{letters(n)}q") != 1:
                    missing += 1
    return missing


def one_round_at(bench, runs, pristine):
    """One sync round of a 10,000-file store, engram against plain git."""
    folder = os.path.join(bench.work, "sync-b")
    os.makedirs(folder)
    origin = os.path.join(folder, "origin.git")
    git(["clone", "-q", "--bare", pristine, origin], folder, bench.env)
    files = sorted(name for name in os.listdir(os.path.join(pristine, "semantic")))
    engram_times, git_times = [], []
    for run in range(runs):
        remote = {tool: os.path.join(folder, f"{tool}-{run}.git") for tool in ("engram", "git")}
        for path in remote.values():
            shutil.copytree(origin, path, symlinks=True)
        other = Machine(bench, folder, f"other-{run}", remote["engram"])
        git(["clone", "-q", remote["engram"], other.store], folder, bench.env)
        branch = git(["symbolic-ref", "--short", "HEAD"], other.store, bench.env)
        mine = Machine(bench, folder, f"mine-{run}", remote["engram"], branch)
        git(["clone", "-q", remote["engram"], mine.store], folder, bench.env)
        mine.engram("init", mine.store)
        # The other machine pushed a change to one file; this one changed another.
        with open(os.path.join(other.store, "semantic", files[run]), "a") as f:
            f.write(f"- The other machine's fact {letters(run)} holds.\n")
        git(["commit", "-q", "-am", "other"], other.store, bench.env)
        for path in remote.values():
            subprocess.run(["git", "push", "-q", path, branch], cwd=other.store, env=bench.env,
                           check=True, capture_output=True)
        plain = os.path.join(folder, f"plain-{run}")
        shutil.copytree(mine.store, plain, symlinks=True)
        git(["remote", "set-url", "origin", remote["git"]], plain, bench.env)
        for store in (mine.store, plain):
            with open(os.path.join(store, "semantic", files[-1 - run]), "a") as f:
                f.write(f"- This machine's fact {letters(run)} holds.\n")
        os.sync()
        start = time.perf_counter()
        if not mine.sync():
            raise RuntimeError("engram sync failed at 10,000 files")
        engram_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        subprocess.run(["sh", "-c", "git add -A && git commit -q -m change && "
                        "git pull -q --rebase && git push -q"], cwd=plain, env=bench.env,
                       check=True, capture_output=True)
        git_times.append(time.perf_counter() - start)
        if git(["rev-parse", branch], remote["engram"], bench.env) != mine.head():
            raise RuntimeError("engram's round did not push")
    return engram_times, git_times


def scenario_sync(bench, runs, note_command, Stats, spread, machines_count=10, changes=1000,
                  batch=20):
    s = "8. sync"
    note_command([bench.engram, "--config", "<machine.toml>", "sync", "--store", "<store>",
                  "--now", NOW])
    a = ten_machines(bench, machines_count, changes, batch)
    label = f"{machines_count} machines × {changes:,} changes"
    bench.row(s, f"{label}: until all agree, whole run", f"{a['whole']:.1f} s", "", "", "",
              "measured")
    bench.row(s, f"{label}: from the last change until all agree",
              f"{a['to_agree']:.1f} s ({a['rounds']} round{'s' * (a['rounds'] != 1)} of "
              f"{machines_count} syncs)", "", "", "", "measured")
    bench.row(s, f"{label}: remote growth per change (bytes pushed)",
              f"{a['bytes_per_change']:.0f} B", "", "", "",
              "measured")
    verdict = "PASS" if a["missing"] == 0 else "FAIL"
    bench.row(s, f"{label}: lines not live exactly once on every machine", str(a["missing"]),
              "0", "", "0", verdict)
    bench.notes.append(
        f"Scenario 8a: {a['rounds_total']} sync rounds while writing, {a['failed_rounds']} of "
        f"them ended short (the remote moved under the push, or a merge was left for the next "
        f"round); {a['merges']} merge commits on the remote.")
    pristine = bench.store("s3-10000", 8000, 0.1, 2000)
    engram_times, git_times = one_round_at(bench, runs, pristine)
    mine, theirs = Stats(engram_times), Stats(git_times)
    note_command(["sh", "-c", "git add -A && git commit -q -m change && git pull -q --rebase && "
                  "git push -q"], "<copy of the same clone>")
    ratio = mine.median / theirs.median
    bench.row(s, "one round at 10,000 files, another machine's change to merge", spread(mine),
              f"git pull --rebase && git push {spread(theirs)}", f"{ratio:.1f}×", "-",
              "measured")
