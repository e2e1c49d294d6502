#!/usr/bin/env python3
"""ctest "output_formats": a replay reports in the recorded tool's own form, and what it writes reads back.

For each real tool output in ../shared/data/tool-outputs (md-real-io 2017, IOR md-workbench -L and
--latency-all, mdtest --savePerOpDataCSV) the trace is replayed at 3 ranks (not the recorded 2) and:
  - stdout has that tool's lines (md-real-io 2017 phase lines, md-workbench "process max:" lines with
    (min, q1, median, q3, q90, q99, max) per operation, mdtest's SUMMARY table);
  - the latency files have the tool's names and columns (mdreal-<iter>-<phase>-<rank>.csv,
    lat-0.00-<iter>-<op>[-all].csv, mdtest-perop-<Phase>-<rank %05d>.csv with tp = bytes / runtime);
  - pfsim's own importer reads the simulated files back with the expected rank count and every
    operation (the same analysis reads real and simulated runs).
usage: test_output_formats.py PATH/TO/pfsim
"""
import difflib
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import Checks, pfsim_arg  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(os.path.dirname(ROOT), "shared", "data", "tool-outputs")
if not os.path.isdir(DATA):
    DATA = "/work/shared/data/tool-outputs"
PLATFORM = os.path.join(ROOT, "platforms", "mistral-lustre02.json")

check = Checks()


def run(pfsim, args, expect_rc=0):
    r = subprocess.run([pfsim] + args, capture_output=True, text=True)
    if r.returncode != expect_rc:
        print(r.stdout[-2000:], r.stderr[-2000:])
    return r


def imported(pfsim, path):
    """Ranks and operations pfsim's importer finds in `path` (its "imported ..." line)."""
    r = run(pfsim, ["replay", path, "--platform", PLATFORM, "--max-ops-per-phase", "1"])
    m = re.search(r"imported (\S+) trace .*: (\d+) ranks?, (\d+) phases, (\d+) operations", r.stderr)
    return (m.group(1), int(m.group(2)), int(m.group(4))) if m else (None, 0, 0)


DATE_RE = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"


def line_kinds(text):
    """The kind of every line of md-workbench's / md-real-io's stdout, one parser for the real tools' and pfsim's: what
    a script reading the output depends on (labels, fields, their order, number formats: '<.2>' a number with two
    decimals, '<.4e>' with four and an exponent, '<i>' an integer), not the values. The Args line is one kind (its
    options are the run's); option-block lines keep their key and value type (integers printed "%d ", strings as they
    are)."""
    kinds = []
    for line in text.split("\n")[:-1] if text.endswith("\n") else text.split("\n") + ["<no end of line>"]:
        if line.startswith("Args: "):
            kinds.append("Args" if re.fullmatch(r'Args: \S+( "[^"]*")*', line) else "Args <malformed> " + line)
            continue
        m = re.fullmatch(r"\t([\w-]+)=(.*)", line)
        if m:
            v = m.group(2)
            kinds.append("\t%s=<%s>" % (m.group(1), "int " if re.fullmatch(r"-?\d+ ", v) else
                                         "float " if re.fullmatch(r"-?\d+\.\d{6} ", v) else
                                         "str" if not v.endswith(" ") else "? " + v))
            continue
        s = re.sub(DATE_RE, "<date>", line)
        s = re.sub(r"\(version: [^)]*\)", "(version: <v>)", s)
        s = re.sub(r"^Nodemap: [01]+$", "Nodemap: <bits>", s)
        s = re.sub(r"^\d+: ", "<rank>: ", s)
        s = re.sub(r"\d+(?:\.(\d+))?(e[+-]\d+)?",
                   lambda n: "<%s%s>" % ("." + str(len(n.group(1))) if n.group(1) else "i", "e" if n.group(2) else ""), s)
        kinds.append(s)
    return kinds


def kinds_diff(real, sim):
    """'' when `sim` has the line kinds of `real` in the same order, else the first lines that differ."""
    a, b = line_kinds(real), line_kinds(sim)
    if a == b:
        return ""
    d = [l for l in difflib.unified_diff(a, b, "real", "pfsim", n=0, lineterm="") if not l.startswith("@@")]
    return " | ".join(d[2:8])[:600]


def count_rows(files):
    return sum(max(0, len(open(f).read().splitlines()) - 1) for f in files)


def check_mdtest_perop(out, what, rows_per_file):
    """mdtest --savePerOpDataCSV files of 3 ranks: names, header, tp = bytes / runtime (3901 B objects, 1 for
    stat) and, if given, the number of rows of every file."""
    files = sorted(os.listdir(out))
    check(len(files) == 12 and all(re.match(r"^mdtest-perop-File (creation|stat|read|removal)-0000[0-2]\.csv$", f)
                                   for f in files), f"{what}: per-op file names ({len(files)} files)")
    ok = True
    for f in files:
        rows = open(os.path.join(out, f)).read().splitlines()
        ok &= rows[0] == "time,runtime,tp" and (rows_per_file is None or len(rows) == rows_per_file + 1)
        size = 1.0 if "File stat" in f else 3901.0
        for row in rows[1:]:
            t, rt, tp = map(float, row.split(","))
            ok &= abs(tp * rt - size) < 1e-3 * size and t >= 0
    check(ok, f"{what}: columns time,runtime,tp with tp = bytes / runtime"
              + (f", {rows_per_file} rows per rank and phase" if rows_per_file else ""))


def expected_stat(p):
    """A stat's latency on platform p with a free MDS: request and reply over two links each, client overhead."""
    lat = 2 * (float(p["network"]["client_link"]["latency"].replace("us", "")) +
               float(p["network"]["server_link"]["latency"].replace("us", ""))) * 1e-6
    return lat + 1e-6 + float(p["clients"]["rpc_overhead"].replace("us", "")) * 1e-6


