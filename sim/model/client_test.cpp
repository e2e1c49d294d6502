// Client-node checks against closed forms: a node's modifying-RPC slots are shared evenly by identical ranks,
// and clients.placement decides which ranks share a node. Each TEST_CASE runs in its own process (one SimGrid
// engine per process).
#include "config/platform_config.hpp"
#include "model/simulation.hpp"
#include "workload/synthetic.hpp"

#include <catch2/catch.hpp>

#include <string>

namespace {

using nlohmann::json;

constexpr double kLinkLatency_s = 1e-6;
constexpr double kLinkBandwidth_Bps = 1e11;  // a 1 KiB reply takes 10 ns
constexpr double kUnlink_s = 100e-6;

// One MDS with more cores and threads than any test has requests, deterministic service, no journal or lock:
// the only queue is the client node's modifying-RPC slots.
json slot_platform(int max_mod, double rpc_overhead_s, const std::string& placement)
{
  json link = {{"bandwidth", kLinkBandwidth_Bps}, {"latency", kLinkLatency_s}};
  return {{"name", "client-test"},
          {"network", {{"model", "CM02"}, {"client_link", link}, {"server_link", link}}},
          {"clients",
           {{"max_rpcs_in_flight", 32},
            {"max_mod_rpcs_in_flight", max_mod},
            {"rpc_overhead", rpc_overhead_s},
            {"request_size", 512},
            {"reply_size", 1024},
            {"placement", placement}}},
          {"mds",
           {{"cores", 64},
            {"threads", {{"min", 64}, {"max", 64}}},
            {"service", {{"unlink", kUnlink_s}}},
            {"service_distribution", "deterministic"},
            {"journal", {{"enabled", false}}},
            {"dir_lock", {{"enabled", false}}}}}};
}

// Round trip of one unlink: request and reply over client link + server link, the service, the client's part.
double round_trip_s(double rpc_overhead_s)
{
  return 2 * kLinkLatency_s + 512 / kLinkBandwidth_Bps + kUnlink_s + 2 * kLinkLatency_s + 1024 / kLinkBandwidth_Bps +
         rpc_overhead_s;
}

double unlink_phase_s(const json& j, int ranks, int ranks_per_node, uint64_t files)
{
  auto platform = pfsim::config::parse_platform(j, "test");
  pfsim::SyntheticWorkload workload(pfsim::metabench_params(ranks, files, "unique", {"unlink"}));
  pfsim::RunOptions o;
  o.ranks_per_node = ranks_per_node;
  o.simgrid_args.push_back("--log=root.thres:warning");
  auto rec = pfsim::run_simulation(platform, workload, o);
  const auto& ph = rec.phases.at(0);
  REQUIRE(ph.ops == files);
  return ph.end_s - ph.start_s;
}

}  // namespace

void check_even_slots(int ranks, double overhead_s)
{
  const uint64_t files = 1000ULL * static_cast<uint64_t>(ranks);
  const double expected = 7 / round_trip_s(overhead_s);
  const double rate =
      static_cast<double>(files) / unlink_phase_s(slot_platform(7, overhead_s, "block"), ranks, ranks, files);
  INFO("ranks " << ranks << ", rpc_overhead " << overhead_s * 1e6 << " us: " << rate << "/s, expected " << expected
                << "/s");
  CHECK(rate == Approx(expected).epsilon(0.005));
}

// K identical ranks on one node, S = 7 < K modifying slots, no other queue: the slots never idle, so the phase runs
// at S / round trip. The phase ends with its slowest rank, so a node that kept handing the slots to the same ranks
// (simultaneous completions taken in rank order) ended later: 8 ranks ran at 6 / round trip (-14%), and with a
// 20 us client overhead at -24%.
TEST_CASE("client slots: 8 identical ranks share 7 modifying slots evenly", "[client]")
{
  check_even_slots(8, 0);
}
TEST_CASE("client slots: 16 identical ranks share 7 modifying slots evenly", "[client]")
{
  check_even_slots(16, 0);
}
TEST_CASE("client slots: 8 identical ranks share 7 slots evenly with a client overhead", "[client]")
{
  check_even_slots(8, 20e-6);
}
TEST_CASE("client slots: 16 identical ranks share 7 slots evenly with a client overhead", "[client]")
{
  check_even_slots(16, 20e-6);
}

// 6 unlinks over 4 ranks (ranks 0 and 1 get 2, ranks 2 and 3 get 1), 2 ranks per node, one modifying slot per
// node. block: node 0 holds ranks 0,1 and serialises 4 unlinks, node 1 holds 2,3 (2 unlinks): 4 round trips.
// cyclic: node 0 holds ranks 0,2 and node 1 ranks 1,3, 3 unlinks each: 3 round trips.
TEST_CASE("clients.placement block: consecutive ranks share a node", "[client]")
{
  CHECK(unlink_phase_s(slot_platform(1, 0, "block"), 4, 2, 6) == Approx(4 * round_trip_s(0)).epsilon(0.01));
}
TEST_CASE("clients.placement cyclic: rank r on node r mod nodes", "[client]")
{
  CHECK(unlink_phase_s(slot_platform(1, 0, "cyclic"), 4, 2, 6) == Approx(3 * round_trip_s(0)).epsilon(0.01));
}
// 5 ranks, 2 per node: 3 nodes holding ranks {0,3}, {1,4}, {2}; 10 unlinks, 2 per rank: nodes 0 and 1 serialise 4.
TEST_CASE("clients.placement cyclic: ranks that do not fill the last node", "[client]")
{
  CHECK(unlink_phase_s(slot_platform(1, 0, "cyclic"), 5, 2, 10) == Approx(4 * round_trip_s(0)).epsilon(0.01));
}
