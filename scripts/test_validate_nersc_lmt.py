#!/usr/bin/env python3
"""Test of scripts/validate_nersc_lmt.py: usage test_validate_nersc_lmt.py PATH/TO/pfsim

Runs the validation against the given binary into a temporary folder and checks that it exits 0, that its JSON
holds at least 4 points per variant (no fsync, fsync) with numeric measured and simulated values and a boolean
pass, and that the plot was written; then that a missing binary, a --plot of a format other than .png, .pdf and
.svg (.xyz, .eps: PostScript writes its date) and a bad measured value (0 where divided by, a string, a field
missing: measured.json copies in the temporary folder) are each one error line naming the option or the field, with
exit status 2 and nothing written. Nothing is written outside the temporary folder. Takes about a second."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import pfsim_arg  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "validate_nersc_lmt.py")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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
        # A plot format the scripts do not write (or PostScript, whose bytes hold its date): refused before the runs.
        for name in ("plot.xyz", "plot.eps", "plot"):
            r = subprocess.run([sys.executable, SCRIPT, "--pfsim", pfsim, "--json", js2, "--plot",
                                os.path.join(tmp, name)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               timeout=60)
            if (r.returncode != 2 or len(r.stderr.strip().splitlines()) != 1 or "--plot" not in r.stderr or
                    ".png" not in r.stderr or os.path.exists(js2) or os.path.exists(os.path.join(tmp, name))):
                failures.append(f"--plot {name}: exit {r.returncode}, stderr {r.stderr!r}")
        # Bad measured values, in a copy of measured.json: one line naming the field, exit 2.
        good = json.load(open(os.path.join(ROOT, "validation", "nersc-lmt", "measured.json")))
        for change, field in ((("ior_write_MiB_per_s", "value", 0), "ior_write_MiB_per_s.value"),
                              (("ior_write_MiB_per_s", "value", "abc"), "ior_write_MiB_per_s.value"),
                              (("lmt_interior_sample_MiB_per_s", "value", -1), "lmt_interior_sample_MiB_per_s.value"),
                              (("rpc_histogram", "osts", 1.5), "rpc_histogram.osts"),
                              (("lmt_sample_interval_s", "value", None), "lmt_sample_interval_s.value")):
            m = json.loads(json.dumps(good))
            if change[2] is None:
                del m[change[0]][change[1]]
            else:
                m[change[0]][change[1]] = change[2]
            copy = os.path.join(tmp, "measured.json")
            with open(copy, "w") as f:
                json.dump(m, f)
            r = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, sys.argv[1]); "
                                "import validate_nersc_lmt as v; v.MEASURED = sys.argv[2]; v.load_measured()",
                                os.path.dirname(SCRIPT), copy], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=60)
            if r.returncode != 2 or len(r.stderr.strip().splitlines()) != 1 or field not in r.stderr:
                failures.append(f"measured {field} = {change[2]!r}: exit {r.returncode}, stderr {r.stderr!r}")
            else:
                print(f"ok   measured {field} = {change[2]!r}: {r.stderr.strip()}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print(f"test_validate_nersc_lmt: FAIL: {f}", file=sys.stderr)
    if not failures:
        print("test_validate_nersc_lmt: ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
