"""Shared pieces of the LU-1695 calibration and ablation: measured table, running pfsim sweeps on a
platform dict, residuals on log rates, and a bounded Nelder-Mead in log-parameter space."""
import copy
import csv
import json
import math
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_common  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MEASURED = os.path.join(ROOT, "validation", "lu1695", "measured.csv")
BASE_PLATFORM = os.path.join(ROOT, "platforms", "cray-xe6-lustre2.1.json")
FITTED_PLATFORM = os.path.join(ROOT, "platforms", "cray-xe6-lustre2.1-fitted.json")
# The files the LU-1695 scripts read, as (what, path): no output of theirs may replace one.
INPUTS = [("the measured LU-1695 table", MEASURED), ("the base platform", BASE_PLATFORM),
          ("the fitted platform", FITTED_PLATFORM),
          ("a validation workload", os.path.join(ROOT, "validation", "lu1695", "workload-unique.json")),
          ("a validation workload", os.path.join(ROOT, "validation", "lu1695", "workload-shared.json"))]
COLUMNS = {"create": "creates", "stat": "stats", "unlink": "unlinks"}


_PROG = None


def prog():
    """The running script's name, for error lines (the one use_build was given)."""
    return _PROG or os.path.basename(sys.argv[0] or "lu1695_model").replace(".py", "")


def add_build_option(ap):
    ap.add_argument("--build", default=os.environ.get("PFSIM_BUILD") or os.path.join(ROOT, "build"),
                    help="directory holding the pfsim binary that runs every point (default: $PFSIM_BUILD, else "
                         "build/)")


def use_build(name, a):
    """Names the script in error lines and checks --build before any work (a missing binary used to surface at the
    first simulation). The pfsim there runs every point, also of scripts this one starts (PFSIM_BUILD).
    Returns its path."""
    global _PROG
    _PROG = name
    pfsim = os.path.join(a.build, "pfsim")
    if not cli_common.is_executable_file(pfsim):
        cli_common.fail(name, f"--build {a.build}: no executable pfsim in it (build first: scripts/build)")
    os.environ["PFSIM_BUILD"] = os.path.abspath(a.build)
    return os.path.join(os.environ["PFSIM_BUILD"], "pfsim")


def write_atomic(path, text):
    """Writes `text` under a temporary name and renames it into place (nothing half-written on failure)."""
    cli_common.write_atomic(path, text)


def parse_time_us(value, what):
    """A duration such as "45us", "0.05ms", "1s" or a bare number (microseconds) as microseconds; exit status 2
    naming `what` on anything else."""
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(us|ms|s)?\s*", str(value))
    if not m:
        cli_common.fail(prog(), f"{what}: expected a duration with unit us, ms or s, got '{value}'")
    v = float(m.group(1)) * {"us": 1.0, "ms": 1e3, "s": 1e6, None: 1.0}[m.group(2)]
    if not math.isfinite(v):
        cli_common.fail(prog(), f"{what}: expected a finite duration, got '{value}'")
    return v


def measured(dir_mode):
    with open(MEASURED) as f:
        rows = [r for r in csv.DictReader(l for l in f if not l.startswith("#"))]
    return [r for r in rows if r["dir_mode"] == dir_mode]


def set_path(d, path, value):
    keys = path.split(".")
    for k in keys[:-1]:
        d = d.setdefault(k, {})
    d[keys[-1]] = value


def get_path(d, path, default=None):
    for k in path.split("."):
        if not isinstance(d, dict) or k not in d:
            return default
        d = d[k]
    return d


