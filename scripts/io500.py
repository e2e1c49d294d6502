#!/usr/bin/env python3
"""IO500's standard phases on a simulated platform, printed as IO500 prints them (result_summary.txt).

IO500 (the C version, io500.org) runs IOR and mdtest with fixed options and the sizes of its config.ini:
  ior-easy   ior -F -t transferSize -b blockSize -w / -r -C -e -k      (file per process)       GiB/s
  ior-hard   ior -t 47008 -b 47008 -s segmentCount -w / -r -C -e -k   (one shared file)        GiB/s
  mdtest-easy   mdtest -n n -u -L -F -P -N 1 -C / -T / -r             (empty files, a directory per task) kIOPS
  mdtest-hard   mdtest -n n -t -w 3901 -e 3901 -F -P -N 1 -C / -T / -E / -r  (one shared directory)  kIOPS
  find       pfind over both trees                                                             kIOPS
pfsim runs each group as one simulation (`pfsim ior -w -r`, `pfsim mdtest`): its phases in IOR's and mdtest's order,
each rate from its own phase, as IO500 takes it from its own run of the tool. What is not modelled, and said:
  - find (pfind's readdir and stat walk): printed as "[      ] find ... not modelled"; the IOPS score is the
    geometric mean of the 7 modelled metadata phases (IO500's has find as an 8th), and with --from the measured
    score is recomputed over the same 7 for the comparison;
  - stonewalling (stonewall-time): every phase runs its whole count; a write phase that takes longer than
    stonewall-time is noted (IO500 would have stopped issuing there; the rate is a steady-state rate either way);
  - the phases in between (timestamp, the extended mode's md-workbench and rnd4K phases).
The sizes come from the config's [ior-easy] transferSize/blockSize, [ior-hard] segmentCount, [mdtest-easy] n and
[mdtest-hard] n. IO500's defaults (a 9920000m block, 1,000,000 files per task) rely on stonewalling to end and would
be days of simulation: a size the config does not give is IO500's default capped at --cap-* (said on stderr).

usage: io500.py --platform FILE --ranks N [--ranks-per-node K] [CONFIG.ini] [--from RESULT_DIR] [--out-dir DIR]
                [--json FILE] [--set PATH=VALUE ...] [--build DIR] [--jobs N]
  --from RESULT_DIR   an IO500 result directory (result.txt, result_summary.txt, config*.ini): runs its task count
                      (result.txt [run] procs, unless --ranks) with the sizes of its phases' command lines
                      (result.txt exe =), and compares each phase's simulated score with the measured one
  --out-dir DIR       writes result_summary.txt there (IO500's name; temporary name, renamed when complete)
Exit status 0; 2 on bad input (one message naming the file and line or option); pfsim's status when a run fails.
"""
import argparse
import configparser
import json
import math
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import (Parser, check_output, fail, is_executable_file, positive_int, run_pfsim,  # noqa: E402
                        stop_on_signals, stopped_signal, write_atomic)

PROG = "io500"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The standard mode's phases in IO500's order: (name, unit, scored group or None, source (tool run, phase/access)).
PHASES = [
    ("ior-easy-write", "GiB/s", "bw", ("ior-easy", "write")),
    ("mdtest-easy-write", "kIOPS", "md", ("mdtest-easy", "File creation")),
    ("ior-hard-write", "GiB/s", "bw", ("ior-hard", "write")),
    ("mdtest-hard-write", "kIOPS", "md", ("mdtest-hard", "File creation")),
    ("find", "kIOPS", "md", None),
    ("ior-easy-read", "GiB/s", "bw", ("ior-easy", "read")),
    ("mdtest-easy-stat", "kIOPS", "md", ("mdtest-easy", "File stat")),
    ("ior-hard-read", "GiB/s", "bw", ("ior-hard", "read")),
    ("mdtest-hard-stat", "kIOPS", "md", ("mdtest-hard", "File stat")),
    ("mdtest-easy-delete", "kIOPS", "md", ("mdtest-easy", "File removal")),
    ("mdtest-hard-read", "kIOPS", "md", ("mdtest-hard", "File read")),
    ("mdtest-hard-delete", "kIOPS", "md", ("mdtest-hard", "File removal")),
]
# IO500's defaults (src/phase_*.c of the C version) and the caps applied when a config does not give a size.
DEFAULTS = {"transferSize": "1m", "blockSize": "9920000m", "segmentCount": 10000000, "easy_n": 1000000,
            "hard_n": 1000000}
