#!/usr/bin/env python3
"""Fits the Spartan CephFS platforms' directory listing to seed 001's find column (docs/spartan-cephfs.md section 8).

IO500 2019 ran pfind (io500_find_mpi = True) over its data directory with -newer, -size 3901c and -name "*01*": the
ranks share the directories by work stealing, each directory read by one rank's readdir stream, and the names that
match are stat'ed; the rate is the files examined / time (pfind's total_files / runtime). pfsim find models that walk
(sim/workload/find.hpp). The tree is what the write phases left (spartan_model.find_tree: the configured files per
task, or the measured create rate x the 300 s stonewall where that is less; ior-easy's file per task, ior-hard's one).

Fixed before any fit, from sources:
  - clients.readdir_attributes true: a CephFS readdir reply carries each entry's inode stat with capabilities
    (the MDS's Server::handle_client_readdir encodes an inode stat per dentry; the kernel client's
    ceph_readdir_prepopulate fills its inodes), so the lstat of a name the node has just listed needs no request;
    a stat of a name another node listed (pfind's stolen work) is a request to the MDS;
  - clients.readdir_entries 1024: the kernel client's readdir_max_entries mount option, default 1024 entries per
    readdir request (fs/ceph/super.h CEPH_MAX_READDIR_DEFAULT).
Then one parameter, by bisection on the simulated rate in log space to within 0.5%:
  clients.readdir_entry  <- find at 2n1t and 10n16t: the geometric mean of those four rows (2n1t NL-SAS 63.52, SSD
                            126.03; 10n16t NL-SAS 131.29, SSD 99.81 kIOPS). The find runs on the metadata pool and the
                            MDSes, which both data pools' runs share, so each pool's row measures the same thing.
  mds.readdir_entry 0, not fitted: the MDS's share of the time per entry is not identifiable from the table. It would
                            slow the many-reader rows only (at 160 tasks 159 readers share the two MDSes with the
                            reader of the big directory), and those are not slower per entry than the 2-task rows (the big
                            directory's read: about 20 us per entry at 2 tasks, 17.6 at 160, 11.7 at 32), so the whole
                            time per entry is put on the client.
The 4n8t rows (NL-SAS 108.61, SSD 105.11 kIOPS) are predictions. The two 2n1t rows ran the same tree on the same
metadata servers and differ by 2x, so no fit can bring both within 41%; the report gives every row's error.
--report: validation/spartan-cephfs/fit-find.json. Writes platforms/spartan-cephfs.json, spartan-cephfs-fitted.json and
spartan-cephfs-ssd.json (their metadata side; the data side stays the data fit's). About a minute on 2 cores.

usage: fit_spartan_find.py [--build DIR] [--report FILE] [--check]
  --check: no fit; print the find rows simulated on the committed platforms against the measured ones.
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lu1695_model as L  # noqa: E402  (use_build, add_build_option)
import spartan_model as S  # noqa: E402
from cli_common import Parser, check_output, fail, write_atomic_all  # noqa: E402
from fit_spartan_data import fmt, get, put  # noqa: E402

PROG = "fit_spartan_find"
FIXED = {
    "clients.readdir_attributes": (
        True,
        "CephFS: a readdir reply carries every entry's inode stat with capabilities (MDS Server::handle_client_readdir "
        "encodes one per dentry; the kernel client's ceph_readdir_prepopulate fills its inodes), so a stat of a name "
        "the node has just listed needs no MDS request (scripts/fit_spartan_find.py)."),
    "clients.readdir_entries": (
        1024, "The CephFS kernel client's readdir_max_entries mount option, default 1024 entries per readdir request "
              "(fs/ceph/super.h CEPH_MAX_READDIR_DEFAULT)."),
}
FIXED_MDS = ("mds.readdir_entry", 0.0,
             "Not fitted (scripts/fit_spartan_find.py): the MDS's share of the time per listed entry is not identifiable "
             "from seed 001's find rows (the 160-task rows, where the readers share the MDSes, are not slower per entry "
             "than the 2-task rows), so the whole time per entry is the client's clients.readdir_entry.")
# (parameter, low, high, configurations, what it stands for)
STEPS = [
    ("clients.readdir_entry", 1e-7, 1e-3, ("2n1t", "10n16t"),
     "the time per listed entry (the reply's dentries and inodes instantiated, pfind's name match, and the MDS's "
     "encoding of each entry, which the table cannot tell apart)"),
]
PREDICTED = ("4n8t",)
TOL = 0.005
POOL_PLATFORM = {"nlsas": S.FITTED_PLATFORM, "ssd": S.SSD_PLATFORM}


def log_error(platforms, rows, configs, build, cache):
    """Mean of log(simulated / measured) over the two pools' rows of the configurations `configs`."""
    errs = []
    for r in rows:
        if r["config"] not in configs:
            continue
        p = platforms[r["pool"]]
        key = (json.dumps(p, sort_keys=True), r["config"], r["pool"])
        if key not in cache:
            cache[key] = S.run_find(p, r, build, PROG)["rate"]
        v = cache[key]
        if not math.isfinite(v) or v <= 0:
            fail(PROG, f"pfsim find gave no positive rate at {r['config']} ({r['pool']})")
        errs.append(math.log(v / r[S.FIND_PHASE]))
    return sum(errs) / len(errs)


