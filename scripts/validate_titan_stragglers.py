#!/usr/bin/env python3
"""Validation case titan-stragglers: the many-pairs straggler experiment of seed 002 (Titan/Atlas2, 2017) run on
the fitted straggler process (platforms/titan-atlas2.json, fitted by scripts/fit_stragglers.py).

The experiment, as the seed describes it: 126 client nodes, one IOR process each, write a burst (32 MB or 128 MB) to
an unstriped file on their own OST (round robin over 126 OSTs), synchronized (IOR -e: fsync), over and over with 7-15 s
between runs, for 0.5-1.7 hours. Here: pfsim ior --ranks 126 -F -w -e -t 1m -b 32m|128m -i REPS -d 10 --rank-times
(REPS = 180 by default: half an hour of runs 10 s apart), and once more with the straggler process off for the
unimpeded pair rate. From each run's per-rank times:
- a pair's bandwidth = burst / its time; a pair is a straggler when it is slower than a pair on an OST at the
  platform's slow_bandwidth_max (0.8, an ASSUMPTION of the fit): of an unimpeded burst's time, the share e (its
  bandwidth over the OST's peak) scales with the OST's factor f and the rest does not, so that pair's bandwidth is
  1 / ((1 - e) + e / f) of the unimpeded one (0.81 at f = 0.8, e = 0.94);
- the run's lag score = its slowest pair's bandwidth / one OST's peak (oss.disk_write; the seed normalizes "to the
  peak bandwidth achievable from the number of targets written": Lag Effective Bandwidth, lower bound) and its pair
  score = the mean pair bandwidth / that peak (Pair Effective Bandwidth, upper bound);
- an OST's observed slow spell: the runs from one that sees it slow to the next that sees it normal again; its length
  is the time between those two runs (censored spells, still open at the end, are left out); likewise normal spells.
Points, each against the seed's statement (validation/titan-stragglers/measured.json):
  (a) the straggler share of a run: its 99.5% quantile below 20% ("< 20% at any given interval");
  (b) slow spells over within 2 minutes: 96% (32 MB, the statement the fit used) and 100% (128 MB), +-4 points;
  (c) normal spells over (slowed) within 10 minutes: 100% ("any node showing high performance will slow"), +-4 points;
  (d) the share of the lag scores, and of the pair scores, in [0.4, 0.9], per burst size: at least 99.5%;
  (e) one client, one OST, 1 to 8 processes (straggler process off): the gain of more processes at most 5%.
Prints a table and "N of M points within tolerance"; --json writes the points for scripts/validate; the plot (score
distributions and the straggler share over time) goes to --plot or --plots DIR. Exit status 0 (1 with --strict when a
point fails), 2 on bad input, pfsim's exit status when a run fails.
usage: validate_titan_stragglers.py [--pfsim BIN] [--reps N] [--json F] [--plot PNG | --plots DIR] [--work DIR]
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import (Parser, check_output, is_executable_file, plot_format_problem, positive_int,  # noqa: E402
                        run_pfsim, stop_on_signals, stopped_signal, write_atomic)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROG = "validate_titan_stragglers.py"
PLATFORM = os.path.join(ROOT, "platforms", "titan-atlas2.json")
MEASURED = os.path.join(ROOT, "validation", "titan-stragglers", "measured.json")
DEFAULT_PLOT = os.path.join(ROOT, "out", "validation", "titan-stragglers", "titan-stragglers.png")
PAIRS = 126
GAP_S = 10
SEED = 1  # --seed
BURSTS_MB = (32, 128)
SPELL_TOL = 0.04


def die(msg, status=2):
    print(f"{PROG}: {msg}", file=sys.stderr)
    sys.exit(status)


def run_ior(pfsim, work, tag, args):
    out = os.path.join(work, f"{tag}.json")
    cmd = [pfsim, "ior", "--platform", PLATFORM, "-F", "-w", "-e", "-t", "1m", "--rank-times", "--quiet",
           "--out", out, "--seed", str(SEED)] + args
    run_pfsim(PROG, cmd, stdout=subprocess.DEVNULL)
    try:
        with open(out) as f:
            j = json.load(f)
        runs = [(ph["start_s"], e["rank_times_s"]) for ph, e in zip(j["phases"], j["ior"])]
    except (OSError, ValueError, KeyError, TypeError) as e:
        die(f"cannot read pfsim's results {out}: {e}")
    return runs, j


def quantile(values, q):
    v = sorted(values)
    return v[max(0, math.ceil(q * len(v)) - 1)]


def spells(runs, slow_of):
    """Observed spells per OST: (kind, length_s) of every completed spell; kind 'slow' or 'normal'."""
    out = []
    for ost in range(PAIRS):
        state, since = None, None
        for t, flags in runs:
            s = slow_of(flags[ost])
            if state is None:
                state, since = s, None  # the first run: the spell began before the experiment (censored)
            elif s != state:
                if since is not None:
                    out.append(("slow" if state else "normal", t - since))
                state, since = s, t
    return out


def analyse(runs, burst_B, unimpeded_Bps, peak_Bps, slow_max):
    """Per run: pair bandwidths, scores (over the OST's peak), straggler share (slower than a pair at factor
    slow_max); per OST: spells."""
    e = unimpeded_Bps / peak_Bps
    threshold = 1.0 / ((1.0 - e) + e / slow_max)
    per_run = []
    for start, times in runs:
        bw = [burst_B / t for t in times]
        per_run.append((start, [b < threshold * unimpeded_Bps for b in bw], min(bw) / peak_Bps,
                        sum(bw) / len(bw) / peak_Bps))
    sp = spells([(t, flags) for t, flags, _, _ in per_run], lambda f: f)
    return {"share": [sum(f) / len(f) for _, f, _, _ in per_run], "lag": [l for _, _, l, _ in per_run],
            "pair": [p for _, _, _, p in per_run], "start": [t for t, _, _, _ in per_run],
            "slow_spells": [d for k, d in sp if k == "slow"], "normal_spells": [d for k, d in sp if k == "normal"]}


def point(name, unit, measured, simulated, ok, tolerance, kind, note=""):
    err = simulated - measured if simulated is not None else None
    return {"case": "titan-stragglers", "series": name, "metric": name.split(" ")[0], "x": 1, "unit": unit,
            "measured": measured, "simulated": simulated, "rel_error": err / measured if err is not None and measured
            else None, "abs_error": err, "tolerance": tolerance, "tolerance_kind": kind, "pass": bool(ok),
            "note": note}


def plot(results, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.5))
    for mb, r in results.items():
        a.hist(r["lag"], bins=40, range=(0, 1), histtype="step", label=f"lag score, {mb} MB")
        a.hist(r["pair"], bins=40, range=(0, 1), histtype="step", linestyle="--", label=f"pair score, {mb} MB")
        b.plot([(t - r["start"][0]) / 60 for t in r["start"]], [100 * s for s in r["share"]], ".-", ms=3,
               label=f"{mb} MB bursts")
    a.axvspan(0.4, 0.9, color="grey", alpha=0.15, label="measured: 99.5%+ of scores in 0.4-0.9")
    a.set_xlabel("score (bandwidth / the OST's peak bandwidth)")
    a.set_ylabel("runs")
    a.legend(fontsize=8)
    a.set_title("Scores of the many-pairs runs (simulated)")
    b.axhline(20, color="r", linestyle=":", label="measured: < 20% at any interval")
    b.set_xlabel("minutes into the experiment")
    b.set_ylabel("stragglers among the 126 pairs (%)")
    b.legend(fontsize=8)
    b.set_title("Straggler share per run (simulated)")
    fig.tight_layout()
    from pfsim_plot import save_atomic  # the format --plot names; a unique temporary name, removed on failure
    # (no matplotlib version in a PNG: the same bytes from another matplotlib)
    save_atomic(fig, out, dpi=110, **({"metadata": {"Software": None}} if out.lower().endswith(".png") else {}))
    plt.close(fig)


def main():
    ap = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pfsim", default=os.path.join(ROOT, "build", "pfsim"))
    ap.add_argument("--reps", type=positive_int, default=180,
                    help="runs per burst size, at least 2 (default 180: 30 minutes)")
    ap.add_argument("--seed", type=positive_int, default=1, help="pfsim's --seed (the straggler process)")
    ap.add_argument("--json")
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--plot")
    g.add_argument("--plots", help="a folder for titan-stragglers.png (scripts/validate passes it)")
    ap.add_argument("--work", help="scratch folder, kept (default: a temporary one, removed)")
    ap.add_argument("--strict", action="store_true")
    ap.add_argument("--check", action="store_true", help="check the inputs (measured data, platforms, output paths, the pfsim binary) and exit 0 without simulating; scripts/validate runs this for every script case before the first case runs")
    a = ap.parse_args()
    global SEED
    SEED = a.seed
    if a.reps < 2:
        die(f"--reps {a.reps}: expected at least 2 (a spell is seen between two runs)")
    if a.plot and plot_format_problem(a.plot):
        die(f"--plot {a.plot}: {plot_format_problem(a.plot)}")
    plot_out = os.path.join(a.plots, "titan-stragglers.png") if a.plots else (a.plot or DEFAULT_PLOT)
    if a.plots or not a.plot:
        try:
            os.makedirs(os.path.dirname(plot_out), exist_ok=True)
        except OSError as e:
            die(f"cannot create {os.path.dirname(plot_out)}: {e.strerror}")
    for opt, path in (("--json", a.json), ("--plot", plot_out)):
        if path:
            check_output(PROG, opt, path, [("the platform", PLATFORM), ("the measured data", MEASURED)])
    if a.work and os.path.exists(a.work) and not os.path.isdir(a.work):
        die(f"--work {a.work}: exists and is not a directory")
    if not is_executable_file(a.pfsim):
        die(f"{a.pfsim}: no executable pfsim binary (build first: scripts/build, or pass --pfsim BIN)")
    try:
        with open(MEASURED) as f:
            obs = json.load(f)["observations"]
        with open(PLATFORM) as f:
            threshold = float(json.load(f)["oss"]["stragglers"]["slow_bandwidth_max"])
        m = {k: obs[k]["value"] for k in ("straggler_fraction_max", "recovered_within_120s_32MB",
                                          "recovered_within_120s_128MB", "fast_slows_within_600s",
                                          "scores_in_0.4_0.9", "single_client_gain_max")}
        lo, hi = obs["scores_in_0.4_0.9"]["low"], obs["scores_in_0.4_0.9"]["high"]
        for k, v in list(m.items()) + [("scores_in_0.4_0.9.low", lo), ("scores_in_0.4_0.9.high", hi),
                                       ("oss.stragglers.slow_bandwidth_max", threshold)]:
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v <= 1:
                raise ValueError(f"{k}: expected a number in [0, 1], got {v!r}")
    except (OSError, ValueError, KeyError, TypeError) as e:
        die(f"cannot read {os.path.relpath(MEASURED, ROOT)} or the platform's oss.stragglers: {e}")
    if a.check:
        return 0

    scratch = None
    try:
        if a.work:
            os.makedirs(a.work, exist_ok=True)
            work = a.work
        else:
            scratch = work = tempfile.mkdtemp(prefix="pfsim-validate-titan-")
        results = {}
        for mb in BURSTS_MB:
            base, j = run_ior(a.pfsim, work, f"peak-{mb}", ["--ranks", str(PAIRS), "-b", f"{mb}m",
                                                           "--set", "oss.stragglers.enabled=false"])
            burst = mb * 1048576.0
            unimpeded = burst / max(base[0][1])
            peak = float(j["platform"]["oss"]["disk_write"])
            runs, _ = run_ior(a.pfsim, work, f"pairs-{mb}", ["--ranks", str(PAIRS), "-b", f"{mb}m", "-i", str(a.reps),
                                                            "-d", str(GAP_S)])
            results[mb] = analyse(runs, burst, unimpeded, peak, threshold)
            results[mb]["unimpeded"] = unimpeded / peak
        gains = {}
        for k in (1, 2, 4, 8):
            runs, _ = run_ior(a.pfsim, work, f"single-{k}", ["--ranks", str(k), "--ranks-per-node", str(k), "-b", "128m",
                                                            "--set", "oss.stragglers.enabled=false",
                                                            "--set", "oss.count=1"])
            gains[k] = k * 128 * 1.048576 / max(runs[0][1])  # MB/s

        pts = []
        share_q = max(quantile(r["share"], m["scores_in_0.4_0.9"]) for r in results.values())
        pts.append(point("straggler share of a run, 99.5% quantile", "share", m["straggler_fraction_max"], share_q,
                         share_q < m["straggler_fraction_max"], 0, "below",
                         f"mean {sum(sum(r['share']) for r in results.values()) / sum(len(r['share']) for r in results.values()):.3f}"))
        for mb, key in ((32, "recovered_within_120s_32MB"), (128, "recovered_within_120s_128MB")):
            s = results[mb]["slow_spells"]
            v = sum(d <= 120 for d in s) / len(s) if s else None
            pts.append(point(f"slow spells over within 120 s, {mb} MB", "share", m[key], v,
                             v is not None and abs(v - m[key]) <= SPELL_TOL, SPELL_TOL, "absolute",
                             f"{len(s)} spells" + (" (fitted)" if mb == 32 else "")))
        ns = results[32]["normal_spells"] + results[128]["normal_spells"]
        v = sum(d <= 600 for d in ns) / len(ns) if ns else None
        pts.append(point("normal spells over within 600 s, both bursts", "share", m["fast_slows_within_600s"], v,
                         v is not None and abs(v - m["fast_slows_within_600s"]) <= SPELL_TOL, SPELL_TOL, "absolute",
                         f"{len(ns)} spells"))
        for mb, r in results.items():
            for kind in ("lag", "pair"):
                v = sum(lo <= x <= hi for x in r[kind]) / len(r[kind])
                pts.append(point(f"{kind} scores in [{lo}, {hi}], {mb} MB", "share", m["scores_in_0.4_0.9"], v,
                                 v >= m["scores_in_0.4_0.9"], 0, "at least",
                                 f"{min(r[kind]):.3f}-{max(r[kind]):.3f}" + (" (lag 32 MB: fitted)"
                                                                            if kind == "lag" and mb == 32 else "")))
        gain = max(gains.values()) / gains[1] - 1
        pts.append(point("single client, 1 OST: gain of 2-8 processes", "share", m["single_client_gain_max"], gain,
                         gain <= m["single_client_gain_max"], 0, "at most",
                         ", ".join(f"{k}: {b:.1f} MB/s" for k, b in gains.items())))

        print(f"{'point':<48} {'measured':>9} {'simulated':>10} {'tol':>12}  result  note")
        for p in pts:
            sim = "n/a" if p["simulated"] is None else f"{p['simulated']:.4f}"
            tol = f"+-{p['tolerance']:g}" if p["tolerance_kind"] == "absolute" else p["tolerance_kind"]
            print(f"{p['series']:<48} {p['measured']:>9g} {sim:>10} {tol:>12}  {'PASS' if p['pass'] else 'FAIL':<6}  "
                  f"{p['note']}")
        for mb, r in results.items():
            print(f"# {mb} MiB: unimpeded pair {r['unimpeded']:.3f} of the OST's peak; {len(r['lag'])} runs; lag scores "
                  f"{min(r['lag']):.3f}-{max(r['lag']):.3f}, pair scores {min(r['pair']):.3f}-{max(r['pair']):.3f}")
        npass = sum(p["pass"] for p in pts)
        print(f"{npass} of {len(pts)} points within tolerance")
        plot(results, plot_out)
        if a.json:
            write_atomic(a.json, json.dumps(pts, indent=1, allow_nan=False) + "\n")
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    return 1 if a.strict and npass < len(pts) else 0


if __name__ == "__main__":
    stop_on_signals()
    try:
        sys.exit(main())
    except KeyboardInterrupt as e:
        sys.exit(128 + stopped_signal(e))
