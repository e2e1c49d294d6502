#!/usr/bin/env python3
"""Fits the Spartan CephFS platform to the IO500 mdtest-easy table (seed 001) and writes the fitted platform.

Method (docs/spartan-cephfs.md):
  Data: the NL-SAS rows of validation/spartan-cephfs/measured.csv, mdtest easy write, stat and delete at 2, 32
    and 160 tasks (2n1t, 4n8t, 10n16t): 9 rates. The mdtest-hard columns and the SSD rows are NOT fitted: they
    are predictions (scripts/validate_spartan.py).
  Free parameters (--mechanisms adds the decline mechanism's): the client-side time of an MDS request
    (clients.op_overhead.create/stat/unlink: kernel client, messenger, dispatch) and the MDS CPU under its request
    lock (mds.service.create/stat/unlink); with `contention`, one CPU cost per other update inside the MDS for
    creates and unlinks (mds.mechanisms.contention.per_busy_thread, the same value for both); with `per_client`,
    one CPU cost per connected client node; with `per_directory`, one CPU cost per other directory with an update
    inside the MDS (mds.mechanisms.per_directory.cost_per_directory, mechanism (i)).
  Objective: sum of log(simulated/measured)^2 (least squares on log rates). Method: Nelder-Mead on
    log-parameters within physical bounds (lu1695_model.nelder_mead), every evaluation three `pfsim mdtest`
    runs (one per configuration) with spartan_model.FIT_FILES files per task.
Writes the platform (--out, default platforms/spartan-cephfs-fitted.json) and a report (--report, default
validation/spartan-cephfs/fit.json).

usage: calibrate_spartan.py [--mechanisms none|contention|per_client|per_directory|per_directory_segment] [--max-evals N] [--jobs N] [--out FILE]
                            [--report FILE] [--build DIR] [--check-files [--check-platform FILE]]
"""
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lu1695_model as L  # noqa: E402  (nelder_mead, use_build, add_build_option)
import spartan_model as S  # noqa: E402
from cli_common import Parser, check_output, fail, positive_int, write_atomic  # noqa: E402

PROG = "calibrate_spartan"
FIT_PHASES = ("mdtest_easy_write", "mdtest_easy_stat", "mdtest_easy_delete")

# (JSON path or paths joined by '|', initial, lower, upper, unit)
BASE_PARAMS = [
    ("clients.op_overhead.create", 200.0, 5.0, 2000.0, "us"),
    ("clients.op_overhead.stat", 30.0, 5.0, 2000.0, "us"),
    ("clients.op_overhead.unlink", 350.0, 5.0, 2000.0, "us"),
    ("mds.service.create", 150.0, 5.0, 2000.0, "us"),
    ("mds.service.stat", 120.0, 5.0, 2000.0, "us"),
    ("mds.service.unlink", 350.0, 5.0, 2000.0, "us"),
]
MECHANISM_PARAMS = {
    "none": [],
    "contention": [("mds.mechanisms.contention.per_busy_thread.create|mds.mechanisms.contention.per_busy_thread.unlink",
                    1.0, 0.001, 100.0, "us")],
    "per_client": [("mds.mechanisms.per_client.cost_per_client.create|mds.mechanisms.per_client.cost_per_client.unlink",
                    10.0, 0.01, 1000.0, "us")],
    "per_directory": [("mds.mechanisms.per_directory.cost_per_directory.create|"
                       "mds.mechanisms.per_directory.cost_per_directory.unlink", 1.0, 0.001, 100.0, "us")],
}
# The same cost, counting the directories of the MDS's last journal segment of updates (per_directory.count
# "journal_segment", CephFS's mds_log_events_per_segment 1024) instead of those with an update in progress.
MECHANISM_PARAMS["per_directory_segment"] = MECHANISM_PARAMS["per_directory"]
SEGMENT_NOTE = (
    "journal_segment: the cost counts the distinct directories among the MDS's last 1024 updates (Ceph's "
    "mds_log_events_per_segment default, 1024 events per journal segment; each expired segment writes back the "
    "directory fragments its events dirtied, LogSegment dirty_dirfrags), not the directories with an update in "
    "progress: counting queued updates made an MDS that fell behind pay more, and two identical MDS settled "
    "unequally loaded in md-workbench (docs/spartan-cephfs.md section 6). The fit's objective: the report named in "
    "'calibration'.")


def apply(base, params, values, mechanism):
    p = json.loads(json.dumps(base))
    for (paths, _, _, _, unit), v in zip(params, values):
        for path in paths.split("|"):
            d = p
            keys = path.split(".")
            for k in keys[:-1]:
                d = d.setdefault(k, {})
            d[keys[-1]] = f"{v:.6g}{unit}"
    mech = p.setdefault("mds", {}).setdefault("mechanisms", {})
    for name in ("contention", "per_client", "per_directory"):
        if name in mech:
            mech[name]["enabled"] = name == mechanism.replace("_segment", "")
    if mechanism == "per_directory_segment":
        mech["per_directory"]["count"] = "journal_segment"
        p.setdefault("sources", {})["mds.mechanisms.per_directory.count"] = SEGMENT_NOTE
    if mechanism == "per_client":
        mech["per_client"]["fitted_up_to"] = 10  # the most client nodes in the fitted table (10n16t)
    if mechanism.startswith("per_directory"):
        mech["per_directory"]["fitted_up_to"] = 80  # the most directories per MDS in the fitted table (160 tasks / 2)
    return p