def main():
    pfsim = pfsim_arg(__doc__)
    tmp = tempfile.mkdtemp(prefix="pfsim-formats-")

    # md-real-io 2017: phase lines and one file per rank.
    out = os.path.join(tmp, "mdreal")
    r = run(pfsim, ["replay", os.path.join(DATA, "md-real-io-2017"), "--platform", PLATFORM, "--ranks", "3",
                    "--latency-dir", out, "--out", os.path.join(tmp, "mdreal.json")])
    # The results' phases name the tool operations latency.item describes: an md-workbench benchmark object is four
    # (stat, read, delete, create), and Little's law holds with their rate (at most the 3 ranks in flight).
    with open(os.path.join(tmp, "mdreal.json")) as f:
        phases = json.load(f)["phases"]
    bench = [p for p in phases if p["name"] == "benchmark"]
    check(bench and all(p["tool_operations"] == 4 * p["items"] for p in bench) and
          all(0 < p["rate_tool_ops_per_s"] * p["latency"]["item"]["mean_s"] <= 3 + 1e-9 for p in phases),
          "results: tool_operations = 4 x objects in the benchmark; rate_tool_ops_per_s x item latency <= ranks: " +
          str([(p["name"], p["items"], p["tool_operations"],
                round(p["rate_tool_ops_per_s"] * p["latency"]["item"]["mean_s"], 2)) for p in phases]))
    lines = [l for l in r.stdout.splitlines() if re.match(r"^(precreate|benchmark|cleanup) ", l)]
    check(len(lines) == 4 and all(re.match(r"^\w+ \d+\.\ds [\d.]+ iops/s .* \(0 errs\)$", l) for l in lines),
          "md-real-io 2017: four phase lines in the tool's form")
    # This build of md-real-io printed the slowest operation of each phase; the replay does too, the largest
    # latency in its own files.
    maxes = [float(m) for l in lines for m in re.findall(r" max ([0-9.e+-]+)s \(0 errs\)$", l)]
    slowest = max(float(row.split(",")[1]) for f in glob.glob(out + "/*.csv") for row in open(f).read().splitlines()[1:])
    check(len(maxes) == 4 and abs(max(maxes) - slowest) <= 1e-4 * slowest,
          f"md-real-io 2017: 'max <s>s' on every phase line as in the recorded stdout.txt ({maxes}, slowest {slowest})")
    files = sorted(os.listdir(out))
    check(files and all(re.match(r"^mdreal-\d+-(precreate|create|stat|read|delete|cleanup)-[0-2]\.csv$", f)
                        for f in files), f"md-real-io 2017: per-rank file names ({len(files)} files)")
    fmt, ranks, ops = imported(pfsim, out)
    check(fmt == "md-real-io-2017" and ranks == 3 and ops == count_rows(glob.glob(out + "/*.csv")),
          f"md-real-io 2017: simulated files read back ({fmt}, {ranks} ranks, {ops} operations)")
    res = json.load(open(os.path.join(tmp, "mdreal.json")))
    check(res["inputs"]["output_format"] == "mdreal2017", "results JSON records the output format")
    # The effective configuration: the options as given (outputs aside) and the parameters the run simulated
    # (those its printed header states: -I 20 -P 40 -D 2 -R 2 -S 3901, offset 1, for the 2017 tool output).
    check(res["inputs"]["options"] == {"--platform": PLATFORM, "--ranks": "3"},
          f"results JSON records the options ({res['inputs']['options']})")
    check(res["workload"]["simulated_parameters"] == {"obj_per_proc": 20, "precreate_per_set": 40, "data_sets": 2,
                                                      "iterations": 2, "object_size_B": 3901, "offset": 1,
                                                      "read_only": False},
          f"results JSON records the simulated parameters ({res['workload'].get('simulated_parameters')})")

    # md-workbench (IOR 4.x), -L: rank 0's files; --latency-all: every rank's rows in one file.
    stat_re = r"(read|stat|create|delete)\(((?:[\d.e+-]+s(?:, )?){7})\)"
    for run_dir, all_files in (("run1-L-process-reports", False), ("run2-latency-all", True)):
        out = os.path.join(tmp, run_dir)
        r = run(pfsim, ["replay", os.path.join(DATA, "md-workbench-ior", run_dir), "--platform", PLATFORM,
                        "--ranks", "3", "--latency-dir", out])
        lines = [l for l in r.stdout.splitlines() if " process max:" in l and not re.match(r"^\d+: ", l)]
        rank_lines = [l for l in r.stdout.splitlines() if re.match(r"^\d+: \w+ process max:", l)]
        # run1 was recorded with --process-reports: its replay prints the per-rank lines too, run2's does not.
        check(len(rank_lines) == (4 * 3 if run_dir.startswith("run1") else 0),
              f"md-workbench {run_dir}: per-rank lines as the recorded run printed them ({len(rank_lines)})")
        ok = len(lines) == 4
        for l in lines:
            ok &= bool(re.match(r"^(precreate|benchmark|cleanup) process max:[\d.]+s min:[\d.]+s mean: [\d.]+s "
                                r"balance:[\d.]+ stddev:[\d.]+ rate:[\d.]+ iops/s .* op-max:[\d.e+-]+s \(0 errs\)", l))
            for _, vals in re.findall(stat_re, l):
                v = [float(x.strip().rstrip("s")) for x in vals.split(",")]
                ok &= v == sorted(v)  # min <= q1 <= median <= q3 <= q90 <= q99 <= max
        check(ok, f"md-workbench {run_dir}: 'process max' lines with ordered (min..max) statistics")
        check(len(lines) > 1 and len(re.findall(stat_re, lines[1])) == 4,
              f"md-workbench {run_dir}: benchmark line has read, stat, create and delete statistics")
        files = sorted(os.listdir(out))
        suffix = "-all" if all_files else ""
        check(files and all(re.match(r"^lat-0\.00-\d+-(precreate|create|stat|read|delete|cleanup)" + suffix + r"\.csv$", f)
                            for f in files), f"md-workbench {run_dir}: file names ({files[:2]}...)")
        fmt, ranks, ops = imported(pfsim, out)
        check(ranks == (3 if all_files else 1) and ops == count_rows(glob.glob(out + "/*.csv")),
              f"md-workbench {run_dir}: simulated files read back ({fmt}, {ranks} ranks, {ops} operations)")

    # --process-reports: after each phase line one line per rank, shaped as md-workbench's own (numbers aside),
    # whose objects add up to the phase's.
    def shape(line):
        return re.sub(r"[\d.]+(e[+-]\d+)?", "N", line)
    def rank_lines_ok(trace, args, is_head, objects_re):
        """The replay of `trace` at 3 ranks: after each of the 4 phase lines, ranks 0-2's lines, each shaped as one of
        the recorded per-rank lines (numbers aside), their objects adding up to the phase line's."""
        real = open(os.path.join(DATA, trace, "stdout.txt")).read().splitlines()
        real_rank = {shape(l) for l in real if re.match(r"^\d+: ", l)}
        out = run(pfsim, ["replay", os.path.join(DATA, trace), "--platform", PLATFORM, "--ranks", "3"] + args)
        lines = out.stdout.splitlines()
        heads = [i for i, l in enumerate(lines) if is_head(l) and not re.match(r"^\d+: ", l)]
        ok = len(heads) == 4
        for i in heads:
            ranks_lines = lines[i + 1:i + 4]
            ok &= [l.split(":")[0] for l in ranks_lines] == ["0", "1", "2"]
            ok &= all(shape(l) in real_rank for l in ranks_lines)
            total = int(re.search(objects_re, lines[i]).group(1))
            ok &= sum(int(re.search(objects_re, l).group(1)) for l in ranks_lines) == total
        return ok
    check(rank_lines_ok(os.path.join("md-workbench-ior", "run1-L-process-reports"), ["--process-reports"],
                        lambda l: " process max:" in l, r"objects:(\d+)"),
          "md-workbench --process-reports: per-rank lines shaped as md-workbench's, objects add up")
    # md-workbench's Args line lists the options that shaped its output (-L=<prefix>, --latency-all, --process-reports),
    # as the real one does (run1: "-L=lat" "--process-reports"), and the replay reads them back.
    with tempfile.TemporaryDirectory() as t2:
        lat = os.path.join(t2, "lat")
        out = run(pfsim, ["mdworkbench", "--platform", PLATFORM, "--ranks", "2", "-I", "4", "-P", "8", "-D", "1", "-R", "1",
                          "--latency-dir", lat, "--latency-all", "--process-reports"]).stdout
        args = next((l for l in out.splitlines() if l.startswith("Args: md-workbench ")), "")
        real_args = next(l for l in open(os.path.join(DATA, "md-workbench-ior", "run1-L-process-reports",
                                                      "stdout.txt")).read().splitlines() if l.startswith("Args:"))
        check(all(x in args for x in ('"-L=lat"', '"--latency-all"', '"--process-reports"')) and
              '"-L=lat"' in real_args and '"--process-reports"' in real_args,
              f"md-workbench Args line lists its output options: {args}")
    # md-real-io's option block does the same: "latency=<prefix>", "latency-all", "process-reports" (as the real one)
    with tempfile.TemporaryDirectory() as t3:
        lat = os.path.join(t3, "lat")
        out = run(pfsim, ["mdworkbench", "--platform", PLATFORM, "--ranks", "2", "-I", "4", "-P", "8", "-D", "1", "-R", "1",
                          "--output-format", "mdreal2017", "--latency-dir", lat, "--latency-prefix", "lat",
                          "--process-reports"]).stdout
        block = [l.strip() for l in out.split("\n\n")[0].splitlines()[1:]]
        real = [l.strip() for l in open(os.path.join(DATA, "md-real-io-2017", "stdout.txt")).read().split("\n\n")[0]
                .splitlines()[1:]]
        keys, real_keys = [l.split("=")[0] for l in block], [l.split("=")[0] for l in real]
        check(all(x in block and x in real for x in ("latency=lat", "latency-all", "process-reports")) and
              keys == [k for k in real_keys if k in keys],
              f"md-real-io option block lists its output options in md-real-io's order: {block}")
    # Every line the real tools print, in their order: the real stdout of each generation and pfsim's output of the same
    # run (its replay at the recorded 2 ranks, and pfsim mdworkbench with the recorded options) read by one parser
    # (line_kinds) give the same line kinds, line for line: Args, Nodemap, banner with its date, option block,
    # root-dir, phase and per-rank lines with their fields and number formats, Total runtime with its date.
    gens = (("md-workbench-ior/run1-L-process-reports", "mdworkbench", ["--process-reports"]),
            ("md-workbench-ior/run2-latency-all", "mdworkbench", ["--latency-all"]),
            ("md-workbench-standalone-2019", "mdworkbench2019",
             ["--latency-all", "--process-reports", "-i=posix", "--", "-D=/scratch/data"]),
            ("md-real-io-2017", "mdreal2017", ["--process-reports", "--", "-D=/scratch/data"]))
    for trace, fmt, gen_args in gens:
        real = open(os.path.join(DATA, trace, "stdout.txt")).read()
        lat = os.path.join(tmp, "kinds-" + fmt + "-" + os.path.basename(trace))
        replay = run(pfsim, ["replay", os.path.join(DATA, trace), "--platform", PLATFORM, "--latency-dir", lat,
                             "--latency-prefix", "lat"])
        gen = run(pfsim, ["mdworkbench", "--platform", PLATFORM, "--ranks", "2", "-I", "20", "-P", "40", "-D", "2",
                          "-R", "2", "-S", "3901", "--output-format", fmt, "-L=" + lat + "-gen/lat"] + gen_args)
        for what, out in (("replay", replay.stdout), ("pfsim mdworkbench", gen.stdout)):
            diff = kinds_diff(real, out)
            check(not diff, f"{trace} ({fmt}): {what} prints the real stdout's line kinds in its order"
                            + (": " + diff if diff else f" ({len(line_kinds(real))} lines)"))
        # The dates are the simulated clock's: the start at the epoch, the end floor(simulated seconds) later.
        end = float(re.search(r"([\d.]+) s simulated", replay.stderr).group(1))
        dates = re.findall(DATE_RE, replay.stdout)
        check(dates == ["1970-01-01 00:00:00", "1970-01-01 00:00:%02d" % int(end)],
              f"{trace}: simulated dates {dates} (start, end at {end} s)")
        check(replay.stdout == run(pfsim, ["replay", os.path.join(DATA, trace), "--platform", PLATFORM,
                                           "--latency-dir", lat, "--latency-prefix", "lat"]).stdout,
              f"{trace}: stdout byte-identical across two runs")
    # The Nodemap is the simulated placement: 1 for each rank on rank 0's node (10 ranks, 4 per node).
    for placement, bits in (("block", "1111000000"), ("cyclic", "1001001001")):
        out = run(pfsim, ["mdworkbench", "--platform", PLATFORM, "--ranks", "10", "--ranks-per-node", "4", "-I", "2",
                          "-P", "2", "-D", "1", "-R", "1", "--set", "clients.placement=" + placement]).stdout
        check(re.search(r"^Nodemap: (\d+)$", out, re.M).group(1) == bits,
              f"Nodemap of 10 ranks, 4 per node, {placement} placement: {bits}")
    # The 2019 tool's quantile position round(q n + 0.49) lies past the last of n < 100 values for q99: the real tool
    # prints what follows in memory (0.0000e+00 on its phase lines), pfsim 0.0000e+00.
    real_q99 = [m.split(", ")[5] for m in re.findall(r" read\(([^)]*)\)", open(os.path.join(
        DATA, "md-workbench-standalone-2019", "stdout.txt")).read()) if True]
    sim = run(pfsim, ["replay", os.path.join(DATA, "md-workbench-standalone-2019"), "--platform", PLATFORM]).stdout
    sim_q99 = [m.split(", ")[5] for m in re.findall(r"^benchmark .* read\(([^)]*)\)", sim, re.M)]
    check("0.0000e+00s" in real_q99 and sim_q99 == ["0.0000e+00s"] * 2,
          f"md-workbench 2019: q99 of 80 reads past the array, 0.0000e+00s ({sim_q99}; real {real_q99})")
    # ... and stdout begins as the tool's does (md-workbench's "Args:", md-real-io's "MD-REAL-IO total objects:"):
    # what pfsim ran is said on stderr, so a script that reads the real tools' first line reads pfsim's too.
    for trace in ("md-real-io-2017", os.path.join("md-workbench-ior", "run2-latency-all")):
        real_first = open(os.path.join(DATA, trace, "stdout.txt")).read().splitlines()[0]
        r = run(pfsim, ["replay", os.path.join(DATA, trace), "--platform", PLATFORM])
        sim_first = r.stdout.splitlines()[0]
        check(real_first.split(" ")[0] == sim_first.split(" ")[0] and "pfsim replay of" in r.stderr,
              f"{trace}: the first line is the tool's ('{sim_first}' for '{real_first}')")
    # md-real-io 2017 prints its per-rank lines too ("0: precreate 0.0s ... (0 errs)"); its recorded output has
    # them, so its replay prints them by default.
    check(rank_lines_ok("md-real-io-2017", [], lambda l: re.match(r"^(precreate|benchmark|cleanup) [\d.]+s ", l),
                        r" (\d+) obj "),
          "md-real-io 2017: per-rank lines by default, shaped as the recorded ones, objects add up")
    # Per-rank times are each rank's own (its last step's end, data-set rmdirs included), whether or not the run keeps
    # per-operation samples: stdout must not change with --out or --no-samples, and the slowest rank's time
    # (objects / obj/s of its line) is the phase's time, as md-workbench's "process max" is the MPI_MAX of the
    # ranks' times. (Until 2026-11-25 a run without samples printed the phase's time for every rank, and a rank's
    # time ended before its last rmdir.)
    def replay_stdout(trace, extra):
        return run(pfsim, ["replay", os.path.join(DATA, trace), "--platform", PLATFORM, "--ranks", "3",
                           "--process-reports"] + extra).stdout
    for trace, fmt, obj_re in (("md-real-io-2017", [], r" (\d+) obj (?:\d+ dset )?(?:[\d.]+ dset/s )?([\d.]+) obj/s"),
                               (os.path.join("md-workbench-ior", "run1-L-process-reports"), ["--quiet"],
                                r"objects:(\d+)(?: dsets: \d+)? rate:(?:[\d.]+ dset/s rate:)?([\d.]+) obj/s")):
        plain = replay_stdout(trace, [])
        if not fmt:
            no_max = re.sub(r" max [\d.e+-]+s", "", plain)  # --no-samples leaves out the slowest operation
            check(no_max == replay_stdout(trace, ["--no-samples"]) and
                  plain == replay_stdout(trace, ["--out", os.path.join(tmp, "rank-times.json")]),
                  f"{trace}: per-rank lines the same with --no-samples, without and with --out")
        lines = plain.splitlines()
        heads = [i for i, l in enumerate(lines) if re.search(obj_re, l) and not re.match(r"^\d+: ", l)]
        ok = len(heads) == 4
        for i in heads:
            o, x = re.search(obj_re, lines[i]).groups()
            slowest = max(int(m.group(1)) / float(m.group(2))
                          for m in (re.search(obj_re, l) for l in lines[i + 1:i + 4]))
            ok &= abs(slowest / (int(o) / float(x)) - 1) < 0.005
        check(ok, f"{trace}: the slowest rank's time is the phase's time")
    # A data-path replay (Darshan DXT) keeps no per-operation samples; with --no-samples its latency percentiles come
    # from histograms: the same rows, operations, MiB and rates, the percentiles within 0.14%.
    dxt = os.path.join(DATA, "darshan-dxt", "own-runs", "ior.dxt.txt")
    rows = []
    for extra in ([], ["--no-samples"]):
        r = run(pfsim, ["replay", dxt, "--platform", PLATFORM, "--ranks", "8"] + extra)
        rows.append([l.split() for l in r.stdout.splitlines()[1:]])
    ok = len(rows[0]) == len(rows[1]) > 0
    for a, b in zip(*rows):
        ok &= a[:10] == b[:10] and all(abs(float(y) / float(x) - 1) < 0.0014 if float(x) else float(y) == 0
                                     for x, y in zip(a[10:], b[10:]))
    check(ok, f"DXT replay: --no-samples gives the same table, percentiles within 0.14% ({rows})")
    # An md-workbench sweep (--csv) prints its table, not md-workbench's phase lines: --no-samples is accepted, and the
    # table is the one --quiet gives (until 2026-11-26 it was refused as if phase lines were printed).
    mdw = os.path.join(DATA, "md-workbench-ior", "run1-L-process-reports")
    csvs = []
    for extra in ([], ["--quiet"]):
        out = os.path.join(tmp, f"sweep{len(csvs)}.csv")
        r = run(pfsim, ["replay", mdw, "--platform", PLATFORM, "--no-samples", "--ranks", "4,8", "--csv", out] + extra)
        csvs.append(open(out).read() if r.returncode == 0 and os.path.isfile(out) else f"exit {r.returncode}: {r.stderr}")
    check(csvs[0] == csvs[1] and csvs[0].startswith("ranks,"), f"md-workbench sweep with --no-samples runs ({csvs[0][:200]})")
    # md-workbench --read-only: the benchmark only stats and reads; IOR counts its objects by the reads. The real
    # run2 with its create and delete files taken away and --read-only added to its Args line.
    ro = os.path.join(tmp, "read-only")
    shutil.copytree(os.path.join(DATA, "md-workbench-ior", "run2-latency-all"), ro)
    for f in glob.glob(os.path.join(ro, "lat-0.00-*-create-all.csv")) + glob.glob(os.path.join(ro, "lat-0.00-*-delete-all.csv")):
        os.remove(f)
    head, *rest = open(os.path.join(ro, "stdout.txt")).read().split("\n")
    open(os.path.join(ro, "stdout.txt"), "w").write("\n".join([head.replace('"-R=2"', '"-R=2" "--read-only"')] + rest))
    out = run(pfsim, ["replay", ro, "--platform", PLATFORM]).stdout
    bench = [l for l in out.splitlines() if l.startswith("benchmark process max:")]
    check(len(bench) == 2 and all("objects:80 " in l for l in bench) and
          re.search(r'^Args: .*"-I=20".*"--read-only"', out, re.M) is not None,
          f"md-workbench --read-only: 80 objects per benchmark iteration (its reads), -I=20 and --read-only in Args "
          f"({[l.split('objects:')[1].split()[0] for l in bench]})")
    r = run(pfsim, ["replay", os.path.join(DATA, "mdtest"), "--platform", PLATFORM, "--process-reports"],
            expect_rc=2)
    check(r.returncode == 2 and "--process-reports" in r.stderr, "--process-reports with mdtest output: exit 2")

    # mdtest: SUMMARY table and --savePerOpDataCSV files.
    out = os.path.join(tmp, "mdtest")
    r = run(pfsim, ["replay", os.path.join(DATA, "mdtest"), "--platform", PLATFORM, "--ranks", "3",
                    "--latency-dir", out])
    ops = re.findall(r"^   (File \w+)\s+([\d.]+)", r.stdout, re.M)
    check("SUMMARY rate (in ops/sec)" in r.stdout and [o for o, _ in ops] ==
          ["File creation", "File stat", "File read", "File removal"], "mdtest: SUMMARY table of the four phases")
    check_mdtest_perop(out, "mdtest", None)
    fmt, ranks, nops = imported(pfsim, out)
    check(fmt == "mdtest-perop" and ranks == 3 and nops == count_rows(glob.glob(out + "/*.csv")),
          f"mdtest: simulated files read back ({fmt}, {ranks} ranks, {nops} operations)")
    # The replay's stdout saved beside its per-op files (as mdtest users save theirs) states the run: a shared-directory
    # trace (no -u) stays shared when the replay's own files are replayed, with no assumption made.
    with open(os.path.join(DATA, "mdtest", "mdtest-allopts.txt")) as f:
        text = f.read()

    def replay_twice(name, stdout_text):
        """The real per-op files beside `stdout_text` as their stdout.txt, replayed at 4 ranks with latency files; that
        replay's stdout saved beside its own files, replayed again: (the first replay's stdout, the second's trace)."""
        src = os.path.join(tmp, name)
        os.makedirs(src)
        for f in glob.glob(os.path.join(DATA, "mdtest", "mdtest-perop-*.csv")):
            shutil.copy(f, src)
        with open(os.path.join(src, "stdout.txt"), "w") as f:
            f.write(stdout_text)
        out = os.path.join(tmp, name + "-replayed")
        first = run(pfsim, ["replay", src, "--platform", PLATFORM, "--ranks", "4", "--latency-dir", out])
        with open(os.path.join(out, "stdout.txt"), "w") as f:
            f.write(first.stdout)
        res = os.path.join(tmp, name + "-again.json")
        again = run(pfsim, ["replay", out, "--platform", PLATFORM, "--out", res])
        return first.stdout, (json.load(open(res))["workload"]["trace"] if again.returncode == 0 else {})

    stdout, tr = replay_twice("mdtest-shared", text.replace("'-u' ", ""))
    cmd = re.search(r"^Command line used: mdtest (.*)$", stdout, re.M)
    check(cmd is not None and "'-u'" not in cmd.group(1) and "'-n' '50'" in cmd.group(1) and
          "'--savePerOpDataCSV=mdtest-perop'" in cmd.group(1) and "4 tasks, 200 files" in stdout,
          f"mdtest replay: mdtest's Command line used (no -u, -n 50, the per-op prefix) and tasks line "
          f"({cmd.group(0) if cmd else None})")
    # mdtest's other lines, as the real run's (tool-outputs/mdtest/mdtest-default.txt) and pfsim mdtest's: its start and
    # end dates, the Nodemap of the simulated placement (helper-136: a replay left them out)
    lines = stdout.splitlines()
    check(lines[:1] == ["-- started at 01/01/1970 00:00:00 --"] and re.search(r"^Nodemap: [01]{4}$", stdout, re.M)
          and len(lines) >= 2 and lines[-2].startswith("-- finished at 01/01/1970 ") and stdout.endswith(" --\n\n"),
          f"mdtest replay: '-- started at', 'Nodemap:' and '-- finished at' lines, and mdtest's blank line after it "
          f"(tool-outputs/mdtest/mdtest-default.txt ends with '--\\n\\n') ({lines[:1]}, {stdout[-40:]!r})")
    check(tr.get("shared_dir") is True and tr.get("warnings") == [] and tr.get("ranks") == 4,
          f"mdtest replay of a replay: shared directory kept, nothing assumed ({tr.get('shared_dir')}, "
          f"{tr.get('warnings')})")
    # ... and mdtest's rank shift: a trace recorded with -N 1 prints '-N' '1', so its replay replays with it (helper-79:
    # the line dropped it, and the saved output replayed with no shift, File read 8,915/s against 411/s)
    stdout, tr = replay_twice("mdtest-strided", text.replace("'-u' ", "'-u' '-N' '1' "))
    cmd = re.search(r"^Command line used: mdtest (.*)$", stdout, re.M)
    check(cmd is not None and "'-N' '1'" in cmd.group(1), f"mdtest replay of a -N 1 trace prints '-N' '1' "
          f"({cmd.group(0) if cmd else None})")
    check(tr.get("mdtest_stride") == 1, f"mdtest replay of that replay: stride 1 kept ({tr.get('mdtest_stride')})")

    # pfsim mdtest (synthetic) writes the same files: one row per mdtest operation (not per RPC), last iteration,
    # and the SUMMARY header says "iterations" as mdtest does even for one.
    out = os.path.join(tmp, "mdtest-synthetic")
    r = run(pfsim, ["mdtest", "--platform", PLATFORM, "--ranks", "3", "-n", "20", "-i", "2", "-F", "-u", "-w", "3901",
                    "-e", "3901", "--latency-dir", out])
    check_mdtest_perop(out, "pfsim mdtest", 20)
    fmt, ranks, nops = imported(pfsim, out)
    check(fmt == "mdtest-perop" and ranks == 3 and nops == 3 * 4 * 20,
          f"pfsim mdtest: files read back as an mdtest trace ({fmt}, {ranks} ranks, {nops} operations)")
    # Without -F mdtest also runs its Directory phases, but writes per-op files of the File phases only.
    out = os.path.join(tmp, "mdtest-dirs")
    run(pfsim, ["mdtest", "--platform", PLATFORM, "--ranks", "2", "-n", "5", "-i", "1", "-u", "--latency-dir", out,
                "--quiet"])
    names = sorted(os.listdir(out))
    check(len(names) == 8 and all(n.startswith("mdtest-perop-File ") for n in names),
          f"pfsim mdtest without -F: per-op files of the File phases only ({names})")
    r = run(pfsim, ["mdtest", "--platform", PLATFORM, "--ranks", "2", "-n", "5", "-i", "1", "-F", "-u"])
    check("SUMMARY rate (in ops/sec): (of 1 iterations)" in r.stdout, "pfsim mdtest: '(of 1 iterations)' as mdtest prints it")
    # The results' workload_file reruns the run with pfsim run: the same SUMMARY table, Directory rename row included
    # (helper-77: pfsim run left it out)
    res = os.path.join(tmp, "mdtest-rerun.json")
    first = run(pfsim, ["mdtest", "--platform", PLATFORM, "--ranks", "2", "-n", "5", "-u", "--out", res])
    wl = os.path.join(tmp, "mdtest-rerun-workload.json")
    with open(wl, "w") as f:
        json.dump(json.load(open(res))["workload"]["workload_file"], f)
    again = run(pfsim, ["run", "--platform", PLATFORM, "--workload", wl])
    table = lambda out: out[out.find("SUMMARY rate"):]
    check("Directory rename" in table(first.stdout) and table(again.stdout) == table(first.stdout),
          "pfsim run of an mdtest run's workload_file: the same SUMMARY table, Directory rename row included")
    # Item latencies (the tool's operations, a create = open(O_CREAT) + close: two RPCs) obey Little's law in the
    # closed loop: ranks = X x mean item latency (the phase's ramp and drain aside: 5%); the RPCs' p50 mixes
    # creates and closes and is neither.
    res_file = os.path.join(tmp, "items.json")
    run(pfsim, ["metabench", "--platform", os.path.join(ROOT, "platforms", "cray-xe6-lustre2.1-fitted.json"),
                "--ranks", "256", "--files", "20000", "--out", res_file, "--quiet"])
    ok = True
    for p in json.load(open(res_file))["phases"]:
        n_x_r = p["rate_items_per_s"] * p["latency"]["item"]["mean_s"]
        ok &= abs(n_x_r / 256 - 1) < 0.05 and p["latency"]["item"]["count"] == p["items"]
    check(ok, "metabench: X x mean item latency = ranks (Little's law on the tool's operations)")
    check(re.search(r"^2 tasks, 10 files$", r.stdout, re.M) is not None,
          "pfsim mdtest: mdtest's '<tasks> tasks, <items> files' line (2 ranks x -n 5, -F)")
    rows = re.findall(r"^   ((?:File|Tree|Directory) \w+)\s+([\d.]+)", r.stdout, re.M)
    # mdtest runs its read phase without -e too (it only opens and closes then).
    check([n for n, _ in rows] == ["File creation", "File stat", "File read", "File removal", "Tree creation",
                                   "Tree removal"] and
          all(float(v) > 0 for _, v in rows), f"pfsim mdtest: mdtest's rows in its order, tree rows last ({rows})")

    # The recorded mdtest command lines run as typed: options without effect here are accepted and printed back,
    # --savePerOpDataCSV=P writes P-<phase>-<rank>.csv, -P adds the time table; -C/-T/-E/-r run only their phases,
    # the others printing zeros as mdtest's do (io500 standard-results/mdtest-easy-stat.txt).
    with open(os.path.join(DATA, "mdtest", "mdtest-allopts.txt")) as f:
        typed = re.search(r"^Command line used: mdtest (.*)$", f.read(), re.M).group(1)
    args = [a.strip("'") for a in typed.split()]
    out = os.path.join(tmp, "mdtest-allopts")
    os.makedirs(out)
    args = [a.replace("--savePerOpDataCSV=mdtest-perop", "--savePerOpDataCSV=" + os.path.join(out, "mdtest-perop"))
            .replace("--saveRankPerformanceDetails=mdtest-rankperf.csv",
                     "--saveRankPerformanceDetails=" + os.path.join(out, "mdtest-rankperf.csv"))
            for a in args]
    r = run(pfsim, ["mdtest", "--platform", PLATFORM, "--ranks", "2"] + args)
    printed = re.search(r"^Command line used: mdtest (.*)$", r.stdout, re.M).group(1)
    with open(os.path.join(DATA, "mdtest", "mdtest-rankperf.csv")) as f:
        real_rank = [line.split(",") for line in f.read().splitlines()]
    with open(os.path.join(out, "mdtest-rankperf.csv")) as f:
        sim_rank = [line.split(",") for line in f.read().splitlines()]
    check(printed == " ".join("'" + a + "'" for a in args) and "SUMMARY time (in ms/op): (of 2 iterations)" in r.stdout
          and len(glob.glob(os.path.join(out, "mdtest-perop-File *-0000[01].csv"))) == 8
          and [len(x) for x in sim_rank] == [len(x) for x in real_rank] and sim_rank[0] == real_rank[0]
          and "Directory rename columns are empty" in r.stderr,
          "pfsim mdtest: the recorded mdtest-allopts command line runs as typed (per-op files, -P time table, "
          "the rank file with the real one's header and rows, a note for its rename columns)")
    r = run(pfsim, ["mdtest", "--platform", PLATFORM, "--ranks", "2", "-n", "20", "-u", "-L", "-F", "-T", "-v",
                    "--dataPacketType=timestamp", "-G", "-1572289075"])
    rows = dict(re.findall(r"^   ((?:File|Tree) \w+)\s+([\d.]+)", r.stdout, re.M))
    check(list(rows) == ["File creation", "File stat", "File read", "File removal", "Tree creation", "Tree removal"]
          and float(rows["File stat"]) > 0 and all(float(v) == 0 for k, v in rows.items() if k != "File stat"),
          f"pfsim mdtest -T: only the stat phase runs, the other rows print zeros ({rows})")
    for bad, says in ((["-z", "2"], "tree depth"), (["-I", "10"], "items per tree directory")):
        r = run(pfsim, ["mdtest", "--platform", PLATFORM, "--ranks", "2", "-n", "5"] + bad, expect_rc=2)
        check(says in r.stderr and "unknown option" not in r.stderr,
              f"pfsim mdtest {' '.join(bad)}: refused as not supported, saying what it is ({r.stderr.strip()[:90]})")

    # The recorded md-workbench Args lines run as typed with pfsim mdworkbench (--ranks added): the interface's
    # options after "--" are recorded, -1/-2/-3 choose the phases, options without effect are accepted.
    for rel in ("md-workbench-standalone-2019/stdout.txt", "io500/extended-partial/mdworkbench-create.txt",
                "md-workbench-ior/run3-verbose2/stdout.txt", "md-workbench-ior/run4-detailed-stats/stdout.txt"):
        with open(os.path.join(DATA, rel)) as f:
            line = re.search(r"^Args: \S+ (.*)$", f.read(), re.M).group(1)
        argv = re.findall(r'"([^"]*)"', line)
        argv = [a for a in argv if not a.startswith("-L=")]  # (no latency files here)
        res = os.path.join(tmp, "mdw-args.json")
        r = run(pfsim, ["mdworkbench", "--platform", PLATFORM, "--ranks", "2", "--out", res] + argv)
        phases = re.findall(r"^(precreate|benchmark|cleanup) ", r.stdout, re.M)
        inputs = json.load(open(res))["inputs"]["mdworkbench"]
        expect = ["precreate"] if "-1" in argv else ["precreate"] + ["benchmark"] * inputs["R"] + ["cleanup"]
        after = argv[argv.index("--") + 1:] if "--" in argv else []
        check(phases == expect and inputs.get("interface_options", []) == after,
              f"pfsim mdworkbench runs the recorded Args line of {rel} ({phases}, interface options {after})")
    for bad, says in ((["-w=5"], "stonewall"), (["--", "--ranks", "3"], "after \"--\"")):
        r = run(pfsim, ["mdworkbench", "--platform", PLATFORM, "--ranks", "2"] + bad, expect_rc=2)
        check(says in r.stderr and "unknown option" not in r.stderr,
              f"pfsim mdworkbench {' '.join(bad)}: refused, saying why ({r.stderr.strip()[:90]})")

    # The mdtest format for an md-workbench workload is refused, not written half-right.
    r = run(pfsim, ["replay", os.path.join(DATA, "md-real-io-2017"), "--platform", PLATFORM, "--output-format",
                    "mdtest", "--latency-dir", os.path.join(tmp, "refused")], expect_rc=2)
    check(r.returncode == 2 and "--output-format mdtest" in r.stderr and not os.path.exists(os.path.join(tmp, "refused")),
          "mdtest format for a md-real-io trace: exit 2, nothing written")

    # ... and so are md-real-io/md-workbench formats for an mdtest trace (its phases are not theirs).
    for fmt in ("mdreal2017", "mdworkbench"):
        r = run(pfsim, ["replay", os.path.join(DATA, "mdtest"), "--platform", PLATFORM, "--output-format", fmt,
                        "--latency-dir", os.path.join(tmp, "refused-" + fmt)], expect_rc=2)
        check(r.returncode == 2 and "--output-format mdtest" in r.stderr and
              not os.path.exists(os.path.join(tmp, "refused-" + fmt)), f"{fmt} format for an mdtest trace: exit 2")

    # A trace with every rank's latencies (md-real-io 2017) gives every rank's in md-workbench form (-all files),
    # without --latency-all; files named as md-workbench --latency-all names them, and read back as such.
    out = os.path.join(tmp, "mdreal-as-mdw")
    run(pfsim, ["replay", os.path.join(DATA, "md-real-io-2017"), "--platform", PLATFORM, "--ranks", "3",
                "--output-format", "mdworkbench", "--latency-dir", out, "--quiet"])
    names = sorted(os.listdir(out))
    check(names and all(n.endswith("-all.csv") for n in names),
          f"md-real-io 2017 trace in md-workbench form: every rank's -all files ({names[:3]}...)")
    fmt, ranks, _ = imported(pfsim, out)
    check(fmt == "md-workbench-all" and ranks == 3, f"md-real-io 2017 as md-workbench: read back ({fmt}, {ranks} ranks)")

    # pfsim mdworkbench writes rank 0's files as md-workbench -L does, every rank's with --latency-all.
    for extra, suffix in (([], ""), (["--latency-all"], "-all")):
        out = os.path.join(tmp, "mdw-synthetic" + suffix)
        run(pfsim, ["mdworkbench", "--platform", PLATFORM, "--ranks", "3", "-I", "2", "-P", "2", "-D", "1", "-R", "1",
                    "--latency-dir", out, "--quiet"] + extra)
        names = sorted(os.listdir(out))
        check(names and all(n.endswith(suffix + ".csv") and (suffix or not n.endswith("-all.csv")) for n in names),
              f"pfsim mdworkbench {' '.join(extra) or '(default)'}: {'every rank' if suffix else 'rank 0'}'s files "
              f"({names[:2]}...)")

    # metabench's latency files: one row per RPC with its rank and kind (a create is two RPCs: create, close)
    mlat = os.path.join(tmp, "metabench-lat")
    run(pfsim, ["metabench", "--platform", os.path.join(ROOT, "platforms", "cray-xe6-lustre2.1-fitted.json"),
                "--ranks", "4", "--files", "8", "--latency-dir", mlat, "--quiet"])
    with open(os.path.join(mlat, "latency-0-create-all.csv")) as f:
        rows = [l.split(",") for l in f.read().splitlines()]
    check(rows[0] == ["time", "runtime", "rank", "op"] and len(rows) == 1 + 16 and
          sorted({r[3] for r in rows[1:]}) == ["close", "create"] and sorted({r[2] for r in rows[1:]}) == ["0", "1", "2", "3"],
          f"metabench latency files: time,runtime,rank,op, one row per RPC ({len(rows) - 1} rows for 8 creates)")
    # md-workbench's defaults where no option is given: -D 10 (pfsim had 1), so a copied command line without -D
    # simulates md-workbench's ten data sets: 10 precreated objects per rank with -P 1.
    dflt = os.path.join(tmp, "defaults.json")
    run(pfsim, ["mdworkbench", "--platform", PLATFORM, "--ranks", "2", "-I", "1", "-P", "1", "-R", "1", "--out", dflt,
                "--quiet"])
    with open(dflt) as f:
        d = json.load(f)
    check(d["inputs"]["mdworkbench"]["D"] == 10 and d["phases"][0]["items"] == 20,
          f"pfsim mdworkbench defaults to md-workbench's -D 10 ({d['inputs']['mdworkbench']}, "
          f"precreate {d['phases'][0]['items']} objects)")
    # -I 0: md-workbench still writes every benchmark iteration's four latency files, header only; they read back.
    out = os.path.join(tmp, "mdwb-I0")
    r = run(pfsim, ["mdworkbench", "--platform", PLATFORM, "--ranks", "2", "-I", "0", "-P", "4", "-D", "1", "-R", "2",
                    "--latency-dir", out])
    names = sorted(os.listdir(out)) if os.path.isdir(out) else []
    bench = [n for n in names if re.match(r"^lat-0\.00-[01]-(stat|read|delete|create)\.csv$", n)]
    with open(os.path.join(out, "stdout.txt"), "w") as f:
        f.write(r.stdout)
    fmt, ranks, nops = imported(pfsim, out)
    check(len(bench) == 8 and all(open(os.path.join(out, n)).read() == "time,runtime\n" for n in bench) and
          fmt == "md-workbench-rank0" and nops == 8,
          f"pfsim mdworkbench -I 0: header-only benchmark files for both iterations, read back ({len(bench)} files, "
          f"{fmt}, {nops} operations)")
    out = os.path.join(tmp, "mdwb-I0-all")  # the same with every rank's files (--latency-all)
    r = run(pfsim, ["mdworkbench", "--platform", PLATFORM, "--ranks", "2", "-I", "0", "-P", "4", "-D", "1", "-R", "2",
                    "--latency-all", "--latency-dir", out])
    with open(os.path.join(out, "stdout.txt"), "w") as f:
        f.write(r.stdout)
    fmt, ranks, nops = imported(pfsim, out)
    check(fmt == "md-workbench-all" and ranks == 2 and nops == 16,
          f"pfsim mdworkbench -I 0 --latency-all: header-only -all files read back ({fmt}, {ranks} ranks, {nops} ops)")

    # pfsim mdworkbench in md-real-io 2017 form prints the later 2017 build's 'max <s>s' (the slowest operation of the
    # phase; it was left out), on the phase and per-rank lines.
    r = run(pfsim, ["mdworkbench", "--platform", PLATFORM, "--ranks", "2", "-I", "5", "-P", "10", "-R", "1",
                    "--output-format", "mdreal2017", "--process-reports"])
    lines = [l for l in r.stdout.splitlines() if re.match(r"^(\d+: )?(precreate|benchmark|cleanup) ", l)]
    check(len(lines) == 9 and all(re.search(r" max \d\.\d{4}e[-+]\d\ds \(0 errs\)$", l) for l in lines),
          f"pfsim mdworkbench --output-format mdreal2017: 'max <s>s' on every phase and rank line ({lines[:1]})")

    # --no-samples: the results JSON's percentiles come from constant-memory histograms; they must agree with the
    # exact nearest-rank percentiles of the same run within the histogram's resolution (0.14%), counts exactly.
    exact, hist = os.path.join(tmp, "exact.json"), os.path.join(tmp, "hist.json")
    base = ["replay", os.path.join(DATA, "md-real-io-2017"), "--platform", PLATFORM, "--ranks", "7",
            "--residual-quantile", "0.01", "--quiet"]
    run(pfsim, base + ["--out", exact])
    run(pfsim, base + ["--no-samples", "--out", hist])
    je, jh = json.load(open(exact)), json.load(open(hist))
    worst, counts_equal = 0.0, True
    for pe, ph in zip(je["phases"], jh["phases"]):
        check(pe["rate_items_per_s"] == ph["rate_items_per_s"], f"--no-samples: phase {pe['name']} rate unchanged")
        for kind, le in pe["latency"].items():
            lh = ph["latency"][kind]
            counts_equal = counts_equal and le["count"] == lh["count"] and le["max_s"] == lh["max_s"]
            for key in ("p50_s", "p90_s", "p99_s", "p99.9_s", "mean_s"):
                if le[key] > 0:
                    worst = max(worst, abs(lh[key] / le[key] - 1))
    check(counts_equal and worst <= 0.0014 and "latency_percentiles" in jh and "latency_percentiles" not in je,
          f"--no-samples: histogram percentiles within 0.14% of the exact ones (worst {worst:.2e}), counts and "
          "maxima equal, and the JSON says how they were made")

    # Latencies are durations, not differences of float32 times since the phase start: a 1 us stat 150 s into a
    # phase (a 1 MB object at 10 kB/s takes 100 s to write) is printed as 1 us, not 0 or 15 us.
    slow = json.load(open(PLATFORM))
    slow["clients"]["load_delay"] = {"enabled": False}
    slow["mds"]["service"] = {k: "1us" for k in slow["mds"]["service"]}
    slow["oss"].update({"disk_write": "1e4Bps", "disk_read": "2e4Bps", "rpc_service": "0us"})
    slow_path = os.path.join(tmp, "slow.json")
    json.dump(slow, open(slow_path, "w"))
    out = os.path.join(tmp, "late")
    run(pfsim, ["mdworkbench", "--platform", slow_path, "--ranks", "1", "-I", "3", "-P", "3", "-D", "1", "-R", "1",
                "-S", "1000000",
                "--latency-dir", out, "--quiet"])
    rows = [l.split(",") for l in open(os.path.join(out, "lat-0.00-0-stat.csv")).read().split()[1:]]
    check(len(rows) == 3 and float(rows[-1][0]) > 100 and all(abs(float(r[1]) / expected_stat(slow) - 1) < 0.01
                                                              for r in rows),
          f"late operations keep their exact latency ({rows})")

    check.finish("output-format")


if __name__ == "__main__":
    main()
