// IOR's options that act inside a phase, simulated (one simulation per TEST_CASE): -D's stonewall and its wear-out
// (collectives inside a phase), a read stopped at the write's counts, -Y's synchronous writes, -g's barriers, -u's
// mkdirs, -W's verification read, -z against read-ahead. Closed forms on a tiny platform: OSTs of 100 MiB/s, links of
// 1 us, no service times worth counting.
#include "config/platform_config.hpp"
#include "model/simulation.hpp"
#include "report/ior_report.hpp"
#include "workload/ior.hpp"
#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <numeric>

namespace {

using pfsim::test::read_B;
using pfsim::test::written_B;

using nlohmann::json;
constexpr double kMiB = 1048576;
constexpr double kDisk_Bps = 100 * kMiB;

// `osts` OSTs of 100 MiB/s, write-through clients (no write-back cache, no page cache), one rank per node.
json platform(int osts)
{
  json p = pfsim::test::data_path_platform("stonewall-test", osts, kDisk_Bps, 8, 0, 1);
  p["mds"]["service"]["mkdir"] = 1e-6;  // (-u)
  return p;
}

pfsim::IorOptions ior(int ranks, uint64_t transfer, uint64_t block)
{
  pfsim::IorOptions o;
  o.ranks = ranks;
  o.transfer_B = transfer;
  o.block_B = block;
  o.write = true;
  o.read = false;
  return o;
}

pfsim::RunRecords run(const json& p, const pfsim::IorWorkload& w, bool rank_times = false)
{
  auto platform = pfsim::config::parse_platform(p, "test");
  pfsim::RunOptions opts;
  opts.rank_times = rank_times;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  return pfsim::run_simulation(platform, w, opts);
}

double mean(const std::vector<float>& v)
{
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

}  // namespace

TEST_CASE("IOR -D: a rank starts no transfer after the deadline, and the bandwidth is the bytes moved over the time",
          "[stonewall]")
{
  // One rank writing 1 MiB transfers through to a 100 MiB/s OST, each tau = 10 ms (and 4 us of links): IOR checks the
  // deadline after each transfer, so the rank does the first k with k x tau > D: k = floor(D / tau) + 1 = 26 of 64.
  auto o = ior(1, 1048576, 64 * 1048576);
  o.deadline_s = 0.255;
  const pfsim::IorWorkload w(o);
  const auto r = run(platform(1), w);
  const auto& ph = r.phases.at(0);
  const double tau = mean(ph.latencies_by_op[pfsim::Op::Write]);
  const auto k = static_cast<uint64_t>(std::floor(o.deadline_s / tau)) + 1;
  INFO("tau " << tau << " s, " << ph.items << " transfers");
  CHECK(tau == Approx(kMiB / kDisk_Bps).epsilon(0.01));
  CHECK(k == 26);
  CHECK(ph.items == k);
  CHECK(ph.rank_pairs == std::vector<uint64_t>{k});
  CHECK(ph.op_count[pfsim::Op::Write] == k);
  CHECK(ph.op_count[pfsim::Op::Close] == 1);  // the rank closes its file after the deadline
  CHECK(written_B(r) == k * kMiB);
  const auto res = pfsim::ior_results(r, w);
  REQUIRE(res.size() == 1);
  CHECK(res[0].bytes == k * kMiB);
  CHECK(res[0].bw_MiBps == Approx(k / res[0].total_s).epsilon(1e-9));
  CHECK(res[0].total_s == Approx(k * tau).epsilon(0.01));
}

TEST_CASE("IOR -D with a wear-out (and -g): every rank goes on to the transfers of the one that did most",
          "[stonewall]")
{
  // Three ranks, a file each (round robin over 2 OSTs: files 0 and 2 share OST 0, file 1 has OST 1 alone), one
  // transfer at a time: by the deadline rank 1 has done floor(D / 10 ms) + 1 = 26, ranks 0 and 2 about half (20 ms
  // each). IOR's allreduce then sends every rank on to 26: 3 x 26 transfers in all, the line's min about 13.
  auto o = ior(3, 1048576, 64 * 1048576);
  o.file_per_proc = true;
  o.deadline_s = 0.255;
  o.wear_out = true;
  o.barriers = true;
  const pfsim::IorWorkload w(o);
  const auto r = run(platform(2), w, true);
  const auto& ph = r.phases.at(0);
  INFO("pairs at the stonewall " << ph.stonewall_pairs_min << " .. " << ph.stonewall_pairs_max << ", time "
                                 << ph.stonewall_s);
  REQUIRE(ph.wear_out);
  // The allreduce is inside IOR's data loop: rank 1, which had done the most pairs, ends its data time when the
  // others join it (at the stonewall time), not at its last transfer (about 0.26 s).
  REQUIRE(ph.rank_data_first_s.size() == 3);
  CHECK(ph.rank_data_last_s[1] - ph.rank_data_first_s[1] >= ph.stonewall_s - 1e-9);
  CHECK(ph.stonewall_pairs_max == 26);
  CHECK(ph.stonewall_pairs_min >= 12);
  CHECK(ph.stonewall_pairs_min <= 14);
  CHECK(ph.rank_pairs == std::vector<uint64_t>{26, 26, 26});
  CHECK(ph.items == 3 * 26);
  CHECK(written_B(r) == 3 * 26 * kMiB);
  CHECK(ph.stonewall_bytes_sum == Approx((26 + 2 * ph.stonewall_pairs_min) * kMiB).margin(2 * kMiB));
  CHECK(ph.stonewall_s >= o.deadline_s);
  CHECK(ph.stonewall_s < o.deadline_s + 0.03);  // the slowest rank's transfer in progress at the deadline
}

TEST_CASE("IOR read after a stonewalled write: each rank reads as many transfers as it wrote", "[stonewall]")
{
  // The write as above without the wear-out (rank 1: 26 transfers, ranks 0 and 2 about 13); the reads, at 1 GB/s,
  // are not stopped by the deadline but by the write's counts (IOR: stoneWallingWearOutIterations = pairs_accessed).
  auto o = ior(3, 1048576, 64 * 1048576);
  o.file_per_proc = true;
  o.read = true;
  o.deadline_s = 0.255;
  const pfsim::IorWorkload w(o);
  json p = platform(2);
  p["oss"]["disk_read"] = 1e9;
  const auto r = run(p, w);
  const auto& wrote = r.phases.at(0).rank_pairs;
  const auto& read = r.phases.at(1).rank_pairs;
  INFO("wrote " << wrote[0] << ", " << wrote[1] << ", " << wrote[2]);
  CHECK(wrote[1] == 26);
  CHECK(wrote[0] < 20);
  CHECK(read == wrote);
  CHECK(read_B(r) == written_B(r));
  CHECK(r.phases.at(1).end_s - r.phases.at(1).start_s < 0.1);  // well before the deadline
}

TEST_CASE("IOR -Y: with a write-back cache every write still waits for the OST, the disk's bandwidth", "[stonewall]")
{
  // 32 MiB in 1 MiB writes into a 64 MiB cache: without -Y the phase would time copies into the cache; with an fsync
  // after each write it takes 32 x 10 ms.
  auto o = ior(1, 1048576, 32 * 1048576);
  o.fsync_per_write = true;
  o.keep_file = true;
  const pfsim::IorWorkload w(o);
  json p = platform(1);
  p["clients"]["max_dirty_mb"] = 64;
  const auto r = run(p, w);
  const auto& ph = r.phases.at(0);
  const double rate = 32 * kMiB / (ph.end_s - ph.start_s);
  INFO("write rate " << rate / kMiB << " MiB/s");
  CHECK(rate == Approx(kDisk_Bps).epsilon(0.01));
  CHECK(rate <= kDisk_Bps);
  CHECK(ph.data_last_end_s <= ph.end_s);
  CHECK(written_B(r) == 32 * kMiB);
}

TEST_CASE("IOR -g: no rank's first transfer begins before the last open is over, no close before the last transfer",
          "[stonewall]")
{
  // Four ranks open one shared file on an MDS with one thread and 10 ms per open: the opens end at 10, 20, 30 and
  // 40 ms; with IOR's barrier after the open the first transfer begins at 40 ms (without it, at 10 ms).
  auto o = ior(4, 1048576, 4 * 1048576);
  o.barriers = true;
  const pfsim::IorWorkload w(o);
  json p = platform(1);
  p["mds"]["cores"] = 1;
  p["mds"]["threads"] = {{"min", 1}, {"max", 1}};
  p["mds"]["service"]["open"] = 0.01;
  p["mds"]["service"]["create"] = 0.01;
  const auto r = run(p, w);
  const auto& ph = r.phases.at(0);
  INFO("first transfer " << ph.data_first_start_s - ph.start_s << " s after the phase's start");
  CHECK(ph.data_first_start_s - ph.start_s >= 0.04);
  CHECK(ph.data_first_start_s - ph.start_s < 0.041);
  CHECK(ph.op_first_start_s[pfsim::Op::Close] >= ph.data_last_end_s);
}

TEST_CASE("IOR -u -F: the MDS makes each rank's directory before the write, in an untimed phase", "[stonewall]")
{
  auto o = ior(4, 1048576, 4 * 1048576);
  o.file_per_proc = true;
  o.unique_dir = true;
  const pfsim::IorWorkload w(o);
  const auto r = run(platform(1), w);
  REQUIRE(r.phases.size() == 2);
  CHECK(r.phases[0].name == "mkdir");
  CHECK(r.phases[0].op_count[pfsim::Op::Mkdir] == 4);
  CHECK(r.phases[1].name == "write");
  CHECK(r.phases[1].op_count[pfsim::Op::Create] == 4);
  CHECK(r.phases[1].op_count[pfsim::Op::Mkdir] == 0);
  const auto res = pfsim::ior_results(r, w);
  REQUIRE(res.size() == 1);
  CHECK(res[0].phase == 1);
}

TEST_CASE("IOR -W: every written byte read back from the OSTs to verify it, untimed: no result of IOR's", "[stonewall]")
{
  auto o = ior(2, 1048576, 8 * 1048576);
  o.file_per_proc = true;
  o.check_write = true;
  o.check_shift = 1;
  const pfsim::IorWorkload w(o);
  const auto r = run(platform(2), w);
  REQUIRE(r.phases.size() == 2);
  CHECK(r.phases[1].name == "write-check");
  CHECK(written_B(r) == 16 * kMiB);
  CHECK(read_B(r) == 16 * kMiB);
  const auto res = pfsim::ior_results(r, w);
  REQUIRE(res.size() == 1);
  CHECK(res[0].access == "write");
  CHECK(r.end_s > r.phases[0].end_s + 16 * kMiB / (2 * kDisk_Bps) * 0.99);  // the run holds the verification's time
}

// One rank reads 16 MiB in 64 KiB transfers (a 4 MiB read-ahead window): `segments` blocks, in IOR -z's random
// order within each block when `random`.
pfsim::RunRecords readahead_run(int segments, bool random)
{
  auto o = ior(1, 65536, 16 * 1048576 / static_cast<uint64_t>(segments));
  o.segments = segments;
  o.write = false;
  o.read = true;
  o.random_offset = random ? 1 : 0;
  const pfsim::IorWorkload w(o);
  json p = platform(1);
  p["clients"]["readahead_mb"] = 4;
  return run(p, w);
}

TEST_CASE("read-ahead: one rank reading its file in order finds nearly every read's pages read ahead", "[stonewall]")
{
  const auto r = readahead_run(1, false);
  INFO(r.readahead_reads << " of 256 reads found pages read ahead");
  CHECK(r.readahead_reads >= 240);
  CHECK(read_B(r) == 16 * kMiB);
}

TEST_CASE("read-ahead: one rank reading its file in IOR -z's random order finds few reads' pages read ahead",
          "[stonewall]")
{
  // The same reads (each block of 16 transfers in a random order): a read continues the previous one only by chance,
  // so the stream rarely grows a window.
  const auto r = readahead_run(16, true);
  INFO(r.readahead_reads << " of 256 reads found pages read ahead");
  CHECK(r.readahead_reads <= 26);
  CHECK(read_B(r) >= 16 * kMiB);
}
