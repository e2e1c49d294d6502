#!/usr/bin/env python3
"""ctest "scenarios": runnable scenarios whose output is pinned, as SimGrid's .tesh files pin its examples' output.

Each sim/scenarios/*.scenario holds comment lines (# what the scenario shows), one command line starting with
"$ pfsim " (run from the project root, with this build's binary) and the stdout it must print, byte for byte. A model
change that moves any printed number fails here with a diff: if the change is intended, regenerate the expected
outputs with --update and say in the commit which numbers moved and why (git diff sim/scenarios shows them).

usage: test_scenarios.py PATH/TO/pfsim [--update]
"""
import difflib
import glob
import os
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIR = os.path.join(ROOT, "sim", "scenarios")


def parse(path):
    """(comment lines, argv after 'pfsim', expected stdout) of a scenario file."""
    with open(path) as f:
        lines = f.read().splitlines(keepends=True)
    comments, i = [], 0
    while i < len(lines) and lines[i].startswith("#"):
        comments.append(lines[i])
        i += 1
    if i >= len(lines) or not lines[i].startswith("$ pfsim "):
        sys.exit(f"{path}:{i + 1}: expected the command line '$ pfsim ...' after the comments")
    argv = shlex.split(lines[i][len("$ pfsim "):])
    return comments, lines[i], argv, "".join(lines[i + 1:])


def main():
    if "--help" in sys.argv[1:] or "-h" in sys.argv[1:]:
        print(__doc__)
        return 0
    args = [a for a in sys.argv[1:] if a != "--update"]
    if len(args) != 1 or args[0].startswith("-"):
        print(f"test_scenarios.py: error: expected PATH/TO/pfsim [--update], got {' '.join(sys.argv[1:]) or 'nothing'}"
              " (--help)", file=sys.stderr)
        return 2
    pfsim, update = os.path.abspath(args[0]), "--update" in sys.argv
    if not os.access(pfsim, os.X_OK):
        print(f"test_scenarios.py: error: {args[0]}: not an executable pfsim", file=sys.stderr)
        return 2
    files = sorted(glob.glob(os.path.join(DIR, "*.scenario")))
    if not files:
        sys.exit(f"no scenario in {DIR}")
    failures = 0
    for path in files:
        comments, command, argv, expected = parse(path)
        r = subprocess.run([pfsim] + argv, cwd=ROOT, capture_output=True, text=True)
        name = os.path.basename(path)
        if r.returncode != 0:
            print(f"FAIL {name}: exit {r.returncode}: {r.stderr.strip()[-300:]}")
            failures += 1
            continue
        if update:
            with open(path, "w") as f:
                f.write("".join(comments) + command + r.stdout)
            print(f"updated {name}")
        elif r.stdout != expected:
            diff = difflib.unified_diff(expected.splitlines(keepends=True), r.stdout.splitlines(keepends=True),
                                        f"{name} (expected)", f"{name} (this build)")
            print(f"FAIL {name}: the output differs from the pinned one:\n" + "".join(diff))
            failures += 1
        else:
            print(f"ok   {name}: {len(expected.splitlines())} lines as pinned")
    if failures:
        print(f"{failures} of {len(files)} scenario(s) failed (an intended change: --update, and say which numbers moved)")
        sys.exit(1)
    print(f"scenarios: {len(files)} OK")


if __name__ == "__main__":
    sys.exit(main())
