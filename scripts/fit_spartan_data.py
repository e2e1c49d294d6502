#!/usr/bin/env python3
"""Fits the data side of the Spartan CephFS platform to seed 001's IOR columns (docs/spartan-cephfs.md section 7).

IO500 ran `ior easy` (a file per task, 1 MiB transfers) and `ior hard` (one shared file, 47,008-byte transfers,
task-interleaved) at 2, 32 and 160 tasks (2n1t, 4n8t, 10n16t) on an NL-SAS pool (36 OSD nodes, 3x replication) and
an SSD pool (16 OSD nodes, erasure code 4+2). The mechanisms, fixed before any fit:
  - clients.shared_file_writes "sync": the ior-hard file is open for writing on every node, so the MDS revokes the
    buffer capability and each write is synchronous (Ceph's IO path; the kernel client's ceph_sync_write);
  - oss.object_serial_write: a write holds its RADOS object (4 MiB of the file) at its OSD for this long, one
    write at a time (an OSD orders a placement group's operations; a small write's positioning and read-modify-write
    on the object's drives);
  - oss.parallel_read_latency: a read waits this long without holding its object (two ranks reading one object at
    2n1t are not served in turn: 6.7 ms each, 297 reads/s, not 150);
  - clients.readahead_mb 8: the kernel client's read-ahead (mount option rasize, 8 MiB); readahead_node_mb 1024 (no
    node-wide bound in the kernel client).
Then five parameters, each from the one measured point it dominates (a bisection on the simulated rate, in log
space, to within 0.5%), in this order, twice (the later ones barely move the earlier ones' points):
  oss.object_serial_write      <- ior_hard_write  at 2n1t  (the two ranks write one object in turn)
  oss.parallel_read_latency    <- ior_hard_read   at 2n1t
  clients.page_cache_copy      <- ior_easy_write  at 2n1t  (one task per node: its copy into the page cache)
  oss.disk_write               <- ior_easy_write  at 10n16t (the pool's bound)
  oss.disk_read                <- ior_easy_read   at 10n16t (the pool's bound)
Every other IOR point of the pool is a prediction: ior_hard write and read at 4n8t and 10n16t, ior_easy write and
read at 4n8t, ior_easy_read at 2n1t (validate_spartan.py compares them, and mdtest-hard's File read, which now reads
its 3,901 bytes through the fitted read latency).

--pool nlsas (default) writes the fitted values into platforms/spartan-cephfs.json and spartan-cephfs-fitted.json
(the metadata fit, scripts/calibrate_spartan.py, starts from the first and keeps them); --pool ssd writes
platforms/spartan-cephfs-ssd.json: the metadata fit's platform with the SSD pool's 16 OSD nodes and its own data fit.
Each fitted and fixed value gets its source, and the "oss" source names the pool and quotes the values written.
Report: validation/spartan-cephfs/fit-data[-ssd].json. 30-60 s on 2 cores.

usage: fit_spartan_data.py [--pool nlsas|ssd] [--jobs N] [--build DIR] [--report FILE] [--check]
  --check: no fit; print the pool's IOR points simulated on the committed platform against the measured ones.
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lu1695_model as L  # noqa: E402  (use_build, add_build_option)
import spartan_model as S  # noqa: E402
from cli_common import Parser, check_output, fail, positive_int, write_atomic_all  # noqa: E402

PROG = "fit_spartan_data"

FIXED = {
    "clients.shared_file_writes": (
        "sync",
        "Ceph's IO path (docs.ceph.com, 'CephFS IO path'): the MDS gives the buffer and cache capabilities (Fb, Fc) only "
        "while one client has a file open for writing; with writers on several clients every write is synchronous, "
        "acknowledged by the OSD (Linux fs/ceph/file.c: 'synchronous is used when there is multi-client read/write "
        "sharing, avoids the page cache, and synchronously waits for an ack from the OSD'). IO500's ior-hard file is "
        "written from every node."),
    "clients.readahead_mb": (
        8, "ASSUMPTION: the CephFS kernel client's read-ahead, mount option rasize, default 8 MiB (2019 kernels)."),
    "clients.readahead_node_mb": (
        1024, "ASSUMPTION: the kernel client has no node-wide read-ahead bound like Lustre's max_read_ahead_mb: 1 GiB."),
}
SSD_FIXED = {
    "oss.count": (16, "Seed 001: SSD data pool on 16 OSD nodes (8 SAS SSDs each), erasure code 4+2, not modelled "
                      "apart: its costs are inside the fitted per-write and per-read times and the pool bandwidth."),
    "oss.stripe_count": (16, "Files over every OSD node in 4 MiB objects, as CRUSH spreads them (see oss.count)."),
}
# (parameter, unit, low, high, phase, config, True when the rate rises with the parameter, what it stands for)
STEPS = [
    ("oss.object_serial_write", "s", 1e-5, 0.2, "ior_hard_write", "2n1t", False,
     "a small synchronous write's time on its object's drives, one at a time per object (an OSD orders a placement "
     "group's operations)"),
    ("oss.parallel_read_latency", "s", 1e-5, 0.2, "ior_hard_read", "2n1t", False,
     "a read's time at its OSD that holds no object (replica choice, positioning on one of the node's drives)"),
    ("clients.page_cache_copy", "Bps", 1e8, 1e11, "ior_easy_write", "2n1t", True,
     "one task's buffered write rate (copy into the page cache and the kernel client's writeback of one file)"),
    ("oss.disk_write", "Bps", 1e7, 2e10, "ior_easy_write", "10n16t", True,
     "an OSD node's share of the pool's write bandwidth (replication or erasure coding included)"),
    ("oss.disk_read", "Bps", 1e7, 2e10, "ior_easy_read", "10n16t", True,
     "an OSD node's share of the pool's read bandwidth"),
]
TOL = 0.005
assert {(st[4], st[5]) for st in STEPS} == S.IOR_FITTED, "spartan_model.IOR_FITTED must name the points STEPS fit"
# The pool as the "oss" source describes it, before the fitted values (oss_source).
POOLS = {
    "nlsas": "The NL-SAS data pool as 36 OSD nodes (seed 001: 36 NL-SAS nodes of 16 drives, 3x replicated), each one "
             "data server",
    "ssd": "The SSD data pool as 16 OSD nodes (seed 001: 8 SAS SSDs each, erasure code 4+2; see oss.count), each one "
           "data server",
}


def oss_source(pool, platform, report):
    """The "oss" source: where its data values come from, with the values this fit wrote (so that a refit writes a
    text that holds)."""
    v = {k: get(platform, "oss." + k) for k in ("disk_write", "disk_read", "object_serial_write",
                                                "parallel_read_latency")}
    before = (" (not the 16 x ~150 MB/s / 3 = 800 MB/s per node that the drives gave before the fit)"
              if pool == "nlsas" else "")
    return (f"{POOLS[pool]}. Its data values are fitted by scripts/fit_spartan_data.py --pool {pool} to seed 001's IOR "
            f"columns (report {report}; each field's own source): disk_write {v['disk_write']} and disk_read "
            f"{v['disk_read']} per OSD node, the pool's share with replication or erasure coding included{before}; "
            f"object_serial_write {v['object_serial_write']}, a small synchronous write's time on its object; "
            f"parallel_read_latency {v['parallel_read_latency']}, a read's time at its OSD, which mdtest-hard's "
            "3901-byte reads pay too. The IOR phases and mdtest-hard-read are validated against seed 001 "
            "(validation/spartan-cephfs, docs/spartan-cephfs.md section 7).")


def get(p, path):
    d = p
    for k in path.split("."):
        if not isinstance(d, dict) or k not in d:
            return None
        d = d[k]
    return d


def put(p, path, value):
    d = p
    keys = path.split(".")
    for k in keys[:-1]:
        d = d.setdefault(k, {})
    d[keys[-1]] = value


def fmt(value, unit):
    return f"{value * 1e3:.6g}ms" if unit == "s" else f"{value / 1e6:.6g}MBps"


def rate(platform, phase, row, build, cache):
    """The simulated rate of `phase` at `row`'s configuration; one `pfsim ior -w -r` per platform and configuration
    gives both accesses (cached: the fit asks for a write and a read of the same run)."""
    kind, access = S.IOR_PHASES[phase]
    key = (json.dumps(platform, sort_keys=True), kind, row["config"])
    if key not in cache:
        cache[key] = S.run_ior(platform, kind, row["tasks"], row["threads_per_client"], S.IOR_SIZES[kind][row["config"]],
                               build, PROG)
    v = cache[key].get(access, 0.0)
    if not math.isfinite(v) or v <= 0:
        fail(PROG, f"pfsim ior gave no positive {access} bandwidth ({phase}) at {row['config']}")
    return v


def fit_step(platform, step, rows, build, cache):
    name, unit, lo, hi, phase, config, rising, _ = step
    row = next(r for r in rows if r["config"] == config)  # (main checked it is there, with a value)
    target = row[phase]
    evals = 0

    def err(v):
        nonlocal evals
        q = json.loads(json.dumps(platform))
        put(q, name, fmt(v, unit))
        evals += 1
        return math.log(rate(q, phase, row, build, cache) / target) * (1 if rising else -1)
    a, b = math.log(lo), math.log(hi)
    ea, eb = err(lo), err(hi)
    if ea > 0 or eb < 0:
        ra, rb = (target * math.exp(e if rising else -e) for e in (ea, eb))
        fail(PROG, f"{name}: the measured {phase} at {config} ({target} GiB/s) is not between the rates "
                   f"{fmt(lo, unit)} and {fmt(hi, unit)} give ({ra:.4g} and {rb:.4g} GiB/s): the other mechanisms "
                   "bound it, or the rate does not move monotonically with it")
    em = ea
    for _ in range(60):
        m = (a + b) / 2
        em = err(math.exp(m))
        if abs(em) < math.log1p(TOL):
            break
        a, b = (m, b) if em < 0 else (a, m)
    if abs(em) >= math.log1p(TOL):
        fail(PROG, f"{name}: no value within {100 * TOL:g}% of the measured {phase} at {config} ({target} GiB/s) after "
                   f"60 halvings (the rate jumps near {fmt(math.exp(m), unit)}: not monotone in it?)")
    v = float(fmt(math.exp(m), unit)[:-2 if unit == "s" else -4]) * (1e-3 if unit == "s" else 1e6)
    put(platform, name, fmt(v, unit))
    return {"parameter": name, "value": fmt(v, unit), "fitted_to": f"{phase} at {config}", "measured_GiBps": target,
            "simulated_GiBps": rate(platform, phase, row, build, cache), "evaluations": evals}


def main():
    ap = Parser(prog=PROG, description=__doc__.split("\n")[0])
    ap.add_argument("--pool", choices=("nlsas", "ssd"), default="nlsas", help="the measured pool (default nlsas)")
    ap.add_argument("--jobs", type=positive_int, default=2, help="pfsim runs at once for the predictions (default 2)")
    ap.add_argument("--report", help="fit report (default validation/spartan-cephfs/fit-data.json, -ssd for ssd)")
    ap.add_argument("--check", action="store_true", help="no fit: the committed platform's IOR points")
    L.add_build_option(ap)
    a = ap.parse_args()
    build = os.path.dirname(L.use_build(PROG, a))
    report_path = a.report or os.path.join(S.CASE_DIR, "fit-data.json" if a.pool == "nlsas" else "fit-data-ssd.json")
    outputs = [S.BASE_PLATFORM, S.FITTED_PLATFORM] if a.pool == "nlsas" else [S.SSD_PLATFORM]
    inputs = [("the measured table", S.MEASURED), ("the metadata fit's platform", S.FITTED_PLATFORM)]
    if not a.check:
        check_output(PROG, "--report", report_path, inputs + [("a platform the fit writes", o) for o in outputs])
    rows = [r for r in S.read_measured(prog=PROG) if r["pool"] == a.pool]
    phases = list(S.IOR_PHASES)
    # Every configuration and IOR value of the pool is needed: the fitted points and the predictions.
    for config in S.IOR_SIZES["easy"]:
        row = next((r for r in rows if r["config"] == config), None)
        if row is None:
            fail(PROG, f"{S.MEASURED}: no row of configuration {config}, pool {a.pool}")
        for ph in phases:
            if row[ph] is None:
                fail(PROG, f"{S.MEASURED}: line {row['line']}: {ph}: no value (expected the {a.pool} pool's {ph} at "
                           f"{config} in GiB/s)")
    rows = [r for r in rows if r["config"] in S.IOR_SIZES["easy"]]
    platform_path = S.FITTED_PLATFORM if a.pool == "nlsas" or not a.check else S.SSD_PLATFORM
    platform = S.load(platform_path, PROG)
    if a.check:
        sim = S.simulate_ior(platform, rows, phases, build, jobs=a.jobs, prog=PROG)
        for r in rows:
            for ph in phases:
                s = sim[(ph, r["config"])]
                print(f"{r['config']:7s} {ph:15s} measured {r[ph]:8.3f}  simulated {s:8.3f} GiB/s  "
                      f"{100 * (s / r[ph] - 1):+7.1f}%")
        return
    fixed = dict(FIXED, **(SSD_FIXED if a.pool == "ssd" else {}))
    for path, (value, source) in fixed.items():
        put(platform, path, value)
        platform.setdefault("sources", {})[path] = source
    cache = {}
    steps = []
    for _ in range(2):
        steps = [fit_step(platform, st, rows, build, cache) for st in STEPS]
    sim = S.simulate_ior(platform, rows, phases, build, jobs=a.jobs, prog=PROG)
    fitted_points = S.IOR_FITTED
    points = [{"phase": ph, "config": r["config"], "tasks": r["tasks"], "measured_GiBps": r[ph],
               "simulated_GiBps": sim[(ph, r["config"])], "error": sim[(ph, r["config"])] / r[ph] - 1,
               "role": "fitted" if (ph, r["config"]) in fitted_points else "predicted"}
              for r in rows for ph in phases]
    for st, res in zip(STEPS, steps):
        platform.setdefault("sources", {})[st[0]] = (
            f"Fitted by scripts/fit_spartan_data.py --pool {a.pool} to seed 001's {st[4]} at {st[5]} "
            f"({res['measured_GiBps']} GiB/s): {st[7]}. Report: {os.path.relpath(report_path, S.ROOT)}.")
    platform["sources"]["oss"] = oss_source(a.pool, platform, os.path.relpath(report_path, S.ROOT))
    files = []
    for out in outputs:
        if a.pool == "nlsas":
            try:
                with open(out) as f:
                    target = json.load(f)
            except (OSError, ValueError) as e:
                fail(PROG, f"cannot read {out}: {e}")
            for path in list(fixed) + [st[0] for st in STEPS]:
                put(target, path, get(platform, path))
                target.setdefault("sources", {})[path] = platform["sources"][path]
            target["sources"]["oss"] = platform["sources"]["oss"]
        else:
            target = platform
            target["name"] = "spartan-cephfs-ssd"
            target["description"] = ("Spartan CephFS (seed 001) with the SSD data pool: the metadata fit of "
                                     "spartan-cephfs-fitted.json, the data side fitted by scripts/fit_spartan_data.py "
                                     "--pool ssd")
        files.append((out, json.dumps(target, indent=2) + "\n"))
    report = {"pool": a.pool, "method": __doc__.split("\n\n")[1] if "\n\n" in __doc__ else "",
              "rounds": 2, "steps_are": "the second round's: each parameter refitted in turn, those before it at their "
                                      "second-round values and those after it at their first-round ones (evaluations: "
                                      "that round's)",
              "sizes_per_task": S.IOR_SIZES, "fixed": {k: v[0] for k, v in fixed.items()}, "steps": steps,
              "points": points}
    files.append((report_path, json.dumps(report, indent=2) + "\n"))
    write_atomic_all(files)
    for p in points:
        print(f"{p['config']:7s} {p['phase']:15s} {p['role']:9s} measured {p['measured_GiBps']:8.3f}  simulated "
              f"{p['simulated_GiBps']:8.3f} GiB/s  {100 * p['error']:+7.1f}%")


if __name__ == "__main__":
    main()
