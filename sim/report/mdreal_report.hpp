// md-real-io / md-workbench style reports of a replayed or generated run: the tool's phase lines, its
// per-rank latency files, and per-operation latency summaries. The client model records each RPC-level
// operation (Open, Read, Close...); these reports regroup them into the benchmark's operations (read = open +
// read + close) and add the replayed residual delay of each (workload/replay.hpp).
#pragma once
#include "report/records.hpp"
#include "workload/replay.hpp"

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace pfsim {

struct MdrealPhase {
  std::string name;
  trace::PhaseKind kind = trace::PhaseKind::Other;
  int iteration = 0;
  double time_s = 0;       // barrier to barrier (the slowest rank), as the tool's phase time
  uint64_t objects = 0;    // items of the phase
  uint64_t dsets = 0;      // data sets created / removed
  uint64_t operations = 0; // benchmark-level operations (a read counts once), data-set operations included
  double bytes = 0;        // object bytes written + read
  // Benchmark-level operation samples: start relative to the phase start (of the rank) and latency, s.
  struct Sample {
    uint32_t rank;
    unsigned char op;
    float start_s;
    float runtime_s;
  };
  std::vector<Sample> samples;  // empty when the run kept no per-operation samples
  // Each rank's time in the phase: from the phase start to its last step's end (its data-set mkdirs/rmdirs
  // included); empty when the run kept no rank times (RunOptions::rank_times).
  std::vector<double> rank_time_s;
};

// Needs records.keep_samples for the latency samples; phase times and counts are always filled. The
// per-RPC samples of `records` are consumed (moved out and freed phase by phase, so that a large run does
// not hold two copies); everything else in `records` is left as it was.
std::vector<MdrealPhase> mdreal_phases(const ReplayWorkload& w, RunRecords& records);

// md-real-io 2017 phase line, e.g. "benchmark 17.9s 11156.8 iops/s 50000 obj 2789.2 obj/s 20.7 Mib/s (0 errs)".
// iops = benchmark-level operations (objects x 4 in a benchmark; objects + data sets in precreate / cleanup)
// per second; Mib/s = object bytes moved (written in precreate; read + written in a benchmark) / 2^20 / s.
// `with_max`: append the slowest operation of the phase ("max 8.1748e-03s"), as later md-real-io 2017 builds
// print it (needs the phase's samples).
std::string mdreal_phase_line(const MdrealPhase& p, bool with_max = false);

// <dir>/<prefix>-<iter>-<phase>-<rank>.csv with "time,runtime" (md-real-io 2017 naming); benchmark
// iterations get one file per operation kind (stat, read, create, delete), sharing the rank's clock.
void write_mdreal_latency_files(const std::string& dir, const std::string& prefix, const std::vector<MdrealPhase>& ph,
                                int ranks);

// The output generation a replay reports in: md-real-io 2017 ("benchmark 17.9s ... (0 errs)", per-rank latency
// files), IOR 4.x's md-workbench ("Nodemap: 11", "benchmark process max:... read(min, q1, median, q3, q90, q99, max)",
// lat-0.00-<iter>-<op>[-all].csv), the standalone md-workbench of 2019 (the same phase lines and files; md-real-io's
// option block instead of the Nodemap, min and mean with one decimal, its own quantile rule), or mdtest (SUMMARY
// table, <prefix>-<Phase>-<rank %05d>.csv "time,runtime,tp").
enum class ReportFormat { MdReal2017, MdWorkbench, MdWorkbench2019, Mdtest };
// "mdreal2017", "mdworkbench", "mdworkbench2019", "mdtest"; throws std::invalid_argument naming the accepted values.
ReportFormat parse_report_format(const std::string& name);
const char* report_format_name(ReportFormat f);
// Either md-workbench generation (the "process max:" lines and md-workbench's latency files).
inline bool is_mdworkbench(ReportFormat f) { return f == ReportFormat::MdWorkbench || f == ReportFormat::MdWorkbench2019; }
// The format a trace's own tool writes (trace::Trace::format: "md-real-io-2017", "md-workbench-all",
// "md-workbench-rank0", "mdtest-perop"); an md-workbench trace whose saved stdout is the standalone 2019 tool's
// (trace::Trace::output_generation "md-workbench-2019") in that generation's form, else in IOR 4.x's.
ReportFormat report_format_of_trace(const std::string& trace_format, const std::string& output_generation = "");

// md-workbench's phase line (print_global form): per-rank phase times (max, min, mean, balance = min/max x 100, sample
// stddev), rates, throughput, op-max and, per operation kind, (min, q1, median, q3, q90, q99, max). `format`: IOR 4.x's
// (min and mean "%.2fs"; the quantile q is the sorted value at round(q (n - 1) + 0.49)) or the 2019 standalone tool's
// (min and mean "%.1fs"; at round(q n + 0.49), which for small n (q99: n < 100) lies past the last value: the real
// tool prints whatever memory follows there (mostly 0.0000e+00, some 2.3694e-38), pfsim prints 0.0000e+00).
std::string mdworkbench_phase_line(const MdrealPhase& p, int ranks, ReportFormat format = ReportFormat::MdWorkbench);
// md-workbench --process-reports: one line per rank after the phase line ("0: precreate process max:0.01s
// rate:... (0 errs) create(...)"), each with that rank's time, rates and operation statistics (needs samples).
std::string mdworkbench_rank_lines(const MdrealPhase& p, int ranks, ReportFormat format = ReportFormat::MdWorkbench);

// The tools' wall-clock dates ("time: 2017-07-09 00:54:04" after the banner and the Total runtime) have no meaning in a
// simulation: pfsim prints the simulated clock as a date from the Unix epoch, "1970-01-01 00:00:00" at the start and
// the date t_s (floored to whole seconds, as time() is) later at the end: deterministic, and clearly not a real date.
std::string simulated_date(double t_s);
// The tools' last line, "Total runtime: 73s time: 2017-07-09 00:55:17" (md-real-io 2017 and both md-workbench
// generations): the simulated runtime rounded to seconds and simulated_date(end_s), with its end of line.
std::string total_runtime_line(double end_s);
// IOR's "Nodemap: 1100" (QueryNodeMapping): one digit per rank, 1 for a rank on rank 0's node, else 0; `node_of_rank`
// gives each rank's simulated client node. With its end of line.
std::string nodemap_line(const std::vector<int>& node_of_rank);
// md-workbench's and md-real-io's warning after the banner when -I > -P (the benchmark may find no object to read).
constexpr const char* kNumOverPrecreateWarning =
    "WARNING: num > precreate, this may cause the situation that no objects are available to read\n";
// md-real-io 2017's per-rank lines ("0: precreate 0.0s ... (0 errs)", its --process-reports): each rank's share of
// the counts over its own phase time (the end of its last operation), with its slowest operation when with_max.
std::string mdreal_rank_lines(const MdrealPhase& p, int ranks, bool with_max);

// md-workbench latency files: <dir>/<prefix>-0.00-<iter>-<op>.csv of rank 0, or with all_ranks
// <prefix>-0.00-<iter>-<op>-all.csv with every rank's rows concatenated in rank order (no rank column).
void write_mdworkbench_latency_files(const std::string& dir, const std::string& prefix,
                                     const std::vector<MdrealPhase>& ph, bool all_ranks);

// mdtest --savePerOpDataCSV files: <dir>/<prefix>-<Phase name>-<rank %05d>.csv with "time,runtime,tp"
// (tp = bytes / runtime: the object size for creation, read and removal, 1 for stat, as mdtest writes them).
void write_mdtest_latency_files(const std::string& dir, const std::string& prefix, const std::vector<MdrealPhase>& ph,
                                int ranks, double object_size_B);

// The latency files' names, each built in one place: the writers above write under them and latency_file_names
// predicts them. <name> is the operation kind's (stat, read, create, delete; op_kind a trace::TraceOp) in a benchmark
// iteration, else the phase's, spaces as '_'. md-real-io 2017: "<prefix>-<iteration>-<name>-<rank>.csv";
// md-workbench: "<prefix>-0.00-<iteration>-<name>.csv" of rank 0, "<prefix>-0.00-<iteration>-<name>-all.csv" with
// all_ranks; mdtest: mdtest_perop_file_name (report/outputs.hpp).
std::string mdreal_latency_file_name(const std::string& prefix, trace::PhaseKind kind, const std::string& phase,
                                     int iteration, int op_kind, int rank);
std::string mdworkbench_latency_file_name(const std::string& prefix, trace::PhaseKind kind, const std::string& phase,
                                          int iteration, int op_kind, bool all_ranks);

// The names of the latency files a run of `w` in `format` writes in its latency directory, as the writers above name
// them from the phases' samples (one file per rank, phase and operation kind the rank does in it; md-workbench's
// four files of a benchmark iteration without objects), predicted from the workload's operation counts: what
// replay --check, which simulates nothing, compares the directory with, to warn of the files the run would leave
// there as a run does. all_ranks: md-workbench's -all files (write_mdworkbench_latency_files).
std::set<std::string> latency_file_names(const ReplayWorkload& w, ReportFormat format, const std::string& prefix,
                                         bool all_ranks);

// mdtest's SUMMARY table of the phases (items / phase time).
std::string mdtest_summary_of(const std::vector<MdrealPhase>& ph);

// Per phase: time, rates, and per-operation latency summaries (all iterations of a benchmark also pooled).
// with_max: each phase's line with its slowest operation, as the later md-real-io builds print it (mdreal_phase_line).
nlohmann::json mdreal_json(std::vector<MdrealPhase>& phases, bool with_max = false);

}  // namespace pfsim
