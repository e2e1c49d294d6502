// Latency summaries: nearest-rank percentiles on the sorted sample (the same rule for every report).
#pragma once
#include "report/records.hpp"

#include <nlohmann/json.hpp>
#include <vector>

namespace pfsim {

struct LatencySummary {
  size_t count = 0;
  double mean_s = 0;
  double p50_s = 0;
  double p90_s = 0;
  double p99_s = 0;
  double p999_s = 0;
  double max_s = 0;
};

// Sorts `values` in place.
LatencySummary summarize(std::vector<float>& values);
// The same of values already sorted.
LatencySummary summarize_sorted(const std::vector<float>& sorted);
// The same summary from a constant-memory histogram (percentiles within 0.14% of the nearest-rank sample).
LatencySummary summarize(const LatencyHistogram& h);
// Nearest-rank percentile of a sorted sample, q in [0, 1].
double percentile_sorted(const std::vector<float>& sorted, double q);
nlohmann::json to_json(const LatencySummary& s);

// Mean and sample standard deviation (n-1), as mdtest's SUMMARY prints them.
struct MeanSd {
  double min = 0, max = 0, mean = 0, sd = 0;
};
MeanSd mean_sd(const std::vector<double>& v);

}  // namespace pfsim
