#include "report/ior_report.hpp"
#include "report/outputs.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
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
  const auto t = static_cast<double>(w.options().transfer_B);
  for (size_t i = 0; i < records.phases.size(); ++i) {
    const auto kind = w.phase_kind(static_cast<int>(i));
    if (kind != IorWorkload::Kind::Write && kind != IorWorkload::Kind::Read)
      continue;  // (IOR's -W verification and -u directories: untimed, no result)
    const auto& p = records.phases[i];
    IorPhaseResult r;
    const bool write = kind == IorWorkload::Kind::Write;
    r.access = write ? "write" : "read";
    r.repetition = p.iteration;
    r.phase = i;
    // The transfers done (the phase's items: after a stonewall, those its ranks did) x the transfer size
    const double transfers = static_cast<double>(p.items);
    r.bytes = transfers * t;
    r.total_s = p.end_s - p.start_s;
    r.open_s = std::max(max_latency(p, Op::Open), max_latency(p, Op::Create));
    r.close_s = max_latency(p, Op::Close);
    r.wrrd_s = p.data_last_end_s >= p.data_first_start_s ? p.data_last_end_s - p.data_first_start_s : 0.0;
    r.bw_MiBps = r.total_s > 0 ? r.bytes / 1048576.0 / r.total_s : 0.0;
    // IOR's transfers / wr-rd time: infinite when every transfer took no time (reads served by the page cache with
    // clients.page_cache_copy 0), printed "inf" as IOR's printf would, null in the JSON.
    r.iops = r.wrrd_s > 0 ? transfers / r.wrrd_s : transfers > 0 ? std::numeric_limits<double>::infinity() : 0.0;
    // rank 0's transfers: IOR's pairs_accessed (after a wear-out, the most any rank did, which rank 0 then did too)
    const double rank0 = p.rank_pairs.empty() ? static_cast<double>(w.transfers_per_rank())
                                              : static_cast<double>(p.rank_pairs.front());
    r.latency_s = p.rank0_data_last_s >= p.rank0_data_first_s && rank0 > 0
                      ? (p.rank0_data_last_s - p.rank0_data_first_s) / rank0
                      : 0.0;
    r.mean_transfer_s = mean_latency(p, write ? Op::Write : Op::Read);
    out.push_back(r);
  }
  return out;
}

std::string ior_rank_csv(const RunRecords& records, const IorWorkload& w)
{
  std::string out = "access,rank,runtime-with-openclose,runtime,throughput-withopenclose,throughput\n";
  const int ranks = w.ranks();
  char line[256];
  for (const auto& r : ior_results(records, w)) {
    const auto& p = records.phases[r.phase];
    const double per_rank = r.bytes / ranks;  // IOR: aggFileSizeForBW / tasks, for every rank
    for (int k = 0; k < ranks && static_cast<size_t>(k) < p.rank_end_s.size(); ++k) {
      const auto i = static_cast<size_t>(k);
      const double total = p.rank_end_s[i] - p.start_s;
      const double access = p.rank_data_first_s[i] >= 0 ? p.rank_data_last_s[i] - p.rank_data_first_s[i] : 0.0;
      std::snprintf(line, sizeof line, "%s,%d,%.10e,%.10e,%.10e,%.10e\n", r.access.c_str(), k, total, access,
                    per_rank / total, per_rank / access);
      out += line;
    }
  }
  return out;
}

uint64_t ior_write_pairs(const RunRecords& records, const IorWorkload& w)
{
  for (size_t i = 0; i < records.phases.size(); ++i)
    if (w.phase_kind(static_cast<int>(i)) == IorWorkload::Kind::Write) {
      const auto& p = records.phases[i];
      return p.rank_pairs.empty() ? w.transfers_per_rank() : p.rank_pairs.front();
    }
  return 0;
}

