#!/usr/bin/env bash
# CLI error handling (ctest "cli_errors"): bad inputs must give exit status 2, exactly one error line on
# stderr naming the file / field / option at fault, and no --out file (nothing half-written).
#
# usage: scripts/test_cli_errors.sh PATH/TO/pfsim
case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
esac
if [ $# -ne 1 ] || [ ! -x "$1" ]; then echo "$(basename "$0"): usage: $0 PATH/TO/pfsim (an executable pfsim binary)" >&2; exit 2; fi
set -uo pipefail

pfsim=${1:?usage: $0 PATH/TO/pfsim}
pfsim=$(cd "$(dirname "$pfsim")" && pwd)/$(basename "$pfsim")  # absolute: some checks run in another directory
root=$(cd "$(dirname "$0")/.." && pwd)
good_platform=$root/platforms/cray-xe6-lustre2.1.json
# Real tool outputs: beside the checkout, else where this machine keeps them (as test_output_formats.py).
tool_outputs=$root/../shared/data/tool-outputs
[ -d "$tool_outputs" ] || tool_outputs=/work/shared/data/tool-outputs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0

# expect_error NAME NEEDLE... -- ARGS...: runs pfsim ARGS --out $tmp/NAME.json and checks the contract;
# every NEEDLE must appear (fixed string) in the single stderr line.
# expect_refused NAME NEEDLE... -- ARGS...: the same without adding --out (the command line names its own outputs).
expect_error() { check_refusal yes "$@"; }
expect_refused() { check_refusal no "$@"; }
check_refusal() {
  local with_out=$1 name=$2
  shift 2
  local needles=()
  while [ "$1" != "--" ]; do
    needles+=("$1")
    shift
  done
  shift
  local out=$tmp/out-$name.json
  if [ "$with_out" = yes ]; then
    "$pfsim" "$@" --out "$out" >"$tmp/$name.stdout" 2>"$tmp/$name.stderr"
  else
    "$pfsim" "$@" >"$tmp/$name.stdout" 2>"$tmp/$name.stderr"
  fi
  local rc=$?
  local lines
  lines=$(wc -l <"$tmp/$name.stderr")
  local msg
  msg=$(cat "$tmp/$name.stderr")
  local ok=1
  if [ "$rc" -ne 2 ]; then
    echo "FAIL $name: exit status $rc, expected 2"
    ok=0
  fi
  if [ "$lines" -ne 1 ]; then
    echo "FAIL $name: $lines stderr lines, expected exactly 1"
    ok=0
  fi
  for n in "${needles[@]}"; do
    if ! grep -qF -- "$n" "$tmp/$name.stderr"; then
      echo "FAIL $name: stderr does not name \"$n\""
      ok=0
    fi
  done
  if [ -e "$out" ] || compgen -G "$out*" >/dev/null; then
    echo "FAIL $name: $out was created"
    ok=0
  fi
  if [ "$ok" -eq 1 ]; then
    echo "ok   $name: $msg"
  else
    echo "     stderr was: $msg"
    failures=$((failures + 1))
  fi
}

# Inputs.
printf '{"name": "broken", "mds": {"cores": 12,, }}\n' >"$tmp/malformed.json"
printf '{"name": "typo", "mds": {"threds": {"min": 4}}}\n' >"$tmp/unknown-field.json"
printf '{"name": "units", "network": {"client_link": {"latency": "10 parsecs"}}}\n' >"$tmp/bad-unit.json"
printf '{"generator": "metabench", "ranks": 4, "metabench": {"files": 100, "phases": ["create", "rename"]}}\n' \
  >"$tmp/bad-workload.json"
printf '{"generator": "metabench", "ranks": 4, "metabench": {"files": 100}}\n' >"$tmp/good-workload.json"
if [ ! -f "$good_platform" ]; then
  echo "FAIL setup: $good_platform missing"
  exit 1
fi

printf '{"name": "a", "name": "b"}\n' >"$tmp/dup-key.json"
expect_error duplicate-key "$tmp/dup-key.json" "'name'" "twice" -- \
  metabench --platform "$tmp/dup-key.json" --ranks 4 --files 100
expect_error workload-is-a-directory "$tmp" "is a directory" -- \
  run --platform "$good_platform" --workload "$tmp"
expect_error missing-platform "$tmp/no-such-platform.json" -- \
  metabench --platform "$tmp/no-such-platform.json" --ranks 4 --files 100
expect_error malformed-json "$tmp/malformed.json" "JSON" -- \
  metabench --platform "$tmp/malformed.json" --ranks 4 --files 100
expect_error unknown-field "$tmp/unknown-field.json" "mds.threds" -- \
  metabench --platform "$tmp/unknown-field.json" --ranks 4 --files 100
expect_error bad-unit "$tmp/bad-unit.json" "network.client_link.latency" "parsecs" -- \
  metabench --platform "$tmp/bad-unit.json" --ranks 4 --files 100
# A bound another --set lowered is named, not the --set that turned the mechanism on (helper-69).
expect_error set-blames-bound "--set mds.threads.max=3:" "partitions.count" -- \
  metabench --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --ranks 64 --files 200 \
  --set mds.mechanisms.partitions.enabled=true --set mds.threads.max=3
# ... also when the message names the bound without its section (helper-91: "expected at least readahead_mb" named
# the first --set of clients., clients.hold_partial_rpcs)
expect_error set-blames-bound-leaf "--set clients.readahead_mb=128:" "clients.readahead_node_mb" -- \
  ior --platform "$root/platforms/titan-atlas2.json" --ranks 1 -r --set clients.hold_partial_rpcs=true \
  --set clients.readahead_mb=128
expect_error dirty-expire-zero "clients.dirty_expire" "duration > 0" -- \
  ior --platform "$root/platforms/titan-atlas2.json" --ranks 1 -w --set clients.dirty_expire=0s
expect_error readahead-under-one-rpc "clients.readahead_mb" "at least one RPC" -- \
  ior --platform "$root/platforms/titan-atlas2.json" --ranks 1 -r --set clients.readahead_mb=0.5
expect_error readahead-node-under-file "clients.readahead_node_mb" "at least readahead_mb" -- \
  ior --platform "$root/platforms/titan-atlas2.json" --ranks 1 -r --set clients.readahead_node_mb=8
expect_error bad-set "mds.threds" -- \
  metabench --platform "$good_platform" --set mds.threds.max=64 --ranks 4 --files 100
# A NUL byte after the JSON: nlohmann's parser stopped there and the file was accepted.
printf '{"name": "x"}\0garbage' >"$tmp/nul.json"
expect_error json-with-nul "$tmp/nul.json" "NUL" -- \
  metabench --platform "$tmp/nul.json" --ranks 4 --files 10
# A replay refused by a check made before its simulation prints that one line, not the import line before it.
expect_error replay-refused-one-line "mds.service.stat" "missing" -- \
  replay "$tool_outputs/md-real-io-2017" --platform "$root/platforms/mistral-lustre02.json" \
  --set 'mds.service={"stat":null}'
# An option given twice with different values: the last one won silently and the results recorded only it.
expect_error option-twice "--dir-mode" "twice" -- \
  metabench --platform "$good_platform" --ranks 4 --files 10 --dir-mode unique --dir-mode shared
expect_error option-twice-replay-style "-I" "twice" -- \
  mdworkbench --platform "$good_platform" --ranks 2 -I=5 -I 6 -P 10
# replay and mdworkbench sweeps (--csv with a --ranks list): the options of a single run are refused, not ignored.
expect_refused mdworkbench-list-without-csv "--ranks 2,4" "--csv" -- \
  mdworkbench --platform "$good_platform" --ranks 2,4 -I 5 -P 10
expect_refused mdworkbench-jobs-without-csv "--jobs" "--csv" -- \
  mdworkbench --platform "$good_platform" --ranks 2 -I 5 -P 10 --jobs 2
expect_refused mdworkbench-sweep-repeated-rank "--ranks" "appears twice" -- \
  mdworkbench --platform "$good_platform" --ranks 2,2 -I 5 -P 10 --csv "$tmp/mdw-sweep-twice.csv"
expect_refused replay-sweep-latency-dir "--csv" "--latency-dir" -- \
  replay "$tool_outputs/md-real-io-2017" --platform "$root/platforms/mistral-lustre02.json" --ranks 2,4 \
  --csv "$tmp/replay-sweep.csv" --latency-dir "$tmp/replay-sweep-lat"
if [ -e "$tmp/replay-sweep.csv" ] || [ -e "$tmp/replay-sweep-lat" ] || [ -e "$tmp/mdw-sweep-twice.csv" ]; then
  echo "FAIL replay-sweep-refused: a refused sweep wrote its table or latency directory"
  failures=$((failures + 1))
fi
# A shortened replay under a load law says that its rates are not the recording's first K operations'.
for k in 2 0; do
  extra=()
  [ "$k" -gt 0 ] && extra=(--max-ops-per-phase "$k")
  "$pfsim" replay "$tool_outputs/md-real-io-2017" --platform "$root/platforms/mistral-lustre02.json" \
    --residual-quantile 0.01 --quiet "${extra[@]}" >/dev/null 2>"$tmp/short-law-$k.stderr"
  said=$(grep -c "max-ops-per-phase with clients.load_delay" "$tmp/short-law-$k.stderr")
  if { [ "$k" -gt 0 ] && [ "$said" -eq 1 ]; } || { [ "$k" -eq 0 ] && [ "$said" -eq 0 ]; }; then
    echo "ok   short-replay-law-warning (--max-ops-per-phase $k): $said warning(s)"
  else
    echo "FAIL short-replay-law-warning (--max-ops-per-phase $k): $said warning(s): $(cat "$tmp/short-law-$k.stderr")"
    failures=$((failures + 1))
  fi
done
# An override inside a mechanism that stays off (the fitted platforms ship partitions with "enabled": false) is said,
# naming the switch; the same with the switch on is silent. A switch on with nothing to charge names the --set.
"$pfsim" metabench --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --ranks 4 --files 40 --quiet \
  --set mds.mechanisms.partitions.count=4 2>"$tmp/set-off.err"
"$pfsim" metabench --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --ranks 64 --files 640 --quiet \
  --set mds.mechanisms.partitions.count=4 --set mds.mechanisms.partitions.enabled=true 2>"$tmp/set-on.err"
"$pfsim" metabench --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --ranks 4 --files 40 --quiet \
  --set 'mds.mechanisms.oversubscription={"enabled":true}' 2>"$tmp/set-idle.err"
if grep -q "warning: --set mds.mechanisms.partitions.count=4: mds.mechanisms.partitions is off .*add --set mds.mechanisms.partitions.enabled=true" "$tmp/set-off.err" &&
  ! grep -q warning "$tmp/set-on.err" &&
  grep -q "warning: --set mds.mechanisms.oversubscription={\"enabled\":true}: .*changes nothing" "$tmp/set-idle.err"; then
  echo "ok   set-inside-disabled-mechanism: $(grep warning "$tmp/set-off.err" | cut -c1-120)"
else
  echo "FAIL set-inside-disabled-mechanism: $(cat "$tmp/set-off.err" "$tmp/set-on.err" "$tmp/set-idle.err")"
  failures=$((failures + 1))
fi
# A bare number that --set gives a field the platform writes with a unit is read in the base unit, and said (500 for
# a CPU demand is 500 s); with a unit, or 0, it is silent. An override of directory locking in a workload of unique
# directories changes nothing, and is said; in a shared directory it is silent.
"$pfsim" metabench --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --ranks 4 --files 40 --quiet \
  --set mds.service.stat=500 --set mds.service.create=500us --set mds.dir_lock.hold.create=0 \
  --set clients.op_overhead.create=7 --set clients.op_overhead.create=7us 2>"$tmp/bare.err"
"$pfsim" metabench --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --ranks 4 --files 40 --quiet \
  --dir-mode shared --set mds.dir_lock.hold.create=0 2>"$tmp/lock-shared.err"
if grep -q "warning: --set mds.service.stat=500: a number without a unit is read in s (500 s), and the platform gives this field as \"220.632us\"" "$tmp/bare.err" &&
  [ "$(grep -c 'without a unit' "$tmp/bare.err")" -eq 1 ] &&
  grep -q "warning: --set clients.op_overhead.create=7 is replaced by the later --set clients.op_overhead.create=7us" "$tmp/bare.err" &&
  grep -q "warning: --set mds.dir_lock.hold.create=0: mds.dir_lock acts only on directories that several ranks use" "$tmp/bare.err" &&
  ! grep -q warning "$tmp/lock-shared.err"; then
  echo "ok   set-bare-number / set-twice / set-dir-lock-unshared warnings"
else
  echo "FAIL set-bare-number / set-dir-lock-unshared: $(cat "$tmp/bare.err" "$tmp/lock-shared.err")"
  failures=$((failures + 1))
fi
# A workload file's ranks_per_node beats the platform's: an override of the platform's changes nothing and is said
# (naming --ranks-per-node); with --ranks-per-node given it is silent.
printf '{"generator": "metabench", "ranks_per_node": 16, "metabench": {"files": 64}}\n' >"$tmp/rpn-workload.json"
"$pfsim" run --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --workload "$tmp/rpn-workload.json" \
  --ranks 32 --quiet --set clients.ranks_per_node=4 2>"$tmp/rpn-set.err"
"$pfsim" run --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --workload "$tmp/rpn-workload.json" \
  --ranks 32 --quiet --ranks-per-node 4 2>"$tmp/rpn-opt.err"
if grep -q "warning: --set clients.ranks_per_node=4 changes nothing: the workload file .*rpn-workload.json gives ranks_per_node 16.*--ranks-per-node" "$tmp/rpn-set.err" &&
  ! grep -q warning "$tmp/rpn-opt.err"; then
  echo "ok   set-ranks-per-node-beaten-by-workload warning"
else
  echo "FAIL set-ranks-per-node-beaten-by-workload: $(cat "$tmp/rpn-set.err" "$tmp/rpn-opt.err")"
  failures=$((failures + 1))
fi
# A bulk I/O run on a platform whose load law covers reads, and does not say the size it was fitted on, says that
# every read going to an OST is delayed (Mistral's law without its fitted_size: it was fitted on md-real-io's 3.9 KB
# objects), and not with the laws off; with the fitted_size the run says it instead, after the run, naming the size
# (the check below); a metadata replay under a load law without --residual-quantile says that the recorded
# latencies are not replayed, and not with it.
"$pfsim" ior --platform "$root/platforms/mistral-lustre02.json" --ranks 4 -t 64k -b 1m -F -r --quiet \
  --set 'clients.load_delay.per_op.read={"fitted_size":null}' 2>"$tmp/law-ior.err"
"$pfsim" ior --platform "$root/platforms/mistral-lustre02.json" --ranks 4 -t 64k -b 1m -F -r --quiet \
  --set clients.load_delay.enabled=false 2>"$tmp/law-ior-off.err"
"$pfsim" replay "$tool_outputs/md-real-io-2017" --platform "$root/platforms/mistral-lustre02.json" --quiet 2>"$tmp/law-rq.err"
"$pfsim" replay "$tool_outputs/md-real-io-2017" --platform "$root/platforms/mistral-lustre02.json" --quiet \
  --residual-quantile 0.01 2>"$tmp/law-rq-on.err"
if grep -q "warning: clients.load_delay has a law for read .*every read call of this run that goes to an OST" "$tmp/law-ior.err" &&
  ! grep -q "fitted_size" "$tmp/law-ior.err" &&
  ! grep -q "load_delay" "$tmp/law-ior-off.err" &&
  grep -q "note: no --residual-quantile: the recorded latencies are not replayed; every create, .*stat.* draws" "$tmp/law-rq.err" &&
  ! grep -q "no --residual-quantile" "$tmp/law-rq-on.err"; then
  echo "ok   load-law notes: bulk reads on a fitted law, a replay without --residual-quantile"
else
  echo "FAIL load-law notes: $(cat "$tmp/law-ior.err" "$tmp/law-ior-off.err" "$tmp/law-rq.err" "$tmp/law-rq-on.err")"
  failures=$((failures + 1))
fi
# More CPU partitions than client nodes: the partitions no node is bound to are said (and not with enough nodes).
"$pfsim" metabench --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --ranks 64 --files 640 --quiet \
  --set mds.mechanisms.partitions.enabled=true --set mds.mechanisms.partitions.count=6 2>"$tmp/parts-few.err"
"$pfsim" metabench --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --ranks 96 --files 960 --quiet \
  --set mds.mechanisms.partitions.enabled=true --set mds.mechanisms.partitions.count=6 2>"$tmp/parts-ok.err"
if grep -q "warning: mds.mechanisms.partitions: 6 partitions for 4 client nodes .*: 2 partitions and their cores serve no client" "$tmp/parts-few.err" &&
  ! grep -q "partitions for" "$tmp/parts-ok.err"; then
  echo "ok   partitions-without-clients warning"
else
  echo "FAIL partitions-without-clients: $(cat "$tmp/parts-few.err" "$tmp/parts-ok.err")"
  failures=$((failures + 1))
fi
# Fewer metabench files than ranks: the idle ranks are said, in pfsim metabench and in a sweep point of a metabench
# workload file alike; a refused run still says one thing (the error), not the warning too.
"$pfsim" metabench --platform "$good_platform" --ranks 64 --files 10 --quiet 2>"$tmp/few-files.err"
if grep -q "warning: 10 files over 64 ranks: 54 ranks have no file" "$tmp/few-files.err"; then
  echo "ok   few-files warning"
else
  echo "FAIL few-files warning: $(cat "$tmp/few-files.err")"
  failures=$((failures + 1))
fi
expect_error few-files-refused-run "maxmin/precision" -- \
  metabench --platform "$good_platform" --ranks 64 --files 10 --cfg=maxmin/precision:0
# The fitted per-client cost past twice the client nodes its fit saw (512): said at 2048 nodes, not at 1024.
"$pfsim" metabench --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --ranks 2048 --files 2048 --quiet \
  --ranks-per-node 1 2>"$tmp/pc2048.err"
"$pfsim" metabench --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --ranks 1024 --files 1024 --quiet \
  --ranks-per-node 1 2>"$tmp/pc1024.err"
if grep -q "warning: mds.mechanisms.per_client: fitted on up to 512 client nodes; this run has 2048 (more than twice: 4x)" "$tmp/pc2048.err" &&
  ! grep -q warning "$tmp/pc1024.err"; then
  echo "ok   per-client-extrapolation warning"
else
  echo "FAIL per-client-extrapolation: $(cat "$tmp/pc2048.err" "$tmp/pc1024.err")"
  failures=$((failures + 1))
fi
# The fitted per-directory cost past twice the directories its fit saw (80 per MDS): said for mdtest -u at 400 ranks
# (a directory per rank), not for IOR at 400 ranks, whose files are all in its one test directory.
"$pfsim" mdtest --platform "$root/platforms/spartan-cephfs-fitted.json" --ranks 400 -n 2 -u -F --quiet 2>"$tmp/pd-u.err"
"$pfsim" ior --platform "$root/platforms/spartan-cephfs-fitted.json" --ranks 400 -t 1m -b 1m -w -e -F --quiet \
  2>"$tmp/pd-ior.err"
# md-workbench's data sets count (D per rank): 100 ranks with -D 4 keep 200 per MDS (helper-74: no warning).
"$pfsim" mdworkbench --platform "$root/platforms/spartan-cephfs-fitted.json" --ranks 100 -I 2 -P 4 -D 4 -R 1 -1 -2 \
  >/dev/null 2>"$tmp/pd-mdw.err"
if grep -q "warning: mds.mechanisms.per_directory: fitted on up to 80 directories" "$tmp/pd-u.err" &&
  grep -q "this run can have 200 (more than twice: 2.5x" "$tmp/pd-mdw.err" && ! grep -q per_directory "$tmp/pd-ior.err"; then
  echo "ok   per-directory-extrapolation warning"
else
  echo "FAIL per-directory-extrapolation: $(cat "$tmp/pd-u.err" "$tmp/pd-ior.err" "$tmp/pd-mdw.err")"
  failures=$((failures + 1))
fi
# An option where a value belongs ("--csv --quiet" wrote a file named --quiet): refused, in both parsers.
expect_refused option-value-is-option "--csv needs a value, got the option --quiet" -- \
  mdworkbench --platform "$good_platform" --ranks 2,4 -I 5 -P 10 --csv --quiet
expect_refused option-value-is-option-run "--out needs a value, got the option --quiet" -- \
  metabench --platform "$good_platform" --ranks 2 --files 10 --out --quiet
# --check takes a rank list (every count is checked; a sweep's --csv is not for --check)
"$pfsim" replay "$tool_outputs/md-real-io-2017" --check --ranks 2,3 >/dev/null 2>"$tmp/check-list.err"
rc=$?
if [ "$rc" -eq 0 ]; then
  echo "ok   replay --check --ranks LIST: exit 0"
else
  echo "FAIL replay --check --ranks LIST: exit $rc, $(cat "$tmp/check-list.err")"
  failures=$((failures + 1))
fi
# A single run stopped by a signal says so in one line, writes nothing and dies of the signal (SimGrid's own SIGINT
# handler exited with status 1 and a line about skipped cleanups). SIGTERM here: a background job of a script starts
# with SIGINT ignored, and pfsim keeps a signal ignored at its start ignored (nohup).
"$pfsim" metabench --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --ranks 1024 --files 4000000 \
  --out "$tmp/interrupted.json" >/dev/null 2>"$tmp/interrupted.err" &
run_pid=$!
sleep 2
kill -TERM "$run_pid"
wait "$run_pid"
rc=$?
if [ "$rc" -eq 143 ] && [ "$(wc -l <"$tmp/interrupted.err")" -eq 1 ] &&
  grep -q "^pfsim: stopped by SIGTERM before the run finished; its outputs not yet in place were removed$" "$tmp/interrupted.err" &&
  [ -z "$(ls "$tmp" | grep interrupted.json)" ]; then
  echo "ok   interrupted run: exit 143, $(cat "$tmp/interrupted.err")"
else
  echo "FAIL interrupted run: exit $rc, $(cat "$tmp/interrupted.err"), $(ls "$tmp" | grep interrupted.json)"
  failures=$((failures + 1))
fi
# A sweep killed by a signal to its parent only leaves no point running, and no point writes afterwards.
"$pfsim" mdworkbench --platform "$root/platforms/mistral-lustre02.json" --ranks 40,80 -I 400 -P 800 \
  --csv "$tmp/killed.csv" --results-dir "$tmp/killed-rd" --jobs 2 --quiet 2>/dev/null &
sweep_pid=$!
sleep 1
kill -TERM "$sweep_pid"
wait "$sweep_pid" 2>/dev/null
sleep 8  # a point left running would write within this (each takes longer than 1 s, shorter than 60)
if ! pgrep -f -- "--results-dir $tmp/killed-rd" >/dev/null && [ -z "$(ls -A "$tmp/killed-rd" 2>/dev/null)" ] &&
  [ ! -e "$tmp/killed.csv" ]; then
  echo "ok   killed sweep: no point left running, nothing written"
else
  echo "FAIL killed sweep: $(pgrep -af -- "--results-dir $tmp/killed-rd"), $(ls "$tmp/killed-rd" 2>&1)"
  pkill -f -- "--results-dir $tmp/killed-rd"
  failures=$((failures + 1))
fi
# A signal to the sweep's whole process group (a Ctrl-C, a batch system's kill of the job) reaches the points too: one
# may die of it before the sweep's handler runs. The sweep still says it stopped in one line and dies of the signal
# (helper-75: "point N ranks: killed by signal 2", then at times "a sweep point failed", exit 1).
setsid "$pfsim" mdworkbench --platform "$root/platforms/mistral-lustre02.json" --ranks 42,82 -I 400 -P 800 \
  --csv "$tmp/killed3.csv" --jobs 2 --quiet 2>"$tmp/killed3.err" &
sweep_pid=$!
sleep 1
kill -TERM -- "-$sweep_pid" 2>/dev/null || kill -TERM "$sweep_pid"
wait "$sweep_pid"
rc=$?
if [ "$rc" -eq 143 ] && [ "$(wc -l <"$tmp/killed3.err")" -eq 1 ] && grep -q "sweep stopped by SIGTERM" "$tmp/killed3.err" &&
  [ ! -e "$tmp/killed3.csv" ]; then
  echo "ok   sweep's process group killed: exit 143, $(cat "$tmp/killed3.err")"
else
  echo "FAIL sweep's process group killed: exit $rc, $(cat "$tmp/killed3.err")"
  pkill -f -- "--csv $tmp/killed3.csv"
  failures=$((failures + 1))
fi
# ... and without --results-dir it leaves no temporary directory ($TMPDIR/pfsim-sweep-*) behind.
mkdir -p "$tmp/sweep-tmpdir"
TMPDIR="$tmp/sweep-tmpdir" "$pfsim" mdworkbench --platform "$root/platforms/mistral-lustre02.json" --ranks 41,81 \
  -I 400 -P 800 --csv "$tmp/killed2.csv" --jobs 2 --quiet 2>/dev/null &
sweep_pid=$!
sleep 1
kill -TERM "$sweep_pid"
wait "$sweep_pid"
rc=$?
sleep 1
if [ "$rc" -eq 143 ] && [ -z "$(ls -A "$tmp/sweep-tmpdir")" ] && ! pgrep -f -- "--csv $tmp/killed2.csv" >/dev/null; then
  echo "ok   killed sweep without --results-dir: exit 143 (SIGTERM), no temporary directory left"
else
  echo "FAIL killed sweep without --results-dir: exit $rc, left: $(ls "$tmp/sweep-tmpdir")"
  pkill -f -- "--csv $tmp/killed2.csv"
  failures=$((failures + 1))
fi
# SIGKILL runs no handler: the directory stays, named with the sweep's pid, and the next sweep removes it once that
# process is gone (a live process's directory and one of another name are left).
sh -c 'exit 0' &
dead=$!
wait "$dead"
host=$(hostname | tr -cd 'A-Za-z0-9' | cut -c1-32)
mkdir -p "$tmp/sweep-tmpdir/pfsim-sweep-$host-$dead-AbC123" "$tmp/sweep-tmpdir/pfsim-sweep-$host-$$-AbC123" \
  "$tmp/sweep-tmpdir/pfsim-sweep-XyZ789" "$tmp/sweep-tmpdir/pfsim-sweep-$host-$dead-LoCk12" \
  "$tmp/sweep-tmpdir/pfsim-sweep-otherhost-$dead-AbC123"
# (older than 10 s, as a dead sweep's are: a directory that new may be a starting sweep's, before its lock)
touch -d '1 minute ago' "$tmp/sweep-tmpdir"/pfsim-sweep-*
# ... nor one whose lock is held (a live sweep whose pid looks gone from another pid namespace)
flock -n "$tmp/sweep-tmpdir/pfsim-sweep-$host-$dead-LoCk12" sleep 20 &
holder=$!
sleep 0.5
TMPDIR="$tmp/sweep-tmpdir" "$pfsim" mdworkbench --platform "$root/platforms/mistral-lustre02.json" --ranks 2,3 \
  -I 2 -P 4 -R 1 --csv "$tmp/stale.csv" --quiet 2>/dev/null
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
kept=$(printf '%s\n' "pfsim-sweep-$host-$$-AbC123" "pfsim-sweep-$host-$dead-LoCk12" pfsim-sweep-XyZ789 \
  "pfsim-sweep-otherhost-$dead-AbC123" | LC_ALL=C sort | tr '\n' ' ')
if [ "$(ls "$tmp/sweep-tmpdir" | LC_ALL=C sort | tr '\n' ' ')" = "$kept" ]; then
  echo "ok   a SIGKILLed sweep's temporary directory is removed by the next sweep"
else
  echo "FAIL stale sweep directories: left $(ls "$tmp/sweep-tmpdir" | tr '\n' ' ') (dead pid $dead)"
  failures=$((failures + 1))
fi
# A real mdtest command line runs (-a POSIX, -d PATH accepted and recorded); another interface is refused.
expect_error mdtest-api-not-posix "-a MPIIO" "expected POSIX" -- \
  mdtest --platform "$good_platform" --ranks 2 -n 5 -a MPIIO
if "$pfsim" mdtest --platform "$good_platform" --ranks 2 -a POSIX -n 5 -i 2 -u -w 3901 -e 3901 -d /scratch/x \
  --out "$tmp/mdtest-real-cmd.json" --quiet 2>/dev/null && grep -q '"-d": "/scratch/x"' "$tmp/mdtest-real-cmd.json"; then
  echo "ok   mdtest accepts a real command line (-a POSIX -d PATH), recorded"
else
  echo "FAIL mdtest with -a POSIX -d PATH"
  failures=$((failures + 1))
fi
# SimGrid options: values SimGrid accepts but that crash (precision -1: SIGSEGV) or hang (concurrency-limit 0) a run,
# and what SimGrid itself refuses (a bad number, an unknown key), are the user's error: exit 2, one line.
expect_error cfg-precision-negative "--cfg=maxmin/precision:-1" "positive" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --cfg=maxmin/precision:-1
expect_error cfg-concurrency-zero "--cfg=maxmin/concurrency-limit:0" "at least 1" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --cfg=maxmin/concurrency-limit:0
expect_error cfg-unknown-key "network/bogus" "--cfg=help" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --cfg=network/bogus:1
expect_error cfg-bad-number "network/latency-factor:abc" "SimGrid refused" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --cfg=network/latency-factor:abc
# --latency-all names md-workbench's files: with another output format it is refused, not ignored.
expect_error latency-all-mdtest-format "--latency-all" "mdtest" -- \
  replay "$tool_outputs/mdtest" --platform "$good_platform" --latency-all --quiet
# Sizes up to the 1 PB limit may be written in PB.
expect_error size-above-1pb "mds.journal.capacity" "1e15" -- \
  metabench --platform "$good_platform" --set 'mds.journal.capacity="2PB"' --ranks 4 --files 100
# MDS settings for data operations (they go to an OSS) could never take effect.
expect_error mds-service-write "mds.service.write" "OSS" -- \
  metabench --platform "$good_platform" --set mds.service.write=1ms --ranks 4 --files 100
# CPU partitions split the thread totals: fewer threads than partitions is refused, not silently raised.
expect_error partitions-above-threads "mds.mechanisms.partitions.count" "mds.threads.max (4)" -- \
  metabench --platform "$good_platform" --set mds.threads.min=2 --set mds.threads.max=4 \
  --set mds.mechanisms.partitions.enabled=true --set mds.mechanisms.partitions.count=12 --ranks 4 --files 100
# An override that makes a field beside it wrong is named (the file alone is valid): here a law's slope key.
expect_error set-makes-sibling-wrong "--set clients.load_delay.per_op.stat.population=md_ops_in_flight" \
  "per_active_rank" -- \
  mdtest --platform "$root/platforms/mistral-lustre02.json" --ranks 2 -n 4 \
  --set clients.load_delay.per_op.stat.population=md_ops_in_flight
# Integers are plain digits: no sign '+', no spaces (stoll would skip them), in lists no empty last item.
expect_error ranks-plus-sign "--ranks" "+5" -- \
  metabench --platform "$good_platform" --ranks +5 --files 100
expect_error ranks-leading-space "--ranks" " 5" -- \
  metabench --platform "$good_platform" --ranks " 5" --files 100
"$pfsim" sweep --platform "$good_platform" --workload "$root/validation/lu1695/workload-unique.json" \
  --ranks "2," --csv "$tmp/sweep-trailing.csv" >/dev/null 2>"$tmp/sweep-trailing.stderr"
rc=$?
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/sweep-trailing.stderr")" -eq 1 ] && [ ! -e "$tmp/sweep-trailing.csv" ]; then
  echo "ok   sweep-rank-list-trailing-comma: $(cat "$tmp/sweep-trailing.stderr")"
