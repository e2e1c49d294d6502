#!/usr/bin/env python3
"""Ablation of the Spartan CephFS decline mechanism (docs/spartan-cephfs.md, section 3): fits the platform once per
mechanism (none, contention, per_client, per_directory) with scripts/calibrate_spartan.py on the same data, method
and budget, validates each fit with scripts/validate_spartan.py (fitted easy rates and predicted hard/SSD rates), and
writes every row's parameters, fit and points to --out (default validation/spartan-cephfs/ablation.json).

About an hour on 2 cores with the default budget (four fits of 150 evaluations). The fits and their reports go to
--work (kept), never to the committed platform.

usage: ablation_spartan.py [--mechanisms LIST] [--max-evals N] [--jobs N] [--work DIR] [--out FILE] [--build DIR]
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lu1695_model as L  # noqa: E402  (add_build_option, use_build)
import spartan_model as S  # noqa: E402
from cli_common import Parser, check_output, fail, positive_int, write_atomic  # noqa: E402

PROG = "ablation_spartan"
MECHANISMS = ("none", "contention", "per_client", "per_directory")


def run(cmd):
    r = subprocess.run(cmd)
    if r.returncode != 0:
        fail(PROG, f"{os.path.basename(cmd[1])} failed (exit {r.returncode})", r.returncode if r.returncode > 0 else 1)


def main():
    ap = Parser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("--mechanisms", default=",".join(MECHANISMS), help="comma-separated (default: all four)")
    ap.add_argument("--max-evals", type=positive_int, default=150, help="evaluations per fit (default 150)")
    ap.add_argument("--jobs", type=positive_int, default=2, help="pfsim runs at once (default 2)")
    ap.add_argument("--work", default=os.path.join(S.ROOT, "out", "spartan-ablation"), help="fits and reports (kept)")
    ap.add_argument("--out", default=os.path.join(S.CASE_DIR, "ablation.json"), help="the table (JSON)")
    L.add_build_option(ap)
    a = ap.parse_args()
    pfsim = L.use_build(PROG, a)
    mechs = [m.strip() for m in a.mechanisms.split(",") if m.strip()]
    bad = [m for m in mechs if m not in MECHANISMS]
    if bad or not mechs:
        fail(PROG, f"--mechanisms: expected some of {', '.join(MECHANISMS)}, got '{a.mechanisms}'")
    check_output(PROG, "--out", a.out, [("the measured table", S.MEASURED), ("the fitted platform", S.FITTED_PLATFORM)])
    os.makedirs(a.work, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    rows = []
    for m in mechs:
        fit, rep, pts = (os.path.join(a.work, f"{k}-{m}.json") for k in ("fit", "report", "points"))
        run([sys.executable, os.path.join(here, "calibrate_spartan.py"), "--mechanisms", m, "--max-evals",
             str(a.max_evals), "--jobs", str(a.jobs), "--out", fit, "--report", rep, "--build", a.build])
        run([sys.executable, os.path.join(here, "validate_spartan.py"), "--pfsim", pfsim, "--platform", fit, "--jobs",
             str(a.jobs), "--json", pts, "--plot", os.path.join(a.work, f"plot-{m}.png")])
        with open(rep) as f:
            report = json.load(f)
        with open(pts) as f:
            points = json.load(f)
        pred = [p for p in points if p["role"] == "predicted"]
        rows.append({"mechanisms": m,
                     "parameters": {p["path"]: round(p["value"], 4) for p in report["parameters"]},
                     "objective": report["objective"], "rms_log_error": report["rms_log_error"],
                     "evaluations": report["evaluations"],
                     "fit_max_abs_error": max(abs(r["rel_error"]) for r in report["residuals"]),
                     "predicted_within_20pct": f"{sum(p['pass'] for p in pred)} of {len(pred)}",
                     "points": [{k: p[k] for k in ("pool", "metric", "x", "role", "measured", "simulated", "rel_error")}
                                for p in points]})
    out = {"method": f"scripts/ablation_spartan.py: calibrate_spartan.py --mechanisms M --max-evals {a.max_evals}, then "
                     "validate_spartan.py --platform <the fit> (4x the calibration's files)", "rows": rows}
    write_atomic(a.out, json.dumps(out, indent=1) + "\n")
    for r in rows:
        print(f"{r['mechanisms']:14s} RMS {100 * r['rms_log_error']:.1f}%  largest {100 * r['fit_max_abs_error']:.1f}%  "
              f"predicted within 20%: {r['predicted_within_20pct']}")
    print(f"wrote {a.out}")


if __name__ == "__main__":
    main()
