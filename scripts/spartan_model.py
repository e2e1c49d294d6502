"""Shared pieces of the Spartan CephFS IO500 case (seed 001): the measured table, IO500's mdtest phases run as
`pfsim mdtest` on a platform dict at the measured configurations, and log-rate residuals.

IO500 (io-500-dev, 2019) runs mdtest twice:
  mdtest easy: `mdtest -n N -u -L -F -N 1`: empty files, one directory per task ("easy" write / stat / delete);
  mdtest hard: `mdtest -n N -t -w 3901 -e 3901 -F -N 1`: 3901-byte files in ONE shared directory
               ("hard" write / stat / read / delete).
pfsim runs them as `pfsim mdtest -n N -u -F` and `pfsim mdtest -n N -F -w 3901 -e 3901`. -L (leaf only) and -t
(unique directory by time) only change directory names; -N 1 (task r stats task r + S's files, reads r + 2S's and
removes r + 3S's, S = 1 x the tasks per node with several nodes of tasks placed in blocks, as mdtest shifts: the next
node's, the node two further's, three further's; with 2 tasks on 2 nodes S = 1 and the read wraps round to a task's
own) is left out: pfsim's stats always go to the MDS (its clients cache no attributes) and the platform has no page
cache (clients.max_cached_mb 0, the default), so no read is served from memory and the shift changes no rate."""
import csv
import json
import math
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cli_common  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASE_DIR = os.path.join(ROOT, "validation", "spartan-cephfs")
MEASURED = os.path.join(CASE_DIR, "measured.csv")
BASE_PLATFORM = os.path.join(ROOT, "platforms", "spartan-cephfs.json")
FITTED_PLATFORM = os.path.join(ROOT, "platforms", "spartan-cephfs-fitted.json")
SSD_PLATFORM = os.path.join(ROOT, "platforms", "spartan-cephfs-ssd.json")  # the SSD pool (fit_spartan_data.py --pool ssd)

# IO500 phase -> (mdtest kind, pfsim mdtest phase name)
PHASES = {
    "mdtest_easy_write": ("easy", "File creation"),
    "mdtest_easy_stat": ("easy", "File stat"),
    "mdtest_easy_delete": ("easy", "File removal"),
    "mdtest_hard_write": ("hard", "File creation"),
    "mdtest_hard_stat": ("hard", "File stat"),
    "mdtest_hard_read": ("hard", "File read"),
    "mdtest_hard_delete": ("hard", "File removal"),
}
# IO500 phase -> (IOR kind, IOR access). IO500 (2019) runs
#   ior easy: `ior -F -t 1m -b <ior_easy_size per task> -w / -r -C -e -k` (a file per task);
#   ior hard: `ior -t 47008 -b 47008 -s <writes per task> -w / -r -C -e -k` (one shared file),
# and prints GiB/s (labelled "GB/s" in 2019's io500.sh, as the seed's table copies it).
IOR_PHASES = {
    "ior_easy_write": ("easy", "write"),
    "ior_easy_read": ("easy", "read"),
    "ior_hard_write": ("hard", "write"),
    "ior_hard_read": ("hard", "read"),
}
# The simulated sizes per task: ior easy MiB, ior hard writes (segments). The real runs wrote 200/20/20 GB and
# 100K/10K/25K writes per task, ended by IO500's 300 s stonewall; these run in seconds. The easy rates change by less
# than 15% at 4x the size; the hard rates grow with the run's length (docs/spartan-cephfs.md section 7).
IOR_SIZES = {"easy": {"2n1t": 2048, "4n8t": 256, "10n16t": 128}, "hard": {"2n1t": 3000, "4n8t": 600, "10n16t": 150}}
# The IOR points scripts/fit_spartan_data.py fits, per pool (every other one is a prediction).
IOR_FITTED = {("ior_hard_write", "2n1t"), ("ior_hard_read", "2n1t"), ("ior_easy_write", "2n1t"),
              ("ior_easy_write", "10n16t"), ("ior_easy_read", "10n16t")}
# Files per task the simulations use, per configuration (the real runs used 600K / 12.5K / 12.5K easy files per
# task; rates reach steady state within a few hundred operations per task, checked by `calibrate_spartan.py
# --check-files`).
FIT_FILES = {"2n1t": 3000, "4n8t": 400, "10n16t": 150}


