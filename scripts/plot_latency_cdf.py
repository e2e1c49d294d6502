#!/usr/bin/env python3
"""Latency CDFs per md-real-io / md-workbench operation or mdtest phase, real vs simulated, from two latency
directories: md-real-io 2017 (<prefix>-<iter>-<phase>-<rank>.csv) or md-workbench (<prefix>-<waiting
factor>-<iter>-<phase>.csv, -L, or ...-<phase>-all.csv, --latency-all), with columns time,runtime, or mdtest
--savePerOpDataCSV (<prefix>-<Phase>-<rank>.csv, time,runtime,tp); pfsim replay --latency-dir writes the same
files. The two directories may be of different md-real-io / md-workbench forms; mdtest's phases compare only with
mdtest's.

usage: plot_latency_cdf.py REAL_DIR SIM_DIR --out FILE.png [--prefix P | --real-prefix P --sim-prefix P]
                           [--labels measured,simulated] [--pfsim BIN]
Each directory's prefix is found from its file names when not given (a recorded md-real-io run writes lat-... or
mdreal-..., md-workbench lat-0.00-..., mdtest mdtest-perop-..., pfsim replay writes mdreal-..., lat-0.00-... or
mdtest-perop-... unless --latency-prefix). Benchmark iterations are pooled per operation
(stat, read, create, delete); precreate and cleanup are panels of their own; mdtest has a panel per phase (its
iterations pooled); an operation that only one directory has is named in a warning. Exit status 2 on bad input.
Each directory's files are checked by `pfsim replay FILE --check` (--pfsim, default build/pfsim of the repository)
before anything is plotted: what a replay refuses (a file of header only, fewer rows than the other ranks' or phases',
a missing rank's file) is refused here, with pfsim's error line. (pfsim replays mdtest's File phases: its Directory
and Tree phases' files get this script's own checks only.)
"""
import argparse
import glob
import math
import os
import re
import stat
import subprocess
import sys
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import (Parser, fail, is_executable_file, output_problem, pfsim_error_line,  # noqa: E402
                        plot_format_problem)
from pfsim_plot import save_atomic  # noqa: E402

PROG = "plot_latency_cdf"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PANELS = ["precreate", "benchmark-stat", "benchmark-read", "benchmark-create", "benchmark-delete", "cleanup"]


PHASES = r"(precreate|stat|read|create|delete|cleanup)"
# md-real-io 2017: <prefix>-<iter>-<phase>-<rank>.csv; md-workbench (IOR 4.x, 2019 standalone):
# <prefix>-<waiting factor>-<iter>-<phase>.csv (-L, rank 0) or ...-<phase>-all.csv (--latency-all, every rank).
# mdtest --savePerOpDataCSV: <prefix>-<Phase>-<rank>.csv (every iteration's rows in one file).
MDTEST_PANELS = ["Directory creation", "Directory stat", "Directory rename", "Directory removal", "File creation",
                 "File stat", "File read", "File rename", "File removal", "Tree creation", "Tree removal"]
FORMS = {"md-real-io": (r"-(\d+)-" + PHASES + r"-(\d+)\.csv$", 2),
         "md-workbench --latency-all": (r"-\d+\.\d+-(\d+)-" + PHASES + r"-all\.csv$", 2),
         "md-workbench -L": (r"-\d+\.\d+-(\d+)-" + PHASES + r"\.csv$", 2),
         "mdtest": (r"-(" + "|".join(MDTEST_PANELS) + r")-(\d+)\.csv$", 1)}


def file_match(prefix, name):
    """(form, phase) of a latency file NAME with PREFIX (a regex or an escaped string), or None."""
    for form, (tail, group) in FORMS.items():
        m = re.match(r"^(" + prefix + r")" + tail, name)
        if m:
            return form, m.group(1), m.group(group + 1)
    return None


def find_prefix(d, option):
    """The one prefix of md-real-io, md-workbench or mdtest latency files in D (exits naming the ones found when there
    are several)."""
    found = sorted({(m[0], m[1]) for m in (file_match(r".+?", f) for f in os.listdir(d)) if m})
    prefixes = sorted({p for _, p in found})
    if len(prefixes) > 1:
        fail(PROG, f"{d}: latency files of several prefixes ({', '.join(prefixes)}); choose one with {option}")
    return prefixes[0] if prefixes else None


def latency_files(d, prefix):
    """[(path, (form, prefix, phase))] of D's latency files with PREFIX, sorted by name."""
    if prefix is None:  # no latency file in D
        return []
    found = ((f, file_match(re.escape(prefix), os.path.basename(f)))
             for f in sorted(glob.glob(os.path.join(d, glob.escape(prefix) + "-*.csv"))))
    return [(f, m) for f, m in found if m]


