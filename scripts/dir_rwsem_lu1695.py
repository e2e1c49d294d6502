#!/usr/bin/env python3
"""The directory-index rw_semaphore hypothesis for LU-1695's shared-directory collapse (docs/lu1695.md, section 6).

In Lustre 2.1 the MDD's own parallel-directory lock is compiled out (MDD_DISABLE_PDO_LOCK) and the LDLM
locks an update takes on its parent are compatible between different names (CW on the directory, PW on
the name's hash). What serialises updates of one directory is osd-ldiskfs's per-directory rw_semaphore
`oo_ext_idx_sem`: inserts and deletes take it exclusively (down_write), and every name lookup, the one a
create or unlink makes first included, takes it shared (down_read). A Linux rw_semaphore is writer-fair:
a lookup that finds an insert waiting queues behind it. Once inserts queue, the lookups of the next
updates stop overlapping freely and the directory serialises more per update, which could make the
collapse self-sustaining. `mds.dir_lock.lookup_hold.<op>` models that section.

This script sweeps the shared directory on the fitted platform with lookup sections of several lengths,
CPU-neutral (each lookup's time is taken out of the operation's service demand, so only the locking
changes), once with the fitted exclusive holds and once with short ones (10 us: the lock alone would not
bind the creates up to 128 nodes, as measured). It writes the table to validation/lu1695/dir-rwsem.md.

usage: scripts/dir_rwsem_lu1695.py [--files N] [--jobs J] [--out FILE]
(default 100,000 files; about 2 minutes with 2 jobs)
"""
import argparse
import copy
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lu1695_model as M  # noqa: E402
from cli_common import Parser, check_output, positive_int  # noqa: E402

FITTED = os.path.join(M.ROOT, "platforms", "cray-xe6-lustre2.1-fitted.json")
RANKS = [512, 1024, 2048, 4096, 8192]
PHASES = ("create", "stat", "unlink")
UPDATES = ("create", "unlink")
# (exclusive hold per update in us, or None for the fitted holds; lookup section per update in us)
CONFIGS = [(None, 0), (None, 20), (None, 60), (None, 150), (10, 0), (10, 20), (10, 60), (10, 150), (10, 300)]


def us(value):
    return f"{value}us"


def configured(base, hold_us, lookup_us):
    p = copy.deepcopy(base)
    for op in UPDATES:
        if hold_us is not None:
            M.set_path(p, f"mds.dir_lock.hold.{op}", us(hold_us))
        if lookup_us:
            service = M.parse_time_us(M.get_path(p, f"mds.service.{op}"), f"mds.service.{op}")
            if service <= lookup_us:
                raise SystemExit(f"dir_rwsem_lu1695: a {lookup_us} us lookup exceeds the {op} service demand "
                                 f"({service} us)")
            M.set_path(p, f"mds.service.{op}", us(service - lookup_us))
            M.set_path(p, f"mds.dir_lock.lookup_hold.{op}", us(lookup_us))
    return p


def main():
    ap = Parser(prog="dir_rwsem_lu1695", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--files", type=positive_int, default=100000)
    ap.add_argument("--jobs", type=positive_int, default=2)
    ap.add_argument("--out", default=os.path.join(M.ROOT, "validation", "lu1695", "dir-rwsem.md"))
    M.add_build_option(ap)
    a = ap.parse_args()
    M.use_build("dir_rwsem_lu1695", a)
    check_output("dir_rwsem_lu1695", "--out", a.out, M.INPUTS)  # before the sweeps, not after them
    with open(FITTED) as f:
        base = json.load(f)
    fitted = {op: M.parse_time_us(M.get_path(base, f"mds.dir_lock.hold.{op}"), op) for op in UPDATES}
    lines = [f"Shared directory, {a.files} files, platforms/cray-xe6-lustre2.1-fitted.json with "
             "`mds.dir_lock.lookup_hold` (scripts/dir_rwsem_lu1695.py). Each lookup's time is taken out of the "
             "operation's service demand (CPU-neutral). Rates in k ops/s, creates / unlinks (stats only read "
             "the directory and do not change).", "",
             "| exclusive hold (create, unlink) | lookup | " + " | ".join(str(r) for r in RANKS) + " |",
             "|---|---|" + "---|" * len(RANKS)]
    for hold_us, lookup_us in CONFIGS:
        sim = M.sweep(configured(base, hold_us, lookup_us), "shared", RANKS, a.files, a.jobs, PHASES)
        hold = (f"fitted ({fitted['create']:.1f}, {fitted['unlink']:.1f} us)" if hold_us is None
                else f"{hold_us} us")
        cells = [f"{sim[('create', r)] / 1000:.1f} / {sim[('unlink', r)] / 1000:.1f}" for r in RANKS]
        lines.append(f"| {hold} | {lookup_us} us | " + " | ".join(cells) + " |")
        print(lines[-1], flush=True)
    meas = {}
    for row in M.measured("shared"):
        meas.setdefault(int(row["ranks"]), row)  # the first of the two 1024-rank rows
    lines.append("| measured (1M files) | | " + " | ".join(
        f"{float(meas[r]['creates']) / 1000:.1f} / {float(meas[r]['unlinks']) / 1000:.1f}" for r in RANKS) + " |")
    M.write_atomic(a.out, "\n".join(lines) + "\n")
    print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
