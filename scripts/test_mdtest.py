#!/usr/bin/env python3
"""ctest "mdtest": pfsim mdtest runs IO500's seven mdtest command lines as typed (-W -x -Y -t
--saveRankPerformanceDetails, ../shared/data/tool-outputs/io500/standard-results/result.txt), one simulation each.

- The write phases (-C -Y -W 1) stonewall: mdtest's "Continue stonewall hit min: .. max: .. avg: .." line, every rank
  goes on to the most items any rank made (--out's phases and "mdtest".stonewall), and -x's status file holds that
  count as mdtest writes it ("%lld"); the later runs (-T, -E -X, -r with -x) stat, read and remove that many per rank.
- Every --saveRankPerformanceDetails file has the real file's header, its rows (all, then one per rank) with the real
  file's number of fields, and values in the same columns (the same tests ran), in mdtest's %.10e; its "all" row is
  --out's phases (items / time) and its items the count.
- Same inputs: byte-identical outputs. A create that does not reach the stonewall prints no such line and writes -n.
- Bad input (a missing, malformed or too large status file, -W with directories or -i 2, an unwritable per-rank
  file): exit 2, one line naming the option or file, nothing written.
usage: test_mdtest.py PATH/TO/pfsim
"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import Checks, pfsim_arg  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(os.path.dirname(ROOT), "shared", "data", "tool-outputs")
if not os.path.isdir(DATA):
    DATA = "/work/shared/data/tool-outputs"
REAL = os.path.join(DATA, "io500", "standard-results")
PLATFORM = os.path.join(ROOT, "platforms", "spartan-cephfs-fitted.json")

# IO500's mdtest options (result.txt, 2 tasks), with -n 6000 so that the 1 s stonewall stops the creates
EASY = ["--dataPacketType=timestamp", "-n", "6000", "-u", "-L", "-F", "-P", "-G", "-1572289075", "-N", "1",
        "-d", "/scratch/io500-run/datafiles/mdtest-easy"]
HARD = ["--dataPacketType=timestamp", "-n", "6000", "-t", "-w", "3901", "-e", "3901", "-P", "-G=-1572278387", "-N",
        "1", "-F", "-d", "/scratch/io500-run/datafiles/mdtest-hard"]
PHASES = [  # IO500's order; (name, options, the phase it is rated on)
    ("mdtest-easy-write", EASY, ["-C", "-Y", "-W", "1"], "File creation"),
    ("mdtest-hard-write", HARD, ["-C", "-Y", "-W", "1"], "File creation"),
    ("mdtest-easy-stat", EASY, ["-T"], "File stat"),
    ("mdtest-hard-stat", HARD, ["-T"], "File stat"),
    ("mdtest-easy-delete", EASY, ["-r"], "File removal"),
    ("mdtest-hard-read", HARD, ["-E", "-X"], "File read"),
    ("mdtest-hard-delete", HARD, ["-r"], "File removal"),
]
NUMBER = re.compile(r"^(\d\.\d{10}e[+-]\d{2}|inf)$")

check = Checks()


def run(pfsim, args):
    return subprocess.run([pfsim, "mdtest", "--platform", PLATFORM, "--ranks", "2"] + args, capture_output=True,
                          text=True)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def filled(row):
    return [k for k, v in enumerate(row) if v != ""]


def main():
    pfsim = pfsim_arg(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        counts = {}
        for name, base, extra, rated in PHASES:
            group = name.rsplit("-", 1)[0]
            status = f"{tmp}/{group}.stonewall"
            args = base + ["-x", status] + extra + [f"--saveRankPerformanceDetails={tmp}/{name}.csv", "-a", "POSIX"]
            r = run(pfsim, args + ["--out", f"{tmp}/{name}.json"])
            check(r.returncode == 0, f"{name}: runs as typed (stderr: {r.stderr.strip()[-300:]})")
            if r.returncode != 0:
                continue
            out = json.load(open(f"{tmp}/{name}.json"))
            # mdtest's own header and footer lines, in its order and layout, but Path and FS (a file system's
            # directory, capacity and inodes, which pfsim does not model); the dates parse as mdtest prints them
            kinds = ("-- started at ", "mdtest-", "Command line used: ", "Nodemap: ", "V-0: Rank ", "SUMMARY rate",
                     "-- finished at ")
            head = lambda t: [next(k for k in kinds if l.startswith(k)) if any(l.startswith(k) for k in kinds)
                              else "tasks" for l in t.splitlines() if any(l.startswith(k) for k in kinds) or
                              re.fullmatch(r"\d+ tasks, \d+ files", l)]
            real_text = open(f"{REAL}/{name}.txt").read()
            dates = re.findall(r"^-- (?:started|finished) at (\S+ \S+) --$", r.stdout, re.M)
            check(head(r.stdout) == head(real_text) and len(dates) == 2 and
                  all(time.strptime(d, "%m/%d/%Y %H:%M:%S") for d in dates) and
                  re.search(r"^Nodemap: 11$", r.stdout, re.M) is not None,
                  f"{name}: mdtest's lines as the real run's (started, launched, command, Nodemap, V-0, tasks, "
                  f"SUMMARY, finished; got {head(r.stdout)})")
            # ... and its last bytes: mdtest 3.3/4.x ends with "-- finished at <date> --" and a blank line (helper-149:
            # pfsim's ended at the line's newline)
            check(re.search(r"\n-- finished at \S+ \S+ --\n\n\Z", r.stdout) is not None and
                  real_text.endswith(" --\n\n"),
                  f"{name}: the output ends as mdtest's, '-- finished at ... --' and a blank line "
                  f"({r.stdout[-40:]!r}, the real run's {real_text[-40:]!r})")
            phase = next(p for p in out["phases"] if p["name"] == rated)
            if "-W" in extra:
                sw = out["mdtest"]["stonewall"]
                hit = re.search(r"^Continue stonewall hit min: (\d+) max: (\d+) avg: (\d+\.\d) \n\n\nSUMMARY rate",
                                r.stdout, re.M)
                check(hit is not None and int(hit.group(1)) == sw["items_min"] and int(hit.group(2)) ==
                      sw["items_max"] and hit.group(3) == f"{sw['items_sum'] / 2:.1f}" and sw["hit"],
                      f"{name}: mdtest's stonewall line, as --out's counts ({hit.group(0).strip() if hit else None})")
                text = open(status).read()
                counts[group] = sw["items_max"]
                check(text == str(sw["items_max"]) and sw["items_max"] < 6000,
                      f"{name}: -x holds the most items per rank, as mdtest writes it ('{text}')")
                check(phase["items"] == 2 * sw["items_max"] and sw["items_min"] <= sw["items_max"],
                      f"{name}: every rank went on to {sw['items_max']} items ({phase['items']} in the phase)")
                check(out["workload"]["parameters"].get("W") == 1 and out["workload"]["parameters"].get("Y") is True,
                      f"{name}: -W and -Y in --out's workload parameters")
            else:
                check(phase["items"] == 2 * counts.get(group, -1) and
                      out["mdtest"]["status_file"].get("read_items") == counts.get(group),
                      f"{name}: {rated} works on -x's {counts.get(group)} items per rank ({phase['items']} in all)")
            sim, real = rows(f"{tmp}/{name}.csv"), rows(f"{REAL}/{name}.csv")
            check(sim[0] == real[0], f"{name}.csv: mdtest's header")
            check([len(x) for x in sim] == [len(x) for x in real] and [x[0] for x in sim] == [x[0] for x in real],
                  f"{name}.csv: the real file's rows and fields ({[len(x) for x in sim]})")
            check([filled(x) for x in sim] == [filled(x) for x in real],
                  f"{name}.csv: values in the real file's columns ({filled(sim[1])})")
            numbers = [v for x in sim[1:] for v in x[2:] if v != ""]
            check(numbers and all(NUMBER.match(v) for v in numbers), f"{name}.csv: %.10e numbers")
            col = sim[0].index(f"rate-{rated}")
            t = phase["time_s"]
            check(sim[1][1] == str(counts[group]) and sim[1][col + 1] == f"{t:.10e}" and
                  sim[1][col] == f"{phase['items'] / t:.10e}",
                  f"{name}.csv: its all row is --out's {rated} ({sim[1][1]} items per rank, {sim[1][col:col + 2]})")

        # Same inputs, same bytes (the status file, the per-rank file, --out); a run short of the stonewall
        name, base, extra, _ = PHASES[1]
        outs = []
        d = f"{tmp}/det"
        os.mkdir(d)
        for k in range(2):  # (the same paths: they are in the command line printed and recorded)
            r = run(pfsim, base + ["-x", f"{d}/sw"] + extra + [f"--saveRankPerformanceDetails={d}/r.csv",
                                                               "--out", f"{d}/o.json"])
            outs.append([open(f"{d}/{f}", "rb").read() for f in ("sw", "r.csv", "o.json")] + [r.stdout])
        check(outs[0] == outs[1], "same inputs: byte-identical status file, per-rank file, --out and stdout")
        short = ["-n", "200"] + base[3:]
        r = run(pfsim, short + ["-x", f"{tmp}/short.sw", "-C", "-Y", "-W", "1", "--out", f"{tmp}/short.json"])
        sw = json.load(open(f"{tmp}/short.json"))["mdtest"]["stonewall"] if r.returncode == 0 else {}
        check(r.returncode == 0 and "Continue stonewall" not in r.stdout and open(f"{tmp}/short.sw").read() == "200"
              and sw.get("hit") is False and sw.get("items_max") == 200,
              "a create done before the stonewall: no stonewall line, -x holds -n (200)")

        # Bad input: exit 2, one line naming it, nothing written
        open(f"{tmp}/bad.sw", "w").write("12 items\n")
        open(f"{tmp}/big.sw", "w").write("6001")
        bad = [
            (EASY + ["-x", f"{tmp}/none.sw", "-T"], "none.sw"),
            (EASY + ["-x", f"{tmp}/bad.sw", "-T"], "bad.sw"),
            (EASY + ["-x", f"{tmp}/big.sw", "-r"], "more than -n 6000"),
            (["-n", "100", "-u", "-C", "-W", "1"], "-W 1"),
            (["-n", "100", "-F", "-C", "-W", "1", "-i", "2"], "-i 2"),
            (["-n", "100", "-F", "-W", "-3"], "-W"),
            (EASY + ["-C", f"--saveRankPerformanceDetails={tmp}/no/dir.csv"], "--saveRankPerformanceDetails"),
        ]
        for args, what in bad:
            for f in ("bad.json", "bad.csv", "bad-new.sw"):
                if os.path.exists(f"{tmp}/{f}"):
                    os.remove(f"{tmp}/{f}")
            extra = [] if "--saveRankPerformanceDetails" in what else [f"--saveRankPerformanceDetails={tmp}/bad.csv"]
            r = run(pfsim, args + extra + ["--out", f"{tmp}/bad.json"])
            lines = r.stderr.strip().splitlines()
            written = [f for f in ("bad.json", "bad.csv") if os.path.exists(f"{tmp}/{f}")]
            check(r.returncode == 2 and len(lines) == 1 and what in lines[0] and not written,
                  f"{' '.join(args[-4:])}: exit 2 naming {what}, nothing written ({lines[-1:]}, {written})")
        r = subprocess.run([pfsim, "mdtest", "--help"], capture_output=True, text=True)
        options = ("-W S", "-x FILE", "-Y", "-t", "--saveRankPerformanceDetails FILE")
        check(all(f"\n  {o} " in r.stdout for o in options),
              "pfsim mdtest --help describes -W -x -Y -t --saveRankPerformanceDetails")
        refused = re.search(r"^refused \(not modelled; the error says why\):(.*)$", r.stdout, re.M)
        check(refused is not None and all(o in refused.group(1).split() for o in ("-z", "-b", "-I", "-y")) and
              not any(o in refused.group(1).split() for o in ("-W", "-x", "-Y", "-t")),
              f"pfsim mdtest --help lists the options it refuses, not those it models ({refused and refused.group(1)})")
        shift_checks(pfsim, tmp)
    check.finish("mdtest")


def shift_checks(pfsim, tmp):
    """mdtest's -N on a placement (mdtest.c: "set the shift to mimic IOR and shift by procs per node"): with the ranks
    in blocks over several nodes the shift is -N times the tasks on node 0, so that IO500's -N 1 stats the next
    node's files and reads those of the node two further; on one node, or placed cyclically, -N as typed. 12 ranks,
    3901-byte files and a node page cache: on 3 nodes of 4 no read is the reader's own node's (shift 4: node + 2,
    before this rule shift 1: ranks r + 2, mostly the same node, whose cache served them); on one node all are."""
    base = ["mdtest", "--platform", PLATFORM, "--ranks", "12", "-n", "20", "-F", "-w", "3901", "-e", "3901", "-N", "1",
            "--set", "clients.max_cached_mb=64"]
    got = {}
    for name, extra in (("block", ["--ranks-per-node", "4"]), ("one-node", ["--ranks-per-node", "12"]),
                        ("cyclic", ["--ranks-per-node", "4", "--set", "clients.placement=\"cyclic\""])):
        out = f"{tmp}/shift-{name}.json"
        r = subprocess.run([pfsim] + base + extra + ["--out", out], capture_output=True, text=True)
        res = json.load(open(out)) if r.returncode == 0 else {}
        line = re.search(r"^V-0: Rank   0 Line  2594 Shifting ranks by (\d+) for each phase\.$", r.stdout, re.M)
        got[name] = (res.get("mdtest", {}).get("rank_shift"), int(line.group(1)) if line else None,
                     res.get("client_cache_reads", {}).get("reads"))
    check(got["block"][:2] == (4, 4) and got["block"][2] == 0,
          f"-N 1, 3 nodes of 4 in blocks: shift 4 (recorded, printed as mdtest's V-0 line), no read cached (got "
          f"{got['block']})")
    check(got["one-node"][:2] == (1, 1) and got["one-node"][2] == 12 * 20 and
          got["cyclic"][:2] == (1, 1) and got["cyclic"][2] == 0,
          f"-N 1 on one node: shift 1, every read a page-cache copy; placed cyclically: shift 1, the reads another "
          f"node's (got one node {got['one-node']}, cyclic {got['cyclic']})")


if __name__ == "__main__":
    main()
