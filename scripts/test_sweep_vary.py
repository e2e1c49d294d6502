#!/usr/bin/env python3
"""ctest "sweep_vary": pfsim sweep --vary PATH=V1,V2,... runs every rank count for each value of one platform field.

1. A metabench workload (1,600 files) at 16 and 64 ranks with --vary mds.threads.max=1,12 (threads.min 1) on the Cray
   XE6 platform (12 cores): the table's first column is the field's path, one row per value, rank count and phase in that order,
   and every row equals a standalone `pfsim run --set mds.threads.max=V` of that point (the same simulation: rate,
   time and percentiles to the printed digit); the table's JSON records the values and each point's platform.
2. A closed form: with one service thread, stats are served one at a time, so the stat rate is at most
   1 / (stat service) = 1 / 210 us = 4,762/s at any rank count; with 12 threads the 64-rank stats run faster than
   that bound.
3. Bad --vary values are refused before any point runs (exit 2, one line naming the --vary value or the field; two
   values that give the same platform, 200us and 0.0002s, are one point twice). md-workbench (and replay) sweeps take
   --vary as well, each point the single run with that --set; without --csv it is refused. The table's JSON records the sweep's own --set and --vary; a duration's column is
   in seconds.
4. A warning about a --vary value names the --vary and the value, not the --set it is applied as (a bare number read
   in seconds: "--vary mds.service.create=500,20us, value 500: ..."), in pfsim sweep and pfsim ior alike; a --vary of
   clients.ranks_per_node that the workload file's ranks_per_node overrides is said to change nothing.

4. A point's warnings begin with the point's name ("640 ranks with mds.count=2: ", "100 ranks: "): pfsim sweep and
   md-workbench sweeps past the Spartan platform's per-directory fit, and a replay sweep's --check.

usage: test_sweep_vary.py PATH/TO/pfsim
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import Checks, pfsim_arg  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLATFORM = os.path.join(ROOT, "platforms", "cray-xe6-lustre2.1.json")


def main():
    pfsim = pfsim_arg(__doc__)
    check = Checks()
    with tempfile.TemporaryDirectory() as tmp:
        wl = os.path.join(tmp, "w.json")
        with open(wl, "w") as f:
            json.dump({"generator": "metabench", "ranks": 16, "ranks_per_node": 16, "seed": 1,
                       "metabench": {"files": 1600, "dir_mode": "unique", "phases": ["create", "stat", "unlink"]}}, f)
        table = os.path.join(tmp, "t.csv")
        r = subprocess.run([pfsim, "sweep", "--platform", PLATFORM, "--workload", wl, "--ranks", "16,64",
                            "--set", "mds.threads.min=1", "--vary", "mds.threads.max=1,12", "--csv", table, "--jobs", "2", "--quiet"],
                           capture_output=True, text=True)
        check(r.returncode == 0, f"the sweep runs (exit {r.returncode}: {r.stderr.strip()[-300:]})")
        rows = list(csv.reader(open(table))) if r.returncode == 0 else [[]]
        header, body = rows[0], rows[1:]
        check(header[:3] == ["mds.threads.max", "ranks", "nodes"], f"first column: the field's path ({header[:3]})")
        order = [(x[0], x[1], x[3]) for x in body]
        want = [(v, n, p) for v in ("1", "12") for n in ("16", "64") for p in ("create", "stat", "unlink")]
        check(order == want, f"rows value by value, rank count, phase ({order})")
        # 1: every point is the standalone run with that --set.
        for v in ("1", "12"):
            for n in ("16", "64"):
                s = subprocess.run([pfsim, "sweep", "--platform", PLATFORM, "--workload", wl, "--ranks", n, "--set",
                                    "mds.threads.min=1", "--set", f"mds.threads.max={v}", "--csv", os.path.join(tmp, f"s{v}-{n}.csv"), "--quiet"],
                                   capture_output=True, text=True)
                alone = [x for x in csv.reader(open(os.path.join(tmp, f"s{v}-{n}.csv")))][1:] if s.returncode == 0 else []
                mine = [x[1:] for x in body if x[0] == v and x[1] == n]
                check(alone and mine == alone, f"threads.max={v}, {n} ranks: the rows of a standalone --set run")
        meta = json.load(open(table + ".json")) if r.returncode == 0 else {}
        pts = meta.get("points", [])
        check(meta.get("vary") == {"path": "mds.threads.max", "values": ["1", "12"]} and len(pts) == 4 and
              [p["platform"]["mds"]["threads"]["max"] for p in pts] == [1, 1, 12, 12] and "platform" not in meta,
              "the table's JSON: the values, and each point's platform with its value (no top-level platform)")
        ins = meta.get("inputs", {})
        check(ins.get("set") == ["mds.threads.min=1"] and ins.get("options", {}).get("--vary") == "mds.threads.max=1,12",
              f"its inputs: the sweep's own --set and --vary, not the first point's --set ({ins.get('set')}, "
              f"{ins.get('options')})")
        # A duration's column is its value in seconds, as the effective platform holds it (plots as a number).
        t2 = os.path.join(tmp, "t2.csv")
        r = subprocess.run([pfsim, "sweep", "--platform", PLATFORM, "--workload", wl, "--ranks", "16", "--vary",
                            "mds.journal.commit_interval=200us,5s", "--csv", t2, "--quiet"], capture_output=True, text=True)
        col = [x[0] for x in list(csv.reader(open(t2)))[1:]] if r.returncode == 0 else []
        check([float(x) for x in col[:1] + col[-1:]] == [0.0002, 5.0], f"a duration's column in seconds ({sorted(set(col))})")
        # 2: one thread serves one stat at a time.
        stat = {(x[0], x[1]): float(x[7]) for x in body if x[3] == "stat"}
        bound = 1 / 210e-6
        check(stat and all(stat[("1", n)] <= bound * (1 + 1e-9) for n in ("16", "64")) and stat[("12", "64")] > bound,
              f"one thread: stats at most 1 / 210 us = 4,762/s; 12 threads at 64 ranks above it ({stat})")
        # 3: bad values.
        base = [pfsim, "sweep", "--platform", PLATFORM, "--workload", wl, "--ranks", "16", "--csv",
                os.path.join(tmp, "bad.csv")]
        for vary, needle in (("mds.threads.max", "expected PATH=V1,V2"), ("mds.threads.max=4", "at least two"),
                             ("mds.threads.max=4,4", "given twice"), ("mds.threads.max=4,,8", "empty value"),
                             ("mds.threads.max=[1,2]", "not a JSON object or list"),
                             ("mds.threads.max=4,lots", "--vary mds.threads.max=4,lots, value lots"),
                             ("mds.journal.commit_interval=200us,0.0002s", "give the same platform")):
            b = subprocess.run(base + ["--vary", vary], capture_output=True, text=True)
            lines = b.stderr.strip().splitlines()
            check(b.returncode == 2 and len(lines) == 1 and needle in lines[0] and
                  not os.path.exists(os.path.join(tmp, "bad.csv")),
                  f"--vary {vary}: exit 2, one line naming '{needle}' ({b.returncode}: {b.stderr.strip()[-200:]})")
        b = subprocess.run(base + ["--set", "mds.threads.max=8", "--vary", "mds.threads.max=4,16"], capture_output=True,
                           text=True)
        check(b.returncode == 2 and "the same field" in b.stderr and len(b.stderr.strip().splitlines()) == 1,
              f"--set of the --vary field: refused in one line ({b.stderr.strip()[-160:]})")
        # md-workbench and replay sweeps take --vary too: the same table, each point the single run with that --set.
        mcsv = os.path.join(tmp, "m.csv")
        mdw = [pfsim, "mdworkbench", "--platform", PLATFORM, "-I", "2", "-P", "4", "--quiet"]
        b = subprocess.run(mdw + ["--ranks", "2,4", "--csv", mcsv, "--vary", "mds.cores=1,4"], capture_output=True,
                           text=True)
        mrows = list(csv.reader(open(mcsv)))[1:] if b.returncode == 0 else []
        one = subprocess.run(mdw + ["--ranks", "4", "--set", "mds.cores=1", "--out", os.path.join(tmp, "m1.json")],
                             capture_output=True, text=True)
        rate1 = {(p["name"], p["iteration"]): p["rate_items_per_s"]
                 for p in json.load(open(os.path.join(tmp, "m1.json")))["phases"]} if one.returncode == 0 else {}
        got1 = {(x[3], int(x[4])): float(x[7]) for x in mrows if x[0] == "1" and x[1] == "4"}
        check(b.returncode == 0 and {x[0] for x in mrows} == {"1", "4"} and got1 and
              all(abs(v - round(rate1[k], 3)) < 1e-6 for k, v in got1.items()),
              f"mdworkbench --vary mds.cores=1,4: rows for both values, 4 ranks with 1 core = the single --set run "
              f"({b.stderr.strip()[-160:]})")
        b = subprocess.run(mdw + ["--ranks", "4", "--vary", "mds.cores=1,4"], capture_output=True, text=True)
        check(b.returncode == 2 and "--vary is an option of a sweep" in b.stderr,
              f"--vary without --csv: refused ({b.stderr.strip()[-160:]})")
        # 4: warnings about a value name the --vary and the value.
        tiny = os.path.join(tmp, "tiny.json")
        with open(tiny, "w") as f:
            json.dump({"generator": "metabench", "ranks": 4, "ranks_per_node": 4, "seed": 1,
                       "metabench": {"files": 16, "dir_mode": "unique", "phases": ["create"]}}, f)
        vary = "mds.service.create=500,20us"
        want = f"pfsim: warning: --vary {vary}, value 500: a number without a unit is read in s (500 s)"
        for cmd in ([pfsim, "sweep", "--workload", tiny, "--ranks", "4"],
                    [pfsim, "ior", "--ranks", "2", "-t", "1m", "-b", "1m"]):
            b = subprocess.run(cmd + ["--platform", PLATFORM, "--csv", os.path.join(tmp, "w.csv"), "--quiet", "--vary",
                                      vary], capture_output=True, text=True)
            warned = [x for x in b.stderr.splitlines() if "warning" in x]
            check(b.returncode == 0 and len(warned) == 1 and warned[0].startswith(want) and "--set" not in b.stderr,
                  f"pfsim {cmd[1]} --vary {vary}: one warning, naming the --vary and the value 500, not a --set "
                  f"({b.returncode}: {warned})")
        b = subprocess.run([pfsim, "sweep", "--workload", tiny, "--ranks", "4", "--platform", PLATFORM, "--csv",
                            os.path.join(tmp, "rpn.csv"), "--quiet", "--vary", "clients.ranks_per_node=1,2"],
                           capture_output=True, text=True)
        check(b.returncode == 0 and f"pfsim: warning: --vary clients.ranks_per_node=1,2 changes nothing: the workload "
              f"file {tiny} gives ranks_per_node 4, which applies at every point" in b.stderr,
              f"--vary of clients.ranks_per_node under the workload's ranks_per_node: said to change nothing "
              f"({b.stderr.strip()[-200:]})")
        # The platform file's own warning (a 2 s stat demand, a bare number) is said once, not once more per value.
        warned_platform = json.load(open(PLATFORM))
        warned_platform["mds"]["service"]["stat"] = 2
        wp = os.path.join(tmp, "warned-platform.json")
        with open(wp, "w") as f:
            json.dump(warned_platform, f)
        for cmd in ([pfsim, "sweep", "--workload", tiny, "--ranks", "4"],
                    [pfsim, "ior", "--ranks", "2", "-t", "1m", "-b", "1m", "-e"]):
            b = subprocess.run(cmd + ["--platform", wp, "--csv", os.path.join(tmp, "wp.csv"), "--quiet", "--vary",
                                      "oss.count=1,2,4"], capture_output=True, text=True)
            n = b.stderr.count("mds.service.stat is 2 s of CPU per request")
            check(b.returncode == 0 and n == 1, f"pfsim {cmd[1]} --vary oss.count=1,2,4: the platform file's warning "
                                                f"once, not once per value (said {n} times)")
        # 5: a point's warnings begin with its name (helper-121: the per-directory extrapolation warning of a sweep did
        # not say which rank count it was about). On the Spartan platform (fitted up to 80 directories per MDS) mdtest
        # -u warns above 160 per MDS: 640 ranks on 2 MDS, not 100 ranks nor 640 on 4; md-workbench -D 4 at 100 ranks
        # (200 data sets per MDS), not 10.
        spartan = os.path.join(ROOT, "platforms", "spartan-cephfs-fitted.json")
        mdw_wl = os.path.join(tmp, "mdtest-u.json")
        with open(mdw_wl, "w") as f:
            json.dump({"generator": "mdtest", "ranks": 16, "seed": 1, "mdtest": {"n": 5, "u": True, "F": True}}, f)
        runs = {"sweep": [pfsim, "sweep", "--platform", spartan, "--workload", mdw_wl, "--ranks", "100,640", "--vary",
                          "mds.count=2,4", "--csv", os.path.join(tmp, "w.csv"), "--quiet"],
                "mdworkbench": [pfsim, "mdworkbench", "--platform", spartan, "-I", "2", "-P", "4", "-D", "4", "--ranks",
                                "10,100", "--csv", os.path.join(tmp, "mw.csv"), "--quiet"],
                "replay --check": [pfsim, "replay", os.path.join(ROOT, "traces", "md-workbench-L"), "--platform",
                                   spartan, "--ranks", "10,1000", "--csv", os.path.join(tmp, "r.csv"), "--check"]}
        want = {"sweep": "pfsim: warning: 640 ranks with mds.count=2: mds.mechanisms.per_directory: ",
                "mdworkbench": "pfsim: warning: 100 ranks: mds.mechanisms.per_directory: ",
                "replay --check": "pfsim: warning: 1000 ranks: mds.mechanisms.per_directory: "}
        for name, cmd in runs.items():
            b = subprocess.run(cmd, capture_output=True, text=True)
            warned = [x for x in b.stderr.splitlines() if "per_directory" in x]
            check(b.returncode == 0 and len(warned) == 1 and warned[0].startswith(want[name]),
                  f"pfsim {name} sweep: the one point past the per-directory fit warns with its name, "
                  f"'{want[name]}...' (got {warned or b.stderr.strip()[-200:]})")
    check.finish("sweep_vary")


if __name__ == "__main__":
    main()
