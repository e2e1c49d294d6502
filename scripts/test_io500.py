#!/usr/bin/env python3
"""Tests of scripts/io500.py (IO500's standard phases on a platform). usage: test_io500.py PATH/TO/pfsim

1. IO500's config-tiny.ini (shared/data/tool-outputs/io500) at 4 tasks on the Spartan platform: 12 [RESULT] lines in
   IO500's format ("[RESULT] %20s %15.6f unit : time %.3f seconds") in IO500's order, and a [SCORE ] line whose
   bandwidth and IOPS are the geometric means of the printed values (4 ior, 7 mdtest phases and find) and TOTAL their
   geometric mean; then IO500's unscored last phase, the rnd4K read of ior-easy's files ("[      ]", left out of the
   score), run over the files as the write left them (--file-size); result_summary.txt in --out-dir holds the same
   text. The --json report records the effective
   configuration (seed, ranks, ranks per node, --set, the config with IO500's defaults, pfsim's version, build and
   effective platform: the one pfsim mdtest --out reports), byte-identical across two identical runs.
2. The mdtest-easy-write score is `pfsim mdtest -n 2000 -u -F -N 1 -Y -W 1` run directly (its File creation rate /
   1000); the find score is `pfsim find` on the tree the run leaves with the config's [find] nproc = 1 (mdtest-hard's
   files as many as its stonewalled create made, the JSON's "made"), and that tree, for the real run
   of standard-results (2 tasks, -n 2000), holds its result.txt's total-files (8,003) and found (58); pfsim's own
   result.txt has found.
3. --from the real IO500 result directory: its procs (2) and its command lines' sizes are used, and the comparison
   lists the measured scores of result.txt.
4. Bad input: a result directory without result.txt, a malformed result.txt line (file:line), a config with a bad
   size (its key): exit 2 with the message, nothing written.
5. The --from directory's files are inputs: --out-dir into it is refused and its result_summary.txt kept.
6. IO500's config rules: section and option names in any case, inline comments, run = FALSE skips a group (said in
   the summary), an unknown section, a size of 0, a file count with a suffix and a binary file are errors (exit 2).
   An option given twice: the last value, as IO500, and a warning naming both lines.
   --seed takes pfsim's range, 0 to 2^63 - 1 (0 runs, -1 and 2^63 are refused).
   Every phase off: TOTAL 0 [INVALID], as IO500 marks a score of 0.
7. A capped block is whole transfers, rounded down, never above the cap: refused when not one transfer fits.
   [INVALID] as IO500 marks it (1: the write phases and the score of a 1 s stonewall; the rules on their own), and
   result.txt in IO500's layout that --from reads back with errors of 0.
8. IO500's per-phase files in --out-dir (config-tiny at 2 tasks on one node, as standard-results ran): the real
   directory's <phase>.txt and <phase>.csv names (find.csv left out: not simulated), each CSV's header the real
   file's, a row per task (mdtest's after its "all" row, the same columns filled as the real file's), each IOR .txt
   IOR's output (its Results table, the phase's bw = its score, no 'Summary of all tests'), each mdtest .txt the
   phase's row at its score and the others 0; byte-identical twice; a phase file that is a directory, or an input,
   refused (exit 2, nothing written); an earlier run's file of IO500's name not written is kept and said. Each
   mdtest .txt's command line has the options of the phase's result.txt exe (-L, -t, -x, -a POSIX), but the group
   run's -Y -W and the CSV, as standard-results' .txt and exe agree; each ends as mdtest's, with a blank line.
9. pfsim's warnings on stderr name the runs that printed them (Mistral: ior-easy-read's and ior-hard-read's load-law
   size lines); stonewall-time 0 draws no warning about the mdtest runs' -x.
"""
import json
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import Checks, pfsim_arg  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IO500 = os.path.join(ROOT, "scripts", "io500.py")
PLATFORM = os.path.join(ROOT, "platforms", "spartan-cephfs-fitted.json")
DATA = os.path.join(os.path.dirname(ROOT), "shared", "data", "tool-outputs", "io500")
if not os.path.isdir(DATA):  # a clone elsewhere than beside shared/
    DATA = "/work/shared/data/tool-outputs/io500"
ORDER = ["ior-easy-write", "mdtest-easy-write", "ior-hard-write", "mdtest-hard-write", "find", "ior-easy-read",
         "mdtest-easy-stat", "ior-hard-read", "mdtest-hard-stat", "mdtest-easy-delete", "mdtest-hard-read",
         "mdtest-hard-delete"]


def run(args, build):
    return subprocess.run([sys.executable, IO500, "--build", build] + args, capture_output=True, text=True)


def same_printed(x):
    """A phase compared with pfsim's own printed result: equal to the 6 decimals IO500 prints (a small rate, such as
    ior-hard's 0.014245 GiB/s on Spartan, has a relative rounding error above 1e-6)."""
    return abs(x["simulated"] - x["measured"]) <= 5e-7 * (1 + 1e-6)