else
  echo "FAIL sweep-rank-list-trailing-comma: exit $rc, stderr $(cat "$tmp/sweep-trailing.stderr")"
  failures=$((failures + 1))
fi
# What --no-samples cannot give is refused before the simulation (one stderr line: no "N ranks on M nodes").
expect_error no-samples-latency-dir "--latency-dir needs per-operation samples" -- \
  mdworkbench --platform "$good_platform" --ranks 2 -I 3 -P 5 -R 1 --no-samples --latency-dir "$tmp/ns-lat"
expect_error no-samples-mdworkbench-lines "--no-samples" "md-workbench" -- \
  mdworkbench --platform "$good_platform" --ranks 2 -I 3 -P 5 -R 1 --no-samples
# --out and --latency-dir spelled differently but one path ("x" and "./x", relative to the working directory).
mkdir -p "$tmp/cwd"
(cd "$tmp/cwd" && "$pfsim" mdworkbench --platform "$good_platform" --ranks 2 -I 3 -P 5 -R 1 --out same.json \
  --latency-dir ./same.json >/dev/null 2>"$tmp/same.stderr")
rc=$?
if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/same.stderr")" -eq 1 ] && grep -qF "name the same path" "$tmp/same.stderr" &&
  [ -z "$(ls -A "$tmp/cwd")" ]; then
  echo "ok   same-path-two-spellings: $(cat "$tmp/same.stderr")"
