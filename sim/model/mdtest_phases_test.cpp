// mdtest's options that act inside a phase, simulated (one simulation per TEST_CASE): -W's stonewall of the File
// creation and its wear-out (mdtest's allreduce, a collective of the client model), the later phases on the items
// made, -x's count, -Y's sync at the phase's end, -t's barrier before the unique directory. Closed forms on a tiny
// platform: links of 1 us, MDS services of 1 us but for the create's.
#include "config/platform_config.hpp"
#include "model/simulation.hpp"
#include "report/outputs.hpp"
#include "workload/synthetic.hpp"
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

namespace {

using nlohmann::json;
using pfsim::Op;
using pfsim::test::written_B;

constexpr double kCreate_s = 7e-3;  // an MDS create (the close and the rest: microseconds)

// One OST of `disk_Bps`, write-through clients unless `dirty_mb`, `ranks_per_node` ranks per node, `mds` MDSes of one
// core and one thread each (their requests queue), creates of 7 ms.
json platform(int mds, int ranks_per_node = 1, double dirty_mb = 0, double disk_Bps = 100e6)
{
  json p = pfsim::test::data_path_platform("mdtest-phases-test", 1, disk_Bps, 8, dirty_mb, 1);
  p["clients"]["ranks_per_node"] = ranks_per_node;
  p["mds"]["count"] = mds;
  p["mds"]["cores"] = 1;
  p["mds"]["threads"] = {{"min", 1}, {"max", 1}};
  p["mds"]["service"]["create"] = kCreate_s;
  p["mds"]["service"]["stat"] = 1e-6;
  p["mds"]["service"]["mkdir"] = 1e-6;
  p["mds"]["service"]["unlink"] = 1e-6;
  p["mds"]["service"]["rmdir"] = 1e-6;
  p["mds"]["dir_lock"] = {{"enabled", false}};
  return p;
}

pfsim::MdtestOptions mdtest(int ranks, uint64_t n)
{
  pfsim::MdtestOptions o;
  o.ranks = ranks;
  o.items_per_rank = n;
  o.unique_dir = true;
  o.files_only = true;
  o.run_create = true;
  o.run_stat = false;
  o.run_read = false;
  o.run_remove = false;
  return o;
}

pfsim::RunRecords run(const json& p, const pfsim::MdtestOptions& o)
{
  const pfsim::SyntheticWorkload w(pfsim::mdtest_params(o));
  auto platform = pfsim::config::parse_platform(p, "test");
  pfsim::RunOptions opts;
  opts.rank_times = true;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  return pfsim::run_simulation(platform, w, opts);
}

const pfsim::PhaseRecord& phase(const pfsim::RunRecords& r, const std::string& name)
{
  for (const auto& p : r.phases)
    if (p.name == name)
      return p;
  FAIL("no phase " << name);
  throw;
}

double mean(const std::vector<float>& v)
{
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

}  // namespace

TEST_CASE("mdtest -W: one rank makes floor(S / L) + 1 items, L its create's latency, and writes that count",
          "[mdtest]")
{
  // mdtest checks the stonewall after each item (create_remove_items_helper): the rank makes the first k items with
  // k x L > S, k = floor(S / L) + 1 = 143 for S = 1 s and L = 7.01 ms (the create's 7 ms, its close and 4 link
  // crossings), of its 1000; the allreduce then finds 143 the most, and the file gets 143.
  auto o = mdtest(1, 1000);
  o.stonewall_s = 1;
  const auto r = run(platform(1), o);
  const auto& ph = phase(r, "File creation");
  const double L = mean(ph.latencies_by_op[Op::Create]) + mean(ph.latencies_by_op[Op::Close]);
  const auto k = static_cast<uint64_t>(std::floor(o.stonewall_s / L)) + 1;
  INFO("L " << L << " s, " << ph.items << " items, stonewall time " << ph.stonewall_s);
  CHECK(L == Approx(kCreate_s).epsilon(0.01));
  CHECK(k == 143);
  CHECK(ph.items == k);
  CHECK(ph.rank_pairs == std::vector<uint64_t>{k});
  CHECK(ph.op_count[Op::Create] == k);
  CHECK(ph.op_count[Op::Close] == k);
  REQUIRE(ph.wear_out);
  CHECK(ph.stonewall_pairs_min == k);
  CHECK(ph.stonewall_pairs_max == k);
  CHECK(ph.stonewall_pairs_sum == k);
  CHECK(ph.stonewall_s == Approx(k * L).epsilon(1e-3));
  CHECK(ph.end_s - ph.start_s == Approx(k * L).epsilon(1e-3));
  // mdtest's hit: the rank made fewer than its -n
  CHECK(pfsim::mdtest_stonewall_line(ph, o.items_per_rank, 1) ==
        "Continue stonewall hit min: 143 max: 143 avg: 143.0 \n\n");
  CHECK(pfsim::mdtest_status_text(ph.stonewall_pairs_max) == "143");
}

TEST_CASE("mdtest -W with 3 ranks: each goes on to the most items any rank made, and the stat works on as many",
          "[mdtest]")
{
  // -u: rank r's directory on MDS r mod 2, one thread each. Rank 1 has MDS 1 alone and makes floor(1 s / 7 ms) + 1 =
  // 143 items by the stonewall; ranks 0 and 2 share MDS 0 (14 ms an item each) and make about 72. mdtest's allreduce
  // sends every rank on to 143: 429 creates in all, and the stat of the same run (-C -T) stats 143 items per rank.
  auto o = mdtest(3, 1000);
  o.stonewall_s = 1;
  o.run_stat = true;
  const auto r = run(platform(2), o);
  const auto& create = phase(r, "File creation");
  INFO("items at the stonewall " << create.stonewall_pairs_min << " .. " << create.stonewall_pairs_max << ", sum "
                                  << create.stonewall_pairs_sum << ", time " << create.stonewall_s);
  REQUIRE(create.wear_out);
  CHECK(create.stonewall_pairs_max == 143);
  CHECK(create.stonewall_pairs_min >= 70);
  CHECK(create.stonewall_pairs_min <= 73);
  CHECK(create.stonewall_pairs_sum >= 143 + 2 * create.stonewall_pairs_min);
  CHECK(create.stonewall_pairs_sum <= 143 + 2 * create.stonewall_pairs_min + 1);
  CHECK(create.rank_pairs == std::vector<uint64_t>{143, 143, 143});
  CHECK(create.items == 3 * 143);
  CHECK(create.op_count[Op::Create] == 3 * 143);
  CHECK(create.stonewall_s >= 1.0);
  CHECK(create.stonewall_s < 1.0 + 2 * kCreate_s + 1e-3);  // the slower ranks' item in progress at the deadline
  // the wear-out's creates of ranks 0 and 2 (71 more each, 14 ms apart on MDS 0) are in the phase's time
  CHECK(create.end_s - create.start_s > create.stonewall_s + 70 * 2 * kCreate_s);
  // rank 1 waited in the allreduce inside mdtest's create loop: its time before the barrier ends there, not at its
  // last create (1.001 s); the others' at their last create
  CHECK(create.rank_end_s[1] - create.start_s >= create.stonewall_s - 1e-9);
  CHECK(create.rank_end_s[0] - create.start_s > create.stonewall_s + 70 * 2 * kCreate_s);
  const auto& stat = phase(r, "File stat");
  CHECK(stat.op_count[Op::Stat] == 3 * 143);
  CHECK(stat.items == 3 * 143);
  CHECK(stat.rank_pairs == std::vector<uint64_t>{143, 143, 143});
  CHECK(pfsim::mdtest_stonewall_line(create, 1000, 3).rfind("Continue stonewall hit min: ", 0) == 0);
}

TEST_CASE("mdtest -x without -C: the File phases work on the status file's count, not on -n", "[mdtest]")
{
  // A stat and removal run after a stonewalled create of 57 items per rank (its -x file): 4 ranks stat and remove 57
  // items each, the tree goes with the removal.
  auto o = mdtest(4, 1000);
  o.run_create = false;
  o.run_stat = true;
  o.run_remove = true;
  o.file_items = 57;
  const auto r = run(platform(1), o);
  const auto& stat = phase(r, "File stat");
  const auto& removal = phase(r, "File removal");
  CHECK(stat.items == 4 * 57);
  CHECK(stat.op_count[Op::Stat] == 4 * 57);
  CHECK(removal.items == 4 * 57);
  CHECK(removal.op_count[Op::Unlink] == 4 * 57);
  CHECK(phase(r, "Tree removal").op_count[Op::Rmdir] == 4);
}

TEST_CASE("mdtest -Y: the create phase ends when the node's write-back cache is written, held pieces sent at once",
          "[mdtest]")
{
  // 2 ranks on one node create 50 files of 3901 bytes each into a 64 MiB write-back cache that holds partial RPCs
  // (a 3901-byte piece waits for a full RPC, or dirty_expire's 30 s): each write returns at once, and the ranks'
  // creates are over in about 100 x 7 ms on the one MDS thread. The sync (mdtest's phase_end) sends every held piece
  // and waits until the OST, at 1 MB/s, has written 390,100 bytes: the phase takes at least 0.39 s more than the
  // creates, not 30 s.
  auto o = mdtest(2, 50);
  o.write_bytes = 3901;
  o.sync_each_phase = true;
  json p = platform(1, 2, 64, 1e6);
  p["clients"]["hold_partial_rpcs"] = true;
  const auto r = run(p, o);
  const auto& ph = phase(r, "File creation");
  const double bytes = 2 * 50 * 3901.0;
  const double creates_end = std::max(ph.rank_end_s[0], ph.rank_end_s[1]);
  INFO("creates over at " << creates_end - ph.start_s << " s, phase over at " << ph.end_s - ph.start_s << " s");
  CHECK(creates_end - ph.start_s == Approx(100 * kCreate_s).epsilon(0.02));
  CHECK(ph.end_s - creates_end >= bytes / 1e6 - 2 * kCreate_s);
  CHECK(ph.end_s - ph.start_s < 1.5);
  CHECK(written_B(r) == bytes);
  CHECK(r.discarded_B == 0);
}

TEST_CASE("mdtest -t -u: each rank's first create waits at the barrier before its unique directory", "[mdtest]")
{
  // 3 ranks on 3 nodes, links of 2 ms: without -t the ranks start creating when released (mdtest's timer starts after
  // that barrier); with it the phase holds the barrier: the last rank's arrival is told to every node (a message over
  // a client link, the switch and another client link), so no create starts before 2 link latencies.
  auto o = mdtest(3, 5);
  o.time_unique_dir = true;
  json p = platform(3);
  p["network"]["client_link"]["latency"] = 2e-3;
  const auto r = run(p, o);
  const auto& ph = phase(r, "File creation");
  const double wait = ph.op_first_start_s[Op::Create] - ph.start_s;
  INFO("first create " << wait << " s after the phase's start");
  CHECK(wait >= 4e-3);
  CHECK(wait < 10e-3);
  CHECK(ph.op_count[Op::Create] == 15);
  // the tree's mkdirs have no such barrier
  const auto& tree = phase(r, "Tree creation");
  CHECK(tree.op_first_start_s[Op::Mkdir] == tree.start_s);
}
