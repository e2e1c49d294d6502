// A simulation repeated over several rank counts, one child process per point (SimGrid allows one engine per
// process), at most `jobs` at a time: pfsim sweep (workload files), and pfsim replay / mdworkbench / find / ior with a
// rank list and --csv. The table and its configuration file land together, or neither (sim/app/sweep.cpp).
#pragma once
#include "config/platform_config.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace pfsim::app {

// "512,1024,2048": integers in [1, kMaxRanks], digits only, no repeats; invalid_argument naming `option` otherwise.
std::vector<int> parse_rank_list(const std::string& option, const std::string& text);

struct SweepSpec {
  std::vector<int> ranks;
  // --vary PATH=V1,V2,...: every rank count for each value of one platform field (a --set of it per point, after the
  // others); empty: none. The table gets a first column named PATH.
  std::string vary_path;
  std::vector<std::string> vary_values;
  int jobs = 1;
  std::string results_dir;  // keep every point's results JSON there as ranks-<r>.json ("" = a temporary directory)
  std::string csv;          // the table; csv + ".json" holds the effective configuration and every point's results
  bool quiet = false;       // else the table is printed on stdout too
  // A command's own columns after the common ones (pfsim ior's bw_MiBps): their header (",name,...") and each row's
  // values (",v,..."), from the point's results and the row's index in its "phases"; none when extra_header is empty.
  std::string extra_header;
  std::function<std::string(const nlohmann::json& results, size_t phase)> extra_fields;
  // More of each point's results kept in csv.json's "points" when the point has them (pfsim ior's "ior").
  std::vector<std::string> point_keys;
};

// The sweep table's header and one point's rows (one per phase): ranks, nodes, phase, iteration, items, time_s,
// rate, p50_s, p99_s (of the phase's items, the tool's operations, when the results have them), then `extra`'s
// fields when given (SweepSpec::extra_fields; the header's extra columns are the caller's).
extern const char* const kSweepCsvHeader;
std::string sweep_csv_rows(int ranks, const nlohmann::json& results,
                           const std::function<std::string(const nlohmann::json&, size_t)>& extra = nullptr);

// "PATH=V1,V2,...": the field's path and its values (scalars: numbers, booleans, bare strings such as 200us; at least
// two, no repeats); invalid_argument naming `option` otherwise.
std::pair<std::string, std::vector<std::string>> parse_vary(const std::string& option, const std::string& text);

// --vary's platforms: `file` with `sets` and then PATH=value for each value, loaded and checked before any point runs.
// config::ConfigError naming the --vary value (`vary_text`, as typed) that is wrong; std::invalid_argument when two
// values give the same platform (the same point twice). Each value's platform warnings go to stderr, those about the
// value named as it ("--vary PATH=V1,V2, value V1: ...", not as the --set it is applied as).
std::vector<config::PlatformConfig> vary_platforms(const std::string& file, const std::vector<std::string>& sets,
                                                   const SweepSpec& spec, const std::string& vary_text);

// A point's name in messages: "640 ranks", with --vary "640 ranks with PATH=VALUE" (k: the value's index, -1: none).
// Its run's warnings begin with it (RunOptions::point).
std::string sweep_point_name(const SweepSpec& spec, int ranks, int k);

// Runs `point(r, k)` for every rank count r (and every --vary value k, value by value; k = -1 without one) in a child
// process and keeps its results JSON (which states its own rank
// count, as a single run's --out would). After a failure no new point starts, the running ones are waited for, no
// table is written, and runtime_error is thrown (a --results-dir keeps the finished points' results, each complete).
// Then writes the table and `csv`.json: {pfsim_version, build, seed, platform, the fields of sweep_fields(first
// point's results): "inputs" (with the sweep's rank list) and "workload", ranks, points: [{run, phases, servers and
// the spec's point_keys}]}.
void run_sweep(const SweepSpec& spec, const std::function<nlohmann::json(int, int)>& point,
               const std::function<nlohmann::json(const nlohmann::json&)>& sweep_fields);

}  // namespace pfsim::app
