#!/usr/bin/env python3
"""The judgments runner: drives engram's real rules, through the built binary,
on one tiny store per labelled case, and prints how often they were right.

Three corpora (bench/judgments/*.jsonl, described in README.md):
  pairs           an existing claim and a newer one: duplicate, update, distinct, unrelated
                  (pairs.jsonl; pairs-more.jsonl, written after the judge, and
                  pairs-blind.jsonl, written blind and measured first, reported apart)
  placement       which section of the matching file a new claim is filed under
  classification  which layer a line of an episode goes to (or none: tasks, session metadata)
                  (classification.jsonl; classification-more.jsonl, likewise)

Each case is a store of its own (engram init adopts the files, then one full
consolidation on a fixed date), read back from the files and the record. The
peer's documented rule (a 40-character lower-cased prefix of the incoming
claim contained in the target is a duplicate; nothing is ever an update) is
scored on the same pairs as the baseline. With --check the exit status is 1
when a target of issue 39 is missed.
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
TODAY = "2026-12-01"
LABELS = ["duplicate", "update", "distinct", "unrelated"]
VERDICTS = ["duplicate", "update", "distinct"]
# The pairs corpora, each reported and checked on its own: the first labelled
# before the judge was written, the second after it, the third written blind
# after both and measured before any reading was made from it, to see the
# judge generalise.
PAIR_CORPORA = ["pairs.jsonl", "pairs-more.jsonl", "pairs-blind.jsonl"]
CLASS_CORPORA = ["classification.jsonl", "classification-more.jsonl"]

# The targets of issue 39, checked with --check.
TARGETS = {
    "false_supersession_max": 0.005,
    "update_recall_min": 0.90,
    "duplicate_precision_min": 0.99,
    "duplicate_recall_min": 0.95,
    "placement_min": 0.95,
}

SEMANTIC_FRONT = """---
type: semantic
tags: [{tags}]
salience: medium
confidence: medium
source: observed
status: confirmed
created: 2026-01-05
last-accessed: 2026-01-05
---
"""

EPISODE_FRONT = """---
type: episodic
tags: [{tags}]
salience: medium
confidence: medium
source: observed
status: open
created: 2026-03-01
last-accessed: 2026-03-01
decay-after: 2026-04-01
---
"""


def load(name, limit=None):
    cases = []
    with open(HERE / name, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                cases.append(json.loads(line))
            except json.JSONDecodeError as error:
                sys.exit(f"{HERE / name}:{number}: {error}")
    return cases[:limit] if limit else cases


def as_block(claim):
    """A claim as its own block of a body: an item stays an item."""
    return claim.strip("\n") + "\n"


def without_comments(text):
    return re.sub(r"<!--.*?-->", " ", text, flags=re.S)


def normal(text):
    """Whitespace, list markers and case folded, for finding a claim in a body."""
    text = re.sub(r"(?m)^\s*[-*+]\s+", "", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def blocks(body):
    """The claims of a body as the tiny stores hold them: each list item (with
    its continuation lines) and each paragraph; headings and frontmatter left out."""
    out, current = [], []
    lines = body.split("\n")
    if lines and lines[0] == "---":
        end = lines.index("---", 1) if "---" in lines[1:] else 0
        lines = lines[end + 1:]
    for line in lines:
        starts_item = re.match(r"^\s*[-*+]\s+", line) is not None
        if not line.strip() or line.startswith("#") or starts_item:
            if current:
                out.append("\n".join(current))
            current = [] if not line.strip() or line.startswith("#") else [line]
        else:
            current.append(line)
    if current:
        out.append("\n".join(current))
    return out


def same_claim(a, b):
    return normal(a).rstrip(".") == normal(b).rstrip(".")


def contains(body, claim):
    """Whether `claim` is one whole claim of `body` (not merely inside a longer one)."""
    return any(same_claim(block, claim) for block in blocks(body))


# The profile each case's store is kept by (--profile). A claude-code store
# is a Claude Code memory folder: MEMORY.md of pointer lines and a topic file,
# with engram's episodes beside them, and its [[store]] naming the profile.
PROFILE = "four-layer"
CLAUDE_CODE_FILES = {
    "MEMORY.md": "- [User role](user_role.md) — backend developer\n",
    "user_role.md": "---\nname: User role\ndescription: backend developer\ntype: user\n---\n"
                    "The user is a backend developer.\n",
}
# Files of a case's store that are indexes, not homes of claims. The fixture's
# topic file is a home like any other: a claim about the user may go there.
NOT_HOMES = ("MEMORY.md", "WORKING.md", "memory_overflow.md")


class Store:
    """A temporary store: files written, adopted by engram init, then consolidated."""

    def __init__(self, engram, files):
        self.engram = engram
        self.dir = tempfile.TemporaryDirectory(prefix="engram-judgment-")
        self.root = Path(self.dir.name) / "store"
        if PROFILE == "claude-code":
            files = {**CLAUDE_CODE_FILES, **files}
            config = Path(self.dir.name) / "config" / "engram" / "config.toml"
            config.parent.mkdir(parents=True)
            config.write_text(f'[[store]]\npath = "{self.root}"\nprofile = "{PROFILE}"\n')
        self.write(files)
        env = dict(os.environ)
        env["XDG_CONFIG_HOME"] = str(Path(self.dir.name) / "config")
        env["XDG_RUNTIME_DIR"] = str(Path(self.dir.name) / "run")
        env["XDG_DATA_HOME"] = str(Path(self.dir.name) / "data")
        (Path(self.dir.name) / "run").mkdir(mode=0o700)
        self.env = env
        self.run("init", str(self.root))
        self.record = {}
        self.consolidate()

    def write(self, files):
        for path, text in files.items():
            p = self.root / path
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(text, encoding="utf-8")

    def consolidate(self):
        out = self.run("consolidate", "--store", str(self.root), "--now", TODAY, "--json")
        self.record = json.loads(out)

    def run(self, *args):
        done = subprocess.run([self.engram, *args], capture_output=True, text=True,
                              env=self.env, stdin=subprocess.DEVNULL, timeout=300)
        if done.returncode != 0:
            raise RuntimeError(f"engram {' '.join(args)}: {done.returncode}\n{done.stderr}")
        return done.stdout

    def read(self, path):
        p = self.root / path
        return p.read_text(encoding="utf-8") if p.exists() else None

    def memory_files(self):
        for p in sorted(self.root.rglob("*.md")):
            rel = p.relative_to(self.root).as_posix()
            if not rel.startswith((".git/", ".engram/")):
                yield rel, p.read_text(encoding="utf-8")

    def live_in(self, claim):
        """The files outside episodic/ and archive/ holding `claim` live (not in a marker)."""
        return [path for path, text in self.memory_files()
                if not path.startswith(("episodic/", "archive/"))
                and (PROFILE == "four-layer" or path not in NOT_HOMES)
                and contains(without_comments(text), claim)]

    def actions(self, verb):
        return [a for a in self.record.get("actions", []) if a.get("action") == verb]

    def close(self):
        self.dir.cleanup()


def episode(day, claim, title="Note"):
    """An expired episode of `day` holding one claim under `# title`."""
    front = EPISODE_FRONT.replace("2026-03-01", day).replace("decay-after: 2026-04-01",
                                                             "decay-after: 2026-06-01")
    return front.format(tags="judgments, corpus") + f"# {title}\n\n" + as_block(claim)


def judge_pair(engram, case):
    """engram's verdict on one pair: the existing claim is filed by a first
    consolidation of an older episode, wherever engram files it; the newer
    episode is then consolidated, and the record and the files read back."""
    store = Store(engram, {"episodic/2026-02-01-first.md": episode("2026-02-01", case["existing"])})
    try:
        homes = store.live_in(case["existing"])
        store.write({"episodic/2026-03-01-second.md": episode("2026-03-01", case["incoming"])})
        store.consolidate()
        existing_live = any(path in homes for path in store.live_in(case["existing"]))
        incoming_live = bool(store.live_in(case["incoming"]))
        verbs = {a.get("action") for a in store.record.get("actions", [])}
        flagged = "flagged" in verbs or "uncertain" in verbs
        # The record says what engram decided; the files must agree with it.
        if not homes:
            verdict = "lost"  # the first claim was never filed: not a judgment of the pair
        elif "superseded" in verbs:
            verdict = "update" if incoming_live and not existing_live else "lost"
        elif "duplicate" in verbs:
            verdict = "duplicate" if existing_live else "lost"
        elif "absorbed" in verbs:
            verdict = "distinct" if existing_live and incoming_live else "lost"
        else:
            verdict = "lost"
        body = "".join(store.read(path) or "" for path in homes)
        empty_entry = re.search(r"(?m)^## [^\n]*\n\s*(?=^## |\Z)",
                                without_comments(body)) is not None
        return {"id": case["id"], "label": case["label"], "kind": case.get("kind", ""),
                "verdict": verdict, "flagged": flagged, "empty_entry": empty_entry}
    finally:
        store.close()


def peer_verdict(case):
    """The peer's documented rule: a 40-character lower-cased prefix contained in the target."""
    prefix = case["incoming"].strip().lower()[:40]
    return "duplicate" if prefix in case["existing"].lower() else "distinct"