def pfsim_check(pfsim, d, prefix):
    """pfsim replay --check on D's files of PREFIX (named by one of them: a directory may hold other runs' files):
    what a replay refuses (a header-only or truncated file, a missing rank's or phase's file) is one error line naming
    it, exit status 2. pfsim replays mdtest's File phases only: a directory of Directory or Tree phase files alone is
    left to this script's checks."""
    named = [f for f, m in latency_files(d, prefix) if not (m[0] == "mdtest" and not m[2].startswith("File "))]
    if not named:
        return
    try:
        r = subprocess.run([pfsim, "replay", named[0], "--check"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
    except OSError as e:
        fail(PROG, f"--pfsim {pfsim}: cannot run it: {e.strerror}")
    if r.returncode != 0:
        line = pfsim_error_line(r.stderr)
        fail(PROG, f"{d}: pfsim replay --check refuses the latency files '{prefix}-*': "
                   f"{line[len('pfsim: error: '):] if line.startswith('pfsim: error: ') else line}")


def load(d, prefix):
    pools = {}
    forms = set()
    for f, m in latency_files(d, prefix):
        forms.add(m[0])
        key = m[2] if m[2] in ("precreate", "cleanup") or m[0] == "mdtest" else "benchmark-" + m[2]
        pools.setdefault(key, []).append(read_runtimes(f))
    if len(forms) > 1:  # one run writes one form (md-workbench -L writes rank 0's files, --latency-all only -all)
        fail(PROG, f"{d}: files '{prefix}-*' of {' and '.join(sorted(forms))} form; expected one run's files")
    return forms, {k: np.sort(np.concatenate(v)) for k, v in pools.items() if sum(len(x) for x in v)}


NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")  # as pfsim's importer reads them (no 1_0, no nan)


def bad_line(f, cols=("time", "runtime")):
    """Exits (status 2) naming the first malformed line of a latency file with header columns COLS."""
    with open(f, errors="replace") as fh:
        for n, line in enumerate(fh, start=1):
            text = line.rstrip("\r\n")
            if n == 1:
                continue
            if not text.strip():
                fail(PROG, f"{f}: line {n}: empty line")
            fields = text.split(",")
            if len(fields) != len(cols):
                fail(PROG, f"{f}: line {n}: expected the {len(cols)} columns {','.join(cols)}, got '{text[:60]}'")
            for name, x in zip(cols, fields):
                if name not in ("time", "runtime"):
                    continue
                if not NUMBER.match(x.strip()):
                    fail(PROG, f"{f}: line {n}: {name}: expected a number, got '{x.strip()[:40]}'")
                if float(x) < 0:
                    fail(PROG, f"{f}: line {n}: {name}: expected seconds >= 0, got '{x.strip()[:40]}'")
    fail(PROG, f"{f}: expected finite non-negative numbers in columns time,runtime")


def read_runtimes(f):
    """The runtime column of one latency file (time,runtime with a header line); exit status 2 naming the
    file and line on malformed input, with the checks pfsim's importer makes (a last line without its end of line
    is a truncated file; no empty or comment lines). A header-only file holds no operations."""
    try:
        st = os.stat(f)
        if not stat.S_ISREG(st.st_mode):
            kind = "a directory" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode) else \
                "not a regular file"
            fail(PROG, f"{f}: is {kind}, expected a latency file (time,runtime CSV)")
        with open(f, "rb") as fh:
            data = fh.read()
    except OSError as e:
        fail(PROG, f"{f}: {e.strerror or e}")
    head = data.split(b"\n", 1)[0].decode("utf-8", "replace")
    if not head.strip():
        fail(PROG, f"{f}: line 1: expected the header 'time,runtime', the file is empty")
    if not data.endswith(b"\n"):
        last = data.count(b"\n") + 1
        fail(PROG, f"{f}: line {last}: truncated file: the last line has no end of line")
    cols = [c.strip() for c in head.lstrip("\ufeff").strip().split(",")]
    # the columns by name, as pfsim's importer reads them (mdtest adds tp; any order)
    if "time" not in cols or "runtime" not in cols:
        fail(PROG, f"{f}: line 1: expected the header 'time,runtime', got '{head.strip()[:60]}'")
    col, tcol = cols.index("runtime"), cols.index("time")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # header only: numpy warns "Empty input file"
            a = np.loadtxt(f, delimiter=",", skiprows=1, ndmin=2, comments=None)
    except ValueError:
        bad_line(f, cols)
    rows = data.count(b"\n") - 1  # numpy skips empty lines: a row count short of the lines has one
    if a.size == 0:
        if rows > 0:
            bad_line(f, cols)
        return np.zeros(0)
    if (a.shape[0] != rows or a.shape[1] != len(cols) or not np.all(np.isfinite(a[:, [tcol, col]]))
            or np.any(a[:, [tcol, col]] < 0)):
        bad_line(f, cols)
    return a[:, col]


def main():
    ap = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("real")
    ap.add_argument("sim")
    ap.add_argument("--out", required=True)
    ap.add_argument("--prefix", help="prefix of both directories' files (default: found in each directory)")
    ap.add_argument("--real-prefix", help="prefix of REAL_DIR's files")
    ap.add_argument("--sim-prefix", help="prefix of SIM_DIR's files")
    ap.add_argument("--labels", default="measured,simulated", help="legend names of the two directories")
    ap.add_argument("--pfsim", default=os.path.join(ROOT, "build", "pfsim"),
                    help="the pfsim binary whose replay --check checks the files (default build/pfsim)")
    a = ap.parse_args()
    labels = a.labels.split(",")
    if len(labels) != 2 or not all(l.strip() for l in labels):
        fail(PROG, f"--labels {a.labels}: expected two comma-separated names, e.g. measured,simulated")
    # The output path first: a directory, a missing extension or an unknown format is an error, not a guess.
    if os.path.isdir(a.out):
        fail(PROG, f"--out {a.out}: is a directory; expected an image file name such as {a.out.rstrip('/')}.png")
    # The formats whose bytes depend on the data only (cli_common.PLOT_FORMATS).
    if plot_format_problem(a.out):
        fail(PROG, f"--out {a.out}: {plot_format_problem(a.out)}")
    if output_problem(a.out):  # its directory must exist, as for every other script's output
        fail(PROG, f"--out {a.out}: {output_problem(a.out)}")
    for d in (a.real, a.sim):
        if not os.path.isdir(d):
            print(f"plot_latency_cdf: {d}: not a directory", file=sys.stderr)
            return 2
    if not is_executable_file(a.pfsim):
        fail(PROG, f"--pfsim {a.pfsim}: no executable pfsim binary (build first: scripts/build, or pass --pfsim BIN)")
    if a.prefix and (a.real_prefix or a.sim_prefix):
        fail(PROG, "--prefix sets both directories' prefix: give it, or --real-prefix/--sim-prefix, not both")
    real_prefix = a.real_prefix or a.prefix or find_prefix(a.real, "--real-prefix")
    sim_prefix = a.sim_prefix or a.prefix or find_prefix(a.sim, "--sim-prefix")
    (real_forms, real), (sim_forms, sim) = load(a.real, real_prefix), load(a.sim, sim_prefix)
    for d, prefix in ((a.real, real_prefix), (a.sim, sim_prefix)):  # what a replay refuses (files read together)
        pfsim_check(a.pfsim, d, prefix)
    if not real or not sim:
        empty, prefix = (a.real, real_prefix) if not real else (a.sim, sim_prefix)
        which = f"with prefix '{prefix}' " if prefix else ""
        named = prefix and any(n.startswith(prefix) and n.endswith(".csv") for n in os.listdir(empty))
        if named:  # the files are there, with a header and no operation (helper-75: "no files" misled)
            print(f"plot_latency_cdf: {empty}: the latency files {which}hold no operation (a header only): "
                  "nothing to plot", file=sys.stderr)
        else:
            print(f"plot_latency_cdf: {empty}: no latency files {which}found (expected md-real-io, "
                  f"md-workbench or mdtest --savePerOpDataCSV file names)", file=sys.stderr)
        return 2
    mdtest = "mdtest" in real_forms
    if mdtest != ("mdtest" in sim_forms):
        fail(PROG, f"{a.real if mdtest else a.sim} holds mdtest per-op files and "
                   f"{a.sim if mdtest else a.real} md-real-io/md-workbench files: mdtest's phases are not md-real-io "
                   "operations (replay an mdtest trace with --output-format mdtest to compare)")
    panels = [k for k in MDTEST_PANELS if k in real or k in sim] if mdtest else PANELS
    for key in panels:  # an operation one side lacks (a deleted or missing file set) is said, not left blank
        if (key in real) != (key in sim):
            print(f"plot_latency_cdf: warning: {key}: only in {a.real if key in real else a.sim}", file=sys.stderr)
    cols = 3 if len(panels) > 4 else len(panels)
    rows = -(-len(panels) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(13 * cols / 3, 3.6 * rows + 0.6), sharey=True, squeeze=False)
    for ax in axes.flat[len(panels):]:
        ax.set_visible(False)
    for ax, key in zip(axes.flat, panels):
        for data, label, style in ((real.get(key), labels[0].strip(), "-"), (sim.get(key), labels[1].strip(), "--")):
            if data is None or len(data) == 0:
                continue
            y = np.arange(1, len(data) + 1) / len(data)
            # three significant digits: microsecond latencies read 0.00 ms with fixed decimals
            ax.plot(data * 1e3, y, style, label=f"{label} (p50 {np.median(data) * 1e3:.3g} ms, "
                                                 f"p99 {np.percentile(data, 99) * 1e3:.3g} ms)")
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())  # labels at the decades only
        ax.set_title(key)
        ax.set_xlabel("latency (ms)")
        ax.grid(True, which="both", alpha=0.3)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7, loc="lower right")
    for ax in axes[:, 0]:
        ax.set_ylabel("fraction of operations")
    fig.suptitle(f"latency CDF: {os.path.basename(os.path.normpath(a.real))} ({labels[0].strip()}) vs "
                 f"{os.path.basename(os.path.normpath(a.sim))} ({labels[1].strip()})")
    fig.tight_layout()
    save_atomic(fig, a.out, dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main())
