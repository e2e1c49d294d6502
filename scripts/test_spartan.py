#!/usr/bin/env python3
"""Tests of the Spartan CephFS case (platforms/spartan-cephfs-fitted.json, scripts/validate_spartan.py,
scripts/calibrate_spartan.py). usage: test_spartan.py PATH/TO/pfsim

1. Closed forms on the fitted platform, with the platform's own values (read from the JSON, not copied here):
   a. 2 tasks on 2 nodes, one directory each, one per MDS: no queue and no other request inside an MDS, so an
      mdtest-easy create (open(O_CREAT) + close) takes c + s + two round trips and the rate is 2 / that.
   b. 160 tasks, 16 per node, 80 per MDS: the MDS's one core is the bottleneck. Each create costs
      s + a (N - 1) of CPU (per_directory: a per other directory with an update inside the MDS; one task per
      directory), N = 80 - X Z requests are inside (Little's law on the tasks outside: client time and round trips
      Z), and X = 1 / (s + a (N - 1)) per MDS. Solved by fixed-point iteration.
   c. mdtest hard, 160 tasks in one shared directory on one MDS: no other directory, so X = 1 / s.
2. validate_spartan.py end to end at a small scale: every measured rate compared (mdtest on the metadata fit; IOR
   and mdtest-hard-read on each pool's platform), the fitted and predicted roles (the data side's fitted points, by
   scripts/fit_spartan_data.py, within 2% of measured), the points JSON and the plot written; a platform that is not JSON is an error (exit 2)
   that names the file, and nothing is written.
   The three Spartan platforms' "oss" source is the text scripts/fit_spartan_data.py writes for their data values, and
   no source calls the data phases not validated.
3. calibrate_spartan.py refuses a wrong --x0 (exit 2) before any simulation.
"""
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import Checks, pfsim_arg  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FITTED = os.path.join(ROOT, "platforms", "spartan-cephfs-fitted.json")


def us(v):
    v = str(v)
    assert v.endswith("us"), v
    return float(v[:-2]) * 1e-6


def mdtest_rate(pfsim, ranks, per_node, files, tmp):
    out = os.path.join(tmp, f"r{ranks}.json")
    subprocess.run([pfsim, "mdtest", "--platform", FITTED, "--ranks", str(ranks), "--ranks-per-node", str(per_node),
                    "-n", str(files), "-u", "-F", "--quiet", "--out", out], check=True)
    with open(out) as f:
        res = json.load(f)
    return {p["name"]: p["rate_items_per_s"] for p in res["phases"]}