namespace {

// The files' size as IOR's stat sees it after a phase whose ranks did `pairs` transfers each (a stonewalled write): per
// rank, the end of its furthest transfer, which lies in its last segment (the ones before it are whole); a file per
// process adds them, a shared file takes the furthest. Without counts (no stonewall), the test's whole size.
double files_size(const IorWorkload& w, const std::vector<uint64_t>& pairs)
{
  const auto& o = w.options();
  if (pairs.empty())
    return w.bytes_per_phase();
  const uint64_t per_block = o.block_B / o.transfer_B;
  const auto ranks = static_cast<uint64_t>(o.ranks);
  const bool walk = static_cast<long double>(per_block) * ranks <= 1e7L;  // else the last segment's end
  double total = 0, furthest = 0;
  for (int r = 0; r < o.ranks; ++r) {
    const uint64_t p = pairs[static_cast<size_t>(r)];
    if (p == 0)
      continue;
    const uint64_t segment = (p - 1) / per_block;
    uint64_t end = 0;
    if (walk) {
      for (uint64_t k = segment * per_block; k < p; ++k)
        end = std::max(end, w.transfer_offset(r, k).first + o.transfer_B);
    } else {
      end = o.file_per_proc ? (segment + 1) * o.block_B : (segment + 1) * ranks * o.block_B;
    }
    total += static_cast<double>(end);
    furthest = std::max(furthest, static_cast<double>(end));
  }
  return o.file_per_proc ? total : furthest;
}

// Rank 0's test file, IOR's Path (GetTestFileName): the first of -o's names joined by '@' (ParseFileName; rank r uses
// name r mod count), with -F its rank suffix.
std::string rank0_file(const std::string& test_file, const IorOptions& o)
{
  return test_file.substr(0, test_file.find('@')) + (o.file_per_proc ? ".00000000" : "");
}

// IOR's line after a wear-out's allreduce (WriteOrRead, rank 0).
std::string stonewall_line(const PhaseRecord& p, int ranks)
{
  char line[256];
  const double GiB = 1073741824.0;
  std::snprintf(line, sizeof line,
                "stonewalling pairs accessed min: %llu max: %llu -- min data: %.1f GiB mean data: %.1f GiB time: "
                "%.1fs\n",
                static_cast<unsigned long long>(p.stonewall_pairs_min),
                static_cast<unsigned long long>(p.stonewall_pairs_max), p.stonewall_bytes_min / GiB,
                p.stonewall_bytes_sum / ranks / GiB, p.stonewall_s);
  return line;
}

}  // namespace

// The simulated clock as IOR prints a date (its CurrentTimeString: ctime's layout, "Thu Jan  1 00:00:05 1970"), the
// simulation starting at 1970-01-01 00:00:00 UTC, as md-workbench's "time:" lines (simulated_date): deterministic,
// and parsed by the same scripts as a real run's.
std::string ior_date(double t_s)
{
  return clock_date(t_s, "%a %b %e %H:%M:%S %Y");
}

