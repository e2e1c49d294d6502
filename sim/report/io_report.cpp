#include "report/io_report.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace pfsim {

std::string IoKindStats::no_rate_reason(bool write) const
{
  if (ops == 0 || has_rate())
    return "";
  if (window_s <= 0)
    return std::string("every ") + (write ? "write" : "read") + " at one time: a window of 0 s";
  if (latency.max_s <= 0)
    return write ? "every simulated write took 0 s (copied into the write-back cache, clients.max_dirty_mb, at no "
                   "cost, clients.page_cache_copy 0): the window holds only think times, not a transfer rate"
                 : "every simulated read took 0 s (served by the page cache, clients.max_cached_mb, at no cost, "
                   "clients.page_cache_copy 0): the window holds only think times, not a transfer rate";
  return "a window below SimGrid's 1 ns timing precision";
}

std::vector<IoPhaseComparison> io_compare(const IoReplayWorkload& w, const RunRecords& records)
{
  const auto& t = w.trace();
  std::vector<IoPhaseComparison> out;
  for (int p = 0; p < w.phase_count(); ++p) {
    IoPhaseComparison c;
    c.name = w.phase_name(p);
    c.iteration = w.phase_iteration(p);
    for (int k = 0; k < 2; ++k) {
      // Recorded: what the import kept of it
      const auto& rec = t.phases.at(static_cast<size_t>(p)).recorded[k];
      auto& r = c.recorded[k];
      r.ops = rec.ops;
      r.bytes = rec.bytes;
      r.window_s = rec.last_end_s - rec.first_start_s;
      r.latency = summarize_sorted(rec.latency_s);
      // Simulated
      const auto& ph = records.phases.at(static_cast<size_t>(p));
      auto& s = c.simulated[k];
      s.simulated = true;
      const Op op = k == 0 ? Op::Write : Op::Read;
      // From the phase's per-kind record: its count and window, and its latencies (every one, or with
      // RunRecords::latency_histograms a histogram of constant size, within 0.14%).
      s.ops = ph.op_count[op];
      s.bytes = w.phase_bytes(p, k == 0);
      s.window_s = s.ops > 0 ? ph.op_last_end_s[op] - ph.op_first_start_s[op] : 0;
      if (records.latency_histograms) {
        s.latency = summarize(ph.histogram_by_op[op]);
      } else {
        std::vector<float> lat = ph.latencies_by_op[op];
        s.latency = summarize(lat);
      }
      c.simulated_phase_s = ph.end_s - ph.start_s;
    }
    out.push_back(std::move(c));
  }
  return out;
}

namespace {
double error_of(double simulated, double recorded) { return recorded > 0 ? simulated / recorded - 1 : 0; }
}  // namespace

std::string io_compare_text(const std::vector<IoPhaseComparison>& cs, bool same_ranks)
{
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-8s %4s %-5s %8s %8s %10s %10s %12s %12s %8s %10s %10s %10s %10s %10s %10s\n",
                "phase", "iter", "op", "rec_ops", "sim_ops", "rec_MiB", "sim_MiB", "rec_MiB/s", "sim_MiB/s", "error",
                "rec_p50_s", "sim_p50_s", "rec_p99_s", "sim_p99_s", "rec_max_s", "sim_max_s");
  out += line;
  for (const auto& c : cs)
    for (int k = 0; k < 2; ++k) {
      const auto& r = c.recorded[k];
      const auto& s = c.simulated[k];
      if (r.ops == 0 && s.ops == 0)
        continue;
      const double err = error_of(s.rate_Bps(), r.rate_Bps());
      char e[16];
      if (r.rate_Bps() > 0 && s.has_rate() && same_ranks)
        std::snprintf(e, sizeof e, "%+.1f%%", 100 * err);
      else
        std::snprintf(e, sizeof e, "-");
      // No rate (IoKindStats::has_rate): "n/a", not 0.
      auto rate = [](const IoKindStats& x) {
        char b[24];
        if (x.has_rate())
          std::snprintf(b, sizeof b, "%.2f", x.rate_Bps() / 1048576);
        else
          std::snprintf(b, sizeof b, "n/a");
        return std::string(b);
      };
      std::snprintf(line, sizeof line,
                    "%-8s %4d %-5s %8llu %8llu %10.3f %10.3f %12s %12s %8s %10.3e %10.3e %10.3e %10.3e %10.3e %10.3e\n",
                    c.name.c_str(), c.iteration, k == 0 ? "write" : "read", static_cast<unsigned long long>(r.ops),
                    static_cast<unsigned long long>(s.ops), r.bytes / 1048576, s.bytes / 1048576,
                    rate(r).c_str(), rate(s).c_str(), e, r.latency.p50_s, s.latency.p50_s,
                    r.latency.p99_s, s.latency.p99_s, r.latency.max_s, s.latency.max_s);
      out += line;
    }
  return out;
}

std::string io_no_rate_notes(const std::vector<IoPhaseComparison>& cs)
{
  std::string out;
  for (const auto& c : cs)
    for (int k = 0; k < 2; ++k)
      for (const IoKindStats* x : {&c.recorded[k], &c.simulated[k]})
        if (!x->no_rate_reason(k == 0).empty())
          out += "pfsim: note: " + std::string(x->simulated ? "sim" : "rec") + "_MiB/s n/a (" + c.name + " " +
                 std::to_string(c.iteration) + " " + (k == 0 ? "write" : "read") + "): " + x->no_rate_reason(k == 0) +
                 "\n";
  return out;
}

nlohmann::json io_compare_json(const std::vector<IoPhaseComparison>& cs, int recorded_ranks, int ranks)
{
  auto stats = [](const IoKindStats& x, bool write) {
    nlohmann::json j = {{"ops", x.ops},
                        {"bytes", x.bytes},
                        {"window_s", x.window_s},
                        {"rate_MiBps", x.has_rate() ? nlohmann::json(x.rate_Bps() / 1048576) : nlohmann::json(nullptr)},
                        {"latency", to_json(x.latency)}};
    if (!x.no_rate_reason(write).empty())
      j["rate_note"] = x.no_rate_reason(write);  // why rate_MiBps is null
    return j;
  };
  nlohmann::json phases = nlohmann::json::array();
  for (const auto& c : cs) {
    nlohmann::json ph = {{"name", c.name}, {"iteration", c.iteration}, {"simulated_phase_s", c.simulated_phase_s}};
    for (int k = 0; k < 2; ++k) {
      if (c.recorded[k].ops == 0 && c.simulated[k].ops == 0)
        continue;
      ph[k == 0 ? "write" : "read"] = {
          {"recorded", stats(c.recorded[k], k == 0)},
          {"simulated", stats(c.simulated[k], k == 0)},
          {"rate_error", c.recorded[k].rate_Bps() > 0 && c.simulated[k].has_rate() && recorded_ranks == ranks
                             ? nlohmann::json(error_of(c.simulated[k].rate_Bps(),
                                                                                  c.recorded[k].rate_Bps()))
                                                      : nlohmann::json(nullptr)}};
    }
    phases.push_back(ph);
  }
  return {{"recorded_ranks", recorded_ranks}, {"ranks", ranks}, {"phases", phases}};
}

}  // namespace pfsim
