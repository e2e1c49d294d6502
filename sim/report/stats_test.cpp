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

#include "report/io_report.hpp"

TEST_CASE("data replay table: writes that all took 0 s over a rounding-size window have no rate and no error",
          "[stats]")
{
  // IOR per-op writes replayed into a write-back cache whose copy is free: 16 writes of 256 KiB, every latency 0,
  // back to back, a window of 3.3e-12 s of clock rounding (it printed 16777181 MiB/s, error +463399%).
  pfsim::IoPhaseComparison c;
  c.name = "write";
  c.recorded[0] = {16, 4 * 1048576.0, 4 * 1048576.0 / (3619.68 * 1048576), {}};
  c.recorded[0].latency.max_s = 5e-4;
  c.simulated[0] = {16, 4 * 1048576.0, 3.27e-12, {}, true};
  CHECK_FALSE(c.simulated[0].has_rate());
  CHECK(c.simulated[0].rate_Bps() == 0);
  const std::string text = pfsim::io_compare_text({c}, true);
  INFO(text);
  CHECK(text.find("3619.68") != std::string::npos);
  CHECK(text.find("n/a") != std::string::npos);
  CHECK(text.find('%') == std::string::npos);  // no error
  // A real window with time spent: a rate and its error.
  c.simulated[0].window_s = 2 * c.recorded[0].window_s;
  c.simulated[0].latency.max_s = 1e-4;
  const std::string again = pfsim::io_compare_text({c}, true);
  INFO(again);
  CHECK(again.find("1809.84") != std::string::npos);
  CHECK(again.find("-50.0%") != std::string::npos);
  const auto j = pfsim::io_compare_json({c}, 2, 2);
  INFO(j.dump());
  CHECK(j.dump().find("\"rate_MiBps\":null") == std::string::npos);
  // The no-rate case in the JSON: null, and no error; a recorded kind whose latencies all print as 0 keeps its rate.
  c.simulated[0].latency.max_s = 0;
  c.recorded[0].latency.max_s = 0;
  const auto none = pfsim::io_compare_json({c}, 2, 2);
  INFO(none.dump());
  CHECK(none.dump().find("\"rate_MiBps\":null") != std::string::npos);
  CHECK(none.dump().find("\"rate_error\":null") != std::string::npos);
  CHECK(c.recorded[0].has_rate());
  // ... and why it is null, beside it and under the table's n/a (a window of think times is not a rate)
  CHECK(none["phases"][0]["write"]["simulated"].value("rate_note", "").find("every simulated write took 0 s") == 0);
  CHECK_FALSE(none["phases"][0]["write"]["recorded"].contains("rate_note"));
  CHECK_FALSE(j["phases"][0]["write"]["simulated"].contains("rate_note"));
  CHECK(pfsim::io_no_rate_notes({c}) == "pfsim: note: sim_MiB/s n/a (write 0 write): " +
                                          c.simulated[0].no_rate_reason(true) + "\n");
  CHECK(c.simulated[0].no_rate_reason(true).find("every simulated write took 0 s") == 0);
}