def phase_files_test(check, build, data, tmp):
    """8: IO500's per-phase files (<phase>.txt, <phase>.csv) in --out-dir, against standard-results'."""
    start = time.monotonic()
    real = os.path.join(data, "standard-results")
    real_names = sorted(f for f in os.listdir(real)
                        if re.fullmatch(r"(ior|mdtest)-[A-Za-z0-9-]+\.(txt|csv)|find\.csv", f))
    check(len(real_names) == 25 and "find.csv" in real_names,
          f"standard-results holds 12 phases' .txt and 13 .csv (find.csv among them) (got {real_names})")
    tiny = os.path.join(data, "config-tiny.ini")
    outs, reports = [], []
    for k in (1, 2):
        out = os.path.join(tmp, f"phases{k}")
        if k == 1:  # an earlier run's file of IO500's name that this run does not write: kept, said
            os.makedirs(out)
            with open(os.path.join(out, "find.csv"), "w") as f:
                f.write("earlier\n")
        r = run([tiny, "--platform", PLATFORM, "--ranks", "2", "--ranks-per-node", "2", "--out-dir", out, "--json",
                 os.path.join(tmp, f"phases{k}.json")], build)
        check(r.returncode == 0, f"config-tiny at 2 tasks with --out-dir runs (exit {r.returncode}: "
                                 f"{r.stderr.strip()[-300:]})")
        outs.append(out)
        reports.append(json.load(open(os.path.join(tmp, f"phases{k}.json"))) if r.returncode == 0 else {})
        if k == 1:
            check(open(os.path.join(out, "find.csv")).read() == "earlier\n" and
                  "find.csv (pfsim gives none) not written by this run" in r.stderr,
                  f"an earlier find.csv in --out-dir is kept and said ({r.stderr.strip()[-200:]})")
    out = outs[0]
    ours = sorted(f for f in os.listdir(out) if f.endswith((".txt", ".csv")) and f not in
                  ("result.txt", "result_summary.txt", "find.csv"))
    check(ours == [f for f in real_names if f != "find.csv"],
          f"the per-phase files are the real directory's names but find.csv (got {ours})")
    scores = {n: v["score"] for n, v in reports[0].get("phases", {}).items()}
    for name in ours:
        ph = name[:-4]
        text = open(os.path.join(out, name)).read()
        real_text = open(os.path.join(real, name)).read()
        if name.endswith(".csv"):
            rows, real_rows = [l.split(",") for l in text.splitlines()], [l.split(",") for l in real_text.splitlines()]
            filled = lambda row: [h for h, v in zip(real_rows[0], row) if v != ""]
            if ph.startswith("ior"):
                access = "write" if ph.endswith("-write") else "read"
                ok = (rows[0] == real_rows[0] and [r[:2] for r in rows[1:]] == [[access, "0"], [access, "1"]] and
                      all(len(r) == 6 and float(r[2]) > 0 for r in rows[1:]))
            else:  # "all", then a row per task, the columns of the real file's filled (the phase's, its tree's)
                ok = (rows[0] == real_rows[0] and [r[0] for r in rows[1:]] == ["all", "0", "1"] and
                      [len(r) for r in rows] == [len(r) for r in real_rows] and
                      [filled(r) for r in rows[1:]] == [filled(r) for r in real_rows[1:]])
            check(ok, f"{name}: the real header, a row per task (2), its fields as the real file's "
                      f"(got {text.splitlines()[:2]})")
        elif ph.startswith("ior"):
            m = re.search(r"^(write|read) +([0-9.]+) +([0-9.]+) +([0-9.]+)( +[0-9.]+){6} +0 +$", text, re.M)
            bw = float(m.group(2)) if m else -1
            ok = (text.startswith("IOR-") and "\nResults: \n" in text and "\naccess    bw(MiB/s)  IOPS" in text and
                  m is not None and m.group(1) == ("write" if ph.endswith("-write") else "read") and
                  abs(bw - scores.get(ph, 0) * 1024) <= max(0.006, 1e-3 * bw) and "Summary of all tests" not in text
                  and f" -O saveRankPerformanceDetailsCSV={ph}.csv" in text and text.endswith("\n") and
                  # (the Results line last, or IOR's wear-out line after it: the rnd4K read's, as in standard-results)
                  text.splitlines()[-1] in (m.group(0), "Pairs deadlineForStonewallingaccessed: 0"))
            check(ok, f"{name}: IOR's output, its Results line's bw {bw} MiB/s the phase's score "
                      f"{scores.get(ph)} GiB/s x 1024, up to its Results (as IO500's) ({text[-200:]!r})")
        else:
            rows = dict((l[3:25].rstrip(), float(l.split()[-4])) for l in
                        text.split("SUMMARY rate")[-1].split("\n\n")[0].splitlines() if l[3:25].strip() in
                        ("File creation", "File stat", "File read", "File removal", "Tree creation", "Tree removal"))
            what = {"write": "File creation", "stat": "File stat", "read": "File read", "delete": "File removal"}[
                ph.split("-")[-1]]
            tree = {"write": "Tree creation", "delete": "Tree removal"}.get(ph.split("-")[-1])
            flags = {"write": "'-C'", "stat": "'-T'", "read": "'-E' '-X'", "delete": "'-r'"}[ph.split("-")[-1]]
            ok = (len(rows) == 6 and abs(rows[what] - scores.get(ph, 0) * 1000) <= 1e-3 and
                  all(v == 0 for k, v in rows.items() if k not in (what, tree)) and (tree is None or rows[tree] > 0)
                  and f" {flags} '--saveRankPerformanceDetails={ph}.csv' '-a' 'POSIX'\n" in text and
                  text.startswith("-- started at ") and "\n-- finished at " in text and
                  # (ending as mdtest's and IO500's file: the finished line and a blank line, helper-149)
                  text.endswith(" --\n\n") and real_text.endswith(" --\n\n"))
            check(ok, f"{name}: mdtest's output, its {what} row the phase's score {scores.get(ph)} kIOPS x 1000, "
                      f"the other rows 0 but its tree's ({rows})")
            # Its command line carries the options of the phase's exe line in result.txt, as IO500's do (helper-149:
            # -L and -t were left out), but the run's -Y and -W on the phases IO500 gives them not (the one run of the
            # group, --help) and the CSV's name; the real directory's .txt and exe lines agree so too
            for d, t, flat in ((out, text, lambda x: x), (real, real_text, lambda x: x.replace("-G=", "-G "))):
                cmd = re.search(r"^Command line used: \S*mdtest (.*)$", t, re.M)
                exe = re.search(rf"^\[{ph}\]\n(?:t_start += .*\n)?exe += \S*mdtest (.*)$",
                                open(os.path.join(d, "result.txt")).read(), re.M)
                got = shlex.split(flat(shlex.join(shlex.split(cmd.group(1))))) if cmd else []
                if not ph.endswith("-write") and d == out:
                    k = got.index("-W") if "-W" in got else None
                    got = [a for i, a in enumerate(got) if a != "-Y" and (k is None or i not in (k, k + 1))]
                got = [a for a in got if not a.startswith("--saveRankPerformanceDetails=")]
                want = [a for a in shlex.split(flat(exe.group(1))) if not a.startswith("--saveRankPerformanceDetails=")] \
                    if exe else None
                check(want is not None and sorted(got) == sorted(want),
                      f"{name} ({'ours' if d == out else 'standard-results'}): 'Command line used' has the options of "
                      f"result.txt's exe for {ph} (got {got}, exe {want})")
    same = [f for f in ours
            if open(os.path.join(outs[0], f), "rb").read() == open(os.path.join(outs[1], f), "rb").read()]
    check(same == ours, f"the same run twice: byte-identical per-phase files (differ: {sorted(set(ours) - set(same))})")
    # an output that cannot be written, or is an input: exit 2 naming it, before any run, nothing written
    bad = os.path.join(tmp, "phases-bad")
    os.makedirs(os.path.join(bad, "ior-hard-read.csv"))
    shutil.copy(tiny, os.path.join(bad, "mdtest-easy-stat.txt"))
    for cfg, what in ((tiny, "ior-hard-read.csv: is a directory; expected a file name"),
                      (os.path.join(bad, "mdtest-easy-stat.txt"), "mdtest-easy-stat.txt is the config, which this run "
                                                                  "reads")):
        r = run([cfg, "--platform", PLATFORM, "--ranks", "2", "--out-dir", bad], build)
        check(r.returncode == 2 and what in r.stderr and len(r.stderr.strip().splitlines()) == 1 and
              sorted(os.listdir(bad)) == ["ior-hard-read.csv", "mdtest-easy-stat.txt"],
              f"--out-dir where '{what}': exit 2, one line naming it, nothing written ({r.returncode}: "
              f"{r.stderr.strip()[-200:]})")
    print(f"(8: the per-phase files' checks took {time.monotonic() - start:.1f} s)")


