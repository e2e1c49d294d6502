#!/usr/bin/env python3
"""Latency CDFs per md-real-io operation, real vs simulated, from two md-real-io latency directories
(<prefix>-<iter>-<phase>-<rank>.csv with time,runtime; pfsim replay --latency-dir writes the same files).

usage: plot_latency_cdf.py REAL_DIR SIM_DIR --out FILE.png [--prefix mdreal]
Benchmark iterations are pooled per operation (stat, read, create, delete); precreate and cleanup are panels
of their own. Exit status 2 on bad input.
"""
import argparse
import glob
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

PANELS = ["precreate", "benchmark-stat", "benchmark-read", "benchmark-create", "benchmark-delete", "cleanup"]


def load(d, prefix):
    pat = re.compile(r"^" + re.escape(prefix) + r"-(\d+)-(precreate|stat|read|create|delete|cleanup)-(\d+)\.csv$")
    pools = {}
    for f in glob.glob(os.path.join(d, prefix + "-*.csv")):
        m = pat.match(os.path.basename(f))
        if not m:
            continue
        key = m.group(2) if m.group(2) in ("precreate", "cleanup") else "benchmark-" + m.group(2)
        try:
            pools.setdefault(key, []).append(np.loadtxt(f, delimiter=",", skiprows=1, ndmin=2)[:, 1])
        except ValueError as e:
            sys.exit(f"plot_latency_cdf: {f}: {e}")
    return {k: np.sort(np.concatenate(v)) for k, v in pools.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("real")
    ap.add_argument("sim")
    ap.add_argument("--out", required=True)
    ap.add_argument("--prefix", default="mdreal")
    a = ap.parse_args()
    for d in (a.real, a.sim):
        if not os.path.isdir(d):
            print(f"plot_latency_cdf: {d}: not a directory", file=sys.stderr)
            return 2
    real, sim = load(a.real, a.prefix), load(a.sim, a.prefix)
    if not real or not sim:
        print("plot_latency_cdf: no latency files found", file=sys.stderr)
        return 2
    fig, axes = plt.subplots(2, 3, figsize=(13, 7), sharey=True)
    for ax, key in zip(axes.flat, PANELS):
        for data, label, style in ((real.get(key), "measured", "-"), (sim.get(key), "simulated", "--")):
            if data is None or len(data) == 0:
                continue
            y = np.arange(1, len(data) + 1) / len(data)
            ax.plot(data * 1e3, y, style, label=f"{label} (p50 {np.median(data) * 1e3:.2f} ms, "
                                                 f"p99 {np.percentile(data, 99) * 1e3:.1f} ms)")
        ax.set_xscale("log")
        ax.set_title(key)
        ax.set_xlabel("latency (ms)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7, loc="lower right")
    for ax in axes[:, 0]:
        ax.set_ylabel("fraction of operations")
    fig.suptitle(f"md-real-io latency CDF: {os.path.basename(os.path.normpath(a.real))} vs pfsim replay")
    fig.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    fig.savefig(a.out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