else
  echo "FAIL same-path-two-spellings: exit $rc, stderr $(cat "$tmp/same.stderr"), left: $(ls -A "$tmp/cwd")"
  failures=$((failures + 1))
fi
expect_error ranks-not-a-number "--ranks" "abc" -- \
  metabench --platform "$good_platform" --ranks abc --files 100
expect_error ranks-per-node-zero "--ranks-per-node" "[1," -- \
  metabench --platform "$good_platform" --ranks 16 --files 100 --ranks-per-node 0
# Counts beyond what the workload and platform files accept are refused on the command line too (before
# they overflow an int or allocate per-rank state).
expect_error ranks-too-many "--ranks" "[1, 10000000]" -- \
  metabench --platform "$good_platform" --ranks 20000000 --files 100
expect_error ranks-per-node-too-many "--ranks-per-node" "[1, 4096]" -- \
  metabench --platform "$good_platform" --ranks 16 --files 100 --ranks-per-node 5000
expect_error run-rank-too-many "--ranks" "[1, 10000000]" -- \
  run --platform "$good_platform" --workload "$root/validation/lu1695/workload-unique.json" --ranks 99999999999
"$pfsim" sweep --platform "$good_platform" --workload "$root/validation/lu1695/workload-unique.json" \
  --ranks 16,99999999999 --csv "$tmp/sweep-too-many.csv" >/dev/null 2>"$tmp/sweep-too-many.stderr"
rc=$?
if [ "$rc" -eq 2 ] && grep -qF -- "99999999999" "$tmp/sweep-too-many.stderr" && [ ! -e "$tmp/sweep-too-many.csv" ]; then
  echo "ok   sweep-rank-list-too-many: $(cat "$tmp/sweep-too-many.stderr")"
else
  echo "FAIL sweep-rank-list-too-many: exit $rc, stderr $(cat "$tmp/sweep-too-many.stderr")"
  failures=$((failures + 1))
fi
expect_error mdworkbench-iterations-too-many "-R" "[0, 10000]" -- \
  mdworkbench --platform "$good_platform" --ranks 2 -R 2000000
expect_error latency-dir-uncreatable "--latency-dir" "/proc/pfsim-x/y" -- \
  metabench --platform "$good_platform" --ranks 16 --files 100 --latency-dir /proc/pfsim-x/y
expect_error replay-ranks-per-node-zero "--ranks-per-node" "[1," -- \
  replay "$tool_outputs/md-real-io-2017" --platform "$good_platform" --ranks-per-node 0
# An output directory where nothing can be created (root may "write" /proc by access(), not create in it):
# refused before the run, not after it.
"$pfsim" metabench --platform "$good_platform" --ranks 16 --files 100 --out /proc/pfsim-r.json >"$tmp/proc.stdout" 2>"$tmp/proc.stderr"
rc=$?
if [ "$rc" -eq 2 ] && grep -qF -- "/proc" "$tmp/proc.stderr" && [ ! -s "$tmp/proc.stdout" ]; then
  echo "ok   out-in-proc: $(cat "$tmp/proc.stderr")"
else
  echo "FAIL out-in-proc: exit $rc, stderr $(cat "$tmp/proc.stderr"), stdout $(wc -c <"$tmp/proc.stdout") bytes"
  failures=$((failures + 1))
fi
expect_error ranks-zero "--ranks" -- \
  metabench --platform "$good_platform" --ranks 0 --files 100
expect_error ranks-trailing-garbage "--ranks" "12x" -- \
  run --platform "$good_platform" --workload "$tmp/good-workload.json" --ranks 12x
expect_error missing-workload "$tmp/no-such-workload.json" -- \
  run --platform "$good_platform" --workload "$tmp/no-such-workload.json"
expect_error bad-workload "$tmp/bad-workload.json" "metabench.phases" "rename" -- \
  run --platform "$good_platform" --workload "$tmp/bad-workload.json"
expect_error unknown-option "--rank" "metabench" -- \
  metabench --platform "$good_platform" --rank 4 --files 100
expect_error unknown-option-replay "--platfrom" "replay" -- \
  replay "$tmp" --platfrom "$good_platform"
expect_error mdworkbench-no-ranks "--ranks" -- \
  mdworkbench --platform "$good_platform" -I 3 -P 5 -R 1
