#!/usr/bin/env python3
"""The jbd2 handle-credit hypothesis for LU-1695's shared-directory collapse (docs/lu1695.md, section 6).

Lustre 2.1 opens a journal handle before it takes the parent directory's lock, so every update waiting for
a shared directory holds its credit reservation; a transaction holds at most journal blocks / 4 credits
(25,600 with mkfs.lustre's 400 MB journal), i.e. 192 creates or 160 unlinks with quota credits (133 and 160
per operation, Lustre 2.1 mdd_txn_init_credits over the osd-ldiskfs tables). Both limits fall between 128
and 256 client nodes, where the measured shared rates collapse. This script sweeps the shared directory on
the fitted platform with Lustre's 512 service threads (so that that many updates can wait at once):
credits off, then credits on with commit latencies of 0, 10 and 30 ms. It prints the rates, the commits
and the updates that waited for a transaction, and writes the table to validation/lu1695/journal-credits.md.

usage: scripts/journal_credits_lu1695.py [--files N] [--jobs J] [--out FILE]
(default 100,000 files: several commits per phase at every rank count; about 5 minutes with 2 jobs)
"""
import argparse
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lu1695_model as M  # noqa: E402
from cli_common import Parser, check_output, positive_int, run_pfsim  # noqa: E402

RANKS = [512, 1024, 2048, 4096, 8192]
CREDITS = ["--set", "mds.journal.credits.enabled=true", "--set", "mds.journal.credits.create=133",
           "--set", "mds.journal.credits.unlink=160"]
CONFIGS = [
    ("fitted platform (its thread limit), no credits", []),
    ("512 threads, no credits", ["--set", "mds.threads.max=512"]),
    ("512 threads, credits, commit 0 ms", ["--set", "mds.threads.max=512"] + CREDITS),
    ("512 threads, credits, commit 10 ms", ["--set", "mds.threads.max=512"] + CREDITS +
     ["--set", "mds.journal.commit_latency=10ms"]),
    ("512 threads, credits, commit 30 ms", ["--set", "mds.threads.max=512"] + CREDITS +
     ["--set", "mds.journal.commit_latency=30ms"]),
]


def run(pfsim, platform, files, jobs, extra, tmp):
    wf = os.path.join(tmp, "workload.json")
    with open(wf, "w") as f:
        json.dump({"generator": "metabench", "ranks": RANKS[0], "ranks_per_node": 16, "seed": 1,
                   "metabench": {"files": files, "dir_mode": "shared", "phases": ["create", "stat", "unlink"]}}, f)
    res = tempfile.mkdtemp(dir=tmp)
    # On failure: pfsim's error line and its exit status (2 for bad input).
    run_pfsim("journal_credits_lu1695", [pfsim, "sweep", "--platform", platform, "--workload", wf, "--ranks",
                                         ",".join(map(str, RANKS)), "--csv", os.path.join(res, "sweep.csv"),
                                         "--results-dir", res, "--jobs", str(jobs), "--quiet"] + extra)
    out = {}
    for r in RANKS:
        j = json.load(open(os.path.join(res, f"ranks-{r}.json")))
        mds = j["servers"][0]
        out[r] = ([p["rate_items_per_s"] for p in j["phases"]], mds["journal_commits"], mds["journal_handle_waits"])
    return out


def main():
    ap = Parser(prog="journal_credits_lu1695", description=__doc__,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=positive_int, default=100000)
    ap.add_argument("--jobs", type=positive_int, default=2)
    ap.add_argument("--out", default=os.path.join(M.ROOT, "validation", "lu1695", "journal-credits.md"))
    M.add_build_option(ap)
    a = ap.parse_args()
    pfsim = M.use_build("journal_credits_lu1695", a)
    if a.files < 1 or a.jobs < 1:
        print("journal_credits_lu1695: --files and --jobs must be positive", file=sys.stderr)
        return 2
    check_output("journal_credits_lu1695", "--out", a.out, M.INPUTS)  # before the sweeps, not after them
    platform = os.path.join(M.ROOT, "platforms", "cray-xe6-lustre2.1-fitted.json")
    lines = [f"Shared directory, {a.files} files, platforms/cray-xe6-lustre2.1-fitted.json "
             "(scripts/journal_credits_lu1695.py). Rates in k ops/s (creates / stats / unlinks); "
             "commits; updates that waited for a journal transaction.", "",
             "| configuration | " + " | ".join(str(r) for r in RANKS) + " |",
             "|---|" + "---|" * len(RANKS)]
    with tempfile.TemporaryDirectory() as tmp:
        for name, extra in CONFIGS:
            rows = run(pfsim, platform, a.files, a.jobs, extra, tmp)
            cells = []
            for r in RANKS:
                rates, commits, waits = rows[r]
                cells.append("/".join(f"{x / 1000:.1f}" for x in rates) + f"; {commits} commit{'' if commits == 1 else 's'}, {waits} wait{'' if waits == 1 else 's'}")
            lines.append(f"| {name} | " + " | ".join(cells) + " |")
            print(lines[-1], flush=True)
    lines += ["", "Measured (LU-1695, 1M files): 4096 ranks 6.9/56.0/4.3, 8192 ranks 6.3/59.3/2.8."]
    M.write_atomic(a.out, "\n".join(lines) + "\n")
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