HARD_XFER = 47008
MDTEST_HARD_BYTES = 3901


def parse_size(text, what):
    """IOR's sizes: a whole number with an optional k/m/g/t suffix (powers of 1024)."""
    m = re.fullmatch(r"\s*(\d+)\s*([kKmMgGtT]?)\s*", str(text))
    if not m:
        fail(PROG, f"{what}: expected a size such as 1m or 47008, got '{text}'")
    return int(m.group(1)) * 1024 ** " kmgt".index(m.group(2).lower() or " ")


def read_config(path):
    """IO500's config.ini -> {section: {key: value}} (keys as written; sections lower-case)."""
    cp = configparser.ConfigParser(interpolation=None, strict=False)
    cp.optionxform = str
    try:
        with open(path) as f:
            cp.read_file(f)
    except OSError as e:
        fail(PROG, f"{path}: {e.strerror}")
    except configparser.Error as e:
        fail(PROG, f"{path}: not an IO500 config (INI): {str(e).splitlines()[0]}")
    return {s.lower(): {k: v.strip() for k, v in cp.items(s)} for s in cp.sections()}


def read_result_dir(d):
    """An IO500 result directory: procs, each phase's exe command line and score from result.txt, the summary's
    scores from result_summary.txt, and the config (config.ini)."""
    path = os.path.join(d, "result.txt")
    if not os.path.isdir(d):
        fail(PROG, f"--from {d}: not a directory (expected an IO500 result directory)")
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        fail(PROG, f"{path}: {e.strerror} (an IO500 result directory has result.txt)")
    sections, cur = {}, None
    for n, line in enumerate(lines, start=1):
        s = line.strip()
        if not s or s.startswith(";"):
            continue
        m = re.fullmatch(r"\[([^\]]+)\]", s)
        if m:
            cur = sections.setdefault(m.group(1).strip(), {"__line__": n})
            continue
        if cur is None or "=" not in s:
            fail(PROG, f"{path}:{n}: expected '[section]' or 'key = value', got '{s[:60]}'")
        k, v = s.split("=", 1)
        cur[k.strip()] = (v.strip(), n)
    run = sections.get("run")
    if not run or "procs" not in run:
        fail(PROG, f"{path}: no [run] section with procs = (the task count)")
    procs_text, n = run["procs"]
    if not procs_text.isdigit() or int(procs_text) < 1:
        fail(PROG, f"{path}:{n}: procs: expected a positive whole number, got '{procs_text}'")
    measured = {}
    for name, _, _, _ in PHASES:
        sec = sections.get(name)
        if sec and "score" in sec:
            v, n = sec["score"]
            try:
                x = float(v)
            except ValueError:
                x = float("nan")
            if not math.isfinite(x) or x < 0:
                fail(PROG, f"{path}:{n}: score: expected a non-negative number, got '{v}'")
            measured[name] = x
    exes = {name: sec["exe"] for name, sec in sections.items() if isinstance(sec, dict) and "exe" in sec}
    cfg_path = next((os.path.join(d, c) for c in ("config.ini", "config-orig.ini") if os.path.isfile(os.path.join(d, c))),
                    None)
    return {"procs": int(procs_text), "measured": measured, "exes": exes, "path": path,
            "config": read_config(cfg_path) if cfg_path else {}, "config_path": cfg_path}


