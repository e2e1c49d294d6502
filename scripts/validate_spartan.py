#!/usr/bin/env python3
"""Spartan CephFS IO500 validation (seed 001; docs/spartan-cephfs.md): IO500's mdtest phases at 2, 32 and 160 tasks
(2n1t, 4n8t, 10n16t) on the fitted platform platforms/spartan-cephfs-fitted.json, against the measured table
validation/spartan-cephfs/measured.csv.

What is compared (tolerance 20 %, the mission's for this case):
  fitted     NL-SAS rows, mdtest easy write / stat / delete (scripts/calibrate_spartan.py fits them); the mission's
             target is the easy write: 5.3k -> 12.4k -> 6.9k IOPS, the rise and the fall.
  predicted  NL-SAS rows, mdtest hard write / stat / delete (3901-byte files in one shared directory);
             SSD rows, every easy and hard phase (the same metadata pool, seed 001: "the metadata performance is
             mostly about the NVMe metadata pool").
  IOR       every ior easy / ior hard write and read bandwidth (GiB/s) of each pool, on that pool's platform
             (NL-SAS: platforms/spartan-cephfs-fitted.json, SSD: platforms/spartan-cephfs-ssd.json), fitted or
             predicted as scripts/fit_spartan_data.py says (fitted: ior-hard write and read and ior-easy write at
             2n1t, ior-easy write and read at 10n16t); and mdtest-hard-read (predicted: its 3901-byte reads go through
             the pool's fitted read latency).
  find      IO500's find (pfind over the tree the write phases left, kIOPS of files examined) on each pool's platform:
             fitted at 2n1t and 10n16t (scripts/fit_spartan_find.py fits the time per listed entry to the geometric
             mean of those four rows), predicted at 4n8t.

usage: validate_spartan.py [--pfsim BIN] [--platform FILE] [--ssd-platform FILE] [--json FILE] [--plot PNG | --plots DIR] [--jobs N]
                           [--scale K] [--strict]
Prints a table and "N of M points within tolerance" (and the count of the fitted and predicted points apart).
Exit status 0 (with --strict: 1 when a point fails); 2 on an error; pfsim's exit status when a run fails.
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import spartan_model as S  # noqa: E402
from cli_common import (Parser, check_output, fail, is_executable_file, plot_destination, positive_int,  # noqa: E402
                        stop_on_signals, stopped_signal, write_atomic)

PROG = "validate_spartan"
ROOT = S.ROOT
DEFAULT_PLOT = os.path.join(ROOT, "out", "validation", "spartan-cephfs", "spartan-cephfs.png")
TOL = 0.20
FITTED = ("mdtest_easy_write", "mdtest_easy_stat", "mdtest_easy_delete")
COMPARED = FITTED + ("mdtest_hard_write", "mdtest_hard_stat", "mdtest_hard_delete")
FIND_FITTED = ("2n1t", "10n16t")  # scripts/fit_spartan_find.py: the geometric mean of these four rows


def main():
    ap = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pfsim", default=os.path.join(ROOT, "build", "pfsim"), help="pfsim binary (default build/pfsim)")
    ap.add_argument("--platform", default=S.FITTED_PLATFORM, help="platform (default %(default)s)")
    ap.add_argument("--ssd-platform", default=S.SSD_PLATFORM,
                    help="the SSD pool's platform for its data-side points (default %(default)s)")
    ap.add_argument("--json", help="write the points (JSON list) to this file")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--plot", help=f"the plot (default {os.path.relpath(DEFAULT_PLOT, ROOT)})")
    g.add_argument("--plots", help="a folder for the plot (spartan-cephfs.png), as scripts/validate passes it")
    ap.add_argument("--jobs", type=positive_int, default=2, help="pfsim runs at once (default 2)")
    ap.add_argument("--scale", type=positive_int, default=4,
                    help="files per task = K x the calibration's (spartan_model.FIT_FILES; default 4)")
    ap.add_argument("--strict", action="store_true", help="exit status 1 when a point is out of tolerance")
    ap.add_argument("--check", action="store_true", help="check the inputs (measured data, platforms, output paths, the pfsim binary) and exit 0 without simulating; scripts/validate runs this for every script case before the first case runs")
    a = ap.parse_args()

    plot_out = plot_destination(PROG, a.plots, a.plot, DEFAULT_PLOT, "spartan-cephfs.png")
    inputs = [("the measured table", S.MEASURED), ("the platform", a.platform), ("the SSD platform", a.ssd_platform)]
    for opt, path in (("--json", a.json), ("--plot", plot_out)):
        if path is not None:
            check_output(PROG, opt, path, inputs)
    if not is_executable_file(a.pfsim):
        fail(PROG, f"{a.pfsim}: no executable pfsim binary (build first: scripts/build, or pass --pfsim BIN)")
    platform = S.load(a.platform, PROG)
    pool_platform = {"nlsas": platform, "ssd": S.load(a.ssd_platform, PROG)}
    rows = S.read_measured(prog=PROG)
    if a.check:
        return 0
    files = {k: a.scale * v for k, v in S.FIT_FILES.items()}
    build = os.path.dirname(os.path.abspath(a.pfsim))
    # One set of runs serves both pools: the platform is the same, only the measured rows differ.
    by_config = {}
    for r in rows:
        by_config.setdefault(r["config"], r)
    sim = S.simulate(platform, list(by_config.values()), COMPARED, build, a.jobs, files, PROG)
    data_sim = {}
    for pool, pp in pool_platform.items():
        pool_rows = [r for r in rows if r["pool"] == pool]
        data_sim[pool] = S.simulate_ior(pp, pool_rows, list(S.IOR_PHASES), build, a.jobs, prog=PROG)
        data_sim[pool].update(S.simulate(pp, pool_rows, ["mdtest_hard_read"], build, a.jobs, files, PROG))

    from concurrent.futures import ThreadPoolExecutor
    find_rows = [r for r in rows if r[S.FIND_PHASE] is not None]
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        find_sim = dict(zip([(r["pool"], r["config"]) for r in find_rows],
                            ex.map(lambda r: S.run_find(pool_platform[r["pool"]], r, build, PROG)["rate"], find_rows)))

    # Metadata phases from the one metadata-fit run per configuration; data phases from each pool's own platform.
    points = []
    for r in rows:
        for ph in COMPARED + tuple(S.IOR_PHASES) + ("mdtest_hard_read", S.FIND_PHASE):
            m = r[ph]
            if m is None:
                continue
            if ph == S.FIND_PHASE:
                s = find_sim[(r["pool"], r["config"])]
                fitted = r["config"] in FIND_FITTED
            elif ph in COMPARED:
                s = sim[(ph, r["config"])]
                fitted = r["pool"] == "nlsas" and ph in FITTED
            else:
                s = data_sim[r["pool"]][(ph, r["config"])]
                fitted = (ph, r["config"]) in S.IOR_FITTED
            rel = s / m - 1
            points.append({"case": "spartan-cephfs", "series": f"{r['pool']} {ph}", "metric": ph, "pool": r["pool"],
                           "config": r["config"], "x": r["tasks"], "measured": m, "simulated": s,
                           "unit": "GiB/s" if ph in S.IOR_PHASES else "files/s" if ph == S.FIND_PHASE else "ops/s",
                           "rel_error": rel, "tolerance": TOL,
                           "tolerance_kind": "relative", "role": "fitted" if fitted else "predicted",
                           "pass": abs(rel) <= TOL})
    print(f"{'pool':<6} {'phase':<20} {'tasks':>5} {'role':<9} {'measured':>9} {'simulated':>9} {'error':>8}  result")
    for p in points:
        f = ".3f" if p["metric"] in S.IOR_PHASES else ".0f"
        print(f"{p['pool']:<6} {p['metric']:<20} {p['x']:>5} {p['role']:<9} {p['measured']:>9{f}} "
              f"{p['simulated']:>9{f}} {100 * p['rel_error']:>+7.1f}%  {'PASS' if p['pass'] else 'FAIL'}")
    for role in ("fitted", "predicted"):
        sel = [p for p in points if p["role"] == role]
        print(f"# {role}: {sum(p['pass'] for p in sel)} of {len(sel)} within {100 * TOL:.0f}%")
    target = [p for p in points if p["pool"] == "nlsas" and p["metric"] == "mdtest_easy_write"]
    print("# mission target (NL-SAS mdtest easy write, rise and fall): " +
          ", ".join(f"{p['x']} tasks {p['simulated'] / 1000:.2f}k vs {p['measured'] / 1000:.2f}k" for p in target))
    md = [p for p in points if p["metric"] in COMPARED]
    data = [p for p in points if p["metric"] not in COMPARED and p["metric"] != S.FIND_PHASE]
    found = [p for p in points if p["metric"] == S.FIND_PHASE]
    print(f"# find: {sum(p['pass'] for p in found)} of {len(found)} (" +
          ", ".join(f"{p['pool']} {p['x']} tasks {100 * p['rel_error']:+.0f}%" for p in found) + ")")
    print(f"# metadata (mdtest create, stat, delete): {sum(p['pass'] for p in md)} of {len(md)}; data side (IOR, "
          f"mdtest-hard read): {sum(p['pass'] for p in data)} of {len(data)} "
          f"({sum(p['pass'] for p in data if p['role'] == 'predicted')} of "
          f"{sum(p['role'] == 'predicted' for p in data)} predicted)")
    npass = sum(p["pass"] for p in points)
    print(f"{npass} of {len(points)} points within tolerance")
    plot(points, plot_out)
    if a.json:
        write_atomic(a.json, json.dumps(points, indent=1, allow_nan=False) + "\n")
    return 1 if a.strict and npass < len(points) else 0


def plot(points, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from pfsim_plot import save_atomic
    pools = ["nlsas", "ssd"]
    fig, grid = plt.subplots(2, 2, figsize=(12, 9.2))
    axes = grid[0]
    colors = {"write": "tab:blue", "stat": "tab:green", "delete": "tab:red", "read": "tab:purple"}
    for ax, pool in zip(axes, pools):
        sel = sorted((p for p in points if p["pool"] == pool and p["metric"] == S.FIND_PHASE), key=lambda p: p["x"])
        if sel:  # find's kIOPS (files examined per second) on the same axis, an order above the others
            xs = [p["x"] for p in sel]
            ax.plot(xs, [p["measured"] / 1000 for p in sel], ":", marker="o", color="tab:brown", alpha=0.45,
                    label="find, measured")
            ax.plot(xs, [p["simulated"] / 1000 for p in sel], ":", marker="x", color="tab:brown",
                    label="find, pfsim (2 and 160 tasks fitted)")
            ax.set_yscale("log")
        for ph in COMPARED + ("mdtest_hard_read",):
            sel = sorted((p for p in points if p["pool"] == pool and p["metric"] == ph), key=lambda p: p["x"])
            if not sel:
                continue
            kind, op = ph.split("_")[1], ph.split("_")[2]
            style = "-" if kind == "easy" else "--"
            xs = [p["x"] for p in sel]
            ax.plot(xs, [p["measured"] / 1000 for p in sel], style, marker="o", color=colors[op], alpha=0.45,
                    label=f"{kind} {op}, measured")
            ax.plot(xs, [p["simulated"] / 1000 for p in sel], style, marker="x", color=colors[op],
                    label=f"{kind} {op}, pfsim" + (" (fitted)" if sel[0]["role"] == "fitted" else ""))
        ax.set_xscale("log")
        ax.set_xticks([2, 32, 160])
        ax.set_xticklabels(["2 (2n1t)", "32 (4n8t)", "160 (10n16t)"])
        ax.set_xlabel("IO500 tasks (nodes x tasks per node)")
        ax.set_title(f"{pool.upper()} data pool" + (": easy rows fitted" if pool == "nlsas" else ": predicted"))
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("kIOPS")
    fig.legend(*axes[1].get_legend_handles_labels(), fontsize=7, ncol=5, loc="upper center",
               bbox_to_anchor=(0.5, 0.955), framealpha=0.9)
    dcolors = {"ior_easy_write": "tab:blue", "ior_easy_read": "tab:green", "ior_hard_write": "tab:red",
               "ior_hard_read": "tab:orange"}
    for ax, pool in zip(grid[1], pools):
        for ph, color in dcolors.items():
            sel = sorted((p for p in points if p["pool"] == pool and p["metric"] == ph), key=lambda p: p["x"])
            if not sel:
                continue
            xs = [p["x"] for p in sel]
            ax.plot(xs, [p["measured"] for p in sel], "-", marker="o", color=color, alpha=0.45,
                    label=f"{ph.replace('_', ' ')}, measured")
            ax.plot(xs, [p["simulated"] for p in sel], "--", marker="x", color=color, label=f"{ph.replace('_', ' ')}, pfsim")
            for p in sel:
                if p["role"] == "fitted":
                    ax.plot([p["x"]], [p["simulated"]], "s", mfc="none", color=color, ms=10)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xticks([2, 32, 160])
        ax.set_xticklabels(["2 (2n1t)", "32 (4n8t)", "160 (10n16t)"])
        ax.set_xlabel("IO500 tasks (nodes x tasks per node)")
        ax.set_ylabel("GiB/s")
        ax.set_title(f"{pool.upper()} pool, IOR (squares: fitted points)")
        ax.grid(alpha=0.3)
    grid[1][1].legend(fontsize=7, ncol=2, loc="lower right")
    fig.suptitle("Spartan CephFS IO500 (seed 001), 2 active MDS: measured vs pfsim (top: mdtest, bottom: IOR)",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 0.9))
    save_atomic(fig, out, dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    stop_on_signals()
    try:
        sys.exit(main())
    except KeyboardInterrupt as e:
        print(f"{PROG}: interrupted: no --json or plot written", file=sys.stderr)
        sys.exit(128 + stopped_signal(e))
