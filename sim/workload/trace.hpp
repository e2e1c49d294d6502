// Recorded metadata-benchmark traces: per-rank operation streams rebuilt from the tools' latency files.
//
// Formats read (examples of each in ../shared/data/tool-outputs, README there says which command made them):
//   md-real-io 2017    <prefix>-<iter>-<phase>-<rank>.csv, one file per rank, + optional mdreal.txt header; recorded
//                      without --latency-all (no "latency-all" line in the header) rank 0's files only, read as -L
//                      files are (the header's rank count is the run's, every rank replays rank 0's stream)
//   md-workbench -L    <prefix>-<waitfactor>-<iter>-<phase>.csv, rank 0 only (IOR 4.x and 2019 standalone)
//   md-workbench --latency-all  <prefix>-<waitfactor>-<iter>-<phase>-all.csv, every rank concatenated without a
//                      rank column, rank by rank: split into equal parts of the rows per rank the header states
//                      (-I x -D for benchmark files, -P x -D for precreate and cleanup) or of rows / the rank count
//                      the header states; without a header, the smallest rank count that divides every file's rows
//                      and puts every point where "time" goes backwards at a rank boundary (a rank's time starts
//                      near 0, but need not restart below the previous rank's last time); the benchmark files of
//                      a run with a stonewall timer (-w, ranks did different counts) split where time restarts
//   mdtest --savePerOpDataCSV   <prefix>-<File creation|File stat|File read|File removal>-<rank%05d>.csv
// Headers: mdreal.txt (md-real-io 2017) and stdout.txt (md-workbench's "Args:" command line, parsed as IOR's option
// parser does: -X=V, -X V, -XV, --long=V, --long V, sizes with k/m/g/t/p suffixes in powers of 1024; options the
// Args line does not give take md-workbench's defaults -I 1000 -P 3000 -D 10 -R 3 -S 3901 -O 1). The run's rank
// count comes from the per-rank report lines ("1: precreate ..."), "Nodemap:", the data sets of the precreate or
// cleanup line over -D, or "total objects" over D x (P + I x R) when that divides exactly, in that order.
// A UTF-8 byte order mark at the start of any file is skipped.
// Every file has the columns time,runtime (seconds): time = start of the operation relative to the start of
// that phase (benchmark iteration) on that rank, runtime = its duration. The stat/read/create/delete files of
// one benchmark iteration share one clock, so merging them by time gives each rank's operation sequence.
//
// Memory: files are read line by line; what is kept per operation is its kind (1 byte), the think time before
// it and its recorded runtime (two floats): 9 bytes per operation.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace pfsim::trace {

// "1 rank", "2 ranks": a count of ranks in a message.
inline std::string ranks_text(long long n) { return std::to_string(n) + (n == 1 ? " rank" : " ranks"); }

// An operation as the benchmark sees it (one line of a latency file).
enum class TraceOp : unsigned char {
  Stat,    // stat()
  Read,    // open + read(object size) + close
  Create,  // open(O_CREAT) + write(object size) + close
  Delete,  // unlink()
};
constexpr int kTraceOpCount = 4;

// md-workbench's defaults for the options a command line does not give (IOR 4.x and the 2019 standalone tool:
// -I 1000 -P 3000 -D 10 -R 3 -S 3901, offset 1): what an Args line without them means, and pfsim mdworkbench's.
constexpr int kMdwDefaultI = 1000, kMdwDefaultP = 3000, kMdwDefaultD = 10, kMdwDefaultR = 3, kMdwDefaultS = 3901;
constexpr int kMdwDefaultOffset = 1;
const char* trace_op_name(TraceOp op);  // "stat", "read", "create", "delete" (md-real-io file names)

enum class PhaseKind : unsigned char { Precreate, Benchmark, Cleanup, Other };

struct TracePhase {
  std::string name;     // "precreate", "benchmark", "cleanup", or the mdtest phase name ("File creation")
  PhaseKind kind = PhaseKind::Other;
  int iteration = 0;    // the <iter> of the file names
};

