// OSS placement (oss.placement). One client node with 64 ranks writes 1 MB files (mdtest -F -w) to 8 OSSes whose
// disks take one transfer at a time at B; the network and the MDS never bind. With "object" placement each file's
// write goes to the OSS its identity hashes to, uniformly at random: a closed network of K = 8 disks with N = 64
// writers routed at random, in which a disk is busy N / (N + K - 1) of the time (the product form, exact for
// processor-sharing disks and close for these first-come-first-served ones), so X = K B N / (N + K - 1) = 721 MB/s
// (0.90 of 8 B: 9.9% of the time a disk has no write queued). With "node" placement every write of the node goes to
// one OSS: X = B. One simulation per TEST_CASE.
#include "config/platform_config.hpp"
#include "model/simulation.hpp"
#include "workload/replay.hpp"
#include "workload/synthetic.hpp"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include <catch2/catch.hpp>

namespace {

using nlohmann::json;

constexpr double kDisk_Bps = 100e6, kFile_B = 1e6;
constexpr int kOss = 8, kRanks = 64, kFilesPerRank = 40;

struct Outcome {
  double write_Bps = 0;                 // bytes written / File creation phase time
  std::vector<uint64_t> served_by_oss;  // data RPCs per OSS
};

Outcome run(const std::string& placement, int stripe_count = 1, int oss_count = kOss, double file_B = kFile_B,
            uint64_t seed = 1)
{
  json fast = {{"bandwidth", 1e13}, {"latency", 1e-6}};
  json p = {
      {"name", "placement-test"},
      {"network", {{"client_link", fast}, {"server_link", fast}}},
      {"clients",
       {{"ranks_per_node", kRanks}, {"max_rpcs_in_flight", kRanks}, {"max_mod_rpcs_in_flight", kRanks - 1},
        {"rpc_overhead", 0.0}}},
      {"mds",
       {{"cores", 64},
        {"threads", {{"min", 256}, {"max", 256}}},
        {"service", {{"create", 1e-6}, {"close", 1e-6}, {"stat", 1e-6}, {"open", 1e-6}, {"unlink", 1e-6}, {"mkdir", 1e-6}, {"rmdir", 1e-6}}},
        {"journal", {{"enabled", false}}}}},
      {"oss",
       {{"count", oss_count}, {"threads", 64}, {"rpc_service", 0.0}, {"disk_write", kDisk_Bps}, {"disk_read", kDisk_Bps},
        {"placement", placement}, {"stripe_count", stripe_count}}},
  };
  auto platform = pfsim::config::parse_platform(p, "test");
  pfsim::MdtestOptions o;
  o.ranks = kRanks;
  o.items_per_rank = kFilesPerRank;
  o.unique_dir = true;
  o.files_only = true;
  o.write_bytes = file_B;
  pfsim::SyntheticWorkload workload(pfsim::mdtest_params(o));
  pfsim::RunOptions opts;
  opts.ranks_per_node = kRanks;
  opts.seed = seed;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  auto rec = pfsim::run_simulation(platform, workload, opts);
  Outcome out;
  for (size_t i = 0; i < rec.phases.size(); ++i)
    if (workload.phase_name(static_cast<int>(i)) == "File creation") {
      const auto& ph = rec.phases[i];
      REQUIRE(ph.op_count[pfsim::Op::Write] == uint64_t{kRanks} * kFilesPerRank);
      out.write_Bps = ph.op_count[pfsim::Op::Write] * file_B / (ph.end_s - ph.start_s);
    }
  for (const auto& s : rec.servers)
    if (s.name.rfind("oss-", 0) == 0)
      out.served_by_oss.push_back(s.served);
  REQUIRE(out.served_by_oss.size() == static_cast<size_t>(oss_count));
  return out;
}

// The hash is uniform: 2,560 writes and reads (File read phase, -e 0: no read RPCs) over 8 OSSes, 320 expected,
// binomial sd 16.7: every OSS within 5 sd.
void check_uniform(const Outcome& r)
{
  uint64_t total = 0;
  for (uint64_t n : r.served_by_oss) {
    total += n;
    CHECK(n > 320 - 84);
    CHECK(n < 320 + 84);
  }
  CHECK(total == uint64_t{kRanks} * kFilesPerRank);
}

}  // namespace

