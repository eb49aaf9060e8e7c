#!/usr/bin/env python3
"""Benchmark store generator: writes a deterministic memory store (same seed,
same bytes) the way agents write one, for bench/run.py to consolidate.

A store holds `--episodic` session notes, of which `--expired` (a fraction)
are past their decay date on `--now`; `--semantic` fact files, each about a
subject of its own (a made-up system name and its parts), of which a
`--duplicates` fraction are near-duplicates of an earlier file (planted for
dedupe to find); one procedural/feedback.md; a few reference files; and
WORKING.md.
Claims are facts with values, instructions, pointers, lists and paragraphs;
a fifth of the episodic claims repeat what the store knows (duplicates) and
a fifth change a value it knows (updates), so every path of absorption runs.

With `--templated`, notes are written as agents that fill in templates write
them: subjects drawn from a few dozen systems, their words and parts from a
small shared vocabulary, so claims across files share their sentence shapes
and most of their words (the hard case for finding duplicates by token).

Only the files are written; `engram init` on the folder makes it a store.
Standard library only.
"""

import argparse
import datetime
import json
import os
import random
import re
import sys

SYSTEMS = [
    "order sync", "invoice export", "refund queue", "customer import", "inventory feed",
    "label printer", "tax report", "email digest", "search indexer", "price updater",
    "webhook relay", "payment gateway", "fraud check", "image resizer", "sitemap builder",
    "stock alert", "return portal", "loyalty ledger", "coupon engine", "review importer",
    "shipping quote", "currency feed", "audit trail", "session store", "backup job",
    "metrics exporter", "log shipper", "feature flag service", "rate limiter", "job scheduler",
    "cache warmer", "pdf renderer", "sms notifier", "gift card service", "catalog merger",
    "warehouse bridge", "csv exporter", "analytics pipeline", "consent tracker", "chat widget",
]
ATTRIBUTES = [
    "page size", "batch size", "retry limit", "worker count", "timeout in seconds",
    "cache lifetime in minutes", "queue depth", "memory limit in megabytes", "poll interval",
    "concurrency cap", "connection pool size", "backoff ceiling",
]
DAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
TAGS = [
    "shopify", "sync", "orders", "billing", "refunds", "inventory", "shipping", "email",
    "reports", "api", "database", "cache", "queue", "search", "payments", "fraud", "images",
    "seo", "alerts", "returns", "loyalty", "coupons", "reviews", "currency", "audit",
    "sessions", "backups", "metrics", "logging", "flags", "scheduling", "pdf", "sms",
    "catalog", "warehouse", "exports", "analytics", "privacy", "chat", "deploys",
    "performance", "security", "testing", "migrations", "webhooks", "workers",
]
KINDS = ["service", "worker", "importer", "exporter", "dashboard", "pipeline", "bridge",
         "scheduler", "gateway", "ledger", "portal", "engine"]
ONSETS = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z",
          "br", "dr", "gr", "kr", "pl", "st", "tr", "sk", "th", "ch"]
VOWELS = ["a", "e", "i", "o", "u", "ai", "ou"]
CODAS = ["", "", "n", "r", "l", "s", "m", "x"]
TEAMS = ["atlas", "borealis", "cobalt", "delta", "ember"]
VERBS = ["check", "verify", "restart", "rebuild", "inspect", "retry"]
CAUSES = ["a stale lock", "an expired token", "a full disk", "a slow replica",
          "a missing index", "a DNS hiccup", "a schema drift", "a clock skew"]


# What setting_fact writes: a setting that recurs with another value is an
# update the generator planted, which a consolidation rightly supersedes.
SETTING_PATTERN = re.compile(r"^(- )?The .+ is \d+\.?$")


def slug(text):
    return text.replace(" ", "-")


def day(start, offset):
    return (start + datetime.timedelta(days=offset)).isoformat()


