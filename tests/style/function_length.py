#!/usr/bin/env python3
"""No function of the product over 80 lines: a function that long does
more than one thing, and the next person to change it cannot hold it in
their head. Universal Ctags finds each function's first and last line
(lambdas count within the function that holds them). A function over the
limit fails the test with `path:line: reason`."""
import json
import subprocess
import sys

LIMIT = 80
# Folders that are not product code.
SKIP = ("tests/", "bench/", "fuzz/", "examples/", "build/")


def sources(root):
    listed = subprocess.run(["git", "-C", root, "ls-files", "*.cpp", "*.hpp"],
                            capture_output=True, text=True, check=True).stdout.split()
    return [path for path in listed if not path.startswith(SKIP)]


def functions(root, paths):
    """(path, first line, last line, name) of each function ctags finds."""
    tags = subprocess.run(["ctags", "--languages=C++", "--kinds-C++=f", "--fields=+ne",
                           "--output-format=json", "-f", "-", *paths],
                          cwd=root, capture_output=True, text=True, check=True).stdout
    for line in tags.splitlines():
        tag = json.loads(line)
        if tag.get("_type") == "tag" and "end" in tag and not tag["name"].startswith("__anon"):
            yield tag["path"], tag["line"], tag["end"], tag.get("scope", "") + "::" + tag["name"]


def main(root):
    problems = 0
    for path, first, last, name in functions(root, sources(root)):
        if last - first + 1 > LIMIT:
            print(f"{path}:{first}: {name} is {last - first + 1} lines (at most {LIMIT})")
            problems += 1
    print(f"{problems} function{'s' if problems != 1 else ''} over {LIMIT} lines")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
