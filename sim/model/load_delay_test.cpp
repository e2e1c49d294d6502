// clients.load_delay, the population-dependent delay center: in a closed loop of N ranks that never queue at
// the MDS, every operation takes R0 + base + per_active_rank * N, so X = N / (R0 + base + b N) (the
// flow-equivalent server's closed form). One simulation per TEST_CASE (one SimGrid engine per process).
#include "config/platform_config.hpp"
#include "model/simulation.hpp"
#include "workload/synthetic.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

namespace {

using nlohmann::json;

constexpr double kLinkLatency_s = 5e-6;
constexpr double kLinkBandwidth_Bps = 1e11;
constexpr double kRequest_B = 512;
constexpr double kReply_B = 1024;
constexpr double kStat_s = 100e-6;
constexpr double kBase_s = 300e-6;
constexpr double kPerRank_s = 20e-6;

double one_way_s(double bytes)
{
  return 2 * kLinkLatency_s + bytes / kLinkBandwidth_Bps;
}
// Round trip of one stat without the delay center: request, service, reply (no client overheads).
double r0_s()
{
  return one_way_s(kRequest_B) + kStat_s + one_way_s(kReply_B);
}

// 256 cores: the MDS never queues, only the delay center depends on N.
json platform(const json& law)
{
  json link = {{"bandwidth", kLinkBandwidth_Bps}, {"latency", kLinkLatency_s}};
  return {
      {"name", "load-delay-test"},
      {"network", {{"model", "CM02"}, {"client_link", link}, {"server_link", link}}},
      {"clients",
       {{"ranks_per_node", 1},
        {"max_rpcs_in_flight", 4096},
        {"max_mod_rpcs_in_flight", 4095},  // below max_rpcs_in_flight, as Lustre requires
        {"rpc_overhead", 0},
        {"request_size", kRequest_B},
        {"reply_size", kReply_B},
        {"load_delay", {{"enabled", true}, {"per_op", {{"stat", law}}}}}}},
      {"mds",
       {{"cores", 256},
        {"threads", {{"min", 256}, {"max", 256}}},
        {"service", {{"stat", kStat_s}}},
        {"service_distribution", "deterministic"},
        {"journal", {{"enabled", false}}},
        {"dir_lock", {{"enabled", false}}}}},
  };
}

pfsim::RunRecords run_stats(const json& law, int ranks, uint64_t files, double think_s = 0)
{
  auto p = pfsim::config::parse_platform(platform(law), "test");
  auto params = pfsim::metabench_params(ranks, files, "unique", {"stat"});
  params.think_s = think_s;
  pfsim::SyntheticWorkload workload(params);
  pfsim::RunOptions opts;
  opts.ranks_per_node = 1;
  opts.seed = 7;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  return pfsim::run_simulation(p, workload, opts);
}

void check_closed_loop(int N)
{
  const uint64_t files = 200 * static_cast<uint64_t>(N);
  auto rec = run_stats({{"base", kBase_s}, {"per_active_rank", kPerRank_s}}, N, files);
  const auto& ph = rec.phases.at(0);
  REQUIRE(ph.ops == files);
  const double R = r0_s() + kBase_s + kPerRank_s * N;
  const double x = static_cast<double>(ph.ops) / (ph.end_s - ph.start_s);
  INFO("N " << N << ": X " << x << "/s, N/R " << N / R << "/s");
  // Deterministic: every rank does the same number of stats, all of them while all N ranks are active.
  CHECK(x == Approx(N / R).epsilon(0.005));
  // The minimum is exactly R; the mean too, up to the rare reply that waits for one of the server's reply
  // senders when more than 16 replies leave at once (a link round trip, ~1 % of R).
  const auto lat = ph.all_latencies();
  auto mn = std::min_element(lat.begin(), lat.end());
  CHECK(*mn == Approx(R).epsilon(1e-3));
  const double mean = std::accumulate(lat.begin(), lat.end(), 0.0) /
                      static_cast<double>(lat.size());
  CHECK(mean == Approx(R).epsilon(0.002));
}

}  // namespace

TEST_CASE("load delay: 4 ranks in a closed loop run at N / (R0 + base + b N)", "[load_delay][closed]")
{
  check_closed_loop(4);
}

TEST_CASE("load delay: 32 ranks in a closed loop run at N / (R0 + base + b N)", "[load_delay][closed]")
{
  check_closed_loop(32);
}

TEST_CASE("load delay, population md_ops_in_flight: a closed loop of N ranks sees the N - 1 others in flight",
          "[load_delay][closed]")
{
  // Every rank is always inside a stat (no think time), so each stat starts with the N - 1 other ranks' stats in
  // flight (except each rank's first, which sees the ranks that started before it): R = R0 + base + b (N - 1).
  // The same law over active ranks would give R0 + base + b N.
  const int N = 8;
  const double b = 100e-6;
  const uint64_t files = 400 * N;
  auto rec = run_stats({{"population", "md_ops_in_flight"}, {"base", kBase_s}, {"per_md_op_in_flight", b}}, N, files);
  const auto& ph = rec.phases.at(0);
  REQUIRE(ph.ops == files);
  const double R = r0_s() + kBase_s + b * (N - 1);
  const auto lat = ph.all_latencies();
  const double mean = std::accumulate(lat.begin(), lat.end(), 0.0) / static_cast<double>(lat.size());
  INFO("mean latency " << mean << " s, closed form " << R << " s (over active ranks: " << R + b << " s)");
  CHECK(mean == Approx(R).epsilon(0.005));
  const double x = static_cast<double>(ph.ops) / (ph.end_s - ph.start_s);
  CHECK(x == Approx(N / R).epsilon(0.005));
  // The smallest latency is the first rank's first stat, with nothing in flight.
  CHECK(*std::min_element(lat.begin(), lat.end()) == Approx(r0_s() + kBase_s).epsilon(1e-3));
}