def section_of(body, claim):
    """The `## ` heading a claim sits under in a body, or None when it is not there."""
    heading = None
    want = normal(claim).rstrip(".")
    for block in re.split(r"(?m)^(?=## )", without_comments(body)):
        first = block.split("\n", 1)[0]
        if first.startswith("## "):
            heading = first[3:].strip()
        else:
            heading = None
        if want in normal(block):
            return heading or ""
    return None


def judge_placement(engram, case):
    tags = ", ".join(case["tags"])
    # In a Claude Code folder the matching file is a topic file of the agent's.
    target = "project_topic.md" if PROFILE == "claude-code" else "semantic/topic.md"
    front = SEMANTIC_FRONT.format(tags=tags)
    if PROFILE == "claude-code":
        front = front.replace("type: semantic", "name: Topic\ndescription: the topic\ntype: project")
    files = {
        target: front + case["target"].rstrip("\n") + "\n",
        "episodic/2026-03-01-note.md": EPISODE_FRONT.format(tags=tags) + "# " +
        case["episode_title"] + "\n\n" + as_block(case["incoming"]),
    }
    store = Store(engram, files)
    try:
        found = section_of(store.read(target) or "", case["incoming"])
        return {"id": case["id"], "right": found is not None and
                found.lower() == case["section"].lower(), "found": found,
                "want": case["section"]}
    finally:
        store.close()


