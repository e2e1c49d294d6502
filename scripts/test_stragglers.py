#!/usr/bin/env python3
"""ctest "stragglers": the straggler fit and its validation script.

1. scripts/fit_stragglers.py, run on a copy of platforms/titan-atlas2.json, writes the oss.stragglers block the
   platform holds (the fitted platform is reproducible from the named data), and its report's checks hold: slow
   periods under 2 minutes with probability 0.96, more than 20% of 126 OSTs slow in 0.5% of the runs, the lag
   score's 0.5% quantile 0.4.
2. scripts/validate_titan_stragglers.py --reps 6 (a short experiment: 6 runs per burst size) exits 0 and writes
   9 points with numbers, the plot, and the single-client point passes (one node's processes share its per-OST RPC
   window: no gain).
usage: test_stragglers.py PATH/TO/pfsim
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import Checks, pfsim_arg  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
check = Checks()


def main():
    pfsim = os.path.abspath(pfsim_arg(__doc__))
    tmp = tempfile.mkdtemp(prefix="test-stragglers-")
    try:
        plat = os.path.join(tmp, "titan.json")
        shutil.copy(os.path.join(ROOT, "platforms", "titan-atlas2.json"), plat)
        report = os.path.join(tmp, "fit.json")
        r = subprocess.run([sys.executable, os.path.join(HERE, "fit_stragglers.py"), "--pfsim", pfsim, "--platform", plat,
                            "--report", report], capture_output=True, text=True, timeout=120)
        check(r.returncode == 0, f"fit_stragglers.py runs ({r.stderr.strip()[-300:]})")
        if r.returncode == 0:
            fitted = json.load(open(plat))["oss"]["stragglers"]
            kept = json.load(open(os.path.join(ROOT, "platforms", "titan-atlas2.json")))["oss"]["stragglers"]
            check(fitted == kept, f"the fit gives the platform's oss.stragglers ({fitted} vs {kept})")
            c = json.load(open(report))["checks"]
            check(abs(c["P(slow period < 120 s)"] - 0.96) < 1e-9, "P(slow period < 120 s) = 0.96")
            check(abs(c["P(more than 20% of the OSTs slow in a run)"] - 0.005) < 1e-6,
                  "more than 20% of the OSTs slow in 0.5% of the runs")
            check(abs(c["lag score quantile 0.005"] - 0.4) < 1e-3, "the lag score's 0.5% quantile is 0.4")
        js, png = os.path.join(tmp, "points.json"), os.path.join(tmp, "plot.png")
        r = subprocess.run([sys.executable, os.path.join(HERE, "validate_titan_stragglers.py"), "--pfsim", pfsim,
                            "--reps", "6", "--json", js, "--plot", png], capture_output=True, text=True, timeout=300)
        check(r.returncode == 0, f"validate_titan_stragglers.py --reps 6 runs ({r.stderr.strip()[-300:]})")
        if r.returncode == 0:
            pts = json.load(open(js))
            check(len(pts) == 9 and all(isinstance(p["measured"], (int, float)) for p in pts),
                  f"9 points with measured values ({len(pts)})")
            single = [p for p in pts if p["series"].startswith("single client")]
            check(len(single) == 1 and single[0]["pass"] and 0 <= single[0]["simulated"] <= 0.05,
                  f"one client: more processes gain at most 5% ({single[0]['simulated'] if single else None})")
            check(os.path.getsize(png) > 0, "the plot is written")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    check.finish("stragglers")


if __name__ == "__main__":
    main()
