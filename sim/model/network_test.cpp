// Link duplex: a router link of bandwidth B carries requests (512 B) one way and replies (1 KiB) the other. When
// it is the bottleneck, stats run at B / 1024 with full-duplex links (replies alone fill the reply direction) and
// at B / (512 + 1024) with half-duplex links (both share one bandwidth). One simulation per TEST_CASE.
#include "config/platform_config.hpp"
#include "model/simulation.hpp"
#include "workload/synthetic.hpp"

#include <catch2/catch.hpp>

namespace {

using nlohmann::json;

constexpr double kRouter_Bps = 1536000;  // 1,500 replies or 1,000 request+reply pairs per second
constexpr double kRequest_B = 512, kReply_B = 1024;

// An MDS that is never the bottleneck: 64 cores, 256 threads, 1 us demands, no journal.
json free_mds()
{
  return {{"cores", 64},
          {"threads", {{"min", 256}, {"max", 256}}},
          {"service", {{"create", 1e-6}, {"close", 1e-6}, {"stat", 1e-6}}},
          {"journal", {{"enabled", false}}}};
}

// The stat phase's rate of a metabench create+stat run of `files` files over `ranks` ranks on platform `p`.
double stat_phase_rate(const json& p, int ranks, int ranks_per_node, uint64_t files)
{
  auto platform = pfsim::config::parse_platform(p, "test");
  pfsim::SyntheticWorkload workload(pfsim::metabench_params(ranks, files, "unique", {"create", "stat"}));
  pfsim::RunOptions opts;
  opts.ranks_per_node = ranks_per_node;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  auto rec = pfsim::run_simulation(platform, workload, opts);
  const auto& ph = rec.phases.at(1);
  REQUIRE(ph.op_count[pfsim::Op::Stat] == files);
  return files / (ph.end_s - ph.start_s);
}

double stat_rate(const std::string& duplex)
{
  json fast = {{"bandwidth", 1e11}, {"latency", 10e-6}};
  json p = {
      {"name", "duplex-test"},
      {"network",
       {{"model", "CM02"},
        {"duplex", duplex},
        {"client_link", fast},
        {"server_link", fast},
        {"routers", {{"count", 1}, {"link", {{"bandwidth", kRouter_Bps}, {"latency", 1e-6}}}}}}},
      {"clients",
       {{"ranks_per_node", 1},
        {"max_rpcs_in_flight", 2},  // one rank per node: one RPC in flight anyway
        {"max_mod_rpcs_in_flight", 1},
        {"rpc_overhead", 100e-6},
        {"request_size", kRequest_B},
        {"reply_size", kReply_B}}},
      {"mds", free_mds()},
  };
  return stat_phase_rate(p, 256, 1, 20000);
}

}  // namespace

TEST_CASE("full-duplex links: replies alone fill the reply direction, X = B / reply", "[network]")
{
  const double x = stat_rate("full");
  INFO("stat rate " << x << "/s, B / reply " << kRouter_Bps / kReply_B << "/s");
  // 256 ranks keep the link busy except at the phase's ends (~1%); a link shared by both directions gives -33%.
  CHECK(x <= kRouter_Bps / kReply_B * (1 + 1e-9));
  CHECK(x == Approx(kRouter_Bps / kReply_B).epsilon(0.02));
}

TEST_CASE("half-duplex links: requests and replies share one bandwidth, X = B / (request + reply)", "[network]")
{
  const double x = stat_rate("half");
  INFO("stat rate " << x << "/s, B / (request + reply) " << kRouter_Bps / (kRequest_B + kReply_B) << "/s");
  CHECK(x <= kRouter_Bps / (kRequest_B + kReply_B) * (1 + 1e-9));
  CHECK(x == Approx(kRouter_Bps / (kRequest_B + kReply_B)).epsilon(0.02));
}

