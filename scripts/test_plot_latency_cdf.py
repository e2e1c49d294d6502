#!/usr/bin/env python3
"""Checks scripts/plot_latency_cdf.py on the real tools' latency files (../shared/data/tool-outputs):
  - md-real-io 2017, md-workbench (-L rank 0 and --latency-all) and mdtest per-op directories are read, each prefix
    found from the file names, and every row of every file of an operation (mdtest: phase) lands in its panel (the
    counts are the files' rows); mdtest beside md-real-io files is refused;
  - columns are read by name (a runtime,time file gives the same latencies);
  - a malformed row, and one directory holding both forms under one prefix, exit 2 naming the file;
  - what `pfsim replay --check` refuses (a header-only file, a truncated one: fewer rows than the others, a missing
    rank's file, an mdtest phase without a rank's file) is refused with pfsim's error line, exit 2, no plot;
  - the plot is written (PNG) and is byte-identical between two runs.
usage: test_plot_latency_cdf.py [PATH/TO/pfsim]  (ctest passes it; default build/pfsim; exit 0 when every check passes)
"""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import plot_latency_cdf as plc  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.dirname(HERE)), "shared", "data", "tool-outputs")
if not os.path.isdir(DATA):  # a checkout elsewhere than beside ../shared (CI clones)
    DATA = "/work/shared/data/tool-outputs"
PFSIM = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(os.path.dirname(HERE), "build", "pfsim")
failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    failures += 0 if cond else 1


def rows(pattern):
    n = 0
    for f in glob.glob(pattern):
        with open(f) as fh:
            n += sum(1 for line in fh) - 1
    return n


def plot(real, sim, out, *extra):
    return subprocess.run([sys.executable, os.path.join(HERE, "plot_latency_cdf.py"), real, sim, "--out", out,
                           "--pfsim", PFSIM, *extra], capture_output=True, text=True)


