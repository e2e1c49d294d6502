#include "report/ior_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numeric>
#include <sstream>

namespace pfsim {
namespace {

double max_latency(const PhaseRecord& p, Op op)
{
  const auto& v = p.latencies_by_op[op];
  const auto& h = p.histogram_by_op[op];
  double m = v.empty() ? 0.0 : static_cast<double>(*std::max_element(v.begin(), v.end()));
  return std::max(m, h.empty() ? 0.0 : h.max());
}

double mean_latency(const PhaseRecord& p, Op op)
{
  const auto& v = p.latencies_by_op[op];
  const auto& h = p.histogram_by_op[op];
  const double n = static_cast<double>(v.size() + h.count());
  const double sum = std::accumulate(v.begin(), v.end(), 0.0) + h.sum();
  return n > 0 ? sum / n : 0.0;
}

// A number as IOR prints its results: 10 wide, left-justified, 6 decimals below 1, 2 below 3600, none above (so a
// large IOPS never runs into the next column), then `append`.
std::string pp(double v, const char* append = " ")
{
  char b[64];
  std::snprintf(b, sizeof b, "%-10.*f%s", v < 1 ? 6 : v < 3600 ? 2 : 0, v, append);
  return b;
}

std::string fmt(const char* f, double v)
{
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

// A size as IOR's HumanReadable prints it: TiB, GiB or MiB (two decimals when not whole), else "N bytes".
std::string human(double bytes)
{
  const std::pair<double, const char*> units[] = {{1099511627776.0, "TiB"}, {1073741824.0, "GiB"}, {1048576.0, "MiB"}};
  char b[64];
  for (const auto& [size, name] : units)
    if (bytes >= size) {
      const double v = bytes / size;
      std::snprintf(b, sizeof b, v == std::floor(v) ? "%.0f %s" : "%.2f %s", v, name);
      return b;
    }
  std::snprintf(b, sizeof b, "%.0f bytes", bytes);
  return b;
}

// IOR's summary of one operation over the repetitions: bandwidth max, min, mean, population deviation, mean time.
struct AccessSummary {
  bool any = false;
  double max = 0, min = 0, mean = 0, sd = 0, mean_time_s = 0;
};
AccessSummary summarize(const std::vector<IorPhaseResult>& results, const std::string& access)
{
  std::vector<double> bw, t;
  for (const auto& r : results)
    if (r.access == access) {
      bw.push_back(r.bw_MiBps);
      t.push_back(r.total_s);
    }
  AccessSummary s;
  if (bw.empty())
    return s;
  const double n = static_cast<double>(bw.size());
  s.any = true;
  s.mean = std::accumulate(bw.begin(), bw.end(), 0.0) / n;
  double var = 0;
  for (double b : bw)
    var += (b - s.mean) * (b - s.mean);
  s.sd = std::sqrt(var / n);  // IOR's: the population deviation
  s.max = *std::max_element(bw.begin(), bw.end());
  s.min = *std::min_element(bw.begin(), bw.end());
  s.mean_time_s = std::accumulate(t.begin(), t.end(), 0.0) / n;
  return s;
}

}  // namespace

std::vector<IorPhaseResult> ior_results(const RunRecords& records, const IorWorkload& w)
{
  std::vector<IorPhaseResult> out;
  const double bytes = w.bytes_per_phase();
  const double transfers = static_cast<double>(w.transfers_per_rank()) * w.ranks();
  for (size_t i = 0; i < records.phases.size(); ++i) {
    const auto& p = records.phases[i];
    IorPhaseResult r;
    const bool write = p.name == "write";
    r.access = p.name;
    r.repetition = p.iteration;
    r.total_s = p.end_s - p.start_s;
    r.open_s = std::max(max_latency(p, Op::Open), max_latency(p, Op::Create));
    r.close_s = max_latency(p, Op::Close);
    r.wrrd_s = p.data_last_end_s >= p.data_first_start_s ? p.data_last_end_s - p.data_first_start_s : 0.0;
    r.bw_MiBps = r.total_s > 0 ? bytes / 1048576.0 / r.total_s : 0.0;
    // IOR's transfers / wr-rd time: infinite when every transfer took no time (reads served by the page cache with
    // clients.page_cache_copy 0), printed "inf" as IOR's printf would, null in the JSON.
    r.iops = r.wrrd_s > 0 ? transfers / r.wrrd_s : transfers > 0 ? std::numeric_limits<double>::infinity() : 0.0;
    r.latency_s = p.rank0_data_last_s >= p.rank0_data_first_s
                      ? (p.rank0_data_last_s - p.rank0_data_first_s) / static_cast<double>(w.transfers_per_rank())
                      : 0.0;
    r.mean_transfer_s = mean_latency(p, write ? Op::Write : Op::Read);
    out.push_back(r);
  }
  return out;
}

std::string ior_output(const RunRecords& records, const IorWorkload& w, const IorReportInfo& info)
{
  const auto& o = w.options();
  std::ostringstream s;
  s << "IOR-pfsim: MPI Coordinated Test of Parallel I/O (simulated, platform " << info.platform << ")\n";
  s << "Command line        : ior";
  for (const auto& a : info.typed)
    s << " " << a;
  s << "\n";
  s << "Machine             : pfsim\nTestID              : 0\n";
  s << "Path                : " << info.test_file << "\n\n";
  s << "Options: \n";
  s << "api                 : POSIX\napiVersion          : \n";
  s << "test filename       : " << info.test_file << "\n";
  s << "access              : " << (o.file_per_proc ? "file-per-process" : "single-shared-file") << "\n";
  s << "type                : independent\n";
  s << "segments            : " << o.segments << "\n";
  s << "ordering in a file  : sequential\n";
  s << "ordering inter file : " << (info.reorder ? "constant task offset" : "no tasks offsets") << "\n";
  if (info.reorder)
    s << "task offset         : 1\n";
  s << "nodes               : " << info.nodes << "\n";
  s << "tasks               : " << o.ranks << "\n";
  s << "clients per node    : " << info.ranks_per_node << "\n";
  s << "memoryBuffer        : CPU\ndataAccess          : CPU\nGPUDirect           : 0\n";
  s << "repetitions         : " << o.repetitions << "\n";
  s << "xfersize            : " << human(static_cast<double>(o.transfer_B)) << "\n";
  s << "blocksize           : " << human(static_cast<double>(o.block_B)) << "\n";
  const double agg = w.bytes_per_phase();
  s << "aggregate filesize  : " << human(agg) << "\n\n";
  s << "Results: \n\n";
  s << "access    bw(MiB/s)  IOPS       Latency(s)  block(KiB) xfer(KiB)  open(s)    wr/rd(s)   close(s)   total(s)   iter\n";
  s << "------    ---------  ----       ----------  ---------- ---------  --------   --------   --------   --------   ----\n";
  const auto results = ior_results(records, w);
  char line[512];
  for (const auto& r : results) {
    std::snprintf(line, sizeof line, "%-10s", r.access.c_str());
    s << line << pp(r.bw_MiBps) << pp(r.iops) << pp(r.latency_s, "  ") << pp(static_cast<double>(o.block_B) / 1024)
      << pp(static_cast<double>(o.transfer_B) / 1024) << pp(r.open_s) << pp(r.wrrd_s) << pp(r.close_s)
      << pp(r.total_s);
    std::snprintf(line, sizeof line, "%-4d\n", r.repetition);
    s << line;
  }
  s << "\nSummary of all tests:\n";
  s << "Operation   Max(MiB)   Min(MiB)  Mean(MiB)     StdDev   Max(OPs)   Min(OPs)  Mean(OPs)     StdDev    Mean(s) "
       "Stonewall(s) Stonewall(MiB) Test# #Tasks tPN reps fPP reord reordoff reordrand seed segcnt   blksiz    xsize "
       "aggs(MiB)   API RefNum\n";
  for (const char* access : {"write", "read"}) {
    const auto a = summarize(results, access);
    if (!a.any)
      continue;
    const double xfer_MiB = static_cast<double>(o.transfer_B) / 1048576.0;
    std::snprintf(line, sizeof line,
                  "%-10s%10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.5f%11s%14s %5d %6d %3d %4d %3d "
                  "%5d %8d %9d %4d %6llu %8llu %8llu %9.1f %5s %6d\n",
                  access, a.max, a.min, a.mean, a.sd, a.max / xfer_MiB, a.min / xfer_MiB, a.mean / xfer_MiB,
                  a.sd / xfer_MiB, a.mean_time_s, "NA", "NA", 0, o.ranks, info.ranks_per_node, o.repetitions,
                  o.file_per_proc ? 1 : 0, info.reorder ? 1 : 0, 1, 0, 0, static_cast<unsigned long long>(o.segments),
                  static_cast<unsigned long long>(o.block_B), static_cast<unsigned long long>(o.transfer_B),
                  agg / 1048576.0, "POSIX", 0);
    s << line;
  }
  s << "Finished            : (simulated, " << fmt("%.6f", records.end_s) << " s)\n";
  return s.str();
}

nlohmann::ordered_json ior_result_json(const IorPhaseResult& r, const IorWorkload& w)
{
  return {{"access", r.access},
          {"bwMiB", r.bw_MiBps},
          {"blockKiB", static_cast<double>(w.options().block_B) / 1024},
          {"xferKiB", static_cast<double>(w.options().transfer_B) / 1024},
          {"iops", r.iops},
          {"latency", r.latency_s},
          {"openTime", r.open_s},
          {"wrRdTime", r.wrrd_s},
          {"closeTime", r.close_s},
          {"totalTime", r.total_s}};
}

nlohmann::ordered_json ior_json_summary(const RunRecords& records, const IorWorkload& w, const IorReportInfo& info)
{
  const auto& o = w.options();
  std::string command = "ior";
  for (const auto& a : info.typed)
    command += " " + a;
  nlohmann::ordered_json params = {
      {"testID", 0},           {"refnum", 0},
      {"api", "POSIX"},        {"platform", "pfsim(" + info.platform + ")"},
      {"testFileName", info.test_file},
      // Every key of IOR 4's Parameters, in its order: the options pfsim models from the run, the others at the
      // values IOR gives them without their option (a script that indexes them reads what IOR would write).
      {"deadlineForStonewall", 0}, {"stoneWallingWearOut", 0}, {"maxTimeDuration", 0}, {"outlierThreshold", 0},
      {"options", "(null)"},   {"dryRun", 0},
      {"nodes", info.nodes},   {"memoryPerTask", 0}, {"memoryPerNode", 0},
      {"tasksPerNode", info.ranks_per_node},
      {"repetitions", o.repetitions},
      {"multiFile", 0},
      {"interTestDelay", static_cast<long long>(o.delay_s)},
      {"fsync", o.fsync ? 1 : 0},
      {"fsyncperwrite", 0},    {"useExistingTestFile", 0}, {"uniqueDir", 0}, {"singleXferAttempt", 0},
      {"readFile", o.read ? 1 : 0},
      {"writeFile", o.write ? 1 : 0},
      {"filePerProc", o.file_per_proc ? 1 : 0},
      {"reorderTasks", info.reorder ? 1 : 0},
      {"reorderTasksRandom", 0}, {"reorderTasksRandomSeed", 0},
      {"randomOffset", 0},
      {"checkWrite", 0},       {"checkRead", 0},   {"dataPacketType", 0},
      {"keepFile", info.keep_file ? 1 : 0},
      {"keepFileWithError", 0}, {"warningAsErrors", 0}, {"verbose", 0},
      {"data packet type", "g"}, {"setTimeStampSignature/incompressibleSeed", 0},
      {"collective", 0},
      {"segmentCount", o.segments},
      {"transferSize", o.transfer_B},
      {"blockSize", o.block_B}};
  nlohmann::ordered_json options = {
      {"api", "POSIX"},
      {"apiVersion", ""},
      {"test filename", info.test_file},
      {"access", o.file_per_proc ? "file-per-process" : "single-shared-file"},
      {"type", "independent"},
      {"segments", o.segments},
      {"ordering in a file", "sequential"},
      {"ordering inter file", info.reorder ? "constant task offset" : "no tasks offsets"}};
  if (info.reorder)
    options["task offset"] = 1;
  const nlohmann::ordered_json rest = {{"nodes", info.nodes},
                                       {"tasks", o.ranks},
                                       {"clients per node", info.ranks_per_node},
                                       {"memoryBuffer", "CPU"},
                                       {"dataAccess", "CPU"},
                                       {"GPUDirect", "0"},
                                       {"repetitions", o.repetitions},
                                       {"xfersize", human(static_cast<double>(o.transfer_B))},
                                       {"blocksize", human(static_cast<double>(o.block_B))},
                                       {"aggregate filesize", human(w.bytes_per_phase())}};
  for (auto it = rest.begin(); it != rest.end(); ++it)
    options[it.key()] = it.value();
  const auto results = ior_results(records, w);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& r : results)
    rows.push_back(ior_result_json(r, w));
  nlohmann::ordered_json summary = nlohmann::ordered_json::array();
  const double xfer_MiB = static_cast<double>(o.transfer_B) / 1048576.0;
  for (const char* access : {"write", "read"}) {
    const auto a = summarize(results, access);
    if (!a.any)
      continue;
    summary.push_back({{"operation", access},          {"API", "POSIX"},
                       {"TestID", 0},                  {"ReferenceNumber", 0},
                       {"segmentCount", o.segments},   {"blockSize", o.block_B},
                       {"transferSize", o.transfer_B}, {"numTasks", o.ranks},
                       {"tasksPerNode", info.ranks_per_node},
                       {"repetitions", o.repetitions}, {"filePerProc", o.file_per_proc ? 1 : 0},
                       {"reorderTasks", info.reorder ? 1 : 0},
                       {"taskPerNodeOffset", 1},       {"reorderTasksRandom", 0},
                       {"reorderTasksRandomSeed", 0},
                       {"bwMaxMIB", a.max},            {"bwMinMIB", a.min},
                       {"bwMeanMIB", a.mean},          {"bwStdMIB", a.sd},
                       {"OPsMax", a.max / xfer_MiB},   {"OPsMin", a.min / xfer_MiB},
                       {"OPsMean", a.mean / xfer_MiB}, {"OPsSD", a.sd / xfer_MiB},
                       {"MeanTime", a.mean_time_s},
                       {"xsizeMiB", w.bytes_per_phase() / 1048576.0}});
  }
  nlohmann::ordered_json out = {
          {"Version", "pfsim-" + info.version},
          {"Began", "(simulated)"},
          {"Command line", command},
          {"Machine", "pfsim (simulated, platform " + info.platform + ")"},
          {"tests",
           nlohmann::ordered_json::array({{{"TestID", 0},
                                           {"StartTime", "(simulated)"},
                                           {"Path", info.test_file + (o.file_per_proc ? ".00000000" : "")},
                                           {"Parameters", params},
                                           {"Options", options},
                                           {"Results", rows}}})},
          {"summary", summary},
          {"Finished", "(simulated, " + fmt("%.6f", records.end_s) + " s)"}};
  if (!info.effective.is_null())
    out["pfsim"] = info.effective;
  return out;
}

}  // namespace pfsim
