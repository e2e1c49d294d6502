// IOR's own output for a simulated run (IOR 4.x text: the Options block, the Results table, the Summary of all
// tests), so that scripts that read IOR's output read pfsim's.
#pragma once
#include "report/records.hpp"
#include "workload/ior.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pfsim {

struct IorReportInfo {
  std::vector<std::string> typed;  // the options as typed, for "Command line"
  std::string platform;
  std::string test_file = "testFile";  // -o
  int nodes = 1;
  int ranks_per_node = 1;
  bool reorder = false;  // -C
  bool keep_file = false;  // -k (recorded in the JSON summary's keepFile)
  bool status_file = false;    // -O stoneWallingStatusFile given: a wear-out's pairs go there, not to stdout
  bool status_unread = false;  // ... and held no count to read (IOR's warning before each read)
  // Options recorded in the JSON summary's Parameters, no effect: -v (count), -G, -l / --dataPacketType, -x
  int verbose = 0;
  long long time_stamp_signature = 0;
  std::string data_packet_type;
  bool single_xfer = false;
  std::string version;   // pfsim's (the JSON summary's "Version")
  // The run's effective configuration (seed, inputs, platform), in the JSON summary under "pfsim" (null: none), so
  // that a summary file alone says what made it (helper-87)
  nlohmann::json effective;
};

// One phase as IOR times it: open(s) the slowest open, close(s) the slowest close, wr/rd(s) from the first transfer's
// start to the last transfer's end (an fsync's wait included, as IOR's WriteOrRead holds it), total(s) the phase (from
// its start, after any -d delay, to the last rank's end); bandwidth = the bytes moved / total (after a stonewall, -D,
// the transfers done); IOPS = transfers / wr/rd; latency = rank 0's own transfer time (its first transfer's start to
// its last one's end, its fsync included) / its transfers, as IOR 4 prints it (rank 0's, not a reduction over ranks);
// mean_transfer_s is the mean transfer's.
struct IorPhaseResult {
  std::string access;
  int repetition = 0;
  size_t phase = 0;  // its index in the records (IOR's untimed phases, -W's and -u's, have no result)
  double bytes = 0;  // the data moved (IOR's aggFileSizeForBW: transfers done x transfer size)
  double bw_MiBps = 0, iops = 0, latency_s = 0, open_s = 0, wrrd_s = 0, close_s = 0, total_s = 0;
  double mean_transfer_s = 0;
};
std::vector<IorPhaseResult> ior_results(const RunRecords& records, const IorWorkload& w);
// IOR's -O saveRankPerformanceDetailsCSV file: its header, then per write and read phase a row per rank: access, rank,
// the rank's time from the phase's start to its close's end and its own transfer time, and the phase's mean bytes
// per rank over each (IOR 4.1's StoreRankInformation, %.10e). Needs RunOptions::rank_times.
std::string ior_rank_csv(const RunRecords& records, const IorWorkload& w);
// The first repetition's write pairs of rank 0 (after a wear-out, the most any rank did): what IOR stores in
// -O stoneWallingStatusFile; 0 without a write phase, as IOR's.
uint64_t ior_write_pairs(const RunRecords& records, const IorWorkload& w);
std::string ior_output(const RunRecords& records, const IorWorkload& w, const IorReportInfo& info);
// The simulated clock t_s as IOR prints dates (ctime's layout, "Thu Jan  1 00:00:05 1970"; UTC from the epoch).
std::string ior_date(double t_s);
// IOR's text report with -O summaryFile=F (ior-output.c): its header line (a printf), its warnings and its stonewalling
// lines go to out_logfile, stdout; the rest to out_resultfile, F. Returns {stdout's lines, F's lines} of ior_output.
std::pair<std::string, std::string> ior_split_summary_file(const std::string& text);
// One phase as an entry of IOR's JSON "Results" (access, bwMiB, blockKiB, xferKiB, iops, latency, openTime, wrRdTime,
// closeTime, totalTime).
nlohmann::ordered_json ior_result_json(const IorPhaseResult& r, const IorWorkload& w);
// IOR's JSON summary (ior -O summaryFormat=JSON): Version, Command line, tests[0] with Parameters (the subset pfsim
// models), Options and Results (one per phase), the summary per operation, in IOR's key order. "Began", "StartTime"
// and "Finished" are dates of the simulated clock, which starts at 1970-01-01 00:00:00 UTC (ior_date), in IOR's
// layout; the results JSON (--out) holds the simulated time itself.
nlohmann::ordered_json ior_json_summary(const RunRecords& records, const IorWorkload& w, const IorReportInfo& info);

}  // namespace pfsim
