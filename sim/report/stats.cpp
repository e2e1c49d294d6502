#include "report/stats.hpp"

#include <algorithm>
#include <cmath>

namespace pfsim {

double percentile_sorted(const std::vector<float>& sorted, double q)
{
  if (sorted.empty())
    return 0;
  auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  rank = std::clamp<size_t>(rank, 1, sorted.size());
  return sorted[rank - 1];
}

LatencySummary summarize(std::vector<float>& values)
{
  std::sort(values.begin(), values.end());
  return summarize_sorted(values);
}

LatencySummary summarize_sorted(const std::vector<float>& values)
{
  LatencySummary s;
  s.count = values.size();
  if (values.empty())
    return s;
  double sum = 0;
  for (float v : values)
    sum += v;
  s.mean_s = sum / static_cast<double>(values.size());
  s.p50_s = percentile_sorted(values, 0.50);
  s.p90_s = percentile_sorted(values, 0.90);
  s.p99_s = percentile_sorted(values, 0.99);
  s.p999_s = percentile_sorted(values, 0.999);
  s.max_s = values.back();
  return s;
}

LatencySummary summarize(const LatencyHistogram& h)
{
  LatencySummary s;
  s.count = h.count();
  if (h.empty())
    return s;
  s.mean_s = h.sum() / static_cast<double>(h.count());
  s.p50_s = h.percentile(0.50);
  s.p90_s = h.percentile(0.90);
  s.p99_s = h.percentile(0.99);
  s.p999_s = h.percentile(0.999);
  s.max_s = h.max();
  return s;
}

nlohmann::json to_json(const LatencySummary& s)
{
  return {{"count", s.count}, {"mean_s", s.mean_s}, {"p50_s", s.p50_s}, {"p90_s", s.p90_s},
          {"p99_s", s.p99_s}, {"p99.9_s", s.p999_s}, {"max_s", s.max_s}};
}

MeanSd mean_sd(const std::vector<double>& v)
{
  MeanSd r;
  if (v.empty())
    return r;
  r.min = *std::min_element(v.begin(), v.end());
  r.max = *std::max_element(v.begin(), v.end());
  double sum = 0;
  for (double x : v)
    sum += x;
  r.mean = sum / static_cast<double>(v.size());
  if (v.size() > 1) {
    double ss = 0;
    for (double x : v)
      ss += (x - r.mean) * (x - r.mean);
    r.sd = std::sqrt(ss / static_cast<double>(v.size() - 1));
  }
  return r;
}

}  // namespace pfsim