expect_error unknown-option-workbench "-Q" "mdworkbench" -- \
  mdworkbench --platform "$good_platform" -Q=3
expect_error mdtest-items-overflow "-n" "64-bit" -- \
  mdtest --platform "$good_platform" --ranks 3 -n 9000000000000000000 -F
# More client nodes (one actor each) than the kernel lets a process map stacks for: one error before the run, not
# SimGrid's abort ("Failed to protect stack"). Needs a node count above vm.max_map_count (65530 by default).
maps=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 65530)
if [ "$maps" -lt 9000000 ]; then
  expect_error too-many-actors "vm.max_map_count" "--ranks-per-node" -- \
    metabench --platform "$good_platform" --ranks $((maps + 10)) --ranks-per-node 1 --files 100
fi
# A time limit bounds the run, not only the simulated time: -n 10^12 files per rank stops at 1 s simulated at once
# (the check of the operation kinds used to walk all of rank 0's 10^12 operations first).
"$pfsim" mdtest --platform "$good_platform" --ranks 2 -n 1000000000000 -F --time-limit 1s >/dev/null 2>"$tmp/tl.err"
if [ $? -eq 1 ] && grep -q "time limit" "$tmp/tl.err"; then
  echo "ok   mdtest -n 10^12 --time-limit 1s: stops at the limit"
else
  echo "FAIL mdtest -n 10^12 --time-limit 1s: $(head -c 200 "$tmp/tl.err")"
  failures=$((failures + 1))
fi
# The same for the md-workbench generator: 10^12 objects per data set, 10^6 sets, the first step at once.
"$pfsim" mdworkbench --platform "$good_platform" --ranks 1 -D 1000000 -P 1000000 -I 1000000 -R 3 \
  --time-limit 0.001s >/dev/null 2>"$tmp/tl2.err"
if [ $? -eq 1 ] && grep -q "time limit" "$tmp/tl2.err"; then
  echo "ok   mdworkbench -D 10^6 -P 10^6 -I 10^6 --time-limit: stops at the limit"
else
  echo "FAIL mdworkbench -D 10^6 -P 10^6 --time-limit: $(head -c 200 "$tmp/tl2.err")"
  failures=$((failures + 1))
fi
expect_error offset-disagrees "-O 1" "--offset 2" "disagree" -- \
  mdworkbench --platform "$good_platform" --ranks 4 -I 2 -P 4 -R 1 -O 1 --offset 2
# The Args line's own spelling is accepted: --offset=2 and -O 2 give the same run as --offset 2.
a=$("$pfsim" mdworkbench --platform "$good_platform" --ranks 4 -I 2 -P 4 -R 1 --offset 2 2>/dev/null)
for form in "--offset=2" "-O 2" "-O=2"; do
  # shellcheck disable=SC2086
  b=$("$pfsim" mdworkbench --platform "$good_platform" --ranks 4 -I 2 -P 4 -R 1 $form 2>/dev/null)
  if [ -z "$a" ] || [ "$a" != "$b" ]; then
    echo "FAIL mdworkbench $form: not the same run as --offset 2"
    failures=$((failures + 1))
  else
    echo "ok   mdworkbench $form = --offset 2"
  fi
done
# mdtest and metabench take -n=10 / --ranks=4 as IOR's option parser does: the same run as -n 10 --ranks 4; the
# byte counts take its suffixes (-w 1k = -w 1024). mdtest's "Command line used" prints its options as typed.
a=$("$pfsim" mdtest --platform "$good_platform" --ranks 4 -n 10 -F -u -w 1024 2>/dev/null)
b=$("$pfsim" mdtest --platform "$good_platform" --ranks=4 -n=10 -F -u -w 1k -a posix 2>/dev/null)
if [ -z "$a" ] || [ "$(grep -v '^Command line used' <<<"$a")" != "$(grep -v '^Command line used' <<<"$b")" ] ||
  ! grep -qxF "Command line used: mdtest '-n=10' '-F' '-u' '-w' '1k' '-a' 'posix'" <<<"$b"; then
  echo "FAIL mdtest --ranks=4 -n=10 -w 1k: not the same run as --ranks 4 -n 10 -w 1024, or not as typed: $(grep '^Command' <<<"$b")"
  failures=$((failures + 1))
else
  echo "ok   mdtest --ranks=4 -n=10 -w 1k = --ranks 4 -n 10 -w 1024, command line as typed"
fi
# A real md-workbench command line runs as typed (-a POSIX -o PATH recorded; -L=PREFIX writes PREFIX-... latency
# files; -S=4k is 4096 B), and is the same run as pfsim's own spelling.
mkdir -p "$tmp/mdw-typed" "$tmp/mdw-own"
a=$(cd "$tmp/mdw-typed" && "$pfsim" mdworkbench --platform "$good_platform" --ranks 2 -a POSIX -o /scratch/x -I=2 -P=4 \
  -D=1 -R=1 -S=4k -L=lat --latency-all 2>/dev/null)
b=$("$pfsim" mdworkbench --platform "$good_platform" --ranks 2 -I 2 -P 4 -D 1 -R 1 -S 4096 --latency-dir "$tmp/mdw-own" \
  --latency-prefix lat --latency-all 2>/dev/null)
if [ -n "$a" ] && [ "$(grep -v '^Args:' <<<"$a")" = "$(grep -v '^Args:' <<<"$b")" ] &&
  grep -qF 'Args: md-workbench "-a" "POSIX" "-o" "/scratch/x" "-I=2"' <<<"$a" &&
  [ "$(ls "$tmp/mdw-typed")" = "$(ls "$tmp/mdw-own")" ] && [ -n "$(ls "$tmp/mdw-typed")" ]; then
  echo "ok   mdworkbench as md-workbench typed it (-a -o -L=lat -S=4k)"
else
  echo "FAIL mdworkbench -a POSIX -o P -L=lat -S=4k: $(head -1 <<<"$a"); files $(ls "$tmp/mdw-typed" | head -2)"
  failures=$((failures + 1))
fi
expect_refused mdworkbench-L-and-latency-dir "-L lat" "--latency-dir" -- \
  mdworkbench --platform "$good_platform" --ranks 2 -L=lat --latency-dir "$tmp/x"
expect_refused mdworkbench-api "-a MPIIO" "POSIX" -- mdworkbench --platform "$good_platform" --ranks 2 -a MPIIO
expect_error time-limit-not-a-duration "--time-limit" "abc" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --time-limit abc
expect_error time-limit-zero "--time-limit" "positive" -- \
  mdworkbench --platform "$good_platform" --ranks 2 -I 2 --time-limit 0s
expect_error set-empty-path "--set =5" "dotted field path" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set =5
# Lustre keeps a stripe size in 32 bits (helper-81: 2t was accepted)
expect_error stripe-size-too-big "oss.stripe_size" "4294901760" -- \
  ior --platform "$root/platforms/titan-atlas2.json" --ranks 1 -t 64k -b 1m -w --set oss.stripe_size=4g
expect_error set-into-value "--set mds.cores.x=5" "mds.cores" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set mds.cores.x=5
expect_error set-names-override "--set mds.cores=0" "mds.cores" -- \
  replay "$tmp" --platform "$good_platform" --set mds.cores=0
expect_error mdtest-e-above-w "-e 4096" "at most -w" -- \
  mdtest --platform "$good_platform" --ranks 1 -n 1 -w 100 -e 4096
expect_error mdtest-huge-w "-w" "[0, 1000000000000000]" -- \
  mdtest --platform "$good_platform" --ranks 1 -n 1 -w 100000000000000000
expect_error mds-service-missing "mds.service.create" "missing" "--set mds.service={\"create\":null}" "$good_platform" -- \
  metabench --platform "$good_platform" --ranks 2 --files 10 --set 'mds.service={"create":null}'
expect_error load-delay-shape-mean "shape" "averaging 1" -- \
  mdtest --platform "$good_platform" --ranks 2 -n 5 -u -F \
  --set 'clients.load_delay={"enabled":true,"per_op":{"stat":{"base":"1ms","shape":[0,1e300]}}}'
expect_error mdtest-e-above-w "-e 20" "at most -w" -- \
  mdtest --platform "$good_platform" --ranks 1 -n 1 -w 10 -e 20
expect_error replay-ranks-zero "--ranks" -- \
  replay "$tmp" --platform "$good_platform" --ranks 0
mkfifo "$tmp/fifo"
expect_error latency-dir-is-a-fifo "$tmp/fifo" "expected a directory" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --latency-dir "$tmp/fifo"
expect_error latency-dir-uncreatable "$tmp/fifo/sub" "cannot be created" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --latency-dir "$tmp/fifo/sub"
# A directory named like a latency file the run would write: refused before the run, nothing written there.
mkdir -p "$tmp/obstacle/mdreal-0-create-0.csv"
expect_error latency-dir-obstacle "$tmp/obstacle/mdreal-0-create-0.csv" "not a regular file" -- \
  replay "$tool_outputs/md-real-io-2017" --platform "$root/platforms/mistral-lustre02.json" \
  --output-format mdreal2017 --latency-dir "$tmp/obstacle"
if [ "$(ls "$tmp/obstacle" | wc -l)" -ne 1 ]; then
  echo "FAIL latency-dir-obstacle: files were written to $tmp/obstacle: $(ls "$tmp/obstacle" | tr '\n' ' ')"
  failures=$((failures + 1))
fi
expect_error latency-prefix-slash "--latency-prefix" "a/b" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --latency-dir "$tmp/ld" --latency-prefix a/b
# helper-136: '..' was refused as a prefix "without '/'", which it has not
expect_error latency-prefix-dotdot "--latency-prefix .." "'..' names a directory (the parent one)" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --latency-dir "$tmp/ld" --latency-prefix ..
expect_error bad-log "--log=bogus" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --log=bogus
expect_error cfg-overrides-platform "--cfg=network/model:Constant" "--set network.model" -- \
  replay "$tmp" --platform "$good_platform" --cfg=network/model:Constant
expect_error empty-value "--time-limit" "non-empty" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --time-limit ""
expect_error cfg-contexts "--cfg=contexts/stack-size:0" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --cfg=contexts/stack-size:0
expect_error set-duplicate-key "key 'min' appears twice" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set 'mds.threads={"min":2,"max":64,"min":3}'
expect_error credits-below-logged "mds.journal.credits.create" "at least the blocks" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set mds.journal.bytes_per_update=64KiB \
  --set mds.journal.credits.enabled=true --set mds.journal.credits.create=1
expect_error unknown-command "frob" -- \
  frob --platform "$good_platform"
# SimGrid's Constant network model has no links: refused (SimGrid aborted the run with SIGABRT, exit 134).
expect_error network-model-constant "--set network.model=Constant" "network.model" "\"CM02\", \"LV08\"" -- \
  metabench --platform "$good_platform" --ranks 16 --files 200 --set network.model=Constant
# Durations above 1e9 s and sizes above 1e15 B are out of range (such runs hung, even with --time-limit).
expect_error huge-service-time "mds.service.stat" "out of range" "1e9 s" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set mds.service.stat=1e20s --time-limit 600s
expect_error huge-latency "network.client_link.latency" "out of range" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set network.client_link.latency=1e20
expect_error huge-request-size "clients.request_size" "out of range" "1 PB" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set clients.request_size=1e20B
# A JSON number beyond a double's range names the file or the --set and the field (it was exit 1 with the JSON
# library's own message).
printf '{"name": "big",\n "mds": {"cores": 1e400}}\n' >"$tmp/huge-number.json"
expect_error platform-number-overflow "$tmp/huge-number.json" "mds.cores" "line 2" "out of range" -- \
  metabench --platform "$tmp/huge-number.json" --ranks 4 --files 100
printf '{"generator": "metabench", "ranks": 4, "think_time": 1e400, "metabench": {"files": 100}}\n' \
  >"$tmp/huge-think.json"
expect_error workload-number-overflow "$tmp/huge-think.json" "think_time" "out of range" -- \
  run --platform "$good_platform" --workload "$tmp/huge-think.json"
