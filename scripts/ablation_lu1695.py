#!/usr/bin/env python3
"""Ablation of the LU-1695 decline mechanisms: for each combination of mechanisms, fit the platform with
scripts/calibrate_lu1695.py (same objective and method, smaller budget), then sweep the fitted platform over
the measured rank counts in unique and shared directories and report which LU-1695 features it
reproduces and with what error. Writes ablation.json and ablation.md into --out-dir (default validation/lu1695),
both at the end; while it runs, the rows done so far are in ablation.partial.json (removed at the end).

Features (from the simulated rates):
  rise      creates and unlinks at 1024 ranks above 512 ranks
  peak64    creates and unlinks peak at 1024 ranks (64 nodes)
  decline   creates and unlinks at 8192 ranks at most 85% of their peak (measured: 67% and 51%)
  flatstat  stats vary by at most 10% over 512..8192 ranks (measured: 5.6%)
  collapse  shared-directory creates at 4096 ranks below half of 2048 ranks (measured: 35%)
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lu1695_model as M  # noqa: E402
from calibrate_lu1695 import MECHANISM_PARAMS  # noqa: E402
from cli_common import Parser, check_output, fail, pfsim_error_line, positive_int  # noqa: E402

PROG = "ablation"

COMBOS = ["none", "contention", "per_client", "oversubscription", "contention,per_client,threads", "serial_section",
          "contention,serial_section", "contention,per_client,threads,serial_section"]
RANKS = [512, 1024, 2048, 4096, 8192]


def features(u, s):
    rise = all(u[(p, 1024)] > u[(p, 512)] for p in ("create", "unlink"))
    peak = all(max(RANKS, key=lambda r: u[(p, r)]) == 1024 for p in ("create", "unlink"))
    decline = all(u[(p, 8192)] <= 0.85 * max(u[(p, r)] for r in RANKS) for p in ("create", "unlink"))
    stats = [u[("stat", r)] for r in RANKS]
    flat = max(stats) / min(stats) <= 1.10
    collapse = s[("create", 4096)] < 0.5 * s[("create", 2048)]
    return {"rise": rise, "peak64": peak, "decline": decline, "flatstat": flat, "collapse": collapse}


def errors(sim, rows, phases=("create", "stat", "unlink")):
    res = M.residuals(sim, rows, phases)
    rel = [s / m - 1 for _, _, m, s, _ in res]
    return {"rms_rel_error": math.sqrt(sum(e * e for e in rel) / len(rel)), "max_abs_rel_error": max(abs(e) for e in rel),
            "points_within_10pct": sum(abs(e) <= 0.10 for e in rel), "points": len(rel)}


def main():
    ap = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--combos", default=";".join(COMBOS), help="';'-separated mechanism lists")
    ap.add_argument("--files", type=positive_int, default=20000)
    ap.add_argument("--max-evals", type=positive_int, default=50)
    ap.add_argument("--jobs", type=positive_int, default=2)
    ap.add_argument("--out-dir", default=os.path.join(M.ROOT, "validation", "lu1695"),
                    help="directory for ablation.json and ablation.md (default validation/lu1695)")
    ap.add_argument("--append", action="store_true",
                    help="keep the rows of the existing ablation.json (a row of the same mechanisms is replaced)")
    M.add_build_option(ap)
    a = ap.parse_args()
    M.use_build(PROG, a)
    # Every combination is checked before the first fit (an error after hours of fitting wrote half a table).
    combos = a.combos.split(";")
    for combo in combos:
        names = combo.split(",")
        for m in names:
            if m == "":
                fail(PROG, f"--combos: an empty mechanism name in '{combo}'; expected ','-separated names from "
                           f"{', '.join(MECHANISM_PARAMS)} or none, combinations separated by ';'")
            if m not in MECHANISM_PARAMS and m != "none":
                fail(PROG, f"--combos: unknown mechanism '{m}' in '{combo}'; expected ','-separated names from "
                           f"{', '.join(MECHANISM_PARAMS)} or none, combinations separated by ';'")
        if len(set(names)) != len(names):
            fail(PROG, f"--combos: '{combo}' names a mechanism twice")
        if "none" in names and len(names) > 1:
            fail(PROG, f"--combos: '{combo}': none stands alone (no mechanism), not beside others")
    if len(set(combos)) != len(combos):
        fail(PROG, f"--combos: a combination is given twice ({a.combos})")
    out_dir = a.out_dir
    if not os.path.isdir(out_dir):
        fail(PROG, f"--out-dir {out_dir}: not an existing directory")
    for name in ("ablation.json", "ablation.md", "ablation.partial.json"):
        check_output(PROG, "--out-dir", os.path.join(out_dir, name), M.INPUTS)
    results = []
    if a.append:
        path = os.path.join(out_dir, "ablation.json")
        try:
            with open(path) as f:
                results = json.load(f)
        except (OSError, ValueError) as e:
            fail(PROG, f"--append: cannot read the existing rows of {path}: {e}")
        if not isinstance(results, list) or not all(isinstance(e, dict) and "mechanisms" in e for e in results):
            fail(PROG, f"--append: {path}: expected a list of rows with 'mechanisms'")
        new = set(combos)
        results = [e for e in results if e["mechanisms"] not in new]
    for combo in combos:
        with tempfile.TemporaryDirectory() as tmp:
            pf, rep = os.path.join(tmp, "p.json"), os.path.join(tmp, "r.json")
            print(f"== {combo}: fitting", flush=True)
            r = subprocess.run([sys.executable, os.path.join(M.ROOT, "scripts", "calibrate_lu1695.py"), "--mechanisms",
                                combo, "--files", str(a.files), "--max-evals", str(a.max_evals), "--jobs", str(a.jobs),
                                "--out", pf, "--report", rep], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
            if r.returncode != 0:
                fail(PROG, f"calibrate_lu1695.py --mechanisms {combo} failed (exit status {r.returncode}): "
                           f"{pfsim_error_line(r.stderr)}", r.returncode if r.returncode > 0 else 1)
            with open(pf) as f:
                platform = json.load(f)
            with open(rep) as f:
                report = json.load(f)
        u = M.sweep(platform, "unique", RANKS, a.files, a.jobs)
        s = M.sweep(platform, "shared", RANKS, a.files, a.jobs)
        entry = {"mechanisms": combo, "features": features(u, s), "unique": errors(u, M.measured("unique")),
                 "shared": errors(s, M.measured("shared")), "fit": report,
                 "budget": {"files": a.files, "max_evals": a.max_evals}}
        print(json.dumps({k: entry[k] for k in ("mechanisms", "features", "unique", "shared")}), flush=True)
        results.append(entry)
        # Progress of a long run goes to its own file; ablation.json and ablation.md are replaced together at the
        # end (an interrupted run left a json of its new rows only beside the old table, the earlier rows lost).
        M.write_atomic(os.path.join(out_dir, "ablation.partial.json"), json.dumps(results, indent=1))
    lines = ["| mechanisms | rise | peak at 64 nodes | decline | flat stats | shared collapse | unique RMS err | unique max err | unique pts within 10% | shared RMS err |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    yn = lambda b: "yes" if b else "no"
    for e in results:
        f, u, sh = e["features"], e["unique"], e["shared"]
        lines.append(f"| {e['mechanisms']} | {yn(f['rise'])} | {yn(f['peak64'])} | {yn(f['decline'])} | {yn(f['flatstat'])} | "
                     f"{yn(f['collapse'])} | {100 * u['rms_rel_error']:.1f}% | {100 * u['max_abs_rel_error']:.1f}% | "
                     f"{u['points_within_10pct']}/{u['points']} | {100 * sh['rms_rel_error']:.1f}% |")
    # With --append the rows may come from runs of different budgets: the header says so rather than claiming
    # this run's budget for all (rows from before budgets were recorded: unknown).
    budgets = {(e.get("budget", {}).get("files"), e.get("budget", {}).get("max_evals")) for e in results}
    if budgets == {(a.files, a.max_evals)}:
        budget = f"{a.files} files per run, --max-evals {a.max_evals} per fit (calibrate_lu1695.py's budget)"
    else:
        budget = "rows fitted with different budgets: " + "; ".join(
            f"{e['mechanisms']}: {e.get('budget', {}).get('files', 'unknown')} files, "
            f"{e.get('budget', {}).get('max_evals', 'unknown')} evaluations" for e in results)
    M.write_atomic(os.path.join(out_dir, "ablation.json"), json.dumps(results, indent=1))
    M.write_atomic(os.path.join(out_dir, "ablation.md"),
                   f"Ablation (scripts/ablation_lu1695.py, {budget})\n\n" + "\n".join(lines) + "\n")
    partial = os.path.join(out_dir, "ablation.partial.json")
    if os.path.exists(partial):
        os.unlink(partial)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
