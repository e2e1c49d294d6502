// Result files: the results JSON (effective configuration, seed, per-phase rates and latencies, server
// statistics), mdtest's SUMMARY table, md-workbench-style latency files. Everything is written to a
// temporary name and renamed when complete, so a failed run leaves nothing half-written.
#pragma once
#include "report/records.hpp"

#include <nlohmann/json.hpp>
#include <signal.h>
#include <fstream>
#include <string>
#include <vector>

namespace pfsim {

// A file written under a temporary name and renamed into place by commit(); destroyed without commit()
// (an error on the way), it removes the temporary and leaves nothing at `path`.
class AtomicFile {
public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  std::ofstream& out() { return out_; }
  void commit();

private:
  std::string path_, tmp_;
  std::ofstream out_;
  bool done_ = false;
};

void write_file_atomic(const std::string& path, const std::string& content);

// An output directory (--latency-dir, -L's, --savePerOpDataCSV's): created if missing, as the tools create theirs, but
// not its parents (the command line checked before the run that the parent exists: check_output_dir). Created within
// an OutputBatch, it goes again, if still empty, when the batch ends without commit() or a signal stops the run, so a
// failed run leaves no directory it made; std::runtime_error naming the directory when it cannot be made.
void make_output_dir(const std::string& dir);

// SIGINT, SIGTERM, SIGHUP (unless ignored, as under nohup): one line on stderr saying the run stopped and wrote
// nothing, the temporary files removed, then the process dies of the signal. Installed once the simulation's engine
// exists: SimGrid's own SIGINT handler exits with status 1 and a line about skipped cleanups.
void install_interrupt_handler();
// Notes which of those signals the process was started ignoring (call first thing in main: SimGrid's engine later
// installs a SIGINT handler over an ignored SIGINT); install_interrupt_handler keeps them ignored.
void note_initial_signals();
// Whether the handler prints its line (a sweep's points do not: the sweep says it stopped).
void set_interrupt_line(bool on);

// SIGINT, SIGTERM and SIGHUP held back for the object's lifetime (delivered when it ends): for steps that must not
// be cut in two, such as the renames of an OutputBatch or a probe file's creation and removal.
class SignalsBlocked {
public:
  SignalsBlocked();
  ~SignalsBlocked();
  SignalsBlocked(const SignalsBlocked&) = delete;
  SignalsBlocked& operator=(const SignalsBlocked&) = delete;

private:
  sigset_t old_;  // the mask before
};

// The outputs of one run, committed together. While a batch is open (in this thread), every AtomicFile and
// write_file_atomic writes its temporary file in full and is renamed into place only by commit(); a batch that
// ends without commit() (an exception: a full disk, a file that cannot be written) removes the temporary files,
// so a failed run leaves none of its latency files and no --out rather than some of them.
class OutputBatch {
public:
  OutputBatch();
  ~OutputBatch();
  OutputBatch(const OutputBatch&) = delete;
  OutputBatch& operator=(const OutputBatch&) = delete;
  // Renames every file into place with SIGINT, SIGTERM and SIGHUP held back, so that a signal lands before the first
  // rename (nothing in place, temporaries removed) or after the last (everything in place), never between two
  // (helper-120: a SIGTERM during the renames left 92 of 140 latency files, which a later replay read as a trace).
  void commit();
  // Test seam: called after each rename of commit() (a test raises a signal there).
  static void (*after_rename_for_test)();
  static OutputBatch* current();
  void add(std::string tmp, std::string path) { files_.emplace_back(std::move(tmp), std::move(path)); }
  // A directory make_output_dir created for this batch: removed again (when empty) if the batch ends without commit().
  void add_dir(std::string dir) { dirs_.push_back(std::move(dir)); }

private:
  std::vector<std::pair<std::string, std::string>> files_;  // (temporary, final)
  std::vector<std::string> dirs_;                           // created for the batch, in order
  OutputBatch* previous_;
  bool done_ = false;
};

// An OSS's data counters for the results: bytes written and read, RPCs by size in pages (LMT's histogram bins 1, 2,
// 4 .. 4096).
nlohmann::json oss_data_json(const ServerRecord& s);
// LMT-like samples: for every OSS (idle ones too), one row per sample interval in which some OSS moved data, with the
// interval's RPCs by size (write_rpcs_1 .. write_rpcs_4096, read_rpcs_...) (oss.sample_interval, starting at
// oss.sample_offset + (k - 1) x interval) with the bytes its OST wrote and read in it.
// The CSV starts with one comment line, "# pfsim effective configuration: " and the run's seed, inputs and platform as
// one line of JSON (`effective`; left out when null), so that the samples record what made them without --out.
std::string lmt_samples_csv(const RunRecords& records, double interval_s, double offset_s,
                            const nlohmann::json& effective = nullptr);

// Per-phase rate in items per second as the tools report it (items / phase wall time).
double phase_rate(const PhaseRecord& p);

// `header` carries the effective configuration (platform, workload, seed, run shape).
nlohmann::json results_json(RunRecords& records, const nlohmann::json& header);

// mdtest's "Command line used: mdtest '-n' '50' ..." and "<tasks> tasks, <tasks x n> files" lines, which pfsim replay
// reads back from a saved stdout (-u: unique directories; -n, -w, -e: counts and bytes). n < 0: not stated (no
// -n, no tasks line); w, e <= 0 and iterations <= 1 are left out; only_phases: -C -T -E -r when not all four ran.
struct MdtestCommand {
  long long n = -1;
  double w = 0, e = 0;
  long long iterations = 1;
  bool u = false, F = false, D = false;
  std::vector<std::string> only_phases;
  long long stride = 0;      // -N
  long long stonewall_s = 0;         // -W (0: not printed)
  bool sync = false, time_unique_dir = false;  // -Y, -t
  std::string perop_prefix;  // --savePerOpDataCSV=<prefix> ("": none)
  std::vector<std::string> typed;  // the options as typed (pfsim mdtest), printed instead of the fields above
  long long tasks = 0;
  // The rank shift the run applied (-N, times the tasks on node 0 with block placement over several nodes): mdtest's
  // "V-0: Rank   0 Line  2594 Shifting ranks by <shift> for each phase." before the tasks line (0: none printed)
  long long shift = 0;
  // mdtest's "Nodemap: 1100" after the command line (report/mdreal_report.hpp nodemap_line; "": none printed)
  std::string nodemap;
};
std::string mdtest_command_lines(const MdtestCommand& c);
// The simulated clock t_s as a date in a tool's strftime `layout`: the simulation starts at 1970-01-01 00:00:00 UTC
// and t_s is floored to whole seconds, as time() is; deterministic, whatever the machine's time zone, and clearly not
// a real date. The tools' dates call it: md-workbench's (simulated_date), IOR's (ior_date), mdtest's (mdtest_date).
std::string clock_date(double t_s, const char* layout);
// mdtest's dates ("-- started at 11/22/2026 02:42:54 --", "-- finished at ... --"): %m/%d/%Y %H:%M:%S.
std::string mdtest_date(double t_s);

// mdtest 4.x "SUMMARY rate (in ops/sec): (of N iterations)" table, phases grouped by name. `rows`: mdtest's rows in
// its order, a phase that did not run (mdtest -C, -T, -E, -r) printing zeros as mdtest's do; empty: the phases that
// ran, tree rows last. `times` (mdtest -P): the "SUMMARY time" table follows, each phase's time in seconds under
// mdtest's own heading "(in ms/op)" (mdtest 4.1 prints the phase's seconds there).
std::string mdtest_summary(const RunRecords& records, int iterations, const std::vector<std::string>& rows = {},
                           bool times = false);
// mdtest's line when its stonewall stopped a rank early (updateStoneWallIterations, printed by rank 0 whatever the
// verbosity): the fewest, most and mean items the ranks had made at the allreduce, then an empty line; "" when every
// rank made its -n items (mdtest prints nothing then), or when `phase` is no stonewalled phase.
std::string mdtest_stonewall_line(const PhaseRecord& phase, uint64_t items_per_rank, int ranks);

// mdtest 4.1's --saveRankPerformanceDetails CSV (mdtest.c: md_validate_tests writes the header, StoreRankInformation
// the rows): "rank,items" and ",rate-<test>,time-<test>" for its 11 tests in its order (Directory creation, stat,
// read, rename, removal; File creation, stat, read, removal; Tree creation, removal); then "all,<items>" with, per
// test, the first iteration's items of every rank / its time (the slowest rank's, after the barrier: the phase's) and
// that time; then per iteration, per rank, "<rank>," and for the 9 Directory and File tests its items / its time
// before the phase's barrier and that time (RunRecords::rank_times). %.10e; ",," for a test that did not run (no
// items). A tree's items are one per rank (mdtest's num_dirs_in_tree on every rank). `items`: mdtest's o.items when it
// writes the file (the items per rank: -n, a stonewalled create's count, -x's). `dir_read`: mdtest ran its Directory
// read phase, which has no operations: items / 0 s, "inf,0.0000000000e+00" (pfsim keeps no phase for it). Directory
// rename, which pfsim does not simulate, is always ",,".
struct MdtestRankDetails {
  int ranks = 1;
  uint64_t items = 0;
  bool dir_read = false;
};
std::string mdtest_rank_csv(const RunRecords& records, const MdtestRankDetails& d);

// The same table from rates per operation, in the given order (one rate per iteration).
std::string mdtest_summary_table(const std::vector<std::pair<std::string, std::vector<double>>>& rates, int iterations,
                                 const char* heading = "SUMMARY rate (in ops/sec)");

// One "time,runtime" CSV per phase, all ranks concatenated in rank order (md-workbench --latency-all):
// <dir>/<prefix>-<iteration>-<phase>-all.csv. Needs records.keep_samples.
void write_latency_files(const std::string& dir, const std::string& prefix, const RunRecords& records);
// One row of an mdtest --savePerOpDataCSV file ("time,runtime,tp": start in the phase, duration, bytes / duration;
// mdtest counts 1 byte for a stat) appended to `rows`, and the file of one phase and rank,
// "<prefix>-<phase>-<rank %05d>.csv". Replays of mdtest traces and synthetic mdtest runs both write through these.
void append_mdtest_perop_row(std::string& rows, double start_s, double runtime_s, double size_B);
// That file's name, "<prefix>-<phase>-<rank %05d>.csv" (the phase's name as it is, spaces kept: "File creation"), the
// one place it is built: write_mdtest_perop_file writes it, latency_file_names (replay --check) predicts it.
std::string mdtest_perop_file_name(const std::string& prefix, const std::string& phase, uint32_t rank);
void write_mdtest_perop_file(const std::string& dir, const std::string& prefix, const std::string& phase,
                             uint32_t rank, const std::string& rows);
// mdtest --savePerOpDataCSV files of a synthetic mdtest run: "<prefix>-<phase name>-<rank %05d>.csv" with
// time,runtime,tp, one row per mdtest operation (its client operations, from the first one's start to the
// last one's end; rpcs_per_item[phase] of them), the last iteration of each phase only, as mdtest writes
// them. tp = object_size_B / runtime (1 / runtime for stat phases), as mdtest computes it.
void write_mdtest_perop_files(const std::string& dir, const std::string& prefix, const RunRecords& records,
                              const std::vector<size_t>& rpcs_per_item, double object_size_B);

}  // namespace pfsim
