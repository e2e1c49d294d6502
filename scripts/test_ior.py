#!/usr/bin/env python3
"""ctest "ior": pfsim ior against the real IOR's output format, its options' errors, determinism and the LMT file.

- The Results and Summary headers are the real IOR 4.1's (../shared/data/tool-outputs/ior/ior-default.txt, made with
  `ior -a POSIX -w -r -C -e -b 1m -t 256k -s 2 -i 2`), and pfsim's rows for the same command have the same columns
  at the same positions, so scripts that read IOR's output read pfsim's.
- The JSON's "ior" entries are the printed rows; the LMT samples add up to the bytes IOR wrote, over the OSTs the
  files went to (-F: one file per rank, spread by oss.placement).
- Same inputs: byte-identical --out and --lmt.
- Bad options and platform fields: exit status 2, one line naming the option or field, no output file.
- A sweep (--ranks LIST --csv FILE): each row (rank count, access, repetition) is the single run's bandwidth and total
  time; over --vary oss.count the bandwidth of one node's 8 file-per-process writers is min(OSTs x 355.8 MiB/s, the
  node's 2 GB/s link), the platform's two figures (nersc-grace-lmt.json: oss.disk_write, network.client_link); --jobs 1
  and 2 give the same files; bad lists: exit 2, nothing written.
usage: test_ior.py PATH/TO/pfsim
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
PLATFORM = os.path.join(ROOT, "platforms", "nersc-grace-lmt.json")

check = Checks()


def run(pfsim, args):
    return subprocess.run([pfsim, "ior", "--platform", PLATFORM] + args, capture_output=True, text=True)


def block(text, title):
    """The lines of `text` from the line starting with `title` up to the next empty line."""
    lines = text.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith(title))
    out = []
    for l in lines[start:]:
        if not l.strip():
            break
        out.append(l)
    return out


def main():
    pfsim = pfsim_arg(__doc__)
    real = open(os.path.join(DATA, "ior", "ior-default.txt")).read()
    with tempfile.TemporaryDirectory() as tmp:
        args = ["--ranks", "2", "--set", "clients.ranks_per_node=2", "-a", "POSIX", "-w", "-r", "-C", "-e",
                "-b", "1m", "-t", "256k", "-s", "2", "-i", "2", "-o", "/scratch/runs/ior/testfile"]
        r = run(pfsim, args + ["--out", f"{tmp}/a.json", "--lmt", f"{tmp}/a.csv"])
        check(r.returncode == 0, f"ior runs the real command line (stderr: {r.stderr.strip()[-300:]})")
        sim = r.stdout
        # Headers: identical lines.
        check(block(sim, "access    bw")[:2] == block(real, "access    bw")[:2], "Results header lines are IOR's")
        check(block(sim, "Operation")[0] == block(real, "Operation")[0], "Summary header line is IOR's")
        # Rows: same number of fields, and each field ends in the same column as IOR's (right-aligned numbers).
        def ends(line):
            return [m.end() for m in re.finditer(r"\S+", line)]
        real_rows = block(real, "access    bw")[2:]
        sim_rows = block(sim, "access    bw")[2:]
        check(len(sim_rows) == len(real_rows) == 4 and
              [l.split()[0] for l in sim_rows] == [l.split()[0] for l in real_rows],
              "Results rows: write, read per repetition, as IOR")
        check(all(len(s.split()) == len(x.split()) for s, x in zip(sim_rows, real_rows)),
              "Results rows have IOR's 11 fields")
        starts = lambda line: [m.start() for m in re.finditer(r"\S+", line)]
        check(all(starts(s) == starts(x) for s, x in zip(sim_rows, real_rows)),
              "Results rows: every field starts at IOR's column (IOR's number format: 6/2/0 decimals)")
        # A write faster than every OST's disk together times the write-back cache (no -e): said, and recorded
        # (helper-111); with -e the same write is the OSTs' and nothing is said.
        nf = ["--ranks", "4", "-t", "1m", "-b", "16m", "-w", "--out", f"{tmp}/nf.json"]
        r = run(pfsim, nf)
        warned = json.load(open(f"{tmp}/nf.json")).get("ior_warnings", []) if r.returncode == 0 else []
        check(len(warned) == 1 and "above the 4 OSTs' disks together (1423.20 MiB/s)" in warned[0] and
              warned[0] in r.stderr, f"a write into the cache, no -e: warned ({warned}; {r.stderr.strip()[-200:]})")
        r = run(pfsim, nf + ["-e"])
        check(r.returncode == 0 and "ior_warnings" not in json.load(open(f"{tmp}/nf.json")) and
              "write-back cache" not in r.stderr, "the same write with -e: no warning")
        # IOR's wr/rd: from the first transfer's start to the last one's end; IOPS = transfers / wr/rd.
        res0 = json.load(open(f"{tmp}/a.json"))
        w0 = res0["ior"][0]
        check(0 < w0["wrRdTime"] <= w0["totalTime"] and abs(w0["iops"] * w0["wrRdTime"] - 16) < 1e-6 and
              0 < w0["latency"] * 8 <= w0["wrRdTime"] + 1e-12,
              f"wr/rd within the total, IOPS = 16 transfers / wr/rd, latency = rank 0's own time / its 8 ({w0})")
        real_sum = block(real, "Operation")[1:3]
        sim_sum = block(sim, "Operation")[1:3]
        check(len(sim_sum) == 2 and all(len(s.split()) == len(x.split()) for s, x in zip(sim_sum, real_sum)),
              "Summary rows have IOR's 27 fields")
        # From Stonewall(s) on (field 11), the columns are fixed-width in IOR: the same end positions.
        check(all(ends(s)[10:] == ends(x)[10:] for s, x in zip(sim_sum, real_sum)),
              "Summary rows: the fields from Stonewall(s) on end at IOR's columns")
        sim_opts = [l.split(":")[0].strip() for l in block(sim, "api")]
        real_opts = [l.split(":")[0].strip() for l in block(real, "api")]
        check(sim_opts == real_opts, f"Options block has IOR's keys in IOR's order ({sim_opts})")
        # JSON rows = printed rows.
        res = json.load(open(f"{tmp}/a.json"))
        printed = [(l.split()[0], float(l.split()[1]), int(l.split()[10])) for l in sim_rows]
        # IOR's PPDouble: 6 decimals below 1, 2 below 3600, none above
        ior_round = lambda v: round(v, 6 if v < 1 else 2 if v < 3600 else 0)
        js = [(e["access"], ior_round(e["bwMiB"]), e["iteration"]) for e in res["ior"]]
        check(printed == js, "results JSON 'ior' entries are the printed rows")
        check(res["workload"]["generator"] == "ior" and res["workload"]["transfer_size"] == 262144 and
              res["inputs"]["options"]["-t"] == "256k", "results record the workload and the options as given")
        # LMT: the bytes on the OSTs are what IOR wrote (2 ranks x 2 segments x 1 MiB, twice). The reads come from the
        # node's page cache (the platform's clients.max_cached_mb): both ranks are on one node, so -C's shift by the
        # tasks per node (2) leaves each rank reading its own data, as on a real single node; the OSTs read nothing.
        lmt_lines = open(f"{tmp}/a.csv").read().splitlines()
        head = "# pfsim effective configuration: "
        eff = json.loads(lmt_lines[0][len(head):]) if lmt_lines and lmt_lines[0].startswith(head) else {}
        check(eff.get("seed") == res["seed"] and eff.get("platform") == res["platform"] and
              eff.get("inputs") == res["inputs"], "the LMT CSV's first line records the run's seed, inputs and "
              "platform as --out does")
        rows = list(csv.DictReader(lmt_lines[1:]))
        written = sum(float(x["written_bytes"]) for x in rows)
        read = sum(float(x["read_bytes"]) for x in rows)
        check(written == 2 * 4 * 1048576 and read == 0 and res["client_cache_reads"]["bytes"] == 2 * 4 * 1048576,
              f"LMT samples add up to the bytes written; the reads came from the node's cache ({written:.0f}, "
              f"{read:.0f}, {res['client_cache_reads']})")
        data = [s["data"] for s in res["servers"] if "data" in s]
        # Per repetition 16 writes of 256 KiB enter the cache of one OST, and the platform holds partial RPCs back
        # (clients.hold_partial_rpcs, as Lustre's osc): every 4 writes fill an RPC of 256 pages, which goes then.
        # (Without holding, the first 8 found one of the 8 RPC slots and went alone, 64 pages.) The two ranks write at
        # once (4 GB/s copies); the first to fsync writes back the node's dirty pages of the whole file, the other
        # rank's unit in progress too, which then goes in two parts: per repetition 4 units, at most one of them cut.
        bins = {int(k): sum(d["write_rpcs_by_pages"][k] for d in data) for k in data[0]["write_rpcs_by_pages"]}
        n_rpcs = sum(bins.values())
        check(bins[256] >= 2 * 3 and 2 * 4 <= n_rpcs <= 2 * 5 and all(v == 0 for k, v in bins.items() if k < 64),
              f"RPC histogram: per repetition 4 units, each one RPC of 256 pages or, the one an fsync cut, two; no "
              f"RPC below a 64-page piece (partial RPCs held back; {({k: v for k, v in bins.items() if v})})")
        # Determinism.
        r2 = run(pfsim, args + ["--out", f"{tmp}/b.json", "--lmt", f"{tmp}/b.csv"])
        check(r2.returncode == 0 and open(f"{tmp}/a.json").read() == open(f"{tmp}/b.json").read() and
              open(f"{tmp}/a.csv").read() == open(f"{tmp}/b.csv").read(), "same inputs: byte-identical outputs")
        # File per process, 4 ranks, stripes over 2 OSTs: every OST byte accounted for.
        r = run(pfsim, ["--ranks", "4", "-F", "-w", "-t", "1m", "-b", "8m", "--set", "oss.stripe_count=2",
                        "--out", f"{tmp}/f.json"])
        res = json.load(open(f"{tmp}/f.json")) if r.returncode == 0 else {"servers": []}
        data = [s["data"] for s in res["servers"] if "data" in s]
        check(r.returncode == 0 and sum(d["written_bytes"] for d in data) == 32 * 1048576 and len(data) == 4 and
              sum(d["written_bytes"] > 0 for d in data) >= 2,
              f"-F with 2 stripes: 32 MiB over the OSTs, every OST listed ({[d['written_bytes'] for d in data]})")
        # A large transfer count in bulk RPCs is said before the run (1 TiB in 1 MiB RPCs is 1e6; 512 TiB is 5e8 + ...).
        r = run(pfsim, ["--ranks", "2", "-F", "-w", "-t", "1g", "-b", "600t", "--out", f"{tmp}/huge.json",
                        "--time-limit", "1s"])
        # (said with --time-limit too, which bounds the simulated time only; helper-91: a PB over PB/s links took
        # hours of wall time in a second of simulated time)
        check("bulk RPCs" in r.stderr and "only once that much simulated time" in r.stderr,
              "--time-limit given: the size warning says what --time-limit bounds")
        r = subprocess.run(["timeout", "5", pfsim, "ior", "--platform", PLATFORM, "--ranks", "2", "-F", "-w", "-t", "1g",
                            "-b", "600t", "--quiet"], capture_output=True, text=True)
        check("bulk RPCs" in r.stderr, "1.2 PB in 1 MiB RPCs: warned before the run")
        # --from: a recorded IOR JSON summary runs as recorded and is compared; -O summaryFormat=JSON writes IOR's form.
        real_json = os.path.join(DATA, "ior", "ior-summary.json")
        r = run(pfsim, ["--from", real_json, "--out", f"{tmp}/from.json", "-O", "summaryFormat=JSON",
                        "-O", f"summaryFile={tmp}/sum.json"])
        ok = r.returncode == 0
        res = json.load(open(f"{tmp}/from.json")) if ok else {}
        cmp = res.get("compared_with", {}).get("results", [])
        check(ok and res["workload"]["transfer_size"] == 262144 and res["workload"]["file_per_proc"] and
              res["run"]["ranks"] == 2 and res["run"]["ranks_per_node"] == 2 and len(cmp) == 4 and
              abs(cmp[0]["measured_bwMiB"] - 835.7685) < 1e-9 and r.stderr.count("measured") == 4,
              "--from the real ior-summary.json: its test (-F -b 1m -t 256k -s 2 -i 2, 2 tasks), 4 results compared")
        check(ok and r.stdout == f"Writing output to {tmp}/sum.json\n",
              "-O summaryFile=F: stdout is IOR's one line (tool-outputs/ior/ior-json-stdout.txt), the summary in F "
              f"({r.stdout[:80]!r})")
        sim_json = json.load(open(f"{tmp}/sum.json")) if ok else {}
        real = json.load(open(real_json))
        same_keys = lambda a, b: list(a.keys()) == list(b.keys())
        # IOR's keys in IOR's order, then pfsim's own block: the run's effective configuration (seed, inputs, platform)
        ior_keys = {k: v for k, v in sim_json.items() if k != "pfsim"}
        check(ok and list(sim_json)[-1:] == ["pfsim"] and
              set(sim_json["pfsim"]) == {"seed", "inputs", "platform"},
              "-O summaryFile=F: pfsim's effective configuration last, under 'pfsim' (seed, inputs, platform)")
        check(ok and same_keys(ior_keys, real) and same_keys(sim_json["tests"][0]["Results"][0], real["tests"][0]["Results"][0])
              and same_keys(sim_json["summary"][0], real["summary"][0]) and
              same_keys(sim_json["tests"][0]["Options"], real["tests"][0]["Options"]) and
              same_keys(sim_json["tests"][0]["Parameters"], real["tests"][0]["Parameters"]) and
              sim_json["tests"][0]["Path"].endswith(".00000000"),
              "-O summaryFormat=JSON: IOR's keys in IOR's order (top level, Parameters, Options, Results, summary)")
        # IOR's PrintKeyValDouble writes "%.4f": the summary's doubles have at most 4 decimals (helper-134: equal
        # repetitions had bwMaxMIB and bwMinMIB 1e-13 apart); pfsim's own --out keeps every digit.
        floats = [v for e in sim_json.get("tests", [{}])[0].get("Results", []) + sim_json.get("summary", [])
                  for v in e.values() if isinstance(v, float)]
        check(ok and len(floats) > 40 and all(round(v, 4) == v for v in floats) and
              any(round(x["latency"], 4) != x["latency"] for x in res.get("ior", [])),
              "-O summaryFormat=JSON: the summary's doubles rounded to 4 decimals as IOR prints them, --out's not")
        # -O summaryFile=F without JSON: IOR writes its text report to F (out_resultfile); its header line (a printf),
        # warnings and stonewalling lines go to stdout (out_logfile), after "Writing output to F".
        sw = ["--ranks", "2", "-F", "-w", "-t", "1m", "-b", "2g", "-D", "1", "-O", "stoneWallingWearOut=1",
              "--set", "clients.max_dirty_mb=0"]
        whole = run(pfsim, sw)
        r = run(pfsim, sw + ["-O", f"summaryFile={tmp}/sum.txt"])
        text = open(f"{tmp}/sum.txt").read() if r.returncode == 0 else ""
        out_lines = r.stdout.splitlines()
        check(r.returncode == 0 and out_lines[:2] == [f"Writing output to {tmp}/sum.txt", whole.stdout.splitlines()[0]]
              and any(l.startswith("WARNING: Expected aggregate") for l in out_lines)
              and any(l.startswith("stonewalling pairs accessed") for l in out_lines)
              and "Summary of all tests:" in text and "Began" in text and "IOR-" not in text and "WARNING" not in text
              and sorted(l for l in out_lines[1:] + text.splitlines() if not l.startswith("Command line")) ==
              sorted(l for l in whole.stdout.splitlines() if not l.startswith("Command line")),
              "-O summaryFile=F in text: the report in F, IOR's header, warnings and stonewalling lines on stdout "
              f"({r.stderr.strip()[:200]!r})")
        # IOR's string_to_bytes reads a size as sscanf(" %lld %c "): -b 16MB is 16m (helper-134: refused before)
        a = run(pfsim, ["--ranks", "1", "-w", "-t", "1MiB", "-b", "16MB"])
        b = run(pfsim, ["--ranks", "1", "-w", "-t", "1m", "-b", "16m"])
        strip = lambda t: [l for l in t.splitlines() if not l.startswith("Command line")]
        check(a.returncode == 0 and strip(a.stdout) == strip(b.stdout), f"-t 1MiB -b 16MB as -t 1m -b 16m ({a.stderr.strip()[:200]!r})")
        # --file-size: a read-only run's files as it finds them (IOR's fileSizeForRead); with a write, or below one
        # block, exit 2 naming it
        r = run(pfsim, ["--ranks", "2", "-F", "-r", "-z", "-z", "-t", "4k", "-b", "4k", "-s", "100", "--file-size", "64k"])
        check(r.returncode == 0 and "WARNING: Stat() of aggregate file size      = 131072" in r.stdout,
              f"--file-size 64k: IOR's Stat() warning reports 2 x 64 KiB ({r.stderr.strip()[:200]!r})")
        for extra, what in ((["-w", "-b", "4k"], "--file-size with a write"), (["-r", "-b", "1m"], "below one block")):
            r = run(pfsim, ["--ranks", "1", "-F", "-t", "4k", "--file-size", "64k"] + extra)
            check(r.returncode == 2 and what in r.stderr and r.stdout == "", f"--file-size {extra}: exit 2, '{what}' "
                  f"({r.returncode}: {r.stderr.strip()[:200]})")
        # -o names joined by '@' (IOR's ParseFileName): rank 0's Path is the first, the test filename as given
        r = run(pfsim, ["--ranks", "2", "-F", "-w", "-o", "/a/f1@/b/f2", "-t", "1m", "-b", "1m"])
        check(r.returncode == 0 and "Path                : /a/f1.00000000\n" in r.stdout and
              "test filename       : /a/f1@/b/f2\n" in r.stdout, "-o /a/f1@/b/f2: Path /a/f1.00000000 (IOR's first name)")
        # A read phase served from the page cache (NERSC: 384 GiB) with copies that cost nothing (page_cache_copy 0)
        # moves its data in no time: IOR's IOPS (transfers / wr-rd time) is infinite, "inf" in the text as IOR's printf
        # prints it, null in the JSON.
        zero_copy = ["--set", "clients.page_cache_copy=0"]
        r = run(pfsim, ["--ranks", "2", "-t", "1m", "-b", "1m", "-w", "-r"] + zero_copy)
        read_row = re.search(r"^read\s+(\S+)\s+(\S+)", r.stdout, re.M)
        check(read_row is not None and float(read_row.group(1)) > 0 and read_row.group(2) == "inf",
              f"a read served from the page cache: IOPS inf, bandwidth from the phase time ({read_row and read_row.group(0)})")
        r = run(pfsim, ["--ranks", "2", "-t", "1m", "-b", "1m", "-w", "-r", "-O", "summaryFormat=JSON"] + zero_copy)
        res_read = [x for x in json.loads(r.stdout)["tests"][0]["Results"] if x["access"] == "read"]
        check(len(res_read) == 1 and res_read[0]["iops"] is None and res_read[0]["bwMiB"] > 0,
              "... and null in the JSON summary")
        # ... and said, once, on stderr (helper-149: Mistral, 4 ranks on one node, -C, printed IOPS inf and a read
        # time of 0 without a word); every JSON output strict JSON (no Infinity or NaN, which json.loads would take)
        def strict(text):
            try:
                json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
                return True
            except ValueError:
                return False
        mistral = ["ior", "--platform", os.path.join(ROOT, "platforms", "mistral-lustre02.json"), "--ranks", "4", "-t",
                   "1m", "-b", "4m", "-w", "-r", "-C", "--out", f"{tmp}/cached.json", "-O", "summaryFormat=JSON",
                   "-O", f"summaryFile={tmp}/cached-sum.json"]
        r = subprocess.run([pfsim] + mistral, capture_output=True, text=True)
        said = [l for l in r.stderr.splitlines() if "took no simulated time" in l]
        check(r.returncode == 0 and len(said) == 1 and said[0].startswith("pfsim: warning: read, iteration 0: ") and
              "clients.page_cache_copy is not set" in said[0] and "every rank is on one node" in said[0] and
              strict(open(f"{tmp}/cached.json").read()) and strict(open(f"{tmp}/cached-sum.json").read()) and
              json.load(open(f"{tmp}/cached.json"))["ior"][1]["iops"] is None and
              said[0].split("warning: ")[1] in json.load(open(f"{tmp}/cached.json")).get("ior_warnings", []),
              f"Mistral, -C on one node: the read phase's no time said once, --out and the JSON summary strict JSON "
              f"({r.returncode}: {said or r.stderr.strip()[-300:]})")
        r = subprocess.run([pfsim] + mistral[:-4] + ["--set", "clients.page_cache_copy=4GBps"], capture_output=True,
                           text=True)
        read_row = re.search(r"^read\s+(\S+)\s+(\S+)", r.stdout, re.M)
        check(r.returncode == 0 and "took no simulated time" not in r.stderr and read_row is not None and
              read_row.group(2) != "inf", f"... with clients.page_cache_copy set, copies take time: IOPS "
              f"{read_row and read_row.group(2)}, no warning")
        r = run(pfsim, ["--ranks", "1", "-w", "-k", "-O", "summaryFormat=JSON"])
        check(r.returncode == 0 and json.loads(r.stdout)["tests"][0]["Parameters"]["keepFile"] == 1,
              "-k is the JSON summary's keepFile 1")
        r = run(pfsim, ["--from", f"{tmp}/sum.json", "--ranks", "4", "--out", f"{tmp}/from2.json"])
        res2 = json.load(open(f"{tmp}/from2.json")) if r.returncode == 0 else {}
        check(r.returncode == 0 and res2["run"]["ranks"] == 4 and "another task count" in r.stderr,
              "pfsim's own JSON summary reads back with --from, at another task count (--ranks 4)")
        r = run(pfsim, ["--from", real_json, "-O", "summaryFormat=JSON", "--quiet"])
        r2 = subprocess.run([pfsim, "ior", "--platform", PLATFORM, "--from", real_json, "-O", "summaryFormat=JSON"],
                            capture_output=True, text=True)
        try:
            json.loads(r2.stdout)
            parsed = True
        except ValueError:
            parsed = False
        check(r2.returncode == 0 and parsed, "-O summaryFormat=JSON without a file: the JSON on stdout, nothing else")
        # Malformed summaries and conflicting options: exit 2 naming the file and field.
        def summary_with(change):
            j = json.loads(json.dumps(real))
            change(j)
            path = f"{tmp}/bad-summary.json"
            with open(path, "w") as f:
                json.dump(j, f)
            return path
        bad_summaries = [
            (lambda j: j["tests"][0]["Parameters"].pop("transferSize"), "tests[0].Parameters: no field \"transferSize\""),
            (lambda j: j["tests"][0]["Parameters"].update(transferSize=-1), "tests[0].Parameters.transferSize"),
            (lambda j: j["tests"][0]["Parameters"].update(api="MPIIO"), "tests[0].Parameters.api"),
            (lambda j: j["tests"][0]["Results"][1].update(bwMiB="fast"), "tests[0].Results[1].bwMiB"),
            (lambda j: j.update(tests=[]), "(top).tests"),
            (lambda j: j["tests"].append(j["tests"][0]), "(top).tests"),
            (lambda j: j["tests"][0]["Parameters"].update(reorderTasksRandom=1), "reorderTasksRandom"),
            (lambda j: j["tests"][0].update(Results=[]), "tests[0].Results"),
            (lambda j: j["tests"][0]["Parameters"].update(transferSize=2 ** 64 - 1), "tests[0].Parameters.transferSize"),
            # Fields that state one thing twice and disagree: both named, with their values.
            (lambda j: j["tests"][0]["Parameters"].update(blockSize=2097152),
             'tests[0].Parameters.blockSize 2097152 and (top).tests[0].Options.blocksize "1 MiB" disagree'),
            (lambda j: (j["tests"][0]["Parameters"].update(blockSize=2097152),
                        j["tests"][0]["Options"].update(blocksize="2 MiB")),
             "tests[0].Parameters.blockSize 2097152 and (top).tests[0].Results[0].blockKiB 1024 disagree"),
            (lambda j: (j["tests"][0]["Parameters"].update(blockSize=2097152),
                        j["tests"][0]["Options"].update(blocksize="2 MiB"),
                        [r.update(blockKiB=2048.0) for r in j["tests"][0]["Results"]]),
             "tests[0].Parameters.blockSize 2097152 and (top).Command line (-b 1m) disagree"),
            (lambda j: j["tests"][0]["Parameters"].update(repetitions=3),
             "tests[0].Parameters.repetitions 3 and (top).tests[0].Options.repetitions 2 disagree"),
            (lambda j: (j["tests"][0]["Parameters"].update(repetitions=3), j["tests"][0]["Options"].update(repetitions=3),
                        j.update({"Command line": j["Command line"].replace("-i 2", "-i 3")})),
             'tests[0].Parameters.repetitions 3 and (top).tests[0].Results 2 "write" result(s) disagree'),
            (lambda j: j["tests"][0]["Parameters"].update(writeFile=0),
             'tests[0].Parameters.writeFile 0 and (top).tests[0].Results 2 "write" result(s) disagree'),
            # ... and switches the command line sets, or the Options' access (helper-104: Parameters won silently)
            (lambda j: j["tests"][0]["Parameters"].update(filePerProc=0),
             "tests[0].Parameters.filePerProc 0 and (top).Command line (-F) disagree"),
            (lambda j: (j["tests"][0]["Parameters"].update(filePerProc=0),
                        j.update({"Command line": j["Command line"].replace(" -F", "")})),
             'tests[0].Parameters.filePerProc 0 and (top).tests[0].Options.access "file-per-process" disagree'),
            (lambda j: j["tests"][0]["Parameters"].update(fsync=0),
             "tests[0].Parameters.fsync 0 and (top).Command line (-e) disagree"),
            (lambda j: j["tests"][0]["Parameters"].update(reorderTasks=0),
             "tests[0].Parameters.reorderTasks 0 and (top).Command line (-C) disagree"),
            (lambda j: j["tests"][0]["Options"].update(tasks=6),
             "tests[0].Options.tasks 6 and (top).tests[0].Parameters.tasksPerNode 2 x (top).tests[0].Parameters.nodes 1 "
             "disagree"),
            # -t not dividing -b: named by the summary's fields, not as "option -b"
            (lambda j: (j["tests"][0]["Parameters"].update(transferSize=300000),
                        j["tests"][0]["Options"].update(xfersize="300000 bytes"),
                        [r.update(xferKiB=300000 / 1024) for r in j["tests"][0]["Results"]],
                        j.update({"Command line": j["Command line"].replace("-t 256k", "-t 300000")})),
             "tests[0].Parameters.blockSize: expected a multiple of (top).tests[0].Parameters.transferSize (300000 bytes)"),
        ]
        for change, field in bad_summaries:
            path = summary_with(change)
            r = run(pfsim, ["--from", path, "--out", f"{tmp}/bad.json"])
            lines = r.stderr.strip().splitlines()
            check(r.returncode == 2 and len(lines) == 1 and path in lines[0] and field in lines[0] and
                  not os.path.exists(f"{tmp}/bad.json"), f"--from a summary with a bad {field}: exit 2 naming it "
                                                         f"({lines[-1:]})")
        # IOR's nodes are the MPI job's: a test with -N below the job's size has more nodes than its tasks fill
        # (helper-74: tasks 2, tasksPerNode 2, nodes 2 was refused as a contradiction).
        path = summary_with(lambda j: (j["tests"][0]["Parameters"].update(nodes=2),
                                       j["tests"][0]["Options"].update(nodes=2)))
        r = run(pfsim, ["--from", path, "--out", f"{tmp}/n.json"])
        check(r.returncode == 0 and os.path.exists(f"{tmp}/n.json"),
              f"--from a summary of 2 tasks on a 2-node job (-N 2): accepted ({r.stderr.strip()[-200:]})")
        with open(f"{tmp}/trunc.json", "w") as f:
            f.write(open(real_json).read()[:500])
        r = run(pfsim, ["--from", f"{tmp}/trunc.json"])
        check(r.returncode == 2 and "trunc.json" in r.stderr and "not JSON" in r.stderr, "a truncated summary: exit 2")
        with open(f"{tmp}/huge.json", "w") as f:
            f.write(open(real_json).read().replace('"bwMiB": 835.7685', '"bwMiB": 1e400'))
        r = run(pfsim, ["--from", f"{tmp}/huge.json"])
        check(r.returncode == 2 and "huge.json" in r.stderr, "a number beyond a double's range: exit 2 naming the file")
        r = run(pfsim, ["--from", tmp])
        check(r.returncode == 2 and "not a regular file" in r.stderr, "--from a directory: exit 2")
        r = run(pfsim, ["--from", real_json, "-a", "MPIIO"])
        check(r.returncode == 2 and "-a" in r.stderr, "--from with -a MPIIO: exit 2")
        r = run(pfsim, ["--from", real_json, "-t", "1m"])
        check(r.returncode == 2 and "-t" in r.stderr and "--from" in r.stderr, "--from with -t: exit 2")
        # Values written against their short option (-t1m), as IOR 4's parser takes them: the same run.
        spaced = run(pfsim, ["--ranks", "2", "-w", "-t", "64k", "-b", "256k", "-s", "3", "-i", "1"])
        attached = run(pfsim, ["--ranks", "2", "-w", "-t64k", "-b256k", "-s3", "-i1"])
        results = lambda t: [l for l in t.splitlines() if l.startswith(("write ", "Max Write", "blocksize", "xfersize"))]
        check(spaced.returncode == attached.returncode == 0 and results(spaced.stdout) == results(attached.stdout) and
              len(results(spaced.stdout)) >= 3, f"-t64k -b256k -s3 run as -t 64k -b 256k -s 3 ({attached.stderr[-200:]})")
        r = run(pfsim, ["--ranks", "1", "-wx"])
        check(r.returncode == 2 and "-wx" in r.stderr, "-wx (a flag with text after it): exit 2 naming it")
        r = run(pfsim, ["--ranks", "1", "-O", "summaryFormat=CSV"])
        check(r.returncode == 2 and "summaryFormat" in r.stderr, "-O summaryFormat=CSV: exit 2 (not modelled)")
        # Errors: exit 2, one line naming the option or field, no output written.
        bad = [
            (["--ranks", "1", "-t", "3m", "-b", "4m"], "-b"),
            (["--ranks", "1", "-t", "0"], "-t"),
            (["--ranks", "1", "-t", "100", "-b", "100"], "-t: expected a multiple of 8 bytes"),
            (["--ranks", "1", "-t", "-4k"], "-t"),
            (["--ranks", "1", "-s", "0"], "-s"),
            (["-t", "1m"], "--ranks"),
            (["--ranks", "1", "-a", "MPIIO"], "-a"),
            (["--ranks", "1", "--set", "clients.max_dirty_mb=0.5"], "clients.max_dirty_mb"),
            (["--ranks", "1", "--set", "clients.max_dirty_mb=-1"], "clients.max_dirty_mb"),
            (["--ranks", "1", "--set", "oss.stripe_count=5"], "oss.stripe_count"),
            (["--ranks", "1", "--set", "oss.stripe_size=\"100KiB\""], "oss.stripe_size"),
            (["--ranks", "1", "--set", "oss.sample_offset=\"6s\""], "oss.sample_offset"),
            (["--ranks", "1", "--set", "clients.max_pages_per_rpc=0"], "clients.max_pages_per_rpc"),
        ]
        for extra, name in bad:
            out = f"{tmp}/bad.json"
            r = run(pfsim, extra + ["--out", out, "--lmt", f"{tmp}/bad.csv"])
            lines = r.stderr.strip().splitlines()
            check(r.returncode == 2 and len(lines) == 1 and name in lines[0] and not os.path.exists(out) and
                  not os.path.exists(f"{tmp}/bad.csv"), f"{' '.join(extra)}: exit 2 naming {name} ({lines[-1:]})")
        sweep_checks(pfsim, tmp, real_json)
        placement_seed_checks(pfsim, tmp)
        io500_checks(pfsim, tmp)
        status_read_checks(pfsim, tmp)
        option_checks(pfsim, tmp, real_json)
    check.finish("ior")


def placement_seed_checks(pfsim, tmp):
    """oss.placement "object" (CephFS's CRUSH) is a draw per --seed: seed 1 is the default run, seeds 2 and 3 put the
    same 16 files' objects on other OSDs (per-OSS served counts differ), so that sweeps can be averaged over seeds."""
    platform = os.path.join(ROOT, "platforms", "spartan-cephfs-fitted.json")
    served = {}
    for seed in (None, 1, 2, 3):
        out = f"{tmp}/seed-{seed}.json"
        r = subprocess.run([pfsim, "ior", "--platform", platform, "--ranks", "16", "--ranks-per-node", "16", "-F",
                            "-t", "1m", "-b", "16m", "-w", "-e", "--out", out] +
                           ([] if seed is None else ["--seed", str(seed)]), capture_output=True, text=True)
        check(r.returncode == 0, f"ior on the CephFS platform, seed {seed} ({r.stderr.strip()[-200:]})")
        if r.returncode:
            return
        res = json.load(open(out))
        served[seed] = [s["served"] for s in res["servers"] if s["name"].startswith("oss-")]
    check(served[None] == served[1], "seed 1 is the default run's placement")
    check(served[2] != served[1] and served[3] != served[1] and served[2] != served[3],
          f"seeds 1, 2 and 3 place the objects differently (served per OSD: {served[1][:6]}..., {served[2][:6]}...)")
    check(sum(served[2]) == sum(served[1]), "every seed serves the same RPCs in all")


def io500_checks(pfsim, tmp):
    """IO500's own IOR command lines (the "Command line" of ../shared/data/tool-outputs/io500/standard-results/*.txt,
    IOR 4.1, 2 tasks on one node), run as typed in IO500's order with their paths moved under tmp: ior-easy-write,
    ior-hard-write (-D 1 with stoneWallingWearOut: the stonewall line, the pairs in the status file), ior-easy-read and
    ior-hard-read (-R; the status file's count), ior-rnd4K-easy-read (-z -z -D 1 -Q 2: random 4 KiB reads stopped at
    1 s, IOR's size warnings and its 'Pairs' line); each writes saveRankPerformanceDetailsCSV in IOR's format."""
    base = os.path.join(DATA, "io500", "standard-results")
    root = os.path.join(tmp, "io500-run")
    for d in ("results", "datafiles/ior-easy", "datafiles/ior-hard"):
        os.makedirs(os.path.join(root, d))

    def command(name):
        line = next(l for l in open(os.path.join(base, name + ".txt")) if l.startswith("Command line"))
        words = line.split(":", 1)[1].split()
        assert words[0] == "./ior"
        return [w.replace("/scratch/io500-run", root) for w in words[1:]]

    def real(name):
        return open(os.path.join(base, name + ".txt")).read()

    stonewall_re = re.compile(r"^stonewalling pairs accessed min: \d+ max: \d+ -- min data: \d+\.\d GiB mean data: "
                              r"\d+\.\d GiB time: \d+\.\ds$", re.M)
    number = r"\d\.\d{10}e[+-]\d\d"
    csv_row = re.compile(rf"^(write|read),[01],{number},{number},{number},{number}$")
    real_csv = open(os.path.join(base, "ior-easy-write.csv")).read().splitlines()
    out = {}
    for name in ("ior-easy-write", "ior-hard-write", "ior-easy-read", "ior-hard-read", "ior-rnd4K-easy-read"):
        r = run(pfsim, ["--ranks", "2", "--set", "clients.ranks_per_node=2", "--out", f"{tmp}/{name}.json"] +
                command(name))
        out[name] = r.stdout
        check(r.returncode == 0, f"IO500's {name} command line runs as typed ({r.stderr.strip()[-300:]})")
        if r.returncode:
            continue
        # IOR's header lines in its order, but FS (a file system's capacity and inodes, which pfsim does not model);
        # Began, StartTime and Finished dates in IOR's layout (the simulated clock from 1970), parsed as the real ones
        head = lambda t: [l.split(":")[0].strip() for l in t.split("\nOptions:")[0].splitlines()[1:]]
        dates = lambda t: [l.split(":", 1)[1].strip() for l in t.splitlines()
                           if l.split(":")[0].strip() in ("Began", "StartTime", "Finished")]
        parsed = [time.strptime(d, "%a %b %d %H:%M:%S %Y") for d in dates(r.stdout) + dates(real(name))]
        check(head(r.stdout) == [k for k in head(real(name)) if k != "FS"] and len(dates(r.stdout)) == 3 and
              len(parsed) == 3 + len(dates(real(name))) >= 5, f"{name}: IOR's header lines (but FS) and its three "
              f"dates (IO500 keeps Began and StartTime), in IOR's layout "
              f"({head(r.stdout)}, {dates(r.stdout)})")
        sim_opts = [l.split(":")[0].strip() for l in block(r.stdout, "api")]
        real_opts = [l.split(":")[0].strip() for l in block(real(name), "api")]
        check(sim_opts == real_opts, f"{name}: the Options block has the real run's keys ({sim_opts})")
        check(len(stonewall_re.findall(r.stdout)) == len(stonewall_re.findall(real(name))),
              f"{name}: the 'stonewalling pairs accessed' line where the real run prints it")
        rows = open(os.path.join(root, "results", name + ".csv")).read().splitlines()
        check(rows[0] == real_csv[0] and len(rows) == 3 and all(csv_row.match(x) for x in rows[1:]),
              f"{name}: saveRankPerformanceDetailsCSV in IOR's format, a row per rank ({rows})")
    status = lambda n: open(os.path.join(root, "results", n + ".stonewall")).read()
    # ior-easy: 64 MiB per rank in 1 MiB, all before the 1 s deadline on this platform; ior-hard: 2000 segments
    check(status("ior-easy") == "64" and status("ior-hard") == "2000",
          f"the wear-out writes store their pairs in the status files, as IOR's '%lld' ({status('ior-easy')!r}, "
          f"{status('ior-hard')!r})")
    res = json.load(open(f"{tmp}/ior-easy-read.json"))
    check(res["ior"][0]["bytes"] == 2 * 64 * 1048576 and res["workload"]["status_file_pairs"] == 64,
          "ior-easy-read reads the status file's 64 pairs per rank")
    rnd = json.load(open(f"{tmp}/ior-rnd4K-easy-read.json"))
    entry = rnd["ior"][0]
    expected = 2 * 10000000 * 4096
    check(rnd["workload"]["random_offset"] == 2 and 0 < entry["bytes"] < expected and
          entry["bytes"] == 2 * entry["stonewall"]["pairs_max"] * 4096 and 1.0 <= entry["totalTime"] < 1.1,
          f"ior-rnd4K-easy-read: random 4 KiB reads stopped after 1 s, every rank on to the most pairs "
          f"({entry['bytes']} of {expected} bytes, {entry['totalTime']} s)")
    warn = lambda t: [l.split("=")[0] for l in t.splitlines() if l.startswith("WARNING")]
    sim = out.get("ior-rnd4K-easy-read", "")
    check(warn(sim) == warn(real("ior-rnd4K-easy-read")) and
          f"WARNING: Using actual aggregate bytes moved = {int(entry['bytes'])}\n" in sim,
          f"ior-rnd4K-easy-read: IOR's warnings of a size moved below the expected one ({warn(sim)})")
    check("Pairs deadlineForStonewallingaccessed: 0" in sim and "ordering in a file  : random" in sim and
          "task offset         : 2" in sim, "ior-rnd4K-easy-read: its 'Pairs' line, random ordering, task offset 2")


def status_read_checks(pfsim, tmp):
    """A read run after a stonewalled write (IO500's ior-hard: -s 10,000,000 stopped at 1 s) reads the status file's
    count: IOR's size warning states the files as that write left them (IOR stats them), not the test's size, and the
    run's size estimate counts those transfers, not 10,000,000 a rank (helper-132: 'Stat() of aggregate file size' was
    the test's size, and the read was said to take hours)."""
    sw = os.path.join(tmp, "hard.stonewall")
    base = ["--ranks", "4", "--ranks-per-node", "2", "-t", "47008", "-b", "47008", "-s", "100000000", "-C", "-e", "-k",
            "-O", f"stoneWallingStatusFile={sw}"]
    w = run(pfsim, base + ["-w", "-D", "1", "-O", "stoneWallingWearOut=1", "--quiet"])
    pairs = int(open(sw).read()) if w.returncode == 0 else 0
    r = run(pfsim, base + ["-r"])
    stat = re.search(r"^WARNING: Stat\(\) of aggregate file size += (\d+)$", r.stdout, re.M)
    check(0 < pairs < 100000000 and stat is not None and int(stat.group(1)) == 4 * pairs * 47008 and
          "this run simulates" not in r.stderr,
          f"a read after a stonewalled write: the files as written ({pairs} transfers a rank: "
          f"{4 * pairs * 47008} bytes; got {stat.group(1) if stat else None}), no size warning of the whole test "
          f"({r.stderr.strip()[-160:]})")


def option_checks(pfsim, tmp, real_json):
    """-Q with -C: the node whose data each rank reads, through the page cache (NERSC's clients.max_cached_mb holds
    it): 5 ranks, 3 per node (0-2 on node 0, 3-4 on node 1), -F -b 4m -t 1m; with -Q N rank r reads rank
    (r + 3N) mod 5's file: N = 1 leaves one rank on its own node (rank 2 reads rank 0's), N = 2 three (0->1, 1->2,
    3->4), N = 0 all five: 4, 12 and 20 reads from the cache. -W's verification and -u's mkdirs are phases of their own,
    not IOR results (the sweep's bw_MiBps empty there). Refused options name themselves and why; IOR's own checks of the
    stonewall's and -z's options are exit 2 with IOR's words. --from reads -z and -D from a summary."""
    for q, hits in ((1, 1), (2, 3), (0, 5)):
        r = run(pfsim, ["--ranks", "5", "--ranks-per-node", "3", "-F", "-w", "-r", "-C", "-Q", str(q), "-t", "1m",
                        "-b", "4m", "--out", f"{tmp}/q.json"])
        res = json.load(open(f"{tmp}/q.json")) if r.returncode == 0 else {}
        check(r.returncode == 0 and res["client_cache_reads"]["reads"] == 4 * hits and
              res["workload"]["read_shift"] == 3 * q % 5,
              f"-C -Q {q}: {hits} of 5 ranks read their own node's data ({res.get('client_cache_reads')})")
    # -W's verification reads the data 2 nodes on whatever -Q says (IOR 4.1: rankOffset = 2 x shift), with -Q 2 as
    # with -Q 1: rank r checks rank (r + 6) mod 5's, on its own node for ranks 0, 1 and 3 (helper-125: -Q + 1 nodes on).
    for q in (1, 2):
        r = run(pfsim, ["--ranks", "5", "--ranks-per-node", "3", "-F", "-w", "-W", "-C", "-Q", str(q), "-t", "1m",
                        "-b", "8m", "--out", f"{tmp}/wq.json"])
        res = json.load(open(f"{tmp}/wq.json")) if r.returncode == 0 else {}
        check(r.returncode == 0 and res["workload"]["check_shift"] == 1 and res["client_cache_reads"]["reads"] == 24,
              f"-W -C -Q {q}: the check reads 2 nodes on, 3 of 5 ranks from their own node's cache "
              f"({res.get('client_cache_reads')})")
    # -C when the ranks do not fill one node: IOR shifts by the tasks on node 0 (3 of 3: no shift), not the ranks per
    # node (4 mod 3 = 1).
    r = run(pfsim, ["--ranks", "3", "--ranks-per-node", "4", "-F", "-w", "-r", "-C", "-t", "1m", "-b", "4m",
                    "--out", f"{tmp}/c3.json"])
    res = json.load(open(f"{tmp}/c3.json")) if r.returncode == 0 else {"workload": {}}
    check(r.returncode == 0 and res["workload"].get("read_shift") == 0,
          f"-C with 3 ranks on a node of 4: no shift, as IOR's tasks on node 0 ({res['workload'].get('read_shift')})")
    # -g -e: IOR's fsync ends the write loop and the barrier follows it, so every rank closes at once: 3 ranks on 2
    # OSTs, two sharing one, per-rank open-to-close times equal (helper-125/126: the fsync after the barrier gave
    # rank 1, alone on its OST, half the others' time).
    r = run(pfsim, ["--ranks", "3", "--set", "oss.count=2", "-F", "-w", "-t", "1m", "-b", "64m", "-g", "-e",
                    "-O", f"saveRankPerformanceDetailsCSV={tmp}/ge.csv"])
    rows = list(csv.DictReader(open(f"{tmp}/ge.csv"))) if r.returncode == 0 else []
    total = [float(x["runtime-with-openclose"]) for x in rows]
    own = [float(x["runtime"]) for x in rows]
    check(len(rows) == 3 and max(total) - min(total) <= 1e-6 * max(total) and min(own) < 0.6 * max(own),
          f"-g -e: every rank closes at once after the fsync, its own transfer time its own ({total}, {own})")
    r = run(pfsim, ["--ranks", "4", "-F", "-u", "-W", "-w", "-r", "-g", "-Y", "-t", "1m", "-b", "4m",
                    "--out", f"{tmp}/w.json"])
    res = json.load(open(f"{tmp}/w.json")) if r.returncode == 0 else {"phases": [], "ior": []}
    check(r.returncode == 0 and [p["name"] for p in res["phases"]] == ["mkdir", "write", "write-check", "read"] and
          [e["access"] for e in res["ior"]] == ["write", "read"] and
          [l.split()[0] for l in block(r.stdout, "access    bw")[2:]] == ["write", "read"],
          f"-u -W: a mkdir and a write-check phase, untimed: IOR's rows are the write and the read "
          f"({[p['name'] for p in res['phases']]})")
    r = run(pfsim, ["--ranks", "2,4", "-F", "-W", "-w", "-t", "1m", "-b", "4m", "--csv", f"{tmp}/wc.csv", "--quiet"])
    rows = list(csv.DictReader(open(f"{tmp}/wc.csv"))) if r.returncode == 0 else []
    check([(x["phase"], x["bw_MiBps"] != "") for x in rows] == [("write", True), ("write-check", False)] * 2,
          f"a sweep with -W: the write-check rows have no bw_MiBps ({[(x['phase'], x['bw_MiBps']) for x in rows]})")
    for opt, name in ((["-c"], "-c"), (["-V"], "-V"), (["-J", "1m"], "-J"), (["-T", "1"], "-T"), (["-Z"], "-Z")):
        r = run(pfsim, ["--ranks", "1", "--out", f"{tmp}/refused.json"] + opt)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and f"IOR option {name} (" in lines[0] and "not supported" in
              lines[0] and not os.path.exists(f"{tmp}/refused.json"), f"{name}: refused by name, with why ({lines})")
    ior_rules = [
        (["-w", "-D", "1", "-O", "stoneWallingWearOut=1", "-O", f"stoneWallingStatusFile={tmp}/sw"],
         "please use -k"),
        (["-w", "-k", "-D", "1", "-O", f"stoneWallingStatusFile={tmp}/sw"], "only sensible for a write test"),
        (["-w", "-O", "stoneWallingWearOut=1"], "only sensible when setting a stonewall deadline with -D"),
        (["-r", "-R"], "use -G"),
        (["-z", "-t", "1m", "-b", "1m"], "choose blocksize > transferSize"),
        (["-z", "-C", "-w", "-r"], "single-shared-file"),
        (["-z", "-z", "-w", "-F"], "-z -z"),
        (["-z", "-w", "-R"], "random offset with read check option requires to set the random seed"),
        (["-l", "zebra"], "-l zebra"),
        (["-O", "stoneWallingWearOut=2"], "stoneWallingWearOut=2"),
        (["-O", "summaryFormat=CSV"], "IOR's CSV summary is not written by pfsim"),
        (["-D", "x"], "-D"),
    ]
    for extra, words in ior_rules:
        r = run(pfsim, ["--ranks", "2", "--out", f"{tmp}/rule.json"] + extra)
        lines = r.stderr.strip().splitlines()
        check(r.returncode == 2 and len(lines) == 1 and words in lines[0] and not os.path.exists(f"{tmp}/rule.json"),
              f"{' '.join(extra)}: exit 2 with '{words}' ({lines})")
    # The options that change nothing modelled are accepted and recorded: the same run with and without them
    plain = ["--ranks", "2", "-w", "-t", "1m", "-b", "4m", "--out", f"{tmp}/plain.json"]
    a = run(pfsim, plain)
    b = run(pfsim, plain[:-1] + [f"{tmp}/extra.json", "-v", "-v", "-q", "-x", "-G=12345", "--dataPacketType=timestamp"])
    ja = json.load(open(f"{tmp}/plain.json")) if a.returncode == 0 else {}
    jb = json.load(open(f"{tmp}/extra.json")) if b.returncode == 0 else {}
    check(b.returncode == 0 and ja["ior"] == jb["ior"] and jb["workload"]["params"]["v"] == 2 and
          jb["workload"]["params"]["G"] == "12345" and jb["workload"]["params"]["l"] == "timestamp",
          "-v -v -q -x -G= --dataPacketType=: recorded, the results unchanged")
    # --from reads -z and -D (and the wear-out) from the recorded Parameters; pfsim's own summary reads back the same
    real = json.load(open(real_json))
    real["tests"][0]["Parameters"].update(randomOffset=1, deadlineForStonewall=1, stoneWallingWearOut=1)
    with open(f"{tmp}/zd.json", "w") as f:
        json.dump(real, f)
    r = run(pfsim, ["--from", f"{tmp}/zd.json", "--out", f"{tmp}/fz.json", "-O", "summaryFormat=JSON",
                    "-O", f"summaryFile={tmp}/fz-summary.json"])
    res = json.load(open(f"{tmp}/fz.json")) if r.returncode == 0 else {"workload": {}}
    w = res["workload"]
    check(r.returncode == 0 and w.get("random_offset") == 1 and w.get("deadline_s") == 1 and w.get("wear_out"),
          f"--from a summary with randomOffset 1, deadlineForStonewall 1, stoneWallingWearOut 1: run with them ({w})")
    summary = json.load(open(f"{tmp}/fz-summary.json")) if r.returncode == 0 else {"tests": [{}]}
    params, opts = summary["tests"][0].get("Parameters", {}), summary["tests"][0].get("Options", {})
    check(params.get("randomOffset") == 1 and params.get("deadlineForStonewall") == 1 and
          opts.get("ordering in a file") == "random" and opts.get("stonewallingTime") == 1 and
          opts.get("stoneWallingWearOut") == 1, "pfsim's JSON summary records -z and -D as IOR's does")
    # A recorded test pfsim cannot run is said to be the file's (helper-125: "option -z -z: ..." named the command line)
    real["tests"][0]["Parameters"].update(randomOffset=2, deadlineForStonewall=0, stoneWallingWearOut=0)
    with open(f"{tmp}/zz.json", "w") as f:
        json.dump(real, f)
    r = run(pfsim, ["--from", f"{tmp}/zz.json", "--out", f"{tmp}/zz-out.json"])
    lines = r.stderr.strip().splitlines()
    check(r.returncode == 2 and len(lines) == 1 and f"{tmp}/zz.json: the test it records" in lines[0] and
          "-z -z" in lines[0] and not os.path.exists(f"{tmp}/zz-out.json"),
          f"--from a summary with randomOffset 2 and a write: exit 2 naming the file ({lines})")
    r = run(pfsim, ["--from", f"{tmp}/fz-summary.json", "--out", f"{tmp}/fz2.json"])
    w2 = json.load(open(f"{tmp}/fz2.json"))["workload"] if r.returncode == 0 else {}
    check(r.returncode == 0 and all(w2.get(k) == w.get(k) for k in ("random_offset", "deadline_s", "wear_out")),
          "... and reads back with --from to the same test")


