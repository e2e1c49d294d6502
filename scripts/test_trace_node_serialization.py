#!/usr/bin/env python3
"""ctest "trace_node_serialization": scripts/trace_node_serialization.py finds what pfsim was told.

pfsim records mdtest runs (16 ranks, 4 per node) with one modifying RPC slot per node (clients.max_mod_rpcs_in_flight
1) under each clients.placement, and with 7 slots (nothing serialised). The script must name the placement the run
used, mark the unlinks of the removal phase as serialised under it and only under it, find no serialisation with 7
slots, and bound the serialised part from below by the unloaded round trip without service (4 link latencies + the
client overhead = 28 us; exponential service can be arbitrarily short). On the recorded DKRZ Mistral 50-rank run it
must find the cyclic placement and precreate's per-node serialisation (validation/mistral/README.md).

usage: test_trace_node_serialization.py PATH/TO/pfsim
"""
import json
import os
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import pfsim_arg  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "trace_node_serialization.py")
MISTRAL = "/work/shared/data/mistral-mdrealio/results-5-7217624.tar.xz"
PLATFORM = {
    "name": "serialisation-test",
    "network": {"model": "CM02", "client_link": {"bandwidth": "10GBps", "latency": "2us"},
                "server_link": {"bandwidth": "10GBps", "latency": "2us"}},
    "clients": {"max_rpcs_in_flight": 8, "max_mod_rpcs_in_flight": 1, "rpc_overhead": "20us"},
    "mds": {"cores": 16, "threads": {"min": 64, "max": 64},
            "service": {"create": "150us", "open": "30us", "close": "30us", "stat": "30us", "unlink": "120us",
                        "mkdir": "150us", "rmdir": "150us"},
            "service_distribution": "exponential", "journal": {"enabled": False}},
}


def analyse(trace, rpn, tmp):
    out = os.path.join(tmp, "ser.json")
    r = subprocess.run([sys.executable, SCRIPT, trace, "--ranks-per-node", str(rpn), "--json", out],
                       capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stdout, r.stderr)
        raise SystemExit(f"FAIL: trace_node_serialization.py exited {r.returncode}")
    with open(out) as f:
        return json.load(f)


def phase(res, name):
    return next(p for p in res["phases"] if p["phase"] == name)


def main():
    pfsim = pfsim_arg(__doc__)
    fails = 0

    def check(ok, what):
        nonlocal fails
        print(f"{'ok' if ok else 'FAIL'}: {what}")
        fails += not ok

    with tempfile.TemporaryDirectory() as tmp:
        plat = os.path.join(tmp, "plat.json")
        with open(plat, "w") as f:
            json.dump(PLATFORM, f)
        for placement, slots, expect in (("cyclic", 1, "cyclic"), ("block", 1, "block"), ("cyclic", 7, "undetermined")):
            lat = os.path.join(tmp, f"lat-{placement}-{slots}")
            subprocess.run([pfsim, "mdtest", "--platform", plat, "--ranks", "16", "--ranks-per-node", "4", "-n", "200",
                            "-u", "-F", "--set", f"clients.placement={placement}",
                            "--set", f"clients.max_mod_rpcs_in_flight={slots}", "--latency-dir", lat],
                           check=True, capture_output=True)
            res = analyse(lat, 4, tmp)
            check(res["placement"] == expect, f"{placement}, {slots} slot(s): placement {res['placement']} "
                                              f"(expected {expect})")
            removal = phase(res, "cleanup")["placements"]
            other = "block" if placement == "cyclic" else "cyclic"
            if slots == 1:
                gap = removal[placement]["gap_s"]
                check(removal[placement]["serialised"] and not removal[other]["serialised"],
                      f"{placement}: removal serialised under {placement} only")
                check(28e-6 * 0.99 <= gap <= 150e-6, f"{placement}: 0.1% gap {gap * 1e6:.1f} us within "
                                                      f"[28 us round trip without service, 150 us]")
        if os.path.exists(MISTRAL):
            with tarfile.open(MISTRAL) as t:
                t.extractall(tmp)
            res = analyse(os.path.join(tmp, "results-5-7217624"), 10, tmp)
            pre = phase(res, "precreate")["placements"]["cyclic"]
            check(res["placement"] == "cyclic" and pre["serialised"] and pre["gap_s"] > 50e-6,
                  f"Mistral 50 ranks: placement {res['placement']}, precreate 0.1% gap {pre['gap_s'] * 1e6:.1f} us")
            check(not any(v["serialised"] for p in res["phases"] if p["phase"] != "precreate"
                          for v in p["placements"].values()), "Mistral 50 ranks: no other phase serialised")
        else:
            print(f"skipped: {MISTRAL} not found")
            victim = os.path.join(tmp, "results-5-7217624", "mdreal-0-stat-21.csv")
            before = open(victim).read()
            r = subprocess.run([sys.executable, SCRIPT, os.path.dirname(victim), "--json", victim],
                               capture_output=True, text=True)
            check(r.returncode == 2 and "file of the trace" in r.stderr and open(victim).read() == before,
                  f"--json naming a file of the trace: exit {r.returncode}, the file unchanged")
        r = subprocess.run([sys.executable, SCRIPT, os.path.join(tmp, "nonexistent")], capture_output=True, text=True)
        check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "not a directory" in r.stderr,
              f"missing trace directory: exit {r.returncode}, {r.stderr.strip()[:100]}")
    if fails:
        raise SystemExit(f"{fails} check(s) failed")


if __name__ == "__main__":
    main()
