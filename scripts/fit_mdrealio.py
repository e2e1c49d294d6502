#!/usr/bin/env python3
"""Derive a pfsim platform (service demands, client overheads, OST read time) from ONE recorded md-real-io run.

Input: a trace directory in any format pfsim replays: md-real-io 2017 per-rank files, md-workbench -L (rank 0)
or --latency-all files (split into ranks of equal row counts), mdtest --savePerOpDataCSV files (File creation /
stat / read / removal taken as precreate / stat / read / cleanup; mdtest without -N reads each rank's own files,
which a Lustre client's page cache serves, so such a trace's reads hold no OST read: record it with -N 1, or use an
md-real-io / md-workbench trace, whose reads are of other ranks' objects). The fit reads exactly the traces pfsim replays:
it first runs `pfsim replay TRACE --check --allow-missing` (pfsim's importer with every check a replay makes; the
binary: --pfsim, else $PFSIM, else build/pfsim), passes its warnings on, and stops at its error; then reads the
files with the same format checks (header names time and runtime in any order, every line ended, no empty line,
decimal numbers >= 0). Files named like the trace's are never opened unless they are regular files (a FIFO would
block). Malformed input: one error line naming the file and line, exit status 2, nothing written. The platform
JSON goes to --out (checked before the fit; never a file of the trace) or, without it, alone to stdout; the
summary goes to stderr.

Method (documented in validation/mistral/README.md):
  1. Read every rank's latency files; pool each md-real-io operation kind (stat, read, create, delete) over the
     phases where it occurs (create: precreate + benchmark; delete: benchmark + cleanup).
  2. The unloaded latency of a kind is a LOW quantile q_floor (default 1 %) of its recorded latencies: in a
     queue that is not saturated, that many requests find a free server, so the quantile is service + fixed
     costs without queueing (stalls and slow OSTs only add to the upper part of the distribution).
  3. Split it into the model's parts. Fixed per RPC: client rpc_overhead (ASSUMPTION 20 us, ptlrpc pack/unpack)
     and the network round trip (FDR links, ~2 us). Then
        stat   = 1 MDS getattr                          -> service.stat  = floor(stat)  - fixed
        open, close of an existing file cost one getattr-class MDS request each (ASSUMPTION: same as stat)
        delete = 1 MDS unlink                           -> service.unlink = floor(delete) - fixed
        create = open(O_CREAT) + write + close          -> service.create = floor(create) - close - write - 3 fixed
           (write: what the write RPC takes beyond its fixed cost, the object over the link and into the OSS
            write-back cache at 1 GB/s, an ASSUMPTION; ~4.5 us for 3,900 B)
        read   = open + read (one OST RPC) + close      -> OST read time  = floor(read) - open - close - 3 fixed
     The OST read time is one random small read on the ClusterStor NL-SAS OSTs: the OST's positioning time per
     transfer, disk_read_latency = read time - object size / disk_read, with disk_read the OST's streaming bandwidth
     (ASSUMPTION 1 GB/s: only bulk reads depend on it; until 2026-11-26 the whole read time went into disk_read =
     object size / read time, 9.3 MB/s, which made a bulk read on the fitted platform ~100 x too slow).
  4. What the model does not have (stalls of the production file system, slow OSTs, per-rank slowness) stays in
     the trace: `pfsim replay --residual-quantile q` replays, for each operation, its recorded excess over the
     q-quantile of its kind as a client-side delay. Use the same q here and there (default 0.01).
  5. Load law (clients.load_delay, a population-dependent delay center): the recorded excess of an operation is
     not constant; it grows with the number of ranks loading the file system. The trace holds its own load
     variation: at the end of every phase ranks finish one after the other, so operations were recorded with
     every number n of active ranks (ranks that had not finished the phase) from N down to 1. For each law
     (create <- precreate, unlink <- cleanup, stat <- benchmark stat, read <- benchmark read: the OST read step carries it, and a read the client's page cache serves has none) the operations are
     binned by n (N/10 ranks per bin), the mean excess over the phase's q-floor is taken per bin (each
     operation's excess divided by its rank's mean excess and multiplied by the overall mean: the ranks left late
     in a phase are the slow ones, and without this the bins would compare ranks, not load), and a line
     mean(n) = base + per_active_rank * n is fitted by Theil-Sen (median of the pairwise slopes: one stalled
     bin, e.g. a journal commit in a phase tail, does not tilt it); negative slopes are set to 0. "shape" keeps
     the distribution: 64 equally probable quantiles of excess / (mean(n) x rank factor), rescaled to mean 1;
     "rank_factors" keep the per-rank slowness (each recorded rank's mean excess / the overall mean), which sets
     how long the slowest rank takes and so the phase rate.
     Replay scales each recorded excess by mean(n_sim) / mean(n_recorded); synthetic runs (mdtest) draw it.
     Each law keeps "fitted_up_to" (the largest n of its bins) and the read law "fitted_size" (the object size):
     pfsim warns when a run goes past twice that population, or reads under the law outside half to twice that size.
  5b. --population md_ops_in_flight (the create, unlink and stat laws; the read's law keeps step 5): the population
     is the number of metadata operations (stat, create, delete: not reads) that other ranks had in flight when
     the operation started, counted over the operations that share its clock (a benchmark iteration's four
     kinds, or precreate, or cleanup) with each rank's clock rebuilt as pfsim replay rebuilds it. Every phase of
     the operation is used, not only the tails (create <- precreate + benchmark creates, unlink <- cleanup +
     benchmark deletes): excess over each (iteration, kind)'s q-floor, rank-normalised within each kind, binned
     by the population, Theil-Sen as in step 5. The benchmark runs its creates and deletes with ~10 metadata
     operations in flight at 50 ranks and precreate/cleanup with ~45, which spans the line.
  6. Rank placement (clients.placement): the placement under which some phase's operations were serialised per
     client node, as scripts/trace_node_serialization.py finds it (--ranks-per-node); block when none is.
The MDS core count is not in the trace; it is an ASSUMPTION stated in the output's "sources", checked against the
utilization law with the run's mdtest stat rate when mdtest.txt is present.
The object size comes from the headers (mdreal.txt's or stdout.txt's object-size=, md-workbench's Args -S), or from
an mdtest trace's tp column (tp x runtime), or --object-size; else md-workbench's default 3901 B, with a warning.
Precondition of step 2: the q-floors are unloaded latencies. A run whose ranks per node exceed the client's RPC
slots (max_rpcs_in_flight 8, max_mod_rpcs_in_flight 7) while every rank is in an RPC (closed loop, no think time,
no excess) waits for slots even at its fastest, and the demands come out too high (16 ranks on one pfsim node:
x2.1); the fit cannot see this in the latencies, so record the run with few ranks per node, or check the fitted
platform by replaying the trace (it must reproduce the recorded rates).

usage: fit_mdrealio.py TRACE_DIR [--out platforms/mistral-lustre02.json] [--quantile 0.01] [--name NAME]
                       [--mds-cores 24] [--rpc-overhead-us 20] [--net-latency-us 0.7] [--ranks-per-node 10]
                       [--population active_ranks|md_ops_in_flight] [--object-size B] [--pfsim build/pfsim]
A --name not starting with "mistral" marks the Mistral hardware facts in "sources" as assumptions to edit.
"""
import argparse
import glob
import json
import math
import os
import re
import stat
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from cli_common import (Parser, _float_where, is_executable_file, non_negative_float, output_problem,  # noqa
                        positive_int, write_atomic)

MAX_SECONDS = 1e9  # a time or latency beyond this (31 years) is a malformed value, not a measurement

