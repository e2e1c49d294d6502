#!/usr/bin/env python3
"""Tests of pfsim find's sharing of the stats over ranks (ctest "find_scaling"). usage: test_find.py PATH/TO/pfsim

1. More ranks never make the walk slower (helper-100: with CephFS's readdir attributes the stats were shared out as if
   each were an RPC, so 17 ranks on 2 nodes took 2.54 s where 16 on one node took 1.68 s, and 32 took 6.90 s): one
   directory of 100,000 names, all stat'ed, on the Spartan platform at 1 to 160 ranks of 16 per node. On the trees
   IO500's 64 tasks leave, walked by 4 to 64 ranks, the stats stay the client's and cost at most 2% (the walk itself
   may slow with more ranks when the MDS spends time per entry, mds.readdir_entry: their readdirs queue at the MDSes,
   first come first served, ahead of the big directory's reader).
3. A sweep (--ranks LIST --csv FILE [--vary PATH=V1,V2]) gives each point's single run.
2. The ranks finish together when the round trip dominates (helper-100: a 1 ms link latency, 2 ranks on 2 nodes, 10,000
   stats: 26.8 s where the balanced walk takes about 20.5 s): the phase is within 5% of (listing + stats) / 2.
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import Checks, pfsim_arg  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPARTAN = os.path.join(ROOT, "platforms", "spartan-cephfs-fitted.json")


def find(pfsim, platform, tmp, *args):
    out = os.path.join(tmp, "f.json")
    subprocess.run([pfsim, "find", "--platform", platform, "--quiet", "--out", out] + list(args), check=True,
                   capture_output=True)
    with open(out) as f:
        return json.load(f)["find"]


def main():
    pfsim = pfsim_arg(__doc__)
    check = Checks()
    with tempfile.TemporaryDirectory() as tmp:
        # 1
        times = [(r, find(pfsim, SPARTAN, tmp, "--ranks", str(r), "--ranks-per-node", "16", "--dirs", "100000")["time_s"])
                 for r in (1, 16, 17, 32, 64, 160)]
        check(all(b[1] <= a[1] * 1.02 for a, b in zip(times, times[1:])),
              "one directory, every name stat'ed: no slower with more ranks (" +
              ", ".join(f"{r}: {t:.3f} s" for r, t in times) + ")")
        tree = ["--mdtest-easy", "64:2000", "--mdtest-hard", "64:500"]
        pairs = []
        for r in (4, 16, 17, 32, 64):
            base = ["--ranks", str(r), "--ranks-per-node", "16"] + tree
            with_stats = find(pfsim, SPARTAN, tmp, *base, "--name", "01")
            pairs.append((r, with_stats["time_s"], find(pfsim, SPARTAN, tmp, *base, "--no-stat")["time_s"],
                          with_stats["local_stats"] == with_stats["stats"]))
        check(all(t <= t0 * 1.02 and local for _, t, t0, local in pairs),
              "IO500's trees of 64 tasks walked by 4 to 64 ranks: the stats of names holding 01 all the client's, "
              "at most 2% over the walk without stats (" +
              ", ".join(f"{r}: {t:.3f} / {t0:.3f} s" for r, t, t0, _ in pairs) + ")")
        # 1b: helper-102: 17 directories over ranks of 16 per node went to the first node's ranks, whose stats then
        # went to other nodes as RPCs and saturated the MDS: 64 to 1,024 ranks took 4.6-10.7 s where 16 took 3.1 s;
        # and with more names stat'ed the walk got faster. Now the readers spread over the nodes.
        tree = ["--mdtest-easy", "16:10000", "--mdtest-hard", "16:10000", "--ranks-per-node", "16"]
        times = [(r, find(pfsim, SPARTAN, tmp, "--ranks", str(r), *tree)["time_s"]) for r in (16, 64, 256, 1024)]
        check(all(t <= times[0][1] * 1.02 for _, t in times),
              "17 directories, 16 ranks per node: 64 to 1,024 ranks no slower than 16 (" +
              ", ".join(f"{r}: {t:.3f} s" for r, t in times) + ")")
        by_name = [(n, find(pfsim, SPARTAN, tmp, "--ranks", "48", *tree, *(["--name", n] if n else [])))
                   for n in ("10", "0", "1", "")]
        check(all(a[1]["stats"] <= b[1]["stats"] and a[1]["time_s"] <= b[1]["time_s"] * 1.001
                  for a, b in zip(by_name, by_name[1:])),
              "48 ranks: more names stat'ed, never a faster walk (" +
              ", ".join(f"--name {n or '(all)'}: {f['stats']} stats {f['time_s']:.4f} s" for n, f in by_name) + ")")
        # 2: 1 ms per link (a round trip of 4 ms), stat 50 us, readdir 100 us per RPC of 100 entries, 2 ranks on
        # 2 nodes: listing 100 x (4 ms + 100 us) = 0.41 s, each stat 4.05 ms: (0.41 + 10,000 x 4.05 ms) / 2 = 20.45 s.
        link = {"bandwidth": 1e12, "latency": 1e-3}
        plat = {"name": "find-latency-test",
                "network": {"model": "CM02", "client_link": link, "server_link": link},
                "clients": {"ranks_per_node": 1, "max_rpcs_in_flight": 8, "max_mod_rpcs_in_flight": 1,
                            "rpc_overhead": 0, "request_size": 1, "reply_size": 1, "readdir_entries": 100},
                "mds": {"cores": 4, "threads": {"min": 16, "max": 16}, "service": {"readdir": 1e-4, "stat": 5e-5},
                        "journal": {"enabled": False}, "dir_lock": {"enabled": False}}}
        path = os.path.join(tmp, "p.json")
        with open(path, "w") as f:
            json.dump(plat, f)
        t = find(pfsim, path, tmp, "--ranks", "2", "--dirs", "10000")["time_s"]
        balanced = (100 * (4e-3 + 1e-4) + 10000 * (4e-3 + 5e-5)) / 2
        check(abs(t / balanced - 1) < 0.05, f"2 ranks, 4 ms round trips: {t:.2f} s, balanced {balanced:.2f} s within 5%")
        # 3: a sweep (--ranks LIST --csv) gives each point's single run, and --vary a row per value.
        csv = os.path.join(tmp, "s.csv")
        tree = ["--mdtest-easy", "16:500", "--mdtest-hard", "16:300", "--name", "01", "--ranks-per-node", "4"]
        subprocess.run([pfsim, "find", "--platform", SPARTAN, "--ranks", "2,8", "--csv", csv, "--jobs", "2", "--quiet"]
                       + tree, check=True, capture_output=True)
        rows = [l.split(",") for l in open(csv).read().splitlines()]
        single = {r: find(pfsim, SPARTAN, tmp, "--ranks", str(r), *tree)["rate"] for r in (2, 8)}
        check(rows[0][:7] == ["ranks", "nodes", "phase", "iteration", "items", "time_s", "rate"] and len(rows) == 3 and
              all(abs(float(x[6]) / single[int(x[0])] - 1) < 1e-6 for x in rows[1:]),
              f"a sweep's rows are its points' single runs ({[(x[0], x[6]) for x in rows[1:]]} against {single})")
        subprocess.run([pfsim, "find", "--platform", SPARTAN, "--ranks", "2,8", "--csv", csv, "--quiet",
                        "--vary", "clients.readdir_entry=10us,40us"] + tree, check=True, capture_output=True)
        rows = [l.split(",") for l in open(csv).read().splitlines()]
        t = {(x[0], x[1]): float(x[7]) for x in rows[1:]}  # (rate: after the --vary column)
        check(rows[0][0] == "clients.readdir_entry" and len(rows) == 5 and
              all(t[("1e-05", r)] > t[("4e-05", r)] for r in ("2", "8")),
              f"--vary clients.readdir_entry=10us,40us: a row per value and rank count, lower rates at 40 us ({t})")
    check.finish("find_scaling")


if __name__ == "__main__":
    main()
