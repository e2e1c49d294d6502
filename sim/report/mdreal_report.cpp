#include "report/mdreal_report.hpp"

#include "report/outputs.hpp"
#include "report/stats.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <set>
#include <sstream>
#include <stdexcept>

namespace pfsim {

using trace::PhaseKind;
using trace::TraceOp;

std::vector<MdrealPhase> mdreal_phases(const ReplayWorkload& w, RunRecords& records)
{
  const auto& t = w.trace();
  const int M = w.ranks();
  const int N = t.ranks;
  std::vector<MdrealPhase> out;
  for (int p = 0; p < w.phase_count(); ++p) {
    auto& rec = records.phases[static_cast<size_t>(p)];
    MdrealPhase ph;
    ph.name = rec.name;
    ph.kind = t.phases[static_cast<size_t>(p)].kind;
    ph.iteration = rec.iteration;
    ph.time_s = rec.end_s - rec.start_s;
    ph.rank_time_s.reserve(rec.rank_end_s.size());
    for (double e : rec.rank_end_s)
      ph.rank_time_s.push_back(e - rec.start_s);
    ph.objects = rec.items;
    ph.dsets = static_cast<uint64_t>(M) * static_cast<uint64_t>(w.dataset_ops(p));
    // Operation counts of each kind per recorded stream, times the ranks replaying it.
    std::array<uint64_t, trace::kTraceOpCount> kinds{};
    for (int r = 0; r < N; ++r) {
      uint64_t copies = static_cast<uint64_t>(M / N) + (r < M % N ? 1 : 0);
      const auto c = w.kind_counts(r, p);
      for (size_t k = 0; k < kinds.size(); ++k)
        kinds[k] += c[k] * copies;
    }
    for (auto k : kinds)
      ph.operations += k;
    ph.operations += ph.dsets;
    ph.bytes = static_cast<double>(kinds[static_cast<int>(TraceOp::Create)] + kinds[static_cast<int>(TraceOp::Read)]) *
               t.params.object_size_B;

    if (!rec.samples.empty()) {
      std::vector<OpSample> s = std::move(rec.samples);
      rec.samples = {};
      std::stable_sort(s.begin(), s.end(), rank_then_start);
      ph.samples.reserve(s.size() / 2 + 1);
      size_t i = 0;
      while (i < s.size()) {
        uint32_t rank = s[i].rank;
        uint64_t n = w.compound_count(static_cast<int>(rank), p);
        for (uint64_t item = 0; item < n; ++item) {
          int kind = w.compound_kind(static_cast<int>(rank), p, item);
          int prims = kind == ReplayWorkload::kDatasetOp ? 1 : w.compound_primitives(kind);
          if (i + static_cast<size_t>(prims) > s.size() || s[i + static_cast<size_t>(prims) - 1].rank != rank)
            throw std::logic_error("mdreal report: samples of rank " + std::to_string(rank) + " in phase " + ph.name +
                                   " do not match its operation stream");
          const auto& first = s[i];
          const auto& last = s[i + static_cast<size_t>(prims) - 1];
          i += static_cast<size_t>(prims);
          if (kind == ReplayWorkload::kDatasetOp)
            continue;
          // The replayed excess is inside the operation (OpRequest::excess_s). One step: its own duration; several:
          // first start to last end in double (float times since the phase start would round a 0.3 ms stat to
          // 0.5 ms steps in a 4,557 s phase).
          const double start = first.start_s;
          const float runtime =
              prims == 1 ? first.runtime_s : static_cast<float>(last.start_s + last.runtime_s - start);
          ph.samples.push_back({rank, static_cast<unsigned char>(kind), static_cast<float>(start), runtime});
        }
        if (i < s.size() && s[i].rank == rank)
          throw std::logic_error("mdreal report: rank " + std::to_string(rank) + " has more samples than operations");
      }
    }
    out.push_back(std::move(ph));
  }
  return out;
}

namespace {
// A later md-real-io 2017 build's "max <s>s" (the slowest operation) before "(0 errs)".
std::string with_op_max(std::string line, double op_max)
{
  char max[48];
  std::snprintf(max, sizeof max, " max %.4es", op_max);
  return line.insert(line.rfind(" (0 errs)"), max);
}
}  // namespace

std::string mdreal_phase_line(const MdrealPhase& p, bool with_max)
{
  if (with_max) {
    double op_max = 0;
    for (const auto& s : p.samples)
      op_max = std::max(op_max, static_cast<double>(s.runtime_s));
    return with_op_max(mdreal_phase_line(p, false), op_max);
  }
  const double t = p.time_s > 0 ? p.time_s : 1e-12;
  const double mib = p.bytes / 1048576.0 / t;
  char buf[512];
  switch (p.kind) {
    case PhaseKind::Precreate:
      std::snprintf(buf, sizeof buf, "precreate %.1fs %.1f iops/s %llu dset %llu obj %.3f dset/s %.1f obj/s %.1f Mib/s (0 errs)",
                    p.time_s, static_cast<double>(p.operations) / t, static_cast<unsigned long long>(p.dsets),
                    static_cast<unsigned long long>(p.objects), static_cast<double>(p.dsets) / t,
                    static_cast<double>(p.objects) / t, mib);
      break;
    case PhaseKind::Benchmark:
      std::snprintf(buf, sizeof buf, "benchmark %.1fs %.1f iops/s %llu obj %.1f obj/s %.1f Mib/s (0 errs)", p.time_s,
                    static_cast<double>(p.operations) / t, static_cast<unsigned long long>(p.objects),
                    static_cast<double>(p.objects) / t, mib);
      break;
    case PhaseKind::Cleanup:
      std::snprintf(buf, sizeof buf, "cleanup %.1fs %.1f iops/s %llu obj %llu dset %.1f obj/s %.3f dset/s (0 errs)",
                    p.time_s, static_cast<double>(p.operations) / t, static_cast<unsigned long long>(p.objects),
                    static_cast<unsigned long long>(p.dsets), static_cast<double>(p.objects) / t,
                    static_cast<double>(p.dsets) / t);
      break;
    case PhaseKind::Other:
      std::snprintf(buf, sizeof buf, "%s %.1fs %.1f iops/s %llu obj %.1f obj/s %.1f Mib/s (0 errs)", p.name.c_str(),
                    p.time_s, static_cast<double>(p.operations) / t, static_cast<unsigned long long>(p.objects),
                    static_cast<double>(p.objects) / t, mib);
      break;
  }
  return buf;
}

namespace {

// The phase part of an md-real-io or md-workbench latency file's name: the operation kind's in a benchmark iteration
// (stat, read, create, delete), else the phase's, spaces as '_'.
std::string latency_file_phase_part(PhaseKind kind, const std::string& phase, int op_kind)
{
  std::string name = kind == PhaseKind::Benchmark ? trace::trace_op_name(static_cast<TraceOp>(op_kind)) : phase;
  std::replace(name.begin(), name.end(), ' ', '_');
  return name;
}

}  // namespace

std::string mdreal_latency_file_name(const std::string& prefix, PhaseKind kind, const std::string& phase,
                                     int iteration, int op_kind, int rank)
{
  return prefix + "-" + std::to_string(iteration) + "-" + latency_file_phase_part(kind, phase, op_kind) + "-" +
         std::to_string(rank) + ".csv";
}

std::string mdworkbench_latency_file_name(const std::string& prefix, PhaseKind kind, const std::string& phase,
                                          int iteration, int op_kind, bool all_ranks)
{
  return prefix + "-0.00-" + std::to_string(iteration) + "-" + latency_file_phase_part(kind, phase, op_kind) +
         (all_ranks ? "-all" : "") + ".csv";
}

void write_mdreal_latency_files(const std::string& dir, const std::string& prefix, const std::vector<MdrealPhase>& phases,
                                int ranks)
{
  make_output_dir(dir);
  for (const auto& ph : phases) {
    // One text per (rank, kind) file of this phase.
    std::vector<std::array<std::string, trace::kTraceOpCount>> text(static_cast<size_t>(ranks));
    char buf[64];
    for (const auto& s : ph.samples) {
      auto& t = text[s.rank][s.op];
      std::snprintf(buf, sizeof buf, "%.7f,%.4e\n", std::max(0.f, s.start_s), s.runtime_s);
      t += buf;
    }
    for (int r = 0; r < ranks; ++r)
      for (int k = 0; k < trace::kTraceOpCount; ++k) {
        const auto& body = text[static_cast<size_t>(r)][static_cast<size_t>(k)];
        if (body.empty())
          continue;
        write_file_atomic(dir + "/" + mdreal_latency_file_name(prefix, ph.kind, ph.name, ph.iteration, k, r),
                          "time,runtime\n" + body);
      }
  }
}

ReportFormat parse_report_format(const std::string& name)
{
  if (name == "mdreal2017")
    return ReportFormat::MdReal2017;
  if (name == "mdworkbench")
    return ReportFormat::MdWorkbench;
  if (name == "mdworkbench2019")
    return ReportFormat::MdWorkbench2019;
  if (name == "mdtest")
    return ReportFormat::Mdtest;
  throw std::invalid_argument("--output-format: expected mdreal2017, mdworkbench, mdworkbench2019 or mdtest, got \"" +
                              name + "\"");
}

const char* report_format_name(ReportFormat f)
{
  switch (f) {
    case ReportFormat::MdReal2017:
      return "mdreal2017";
    case ReportFormat::MdWorkbench:
      return "mdworkbench";
    case ReportFormat::MdWorkbench2019:
      return "mdworkbench2019";
    case ReportFormat::Mdtest:
      return "mdtest";
  }
  return "?";
}

ReportFormat report_format_of_trace(const std::string& trace_format, const std::string& output_generation)
{
  if (trace_format == "mdtest-perop")
    return ReportFormat::Mdtest;
  if (trace_format.rfind("md-workbench", 0) == 0)
    return output_generation == "md-workbench-2019" ? ReportFormat::MdWorkbench2019 : ReportFormat::MdWorkbench;
  return ReportFormat::MdReal2017;
}

std::string simulated_date(double t_s)
{
  return clock_date(t_s, "%Y-%m-%d %H:%M:%S");
}

std::string total_runtime_line(double end_s)
{
  return "Total runtime: " + std::to_string(std::llround(end_s)) + "s time: " + simulated_date(end_s) + "\n";
}

std::string nodemap_line(const std::vector<int>& node_of_rank)
{
  std::string out = "Nodemap: ";
  for (int node : node_of_rank)
    out += node == node_of_rank.front() ? '1' : '0';
  return out + "\n";
}

namespace {

// md-workbench's summary of one operation kind: min, q1, median, q3, q90, q99, max; the median averages the middle two
// of an even count. The quantile q is the sorted value at round(q (n - 1) + 0.49) (IOR 4.x) or at round(q n + 0.49)
// (2019 standalone; a position past the last value reads memory past the array there: 0 here).
std::array<double, 7> workbench_stats(std::vector<float> v, ReportFormat format)
{
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  const bool standalone = format == ReportFormat::MdWorkbench2019;
  // As the tools compute it: a float quantile times an int count, a float product (0.99 x 99 is 98.01000214 in float,
  // 98.00999999999999 in double: positions 99 and 98), then + 0.49 in double and round().
  auto q = [&](float f) {
    const float product = f * static_cast<float>(standalone ? n : n - 1);
    auto pos = static_cast<size_t>(std::lround(static_cast<double>(product) + 0.49));
    if (standalone && pos >= n)
      return 0.0;
    return static_cast<double>(v[std::min(pos, n - 1)]);
  };
  // (the two floats summed in float, halved in double; the 2019 tool keeps its statistics in floats)
  double median = n % 2 == 0 ? static_cast<double>(v[n / 2] + v[n / 2 - 1]) / 2.0 : v[n / 2];
  if (standalone)
    median = static_cast<float>(median);
  return {v.front(), q(0.25f), median, q(0.75f), q(0.90f), q(0.99f), v.back()};
}

// Per-rank phase time: from the phase start to the end of the rank's last step.
std::vector<double> rank_times(const MdrealPhase& p, int ranks)
{
  if (p.rank_time_s.size() != static_cast<size_t>(ranks))
    throw std::logic_error("mdreal report: phase " + p.name + " has no rank times (RunOptions::rank_times)");
  return p.rank_time_s;
}

std::string latency_body(const std::vector<MdrealPhase::Sample>& samples, int op, int rank)
{
  std::string body;
  char buf[64];
  for (const auto& s : samples) {
    if (s.op != op || (rank >= 0 && static_cast<int>(s.rank) != rank))
      continue;
    std::snprintf(buf, sizeof buf, "%.7f,%.4e\n", std::max(0.f, s.start_s), s.runtime_s);
    body += buf;
  }
  return body;
}

}  // namespace

namespace {

// The part of a phase line after "process max:...": rates, counts, op-max and the per-kind statistics, of the
// whole phase (rank < 0) or of one rank (objects, data sets, operations and bytes are that rank's share: every
// md-workbench rank does the same work).
using ByKind = std::array<std::vector<float>, trace::kTraceOpCount>;  // latencies per operation kind

std::string mdworkbench_line_tail(const MdrealPhase& p, int ranks, bool one_rank, double time_s, ByKind& by_kind,
                                  ReportFormat format)
{
  const double t = time_s > 0 ? time_s : 1e-12;
  const double share = one_rank ? 1.0 / std::max(ranks, 1) : 1.0;
  const auto objects = static_cast<unsigned long long>(std::llround(static_cast<double>(p.objects) * share));
  const auto dsets = static_cast<unsigned long long>(std::llround(static_cast<double>(p.dsets) * share));
  const double operations = static_cast<double>(p.operations) * share;
  double op_max = 0;
  for (const auto& v : by_kind)
    for (float x : v)
      op_max = std::max(op_max, static_cast<double>(x));
  const double mib = p.bytes * share / 1048576.0 / t;
  std::ostringstream o;
  char buf[512];
  switch (p.kind) {
    case PhaseKind::Precreate:
      std::snprintf(buf, sizeof buf, "rate:%.1f iops/s dsets: %llu objects:%llu rate:%.3f dset/s rate:%.1f obj/s tp:%.1f MiB/s op-max:%.4es",
                    static_cast<double>(objects + dsets) / t, dsets, objects, static_cast<double>(dsets) / t,
                    static_cast<double>(objects) / t, mib, op_max);
      break;
    case PhaseKind::Cleanup:
      std::snprintf(buf, sizeof buf, "rate:%.1f iops/s objects:%llu dsets: %llu rate:%.1f obj/s rate:%.3f dset/s op-max:%.4es",
                    static_cast<double>(objects + dsets) / t, objects, dsets, static_cast<double>(objects) / t,
                    static_cast<double>(dsets) / t, op_max);
      break;
    default:
      std::snprintf(buf, sizeof buf, "rate:%.1f iops/s objects:%llu rate:%.1f obj/s tp:%.1f MiB/s op-max:%.4es",
                    operations / t, objects, static_cast<double>(objects) / t, mib, op_max);
      break;
  }
  o << buf << " (0 errs)";
  for (TraceOp k : {TraceOp::Read, TraceOp::Stat, TraceOp::Create, TraceOp::Delete}) {
    auto& v = by_kind[static_cast<size_t>(k)];
    if (v.empty())
      continue;
    auto st = workbench_stats(v, format);
    std::snprintf(buf, sizeof buf, " %s(%.4es, %.4es, %.4es, %.4es, %.4es, %.4es, %.4es)", trace::trace_op_name(k), st[0],
                  st[1], st[2], st[3], st[4], st[5], st[6]);
    o << buf;
  }
  return o.str();
}

std::string workbench_phase_name(const MdrealPhase& p)
{
  return p.kind == PhaseKind::Precreate   ? "precreate"
         : p.kind == PhaseKind::Benchmark ? "benchmark"
         : p.kind == PhaseKind::Cleanup   ? "cleanup"
                                          : p.name;
}

}  // namespace

std::string mdworkbench_phase_line(const MdrealPhase& p, int ranks, ReportFormat format)
{
  auto rt = rank_times(p, ranks);
  double mn = *std::min_element(rt.begin(), rt.end());
  double mx = *std::max_element(rt.begin(), rt.end());
  double mean = 0;
  for (double x : rt)
    mean += x;
  mean /= static_cast<double>(rt.size());
  double var = 0;
  for (double x : rt)
    var += (x - mean) * (x - mean);
  double sd = rt.size() > 1 ? std::sqrt(var / static_cast<double>(rt.size() - 1)) : 0.0;
  char buf[256];
  std::snprintf(buf, sizeof buf,
                format == ReportFormat::MdWorkbench2019
                    ? "%s process max:%.2fs min:%.1fs mean: %.1fs balance:%.1f stddev:%.1f "
                    : "%s process max:%.2fs min:%.2fs mean: %.2fs balance:%.1f stddev:%.1f ",
                workbench_phase_name(p).c_str(), p.time_s, mn, mean, mx > 0 ? mn / mx * 100.0 : 100.0, sd);
  ByKind by_kind;
  for (const auto& smp : p.samples)
    by_kind[smp.op].push_back(smp.runtime_s);
  return buf + mdworkbench_line_tail(p, ranks, false, p.time_s, by_kind, format);
}

std::string mdreal_rank_lines(const MdrealPhase& p, int ranks, bool with_max)
{
  auto rt = rank_times(p, ranks);
  std::vector<float> op_max(static_cast<size_t>(std::max(ranks, 0)), 0.f);
  for (const auto& smp : p.samples)
    if (smp.rank < op_max.size())
      op_max[smp.rank] = std::max(op_max[smp.rank], smp.runtime_s);
  // Every rank does the same work: its share of the phase's counts, over its own time.
  MdrealPhase one;
  one.name = p.name;
  one.kind = p.kind;
  one.iteration = p.iteration;
  const double n = std::max(ranks, 1);
  one.objects = static_cast<uint64_t>(static_cast<double>(p.objects) / n + 0.5);
  one.dsets = static_cast<uint64_t>(static_cast<double>(p.dsets) / n + 0.5);
  one.operations = static_cast<uint64_t>(static_cast<double>(p.operations) / n + 0.5);
  one.bytes = p.bytes / n;
  std::string out;
  for (int r = 0; r < ranks; ++r) {
    one.time_s = rt[static_cast<size_t>(r)];
    const std::string line = mdreal_phase_line(one, false);
    out += std::to_string(r) + ": " +
           (with_max && !p.samples.empty() ? with_op_max(line, op_max[static_cast<size_t>(r)]) : line) + "\n";
  }
  return out;
}

std::string mdworkbench_rank_lines(const MdrealPhase& p, int ranks, ReportFormat format)
{
  auto rt = rank_times(p, ranks);
  // One pass over the samples, bucketed by rank (not one pass per rank: a replay may have millions of each).
  std::vector<ByKind> by_rank(static_cast<size_t>(std::max(ranks, 0)));
  for (const auto& smp : p.samples)
    if (smp.rank < by_rank.size())
      by_rank[smp.rank][smp.op].push_back(smp.runtime_s);
  std::string out;
  char buf[128];
  for (int r = 0; r < ranks; ++r) {
    const double t = rt[static_cast<size_t>(r)];
    std::snprintf(buf, sizeof buf, "%d: %s process max:%.2fs ", r, workbench_phase_name(p).c_str(), t);
    out += buf + mdworkbench_line_tail(p, ranks, true, t, by_rank[static_cast<size_t>(r)], format) + "\n";
    by_rank[static_cast<size_t>(r)] = ByKind{};  // freed as soon as printed
  }
  return out;
}

void write_mdworkbench_latency_files(const std::string& dir, const std::string& prefix,
                                     const std::vector<MdrealPhase>& phases, bool all_ranks)
{
  make_output_dir(dir);
  for (const auto& ph : phases) {
    // A benchmark iteration without objects (-I 0): md-workbench still writes its four files, header only.
    const bool empty_iteration = ph.kind == PhaseKind::Benchmark && ph.samples.empty();
    for (int k = 0; k < trace::kTraceOpCount; ++k) {
      // Samples are in rank order (mdreal_phases), so the -all file is every rank's rows concatenated.
      std::string body = latency_body(ph.samples, k, all_ranks ? -1 : 0);
      if (body.empty() && !empty_iteration)
        continue;
      write_file_atomic(
          dir + "/" + mdworkbench_latency_file_name(prefix, ph.kind, ph.name, ph.iteration, k, all_ranks),
          "time,runtime\n" + body);
    }
  }
}

void write_mdtest_latency_files(const std::string& dir, const std::string& prefix, const std::vector<MdrealPhase>& phases,
                                int ranks, double object_size_B)
{
  make_output_dir(dir);
  for (const auto& ph : phases) {
    std::vector<std::string> text(static_cast<size_t>(ranks));
    for (const auto& s : ph.samples)
      append_mdtest_perop_row(text[s.rank], s.start_s, s.runtime_s,
                              static_cast<TraceOp>(s.op) == TraceOp::Stat ? 1.0 : object_size_B);
    for (int r = 0; r < ranks; ++r)
      if (!text[static_cast<size_t>(r)].empty())
        write_mdtest_perop_file(dir, prefix, ph.name, static_cast<uint32_t>(r), text[static_cast<size_t>(r)]);
  }
}

std::set<std::string> latency_file_names(const ReplayWorkload& w, ReportFormat format, const std::string& prefix,
                                         bool all_ranks)
{
  std::set<std::string> names;
  const int M = w.ranks(), N = std::min(M, std::max(1, w.trace().ranks));  // rank m replays stream m mod N
  for (int p = 0; p < w.phase_count(); ++p) {
    std::vector<std::array<uint64_t, trace::kTraceOpCount>> counts;
    for (int r = 0; r < N; ++r)
      counts.push_back(w.kind_counts(r, p));
    const auto& c = [&](int r) -> const std::array<uint64_t, trace::kTraceOpCount>& {
      return counts[static_cast<size_t>(r % N)];
    };
    const PhaseKind kind = w.trace().phases[static_cast<size_t>(p)].kind;
    const bool bench = kind == PhaseKind::Benchmark;
    const int iter = w.phase_iteration(p);
    const std::string phase = w.phase_name(p);
    if (format == ReportFormat::Mdtest) {
      for (int r = 0; r < M; ++r)
        if (std::any_of(c(r).begin(), c(r).end(), [](uint64_t n) { return n > 0; }))
          names.insert(mdtest_perop_file_name(prefix, phase, static_cast<uint32_t>(r)));
      continue;
    }
    bool empty = true;  // a benchmark iteration without objects: md-workbench still writes its four files
    for (int r = 0; r < N; ++r)
      for (uint64_t n : c(r))
        empty &= n == 0;
    for (int k = 0; k < trace::kTraceOpCount; ++k) {
      if (format == ReportFormat::MdReal2017) {
        for (int r = 0; r < M; ++r)
          if (c(r)[static_cast<size_t>(k)] > 0)
            names.insert(mdreal_latency_file_name(prefix, kind, phase, iter, k, r));
        continue;
      }
      bool rows = false;
      for (int r = 0; r < (all_ranks ? N : 1); ++r)
        rows |= c(r)[static_cast<size_t>(k)] > 0;
      if (rows || (bench && empty))
        names.insert(mdworkbench_latency_file_name(prefix, kind, phase, iter, k, all_ranks));
    }
  }
  return names;
}

std::string mdtest_summary_of(const std::vector<MdrealPhase>& phases)
{
  std::vector<std::pair<std::string, std::vector<double>>> rates;
  size_t iterations = 0;
  for (const auto& p : phases) {
    double rate = static_cast<double>(p.objects) / (p.time_s > 0 ? p.time_s : 1e-12);
    auto it = std::find_if(rates.begin(), rates.end(), [&](const auto& r) { return r.first == p.name; });
    if (it == rates.end())
      rates.push_back({p.name, {rate}});
    else
      it->second.push_back(rate);
  }
  for (const auto& r : rates)
    iterations = std::max(iterations, r.second.size());
  return mdtest_summary_table(rates, static_cast<int>(iterations));
}

nlohmann::json mdreal_json(std::vector<MdrealPhase>& phases, bool with_max)
{
  nlohmann::json out = nlohmann::json::array();
  std::array<std::vector<float>, trace::kTraceOpCount> bench_all;
  int bench_count = 0;
  for (auto& ph : phases) {
    std::array<std::vector<float>, trace::kTraceOpCount> by_kind;
    for (const auto& s : ph.samples)
      by_kind[s.op].push_back(s.runtime_s);
    nlohmann::json lat = nlohmann::json::object();
    for (int k = 0; k < trace::kTraceOpCount; ++k) {
      auto& v = by_kind[static_cast<size_t>(k)];
      if (v.empty())
        continue;
      if (ph.kind == PhaseKind::Benchmark)
        bench_all[static_cast<size_t>(k)].insert(bench_all[static_cast<size_t>(k)].end(), v.begin(), v.end());
      lat[trace::trace_op_name(static_cast<TraceOp>(k))] = to_json(summarize(v));
    }
    bench_count += ph.kind == PhaseKind::Benchmark;
    double t = ph.time_s > 0 ? ph.time_s : 1e-12;
    out.push_back({{"name", ph.name},
                   {"iteration", ph.iteration},
                   {"line", mdreal_phase_line(ph, with_max && !ph.samples.empty())},  // as printed
                   {"time_s", ph.time_s},
                   {"objects", ph.objects},
                   {"dsets", ph.dsets},
                   {"operations", ph.operations},
                   {"obj_per_s", static_cast<double>(ph.objects) / t},
                   {"iops", static_cast<double>(ph.operations) / t},
                   {"mib_per_s", ph.bytes / 1048576.0 / t},
                   {"latency", lat}});
  }
  if (bench_count > 0) {
    nlohmann::json lat = nlohmann::json::object();
    for (int k = 0; k < trace::kTraceOpCount; ++k)
      if (!bench_all[static_cast<size_t>(k)].empty())
        lat[trace::trace_op_name(static_cast<TraceOp>(k))] = to_json(summarize(bench_all[static_cast<size_t>(k)]));
    out.push_back({{"name", "benchmark-all"}, {"iteration", -1}, {"latency", lat}});
  }
  return out;
}

}  // namespace pfsim