expect_error set-number-overflow "--set mds.service={\"stat\":1e400}" "mds.service.stat" "out of range" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set 'mds.service={"stat":1e400}'
expect_error duration-number-overflow "mds.service.stat" "the number in \"1e400us\" is out of range" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set 'mds.service.stat="1e400us"'
# A quoted number without a unit is refused (it was read in seconds / bytes).
expect_error set-quoted-number-no-unit "clients.rpc_overhead" "with a unit" "\"24us\"" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set 'clients.rpc_overhead="20"'
# Per-operation settings that never take effect (the exclusive directory-lock hold: updates only).
expect_error dir-lock-hold-stat "mds.dir_lock.hold.stat" "updating operations" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set mds.dir_lock.hold.stat=1ms
# The default journal credits are checked against the transaction limit as explicit ones are.
expect_error credits-default-above-limit "mds.journal.credits.enabled" "default credits" "0 whole credits" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set mds.journal.enabled=true \
  --set mds.journal.block_size=2MiB --set mds.journal.capacity=1MiB --set 'mds.journal.credits={"enabled":true}'
# The --set named is the one that set the field at fault, not an earlier one beside it.
expect_error set-blames-its-field "--set mds.journal.capacity=0:" "mds.journal.capacity" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set mds.journal.enabled=true \
  --set mds.journal.capacity=0
expect_error set-blames-its-field-2 "--set mds.threads.min=0:" "mds.threads.min" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set mds.threads.max=0 --set mds.threads.min=0
# A workload's ranks_per_node is at least 1 as on the command line (0 was replaced by the platform default).
printf '{"generator": "metabench", "ranks": 4, "ranks_per_node": 0, "metabench": {"files": 100}}\n' \
  >"$tmp/rpn-zero.json"
expect_error workload-ranks-per-node-zero "$tmp/rpn-zero.json" "ranks_per_node" "[1, 4096]" -- \
  run --platform "$good_platform" --workload "$tmp/rpn-zero.json"

# --out onto something that is not a regular file, or into a missing directory: refused before the run
# (exit 2), and the FIFO is left as it was.
for target in "$tmp/fifo" "$tmp/no/such/dir/r.json"; do
  "$pfsim" metabench --platform "$good_platform" --ranks 4 --files 100 --out "$target" >/dev/null 2>"$tmp/o.err"
  rc=$?
  if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/o.err")" -eq 1 ] && { [ "$target" != "$tmp/fifo" ] || [ -p "$tmp/fifo" ]; }; then
    echo "ok   out-target $target: refused, exit 2"
  else
    echo "FAIL out-target $target: exit $rc: $(cat "$tmp/o.err")"
    failures=$((failures + 1))
  fi
done

# A failing sweep point ends the sweep with exit 1 (it used to wait forever for points it never started).
timeout 60 "$pfsim" sweep --platform "$good_platform" --workload "$tmp/good-workload.json" --ranks 2,4,8 \
  --csv "$tmp/fail.csv" --set mds.mechanisms.timeouts.enabled=true --set mds.mechanisms.timeouts.timeout=10us \
  --set mds.mechanisms.timeouts.resend_delay=1ms >/dev/null 2>"$tmp/fail.err"
rc=$?
if [ "$rc" -eq 1 ] && [ ! -e "$tmp/fail.csv" ] && grep -q "timed out 101 times" "$tmp/fail.err"; then
  echo "ok   failing sweep point: exit 1, no CSV"
else
  echo "FAIL failing sweep point: exit $rc (124 = still running after 60 s)"
  failures=$((failures + 1))
fi

# A point stopped by --time-limit: no table, but a --results-dir keeps the points that finished (64 ranks do the
# 100 files' three phases in 0.12 s simulated; one rank does them one after the other, 0.62 s).
mkdir -p "$tmp/keep"
"$pfsim" sweep --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --workload "$tmp/good-workload.json" \
  --ranks 64,1 --time-limit 0.3s --csv "$tmp/keep.csv" --results-dir "$tmp/keep/rd" >/dev/null 2>"$tmp/keep.err"
rc=$?
if [ "$rc" -eq 1 ] && [ ! -e "$tmp/keep.csv" ] && [ -s "$tmp/keep/rd/ranks-64.json" ] && [ ! -e "$tmp/keep/rd/ranks-1.json" ] &&
  grep -q "the finished points' results (ranks 64) are in" "$tmp/keep.err"; then
  echo "ok   failed sweep keeps finished points: $(tail -1 "$tmp/keep.err" | cut -c1-140)"
else
  echo "FAIL failed sweep keeps finished points: exit $rc, $(ls "$tmp/keep/rd" 2>&1), $(cat "$tmp/keep.err")"
  failures=$((failures + 1))
fi
# The same again into that directory, with a file an earlier sweep left for the failing point: only this sweep's
# finished points are named as such, the earlier file as an earlier sweep's; after a successful sweep, files of
# other rank counts are named in a warning.
echo '{}' >"$tmp/keep/rd/ranks-1.json"
"$pfsim" sweep --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --workload "$tmp/good-workload.json" \
  --ranks 64,1 --time-limit 0.3s --csv "$tmp/keep.csv" --results-dir "$tmp/keep/rd" >/dev/null 2>"$tmp/keep2.err"
"$pfsim" sweep --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --workload "$tmp/good-workload.json" \
  --ranks 64 --csv "$tmp/keep.csv" --results-dir "$tmp/keep/rd" --quiet >/dev/null 2>"$tmp/keep3.err"
if grep -q "(ranks 64) are in .*; ranks-1.json there are an earlier sweep's" "$tmp/keep2.err" &&
  grep -q "warning: --results-dir .*(ranks-\*.json) were not written by it, e.g. ranks-1.json" "$tmp/keep3.err"; then
  echo "ok   sweep results-dir: earlier points named as such"
else
  echo "FAIL sweep results-dir: $(cat "$tmp/keep2.err" "$tmp/keep3.err")"
  failures=$((failures + 1))
fi

# A sweep's FILE.json records the workload as given (its own rank count), the points' ranks in "ranks".
printf '{"generator": "metabench", "ranks": 16, "metabench": {"files": 64}}\n' >"$tmp/sweep16.json"
"$pfsim" sweep --platform "$good_platform" --workload "$tmp/sweep16.json" --ranks 1,2 --csv "$tmp/sweep16.csv" \
  --quiet >/dev/null 2>"$tmp/sweep16.err"
rc=$?
if [ "$rc" -eq 0 ] && python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
sys.exit(0 if m["workload"]["ranks"] == 16 and m["ranks"] == [1, 2] else 1)' "$tmp/sweep16.csv.json"; then
  echo "ok   sweep-json-workload-as-given: workload.ranks 16, ranks [1, 2]"
else
  echo "FAIL sweep-json-workload-as-given: exit $rc, $(cat "$tmp/sweep16.err")"
  failures=$((failures + 1))
fi


# A reused --latency-dir: the files of an earlier, larger run that this one does not rewrite are named in a warning
# (a replay of the directory would read them too); a rerun of the same size rewrites everything and warns nothing.
"$pfsim" mdtest --platform "$good_platform" --ranks 4 -n 5 -u -F --latency-dir "$tmp/reused" --quiet 2>/dev/null
"$pfsim" mdtest --platform "$good_platform" --ranks 2 -n 5 -u -F --latency-dir "$tmp/reused" --quiet 2>"$tmp/reused2.err"
"$pfsim" mdtest --platform "$good_platform" --ranks 4 -n 5 -u -F --latency-dir "$tmp/reused" --quiet 2>"$tmp/reused3.err"
if grep -q "warning: --latency-dir .*mdtest-perop-\*.csv) were not written by it" "$tmp/reused2.err" &&
  ! grep -q "warning" "$tmp/reused3.err"; then
  echo "ok   reused --latency-dir: $(grep warning "$tmp/reused2.err" | cut -c1-140)"
else
  echo "FAIL reused --latency-dir: $(cat "$tmp/reused2.err") / $(cat "$tmp/reused3.err")"
  failures=$((failures + 1))
fi

# replay --check prints that warning as the replay would (it printed only "checked, not written"): a 3-rank replay's
# files, then --check of a 2-rank replay into the same directory (rank 2's 10 files left) says what the 2-rank replay
# then says; --check at 3 ranks warns nothing; an -L trace's rank 0 files after its --latency-all files: the 10 -all files.
mistral=$root/platforms/mistral-lustre02.json
"$pfsim" replay "$tool_outputs/md-real-io-2017" --platform "$mistral" --ranks 3 --latency-dir "$tmp/stale" --quiet 2>/dev/null
"$pfsim" replay "$tool_outputs/md-real-io-2017" --platform "$mistral" --ranks 2 --latency-dir "$tmp/stale" --check \
  2>"$tmp/stale-check2.err"
"$pfsim" replay "$tool_outputs/md-real-io-2017" --platform "$mistral" --ranks 3 --latency-dir "$tmp/stale" --check \
  2>"$tmp/stale-check3.err"
"$pfsim" replay "$tool_outputs/md-real-io-2017" --platform "$mistral" --ranks 2 --latency-dir "$tmp/stale" --quiet \
  2>"$tmp/stale-run2.err"
"$pfsim" replay "$root/traces/md-workbench-L" --platform "$mistral" --latency-dir "$tmp/stale-L" --latency-all --quiet 2>/dev/null
"$pfsim" replay "$root/traces/md-workbench-L" --platform "$mistral" --latency-dir "$tmp/stale-L" --check 2>"$tmp/stale-L.err"
stale_check=$(grep "were not written by it" "$tmp/stale-check2.err")
if [ -n "$stale_check" ] && [ "$stale_check" = "$(grep "were not written by it" "$tmp/stale-run2.err")" ] &&
  grep -q "warning: --latency-dir $tmp/stale: 10 file(s) named like this run's (mdreal-\*.csv)" "$tmp/stale-check2.err" &&
  ! grep -q "were not written" "$tmp/stale-check3.err" &&
  grep -q "warning: --latency-dir $tmp/stale-L: 10 file(s) named like this run's (lat-\*.csv) were not written by it, e.g. lat-0.00-0-create-all.csv" "$tmp/stale-L.err"; then
  echo "ok   replay --check warns of a reused --latency-dir as the replay does: $(echo "$stale_check" | cut -c1-120)"
else
  echo "FAIL replay --check and a reused --latency-dir: $(cat "$tmp/stale-check2.err") / run: $(cat "$tmp/stale-run2.err") / $(cat "$tmp/stale-check3.err") / $(cat "$tmp/stale-L.err")"
  failures=$((failures + 1))
fi

# A load law used past twice the population it was fitted on (Mistral's: 50 active ranks) is said; within it, not.
"$pfsim" mdtest --platform "$root/platforms/mistral-lustre02.json" --ranks 120 -n 2 -u -F --quiet 2>"$tmp/law120.err"
"$pfsim" mdtest --platform "$root/platforms/mistral-lustre02.json" --ranks 100 -n 2 -u -F --quiet 2>"$tmp/law100.err"
if grep -q "warning: clients.load_delay create: fitted on populations up to 50; this run of 120 ranks reaches up to 2.4x that (more than twice)" "$tmp/law120.err" &&
  ! grep -q "load_delay" "$tmp/law100.err"; then
  echo "ok   load-law extrapolation: $(grep -m1 load_delay "$tmp/law120.err" | cut -c1-140)"
else
  echo "FAIL load-law extrapolation: $(cat "$tmp/law120.err") / $(cat "$tmp/law100.err")"
  failures=$((failures + 1))
fi

# A read law that states the size it was fitted on (Mistral's: fitted_size 3900 B, md-real-io's objects): a run that
# applies it to reads outside [1950, 7800] B says so once, after the run (IOR's 1 MiB and 64 KiB reads of data on the
# OSTs: -C, another node's; -r, written before the run), and nothing else about the law; a run of 3,900-byte reads
# of other nodes' files (mdtest -N 1, one rank per node) says nothing. Nothing simulated changes (the same phases as
# without the field). A bad fitted_size is one error naming the field, exit status 2.
"$pfsim" ior --platform "$mistral" --ranks 20 -t 1m -b 4m -F -C --quiet --out "$tmp/size-ior.json" 2>"$tmp/size-ior.err"
"$pfsim" ior --platform "$mistral" --ranks 20 -t 1m -b 4m -F -C --quiet --out "$tmp/size-ior-nofield.json" \
  --set 'clients.load_delay.per_op.read={"fitted_size":null}' 2>/dev/null
"$pfsim" ior --platform "$mistral" --ranks 4 -t 64k -b 1m -F -r --quiet 2>"$tmp/size-ior64k.err"
"$pfsim" mdtest --platform "$mistral" --ranks 20 --ranks-per-node 1 -n 20 -u -F -w 3900 -e 3900 -N 1 --quiet \
  --out "$tmp/size-md.json" 2>"$tmp/size-md.err"