std::string ior_output(const RunRecords& records, const IorWorkload& w, const IorReportInfo& info)
{
  const auto& o = w.options();
  std::ostringstream s;
  s << "IOR-pfsim: MPI Coordinated Test of Parallel I/O (simulated, platform " << info.platform << ")\n";
  s << "Began               : " << ior_date(0) << "\n";
  s << "Command line        : ior";
  for (const auto& a : info.typed)
    s << " " << a;
  s << "\n";
  s << "Machine             : pfsim\nTestID              : 0\n";
  s << "StartTime           : " << ior_date(0) << "\n";
  s << "Path                : " << rank0_file(info.test_file, o) << "\n\n";
  s << "Options: \n";
  s << "api                 : POSIX\napiVersion          : \n";
  s << "test filename       : " << info.test_file << "\n";
  s << "access              : " << (o.file_per_proc ? "file-per-process" : "single-shared-file") << "\n";
  s << "type                : independent\n";
  s << "segments            : " << o.segments << "\n";
  s << "ordering in a file  : " << (o.random_offset > 0 ? "random" : "sequential") << "\n";
  s << "ordering inter file : " << (info.reorder ? "constant task offset" : "no tasks offsets") << "\n";
  if (info.reorder)
    s << "task offset         : " << o.task_offset << "\n";
  s << "nodes               : " << info.nodes << "\n";
  s << "tasks               : " << o.ranks << "\n";
  s << "clients per node    : " << info.ranks_per_node << "\n";
  s << "memoryBuffer        : CPU\ndataAccess          : CPU\nGPUDirect           : 0\n";
  s << "repetitions         : " << o.repetitions << "\n";
  s << "xfersize            : " << human(static_cast<double>(o.transfer_B)) << "\n";
  s << "blocksize           : " << human(static_cast<double>(o.block_B)) << "\n";
  const double agg = w.bytes_per_phase();
  s << "aggregate filesize  : " << human(agg) << "\n";
  if (o.deadline_s > 0)
    s << "stonewallingTime    : " << static_cast<long long>(o.deadline_s) << "\nstoneWallingWearOut : "
      << (o.wear_out ? 1 : 0) << "\n";
  s << "\nResults: \n\n";
  s << "access    bw(MiB/s)  IOPS       Latency(s)  block(KiB) xfer(KiB)  open(s)    wr/rd(s)   close(s)   total(s)   iter\n";
  s << "------    ---------  ----       ----------  ---------- ---------  --------   --------   --------   --------   ----\n";
  const auto results = ior_results(records, w);
  char line[512];
  size_t next = 0;  // the next result, in phase order
  for (size_t i = 0; i < records.phases.size(); ++i) {
    const auto& p = records.phases[i];
    const auto kind = w.phase_kind(static_cast<int>(i));
    if (kind == IorWorkload::Kind::Read && info.status_unread)
      s << "WARNING: Could not read back the stonewalling status from the file!\n";
    if (p.wear_out)  // (-W's verification prints it too: IOR's WriteOrRead does)
      s << stonewall_line(p, o.ranks);
    if (next >= results.size() || results[next].phase != i)
      continue;
    const auto& r = results[next++];
    // IOR's CheckFileSize: the data moved against the test's size and the files' (a stonewall moves less)
    // (the files as written: by this run's write phase, else, after a stonewalled write, as many transfers per rank
    // as the status file says: IOR stats the files that write left; helper-132)
    const int wp = w.write_phase(static_cast<int>(i));
    std::vector<uint64_t> written;
    if (wp >= 0)
      written = records.phases[static_cast<size_t>(wp)].rank_pairs;
    else if (o.status_pairs > 0)
      written.assign(static_cast<size_t>(o.ranks), static_cast<uint64_t>(o.status_pairs));
    const double stat = o.file_size_B > 0  // --file-size: the files as the read finds them
                            ? static_cast<double>(o.file_size_B) * (o.file_per_proc ? o.ranks : 1)
                            : files_size(w, written);
    if (r.bytes != agg || stat != r.bytes) {
      s << "WARNING: Expected aggregate file size       = " << fmt("%.0f", agg) << "\n";
      s << "WARNING: Stat() of aggregate file size      = " << fmt("%.0f", stat) << "\n";
      s << "WARNING: Using actual aggregate bytes moved = " << fmt("%.0f", r.bytes) << "\n";
      if (o.deadline_s > 0)
        s << "WARNING: Maybe caused by deadlineForStonewalling\n";
    }
    std::snprintf(line, sizeof line, "%-10s", r.access.c_str());
    s << line << pp(r.bw_MiBps) << pp(r.iops) << pp(r.latency_s, "  ") << pp(static_cast<double>(o.block_B) / 1024)
      << pp(static_cast<double>(o.transfer_B) / 1024) << pp(r.open_s) << pp(r.wrrd_s) << pp(r.close_s)
      << pp(r.total_s);
    std::snprintf(line, sizeof line, "%-4d\n", r.repetition);
    s << line;
  }
  // IOR's ShowTestEnd: a wear-out's first write pairs go to the status file, or here
  if (o.wear_out && !info.status_file)
    s << "Pairs deadlineForStonewallingaccessed: " << ior_write_pairs(records, w) << "\n";
  s << "\nSummary of all tests:\n";
  s << "Operation   Max(MiB)   Min(MiB)  Mean(MiB)     StdDev   Max(OPs)   Min(OPs)  Mean(OPs)     StdDev    Mean(s) "
       "Stonewall(s) Stonewall(MiB) Test# #Tasks tPN reps fPP reord reordoff reordrand seed segcnt   blksiz    xsize "
       "aggs(MiB)   API RefNum\n";
  for (const char* access : {"write", "read"}) {
    const auto a = summarize(results, access);
    if (!a.any)
      continue;
    const double xfer_MiB = static_cast<double>(o.transfer_B) / 1048576.0;
    // the first repetition's: its data moved, and after a wear-out its stonewall time and the data moved by then
    const auto first = std::find_if(results.begin(), results.end(), [&](const auto& r) { return r.access == access; });
    const auto& p0 = records.phases[first->phase];
    char stonewall[64];
    if (p0.wear_out)
      std::snprintf(stonewall, sizeof stonewall, "%11.2f%14.2f", p0.stonewall_s, p0.stonewall_bytes_sum / 1048576.0);
    else
      std::snprintf(stonewall, sizeof stonewall, "%11s%14s", "NA", "NA");
    std::snprintf(line, sizeof line,
                  "%-10s%10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.2f %10.5f%s %5d %6d %3d %4d %3d "
                  "%5d %8d %9d %4d %6llu %8llu %8llu %9.1f %5s %6d\n",
                  access, a.max, a.min, a.mean, a.sd, a.max / xfer_MiB, a.min / xfer_MiB, a.mean / xfer_MiB,
                  a.sd / xfer_MiB, a.mean_time_s, stonewall, 0, o.ranks, info.ranks_per_node, o.repetitions,
                  o.file_per_proc ? 1 : 0, info.reorder ? 1 : 0, o.task_offset, 0, 0,
                  static_cast<unsigned long long>(o.segments), static_cast<unsigned long long>(o.block_B),
                  static_cast<unsigned long long>(o.transfer_B), first->bytes / 1048576.0, "POSIX", 0);
    s << line;
  }
  s << "Finished            : " << ior_date(records.end_s) << "\n";
  return s.str();
}

