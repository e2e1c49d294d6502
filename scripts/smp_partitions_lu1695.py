#!/usr/bin/env python3
"""SMP affinity on the fitted LU-1695 platform: how many CPU partitions it takes to keep the rates past the
peak within 5% of the peak. Sweeps unique directories over the measured rank counts for each partition count
K and each cross_partition_factor F (1 = contended state shared by the whole MDT, 0 = split per
partition), with the fitted parameters unchanged, and reports for creates and unlinks the 8192-rank rate as
a fraction of the sweep's peak, the largest drop after the peak, and the stats' range.
Writes smp-partitions.json and smp-partitions.md (atomically) into --out-dir (default validation/lu1695).

usage: smp_partitions_lu1695.py [--counts 1,2,4,6,12] [--files 1000000] [--jobs 2] [--out-dir DIR]
"""
import argparse
import copy
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lu1695_model as M  # noqa: E402
from cli_common import Parser, check_output, fail, positive_int  # noqa: E402

PROG = "smp_partitions"

RANKS = [512, 1024, 2048, 4096, 8192]
FITTED = os.path.join(M.ROOT, "platforms", "cray-xe6-lustre2.1-fitted.json")


def summarize(rates):
    out = {}
    for op in ("create", "unlink"):
        series = [rates[(op, r)] for r in RANKS]
        peak_i = max(range(len(series)), key=lambda i: series[i])
        after = series[peak_i + 1:]
        out[op] = {"rates": series, "peak_ranks": RANKS[peak_i], "at_8192_of_peak": series[-1] / series[peak_i],
                   "worst_after_peak_of_peak": min(after) / series[peak_i] if after else 1.0}
    stats = [rates[("stat", r)] for r in RANKS]
    out["stat"] = {"rates": stats, "min": min(stats), "max": max(stats)}
    out["plateau_5pct"] = all(out[op]["worst_after_peak_of_peak"] >= 0.95 for op in ("create", "unlink"))
    return out


def main():
    ap = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--counts", default="1,2,4,6,12", help="comma-separated partition counts (divisors of mds.cores)")
    ap.add_argument("--files", type=positive_int, default=1000000)
    ap.add_argument("--jobs", type=positive_int, default=2)
    ap.add_argument("--out-dir", default=os.path.join(M.ROOT, "validation", "lu1695"),
                    help="directory for smp-partitions.json and smp-partitions.md (default validation/lu1695)")
    M.add_build_option(ap)
    a = ap.parse_args()
    M.use_build(PROG, a)
    counts = []
    for c in a.counts.split(","):
        try:
            counts.append(positive_int(c.strip()))
        except argparse.ArgumentTypeError as e:
            fail(PROG, f"--counts: {e}")
    if len(set(counts)) != len(counts):
        fail(PROG, f"--counts {a.counts}: a partition count is given twice")
    if not os.path.isdir(a.out_dir):
        fail(PROG, f"--out-dir {a.out_dir}: not an existing directory")
    for name in ("smp-partitions.json", "smp-partitions.md"):
        check_output(PROG, "--out-dir", os.path.join(a.out_dir, name), M.INPUTS)
    try:
        with open(FITTED) as f:
            base = json.load(f)
        cores = int(base["mds"]["cores"])
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(PROG, f"{FITTED}: cannot read mds.cores ({e})")
    for k in counts:
        if k < 1 or cores % k:
            print(f"smp_partitions: --counts: {k} is not a divisor of mds.cores ({cores})", file=sys.stderr)
            return 2
    results = []
    for k in counts:
        for factor in ([1.0] if k == 1 else [1.0, 0.0]):
            p = copy.deepcopy(base)
            M.set_path(p, "mds.mechanisms.partitions.enabled", k > 1)
            M.set_path(p, "mds.mechanisms.partitions.count", k)
            M.set_path(p, "mds.mechanisms.contention.cross_partition_factor", factor)
            print(f"== {k} partitions, cross_partition_factor {factor:g}", flush=True)
            entry = {"partitions": k, "cores_each": cores // k, "cross_partition_factor": factor,
                     **summarize(M.sweep(p, "unique", RANKS, a.files, a.jobs))}
            print(json.dumps({x: entry[x] for x in ("partitions", "cross_partition_factor", "plateau_5pct")}), flush=True)
            results.append(entry)
    out_dir = a.out_dir
    M.write_atomic(os.path.join(out_dir, "smp-partitions.json"), json.dumps(
        {"platform": os.path.relpath(FITTED, M.ROOT), "files": a.files, "ranks": RANKS, "results": results}, indent=1) + "\n")
    pct = lambda x: f"{100 * x:.0f}%"
    lines = [f"SMP partitions on the fitted LU-1695 platform, unique directories, {a.files} files "
             "(scripts/smp_partitions_lu1695.py)", "",
             "| partitions (cores each) | F | creates at 8192 / peak | worst after peak | unlinks at 8192 / peak | "
             "worst after peak | stats min..max | plateau within 5% |",
             "|---|---|---|---|---|---|---|---|"]
    for e in results:
        c, u, s = e["create"], e["unlink"], e["stat"]
        lines.append(f"| {e['partitions']} ({e['cores_each']}) | {e['cross_partition_factor']:g} | {pct(c['at_8192_of_peak'])} | "
                     f"{pct(c['worst_after_peak_of_peak'])} | {pct(u['at_8192_of_peak'])} | {pct(u['worst_after_peak_of_peak'])} | "
                     f"{s['min'] / 1000:.1f}k..{s['max'] / 1000:.1f}k | {'yes' if e['plateau_5pct'] else 'no'} |")
    M.write_atomic(os.path.join(out_dir, "smp-partitions.md"), "\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
