#!/usr/bin/env python3
"""Test of scripts/validate on tiny cases in a temporary folder (--cases-dir): usage test_validate.py PATH/TO/pfsim

1. A tiny sweep case (metabench, 64 files, 2 and 4 ranks, a variant, two measurements at 4 ranks) runs: exit 0, one
   point per measured row and metric, the plot and the simulated CSVs written, --json ending in a newline; run from
   another folder with a relative --out, the plot path it prints is that folder's.
2. Each malformed case (case.json structure, an unknown field of the case, a series or a variant, a script that is a
   string or not a program, a script whose --check refuses its own measured data, a metrics phase the
   workload does not run, a workload file or a variant's --set that pfsim refuses, a variant without a name, a
   measured row with extra fields, a column the metrics name missing, a row given twice, a nodes
   column that disagrees with the ranks per node) is refused before anything runs: exit status 2, one error line
   naming the file and the field or line, no --json and no --out folder created. Each malformed case is run after a
   good sweep case, which must not run either.
3. validate_nersc_lmt.py, validate_spartan.py and validate_titan_stragglers.py refuse --plot p.xyz and p.ps before
   their runs (one line, exit 2, nothing written); every validation script's --check exits 0 and writes nothing.
4. validate_mistral.py's measured rates (0, a string, missing) are one error line naming the field.
4b. The holdout's measured runs (ranks, ranks per node, rates) likewise; --cases holdout --check simulates nothing.
4c. The holdout's rates-vs-ranks plot is drawn (every run), the same PNG bytes twice.
5. A --cases-dir that does not exist or holds no case, and an --out whose parent is missing, are one error line, exit
   status 2, nothing created.
Never the long lu1695 sweeps. Takes a few seconds."""
import copy
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cli_common import Checks, pfsim_arg  # noqa: E402

VALIDATE = os.path.join(HERE, "validate")
WORKLOAD = {"generator": "metabench", "ranks": 4, "ranks_per_node": 2, "seed": 1,
            "metabench": {"files": 64, "dir_mode": "unique", "phases": ["create", "stat", "unlink"]}}
MEASURED = ("# tiny measured table (made up): two measurements at 4 ranks\n"
            "dir_mode,ranks,nodes,creates,stats,unlinks\n"
            "unique,2,1,1000,2000,900\n"
            "unique,4,2,1100,2100,950\n"
            "unique,4,2,1200,2200,990\n")
CASE = {"name": "tiny", "platform": "platforms/cray-xe6-lustre2.1-fitted.json", "measured": "measured.csv",
        "series": [{"name": "unique", "workload": "workload.json", "dir_mode": "unique", "tolerance": 0.5}],
        "metrics": {"create": "creates", "stat": "stats", "unlink": "unlinks"},
        "variants": [{"name": "smp", "label": "SMP affinity", "set": ["mds.mechanisms.partitions.enabled=true"]}]}


def write_case(root, name, case, measured=MEASURED, workload=WORKLOAD):
    d = os.path.join(root, name)
    os.makedirs(d)
    with open(os.path.join(d, "case.json"), "w") as f:
        f.write(case if isinstance(case, str) else json.dumps(case))
    with open(os.path.join(d, "measured.csv"), "w") as f:
        f.write(measured)
    with open(os.path.join(d, "workload.json"), "w") as f:
        json.dump(workload, f)


def run(pfsim, cases_dir, out, js, names=(), extra=(), cwd=None):
    return subprocess.run([sys.executable, VALIDATE, *names, "--cases-dir", cases_dir, "--out", out, "--json", js,
                           "--build", os.path.dirname(pfsim), "--jobs", "2", *extra],
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120, cwd=cwd)


