#!/usr/bin/env python3
"""IO500's standard phases on a simulated platform, printed as IO500 prints them (result_summary.txt).

IO500 (the C version, io500.org) runs IOR and mdtest with fixed options and the sizes of its config.ini:
  ior-easy   ior -F -t transferSize -b blockSize -w / -r -C -e -k      (file per process)       GiB/s
             (-C: a rank reads back the data of the rank one node further, not its own node's page cache)
  ior-hard   ior -t 47008 -b 47008 -s segmentCount -w / -r -C -e -k   (one shared file)        GiB/s
  mdtest-easy   mdtest -n n -u -L -F -P -N 1 -C / -T / -r             (empty files, a directory per task) kIOPS
  mdtest-hard   mdtest -n n -t -w 3901 -e 3901 -F -P -N 1 -C / -T / -E / -r  (one shared directory)  kIOPS
  find       pfind -newer -size 3901c -name "*01*" over the data directory                      kIOPS
  ior-rnd4K-easy-read  ior -F -r -z -z -t 4096 -b 4096 -s 10000000 -D stonewall -C -Q 2 over ior-easy's files
             (last, unscored: "[      ]"; -C -Q 2 only with filePerProc; the files as ior-easy's write left them,
             pfsim ior --file-size)                                                             GiB/s
pfsim runs each IOR phase as its own simulation (`pfsim ior -w`, then `pfsim ior -r`) and each mdtest group as one
(`pfsim mdtest`: its phases in mdtest's order, each rate from its own phase), as IO500 takes them from its own runs of
the tools, and `pfsim find` last. find walks the tree the groups that ran leave: mdtest-easy's directory per task,
mdtest-hard's one directory (the files their creates made), ior-easy's files (one per task with filePerProc, else one)
and ior-hard's one file; its rate is pfind's, the files examined / time (a directory is read by one rank, so the one
mdtest-hard directory is read serially: docs/spartan-cephfs.md section 8).
Stonewalling is modelled as IO500 runs it. IOR: the write with -D stonewall-time, -O stoneWallingWearOut=1 and a status
file (a rank starts no transfer after stonewall-time; then every rank writes up to the most any rank wrote), the read
as its own run reading back that many (its score the data it moved / its time). mdtest: -W stonewall-time on the
create (a rank starts no file after it; then every rank makes as many as the most any rank made), the stat, read and
removal of the same run on that count, with IO500's -N 1 (the next node's files; mdtest's shift) and -Y; result.txt's
throughput-stonewall, rate-stonewall and IOR's 'Write phase needed ...' INVALID line as IO500 prints them.
What is not modelled, and said:
  - the phases in between (timestamp) and the extended mode's (md-workbench, the rnd4K and rnd1MB hard phases).
  - the page cache between runs: each pfsim run starts with empty caches. IO500's last phase, the unscored rnd4K read
    of ior-easy's files (IOR -z -z, 4 KiB blocks at random places, -C -Q 2: the tasks' data two nodes on), is run
    over the files as ior-easy's write left them (pfsim ior --file-size); on 1 or 2 nodes -Q 2 comes back to the
    task's own node, whose page cache still held ior-easy's pages in IO500's run (standard-results, 1 node: 4.85
    GiB/s), where pfsim reads them from the data servers.
  - a write phase switched off alone ([mdtest-easy-write] run = FALSE) still makes the files its group's other phases
    work on (pfsim runs the group as one mdtest), which find then leaves out; IO500 would work on files left from an
    earlier run.
The sizes come from the config's [ior-easy] transferSize/blockSize, [ior-hard] segmentCount, [mdtest-easy] n and
[mdtest-hard] n. IO500's defaults (a 9920000m block, 1,000,000 files per task) rely on stonewalling to end and would
take stonewall-time seconds of simulated writing per write phase (and the reads of what they wrote): a size the config
does not give is IO500's default capped at --cap-* (said on stderr); --no-caps runs IO500's defaults, which the
stonewall ends (a 5 s stonewall at 16 tasks: about 10 s of wall time; at 300 s, minutes to hours by the platform's
rates and the task count). A cap is
never exceeded: a capped block is rounded down to whole transfers, and a --cap-block below one transferSize is refused
(exit 2; the transfer is IO500's access pattern, not shrunk).

The config is read as IO500 reads it (its grammar, errors naming the line): section and option names in any case,
'#' and ';' comments, an option without a value left at its default, an option given twice at its last value (a
warning names both lines), an unknown section or an option its section does
not declare an error (IO500's option tables), booleans TRUE/FALSE/1/0 and integers checked as IO500 checks them. Of its options pfsim uses the sizes above, [ior-easy] filePerProc, each
group's run and each phase's own run (a phase left out is printed as IO500 prints it: score 0, [INVALID]); any other option given a value is
said on stderr (not modelled). Sizes must be whole numbers (IOR's k/m/g suffixes for bytes).
A size the config gives beyond --cap-* is run as given (a warning says so: the stonewall ends its write) unless
--cap-all; --no-caps runs IO500's defaults uncapped, the stonewall ending every write phase as in IO500.

usage: io500.py --platform FILE --ranks N [--ranks-per-node K] [CONFIG.ini] [--from RESULT_DIR] [--out-dir DIR]
                [--json FILE] [--set PATH=VALUE ...] [--seed S] [--build DIR] [--jobs N] [--cap-all | --no-caps]
  --seed S            pfsim's --seed, passed to every run: what pfsim takes, an integer from 0 to 2^63 - 1 (0 is a
                      seed like any other; default 1)
  --from RESULT_DIR   an IO500 result directory (result.txt, config.ini or config*.ini): runs its task count
                      (result.txt [run] procs) with the sizes of its phases' command lines (result.txt exe =), and
                      compares each phase's simulated score with the measured one (with --ranks N other than procs:
                      the two side by side, no error column)
  --out-dir DIR       writes IO500's result_summary.txt, result.txt (its layout: [run] procs, each phase's exe
                      command line with the sizes run, its ERROR INVALID lines, score, t_delta; --from reads it back),
                      config.ini (the config run) and each phase's <phase>.txt and <phase>.csv (below) there
                      (temporary names, all renamed once every one is complete; the directory created if missing, as
                      IO500 creates its resultdir); never the --from directory's files, nor any input
  --json FILE         the phases, scores and comparison, and the effective configuration: "config" (seed, ranks,
                      ranks per node, --set, caps, the config as read with IO500's defaults of the options pfsim uses
                      filled in and named; [find] nproc null: every task) and "pfsim" (version, build, the effective
                      platform as its runs' results report it, each run's command line and what its platform changes);
                      the same inputs write the same bytes
The phases' files (--out-dir), by IO500's names (ior-easy-write.txt, mdtest-hard-stat.csv, ...), for the phases that
ran: <phase>.txt the tool's text, <phase>.csv its per-rank CSV (the headers of IO500's; a row per task, mdtest's after
its "all" row). What differs from IO500's (standard-results):
  - IOR phases: each is its own pfsim ior run (-O saveRankPerformanceDetailsCSV added: no number changes); the text
    is pfsim ior's up to its Results lines, as IO500's IOR (run as a library) prints no 'Summary of all tests' nor
    'Finished'. Its header is pfsim's (IOR-pfsim, Machine pfsim, the clock from 1970-01-01, no FS line), its test
    file pfsim's testFile (no -o), its command line the run's with the status and CSV files by their names alone.
  - mdtest phases: a group is one pfsim mdtest run (with -P and --saveRankPerformanceDetails added), so each of its
    phases' files is cut from that run: the text with the rows of the phase (and the tree's creation with the create,
    its removal with the removal, as IO500's -C and -r runs print them), every other row 0.000 as mdtest prints a
    phase it did not run; the stonewall line in the create's alone; started and finished at the phase's simulated
    start and end within the run (IO500's runs each start anew, after mdtest's 1 s sleep); the command line the
    group's run, with the options of the phase's result.txt exe line (-L or -t, -x, -a POSIX: they change nothing
    here) and its -Y and -W, which IO500 gives the create alone, the phase's own flags added (-C, -T, -E -X, -r) and
    its CSV's name (no -G, -d, --dataPacketType, as in result.txt: not modelled); its header pfsim mdtest's
    (mdtest-pfsim, no Path nor FS line). The CSV is the run's per-rank CSV with the phase's columns alone (the "all"
    row's items the count the create made, as IO500's runs read it from the stonewall status file).
  - find: no find.csv (nor find.txt, which IO500 does not write either): pfind's per-rank rows count its work
    stealing (messages, items stolen, time), which pfsim's find, a static schedule of the directories and stats
    (docs/spartan-cephfs.md section 8), does not simulate. Nor IO500's empty timestampfile and config-orig.ini.
  A phase that did not run has no files; files of IO500's names that this run did not write are left in DIR as they
  were (not removed: find.csv may be another tool's), and said on stderr.
[INVALID] is marked as IO500 marks it: a write phase that ran less than stonewall-time or than the minimum write
runtime (300 s, 30 s with [global] scc = TRUE), a score of 0, and on the score line also stonewall-time != 300 and
a total score of 0 (every bandwidth or every metadata phase off, or one of them scored 0).
A write whose count ends before the stonewall (sizes too small for stonewall-time) is [INVALID], as in IO500. A
phase's time is IO500's: the IOR run's, or the whole mdtest run's (its 1 s sleep before the test, the tree's creation
with the create and its removal with the removal, and the phase), the score the tool's rate of the phase.
The IOR phases and mdtest-hard-read rest on the platform's data servers; platforms/spartan-cephfs-fitted.json (and
-ssd) fit Spartan's measurements, the data side to five IOR points per pool, and scripts/validate_spartan.py compares
every phase with them (docs/spartan-cephfs.md sections 4, 7 and 8); io500.py compares with --from's result directory.
pfsim's warnings are passed to stderr once each, naming the runs that printed them after "warning: " (the phase, or an
mdtest group's run: "pfsim: warning: ior-easy-read: clients.load_delay read: ..."); one every run printed (the
platform's) without names.
Exit status 0; 2 on bad input (one message naming the file and line or option); pfsim's status when a run fails.
"""
import argparse
import atexit
import json
import math
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import (Parser, check_output, fail, is_executable_file, pfsim_seed, positive_int,  # noqa: E402
                        run_pfsim, stop_on_signals, stopped_signal, write_atomic, write_atomic_all)

PROG = "io500"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The standard mode's phases in IO500's order: (name, unit, scored group or None, source (tool run, phase/access)).
PHASES = [
    ("ior-easy-write", "GiB/s", "bw", ("ior-easy", "write")),
    ("mdtest-easy-write", "kIOPS", "md", ("mdtest-easy", "File creation")),
    ("ior-hard-write", "GiB/s", "bw", ("ior-hard", "write")),
    ("mdtest-hard-write", "kIOPS", "md", ("mdtest-hard", "File creation")),
    ("find", "kIOPS", "md", ("find", "find")),
    ("ior-easy-read", "GiB/s", "bw", ("ior-easy", "read")),
    ("mdtest-easy-stat", "kIOPS", "md", ("mdtest-easy", "File stat")),
    ("ior-hard-read", "GiB/s", "bw", ("ior-hard", "read")),
    ("mdtest-hard-stat", "kIOPS", "md", ("mdtest-hard", "File stat")),
    ("mdtest-easy-delete", "kIOPS", "md", ("mdtest-easy", "File removal")),
    ("mdtest-hard-read", "kIOPS", "md", ("mdtest-hard", "File read")),
    ("mdtest-hard-delete", "kIOPS", "md", ("mdtest-hard", "File removal")),
    # unscored ("[      ]" in the summary), last: 4 KiB reads at random places of ior-easy's files, stonewalled
    ("ior-rnd4K-easy-read", "GiB/s", None, ("ior-easy", "rnd4K")),
]
# IO500's rnd4K read of ior-easy's files (phase_ior_rnd4K_easy_read.c, as its command line in standard-results shows):
# -z -z reads of one 4 KiB block each, -s 10000000 of them at most, -D stonewall-time, the data of the tasks two nodes
# on (-C -Q 2). IOR draws the blocks over the size it stats (fileSizeForRead): pfsim ior's --file-size, the size
# ior-easy's write left.
RND4K_XFER = 4096
RND4K_SEGMENTS = 10000000
# IO500's defaults (src/phase_*.c of the C version) and the caps applied when a config does not give a size.
DEFAULTS = {"transferSize": "2m", "blockSize": "9920000m", "segmentCount": 10000000, "easy_n": 1000000,
            "hard_n": 1000000}