def main():
    mdreal = os.path.join(DATA, "md-real-io-2017")
    mdw_all = os.path.join(DATA, "md-workbench-ior", "run2-latency-all")
    mdw_l = os.path.join(DATA, "md-workbench-ior", "run1-L-process-reports")
    for d, pattern in ((mdreal, "lat-*-{op}-[0-9]*.csv"), (mdw_all, "lat-0.00-*-{op}-all.csv"),
                       (mdw_l, "lat-0.00-*-{op}.csv")):
        prefix = plc.find_prefix(d, "--prefix")
        _, pools = plc.load(d, prefix)
        want = {("benchmark-" + op if op not in ("precreate", "cleanup") else op): rows(os.path.join(d, pattern.format(op=op)))
                for op in ("precreate", "stat", "read", "create", "delete", "cleanup")}
        got = {k: len(v) for k, v in pools.items()}
        check(prefix == "lat" and got == want and all(n > 0 for n in want.values()),
              f"{os.path.relpath(d, DATA)}: prefix {prefix}, rows per panel {got} (files: {want})")
    # mdtest --savePerOpDataCSV (time,runtime,tp): a panel per phase, every rank's rows in it
    mdtest = os.path.join(DATA, "mdtest")
    prefix = plc.find_prefix(mdtest, "--prefix")
    forms, pools = plc.load(mdtest, prefix)
    want = {ph: rows(os.path.join(mdtest, f"mdtest-perop-{ph}-*.csv"))
            for ph in ("File creation", "File stat", "File read", "File removal")}
    got = {k: len(v) for k, v in pools.items()}
    check(prefix == "mdtest-perop" and forms == {"mdtest"} and got == want and all(n > 0 for n in want.values()),
          f"mdtest: prefix {prefix}, rows per panel {got} (files: {want})")
    with tempfile.TemporaryDirectory() as tmp:
        # mdtest against itself plots; mdtest against md-real-io is refused (phases are not operations)
        r = plot(mdtest, mdtest, os.path.join(tmp, "mdtest.png"))
        check(r.returncode == 0 and os.path.exists(os.path.join(tmp, "mdtest.png")),
              f"mdtest vs mdtest plot written (exit {r.returncode}) {r.stderr.strip()[:120]}")
        r = plot(mdtest, mdreal, os.path.join(tmp, "mixed-tools.png"))
        check(r.returncode == 2 and "mdtest per-op files" in r.stderr
              and not os.path.exists(os.path.join(tmp, "mixed-tools.png")),
              f"mdtest vs md-real-io refused: exit {r.returncode}, {r.stderr.strip()[:160]}")
        # columns by name: the runtime column first
        swapped = os.path.join(tmp, "swapped")
        os.mkdir(swapped)
        for f in glob.glob(os.path.join(mdreal, "lat-*.csv")):
            with open(f) as fh:
                lines = fh.read().splitlines()
            with open(os.path.join(swapped, os.path.basename(f)), "w") as fh:
                fh.write("\n".join(",".join(reversed(line.split(","))) for line in lines) + "\n")
        a, b = plc.load(mdreal, "lat")[1], plc.load(swapped, "lat")[1]
        check(a.keys() == b.keys() and all((a[k] == b[k]).all() for k in a),
              "a runtime,time file gives the same latencies as time,runtime")
        # a malformed row: exit 2, the file and line named
        bad = os.path.join(tmp, "bad")
        shutil.copytree(mdreal, bad)
        victim = os.path.join(bad, "lat-0-stat-1.csv")
        with open(victim) as fh:
            lines = fh.read().splitlines()
        lines[3] = "0.001,abc"
        with open(victim, "w") as fh:
            fh.write("\n".join(lines) + "\n")
        r = plot(bad, mdreal, os.path.join(tmp, "x.png"))
        check(r.returncode == 2 and "lat-0-stat-1.csv: line 4: runtime: expected a number" in r.stderr
              and not os.path.exists(os.path.join(tmp, "x.png")),
              f"a malformed row: exit {r.returncode}, {r.stderr.strip()[:160]}")
        # what pfsim's importer refuses, refused here too (these plotted as if fine): a last line without its end
        # of line, an empty line, a negative time, a number in Python's own syntax; and a FIFO (this hung)
        for i, (edit, said) in enumerate((
                (lambda t: t.rstrip("\n"), "truncated file: the last line has no end of line"),
                (lambda t: t.replace("\n", "\n\n", 2).replace("\n\n", "\n", 1), "line 3: empty line"),
                (lambda t: t.split("\n", 1)[0] + "\n-0.5," + t.split("\n", 1)[1].split(",", 1)[1],
                 "line 2: time: expected seconds >= 0"),
                (lambda t: t.split("\n", 1)[0] + "\n1_0," + t.split("\n", 1)[1].split(",", 1)[1],
                 "line 2: time: expected a number, got '1_0'"))):
            d = os.path.join(tmp, f"strict{i}")
            shutil.copytree(mdreal, d)
            victim = os.path.join(d, "lat-0-stat-1.csv")
            with open(victim) as fh:
                text = fh.read()
            with open(victim, "w") as fh:
                fh.write(edit(text))
            r = plot(d, mdreal, os.path.join(tmp, "x.png"))
            check(r.returncode == 2 and "lat-0-stat-1.csv: " in r.stderr and said in r.stderr
                  and not os.path.exists(os.path.join(tmp, "x.png")),
                  f"refused as the importer does ({said}): exit {r.returncode}, {r.stderr.strip()[:160]}")
        fifo = os.path.join(tmp, "fifo")
        shutil.copytree(mdreal, fifo)
        os.mkfifo(os.path.join(fifo, "lat-0-stat-9.csv"))
        r = subprocess.run([sys.executable, os.path.join(HERE, "plot_latency_cdf.py"), fifo, mdreal, "--out",
                            os.path.join(tmp, "x.png"), "--pfsim", PFSIM],
                           capture_output=True, text=True, timeout=60)
        check(r.returncode == 2 and "lat-0-stat-9.csv: is a FIFO" in r.stderr,
              f"a FIFO named like a latency file: exit {r.returncode}, {r.stderr.strip()[:160]}")
        # what pfsim replay refuses, refused here too, with its error line (these plotted partial data): a file of
        # header only, one with fewer rows than the other ranks' (each row well formed), a rank's file missing; an
        # mdtest phase without one rank's file
        def header_only(d):
            with open(os.path.join(d, "lat-0-stat-1.csv")) as fh:
                head = fh.readline()
            with open(os.path.join(d, "lat-0-stat-1.csv"), "w") as fh:
                fh.write(head)

        def truncated(d):
            with open(os.path.join(d, "lat-0-stat-1.csv")) as fh:
                lines = fh.readlines()
            with open(os.path.join(d, "lat-0-stat-1.csv"), "w") as fh:
                fh.writelines(lines[:-3])
        for i, (base, edit, said) in enumerate((
                (mdreal, header_only, "lat-0-stat-1.csv:1: "),
                (mdreal, truncated, "lat-0-stat-1.csv:"),
                (mdreal, lambda d: os.unlink(os.path.join(d, "lat-0-stat-1.csv")), "lat-0-stat-1.csv: missing file"),
                (mdtest, lambda d: os.unlink(os.path.join(d, "mdtest-perop-File stat-00001.csv")),
                 "mdtest-perop-File stat-00001.csv: missing file"))):
            d = os.path.join(tmp, f"replay{i}")
            shutil.copytree(base, d)
            edit(d)
            r = plot(d, base, os.path.join(tmp, "x.png"))
            lines = r.stderr.strip().splitlines()
            check(r.returncode == 2 and len(lines) == 1 and "pfsim replay --check refuses" in lines[0] and said in
                  lines[0] and not os.path.exists(os.path.join(tmp, "x.png")),
                  f"refused as pfsim replay refuses it ({said}): exit {r.returncode}, {r.stderr.strip()[:200]}")
        # two runs' files under one prefix in one directory: which run is it? (md-workbench -L beside --latency-all
        # files would count rank 0 twice)
        for name, base, extra, forms in (("mixed", mdreal, mdw_all, "md-real-io and md-workbench --latency-all"),
                                         ("both-mdw", mdw_all, mdw_l, "md-workbench --latency-all and md-workbench -L")):
            d = os.path.join(tmp, name)
            shutil.copytree(base, d)
            for f in glob.glob(os.path.join(extra, "lat-*.csv")):
                shutil.copy(f, d)
            r = plot(d, mdreal, os.path.join(tmp, name + ".png"))
            check(r.returncode == 2 and f"{forms} form" in r.stderr,
                  f"{forms} files in one directory: exit {r.returncode}, {r.stderr.strip()[:160]}")
        # a malformed runtime in a runtime,time file is named as the runtime
        bad2 = os.path.join(tmp, "bad2")
        shutil.copytree(swapped, bad2)
        with open(os.path.join(bad2, "lat-0-stat-1.csv")) as fh:
            lines = fh.read().splitlines()
        lines[2] = "abc," + lines[2].split(",")[1]
        with open(os.path.join(bad2, "lat-0-stat-1.csv"), "w") as fh:
            fh.write("\n".join(lines) + "\n")
        r = plot(bad2, mdreal, os.path.join(tmp, "w.png"))
        check(r.returncode == 2 and "lat-0-stat-1.csv: line 3: runtime: expected a number" in r.stderr,
              f"a bad runtime in a runtime,time file: exit {r.returncode}, {r.stderr.strip()[:160]}")
        # md-workbench against md-real-io, written twice: the same bytes
        outs = [os.path.join(tmp, f"cdf{i}.png") for i in (1, 2)]
        rcs = [plot(mdw_all, mdreal, o, "--labels", "IOR md-workbench,md-real-io").returncode for o in outs]
        same = all(os.path.exists(o) for o in outs) and open(outs[0], "rb").read() == open(outs[1], "rb").read()
        check(rcs == [0, 0] and same, f"md-workbench vs md-real-io plot written, byte-identical twice (exit {rcs})")
    print(f"{failures} plot_latency_cdf check(s) failed" if failures else "all plot_latency_cdf checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
