#!/usr/bin/env python3
"""Fits the Cray XE6 / Lustre 2.1 platform to the LU-1695 metabench tables and writes the fitted platform.

Method (documented in docs/lu1695.md):
 1. Unique directories. Free parameters: the client's per-RPC time under its RPC slot
    (clients.rpc_overhead), the MDS CPU demand of create, stat and unlink (mds.service.*), and the
    parameters of the enabled decline mechanisms (--mechanisms). Objective: sum over the 15 measured
    points (5 rank counts x create/stat/unlink) of log(simulated/measured)^2, i.e. least squares on log
    rates, so that every point weighs by its relative error. Method: Nelder-Mead on log-parameters inside
    physical bounds. Simulations use --files files (default 30,000; rates at 20k-50k files agree with 1M files
    within 1%, checked in docs/lu1695.md) to keep each evaluation to seconds.
 2. Shared directory. All parameters of step 1 fixed; only the directory-lock hold times of create and
    unlink (mds.dir_lock.hold.*) are fitted, on the shared-directory rows at 512 and 1024 ranks ONLY
    (the issue allows this). The 2048-8192 shared points are then predictions.
Writes the platform (--out) and a report (--report) with parameters, residuals, evaluations. By default they
replace the committed fit (platforms/cray-xe6-lustre2.1-fitted.json, validation/lu1695/fit.json); the defaults
run the committed fit's mechanisms and file count from the script's default starting point, while the committed
fit was warm-started (--x0, the chain in fit.json "start"), so a default run ends near it, not on it digit for
digit.
"""
import argparse
import json
import math
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lu1695_model as M  # noqa: E402
from cli_common import Parser, check_output, fail, positive_int  # noqa: E402

PROG = "calibrate"

# (JSON path, initial, lower, upper, unit) — values in the unit given.
BASE_PARAMS = [
    ("clients.rpc_overhead", 1000.0, 5.0, 5000.0, "us"),
    ("mds.service.create", 550.0, 50.0, 3000.0, "us"),
    ("mds.service.stat", 215.0, 20.0, 2000.0, "us"),
    ("mds.service.unlink", 750.0, 50.0, 3000.0, "us"),
]
MECHANISM_PARAMS = {
    "contention": [("mds.mechanisms.contention.per_busy_thread.create", 0.5, 0.001, 100.0, "us"),
                   ("mds.mechanisms.contention.per_busy_thread.unlink", 1.5, 0.001, 100.0, "us")],
    "per_client": [("mds.mechanisms.per_client.cost_per_client.create", 0.5, 0.001, 100.0, "us"),
                   ("mds.mechanisms.per_client.cost_per_client.unlink", 1.5, 0.001, 100.0, "us")],
    "oversubscription": [("mds.mechanisms.oversubscription.cost_per_extra_thread", 10.0, 0.01, 1000.0, "us")],
    # (h) one MDT-wide lock held by every create / unlink (llog catalog append, object allocation).
    "serial_section": [("mds.mechanisms.serial_section.hold.create", 5.0, 0.01, 500.0, "us"),
                       ("mds.mechanisms.serial_section.hold.unlink", 30.0, 0.01, 500.0, "us")],
    # Not a mechanism: lets the fit choose the service thread limit (Lustre 2.1 default 512, often set lower
    # by administrators with mds_num_threads); a limit below the client count caps the contention.
    "threads": [("mds.threads.max", 256, 16, 512, "int")],
}

SHARED_PARAMS = [
    ("mds.dir_lock.hold.create", 45.0, 1.0, 1000.0, "us"),
    ("mds.dir_lock.hold.unlink", 95.0, 1.0, 1000.0, "us"),
]