// One recorded rank: its operations in time order, phase by phase.
struct RankStream {
  std::vector<unsigned char> op;      // TraceOp
  std::vector<float> think_s;         // gap between the previous operation's end and this one's start (0 first)
  std::vector<float> runtime_s;       // recorded duration
  std::vector<uint64_t> phase_begin;  // first operation of each phase; phase_begin[phases] = the operation count
  // A generated stream (pfsim mdworkbench) keeps no operations: phase p repeats pattern[p] (op, think_s and
  // runtime_s are empty; think and runtime 0), so its memory does not grow with -I, -P, -D or -R.
  std::vector<std::vector<unsigned char>> pattern;
  uint64_t begin(int phase) const { return phase_begin[static_cast<size_t>(phase)]; }
  uint64_t end(int phase) const { return phase_begin[static_cast<size_t>(phase) + 1]; }
  uint64_t size() const { return phase_begin.empty() ? 0 : phase_begin.back(); }
  // Operation i (an index in [begin(phase), end(phase))).
  unsigned char op_at(int phase, uint64_t i) const
  {
    if (pattern.empty())
      return op[i];
    const auto& pt = pattern[static_cast<size_t>(phase)];
    return pt[(i - begin(phase)) % pt.size()];
  }
  // Operations of each kind (TraceOp) among the first n of the phase, in one pass (a generated stream: without
  // walking them).
  std::array<uint64_t, kTraceOpCount> counts(int phase, uint64_t n) const
  {
    std::array<uint64_t, kTraceOpCount> c{};
    if (pattern.empty()) {
      for (uint64_t i = begin(phase); i < begin(phase) + n; ++i)
        c[op[i]]++;
      return c;
    }
    const auto& pt = pattern[static_cast<size_t>(phase)];
    for (size_t j = 0; j < pt.size(); ++j)
      c[pt[j]] += n / pt.size() + (j < n % pt.size() ? 1 : 0);
    return c;
  }
  float think_at(uint64_t i) const { return think_s.empty() ? 0.f : think_s[i]; }
  float runtime_at(uint64_t i) const { return runtime_s.empty() ? 0.f : runtime_s[i]; }
};

// A phase line of the tool's own report (mdreal.txt), kept for comparisons.
struct ReportedPhase {
  std::string name;
  double time_s = 0;
  double iops = 0;
  double obj_per_s = 0;
  double mib_per_s = 0;
  uint64_t objects = 0;  // "<n> obj" (md-real-io) or "objects:<n>" (md-workbench): all ranks' objects of the phase
  bool objects_stated = false;
  uint64_t dsets = 0;   // "<n> dset" (precreate and cleanup lines): ranks x data-sets
  bool has_max = false; // the line states the slowest operation ("max <s>s", later md-real-io 2017 builds)
  std::string file;     // where the line was read
  size_t line = 0;
};

// md-real-io / md-workbench parameters (the mdreal.txt header or stdout "Args:" line); 0 = unknown.
struct BenchmarkParams {
  int obj_per_proc = 0;        // -I
  int precreate_per_set = 0;   // -P
  int data_sets = 0;           // -D
  int iterations = 0;          // -R
  int offset = 1;              // --offset K: benchmark reads/deletes in rank r - K(d+1)'s set d, creates in r + K(d+1)'s
  double object_size_B = 0;    // -S
};

struct Trace {
  std::string format;  // "md-real-io-2017", "md-workbench-all", "md-workbench-rank0", "mdtest-perop"
  std::string path;    // directory read
  std::string prefix;  // file name prefix ("mdreal", "lat", "mdtest-perop")
  int ranks = 0;       // recorded ranks: one stream each
  int recorded_ranks = 0;  // ranks of the recorded run: = ranks, or what the header states for -L files (rank 0's
                           // stream only); the replay's default rank count
  bool process_reports = false;  // the recorded stdout has md-workbench's per-rank lines (--process-reports)
  // Which tool generation printed the saved stdout (mdreal.txt, stdout.txt), told by its lines: "md-real-io-2017"
  // (the MD-REAL-IO banner), "md-workbench-2019" (the standalone md-workbench: its MD-Workbench banner followed by
  // md-real-io's "\tinterface=..." option block, or -i / --interface on its Args line), "md-workbench-ior" (IOR 4.x's:
  // a "Nodemap:" line, or -a / --api on its Args line); "" when no header says. A replay reports in that form.
  std::string output_generation;
  bool shared_dir = false;  // mdtest without -u (its "Command line used"): every rank's files in one directory
  // mdtest -N S (its "Command line used"; 0: the default): the File stat, read and removal phases work on the files of
  // rank r + S, r + 2S and r + 3S (mod the ranks), mdtest's stat_name, read_name and rm_name.
  int mdtest_stride = 0;
  BenchmarkParams params;
  std::vector<TracePhase> phases;
  std::vector<RankStream> streams;           // one per recorded rank
  std::vector<ReportedPhase> reported;       // phase lines of mdreal.txt, when present
  std::vector<std::string> missing;          // phases/kinds skipped with allow_missing (for the report)
  std::vector<std::string> warnings;         // what the import had to assume (printed by replay, kept in its JSON)

