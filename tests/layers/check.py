#!/usr/bin/env python3
"""The layering of ARCHITECTURE.md, checked: each folder of the product may
include only the layers its row names (its own folder always; the rule SDK,
include/engram/, from every layer above base). A file that includes a layer
above its own fails the test with `path:line: reason`, so the graph of
includes cannot run back up unnoticed."""
import os
import re
import sys

# Each layer and the layers it may include, besides itself.
ALLOWED = {
    "include": set(),
    "base": set(),
    "store": {"base", "engram"},
    "claims": {"base", "store", "engram"},
    "usage": {"base", "store", "engram"},
    "recall": {"base", "claims", "store", "usage", "engram"},
    "hook": {"base", "recall", "store", "usage", "claims", "engram"},
    "config": {"base", "store", "engram"},
    "git": {"base"},
    "engine": {"base", "claims", "config", "git", "recall", "store", "usage", "engram"},
    "watch": {"base", "store", "engram"},
    "plugins": {"base", "engine", "claims", "config", "git", "recall", "store", "usage",
                "engram"},
    "daemon": {"base", "claims", "config", "engine", "git", "recall", "store", "usage", "watch",
               "engram"},
    "rules": {"engram"},
    "cli": {"base", "claims", "config", "daemon", "engine", "git", "hook", "plugins", "recall",
            "store", "usage", "watch", "engram"},
}
# Folders of C++ that are not the product's layers.
NOT_LAYERS = {"tests", "bench", "fuzz", "examples", "build", "scripts", ".git"}
# Folders whose first path component names a layer in an include.
LAYER_OF_INCLUDE = {"base", "store", "claims", "usage", "recall", "hook", "config", "git",
                    "engine", "watch", "plugins", "daemon", "cli", "engram"}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def unlisted_folders(root):
    """Top-level folders holding C++ that the table does not name."""
    found = []
    for entry in sorted(os.listdir(root)):
        folder = os.path.join(root, entry)
        if entry in ALLOWED or entry in NOT_LAYERS or not os.path.isdir(folder):
            continue
        if any(name.endswith((".cpp", ".hpp")) for _, _, files in os.walk(folder)
               for name in files):
            found.append(entry)
    return found


def main(root):
    problems = 0
    for entry in unlisted_folders(root):
        print(f"{entry}/: C++ in a folder that is no layer of the table; add its row")
        problems += 1
    for layer, allowed in ALLOWED.items():
        folder = os.path.join(root, layer)
        if not os.path.isdir(folder):
            print(f"{folder}: the layer's folder is missing")
            problems += 1
            continue
        for dirpath, _, files in os.walk(folder):
            for name in sorted(files):
                if not name.endswith((".cpp", ".hpp")):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, encoding="utf-8") as source:
                    for number, line in enumerate(source, 1):
                        match = INCLUDE.match(line)
                        if not match or "/" not in match.group(1):
                            continue
                        first = match.group(1).split("/", 1)[0]
                        own = layer if layer != "include" else "engram"
                        if first not in LAYER_OF_INCLUDE or first == own:
                            continue
                        if first not in allowed:
                            rel = os.path.relpath(path, root)
                            print(f"{rel}:{number}: the {layer} layer includes {first}/, "
                                  f"a layer it may not ({', '.join(sorted(allowed)) or 'none'})")
                            problems += 1
    print(f"{problems} include{'s' if problems != 1 else ''} against the layering")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
