#!/usr/bin/env python3
"""engram's verdicts on a daily note's claim against a line of an OpenClaw
agent's own files (agent-files.jsonl): USER.md, TOOLS.md, AGENTS.md.

Each case is an OpenClaw workspace of its own: USER.md with the case's Name
and What-to-call-them lines, the case's line in its file, and a daily note
old enough to decay holding the incoming claim. After `engram consolidate`
the record says what engram decided, and the files must agree:
  - duplicate: the claim is recorded as already in that file, and is not
    added to MEMORY.md;
  - update: the claim is added to MEMORY.md, and its record names the line
    of that file it is newer than;
  - distinct: the claim is added to MEMORY.md, naming no line of that file.
The agent's files must be left byte for byte as written, whatever the verdict.
Per label precision and recall. With --check the exit status is 1 when a
claim is hidden (judged a duplicate of a line that does not say it, or
neither added nor recorded against its file) or an agent's file changed.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
TODAY = "2026-12-01"
NOTE = "memory/2026-08-01.md"  # past the default 90 days of retention on TODAY
LABELS = ["duplicate", "update", "distinct"]

BASE_FILES = {
    "MEMORY.md": "# Long-term memory\n\n## Garden\n\n- The tomatoes are in the south bed.\n",
    "AGENTS.md": "# AGENTS.md\n\nRead SOUL.md and USER.md first.\n",
    "SOUL.md": "# SOUL.md\n\nBe direct and kind.\n",
    "IDENTITY.md": "# IDENTITY.md\n\n- **Name:** Molty\n",
    "TOOLS.md": "# TOOLS.md - Local Notes\n",
}


def user_md(case):
    """USER.md as OpenClaw's template lays it out, with the case's names."""
    return ("# USER.md - About Your Human\n\n"
            f"- **Name:** {case['name']}\n- **What to call them:** {case['call']}\n\n"
            "## Context\n\n")


def workspace(case):
    files = dict(BASE_FILES)
    files["USER.md"] = user_md(case)
    files[case["file"]] = files[case["file"]].rstrip("\n") + "\n\n" + case["existing"] + "\n"
    files[NOTE] = "## 09:00 - Notes\n\n- " + case["incoming"] + "\n"
    return files


def judge(engram, case):
    with tempfile.TemporaryDirectory(prefix="engram-agent-files-") as tmp:
        root = Path(tmp) / "workspace"
        files = workspace(case)
        for path, text in files.items():
            (root / path).parent.mkdir(parents=True, exist_ok=True)
            (root / path).write_text(text, encoding="utf-8")
        config = Path(tmp) / "config" / "engram" / "config.toml"
        config.parent.mkdir(parents=True)
        config.write_text(f'[[store]]\npath = "{root}"\nprofile = "openclaw"\n')
        env = dict(os.environ, XDG_CONFIG_HOME=str(Path(tmp) / "config"),
                   XDG_RUNTIME_DIR=str(Path(tmp) / "run"), XDG_DATA_HOME=str(Path(tmp) / "data"))
        (Path(tmp) / "run").mkdir(mode=0o700)
        run = lambda *args: subprocess.run([engram, *args], capture_output=True, text=True,
                                           env=env, stdin=subprocess.DEVNULL, check=True).stdout
        run("init", str(root))
        record = json.loads(run("consolidate", "--store", str(root), "--now", TODAY, "--json"))
        memory = (root / "MEMORY.md").read_text(encoding="utf-8")
        kept = all((root / p).read_text(encoding="utf-8") == files[p]
                   for p in ("USER.md", "TOOLS.md", "AGENTS.md", "SOUL.md", "IDENTITY.md"))
    incoming = case["incoming"]
    added = incoming in memory
    verdict = "lost"
    for action in record.get("actions", []):
        if action.get("claim", "").lstrip("- ") != incoming:
            continue
        verb, reason = action.get("action"), action.get("reason", "")
        if verb == "duplicate" and action.get("target") == case["file"] and not added:
            verdict = "duplicate"
        elif verb == "duplicate" and not added:
            verdict = "duplicate elsewhere"
        elif verb == "absorbed" and added:
            newer = "newer than" in reason and f"in {case['file']}," in reason
            verdict = "update" if newer else "distinct"
    return {"id": case["id"], "label": case["label"], "verdict": verdict, "kept": kept}


def score(results):
    lines, failures = [], []
    for label in LABELS:
        said = [r for r in results if r["verdict"] == label]
        truth = [r for r in results if r["label"] == label]
        right = sum(1 for r in said if r["label"] == label)
        precision = right / len(said) if said else 1.0
        recall = right / len(truth) if truth else 1.0
        lines.append(f"  {label:9} precision {precision:7.2%} ({right}/{len(said)})  "
                     f"recall {recall:7.2%} ({right}/{len(truth)})")
    false_dup = [r for r in results if r["verdict"].startswith("duplicate") and
                 r["label"] != "duplicate"]
    lines.append(f"  false duplicates (a claim not added that the file does not state): "
                 f"{len(false_dup)}")
    failures += [f"{r['id']}: judged {r['verdict']}, labelled {r['label']}" for r in false_dup]
    changed = [r["id"] for r in results if not r["kept"]]
    lines.append(f"  the agent's files changed: {len(changed)}")
    failures += [f"{i}: an agent's file was changed" for i in changed]
    lost = [r["id"] for r in results if r["verdict"] in ("lost", "duplicate elsewhere")]
    lines.append(f"  claims neither added nor recorded against the case's file: {len(lost)}")
    failures += [f"{i}: the claim was neither added nor recorded against its file" for i in lost]
    return lines, failures


# The corpora: the first written with the comparison, the second blind.
CORPORA = ["agent-files.jsonl", "agent-files-more.jsonl", "agent-files-blind3.jsonl",
           "agent-files-blind4.jsonl", "agent-files-blind5.jsonl"]


def judge_corpus(engram, path, args):
    """Judges one corpus and prints its figures; returns the targets missed."""
    with open(path, encoding="utf-8") as f:
        cases = [json.loads(line) for line in f if line.strip()]
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        results = list(pool.map(lambda case: judge(engram, case), cases))
    lines, failures = score(results)
    print(f"{Path(path).name} ({len(cases)} pairs, OpenClaw workspaces)")
    print("\n".join(lines))
    if args.misses:
        by_id = {c["id"]: c for c in cases}
        for r in results:
            if r["verdict"] != r["label"]:
                c = by_id[r["id"]]
                print(f"{r['id']} {r['label']} → {r['verdict']}\n  {c['file']}: {c['existing']}\n"
                      f"  note: {c['incoming']}")
    return [f"{Path(path).name}: {failure}" for failure in failures]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engram", required=True, help="the engram executable")
    parser.add_argument("--corpus", action="append",
                        help="a corpus to judge instead of " + " and ".join(CORPORA))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument("--misses", action="store_true", help="print every case judged wrong")
    # `make judgments` passes run.py's options to both scripts; this one ignores the others.
    args, _ = parser.parse_known_args()
    engram = str(Path(args.engram).resolve())
    failures = []
    for path in args.corpus or [str(HERE / name) for name in CORPORA]:
        failures += judge_corpus(engram, path, args)
        print()
    print("targets missed:\n  " + "\n  ".join(failures) if failures else "every target met")
    return 1 if args.check and failures else 0


if __name__ == "__main__":
    sys.exit(main())