RPC_OVERHEAD_S = 20e-6    # ASSUMPTION: client ptlrpc processing per RPC (pfsim clients.rpc_overhead)
NET_LATENCY_S = 0.7e-6    # FDR InfiniBand switch + link latency, one way (Mellanox FDR ~0.7 us)
REQUEST_B, REPLY_B = 512, 1024
WRITE_BPS = 1e9  # ASSUMPTION: ClusterStor controller write-back cache absorbs 3.9 KB writes (disk_write)
READ_BPS = 1e9   # ASSUMPTION: an OST's streaming read bandwidth (disk_read); the small reads' time is the latency
CLIENT_RAM_MB = 65536  # ASSUMPTION: Mistral's standard compute node, 64 GB; Lustre 2.x caches up to half of it
FDR_BPS = 56e9 * 64 / 66 / 8  # FDR 4x: 56 Gbit/s signalling, 64b/66b encoding -> 6.79 GB/s


KINDS = "precreate|stat|read|create|delete|cleanup"
PAT_MDREAL = re.compile(r"^(.+)-(\d+)-(" + KINDS + r")-(\d+)\.csv$")          # md-real-io 2017, per rank
PAT_ALL = re.compile(r"^(.+)-([0-9.]+)-(\d+)-(" + KINDS + r")-all\.csv$")      # md-workbench --latency-all
PAT_RANK0 = re.compile(r"^(.+)-([0-9.]+)-(\d+)-(" + KINDS + r")\.csv$")        # md-workbench -L (rank 0)
PAT_MDTEST = re.compile(r"^(.+)-(File creation|File stat|File read|File removal)-(\d+)\.csv$")
# mdtest phases as md-real-io phases: each its own iteration, so that a phase's ranks end within it.
MDTEST_PHASES = {"File creation": (0, "precreate"), "File stat": (1, "stat"), "File read": (2, "read"),
                 "File removal": (3, "cleanup")}


def low_quantile(s):
    """--quantile: the floor is a low quantile (method step 2); above the median it is no unloaded latency."""
    return _float_where(s, lambda v: 0.0 <= v <= 0.5, "a low quantile between 0 and 0.5 (the floor is an unloaded "
                                                      "latency; method step 2)")


PROG = "fit_mdrealio"  # the prefix of die()'s messages; a script reusing read_trace sets its own name


def die(msg):
    print(f"{PROG}: {msg}", file=sys.stderr)
    sys.exit(2)


def kind_of(mode):
    """What a file that is not a regular one is, from its stat mode, for the messages."""
    return "a directory" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a device or socket"


