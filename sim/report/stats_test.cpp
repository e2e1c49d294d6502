// Latency summaries: the constant-memory histogram against the exact nearest-rank percentiles.
#include "report/records.hpp"
#include "report/stats.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {
// Log-uniform latencies from 1 us to 10 s (a fixed LCG, so the sample is the same on every run).
std::vector<float> sample(size_t n)
{
  std::vector<float> v;
  uint64_t x = 12345;
  for (size_t i = 0; i < n; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    double u = static_cast<double>(x >> 11) * 0x1.0p-53;
    v.push_back(static_cast<float>(1e-6 * std::pow(1e7, u)));
  }
  return v;
}
}  // namespace

TEST_CASE("latency histogram: percentiles within 0.14% of the nearest-rank sample, count, mean and max exact",
          "[stats]")
{
  auto v = sample(100000);
  pfsim::LatencyHistogram h;
  for (float x : v)
    h.add(x);
  auto exact = pfsim::summarize(v);  // sorts v
  auto approx = pfsim::summarize(h);
  CHECK(approx.count == exact.count);
  CHECK(approx.max_s == exact.max_s);
  CHECK(approx.mean_s == Approx(exact.mean_s).epsilon(1e-9));
  const double half_bucket = std::exp2(0.5 / pfsim::LatencyHistogram::kPerDoubling) - 1;  // 0.135%
  for (double q : {0.0, 0.01, 0.5, 0.9, 0.99, 0.999, 1.0}) {
    double e = pfsim::percentile_sorted(v, q);
    INFO("q " << q << ": exact " << e << ", histogram " << h.percentile(q));
    CHECK(std::abs(h.percentile(q) / e - 1) <= half_bucket * 1.0001);
  }
  CHECK(h.percentile(0.0) == Approx(v.front()).epsilon(half_bucket));  // clipped to [min, max]
}

TEST_CASE("latency histogram: zeros, merging and the nearest-rank rule on a small sample", "[stats]")
{
  pfsim::LatencyHistogram a, b;
  for (float x : {0.0f, 0.0f, 1.0f})
    a.add(x);
  for (float x : {2.0f, 4.0f})
    b.add(x);
  CHECK(a.percentile(0.5) == 0.0);  // ranks 1-2 of 3 are the zeros
  a.merge(b);                       // 0, 0, 1, 2, 4
  CHECK(a.count() == 5);
  CHECK(a.sum() == Approx(7.0));
  CHECK(a.min() == 0.0);
  CHECK(a.max() == 4.0);
  CHECK(a.percentile(0.4) == 0.0);                        // rank 2
  CHECK(a.percentile(0.6) == Approx(1.0).epsilon(0.002));  // rank 3
  CHECK(a.percentile(0.8) == Approx(2.0).epsilon(0.002));  // rank 4
  CHECK(a.percentile(1.0) == 4.0);                        // the maximum, exactly
  pfsim::LatencyHistogram empty;
  CHECK(empty.percentile(0.5) == 0.0);
  CHECK(pfsim::summarize(empty).count == 0);
}