# Claude Code's topic file types and the layers they are.
CLAUDE_CODE_LAYERS = {"feedback": "procedural", "user": "semantic", "project": "semantic",
                      "reference": "reference"}


def layer_of_path(path, text=""):
    if path in ("CORE.md",):
        return "core"
    if "/" not in path and PROFILE == "claude-code":
        found = re.search(r"(?m)^type:\s*(\S+)", text)
        return CLAUDE_CODE_LAYERS.get(found.group(1) if found else "", "semantic")
    return path.split("/", 1)[0] if "/" in path else path


def judge_classification(engram, case):
    files = {"episodic/2026-03-01-note.md": EPISODE_FRONT.format(tags="judgments, corpus") +
             "# Session notes\n\n" + as_block(case["text"])}
    store = Store(engram, files)
    try:
        layers = set()
        for path, text in store.memory_files():
            if path in NOT_HOMES:
                continue
            if contains(without_comments(text), case["text"]):
                layers.add(layer_of_path(path, text))
        return {"id": case["id"], "class": case["class"], "layers": sorted(layers)}
    finally:
        store.close()


def run_all(function, engram, cases, jobs):
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(lambda case: function(engram, case), cases))


def ratio(a, b):
    return a / b if b else 1.0


def error_rate(a, b):
    """A share of errors: none when there was nothing to get wrong (a --limit
    with no distinct pair has no false supersession, not 100%)."""
    return a / b if b else 0.0


