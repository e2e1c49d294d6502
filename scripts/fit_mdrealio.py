#!/usr/bin/env python3
"""Derive a pfsim platform (service demands, client overheads, OST read time) from ONE recorded md-real-io run.

Input: a trace directory in any format pfsim replays: md-real-io 2017 per-rank files, md-workbench -L (rank 0)
or --latency-all files (split into ranks of equal row counts), mdtest --savePerOpDataCSV files (File creation /
stat / read / removal taken as precreate / stat / read / cleanup). Malformed files: exit status 2 naming the file.

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
     The OST read time becomes the OSS disk's effective bandwidth for one random object read:
     disk_read = object size / read time (one random small read per seek on the ClusterStor NL-SAS OSTs).
  4. What the model does not have (stalls of the production file system, slow OSTs, per-rank slowness) stays in
     the trace: `pfsim replay --residual-quantile q` replays, for each operation, its recorded excess over the
     q-quantile of its kind as a client-side delay. Use the same q here and there (default 0.01).
  5. Load law (clients.load_delay, a population-dependent delay center): the recorded excess of an operation is
     not constant; it grows with the number of ranks loading the file system. The trace holds its own load
     variation: at the end of every phase ranks finish one after the other, so operations were recorded with
     every number n of active ranks (ranks that had not finished the phase) from N down to 1. For each law
     (create <- precreate, unlink <- cleanup, stat <- benchmark stat, open <- benchmark read) the operations are
     binned by n (N/10 ranks per bin), the mean excess over the phase's q-floor is taken per bin (each
     operation's excess divided by its rank's mean excess and multiplied by the overall mean: the ranks left late
     in a phase are the slow ones, and without this the bins would compare ranks, not load), and a line
     mean(n) = base + per_active_rank * n is fitted by Theil-Sen (median of the pairwise slopes: one stalled
     bin, e.g. a journal commit in a phase tail, does not tilt it); negative slopes are set to 0. "shape" keeps
     the distribution: 64 equally probable quantiles of excess / (mean(n) x rank factor), rescaled to mean 1;
     "rank_factors" keep the per-rank slowness (each recorded rank's mean excess / the overall mean), which sets
     how long the slowest rank takes and so the phase rate.
     Replay scales each recorded excess by mean(n_sim) / mean(n_recorded); synthetic runs (mdtest) draw it.
  5b. --population md_ops_in_flight (the create, unlink and stat laws; the read's law keeps step 5): the population
     is the number of metadata operations (stat, create, delete: not reads) that other ranks had in flight when
     the operation started, counted over the operations that share its clock (a benchmark iteration's four
     kinds, or precreate, or cleanup) with each rank's clock rebuilt as pfsim replay rebuilds it. Every phase of
     the operation is used, not only the tails (create <- precreate + benchmark creates, unlink <- cleanup +
     benchmark deletes): excess over each (iteration, kind)'s q-floor, rank-normalised within each kind, binned
     by the population, Theil-Sen as in step 5. The benchmark runs its creates and deletes with ~10 metadata
     operations in flight at 50 ranks and precreate/cleanup with ~45, which spans the line.
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
                       [--population active_ranks|md_ops_in_flight] [--object-size B]
A --name not starting with "mistral" marks the Mistral hardware facts in "sources" as assumptions to edit.
"""
import argparse
import glob
import json
import math
import os
import re
import sys
import warnings

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import Parser, _float_where, non_negative_float, output_problem, positive_int, write_atomic  # noqa

MAX_SECONDS = 1e9  # a time or latency beyond this (31 years) is a malformed value, not a measurement

RPC_OVERHEAD_S = 20e-6    # ASSUMPTION: client ptlrpc processing per RPC (pfsim clients.rpc_overhead)
NET_LATENCY_S = 0.7e-6    # FDR InfiniBand switch + link latency, one way (Mellanox FDR ~0.7 us)
REQUEST_B, REPLY_B = 512, 1024
WRITE_BPS = 1e9  # ASSUMPTION: ClusterStor controller write-back cache absorbs 3.9 KB writes (disk_write)
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


def die(msg):
    print(f"fit_mdrealio: {msg}", file=sys.stderr)
    sys.exit(2)