def main():
    pfsim = pfsim_arg(__doc__)
    check = Checks()
    with open(FITTED) as f:
        p = json.load(f)
    c = us(p["clients"]["op_overhead"]["create"])
    s = us(p["mds"]["service"]["create"])
    mech = p["mds"].get("mechanisms", {})
    on = [k for k, v in mech.items() if isinstance(v, dict) and v.get("enabled")]
    check(on == ["per_directory"], f"the fitted platform's one mechanism is per_directory (got {on}; the closed "
          "forms below assume it)")
    a = us(mech["per_directory"]["cost_per_directory"]["create"])
    one_way = us(p["network"]["client_link"]["latency"]) + us(p["network"]["server_link"]["latency"])
    rtt = 2 * one_way
    with tempfile.TemporaryDirectory() as tmp:
        # 1a: latency-bound.
        r = mdtest_rate(pfsim, 2, 1, 2000, tmp)["File creation"]
        expect = 2 / (c + s + 2 * rtt)
        check(abs(r / expect - 1) < 0.01, f"2 tasks: {r:.1f} creates/s = 2 / (c + s + 2 RTT) = {expect:.1f} within 1%")
        # 1b: MDS-bound with contention.
        n, z = 80, c + 2 * rtt
        x = 1 / s
        for _ in range(200):
            inside = max(1.0, n - x * z)
            x = 0.5 * x + 0.5 / (s + a * (inside - 1))
        r = mdtest_rate(pfsim, 160, 16, 150, tmp)["File creation"]
        check(abs(r / (2 * x) - 1) < 0.02, f"160 tasks: {r:.0f} creates/s = 2 x {x:.0f} (one core per MDS, "
              f"{inside:.1f} requests in as many directories inside, {a * 1e6:.3g} us each) within 2%")
        # 1c: mdtest hard, 160 tasks in one shared directory: one MDS, one directory, so no per-directory cost;
        # the 3901-byte write goes into the write-back cache: X = 1 / s.
        out = os.path.join(tmp, "hard.json")
        subprocess.run([pfsim, "mdtest", "--platform", FITTED, "--ranks", "160", "--ranks-per-node", "16", "-n", "60",
                        "-F", "-w", "3901", "-e", "3901", "--quiet", "--out", out], check=True)
        with open(out) as f:
            r = {q["name"]: q["rate_items_per_s"] for q in json.load(f)["phases"]}["File creation"]
        check(abs(r * s - 1) < 0.02, f"160 tasks in one directory: {r:.0f} creates/s = 1 / s = {1 / s:.0f} within 2%")

        # 2: the validation script end to end, small.
        pts = os.path.join(tmp, "points.json")
        png = os.path.join(tmp, "plot.png")
        v = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "validate_spartan.py"), "--pfsim", pfsim,
                            "--scale", "1", "--json", pts, "--plot", png], capture_output=True, text=True)
        check(v.returncode == 0, f"validate_spartan.py exits 0 (got {v.returncode}: {v.stderr.strip()[-200:]})")
        points = json.load(open(pts)) if os.path.exists(pts) else []
        check(len(points) == 70, f"70 points: mdtest 6 phases x 6 rows minus the n/a 2n1t NL-SAS hard delete, IOR 4 x 6, "
              f"mdtest-hard-read 6 rows minus the n/a 2n1t NL-SAS, find 6 rows (got {len(points)})")
        check(sum(q["role"] == "fitted" for q in points) == 23, "23 fitted points (NL-SAS easy write/stat/delete, "
              "per pool ior-hard write and read and ior-easy write at 2n1t, ior-easy write and read at 10n16t, and "
              "find at 2n1t and 10n16t)")
        # find: fit_spartan_find.py fits the time per listed entry to the geometric mean of the four rows at 2n1t and
        # 10n16t (to 0.5%); the 4n8t rows are predictions.
        found = [q for q in points if q["metric"] == "find"]
        fitted_find = [q for q in found if q["config"] in ("2n1t", "10n16t")]
        g = math.exp(sum(math.log(q["simulated"] / q["measured"]) for q in fitted_find) / max(1, len(fitted_find)))
        check(len(fitted_find) == 4 and all(q["role"] == "fitted" for q in fitted_find) and abs(g - 1) < 0.01,
              f"find at 2n1t and 10n16t: the four rows' geometric mean error {100 * (g - 1):+.2f}% (fitted, within 1%)")
        check(sorted(q["config"] for q in found if q["role"] == "predicted") == ["4n8t", "4n8t"],
              "find at 4n8t predicted (both pools)")
        data_fitted = [q for q in points if q["role"] == "fitted" and q["metric"].startswith("ior_")]
        check(len(data_fitted) == 10 and all(abs(q["rel_error"]) < 0.02 for q in data_fitted),
              "the data side's fitted points within 2% (" +
              ", ".join(f"{q['pool']} {q['metric']} {q['config']} {100 * q['rel_error']:+.1f}%" for q in data_fitted) + ")")
        check(all(q["pass"] == (abs(q["simulated"] / q["measured"] - 1) <= 0.2) for q in points),
              "pass means within 20% of measured")
        check(os.path.getsize(png) > 10000 if os.path.exists(png) else False, "the plot is written")
        check("points within tolerance" in v.stdout, "the summary line is printed")
        bad = os.path.join(tmp, "bad.json")
        with open(bad, "w") as f:
            f.write("{not json")
        out2 = os.path.join(tmp, "points2.json")
        v = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "validate_spartan.py"), "--pfsim", pfsim,
                            "--platform", bad, "--json", out2, "--plot", png + "2.png"], capture_output=True, text=True)
        check(v.returncode == 2 and bad in v.stderr, f"a platform that is not JSON: exit 2 naming it "
              f"(got {v.returncode}: {v.stderr.strip()})")
        check(not os.path.exists(out2), "and no points file is written")
        # The SSD pool's platform is the metadata fit's with its own data side (fit_spartan_data.py --pool ssd
        # builds it): after a metadata refit (calibrate_spartan.py) it must be rebuilt, which this notices.
        fitted = json.load(open(FITTED))
        ssd = json.load(open(os.path.join(ROOT, "platforms", "spartan-cephfs-ssd.json")))
        meta_clients = ("op_overhead", "rpc_overhead", "max_rpcs_in_flight", "max_mod_rpcs_in_flight", "open_rpcs",
                        "close_rpcs", "placement", "readdir_entries", "readdir_entry", "readdir_attributes")
        check(ssd.get("mds") == fitted.get("mds") and ssd.get("network") == fitted.get("network") and
              all(ssd["clients"].get(k) == fitted["clients"].get(k) for k in meta_clients),
              "the SSD platform's metadata side (mds, network, client metadata fields) is the metadata fit's (else: "
              "python3 scripts/fit_spartan_data.py --pool ssd)")
        # The sources say where the data values come from (helper-121: "oss" said 800 MB/s per node and an unmodelled
        # read latency where the file holds the data fit's 194.744MBps and 6.64586ms, and the data phases were "not
        # validated"): the "oss" source is the text fit_spartan_data.py writes for the values in the file.
        sys.path.insert(0, os.path.join(ROOT, "scripts"))
        import fit_spartan_data  # noqa: E402
        base = json.load(open(os.path.join(ROOT, "platforms", "spartan-cephfs.json")))
        for name, plat, pool in (("spartan-cephfs.json", base, "nlsas"), ("spartan-cephfs-fitted.json", fitted, "nlsas"),
                                 ("spartan-cephfs-ssd.json", ssd, "ssd")):
            report = "validation/spartan-cephfs/" + ("fit-data.json" if pool == "nlsas" else "fit-data-ssd.json")
            src = plat.get("sources", {})
            check(src.get("oss") == fit_spartan_data.oss_source(pool, plat, report) and
                  not any("not validated" in t or "not modelled, so mdtest-hard-read" in t for t in src.values()),
                  f"{name}: its oss source is fit_spartan_data.py's for its values ({plat['oss']['disk_write']}, "
                  f"{plat['oss']['parallel_read_latency']}), no source says the data phases are not validated "
                  f"(oss: {src.get('oss', '')[:120]})")
        # 3: calibrate's --x0 checked before any work.
        v = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "calibrate_spartan.py"), "--build",
                            os.path.dirname(pfsim), "--x0", "1,2,3", "--out", os.path.join(tmp, "f.json"),
                            "--report", os.path.join(tmp, "r.json")], capture_output=True, text=True)
        check(v.returncode == 2 and "--x0" in v.stderr, f"calibrate --x0 with 3 values: exit 2 naming --x0 "
              f"(got {v.returncode}: {v.stderr.strip()})")
    check.finish("spartan")


if __name__ == "__main__":
    main()