def bad_cases(tmp):
    """(name, case, measured CSV, needles the error line must hold[, workload])."""
    def case_with(**kw):
        c = copy.deepcopy(CASE)
        for k, v in kw.items():
            if v is None:
                c.pop(k)
            else:
                c[k] = v
        return c
    no_name = copy.deepcopy(CASE)
    del no_name["variants"][0]["name"]
    misspelt = case_with(variants=None)
    misspelt["varaints"] = CASE["variants"]
    script_str = {"name": "s", "script": "python3 scripts/validate_nersc_lmt.py"}
    # A script case whose own measured data is bad: its --check says so, and validate refuses before any case runs.
    bad_script = os.path.join(tmp, "validate_bad_measured.py")
    with open(bad_script, "w") as f:
        f.write("import sys\n"
                "if '--check' in sys.argv:\n"
                "    sys.exit('validate_bad: error: measured.json: runs.50.rate: expected a number > 0, got 0')\n"
                "sys.exit('validate_bad: ran its case although its measured data is bad')\n")
    return [
        ("series-not-object", case_with(series=[1, CASE["series"][0]]), MEASURED, ["case.json", "series[0]", "got 1"]),
        ("series-empty", case_with(series=[]), MEASURED, ["case.json", "series", "non-empty list"]),
        ("series-no-tolerance", case_with(series=[{"name": "u", "workload": "workload.json", "dir_mode": "unique"}]),
         MEASURED, ["case.json", "series[0]", "'tolerance'"]),
        ("no-metrics", case_with(metrics=None), MEASURED, ["case.json", "'metrics'"]),
        ("not-an-object", "[1, 2]", MEASURED, ["case.json", "expected a JSON object"]),
        ("bad-json", "{\"series\": [", MEASURED, ["case.json", "not valid JSON"]),
        ("missing-workload", case_with(series=[dict(CASE["series"][0], workload="nope.json")]), MEASURED,
         ["case.json", "series[0]: workload", "nope.json"]),
        ("script-string", script_str, MEASURED, ["case.json", "script", "expected a list of strings"]),
        ("script-no-program", {"name": "s", "script": ["nonexist_binary_xyz"]}, MEASURED,
         ["case.json", "script", "nonexist_binary_xyz", "not found"]),
        ("script-no-file", {"name": "s", "script": ["python3", "scripts/no_such_validation.py"]}, MEASURED,
         ["case.json", "scripts/no_such_validation.py"]),
        ("script-check", {"name": "s", "script": ["python3", bad_script]}, MEASURED,
         ["case.json", "script", "--check failed (exit status 1)", "runs.50.rate", "expected a number > 0"]),
        ("metrics-phase", case_with(metrics={"create": "creates", "stats": "stats"}), MEASURED,
         ["case.json", "metrics", "'stats'", "workload.json"]),
        ("variant-no-name", no_name, MEASURED, ["case.json", "variants[0]", "'name'"]),
        # unknown fields (a misspelt "varaints" ran no variant), a workload or --set pfsim refuses (found when the
        # case's turn came, after the earlier cases ran and wrote), a column the metrics name missing
        ("unknown-field", misspelt, MEASURED, ["case.json", "unknown field \"varaints\"", "variants"]),
        ("unknown-series-field", case_with(series=[dict(CASE["series"][0], tolerance_kind="absolute")]), MEASURED,
         ["case.json", "series[0]", "unknown field \"tolerance_kind\"", "tolerance"]),
        ("unknown-variant-field", case_with(variants=[{"name": "v", "sett": ["mds.threads.max=8"]}]), MEASURED,
         ["case.json", "variants[0]", "unknown field \"sett\"", "set"]),
        ("workload-refused", CASE, MEASURED, ["case.json", "series[0]: workload", "pfsim refuses it",
                                              "workload.json", "metabench.files"],
         dict(WORKLOAD, metabench=dict(WORKLOAD["metabench"], files=-1))),
        ("variant-set-refused", case_with(variants=[{"name": "v", "set": ["mds.no_such=1"]}]), MEASURED,
         ["case.json", "variants[0]: set", "pfsim refuses it", "mds.no_such"]),
        ("missing-column", CASE, "\n".join(",".join(l.split(",")[:5]) for l in MEASURED.splitlines()) + "\n",
         ["measured.csv", "no column 'unlinks'"]),
        ("variant-set-string", case_with(variants=[{"name": "v", "set": "a=b"}]), MEASURED,
         ["case.json", "variants[0]: set"]),
        ("extra-field", CASE, MEASURED.replace("unique,4,2,1100,2100,950", "unique,4,2,1100,2100,950,7"),
         ["measured.csv", "line 4", "6 fields", "got 7"]),
        ("missing-field", CASE, MEASURED.replace("unique,4,2,1100,2100,950", "unique,4,2,1100,2100"),
         ["measured.csv", "line 4", "got 5"]),
        ("duplicate-row", CASE, MEASURED + "unique,4,2,1100,2100,950\n",
         ["measured.csv", "line 6", "repeats line 4"]),
        ("nodes", CASE, MEASURED.replace("unique,2,1,", "unique,2,2,"), ["measured.csv", "line 3", "nodes", "expected 1"]),
        ("bad-value", CASE, MEASURED.replace("2100", "abc"), ["measured.csv", "line 4", "stats"]),
    ]