def find_bad_line(f):
    """Scans a latency file line by line and exits (status 2) at the first malformed line, naming it."""
    ncols = None
    with open(f, errors="replace") as fh:
        fh.readline()
        for n, line in enumerate(fh, start=2):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            fields = [x.strip() for x in text.split(",")]
            if len(fields) < 2:
                die(f"{f}: line {n}: expected the 2 columns time,runtime, got '{text[:60]}'")
            if ncols is not None and len(fields) != ncols:
                die(f"{f}: line {n}: {len(fields)} columns, the lines before have {ncols}")
            ncols = len(fields)
            for col, x in enumerate(fields):
                try:
                    v = float(x)
                except ValueError:
                    name = ("time", "runtime")[col] if col < 2 else f"column {col + 1}"
                    die(f"{f}: line {n}: {name}: expected a number, got '{x[:40]}'")
                if col < 2 and not (math.isfinite(v) and abs(v) <= MAX_SECONDS):
                    die(f"{f}: line {n}: {('time', 'runtime')[col]}: expected a finite number of seconds "
                        f"(at most {MAX_SECONDS:g}), got '{x[:40]}'")
                if col == 1 and v < 0:
                    die(f"{f}: line {n}: runtime: expected a non-negative number of seconds, got '{x[:40]}'")
    die(f"{f}: expected non-negative numbers in columns time,runtime")


def read_csv(f):
    """(time, runtime) rows of one latency file; exit status 2 naming the file and line on malformed input."""
    if os.path.isdir(f):
        die(f"{f}: is a directory, expected a latency file (time,runtime CSV)")
    try:
        with open(f, errors="replace") as fh:
            head = fh.readline().strip().split(",")
        if head[:2] != ["time", "runtime"]:
            die(f"{f}: line 1: expected the header 'time,runtime', got '{','.join(head)[:60]}'")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a header-only file: numpy warns "Empty input file"
            a = np.loadtxt(f, delimiter=",", skiprows=1, ndmin=2)
    except OSError as e:
        die(f"{f}: {e.strerror or e}")
    except ValueError:
        find_bad_line(f)
    if a.size == 0:
        return np.zeros((0, 2))
    if (a.shape[1] < 2 or np.any(a[:, 1] < 0) or not np.all(np.isfinite(a[:, :2]))
            or np.any(np.abs(a[:, :2]) > MAX_SECONDS)):
        find_bad_line(f)
    return a[:, :2]


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


def read_trace(trace_dir):
    """Every latency file of a trace directory as {(iteration, phase): {rank: rows}} (any supported format)."""
    data = {}
    all_files = []  # --latency-all files: (path, (iteration, phase), rows), split once the rank count is known
    groups = {}  # per-rank formats: (iteration, phase) -> (ranks, file name of rank r)
    for f in sorted(glob.glob(os.path.join(trace_dir, "*.csv"))):
        name = os.path.basename(f)
        m = PAT_MDREAL.match(name)
        if m:
            key = (int(m.group(2)), m.group(3))
            groups.setdefault(key, (set(), lambda r, m=m: f"{m.group(1)}-{m.group(2)}-{m.group(3)}-{r}.csv"))[0].add(
                int(m.group(4)))
            continue
        m = PAT_ALL.match(name)
        if m:
            all_files.append((f, (int(m.group(3)), m.group(4)), read_csv(f)))
            continue
        m = PAT_RANK0.match(name)
        if m:
            data.setdefault((int(m.group(3)), m.group(4)), {})[0] = read_csv(f)
            continue
        m = PAT_MDTEST.match(name)
        if m:
            groups.setdefault(MDTEST_PHASES[m.group(2)], (set(), lambda r, m=m: f"{m.group(1)}-{m.group(2)}-"
                                                                                  f"{r:0{len(m.group(3))}d}.csv"))[0].add(
                int(m.group(3)))
    if all_files:
        for key, parts in split_latency_all(trace_dir, all_files).items():
            data.setdefault(key, {}).update(parts)
    # Rank files are checked for gaps before any is read (a file named for rank 10^11 must not allocate).
    check_rank_groups(trace_dir, groups)
    for f in sorted(glob.glob(os.path.join(trace_dir, "*.csv"))):
        name = os.path.basename(f)
        m = PAT_MDREAL.match(name)
        if m:
            data.setdefault((int(m.group(2)), m.group(3)), {})[int(m.group(4))] = read_csv(f)
            continue
        m = PAT_ALL.match(name) or PAT_RANK0.match(name)
        if m:
            continue
        m = PAT_MDTEST.match(name)
        if m:
            data.setdefault(MDTEST_PHASES[m.group(2)], {})[int(m.group(3))] = read_csv(f)
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
    with open(files[0], errors="replace") as fh:
        head = fh.readline().strip().split(",")
    if "tp" not in head:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            a = np.genfromtxt(files[0], delimiter=",", skip_header=1, ndmin=2, usecols=(1, head.index("tp")))
        except ValueError:
            find_bad_line(files[0])
    if a.size == 0:
        return None
    sizes = a[:, 0] * a[:, 1]
    sizes = sizes[np.isfinite(sizes) & (a[:, 1] > 0)]
    return (int(round(float(np.median(sizes)))) if len(sizes) else 0,
            f"{files[0]}: tp x runtime (mdtest's tp = bytes / runtime)")