TEST_CASE("object placement spreads one node's files over every OSS: X = K B N / (N + K - 1)", "[placement]")
{
  const Outcome r = run("object");
  const double expected = kOss * kDisk_Bps * kRanks / (kRanks + kOss - 1.0);
  INFO("write rate " << r.write_Bps / 1e6 << " MB/s, K B N / (N + K - 1) = " << expected / 1e6 << " MB/s");
  CHECK(r.write_Bps <= kOss * kDisk_Bps * (1 + 1e-9));
  CHECK(r.write_Bps == Approx(expected).epsilon(0.03));
  check_uniform(r);
}

TEST_CASE("object placement with seed 3 is another uniform draw: X = K B N / (N + K - 1)", "[placement]")
{
  // The draw is the seed's (seed 1 is the placement of the test above; scripts/test_ior.py checks that seeds move a
  // run's files to other OSSes): any seed's placement is uniform, so the closed form holds for each.
  const double expected = kOss * kDisk_Bps * kRanks / (kRanks + kOss - 1.0);
  const Outcome r = run("object", 1, kOss, kFile_B, 3);
  INFO("write rate " << r.write_Bps / 1e6 << " MB/s, K B N / (N + K - 1) = " << expected / 1e6 << " MB/s");
  CHECK(r.write_Bps == Approx(expected).epsilon(0.03));
  check_uniform(r);
}

TEST_CASE("node placement sends all of a node's data to one OSS: X = B", "[placement]")
{
  const Outcome r = run("node");
  INFO("write rate " << r.write_Bps / 1e6 << " MB/s, B = " << kDisk_Bps / 1e6 << " MB/s");
  CHECK(r.write_Bps <= kDisk_Bps * (1 + 1e-9));
  CHECK(r.write_Bps == Approx(kDisk_Bps).epsilon(0.02));
  CHECK(r.served_by_oss[0] == uint64_t{kRanks} * kFilesPerRank);
}

TEST_CASE("round_robin placement deals files created together over every OSS: X = K B", "[placement]")
{
  // The 64 ranks create their files in step, and file i of rank r is the job's file 64 i + r: 8 ranks per OSS
  // at every step, so no disk idles (object k mod count, the rule until 2026-11-26, put every rank's file i on
  // OSS i mod 8: X = B).
  const Outcome r = run("round_robin");
  INFO("write rate " << r.write_Bps / 1e6 << " MB/s, K B = " << kOss * kDisk_Bps / 1e6 << " MB/s");
  CHECK(r.write_Bps <= kOss * kDisk_Bps * (1 + 1e-9));
  CHECK(r.write_Bps == Approx(kOss * kDisk_Bps).epsilon(0.02));
  for (uint64_t n : r.served_by_oss)
    CHECK(n == uint64_t{kRanks} * kFilesPerRank / kOss);
}

TEST_CASE("round_robin placement with 4 stripes on 8 OSSes: small files still start on every OSS", "[placement]")
{
  // Files of 1 MB fit in their first 1 MiB stripe. File k's first OST is 4 k mod 8 shifted by one at each wrap of
  // the start index (lod_alloc_rr's offset), so the first OSTs cover all 8 OSSes, 320 files each; without the
  // shift, 4 k mod 8 kept only OSSes 0 and 4 busy: X = 2 B.
  // (320 each, give or take the one file by which lod_alloc_rr's strict "S > count" delays the first wrap)
  const Outcome r = run("round_robin", 4);
  INFO("write rate " << r.write_Bps / 1e6 << " MB/s, K B = " << kOss * kDisk_Bps / 1e6 << " MB/s");
  for (uint64_t n : r.served_by_oss)
    CHECK(std::llabs(static_cast<long long>(n) - int64_t{kRanks} * kFilesPerRank / kOss) <= 1);
  CHECK(r.write_Bps == Approx(kOss * kDisk_Bps).epsilon(0.02));
}

TEST_CASE("round_robin placement with 3 stripes on 7 OSSes: no offset shift (7 mod 3 = 1), every OSS as loaded",
          "[placement]")
{
  // Files of 3 MiB over 3 stripes of 1 MiB: one RPC per stripe. lod_alloc_rr shifts its offset at a wrap only when
  // count mod stripe_count != 1; here file k's stripes are on OSTs 3k, 3k + 1, 3k + 2 mod 7, which cover the 7 OSSes
  // evenly: 2,560 files x 3 stripes = 7,680 RPCs, 1,097 or 1,098 per OSS. With a shift at every wrap (until
  // 2026-11-27, helper-87) 14 files put 7, 7, 4, 7, 7, 4, 6 objects on the 7 OSTs.
  const Outcome r = run("round_robin", 3, 7, 3 * 1048576.0);
  const auto [lo, hi] = std::minmax_element(r.served_by_oss.begin(), r.served_by_oss.end());
  INFO("RPCs per OSS from " << *lo << " to " << *hi);
  CHECK(*lo >= 1097);
  CHECK(*hi <= 1098);
}