def printed_rows(stdout):
    """IOR's Results rows of a single run's stdout: (access, iteration) -> (bw, total) as printed (strings)."""
    rows = {}
    for line in block(stdout, "access    bw")[2:]:
        f = line.split()
        rows[(f[0], int(f[-1]))] = (f[1], f[-2])
    return rows


def close_to_printed(value, printed):
    """`value` (the CSV's) rounds to `printed` (IOR's text: as many decimals as it shows), within half its last digit
    and the CSV's own rounding."""
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    return abs(value - float(printed)) <= 0.5 * 10 ** -decimals + 5e-4


def sweep_checks(pfsim, tmp, real_json):
    # A sweep's rows are the single runs at each rank count (bandwidth and total time, to the printed precision and to
    # the --out JSON's digits), and its stdout is the table alone.
    args = ["-t", "1m", "-b", "16m", "-F", "-w", "-r", "-e", "-C", "-i", "2", "--set", "clients.ranks_per_node=2"]
    r = run(pfsim, args + ["--ranks", "2,4,6", "--csv", f"{tmp}/s.csv"])
    check(r.returncode == 0, f"ior --ranks 2,4,6 --csv runs ({r.stderr.strip()[-300:]})")
    table = open(f"{tmp}/s.csv").read()
    check(r.stdout == table and "IOR" not in r.stdout, "a sweep's stdout is its table, without IOR's text output")
    rows = list(csv.DictReader(table.splitlines()))
    check(list(rows[0].keys()) == ["ranks", "nodes", "phase", "iteration", "items", "time_s", "rate", "p50_s", "p99_s",
                                   "bw_MiBps"], f"the sweep's columns: pfsim sweep's and bw_MiBps ({list(rows[0])})")
    meta = json.load(open(f"{tmp}/s.csv.json"))
    for k, ranks in enumerate([2, 4, 6]):
        single = run(pfsim, args + ["--ranks", str(ranks), "--out", f"{tmp}/single{ranks}.json"])
        out = json.load(open(f"{tmp}/single{ranks}.json"))
        printed = printed_rows(single.stdout)
        mine = [x for x in rows if x["ranks"] == str(ranks)]
        keys = [(x["phase"], int(x["iteration"])) for x in mine]
        check(keys == [("write", 0), ("read", 0), ("write", 1), ("read", 1)] and list(printed) == keys,
              f"{ranks} ranks: a row per access and repetition, in IOR's order ({keys})")
        same_print = all(close_to_printed(float(x["bw_MiBps"]), printed[key][0]) and
                         close_to_printed(float(x["time_s"]), printed[key][1]) for x, key in zip(mine, keys))
        same_json = all(x["bw_MiBps"] == f"{e['bwMiB']:.3f}" and x["time_s"] == f"{e['totalTime']:.6f}" and
                        x["nodes"] == str(out["run"]["nodes"]) for x, e in zip(mine, out["ior"]))
        check(single.returncode == 0 and same_print and same_json,
              f"{ranks} ranks: the rows' bw_MiBps and time_s are the single run's bw(MiB/s) and total(s) "
              f"({[(x['bw_MiBps'], x['time_s']) for x in mine]} against {list(printed.values())})")
        check(meta["points"][k]["ior"] == out["ior"] and meta["points"][k]["run"] == out["run"],
              f"{ranks} ranks: the point's \"ior\" in FILE.json is the single run's --out \"ior\"")
    check(meta["ranks"] == [2, 4, 6] and meta["inputs"]["options"]["--ranks"] == "2,4,6" and
          meta["workload"]["generator"] == "ior" and "ranks" not in meta["workload"],
          "FILE.json states the sweep's rank list and the IOR workload without one rank count")
    # --jobs 1 and 2: the same table and configuration file.
    r2 = run(pfsim, args + ["--ranks", "2,4,6", "--csv", f"{tmp}/s2.csv", "--jobs", "2", "--quiet"])
    check(r2.returncode == 0 and r2.stdout == "" and open(f"{tmp}/s2.csv").read() == table and
          json.load(open(f"{tmp}/s2.csv.json")) == meta, "--jobs 2 gives the same CSV and FILE.json as --jobs 1")

    # --vary oss.count: one node's 8 ranks writing a file each (one stripe, dealt round robin over the OSTs), with an
    # fsync, write min(OSTs x oss.disk_write, network.client_link): 355.8 MiB/s per OST (nersc-grace-lmt.json), the
    # node's link 2 GB/s = 1,907.35 MiB/s. Rising with the OSTs, then flat at the link.
    counts = [1, 2, 4, 8, 16]
    r = run(pfsim, ["--ranks", "8", "--ranks-per-node", "8", "-F", "-w", "-e", "-t", "4m", "-b", "128m", "--quiet",
                    "--vary", "oss.count=" + ",".join(map(str, counts)), "--csv", f"{tmp}/v.csv", "--jobs", "2"])
    rows = list(csv.DictReader(open(f"{tmp}/v.csv"))) if r.returncode == 0 else []
    bw = [float(x["bw_MiBps"]) for x in rows]
    bound = [min(k * 355.8, 2e9 / 1048576) for k in counts]
    check(len(rows) == len(counts) and [x["oss.count"] for x in rows] == [str(k) for k in counts] and
          all(0.97 * b <= v <= 1.001 * b for v, b in zip(bw, bound)),
          f"--vary oss.count=1,2,4,8,16: bandwidth within 3% below min(OSTs x 355.8, 1907.35) MiB/s ({bw} against "
          f"{[round(b, 1) for b in bound]}; {r.stderr.strip()[-200:]})")
    check(len(bw) == 5 and bw[0] < bw[1] < bw[2] < bw[3] and abs(bw[4] - bw[3]) < 1e-3 * bw[3],
          "the bandwidth rises with the OSTs until the node's link bounds it (8 and 16 OSTs the same)")

    # --from with a list: the recorded test at each rank count, compared point by point.
    r = run(pfsim, ["--from", real_json, "--ranks", "2,4", "--csv", f"{tmp}/f.csv", "--quiet"])
    single = run(pfsim, ["--from", real_json, "--ranks", "4", "--out", f"{tmp}/f4.json", "--quiet"])
    meta = json.load(open(f"{tmp}/f.csv.json")) if r.returncode == 0 else {"points": [{}, {}]}
    check(r.returncode == 0 and single.returncode == 0 and
          meta["points"][1].get("ior") == json.load(open(f"{tmp}/f4.json"))["ior"] and
          meta["points"][1].get("compared_with", {}).get("tasks") == 2 and
          "4 ranks: write, iteration 0: measured 835.77" in r.stderr,
          f"--from SUMMARY --ranks 2,4 --csv: the recorded test at each rank count, compared ({r.stderr[-300:]})")

    # A warning that holds at every rank count is said once, not by every point.
    r = run(pfsim, ["--ranks", "1,2,3", "-w", "-t", "1m", "-b", "8m", "--set", "clients.page_cache_copy=0",
                    "--csv", f"{tmp}/w.csv", "--quiet"])
    check(r.returncode == 0 and r.stderr.count("writes return once their pages are in the write-back cache") == 1,
          f"a sweep's platform warning is printed once ({r.stderr.count('writes return once')} times)")

    # Bad lists and options: exit 2, one line naming the problem, nothing written.
    tmp = os.path.join(tmp, "bad-sweeps")
    os.mkdir(tmp)
    bad = [
        (["--ranks", "2,4"], "--csv"),
        (["--ranks", "2,2", "--csv", f"{tmp}/b.csv"], "twice"),
        (["--ranks", "2,x", "--csv", f"{tmp}/b.csv"], "--ranks"),
        (["--ranks", "2,", "--csv", f"{tmp}/b.csv"], "--ranks"),
        (["--ranks", "0,2", "--csv", f"{tmp}/b.csv"], "--ranks"),
        (["--ranks", "", "--csv", f"{tmp}/b.csv"], "--ranks"),
        (["--ranks", "2,4", "--csv", f"{tmp}/b.csv", "--out", f"{tmp}/b.json"], "--out"),
        (["--ranks", "2,4", "--csv", f"{tmp}/b.csv", "--lmt", f"{tmp}/b.lmt"], "--lmt"),
        (["--ranks", "2,4", "--csv", f"{tmp}/b.csv", "-O", "summaryFormat=JSON"], "-O"),
        (["--ranks", "2,4", "--csv", f"{tmp}/b.csv", "--jobs", "0"], "--jobs"),
        (["--ranks", "2,4", "--csv", f"{tmp}/b.csv", "--vary", "oss.count=4"], "--vary"),
        (["--ranks", "2,4", "--csv", f"{tmp}/b.csv", "--vary", "oss.count=1,0"], "oss.count"),
        (["--ranks", "2,4", "--csv", f"{tmp}/b.csv", "-t", "3m"], "-b"),
        (["--ranks", "2", "--jobs", "2", "--out", f"{tmp}/b.json"], "--jobs"),
        (["--ranks", "2", "--vary", "oss.count=1,2", "--out", f"{tmp}/b.json"], "--vary"),
    ]
    for extra, name in bad:
        r = run(pfsim, extra + ["-w", "-b", "4m"] + (["--results-dir", f"{tmp}/rd"] if "--csv" in extra else []))
        lines = r.stderr.strip().splitlines()
        written = [f for f in ("b.csv", "b.csv.json", "b.json", "b.lmt", "rd") if os.path.exists(f"{tmp}/{f}")]
        check(r.returncode == 2 and len(lines) == 1 and name in lines[0] and not written,
              f"{' '.join(extra)}: exit 2 naming {name}, nothing written ({lines[-1:]}, {written})")
    r = subprocess.run([pfsim, "ior", "--help"], capture_output=True, text=True)
    check(all(o in r.stdout for o in ("--csv FILE", "--jobs J", "--results-dir DIR", "--vary PATH")),
          "pfsim ior --help lists the sweep's options")


if __name__ == "__main__":
    main()