def read_text(path):
    if os.path.isdir(path):
        die(f"{path}: is a directory, expected a text file")
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError as e:
        die(f"{path}: {e.strerror or e}")


def check_size(value, where):
    """An object size in bytes: a positive integer (exit status 2 naming file, line and field otherwise)."""
    if not re.fullmatch(r"[0-9]+", value) or int(value) <= 0 or int(value) > 2 ** 53:
        die(f"{where}: expected a positive whole number of bytes, got '{value[:40]}'")


LAW_SOURCES = (("create", "precreate", ("precreate",)), ("unlink", "cleanup", ("cleanup",)),
               ("stat", "stat", ("stat", "read", "create", "delete")),
               ("open", "read", ("stat", "read", "create", "delete")))


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
# (open) keeps the active ranks: its excess is the OST read's, and metadata operations pile up in flight exactly
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


def main():
    ap = Parser(prog="fit_mdrealio", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace_dir")
    ap.add_argument("--out", default=None)
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
    a = ap.parse_args()
    if not a.name.strip():
        die("--name: expected a non-empty platform name")
    if a.out is not None and output_problem(a.out):
        die(f"--out {a.out}: {output_problem(a.out)}")
    if not os.path.isdir(a.trace_dir):
        print(f"fit_mdrealio: {a.trace_dir}: not a directory", file=sys.stderr)
        return 2
    pools, ranks, header, where, data = load(a.trace_dir)
    for k in ("stat", "read", "create", "delete"):
        if k not in pools:
            print(f"fit_mdrealio: {a.trace_dir}: no '{k}' operations", file=sys.stderr)
            return 2
    q = a.quantile
    floor = {k: float(np.quantile(v, q)) for k, v in pools.items()}
    if a.object_size is not None:
        if "object-size" in header and int(header["object-size"]) != a.object_size:
            die(f"--object-size {a.object_size}, but {where['object-size']} states {header['object-size']}")
        header["object-size"] = str(a.object_size)
    elif "object-size" not in header:
        print(f"fit_mdrealio: warning: {a.trace_dir}: no header (mdreal.txt, stdout.txt) or mdtest tp column states "
              "the object size; assumed md-workbench's default, 3901 B (--object-size B sets it)", file=sys.stderr)
        header["object-size"] = "3901"
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
    if min(d_stat, d_unlink, d_create, read_s) <= 0:
        print(f"fit_mdrealio: {a.trace_dir}: a derived demand is not positive: the floors (stat "
              f"{floor['stat'] * 1e6:.1f} us, delete {floor['delete'] * 1e6:.1f} us, create {floor['create'] * 1e6:.1f} "
              f"us, read {floor['read'] * 1e6:.1f} us) are below the fixed costs per RPC ({fixed * 1e6:.1f} us: "
              "--rpc-overhead-us + 4 x --net-latency-us); a local file system needs smaller ones", file=sys.stderr)
        return 2
    disk_read_Bps = size / read_s
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
    if os.path.exists(mt):
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
            "clients.max_mod_rpcs_in_flight": "ASSUMPTION 7 (Lustre >= 2.8's default, max_rpcs_in_flight - 1; Lustre "
                                              "refuses a value that equals max_rpcs_in_flight): the trace shows 4.4k "
                                              "creates/s per client node at a minimum create latency of 0.44 ms, "
                                              "impossible with one modifying RPC in flight per node (the pre-2.8 mdc "
                                              "rpc_lock), so it did not bind.",
            "clients.rpc_overhead": f"ASSUMPTION {a.rpc_overhead_us:g} us client ptlrpc processing per RPC (not separable "
                                    "in the trace; --rpc-overhead-us).",
            "network": "FDR InfiniBand 4x: 56 Gbit/s signalling, 64b/66b -> 6.79 GB/s; ~0.7 us per hop (Mellanox FDR "
                       "switch latency). ASSUMPTION: one hop per link in this star model.",
            "mds.cores": f"ASSUMPTION {a.mds_cores} cores (2 x 12-core Xeon E5 v3 class ClusterStor 9000 MDS); not in "
                         "the trace. Utilization-law check: " +
                         (f"the run's mdtest stat rate {mdtest_stat:.0f}/s x {d_stat * 1e6:.0f} us = {busy:.1f} "
                          "busy cores" if busy is not None else "no mdtest.txt") + ".",
            "clients.load_delay": "fitted by scripts/fit_mdrealio.py (method step 5: population active ranks, "
                                  "from the phase tails; step 5b: population other ranks' metadata operations in "
                                  "flight, over every phase of the operation): per law, its population and bins of "
                                  "(population, mean rank-normalised excess in ms): " +
                                  "; ".join(f"{op} <- {l['source']} ({l['population']}): {l['bins']}"
                                            for op, l in laws.items()),
            "mds.threads": "Lustre 2.x MDS: threads started on demand up to mds_num_threads (max 512).",
            "mds.service": "fitted (see 'fit'): stat/open/close = floor(stat) - fixed; unlink = floor(delete) - fixed; "
                           "create = floor(create) - close - write - 3 fixed. ASSUMPTION: open and close of an "
                           "existing file cost the same as a stat.",
            "mds.journal": "ASSUMPTION: ldiskfs jbd2 defaults (400 MiB, 5 s commit), 4 KiB per update, MDT on RAID-10 "
                           "SAS ~400 MB/s sequential.",
            "oss": "ASSUMPTION: 64 OSS models (the OSS/OST count is not in the trace); each object's data goes to the "
                   "OSS its identity hashes to (oss.placement object), as the allocator spreads files over the "
                   "OSTs. disk_read = object size / fitted OST read "
                   "time (one random small read per seek on NL-SAS, fitted); disk_write = ASSUMPTION 1 GB/s "
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
            "max_rpcs_in_flight": 8,
            "max_mod_rpcs_in_flight": 7,
            "rpc_overhead": us(rpc_overhead_s),
            "request_size": f"{REQUEST_B}B",
            "reply_size": f"{REPLY_B}B",
            "load_delay": {"enabled": True, "per_op": {
                op: {"population": l["population"], "base": us(l["base_s"]),
                     slope_key[l["population"]]: fmt_us(l['per_rank_s'] * 1e6, 3),
                     "shape": l["shape"], "rank_factors": l["rank_factors"]} for op, l in laws.items()}},
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
            "threads": 32,
            "rpc_service": "0us",
            "disk_read": f"{disk_read_Bps:.6g}Bps",
            "disk_write": f"{WRITE_BPS / 1e9:g}GBps",
        },
    }
    print(f"fit_mdrealio: {ranks} ranks; floors at q={q}: " +
          ", ".join(f"{k} {v * 1e6:.0f} us" for k, v in sorted(floor.items())))
    print(f"  MDS service: stat/open/close {d_stat * 1e6:.0f} us, unlink {d_unlink * 1e6:.0f} us, "
          f"create {d_create * 1e6:.0f} us; OST read {read_s * 1e6:.0f} us -> disk_read {disk_read_Bps / 1e6:.2f} MB/s")
    for op, l in laws.items():
        print(f"  load law {op} (from {l['source']}): excess = {l['base_s'] * 1e3:.3f} ms + "
              f"{l['per_rank_s'] * 1e6:.2f} us x {pop_word[l['population']]}")
        if len(l["bins"]) < 3:
            print(f"fit_mdrealio: WARNING: load law {op}: only {len(l['bins'])} bin(s) of at least 20 operations over "
                  f"{pop_word[l['population']]}; its slope ({l['per_rank_s'] * 1e6:.2f} us) rests on too little "
                  "load variation to extrapolate (a larger trace, or more ranks, gives more)", file=sys.stderr)
    if not a.name.startswith("mistral"):
        # Another system: the Mistral hardware facts above do not apply; say what is assumed instead.
        platform["description"] = (f"Platform fitted by scripts/fit_mdrealio.py from one recorded run ({src}, "
                                   f"{ranks} ranks). Hardware figures are the script's defaults: edit them.")
        for key in ("system", "clients.ranks_per_node", "clients.max_mod_rpcs_in_flight", "network", "oss"):
            platform["sources"][key] = ("ASSUMPTION: fit_mdrealio.py default (FDR InfiniBand links, 8 RPCs in "
                                        "flight, 64 OSS models), not from this trace; edit for the real system.")
        platform["sources"]["mds.cores"] = (f"ASSUMPTION {a.mds_cores} cores (--mds-cores). Utilization-law check: " +
                                            (f"{busy:.1f} busy cores for the run's mdtest stat rate"
                                             if busy is not None else "no mdtest.txt"))
    bad = non_finite(platform)
    if bad:
        die(f"{a.trace_dir}: the fit gives a non-finite value for {bad}: the trace's latencies are out of range")
    text = json.dumps(platform, indent=2, allow_nan=False) + "\n"
    if a.out:
        write_atomic(a.out, text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
