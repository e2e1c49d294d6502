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

// clients.open_rpcs and close_rpcs: which per-node limit an open and a close take (Lustre's mdc rpc_lock /
// cl_close_lock before 2.8, the modifying-RPC slots from 2.8). 8 identical ranks on one node each open (or close)
// `per_rank` files; with nothing else limiting them, the phase runs at (RPCs the node may have in flight) / round trip.
namespace {
double items_rate(std::vector<pfsim::Op> ops, int max_mod, const std::string& open_rpcs, const std::string& close_rpcs,
                  double open_s = kUnlink_s, int max_rpcs = 32)
{
  json j = slot_platform(max_mod, 0, "block");
  j["clients"]["max_rpcs_in_flight"] = max_rpcs;
  j["clients"]["open_rpcs"] = open_rpcs;
  j["clients"]["close_rpcs"] = close_rpcs;
  j["mds"]["service"] = {{"open", open_s}, {"close", kUnlink_s}, {"stat", kUnlink_s}, {"create", kUnlink_s}};
  j["mds"]["readpage_threads"] = {{"min", 64}, {"max", 64}};  // (closes are served by the readpage threads)
  auto platform = pfsim::config::parse_platform(j, "test");
  constexpr int kRanks = 8, kPerRank = 200;
  pfsim::SyntheticParams p;
  p.generator = "metabench";
  p.ranks = kRanks;
  p.total_items = kRanks * kPerRank;
  p.phases.push_back({"items", ops, std::vector<double>(ops.size(), 0.0), false, 0});
  pfsim::SyntheticWorkload workload(p);
  pfsim::RunOptions o;
  o.ranks_per_node = kRanks;
  o.simgrid_args.push_back("--log=root.thres:warning");
  auto rec = pfsim::run_simulation(platform, workload, o);
  const auto& ph = rec.phases.at(0);
  REQUIRE(ph.ops == static_cast<uint64_t>(kRanks * kPerRank) * ops.size());
  return static_cast<double>(kRanks * kPerRank) / (ph.end_s - ph.start_s);
}
double one_op_rate(pfsim::Op op, int max_mod, const std::string& open_rpcs, const std::string& close_rpcs)
{
  return items_rate({op}, max_mod, open_rpcs, close_rpcs);
}
}  // namespace

// (one simulation per TEST_CASE: one SimGrid engine per process)
TEST_CASE("clients.open_rpcs modifying: a node's opens take its one modifying slot (the pre-2.8 rpc_lock)", "[client]")
{
  CHECK(one_op_rate(pfsim::Op::Open, 1, "modifying", "own_lock") == Approx(1 / round_trip_s(0)).epsilon(0.005));
}
TEST_CASE("clients.open_rpcs modifying: 3 modifying slots, 3 opens in flight", "[client]")
{
  CHECK(one_op_rate(pfsim::Op::Open, 3, "modifying", "own_lock") == Approx(3 / round_trip_s(0)).epsilon(0.005));
}
TEST_CASE("clients.open_rpcs unlimited: only max_rpcs_in_flight bounds the opens (all 8 ranks in flight)", "[client]")
{
  CHECK(one_op_rate(pfsim::Op::Open, 1, "unlimited", "own_lock") == Approx(8 / round_trip_s(0)).epsilon(0.005));
}
TEST_CASE("clients.close_rpcs own_lock: one close in flight per node (cl_close_lock)", "[client]")
{
  CHECK(one_op_rate(pfsim::Op::Close, 1, "modifying", "own_lock") == Approx(1 / round_trip_s(0)).epsilon(0.005));
}
TEST_CASE("clients.close_rpcs own_lock: one close in flight whatever the modifying slots", "[client]")
{
  CHECK(one_op_rate(pfsim::Op::Close, 7, "modifying", "own_lock") == Approx(1 / round_trip_s(0)).epsilon(0.005));
}
// Lustre's rule (obd_mod_rpc_slot_avail_locked): a slot is free when fewer than max_mod_rpcs_in_flight modifying
// RPCs are in flight, or for a close when no other close is: the extra slot lets one close pass opens holding every
// slot, but closes alone have max_mod_rpcs_in_flight of them in flight.
TEST_CASE("clients.close_rpcs modifying: closes alone take the modifying slots (3 in flight)", "[client]")
{
  CHECK(one_op_rate(pfsim::Op::Close, 3, "modifying", "modifying") == Approx(3 / round_trip_s(0)).epsilon(0.005));
}
// Open then close, the open 10 times longer, one modifying slot: the opens hold it back to back, and each close
// passes beside the next open (no other close in flight), so items run at 1 / open round trip; closes that had to
// wait for the slot would make it 1 / (open + close round trips), 9% slower.
TEST_CASE("clients.close_rpcs modifying: a close passes opens that hold every modifying slot", "[client]")
{
  const double open_rt = round_trip_s(0) + 9 * kUnlink_s;
  CHECK(items_rate({pfsim::Op::Open, pfsim::Op::Close}, 1, "modifying", "modifying", 10 * kUnlink_s) ==
        Approx(1 / open_rt).epsilon(0.005));
}
TEST_CASE("clients.close_rpcs unlimited: all 8 ranks' closes in flight", "[client]")
{
  CHECK(one_op_rate(pfsim::Op::Close, 3, "modifying", "unlimited") == Approx(8 / round_trip_s(0)).epsilon(0.005));
}

// max_rpcs_in_flight 1 with one modifying slot (a Lustre 1.8 client's mdc, which takes it: helper-129): a node has one
// RPC of any kind in flight. 8 ranks' stats (no modifying slot) run one at a time, 1 / round trip, not 8; creates
// with their closes (the rpc_lock and cl_close_lock, each 1) alternate, one RPC at a time: an item per 2 round trips,
// where max_rpcs_in_flight 2 lets a close beside the next create, an item per round trip.
TEST_CASE("clients.max_rpcs_in_flight 1: one stat in flight per node", "[client]")
{
  CHECK(items_rate({pfsim::Op::Stat}, 1, "modifying", "own_lock", kUnlink_s, 1) ==
        Approx(1 / round_trip_s(0)).epsilon(0.005));
}
TEST_CASE("clients.max_rpcs_in_flight 1: a create and its close never in flight together", "[client]")
{
  CHECK(items_rate({pfsim::Op::Create, pfsim::Op::Close}, 1, "modifying", "own_lock", kUnlink_s, 1) ==
        Approx(1 / (2 * round_trip_s(0))).epsilon(0.005));
}
TEST_CASE("clients.max_rpcs_in_flight 2: a close beside the next create", "[client]")
{
  CHECK(items_rate({pfsim::Op::Create, pfsim::Op::Close}, 1, "modifying", "own_lock", kUnlink_s, 2) ==
        Approx(1 / round_trip_s(0)).epsilon(0.005));
}