# IO500's find (2019: pfind over the whole data directory, -newer, -size 3901c, -name "*01*"; its rate is the files
# examined / time). The tree it walks is what the write phases left: mdtest-easy's and mdtest-hard's files per task as
# configured (seed 001's table), or fewer where the 300 s stonewall stopped the creates first (at least the measured
# rate x 300 s: the wear-out after the stonewall adds the seconds the slower ranks take to catch up), and ior-easy's
# file per task and ior-hard's one file.
FIND_PHASE = "find"
CONFIGURED_FILES = {"2n1t": (600000, 500000), "4n8t": (12500, 62500), "10n16t": (12500, 100000)}
STONEWALL_S = 300
FIND_NAME = "01"


def find_tree(row, prog="spartan"):
    """(easy files per task, hard files per task) at find time for a measured row."""
    if row["config"] not in CONFIGURED_FILES:
        cli_common.fail(prog, f"no configured mdtest file counts for configuration '{row['config']}'")
    out = []
    for kind, configured in zip(("mdtest_easy_write", "mdtest_hard_write"), CONFIGURED_FILES[row["config"]]):
        if row[kind] is None:
            cli_common.fail(prog, f"line {row['line']}: {kind}: no value (the find tree's size comes from it)")
        out.append(min(configured, int(row[kind] * STONEWALL_S / row["tasks"])))
    return tuple(out)


def ior_easy_names_matching(tasks, pattern=FIND_NAME):
    """IOR -F's files (ior_file_easy.%08d, one per task) whose names contain `pattern`."""
    return sum(1 for r in range(tasks) if pattern in f"ior_file_easy.{r:08d}")


def run_find(platform, row, build, prog="spartan", keep=None):
    """One `pfsim find` of IO500's find over the row's tree; returns its results' "find" entry (rate in files/s)."""
    easy, hard = find_tree(row, prog)
    t = row["tasks"]
    args = ["--ranks", str(t), "--ranks-per-node", str(row["threads_per_client"]), "--name", FIND_NAME,
            "--mdtest-easy", f"{t}:{easy}", "--mdtest-hard", f"{t}:{hard}",
            "--dirs", f"{t}:{ior_easy_names_matching(t)},1:0"]  # ior_easy (a file per task), ior_hard (IOR_file)
    return pfsim_results(platform, build, prog, "find", args, keep)["find"]


def read_measured(path=MEASURED, prog="spartan"):
    """Rows of the measured table as dicts; every rate in ops/s (the table gives kIOPS), None where n/a."""
    try:
        with open(path) as f:
            numbered = [(n, l) for n, l in enumerate(f, start=1) if not l.startswith("#")]
    except OSError as e:
        cli_common.fail(prog, f"{path}: {e.strerror}")
    except UnicodeDecodeError:
        cli_common.fail(prog, f"{path}: not a text file (expected the measured CSV table)")
    if any("\0" in l for _, l in numbered):
        cli_common.fail(prog, f"{path}: a NUL byte: expected the measured CSV table")
    reader = csv.DictReader(l for _, l in numbered)
    rows = []
    for row in reader:
        line = numbered[reader.line_num - 1][0]
        out = {"config": row.get("config"), "pool": row.get("pool"), "line": line}
        for key in ("clients", "threads_per_client", "tasks"):
            try:
                out[key] = int(row[key])
            except (KeyError, TypeError, ValueError):
                cli_common.fail(prog, f"{path}: line {line}: {key}: expected a whole number, got '{row.get(key)}'")
            if out[key] < 1:
                cli_common.fail(prog, f"{path}: line {line}: {key}: expected at least 1, got {out[key]}")
        if out["clients"] * out["threads_per_client"] != out["tasks"]:
            cli_common.fail(prog, f"{path}: line {line}: tasks {out['tasks']} is not clients x threads_per_client")
        for ph in list(PHASES) + list(IOR_PHASES) + [FIND_PHASE]:
            v = (row.get(ph) or "").strip()
            if v == "":
                out[ph] = None
                continue
            try:
                x = float(v)
            except ValueError:
                x = float("nan")
            unit = "GiB/s" if ph in IOR_PHASES else "kIOPS"
            if not math.isfinite(x) or x <= 0:
                cli_common.fail(prog, f"{path}: line {line}: {ph}: expected a positive rate in {unit}, got '{v}'")
            out[ph] = x if ph in IOR_PHASES else x * 1000.0  # (IOR in GiB/s, mdtest in ops/s)
        rows.append(out)
    if not rows:
        cli_common.fail(prog, f"{path}: no data rows")
    return rows


