#!/usr/bin/env python3
"""Which operations of a recorded run were serialised per client node, and how were ranks placed on nodes?

A recorded trace (any format fit_mdrealio.py and pfsim replay read) has no node column. But a resource that a
client node lets one operation hold at a time (the pre-2.8 mdc rpc_lock, a client-side mutex, one RPC slot) leaves
a mark: the operations of the ranks of one node end at least its hold time apart, while the operations of ranks on
different nodes end at any distance, down to microseconds. So, for each phase of the trace (an iteration's files
of one kind) and for each candidate placement of ranks on nodes,
  block   ranks 0..K-1 on node 0, K..2K-1 on node 1, ... (mpirun's and SLURM's default)
  cyclic  rank r on node r mod nodes                  (srun --distribution=cyclic, mpirun --map-by node)
the end times of every node's operations are sorted (each rank's times are relative to its phase start, which a
barrier aligns across ranks) and the 0.1 % quantile of the gaps between consecutive ends is taken. The same is
done for random groupings of the ranks into groups of the same sizes (the control: what the gaps look like when the
groups share nothing). A phase is serialised under a placement when that placement's 0.1 % gap is at least
--factor times the control's and at least --min-gap-us: the ends of a node's operations never come closer than
the held part of an operation. The placement is the one under which some phase is serialised (if both, none can
be told apart); "undetermined" when no phase is.

The 0.1 % gap is then a lower bound of the serialised part of one operation; the median gap is its time under the
phase's load (the node's operations end back to back).

DKRZ Mistral, md-real-io July 2017 (50 ranks on 5 nodes, 100 on 10; validation/mistral/README.md): cyclic placement,
and the creates of precreate are serialised per node (0.1 % gap 75-80 us against 0.3 us for random groups) while the
cleanup's unlinks and every benchmark operation are not.

usage: trace_node_serialization.py TRACE_DIR [--ranks-per-node 10] [--factor 10] [--min-gap-us 20] [--min-ops 200]
                                   [--json FILE]
"""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cli_common import Parser, non_negative_float, positive_int, write_atomic  # noqa: E402
import fit_mdrealio  # noqa: E402
from fit_mdrealio import out_problem, read_trace  # noqa: E402

PLACEMENTS = ("block", "cyclic")
CONTROL_SHUFFLES = 5