class Generator:
    """A seeded source of claims."""

    def __init__(self, seed, templated=False):
        self.rng = random.Random(seed)
        self.templated = templated
        # Templated notes draw every word and part from a few dozen.
        self.vocabulary = [self.name() for _ in range(60 if templated else 5000)]
        self.part_names = [self.name() for _ in range(30)]

    def pick(self, items):
        return items[self.rng.randrange(len(items))]

    def chance(self, percent):
        return self.rng.randrange(100) < percent

    def tags(self, n):
        return self.rng.sample(TAGS, n)

    def name(self):
        """A made-up word: the name of something in one project."""
        return "".join(self.pick(ONSETS) + self.pick(VOWELS) + self.pick(CODAS)
                       for _ in range(2 + self.rng.randrange(2)))

    def subject(self):
        """What one semantic file is about: a named system, its parts, and
        the words its notes use (drawn from the project's vocabulary, so
        notes on one subject share words and notes on two rarely do)."""
        words = [self.pick(self.vocabulary) for _ in range(20)]
        if self.templated:
            return (f"{self.pick(SYSTEMS)} {self.pick(KINDS)}", self.rng.sample(self.part_names, 3),
                    words)
        return f"{self.name()} {self.pick(KINDS)}", [self.name() for _ in range(3)], words

    def subject_claim(self, subject, parts, words):
        """A claim about a subject, mostly in the words of its own topic."""
        part, other = self.rng.sample(parts, 2)
        w = self.rng.sample(words, 5)
        n = self.rng.randrange
        kind = n(6)
        if kind == 0:
            return f"The {subject} keeps {w[0]} {w[1]} {w[2]} in the `{part}_{other}` table."
        if kind == 1:
            return f"The {subject} {part} {w[0]} failed {2 + n(20)} times: {w[1]} {w[2]} after {w[3]}."
        if kind == 2:
            return f"Deploying the {subject} takes {2 + n(30)} minutes of {w[0]} {w[1]} and {w[2]} {w[3]}."
        if kind == 3:
            return f"Team {self.pick(TEAMS)} owns the {subject} {w[0]} {w[1]} since {w[2]} {1 + n(5)}.{n(10)}."
        if kind == 4:
            return f"The {subject} sends {w[0]} {w[1]} to the {other} {w[2]} {w[3]}."
        return f"The {part} {w[0]} holds {100 + n(9900)} {w[1]} {w[2]} for {w[3]} {w[4]}."

    def setting(self, subject, parts, words):
        """A setting of a subject: (what, attribute, value); most attributes in
        the topic's own words ("the retry ceiling"), some the common ones."""
        what = f"{subject} {self.pick(parts)}"
        attribute = (self.pick(ATTRIBUTES) if self.chance(30)
                     else f"{self.pick(words)} {self.pick(['limit', 'size', 'count', 'interval', 'ceiling'])}")
        return what, attribute, 10 + self.rng.randrange(990)

    @staticmethod
    def setting_fact(system, attribute, value):
        return f"The {system} {attribute} is {value}."


    def fresh_claim(self, subject, parts, words):
        """Something a session learned about a subject: a setting, an
        instruction, a pointer or a fact in the subject's words."""
        kind = self.rng.randrange(8)
        n = self.rng.randrange
        if kind <= 1:
            return self.setting_fact(*self.setting(subject, parts, words))
        if kind == 2:
            return f"Always {self.pick(VERBS)} the {subject} {self.pick(parts)} before deploying on {self.pick(DAYS)}."
        if kind == 3:
            return f"Never restart the {subject} while the {self.pick(parts)} {self.pick(words)} is running."
        if kind == 4:
            return (f"The {subject} runbook can be found at "
                    f"https://wiki.example.com/{self.pick(parts)}/{n(1000)}.")
        return self.subject_claim(subject, parts, words)

def frontmatter(fields):
    lines = ["---"]
    for key, value in fields:
        lines.append(f"{key}: {value}")
    lines.append("---")
    return "\n".join(lines) + "\n"


def flow(items):
    return "[" + ", ".join(items) + "]"