if [ "$(grep -c "^pfsim: warning: clients.load_delay read: fitted on reads of 3900 B (clients.load_delay.per_op.read.fitted_size); 80 of the 80 reads it delayed in this run were of 1048576 B (1 MiB), outside \[1950, 7800\] B .*applied to them as fitted" "$tmp/size-ior.err")" -eq 1 ] &&
  [ "$(grep -c load_delay "$tmp/size-ior.err")" -eq 1 ] &&
  [ "$(grep -c "clients.load_delay read: fitted on reads of 3900 B .* were of 65536 B (64 KiB)" "$tmp/size-ior64k.err")" -eq 1 ] &&
  [ "$(grep -c load_delay "$tmp/size-ior64k.err")" -eq 1 ] &&
  ! grep -q "warning" "$tmp/size-md.err" &&
  python3 -c 'import json, sys; a, b, m = (json.load(open(f)) for f in sys.argv[1:])
sys.exit(not (a["phases"] == b["phases"] and a["ior"] == b["ior"] and m["client_cache_reads"]["reads"] == 0
              and any(p["name"] == "File read" and p["operations"] for p in m["phases"])))' \
    "$tmp/size-ior.json" "$tmp/size-ior-nofield.json" "$tmp/size-md.json"; then
  echo "ok   load-law fitted size: $(cut -c1-160 "$tmp/size-ior.err")"
else
  echo "FAIL load-law fitted size: $(cat "$tmp/size-ior.err") / $(cat "$tmp/size-ior64k.err") / $(cat "$tmp/size-md.err")"
  failures=$((failures + 1))
fi
python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); p["clients"]["load_delay"]["per_op"]["read"]["fitted_size"] = "none"
json.dump(p, open(sys.argv[2], "w"))' "$mistral" "$tmp/fitted-size-bad.json"
expect_error fitted-size-bad-file "fitted-size-bad.json" "clients.load_delay.per_op.read.fitted_size" "expected a size" -- \
  ior --platform "$tmp/fitted-size-bad.json" --ranks 4 -t 1m -b 1m
# Below 1 byte, 0 and negatives alike: one message, what is expected (helper-149: 0.5, 1e-300 and "0.5B" ran and
# reported "fitted on reads of 0 B"; -1 was told "expected a non-negative size", which 0 is)
fs_case=0  # (not n: check_refusal's loop sets n)
for v in 0 0.5 1e-300 '"0.5B"' -1 '"-1B"' '"0.9999B"'; do
  fs_case=$((fs_case + 1))
  expect_error "fitted-size-below-1-$fs_case" "--set clients.load_delay.per_op.read.fitted_size=$v" \
    "clients.load_delay.per_op.read.fitted_size" "expected a positive size of at least 1 byte" -- \
    ior --platform "$mistral" --ranks 4 -t 1m -b 1m --set "clients.load_delay.per_op.read.fitted_size=$v"
done
python3 -c 'import json, sys; p = json.load(open(sys.argv[1])); p["clients"]["load_delay"]["per_op"]["read"]["fitted_size"] = 0.5
json.dump(p, open(sys.argv[2], "w"))' "$mistral" "$tmp/fitted-size-half.json"
expect_error fitted-size-half-file "fitted-size-half.json" "clients.load_delay.per_op.read.fitted_size" \
  "expected a positive size of at least 1 byte" -- ior --platform "$tmp/fitted-size-half.json" --ranks 4 -t 1m -b 1m
# A fitted_size (or any field of a law) for a law the platform does not have: Mistral has no write law, and the
# --set made one without a delay, whose warning said "80 of the 80 writes it delayed ... (0 us + 0 us x n) was applied"
expect_error fitted-size-no-law "--set clients.load_delay.per_op.write.fitted_size=4k" \
  "clients.load_delay.per_op.write.fitted_size" "the law has none (neither base nor per_active_rank is given" -- \
  ior --platform "$mistral" --ranks 4 -t 1m -b 4m -w -r -C --set clients.load_delay.per_op.write.fitted_size=4k
expect_error fitted-up-to-no-law "--set clients.load_delay.per_op.open.fitted_up_to=50" \
  "clients.load_delay.per_op.open.fitted_up_to" "the law has none" -- \
  mdtest --platform "$mistral" --ranks 4 -n 2 --set clients.load_delay.per_op.open.fitted_up_to=50
expect_error fitted-size-metadata-law "clients.load_delay.per_op.stat.fitted_size" "only a read or write law" -- \
  mdtest --platform "$mistral" --ranks 4 -n 2 --set clients.load_delay.per_op.stat.fitted_size=3900

# pfsim replay --check: the import and every check of a replay, nothing simulated or written, no platform needed.
"$pfsim" replay "$tool_outputs/md-real-io-2017" --check >"$tmp/check.stdout" 2>"$tmp/check.stderr"
rc=$?
if [ "$rc" -eq 0 ] && [ ! -s "$tmp/check.stdout" ] && grep -q "^pfsim: imported md-real-io-2017 trace" "$tmp/check.stderr" &&
  ! grep -q "simulated" "$tmp/check.stderr"; then
  echo "ok   replay-check-good: exit 0, $(head -1 "$tmp/check.stderr")"
else
  echo "FAIL replay-check-good: exit $rc, stderr $(head -c 600 "$tmp/check.stderr"), stdout $(wc -c <"$tmp/check.stdout") bytes"
  failures=$((failures + 1))
fi
cp -r "$tool_outputs/md-real-io-2017" "$tmp/check-bad"
head -5 "$tmp/check-bad/lat-0-stat-1.csv" >"$tmp/check-bad/cut" && mv "$tmp/check-bad/cut" "$tmp/check-bad/lat-0-stat-1.csv"
expect_refused replay-check-malformed "lat-0-stat-1.csv" "rows" -- replay "$tmp/check-bad" --check
expect_refused replay-check-option-conflict "--output-format mdtest" -- \
  replay "$tool_outputs/md-real-io-2017" --check --output-format mdtest
# --check appended to a planned command line: its outputs are checked (a missing --out directory is refused), not
# written; the Mistral platform's load laws warn at 333 ranks as the run itself does.
"$pfsim" replay "$tool_outputs/md-real-io-2017" --check --out "$tmp/check.json" --latency-dir "$tmp/check-lat" \
  --platform "$root/platforms/mistral-lustre02.json" --residual-quantile 0.01 --ranks 333 >/dev/null 2>"$tmp/check2.stderr"
rc=$?
if [ "$rc" -eq 0 ] && [ ! -e "$tmp/check.json" ] && [ ! -e "$tmp/check-lat" ] &&
  grep -q "^pfsim: --check: --out $tmp/check.json, --latency-dir $tmp/check-lat checked, not written" "$tmp/check2.stderr" &&
  grep -q "^pfsim: warning: clients.load_delay create: fitted on populations up to 50; this run of 333 ranks" "$tmp/check2.stderr"; then
  echo "ok   replay-check-writes-nothing"
else
  echo "FAIL replay-check-writes-nothing: exit $rc, stderr $(head -c 800 "$tmp/check2.stderr")"
  failures=$((failures + 1))
fi
expect_refused replay-check-checks-outputs "--out" "$tmp/no-such-dir" -- \
  replay "$tool_outputs/md-real-io-2017" --check --out "$tmp/no-such-dir/r.json"
# (help saved first: grep -q stops reading at its match, and with pipefail a help text longer than one write would
# fail on SIGPIPE)
if "$pfsim" replay --help >"$tmp/replay-help.txt" && grep -q -- "--check" "$tmp/replay-help.txt"; then
  echo "ok   replay-check-help"
else
  echo "FAIL replay-check-help: pfsim replay --help does not list --check"
  failures=$((failures + 1))
fi

# mdtest -N's help says what the shifts do with N = ranks per node (helper-121: "N = ranks per node reads another
# node's data", where the read's 2N wraps round to the rank's own files on 2 nodes)
"$pfsim" mdtest --help >"$tmp/mdtest-help.txt" 2>&1
if grep -q -- "-N STRIDE.*tasks on node 0 when the ranks are placed in blocks.*with 2 nodes a rank reads its own node.s files" "$tmp/mdtest-help.txt" &&
   ! grep -q "N = ranks per node reads another node's data" "$tmp/mdtest-help.txt"; then
  echo "ok   mdtest-N-help"
else
  echo "FAIL mdtest-N-help: $(grep -- "-N STRIDE" "$tmp/mdtest-help.txt")"
  failures=$((failures + 1))
fi

# No output may replace an input of the run: refused before the run, the input left as it was.
cp "$good_platform" "$tmp/plat-in.json"
cp -r "$tool_outputs/md-real-io-2017" "$tmp/trace-in"
cp "$tmp/good-workload.json" "$tmp/work-in.json"
expect_refused out-is-platform "--out" "the platform file" -- \
  replay "$tool_outputs/md-real-io-2017" --platform "$tmp/plat-in.json" --quiet --out "$tmp/plat-in.json"
expect_refused latency-dir-is-trace "--latency-dir" "the trace directory" -- \
  replay "$tmp/trace-in" --platform "$good_platform" --quiet --latency-dir "$tmp/trace-in/." --latency-prefix lat
expect_refused out-is-trace-file "--out" "a file of the trace" -- \
  replay "$tmp/trace-in" --platform "$good_platform" --quiet --out "$tmp/trace-in/stdout.txt"
# A new file in the trace directory, as --latency-dir naming it: a name the importer takes (lat-0-stat-2.csv, a third
# rank of the stat phase) would corrupt the trace for later replays; any other name is refused as well.
expect_refused out-in-trace-dir "--out $tmp/trace-in/lat-0-stat-2.csv" "the trace directory" -- \
  replay "$tmp/trace-in" --platform "$good_platform" --quiet --out "$tmp/trace-in/lat-0-stat-2.csv"
expect_refused out-in-trace-dir-any-name "--out" "the trace directory" -- \
  replay "$tmp/trace-in/lat-0-stat-0.csv" --platform "$good_platform" --quiet --out "$tmp/trace-in/r.json"
expect_refused csv-in-trace-dir "--csv $tmp/trace-in/lat-0-create-2.csv" "the trace directory" -- \
  replay "$tmp/trace-in" --platform "$good_platform" --quiet --ranks 2,4 --csv "$tmp/trace-in/lat-0-create-2.csv"
expect_refused csv-in-trace-dir-check "--csv" "the trace directory" -- \
  replay "$tmp/trace-in" --check --ranks 2,4 --csv "$tmp/trace-in/sweep.csv"
cp -r "$tool_outputs/ior" "$tmp/ior-in"
expect_refused out-in-ior-perop-dir "--out" "the trace directory" -- \
  replay "$tmp/ior-in/ior-write-perop-0-00000.csv" --platform "$good_platform" --quiet \
  --out "$tmp/ior-in/ior-write-perop-0-00002.csv"
# IOR writes its per-op files into the working directory, where users replay them: a results file there that cannot
# be taken for one (not a .csv) is written (helper-74: it was refused).
if "$pfsim" replay "$tmp/ior-in/ior-write-perop-0-00000.csv" --platform "$good_platform" --ior-op write --quiet \
  --out "$tmp/ior-in/result.json" >/dev/null 2>"$tmp/ior-json.err" && [ -s "$tmp/ior-in/result.json" ]; then
  echo "ok   out-json-beside-ior-perop-files"
else
  echo "FAIL out-json-beside-ior-perop-files: $(cat "$tmp/ior-json.err")"
  failures=$((failures + 1))
fi
if [ ! -e "$tmp/trace-in/lat-0-stat-2.csv" ] && [ ! -e "$tmp/trace-in/r.json" ] &&
  [ ! -e "$tmp/trace-in/lat-0-create-2.csv" ] && [ ! -e "$tmp/ior-in/ior-write-perop-0-00002.csv" ]; then
  echo "ok   out-in-trace-dir-nothing-written"
else
  echo "FAIL out-in-trace-dir-nothing-written: a file was written into a trace directory"
  failures=$((failures + 1))