def node_groups(ranks, ranks_per_node, placement):
    """Ranks of each node under a placement (nodes = ceil(ranks / ranks_per_node), as pfsim places them)."""
    nodes = -(-ranks // ranks_per_node)
    if placement == "block":
        return [list(range(n * ranks_per_node, min(ranks, (n + 1) * ranks_per_node))) for n in range(nodes)]
    return [list(range(n, ranks, nodes)) for n in range(nodes)]


def gap_quantiles(ends, groups, qs=(0.001, 0.5)):
    """Quantiles of the gaps between consecutive operation ends within each group of ranks (pooled)."""
    gaps = [np.diff(np.sort(np.concatenate([ends[r] for r in g]))) for g in groups if len(g) > 1]
    gaps = np.concatenate(gaps) if gaps else np.zeros(0)
    if len(gaps) == 0:
        return None
    return [float(x) for x in np.quantile(gaps, qs)]


def analyse(data, ranks_per_node, factor=10.0, min_gap_s=20e-6, min_ops=200, seed=1):
    """Per phase {iteration, phase, ops, control_gap_s, placements: {p: {gap_s, median_gap_s, serialised}}}, and
    the inferred placement."""
    rng = np.random.default_rng(seed)
    phases = []
    for (it, phase), per_rank in sorted(data.items()):
        ranks = max(per_rank) + 1
        if ranks <= ranks_per_node or ranks_per_node < 2:
            continue  # one node, or one rank per node: the placements cannot differ
        ends = {r: (a[:, 0] + a[:, 1]) if len(a) else np.zeros(0) for r, a in per_rank.items()}
        for r in range(ranks):
            ends.setdefault(r, np.zeros(0))
        ops = int(sum(len(e) for e in ends.values()))
        if ops < min_ops:
            continue
        row = {"iteration": it, "phase": phase, "ops": ops, "placements": {}}
        controls = []
        for _ in range(CONTROL_SHUFFLES):
            perm = [int(x) for x in rng.permutation(ranks)]
            sizes = [len(g) for g in node_groups(ranks, ranks_per_node, "block")]
            groups, k = [], 0
            for s in sizes:
                groups.append(perm[k:k + s])
                k += s
            q = gap_quantiles(ends, groups)
            if q is not None:
                controls.append(q[0])
        control = float(np.mean(controls)) if controls else None
        row["control_gap_s"] = control
        for p in PLACEMENTS:
            q = gap_quantiles(ends, node_groups(ranks, ranks_per_node, p))
            if q is None or control is None:
                continue
            serial = q[0] >= min_gap_s and q[0] >= factor * max(control, 1e-12)
            row["placements"][p] = {"gap_s": q[0], "median_gap_s": q[1], "serialised": bool(serial)}
        phases.append(row)
    found = {p for row in phases for p, v in row["placements"].items() if v["serialised"]}
    if len(found) == 1:
        placement = found.pop()
    elif found:
        placement = "ambiguous"
    else:
        placement = "undetermined"
    return phases, placement


def main():
    ap = Parser(prog="trace_node_serialization.py",
                description="Per-node serialisation of a recorded trace's operations, and the rank placement it "
                            "implies (method in the module docstring).")
    ap.add_argument("trace_dir")
    ap.add_argument("--ranks-per-node", type=positive_int, default=10,
                    help="ranks per client node of the recorded run (default 10)")
    ap.add_argument("--factor", type=non_negative_float, default=10.0,
                    help="a placement's 0.1%% gap must exceed the random control's by this factor (default 10)")
    ap.add_argument("--min-gap-us", type=non_negative_float, default=20.0,
                    help="and be at least this long, us (default 20)")
    ap.add_argument("--min-ops", type=positive_int, default=200,
                    help="phases with fewer operations are skipped (default 200)")
    ap.add_argument("--json", metavar="FILE", help="also write the result as JSON")
    a = ap.parse_args()
    if not os.path.isdir(a.trace_dir):
        ap.error(f"{a.trace_dir}: not a directory (expected a trace directory)")
    if a.json:
        problem = out_problem(a.json, a.trace_dir, "the result")  # also: never a file of the trace it reads
        if problem:
            ap.error(f"--json {a.json}: {problem}")
    fit_mdrealio.PROG = ap.prog  # read_trace's messages name this script
    data = read_trace(a.trace_dir)
    phases, placement = analyse(data, a.ranks_per_node, a.factor, a.min_gap_us * 1e-6, a.min_ops)
    print(f"{'iteration':>9} {'phase':<10} {'ops':>7} {'random gap':>11}  "
          + "  ".join(f"{p + ' gap (median)':>24}" for p in PLACEMENTS))
    for row in phases:
        cells = []
        for p in PLACEMENTS:
            v = row["placements"].get(p)
            cells.append(f"{'-':>24}" if v is None else
                         f"{v['gap_s'] * 1e6:9.1f} us ({v['median_gap_s'] * 1e6:6.0f}){' *' if v['serialised'] else '  '}")
        print(f"{row['iteration']:>9} {row['phase']:<10} {row['ops']:>7} {row['control_gap_s'] * 1e6:8.1f} us  "
              + "  ".join(cells))
    print(f"gap = 0.1 % quantile of the gaps between a node's consecutive operation ends; * = serialised per node "
          f"(>= {a.factor:g} x random and >= {a.min_gap_us:g} us)")
    print(f"placement: {placement}")
    if not phases:
        ranks = max((max(per_rank) + 1 for per_rank in data.values()), default=0)
        print(f"(no phase analysed: {ranks} rank(s) in the trace, --ranks-per-node {a.ranks_per_node}, phases of "
              f"at least --min-ops {a.min_ops} operations, 2 or more ranks per node and 2 or more nodes are needed"
              + ("; md-workbench -L files hold rank 0 only)" if ranks == 1 else ")"))
    elif placement == "undetermined":
        print("(no phase's operations end further apart within a node than within random groups: nothing the run "
              "serialised per node tells the placement)")
    if a.json:
        write_atomic(a.json, json.dumps({"trace": a.trace_dir, "ranks_per_node": a.ranks_per_node,
                                         "factor": a.factor, "min_gap_us": a.min_gap_us, "min_ops": a.min_ops,
                                         "placement": placement, "phases": phases}, indent=1) + "\n")


if __name__ == "__main__":
    main()