def pfsim_results(platform, build, prog, command, args, keep=None):
    """Runs `pfsim COMMAND` on a platform dict (written to a temporary file) with ARGS, --quiet and --out; returns the
    results JSON (and moves it to `keep` if given)."""
    with tempfile.TemporaryDirectory() as tmp:
        pf = os.path.join(tmp, "platform.json")
        with open(pf, "w") as f:
            json.dump(platform, f)
        out = os.path.join(tmp, "result.json")
        cli_common.run_pfsim(prog, [os.path.join(build, "pfsim"), command, "--platform", pf] + args +
                             ["--quiet", "--out", out])
        with open(out) as f:
            res = json.load(f)
        if keep:
            os.replace(out, keep)
    return res


def run_mdtest(platform, kind, tasks, per_node, files, build, prog="spartan", seed=1, keep=None):
    """One `pfsim mdtest` run of IO500's easy or hard mdtest; returns {pfsim phase name: items/s}."""
    args = ["-n", str(files), "-F"] + (["-u"] if kind == "easy" else ["-w", "3901", "-e", "3901"])
    res = pfsim_results(platform, build, prog, "mdtest", ["--ranks", str(tasks), "--ranks-per-node", str(per_node),
                                                          "--seed", str(seed)] + args, keep)
    return {p["name"]: float(p.get("rate_items_per_s") or 0.0) for p in res["phases"]}


def simulate_runs(rows, phases, table, run_one, jobs, prog):
    """Rates {(phase, config): value} for every configuration in `rows` and IO500 phase in `phases`: one run per
    (kind, configuration) of table[phase] = (kind, the run's result key), run_one(kind, config, tasks, per_node)
    giving {result key: value}; a value that is not positive is an error."""
    tasks = sorted({(table[ph][0], r["config"], r["tasks"], r["threads_per_client"]) for r in rows for ph in phases})
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        runs = dict(ex.map(lambda t: ((t[0], t[1]), run_one(*t)), tasks))
    sim = {}
    for r in rows:
        for ph in phases:
            kind, key = table[ph]
            v = runs[(kind, r["config"])].get(key, 0.0)
            if not math.isfinite(v) or v <= 0:
                cli_common.fail(prog, f"pfsim gave no positive {key} ({ph}) at {r['config']}")
            sim[(ph, r["config"])] = v
    return sim


def simulate(platform, rows, phases, build, jobs=2, files=None, prog="spartan"):
    """Simulated rates {(phase, config): ops/s} for every configuration in `rows` and every IO500 phase in
    `phases` (one easy and/or one hard mdtest run per configuration)."""
    files = files or FIT_FILES

    def one(kind, config, n, per_node):
        if config not in files:
            cli_common.fail(prog, f"no simulated file count for configuration '{config}'")
        return run_mdtest(platform, kind, n, per_node, files[config], build, prog)
    return simulate_runs(rows, phases, PHASES, one, jobs, prog)


def residuals(sim, rows, phases):
    """[(phase, config, measured, simulated, log(sim/measured))] over the measured values (n/a skipped)."""
    out = []
    for r in rows:
        for ph in phases:
            if r[ph] is None:
                continue
            s = sim[(ph, r["config"])]
            out.append((ph, r["config"], r[ph], s, math.log(s / r[ph])))
    return out


def load(path, prog="spartan"):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        cli_common.fail(prog, f"{path}: cannot read the platform: {e}")


def run_ior(platform, kind, tasks, per_node, size, build, prog="spartan", seed=1):
    """One `pfsim ior -w -r` run of IO500's ior easy or hard; returns {"write": GiB/s, "read": GiB/s}."""
    args = (["-F", "-t", "1m", "-b", f"{size}m"] if kind == "easy" else ["-t", "47008", "-b", "47008", "-s", str(size)])
    res = pfsim_results(platform, build, prog, "ior", ["--ranks", str(tasks), "--ranks-per-node", str(per_node),
                                                       "--seed", str(seed), "-w", "-r", "-C", "-e", "-k"] + args)
    return {r["access"]: float(r["bwMiB"]) / 1024.0 for r in res["ior"]}


def simulate_ior(platform, rows, phases, build, jobs=2, sizes=None, prog="spartan"):
    """Simulated IOR bandwidths {(phase, config): GiB/s} (one `pfsim ior -w -r` per kind and configuration)."""
    sizes = sizes or IOR_SIZES

    def one(kind, config, n, per_node):
        if config not in sizes[kind]:
            cli_common.fail(prog, f"no simulated ior {kind} size for configuration '{config}'")
        return run_ior(platform, kind, n, per_node, sizes[kind][config], build, prog)
    return simulate_runs(rows, phases, IOR_PHASES, one, jobs, prog)
