#!/usr/bin/env bash
# Same inputs and seed must give byte-identical outputs (results JSON, latency files, sweep CSV, the tools' stdout); a
# different seed must change a run that samples service times.
case "${1:-}" in
  -h|--help) sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
esac
if [ $# -ne 1 ] || [ ! -x "$1" ]; then echo "$(basename "$0"): usage: $0 PATH/TO/pfsim (an executable pfsim binary)" >&2; exit 2; fi
set -euo pipefail
pfsim=$1
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plat="$root/platforms/cray-xe6-lustre2.1.json"
run() {
  "$pfsim" mdtest --platform "$plat" --ranks 64 -n 20 -u -F -w 3900 -e 3900 -i 2 --seed "$2" --quiet \
    --set mds.service_distribution=exponential --out "$tmp/$1.json" --latency-dir "$tmp/$1-lat" 2>/dev/null
}
run a 7
run b 7
run c 8
cmp "$tmp/a.json" "$tmp/b.json" || { echo "FAIL: results differ for the same seed"; exit 1; }
diff -r "$tmp/a-lat" "$tmp/b-lat" >/dev/null || { echo "FAIL: latency files differ for the same seed"; exit 1; }
if cmp -s "$tmp/a.json" "$tmp/c.json"; then echo "FAIL: a different seed gave identical results"; exit 1; fi
cat > "$tmp/w.json" <<'W'
{"generator": "metabench", "ranks": 64, "ranks_per_node": 16, "metabench": {"files": 4000, "dir_mode": "shared"}}
W
"$pfsim" sweep --platform "$plat" --workload "$tmp/w.json" --ranks 64,128 --csv "$tmp/s1.csv" --quiet --jobs 2 2>/dev/null
"$pfsim" sweep --platform "$plat" --workload "$tmp/w.json" --ranks 64,128 --csv "$tmp/s2.csv" --quiet --jobs 1 2>/dev/null
cmp "$tmp/s1.csv" "$tmp/s2.csv" || { echo "FAIL: sweep CSV depends on --jobs"; exit 1; }
# A replay (results JSON with the effective configuration, md-workbench latency files): twice the same.
trace="$root/../shared/data/tool-outputs/md-workbench-ior/run2-latency-all"
[ -d "$trace" ] || trace=/work/shared/data/tool-outputs/md-workbench-ior/run2-latency-all
if [ -d "$trace" ]; then
  mistral="$root/platforms/mistral-lustre02.json"
  for k in r1 r2; do
    "$pfsim" replay "$trace" --platform "$mistral" --ranks 9 --ranks-per-node 4 --quiet \
      --out "$tmp/$k.json" --latency-dir "$tmp/$k-lat" 2>/dev/null
  done
  cmp "$tmp/r1.json" "$tmp/r2.json" || { echo "FAIL: replay results differ between two identical runs"; exit 1; }
  diff -r "$tmp/r1-lat" "$tmp/r2-lat" >/dev/null || { echo "FAIL: replay latency files differ"; exit 1; }
fi
# The tools' own stdout (md-workbench of IOR 4.x and of 2019, md-real-io 2017), dates and node map included: twice the
# same, byte for byte (its dates are the simulated clock's, not the machine's).
for fmt in mdworkbench mdworkbench2019 mdreal2017; do
  for k in 1 2; do
    "$pfsim" mdworkbench --platform "$root/platforms/mistral-lustre02.json" --ranks 6 --ranks-per-node 4 -I 3 -P 6 -D 2 \
      -R 1 --process-reports --output-format "$fmt" >"$tmp/$fmt-$k.txt" 2>/dev/null
  done
  grep -q "^Total runtime: .* time: " "$tmp/$fmt-1.txt" || { echo "FAIL: $fmt stdout has no Total runtime line"; exit 1; }
  cmp "$tmp/$fmt-1.txt" "$tmp/$fmt-2.txt" || { echo "FAIL: $fmt stdout differs between two identical runs"; exit 1; }
done
# A data-path replay (Darshan DXT, md-workbench's small files, rescaled to 10 ranks): twice the same results JSON and
# table.
dxt="$root/../shared/data/tool-outputs/darshan-dxt/own-runs/mdw.dxt.txt"
[ -f "$dxt" ] || dxt=/work/shared/data/tool-outputs/darshan-dxt/own-runs/mdw.dxt.txt
if [ -f "$dxt" ]; then
  for k in d1 d2; do
    "$pfsim" replay "$dxt" --platform "$root/platforms/mistral-lustre02.json" --ranks 10 --out "$tmp/$k.json" \
      >"$tmp/$k.txt" 2>/dev/null || { echo "FAIL: the DXT replay failed"; exit 1; }
  done
  cmp "$tmp/d1.json" "$tmp/d2.json" || { echo "FAIL: DXT replay results differ between two identical runs"; exit 1; }
  cmp "$tmp/d1.txt" "$tmp/d2.txt" || { echo "FAIL: DXT replay tables differ between two identical runs"; exit 1; }
fi
# A switched-on mechanism that never acts changes nothing: timeouts of 100 s (no request takes that long)
# give the same rates as timeouts off, on a run where nodes wait with no timer pending (one rank per node).
for k in off on; do
  extra=()
  [ "$k" = on ] && extra=(--set mds.mechanisms.timeouts.enabled=true --set mds.mechanisms.timeouts.timeout=100s)
  "$pfsim" metabench --platform "$root/platforms/cray-xe6-lustre2.1-fitted.json" --ranks 64 --ranks-per-node 1 \
    --files 2000 --quiet --out "$tmp/t-$k.json" "${extra[@]}" 2>/dev/null
done
python3 - "$tmp/t-off.json" "$tmp/t-on.json" <<'PY' || { echo "FAIL: idle timeouts changed the results"; exit 1; }
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
rates = lambda j: [(p["name"], p["rate_items_per_s"], p["time_s"]) for p in j["phases"]]
sys.exit(0 if rates(a) == rates(b) and b["resends"] == 0 else 1)
PY
# The effective configuration reruns the run: the results' "platform" (with the ranks per node the run had, here
# --ranks-per-node 4 against the file's 16) given back as --platform, without the option, gives the same phases.
"$pfsim" metabench --platform "$plat" --ranks 32 --ranks-per-node 4 --files 640 --quiet --out "$tmp/e1.json" 2>/dev/null
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["platform"], open(sys.argv[2], "w"))' \
  "$tmp/e1.json" "$tmp/e-platform.json"