def warnings_test(check, build, data, tmp):
    """9: pfsim's warnings passed to stderr name the runs that printed them (helper-149: on Mistral, ior-easy-read's
    and ior-hard-read's load-law lines looked alike); with stonewall-time 0 the mdtest runs' -x (IO500's) is not
    warned about."""
    mistral = os.path.join(ROOT, "platforms", "mistral-lustre02.json")
    tiny = os.path.join(data, "config-tiny.ini")
    r = run([tiny, "--platform", mistral, "--ranks", "2", "--ranks-per-node", "2"], build)
    law = [l for l in r.stderr.splitlines() if "clients.load_delay read: fitted on reads of 3900 B" in l]
    check(r.returncode == 0 and len(law) == 2 and
          law[0].startswith("pfsim: warning: ior-easy-read: clients.load_delay read: ") and "1048576 B (1 MiB)" in law[0]
          and law[1].startswith("pfsim: warning: ior-hard-read: clients.load_delay read: ") and "47008 B" in law[1],
          f"Mistral: the read law's size warnings of ior-easy-read and ior-hard-read, each naming its phase ({law}; "
          f"exit {r.returncode}: {r.stderr.strip()[-300:]})")
    fsync = [l for l in r.stderr.splitlines() if "-e (fsync)" in l]
    check(len(fsync) == 1 and fsync[0].startswith("pfsim: warning: ior-easy-write, ior-easy-read, ior-hard-write, "
                                                 "ior-hard-read, ior-rnd4K-easy-read: -e (fsync) "),
          f"a warning several runs printed alike: once, naming them ({fsync})")
    cfg = os.path.join(tmp, "sw0.ini")
    with open(cfg, "w") as f:
        f.write(open(tiny).read().replace("stonewall-time = 1", "stonewall-time = 0"))
    r = run([cfg, "--platform", PLATFORM, "--ranks", "2", "--ranks-per-node", "2"], build)
    check(r.returncode == 0 and "warning" not in r.stderr,
          f"stonewall-time 0: no warning (mdtest's -x without -W is IO500's own) ({r.stderr.strip()[-300:]})")