fi
# A trace directory of symbolic links into an archive: --latency-dir naming the archive would replace the recorded
# files through the links (md-real-io 2017 names: prefix lat, as the links' targets).
mkdir "$tmp/trace-links"
for f in "$tmp/trace-in"/*; do ln -s "$f" "$tmp/trace-links/"; done
expect_refused latency-dir-is-link-target "--latency-dir" "a link to" "could overwrite" -- \
  replay "$tmp/trace-links" --platform "$good_platform" --quiet --latency-dir "$tmp/trace-in" --latency-prefix lat
ln "$tmp/plat-in.json" "$tmp/plat-hardlink.json"
expect_refused run-out-is-workload "--out" "the workload file" -- \
  run --platform "$good_platform" --workload "$tmp/work-in.json" --quiet --out "$tmp/work-in.json"
expect_refused mdtest-out-is-platform-hardlink "--out" "the platform file" -- \
  mdtest --platform "$tmp/plat-in.json" --ranks 2 -n 4 -F --quiet --out "$tmp/plat-hardlink.json"
expect_refused sweep-csv-is-platform "--csv" "the platform file" -- \
  sweep --platform "$tmp/plat-in.json" --workload "$tmp/work-in.json" --ranks 2 --csv "$tmp/plat-in.json"
expect_refused mdworkbench-out-is-platform "--out" "the platform file" -- \
  mdworkbench --platform "$tmp/plat-in.json" --ranks 2 -I 2 -P 2 -R 1 --out "$tmp/plat-in.json"
if cmp -s "$good_platform" "$tmp/plat-in.json" && cmp -s "$tmp/good-workload.json" "$tmp/work-in.json" &&
  diff -r "$tool_outputs/md-real-io-2017" "$tmp/trace-in" >/dev/null; then
  echo "ok   inputs-unchanged: platform, workload and trace as they were"
else
  echo "FAIL inputs-unchanged: an input was overwritten"
  failures=$((failures + 1))
fi
# Option conflicts of a replay are found before the import: one line, no 'pfsim: imported' first.
expect_refused conflict-before-import-format "--output-format mdtest" -- \
  replay "$tool_outputs/md-real-io-2017" --platform "$good_platform" --output-format mdtest
expect_refused conflict-before-import-mdtest "--output-format mdworkbench" "mdtest" -- \
  replay "$tool_outputs/mdtest" --platform "$good_platform" --output-format mdworkbench
expect_refused conflict-before-import-latency-all "--latency-all" -- \
  replay "$tool_outputs/md-real-io-2017" --platform "$good_platform" --latency-all
expect_refused conflict-before-import-no-samples "--latency-dir needs per-operation samples" -- \
  replay "$tool_outputs/md-real-io-2017" --platform "$good_platform" --no-samples --latency-dir "$tmp/ns2"

# Error messages stay one short line whatever the input holds: a 1 MB value in a latency file is quoted in at most
# 60 characters; a newline in an option's value is escaped.
cp -r "$tool_outputs/md-real-io-2017" "$tmp/long-line"
{ head -2 "$tmp/long-line/lat-0-stat-1.csv"; printf '0.1,1e-4%01000000d\n' 7; tail -n +4 "$tmp/long-line/lat-0-stat-1.csv"; } \
  >"$tmp/long-line.csv" && mv "$tmp/long-line.csv" "$tmp/long-line/lat-0-stat-1.csv"
expect_refused long-line-quoted "lat-0-stat-1.csv:3" "...\"" -- replay "$tmp/long-line" --check
if [ "$(wc -c <"$tmp/long-line-quoted.stderr")" -gt 400 ]; then
  echo "FAIL long-line-quoted: $(wc -c <"$tmp/long-line-quoted.stderr") bytes of error message"
  failures=$((failures + 1))
fi
expect_error newline-in-value "mds.service.stat" '\n' -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 --set "mds.service.stat=\"1"$'\n'"x2ms\""

# Help exits 0 and lists the options of the command.
for c in run sweep mdtest metabench replay mdworkbench; do
  if "$pfsim" "$c" --help >"$tmp/help-$c.txt" 2>&1 && grep -q -- "--platform" "$tmp/help-$c.txt"; then
    echo "ok   help: pfsim $c --help lists its options"
  else
    echo "FAIL help: pfsim $c --help"
    failures=$((failures + 1))
  fi
done

# The ablation checks every combination before its first fit (a bad one used to stop it after fitting the others,
# with half a table written): exit 2, one line, nothing in --out-dir.
mkdir -p "$tmp/ablation"
for combos in 'none;contention,contention' 'none,contention' 'none;none'; do
  python3 "$root/scripts/ablation_lu1695.py" --combos "$combos" --files 200 --max-evals 1 --out-dir "$tmp/ablation" \
    >/dev/null 2>"$tmp/ablation.stderr"
  rc=$?
  if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/ablation.stderr")" -eq 1 ] && [ -z "$(ls -A "$tmp/ablation")" ]; then
    echo "ok   ablation --combos '$combos': $(cat "$tmp/ablation.stderr")"
  else
    echo "FAIL ablation --combos '$combos': exit $rc, $(cat "$tmp/ablation.stderr"), left: $(ls "$tmp/ablation")"
    failures=$((failures + 1))
  fi
done

# Script outputs never replace the inputs they read. Checked through symbolic links to the inputs: were the
# check missing, the link would be replaced, not the file it points to.
ln -s "$root/validation/lu1695/measured.csv" "$tmp/measured-link.csv"
ln -s "$root/platforms/cray-xe6-lustre2.1-fitted.json" "$tmp/fitted-link.json"
for cmd in "calibrate_lu1695.py --mechanisms none --files 200 --max-evals 1 --no-shared --out $tmp/measured-link.csv --report $tmp/r.json" \
           "journal_credits_lu1695.py --files 200 --out $tmp/fitted-link.json" \
           "dir_rwsem_lu1695.py --files 200 --out $tmp/measured-link.csv" \
           "validate --json $tmp/measured-link.csv --build $(dirname "$pfsim") lu1695"; do
  # shellcheck disable=SC2086
  python3 "$root/scripts/"$cmd >/dev/null 2>"$tmp/spare.stderr"
  rc=$?
  if [ "$rc" -eq 2 ] && [ "$(wc -l <"$tmp/spare.stderr")" -eq 1 ] &&
     grep -q "which this run reads\|an input of the validation" "$tmp/spare.stderr" &&
     [ -L "$tmp/measured-link.csv" ] && [ -L "$tmp/fitted-link.json" ]; then
    echo "ok   ${cmd%% *} refuses to replace an input: $(cat "$tmp/spare.stderr")"
  else
    echo "FAIL ${cmd%% *}: exit $rc, $(cat "$tmp/spare.stderr")"
    failures=$((failures + 1))
  fi
done

# A workload file without "ranks": run and sweep take --ranks; without it the run is refused naming the file.
echo '{"generator": "metabench", "metabench": {"files": 64}}' >"$tmp/no-ranks.json"
expect_error workload-no-ranks "$tmp/no-ranks.json" "--ranks" -- \
  run --platform "$good_platform" --workload "$tmp/no-ranks.json"
expect_refused sweep-no-ranks "$tmp/no-ranks.json" "--ranks" -- \
  sweep --platform "$good_platform" --workload "$tmp/no-ranks.json" --csv "$tmp/no-ranks.csv"
if "$pfsim" run --platform "$good_platform" --workload "$tmp/no-ranks.json" --ranks 4 --quiet \
  --out "$tmp/no-ranks-4.json" >/dev/null 2>&1 && grep -q '"ranks": 4' "$tmp/no-ranks-4.json"; then
  echo "ok   a workload without \"ranks\" runs with run --ranks 4"
else
  echo "FAIL a workload without \"ranks\" and run --ranks 4 did not run 4 ranks"
  failures=$((failures + 1))
fi
# MDS threads start on demand: a thread limit far above what one node's requests can start runs (it was refused as
# 100,000 actors); OSS threads all start, and too many of them are refused naming oss.threads, not the ranks.
if "$pfsim" metabench --platform "$good_platform" --ranks 1 --files 10 --set mds.threads.max=100000 --quiet \
  --out "$tmp/many-threads.json" >/dev/null 2>"$tmp/many-threads.stderr" && [ -s "$tmp/many-threads.json" ]; then
  echo "ok   mds.threads.max=100000 with 1 rank runs (threads start on demand)"
else
  echo "FAIL mds.threads.max=100000 with 1 rank: $(cat "$tmp/many-threads.stderr")"
  failures=$((failures + 1))
fi
# (10 million: above any vm.max_map_count a CI machine has, 65530 by default)
expect_error too-many-oss-threads "oss.threads" "10000000 OSS threads" -- \
  metabench --platform "$good_platform" --ranks 1 --files 10 --set oss.count=100 --set oss.threads=100000


# Data-path traces (Darshan DXT dumps, IOR -O savePerOpDataCSV files): a malformed row names the file and line.
dxt_head='# darshan log version: 3.41\n# nprocs: 1\n# DXT, file_id: 42, file_name: /scratch/f\n# DXT, rank: 0, hostname: vm\n'
printf "$dxt_head"' X_POSIX 0 write 0 0 -5 0.1000 0.2000 1\n' >"$tmp/negative.dxt.txt"
expect_error dxt-negative-length "negative.dxt.txt:5:" "negative length -5" -- \
  replay "$tmp/negative.dxt.txt" --platform "$good_platform"
printf "$dxt_head"' X_POSIX 0 write 0 0 100 0.2000\n' >"$tmp/truncated.dxt.txt"
expect_error dxt-truncated-row "truncated.dxt.txt:5:" "truncated row" -- \
  replay "$tmp/truncated.dxt.txt" --platform "$good_platform"
printf "$dxt_head"' X_POSIX 0 write 0 0 100 0.3000 0.2000 1\n' >"$tmp/backwards.dxt.txt"
expect_error dxt-end-before-start "backwards.dxt.txt:5:" "before start" -- \
  replay "$tmp/backwards.dxt.txt" --platform "$good_platform"
printf '# darshan log version: 3.41\n# nprocs: 1\n' >"$tmp/empty.dxt.txt"
expect_error dxt-no-posix-rows "empty.dxt.txt:2:" "no X_POSIX row" -- \
  replay "$tmp/empty.dxt.txt" --check
: >"$tmp/blank.dxt.txt"
expect_error dxt-empty-file "blank.dxt.txt:1:" "empty file" -- \
  replay "$tmp/blank.dxt.txt" --platform "$good_platform"
expect_error dxt-metadata-option "option --csv is not one of a DXT / IOR per-op replay's" "--ior-op" -- \
  replay "$tool_outputs/darshan-dxt/own-runs/ior.dxt.txt" --platform "$good_platform" --csv "$tmp/dxt.csv"
expect_error dxt-ior-option "--ior-op" "Darshan DXT" -- \
  replay "$tool_outputs/darshan-dxt/own-runs/ior.dxt.txt" --platform "$good_platform" --ior-op read
mkdir -p "$tmp/perop"
printf 'time,runtime,tp\n0.0,1.0e-04,2.62144e+09\n' >"$tmp/perop/p-0-00000.csv"
cp "$tmp/perop/p-0-00000.csv" "$tmp/perop/p-0-00002.csv"
expect_error ior-perop-rank-gap "p-0-00001.csv" "missing (expected one file per repetition" -- \
  replay "$tmp/perop/p-0-00000.csv" --platform "$good_platform"
printf 'time,runtime,tp\n0.0,x,2.62144e+09\n' >"$tmp/perop/p-0-00001.csv"
expect_error ior-perop-non-numeric "p-0-00001.csv:2:" "runtime" -- \
  replay "$tmp/perop/p-0-00000.csv" --platform "$good_platform"
expect_error ior-perop-op "--ior-op" "write or read" -- \
  replay "$tool_outputs/ior/ior-perop-0-00000.csv" --platform "$good_platform" --ior-op append
# IOR's stdout beside the files states the access (-w -r: the files hold the reads): an option against it is refused
expect_error ior-perop-stdout-conflict "option --ior-op write" "ior-perop-stdout.txt:3: the run's command line" -- \
  replay "$tool_outputs/ior/ior-perop-0-00000.csv" --platform "$good_platform" --ior-op write
# ... and the real files replay (exit 0, one table row per phase and direction).
if "$pfsim" replay "$tool_outputs/darshan-dxt/own-runs/ior.dxt.txt" --platform "$good_platform" --ranks 4 \
  >"$tmp/dxt.stdout" 2>"$tmp/dxt.stderr" && [ "$(grep -c '^dxt ' "$tmp/dxt.stdout")" -eq 2 ]; then
  echo "ok   dxt replay: exit 0, write and read rows"
else
  echo "FAIL dxt replay: $(cat "$tmp/dxt.stderr")"
  failures=$((failures + 1))
fi

# pfsim find (IO500's pfind): its tree options, and a control that the same command line with a good tree runs.
expect_error find-no-ranks "--ranks" -- find --platform "$good_platform" --mdtest-easy 2:10
expect_error find-no-tree "--mdtest-easy" "--dirs" -- find --platform "$good_platform" --ranks 2
expect_error find-jobs-no-csv "--jobs is a sweep's option" "--csv FILE" -- \
  find --platform "$good_platform" --ranks 2 --mdtest-easy 2:10 --jobs 2
expect_error find-easy-zero-tasks "--mdtest-easy 0:5" "TASKS:FILES" -- \
  find --platform "$good_platform" --ranks 2 --mdtest-easy 0:5
expect_error find-hard-no-files "--mdtest-hard 5:" "TASKS:FILES" -- \
  find --platform "$good_platform" --ranks 2 --mdtest-hard 5:
expect_error find-hard-negative "--mdtest-hard 5:-1" "TASKS:FILES" -- \
  find --platform "$good_platform" --ranks 2 --mdtest-hard 5:-1
expect_error find-dirs-empty-item "--dirs 1,,2" "ENTRIES[:MATCHING]" -- \
  find --platform "$good_platform" --ranks 2 --dirs 1,,2
expect_error find-dirs-more-matching "--dirs 3:4" "exceeds" -- \
  find --platform "$good_platform" --ranks 2 --dirs 3:4
expect_error find-dirs-name-without-counts "--dirs 30" "--name 01" "MATCHING" -- \
  find --platform "$good_platform" --ranks 2 --dirs 30 --name 01
expect_error find-rank-list-without-csv "--ranks 2,4" "--csv" -- \
  find --platform "$good_platform" --ranks 2,4 --mdtest-easy 2:10
expect_error find-empty-name "--name" "non-empty" -- \
  find --platform "$good_platform" --ranks 2 --mdtest-easy 2:10 --name ""
if "$pfsim" find --platform "$good_platform" --ranks 2 --mdtest-easy 2:10 --mdtest-hard 2:10 --dirs 3:1 --name 01 \
  --quiet --out "$tmp/find.json" >/dev/null 2>"$tmp/find.stderr" && [ -s "$tmp/find.json" ]; then
  echo "ok   find control: a good tree runs and writes --out"
else
  echo "FAIL find control: $(cat "$tmp/find.stderr")"
  failures=$((failures + 1))
fi

# helper-129's platform and CLI round. P: the fitted LU-1695 platform (mds.threads 2..151, readpage_threads 2..512).
fitted=$root/platforms/cray-xe6-lustre2.1-fitted.json
# 1. A service time written with a unit is not "a number without a unit"; a bare one still is.
"$pfsim" metabench --platform "$fitted" --ranks 1 --files 1 --quiet --set mds.service.stat=10s 2>"$tmp/unit10s.err"
rc_unit=$?
printf '{"name": "unit", "mds": {"service": {"stat": "10s", "create": "100us", "close": "100us", "unlink": "100us"}}}\n' \
  >"$tmp/unit-10s.json"
"$pfsim" metabench --platform "$tmp/unit-10s.json" --ranks 1 --files 1 --quiet 2>"$tmp/unit10s-file.err"
rc_unit_file=$?
"$pfsim" metabench --platform "$fitted" --ranks 1 --files 1 --quiet --set mds.service.stat=10 2>"$tmp/bare10.err"
if [ "$rc_unit" -eq 0 ] && [ "$rc_unit_file" -eq 0 ] && ! grep -q "without a unit" "$tmp/unit10s.err" "$tmp/unit10s-file.err" &&
  grep -q "warning: --set mds.service.stat=10: a number without a unit is read in s (10 s)" "$tmp/bare10.err"; then
  echo "ok   service time with a unit: no bare-number warning (--set and file); a bare 10 is warned about"
else
  echo "FAIL service time with a unit: $(cat "$tmp/unit10s.err" "$tmp/unit10s-file.err" "$tmp/bare10.err")"
  failures=$((failures + 1))
fi
# 2. An object-valued --set that breaks a relation between fields it does not all give is named.
expect_error set-object-threads-min '--set mds.threads={"min":200}: ' "'mds.threads.max'" \
  "threads.max is 151 and threads.min 200" -- \
  metabench --platform "$fitted" --ranks 1 --files 1 --set 'mds.threads={"min":200}'
expect_error set-object-readpage-min '--set mds.readpage_threads={"min":600}: ' \
  "readpage_threads.max is 512 and readpage_threads.min 600" -- \
  metabench --platform "$fitted" --ranks 1 --files 1 --set 'mds.readpage_threads={"min":600}'
expect_error set-parent-object-threads-min '--set mds={"threads":{"min":200}}: ' "'mds.threads.max'" -- \
  metabench --platform "$fitted" --ranks 1 --files 1 --set mds.cores=4 --set 'mds={"threads":{"min":200}}'
# An object --set that lowered the bound another field's error names is named, not the --set beside that field.
expect_error set-object-bound '--set mds={"threads":{"max":3}}: ' "partitions.count" -- \
  metabench --platform "$good_platform" --ranks 4 --files 100 \
  --set mds.mechanisms.partitions.enabled=true --set 'mds={"threads":{"max":3}}'
# ... and an error of the file itself does not blame a --set that had nothing to do with it.
printf '{"name": "bad", "mds": {"threads": {"min": 9, "max": 3}}}\n' >"$tmp/bad-threads.json"
expect_error file-error-not-a-set "bad-threads.json: field 'mds.threads.max'" -- \
  metabench --platform "$tmp/bad-threads.json" --ranks 1 --files 1 --set 'mds.readpage_threads={"min":4}'
if grep -q -- "--set" "$tmp/file-error-not-a-set.stderr"; then
  echo "FAIL file-error-not-a-set: the file's own error names a --set: $(cat "$tmp/file-error-not-a-set.stderr")"
  failures=$((failures + 1))
fi
# ... nor one that mended another error of the file, which hid this one.
printf '{"name": "bad2", "clients": {"max_rpcs_in_flight": 0}, "mds": {"threads": {"min": 9, "max": 3}}}\n' \
  >"$tmp/bad-two.json"
expect_error file-second-error-not-a-set "bad-two.json: field 'mds.threads.max'" -- \
  metabench --platform "$tmp/bad-two.json" --ranks 1 --files 1 --set clients.max_rpcs_in_flight=8
if grep -q -- "--set" "$tmp/file-second-error-not-a-set.stderr"; then
  echo "FAIL file-second-error-not-a-set: names a --set: $(cat "$tmp/file-second-error-not-a-set.stderr")"
  failures=$((failures + 1))
fi
# 3. Messages with values and ranges.
expect_error set-readpage-min-values "--set mds.readpage_threads.min=600: " \
  "readpage_threads.max is 512 and readpage_threads.min 600" -- \
  metabench --platform "$fitted" --ranks 1 --files 1 --set mds.readpage_threads.min=600
expect_error set-integer-1e10 "--set mds.threads.max=1e10: " "expected an integer in [1, 100000], got 1e+10" -- \
  metabench --platform "$fitted" --ranks 1 --files 1 --set mds.threads.max=1e10
expect_error set-integer-1e400 "--set mds.cores=1e400: " "expected an integer in [1, 4096], got 1e400" -- \
  metabench --platform "$fitted" --ranks 1 --files 1 --set mds.cores=1e400
# 4. An output directory is created if missing, not its parents: refused naming the option and the missing parent,
# nothing created; a missing directory in an existing one is made.
expect_error latency-dir-missing-parent "--latency-dir $tmp/nope/x" "parent directory $tmp/nope does not exist" -- \
  metabench --platform "$fitted" --ranks 4 --files 40 --latency-dir "$tmp/nope/x"
expect_error savepoperdata-missing-parent "--savePerOpDataCSV $tmp/nope/x/lat" "its directory $tmp/nope/x" \
  "parent directory $tmp/nope does not exist" -- \
  mdtest --platform "$fitted" --ranks 2 -n 2 "--savePerOpDataCSV=$tmp/nope/x/lat"
expect_refused results-dir-missing-parent "--results-dir $tmp/nope/x" "parent directory $tmp/nope does not exist" -- \
  sweep --platform "$fitted" --workload "$tmp/good-workload.json" --ranks 2,4 --csv "$tmp/s.csv" --results-dir "$tmp/nope/x"
expect_refused replay-L-missing-parent "-L $tmp/nope/x/lat" "parent directory $tmp/nope does not exist" -- \
  replay "$tool_outputs/md-real-io-2017" --platform "$root/platforms/mistral-lustre02.json" -L "$tmp/nope/x/lat"
if [ -e "$tmp/nope" ] || [ -e "$tmp/s.csv" ]; then
  echo "FAIL output directories: a refused run created $tmp/nope or $tmp/s.csv"
  failures=$((failures + 1))
fi
if "$pfsim" metabench --platform "$fitted" --ranks 4 --files 40 --quiet --latency-dir "$tmp/newlat/" 2>/dev/null &&
  [ -s "$tmp/newlat/latency-0-create-all.csv" ]; then
  echo "ok   latency-dir in an existing directory: created"
else
  echo "FAIL latency-dir in an existing directory was not created"
  failures=$((failures + 1))
fi
# 5. An object --set merges into the field's object (documented in --set's help): the file's other fields stay.
if "$pfsim" metabench --platform "$fitted" --ranks 1 --files 1 --quiet --set 'mds.threads={"max":8}' \
  --set 'mds.mechanisms.contention={"enabled":true}' --out "$tmp/merge.json" 2>/dev/null &&
  python3 - "$tmp/merge.json" <<'PY' && "$pfsim" metabench --help | grep -q "an object VALUE is merged into the field's object"
import json, sys
p = json.load(open(sys.argv[1]))["platform"]["mds"]
assert p["threads"] == {"min": 2, "max": 8}, p["threads"]
assert p["mechanisms"]["contention"]["per_busy_thread"]["unlink"] > 0, p["mechanisms"]["contention"]
PY
then
  echo "ok   an object --set merges: threads.min 2 and contention.per_busy_thread kept, and --help says so"
else
  echo "FAIL an object --set merges: $tmp/merge.json or --help"
  failures=$((failures + 1))
fi
# 6. max_rpcs_in_flight 1 is a Lustre 1.8 mdc's (one modifying slot, the rpc_lock): accepted; 2 modifying slots need 3.
if "$pfsim" metabench --platform "$fitted" --ranks 32 --files 320 --quiet --set clients.max_rpcs_in_flight=1 \
  2>"$tmp/rif1.err"; then
  echo "ok   clients.max_rpcs_in_flight=1 runs"
else
  echo "FAIL clients.max_rpcs_in_flight=1: $(cat "$tmp/rif1.err")"
  failures=$((failures + 1))
fi
expect_error mod-rpcs-not-below "--set clients.max_mod_rpcs_in_flight=2: " \
  "expected less than max_rpcs_in_flight; max_mod_rpcs_in_flight is 2 and max_rpcs_in_flight 2" -- \
  metabench --platform "$fitted" --ranks 1 --files 1 --set clients.max_rpcs_in_flight=2 \
  --set clients.max_mod_rpcs_in_flight=2

# Control: the same command line with good inputs succeeds and writes the --out file, so the checks
# above fail for the reason they name and not because the invocation itself is wrong.
# run/sweep --check: the inputs read as a run reads them, nothing simulated or written (scripts/validate asks it)
expect_refused sweep-check-bad-set "--set mds.cores=0" "mds.cores" -- \
  sweep --platform "$good_platform" --workload "$tmp/good-workload.json" --check --set mds.cores=0
expect_refused run-check-bad-ranks "--ranks" -- \
  run --platform "$good_platform" --workload "$tmp/good-workload.json" --check --ranks 0
if "$pfsim" sweep --platform "$good_platform" --workload "$tmp/good-workload.json" --check --ranks 4,8 \
  --vary mds.cores=2,4 --csv "$tmp/check.csv" >"$tmp/check.stdout" 2>"$tmp/check.stderr" && [ ! -e "$tmp/check.csv" ] \
  && [ ! -e "$tmp/check.csv.json" ] && grep -qF -- "--check" "$tmp/check.stderr"; then
  echo "ok   sweep --check: good inputs taken, exit 0, no --csv written"
else
  echo "FAIL sweep --check: good inputs not taken, or --csv written"
  cat "$tmp/check.stderr"
  failures=$((failures + 1))
fi
if "$pfsim" run --platform "$good_platform" --workload "$tmp/good-workload.json" --ranks 4 --quiet \
  --out "$tmp/good.json" >"$tmp/good.stdout" 2>"$tmp/good.stderr" && [ -s "$tmp/good.json" ]; then
  echo "ok   control: good inputs run and write --out"
else
  echo "FAIL control: good inputs did not produce $tmp/good.json"
  cat "$tmp/good.stderr"
  failures=$((failures + 1))
fi

if [ "$failures" -ne 0 ]; then
  echo "$failures CLI error check(s) failed"
  exit 1
fi
echo "all CLI error checks passed"