"$pfsim" metabench --platform "$tmp/e-platform.json" --ranks 32 --files 640 --quiet --out "$tmp/e2.json" 2>/dev/null
python3 - "$tmp/e1.json" "$tmp/e2.json" <<'PY' || { echo "FAIL: the recorded platform does not rerun the run"; exit 1; }
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
rates = lambda j: [(p["name"], p["rate_items_per_s"], p["time_s"]) for p in j["phases"]]
ok = a["platform"]["clients"]["ranks_per_node"] == 4 and a["run"]["nodes"] == 8 and rates(a) == rates(b) and \
    b["run"]["nodes"] == 8
sys.exit(0 if ok else 1)
PY
# The same with the recorded workload: the results' "workload_file" given to pfsim run reruns an mdtest run.
"$pfsim" mdtest --platform "$plat" --ranks 6 --ranks-per-node 2 -n 7 -u -F -w 3900 -e 3900 -i 2 --quiet \
  --out "$tmp/m1.json" 2>/dev/null
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); json.dump(j["platform"], open(sys.argv[2], "w")); json.dump(j["workload"]["workload_file"], open(sys.argv[3], "w"))' \
  "$tmp/m1.json" "$tmp/m-platform.json" "$tmp/m-workload.json"
"$pfsim" run --platform "$tmp/m-platform.json" --workload "$tmp/m-workload.json" --quiet --out "$tmp/m2.json" 2>/dev/null
python3 - "$tmp/m1.json" "$tmp/m2.json" <<'PY' || { echo "FAIL: the recorded workload does not rerun the mdtest run"; exit 1; }
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
rates = lambda j: [(p["name"], p["rate_items_per_s"], p["time_s"]) for p in j["phases"]]
sys.exit(0 if rates(a) == rates(b) and len(rates(a)) > 4 else 1)
PY
# pfsim find (pfind's walk, its stats shared out and paced): twice the same results, and the recorded platform (the
# readdir fields included) reruns it.
sp="$root/platforms/spartan-cephfs-fitted.json"
for k in f1 f2; do
  "$pfsim" find --platform "$sp" --ranks 24 --ranks-per-node 4 --mdtest-easy 24:300 --mdtest-hard 24:400 --name 1 \
    --quiet --out "$tmp/$k.json" 2>/dev/null || { echo "FAIL: pfsim find failed"; exit 1; }
done
cmp "$tmp/f1.json" "$tmp/f2.json" || { echo "FAIL: pfsim find results differ between two identical runs"; exit 1; }
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["platform"], open(sys.argv[2], "w"))' \
  "$tmp/f1.json" "$tmp/f-platform.json"
"$pfsim" find --platform "$tmp/f-platform.json" --ranks 24 --ranks-per-node 4 --mdtest-easy 24:300 \
  --mdtest-hard 24:400 --name 1 --quiet --out "$tmp/f3.json" 2>"$tmp/f3.err" || { echo "FAIL: find rerun failed"; exit 1; }
python3 - "$tmp/f1.json" "$tmp/f3.json" <<'PY' || { echo "FAIL: the recorded platform does not rerun pfsim find"; exit 1; }
import json, sys
a, b = (json.load(open(f))["find"] for f in sys.argv[1:])
sys.exit(0 if a == b and a["local_stats"] > 0 and a["stats"] > a["local_stats"] else 1)
PY
[ -s "$tmp/f3.err" ] && grep -q warning "$tmp/f3.err" && { echo "FAIL: the recorded platform warns: $(cat "$tmp/f3.err")"; exit 1; }
echo "determinism: 9 passed, 0 failed"