def main():
    pfsim = pfsim_arg(__doc__)
    build = os.path.dirname(os.path.abspath(pfsim))
    check = Checks()
    data = os.path.normpath(DATA)
    if not os.path.isdir(data):
        print(f"test_io500: {data}: the real IO500 outputs are missing")
        sys.exit(1)
    with tempfile.TemporaryDirectory() as tmp:
        phase_files_test(check, build, data, tmp)
    with tempfile.TemporaryDirectory() as tmp:
        warnings_test(check, build, data, tmp)
    with tempfile.TemporaryDirectory() as tmp:
        r = run([os.path.join(data, "config-tiny.ini"), "--platform", PLATFORM, "--ranks", "4", "--ranks-per-node",
                 "2", "--out-dir", tmp, "--json", os.path.join(tmp, "r.json")], build)
        check(r.returncode == 0, f"config-tiny at 4 tasks runs (exit {r.returncode}: {r.stderr.strip()[-300:]})")
        pat = re.compile(r"\[RESULT\] ([ a-z0-9-]{20}) ([ 0-9.]{15}) (GiB/s|kIOPS) : time (\d+\.\d{3}) seconds"
                         r"( \[INVALID\])?$")
        matches = [m for m in map(pat.match, r.stdout.splitlines()) if m]
        res = [(m.group(1).strip(), float(m.group(2)), m.group(3)) for m in matches]
        # stonewall-time = 1 and phases of a second or less: the 4 write phases and the score are INVALID, as IO500's
        # own run of this config marked them (standard-results/result_summary.txt), the reads are not.
        marked = [m.group(1).strip() for m in matches if m.group(5)]
        check(marked == [n for n in ORDER if n.endswith("-write")] and
              re.search(r"^\[SCORE \] .* \[INVALID\]$", r.stdout, re.M) is not None,
              f"[INVALID] on the 4 write phases and the score, as IO500 marks them (marked: {marked})")
        check([n for n, _, _ in res] == ORDER, f"12 [RESULT] lines in IO500's format and order (got {[n for n, _, _ in res]})")
        check(all((u == "GiB/s") == n.startswith("ior") for n, _, u in res), "ior phases in GiB/s, mdtest and find in kIOPS")
        m = re.search(r"\[SCORE \] Bandwidth ([0-9.]+) GiB/s : IOPS ([0-9.]+) kiops : TOTAL ([0-9.]+)", r.stdout)
        vals = dict((n, v) for n, v, _ in res)
        geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
        bw = geo([v for n, v in vals.items() if n.startswith("ior")])
        md = geo([v for n, v in vals.items() if not n.startswith("ior")])
        check(m is not None and abs(float(m.group(1)) / bw - 1) < 1e-5 and abs(float(m.group(2)) / md - 1) < 1e-5
              and abs(float(m.group(3)) / math.sqrt(bw * md) - 1) < 1e-5,
              f"score = geometric means of the lines: bw {bw:.6f}, IOPS {md:.6f} (line: {m.group(0) if m else None})")
        # IO500's last phase, unscored: the rnd4K read of ior-easy's files, printed "[      ]" (standard-results'
        # io500-stdout.txt) and left out of the score (above: the [RESULT] lines alone make it)
        rnd = re.search(r"^\[      \]  ior-rnd4K-easy-read ([ 0-9.]{15}) GiB/s : time (\d+\.\d{3}) seconds$", r.stdout, re.M)
        rnd_v = float(rnd.group(1)) if rnd else -1
        check(rnd is not None and r.stdout.splitlines()[-2] == rnd.group(0) and rnd_v > 0,
              f"ior-rnd4K-easy-read: the last phase, '[      ]' as IO500 prints it ({rnd and rnd.group(0)})")
        summary = os.path.join(tmp, "result_summary.txt")
        check(os.path.isfile(summary) and open(summary).read() == r.stdout, "result_summary.txt holds the same text")
        # The JSON records its effective configuration (helper-121: the platform path and the sets only): the seed,
        # ranks, ranks per node, the config as read with IO500's defaults filled in, pfsim's version and build, and
        # the effective platform pfsim reported (checked against pfsim's own --out in 2).
        rep1 = json.load(open(os.path.join(tmp, "r.json"))) if r.returncode == 0 else {}
        cfg1, sim1 = rep1.get("config", {}), rep1.get("pfsim", {})
        io1 = cfg1.get("io500", {}).get("options", {})
        version = subprocess.run([pfsim, "version"], capture_output=True, text=True).stdout.split()[-1]
        check(cfg1.get("seed") == 1 and cfg1.get("ranks") == 4 and cfg1.get("ranks_per_node") == 2 and
              cfg1.get("sets") == [] and io1.get("ior-easy", {}).get("blocksize") == "64m" and
              io1.get("ior-easy", {}).get("fileperproc") == "TRUE" and io1.get("debug", {}).get("stonewall-time") == "1"
              and "[ior-easy] fileperproc" in cfg1.get("io500", {}).get("defaults", []) and
              "[ior-easy] blocksize" not in cfg1.get("io500", {}).get("defaults", []),
              f"the JSON's config: seed 1, 4 ranks, 2 per node, no --set, config-tiny as read (blockSize 64m, "
              f"stonewall-time 1) with IO500's defaults filled in and named (filePerProc TRUE) (got {cfg1})")
        check(sim1.get("version") == version and len(sim1.get("build", {}).get("commit", "")) >= 12 and
              sim1.get("platform", {}).get("clients", {}).get("ranks_per_node") == 2 and
              list(sim1.get("runs", {})) == ["mdtest-easy", "ior-easy-write", "ior-easy-read", "ior-hard-write",
                                             "ior-hard-read", "mdtest-hard", "find", "ior-rnd4K-easy-read"],
              f"the JSON's pfsim: version {version}, its build, the effective platform (2 ranks per node) and each "
              f"run (got {str(sim1)[:200]})")
        # IO500's stonewalling of IOR (phase_ior_*_write.c: -D stonewall-time, wear-out, the status file the read
        # reads back). config-tiny's 1 s: ior-hard's 2000 segments on this platform (about 45 transfers a second a
        # rank) stop at the stonewall, every rank then writes up to the most any rank wrote, and the read reads that
        # many, not the 2000 of the config (before: all 2000 written and read, the write not stopped at 1 s).
        ph1 = rep1.get("phases", {})
        hw, hr = ph1.get("ior-hard-write", {}), ph1.get("ior-hard-read", {})
        pairs = hw.get("stonewall", {}).get("pairs_max", 0)
        check(0 < hw.get("stonewall", {}).get("pairs_min", 0) <= pairs < 2000 and
              hw.get("bytes") == hr.get("bytes") == 4 * pairs * 47008 and 1.0 <= hw.get("time_s", 0) < 2.0 and
              1.0 <= hw["stonewall"].get("hit_s", 0) < hw["time_s"],
              f"ior-hard-write stops at the 1 s stonewall, wears out to the most pairs any rank wrote, and the read "
              f"reads them: 4 x {pairs} x 47008 bytes each (got write {hw}, read {hr})")
        cmds = {k: v.get("command", "") for k, v in sim1.get("runs", {}).items()}
        check("-w -D 1 -O stoneWallingWearOut=1 -O stoneWallingStatusFile=ior-hard.stonewall" in cmds.get(
              "ior-hard-write", "") and cmds.get("ior-hard-read", "").endswith(
              " -r -R -O stoneWallingStatusFile=ior-hard.stonewall") and "/" not in cmds["ior-hard-read"].split("=")[-1]
              and " -C -Q 1 -g -G 27 -e -k " in cmds["ior-hard-write"],
              f"the runs as IO500 makes them, the status file named without its temporary directory (got {cmds})")
        # the rnd4K read: IO500's options (-z -z of 4 KiB blocks, -D 1, -C -Q 2) over the files ior-easy's write left,
        # each its bytes per task (IOR stats them: pfsim's --file-size), at most a read per 4 KiB block (capped sizes)
        ew, rr = ph1.get("ior-easy-write", {}), ph1.get("ior-rnd4K-easy-read", {})
        per_task = int(ew.get("bytes", 0)) // 4
        rnd_cmd = cmds.get("ior-rnd4K-easy-read", "")
        check(per_task > 0 and f" --file-size {per_task}" in rnd_cmd and
              " -F -r -z -z -t 4096 -b 4096 -s " + str(per_task // 4096) + " -C -Q 2 " in rnd_cmd and
              " -D 1 -O stoneWallingWearOut=1" in rnd_cmd and 0 < rr.get("bytes", 0) <= 4 * per_task and
              abs(rr.get("score", 0) - rnd_v) <= 5e-7 and rep1.get("rnd4k") == {"segments": per_task // 4096, "file_size": per_task},
              f"ior-rnd4K-easy-read run over ior-easy's files ({per_task} bytes each): {rnd_cmd}; {rr}")
        hw_md = ph1.get("mdtest-hard-write", {})
        check(cmds.get("mdtest-hard", "").split(" --set ")[0].endswith(
              " -N 1 -F -x mdtest-hard.stonewall -Y -W 1") and
              hw_md.get("stonewall", {}).get("hit") is True and 2.0 <= hw_md.get("time_s", 0) < 2.2 and
              1.0 <= hw_md["stonewall"].get("time_s", 0) < 1.1 and
              rep1.get("made", {}).get("hard_n") == hw_md["stonewall"].get("items_max"),
              f"mdtest as IO500 runs it (-N 1 -x -Y -W 1): mdtest-hard's create stops at the 1 s stonewall, every rank "
              f"makes the most any made, find walks that many; the phase's time IO500's, the whole mdtest run's "
              f"(its 1 s sleep, the tree, the create: 2.0 s) (got {cmds.get('mdtest-hard')}, {hw_md})")
        res_txt = open(os.path.join(tmp, "result.txt")).read()
        hard_w = res_txt.split("[mdtest-hard-write]")[-1].strip("\n").split("\n\n")[0].splitlines()
        check([l.split(" ")[3] if l.startswith("; ERROR") else l.split(" ")[0] for l in hard_w] ==
              ["exe", "rate-stonewall", "Runtime", "score", "t_delta"] and " -C -Y -W 1 -a POSIX" in hard_w[0],
              f"result.txt's [mdtest-hard-write] in IO500's order: exe (-C -Y -W 1), rate-stonewall, the minimum "
              f"runtime's INVALID line, score, t_delta (got {hard_w})")
        easy_w = res_txt.split("[ior-easy-write]")[-1].strip("\n").split("\n\n")[0].splitlines()
        tags = [l.split(" ")[3] if l.startswith("; ERROR") else l.split(" ")[0] for l in easy_w]
        check(tags == ["exe", "Write", "throughput-stonewall", "Runtime", "Runtime", "score", "t_delta"] and
              " -w -D 1 -O stoneWallingWearOut=1 -a POSIX" in easy_w[0],
              f"result.txt's [ior-easy-write] in IO500's order (standard-results/result.txt): exe with -D 1 and the "
              f"wear-out, IOR's 'Write phase needed', throughput-stonewall, main.c's two INVALID lines, score, t_delta "
              f"(got {easy_w})")
        # result.txt in IO500's layout: --from reads pfsim's own result directory back, the same sizes, the same
        # scores (the same ranks per node given again), every error 0.
        again = os.path.join(tmp, "again.json")
        r2 = run(["--from", tmp, "--platform", PLATFORM, "--json", again], build)  # (its recorded --ranks-per-node 2)
        rows2 = json.load(open(again)).get("compared_with", {}).get("phases", []) if r2.returncode == 0 else []
        check(len(rows2) == 13 and all(same_printed(x) for x in rows2) and
              [x["measured"] for x in rows2] == [round(vals.get(x["phase"], rnd_v), 6) for x in rows2],
              f"--from pfsim's own --out-dir, at the ranks per node it recorded: 13 phases, its scores, errors 0 "
              f"(exit {r2.returncode}: "
              f"{r2.stderr.strip()[-200:]})")
        # ... and at the --set it recorded (helper-86: ignored, the IOR phases -55% to -74% with no note)
        setdir = os.path.join(tmp, "withset")
        r4 = run([os.path.join(data, "config-tiny.ini"), "--platform", PLATFORM, "--ranks", "4", "--ranks-per-node", "2",
                  "--set", "mds.cores=2", "--out-dir", setdir, "--json", os.path.join(tmp, "set.json")], build)
        rep4 = json.load(open(os.path.join(tmp, "set.json"))) if r4.returncode == 0 else {}
        check(rep4.get("config", {}).get("sets") == ["mds.cores=2"] and
              rep4.get("pfsim", {}).get("platform", {}).get("mds", {}).get("cores") == 2,
              f"--set mds.cores=2 is in the JSON's sets and its effective platform (mds.cores "
              f"{rep4.get('pfsim', {}).get('platform', {}).get('mds', {}).get('cores')})")
        # The same run twice: byte-identical JSON (nothing of the moment: no temporary path, no wall time).
        twice = []
        for k in (1, 2):
            rk = run([os.path.join(data, "config-tiny.ini"), "--platform", PLATFORM, "--ranks", "2", "--seed", "3",
                      "--json", os.path.join(tmp, f"twice{k}.json")], build)
            twice.append(open(os.path.join(tmp, f"twice{k}.json"), "rb").read() if rk.returncode == 0 else b"")
        check(twice[0] != b"" and twice[0] == twice[1] and json.loads(twice[0]).get("config", {}).get("seed") == 3,
              "the same run twice writes byte-identical JSON, with its seed 3")
        again4 = os.path.join(tmp, "again4.json")
        r5 = run(["--from", setdir, "--platform", PLATFORM, "--json", again4], build)
        rows5 = json.load(open(again4)).get("compared_with", {}).get("phases", []) if r5.returncode == 0 else []
        check(r4.returncode == 0 and len(rows5) == 13 and all(same_printed(x) for x in rows5) and
              "simulated with --set mds.cores=2: rerun so" in r5.stderr,
              f"--from a directory simulated with --set mds.cores=2: rerun with it, errors 0, said "
              f"({r5.stderr.strip()[-200:]})")
        # A second run into the same directory without a config replaces config.ini with the sizes it ran (helper-80:
        # the first run's config.ini stayed, and --from read its options for the second run's results).
        again_dir = os.path.join(tmp, "again")
        shutil.copytree(tmp, again_dir, ignore=shutil.ignore_patterns("again*", "*.json"))
        r3 = run(["--platform", PLATFORM, "--ranks", "2", "--cap-files", "50", "--cap-block", "4m", "--cap-segments",
                  "20", "--out-dir", again_dir], build)
        cfg3 = open(os.path.join(again_dir, "config.ini")).read() if r3.returncode == 0 else ""
        check(cfg3.startswith("; io500.py ran without a config") and "n = 50" in cfg3 and
              not any(f.startswith(".") or ".tmp" in f for f in os.listdir(again_dir)),
              f"a run without a config rewrites config.ini with its sizes, no temporary file left ({cfg3[:80]!r})")
        # 2: the mapping onto pfsim mdtest.
        out = os.path.join(tmp, "m.json")
        subprocess.run([pfsim, "mdtest", "--platform", PLATFORM, "--ranks", "4", "--ranks-per-node", "2", "-n", "2000",
                        "-u", "-F", "-N", "1", "-Y", "-W", "1", "--quiet", "--out", out], check=True,
                       capture_output=True)
        direct = {p["name"]: p["rate_items_per_s"] for p in json.load(open(out))["phases"]}["File creation"] / 1000
        check(sim1.get("platform") == json.load(open(out))["platform"],
              "the JSON's effective platform is the one pfsim mdtest --out reports for the same platform and placement")
        check(abs(vals.get("mdtest-easy-write", 0) / direct - 1) < 1e-6,
              f"mdtest-easy-write {vals.get('mdtest-easy-write')} = pfsim mdtest -n 2000 -u -F -N 1 -Y -W 1 "
              f"{direct:.6f}")
        # find: config-tiny's [find] nproc = 1 over what the 4 tasks left (mdtest -n 2000 twice, IOR -F's 4 files of
        # which ior_file_easy.00000001 holds "01", ior-hard's one); and the tree of standard-results' real run.
        def find(ranks, tasks, files, ior_match, hard_files=None):
            subprocess.run([pfsim, "find", "--platform", PLATFORM, "--ranks", str(ranks), "--ranks-per-node", "2",
                            "--name", "01", "--mdtest-easy", f"{tasks}:{files}",
                            "--mdtest-hard", f"{tasks}:{hard_files or files}",
                            "--dirs", f"{tasks}:{ior_match},1:0", "--quiet", "--out", out], check=True,
                           capture_output=True)
            j = json.load(open(out))
            return dict(j["find"], found=j["workload"]["mdtest_hard"]["matching"])
        # (config-tiny's 1 s stonewall stops mdtest-hard's create on this platform: it made fewer than 2000 a task,
        # the JSON's "made"; mdtest-easy's 2000 took less than a second)
        made = rep1.get("made", {})
        hard = made.get("hard_n", 0)
        f1 = find(1, 4, 2000, 1, hard)
        check(made.get("easy_n") == 2000 and 0 < hard < 2000 and
              abs(vals.get("find", 0) / (f1["rate"] / 1000) - 1) < 1e-6 and f1["files"] == 4 * (2000 + hard) + 5,
              f"find {vals.get('find')} = pfsim find --ranks 1 over the files made, 4 x (2000 + {hard}) + 5 "
              f"{f1['rate'] / 1000:.6f} ({f1['files']} files)")
        real = open(os.path.join(data, "standard-results", "result.txt")).read()
        total = int(re.search(r"^\[find\][^\[]*?^total-files\s*=\s*(\d+)", real, re.M | re.S).group(1))
        found = int(re.search(r"^\[find\][^\[]*?^found\s*=\s*(\d+)", real, re.M | re.S).group(1))
        f2 = find(1, 2, 2000, 1)
        check(f2["files"] == total == 8003 and f2["found"] == found == 58,
              f"the tree of standard-results' run (2 tasks, -n 2000) holds its total-files {total} and found {found} "
              f"(mdtest-hard's names holding 01; got {f2['files']} and {f2['found']})")
        ours = open(os.path.join(tmp, "result.txt")).read()
        ours_found = re.search(r"^\[find\][^\[]*?^found\s*=\s*(\d+)", ours, re.M | re.S)
        check(ours_found is not None and int(ours_found.group(1)) == f1["found"],
              f"config-tiny's result.txt [find] found = mdtest-hard's matching names {f1['found']} "
              f"(line: {ours_found.group(0)[-30:] if ours_found else None})")
        # --from a result directory without a config beside it: result.txt's own -D 1 and [find] nproc = 1 are run
        # (helper-132: stonewall-time 300 and every task for find, without a note), and the config.ini written says so
        bare = os.path.join(tmp, "bare")
        os.makedirs(bare)
        shutil.copy(os.path.join(data, "standard-results", "result.txt"), bare)
        r = run(["--from", bare, "--platform", PLATFORM, "--json", os.path.join(tmp, "bare.json"), "--out-dir",
                 os.path.join(tmp, "bare-out")], build)
        rb = json.load(open(os.path.join(tmp, "bare.json"))) if r.returncode == 0 else {}
        written = open(os.path.join(tmp, "bare-out", "config.ini")).read() if r.returncode == 0 else ""
        check(rb.get("stonewall_s") == 1 and rb.get("config", {}).get("io500", {}).get("options", {}).get(
              "find", {}).get("nproc") == "1" and "command lines (no config beside it)" in written and
              "stonewall-time = 1" in written,
              f"--from a result.txt alone: its -D 1 and [find] nproc 1 run, the config.ini written says so "
              f"({r.returncode}: {r.stderr.strip()[-200:]}; {written[:90]!r})")
        # 3: --from the real result directory.
        r = run(["--from", os.path.join(data, "standard-results"), "--platform", PLATFORM, "--json",
                 os.path.join(tmp, "f.json")], build)
        check(r.returncode == 0, f"--from standard-results runs (exit {r.returncode}: {r.stderr.strip()[-300:]})")
        rep = json.load(open(os.path.join(tmp, "f.json"))) if r.returncode == 0 else {}
        check(rep.get("tasks") == 2, f"its procs: 2 tasks (got {rep.get('tasks')})")
        check(rep.get("sizes", {}).get("easy_block") == 64 << 20 and rep.get("sizes", {}).get("hard_segments") == 2000
              and rep.get("sizes", {}).get("easy_n") == 2000, f"its command lines' sizes: -b 64m, -s 2000, -n 2000 "
              f"(got {rep.get('sizes')})")
        rows = {x["phase"]: x for x in rep.get("compared_with", {}).get("phases", [])}
        check(len(rows) == 13 and abs(rows.get("ior-easy-write", {}).get("measured", 0) - 1.288924) < 1e-9 and
              abs(rows.get("find", {}).get("measured", 0) - 2050.768237) < 1e-6 and
              abs(rows.get("ior-rnd4K-easy-read", {}).get("measured", 0) - 4.849903) < 1e-9,
              "13 phases compared, ior-easy-write measured 1.288924 GiB/s, find 2050.768237 kIOPS and the unscored "
              "ior-rnd4K-easy-read 4.849903 GiB/s as result.txt says")
        # 4: bad input.
        empty = os.path.join(tmp, "empty")
        os.mkdir(empty)
        r = run(["--from", empty, "--platform", PLATFORM], build)
        check(r.returncode == 2 and "result.txt" in r.stderr, f"a directory without result.txt: exit 2 naming it "
              f"({r.returncode}: {r.stderr.strip()})")
        bad = os.path.join(tmp, "bad")
        shutil.copytree(os.path.join(data, "standard-results"), bad)
        with open(os.path.join(bad, "result.txt"), "a") as f:
            f.write("this is not a key value line\n")
        n = sum(1 for _ in open(os.path.join(bad, "result.txt")))
        r = run(["--from", bad, "--platform", PLATFORM], build)
        check(r.returncode == 2 and f"result.txt:{n}:" in r.stderr, f"a malformed result.txt line: exit 2 naming "
              f"file:line {n} ({r.returncode}: {r.stderr.strip()})")
        cfg = os.path.join(tmp, "bad.ini")
        with open(cfg, "w") as f:
            f.write("[ior-easy]\ntransferSize = lots\n")
        outdir = os.path.join(tmp, "o")
        os.mkdir(outdir)
        r = run([cfg, "--platform", PLATFORM, "--ranks", "2", "--out-dir", outdir], build)
        check(r.returncode == 2 and "transferSize" in r.stderr and not os.listdir(outdir),
              f"a bad size in the config: exit 2 naming the key, nothing written ({r.returncode}: {r.stderr.strip()})")
        # 5: the --from directory's files are inputs: an --out-dir there is refused, nothing replaced.
        victim = os.path.join(tmp, "victim")
        shutil.copytree(os.path.join(data, "standard-results"), victim)
        before = open(os.path.join(victim, "result_summary.txt")).read()
        r = run(["--from", victim, "--platform", PLATFORM, "--out-dir", victim], build)
        check(r.returncode == 2 and open(os.path.join(victim, "result_summary.txt")).read() == before,
              f"--out-dir into the --from directory: exit 2, its result_summary.txt kept ({r.returncode})")
        # 6: IO500's config rules: names in any case, inline comments, run = FALSE, an unknown section, bad values.
        def run_config(name, text):
            """io500.py on a config of `text` at 2 tasks: its result and its --json report ({} if it failed)."""
            path = os.path.join(tmp, name + ".ini")
            with open(path, "w") as f:
                f.write(text)
            r = run([path, "--platform", PLATFORM, "--ranks", "2", "--json", os.path.join(tmp, name + ".json")], build)
            return r, json.load(open(os.path.join(tmp, name + ".json"))) if r.returncode == 0 else {}
        # --no-caps: IO500's default sizes (a 9920000m block, 10,000,000 segments, 1,000,000 files per task), which
        # only the stonewall ends, as IO500 runs them; a 1 s stonewall keeps the run short
        path = os.path.join(tmp, "nocaps.ini")
        with open(path, "w") as f:
            f.write("[debug]\nstonewall-time = 1\n")
        r = run([path, "--platform", PLATFORM, "--ranks", "2", "--no-caps", "--json", os.path.join(tmp, "nc.json")],
                build)
        nc = json.load(open(os.path.join(tmp, "nc.json"))) if r.returncode == 0 else {}
        sz, made, phases = nc.get("sizes", {}), nc.get("made", {}), nc.get("phases", {})
        check(sz.get("easy_block") == 9920000 << 20 and sz.get("hard_segments") == 10000000 and
              sz.get("easy_n") == sz.get("hard_n") == 1000000 and 0 < made.get("easy_n", 0) < 1000000 and
              0 < made.get("hard_n", 0) < 1000000 and
              all(1.0 <= phases.get(n, {}).get("time_s", 0) < 3.0 for n in ORDER if n.endswith("-write")) and
              phases.get("ior-hard-read", {}).get("bytes") == phases.get("ior-hard-write", {}).get("bytes", -1) > 0,
              f"--no-caps: IO500's defaults, every write ended by the 1 s stonewall, the reads of what was written "
              f"(sizes {sz}, made {made}; exit {r.returncode}: {r.stderr.strip()[-200:]})")
        for extra, cfg, what in ((["--no-caps", "--cap-all"], "[debug]\nstonewall-time = 1\n", "give one"),
                                 (["--no-caps"], "[debug]\nstonewall-time = 0\n", "end only by the stonewall")):
            with open(path, "w") as f:
                f.write(cfg)
            r = run([path, "--platform", PLATFORM, "--ranks", "2"] + extra, build)
            check(r.returncode == 2 and what in r.stderr and r.stdout == "",
                  f"{' '.join(extra)} with {cfg.strip()!r}: exit 2, '{what}' ({r.returncode}: {r.stderr.strip()})")
        # A section of another IO500 version's phases ([ior-rnd4K], IO500/io500's config-scc.ini) is said and its
        # options ignored, the other phases run (helper-132: "not an IO500 section", exit 2)
        # The rnd4K read with a shared ior-easy file: IO500 gives -C -Q 2 only with filePerProc (IOR refuses -z with -C
        # on a shared file; helper-143: every phase failed); switched off, it scores 0 and is [INVALID] as main.c marks
        # every phase but its dummies, and the run with it
        tiny = ("[debug]\nstonewall-time = 1\n[ior-easy]\ntransferSize = 1m\nblockSize = 4m\n[mdtest-easy]\nn = 50\n"
                "[mdtest-hard]\nn = 50\n[ior-hard]\nsegmentCount = 10\n")
        r, rep = run_config("rnd-shared", tiny.replace("blockSize = 4m\n", "blockSize = 4m\nfilePerProc = FALSE\n"))
        cmd = rep.get("pfsim", {}).get("runs", {}).get("ior-rnd4K-easy-read", {}).get("command", "")
        check(r.returncode == 0 and " -r -z -z " in cmd and "-C -Q 2" not in cmd and " -F " not in cmd,
              f"filePerProc FALSE: the rnd4K read of the one file, without -C -Q 2 ({r.returncode}: {cmd[-140:]} "
              f"{r.stderr.strip()[-200:]})")
        r, rep = run_config("rnd-off", tiny + "[ior-rnd4K-easy-read]\nrun = FALSE\n")
        check(r.returncode == 0 and re.search(r"^\[      \]  ior-rnd4K-easy-read +0\.000000 GiB/s : time 0\.000 seconds "
                                              r"\[INVALID\]$", r.stdout, re.M) is not None and
              re.search(r"^\[SCORE \] .*\[INVALID\]$", r.stdout, re.M) is not None,
              f"[ior-rnd4K-easy-read] run = FALSE: score 0, [INVALID], the run INVALID ({r.stdout[-300:]!r})")
        r, rep = run_config("rnd", "[ior-easy]\ntransferSize = 1m\nblockSize = 4m\n[ior-rnd4K]\nblockSize = 1073741824\n"
                                   "randomPrefill = 0\n[ior-rnd1MB-read]\nrun = TRUE\n[mdtest-easy]\nn = 50\n"
                                   "[mdtest-hard]\nn = 50\n[ior-hard]\nsegmentCount = 10\n")
        check(r.returncode == 0 and "[ior-rnd4K]: a phase of another IO500 version" in r.stderr and
              "[ior-rnd4k] randomprefill = 0: not modelled, ignored" in r.stderr and len(rep.get("phases", {})) == 13,
              f"[ior-rnd4K] of another IO500 version: said, its options ignored, the 13 phases run "
              f"({r.returncode}: {r.stderr.strip()[-200:]})")
        r, rep = run_config("up", "[IOR-EASY]\nTRANSFERSIZE = 1m  # one MiB\nBlockSize = 4m\n[MDTEST-EASY]\nN = 300\n"
                                  "[mdtest-hard]\nn = 100\n[ior-hard]\nsegmentCount = 10\nrun = FALSE\n")
        check(rep.get("sizes", {}).get("easy_block") == 4 << 20 and rep.get("sizes", {}).get("easy_n") == 300,
              f"upper-case names and an inline comment read as IO500 reads them (sizes {rep.get('sizes')})")
        # A phase that does not run ([ior-hard] run = FALSE) is printed as IO500 prints it (its run() returns a score
        # of 0 without running: phase_ior_hard_write.c): score 0, [INVALID], left out of the group's mean, and the
        # run INVALID (before: "not run", the run valid; helper-132)
        zero = re.search(r"^\[RESULT\] +ior-hard-write +0\.000000 GiB/s : time 0\.000 seconds \[INVALID\]$", r.stdout,
                         re.M)
        check(rep.get("skipped") == ["ior-hard"] and rep.get("phases", {}).get("ior-hard-write", {}).get("score") == 0
              and zero is not None and re.search(r"^\[SCORE \] .* \[INVALID\]$", r.stdout, re.M) is not None and
              abs(rep.get("score", {}).get("bandwidth_GiBps", 0) /
                  math.sqrt(rep["phases"]["ior-easy-write"]["score"] * rep["phases"]["ior-easy-read"]["score"]) - 1)
              < 1e-9, "[ior-hard] run = FALSE: its phases score 0 [INVALID] as IO500's, the bandwidth the mean of the "
                      "other two, the run INVALID")
        # A phase's own run = FALSE (and IO500's 0 for FALSE): that phase alone.
        r, rep = run_config("off", "[ior-easy]\ntransferSize = 1m\nblockSize = 4m\n[ior-easy-read]\nrun = FALSE\n"
                                   "[mdtest-easy]\nn = 100\n[mdtest-hard]\nn = 100\n[ior-hard]\nsegmentCount = 10\nrun = 0\n")
        check(rep.get("phases", {}).get("ior-easy-read", {}).get("score") == 0 and
              rep.get("phases", {}).get("ior-easy-write", {}).get("score", 0) > 0 and
              rep.get("phases", {}).get("ior-hard-write", {}).get("score") == 0 and
              "ior-easy-read" not in [k.split("-", 2)[-1] for k in rep.get("pfsim", {}).get("runs", {})] and
              re.search(r"ior-easy-read +0\.000000 GiB/s : time 0\.000 seconds \[INVALID\]", r.stdout) is not None,
              f"[ior-easy-read] run = FALSE and [ior-hard] run = 0: those phases not run ({r.stderr.strip()[-160:]})")
        # Every phase off: the score is 0, which IO500 marks [INVALID] (helper-121: TOTAL 0.000000 unmarked); the JSON
        # says why and records no platform (pfsim never ran).
        r, rep = run_config("none", "".join(f"[{g}]\nrun = FALSE\n" for g in ("ior-easy", "ior-hard", "mdtest-easy",
                                                                             "mdtest-hard", "find")))
        check(r.returncode == 0 and re.search(r"^\[SCORE \] .* TOTAL 0\.000000 \[INVALID\]$", r.stdout, re.M) and
              rep.get("score", {}).get("valid") is False and
              "Resulting score shouldn't be 0.0" in " ".join(rep.get("score", {}).get("invalid_because", [])) and
              rep.get("pfsim", {}).get("platform", 1) is None,
              f"every phase run = FALSE: TOTAL 0 marked [INVALID], the reason in the JSON ({r.stdout.strip()[-90:]}; "
              f"{r.stderr.strip()[-200:]})")
        # An option given twice in a section: IO500 keeps the last value (src/ini-parse.c assigns each line in
        # turn), and so does this script, with a warning naming both lines (helper-121: used silently).
        r, rep = run_config("dup", "[ior-easy]\ntransferSize = 1m\nblockSize = 4m\n[mdtest-easy]\nn = 100\n"
                                   "[mdtest-hard]\nn = 100\n[ior-hard]\nsegmentCount = 10\n[IOR-easy]\nTRANSFERSIZE = 2m\n")
        check(rep.get("sizes", {}).get("easy_xfer") == 2 << 20 and
              "dup.ini:11: [ior-easy] TRANSFERSIZE = 2m: given again (line 2: transferSize = 1m); the last value is "
              "used, as IO500 uses it" in r.stderr,
              f"transferSize given twice (lines 2 and 11): the last used, a warning naming both lines "
              f"({r.stderr.strip()[:300]})")
        # --seed takes what pfsim's --seed takes, 0 included (helper-121: refused while pfsim accepts it)
        seeds = {}
        for seed in ("0", "-1", "9223372036854775808"):
            seeds[seed] = run([os.path.join(tmp, "off.ini"), "--platform", PLATFORM, "--ranks", "2", "--seed", seed,
                               "--json", os.path.join(tmp, "seed.json")], build)
        rep0 = json.load(open(os.path.join(tmp, "seed.json"))) if seeds["0"].returncode == 0 else {}
        check(rep0.get("config", {}).get("seed") == 0 and "--seed 0 " in
              rep0.get("pfsim", {}).get("runs", {}).get("mdtest-easy", {}).get("command", ""),
              f"--seed 0 runs, as pfsim --seed 0 does ({seeds['0'].stderr.strip()[-160:]})")
        check(all(seeds[x].returncode == 2 and "--seed: expected an integer in [0, 9223372036854775807], got "
                  f"'{x}'" in seeds[x].stderr for x in ("-1", "9223372036854775808")),
              f"--seed -1 and 2^63: exit 2, pfsim's range ({seeds['-1'].stderr.strip()})")
        for text, what in (("[ior-easyy]\nblockSize = 4m\n", "not an IO500 section"),
                           ("[ior-easy]\ntransferSize = 0\n", "expected a positive size"),
                           ("[mdtest-easy]\nn = 2k\n", "[mdtest-easy] n: expected a whole number"),
                           # helper-75: a misspelt option, IO500's booleans, a stonewall time that is not an integer
                           ("[ior-easy]\nblockSze = 4m\n", "[ior-easy] blocksze = 4m: unknown option"),
                           ("[ior-hard]\nrun = maybe\n", "[ior-hard] run: expected TRUE or FALSE"),
                           ("[debug]\nstonewall-time = 2.5\n", "[debug] stonewall-time: expected an integer"),
                           # helper-109: IO500's own grammar, with lines (configparser took "n: 50" and glued an
                           # indented line to the value above, without a line number)
                           ("[mdtest-easy]\nn: 50\n", "b.ini:2: expected '[section]', 'option = value' or a comment"),
                           ("n = 50\n", "b.ini:1: n = 50: an option outside a section"),
                           ("[ior-easy]\n\nblockSze = 4m\n", "b.ini:3: [ior-easy] blocksze = 4m: unknown option"),
                           # helper-116: the sizes' errors name the line too
                           ("[ior-easy]\nblockSize = 4x\n", "b.ini:2: [ior-easy] blockSize: expected a size"),
                           ("[ior-easy]\ntransferSize = 2m\nblockSize = 3m\n",
                            "b.ini:3: [ior-easy] blockSize 3145728 is not a multiple"),
                           # helper-121: the checks made after reading name the line too
                           ("[debug]\n\nstonewall-time = -5\n", "b.ini:3: [debug] stonewall-time: expected"),
                           ("[find]\nnproc = 0\n", "b.ini:2: [find] nproc: expected at least 1")):
            bad_ini = os.path.join(tmp, "b.ini")
            with open(bad_ini, "w") as f:
                f.write(text)
            r = run([bad_ini, "--platform", PLATFORM, "--ranks", "2"], build)
            check(r.returncode == 2 and what in r.stderr and "Traceback" not in r.stderr,
                  f"{text.strip()!r}: exit 2, '{what}' ({r.returncode}: {r.stderr.strip()[-160:]})")
        with open(bad_ini, "wb") as f:
            f.write(b"\xff\xfe\x00garbage")
        r = run([bad_ini, "--platform", PLATFORM, "--ranks", "2"], build)
        check(r.returncode == 2 and "not a text file" in r.stderr, f"a binary config: exit 2 ({r.stderr.strip()})")
    # 7: IO500's validity rules on their own (phases of a real length cannot be simulated here in seconds).
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import io500  # noqa: E402
    # An option without a value keeps its default, as IO500 skips it (helper-109: run = and filePerProc = read as
    # FALSE); an indented option line is an option; a capped default block is a whole number of transfers.
    with tempfile.TemporaryDirectory() as tmp:
        ini = os.path.join(tmp, "e.ini")
        with open(ini, "w") as f:
            f.write("[ior-easy]\ntransferSize = 5m ; five\nrun =\nfilePerProc =\n   uniqueDir = FALSE\n[global]\napi = DFS\n")
        config, ignored = io500.read_config(ini)
        check(config == {"ior-easy": {"transfersize": "5m", "uniquedir": "FALSE"}, "global": {"api": "DFS"}} and
              io500.flag(config, "ior-easy", "run", "TRUE") and io500.flag(config, "ior-easy", "fileperproc", "TRUE"),
              f"empty options keep IO500's defaults, an indented option is read (got {config})")
        check("[global] api = DFS" in ignored, f"an interface other than POSIX is said not modelled ({ignored})")
        sizes, notes = io500.sizes_from(config, ini, {}, None, {"files": 100, "block": 256 << 20, "segments": 100}, False)
        check(sizes["easy_xfer"] == 5 << 20 and sizes["easy_block"] == 255 << 20 and any("rounded" in n for n in notes),
              f"no blockSize with transferSize 5m: the 256m cap rounded to 255m, a whole number of transfers "
              f"(got {sizes})")
        # A cap is never exceeded (helper-121: --cap-block 512k --cap-all capped a 4m block at 524288, then rounded it
        # up to a whole 1m transfer, 1048576): rounded down to whole transfers, refused when not one fits.
        config, _ = io500.read_config(ini)  # transferSize 5m (line 2)
        config["ior-easy"]["blocksize"] = "20m"
        sizes, notes = io500.sizes_from(config, ini, {}, None, {"files": 100, "block": 12 << 20, "segments": 100}, True)
        check(sizes["easy_block"] == 10 << 20 and any("rounded down" in n for n in notes),
              f"blockSize 20m capped at 12m (--cap-all) with transferSize 5m: 10m, two transfers (got {sizes}, {notes})")
        for cfg_text, args in (("[ior-easy]\ntransferSize = 1m\nblockSize = 4m\n", ["--cap-all"]),
                               ("[ior-easy]\ntransferSize = 1m\n", [])):
            with open(ini, "w") as f:
                f.write(cfg_text)
            r = run([ini, "--platform", PLATFORM, "--ranks", "2", "--cap-block", "512k"] + args, build)
            check(r.returncode == 2 and "--cap-block 512k: 524288 bytes is less than one transferSize (1048576, "
                  in r.stderr and "e.ini:2)" in r.stderr and r.stdout == "",
                  f"--cap-block 512k {' '.join(args)} with transferSize 1m: exit 2 before any run, the cap named "
                  f"({r.returncode}: {r.stderr.strip()})")
    sim = {"ior-easy-write": (1.0, 301.0), "ior-easy-read": (1.0, 2.0), "mdtest-easy-write": (5.0, 299.0)}
    inv, run_inv = io500.validity(sim, 300, 300)
    check(list(inv) == ["mdtest-easy-write"] and not run_inv,
          f"stonewall 300: a 301 s write valid, a 299 s write INVALID, a 2 s read valid (got {inv}, {run_inv})")
    inv, run_inv = io500.validity({"mdtest-easy-stat": (5.0, 9.0)}, 300, 300)
    check(not inv and run_inv == ["Resulting score shouldn't be 0.0 (no bandwidth phase ran)"],
          f"only a metadata phase: the bandwidth score and the total are 0, the run INVALID (got {inv}, {run_inv})")
    inv, run_inv = io500.validity({"ior-easy-write": (1.0, 40.0), "ior-hard-read": (0.0, 9.0)}, 30, 30)
    check(list(inv) == ["ior-hard-read"] and run_inv == ["stonewall-time 30s != 300s",
                                                         "Resulting score shouldn't be 0.0 (no metadata phase ran)"],
          f"scc (30 s minimum) with stonewall 30: a 40 s write valid, a score of 0 INVALID (left out of the bandwidth "
          f"mean, as IO500's calc_score), the run INVALID "
          f"(got {inv}, {run_inv})")
    check.finish("io500")


if __name__ == "__main__":
    main()