def with_value(platforms, name, value):
    out = {}
    for pool, p in platforms.items():
        q = json.loads(json.dumps(p))
        put(q, name, fmt(value, "s"))
        out[pool] = q
    return out


def fit_step(platforms, step, rows, build, cache):
    name, lo, hi, configs, _ = step
    config = " and ".join(configs)
    evals = 0

    def err(v):  # > 0: simulated too fast; the rate falls as the parameter grows
        nonlocal evals
        evals += 1
        return log_error(with_value(platforms, name, v), rows, configs, build, cache)
    a, b = math.log(lo), math.log(hi)
    ea, eb = err(lo), err(hi)
    if ea < 0 or eb > 0:
        fail(PROG, f"{name}: the measured find at {config} is not between the rates {fmt(lo, 's')} and {fmt(hi, 's')} "
                   f"give (mean log errors {ea:+.3f} and {eb:+.3f}): the other costs bound it, or the rate does not "
                   "move monotonically with it")
    em, m = ea, a
    for _ in range(60):
        m = (a + b) / 2
        em = err(math.exp(m))
        if abs(em) < math.log1p(TOL):
            break
        a, b = (m, b) if em > 0 else (a, m)
    if abs(em) >= math.log1p(TOL):
        fail(PROG, f"{name}: no value within {100 * TOL:g}% of the measured find at {config} after 60 halvings")
    v = float(fmt(math.exp(m), "s")[:-2]) * 1e-3
    for p in platforms.values():
        put(p, name, fmt(v, "s"))
    target = math.exp(sum(math.log(r[S.FIND_PHASE]) for r in rows if r["config"] in configs) /
                      sum(1 for r in rows if r["config"] in configs))
    return {"parameter": name, "value": fmt(v, "s"), "fitted_to": f"find at {config}, geometric mean of their rows",
            "measured_geomean_ops": target, "mean_log_error": log_error(platforms, rows, configs, build, cache),
            "evaluations": evals}