def option_after(exe, flag, path, n, what):
    """The value after `flag` (as '-n 2000' or '-n=2000') in a command line from result.txt."""
    toks = exe.split()
    for i, t in enumerate(toks):
        if t == flag and i + 1 < len(toks):
            return toks[i + 1]
        if t.startswith(flag + "="):
            return t[len(flag) + 1:]
    fail(PROG, f"{path}:{n}: {what}: the command line has no {flag} (expected IO500's {what} options)")


def sizes_from(config, exes, result_path, caps):
    """The sizes of each tool run: from the result directory's command lines when given, else the config, else
    IO500's defaults capped (notes say which)."""
    notes = []
    sec = lambda s: config.get(s, {})
    def pick(section, key, default, cap, parse):
        v = sec(section).get(key, "")
        if v != "":
            return parse(v, f"[{section}] {key}")
        capped = min(parse(default, "default"), cap)
        notes.append(f"[{section}] {key} not given: IO500's default {default} capped at {capped} (stonewalling, "
                     "which ends IO500's phases, is not modelled)")
        return capped
    s = {
        "easy_xfer": pick("ior-easy", "transferSize", DEFAULTS["transferSize"], 1 << 60, parse_size),
        "easy_block": pick("ior-easy", "blockSize", DEFAULTS["blockSize"], caps["block"], parse_size),
        "hard_segments": pick("ior-hard", "segmentCount", DEFAULTS["segmentCount"], caps["segments"],
                              lambda v, w: parse_size(v, w)),
        "easy_n": pick("mdtest-easy", "n", DEFAULTS["easy_n"], caps["files"], lambda v, w: parse_size(v, w)),
        "hard_n": pick("mdtest-hard", "n", DEFAULTS["hard_n"], caps["files"], lambda v, w: parse_size(v, w)),
    }
    if exes:  # a result directory: its command lines are what ran
        for phase, key, flag, what in (("ior-easy-write", "easy_xfer", "-t", "ior-easy"),
                                       ("ior-easy-write", "easy_block", "-b", "ior-easy"),
                                       ("ior-hard-write", "hard_segments", "-s", "ior-hard"),
                                       ("mdtest-easy-write", "easy_n", "-n", "mdtest-easy"),
                                       ("mdtest-hard-write", "hard_n", "-n", "mdtest-hard")):
            if phase in exes:
                exe, n = exes[phase]
                s[key] = parse_size(option_after(exe, flag, result_path, n, what), f"{result_path}:{n}: {flag}")
    if s["easy_block"] % s["easy_xfer"]:
        fail(PROG, f"ior-easy: blockSize {s['easy_block']} is not a multiple of transferSize {s['easy_xfer']}")
    return s, notes


def run_tool(pfsim, common, kind, args, tmp):
    out = os.path.join(tmp, kind + ".json")
    cmd = [pfsim, "ior" if kind.startswith("ior") else "mdtest"] + common + args + ["--quiet", "--out", out]
    run_pfsim(PROG, cmd)
    with open(out) as f:
        return json.load(f)


def simulate(pfsim, common, s, jobs):
    runs = {
        "ior-easy": ["-F", "-t", str(s["easy_xfer"]), "-b", str(s["easy_block"]), "-w", "-r", "-e", "-C", "-k"],
        "ior-hard": ["-t", str(HARD_XFER), "-b", str(HARD_XFER), "-s", str(s["hard_segments"]), "-w", "-r", "-e",
                     "-C", "-k"],
        "mdtest-easy": ["-n", str(s["easy_n"]), "-u", "-F"],
        "mdtest-hard": ["-n", str(s["hard_n"]), "-F", "-w", str(MDTEST_HARD_BYTES), "-e", str(MDTEST_HARD_BYTES)],
    }
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        res = dict(zip(runs, ex.map(lambda k: run_tool(pfsim, common, k, runs[k], tmp), runs)))
    out = {}
    for name, unit, _, src in PHASES:
        if src is None:
            continue
        run, what = src
        r = res[run]
        if run.startswith("ior"):
            hit = [x for x in r.get("ior", []) if x.get("access") == what]
            if not hit:
                fail(PROG, f"pfsim ior wrote no {what} result for {run}")
            out[name] = (float(hit[0]["bwMiB"]) / 1024.0, float(hit[0]["totalTime"]))
        else:
            hit = [p for p in r["phases"] if p["name"] == what]
            if not hit:
                fail(PROG, f"pfsim mdtest wrote no '{what}' phase for {run}")
            out[name] = (float(hit[0]["rate_items_per_s"]) / 1000.0, float(hit[0]["time_s"]))
    return out


