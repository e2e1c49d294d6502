#!/usr/bin/env python3
"""ctest "fit_mdrealio": the trace fit recovers a known load law and its output replays.

Writes a synthetic md-real-io 2017 trace whose precreate and cleanup latencies are exactly
floor + f_r (A + B x ranks active at the operation's start), rank r slower by f_r = 1 + 0.08 r so that ranks
finish one after the other, then checks that scripts/fit_mdrealio.py finds per_active_rank = B within
15 % and base 0 (the excess is taken over the fastest operation, which already holds A + B), that pfsim accepts
and replays the written platform, and that bad input (option values, malformed files, missing rank files, a bad
--out) gives exit status 2, one stderr line naming the option / file and line, no traceback and no output file.

usage: test_fit_mdrealio.py PATH/TO/pfsim
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLOOR = {"precreate": 400e-6, "cleanup": 250e-6}
A, B = 0.3e-3, 40e-6  # excess = A + B * active ranks
N = 8
SLOW = lambda r: 1 + 0.08 * r  # rank r is slower by this factor, so ranks finish one after the other


def write_phase(d, it, phase, counts, latency_of):
    """Event-driven: every rank runs its operations back to back; latency depends on ranks still active."""
    t = [0.0] * N
    done = [0] * N
    rows = [[] for _ in range(N)]
    while True:
        live = [r for r in range(N) if done[r] < counts[r]]
        if not live:
            break
        r = min(live, key=lambda k: (t[k], k))
        active = len(live)
        lat = latency_of(active, r)
        rows[r].append((t[r], lat))
        t[r] += lat
        done[r] += 1
    for r in range(N):
        with open(os.path.join(d, f"mdreal-{it}-{phase}-{r}.csv"), "w") as f:
            f.write("time,runtime\n")
            for a, b in rows[r]:
                f.write(f"{a:.9f},{b:.9e}\n")


FIT = os.path.join(ROOT, "scripts", "fit_mdrealio.py")


def expect_bad_input(label, trace, args, needles, out):
    """fit_mdrealio on `trace` with `args` must exit 2 with one stderr line holding every needle, write no `out`."""
    r = subprocess.run([sys.executable, FIT, trace, "--out", out] + args, capture_output=True, text=True)
    lines = r.stderr.strip().splitlines()
    where = os.path.dirname(out)
    left = [f for f in os.listdir(where) if f.startswith(os.path.basename(out))] if os.path.isdir(where) else []
    ok = (r.returncode == 2 and len(lines) == 1 and all(n in r.stderr for n in needles)
          and "Traceback" not in r.stderr and not left)
    print(f"{'ok' if ok else 'FAIL'}: {label} -> exit {r.returncode}: {r.stderr.strip()[:160]}"
          + (f" (left {left})" if left else ""))
    return not ok


def bad_input_checks(d):
    """Copies the good trace `d`, breaks one thing at a time, and checks the error contract."""
    fails = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "outdir", "fit.json")
        os.makedirs(os.path.dirname(out))
        for opt, val in (("--rpc-overhead-us", "nan"), ("--net-latency-us", "nan"), ("--rpc-overhead-us", "-1"),
                         ("--net-latency-us", "-0.5"), ("--mds-cores", "0"), ("--mds-cores", "-4"),
                         ("--ranks-per-node", "0"), ("--ranks-per-node", "-1"), ("--quantile", "2"),
                         ("--quantile", "-0.5"), ("--quantile", "nan")):
            fails += expect_bad_input(f"{opt} {val}", d, [opt, val], [opt, val], out)
        fails += expect_bad_input("--out in a missing directory", d, [], ["--out", "does not exist"],
                                  os.path.join(tmp, "outdir", "nodir", "fit.json"))
        r = subprocess.run([sys.executable, FIT, d, "--out", os.path.dirname(out)], capture_output=True, text=True)
        left = os.listdir(os.path.dirname(out))
        ok = r.returncode == 2 and "is a directory" in r.stderr and not left
        print(f"{'ok' if ok else 'FAIL'}: --out naming a directory -> exit {r.returncode}, left {left}")
        fails += not ok

        def broken(label, mutate, needles):
            t = os.path.join(tmp, "trace")
            shutil.rmtree(t, ignore_errors=True)
            shutil.copytree(d, t)
            mutate(t)
            return expect_bad_input(label, t, ["--quantile", "0"], needles, out)

        def set_line(name, n, text):  # replaces line n (1-based) of a trace file
            def mutate(t):
                p = os.path.join(t, name)
                lines = open(p).read().splitlines()
                lines[n - 1] = text
                open(p, "w").write("\n".join(lines) + "\n")
            return mutate

        def write(name, text):
            return lambda t: open(os.path.join(t, name), "w").write(text)

        fails += broken("bad value on line 5", set_line("mdreal-0-stat-3.csv", 5, "0.1,abc"),
                        ["mdreal-0-stat-3.csv: line 5", "runtime"])
        fails += broken("NaN runtime", set_line("mdreal-0-stat-3.csv", 4, "0.1,nan"),
                        ["mdreal-0-stat-3.csv: line 4"])
        fails += broken("runtime 1e308", set_line("mdreal-0-read-2.csv", 3, "0.1,1e308"),
                        ["mdreal-0-read-2.csv: line 3"])
        fails += broken("one column", set_line("mdreal-0-stat-1.csv", 2, "0.1"), ["mdreal-0-stat-1.csv: line 2"])
        fails += broken("object-size=abc", write("mdreal.txt", "\tobject-size=abc \n"),
                        ["mdreal.txt: line 1", "object-size"])
        fails += broken("headers that disagree on the object size",
                        lambda t: (open(os.path.join(t, "mdreal.txt"), "a").write("\tobject-size=3900 \n"),
                                   open(os.path.join(t, "stdout.txt"), "w").write("\tobject-size=100 \n")),
                        ["stdout.txt: line 1", "object-size 100", "mdreal.txt"])
        fails += expect_bad_input("--object-size against the header", d, ["--object-size", "4000"],
                                  ["--object-size 4000", "mdreal.txt"], out)
        fails += broken("File stat 1.2.3", write("mdtest.txt", "head\n   File stat   :   1.2.3   1.0\n"),
                        ["mdtest.txt: line 2", "File stat"])
        fails += broken("rank file beyond the ranks",
                        lambda t: shutil.copy(os.path.join(t, "mdreal-0-stat-0.csv"),
                                              os.path.join(t, "mdreal-0-stat-99999999999.csv")),
                        ["mdreal-0-stat-8.csv", "missing"])
        fails += broken("missing rank file", lambda t: os.unlink(os.path.join(t, "mdreal-0-read-7.csv")),
                        ["mdreal-0-read-7.csv", "missing"])

        def header_only(t):
            for r in range(N):
                open(os.path.join(t, f"mdreal-0-stat-{r}.csv"), "w").write("time,runtime\n")
        fails += broken("header-only stat files", header_only, ["no 'stat' operations"])
    return fails


def fitted_laws(d, out, args):
    """fit_mdrealio on the trace in `d` (quantile 0, extra `args`) into `out`: its load laws, None if it failed."""
    r = subprocess.run([sys.executable, FIT, d, "--name", "test", "--quantile", "0", "--out", out] + args,
                       capture_output=True, text=True)
    if r.returncode != 0:
        print("FAIL: fit", " ".join(args), "exited", r.returncode, r.stderr)
        return None
    return json.load(open(out))["clients"]["load_delay"]["per_op"]


def replays(pfsim, d, platform, what):
    """pfsim replays the trace in `d` at 12 ranks with `platform` and writes its results."""
    result = platform + ".result.json"
    r = subprocess.run([pfsim, "replay", d, "--platform", platform, "--ranks", "12", "--residual-quantile", "0",
                        "--out", result, "--no-samples", "--quiet"], capture_output=True, text=True)
    ok = r.returncode == 0 and os.path.exists(result)
    print(f"{'ok' if ok else 'FAIL'}: pfsim replays the trace with {what} ({r.returncode}) " + r.stderr.strip())
    return ok


KNOWN = {"stat": 150e-6, "create": 300e-6, "unlink": 400e-6, "read": 2e-3}  # MDS demands, OST read time (s)


def closed_loop(pfsim):
    """Method steps 2-3 recover the demands of a platform from a trace that pfsim recorded with it.

    A platform with known MDS demands (open and close as stat, as the fit assumes) and an OSS disk that reads the
    3,900 B object in 2 ms, without a load law or journal: pfsim mdworkbench runs it at low load (4 ranks, one per
    node), writes the latency files in md-real-io 2017 form and in md-workbench --latency-all form (pfsim mdtest
    with -w and -e 1000: its per-op files, whose tp column gives the object size), and the fit,
    given the platform's own fixed costs, must return each demand within 1 %. A fit that counted the write RPC's
    fixed cost twice returned create -6 %. At 200 ranks the MDS is saturated during precreate and the fit must say
    so (utilization-law warning), because there the low quantiles hold queueing."""
    fails = 0
    with tempfile.TemporaryDirectory() as d:
        p = json.load(open(os.path.join(ROOT, "platforms", "mistral-lustre02.json")))
        p["name"] = "closed-loop"
        p["clients"]["load_delay"] = {"enabled": False}
        p["mds"]["journal"]["enabled"] = False
        us = lambda k: f"{KNOWN[k] * 1e6:g}us"
        p["mds"]["service"] = {"stat": us("stat"), "open": us("stat"), "close": us("stat"), "readdir": us("stat"),
                               "create": us("create"), "mkdir": us("create"), "unlink": us("unlink"),
                               "rmdir": us("unlink")}
        p["oss"]["disk_read"] = f"{3900 / KNOWN['read']:g}Bps"
        plat = os.path.join(d, "known.json")
        json.dump(p, open(plat, "w"))
        fixed = ["--rpc-overhead-us", p["clients"]["rpc_overhead"].replace("us", ""),
                 "--net-latency-us", p["network"]["client_link"]["latency"].replace("us", "")]
        mdwb = ["mdworkbench", "-I", "200", "-P", "400", "-D", "1", "-R", "2", "-S", "3900"]
        for n, (form, args, ranks) in enumerate((
                ("md-real-io 2017", mdwb + ["--output-format", "mdreal2017"], 4),
                ("md-workbench --latency-all", mdwb + ["--latency-all"], 4),
                # 1,000 B objects: the size must come from the tp column (a fit that assumed 3,900 B returned the
                # OST read 3.9x too fast)
                ("mdtest --savePerOpDataCSV (-w -e 1000)", ["mdtest", "-n", "300", "-u", "-F", "-w", "1000", "-e",
                                                            "1000"], 4),
                ("md-workbench --latency-all", mdwb + ["--latency-all"], 200))):
            trace = os.path.join(d, f"trace-{n}")
            r = subprocess.run([pfsim] + args[:1] + ["--platform", plat, "--ranks", str(ranks), "--ranks-per-node",
                                                     "1" if ranks == 4 else "10", "--latency-dir", trace, "--quiet"]
                               + args[1:], capture_output=True, text=True)
            out = os.path.join(d, "fit.json")
            f = subprocess.run([sys.executable, FIT, trace, "--name", "t", "--out", out] + fixed,
                               capture_output=True, text=True)
            if r.returncode or f.returncode:
                print(f"FAIL: closed loop {form}: pfsim exit {r.returncode}, fit exit {f.returncode}: "
                      f"{(r.stderr + f.stderr).strip()[:300]}")
                fails += 1
                continue
            warned = "near saturation" in f.stderr
            if ranks > 4:
                print(f"{'ok' if warned else 'FAIL'}: closed loop at {ranks} ranks (saturated precreate): "
                      f"utilization-law warning {'given' if warned else 'missing'}")
                fails += not warned
                continue
            fit = json.load(open(out))
            got = {k: float(fit["mds"]["service"][k].replace("us", "")) * 1e-6 for k in ("stat", "create", "unlink")}
            got["read"] = 3900 / float(fit["oss"]["disk_read"].replace("Bps", ""))  # the platform's time for 3,900 B
            for k, v in KNOWN.items():
                ok = abs(got[k] / v - 1) <= 0.01
                print(f"{'ok' if ok else 'FAIL'}: closed loop {form}: {k} {got[k] * 1e6:.1f} us recovered "
                      f"(platform {v * 1e6:.0f} us, {100 * (got[k] / v - 1):+.2f}%)")
                fails += not ok
            print(f"{'FAIL' if warned else 'ok'}: closed loop {form} at {ranks} ranks: no saturation warning")
            fails += warned
    return fails


def main():
    pfsim = sys.argv[1]
    fails = closed_loop(pfsim)
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "mdreal.txt"), "w") as f:
            f.write("\tobj-per-proc=10 \n\tprecreate-per-set=400 \n\tdata-sets=1 \n\tobject-size=3900 \n"
                    "\titerations=1 \n\toffset=1 \n")
        counts = [400] * N
        write_phase(d, 0, "precreate", counts, lambda n, r: FLOOR["precreate"] + SLOW(r) * (A + B * n))
        for kind, lat in (("create", 600e-6), ("stat", 300e-6), ("read", 900e-6), ("delete", 350e-6)):
            write_phase(d, 0, kind, [10] * N, lambda n, r, lat=lat: lat)
        write_phase(d, 1, "cleanup", counts, lambda n, r: FLOOR["cleanup"] + SLOW(r) * (A + B * n))
        out = os.path.join(d, "fit.json")
        per_op = fitted_laws(d, out, [])
        if per_op is None:
            return 1
        for op in ("create", "unlink"):
            law = per_op[op]
            b = float(law["per_active_rank"].replace("us", "")) * 1e-6
            a = float(law["base"].replace("us", "")) * 1e-6
            # The excess is measured over the fastest operation (quantile 0), which already holds A + B x 1:
            # the true law of the excess is -B + B n, whose base clamps to 0.
            ok = abs(b - B) <= 0.15 * B and abs(a - 0.0) <= 0.05e-3
            print(f"{'ok' if ok else 'FAIL'}: {op} law base {a * 1e3:.3f} ms (true 0 after the clamp), "
                  f"per_active_rank {b * 1e6:.2f} us (true {B * 1e6:.2f})")
            fails += not ok
        for op in ("stat", "open"):  # constant latencies: no load dependence
            b = float(per_op[op]["per_active_rank"].replace("us", ""))
            ok = b == 0
            print(f"{'ok' if ok else 'FAIL'}: {op} law has no slope ({b} us)")
            fails += not ok
        # Population "md_ops_in_flight" (method step 5b): in this trace every live rank is always inside an
        # operation, so a precreate/cleanup operation starts with n - 1 others in flight and its excess is
        # A + B n = (A + B) + B (n - 1): the slope per operation in flight is B as well.
        out_md = os.path.join(d, "fit-md.json")
        per_op_md = fitted_laws(d, out_md, ["--population", "md_ops_in_flight"])
        if per_op_md is None:
            return 1
        for op in ("create", "unlink"):
            law = per_op_md[op]
            b = float(law["per_md_op_in_flight"].replace("us", "")) * 1e-6
            ok = law["population"] == "md_ops_in_flight" and abs(b - B) <= 0.15 * B
            print(f"{'ok' if ok else 'FAIL'}: {op} law over metadata operations in flight: per_md_op_in_flight "
                  f"{b * 1e6:.2f} us (true {B * 1e6:.2f})")
            fails += not ok
        ok = per_op_md["open"]["population"] == "active_ranks"  # the read's law keeps the active ranks
        print(f"{'ok' if ok else 'FAIL'}: the open law keeps population active_ranks")
        fails += not ok
        fails += not replays(pfsim, d, out_md, "the md_ops_in_flight platform")
        fails += not replays(pfsim, d, out, "the fitted platform")
        fails += bad_input_checks(d)
        bad = os.path.join(d, "mdreal-0-stat-3.csv")
        with open(bad, "w") as f:
            f.write("time,runtime\n0.0,not-a-number\n")
        r = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "fit_mdrealio.py"), d, "--out", out],
                           capture_output=True, text=True)
        ok = r.returncode == 2 and "mdreal-0-stat-3.csv" in r.stderr
        print(f"{'ok' if ok else 'FAIL'}: malformed file -> exit {r.returncode}, names the file")
        fails += not ok
    # --latency-all files split into ranks of equal row counts, also where time does not restart at every rank
    # (-I 1: every rank's one stat starts at its phase's time 0): pfsim's own files of 4 ranks read back as 4.
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    import fit_mdrealio  # noqa: E402
    with tempfile.TemporaryDirectory() as d:
        r = subprocess.run([pfsim, "mdworkbench", "--platform", os.path.join(ROOT, "platforms", "mistral-lustre02.json"),
                            "--ranks", "4", "-I", "1", "-P", "2", "-D", "1", "-R", "1", "-S", "3900", "--latency-all",
                            "--latency-dir", d, "--quiet"], capture_output=True, text=True)
        data = fit_mdrealio.read_trace(d) if r.returncode == 0 else {}
        ok = bool(data) and all(sorted(v) == [0, 1, 2, 3] for v in data.values())
        print(f"{'ok' if ok else 'FAIL'}: --latency-all files of 4 ranks with -I 1 split into 4 ranks "
              f"({ {k: len(v) for k, v in data.items()} })")
        fails += not ok
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