TEST_CASE("load delay, population md_ops_in_flight: a rank in its think time is not in flight", "[load_delay]")
{
  // Two ranks, 10 ms of think before every stat, a stat of R0 (~0.13 ms). Both start their first stat at 10 ms:
  // the second to start sees the first in flight and waits b = 1 ms. From then on each stat starts while the
  // other rank thinks (their stats are 1 ms apart and last R0), so no other stat delays: exactly one of the
  // 2 x 50 stats is R0 + b, the others R0. Counting thinking ranks would give every stat R0 + b.
  const double b = 1e-3;
  auto rec = run_stats({{"population", "md_ops_in_flight"}, {"base", 0}, {"per_md_op_in_flight", b}}, 2, 100, 10e-3);
  const auto& ph = rec.phases.at(0);
  REQUIRE(ph.ops == 100);
  const auto lat = ph.all_latencies();
  const auto delayed = std::count_if(lat.begin(), lat.end(), [&](float l) { return l > r0_s() + b / 2; });
  CHECK(delayed == 1);
  CHECK(*std::max_element(lat.begin(), lat.end()) == Approx(r0_s() + b).epsilon(1e-3));
  CHECK(*std::min_element(lat.begin(), lat.end()) == Approx(r0_s()).epsilon(1e-3));
}

TEST_CASE("load delay: shape samples keep the mean, rank factors make slow ranks", "[load_delay][shape]")
{
  // Shape {0, 2}: half the stats get no delay, half twice the mean (mean 1). Rank factors {0.5, 1.5} (mean 1, as
  // the platform requires): ranks 1 and 3 are three times slower than ranks 0 and 2 while every rank is active.
  const int N = 4;
  const uint64_t files = 4000 * N;
  auto rec = run_stats({{"base", kBase_s}, {"per_active_rank", 0}, {"shape", {0.0, 2.0}}, {"rank_factors", {0.5, 1.5}}},
                       N, files);
  const auto& ph = rec.phases.at(0);
  REQUIRE(ph.ops == files);
  const auto lat = ph.all_latencies();
  // Every latency is R0 (shape 0) or R0 + 2 f base with f in {0.5, 1.5}.
  for (float l : lat) {
    bool ok = std::abs(l - r0_s()) < 1e-6 || std::abs(l - (r0_s() + kBase_s)) < 1e-6 ||
              std::abs(l - (r0_s() + 3 * kBase_s)) < 1e-6;
    if (!ok)
      FAIL("unexpected latency " << l);
  }
  // Mean over all operations: each rank does files/N stats, so the mean factor is (0.5 + 1.5) / 2 = 1; the
  // sampled shape has mean 1 (binomial noise of 16000 draws: 1 % of the delay).
  const double mean = std::accumulate(lat.begin(), lat.end(), 0.0) / static_cast<double>(lat.size());
  CHECK(mean == Approx(r0_s() + kBase_s).epsilon(0.02));
  // Phase time: the slow ranks finish last, after files/N stats of mean R0 + 1.5 base.
  CHECK(ph.end_s - ph.start_s == Approx(static_cast<double>(files / N) * (r0_s() + 1.5 * kBase_s)).epsilon(0.05));
}

TEST_CASE("load delay, population md_ops_in_flight: a later step of the rank's own operation is not another's",
          "[load_delay]")
{
  // One rank creates files (a create RPC, then its close); a law on the close over the metadata operations of the
  // *other* ranks in flight sees none: no close is delayed. Until 2026-11-26 the rank's own create, still in flight
  // as a tool operation, was counted, and every close waited b = 1 ms (a helper's review found it).
  const double b = 1e-3;
  json p = platform({{"population", "md_ops_in_flight"}, {"base", 0}, {"per_md_op_in_flight", b}});
  p["clients"]["load_delay"]["per_op"] = {{"close", p["clients"]["load_delay"]["per_op"]["stat"]}};
  p["mds"]["service"] = {{"create", kStat_s}, {"close", kStat_s}};
  auto plat = pfsim::config::parse_platform(p, "test");
  pfsim::SyntheticWorkload workload(pfsim::metabench_params(1, 50, "unique", {"create"}));
  pfsim::RunOptions opts;
  opts.ranks_per_node = 1;
  opts.seed = 7;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  auto rec = pfsim::run_simulation(plat, workload, opts);
  const auto& ph = rec.phases.at(0);
  REQUIRE(ph.ops == 100);  // 50 creates and their closes
  const auto lat = ph.all_latencies();
  CHECK(*std::max_element(lat.begin(), lat.end()) < r0_s() + b / 2);
}