def read_regular(path, what="a latency file (time,runtime CSV)"):
    """The text of `path`, which must be a regular file: a FIFO, device or directory is never opened for reading
    (a FIFO would block the fit forever). Exit status 2 naming the file otherwise."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO opens without waiting for a writer
    except OSError as e:
        die(f"{path}: {e.strerror or e}, expected {what}")
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            die(f"{path}: not a regular file ({kind_of(st.st_mode)}), expected {what}")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as fh:
            fd = None
            data = fh.read()
    except OSError as e:
        die(f"{path}: {e.strerror or e}")
    finally:
        if fd is not None:
            os.close(fd)
    return data.decode("utf-8", errors="replace")


# A number as the tools print it and pfsim's importer takes it: [+-]digits[.digits][e[+-]digits] (no white space,
# no hexadecimal, inf or nan).
DECIMAL = r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?"
IS_DECIMAL = re.compile(DECIMAL + r"\Z")


def parse_latency_csv(f, want_tp=False):
    """Rows (time, runtime) of one latency file, by the header's column names, with the checks of pfsim's importer
    (read_latency_csv): an optional UTF-8 byte order mark, a header naming the columns time and runtime (any order,
    other columns such as mdtest's tp allowed), every line ended by a newline, no empty line, as many columns on
    every line as in the header, decimal numbers, 0 <= time, runtime <= 1e9 s. Exit status 2 naming the file and
    line otherwise. With want_tp also the tp column (None without one; a value that is no number is NaN)."""
    text = read_regular(f).replace("\r", "")  # pfsim drops every carriage return
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text:
        die(f"{f}: line 1: empty file; expected the header 'time,runtime'")
    nl = text.find("\n")
    head = (text if nl < 0 else text[:nl]).split(",")
    cols = {name: i for i, name in enumerate(head)}
    if "time" not in cols or "runtime" not in cols:
        die(f"{f}: line 1: missing column '{'time' if 'time' not in cols else 'runtime'}' (header is "
            f"'{','.join(head)[:60]}', expected time,runtime)")
    if nl < 0:
        die(f"{f}: line 1: truncated file: the header line has no end of line")
    t_col, r_col, ncols = cols["time"], cols["runtime"], len(head)
    body = text[nl + 1:]
    if not body:
        return (np.zeros((0, 2)), None) if want_tp else np.zeros((0, 2))
    field = [DECIMAL if i in (t_col, r_col) else "[^,\n]*" for i in range(ncols)]
    if not (body.endswith("\n") and re.fullmatch("(?:" + ",".join(field) + "\n)*", body)):
        bad_line(f, body.split("\n"), t_col, r_col, ncols)
    lines = body[:-1].split("\n")
    if ncols == 2:
        v = np.array(body[:-1].replace("\n", ",").split(","), dtype=float).reshape(-1, 2)[:, [t_col, r_col]]
    else:
        cells = [line.split(",") for line in lines]
        v = np.array([[c[t_col], c[r_col]] for c in cells], dtype=float).reshape(-1, 2)
    bad = ~(v <= MAX_SECONDS).all(axis=1) | (v < 0).any(axis=1)
    if bad.any():
        i = int(np.argmax(bad))
        t, r = v[i]
        if t < 0 or r < 0:
            die(f"{f}: line {i + 2}: negative time or runtime, expected seconds >= 0")
        name = "time" if t > MAX_SECONDS else "runtime"
        die(f"{f}: line {i + 2}: {name}: {lines[i].split(',')[cols[name]][:40]} s is out of range (expected at most "
            f"{MAX_SECONDS:g} s)")
    if not want_tp:
        return v
    if "tp" not in cols:
        return v, None
    tp = np.array([_float_or_nan(line.split(",")[cols["tp"]]) for line in lines])
    return v, tp


def _float_or_nan(x):
    try:
        return float(x)
    except ValueError:
        return float("nan")


def bad_line(f, lines, t_col, r_col, ncols):
    """Exits (status 2) at the first line of a latency file's body that breaks the format, naming it."""
    for n, line in enumerate(lines, start=2):
        if n - 2 == len(lines) - 1:
            if line:
                die(f"{f}: line {n}: truncated file: the last line has no end of line")
            break
        if not line:
            die(f"{f}: line {n}: empty line (expected time,runtime values)")
        fields = line.split(",")
        if len(fields) != ncols:
            die(f"{f}: line {n}: expected {ncols} columns as in the header (time,runtime), got {len(fields)} "
                f"('{line[:60]}')")
        for col, name in ((t_col, "time"), (r_col, "runtime")):
            if not IS_DECIMAL.match(fields[col]):
                die(f"{f}: line {n}: {name}: expected a decimal number such as 0.0012 or 1.2e-03, got "
                    f"'{fields[col][:40]}'")
    die(f"{f}: malformed latency file, expected time,runtime rows")  # not reached


def check_rank_groups(trace_dir, groups):
    """Per-rank formats: every (iteration, phase) must hold the files of ranks 0..N-1, N the most ranks any of
    them has (as pfsim replay requires); a whole missing phase is allowed (pfsim replay --allow-missing)."""
    n = 0
    for key, (ranks, name) in sorted(groups.items()):
        rs = sorted(ranks)
        for i, r in enumerate(rs):
            if r != i:
                die(f"{os.path.join(trace_dir, name(i))}: missing file: rank gap in {key[1]} of iteration {key[0]}: "
                    f"rank {i} is missing (found {len(rs)} ranks, highest {rs[-1]})")
        n = max(n, len(rs))
    for key, (ranks, name) in sorted(groups.items()):
        if len(ranks) < n:
            die(f"{os.path.join(trace_dir, name(len(ranks)))}: missing file: {key[1]} of iteration {key[0]} has "
                f"{len(ranks)} ranks, other phases have {n}: rank {len(ranks)} is missing")


def split_latency_all(trace_dir, files):
    """--latency-all files hold every rank's rows one rank after the other, with no rank column; every rank has
    the same number of rows in a file (I x D in a benchmark, P x D in precreate / cleanup). The rank count R is
    the smallest one that divides every file's rows and puts every place where time goes backwards (a new rank
    starts at its phase's time 0) on a rank boundary, as pfsim's importer does without a header. Returns
    {(iteration, phase): {rank: rows}}."""
    restarts = [np.where(np.diff(a[:, 0]) < 0)[0] + 1 for _, _, a in files]
    sizes = [len(a) for _, _, a in files]
    lo = max(len(c) + 1 for c in restarts)
    for r in range(lo, max(sizes) + 1):
        if all(n % r == 0 and all(c % (n // r) == 0 for c in cut) for n, cut in zip(sizes, restarts)):
            break
    else:
        die(f"{trace_dir}: the --latency-all files cannot be split into ranks of equal row counts "
            f"(rows {sorted(set(sizes))}, at least {lo} ranks from where time restarts)")
    out = {}
    for (f, key, a), n in zip(files, sizes):
        out[key] = {k: part for k, part in enumerate(np.split(a, r))}
    return out


def object_size_arg(text):
    """md-workbench's object size from its Args line ("-S=3901", "-S" "3901", "-S3901", "--object-size=4k"; IOR's
    parser reads k/m/g suffixes as powers of 1024), or None."""
    m = re.search(r'"(?:-S|--object-size)(?:=|" ")?(\d+)([kKmMgG]?)"', text)
    if not m:
        return None
    return str(int(m.group(1)) * 1024 ** " kmg".index(m.group(2).lower() or " ")), m.start()


def classify(name):
    """(format, prefix, (iteration, phase), rank or None) of a latency file's name, or None for other files."""
    m = PAT_MDREAL.match(name)
    if m:
        return "md-real-io-2017", m.group(1), (int(m.group(2)), m.group(3)), int(m.group(4))
    m = PAT_ALL.match(name)
    if m:
        return "md-workbench-all", f"{m.group(1)}-{m.group(2)}", (int(m.group(3)), m.group(4)), None
    m = PAT_RANK0.match(name)
    if m:
        return "md-workbench-rank0", f"{m.group(1)}-{m.group(2)}", (int(m.group(3)), m.group(4)), None
    m = PAT_MDTEST.match(name)
    if m:
        return "mdtest-perop", m.group(1), MDTEST_PHASES[m.group(2)], int(m.group(3))
    return None


def require_regular(path, what):
    """Exit status 2 unless `path` (followed through links) is a regular file; the file is not opened."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        die(f"{path}: {e.strerror or e}, expected {what}")
    if not stat.S_ISREG(mode):
        die(f"{path}: not a regular file ({kind_of(mode)}), expected {what}")


def scan_trace(trace_dir):
    """The trace's latency files as [(path, format, prefix, (iteration, phase), rank)], checked without opening
    any: every file named like a latency file, and every header a trace reads (mdreal.txt, <prefix>.txt,
    stdout.txt, mdtest.txt), is a regular file (a FIFO would block the reader forever); the files belong to ONE
    trace (one format and prefix, as pfsim's importer requires); no rank has two files of a phase ("-1", "-01")."""
    files = []
    for f in sorted(glob.glob(os.path.join(glob.escape(trace_dir), "*.csv"))):
        c = classify(os.path.basename(f))
        if c:
            require_regular(f, "a latency file (time,runtime CSV)")
            files.append((f,) + c)
    for name in ["mdreal.txt", "stdout.txt", "mdtest.txt"] + sorted({p + ".txt" for _, _, p, _, _ in files}):
        txt = os.path.join(trace_dir, name)
        if os.path.lexists(txt):
            require_regular(txt, "a text file (the run's header)")
    traces = sorted({(fmt, prefix) for _, fmt, prefix, _, _ in files})
    if len(traces) > 1:
        die(f"{trace_dir}: several traces in one directory: " + ", ".join(f"{p} ({fmt})" for fmt, p in traces) +
            "; expected the files of one run (move the others out)")
    seen = {}
    for f, fmt, prefix, key, rank in files:
        if rank is None:
            continue
        if (key, rank) in seen:
            die(f"{seen[(key, rank)]}: a second file for rank {rank} of this phase ({f} is one too); expected one "
                "file per rank and phase")
        seen[(key, rank)] = f
    return files


def read_trace(trace_dir):
    """Every latency file of a trace directory as {(iteration, phase): {rank: rows}} (any supported format)."""
    data = {}
    all_files = []  # --latency-all files: (path, (iteration, phase), rows), split once the rank count is known
    groups = {}  # per-rank formats: (iteration, phase) -> (ranks, file name of rank r)
    files = scan_trace(trace_dir)
    for f, fmt, prefix, key, rank in files:
        if fmt == "md-real-io-2017":
            groups.setdefault(key, (set(), lambda r, p=prefix, k=key: f"{p}-{k[0]}-{k[1]}-{r}.csv"))[0].add(rank)
        elif fmt == "md-workbench-all":
            all_files.append((f, key, parse_latency_csv(f)))
        elif fmt == "md-workbench-rank0":
            data.setdefault(key, {})[0] = parse_latency_csv(f)
        else:
            m = PAT_MDTEST.match(os.path.basename(f))
            groups.setdefault(key, (set(), lambda r, m=m: f"{m.group(1)}-{m.group(2)}-"
                                                          f"{r:0{len(m.group(3))}d}.csv"))[0].add(rank)
    if all_files:
        for key, parts in split_latency_all(trace_dir, all_files).items():
            data.setdefault(key, {}).update(parts)
    # Rank files are checked for gaps before any is read (a file named for rank 10^11 must not allocate).
    check_rank_groups(trace_dir, groups)
    for f, fmt, prefix, key, rank in files:
        if rank is not None:
            data.setdefault(key, {})[rank] = parse_latency_csv(f)
    if not data:
        die(f"{trace_dir}: no latency files (md-real-io 2017, md-workbench -L/--latency-all, mdtest per-op)")
    return data


def load(trace_dir):
    data = read_trace(trace_dir)
    pools = {"stat": [], "read": [], "create": [], "delete": []}
    ranks = set()
    for (it, phase), per_rank in data.items():
        kind = {"precreate": "create", "cleanup": "delete"}.get(phase, phase)
        for r, a in per_rank.items():
            ranks.add(r)
            pools[kind].append(a[:, 1])
    header = {}
    where = {}  # where each header value was read
    # md-real-io 2017's "\tkey=value" block: mdreal.txt (or <prefix>.txt) or its stdout saved as stdout.txt; md-workbench's
    # Args line ("-S=3901") in stdout.txt. Statements that disagree are an error, as in pfsim's importer.
    prefixes = sorted({m.group(1) for m in (PAT_MDREAL.match(os.path.basename(f))
                                             for f in glob.glob(os.path.join(trace_dir, "*.csv"))) if m})
    for name in ["mdreal.txt"] + [p + ".txt" for p in prefixes if p != "mdreal"] + ["stdout.txt"]:
        txt = os.path.join(trace_dir, name)
        if not os.path.exists(txt):
            continue
        text = read_text(txt)
        found = []
        for n, line in enumerate(text.splitlines(), start=1):
            m = re.match(r"^\s+([a-z-]+)=(\S+)", line)
            if m:
                found.append((m.group(1), m.group(2), f"{txt}: line {n}"))
        m = object_size_arg(text)
        if m:
            found.append(("object-size", m[0], f"{txt}: line {text.count(chr(10), 0, m[1]) + 1}: -S"))
        for k, v, at in found:
            if k == "object-size":
                check_size(v, f"{at}: object-size")
            if k in header and header[k] != v:
                die(f"{at}: states {k} {v}, but {where[k]} states {header[k]} (the run's headers must agree)")
            header[k], where[k] = v, at
    if "object-size" not in header:
        size = mdtest_object_size(trace_dir)
        if size is not None:
            header["object-size"], where["object-size"] = str(size[0]), size[1]
    for k, v in pools.items():
        if not v:
            die(f"{trace_dir}: no '{k}' operations: no latency file of that kind (the fit needs stat, read, create "
                "and delete operations)")
        if not sum(len(x) for x in v):
            die(f"{trace_dir}: no '{k}' operations: its latency files hold no rows (header only)")
    return {k: np.concatenate(v) for k, v in pools.items() if v}, len(ranks), header, where, data


def mdtest_object_size(trace_dir):
    """mdtest --savePerOpDataCSV: the object size from rank 0's File creation file, median of tp x runtime over its
    rows (tp = bytes / runtime; 0 with -w 0), as pfsim's importer reads it; (bytes, where) or None."""
    files = sorted(f for f in glob.glob(os.path.join(trace_dir, "*.csv"))
                   if (m := PAT_MDTEST.match(os.path.basename(f))) and m.group(2) == "File creation"
                   and int(m.group(3)) == 0)
    if not files:
        return None
    rows, tp = parse_latency_csv(files[0], want_tp=True)
    if tp is None or not len(tp):
        return None
    with np.errstate(invalid="ignore", over="ignore"):
        sizes = rows[:, 1] * tp
        sizes = sizes[np.isfinite(sizes) & (tp > 0)]
    return (int(round(float(np.median(sizes)))) if len(sizes) else 0,
            f"{files[0]}: tp x runtime (mdtest's tp = bytes / runtime)")


def read_text(path):
    return read_regular(path, "a text file")


def check_size(value, where):
    """An object size in bytes: a positive integer (exit status 2 naming file, line and field otherwise)."""
    if not re.fullmatch(r"[0-9]+", value) or int(value) <= 0 or int(value) > 2 ** 53:
        die(f"{where}: expected a positive whole number of bytes, got '{value[:40]}'")


LAW_SOURCES = (("create", "precreate", ("precreate",)), ("unlink", "cleanup", ("cleanup",)),
               ("stat", "stat", ("stat", "read", "create", "delete")),
               ("read", "read", ("stat", "read", "create", "delete")))


def theil_sen_bins(x, y, lo_first, bins=10, min_ops=20):
    """Mean of y in bins of x (bins of equal width from lo_first to max(x), at least min_ops operations each) and
    the Theil-Sen line through them (median of the pairwise slopes; negative slopes set to 0):
    (base, slope, bin xs, bin ys)."""
    n_max = int(x.max())
    width = max(1, (n_max - lo_first + 1) // bins)
    xs, ys = [], []
    for lo in range(lo_first, n_max + 1, width):
        m = (x >= lo) & (x < lo + width)
        if m.sum() >= min_ops:
            xs.append(float(x[m].mean()))
            ys.append(float(y[m].mean()))
    xs, ys = np.array(xs), np.array(ys)
    if len(xs) >= 2:
        slopes = [(ys[j] - ys[i]) / (xs[j] - xs[i]) for i in range(len(xs)) for j in range(i + 1, len(xs))
                  if xs[j] != xs[i]]
        b = max(0.0, float(np.median(slopes)))
    else:
        b = 0.0
    base = max(0.0, float(np.median(ys - b * xs))) if len(xs) else float(y.mean())
    return base, b, xs, ys


def law_entry(base, b, xs, ys, excess, pop, rid, source, shape_points=64):
    """The law as the platform keeps it: line, 64-quantile shape of excess / (mean(pop) x rank factor), and the
    per-rank factors (each recorded rank's mean excess / the overall mean, in recorded rank order)."""
    rank_sum = np.bincount(rid, weights=excess)
    rank_n = np.bincount(rid)
    ranks_sorted = sorted(set(rid.tolist()))
    factors = rank_sum[ranks_sorted] / rank_n[ranks_sorted] / max(excess.mean(), 1e-12)
    mean_n = (base + b * pop) * (rank_sum[rid] / rank_n[rid] / max(excess.mean(), 1e-12))
    ratio = np.where(mean_n > 0, excess / np.maximum(mean_n, 1e-12), 0.0)
    shape = np.quantile(ratio, (np.arange(shape_points) + 0.5) / shape_points)
    # Mean 1 (pfsim checks it): no excess at all gives no spread, a shape of ones, and factors of one.
    shape = shape / shape.mean() if shape.mean() > 0 else np.ones(shape_points)
    if not factors.sum() > 0:
        factors = np.ones(len(factors))
    return {"base_s": base, "per_rank_s": b, "shape": [round(float(v), 4) for v in shape],
            "rank_factors": [round(float(v), 4) for v in factors],
            "bins": [[round(float(x), 1), round(float(y) * 1e3, 4)] for x, y in zip(xs, ys)], "source": source}


def rank_normalised(excess, rid):
    """Each operation's excess divided by its rank's mean excess, times the overall mean: the ranks still active
    late in a phase are the slow ones (slow OSTs, slow nodes), and the bins must compare load, not ranks."""
    rank_sum = np.bincount(rid, weights=excess)
    rank_n = np.bincount(rid)
    rank_mean = rank_sum[rid] / rank_n[rid]
    return np.where(rank_mean > 0, excess * excess.mean() / np.maximum(rank_mean, 1e-12), 0.0)


def fit_laws(data, q, bins=10, shape_points=64):
    """Per law: (base_s, per_rank_s, shape, rank factors, bins) from the trace's phase tails (method step 5)."""
    laws = {}
    for op, kind, phase_kinds in LAW_SOURCES:
        lat, act, rid = [], [], []
        for (it, k), per_rank in sorted(data.items()):
            if k != kind:
                continue
            # Ranks leave the phase (iteration) at the end of their last operation of any kind in it.
            ends = {}
            for pk in phase_kinds:
                for r, a in data.get((it, pk), {}).items():
                    if len(a):
                        ends[r] = max(ends.get(r, 0.0), float(a[-1, 0] + a[-1, 1]))
            e = np.sort(np.array(list(ends.values())))
            for r, a in per_rank.items():
                if not len(a):
                    continue
                lat.append(a[:, 1])
                act.append(len(e) - np.searchsorted(e, a[:, 0], side="right"))
                rid.append(np.full(len(a), r))
        if not lat:
            continue
        lat = np.concatenate(lat)
        act = np.maximum(1, np.concatenate(act))
        excess = np.maximum(0.0, lat - np.quantile(lat, q))
        rid = np.concatenate(rid)
        base, b, xs, ys = theil_sen_bins(act, rank_normalised(excess, rid), 1, bins)
        laws[op] = law_entry(base, b, xs, ys, excess, act, rid, kind, shape_points)
    return laws


BENCH_KINDS = ("stat", "read", "create", "delete")  # the files of one benchmark iteration share one clock
# Population "md_ops_in_flight": each law pools the phases where its md-real-io operation occurs. The read's law
# (read) keeps the active ranks: its excess is the OST read's, and metadata operations pile up in flight exactly
# when a stall slows everything, which would tilt a read law by them without causing it.
INFLIGHT_SOURCES = (("create", ("precreate", "create")), ("unlink", ("cleanup", "delete")), ("stat", ("stat",)))


def md_in_flight(data):
    """{(iteration, kind): {rank: other ranks' metadata operations (every kind but read) in flight at the start
    of each operation}}. Files that share a clock (a benchmark iteration's four kinds; precreate; cleanup) are
    counted together; every rank's clock starts at the phase start (md-real-io starts a phase after a barrier).
    Each rank's operations are merged by start time and its clock rebuilt as pfsim replay does (an operation
    starts at its recorded time, or when the rank's previous one ended if the rounded times overlap), so that
    the counts are those the replay carries and a rank never overlaps itself."""
    groups = {}
    for (it, k) in data:
        groups.setdefault((it, "bench") if k in BENCH_KINDS else (it, k), []).append(k)
    out = {}
    for (it, _), kinds in groups.items():
        rebuilt = {}  # (kind, rank) -> (start, end) rebuilt
        for r in sorted({r for k in kinds for r in data[(it, k)]}):
            parts = [(k, data[(it, k)].get(r)) for k in kinds]
            parts = [(k, a) for k, a in parts if a is not None and len(a)]
            if not parts:
                continue
            t0 = np.concatenate([a[:, 0] for _, a in parts])
            rt = np.concatenate([a[:, 1] for _, a in parts])
            order = np.argsort(t0, kind="stable")
            start = np.empty(len(t0))
            prev_end = 0.0
            for i in order:  # start = max(recorded start, previous end): the importer's think time >= 0
                st = t0[i] if t0[i] > prev_end else prev_end
                start[i] = st
                prev_end = st + rt[i]
            at = 0
            for k, a in parts:
                rebuilt[(k, r)] = (start[at:at + len(a)], start[at:at + len(a)] + a[:, 1])
                at += len(a)
        md = [v for (k, _), v in rebuilt.items() if k != "read"]
        st = np.sort(np.concatenate([v[0] for v in md])) if md else np.zeros(0)
        en = np.sort(np.concatenate([v[1] for v in md])) if md else np.zeros(0)
        for (k, r), (s0, e0) in rebuilt.items():
            c = np.searchsorted(st, s0, side="right") - np.searchsorted(en, s0, side="right")
            if k != "read":
                c = c - (e0 > s0)
            out.setdefault((it, k), {})[r] = np.maximum(0, c)
        for k in kinds:  # ranks with no operation of a kind
            out.setdefault((it, k), {})
            for r, a in data[(it, k)].items():
                out[(it, k)].setdefault(r, np.zeros(len(a), dtype=int))
    return out


def fit_laws_inflight(data, q, bins=10, shape_points=64):
    """Per law, population "md_ops_in_flight" (method step 5b): excess over each (iteration, kind)'s q-floor (the
    floor pfsim replay uses), rank-normalised within each source kind, binned by the other ranks' metadata
    operations in flight at its start; one line per law over all its source phases."""
    pop = md_in_flight(data)
    laws = {}
    for op, kinds in INFLIGHT_SOURCES:
        ex_all, norm_all, c_all, rid_all = [], [], [], []
        for kind in kinds:
            ex, c, rid = [], [], []
            for (it, k), per_rank in sorted(data.items()):
                if k != kind:
                    continue
                lat = [a[:, 1] for a in per_rank.values() if len(a)]
                if not lat:
                    continue
                fl = np.quantile(np.concatenate(lat), q)
                for r, a in sorted(per_rank.items()):
                    if len(a):
                        ex.append(np.maximum(0.0, a[:, 1] - fl))
                        c.append(pop[(it, k)][r])
                        rid.append(np.full(len(a), r))
            if not ex:
                continue
            ex, c, rid = np.concatenate(ex), np.concatenate(c), np.concatenate(rid)
            ex_all.append(ex)
            norm_all.append(rank_normalised(ex, rid))
            c_all.append(c)
            rid_all.append(rid)
        if not ex_all:
            continue
        excess, c, rid = np.concatenate(ex_all), np.concatenate(c_all), np.concatenate(rid_all)
        base, b, xs, ys = theil_sen_bins(c, np.concatenate(norm_all), 0, bins)
        laws[op] = law_entry(base, b, xs, ys, excess, c, rid, "+".join(kinds), shape_points)
    return laws


def fmt_us(x, decimals):
    """Microseconds with `decimals` decimals (the historical format) when that is exact or keeps at least 3
    significant digits; otherwise 4 significant digits, so that small values do not round to 0."""
    t = f"{x:.{decimals}f}"
    if x == 0 or not math.isfinite(x) or abs(x) >= 10.0 ** (2 - decimals) or abs(float(t) - x) <= 1e-9 * abs(x):
        return t + "us"
    d = max(decimals, 3 - math.floor(math.log10(abs(x))))
    t = f"{x:.{d}f}".rstrip("0")
    return (t + "0" if t.endswith(".") else t) + "us"


def non_finite(obj, path=""):
    """The path of the first non-finite number or "...infus"/"nanus"-like string in a JSON object (else None)."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            p = non_finite(v, f"{path}.{k}" if path else k)
            if p:
                return p
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            p = non_finite(v, f"{path}[{i}]")
            if p:
                return p
    elif isinstance(obj, float) and not math.isfinite(obj):
        return path
    elif isinstance(obj, str) and re.fullmatch(r"-?(inf|nan)[a-zA-Z]*", obj):
        return path
    return None


def at_most_4096(s):
    v = positive_int(s)
    if v > 4096:
        raise argparse.ArgumentTypeError(f"expected at most 4096 (the platform's range), got {v}")
    return v


def find_pfsim(option):
    """The pfsim binary: --pfsim, else the PFSIM environment variable, else <repo>/build/pfsim."""
    path = option or os.environ.get("PFSIM") or os.path.join(ROOT, "build", "pfsim")
    given = "--pfsim" if option else "PFSIM" if os.environ.get("PFSIM") else "the default"
    if not is_executable_file(path):
        die(f"pfsim binary {path} ({given}) {'is not an executable file' if os.path.exists(path) else 'not found'}: "
            "the fit checks the trace with pfsim's importer first; build pfsim (scripts/build) or give --pfsim "
            "PATH (or set PFSIM)")
    return path


def pfsim_check(pfsim, trace_dir, object_size):
    """Runs `pfsim replay TRACE --check` (pfsim's importer with every check a replay makes), so that the fit reads
    exactly the traces pfsim replays. Its warnings go to stderr; its error line ends the fit with exit status 2.
    A whole missing phase stays allowed (--allow-missing, with pfsim's warning), as the fit reads such traces."""
    cmd = [pfsim, "replay", os.path.join(".", trace_dir) if trace_dir.startswith("-") else trace_dir, "--check",
           "--allow-missing"]
    if object_size is not None:
        cmd += ["--object-size", str(object_size)]
    try:
        r = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True, errors="replace")
    except OSError as e:
        die(f"cannot run {pfsim}: {e.strerror or e}")
    lines = [line.strip() for line in r.stderr.splitlines() if line.strip()]
    last = lines[-1] if lines else "(no message)"
    if r.returncode == 0:
        # pfsim's check says what it imported; a program that exits 0 without it checked nothing (--pfsim /bin/true)
        if not any(line.startswith("pfsim: imported ") for line in lines):
            die(f"--pfsim {pfsim}: 'replay --check' printed no 'pfsim: imported ...' line: not pfsim, or a pfsim "
                "that did not check the trace; give the path of pfsim (build/pfsim)")
        for line in lines:
            if "warning" in line:
                print(line, file=sys.stderr)
        return
    if "unknown option --check" in r.stderr:
        die(f"{pfsim} has no 'replay --check' (an older build): rebuild pfsim (scripts/build) or give --pfsim PATH")
    if r.returncode == 2:
        die(last)
    print(f"fit_mdrealio: {pfsim} replay --check failed (exit status {r.returncode}): "
          f"{last if lines else '(no message: is --pfsim pfsim?)'}", file=sys.stderr)
    sys.exit(1)


def out_problem(out, trace_dir, what="the platform"):
    """Why OUT cannot take WHAT (None when it can): cli_common's checks (its directory exists and takes a new
    file), and it must not overwrite or add to the recorded trace."""
    problem = output_problem(out)
    if problem:
        return problem
    # The trace is its directory's .csv (latency files) and .txt files (headers; an mdtest trace reads every .txt).
    if (os.path.samefile(os.path.dirname(os.path.abspath(out)), trace_dir)
            and os.path.basename(out).lower().endswith((".csv", ".txt"))):
        if os.path.lexists(out):
            return (f"is a file of the trace {trace_dir}: an output never overwrites the recorded run (write it "
                    "elsewhere)")
        return (f"would add a .csv or .txt file to the trace {trace_dir}, whose latency files and headers are its "
                f".csv and .txt files (write {what} elsewhere)")
    return None


def demand_problem(floor, fixed, write_s, d):
    """The first fitted demand that is not positive, as a message naming it and the numbers it came from."""
    us = lambda x: f"{x * 1e6:.1f} us"
    fx = (f"fixed = --rpc-overhead-us + 4 x --net-latency-us + (request + reply bytes) / link bandwidth "
          f"({REQUEST_B} + {REPLY_B} B at {FDR_BPS / 1e9:g} GB/s) = {us(fixed)}")
    if d["stat"] <= 0:
        return (f"the MDS stat demand (stat floor - fixed) comes out {us(d['stat'])}: stat floor {us(floor['stat'])} "
                f"- fixed {us(fixed)} ({fx}): the fixed costs exceed the floor (a local file system needs smaller "
                "ones)")
    if d["unlink"] <= 0:
        return (f"the MDS unlink demand (delete floor - fixed) comes out {us(d['unlink'])}: delete floor "
                f"{us(floor['delete'])} - fixed {us(fixed)} ({fx}): the fixed costs exceed the floor (a local file "
                "system needs smaller ones)")
    if d["create"] <= 0:
        return (f"the MDS create demand (create floor - close - write - 3 x fixed) comes out {us(d['create'])}: "
                f"create floor {us(floor['create'])} - close {us(d['close'])} - write {us(write_s)} - 3 x "
                f"{us(fixed)} ({fx}; close = stat floor - fixed): the create floor is below the model's close + write "
                "+ 3 RPCs (a higher --quantile, or smaller fixed costs)")
    if d["read"] <= 0:
        return (f"the OST read time (read floor - open - close - 3 x fixed) comes out {us(d['read'])}: read floor "
                f"{us(floor['read'])} - open {us(d['open'])} - close {us(d['close'])} - 3 x {us(fixed)} ({fx}; open "
                "= close = stat floor - fixed): the read floor is below the model's open + close + 3 RPCs (a higher "
                "--quantile, or smaller fixed costs)")
    return None


def main():
    ap = Parser(prog="fit_mdrealio", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace_dir")
    ap.add_argument("--out", default=None, help="platform JSON to write (default: stdout; the summary goes to stderr)")
    ap.add_argument("--quantile", type=low_quantile, default=0.01,
                    help="q_floor, a LOW quantile (step 2): between 0 and 0.5")
    ap.add_argument("--name", default="mistral-lustre02")
    ap.add_argument("--ranks-per-node", type=at_most_4096, default=10,
                    help="ranks per client node of the recorded run (1..4096, pfsim's range)")
    ap.add_argument("--mds-cores", type=at_most_4096, default=24, help="MDS cores (1..4096, pfsim's range)")
    ap.add_argument("--rpc-overhead-us", type=non_negative_float, default=RPC_OVERHEAD_S * 1e6,
                    help="client time per RPC (default 20, an ASSUMPTION for Lustre ptlrpc)")
    ap.add_argument("--net-latency-us", type=non_negative_float, default=NET_LATENCY_S * 1e6,
                    help="one-way latency per link (default 0.7, FDR InfiniBand)")
    ap.add_argument("--object-size", type=positive_int, default=None,
                    help="bytes per object when no header (mdreal.txt, stdout.txt) or mdtest tp column states it "
                         "(default then: md-workbench's 3901, with a warning)")
    ap.add_argument("--population", choices=("active_ranks", "md_ops_in_flight"), default="active_ranks",
                    help="what the create, unlink and stat laws depend on: step 5 (default) or step 5b")
    ap.add_argument("--pfsim", default=None, metavar="PATH",
                    help="pfsim binary whose importer checks the trace first (default: $PFSIM, else build/pfsim)")
    a = ap.parse_args()
    if not a.name.strip():
        die("--name: expected a non-empty platform name")
    if not os.path.isdir(a.trace_dir):
        die(f"{a.trace_dir}: not a directory, expected a trace directory")
    if a.out is not None:  # before the fit, not after it
        problem = out_problem(a.out, a.trace_dir)
        if problem:
            die(f"--out {a.out}: {problem}")
    pfsim = find_pfsim(a.pfsim)
    # Files named like the trace's are regular files, of one trace: checked before pfsim opens any.
    files = scan_trace(a.trace_dir)
    pfsim_check(pfsim, a.trace_dir, a.object_size)
    if any(fmt == "md-workbench-rank0" for _, fmt, _, _, _ in files):
        print(f"fit_mdrealio: warning: {a.trace_dir}: md-workbench -L files hold rank 0's operations only: the load "
              "laws (active ranks, rank factors) are fitted from that one rank's view of the run (record with "
              "--latency-all to keep every rank)", file=sys.stderr)
    pools, ranks, header, where, data = load(a.trace_dir)
    for k in ("stat", "read", "create", "delete"):
        if k not in pools:
            print(f"fit_mdrealio: {a.trace_dir}: no '{k}' operations", file=sys.stderr)
            return 2
    q = a.quantile
    floor = {k: float(np.quantile(v, q)) for k, v in pools.items()}
    # where the object size comes from, for the platform's sources (a file of the trace by its name alone)
    size_from = None
    if "object-size" in where:
        file, _, rest = where["object-size"].partition(": ")
        size_from = f"{os.path.basename(file)}: {rest}"
    if a.object_size is not None:
        if "object-size" in header and int(header["object-size"]) != a.object_size:
            die(f"--object-size {a.object_size}, but {where['object-size']} states {header['object-size']}")
        header["object-size"] = str(a.object_size)
        size_from = size_from or "--object-size"
    elif "object-size" not in header:
        print(f"fit_mdrealio: warning: {a.trace_dir}: no header (mdreal.txt, stdout.txt) or mdtest tp column states "
              "the object size; assumed md-workbench's default, 3901 B (--object-size B sets it)", file=sys.stderr)
        header["object-size"] = "3901"
        size_from = "ASSUMPTION: md-workbench's default object size, no header states it"
    size = float(header["object-size"])
    if size <= 0:
        die(f"{a.trace_dir}: the objects hold no data (object size 0, {where.get('object-size', '--object-size')}): "
            "the fit derives the OST read time from reads that move data (mdtest -e > 0)")
    rpc_overhead_s = a.rpc_overhead_us * 1e-6
    net_latency_s = a.net_latency_us * 1e-6
    net = 2 * net_latency_s * 2 + (REQUEST_B + REPLY_B) / FDR_BPS  # two links each way
    fixed = rpc_overhead_s + net
    # The write RPC's fixed cost is one of the create's 3 fixed; beyond it, the object crosses the network once
    # and is absorbed by the OSS write-back cache at WRITE_BPS (the platform's disk_write below).
    write_s = size / FDR_BPS + size / WRITE_BPS
    d_stat = floor["stat"] - fixed
    d_open = d_close = d_stat
    d_unlink = floor["delete"] - fixed
    d_create = floor["create"] - d_close - write_s - 3 * fixed
    read_s = floor["read"] - d_open - d_close - 3 * fixed
    problem = demand_problem(floor, fixed, write_s, {"stat": d_stat, "open": d_open, "close": d_close,
                                                     "unlink": d_unlink, "create": d_create, "read": read_s})
    if problem:
        die(f"{a.trace_dir}: at --quantile {q:g}, {problem}")
    # The fitted read time = positioning + size / streaming bandwidth (an object larger than read_s x READ_BPS: the
    # read time is all bandwidth, no positioning).
    disk_read_Bps = max(READ_BPS, size / read_s)
    disk_read_latency_s = max(0.0, read_s - size / disk_read_Bps)
    inflight = a.population == "md_ops_in_flight"
    laws = fit_laws(data, q)
    for law in laws.values():
        law["population"] = "active_ranks"
    if inflight:
        for op, law in fit_laws_inflight(data, q).items():
            laws[op] = dict(law, population="md_ops_in_flight")
    pop_word = {"md_ops_in_flight": "other ranks' metadata operations in flight", "active_ranks": "active ranks"}
    slope_key = {"md_ops_in_flight": "per_md_op_in_flight", "active_ranks": "per_active_rank"}
    mdtest_stat = None
    mt = os.path.join(a.trace_dir, "mdtest.txt")
    no_stat = "no mdtest.txt"  # what the platform's sources say when there is no stat rate to check with
    if os.path.exists(mt):
        no_stat = "mdtest.txt has no File stat rate"
        for n, line in enumerate(read_text(mt).splitlines(), start=1):
            m = re.match(r"^\s+File stat\s+:\s+(\S+)", line)
            if m:
                try:
                    mdtest_stat = float(m.group(1))
                except ValueError:
                    mdtest_stat = float("nan")
                if not (math.isfinite(mdtest_stat) and mdtest_stat >= 0):
                    die(f"{mt}: line {n}: File stat: expected a non-negative rate (ops/s), got '{m.group(1)[:40]}'")
    # Utilization law on the trace's own pure phases: the floors are unloaded latencies only if the MDS was not
    # saturated (at a saturated MDS even the fastest requests queue, and the floors hold that queueing).
    for phase, demand in (("precreate", d_create + d_close), ("cleanup", d_unlink)):
        for (it, ph), per_rank in sorted(data.items()):
            if ph != phase or not per_rank:
                continue
            start = min(float(r[:, 0].min()) for r in per_rank.values() if len(r))
            end = max(float((r[:, 0] + r[:, 1]).max()) for r in per_rank.values() if len(r))
            n_ops = sum(len(r) for r in per_rank.values())
            if end > start and n_ops * demand / (end - start) > 0.8 * a.mds_cores:
                print(f"fit_mdrealio: WARNING: {phase} (iteration {it}): {n_ops} operations of {len(per_rank)} "
                      f"ranks in {end - start:.3g} s x {demand * 1e6:.0f} us of MDS demand = "
                      f"{n_ops * demand / (end - start):.1f} busy cores of --mds-cores {a.mds_cores}: the MDS was "
                      "near saturation, so the low quantiles hold queueing and the demands are overestimated "
                      "(fit a run with fewer ranks)", file=sys.stderr)
    busy = mdtest_stat * d_stat if mdtest_stat else None
    if busy is not None and busy > a.mds_cores:
        print(f"fit_mdrealio: WARNING: --mds-cores {a.mds_cores} cannot serve the recorded mdtest stat rate "
              f"({mdtest_stat:.0f}/s x {d_stat * 1e6:.0f} us = {busy:.1f} busy cores): the stat floor holds client "
              "time the split assigns to the MDS", file=sys.stderr)
    # Step 7: the rank placement, from the operations a client node serialised (trace_node_serialization.py): a
    # node's operations end at least its held section apart, the operations of different nodes do not.
    from trace_node_serialization import analyse as node_serialization  # imports read_trace from this module
    ser_phases, placement = node_serialization(data, a.ranks_per_node)
    serial_note = "; ".join(f"{r['phase']} (iteration {r['iteration']}) {p} {v['gap_s'] * 1e6:.1f} us against "
                            f"{r['control_gap_s'] * 1e6:.1f} us for random groups"
                            for r in ser_phases for p, v in r["placements"].items() if v["serialised"])
    us = lambda s: fmt_us(s * 1e6, 1)
    src = os.path.basename(os.path.normpath(a.trace_dir))
    fit_note = (f"scripts/fit_mdrealio.py on {src} ({ranks} ranks), quantile {q}: floors (s) " +
                ", ".join(f"{k} {v:.6f}" for k, v in sorted(floor.items())))
    platform = {
        "name": a.name,
        "description": "DKRZ Mistral, Lustre file system lustre02 (Seagate ClusterStor, Lustre 2.x servers), FDR "
                       "InfiniBand, as seen by md-real-io in July 2017 (JulianKunkel/md-workbench-results neu/dkrz). "
                       "Service demands fitted from one recorded run by scripts/fit_mdrealio.py; replay with "
                       f"--residual-quantile {q}.",
        "sources": {
            "fit": fit_note,
            "system": "DKRZ Mistral: Bull/Atos bullx DLC B700 nodes, FDR InfiniBand fat tree, Lustre storage by "
                      "Seagate (ClusterStor); lustre02 is the phase-2 file system: 33418.8 TiB reported by mdtest.txt "
                      "in results-5-7217624 (FS: 33418.8 TiB).",
            "clients.ranks_per_node": "md-real-io/mdtest runs: 50 tasks on 5 nodes and 100 tasks on 10 nodes "
                                      "(mdtest.txt 'launched with 50 total task(s) on 5 node(s)').",
            "clients.max_rpcs_in_flight": "Lustre mdc/osc max_rpcs_in_flight default 8.",
            "clients.max_cached_mb": "ASSUMPTION: 64 GB compute nodes (Mistral's standard nodes), and Lustre 2.x's "
                                     "llite max_cached_mb default of half the RAM. Only reads of data the node wrote "
                                     "in the run use it (mdtest's File read); md-real-io reads other nodes' objects.",
            "clients.max_mod_rpcs_in_flight": "ASSUMPTION 7 (Lustre >= 2.8's default, max_rpcs_in_flight - 1; Lustre "
                                              "refuses a value that equals max_rpcs_in_flight). The cleanup's unlinks "
                                              "are not serialised per client node (scripts/trace_node_serialization.py), "
                                              "so no pre-2.8 mdc rpc_lock (which takes unlinks too) bound them; "
                                              "precreate's creates were serialised per node by a resource the trace "
                                              "cannot name (validation/mistral/README.md), which the create load law "
                                              "describes instead.",
            "clients.open_rpcs": "Lustre: an open intent is a modifying RPC (obd_skip_mod_rpc_slot spares only "
                                 "getattr, lookup, readdir and read layouts), so opens take the modifying slots.",
            "clients.close_rpcs": "modifying: with Lustre >= 2.8's slots (the ASSUMPTION above), mdc_close takes a "
                                  "modifying slot, and one close may pass when every slot is taken "
                                  "(obd_get_mod_rpc_slot); no separate cl_close_lock as before 2.8.",
            "clients.placement": ("from the trace (scripts/trace_node_serialization.py, fit step 6): " +
                                  (f"{placement}: operations serialised per node under that placement only: "
                                   f"{serial_note}" if placement in ("block", "cyclic") else
                                   f"{placement}: no phase shows per-node serialisation under one placement only; "
                                   "ASSUMPTION block (mpirun's and SLURM's default)")),
            "clients.rpc_overhead": f"ASSUMPTION {a.rpc_overhead_us:g} us client ptlrpc processing per RPC (not separable "
                                    "in the trace; --rpc-overhead-us).",
            "network": "FDR InfiniBand 4x: 56 Gbit/s signalling, 64b/66b -> 6.79 GB/s; ~0.7 us per hop (Mellanox FDR "
                       "switch latency). ASSUMPTION: one hop per link in this star model.",
            "mds.cores": f"ASSUMPTION {a.mds_cores} cores (2 x 12-core Xeon E5 v3 class ClusterStor 9000 MDS); not in "
                         "the trace. Utilization-law check: " +
                         (f"the run's mdtest stat rate {mdtest_stat:.0f}/s x {d_stat * 1e6:.0f} us = {busy:.1f} "
                          "busy cores" if busy is not None else no_stat) + ".",
            "clients.load_delay": "fitted by scripts/fit_mdrealio.py (method step 5: population active ranks, "
                                  "from the phase tails; step 5b: population other ranks' metadata operations in "
                                  "flight, over every phase of the operation): per law, its population and bins of "
                                  "(population, mean rank-normalised excess in ms): " +
                                  "; ".join(f"{op} <- {l['source']} ({l['population']}): {l['bins']}"
                                            for op, l in laws.items()) +
                                  (f". The read law's fitted_size, {size:.0f} B: the object size of the reads it was "
                                   f"fitted on ({size_from}); its delay does not "
                                   "depend on a read's size, and a run whose reads under it are outside "
                                   f"[{size / 2:g}, {size * 2:g}] B (half to twice that: IOR's MiB transfers, "
                                   "other object sizes) gets a warning that the law was applied as fitted"
                                   if "read" in laws else ""),
            "mds.threads": "Lustre 2.x MDS: threads started on demand up to mds_num_threads (max 512).",
            "mds.service": "fitted (see 'fit'): stat/open/close = floor(stat) - fixed; unlink = floor(delete) - fixed; "
                           "create = floor(create) - close - write - 3 fixed. ASSUMPTION: open and close of an "
                           "existing file cost the same as a stat.",
            "mds.journal": "ASSUMPTION: ldiskfs jbd2 defaults (400 MiB, 5 s commit), 4 KiB per update, MDT on RAID-10 "
                           "SAS ~400 MB/s sequential.",
            "oss": "ASSUMPTION: 64 OSS models (the OSS/OST count is not in the trace); each object's data goes to the "
                   "OSS its identity hashes to (oss.placement object), as the allocator spreads files over the "
                   "OSTs. disk_read_latency = fitted OST read time - object size / disk_read (one random small "
                   "read per seek on NL-SAS, fitted); disk_read = ASSUMPTION 1 GB/s streaming per OST (only bulk "
                   "reads depend on it); disk_write = ASSUMPTION 1 GB/s "
                   "(ClusterStor controller write-back cache absorbs 3.9 KB writes).",
        },
        "network": {
            "model": "CM02",
            "crosstraffic": False,
            "client_link": {"bandwidth": f"{FDR_BPS:.4g}Bps", "latency": us(net_latency_s)},
            "server_link": {"bandwidth": f"{FDR_BPS:.4g}Bps", "latency": us(net_latency_s)},
        },
        "clients": {
            "ranks_per_node": a.ranks_per_node,
            "placement": placement if placement in ("block", "cyclic") else "block",
            "max_rpcs_in_flight": 8,
            "max_mod_rpcs_in_flight": 7,
            "open_rpcs": "modifying",
            "close_rpcs": "modifying",
            "rpc_overhead": us(rpc_overhead_s),
            "max_cached_mb": CLIENT_RAM_MB // 2,
            "request_size": f"{REQUEST_B}B",
            "reply_size": f"{REPLY_B}B",
            "load_delay": {"enabled": True, "per_op": {
                op: {"population": l["population"], "base": us(l["base_s"]),
                     slope_key[l["population"]]: fmt_us(l['per_rank_s'] * 1e6, 3),
                     "shape": l["shape"], "rank_factors": l["rank_factors"],
                     # the largest population the line rests on (a run past twice it says it extrapolates)
                     "fitted_up_to": math.ceil(max(b[0] for b in l["bins"])),
                     # the bytes of the calls it rests on (the read law: the objects' size): pfsim says when a run's
                     # reads under it are of another size (outside half to twice this)
                     **({"fitted_size": f"{size:.0f}B"} if op in ("read", "write") else {})}
                for op, l in laws.items()}},
        },
        "mds": {
            "count": 1,
            "cores": a.mds_cores,
            "threads": {"min": a.mds_cores, "max": 512},
            "service": {"stat": us(d_stat), "open": us(d_open), "close": us(d_close), "unlink": us(d_unlink),
                        "create": us(d_create), "mkdir": us(d_create), "rmdir": us(d_unlink),
                        "readdir": us(d_stat)},
            "service_distribution": "deterministic",
            "journal": {"enabled": True, "bytes_per_update": "4KiB", "commit_interval": "5s", "capacity": "400MiB",
                        "disk_write": "400MBps"},
        },
        "oss": {
            "count": 64,
            "placement": "object",
            "threads": 32,
            "rpc_service": "0us",
            "disk_read": f"{disk_read_Bps:.6g}Bps",
            "disk_read_latency": fmt_us(disk_read_latency_s * 1e6, 3),
            "disk_write": f"{WRITE_BPS / 1e9:g}GBps",
        },
    }
    # The summary goes to stderr: stdout carries the platform JSON alone when there is no --out.
    print(f"fit_mdrealio: {ranks} ranks; floors at q={q}: " +
          ", ".join(f"{k} {v * 1e6:.0f} us" for k, v in sorted(floor.items())), file=sys.stderr)
    print(f"  MDS service: stat/open/close {d_stat * 1e6:.0f} us, unlink {d_unlink * 1e6:.0f} us, "
          f"create {d_create * 1e6:.0f} us; OST read {read_s * 1e6:.0f} us -> disk_read_latency "
          f"{disk_read_latency_s * 1e6:.1f} us at disk_read {disk_read_Bps / 1e6:.0f} MB/s",
          file=sys.stderr)
    for op, l in laws.items():
        print(f"  load law {op} (from {l['source']}): excess = {l['base_s'] * 1e3:.3f} ms + "
              f"{l['per_rank_s'] * 1e6:.2f} us x {pop_word[l['population']]}", file=sys.stderr)
        if len(l["bins"]) < 3:
            print(f"fit_mdrealio: WARNING: load law {op}: only {len(l['bins'])} bin(s) of at least 20 operations over "
                  f"{pop_word[l['population']]}; its slope ({l['per_rank_s'] * 1e6:.2f} us) rests on too little "
                  "load variation to extrapolate (a larger trace, or more ranks, gives more)", file=sys.stderr)
    if not a.name.startswith("mistral"):
        # Another system: the Mistral hardware facts above do not apply; say what is assumed instead.
        platform["description"] = (f"Platform fitted by scripts/fit_mdrealio.py from one recorded run ({src}, "
                                   f"{ranks} ranks). Hardware figures are the script's defaults: edit them.")
        for key in ("system", "clients.ranks_per_node", "clients.max_mod_rpcs_in_flight", "clients.max_cached_mb",
                    "network", "oss"):
            platform["sources"][key] = ("ASSUMPTION: fit_mdrealio.py default (FDR InfiniBand links, 8 RPCs in "
                                        "flight, 64 OSS models, 64 GB client nodes), not from this trace; edit for "
                                        "the real system.")
        platform["sources"]["mds.cores"] = (f"ASSUMPTION {a.mds_cores} cores (--mds-cores). Utilization-law check: " +
                                            (f"{busy:.1f} busy cores for the run's mdtest stat rate"
                                             if busy is not None else no_stat))
    bad = non_finite(platform)
    if bad:
        die(f"{a.trace_dir}: the fit gives a non-finite value for {bad}: the trace's latencies are out of range")
    text = json.dumps(platform, indent=2, allow_nan=False) + "\n"
    if a.out:
        try:
            write_atomic(a.out, text)
        except OSError as e:
            die(f"--out {a.out}: cannot write: {e.strerror or e}")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