def write(root, relative, text):
    path = os.path.join(root, relative)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def generate(root, episodic, expired, semantic, seed, now, duplicates, templated=False):
    gen = Generator(seed, templated)
    today = datetime.date.fromisoformat(now)
    year_ago = today - datetime.timedelta(days=365)

    # Semantic files: the knowledge that duplicates and updates are made of.
    # Each is about a subject of its own (a named system and its parts), as
    # an agent's notes on one topic are; a `duplicates` fraction are planted
    # near-duplicates of an earlier file (its claims but at most one, one value
    # changed, one claim new, made later), which dedupe should merge and
    # nothing else.
    files = []  # (tags, claims, settings, (subject, parts, words))
    subjects = []  # (subject, parts, words, claims, created offset, tags, path), by file
    known = []
    planted = []  # (duplicate path, path of the file it copies)
    for f in range(semantic):
        tags = gen.tags(3 + gen.rng.randrange(2))
        if f >= 20 and gen.rng.random() < duplicates:
            subject, parts, words, source_claims, source_created, source_tags, source_path = \
                subjects[gen.rng.randrange(f)]
            claims = list(source_claims)
            if len(claims) > 3:
                del claims[gen.rng.randrange(len(claims))]
            changed = gen.rng.randrange(len(claims))
            claims[changed] = re.sub(r"\d+", lambda m: str(int(m.group()) + 1), claims[changed], count=1)
            claims.append(gen.subject_claim(subject, parts, words))
            settings = []
            created_offset = min(source_created + 10 + gen.rng.randrange(60), 330)
            tags = list(dict.fromkeys(source_tags[:2] + tags[:2]))
        else:
            source_path = None
            subject, parts, words = gen.subject()
            claims, settings = [], []
            for _ in range(3 + gen.rng.randrange(8)):
                if gen.chance(40):
                    setting = gen.setting(subject, parts, words)
                    claims.append(gen.setting_fact(*setting))
                    settings.append(setting)
                else:
                    claims.append(gen.subject_claim(subject, parts, words))
            created_offset = gen.rng.randrange(200)
        path = f"semantic/{'-'.join(sorted(tags))}-{f}.md"
        if source_path:
            planted.append((path, source_path))
        known.extend(claims)
        subjects.append((subject, parts, words, claims, created_offset, tags, path))
        body = f"# The {subject}\n\n" + "".join(f"- {c}\n" for c in claims)
        write(root, path, frontmatter([
            ("type", "semantic"), ("tags", flow(tags)),
            ("salience", gen.pick(["low", "medium", "medium", "high"])),
            ("confidence", "high"), ("source", "observed"), ("status", "confirmed"),
            ("trigger", "[]"), ("related", "[]"), ("created", day(year_ago, created_offset)),
            ("last-accessed", day(year_ago, 200 + gen.rng.randrange(100))),
        ]) + body)
        files.append((tags, claims, settings, (subject, parts, words)))

    # Procedural: instructions as "## Title" entries, and one solution.
    rules = []
    body = ""
    for i in range(max(3, semantic // 20)):
        rule = f"Always {gen.pick(VERBS)} the {gen.pick(SYSTEMS)} before deploying on {gen.pick(DAYS)}."
        rules.append(rule)
        known.append(rule)
        body += f"## Deploy checklist {i}\n\n- {rule}\n\n"
    body += ("## Solution: stale-lock-after-deploy\n\n"
             "**Symptom:** the order sync hangs after a deploy\n"
             "**Solution:** remove `var/sync.lock` before starting it\n")
    write(root, "procedural/feedback.md", frontmatter([
        ("type", "procedural"), ("tags", "[feedback, deploys]"), ("salience", "high"),
        ("confidence", "high"), ("source", "instructed"), ("status", "confirmed"),
        ("trigger", "[]"), ("related", "[]"), ("created", day(year_ago, 10)),
        ("last-accessed", day(year_ago, 300)),
    ]) + body)

    # Reference: where things live, for one subject each.
    n_reference = max(1, semantic // 50)
    about = gen.rng.sample(range(len(subjects)), n_reference) if len(subjects) >= n_reference else []
    for r in range(n_reference):
        tags = gen.tags(3)
        subject, parts, words = subjects[about[r]][:3] if about else gen.subject()
        body = f"# Where the {subject} lives\n\n" + "".join(
            f"- The {subject} {gen.pick(words)} {gen.pick(['dashboard', 'runbook', 'logs', 'alerts'])} "
            f"can be found at https://{gen.pick(parts)}.example.com/{gen.pick(words)}/"
            f"{gen.rng.randrange(100000)}.\n" for _ in range(4))
        write(root, f"reference/{'-'.join(sorted(tags))}-{r}.md", frontmatter([
            ("type", "reference"), ("tags", flow(tags)), ("salience", "medium"),
            ("confidence", "high"), ("source", "referenced"), ("status", "confirmed"),
            ("trigger", "[]"), ("related", "[]"), ("created", day(year_ago, 5)),
            ("last-accessed", day(year_ago, 300)),
        ]) + body)

    # Episodic: sessions; the first `expired` fraction of them past their decay date.
    n_expired = round(episodic * expired)
    order = list(range(episodic))
    gen.rng.shuffle(order)
    expired_set = set(order[:n_expired])
    for e in range(episodic):
        if e in expired_set:
            created_offset = gen.rng.randrange(230)            # a year to ~4 months ago
            decay = day(year_ago, created_offset + 30 + gen.rng.randrange(60)) if gen.chance(60) else None
        else:
            created_offset = 300 + gen.rng.randrange(64)       # the last two months
            decay = day(year_ago, created_offset + 90) if gen.chance(60) else None
        created = day(year_ago, created_offset)
        # A session works on one subject: a known one (its file's tags), now
        # and then one the store has no file for yet.
        if files:
            home_tags, home_claims, home_settings, topic = files[gen.rng.randrange(len(files))]
        else:
            home_tags, home_claims, home_settings, topic = [], [], [], gen.subject()
        at_home = files and gen.chance(80)
        tags = home_tags if at_home else gen.tags(2 + gen.rng.randrange(3))
        if not at_home:
            topic = gen.subject()
        body = f"# Session {e}\n\n"
        in_list = False
        for i in range(3 + gen.rng.randrange(6)):
            roll = gen.rng.randrange(100)
            if roll < 20 and known:
                claim = gen.pick(home_claims) if at_home and home_claims else gen.pick(known)
            elif roll < 40 and at_home and home_settings:
                system, attribute, value = gen.pick(home_settings)
                claim = gen.setting_fact(system, attribute, value + 1 + gen.rng.randrange(500))
            else:
                claim = gen.fresh_claim(*topic)
            form = gen.rng.randrange(3)
            if form == 0:
                body += ("" if in_list else "\n") + f"- {claim}\n"
                in_list = True
            else:
                body += ("\n" if in_list else "") + claim + (" " if form == 2 else "\n")
                in_list = False
            if gen.chance(8):
                body += f"\n## Part {i}\n\n"
                in_list = False
        if gen.chance(3):
            body += (f"\n## Solution: {slug(gen.pick(SYSTEMS))}-{gen.pick(['timeout', 'lock', 'crash'])}\n\n"
                     f"**Symptom:** it stalls after {gen.pick(CAUSES)}\n"
                     f"**Solution:** {gen.pick(VERBS)} it and clear the queue\n")
        if not body.endswith("\n"):
            body += "\n"
        fields = [("type", "episodic"), ("tags", flow(tags)), ("salience", "medium"),
                  ("confidence", "medium"), ("source", "observed"), ("status", "open"),
                  ("trigger", "[]"), ("related", "[]"), ("created", created),
                  ("last-accessed", created), ("retention", "temporary")]
        if decay:
            fields.append(("decay-after", decay))
        write(root, f"episodic/{created}-session-{e}.md", frontmatter(fields) + body)

    write(root, "WORKING.md", frontmatter([("type", "working")]) +
          "# Working memory\n\n## Now\n\n- " + today.isoformat() + ": benchmarking the store\n")
    return n_expired, planted


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True, help="folder to write (must not exist)")
    parser.add_argument("--episodic", type=int, required=True, help="episodic files")
    parser.add_argument("--expired", type=float, default=1.0, help="fraction of episodic files expired")
    parser.add_argument("--semantic", type=int, required=True, help="semantic files")
    parser.add_argument("--duplicates", type=float, default=0.02,
                        help="fraction of semantic files that are near-duplicates of an earlier one")
    parser.add_argument("--manifest", help="a JSON file to list the planted duplicates in (outside the store)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--now", default="2026-11-22", help="the date expiry is measured against")
    parser.add_argument("--templated", action="store_true",
                        help="notes from templates: claims that share sentence shapes and words")
    args = parser.parse_args()
    if os.path.exists(args.out):
        sys.exit(f"generate: {args.out} exists")
    n, planted = generate(args.out, args.episodic, args.expired, args.semantic, args.seed, args.now,
                          args.duplicates, args.templated)
    print(f"generate: {args.out}: {args.episodic} episodic ({n} expired on {args.now}), "
          f"{args.semantic} semantic ({len(planted)} planted duplicates)")
    if args.manifest:
        with open(args.manifest, "w") as f:
            json.dump({"planted duplicates": [{"duplicate": d, "of": o} for d, o in planted]}, f, indent=1)


if __name__ == "__main__":
    main()