TEST_CASE("a client node receives its ranks' replies side by side: X = ranks / round trip", "[network]")
{
  // 8 ranks on one node, 8 RPCs in flight, 10 us client link, 1 us stat, nothing else costs: X = 8 / 21 us =
  // 381k/s. A node that took its replies one transfer at a time was capped at 1 / 10 us = 100k/s.
  json link0 = {{"bandwidth", 1e15}, {"latency", 0.0}};
  json p = {
      {"name", "receive-test"},
      {"network", {{"client_link", {{"bandwidth", 1e15}, {"latency", 10e-6}}}, {"server_link", link0}}},
      {"clients",
       {{"ranks_per_node", 8}, {"max_rpcs_in_flight", 8}, {"rpc_overhead", 0.0}, {"request_size", 1}, {"reply_size", 1}}},
      {"mds", free_mds()},
  };
  const double x = stat_phase_rate(p, 8, 8, 16000);
  INFO("stat rate " << x << "/s, 8 / 21 us " << 8 / 21e-6 << "/s");
  CHECK(x <= 8 / 21e-6 * (1 + 1e-9));
  CHECK(x == Approx(8 / 21e-6).epsilon(0.01));
}

namespace {

// Two ranks on one node: rank 0 reads 4 MiB (four bulk RPCs whose replies take 40 ms on the node's 100 MiB/s
// link), rank 1 stats at 20 ms, while those replies are in transit.
class ReadThenStat final : public pfsim::Workload {
public:
  int ranks() const override { return 2; }
  int phase_count() const override { return 1; }
  std::string phase_name(int) const override { return "mixed"; }
  uint64_t phase_items(int) const override { return 2; }
  bool next(int rank, int, pfsim::RankCursor& cursor, pfsim::OpRequest& out) const override
  {
    if (cursor.item++ > 0)
      return false;
    out = pfsim::OpRequest{};
    if (rank == 0) {
      out.op = pfsim::Op::Read;
      out.bytes = 4 * 1048576.0;
      out.object = 1;
    } else {
      out.op = pfsim::Op::Stat;
      out.think_s = 20e-3;
    }
    out.metadata = rank == 1;
    return true;
  }
  json describe() const override { return {{"generator", "read-then-stat"}}; }
};

}  // namespace

TEST_CASE("a small reply is received when its own transfer ends, not behind a bulk reply sent before it",
          "[network]")
{
  // The stat's round trip: 10 us each way on the client link, 1 us at the MDS; its 1-byte messages share the
  // link with the bulk replies and lose nothing measurable. Received in send order, it ended with the last
  // bulk reply, about 20 ms later.
  json fast = {{"bandwidth", 1e12}, {"latency", 0.0}};
  json p = {
      {"name", "reply-order-test"},
      {"network", {{"model", "CM02"}, {"client_link", {{"bandwidth", 100 * 1048576.0}, {"latency", 10e-6}}},
                   {"server_link", fast}}},
      {"clients",
       {{"ranks_per_node", 2}, {"max_rpcs_in_flight", 8}, {"rpc_overhead", 0.0}, {"request_size", 1},
        {"reply_size", 1}}},
      {"mds", free_mds()},
      {"oss", {{"count", 1}, {"threads", 32}, {"rpc_service", 0.0}, {"disk_read", 1e12}, {"disk_write", 1e12}}},
  };
  auto platform = pfsim::config::parse_platform(p, "test");
  ReadThenStat workload;
  pfsim::RunOptions opts;
  opts.ranks_per_node = 2;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  auto rec = pfsim::run_simulation(platform, workload, opts);
  const auto& ph = rec.phases.at(0);
  REQUIRE(ph.latencies_by_op[pfsim::Op::Stat].size() == 1);
  REQUIRE(ph.latencies_by_op[pfsim::Op::Read].size() == 1);
  const double stat_s = ph.latencies_by_op[pfsim::Op::Stat][0];
  const double read_s = ph.latencies_by_op[pfsim::Op::Read][0];
  INFO("stat " << stat_s * 1e6 << " us, read " << read_s * 1e3 << " ms");
  CHECK(read_s == Approx(4 * 1048576.0 / (100 * 1048576.0)).epsilon(0.01));
  CHECK(stat_s == Approx(21e-6).margin(1e-6));
}