def report_pairs(results, cases, out):
    confusion = defaultdict(Counter)
    for r in results:
        confusion[r["label"]][r["verdict"]] += 1
    columns = VERDICTS + ["lost"]
    out.append("engram's verdicts (rows: label, columns: verdict)")
    out.append(f"  {'':10}" + "".join(f"{c:>11}" for c in columns) + f"{'total':>8}")
    for label in LABELS:
        row = confusion[label]
        out.append(f"  {label:10}" + "".join(f"{row[c]:>11}" for c in columns) +
                   f"{sum(row.values()):>8}")
    figures = score(confusion)
    peer = defaultdict(Counter)
    for case in cases:
        peer[case["label"]][peer_verdict(case)] += 1
    peer_figures = score(peer)
    out.append("")
    out.append(f"  {'figure':34}{'engram':>10}{'peer':>10}")
    for key in ["duplicate_precision", "duplicate_recall", "update_precision", "update_recall",
                "distinct_precision", "distinct_recall", "false_supersession",
                "false_duplicate", "lost"]:
        out.append(f"  {key:34}{figures[key]:>10.2%}{peer_figures[key]:>10.2%}")
    flagged = sum(1 for r in results if r["flagged"])
    empty = sum(1 for r in results if r["empty_entry"])
    out.append(f"  pairs flagged for a person: {flagged}; procedural entries left empty: {empty}")
    misses = [r for r in results if expected(r["label"]) != r["verdict"]]
    by_kind = Counter((r["label"], r["kind"], r["verdict"]) for r in misses)
    if by_kind:
        out.append("  misses by label/kind → verdict:")
        for (label, kind, verdict), n in sorted(by_kind.items()):
            out.append(f"    {label}/{kind} → {verdict}: {n}")
    figures["empty_entries"] = empty
    return figures, misses


def expected(label):
    return "distinct" if label == "unrelated" else label


def score(confusion):
    def count(label, verdict):
        return confusion[label][verdict]

    total = {label: sum(confusion[label].values()) for label in LABELS}
    keep_both = total["distinct"] + total["unrelated"]
    predicted = {v: sum(confusion[label][v] for label in LABELS) for v in VERDICTS}
    figures = {
        "duplicate_precision": ratio(count("duplicate", "duplicate"), predicted["duplicate"]),
        "duplicate_recall": ratio(count("duplicate", "duplicate"), total["duplicate"]),
        "update_precision": ratio(count("update", "update"), predicted["update"]),
        "update_recall": ratio(count("update", "update"), total["update"]),
        "distinct_precision": ratio(count("distinct", "distinct") + count("unrelated", "distinct"),
                                    predicted["distinct"]),
        "distinct_recall": ratio(count("distinct", "distinct") + count("unrelated", "distinct"),
                                 keep_both),
        # A true claim hidden: a distinct or unrelated pair judged an update.
        "false_supersession": error_rate(count("distinct", "update") +
                                         count("unrelated", "update"), keep_both),
        # A claim never filed: a distinct, unrelated or update pair judged a duplicate.
        "false_duplicate": error_rate(count("distinct", "duplicate") +
                                      count("unrelated", "duplicate") + count("update", "duplicate"),
                                      keep_both + total["update"]),
        "lost": error_rate(sum(confusion[label]["lost"] for label in LABELS),
                           sum(total.values())),
    }
    return figures


def report_classification(results, out):
    want_layer = {"fact": "semantic", "rule": "procedural", "reference": "reference"}
    right = Counter()
    totals = Counter()
    transient_filed = []
    for r in results:
        totals[r["class"]] += 1
        layers = set(r["layers"])
        if r["class"] in want_layer:
            if want_layer[r["class"]] in layers:
                right[r["class"]] += 1
            else:
                r["wrong"] = True
        elif not layers & {"semantic", "procedural", "reference", "core"}:
            right[r["class"]] += 1
        else:
            r["wrong"] = True
            transient_filed.append(r)
    out.append("classification: lines filed where their class belongs")
    for cls in ["fact", "rule", "reference", "task", "session-metadata"]:
        out.append(f"  {cls:18}{right[cls]:>5} of {totals[cls]:<5}{ratio(right[cls], totals[cls]):>8.2%}")
    return transient_filed


def check_pairs(figures):
    failures = []
    if figures["false_supersession"] > TARGETS["false_supersession_max"]:
        failures.append(f"false supersession {figures['false_supersession']:.2%} > 0.5%")
    if figures["update_recall"] < TARGETS["update_recall_min"]:
        failures.append(f"update recall {figures['update_recall']:.2%} < 90%")
    if figures["duplicate_precision"] < TARGETS["duplicate_precision_min"]:
        failures.append(f"duplicate precision {figures['duplicate_precision']:.2%} < 99%")
    if figures["duplicate_recall"] < TARGETS["duplicate_recall_min"]:
        failures.append(f"duplicate recall {figures['duplicate_recall']:.2%} < 95%")
    if figures["lost"] > 0:
        failures.append(f"{figures['lost']:.2%} of pairs lost a claim")
    if figures["empty_entries"]:
        failures.append(f"{figures['empty_entries']} procedural entries left empty")
    return failures