def geo(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values and all(v > 0 for v in values) else 0.0


def summary_text(sim, version):
    lines = [f"IO500 version pfsim-{version} (standard; simulated)"]
    for name, unit, _, src in PHASES:
        if src is None:
            lines.append(f"[      ] {name:>20s} {'':>15s} {'':5s}   not modelled (pfind's walk)")
            continue
        v, t = sim[name]
        lines.append(f"[RESULT] {name:>20s} {v:15.6f} {unit} : time {t:.3f} seconds")
    bw = geo([sim[n][0] for n, _, g, src in PHASES if g == "bw" and src])
    md = geo([sim[n][0] for n, _, g, src in PHASES if g == "md" and src])
    lines.append(f"[SCORE ] Bandwidth {bw:f} GiB/s : IOPS {md:f} kiops : TOTAL {math.sqrt(bw * md):f} "
                 "(IOPS over the 7 modelled metadata phases: find is not modelled)")
    return "\n".join(lines) + "\n", bw, md


def main():
    ap = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("config", nargs="?", help="IO500 config.ini (C version)")
    ap.add_argument("--platform", required=True, help="platform JSON")
    ap.add_argument("--ranks", type=positive_int, help="tasks (IO500's mpirun -np); with --from, its procs")
    ap.add_argument("--ranks-per-node", type=positive_int, help="tasks per client node (default: the platform's)")
    ap.add_argument("--from", dest="from_dir", help="an IO500 result directory to rerun and compare with")
    ap.add_argument("--out-dir", help="write result_summary.txt (and result.json) there")
    ap.add_argument("--json", help="write the phases, scores and comparison as JSON")
    ap.add_argument("--set", action="append", default=[], help="platform override PATH=VALUE (repeatable)")
    ap.add_argument("--seed", type=positive_int, default=1, help="random seed (default 1)")
    ap.add_argument("--jobs", type=positive_int, default=2, help="pfsim runs at once (default 2)")
    ap.add_argument("--cap-files", type=positive_int, default=2000,
                    help="mdtest files per task when the config gives none (default 2000)")
    ap.add_argument("--cap-block", default="256m", help="ior-easy block per task when the config gives none")
    ap.add_argument("--cap-segments", type=positive_int, default=2000,
                    help="ior-hard segments when the config gives none (default 2000)")
    ap.add_argument("--build", default=os.environ.get("PFSIM_BUILD") or os.path.join(ROOT, "build"),
                    help="directory holding pfsim (default $PFSIM_BUILD or build/)")
    a = ap.parse_args()
    pfsim = os.path.join(a.build, "pfsim")
    if not is_executable_file(pfsim):
        fail(PROG, f"--build {a.build}: no executable pfsim in it (build first: scripts/build)")
    if not os.path.isfile(a.platform):
        fail(PROG, f"--platform {a.platform}: no such file")
    caps = {"files": a.cap_files, "block": parse_size(a.cap_block, "--cap-block"), "segments": a.cap_segments}
    result = read_result_dir(a.from_dir) if a.from_dir else None
    if a.config and result:
        fail(PROG, "give a config.ini or --from RESULT_DIR, not both (the result directory holds its config)")
    config = read_config(a.config) if a.config else (result["config"] if result else {})
    ranks = a.ranks or (result["procs"] if result else None)
    if not ranks:
        fail(PROG, "--ranks: required (IO500's task count), unless --from gives it")
    inputs = [("the platform", a.platform)] + ([("the config", a.config)] if a.config else [])
    out_summary = os.path.join(a.out_dir, "result_summary.txt") if a.out_dir else None
    if a.out_dir and not os.path.isdir(a.out_dir):
        fail(PROG, f"--out-dir {a.out_dir}: not a directory")
    for opt, path in (("--out-dir", out_summary), ("--json", a.json)):
        if path:
            check_output(PROG, opt, path, inputs)
    sizes, notes = sizes_from(config, result["exes"] if result else {}, result["path"] if result else "", caps)
    for n in notes:
        print(f"{PROG}: note: {n}", file=sys.stderr)
    common = ["--platform", a.platform, "--ranks", str(ranks), "--seed", str(a.seed)]
    if a.ranks_per_node:
        common += ["--ranks-per-node", str(a.ranks_per_node)]
    for s in a.set:
        common += ["--set", s]
    sim = simulate(pfsim, common, sizes, a.jobs)
    stonewall = config.get("debug", {}).get("stonewall-time", "300")
    try:
        stonewall_s = float(stonewall)
    except ValueError:
        fail(PROG, f"[debug] stonewall-time: expected seconds, got '{stonewall}'")
    for name, unit, _, src in PHASES:
        if src and name.endswith("-write") and sim[name][1] > stonewall_s:
            print(f"{PROG}: note: {name} took {sim[name][1]:.1f} s simulated, more than stonewall-time "
                  f"{stonewall_s:g} s: IO500 would have stopped issuing there (the rate is for the whole count)",
                  file=sys.stderr)
    v = subprocess.run([pfsim, "version"], capture_output=True, text=True)
    version = v.stdout.split()[-1] if v.returncode == 0 and v.stdout.split() else "unknown"
    text, bw, md = summary_text(sim, version)
    sys.stdout.write(text)
    report = {"tasks": ranks, "sizes": sizes, "notes": notes, "platform": a.platform, "sets": a.set,
              "phases": {n: {"score": sim[n][0], "unit": u, "time_s": sim[n][1]} for n, u, _, src in PHASES if src},
              "score": {"bandwidth_GiBps": bw, "iops_kiops_7_phases": md, "total": math.sqrt(bw * md)}}
    if result:
        meas = result["measured"]
        rows = []
        print(f"\ncompared with {result['path']} ({result['procs']} tasks):")
        print(f"{'phase':<20} {'measured':>12} {'simulated':>12} {'error':>8}")
        for name, unit, _, src in PHASES:
            if src is None or name not in meas:
                continue
            v = sim[name][0]
            err = v / meas[name] - 1 if meas[name] > 0 else float("nan")
            rows.append({"phase": name, "unit": unit, "measured": meas[name], "simulated": v,
                         "rel_error": err if math.isfinite(err) else None})
            print(f"{name:<20} {meas[name]:>12.6f} {v:>12.6f} {100 * err:>+7.1f}%  {unit}")
        mbw = geo([meas[n] for n, _, g, src in PHASES if g == "bw" and src and n in meas])
        mmd = geo([meas[n] for n, _, g, src in PHASES if g == "md" and src and n in meas])
        print(f"{'bandwidth score':<20} {mbw:>12.6f} {bw:>12.6f}   GiB/s\n{'IOPS score (7)':<20} {mmd:>12.6f} "
              f"{md:>12.6f}   kIOPS (both over the phases simulated and measured, find excluded)")
        report["compared_with"] = {"result_dir": a.from_dir, "procs": result["procs"], "phases": rows,
                                   "measured_bandwidth_GiBps": mbw, "measured_iops_kiops_7_phases": mmd}
    if out_summary:
        write_atomic(out_summary, text)
    if a.json:
        write_atomic(a.json, json.dumps(report, indent=1, allow_nan=False) + "\n")
    return 0


if __name__ == "__main__":
    stop_on_signals()
    try:
        sys.exit(main())
    except KeyboardInterrupt as e:
        print(f"{PROG}: interrupted: nothing written", file=sys.stderr)
        sys.exit(128 + stopped_signal(e))