std::pair<std::string, std::string> ior_split_summary_file(const std::string& text)
{
  std::string log, result;
  std::istringstream in(text);
  bool first = true;
  for (std::string line; std::getline(in, line); first = false) {
    const bool to_log = first || line.rfind("WARNING:", 0) == 0 || line.rfind("stonewalling pairs accessed", 0) == 0 ||
                        line.rfind("Pairs deadlineForStonewallingaccessed", 0) == 0;
    (to_log ? log : result) += line + "\n";
  }
  return {log, result};
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

namespace {
// A double of IOR's JSON summary as its PrintKeyValDouble writes it ("%.4f"): rounded to 4 decimals (helper-134: two
// equal repetitions gave a bwMaxMIB and a bwMinMIB 1e-13 apart and a bwStdMIB of 1.8e-13, where IOR writes 0.0000).
// pfsim's own results (--out) keep every digit.
double ior_json_double(double v)
{
  return std::isfinite(v) ? std::round(v * 1e4) / 1e4 : v;
}

nlohmann::ordered_json ior_json_doubles(nlohmann::ordered_json entry)
{
  for (auto& v : entry)
    if (v.is_number_float())
      v = ior_json_double(v.get<double>());
  return entry;
}
}  // namespace

nlohmann::ordered_json ior_json_summary(const RunRecords& records, const IorWorkload& w, const IorReportInfo& info)
{
  const auto& o = w.options();
  std::string command = "ior";
  for (const auto& a : info.typed)
    command += " " + a;
  // IOR's data packet types (its enum and the letter its Parameters print): generic by default
  const std::string& t = info.data_packet_type;
  const std::pair<int, const char*> packet = t == "timestamp" || t == "t"        ? std::make_pair(1, "t")
                                             : t == "offset" || t == "o"         ? std::make_pair(2, "o")
                                             : t == "incompressible" || t == "i" ? std::make_pair(3, "i")
                                             : t == "random" || t == "r"         ? std::make_pair(4, "r")
                                                                                 : std::make_pair(0, "g");
  nlohmann::ordered_json params = {
      {"testID", 0},           {"refnum", 0},
      {"api", "POSIX"},        {"platform", "pfsim(" + info.platform + ")"},
      {"testFileName", info.test_file},
      // Every key of IOR 4's Parameters, in its order: the options pfsim models from the run, the others at the
      // values IOR gives them without their option (a script that indexes them reads what IOR would write).
      {"deadlineForStonewall", static_cast<long long>(o.deadline_s)}, {"stoneWallingWearOut", o.wear_out ? 1 : 0},
      {"maxTimeDuration", 0}, {"outlierThreshold", 0},
      {"options", "(null)"},   {"dryRun", 0},
      {"nodes", info.nodes},   {"memoryPerTask", 0}, {"memoryPerNode", 0},
      {"tasksPerNode", info.ranks_per_node},
      {"repetitions", o.repetitions},
      {"multiFile", 0},
      {"interTestDelay", static_cast<long long>(o.delay_s)},
      {"fsync", o.fsync ? 1 : 0},
      {"fsyncperwrite", o.fsync_per_write ? 1 : 0}, {"useExistingTestFile", 0}, {"uniqueDir", o.unique_dir ? 1 : 0},
      {"singleXferAttempt", info.single_xfer ? 1 : 0},
      {"readFile", o.read ? 1 : 0},
      {"writeFile", o.write ? 1 : 0},
      {"filePerProc", o.file_per_proc ? 1 : 0},
      {"reorderTasks", info.reorder ? 1 : 0},
      {"reorderTasksRandom", 0}, {"reorderTasksRandomSeed", 0},
      {"randomOffset", o.random_offset},
      {"checkWrite", o.check_write ? 1 : 0}, {"checkRead", o.check_read ? 1 : 0},
      {"dataPacketType", packet.first},
      {"keepFile", info.keep_file ? 1 : 0},
      {"keepFileWithError", 0}, {"warningAsErrors", 0}, {"verbose", info.verbose},
      {"data packet type", packet.second},
      {"setTimeStampSignature/incompressibleSeed", info.time_stamp_signature},
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
      {"ordering in a file", o.random_offset > 0 ? "random" : "sequential"},
      {"ordering inter file", info.reorder ? "constant task offset" : "no tasks offsets"}};
  if (info.reorder)
    options["task offset"] = o.task_offset;
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
  if (o.deadline_s > 0) {
    options["stonewallingTime"] = static_cast<long long>(o.deadline_s);
    options["stoneWallingWearOut"] = o.wear_out ? 1 : 0;
  }
  const auto results = ior_results(records, w);
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const auto& r : results)
    rows.push_back(ior_json_doubles(ior_result_json(r, w)));
  nlohmann::ordered_json summary = nlohmann::ordered_json::array();
  const double xfer_MiB = static_cast<double>(o.transfer_B) / 1048576.0;
  for (const char* access : {"write", "read"}) {
    const auto a = summarize(results, access);
    if (!a.any)
      continue;
    const auto first = std::find_if(results.begin(), results.end(), [&](const auto& r) { return r.access == access; });
    summary.push_back({{"operation", access},          {"API", "POSIX"},
                       {"TestID", 0},                  {"ReferenceNumber", 0},
                       {"segmentCount", o.segments},   {"blockSize", o.block_B},
                       {"transferSize", o.transfer_B}, {"numTasks", o.ranks},
                       {"tasksPerNode", info.ranks_per_node},
                       {"repetitions", o.repetitions}, {"filePerProc", o.file_per_proc ? 1 : 0},
                       {"reorderTasks", info.reorder ? 1 : 0},
                       {"taskPerNodeOffset", o.task_offset}, {"reorderTasksRandom", 0},
                       {"reorderTasksRandomSeed", 0},
                       {"bwMaxMIB", a.max},            {"bwMinMIB", a.min},
                       {"bwMeanMIB", a.mean},          {"bwStdMIB", a.sd},
                       {"OPsMax", a.max / xfer_MiB},   {"OPsMin", a.min / xfer_MiB},
                       {"OPsMean", a.mean / xfer_MiB}, {"OPsSD", a.sd / xfer_MiB},
                       {"MeanTime", a.mean_time_s},
                       {"xsizeMiB", first->bytes / 1048576.0}});
    summary.back() = ior_json_doubles(summary.back());
  }
  nlohmann::ordered_json out = {
          {"Version", "pfsim-" + info.version},
          {"Began", ior_date(0)},
          {"Command line", command},
          {"Machine", "pfsim (simulated, platform " + info.platform + ")"},
          {"tests",
           nlohmann::ordered_json::array({{{"TestID", 0},
                                           {"StartTime", ior_date(0)},
                                           {"Path", rank0_file(info.test_file, o)},
                                           {"Parameters", params},
                                           {"Options", options},
                                           {"Results", rows}}})},
          {"summary", summary},
          {"Finished", ior_date(records.end_s)}};
  if (!info.effective.is_null())
    out["pfsim"] = info.effective;
  return out;
}

}  // namespace pfsim
