#!/usr/bin/env python3
"""ctest "fit_mdrealio": the trace fit recovers a known load law and its output replays.

Writes a synthetic md-real-io 2017 trace whose precreate and cleanup latencies are exactly
floor + f_r (A + B x ranks active at the operation's start), rank r slower by f_r = 1 + 0.08 r so that ranks
finish one after the other, then checks that scripts/fit_mdrealio.py finds per_active_rank = B within
15 % and base 0 (the excess is taken over the fastest operation, which already holds A + B), that pfsim accepts
and replays the written platform, and that a malformed file gives exit status 2 naming it.

usage: test_fit_mdrealio.py PATH/TO/pfsim
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLOOR = {"precreate": 400e-6, "cleanup": 250e-6}
A, B = 0.3e-3, 40e-6  # excess = A + B * active ranks
N = 8
SLOW = lambda r: 1 + 0.08 * r  # rank r is slower by this factor, so ranks finish one after the other


def write_phase(d, it, phase, counts, latency_of):
    """Event-driven: every rank runs its operations back to back; latency depends on ranks still active."""
    t = [0.0] * N
    done = [0] * N
    rows = [[] for _ in range(N)]
    while True:
        live = [r for r in range(N) if done[r] < counts[r]]
        if not live:
            break
        r = min(live, key=lambda k: (t[k], k))
        active = len(live)
        lat = latency_of(active, r)
        rows[r].append((t[r], lat))
        t[r] += lat
        done[r] += 1
    for r in range(N):
        with open(os.path.join(d, f"mdreal-{it}-{phase}-{r}.csv"), "w") as f:
            f.write("time,runtime\n")
            for a, b in rows[r]:
                f.write(f"{a:.9f},{b:.9e}\n")


def main():
    pfsim = sys.argv[1]
    fails = 0
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "mdreal.txt"), "w") as f:
            f.write("\tobj-per-proc=10 \n\tprecreate-per-set=400 \n\tdata-sets=1 \n\tobject-size=3900 \n"
                    "\titerations=1 \n\toffset=1 \n")
        counts = [400] * N
        write_phase(d, 0, "precreate", counts, lambda n, r: FLOOR["precreate"] + SLOW(r) * (A + B * n))
        for kind, lat in (("create", 600e-6), ("stat", 300e-6), ("read", 900e-6), ("delete", 350e-6)):
            write_phase(d, 0, kind, [10] * N, lambda n, r, lat=lat: lat)
        write_phase(d, 1, "cleanup", counts, lambda n, r: FLOOR["cleanup"] + SLOW(r) * (A + B * n))
        out = os.path.join(d, "fit.json")
        r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "fit_mdrealio.py"), d, "--name", "test",
                            "--quantile", "0", "--out", out], capture_output=True, text=True)
        if r.returncode != 0:
            print("FAIL: fit exited", r.returncode, r.stderr)
            return 1
        per_op = json.load(open(out))["clients"]["load_delay"]["per_op"]
        for op in ("create", "unlink"):
            law = per_op[op]
            b = float(law["per_active_rank"].replace("us", "")) * 1e-6
            a = float(law["base"].replace("us", "")) * 1e-6
            # The excess is measured over the fastest operation (quantile 0), which already holds A + B x 1:
            # the true law of the excess is -B + B n, whose base clamps to 0.
            ok = abs(b - B) <= 0.15 * B and abs(a - 0.0) <= 0.05e-3
            print(f"{'ok' if ok else 'FAIL'}: {op} law base {a * 1e3:.3f} ms (true 0 after the clamp), "
                  f"per_active_rank {b * 1e6:.2f} us (true {B * 1e6:.2f})")
            fails += not ok
        for op in ("stat", "open"):  # constant latencies: no load dependence
            b = float(per_op[op]["per_active_rank"].replace("us", ""))
            ok = b == 0
            print(f"{'ok' if ok else 'FAIL'}: {op} law has no slope ({b} us)")
            fails += not ok
        r = subprocess.run([pfsim, "replay", d, "--platform", out, "--ranks", "12", "--residual-quantile", "0",
                            "--out", os.path.join(d, "r.json"), "--no-samples", "--quiet"],
                           capture_output=True, text=True)
        ok = r.returncode == 0 and os.path.exists(os.path.join(d, "r.json"))
        print(f"{'ok' if ok else 'FAIL'}: pfsim replays the trace with the fitted platform ({r.returncode}) "
              + r.stderr.strip())
        fails += not ok
        bad = os.path.join(d, "mdreal-0-stat-3.csv")
        with open(bad, "w") as f:
            f.write("time,runtime\n0.0,not-a-number\n")
        r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "fit_mdrealio.py"), d, "--out", out],
                           capture_output=True, text=True)
        ok = r.returncode == 2 and "mdreal-0-stat-3.csv" in r.stderr
        print(f"{'ok' if ok else 'FAIL'}: malformed file -> exit {r.returncode}, names the file")
        fails += not ok
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