def main():
    ap = Parser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("--report", help="fit report (default validation/spartan-cephfs/fit-find.json)")
    ap.add_argument("--check", action="store_true", help="no fit: the committed platforms' find rows")
    L.add_build_option(ap)
    a = ap.parse_args()
    build = os.path.dirname(L.use_build(PROG, a))
    report_path = a.report or os.path.join(S.CASE_DIR, "fit-find.json")
    outputs = [S.BASE_PLATFORM, S.FITTED_PLATFORM, S.SSD_PLATFORM]
    if not a.check:
        check_output(PROG, "--report", report_path, [("the measured table", S.MEASURED)] +
                     [("a platform the fit writes", o) for o in outputs])
    rows = S.read_measured(prog=PROG)
    for config in CONFIGS:
        for pool in POOL_PLATFORM:
            row = next((r for r in rows if r["config"] == config and r["pool"] == pool), None)
            if row is None:
                fail(PROG, f"{S.MEASURED}: no row of configuration {config}, pool {pool}")
            if row[S.FIND_PHASE] is None:
                fail(PROG, f"{S.MEASURED}: line {row['line']}: find: no value (expected the {pool} pool's find at "
                           f"{config} in kIOPS)")
    rows = [r for r in rows if r["config"] in CONFIGS and r["pool"] in POOL_PLATFORM]
    platforms = {pool: S.load(path, PROG) for pool, path in POOL_PLATFORM.items()}
    if not a.check:
        for p in platforms.values():
            for path, (value, source) in FIXED.items():
                put(p, path, value)
                p.setdefault("sources", {})[path] = source
    cache = {}
    steps = []
    rounds = 0
    if not a.check:
        for p in platforms.values():
            put(p, FIXED_MDS[0], fmt(FIXED_MDS[1], "s"))
            p["sources"][FIXED_MDS[0]] = FIXED_MDS[2]
        rounds = 1
        steps = [fit_step(platforms, st, rows, build, cache) for st in STEPS]
    points = []
    for r in rows:
        res = S.run_find(platforms[r["pool"]], r, build, PROG)
        easy, hard = S.find_tree(r, PROG)
        role = "predicted" if r["config"] in PREDICTED else "fitted (geometric mean of the pools)"
        points.append({"config": r["config"], "pool": r["pool"], "tasks": r["tasks"], "easy_files_per_task": easy,
                       "hard_files_per_task": hard, "files": res["files"], "stats": res["stats"],
                       "local_stats": res["local_stats"], "measured_kiops": r[S.FIND_PHASE] / 1000,
                       "simulated_kiops": res["rate"] / 1000, "time_s": res["time_s"],
                       "error": res["rate"] / r[S.FIND_PHASE] - 1, "role": role})
    for p in points:
        print(f"{p['config']:7s} {p['pool']:6s} {p['role'].split()[0]:9s} measured {p['measured_kiops']:8.2f}  simulated "
              f"{p['simulated_kiops']:8.2f} kIOPS  {100 * p['error']:+7.1f}%  ({p['files']} files, {p['time_s']:.1f} s)")
    if a.check:
        return
    report_rel = os.path.relpath(report_path, S.ROOT)
    for st, res in zip(STEPS, steps):
        src = (f"Fitted by scripts/fit_spartan_find.py to seed 001's find at {' and '.join(st[3])} (geometric mean of "
               f"their NL-SAS and SSD rows, {res['measured_geomean_ops'] / 1000:.2f} kIOPS): {st[4]}. "
               f"Report: {report_rel}.")
        for p in platforms.values():
            p["sources"][st[0]] = src
    files = []
    names = list(FIXED) + [FIXED_MDS[0]] + [st[0] for st in STEPS]
    for out in outputs:
        try:
            with open(out) as f:
                target = json.load(f)
        except (OSError, ValueError) as e:
            fail(PROG, f"cannot read {out}: {e}")
        for path in names:
            put(target, path, get(platforms["nlsas"], path))
            target.setdefault("sources", {})[path] = platforms["nlsas"]["sources"][path]
        files.append((out, json.dumps(target, indent=2) + "\n"))
    report = {"method": __doc__.split("\n\n")[1:4], "rounds": rounds,
              "fixed": dict({k: v[0] for k, v in FIXED.items()}, **{FIXED_MDS[0]: FIXED_MDS[1]}),
              "tree": {"configured_files_per_task": S.CONFIGURED_FILES, "stonewall_s": S.STONEWALL_S,
                       "name_pattern": S.FIND_NAME},
              "steps": steps, "points": points}
    files.append((report_path, json.dumps(report, indent=2) + "\n"))
    write_atomic_all(files)


CONFIGS = ("2n1t", "4n8t", "10n16t")

if __name__ == "__main__":
    main()