def fit(base, params, dir_mode, rows, files, jobs, max_evals, phases=("create", "stat", "unlink")):
    ranks = sorted({int(r["ranks"]) for r in rows})

    def objective(values):
        sim = M.sweep(M.with_params(base, params, values), dir_mode, ranks, files, jobs)
        return sum(r[-1] ** 2 for r in M.residuals(sim, rows, phases))

    x0 = [p[1] for p in params]
    x, fx, n = M.nelder_mead(objective, x0, [p[2] for p in params], [p[3] for p in params], max_evals=max_evals)
    return x, fx, n


def fit_shared(fitted, sparams, files, jobs, max_evals):
    """Step 2: fit the directory-lock holds on the shared rows at 512 and 1024 ranks only."""
    srows = [r for r in M.measured("shared") if int(r["ranks"]) <= 1024]
    print(f"step 2: shared directory lock holds on {len(srows)} rows (512 and 1024 ranks only), "
          f"starting at {[p[1] for p in sparams]}", flush=True)
    xs, fs, n = fit(fitted, sparams, "shared", srows, files, jobs, max(30, max_evals // 3), phases=("create", "unlink"))
    section = {"parameters": {p[0]: f"{v:.6g}{p[4]}" for p, v in zip(sparams, xs)},
               "objective": fs, "evaluations": n, "rows": "shared, ranks 512 and 1024"}
    return M.with_params(fitted, sparams, xs), section


def report_name(path):
    """The --report path as the note names it: relative to the repository when inside it, else absolute."""
    p = os.path.abspath(path)
    rel = os.path.relpath(p, M.ROOT)
    return p if rel == ".." or rel.startswith(".." + os.sep) else rel


THREADS_FITTED_NOTE = (
    "max FITTED (mechanism 'threads' of the calibration), not Lustre's limit: Lustre 2.1 lustre_net.h has "
    "MDT_MIN_THREADS 2, MDT_MAX_THREADS 512, and ptlrpc starts threads on demand when all are busy. The same "
    "calibration with 512 kept: platforms/cray-xe6-lustre2.1-fitted-threads512.json (docs/lu1695.md section 6b).")


def calibration_note(mechs, refit, report_path, shared=True):
    holds = ("directory-lock holds fitted on the shared-directory rows at 512 and 1024 ranks only" if shared else
             "directory-lock holds NOT fitted (--no-shared: step 2 skipped; the base platform's holds are kept)")
    return ("Fitted by scripts/calibrate_lu1695.py --mechanisms " + (",".join(mechs) or "none") +
            ": least squares on log rates of the LU-1695 unique-directory table (15 points), Nelder-Mead; " +
            holds + ". Report: " + report_name(report_path) + "." + (" " + refit if refit else ""))


def load_json(option, path):
    try:
        with open(path) as f:
            return json.load(f)
    except FileNotFoundError:
        fail(PROG, f"{option} {path}: no such file (--shared-only keeps the step-1 results of an existing --out "
                   "and --report)")
    except OSError as e:
        fail(PROG, f"{option} {path}: {e.strerror}")
    except ValueError as e:
        fail(PROG, f"{option} {path}: not valid JSON: {e}")


def parse_x0(text, params):
    """--x0: a JSON object {parameter path: starting value in the parameter's unit}; every key must be one of
    the parameters being fitted and every value a number within the parameter's bounds."""
    valid = ", ".join(p[0] for p in params)
    try:
        start = json.loads(text)
    except ValueError as e:
        fail(PROG, f"--x0: not valid JSON ({e}); expected an object such as '{{\"mds.service.stat\": 200}}'")
    if not isinstance(start, dict):
        fail(PROG, f"--x0: expected a JSON object of parameter path -> starting value, got {type(start).__name__}")
    bounds = {p[0]: p for p in params}
    for k, v in start.items():
        if k not in bounds:
            fail(PROG, f"--x0: unknown parameter '{k}'; the parameters fitted with these --mechanisms are: {valid}")
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            fail(PROG, f"--x0: {k}: expected a number (in {bounds[k][4]}), got {json.dumps(v)}")
        lo, hi = bounds[k][2], bounds[k][3]
        if not lo <= v <= hi:
            fail(PROG, f"--x0: {k}: {v:g} is outside the parameter's bounds [{lo:g}, {hi:g}] ({bounds[k][4]})")
    return [(p[0], float(start.get(p[0], p[1])), p[2], p[3], p[4]) for p in params]


def write_outputs(a, fitted, report):
    for path, obj in ((a.out, fitted), (a.report, report)):
        M.write_atomic(path, json.dumps(obj, indent=2) + "\n")


def main():
    ap = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mechanisms", default="contention,per_client,threads,serial_section",
                    help="comma-separated mechanisms to enable and fit: " + ", ".join(MECHANISM_PARAMS) +
                         ", or none (default: those of the committed fit, validation/lu1695/fit.json)")
    ap.add_argument("--files", type=positive_int, default=30000, help="files per evaluation (default 30000, as the "
                                                                       "committed fit)")
    ap.add_argument("--jobs", type=positive_int, default=2)
    ap.add_argument("--max-evals", type=positive_int, default=100,
                    help="evaluation budget of step 1 (>= 1; step 2 gets max(30, this / 3)); the initial simplex "
                         "(number of parameters + 1 evaluations) always runs, so the budget is at least that")
    ap.add_argument("--x0", help="JSON object of starting values by parameter path (in the parameter's unit)")
    ap.add_argument("--no-shared", action="store_true", help="skip step 2")
    ap.add_argument("--shared-only", action="store_true",
                    help="step 2 only: keep the step-1 parameters of --out (and its report section) and refit "
                         "the directory-lock holds, e.g. after a change to the lock or core model")
    ap.add_argument("--out", default=os.path.join(M.ROOT, "platforms", "cray-xe6-lustre2.1-fitted.json"))
    ap.add_argument("--report", default=os.path.join(M.ROOT, "validation", "lu1695", "fit.json"))
    given = sys.argv[1:]
    M.add_build_option(ap)
    a = ap.parse_args()
    M.use_build(PROG, a)
    names = a.mechanisms.split(",")
    if "" in names:
        fail(PROG, f"--mechanisms '{a.mechanisms}': an empty name; expected ','-separated names from "
                   f"{', '.join(MECHANISM_PARAMS)}, or none")
    if "none" in names and len(names) > 1:
        fail(PROG, f"--mechanisms '{a.mechanisms}': none stands alone (no mechanism), not beside others")
    if a.shared_only and any(x == "--mechanisms" or x.startswith("--mechanisms=") for x in given):
        fail(PROG, "--mechanisms chooses what step 1 fits; --shared-only refits step 2 on the existing platform, "
                   "whose mechanisms it keeps")
    mechs = [m for m in names if m != "none"]
    for m in mechs:
        if m not in MECHANISM_PARAMS:
            print(f"calibrate: --mechanisms: unknown mechanism '{m}'; expected one of {', '.join(MECHANISM_PARAMS)} "
                  "or none", file=sys.stderr)
            return 2
    if len(set(mechs)) != len(mechs):
        fail(PROG, f"--mechanisms: a mechanism is named twice in '{a.mechanisms}'")
    if a.shared_only and a.no_shared:
        fail(PROG, "--shared-only and --no-shared exclude each other")
    if a.shared_only and a.x0:
        fail(PROG, "--x0 sets step-1 starting values; it does not apply to --shared-only")
    # Output paths first: a wrong one must not cost a whole fit.
    # The fitted platform is calibrate's own output (--shared-only updates it): not among the inputs here.
    reads = [i for i in M.INPUTS if i[1] != M.FITTED_PLATFORM]
    check_output(PROG, "--out", a.out, reads)
    check_output(PROG, "--report", a.report, reads)
    if os.path.abspath(a.out) == os.path.abspath(a.report) or (
            os.path.exists(a.out) and os.path.exists(a.report) and os.path.samefile(a.out, a.report)):
        fail(PROG, f"--out and --report name the same file {a.out}; expected two files")
    t0 = time.time()
    if a.shared_only:
        fitted = load_json("--out", a.out)
        report = load_json("--report", a.report)
        if not isinstance(fitted, dict):
            fail(PROG, f"--out {a.out}: expected a platform JSON object")
        if not isinstance(report, dict) or "unique" not in report:
            print(f"calibrate: {a.report} has no step-1 ('unique') section to keep", file=sys.stderr)
            return 2
        x0 = []
        for p in SHARED_PARAMS:
            v = M.get_path(fitted, p[0])
            if v is None:
                fail(PROG, f"--out {a.out}: no {p[0]} to start step 2 from")
            x0.append(M.parse_time_us(v, f"--out {a.out}: {p[0]}"))
            if not p[2] <= x0[-1] <= p[3]:
                fail(PROG, f"--out {a.out}: {p[0]} = {v} is outside the fit's bounds [{p[2]:g}, {p[3]:g}] us")
        sparams = [(p[0], v, p[2], p[3], p[4]) for p, v in zip(SHARED_PARAMS, x0)]
        refit = "Step 2 rerun alone (--shared-only) on the step-1 parameters"
        fitted, report["shared"] = fit_shared(fitted, sparams, report.get("files_per_evaluation", a.files), a.jobs,
                                              a.max_evals)
        report["shared"]["refit"] = refit
        # Wall time on stderr, not in the report: the same inputs must give the same files.
        print(f"calibrate: step 2 took {time.time() - t0:.0f} s of wall time", file=sys.stderr)
        fitted.setdefault("sources", {})["calibration"] = calibration_note(report.get("mechanisms", mechs), refit + ".",
                                                                           a.report)
        write_outputs(a, fitted, report)
        print(json.dumps(report["shared"], indent=2))
        return 0
    base = M.load_base()
    for m in mechs:
        if m != "threads":
            M.set_path(base, f"mds.mechanisms.{m}.enabled", True)
    params = BASE_PARAMS + [p for m in mechs for p in MECHANISM_PARAMS[m]]
    if a.x0:
        params = parse_x0(a.x0, params)
    rows = M.measured("unique")
    print(f"step 1: unique directories, {len(params)} parameters, mechanisms: {mechs or 'none'}", flush=True)
    x, fx, n1 = fit(base, params, "unique", rows, a.files, a.jobs, a.max_evals)
    fitted = M.with_params(base, params, x)
    if "per_client" in mechs:  # pfsim warns past twice the client nodes the fit saw
        M.set_path(fitted, "mds.mechanisms.per_client.fitted_up_to", max(int(r["nodes"]) for r in rows))
    report = {"mechanisms": mechs, "files_per_evaluation": a.files, "max_evals": a.max_evals,
              "x0": json.loads(a.x0) if a.x0 else None, "objective": "sum of log(sim/measured)^2",
              "method": "Nelder-Mead on log-parameters within bounds",
              "unique": {"parameters": {p[0]: f"{v:.6g}{p[4]}" for p, v in zip(params, x)},
                         "objective": fx, "evaluations": n1}}
    if not a.no_shared:
        fitted, report["shared"] = fit_shared(fitted, SHARED_PARAMS, a.files, a.jobs, a.max_evals)
    fitted["name"] = "cray-xe6-lustre2.1-fitted"
    fitted["description"] = ("LU-1695 platform fitted by scripts/calibrate_lu1695.py (mechanisms: " +
                             (", ".join(mechs) or "none") + "); see docs/lu1695.md.")
    fitted.setdefault("sources", {})["calibration"] = calibration_note(mechs, "", a.report, not a.no_shared)
    if "threads" in mechs:  # the base's source names Lustre's limit, which the fit replaced
        fitted["sources"]["mds.threads"] = THREADS_FITTED_NOTE
    print(f"calibrate: took {time.time() - t0:.0f} s of wall time", file=sys.stderr)
    write_outputs(a, fitted, report)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