  uint64_t op_count() const;
  nlohmann::json describe() const;
};

struct ImportOptions {
  // Accept a benchmark iteration where some operation kind has no files for any rank (the 100-rank Mistral
  // archive lacks mdreal-0-read-*.csv): that kind is absent from the iteration and its time becomes think time
  // (a warning says so: that iteration's rates are not comparable with the recorded ones).
  bool allow_missing = false;
  // Object size when the files do not say it (md-workbench latency files without stdout.txt, mdtest files without
  // the tp column), bytes; 0 = md-workbench's default 3901 (mdtest: 0) with a warning.
  double object_size_B = 0;
  // Data sets per rank (-D) when no header (mdreal.txt, stdout.txt) states it; 0 = assume 1 with a warning.
  int data_sets = 0;
  // --offset (md-workbench: see BenchmarkParams::offset) when no header states
  // it; -1 = assume md-workbench's default 1 with a warning.
  int offset = -1;
};

// `path` is a trace directory or one of its latency files (then only that prefix is read). Throws config::ConfigError
// naming the file and line on malformed input (missing column, a value that is not a decimal number, a time or runtime
// above 1e9 s, truncated file, rank gaps or a missing rank's file, fewer ranks than the header states (md-real-io files
// of rank 0 alone are accepted when no header states latency-all), row counts that disagree with the header or, without
// one, with the other files of the same kind, a --latency-all file that is not a whole number of ranks, an Args option
// whose value is not an integer with an optional k/m/g/t/p suffix, a file of the trace's name pattern for an unknown
// operation or that is not a regular file, a third column in an md-real-io / md-workbench file, a header field that is
// not a plain integer, data-sets=0, mdtest's -w disagreeing with the tp column, a benchmark iteration or mdtest File
// phase the recorded output reports or its header states without any file unless allow_missing; quoted input is cut to
// 60 characters). What the import had to assume or found doubtful goes to Trace::warnings, one line each: parameters no
// header states (-D, -S, --offset), how the rank count of -L files (and md-real-io files of rank 0 without latency-all)
// was found, a header that states other output options than the files show (latency files of another prefix, -L or
// --latency-all missing), the operations --allow-missing left out, and one summary of the timings a rank cannot have
// produced (rows out of time order, operations starting more than 1 ms before the rank's previous one ended).
Trace load_trace(const std::string& path, const ImportOptions& options = {});

// What load_trace would read, from the file names alone (cheap: no file is opened), so that a command can check its
// options against the trace's format and its outputs against the trace's files before the import. Throws as
// load_trace does for a directory without one trace (no latency files, several traces, a file of an unknown
// operation or that is not a regular file).
struct TraceFiles {
  std::string format;               // as Trace::format
  std::string dir;                  // the trace directory
  std::vector<std::string> files;   // latency files and the header texts (mdreal.txt, stdout.txt, mdtest's *.txt)
};
TraceFiles list_trace(const std::string& path);

// Reads one latency CSV line by line into (time, runtime) rows (and mdtest's tp column when `tp` is given: then the
// expected header is mdtest's time,runtime,tp; `has_tp` tells whether the file has that column, 0 is read if not).
void read_latency_csv(const std::string& file, std::vector<std::pair<float, float>>& rows, std::vector<float>* tp,
                      bool* has_tp = nullptr);

}  // namespace pfsim::trace