TEST_CASE("md-workbench's data sets are dealt over the MDSes: with 2 MDSes and -D 2 the cleanup runs at 2 / S",
          "[placement]")
{
  // 16 ranks delete their 10 objects in each of their 2 data sets, sets interleaved, all ranks in step. Two MDSes of
  // one core, 1 ms per unlink: with rank r's set d on MDS (d x 16 + r) mod 2 half the ranks use each MDS at every
  // step, X = 2 / S. With the set's id r x D + d mod 2 (until 2026-11-26) every rank's set d was on MDS d, and the
  // ranks all used one MDS at a time: X = 1 / S.
  constexpr double S = 1e-3;
  json fast = {{"bandwidth", 1e13}, {"latency", 1e-6}};
  json p = {
      {"name", "mds-placement-test"},
      {"network", {{"client_link", fast}, {"server_link", fast}}},
      {"clients", {{"ranks_per_node", 16}, {"max_rpcs_in_flight", 17}, {"max_mod_rpcs_in_flight", 16},
                   {"rpc_overhead", 0.0}}},
      {"mds",
       {{"count", 2},
        {"cores", 1},
        {"threads", {{"min", 16}, {"max", 16}}},
        {"service", {{"create", 1e-6}, {"close", 1e-6}, {"unlink", S}, {"mkdir", 1e-6}, {"rmdir", 1e-6}}},
        {"journal", {{"enabled", false}}}}},
  };
  auto platform = pfsim::config::parse_platform(p, "test");
  pfsim::MdWorkbenchParams mp;
  mp.ranks = 16;
  mp.obj_per_proc = 0;
  mp.precreate_per_set = 10;
  mp.data_sets = 2;
  mp.iterations = 1;
  mp.object_size_B = 0;
  auto trace = std::make_shared<const pfsim::trace::Trace>(pfsim::mdworkbench_trace(mp));
  pfsim::ReplayOptions ro;
  ro.ranks = 16;
  pfsim::ReplayWorkload w(trace, ro);
  pfsim::RunOptions opts;
  opts.ranks_per_node = 16;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  auto rec = pfsim::run_simulation(platform, w, opts);
  const auto& cleanup = rec.phases.back();
  REQUIRE(cleanup.op_count[pfsim::Op::Unlink] == 320);
  const double x = 320 / (cleanup.end_s - cleanup.start_s);
  INFO("cleanup " << x << " unlinks/s, 2 / S = " << 2 / S);
  CHECK(x <= 2 / S * (1 + 1e-9));
  CHECK(x == Approx(2 / S).epsilon(0.03));
}

TEST_CASE("mdtest without -u: the shared directory is on the first MDS whatever the rank count", "[placement]")
{
  // 3 ranks (odd) create in mdtest's one shared directory with 2 MDSes: every request goes to mds-0, the directory the
  // job creates first (until 2026-11-27 directory `ranks` was on MDS ranks mod 2: mds-1 with an odd rank count).
  json fast = {{"bandwidth", 1e13}, {"latency", 1e-6}};
  json p = {
      {"name", "mds-shared-dir-test"},
      {"network", {{"client_link", fast}, {"server_link", fast}}},
      {"clients", {{"ranks_per_node", 1}, {"max_rpcs_in_flight", 8}, {"max_mod_rpcs_in_flight", 7}}},
      {"mds",
       {{"count", 2},
        {"cores", 1},
        {"threads", {{"min", 4}, {"max", 4}}},
        {"service", {{"create", 1e-5}, {"open", 1e-6}, {"close", 1e-6}, {"stat", 1e-6}, {"unlink", 1e-6}, {"mkdir", 1e-6},
                     {"rmdir", 1e-6}}},
        {"journal", {{"enabled", false}}}}},
  };
  auto platform = pfsim::config::parse_platform(p, "test");
  pfsim::MdtestOptions mo;
  mo.ranks = 3;
  mo.items_per_rank = 10;
  mo.files_only = true;
  pfsim::SyntheticWorkload w(pfsim::mdtest_params(mo));
  pfsim::RunOptions opts;
  opts.ranks_per_node = 1;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  auto rec = pfsim::run_simulation(platform, w, opts);
  uint64_t served[2] = {0, 0};
  for (const auto& s : rec.servers)
    for (int i = 0; i < 2; ++i)
      if (s.name == "mds-" + std::to_string(i))
        served[i] = s.served;
  CHECK(served[0] > 0);
  CHECK(served[1] == 0);
}