def main():
    pfsim = os.path.abspath(pfsim_arg(__doc__))
    check = Checks()
    tmp = tempfile.mkdtemp(prefix="test-validate-")
    try:
        # 1. A good tiny case runs.
        good = os.path.join(tmp, "good")
        write_case(good, "tiny", CASE)
        out, js = os.path.join(tmp, "out"), os.path.join(tmp, "points.json")
        r = run(pfsim, good, "out", js, cwd=tmp)  # a relative --out, from another folder than the repository
        check(r.returncode == 0, "tiny sweep case runs" + (f" (exit {r.returncode}: {r.stderr.strip()[-300:]})"
                                                          if r.returncode else ""))
        shown = [l.split("plot: ", 1)[1] for l in r.stdout.splitlines() if l.startswith("[tiny] plot: ")]
        check(shown == [os.path.join("out", "tiny", "tiny.png")] and os.path.isfile(os.path.join(tmp, shown[0])),
              f"the plot path printed resolves from the caller's folder: {shown}")
        if r.returncode == 0:
            text = open(js).read()
            pts = json.loads(text)
            check(text.endswith("]\n"), "--json ends in a newline (as the validation scripts' --json)")
            check(len(pts) == 9 and all(isinstance(p["pass"], bool) for p in pts),
                  f"9 points (3 rows x 3 metrics, two at 4 ranks), got {len(pts)}")
            written = sorted(os.listdir(os.path.join(out, "tiny")))
            check({"tiny.png", "sim-unique.csv", "sim-unique-smp.csv"} <= set(written), f"outputs written: {written}")
            check(not [n for n in os.listdir(out) if n.startswith(".")], "no staging folder left")

        # 2. Each malformed case, after a good one ("a" sorts first), is refused before anything runs.
        for name, case, measured, needles, *workload in bad_cases(tmp):
            cases = os.path.join(tmp, "cases-" + name)
            write_case(cases, "a-good", CASE)
            write_case(cases, "bad", case, measured, *workload)
            out, js = os.path.join(tmp, "out-" + name), os.path.join(tmp, name + ".json")
            r = run(pfsim, cases, out, js)
            lines = r.stderr.strip().splitlines()
            ok = (r.returncode == 2 and len(lines) == 1 and all(n in lines[0] for n in needles) and
                  "Traceback" not in r.stderr and not os.path.exists(js) and not os.path.exists(out) and
                  "sweeping" not in r.stdout)
            check(ok, f"{name}: exit {r.returncode}, {r.stderr.strip()[-400:]!r}" +
                  ("" if ok else f" (expected {needles}, stdout {r.stdout[-200:]!r}, out made: {os.path.exists(out)})"))

        # 3. The validation scripts refuse a --plot they would not write (unknown format, PostScript's dated bytes)
        #    before their runs: one line, exit 2, nothing written.
        for script in ("validate_nersc_lmt.py", "validate_spartan.py", "validate_titan_stragglers.py"):
            for name in ("p.xyz", "p.ps"):
                js = os.path.join(tmp, "plot.json")
                r = subprocess.run([sys.executable, os.path.join(HERE, script), "--pfsim", pfsim, "--json", js,
                                    "--plot", os.path.join(tmp, name)], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, timeout=60)
                lines = r.stderr.strip().splitlines()
                check(r.returncode == 2 and len(lines) == 1 and f"--plot {os.path.join(tmp, name)}" in lines[0] and
                      ".png" in lines[0] and not os.path.exists(js) and not os.path.exists(os.path.join(tmp, name)),
                      f"{script} --plot {name}: exit {r.returncode}, {r.stderr.strip()!r}")

        # 3b. Every validation script's --check (what validate runs first) reads its inputs, simulates nothing and
        #     writes nothing: exit 0 within seconds, no --json.
        for script in ("validate_mistral.py", "validate_nersc_lmt.py", "validate_spartan.py",
                       "validate_titan_stragglers.py"):
            js = os.path.join(tmp, "check.json")
            r = subprocess.run([sys.executable, os.path.join(HERE, script), "--pfsim", pfsim, "--json", js, "--check"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
            check(r.returncode == 0 and not os.path.exists(js) and "Traceback" not in r.stderr,
                  f"{script} --check: exit {r.returncode}, {r.stderr.strip()[-300:]!r}")

        # 4. validate_mistral.py's measured values (copies of measured.json): a rate it divides by that is 0, a
        #    string or missing is one line naming the field, exit 2 (0 was a NaN error, a string a traceback).
        # 4b. The holdout's measured runs (validation/mistral-holdout/measured.json): each run's ranks and ranks per
        #     node are whole numbers > 0 (they size the simulations), its rates as above; --cases holdout --check reads
        #     them without simulating.
        for case, call, bad in (
                ("mistral", "v.load_measured(sys.argv[2])",
                 ((("runs", "100", "mdtest", "File stat"), 0),
                  (("runs", "50", "mdreal", "benchmark", 1, "obj_per_s"), "abc"),
                  (("runs", "50", "mdreal", "cleanup", "obj_per_s"), None))),
                ("mistral-holdout", "v.load_measured(sys.argv[2], runs=None)",
                 ((("runs", "250", "ranks_per_node"), 0), (("runs", "2000", "ranks"), 2.5),
                  (("runs", "1000b", "mdreal", "precreate", "obj_per_s"), None)))):
            good = json.load(open(os.path.join(os.path.dirname(HERE), "validation", case, "measured.json")))
            for keys, value in bad:
                m = copy.deepcopy(good)
                d = m
                for k in keys[:-1]:
                    d = d[k]
                if value is None:
                    del d[keys[-1]]
                else:
                    d[keys[-1]] = value
                path = os.path.join(tmp, f"{case}-measured.json")
                with open(path, "w") as f:
                    json.dump(m, f)
                r = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                                    "import validate_mistral as v; " + call, HERE, path],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
                field = "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in keys).lstrip(".")
                lines = r.stderr.strip().splitlines()
                check(r.returncode == 2 and len(lines) == 1 and f"{path}: {field}:" in lines[0],
                      f"{case} measured {field} = {value!r}: exit {r.returncode}, {r.stderr.strip()!r}")
        js = os.path.join(tmp, "check.json")
        r = subprocess.run([sys.executable, os.path.join(HERE, "validate_mistral.py"), "--pfsim", pfsim, "--json", js,
                            "--cases", "holdout", "--check"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=60)
        check(r.returncode == 0 and not os.path.exists(js) and "Traceback" not in r.stderr,
              f"validate_mistral.py --cases holdout --check: exit {r.returncode}, {r.stderr.strip()[-300:]!r}")

        # 4c. The holdout's plot (otherwise drawn only at the end of a 40-minute run): every measured run and a
        #     simulated point per run, two identical calls give the same PNG bytes.
        r = subprocess.run([sys.executable, "-c", """
import sys
sys.path.insert(0, sys.argv[1])
import validate_mistral as v
m = v.load_measured(v.os.path.join(v.ROOT, "validation", "mistral", "measured.json"))
m["holdout"] = v.load_measured(v.HOLDOUT, runs=None)
pts = []
for key, run in m["holdout"].items():
    for name, value in v.measured_rates(run).items():
        pts.append(v.point("mistral-holdout-" + key, f"rate {name} (obj/s), fit on 50", run["ranks"], value,
                           1.5 * value, 0.15))
    for name in ("File creation", "File stat", "File read", "File removal"):
        pts.append(v.point("mistral-holdout-" + key, f"mdtest {name} (ops/s), fit on 50", run["ranks"],
                           run["mdtest"][name], 0.5 * run["mdtest"][name], 0.2))
for out in sys.argv[2:]:
    v.plot_scaling(pts, m, out)
""", HERE, os.path.join(tmp, "s1.png"), os.path.join(tmp, "s2.png")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
        pngs = [os.path.join(tmp, f"s{i}.png") for i in (1, 2)]
        check(r.returncode == 0 and all(os.path.getsize(f) > 20000 for f in pngs if os.path.exists(f)) and
              all(os.path.exists(f) for f in pngs) and open(pngs[0], "rb").read() == open(pngs[1], "rb").read(),
              f"holdout plot: exit {r.returncode}, {r.stderr.strip()[-300:]!r}")

        # 5. --cases-dir that is no folder, or holds no case ("0 of 0 points", exit 0 even with --strict); an --out
        #    whose parent is missing (its parents were created, even under /).
        empty = os.path.join(tmp, "empty")
        os.mkdir(empty)
        for what, cases, names, extra, said in (
                ("--cases-dir missing", os.path.join(tmp, "none"), ("tiny",), (),
                 f"--cases-dir {os.path.join(tmp, 'none')}: no such directory"),
                ("--cases-dir empty", empty, (), ("--strict",), f"--cases-dir {empty}: no case in it")):
            out = os.path.join(tmp, "out-none")
            r = run(pfsim, cases, out, os.path.join(tmp, "none.json"), names, extra)
            check(r.returncode == 2 and said in r.stderr and len(r.stderr.strip().splitlines()) == 1 and
                  not os.path.exists(out), f"{what}: exit {r.returncode}, {r.stderr.strip()!r}")
        out = os.path.join(tmp, "no-parent", "b", "c")
        r = run(pfsim, os.path.join(tmp, "good"), out, os.path.join(tmp, "none.json"))
        check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and
              f"its parent directory does not exist: {os.path.dirname(out)}" in r.stderr and
              not os.path.exists(os.path.join(tmp, "no-parent")),
              f"--out with a missing parent: exit {r.returncode}, {r.stderr.strip()!r}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    check.finish("validate")


if __name__ == "__main__":
    main()