def main():
    ap = Parser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("--mechanisms", choices=sorted(MECHANISM_PARAMS), default="per_directory_segment",
                    help="the decline mechanism fitted with the base parameters (default per_directory_segment, the "
                         "committed fit; per_directory counts the directories with an update in progress instead)")
    ap.add_argument("--max-evals", type=positive_int, default=150, help="Nelder-Mead evaluations (default 150)")
    ap.add_argument("--jobs", type=positive_int, default=2, help="pfsim runs at once (default 2)")
    ap.add_argument("--out", default=S.FITTED_PLATFORM, help="fitted platform (default %(default)s)")
    ap.add_argument("--report", default=os.path.join(S.CASE_DIR, "fit.json"), help="fit report (default %(default)s)")
    ap.add_argument("--x0", help="starting values, comma-separated in the order of the report's 'parameters'")
    ap.add_argument("--check-files", action="store_true",
                    help="only compare the rates of --check-platform at the fit's file counts with 4x as many files")
    ap.add_argument("--check-platform", default=S.FITTED_PLATFORM,
                    help="the platform --check-files runs (default the committed fit, %(default)s)")
    L.add_build_option(ap)
    a = ap.parse_args()
    build = os.path.dirname(L.use_build(PROG, a))
    inputs = [("the measured table", S.MEASURED), ("the base platform", S.BASE_PLATFORM)]
    check_output(PROG, "--out", a.out, inputs)
    check_output(PROG, "--report", a.report, inputs)
    default_out = os.path.abspath(a.out) == os.path.abspath(S.FITTED_PLATFORM)
    if a.mechanisms != "per_directory_segment" and default_out and not a.check_files:
        fail(PROG, f"--mechanisms {a.mechanisms} would replace the committed fit ({S.FITTED_PLATFORM}, "
                   "per_directory_segment): "
                   "give --out and --report for another mechanism (scripts/ablation_spartan.py does)")
    base = S.load(S.BASE_PLATFORM, PROG)
    rows = [r for r in S.read_measured(prog=PROG) if r["pool"] == "nlsas"]

    if a.check_files:
        checked = S.load(a.check_platform, PROG)
        small = S.simulate(checked, rows, FIT_PHASES, build, a.jobs, prog=PROG)
        big = S.simulate(checked, rows, FIT_PHASES, build, a.jobs,
                         files={k: 4 * v for k, v in S.FIT_FILES.items()}, prog=PROG)
        for key in sorted(small):
            print(f"{key[0]:20s} {key[1]:7s} {small[key]:9.0f} {big[key]:9.0f} {100 * (small[key] / big[key] - 1):+6.2f}%")
        return

    params = BASE_PARAMS + MECHANISM_PARAMS[a.mechanisms]
    x0 = [p[1] for p in params]
    if a.x0:
        try:
            x0 = [float(v) for v in a.x0.split(",")]
        except ValueError:
            fail(PROG, f"--x0: expected {len(params)} comma-separated numbers, got '{a.x0}'")
        if len(x0) != len(params) or not all(math.isfinite(v) and v > 0 for v in x0):
            fail(PROG, f"--x0: expected {len(params)} positive numbers (order: "
                       + ", ".join(p[0] for p in params) + ")")
    lo = [p[2] for p in params]
    hi = [p[3] for p in params]
    t0 = time.time()

    def objective(x):
        sim = S.simulate(apply(base, params, x, a.mechanisms), rows, FIT_PHASES, build, a.jobs, prog=PROG)
        return sum(r[4] ** 2 for r in S.residuals(sim, rows, FIT_PHASES))

    x, fx, evals = L.nelder_mead(objective, x0, lo, hi, max_evals=a.max_evals, log=lambda s: print(s, flush=True))
    fitted = apply(base, params, x, a.mechanisms)
    fitted["name"] = "spartan-cephfs-fitted"
    fitted["description"] = ("Spartan CephFS (seed 001) fitted by scripts/calibrate_spartan.py --mechanisms "
                             f"{a.mechanisms} to the IO500 mdtest-easy NL-SAS rows; docs/spartan-cephfs.md.")
    fitted.setdefault("sources", {})["calibration"] = (
        "Fitted by scripts/calibrate_spartan.py: least squares on log rates of the 9 mdtest-easy write/stat/delete "
        "rates of the NL-SAS rows (2n1t, 4n8t, 10n16t), Nelder-Mead on log-parameters; report "
        "validation/spartan-cephfs/fit.json. The mdtest-hard columns and the SSD rows are predictions.")
    sim = S.simulate(fitted, rows, FIT_PHASES, build, a.jobs, prog=PROG)
    res = S.residuals(sim, rows, FIT_PHASES)
    report = {
        "method": "least squares on log rates, Nelder-Mead on log-parameters within bounds",
        "data": "validation/spartan-cephfs/measured.csv, pool nlsas, " + ", ".join(FIT_PHASES),
        "mechanisms": a.mechanisms,
        "files_per_task": S.FIT_FILES,
        "parameters": [{"path": p[0], "value": v, "unit": p[4], "bounds": [p[2], p[3]]} for p, v in zip(params, x)],
        "start": x0,
        "objective": fx,
        "rms_log_error": math.sqrt(fx / len(res)),
        "evaluations": evals,
        "wall_s": round(time.time() - t0, 1),
        "residuals": [{"phase": r[0], "config": r[1], "measured": r[2], "simulated": r[3],
                       "rel_error": r[3] / r[2] - 1} for r in res],
    }
    write_atomic(a.out, json.dumps(fitted, indent=2) + "\n")
    write_atomic(a.report, json.dumps(report, indent=2) + "\n")
    for r in res:
        print(f"{r[0]:20s} {r[1]:7s} measured {r[2]:9.0f} simulated {r[3]:9.0f} {100 * (r[3] / r[2] - 1):+6.1f}%")
    print(f"objective {fx:.5f} (RMS log error {100 * report['rms_log_error']:.1f}%), {evals} evaluations; "
          f"wrote {a.out} and {a.report}")


if __name__ == "__main__":
    main()