def sweep(platform, dir_mode, ranks, files, jobs=2, phases=("create", "stat", "unlink"), build=None):
    """Runs pfsim over `ranks`; returns {(phase, ranks): rate}."""
    build = build or os.environ.get("PFSIM_BUILD") or os.path.join(ROOT, "build")
    with tempfile.TemporaryDirectory() as tmp:
        pf = os.path.join(tmp, "platform.json")
        wf = os.path.join(tmp, "workload.json")
        out = os.path.join(tmp, "sweep.csv")
        with open(pf, "w") as f:
            json.dump(platform, f)
        with open(wf, "w") as f:
            json.dump({"generator": "metabench", "ranks": ranks[0], "ranks_per_node": 16, "seed": 1,
                       "metabench": {"files": files, "dir_mode": dir_mode, "phases": list(phases)}}, f)
        # pfsim's stderr is kept: on failure its error line is printed and its exit status (2 for bad input)
        # becomes this script's.
        cli_common.run_pfsim(prog(), [os.path.join(build, "pfsim"), "sweep", "--platform", pf, "--workload", wf,
                                      "--ranks", ",".join(map(str, ranks)), "--csv", out, "--jobs", str(jobs),
                                      "--quiet"])
        with open(out) as f:
            sim = {(r["phase"], int(r["ranks"])): float(r["rate"]) for r in csv.DictReader(f)}
        for ph in phases:
            for x in ranks:
                if (ph, x) not in sim:
                    cli_common.fail(prog(), f"pfsim sweep wrote no rate for phase '{ph}' at {x} ranks")
                if not math.isfinite(sim[(ph, x)]) or sim[(ph, x)] <= 0:
                    cli_common.fail(prog(), f"pfsim sweep gave a non-positive or non-finite rate "
                                            f"{sim[(ph, x)]} for phase '{ph}' at {x} ranks")
        return sim


def residuals(sim, rows, phases):
    """log(simulated / measured) for every measured row and phase."""
    res = []
    for r in rows:
        for ph in phases:
            if (ph, int(r["ranks"])) not in sim:
                cli_common.fail(prog(), f"no simulated rate for phase '{ph}' at {r['ranks']} ranks")
            res.append((ph, int(r["ranks"]), float(r[COLUMNS[ph]]),
                        sim[(ph, int(r["ranks"]))]))
    return [(ph, x, m, s, math.log(s / m)) for ph, x, m, s in res]


def nelder_mead(f, x0, lo, hi, max_evals=120, tol=1e-4, step=0.25, log=print):
    """Minimises f over log-parameters z (x = exp(z)) inside [lo, hi]; returns (x, fx, evaluations)."""
    zlo = [math.log(v) for v in lo]
    zhi = [math.log(v) for v in hi]
    clip = lambda z: [min(max(zi, a), b) for zi, a, b in zip(z, zlo, zhi)]
    cache = {}

    def fz(z):
        z = clip(z)
        key = tuple(round(v, 6) for v in z)
        if key not in cache:
            cache[key] = f([math.exp(v) for v in z])
            log(f"  eval {len(cache):3d}: f={cache[key]:.5f} x=" + ", ".join(f"{math.exp(v):.4g}" for v in z))
        return cache[key]

    n = len(x0)
    z0 = clip([math.log(v) for v in x0])
    simplex = [z0] + [clip([z0[j] + (step if j == i else 0) for j in range(n)]) for i in range(n)]
    vals = [fz(z) for z in simplex]
    while len(cache) < max_evals:
        order = sorted(range(n + 1), key=lambda i: vals[i])
        simplex = [simplex[i] for i in order]
        vals = [vals[i] for i in order]
        if abs(vals[-1] - vals[0]) < tol * (1 + abs(vals[0])):
            break
        centroid = [sum(s[j] for s in simplex[:-1]) / n for j in range(n)]
        refl = clip([centroid[j] + (centroid[j] - simplex[-1][j]) for j in range(n)])
        fr = fz(refl)
        if fr < vals[0]:
            exp_ = clip([centroid[j] + 2 * (centroid[j] - simplex[-1][j]) for j in range(n)])
            fe = fz(exp_)
            simplex[-1], vals[-1] = (exp_, fe) if fe < fr else (refl, fr)
        elif fr < vals[-2]:
            simplex[-1], vals[-1] = refl, fr
        else:
            con = clip([centroid[j] + 0.5 * (simplex[-1][j] - centroid[j]) for j in range(n)])
            fc = fz(con)
            if fc < vals[-1]:
                simplex[-1], vals[-1] = con, fc
            else:
                for i in range(1, n + 1):
                    simplex[i] = clip([simplex[0][j] + 0.5 * (simplex[i][j] - simplex[0][j]) for j in range(n)])
                    vals[i] = fz(simplex[i])
    best = min(range(n + 1), key=lambda i: vals[i])
    return [math.exp(v) for v in simplex[best]], vals[best], len(cache)


def load_base():
    with open(BASE_PLATFORM) as f:
        return json.load(f)


def with_params(base, params, values):
    p = copy.deepcopy(base)
    for (path, _, _, _, unit), v in zip(params, values):
        set_path(p, path, int(round(v)) if unit == "int" else f"{v:.6g}{unit}")
    return p