HARD_XFER = 47008
# mdtest's sleep before its test (mdtest 4.1, mdtest_run), and the phases of IO500's mdtest run for each phase it scores
MDTEST_START_S = 1.0
MDTEST_RUN_PHASES = {"File creation": ("Tree creation", "File creation"), "File stat": ("File stat",),
                     "File read": ("File read",), "File removal": ("File removal", "Tree removal")}
MDTEST_HARD_BYTES = 3901


def parse_size(text, what):
    """IOR's sizes: a whole number with an optional k/m/g/t suffix (powers of 1024)."""
    m = re.fullmatch(r"\s*(\d+)\s*([kKmMgGtT]?)\s*", str(text))
    if not m:
        fail(PROG, f"{what}: expected a size such as 1m or 47008, got '{text}'")
    return int(m.group(1)) * 1024 ** " kmgt".index(m.group(2).lower() or " ")


# The sections of IO500's C version (src/main.c, src/phase_*.c): any other is an error there, and here.
# Sections of other IO500 versions' phases (the 2020-2021 standard mode's random IOR phases, IO500/io500's
# config-scc.ini): accepted and said not modelled, so that such a config runs its other phases.
OTHER_VERSION_SECTIONS = {"ior-rnd4k", "ior-rnd4k-write", "ior-rnd4k-read", "ior-rnd1mb", "ior-rnd1mb-write",
                          "ior-rnd1mb-read"}
KNOWN_SECTIONS = {"global", "debug", "ior-easy", "ior-easy-write", "ior-easy-read", "ior-rnd4k-easy-read", "mdtest-easy",
                  "mdtest-easy-write", "mdtest-easy-stat", "mdtest-easy-delete", "mdworkbench", "mdworkbench-create",
                  "mdworkbench-bench", "mdworkbench-delete", "timestamp", "find", "find-easy", "find-hard", "ior-hard",
                  "ior-hard-write", "ior-hard-read", "ior-rnd1mb-hard-write", "ior-rnd1mb-hard-read",
                  "ior-rnd4k-hard-write", "ior-rnd4k-hard-read", "mdtest-hard", "mdtest-hard-write",
                  "mdtest-hard-stat", "mdtest-hard-read", "mdtest-hard-delete"}
# The options of each section and their INI types, as IO500's C version declares them (src/phase_*.c option tables,
# IO500/io500; the union over its versions: the concurrent line with ior-rnd4k/1mb and the one with
# ior-rnd4k-easy-read). IO500 stops on an option its section does not declare (src/ini-parse.c: "unknown option"),
# and so does this script: a misspelt key would otherwise change the run unseen.
_S, _B, _U, _I, _F = "string", "bool", "uint", "int", "float"
_SUB = {"api": _S, "run": _B}
_FIND = {"external-script": _S, "external-mpi-args": _S, "external-extra-args": _S, "nproc": _U, "run": _B,
         "pfind-queue-length": _I, "pfind-steal-next": _B, "pfind-parallelize-single-dir-access-using-hashing": _B}
_RND = {"api": _S, "blocksize": _U, "run": _B, "verbosity": _I, "randomprefill": _I, "segmentcount": _I}
OPTIONS = {
    "global": {"datadir": _S, "timestamp-datadir": _B, "resultdir": _S, "timestamp-resultdir": _B, "api": _S,
               "drop-caches": _B, "drop-caches-cmd": _S, "allocatebufferdevice": _B, "gpudirect": _B, "verbosity": _U,
               "scc": _B, "datapackettype": _S, "io-buffers-on-gpu": _B},
    "debug": {"stonewall-time": _I, "pause-dir": _S},
    "ior-easy": {"api": _S, "transfersize": _S, "blocksize": _S, "fileperproc": _B, "uniquedir": _B, "run": _B,
                 "verbosity": _I},
    "ior-hard": {"api": _S, "segmentcount": _I, "collective": _B, "run": _B, "verbosity": _I},
    "ior-hard-write": {"api": _S, "collective": _B, "run": _B}, "ior-hard-read": {"api": _S, "collective": _B, "run": _B},
    "ior-rnd4k": _RND, "ior-rnd1mb": _RND,
    "mdtest-easy": {"api": _S, "n": _U, "run": _B},
    "mdtest-hard": {"api": _S, "n": _U, "files-per-dir": _U, "run": _B},
    "mdworkbench": {"api": _S, "waitingtime": _F, "precreateperset": _U, "filesperproc": _U, "run": _B, "verbosity": _I},
    "mdworkbench-create": {"run": _B}, "mdworkbench-bench": {"run": _B}, "mdworkbench-delete": {"run": _B},
    "timestamp": {}, "find": _FIND, "find-easy": _FIND, "find-hard": _FIND,
    "concurrent": {"run": _B, "ratio-write": _F, "ratio-read": _F},
}
_PATTERNS = {_U: r"[0-9]+", _I: r"-?[0-9]+", _F: r"[0-9e.+-]+"}


def check_options(config, path, lines):
    """Every option is one its section declares, and its value of the declared type (IO500 refuses the rest);
    `lines` gives each (section, option)'s line in `path`."""
    for sec, opts in config.items():
        if sec in OTHER_VERSION_SECTIONS:
            continue
        known = OPTIONS.get(sec, _SUB)  # the phases' own sections (ior-easy-read, ...) take api and run
        for k, v in opts.items():
            at = f"{path}:{lines[(sec, k)]}"
            if k not in known:
                fail(PROG, f"{at}: [{sec}] {k} = {v}: unknown option (IO500 stops on it too; [{sec}] takes "
                           f"{', '.join(sorted(known)) or 'no option'})")
            kind = known[k]
            if kind == _B and v.lower() not in ("true", "false", "1", "0"):
                fail(PROG, f"{at}: [{sec}] {k}: expected TRUE or FALSE (IO500's boolean), got '{v}'")
            if kind in _PATTERNS and not re.fullmatch(_PATTERNS[kind], v):
                what = {"uint": "a whole number", "int": "an integer", "float": "a number"}[kind]
                fail(PROG, f"{at}: [{sec}] {k}: expected {what}, as IO500 reads it, got '{v}'")


# Options pfsim reads (section, option), lower-case; every other option given a value is reported as not modelled.
USED = {("ior-easy", "transfersize"), ("ior-easy", "blocksize"), ("ior-easy", "fileperproc"), ("ior-easy", "run"),
        ("ior-easy", "uniquedir"),
        ("ior-hard", "segmentcount"), ("ior-hard", "run"), ("mdtest-easy", "n"), ("mdtest-easy", "run"),
        ("mdtest-hard", "n"), ("mdtest-hard", "run"), ("debug", "stonewall-time"), ("global", "datadir"),
        ("global", "resultdir"), ("global", "scc"), ("find", "run"),
        ("find", "nproc")} | {(name, "run") for name in (
            "ior-easy-write", "ior-easy-read", "mdtest-easy-write", "mdtest-easy-stat", "mdtest-easy-delete",
            "ior-hard-write", "ior-hard-read", "mdtest-hard-write", "mdtest-hard-stat", "mdtest-hard-read",
            "mdtest-hard-delete", "ior-rnd4k-easy-read")}


# IO500's defaults of the options pfsim uses (src/main.c, phase_*.c option tables), for the JSON's effective config;
# [find] nproc has none (every task runs pfind).
IO500_DEFAULTS = {("ior-easy", "transfersize"): DEFAULTS["transferSize"], ("ior-easy", "blocksize"): DEFAULTS["blockSize"],
                  ("ior-easy", "fileperproc"): "TRUE", ("ior-hard", "segmentcount"): str(DEFAULTS["segmentCount"]),
                  ("mdtest-easy", "n"): str(DEFAULTS["easy_n"]), ("mdtest-hard", "n"): str(DEFAULTS["hard_n"]),
                  ("debug", "stonewall-time"): "300", ("global", "datadir"): "./datafiles",
                  ("global", "resultdir"): "./results", ("global", "scc"): "FALSE", ("find", "nproc"): None}
IO500_DEFAULTS.update({(sec, opt): "TRUE" for sec, opt in sorted(USED) if opt == "run"})


def effective_config(config):
    """The config as read with IO500's defaults of the options pfsim uses filled in: ({section: {option: value}},
    sorted; ["[section] option" filled from the defaults])."""
    out = {sec: dict(opts) for sec, opts in config.items()}
    filled = []
    for (sec, opt), v in sorted(IO500_DEFAULTS.items()):
        if opt not in out.get(sec, {}):
            out.setdefault(sec, {})[opt] = v
            filled.append(f"[{sec}] {opt}")
    return {sec: dict(sorted(out[sec].items())) for sec in sorted(out)}, filled


