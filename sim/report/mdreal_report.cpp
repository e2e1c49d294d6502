#include "report/mdreal_report.hpp"

#include "report/outputs.hpp"
#include "report/stats.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace pfsim {

using trace::PhaseKind;
using trace::TraceOp;

std::vector<MdrealPhase> mdreal_phases(const ReplayWorkload& w, const RunRecords& records)
{
  const auto& t = w.trace();
  const int M = w.ranks();
  const int N = t.ranks;
  std::vector<MdrealPhase> out;
  for (int p = 0; p < w.phase_count(); ++p) {
    const auto& rec = records.phases[static_cast<size_t>(p)];
    MdrealPhase ph;
    ph.name = rec.name;
    ph.kind = t.phases[static_cast<size_t>(p)].kind;
    ph.iteration = rec.iteration;
    ph.time_s = rec.end_s - rec.start_s;
    ph.objects = rec.items;
    ph.dsets = static_cast<uint64_t>(M) * static_cast<uint64_t>(w.dataset_ops(p));
    // Operation counts of each kind per recorded stream, times the ranks replaying it.
    std::array<uint64_t, trace::kTraceOpCount> kinds{};
    for (int r = 0; r < N; ++r) {
      const auto& s = t.streams[static_cast<size_t>(r)];
      uint64_t copies = static_cast<uint64_t>(M / N) + (r < M % N ? 1 : 0);
      const uint64_t n = w.compound_count(r, p) - static_cast<uint64_t>(w.dataset_ops(p));
      for (uint32_t i = s.begin(p); i < s.begin(p) + n; ++i)
        kinds[s.op[i]] += copies;
    }
    for (auto k : kinds)
      ph.operations += k;
    ph.operations += ph.dsets;
    ph.bytes = static_cast<double>(kinds[static_cast<int>(TraceOp::Create)] + kinds[static_cast<int>(TraceOp::Read)]) *
               t.params.object_size_B;

    if (!rec.samples.empty()) {
      std::vector<OpSample> s = rec.samples;
      std::stable_sort(s.begin(), s.end(), [](const OpSample& a, const OpSample& b) {
        return a.rank != b.rank ? a.rank < b.rank : a.start_s < b.start_s;
      });
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
          float start = first.start_s;  // the replayed excess is inside the operation (OpRequest::excess_s)
          float end = last.start_s + last.runtime_s;
          ph.samples.push_back({rank, static_cast<unsigned char>(kind), start, end - start});
        }
        if (i < s.size() && s[i].rank == rank)
          throw std::logic_error("mdreal report: rank " + std::to_string(rank) + " has more samples than operations");
      }
    }
    out.push_back(std::move(ph));
  }
  return out;
}

std::string mdreal_phase_line(const MdrealPhase& p)
{
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

void write_mdreal_latency_files(const std::string& dir, const std::string& prefix, const std::vector<MdrealPhase>& phases,
                                int ranks)
{
  std::filesystem::create_directories(dir);
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
        std::string name = ph.kind == PhaseKind::Benchmark ? trace::trace_op_name(static_cast<TraceOp>(k)) : ph.name;
        std::replace(name.begin(), name.end(), ' ', '_');
        write_file_atomic(dir + "/" + prefix + "-" + std::to_string(ph.iteration) + "-" + name + "-" +
                              std::to_string(r) + ".csv",
                          "time,runtime\n" + body);
      }
  }
}

nlohmann::json mdreal_json(std::vector<MdrealPhase>& phases)
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
                   {"line", mdreal_phase_line(ph)},
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
