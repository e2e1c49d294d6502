#!/usr/bin/env python3
"""Test of scripts/validate_nersc_lmt.py: usage test_validate_nersc_lmt.py PATH/TO/pfsim

Runs the validation against the given binary into a temporary folder and checks that it exits 0, that its JSON
holds at least 4 points per variant (no fsync, fsync) with numeric measured and simulated values and a boolean
pass, and that the plot was written; then that a missing binary is one error line with exit status 2.
Nothing is written outside the temporary folder. Takes about a second."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import pfsim_arg  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "validate_nersc_lmt.py")


def main():
    pfsim = os.path.abspath(pfsim_arg(__doc__))
    tmp = tempfile.mkdtemp(prefix="test-validate-nersc-lmt-")
    failures = []
    try:
        js, png, work = (os.path.join(tmp, n) for n in ("points.json", "plot.png", "work"))
        r = subprocess.run([sys.executable, SCRIPT, "--pfsim", pfsim, "--json", js, "--plot", png, "--work", work],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
        if r.returncode != 0:
            failures.append(f"exit status {r.returncode}: {r.stderr.strip()}")
        else:
            pts = json.load(open(js))
            by = {}
            for p in pts:
                by.setdefault(p.get("variant"), []).append(p)
                for k in ("measured", "simulated"):
                    if not isinstance(p.get(k), (int, float)) or isinstance(p.get(k), bool):
                        failures.append(f"point {p.get('series')}: {k} is not a number: {p.get(k)!r}")
                for k in ("name", "error", "tolerance", "pass"):
                    if k not in p:
                        failures.append(f"point {p.get('series')}: no '{k}'")
                if not isinstance(p.get("pass"), bool):
                    failures.append(f"point {p.get('series')}: pass is not a boolean")
            for v in ("no fsync", "fsync (-e)"):
                if len(by.get(v, [])) < 4:
                    failures.append(f"variant {v}: {len(by.get(v, []))} points, expected at least 4")
            if not (os.path.isfile(png) and os.path.getsize(png) > 0):
                failures.append("no plot written")
            if "points within tolerance" not in r.stdout:
                failures.append("no 'N of M points within tolerance' line")
            leftovers = [n for n in os.listdir(tmp) if n.startswith(".")]
            if leftovers:
                failures.append(f"temporary files left: {leftovers}")
        # A missing binary: one line, exit status 2, nothing written.
        js2 = os.path.join(tmp, "none.json")
        r = subprocess.run([sys.executable, SCRIPT, "--pfsim", os.path.join(tmp, "no-such-pfsim"), "--json", js2,
                            "--plot", os.path.join(tmp, "none.png")],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=60)
        if r.returncode != 2 or len(r.stderr.strip().splitlines()) != 1 or os.path.exists(js2):
            failures.append(f"missing binary: exit {r.returncode}, stderr {r.stderr!r}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print(f"test_validate_nersc_lmt: FAIL: {f}", file=sys.stderr)
    if not failures:
        print("test_validate_nersc_lmt: ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
