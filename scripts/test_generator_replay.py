#!/usr/bin/env python3
"""ctest "generator_replay": pfsim's md-workbench generator and the replay of its own trace agree.

Issue 4 asks that synthetic and replayed runs compare. pfsim mdworkbench (8 ranks, -D 2, --offset 2, 4 ranks per
node) writes its --latency-all files, and its stdout is saved beside them as stdout.txt, as md-workbench users save
theirs; pfsim replay reads them back with no option stating the parameters (the Args line pfsim prints states -D,
-S and the offset: the import must assume nothing, so no warning) and replays them on the same platform at the
recorded 8 ranks and at 24 (rank m replays recorded rank m mod 8 in its own namespace). The same in md-real-io 2017
form, whose parameter lines are saved as mdreal.txt. The platform has no
load law, so every latency comes from the model and the replay must give the generator's phase rates at both
rank counts: within 1.5 % for every phase. Measured with oss.placement "object" (since 2026-11-25; each object's data
on the OSS its identity hashes to): precreate +0.73 % (8 ranks) and +0.62 % (24), benchmark -0.77 % to +0.42 %,
cleanup under 0.01 %. Which writes and reads meet at an OSS depends on their timing to the microsecond, and the
replay's think times are the recorded gaps (float32 times since the phase start), so the two runs interleave the
OSS queues differently; with every node's data on one OSS ("node") they agreed within 0.02 % (24-rank precreate
+0.26 %). Before 2026-11-25 the precreate was 0.21 % slow:
the replay waited out the recorded gap that held the data-set mkdirs and simulated the mkdirs as well. What this catches: think times rebuilt wrongly (a recorded latency
counted again as think time halves a rate), operations or phases out of order, lost barriers, extra ranks that do
not run or share a node wrongly. What it cannot catch: on this platform (no directory locks, one MDS) the rates do
not depend on which directory an object is in, so -D and --offset do not move them (checked: --offset 0, 1, 2 give
the same rates); the namespace rules are tested in sim/workload/trace_test.cpp.

usage: test_generator_replay.py PATH/TO/pfsim
"""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import pfsim_arg  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MDWB = ["-I", "100", "-P", "200", "-D", "2", "-R", "2", "-S", "3900", "--offset", "2"]


def run(cmd, stdout_to=None):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        print(f"FAIL: {' '.join(cmd)} -> exit {r.returncode}: {r.stderr.strip()[:300]}")
        sys.exit(1)
    if stdout_to:
        with open(stdout_to, "w") as f:
            f.write(r.stdout)
    return r


def rates(path):
    return [(p["name"], p["rate_items_per_s"]) for p in json.load(open(path))["phases"]]


def check_sweeps(pfsim, d, trace, form, common):
    """A sweep (--ranks 8,24 --csv, two points at once) gives each point the results a single run gives (every
    field but the inputs, which name the list), and its table the rates of those results. (A sweep writes no tool
    output, so the generator's points are in its default form, md-workbench's: they are compared with single runs
    in that form, whose md-real-io lines carry no slowest operation.)"""
    fails = 0
    for ranks in (8, 24):
        run([pfsim, "mdworkbench", "--ranks", str(ranks), "--out", os.path.join(d, f"gen{ranks}-default.json"),
             "--quiet"] + common + MDWB)
    for cmd, tag in (([pfsim, "mdworkbench"] + MDWB, "gen"), ([pfsim, "replay", trace], "rep")):
        res = os.path.join(d, f"sweep-{tag}")
        csv = os.path.join(d, f"sweep-{tag}.csv")
        run(cmd + ["--ranks", "8,24", "--csv", csv, "--results-dir", res, "--jobs", "2", "--quiet"] + common)
        rows = [line.split(",") for line in open(csv).read().splitlines()[1:]]
        for ranks in (8, 24):
            point = json.load(open(os.path.join(res, f"ranks-{ranks}.json")))
            single_file = os.path.join(d, f"{tag}{ranks}-default.json" if tag == "gen" else f"{tag}{ranks}.json")
            single = json.load(open(single_file))
            differ = sorted(k for k in set(point) | set(single) if k != "inputs" and point.get(k) != single.get(k))
            # the point's inputs state its own rank count, as the single run's do
            if point["inputs"]["options"]["--ranks"] != str(ranks) or \
                    point["inputs"].get("mdworkbench", {}).get("ranks", ranks) != ranks:
                differ.append("inputs' rank count")
            table = [(r[2], float(r[6])) for r in rows if r[0] == str(ranks)]
            want = [(n, round(x, 3)) for n, x in rates(single_file)]
            ok = not differ and table == want
            print(f"{'ok' if ok else 'FAIL'}: {form}, {tag} sweep point {ranks} ranks = the single run "
                  f"(fields differing: {differ}; table {table} / {want})")
            fails += not ok
    return fails


def main():
    pfsim = pfsim_arg(__doc__)
    fails = 0
    with tempfile.TemporaryDirectory() as d:
        p = json.load(open(os.path.join(ROOT, "platforms", "mistral-lustre02.json")))
        p["clients"]["load_delay"] = {"enabled": False}
        plat = os.path.join(d, "platform.json")
        json.dump(p, open(plat, "w"))
        common = ["--platform", plat, "--ranks-per-node", "4"]
        for form, fmt, header in (("md-workbench", ["--latency-all"], "stdout.txt"),
                                  ("md-real-io 2017", ["--output-format", "mdreal2017"], "mdreal.txt")):
            out_fmt = [x for x in fmt if x != "--latency-all"]  # the output format (the latency files' form aside)
            trace = os.path.join(d, f"trace-{header}")
            run([pfsim, "mdworkbench", "--ranks", "8", "--latency-dir", trace, "--out", os.path.join(d, "gen8.json")]
                + common + MDWB + fmt, stdout_to=os.path.join(trace, header))
            for ranks in (8, 24):
                if ranks != 8:
                    run([pfsim, "mdworkbench", "--ranks", str(ranks), "--out", os.path.join(d, f"gen{ranks}.json"),
                         "--quiet"] + common + MDWB + out_fmt)
                r = run([pfsim, "replay", trace, "--ranks", str(ranks), "--out", os.path.join(d, f"rep{ranks}.json"),
                         "--quiet"] + common)
                warned = [line for line in r.stderr.splitlines() if "warning" in line]
                print(f"{'FAIL' if warned else 'ok'}: {form}, {ranks} ranks: the import assumed nothing "
                      f"{warned[:1]}")
                fails += bool(warned)
                gen, rep = rates(os.path.join(d, f"gen{ranks}.json")), rates(os.path.join(d, f"rep{ranks}.json"))
                ok = [g[0] for g in gen] == [r[0] for r in rep]
                print(f"{'ok' if ok else 'FAIL'}: {form}, {ranks} ranks: phases {[g[0] for g in gen]} / "
                      f"{[r[0] for r in rep]}")
                fails += not ok
                for (name, g), (_, r) in zip(gen, rep):
                    ok = abs(r / g - 1) <= 0.015
                    print(f"{'ok' if ok else 'FAIL'}: {form}, {ranks} ranks, {name}: generator {g:.1f}, replay "
                          f"{r:.1f} obj/s ({100 * (r / g - 1):+.2f}%)")
                    fails += not ok
            fails += check_sweeps(pfsim, d, trace, form, common)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