def check(placement, transient_filed):
    failures = []
    if placement < TARGETS["placement_min"]:
        failures.append(f"placement {placement:.2%} < 95%")
    if transient_filed:
        failures.append(f"{len(transient_filed)} tasks or session metadata filed as knowledge")
    return failures


def judge_corpora(engram, names, args, out):
    """Judges each pairs corpus in `names`, reporting each on its own; returns
    the targets missed and the misses with their cases."""
    failures, misses = [], []
    for name in names:
        pairs = load(name, args.limit)
        results = run_all(judge_pair, engram, pairs, args.jobs)
        out.append(f"{Path(name).name} ({len(pairs)} pairs)")
        figures, missed = report_pairs(results, pairs, out)
        out.append("")
        failures += [f"{Path(name).name}: {failure}" for failure in check_pairs(figures)]
        by_id = {c["id"]: c for c in pairs}
        misses += [(r, by_id[r["id"]]) for r in missed]
    return failures, misses


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engram", required=True, help="the engram executable")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--limit", type=int, help="only the first N cases of each corpus")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--misses", action="store_true", help="print every case judged wrong")
    parser.add_argument("--only", choices=["pairs", "placement", "classification"],
                        help="run one corpus (no targets are checked)")
    parser.add_argument("--profile", choices=["four-layer", "claude-code"], default="four-layer",
                        help="the profile of every case's store (claude-code: a Claude Code "
                             "memory folder)")
    parser.add_argument("--pairs", action="append",
                        help="a pairs corpus to judge instead of " + " and ".join(PAIR_CORPORA) +
                             " (may be given again)")
    parser.add_argument("--classification", action="append",
                        help="a classification corpus to judge instead of " +
                             " and ".join(CLASS_CORPORA) + " (may be given again)")
    args = parser.parse_args()
    # A corpus named on the command line is a path from where run.py was started.
    for given in ("pairs", "classification"):
        if getattr(args, given):
            setattr(args, given, [str(Path(p).resolve()) for p in getattr(args, given)])
    global PROFILE
    PROFILE = args.profile
    engram = str(Path(args.engram).resolve())

    wanted = lambda name: args.only in (None, name)
    placements = load("placement.jsonl", args.limit) if wanted("placement") else []
    class_corpora = (args.classification or CLASS_CORPORA) if wanted("classification") else []
    out = []
    corpora = (args.pairs or PAIR_CORPORA) if wanted("pairs") else []
    failures, misses = judge_corpora(engram, corpora, args, out)
    placed = run_all(judge_placement, engram, placements, args.jobs)
    placement = ratio(sum(1 for p in placed if p["right"]), len(placed))
    if placed:
        out.append("")
        out.append(f"placement into the matching section: {sum(p['right'] for p in placed)} of "
                   f"{len(placed)} ({placement:.2%})")
    classes, classified, transient_filed = [], [], []
    for name in class_corpora:
        cases = load(name, args.limit)
        results = run_all(judge_classification, engram, cases, args.jobs)
        out.append("")
        out.append(f"{name} ({len(cases)} lines)")
        transient_filed += report_classification(results, out)
        classes += cases
        classified += results
    print(f"profile: {PROFILE}")
    print("\n".join(out))
    if args.misses:
        for r, c in misses:
            print(f"{r['id']} {r['label']}/{r['kind']} → {r['verdict']}\n  - {c['existing']}\n"
                  f"  + {c['incoming']}")
        for p in placed:
            if not p["right"]:
                print(f"{p['id']} placed under {p['found']!r}, wanted {p['want']!r}")
        texts = {c["id"]: c["text"] for c in classes}
        for r in classified:
            if r.get("wrong"):
                print(f"{r['id']} {r['class']} filed in {r['layers']}: {texts[r['id']]}")
    if args.only:
        return 0
    failures += check(placement, transient_filed)
    if failures:
        print("\ntargets missed:\n  " + "\n  ".join(failures))
    else:
        print("\nevery target met")
    return 1 if args.check and failures else 0


if __name__ == "__main__":
    sys.exit(main())