def json_diff(a, b, prefix=""):
    """{dotted path: b's value} where b differs from a (a field only in a: None)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = {}
        for k in sorted(set(a) | set(b)):
            out.update(json_diff(a.get(k), b.get(k), f"{prefix}{k}."))
        return out
    return {} if a == b else {prefix[:-1]: b}


def pfsim_record(runs, pfsim_bin):
    """pfsim as its runs' results JSON report it: version, build, the effective platform (of the first run that adds
    no --set of its own), and each run's command line, ranks, nodes, ranks per node and how its platform differs
    (mdtest-hard's clients.max_cached_mb=0). Without a run, the version from `pfsim version` and no platform."""
    if not runs:
        v = subprocess.run([pfsim_bin, "version"], capture_output=True, text=True)
        version = v.stdout.split()[-1] if v.returncode == 0 and v.stdout.split() else "unknown"
        return {"version": version, "build": None, "platform": None, "runs": {}}
    ref = next((r for _, args, r in runs.values() if "--set" not in args), next(iter(runs.values()))[2])
    return {"version": ref.get("pfsim_version"), "build": ref.get("build"), "platform": ref.get("platform"),
            "runs": {g: {"command": cmd, "ranks": r["run"]["ranks"], "nodes": r["run"]["nodes"],
                         "ranks_per_node": r["run"]["ranks_per_node"],
                         "platform_differs": json_diff(ref.get("platform"), r.get("platform"))}
                     for g, (cmd, _, r) in runs.items()}}


def flag(config, section, option, default):
    """An IO500 INI_BOOL, TRUE or FALSE in any case, or 1 / 0 (read_config has refused any other value)."""
    return config.get(section, {}).get(option, default).strip().lower() in ("true", "1")


def phase_runs(config):
    """The phases a [phase] run = FALSE (e.g. [ior-easy-read]) or its group's [group] run = FALSE leaves out."""
    return {name for name, _, _, src in PHASES
            if (src and not flag(config, src[0], "run", "TRUE")) or not flag(config, name.lower(), "run", "TRUE")}


def as_float(text):
    """A number from a result or config file, or nan when it is none (the caller names the file and line)."""
    try:
        return float(text)
    except ValueError:
        return float("nan")


def read_text(path, what):
    """A text file's content; exit 2 naming it when it cannot be read or is not text."""
    if os.path.isdir(path):
        fail(PROG, f"{path}: a directory, expected {what}")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        fail(PROG, f"{path}: {e.strerror} ({what})")
    except UnicodeDecodeError:
        fail(PROG, f"{path}: not a text file (expected {what})")
    if "\0" in text:
        fail(PROG, f"{path}: a NUL byte (expected {what})")
    return text


# IO500's INI grammar (src/ini-parse.c, its regular expressions): a section line "[name]", an option line
# "key = value" (key of letters, digits, '_', '.', '-'; a value holds no '#' nor ';'), an empty or comment line ('#' or
# ';' first); a comment may follow white space on the first two. Anything else stops
# IO500 ("unexpected content"), and here. An option with an empty value is skipped, as IO500 skips it (its default
# holds). An option given twice in a section (or in the section given twice) takes its last value, as IO500 assigns
# each line in turn; here with a warning naming both lines.
_INI_SECTION = re.compile(r"\s*\[\s*([0-9A-Za-z_-]+)\s*\]\s*(\s[#;].*)?")
_INI_OPTION = re.compile(r"\s*([0-9A-Za-z_.-]+)\s*=\s*([^#;]*?)\s*(\s[#;].*)?")
_INI_EMPTY = re.compile(r"\s*([#;].*)?")


class Config(dict):
    """{section: {option: value}}, with `lines`: where each (section, option) was given ("config.ini:12"), for the
    errors found after reading (sizes)."""
    lines = {}


def read_config(path):
    """IO500's config.ini -> {section: {option: value}}, names lower-case as IO500 matches them (strcasecmp), and the
    options given a value that pfsim does not model. Errors name the file and line."""
    out, lines, given, sec = {}, {}, {}, None  # given: each option's key as written and value, for a repeat's warning
    for n, line in enumerate(read_text(path, "an IO500 config.ini").split("\n"), start=1):
        line = line.rstrip("\r")
        m = _INI_SECTION.fullmatch(line)
        if m:
            sec = m.group(1).lower()
            if sec in OTHER_VERSION_SECTIONS:  # (their options are not checked: another version's tables)
                if sec not in out:
                    print(f"{PROG}: note: {path}:{n}: [{m.group(1)}]: a phase of another IO500 version (its standard "
                          "mode of 2020-2021), not modelled: its options are ignored", file=sys.stderr)
            elif sec not in KNOWN_SECTIONS:
                fail(PROG, f"{path}:{n}: [{m.group(1)}]: not an IO500 section (IO500 stops on it too; e.g. [ior-easy], "
                           "[mdtest-hard])")
            out.setdefault(sec, {})
            continue
        m = _INI_OPTION.fullmatch(line)
        if m:
            key, value = m.group(1).lower(), m.group(2).strip()
            if value == "":
                continue  # IO500 skips an option without a value: its default holds
            if sec is None:
                fail(PROG, f"{path}:{n}: {m.group(1)} = {value}: an option outside a section (IO500 stops on it too)")
            if (sec, key) in lines:  # IO500 assigns each line in turn: the last value holds
                k0, v0 = given[(sec, key)]
                print(f"{PROG}: warning: {path}:{n}: [{sec}] {m.group(1)} = {value}: given again (line "
                      f"{lines[(sec, key)]}: {k0} = {v0}); the last value is used, as IO500 uses it", file=sys.stderr)
            out[sec][key] = value
            lines[(sec, key)] = n
            given[(sec, key)] = (m.group(1), value)
            continue
        if not _INI_EMPTY.fullmatch(line):
            fail(PROG, f"{path}:{n}: expected '[section]', 'option = value' or a comment, as IO500 reads its config, "
                       f"got '{line.strip()[:60]}'")
    check_options(out, path, lines)
    out = Config(out)
    out.lines = {k: f"{path}:{n}" for k, n in lines.items()}
    # api = POSIX is what pfsim models; any other interface, and every option pfsim does not read, is said.
    ignored = sorted(f"[{sec}] {k} = {v}" for sec, opts in out.items() for k, v in opts.items()
                     if (sec, k) not in USED and not (k == "api" and v.upper() == "POSIX"))
    return out, ignored


def config_line(config, cfg_path, section, option):
    """Where the config gives (section, option): "config.ini:12" (read_config's lines), else the file or "the
    defaults"."""
    return getattr(config, "lines", {}).get((section, option), cfg_path or "the defaults")


def read_result_dir(d):
    """An IO500 result directory: procs, each phase's exe command line and score from result.txt, the summary's
    scores from result_summary.txt, and the config (config.ini)."""
    path = os.path.join(d, "result.txt")
    if not os.path.isdir(d):
        fail(PROG, f"--from {d}: not a directory (expected an IO500 result directory)")
    if not os.path.exists(path):
        fail(PROG, f"{path}: no such file (an IO500 result directory has result.txt)")
    lines = read_text(path, "an IO500 result.txt").splitlines()
    sections, cur = {}, None
    simulated_rpn = None  # a pfsim result directory's "; simulated: pfsim ... --ranks-per-node K --set P=V ..."
    simulated_sets = []
    for n, line in enumerate(lines, start=1):
        s = line.strip()
        if s.startswith("; simulated: pfsim "):
            try:
                words = shlex.split(s[len("; simulated: pfsim "):])
            except ValueError:
                words = []
            for k, w in enumerate(words[:-1]):
                if w == "--ranks-per-node" and words[k + 1].isdigit():
                    simulated_rpn = int(words[k + 1])
                elif w == "--set":
                    simulated_sets.append(words[k + 1])
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
    if not procs_text.isdigit() or not 1 <= int(procs_text) <= 10000000:
        fail(PROG, f"{path}:{n}: procs: expected a whole number from 1 to 10000000, got '{procs_text}'")
    measured = {}
    for name, _, _, _ in PHASES:
        sec = sections.get(name)
        if sec and "score" in sec:
            v, n = sec["score"]
            x = as_float(v)
            if not math.isfinite(x) or x < 0:
                fail(PROG, f"{path}:{n}: score: expected a non-negative number, got '{v}'")
            measured[name] = x
    exes = {name: sec["exe"] for name, sec in sections.items() if isinstance(sec, dict) and "exe" in sec}
    # config.ini (what IO500 ran, defaults filled in), else config-orig.ini, else the one other config*.ini.
    others = sorted(f for f in os.listdir(d) if re.fullmatch(r"config.*\.ini", f) and f not in ("config.ini",
                                                                                                 "config-orig.ini"))
    names = [c for c in ("config.ini", "config-orig.ini") if os.path.isfile(os.path.join(d, c))] + others
    cfg_path = os.path.join(d, names[0]) if names else None
    config, ignored = read_config(cfg_path) if cfg_path else ({}, [])
    if cfg_path is None:
        # No config beside it: what result.txt itself says of the run that matters here, the stonewall of its write
        # command lines (IOR's -D, mdtest's -W) and find's processes (helper-132: a 1 s debug run was rerun at 300 s)
        for phase, flag_ in (("ior-easy-write", "-D"), ("ior-hard-write", "-D"), ("mdtest-easy-write", "-W"),
                             ("mdtest-hard-write", "-W")):
            if phase in exes and re.search(rf"(?:^|\s){flag_}[ =]?\d", exes[phase][0]):
                v = option_after(exes[phase][0], flag_, path, exes[phase][1], phase)
                if not v.isdigit():
                    fail(PROG, f"{path}:{exes[phase][1]}: {phase}: {flag_}: expected whole seconds, got '{v}'")
                config.setdefault("debug", {})["stonewall-time"] = v
                break
        nproc = sections.get("find", {}).get("nproc")
        if nproc:
            config.setdefault("find", {})["nproc"] = nproc[0]
    inputs = [("the measured result.txt", path)] + [(f"the result directory's {f}", os.path.join(d, f))
                                                     for f in os.listdir(d) if os.path.isfile(os.path.join(d, f))]
    return {"procs": int(procs_text), "measured": measured, "exes": exes, "path": path, "config": config,
            "ignored": ignored, "config_path": cfg_path, "inputs": inputs, "ranks_per_node": simulated_rpn,
            "sets": simulated_sets}


def option_after(exe, flag, path, n, what):
    """The value after `flag` (as '-n 2000' or '-n=2000') in a command line from result.txt."""
    toks = exe.split()
    for i, t in enumerate(toks):
        if t == flag and i + 1 < len(toks):
            return toks[i + 1]
        if t.startswith(flag + "="):
            return t[len(flag) + 1:]
    fail(PROG, f"{path}:{n}: {what}: the command line has no {flag} (expected IO500's {what} options)")


def parse_count(text, what):
    """A whole number of files or segments, as IO500 reads them (no suffix)."""
    if not re.fullmatch(r"\s*\d+\s*", str(text)):
        fail(PROG, f"{what}: expected a whole number, got '{text}'")
    if int(text) > 2 ** 63 - 1:  # (pfsim's counts are 64-bit, as IO500's INI_UINT64; helper-132: pfsim's -s said it)
        fail(PROG, f"{what}: expected a whole number up to {2 ** 63 - 1}, got '{text.strip()}'")
    return int(text)


def sizes_from(config, cfg_path, exes, result_path, caps, cap_all, cap_text=None, stonewall_s=0.0):
    """The sizes of each tool run: from the result directory's command lines when given, else the config, else
    IO500's defaults capped (notes say which). Every size is checked here, before any simulation. `cap_text`: the
    --cap-block as typed, for its error."""
    cap_text = cap_text or str(caps["block"])  # (caps of None: --no-caps, IO500's defaults as they are)
    notes = []
    # (key, phase whose command line gives it, flag, section, option, default, cap, parser)
    table = [("easy_xfer", "ior-easy-write", "-t", "ior-easy", "transfersize", DEFAULTS["transferSize"], None, parse_size),
             ("easy_block", "ior-easy-write", "-b", "ior-easy", "blocksize", DEFAULTS["blockSize"], caps["block"],
              parse_size),
             ("hard_segments", "ior-hard-write", "-s", "ior-hard", "segmentcount", DEFAULTS["segmentCount"],
              caps["segments"], parse_count),
             ("easy_n", "mdtest-easy-write", "-n", "mdtest-easy", "n", DEFAULTS["easy_n"], caps["files"], parse_count),
             ("hard_n", "mdtest-hard-write", "-n", "mdtest-hard", "n", DEFAULTS["hard_n"], caps["files"], parse_count)]
    s, capped = {}, set()
    for key, phase, opt_flag, section, option, default, cap, parse in table:
        shown = {"transfersize": "transferSize", "blocksize": "blockSize", "segmentcount": "segmentCount"}.get(option,
                                                                                                          option)
        if phase in exes:  # a result directory: its command lines are what ran
            exe, n = exes[phase]
            v = parse(option_after(exe, opt_flag, result_path, n, section), f"{result_path}:{n}: {opt_flag}")
        elif config.get(section, {}).get(option, "") != "":
            at = config_line(config, cfg_path, section, option)
            v = parse(config[section][option], f"{at}: [{section}] {shown}")
            if cap is not None and v > cap:
                if cap_all:
                    notes.append(f"[{section}] {shown} {v} capped at {cap} (--cap-all)")
                    v = cap
                    capped.add(key)
                else:
                    ends = (f"the stonewall ends its write after {stonewall_s:g} s unless it ends first"
                            if stonewall_s > 0 else "it is run whole: stonewall-time 0")
                    print(f"{PROG}: warning: [{section}] {shown} = {config[section][option]} is more than the cap "
                          f"{cap} and run as given ({ends}); --cap-all caps it", file=sys.stderr)
        else:
            v = min(parse(default, "default"), cap) if cap is not None else parse(default, "default")
            if cap is not None:
                capped.add(key)
            if cap is not None and flag(config, section, "run", "TRUE"):  # (a group that runs: its cap is said)
                notes.append(f"[{section}] {shown} not given: IO500's default {default} capped at {v} (IO500's "
                             "default relies on stonewalling to end the phase; --cap-* sets the cap, --no-caps runs "
                             "the default)")
        if v <= 0:
            at = config_line(config, cfg_path, section, option)
            fail(PROG, f"{at}: [{section}] {shown}: expected a positive size or count, got {v}")
        s[key] = v
    # A block the cap set (not the config nor a command line) is IOR's: a whole number of transfers (helper-109: a 5m
    # transferSize without a blockSize was refused, 256m not being a multiple of it), rounded down: a cap is never
    # exceeded (helper-121: 512k was rounded up to a 1m transfer). Not one transfer within the cap: refused (the
    # transfer is IO500's access pattern, not a size to shrink).
    if "easy_block" in capped and s["easy_block"] % s["easy_xfer"]:
        v = s["easy_block"] // s["easy_xfer"] * s["easy_xfer"]
        if v == 0:
            given_at = (config_line(config, cfg_path, "ior-easy", "transfersize")
                        if ("ior-easy", "transfersize") in getattr(config, "lines", {}) else "IO500's default")
            fail(PROG, f"--cap-block {cap_text}: {s['easy_block']} bytes is less than one transferSize "
                       f"({s['easy_xfer']}, {given_at}): a block is "
                       f"whole transfers and a cap is never exceeded; give --cap-block {s['easy_xfer']} or more")
        notes.append(f"[ior-easy] blockSize {s['easy_block']} (the cap) rounded down to {v}, a whole number of "
                     f"transferSize {s['easy_xfer']}")
        s["easy_block"] = v
    if s["easy_block"] % s["easy_xfer"]:
        at = config_line(config, cfg_path, "ior-easy", "blocksize")
        fail(PROG, f"{at}: [ior-easy] blockSize {s['easy_block']} is not a multiple of transferSize {s['easy_xfer']}")
    return s, notes


def run_tool(pfsim, common, kind, args, tmp, keep=None):
    """One pfsim run; returns (its results JSON, its warning lines, its command line as "pfsim TOOL ...", without
    the temporary --out and --quiet). With `keep` (a dict; --out-dir), an IOR or mdtest run also prints the tool's
    text and writes its per-rank CSV (IOR's -O saveRankPerformanceDetailsCSV, mdtest's -P and
    --saveRankPerformanceDetails, as IO500 gives them: they change no number, and are not in the recorded command
    line); keep[kind] = (its stdout, its CSV), the temporary directory's files named by their names alone."""
    out = os.path.join(tmp, kind + ".json")
    tool = "ior" if kind.startswith("ior") else "find" if kind == "find" else "mdtest"
    if "--ranks" in args:  # the run's own process count ([find] nproc) replaces the job's
        k = common.index("--ranks")
        common = common[:k] + common[k + 2:]
    rank_csv = os.path.join(tmp, kind + ".csv") if keep is not None and tool != "find" else None
    extra = ([] if rank_csv is None else ["-O", f"saveRankPerformanceDetailsCSV={rank_csv}"] if tool == "ior" else
             ["-P", f"--saveRankPerformanceDetails={rank_csv}"])
    # (before the run's trailing "-a API", where IO500 puts its mdtest's --saveRankPerformanceDetails)
    api = args[-2:] if len(args) >= 2 and args[-2] == "-a" else []
    cmd = ([pfsim, tool] + common + args[:len(args) - len(api)] + extra + api +
           (["--quiet"] if rank_csv is None else []) + ["--out", out])
    r = run_pfsim(PROG, cmd, **({"stdout": subprocess.PIPE} if rank_csv else {}))
    # the command line as recorded: the temporary directory's files (IOR's status file) by their names alone, so that
    # the same inputs record the same bytes
    shown = [a.replace(tmp + os.sep, "") for a in args]
    if rank_csv is not None:
        with open(rank_csv) as f:
            keep[kind] = (r.stdout.replace(tmp + os.sep, ""), f.read())
    with open(out) as f:
        return (json.load(f), [l.replace(tmp + os.sep, "") for l in (r.stderr or "").splitlines() if "warning" in l],
                shlex.join(["pfsim", tool] + common + shown))


GROUPS = ("mdtest-easy", "ior-easy", "ior-hard", "mdtest-hard", "find")
FIND_NAME = "01"  # IO500's find: -name "*01*"


def find_args(common, s, config, skipped):
    """pfsim find's options: its processes ([find] nproc, IO500's pfind ranks; default every task) and the tree the
    groups that run leave in the data directory (written by every task; a group whose write phase is off, e.g.
    [mdtest-easy-write] run = FALSE, leaves nothing)."""
    off = phase_runs(config)
    skipped = [g for g in GROUPS if g in skipped or f"{g}-write" in off]
    tasks = int(common[common.index("--ranks") + 1])
    nproc = config.get("find", {}).get("nproc", "")
    args = ["--name", FIND_NAME]
    if nproc != "":
        # (checked >= 1 by main; run_tool drops the job's --ranks for it)
        args += ["--ranks", str(min(parse_count(nproc, "[find] nproc"), tasks))]
    if "mdtest-easy" not in skipped:
        args += ["--mdtest-easy", f"{tasks}:{s['easy_n']}"]
    if "mdtest-hard" not in skipped:
        args += ["--mdtest-hard", f"{tasks}:{s['hard_n']}"]
    dirs = []
    if "ior-easy" not in skipped:  # IOR -F: ior_file_easy.%08d per task; else one file
        if flag(config, "ior-easy", "fileperproc", "TRUE"):
            dirs.append(f"{tasks}:{sum(1 for r in range(tasks) if FIND_NAME in f'ior_file_easy.{r:08d}')}")
        else:
            dirs.append("1:0")
    if "ior-hard" not in skipped:  # ior_hard/IOR_file
        dirs.append("1:0")
    if dirs:
        args += ["--dirs", ",".join(dirs)]
    return args


def ior_runs(group, base, stonewall_s, tmp, off):
    """A group's IOR runs as IO500 makes them, in order: the write (-w; with a stonewall, IOR's -D, wear-out and the
    status file its read reads back) and the read (-r), each its own pfsim run, as IO500 runs each phase as its own
    IOR. A phase that does not run ([ior-easy-write] run = FALSE) has no run: a read without its write reads the
    whole count, as of files left before the run. Returns [(run name, access, its arguments)]."""
    status = os.path.join(tmp, f"{group}.stonewall")
    writes = f"{group}-write" not in off
    runs = []
    if writes:
        sw = ["-D", str(int(stonewall_s)), "-O", "stoneWallingWearOut=1", "-O", f"stoneWallingStatusFile={status}"] \
            if stonewall_s > 0 else []
        runs.append((f"{group}-write", "write", base + ["-w"] + sw))
    if f"{group}-read" not in off:
        sw = ["-O", f"stoneWallingStatusFile={status}"] if writes and stonewall_s > 0 else []
        runs.append((f"{group}-read", "read", base + ["-r", "-R"] + sw))
    return runs


def rnd4k_args(fpp, stonewall_s, file_size, capped, given=None):
    """IO500's rnd4K read of ior-easy's files (each `file_size` bytes, as its write left them): IOR's -z -z reads of
    4 KiB blocks, with the stonewall, with a file per task over the tasks' data two nodes on (-C -Q 2: IO500 gives
    them only with filePerProc; IOR refuses -z with -C on a shared file). Its -s 10000000 reads a block at most; when
    the sizes are capped (not --no-caps), or without a stonewall to end them, as many reads as the file has blocks;
    `given`: a result directory's command line's -s, run as it ran. Returns (pfsim ior's arguments, the segments)."""
    segments = RND4K_SEGMENTS if given is None else given
    if given is None and (capped or stonewall_s <= 0):
        segments = min(segments, file_size // RND4K_XFER)
    args = ((["-F"] if fpp else []) + ["-r", "-z", "-z", "-t", str(RND4K_XFER), "-b", str(RND4K_XFER), "-s",
                                       str(segments)] + (["-C", "-Q", "2"] if fpp else []) +
            ["-g", "-G", "271", "-e", "-k"] +
            (["-D", str(int(stonewall_s)), "-O", "stoneWallingWearOut=1"] if stonewall_s > 0 else []) +
            ["--file-size", str(file_size)])
    return args, segments


def run_warnings(warned, stonewall_s):
    """The runs' warning lines as passed to stderr, each text once, in order, naming the runs that printed it after
    pfsim's "warning: " (helper-149: ior-easy-read's and ior-hard-read's load-law lines looked alike): "pfsim: warning:
    ior-easy-read, ior-hard-read: clients.load_delay read: ...". A line every run printed (the platform's, a --set's,
    with more than one run) is the job's: printed without names. `warned`: [(run name, its lines)] in run order. The
    note of pfsim mdtest that -x without -W is neither written nor read is left out with stonewall-time 0: io500.py
    gives -x as IO500 gives it (its status file), to the same effect."""
    by_text = {}
    for name, lines in warned:
        for line in lines:
            if stonewall_s <= 0 and line.startswith(f"pfsim mdtest: warning: -x {name}.stonewall with "):
                continue
            runs = by_text.setdefault(line, [])
            if name not in runs:
                runs.append(name)
    out = []
    for line, runs in by_text.items():
        if len(warned) > 1 and len(runs) == len(warned):
            out.append(line)
            continue
        m = re.match(r"(pfsim[^:]*: warning: )", line)
        head = m.group(1) if m else ""
        out.append(f"{head}{', '.join(runs)}: {line[len(head):]}")
    return out


def simulate(pfsim, common, s, jobs, config, stonewall_s, capped=True, rnd4k_given=None, tool_out=False):
    """The enabled tool runs ([group] run = FALSE skips one; a phase's own run = FALSE leaves its result out: main then
    scores it 0, as IO500's phase returns 0 without running); mdtest-easy runs first and alone, so that a platform or --set error is reported once before the
    others start. IOR's write and read are two runs (ior_runs), in order: with a stonewall the write stops issuing
    after stonewall-time seconds (IOR's -D, wear-out) and the read reads what it wrote (the status file).
    Returns ({phase: (score, time)}, skipped groups, notes): notes["find"] holds the simulated find's
    processes, files found and files examined (result.txt's nproc, found and total-files), notes["why"] why a phase
    whose run is not FALSE did not run (the summary's "not run (...)"), notes["runs"] each run's (command line,
    its own arguments, results JSON), in IO500's order of its groups, notes["stonewall"] a write's stonewall figures
    (IOR: {phase: {"throughput_GiBps", "hit_s", "pairs_min", "pairs_max"}}, result.txt's throughput-stonewall and
    IO500's 'Stonewall was hit at'; mdtest: {"rate_stonewall_kiops", "hit", "items_min", "items_max", "time_s"},
    result.txt's rate-stonewall), notes["bytes"] the bytes each IOR phase moved, notes["made"] the files per task the
    mdtest groups that ran made (their stonewall may have stopped them short of -n), notes["rnd4k"] the rnd4K read's
    segments and file size (its run last, over the files ior-easy's write left; `capped`: its reads capped at the
    file's blocks, rnd4k_args); with `tool_out` (--out-dir), notes["tool_out"] each IOR and mdtest run's text and
    per-rank CSV ({run name: (stdout, CSV)}, run_tool)."""
    notes = {"find": {}, "why": {}, "runs": {}, "stonewall": {}, "bytes": {}, "made": {}, "rnd4k": {}, "tool_out": {}}
    keep = notes["tool_out"] if tool_out else None
    fpp = flag(config, "ior-easy", "fileperproc", "TRUE")
    skipped = [g for g in GROUPS if not flag(config, g, "run", "TRUE")]
    off = phase_runs(config)
    with tempfile.TemporaryDirectory() as tmp:
        # IO500's IOR options (phase_ior_easy.c, phase_ior_hard.c): -C -Q 1 (read back another node's data: with a
        # client page cache, clients.max_cached_mb, a rank's own node would serve its reads from memory), -g (barriers
        # between open, transfers and close: every rank has opened the file before any writes, which decides when a
        # CephFS file written from several nodes turns synchronous, clients.shared_file_writes), -G (the data
        # signature, recorded), -k -e; the reads -R (IOR 4.1's verifying read is the read itself)
        easy = ((["-F"] if fpp else []) + (["-u"] if flag(config, "ior-easy", "uniquedir", "FALSE") else []) +
                ["-t", str(s["easy_xfer"]), "-b", str(s["easy_block"]), "-C", "-Q", "1", "-g", "-G", "271", "-e", "-k"])
        hard = ["-t", str(HARD_XFER), "-b", str(HARD_XFER), "-s", str(s["hard_segments"]), "-C", "-Q", "1", "-g", "-G",
                "27", "-e", "-k"]
        # IO500's mdtest options that change what runs: -N 1 (a rank stats, reads and removes the files of the rank
        # one node further, two, three: mdtest shifts by the tasks per node with several nodes), -Y (a sync after
        # each phase: IO500 gives it to the write phases, after which nothing else is left dirty) and -W (the
        # create's stonewall; the stat, read and removal of the same run work on the count it made, as IO500's
        # later runs read it from -x's status file)
        # The rest of IO500's mdtest options, which change nothing here, are given too, so that each phase's
        # "Command line used:" carries the options of its result.txt exe line (helper-149: -L and -t were left out):
        # -L (files at the tree's leaves: its depth is 0), -t (the unique directory's overhead: without -u, as in
        # mdtest-hard, nothing), -x (the status file: the stonewalled create writes it; its group's later phases are
        # of the same run) and -a POSIX.
        # (in IO500's order: -n, -u -L -F or -t -w -e, -N 1 (-F), -x, then the create's -Y -W, and -a last)
        md = ["-Y"] + (["-W", str(int(stonewall_s))] if stonewall_s > 0 else [])
        status = lambda g: ["-x", os.path.join(tmp, f"{g}.stonewall")]
        runs = {
            "mdtest-easy": [("mdtest-easy", None, ["-n", str(s["easy_n"]), "-u", "-L", "-F", "-N", "1"] +
                             status("mdtest-easy") + md + ["-a", "POSIX"])],
            "ior-easy": ior_runs("ior-easy", easy, stonewall_s, tmp, off),
            "ior-hard": ior_runs("ior-hard", hard, stonewall_s, tmp, off),
            # IO500 reads mdtest-hard's files with -N 1 (those of the node two further, mdtest's shift; a rank's own
            # node's with 1 or 2 nodes), in a separate run after the IOR reads of many GB, which have evicted their
            # pages: no page cache serves them, so the cache is turned off for this run (pfsim's one run holds create
            # and read together)
            "mdtest-hard": [("mdtest-hard", None, ["-n", str(s["hard_n"]), "-t", "-w", str(MDTEST_HARD_BYTES), "-e",
                                                   str(MDTEST_HARD_BYTES), "-N", "1", "-F"] + status("mdtest-hard") +
                             md + ["--set", "clients.max_cached_mb=0", "-a", "POSIX"])],
        }
        if "find" not in skipped:
            runs["find"] = [("find", None, find_args(common, s, config, skipped))]
            if not any(x in runs["find"][0][2] for x in ("--mdtest-easy", "--mdtest-hard", "--dirs")):
                print(f"{PROG}: note: find not run: no write phase that runs leaves a file for it to find",
                      file=sys.stderr)
                skipped.append("find")
                notes["why"]["find"] = "no file to find: no write phase ran"
        skipped += [g for g in GROUPS if g not in skipped and not runs.get(g)]  # an IOR group with both phases off
        skipped_phases = off | ({"find"} if "find" in skipped else set())  # the skipped groups' phases
        first, *rest = [g for g in GROUPS if g not in skipped] or [None]

        def run_group(g):  # a group's runs in order (an IOR read reads its write's status file)
            return [(name,) + run_tool(pfsim, common, name, args, tmp, keep) for name, _, args in runs[g]]
        results = []
        if first is not None:
            # The first group runs alone, so that a bad platform or --set is reported once, not once per group. find
            # runs last: it walks the files the mdtest groups made (their stonewall may have stopped them short of -n)
            results += run_group(first)
            with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
                for done in ex.map(run_group, [g for g in rest if g != "find"]):
                    results += done
            # the files per task each mdtest group that ran made: the most any rank made by its stonewall, which
            # every rank made (mdtest's wear-out), or its -n
            made = dict(s)
            for g, key in (("mdtest-easy", "easy_n"), ("mdtest-hard", "hard_n")):
                r = next((r for name, r, _, _ in results if name == g), None)
                items = ((r or {}).get("mdtest") or {}).get("stonewall", {}).get("items_max")
                if items:
                    made[key] = int(items)
                if r is not None and f"{g}-write" not in off:
                    notes["made"][key] = made[key]
            if "find" in rest:
                runs["find"] = [("find", None, find_args(common, made, config, skipped))]
                results += run_group("find")
            # IO500's last phase, the rnd4K read of ior-easy's files: each as large as ior-easy's write left it (every
            # task wrote as many transfers as the most any did: the wear-out), which IOR stats (pfsim's --file-size)
            rnd = "ior-rnd4K-easy-read"
            write = next((r for name, r, _, _ in results if name == "ior-easy-write"), None)
            if rnd not in skipped_phases and write is None:
                notes["why"][rnd] = "no ior-easy write ran: the files it reads have no size"
            elif rnd not in skipped_phases:
                tasks = int(common[common.index("--ranks") + 1])
                moved = next(x["bytes"] for x in write["ior"] if x["access"] == "write")
                per_task = int(moved) // tasks
                size = per_task if fpp else (tasks - 1) * s["easy_block"] + per_task  # (one file: the last block's end)
                if size < RND4K_XFER:
                    notes["why"][rnd] = f"ior-easy's write left {size} bytes per file, less than one 4 KiB block"
                else:
                    args, segments = rnd4k_args(fpp, stonewall_s, size, capped, rnd4k_given)
                    if rnd4k_given is None and segments < RND4K_SEGMENTS:
                        print(f"{PROG}: note: {rnd}: {segments} reads per task at most (the file's 4 KiB blocks), not "
                              f"IO500's -s {RND4K_SEGMENTS}" +
                              (" (stonewall-time 0: nothing would end them)" if stonewall_s <= 0 else
                               " (IO500's default size, capped as its others are; --no-caps runs it)"),
                              file=sys.stderr)
                    notes["rnd4k"] = {"segments": segments, "file_size": size}
                    runs["ior-rnd4K"] = [(rnd, None, args)]
                    results += run_group("ior-rnd4K")
    res = {name: r for name, r, _, _ in results}
    args_of = {name: args for g in runs for name, _, args in runs[g]}
    order = [name for g in GROUPS + ("ior-rnd4K",) for name, _, _ in runs.get(g, [])]
    notes["runs"] = {name: (cmd, args_of[name], r) for name, r, _, cmd in sorted(results,
                                                                              key=lambda x: order.index(x[0]))}
    for line in run_warnings([(name, w) for name, _, w, _ in results], stonewall_s):
        print(line, file=sys.stderr)
    out = {}
    for name, unit, _, src in PHASES:
        if src is None or name in skipped_phases or (what_of(src) == "rnd4K" and name not in res):
            continue
        run, what = src
        if run == "find":
            r = res[run]
            out[name] = (float(r["find"]["rate"]) / 1000.0, float(r["find"]["time_s"]))
            # pfind's found: -size 3901c passes mdtest-hard's files alone (mdtest-easy's are empty, IOR's far larger),
            # all newer than the timestamp, so the mdtest-hard names that -name matches
            hard = r["workload"].get("mdtest_hard") or {}
            notes["find"] = {"nproc": r["run"]["ranks"], "files": r["find"]["files"],
                             "found": hard.get("matching") or 0}
        elif run.startswith("ior"):
            what = "read" if what == "rnd4K" else what
            hit = [x for x in res[name].get("ior", []) if x.get("access") == what]
            if not hit:
                fail(PROG, f"pfsim ior wrote no {what} result for {name}")
            out[name] = (float(hit[0]["bwMiB"]) / 1024.0, float(hit[0]["totalTime"]))
            notes["bytes"][name] = hit[0]["bytes"]
            sw = hit[0].get("stonewall")
            if what == "write" and sw:  # IO500's phase_ior.c: data moved by the stonewall / its time
                notes["stonewall"][name] = {"throughput_GiBps": float(sw["bytes_sum"]) / float(sw["time_s"]) / 2 ** 30
                                            if float(sw["time_s"]) > 0 else 0.0,
                                            "hit_s": float(sw["time_s"]), "pairs_min": sw["pairs_min"],
                                            "pairs_max": sw["pairs_max"]}
        else:
            hit = [p for p in res[run]["phases"] if p["name"] == what]
            if not hit:
                fail(PROG, f"pfsim mdtest wrote no '{what}' phase for {run}")
            # IO500's time of the phase is its whole mdtest run (main.c times phase->run()): mdtest 4.1 sleeps a second
            # before its test (mdtest_run: sleep(1) in its task-count loop), and IO500's -C run makes the tree before
            # the files, its -r run removes it after them (standard-results: mdtest-easy-stat's 0.0036 s stat,
            # t_delta 1.0043). The score is mdtest's rate of the phase itself.
            ran = {p["name"]: float(p["time_s"]) for p in res[run]["phases"]}
            t = MDTEST_START_S + sum(ran.get(p, 0.0) for p in MDTEST_RUN_PHASES[what])
            out[name] = (float(hit[0]["rate_items_per_s"]) / 1000.0, t)
            sw = (res[run].get("mdtest") or {}).get("stonewall")
            if what == "File creation" and sw:  # IO500's phase_mdtest.c: the items by the stonewall / its time
                notes["stonewall"][name] = {"rate_stonewall_kiops": float(sw["rate_items_per_s"]) / 1000.0,
                                            "hit": bool(sw["hit"]), "items_min": sw["items_min"],
                                            "items_max": sw["items_max"], "time_s": float(sw["time_s"])}
    return out, skipped, notes


def what_of(src):
    """A phase's source's phase or access (PHASES)."""
    return src[1] if src else None


def geo(values):
    """IO500's group score (main.c, calc_score): the geometric mean of the phases' scores above 0, which skips a phase
    that did not run (run = FALSE: its score 0, the phase and the run INVALID); 0 when none is."""
    values = [v for v in values if v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else 0.0


def validity(sim, stonewall_s, minwrite_s, stonewall=None):
    """IO500's validity rules (src/main.c, phase_ior.c, phase_dbg.c), in its words: an IOR write phase that took less
    than stonewall-time ('Write phase needed ...', with where its stonewall was hit, `stonewall` {phase: {"hit_s"}});
    a write phase (IO500 checks its stonewall) that ran less than stonewall-time, else any phase with a score of 0; a
    write phase that ran less than the minimum write runtime (300 s; 30 s with [global] scc). The run is INVALID when
    one of its phases is or stonewall-time is not 300 s. A write phase ends before the stonewall when its count does
    (the sizes, capped or given, are too small for stonewall-time); so is a run whose score is 0 (a group's phases
    all off, or one of them scored 0).
    Returns ({phase: [reasons]}, [run-level reasons])."""
    phases = {}
    # (an unscored phase, IO500's rnd4K read: its score of 0 is INVALID too, and the run with it: main.c judges every
    # phase but its dummies, and rnd4K is not an optional one; helper-143)
    for name, (v, t) in sim.items():
        why = []
        if name.startswith("ior") and name.endswith("-write") and t < stonewall_s:
            hit = (stonewall or {}).get(name, {}).get("hit_s", t)
            why.append(f"Write phase needed {t:f}s instead of stonewall {stonewall_s:g}s. Stonewall was hit at "
                       f"{hit:.1f}s")
        if name.endswith("-write") and t < stonewall_s:
            why.append(f"Runtime of phase ({t:f}) is below stonewall time. This shouldn't happen!")
        elif v == 0:
            why.append("Resulting score shouldn't be 0.0")
        if name.endswith("-write") and t < minwrite_s:
            why.append("Runtime is smaller than expected minimum runtime")
        if why:
            phases[name] = why
    run = [f"stonewall-time {stonewall_s:g}s != 300s"] if stonewall_s != 300 else []
    # The score, sqrt(bandwidth x IOPS), is 0 when a group's geometric mean is: none of its phases scored above 0
    # (every phase run = FALSE or scored 0; helper-121: TOTAL 0.000000 was not marked).
    zero = []
    for group, label in (("bw", "bandwidth"), ("md", "metadata")):
        scores = [sim[n][0] for n, _, g, _ in PHASES if g == group and n in sim]
        if not scores:
            zero.append(f"no {label} phase ran")
        elif geo(scores) == 0:
            zero.append(f"no {label} phase scored above 0")
    if zero:
        run.append(f"Resulting score shouldn't be 0.0 ({'; '.join(zero)})")
    return phases, run


def summary_text(sim, version, invalid, run_invalid, why=None):
    """IO500's result_summary.txt: its [RESULT] lines in its order, the timestamp line and a phase not run as
    '[      ]' lines, and its [SCORE ] line over the phases simulated; ' [INVALID]' where IO500 puts it."""
    # (IO500's own form, "IO500 version <version> (standard)", which scripts parse; the version names pfsim)
    lines = [f"IO500 version pfsim-{version} (standard)"]
    for name, unit, group, src in PHASES:
        if name == "ior-hard-write":  # IO500 prints the timestamp phase here
            lines.append(f"[      ] {'timestamp':>20s} {0:15.6f} kIOPS : time {0:.3f} seconds")
        if name not in sim:
            lines.append(f"[      ] {name:>20s} {'':>15s} {unit} : not run ({(why or {}).get(name, 'run = FALSE')})")
        else:
            v, t = sim[name]
            mark = " [INVALID]" if name in invalid else ""
            tag = "[RESULT]" if group is not None else "[      ]"  # (an unscored phase: IO500's rnd4K read)
            lines.append(f"{tag} {name:>20s} {v:15.6f} {unit} : time {t:.3f} seconds{mark}")
    bw = geo([sim[n][0] for n, _, g, _ in PHASES if g == "bw" and n in sim])
    md = geo([sim[n][0] for n, _, g, _ in PHASES if g == "md" and n in sim])
    mark = " [INVALID]" if invalid or run_invalid else ""
    lines.append(f"[SCORE ] Bandwidth {bw:f} GiB/s : IOPS {md:f} kiops : TOTAL {math.sqrt(bw * md):f}{mark}")
    return "\n".join(lines) + "\n", bw, md


def sizes_config(sizes, capped=True, config=None, source=None):
    """A config.ini of the sizes run when no config was given: IO500's defaults (capped as the notes said unless
    --no-caps), or those of `source`'s command lines (--from a result.txt without a config) with the stonewall-time
    and [find] nproc it gave (`config`)."""
    config = config or {}
    extra = "".join(f"[{sec}]\n{opt} = {config[sec][opt]}\n" for sec, opt in (("debug", "stonewall-time"),
                                                                              ("find", "nproc"))
                    if opt in config.get(sec, {}))
    head = (f"; io500.py ran {source}'s command lines (no config beside it): their sizes\n" if source else
            "; io500.py ran without a config: IO500's defaults" +
            (", the sizes capped as its notes said\n" if capped else ", uncapped (--no-caps)\n"))
    return (head + extra +
            f"[ior-easy]\ntransferSize = {sizes['easy_xfer']}\nblockSize = {sizes['easy_block']}\n"
            f"[mdtest-easy]\nn = {sizes['easy_n']}\n[ior-hard]\nsegmentCount = {sizes['hard_segments']}\n"
            f"[mdtest-hard]\nn = {sizes['hard_n']}\n")


def size_text(b):
    """A byte count as IO500's exe lines show the config's sizes (IOR's suffixes: 1048576 -> 1m; 47008 stays)."""
    for unit, suffix in ((1 << 40, "t"), (1 << 30, "g"), (1 << 20, "m"), (1 << 10, "k")):
        if b >= unit and b % unit == 0:
            return f"{b // unit}{suffix}"
    return str(b)


def exe_lines(sizes, config, stonewall_s, rnd4k=None):
    """Each phase's command line as IO500 would run it with these sizes and stonewall (result.txt's exe =; --from
    reads its -t -b -s -n back). Paths and seeds are left out: nothing ran on a file system (the status files are
    named as in IO500's result directory)."""
    fpp = " -F" if flag(config, "ior-easy", "fileperproc", "TRUE") else ""
    status = lambda g: f" -O stoneWallingStatusFile={g}.stonewall" if stonewall_s > 0 else ""
    uniq = " -u" if flag(config, "ior-easy", "uniquedir", "FALSE") else ""
    easy = (f"./ior -C -Q 1 -g -G 271 -k -e{status('ior-easy')} -t {size_text(sizes['easy_xfer'])} "
            f"-b {size_text(sizes['easy_block'])}{uniq}{fpp}")
    hard = (f"./ior -C -Q 1 -g -G 27 -k -e{status('ior-hard')} -t {HARD_XFER} -b {HARD_XFER} "
            f"-s {sizes['hard_segments']}")
    wear = f" -D {int(stonewall_s)} -O stoneWallingWearOut=1" if stonewall_s > 0 else ""
    md_easy = f"./mdtest -n {sizes['easy_n']} -u -L -F -P -N 1 -x mdtest-easy.stonewall"
    md_hard = (f"./mdtest -n {sizes['hard_n']} -t -w {MDTEST_HARD_BYTES} -e {MDTEST_HARD_BYTES} -P -N 1 -F "
               "-x mdtest-hard.stonewall")
    md_wall = f" -Y -W {int(stonewall_s)}" if stonewall_s > 0 else " -Y"
    return {"ior-easy-write": easy + f" -w{wear} -a POSIX", "ior-easy-read": easy + " -r -R -a POSIX",
            "ior-hard-write": hard + f" -w{wear} -a POSIX", "ior-hard-read": hard + " -r -R -a POSIX",
            "mdtest-easy-write": md_easy + f" -C{md_wall} -a POSIX", "mdtest-easy-stat": md_easy + " -T -a POSIX",
            "mdtest-easy-delete": md_easy + " -r -a POSIX", "mdtest-hard-write": md_hard + f" -C{md_wall} -a POSIX",
            "mdtest-hard-stat": md_hard + " -T -a POSIX", "mdtest-hard-read": md_hard + " -E -X -a POSIX",
            "mdtest-hard-delete": md_hard + " -r -a POSIX",
            "find": f"./pfind -newer timestampfile -size {MDTEST_HARD_BYTES}c -name *{FIND_NAME}*",
            # (its -s as run: IO500's 10000000, or the file's blocks when capped; rnd4k {"segments"})
            "ior-rnd4K-easy-read": f"./ior -g -G 271 -k -e{fpp} -r{wear} -z -z -a POSIX -t={RND4K_XFER} "
                                   f"-b={RND4K_XFER} -s={(rnd4k or {}).get('segments', RND4K_SEGMENTS)}" +
                                   (" -C -Q 2" if fpp else "")}


def remove_if_empty(path):
    try:
        if os.path.isdir(path) and not os.listdir(path):
            os.rmdir(path)
    except OSError:
        pass


def result_text(sim, version, ranks, sizes, config, invalid, run_invalid, out_dir, common, bw, md, find_run=None,
                stonewall_s=300.0, stonewall=None, rnd4k=None):
    """IO500's result.txt in its layout ([run], a section per phase with exe, its ERROR INVALID lines, an IOR write's
    throughput-stonewall (`stonewall` {phase: {"throughput_GiBps"}}) after IOR's own INVALID line, as IO500 prints it,
    score and t_delta, [SCORE] with the summary's scores bw and md), so that --from reads a pfsim result directory as
    it reads IO500's."""
    kv = lambda k, v: f"{k:<15} = {v}"
    lines = ["[run]", kv("procs", ranks), kv("version", f"pfsim-{version}"), kv("result-dir", out_dir),
             kv("mode", "standard"), "; simulated: pfsim " + shlex.join(common)]
    lines += [f"; ERROR INVALID {why}" for why in run_invalid]
    exes = exe_lines(sizes, config, stonewall_s, rnd4k)
    for name, _, _, src in PHASES:
        if name == "ior-hard-write":  # IO500's timestamp phase (the find's -newer file), a section of its own
            lines += ["", "[timestamp]", kv("t_delta", f"{0:.4f}")]
        if src is None or name not in sim:
            continue
        v, t = sim[name]
        lines += ["", f"[{name}]", kv("exe", exes[name])]
        why = invalid.get(name, [])
        ior_own = [w for w in why if w.startswith("Write phase needed")]  # phase_ior.c's, before its pair
        lines += [f"; ERROR INVALID {w}" for w in ior_own]
        if name in (stonewall or {}) and "throughput_GiBps" in stonewall[name]:
            lines.append(kv("throughput-stonewall", f"{stonewall[name]['throughput_GiBps']:.2f}"))
        if name in (stonewall or {}) and "rate_stonewall_kiops" in stonewall[name]:
            lines.append(kv("rate-stonewall", f"{stonewall[name]['rate_stonewall_kiops']:f}"))
        lines += [f"; ERROR INVALID {w}" for w in why if w not in ior_own]
        if name == "find" and find_run:  # IO500's [find] lines
            lines += [kv("nproc", find_run["nproc"]), kv("found", find_run["found"]),
                      kv("total-files", find_run["files"])]
        lines += [kv("score", f"{v:f}"), kv("t_delta", f"{t:.4f}")]
    mark = " [INVALID]" if invalid or run_invalid else ""
    lines += ["", "[SCORE]", kv("MD", f"{md:f}"), kv("BW", f"{bw:f}"), kv("SCORE", f"{math.sqrt(bw * md):f}{mark}")]
    return "\n".join(lines) + "\n"


# The files IO500's result directory holds for each phase (standard-results): <phase>.txt, the tool's text (IOR's or
# mdtest's stdout), and <phase>.csv, its per-rank CSV (IOR's saveRankPerformanceDetailsCSV, mdtest's
# --saveRankPerformanceDetails; find's is pfind's, which pfsim does not give: find has neither here).
PHASE_FILES = [f"{name}.{ext}" for name, _, _, _ in PHASES for ext in ("txt", "csv") if name != "find"]
NOT_WRITTEN = ["find.csv"]  # (IO500's, left out: pfind's work-stealing counts are not simulated)
# The flags IO500 gives each of its mdtest runs (result.txt's exe lines): the phase of the one pfsim run it shows.
MDTEST_PHASE_FLAGS = {"File creation": ["-C"], "File stat": ["-T"], "File read": ["-E", "-X"], "File removal": ["-r"]}
MDTEST_ROWS = ("Directory creation", "Directory stat", "Directory read", "Directory rename", "Directory removal",
               "File creation", "File stat", "File read", "File removal", "Tree creation", "Tree removal")


def mdtest_date(t_s):
    """The simulated clock as mdtest prints a date (pfsim's mdtest_date: 1970-01-01 00:00:00 UTC on)."""
    return time.strftime("%m/%d/%Y %H:%M:%S", time.gmtime(math.floor(max(0.0, t_s))))


def ior_phase_text(stdout, name):
    """IOR's text as IO500's <phase>.txt holds it: IO500 runs IOR as a library, which prints no 'Summary of all
    tests' nor 'Finished' (standard-results' ior-*.txt end at the Results lines): pfsim ior's text up to them."""
    if "\nResults: \n" not in stdout:
        fail(PROG, f"pfsim ior's text for {name} has no 'Results:' section (expected IOR's output)")
    cut = stdout.find("\nSummary of all tests:\n")
    return stdout if cut < 0 else stdout[:cut]  # (up to the blank line before it: the text ends with the line above)


def mdtest_phase_text(stdout, run, phase, what, parts):
    """IO500's <phase>.txt of an mdtest phase from the group's one pfsim run (its text with -P): that phase's parts
    (`what` and its tree's creation or removal, MDTEST_RUN_PHASES) as mdtest prints the rows of the phases it ran,
    every other row 0.000 as mdtest prints a phase that did not run; the command line the run's with the phase's own
    flags (IO500's -C, -T, -E -X, -r) and its CSV's name; the stonewall line in the create's alone; started and
    finished at the parts' simulated start and end. `parts`: the run's JSON phases {name: (start_s, time_s)}."""
    keep = MDTEST_RUN_PHASES[what]
    lines = stdout.split("\n")
    csv_arg = f"'--saveRankPerformanceDetails={run}.csv'"
    flags = " ".join(f"'{f}'" for f in MDTEST_PHASE_FLAGS[what] + [f"--saveRankPerformanceDetails={phase}.csv"])
    # (the CSV's name where the run has it: before its '-a' 'POSIX', as IO500's command lines)
    at = [k for k, l in enumerate(lines) if l.startswith("Command line used: ") and
          (l + " ").count(" " + csv_arg + " ") == 1]
    if not at or not lines[0].startswith("-- started at ") or not any(l.startswith("-- finished at ") for l in lines):
        fail(PROG, f"pfsim mdtest's text for {run} is not mdtest's (expected '-- started at', 'Command line used: ... "
                   f"{csv_arg}' and '-- finished at' lines)")
    lines[at[0]] = (lines[at[0]] + " ").replace(" " + csv_arg + " ", " " + flags + " ")[:-1]
    start = min(parts[p][0] for p in keep if p in parts)
    end = max(parts[p][0] + parts[p][1] for p in keep if p in parts)
    out, table, skip_blank = [], False, False
    for line in lines:
        if skip_blank:  # (the stonewall line's blank line, dropped with it)
            skip_blank = False
            if line == "":
                continue
        if line.startswith("-- started at "):
            line = f"-- started at {mdtest_date(start)} --"
        elif line.startswith("-- finished at "):
            line = f"-- finished at {mdtest_date(end)} --"
        elif line.startswith("Continue stonewall hit ") and what != "File creation":
            skip_blank = True
            continue
        elif line.startswith("   ---------"):
            table = True
        elif table and line.startswith("   ") and line[3:25].rstrip() in MDTEST_ROWS:
            row = line[3:25].rstrip()
            if row not in keep:
                line = f"   {row:<22s} {0:14.3f} {0:14.3f} {0:14.3f} {0:14.3f}"
        else:
            table = False
        out.append(line)
    return "\n".join(out)


def mdtest_phase_csv(text, run, what):
    """IO500's <phase>.csv of an mdtest phase from the group's one run's per-rank CSV: its header, the "all" row's
    items and every row's columns of that phase's parts (MDTEST_RUN_PHASES), the other columns empty, as mdtest
    leaves a test it did not run."""
    keep = MDTEST_RUN_PHASES[what]
    lines = text.splitlines()
    header = lines[0].split(",") if lines else []
    if header[:2] != ["rank", "items"] or len(lines) < 2:
        fail(PROG, f"pfsim mdtest's per-rank CSV for {run} is not mdtest's (expected a 'rank,items,...' header and "
                   "rows)")
    cols = [h.split("-", 1)[-1] for h in header]
    rows = [",".join(v if k < 2 or (k < len(cols) and cols[k] in keep) else "" for k, v in enumerate(line.split(",")))
            for line in lines[1:]]
    return "\n".join([lines[0]] + rows) + "\n"


def phase_files(sim, off, notes, out_dir):
    """IO500's per-phase files of the phases that ran, [(path, text)] in IO500's order (PHASE_FILES): an IOR phase's
    from its own pfsim run, an mdtest phase's from its group's one run (mdtest_phase_text, mdtest_phase_csv)."""
    files = []
    tool_out, runs = notes["tool_out"], notes["runs"]
    for name, _, _, src in PHASES:
        if name == "find" or name not in sim or name in off:
            continue
        run = name if name.startswith("ior") else src[0]
        if run not in tool_out:
            continue
        stdout, rank_csv = tool_out[run]
        if name.startswith("ior"):
            txt, csv = ior_phase_text(stdout, name), rank_csv
        else:
            parts = {p["name"]: (float(p["start_s"]), float(p["time_s"])) for p in runs[run][2]["phases"]}
            txt = mdtest_phase_text(stdout, run, name, src[1], parts)
            csv = mdtest_phase_csv(rank_csv, run, src[1])
        files += [(os.path.join(out_dir, f"{name}.txt"), txt), (os.path.join(out_dir, f"{name}.csv"), csv)]
    return files


def main():
    ap = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("config", nargs="?", help="IO500 config.ini (C version)")
    ap.add_argument("--platform", required=True, help="platform JSON")
    ap.add_argument("--ranks", type=positive_int, help="tasks (IO500's mpirun -np); with --from, its procs")
    ap.add_argument("--ranks-per-node", type=positive_int, help="tasks per client node (default: the platform's)")
    ap.add_argument("--from", dest="from_dir", help="an IO500 result directory to rerun and compare with")
    ap.add_argument("--out-dir", help="write IO500's result directory there: result_summary.txt, result.txt, "
                                      "config.ini and each phase's <phase>.txt and <phase>.csv")
    ap.add_argument("--json", help="write the phases, scores and comparison as JSON")
    ap.add_argument("--set", action="append", default=[], help="platform override PATH=VALUE (repeatable)")
    ap.add_argument("--seed", type=pfsim_seed, default=1,
                    help="pfsim's random seed, 0 to 2^63 - 1 as pfsim takes it (default 1)")
    ap.add_argument("--jobs", type=positive_int, default=2, help="pfsim runs at once (default 2)")
    ap.add_argument("--cap-files", type=positive_int, default=None,
                    help="mdtest files per task when the config gives none (default 2000)")
    ap.add_argument("--cap-block", default=None,
                    help="ior-easy block per task when the config gives none (default 256m; rounded down to whole "
                         "transfers, at least one)")
    ap.add_argument("--cap-segments", type=positive_int, default=None,
                    help="ior-hard segments when the config gives none (default 2000)")
    ap.add_argument("--cap-all", action="store_true", help="cap the sizes the config gives too")
    ap.add_argument("--no-caps", action="store_true",
                    help="a size the config does not give is IO500's default, uncapped, as IO500 runs it: the "
                         "stonewall ends the write phases (stonewall-time seconds of simulated writing each, and the "
                         "reads of what they wrote: minutes to hours of wall time at 300 s, by the rates and the "
                         "tasks); needs stonewall-time above 0; not with --cap-*")
    ap.add_argument("--build", default=os.environ.get("PFSIM_BUILD") or os.path.join(ROOT, "build"),
                    help="directory holding pfsim (default $PFSIM_BUILD or build/)")
    a = ap.parse_args()
    given_caps = [f"--cap-{k}" for k in ("files", "block", "segments") if getattr(a, f"cap_{k}") is not None]
    if a.no_caps and (given_caps or a.cap_all):
        fail(PROG, f"--no-caps and {' '.join(given_caps + (['--cap-all'] if a.cap_all else []))}: give one "
                   "(--no-caps leaves IO500's defaults uncapped; --cap-* caps them, --cap-all the config's sizes too)")
    a.cap_files = 2000 if a.cap_files is None else a.cap_files
    a.cap_block = "256m" if a.cap_block is None else a.cap_block
    a.cap_segments = 2000 if a.cap_segments is None else a.cap_segments
    pfsim = os.path.join(a.build, "pfsim")
    if not is_executable_file(pfsim):
        fail(PROG, f"--build {a.build}: no executable pfsim in it (build first: scripts/build)")
    if os.path.isdir(a.platform):
        fail(PROG, f"--platform {a.platform}: a directory, expected a platform JSON file")
    if not os.path.isfile(a.platform):
        fail(PROG, f"--platform {a.platform}: no such file")
    cap_block = parse_size(a.cap_block, "--cap-block")
    if cap_block <= 0:
        fail(PROG, f"--cap-block: expected a positive size, got '{a.cap_block}'")
    caps = {"files": a.cap_files, "block": cap_block, "segments": a.cap_segments}
    if a.config and a.from_dir:
        fail(PROG, "give a config.ini or --from RESULT_DIR, not both (the result directory holds its config)")
    result = read_result_dir(a.from_dir) if a.from_dir else None
    if a.config:
        config, ignored = read_config(a.config)
        cfg_path = a.config
    else:
        config, ignored, cfg_path = ((result["config"], result["ignored"], result["config_path"]) if result
                                     else ({}, [], None))
    ranks = a.ranks or (result["procs"] if result else None)
    if not ranks:
        fail(PROG, "--ranks: required (IO500's task count), unless --from gives it")
    inputs = [("the platform", a.platform)] + ([("the config", a.config)] if a.config else [])
    inputs += result["inputs"] if result else []
    out_summary = os.path.join(a.out_dir, "result_summary.txt") if a.out_dir else None
    if a.out_dir and os.path.exists(a.out_dir) and not os.path.isdir(a.out_dir):
        fail(PROG, f"--out-dir {a.out_dir}: exists and is not a directory")
    if a.out_dir and not os.path.exists(a.out_dir):  # created, as IO500 creates its resultdir
        # the directories this run creates, deepest first: a run that fails after this leaves none of them behind,
        # empty (helper-88; helper-109: the parents it created stayed)
        created, d = [], os.path.abspath(a.out_dir)
        while not os.path.exists(d):
            created.append(d)
            d = os.path.dirname(d)
        try:
            os.makedirs(a.out_dir)
        except OSError as e:
            fail(PROG, f"--out-dir {a.out_dir}: cannot create it: {e.strerror}")
        for d in reversed(created):  # atexit runs the last registered first: the deepest
            atexit.register(remove_if_empty, d)
    # --out-dir holds IO500's result_summary.txt, result.txt and config.ini: the config it ran (read now), or without
    # one the sizes it ran; not rewritten when that config is the directory's own config.ini. Always written, so that
    # an earlier run's config.ini never stays beside this run's results (--from would read it).
    out_files = []
    cfg_text = read_text(cfg_path, "an IO500 config.ini") if cfg_path else None
    if a.out_dir:
        out_files = [out_summary, os.path.join(a.out_dir, "result.txt")]
        out_cfg = os.path.join(a.out_dir, "config.ini")
        if not (cfg_path and os.path.exists(out_cfg) and os.path.samefile(cfg_path, out_cfg)):
            out_files.append(out_cfg)
    # (and the phases' files, PHASE_FILES, of the phases that will run: none may replace an input either)
    phase_paths = [os.path.join(a.out_dir, f) for f in PHASE_FILES] if a.out_dir else []
    for opt, path in [("--out-dir", f) for f in out_files + phase_paths] + [("--json", a.json)]:
        if path:
            check_output(PROG, opt, path, inputs)
    nproc = config.get("find", {}).get("nproc", "")
    if flag(config, "find", "run", "TRUE") and nproc != "" and \
            parse_count(nproc, f"{config_line(config, cfg_path, 'find', 'nproc')}: [find] nproc") < 1:
        fail(PROG, f"{config_line(config, cfg_path, 'find', 'nproc')}: [find] nproc: expected at least 1 process, "
                   f"got {nproc}")
    stonewall = config.get("debug", {}).get("stonewall-time", "300")
    stonewall_s = as_float(stonewall)
    if not math.isfinite(stonewall_s) or stonewall_s < 0 or stonewall_s > 1e9:
        fail(PROG, f"{config_line(config, cfg_path, 'debug', 'stonewall-time')}: [debug] stonewall-time: expected "
                   f"seconds, 0 to 1000000000 (pfsim's range of IOR's -D and mdtest's -W), got '{stonewall}'")
    if a.no_caps:
        if stonewall_s <= 0:
            fail(PROG, f"--no-caps with stonewall-time {stonewall}: IO500's default sizes end only by the stonewall "
                       f"(a 9920000m block, 1,000,000 files per task); give stonewall-time above 0 or the sizes")
        caps = {"files": None, "block": None, "segments": None}
    sizes, notes = sizes_from(config, cfg_path, result["exes"] if result else {}, result["path"] if result else "",
                              caps, a.cap_all, a.cap_block, stonewall_s)
    for n in notes:
        print(f"{PROG}: note: {n}", file=sys.stderr)
    for n in ignored:
        print(f"{PROG}: note: {cfg_path}: {n}: not modelled, ignored", file=sys.stderr)
    common = ["--platform", a.platform, "--ranks", str(ranks), "--seed", str(a.seed)]
    rpn = a.ranks_per_node
    if not rpn and result and result.get("ranks_per_node"):  # a pfsim result directory: the placement it ran
        rpn = result["ranks_per_node"]
        print(f"{PROG}: note: {result['path']} was simulated with --ranks-per-node {rpn}: rerun so (give "
              "--ranks-per-node to run another)", file=sys.stderr)
    if rpn:
        common += ["--ranks-per-node", str(rpn)]
    sets = a.set
    if result and result.get("sets"):  # a pfsim result directory's --set: rerun with them unless others are given
        if a.set:
            print(f"{PROG}: note: {result['path']} was simulated with --set {' '.join(result['sets'])}; this run uses "
                  f"the --set given instead", file=sys.stderr)
        else:
            sets = result["sets"]
            print(f"{PROG}: note: {result['path']} was simulated with --set {' '.join(sets)}: rerun so",
                  file=sys.stderr)
    for x in sets:
        common += ["--set", x]
    # a result directory's rnd4K command line: its -s as it ran (IO500's 10000000), not capped
    rnd_exe = (result or {}).get("exes", {}).get("ior-rnd4K-easy-read")
    rnd4k_given = (parse_count(option_after(rnd_exe[0], "-s", result["path"], rnd_exe[1], "ior-rnd4K-easy-read"),
                               f"{result['path']}:{rnd_exe[1]}: -s") if rnd_exe else None)
    if rnd4k_given is not None and rnd4k_given <= 0:
        fail(PROG, f"{result['path']}:{rnd_exe[1]}: ior-rnd4K-easy-read: -s: expected a positive count, got {rnd4k_given}")
    sim, skipped, run_notes = simulate(pfsim, common, sizes, a.jobs, config, stonewall_s, not a.no_caps, rnd4k_given,
                                       tool_out=bool(a.out_dir))
    # A phase whose run = FALSE (its own or its group's) is one IO500 prints anyway: its run() prints the command line
    # and returns a score of 0 without running (phase_*.c: "if(opt.dry_run || d.run == 0) return 0"), which main.c marks
    # INVALID ("Resulting score shouldn't be 0.0", or a write phase's runtime below the stonewall) and calc_score
    # leaves out of the group's mean. (Before 2026-11-27 pfsim printed it "not run" and kept the run valid: helper-132.)
    off = phase_runs(config)
    for name, _, _, src in PHASES:
        if src is not None and name in off and name not in sim:
            sim[name] = (0.0, 0.0)
            run_notes["why"].pop(name, None)
    v = subprocess.run([pfsim, "version"], capture_output=True, text=True)
    version = v.stdout.split()[-1] if v.returncode == 0 and v.stdout.split() else "unknown"
    minwrite_s = 30.0 if flag(config, "global", "scc", "FALSE") else 300.0
    invalid, run_invalid = validity(sim, stonewall_s, minwrite_s, run_notes["stonewall"])
    if invalid or run_invalid:
        why = run_invalid + ([f"{', '.join(invalid)} ran less than stonewall-time {stonewall_s:g} s or the minimum "
                              f"write runtime {minwrite_s:g} s, or scored 0"] if invalid else [])
        print(f"{PROG}: note: [INVALID] where IO500 would mark it: " + "; ".join(why), file=sys.stderr)
    text, bw, md = summary_text(sim, version, invalid, run_invalid, run_notes["why"])
    sys.stdout.write(text)
    n_md = sum(1 for n, _, g, _ in PHASES if g == "md" and sim.get(n, (0, 0))[0] > 0)
    options, filled = effective_config(config)
    ran = pfsim_record(run_notes["runs"], pfsim)
    report = {"tasks": ranks, "sizes": sizes, "made": run_notes["made"], "notes": notes, "not_modelled": ignored, "skipped": skipped,
              "platform": a.platform, "sets": sets, "rnd4k": run_notes["rnd4k"],
              # the effective configuration: what reruns this run, and the platform pfsim simulated
              "config": {"seed": a.seed, "ranks": ranks,
                         "ranks_per_node": next(iter(ran["runs"].values()))["ranks_per_node"] if ran["runs"] else rpn,
                         "sets": sets, "caps": dict(caps, all=a.cap_all, none=a.no_caps),
                         "io500": {"file": cfg_path, "options": options, "defaults": filled}},
              "pfsim": ran,
              "stonewall_s": stonewall_s,
              "phases": {n: dict({"score": sim[n][0], "unit": u, "time_s": sim[n][1], "valid": n not in invalid,
                                  "invalid_because": invalid.get(n, [])},
                                 **({"bytes": run_notes["bytes"][n]} if n in run_notes["bytes"] else {}),
                                 **({"stonewall": run_notes["stonewall"][n]} if n in run_notes["stonewall"] else {}))
                         for n, u, _, _ in PHASES if n in sim},
              "score": {"bandwidth_GiBps": bw, "iops_kiops": md, "iops_phases": n_md, "total": math.sqrt(bw * md),
                        "valid": not (invalid or run_invalid),
                        "invalid_because": run_invalid + [f"{n}: {w}" for n, ws in invalid.items() for w in ws]}}
    if result:
        meas = result["measured"]
        same = ranks == result["procs"]
        rows = []
        print(f"\ncompared with {result['path']} ({result['procs']} tasks" +
              ("" if same else f"; simulated at {ranks} tasks: no error column, the runs differ") + "):")
        print(f"{'phase':<20} {'measured':>12} {'simulated':>12} {'error':>8}")
        for name, unit, _, _ in PHASES:
            if name not in sim or name not in meas:
                continue
            sv = sim[name][0]
            err = sv / meas[name] - 1 if same and meas[name] > 0 else None
            rows.append({"phase": name, "unit": unit, "measured": meas[name], "simulated": sv, "rel_error": err})
            shown = f"{100 * err:+7.1f}%" if err is not None else "      -"
            print(f"{name:<20} {meas[name]:>12.6f} {sv:>12.6f} {shown}  {unit}")
        both = [r["phase"] for r in rows]
        groups = {}
        for g in ("bw", "md"):
            ph = [n for n, _, gg, _ in PHASES if gg == g and n in both]
            groups[g] = (ph, geo([meas[n] for n in ph]), geo([sim[n][0] for n in ph]))
        for g, label, unit in (("bw", "bandwidth score", "GiB/s"), ("md", "IOPS score", "kIOPS")):
            ph, m_, s_ = groups[g]
            print(f"{label + f' ({len(ph)})':<20} {m_:>12.6f} {s_:>12.6f}   {unit}, both over the {len(ph)} phases "
                  "measured and simulated")
        report["compared_with"] = {"result_dir": a.from_dir, "procs": result["procs"], "same_tasks": same,
                                   "phases": rows,
                                   "scores_over_common_phases": {g: {"phases": ph, "measured": m_, "simulated": s_}
                                                                 for g, (ph, m_, s_) in groups.items()}}
    if out_summary:  # the three together: renamed into place once all are written
        files = [(out_summary, text),
                 (out_files[1], result_text(sim, version, ranks, sizes, config, invalid, run_invalid, a.out_dir,
                                            common, bw, md, run_notes["find"], stonewall_s, run_notes["stonewall"],
                                            run_notes["rnd4k"]))]
        if len(out_files) > 2:  # the config it ran, as IO500 keeps it beside its results (--from reads it back)
            ran_cfg = cfg_text if cfg_text is not None else sizes_config(sizes, not a.no_caps, config,
                                                                         result["path"] if result else None)
            files.append((out_files[2], ran_cfg))
        files += phase_files(sim, off, run_notes, a.out_dir)
        write_atomic_all(files)
        # IO500's per-phase files this run did not write (a phase not run; find.csv): an earlier run's, left as they
        # are (never removed: find.csv may be the user's own), and said
        written = {os.path.basename(path) for path, _ in files}
        stale = [f + (" (pfsim gives none)" if f in NOT_WRITTEN else " (its phase did not run)")
                 for f in NOT_WRITTEN + PHASE_FILES if f not in written and os.path.isfile(os.path.join(a.out_dir, f))]
        if stale:
            print(f"{PROG}: note: --out-dir {a.out_dir}: {', '.join(stale)} not written by this run, left as they were "
                  "(an earlier run's, not this run's)", file=sys.stderr)
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
