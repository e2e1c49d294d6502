#!/usr/bin/env python3
"""ctest "traces": the example traces in traces/ are what traces/manifest.json says, and each one replays.

1. Every file in traces/ (but README.md and manifest.json) is listed in the manifest with its SHA-256, and every
   listed file is there with that hash: a file edited by hand, added or lost fails. Where ../shared/data is on the
   machine, each file is byte-identical to the real tool output it copies (its "source").
2. traces/README.md names every replayable trace of the manifest.
3. `pfsim replay <trace> --check` accepts each trace and reports the manifest's format, ranks, phases and
   operations (the counts of the real files, e.g. 960 md-real-io operations of 2 ranks).
4. Each trace replays on its platform at its default rank count and at 3 times that: every phase of the larger
   replay has 3 times the items (rank m replays recorded rank m mod N), and every rate is finite and positive.

usage: test_traces.py PATH/TO/pfsim
"""
import hashlib
import json
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TRACES = os.path.join(ROOT, "traces")
SHARED_CANDIDATES = [os.path.join(os.path.dirname(ROOT), "shared", "data"), "/work/shared/data"]

failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL: " + msg)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def run(cmd):
    return subprocess.run(cmd, cwd=TRACES, capture_output=True, text=True)


def check_files(manifest):
    on_disk = set()
    for root, _, names in os.walk(TRACES):
        for n in names:
            rel = os.path.relpath(os.path.join(root, n), TRACES)
            if rel not in ("README.md", "manifest.json"):
                on_disk.add(rel)
    listed = {f["path"]: f for f in manifest["files"]}
    for p in sorted(on_disk - set(listed)):
        check(False, f"traces/{p} is not in traces/manifest.json")
    for p in sorted(set(listed) - on_disk):
        check(False, f"traces/manifest.json lists {p}, which is missing")
    shared = next((d for d in SHARED_CANDIDATES if os.path.isdir(d)), None)
    compared = 0
    for p in sorted(on_disk & set(listed)):
        h = sha256(os.path.join(TRACES, p))
        check(h == listed[p]["sha256"], f"traces/{p}: SHA-256 {h}, the manifest says {listed[p]['sha256']}")
        if shared and "source" in listed[p]:
            src = os.path.join(shared, listed[p]["source"])
            check(os.path.isfile(src) and sha256(src) == h,
                  f"traces/{p} is not a byte-identical copy of {src}")
            compared += 1
    print(f"files: {len(on_disk)} in traces/, {len(listed)} in the manifest, "
          f"{compared} compared with {shared or '(../shared/data not on this machine)'}")


SUMMARY_MD = re.compile(r"imported (\S+) trace .*: (\d+) ranks?, (\d+) phases?, (\d+) operations")
SUMMARY_IO = re.compile(r"imported (\S+) trace .*: (\d+) recorded ranks?, (\d+) phases?, (\d+) reads and writes")


def check_trace(pfsim, t, tmp):
    name = t["trace"]
    opts = t.get("replay_options", [])
    r = run([pfsim, "replay", name, "--check"] + opts)
    check(r.returncode == 0, f"{name}: --check exit {r.returncode}: {r.stderr.strip()}")
    m = SUMMARY_MD.search(r.stderr) or SUMMARY_IO.search(r.stderr)
    check(m is not None, f"{name}: no import summary in {r.stderr!r}")
    if m:
        got = (m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4)))
        want = (t["format"], t["ranks"], t["phases"], t["operations"])
        check(got == want, f"{name}: --check reports (format, ranks, phases, operations) {got}, manifest {want}")

    platform = os.path.join(ROOT, t["platform"])
    results = {}
    for label, extra in (("default", []), ("x3", None)):
        out = os.path.join(tmp, f"{len(os.listdir(tmp))}.json")
        if extra is None:
            extra = ["--ranks", str(3 * results["default"]["ranks"])]
        r = run([pfsim, "replay", name, "--platform", platform, "--out", out, "--quiet"] + opts + extra)
        check(r.returncode == 0, f"{name} ({label}): exit {r.returncode}: {r.stderr.strip()[-400:]}")
        if r.returncode != 0:
            return
        with open(out) as f:
            d = json.load(f)
        phases = [(p["name"], p["iteration"], p["items"], p["rate_items_per_s"]) for p in d["phases"]]
        results[label] = {"ranks": d["run"]["ranks"] if "ranks" in d["run"] else d["workload"]["ranks"],
                          "phases": phases}
        for ph in phases:
            check(math.isfinite(ph[3]) and ph[3] > 0, f"{name} ({label}): phase {ph[0]} rate {ph[3]}")
    a, b = results["default"], results["x3"]
    check(len(a["phases"]) == len(b["phases"]) and len(a["phases"]) > 0,
          f"{name}: {len(a['phases'])} phases at {a['ranks']} ranks, {len(b['phases'])} at {b['ranks']}")
    for pa, pb in zip(a["phases"], b["phases"]):
        check(pa[:2] == pb[:2] and pb[2] == 3 * pa[2],
              f"{name}: phase {pa[:2]} has {pa[2]} items at {a['ranks']} ranks, {pb[:2]} {pb[2]} at {b['ranks']}")
    print(f"{name}: {t['format']}, replayed at {a['ranks']} and {b['ranks']} ranks, "
          f"{len(a['phases'])} phases, items {sum(p[2] for p in a['phases'])} -> {sum(p[2] for p in b['phases'])}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    pfsim = os.path.abspath(sys.argv[1])
    with open(os.path.join(TRACES, "manifest.json")) as f:
        manifest = json.load(f)
    check_files(manifest)
    with open(os.path.join(TRACES, "README.md")) as f:
        readme = f.read()
    for t in manifest["traces"]:
        check(f"`{t['trace']}`" in readme, f"traces/README.md does not name `{t['trace']}`")
    with tempfile.TemporaryDirectory() as tmp:
        for t in manifest["traces"]:
            check_trace(pfsim, t, tmp)
    if failures:
        print(f"{len(failures)} failure(s)")
        sys.exit(1)
    print("traces: OK")


if __name__ == "__main__":
    main()
