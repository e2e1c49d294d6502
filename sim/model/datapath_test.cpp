// The data path (clients.max_pages_per_rpc, max_rpcs_in_flight, max_dirty_mb; oss.stripe_*): IOR-like transfers cut
// into bulk RPCs, checked against the pipeline's closed forms. One simulation per TEST_CASE.
#include "config/platform_config.hpp"
#include "model/servers.hpp"
#include "model/simulation.hpp"
#include "test_util.hpp"
#include "workload/io_replay.hpp"
#include "workload/io_trace.hpp"
#include "workload/ior.hpp"
#include "workload/replay.hpp"
#include "workload/synthetic.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <tuple>
#include <utility>

namespace {

using pfsim::test::read_B;
using pfsim::test::written_B;

using nlohmann::json;
constexpr double kMiB = 1048576;
constexpr double kDisk_Bps = 100 * kMiB;  // every OST writes and reads 100 MiB/s

json platform(int osts, int rpcs_in_flight, double dirty_mb, int stripe_count, double link_latency_s = 1e-6,
              double link_Bps = 1e12)
{
  return pfsim::test::data_path_platform("datapath-test", osts, kDisk_Bps, rpcs_in_flight, dirty_mb, stripe_count,
                                         link_latency_s, link_Bps);
}

// ranks_per_node 0: the platform's (1); rank_times: each rank's end in the phase records.
pfsim::RunRecords run(const json& p, pfsim::IorOptions o, int ranks_per_node = 0, bool rank_times = false)
{
  auto platform = pfsim::config::parse_platform(p, "test");
  pfsim::IorWorkload w(o);
  pfsim::RunOptions opts;
  opts.ranks_per_node = ranks_per_node;
  opts.rank_times = rank_times;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  return pfsim::run_simulation(platform, w, opts);
}

pfsim::IorOptions ior(uint64_t transfer, uint64_t block, bool read = false)
{
  pfsim::IorOptions o;
  o.transfer_B = transfer;
  o.block_B = block;
  o.write = !read;
  o.read = read;
  return o;
}

double phase_s(const pfsim::PhaseRecord& p) { return p.end_s - p.start_s; }

const pfsim::ServerRecord& oss(const pfsim::RunRecords& r, int i)
{
  for (const auto& s : r.servers)
    if (s.name == "oss-" + std::to_string(i))
      return s;
  FAIL("no oss-" << i);
  return r.servers.front();
}

// A write-back run's RPCs: `alone` of 64 pages (the pieces that found a slot at once), `full` of 256 pages and no
// other, every byte of `mib` on the OST, at the disk's bandwidth.
void check_write_back_rpcs(const pfsim::RunRecords& r, uint64_t alone, uint64_t full, double mib)
{
  const auto& pages = oss(r, 0).write_rpc_pages;
  CHECK(pages[6] == alone);
  CHECK(pages[8] == full);
  CHECK(std::accumulate(pages.begin(), pages.end(), uint64_t{0}) == alone + full);
  CHECK(oss(r, 0).data_written_B == mib * kMiB);
  CHECK(mib * kMiB / phase_s(r.phases.at(0)) == Approx(kDisk_Bps).epsilon(0.02));
}

// IOR -w -r of 64 MiB per rank in 1 MiB transfers, one rank per node, with a page cache of cache_mb (IOR -C: read_shift).
pfsim::RunRecords cached_ior(int ranks, int repetitions, double cache_mb, int read_shift = 0)
{
  pfsim::IorOptions o = ior(1048576, 64 * 1048576);
  o.ranks = ranks;
  o.read = true;
  o.repetitions = repetitions;
  o.read_shift = read_shift;
  json p = platform(1, 8, 0, 1);
  p["clients"]["max_cached_mb"] = cache_mb;
  return run(p, o);
}

// pfsim mdworkbench (8 ranks, 4 per node, -D 1, offset 1, -I 10, objects of 4 KiB, -R 2) with a page cache that
// holds everything: which of the benchmark's reads the node that wrote the object serves.
pfsim::RunRecords cached_mdworkbench(int precreate, const std::string& placement, double cache_mb = 1024)
{
  // -I 10 -P precreate -D 1 -R 2 -S 4096 --offset 1
  const pfsim::MdWorkbenchParams mp{8, 10, precreate, 1, 2, 4096, 1};
  auto trace = std::make_shared<const pfsim::trace::Trace>(pfsim::mdworkbench_trace(mp));
  pfsim::ReplayOptions ro;
  ro.ranks = 8;
  pfsim::ReplayWorkload w(trace, ro);
  json p = platform(2, 8, 0, 1);
  p["clients"]["max_cached_mb"] = cache_mb;
  p["clients"]["placement"] = placement;
  p["mds"]["service"].update({{"stat", 1e-6}, {"unlink", 1e-6}, {"mkdir", 1e-6}, {"rmdir", 1e-6}});
  auto platform = pfsim::config::parse_platform(p, "test");
  pfsim::RunOptions opts;
  opts.ranks_per_node = 4;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  return pfsim::run_simulation(platform, w, opts);
}

}  // namespace

TEST_CASE("write-through, 8 RPCs in flight: one client streams at the OST's bandwidth / RPCs of 256 pages", "[datapath]")
{
  // 64 MiB in 4 MiB write() calls, each cut into 4 RPCs of 1 MiB; with 8 in flight the disk never idles but between
  // two write() calls (the next one starts when the last RPC of this one is answered: 4 RPCs queue behind each other).
  auto r = run(platform(1, 8, 0, 1), ior(4 * 1048576, 64 * 1048576));
  const auto& ph = r.phases.at(0);
  const double rate = 64 * kMiB / phase_s(ph);
  INFO("write rate " << rate / kMiB << " MiB/s");
  CHECK(rate <= kDisk_Bps * (1 + 1e-9));
  CHECK(rate == Approx(kDisk_Bps).epsilon(0.01));
  const auto& s = oss(r, 0);
  CHECK(s.data_written_B == 64 * kMiB);
  CHECK(s.write_rpc_pages[8] == 64);  // bin 8: 129-256 pages
  CHECK(std::accumulate(s.write_rpc_pages.begin(), s.write_rpc_pages.end(), uint64_t{0}) == 64);
}

TEST_CASE("write-through, 2 RPCs in flight over a long path: the latency bound W x R / RTT", "[datapath]")
{
  // 1 ms per link and direction (RTT 4 ms: client link and server link, both ways); the disk takes 10 ms per MiB.
  // Each 2 MiB write(): both RPCs leave together, the second waits for the first at the disk, and the next write()
  // starts when both are answered: RTT + 2 x 10 ms per write, 2 MiB / 24 ms = 83.3 MiB/s instead of the disk's 100.
  // The phase also holds the open and the close, one round trip each (1 us of MDS service).
  auto r = run(platform(1, 2, 0, 1, 1e-3), ior(2 * 1048576, 32 * 1048576));
  const auto& ph = r.phases.at(0);
  const double per_write = 0.004 + 2 * kMiB / kDisk_Bps;
  const double expected = 32 * kMiB / (16 * per_write + 2 * (0.004 + 1e-6));
  const double rate = 32 * kMiB / phase_s(ph);
  INFO("write rate " << rate / kMiB << " MiB/s, closed form " << expected / kMiB);
  CHECK(rate == Approx(expected).epsilon(0.01));
}

TEST_CASE("write-back cache: the write phase ends when the last max_dirty_mb are cached / an fsync waits for them",
          "[datapath]")
{
  // 128 MiB at 100 MiB/s with a 32 MiB cache: write() returns once its pages are cached, so the phase ends when the
  // last 32 MiB enter the cache, (128 - 32) / 100 s after the start; with -e the close waits for the disk: 1.28 s.
  // (-k: IOR keeps the file, so the cache drains at the run's end; without it the file is removed and the last
  // 24 MiB still queued are dropped.)
  pfsim::IorOptions o = ior(4 * 1048576, 128 * 1048576);
  o.keep_file = true;
  auto r = run(platform(1, 8, 32, 1), o);
  const double t = phase_s(r.phases.at(0));
  INFO("write phase " << t << " s");
  CHECK(t == Approx(96 * kMiB / kDisk_Bps).epsilon(0.01));
  CHECK(oss(r, 0).data_written_B == 128 * kMiB);  // the cache drained before the run ended
  CHECK(oss(r, 0).write_rpc_pages[8] == 128);
}

TEST_CASE("write-back cache: 256 KiB writes that wait for a slot leave as full RPCs of 256 pages", "[datapath]")
{
  // 64 MiB in 256 KiB writes, 8 RPCs in flight: the first 8 pieces find a slot at once and go alone (64 pages),
  // the rest wait in the cache and leave 4 to an RPC, as the osc builds its RPCs from the dirty pages: 16384 pages
  // = 8 x 64 + 62 x 256. The bandwidth stays the disk's.
  pfsim::IorOptions o = ior(262144, 64 * 1048576);
  o.fsync = true;
  check_write_back_rpcs(run(platform(1, 8, 32, 1), o), 8, 62, 64);
}

TEST_CASE("write-back cache, 4 ranks of one node writing their blocks of one file in 256 KiB: full RPCs, each rank's",
          "[datapath]")
{
  // The ranks' pieces interleave in the node's queue (rank 0's first, rank 1's first, ...); the pieces that wait for a
  // slot still leave as full RPCs of one rank's contiguous pages: 128 MiB = 32768 pages = 8 x 64 (the first 8 pieces,
  // which find a slot at once) + 126 x 256. Merging only the pieces right behind the head gave 392 x 64 + 30 x 256.
  pfsim::IorOptions o = ior(262144, 32 * 1048576);
  o.ranks = 4;
  o.fsync = true;
  json p = platform(1, 8, 32, 1);
  p["clients"]["ranks_per_node"] = 4;
  check_write_back_rpcs(run(p, o), 8, 126, 128);
}

// clients.hold_partial_rpcs: the platform with a write-back cache of dirty_mb that holds partial RPCs back.
json holding(int osts, double dirty_mb, int stripe_count)
{
  json p = platform(osts, 8, dirty_mb, stripe_count);
  p["clients"]["hold_partial_rpcs"] = true;
  return p;
}

// The OSTs' write RPCs by size in pages (bins 1, 2, 4 .. 4096) over all OSSes, and the bytes written.
std::pair<std::array<uint64_t, pfsim::ServerRecord::kPageBins>, double> written(const pfsim::RunRecords& r)
{
  std::array<uint64_t, pfsim::ServerRecord::kPageBins> pages{};
  double bytes = 0;
  for (const auto& s : r.servers) {
    for (size_t i = 0; i < pages.size(); ++i)
      pages[i] += s.write_rpc_pages[i];
    bytes += s.data_written_B;
  }
  return {pages, bytes};
}

TEST_CASE("holding partial RPCs: 64 KiB writes over 4 stripes leave only as RPCs of 256 pages, at the OSTs' rate",
          "[datapath][holdback]")
{
  // 64 MiB in 64 KiB writes over 4 OSTs: each 1 MiB stripe unit goes when its 16 pieces are cached, as one RPC
  // (without holding, the pieces that find a slot go alone: 16 pages, check_write_back_rpcs above). 64 RPCs of 256
  // pages; the fsync waits for the last; 4 OSTs at 100 MiB/s.
  pfsim::IorOptions o = ior(65536, 64 * 1048576);
  o.fsync = true;
  auto r = run(holding(4, 32, 4), o);
  const auto [pages, bytes] = written(r);
  CHECK(pages[8] == 64);
  CHECK(std::accumulate(pages.begin(), pages.end(), uint64_t{0}) == 64);
  CHECK(bytes == 64 * kMiB);
  const double rate = 64 * kMiB / phase_s(r.phases.at(0));
  INFO("write rate " << rate / kMiB << " MiB/s");
  CHECK(rate <= 4 * kDisk_Bps);
  CHECK(rate >= 0.9 * 4 * kDisk_Bps);
}

TEST_CASE("holding partial RPCs: a block's partial tail goes with the fsync, the close waits for it", "[datapath][holdback]")
{
  // 1 MiB + 64 KiB: one full RPC, and a tail of 16 pages that no later write fills: the fsync sends it (not the
  // 30 s dirty_expire). The run ends when the OST has written it: (1 MiB + 64 KiB) / 100 MiB/s plus latencies.
  pfsim::IorOptions o = ior(65536, 1048576 + 65536);
  o.fsync = true;
  auto r = run(holding(1, 32, 1), o);
  const auto [pages, bytes] = written(r);
  CHECK(pages[8] == 1);
  CHECK(pages[4] == 1);
  CHECK(bytes == 1088 * 1024.0);
  const double t = phase_s(r.phases.at(0));
  INFO("write phase " << t << " s, run " << r.end_s << " s");
  CHECK(t >= 1088 * 1024.0 / kDisk_Bps);
  CHECK(t <= 1.05 * 1088 * 1024.0 / kDisk_Bps);
}

TEST_CASE("holding partial RPCs: without an fsync a partial tail is written back after dirty_expire, the rest at the "
          "run's end", "[datapath][holdback]")
{
  // IOR -i 2 -d 5 -k of 1 MiB + 64 KiB, no fsync, dirty_expire 2 s, OST samples of 1 s (sample k holds [k-1, k) s).
  // Repetition 1 writes at 5 s: its full RPC goes at once (sample 6), its 64 KiB tail waits 2 s (sample 8).
  // Repetition 2 writes at about 10 s: its full RPC goes at once and its tail when the run ends, not 2 s later
  // (sample 11 for both; the run ends then).
  pfsim::IorOptions o = ior(65536, 1048576 + 65536);
  o.repetitions = 2;
  o.delay_s = 5;
  o.keep_file = true;  // (-k: without it IOR removes the file after repetition 1, and its tail with it)
  json p = holding(1, 32, 1);
  p["clients"]["dirty_expire"] = "2s";
  p["oss"]["sample_interval"] = "1s";
  auto r = run(p, o);
  const auto& samples = oss(r, 0).samples;
  auto written = [&](uint64_t k) { return samples.count(k) ? samples.at(k).written_B : 0.0; };
  INFO("run " << r.end_s << " s; samples 6, 8, 11: " << written(6) << ", " << written(8) << ", " << written(11));
  CHECK(written(6) == kMiB);
  CHECK(written(8) == 65536);
  CHECK(written(11) == kMiB + 65536);
  CHECK(oss(r, 0).data_written_B == 2 * (kMiB + 65536));
  CHECK(r.end_s < 10.1);
}

TEST_CASE("holding partial RPCs: the ranks of one node fill an RPC together", "[datapath][holdback]")
{
  // 2 ranks of one node write alternate 64 KiB pieces of one file (IOR -b 64k -s 256): every 1 MiB unit is half
  // rank 0's and half rank 1's pieces, in the node's one cache: 32 RPCs of 256 pages. (The copy into the cache takes
  // time, so the two ranks go on side by side; with an instantaneous copy one rank would write all its pieces in one
  // instant and its fsync would send the half units it holds alone.)
  pfsim::IorOptions o = ior(65536, 65536);
  o.ranks = 2;
  o.segments = 256;
  o.fsync = true;
  json p = holding(1, 32, 1);
  p["clients"]["ranks_per_node"] = 2;
  p["clients"]["page_cache_copy"] = "1GBps";
  auto r = run(p, o);
  const auto [pages, bytes] = written(r);
  CHECK(pages[8] == 32);
  CHECK(std::accumulate(pages.begin(), pages.end(), uint64_t{0}) == 32);
  CHECK(bytes == 32 * kMiB);
}

TEST_CASE("holding partial RPCs: pieces that never fill an RPC go when writers wait for the cache", "[datapath][holdback]")
{
  // 2 ranks on 2 nodes write alternate 64 KiB pieces of one file: no node ever holds a full unit. With a 1 MiB cache
  // per OST, the 17th piece waits for space, and the 16 held go as they are (Lustre's cache waiters): 16 pages
  // each, 32 MiB in 512 RPCs, written long before the 30 s dirty_expire.
  pfsim::IorOptions o = ior(65536, 65536);
  o.ranks = 2;
  o.segments = 256;
  o.fsync = true;
  auto r = run(holding(1, 1, 1), o);
  const auto [pages, bytes] = written(r);
  CHECK(pages[4] == 512);
  CHECK(bytes == 32 * kMiB);
  INFO("run " << r.end_s << " s");
  CHECK(r.end_s < 1.0);
  const double rate = 32 * kMiB / phase_s(r.phases.at(0));
  CHECK(rate >= 0.9 * kDisk_Bps);
}

TEST_CASE("write-through, 64 RPCs in flight on a 1000 MiB/s link: the bulk writes cross it one at a time", "[datapath]")
{
  // 4 write() calls of 64 MiB, each cut into 64 RPCs of 1 MiB that all get a slot at once. The node has one
  // connection to the OSS (LNet's peer), so they cross the link in order: the first arrives after 1 MiB / link =
  // 1 ms, and the disk (10 ms per MiB) then never waits for the next. Per write(): 1 ms + 640 ms. Side by side, all
  // 64 arrived together after 64 ms and the disk idled meanwhile (9% slower), and more RPCs in flight gave less.
  const double link_Bps = 1000 * kMiB;
  auto r = run(platform(1, 64, 0, 1, 1e-6, link_Bps), ior(64 * 1048576, 256 * 1048576));
  const double per_write = kMiB / link_Bps + 64 * kMiB / kDisk_Bps;
  const double expected = 256 * kMiB / (4 * per_write);
  const double rate = 256 * kMiB / phase_s(r.phases.at(0));
  INFO("write rate " << rate / kMiB << " MiB/s, closed form " << expected / kMiB);
  CHECK(rate == Approx(expected).epsilon(0.002));
  CHECK(oss(r, 0).data_written_B == 256 * kMiB);
}

TEST_CASE("write-through over a 1 ms path: a node's bulk writes leave back to back, their latencies overlap",
          "[datapath]")
{
  // 1000 MiB/s links, 1 ms per link (2 ms one way), a disk that takes no time, 8 RPCs in flight. The RPCs of a
  // 64 MiB write() leave the node one after the other, each 1 ms of bytes, and a slot frees 5 ms after its RPC left
  // (3 ms to arrive, 2 ms for the reply), before the connection is free again: the link is the bound. Per write():
  // 64 x 1 ms + 2 ms for the last to arrive + 2 ms for its reply. Holding the connection until an RPC arrived gave
  // 3 ms per RPC (a third of the link).
  const double link_Bps = 1000 * kMiB, lat_s = 1e-3;
  json p = platform(1, 8, 0, 1, lat_s, link_Bps);
  p["oss"]["disk_write"] = 1e15;
  auto r = run(p, ior(64 * 1048576, 256 * 1048576));
  const double per_write_s = 64 * kMiB / link_Bps + 4 * lat_s;
  const double open_close_s = 2 * (4 * lat_s + 1e-6);
  const double expected = 256 * kMiB / (4 * per_write_s + open_close_s);
  const double rate = 256 * kMiB / phase_s(r.phases.at(0));
  INFO("write rate " << rate / kMiB << " MiB/s, closed form " << expected / kMiB);
  CHECK(rate == Approx(expected).epsilon(0.01));
}

TEST_CASE("client page cache: IOR reads back what its node wrote from memory, no read RPC", "[datapath][cache]")
{
  // 64 MiB written then read by one rank, max_cached_mb 1024: every read is served by the node's page cache
  // (page_cache_copy 0: instantaneous), so the read phase is its open and close, and the OST reads nothing.
  auto r = cached_ior(1, 1, 1024);
  CHECK(r.cache_reads == 64);
  CHECK(r.cache_read_B == 64 * kMiB);
  CHECK(oss(r, 0).data_read_B == 0);
  CHECK(oss(r, 0).data_written_B == 64 * kMiB);
  CHECK(phase_s(r.phases.at(1)) < 1e-3);  // the write phase took 0.64 s at the disk
}

TEST_CASE("client page cache: more written than it holds is read from the OST", "[datapath][cache]")
{
  // 2 ranks on 2 nodes, each writing 64 MiB; max_cached_mb 32 is less than a node wrote (read back in the order
  // written, LRU keeps nothing of what is read first).
  auto r = cached_ior(2, 1, 32);
  CHECK(r.cache_reads == 0);
  CHECK(oss(r, 0).data_read_B == 128 * kMiB);
}

TEST_CASE("client page cache: each IOR repetition rewrites the file, the cache holds one repetition's pages",
          "[datapath][cache]")
{
  // -i 3 of 64 MiB with a 100 MiB cache: 192 MiB written in all, but each repetition's write replaces the same pages,
  // so every repetition's reads are served from memory.
  auto r = cached_ior(1, 3, 100);
  CHECK(r.cache_reads == 3 * 64);
  CHECK(oss(r, 0).data_read_B == 0);
}

TEST_CASE("client page cache: IOR -C reads the other node's data, from the OST", "[datapath][cache]")
{
  // The same with a cache that holds everything, but -C: rank r reads rank r + 1's block (one rank per node).
  auto r = cached_ior(2, 1, 1024, 1);
  CHECK(r.cache_reads == 0);
  CHECK(oss(r, 0).data_read_B == 128 * kMiB);
}

TEST_CASE("an OST's positioning time per transfer: small reads are bound by 1 / (latency + size / bandwidth)",
          "[datapath]")
{
  // 8 readers on 8 nodes, 4 KiB reads (one RPC each) on one OST with 2 ms per transfer: the OST is the bottleneck and
  // serves 1 / (2 ms + 4 KiB / 100 MiB/s) reads per second (IOPS), far below its bandwidth; 1 MiB reads would lose
  // only 2 / 12 of it.
  pfsim::IorOptions o = ior(4096, 256 * 4096, true);
  o.ranks = 8;
  json p = platform(1, 8, 0, 1);
  p["oss"]["disk_read_latency"] = "2ms";
  auto r = run(p, o);
  const double per_read_s = 2e-3 + 4096 / kDisk_Bps;
  const double iops = 8 * 256 / phase_s(r.phases.at(0));
  INFO("reads/s " << iops << ", closed form " << 1 / per_read_s);
  CHECK(iops <= 1 / per_read_s * (1 + 1e-9));
  CHECK(iops == Approx(1 / per_read_s).epsilon(0.01));
  CHECK(oss(r, 0).data_read_B == 8 * 256 * 4096.0);
}

TEST_CASE("client page cache, md-workbench: a read of an object a rank of the same node wrote is served from memory",
          "[datapath][cache]")
{
  // md-workbench's benchmark iteration i reads object f = 10 i + j of rank r - 1's set. With -P 20 every read object
  // is one the precreate made, written by rank r - 1: on the reader's node unless r is the first rank of its node
  // (block placement, 4 per node: ranks 1-3 and 5-7), so 6 ranks x 10 objects x 2 iterations are served from memory
  // and never reach an OST, which reads the other 40 objects.
  auto r = cached_mdworkbench(20, "block");
  CHECK(r.cache_reads == 120);
  CHECK(r.cache_read_B == 120 * 4096.0);
  CHECK(read_B(r) == (160 - 120) * 4096.0);
}

TEST_CASE("client page cache, md-workbench: an object made in the previous benchmark iteration was written by rank "
          "r - 2", "[datapath][cache]")
{
  // With -P 10, iteration 1 reads objects 10-19, which iteration 0 created as f' + P in rank r - 1's set: written by
  // rank r - 2, on the reader's node for ranks 2, 3, 6, 7 (40 reads). Iteration 0 reads precreated ones (60).
  CHECK(cached_mdworkbench(10, "block").cache_reads == 100);
}

TEST_CASE("client page cache, md-workbench: a precreate larger than the cache is evicted before the benchmark reads "
          "it", "[datapath][cache]")
{
  // -P 1000 of 4 KiB: each node's 4 ranks write 15.6 MiB in the precreate. With a 15 MiB cache LRU has evicted the
  // first objects, which the benchmark reads first, and every later read pushes out the next: no read is served from
  // memory, although the benchmark's own writes (the creates) are fewer than the cache holds. (It was 114 of 120: the
  // count restarted with the benchmark's first write.)
  CHECK(cached_mdworkbench(1000, "block", 15).cache_reads == 0);
}

TEST_CASE("client page cache, md-workbench with the cyclic placement: rank r - 1 is on the other node, r - 2 on the "
          "reader's", "[datapath][cache]")
{
  // Rank r on node r mod 2: with -P 10 iteration 0's reads (rank r - 1's objects) all go to the OSTs, iteration 1's
  // (rank r - 2's) are all served from memory: 8 ranks x 10.
  CHECK(cached_mdworkbench(10, "cyclic").cache_reads == 80);
}

// mdtest -N `stride`, -n 20 -w -e 64 KiB, `ranks` ranks of 4 per node (block placement), with a 1 GiB page cache and
// 1 us metadata services.
pfsim::RunRecords mdtest_stride_run(int ranks, int stride)
{
  pfsim::MdtestOptions o;
  o.ranks = ranks;
  o.items_per_rank = 20;
  o.unique_dir = true;
  o.files_only = true;
  o.write_bytes = o.read_bytes = 65536;
  o.stride = stride;
  pfsim::SyntheticWorkload w(pfsim::mdtest_params(o));
  json p = platform(2, 8, 0, 1);
  p["clients"]["max_cached_mb"] = 1024;
  p["mds"]["service"].update({{"stat", 1e-6}, {"unlink", 1e-6}, {"mkdir", 1e-6}, {"rmdir", 1e-6}});
  auto platform = pfsim::config::parse_platform(p, "test");
  pfsim::RunOptions opts;
  opts.ranks_per_node = 4;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  return pfsim::run_simulation(platform, w, opts);
}

TEST_CASE("client page cache, mdtest -N 1: File read works on rank r + 2's files, half of them on the reader's node",
          "[datapath][cache]")
{
  // 8 ranks, 4 per node (block placement), -n 20 -w -e 64 KiB: rank r reads the files rank r + 2 wrote. Ranks 0, 1, 4
  // and 5 read their own node's (ranks 2, 3, 6, 7), served from memory; ranks 2, 3, 6 and 7 read the other node's.
  auto r = mdtest_stride_run(8, 1);
  CHECK(r.cache_reads == 80);
  CHECK(read_B(r) == 80 * 65536.0);
}

// mdtest -N = ranks per node (4), -n 20 -w -e 64 KiB on `nodes` nodes with a page cache: the File reads served from
// memory. (helper-121: the help said N = ranks per node reads another node's data; the read moves 2N ranks.)
uint64_t mdtest_stride_cache_reads(int nodes) { return mdtest_stride_run(4 * nodes, 4).cache_reads; }

TEST_CASE("client page cache, mdtest -N = ranks per node on 2 nodes: File read (2N) wraps round to the rank's own "
          "files", "[datapath][cache]")
{
  // rank r reads rank (r + 8) mod 8's files, its own: all 8 x 20 from memory
  CHECK(mdtest_stride_cache_reads(2) == 160);
}

TEST_CASE("client page cache, mdtest -N = ranks per node on 3 nodes: File read (2N) reads the node two further",
          "[datapath][cache]")
{
  CHECK(mdtest_stride_cache_reads(3) == 0);
}

TEST_CASE("striped writes of 2 nodes: their connections share each client link and fill it (no RPC pile-up)",
          "[datapath]")
{
  // 2 nodes of 4 ranks, a file each of 8 stripes over 64 OSTs of 100 MiB/s (6,400 MiB/s in all), client and server
  // links of 1,000 MiB/s: the client links bound the write at 2,000 MiB/s. Each node sends on up to 32 connections;
  // their writes take turns on the node's link (ClientNode::reserve_bulk). Each connection pacing itself at the link's
  // whole rate let up to 32 x 8 RPCs cross a node's link side by side, the first reaching its OST long after it could
  // have, and the write ran at 1,587 MiB/s (79%); with turns it runs at 1,924 (96%).
  json p = platform(64, 8, 32, 8, 1e-6, 1000 * kMiB);
  pfsim::IorOptions o = ior(1048576, 64 * 1048576);
  o.ranks = 8;
  o.file_per_proc = true;
  o.fsync = true;
  auto r = run(p, o, 4);
  const double rate = 8 * 64 * kMiB / phase_s(r.phases.at(0));
  INFO("write rate " << rate / kMiB << " MiB/s, client links' bound 2000");
  CHECK(rate <= 2000 * kMiB * (1 + 1e-9));
  CHECK(rate >= 0.93 * 2000 * kMiB);
}

// 16 nodes of one rank behind 2 LNET routers of 1,000 MiB/s, a file each of 8 stripes over 128 OSTs of 100 MiB/s (no
// two files on one OST; with 64, Lustre's round-robin allocator puts file 8 on file 0's OSTs),
// client and server links unlimited, write-through: IOR -w -r -e of 64 MiB per rank in `transfer` bytes. Returns the
// write and read phases' rates.
std::pair<double, double> routed_write_read(uint64_t transfer)
{
  json p = platform(128, 8, 0, 8);
  p["network"]["routers"] = {{"count", 2}, {"link", {{"bandwidth", 1000 * kMiB}, {"latency", 1e-6}}}};
  pfsim::IorOptions o = ior(transfer, 64 * 1048576);
  o.ranks = 16;
  o.read = true;
  o.file_per_proc = true;
  o.fsync = true;
  auto r = run(p, o);
  return {16 * 64 * kMiB / phase_s(r.phases.at(0)), 16 * 64 * kMiB / phase_s(r.phases.at(1))};
}

TEST_CASE("reads of 16 nodes behind 2 routers: the replies take turns on the routers and fill them", "[datapath]")
{
  // 8 MiB transfers: 8 RPCs of 1 MiB per read, on 8 OSTs (800 MiB/s per rank): the routers bound both phases at
  // 2,000 MiB/s. Read replies sent side by side (16 per OSS, before the replies took turns on the links of their
  // route, LinkTurns) crossed each router together and ran at 1,901 MiB/s (95%); they now run at 1,960 (98%), as
  // the writes do.
  const auto [write, read] = routed_write_read(8 * 1048576);
  INFO("write " << write / kMiB << " MiB/s, read " << read / kMiB << " MiB/s, routers' bound 2000");
  CHECK(read <= 2000 * kMiB * (1 + 1e-9));
  CHECK(read >= 0.97 * 2000 * kMiB);
  CHECK(write >= 0.97 * 2000 * kMiB);
}

TEST_CASE("reads of 16 nodes behind 2 routers, one 1 MiB RPC per rank at a time: as fast as the writes", "[datapath]")
{
  // Each rank has one RPC in flight (disk 10 ms, router 1 ms): the same cycle for a write-through write and a read,
  // so the same rate (the writes: 1,379 MiB/s, 64 OSTs before 2026-11-27). Read replies sent side by side ran at 888 MiB/s: a reply reaching
  // a router that already carried others shared it with them and held its rank for longer than its own transfer.
  const auto [write, read] = routed_write_read(1048576);
  INFO("write " << write / kMiB << " MiB/s, read " << read / kMiB << " MiB/s");
  CHECK(read == Approx(write).epsilon(0.02));
}

// One rank reading 64 MiB in 64 KiB transfers from a file striped over 4 OSTs (1 MiB stripes, 100 MiB/s each).
pfsim::RunRecords small_sequential_reads(double readahead_mb)
{
  json p = platform(4, 8, 0, 4);
  p["clients"]["readahead_mb"] = readahead_mb;
  return run(p, ior(65536, 64 * 1048576, true));
}

TEST_CASE("without read-ahead, 64 KiB sequential reads wait one by one: one OST at a time, one RPC each", "[datapath]")
{
  auto r = small_sequential_reads(0);
  const double rate = 64 * kMiB / phase_s(r.phases.at(0));
  INFO("read rate " << rate / kMiB << " MiB/s");
  CHECK(rate <= kDisk_Bps * (1 + 1e-9));
  CHECK(oss(r, 0).read_rpc_pages[4] == 256);  // 16 pages: bin 4
}

TEST_CASE("reads smaller than a page fetch each page once, the next reads find it in the page cache", "[datapath]")
{
  // IOR -r -t 1000 -b 8000, one rank, no read-ahead: Lustre reads through the page cache, whole pages up to the file's
  // end. The first read fetches page 0; the read at 4,000 starts in it and fetches the rest, page 1 up to the file's
  // end (8,000); the 6 others are copies. 2 RPCs, 8,000 bytes from the OST (helper-87: 8 RPCs of 1,000 bytes; with
  // -t 8, one RPC per 8 bytes).
  auto r = run(platform(1, 8, 0, 1), ior(1000, 8000, true));
  CHECK(read_B(r) == 8000.0);
  CHECK(std::accumulate(oss(r, 0).read_rpc_pages.begin(), oss(r, 0).read_rpc_pages.end(), uint64_t{0}) == 2);
  CHECK(r.cache_reads == 6);
  CHECK(r.cache_read_B == 6000.0);
}

// One rank reading (or writing through, no cache) 64 MiB in `transfer` pieces from a file of 4 stripes of 64 KiB on 4
// OSTs (100 MiB/s each, 2 ms positioning per access).
pfsim::RunRecords small_stripes(uint64_t transfer, bool read, double readahead_mb = 0, uint64_t block = 64 * 1048576,
                                double rpc_service_s = 0)
{
  json p = platform(4, 8, 0, 4);
  p["oss"]["rpc_service"] = rpc_service_s;
  p["clients"]["readahead_mb"] = readahead_mb;
  p["oss"]["stripe_size"] = "64KiB";
  p["oss"]["disk_read_latency"] = 0.002;
  p["oss"]["disk_write_latency"] = 0.002;
  return run(p, ior(transfer, block, read));
}

TEST_CASE("64 KiB stripes: a 4 MiB read takes each object's 1 MiB in one RPC of 256 pages, at the pipeline's bound",
          "[datapath]")
{
  // Stripes k and k + 4 are contiguous in their OST's object, and the osc builds a read RPC from an object's pages:
  // each 4 MiB read is 4 RPCs of 1 MiB, one per OST, in parallel: 2 ms + 10 ms per read = 333 MiB/s (cut at the file's
  // stripes: 64 RPCs of 16 pages, 4 x 16 x (2 + 0.625) ms per read = 95 MiB/s).
  auto r = small_stripes(4 * 1048576, true);
  const double rate = 64 * kMiB / phase_s(r.phases.at(0));
  INFO("read rate " << rate / kMiB << " MiB/s");
  CHECK(read_B(r) == 64 * kMiB);
  uint64_t full = 0, all = 0;
  for (int i = 0; i < 4; ++i) {
    full += oss(r, i).read_rpc_pages[8];
    all += std::accumulate(oss(r, i).read_rpc_pages.begin(), oss(r, i).read_rpc_pages.end(), uint64_t{0});
  }
  CHECK(full == 64);
  CHECK(all == 64);
  const double bound = 4 * kMiB / (0.002 + kMiB / kDisk_Bps);
  CHECK(rate <= bound * (1 + 1e-9));
  CHECK(rate >= 0.95 * bound);
}

TEST_CASE("64 KiB stripes: a 1 MiB write-through write is 4 RPCs of 64 pages, one per object", "[datapath]")
{
  // 1 MiB spans each object's 256 KiB once (4 stripes of 64 KiB, contiguous there): 4 RPCs of 64 pages per write,
  // 256 in all; per write 2 ms + 2.5 ms = 222 MiB/s.
  auto r = small_stripes(1048576, false);
  const auto [pages, bytes] = written(r);
  CHECK(pages[6] == 256);
  CHECK(std::accumulate(pages.begin(), pages.end(), uint64_t{0}) == 256);
  CHECK(bytes == 64 * kMiB);
  const double rate = 64 * kMiB / phase_s(r.phases.at(0));
  const double bound = kMiB / (0.002 + 0.25 * kMiB / kDisk_Bps);
  INFO("write rate " << rate / kMiB << " MiB/s, bound " << bound / kMiB);
  CHECK(rate <= bound * (1 + 1e-9));
  CHECK(rate >= 0.95 * bound);
}

TEST_CASE("read-ahead with 64 KiB stripes: RPCs of an object's contiguous stripes, every byte once, near the OSTs' bound",
          "[datapath][readahead]")
{
  // 1 MiB reads of 256 MiB with a 16 MiB window (the node's read-ahead in transit 16 MiB too, the default) over 4
  // stripes of 64 KiB, 50 us of OSS service per RPC: the window's pages are requested per object (stripes k and k + 4
  // follow each other there) up to rows of 4 MiB of the file, which hold one 1 MiB unit of each object, and the
  // window is cut at such a row where the node's read-ahead in transit bounds it: once the window holds 4 MiB, every
  // read-ahead RPC is a whole unit. Bound: 4 OSTs reading 1 MiB per 2 ms + 10 ms = 333 MiB/s (330 here: the first
  // 4 MiB go while the window grows). Read ahead in file offsets, the RPCs were cut at the 64 KiB stripes (2.625 ms
  // each: 95 MiB/s); with windows in object units but not in rows, each read's 1 MiB of window gave every object
  // 256 KiB (64 pages) of its units; cut at any page by the node's bound (helper-89): 286 MiB/s, 233 of 411 RPCs whole.
  auto r = small_stripes(1048576, true, 16, 256 * 1048576, 50e-6);
  const double rate = 256 * kMiB / phase_s(r.phases.at(0));
  double full_B = 0;
  for (int i = 0; i < 4; ++i)
    full_B += static_cast<double>(oss(r, i).read_rpc_pages[8]) * kMiB;
  INFO("read rate " << rate / kMiB << " MiB/s, " << full_B / kMiB << " MiB in RPCs of 256 pages");
  CHECK(read_B(r) == 256 * kMiB);
  CHECK(full_B >= 0.95 * 256 * kMiB);
  const double bound = 4 * kMiB / (0.002 + kMiB / kDisk_Bps);
  CHECK(rate <= bound * (1 + 1e-9));
  CHECK(rate >= 0.97 * bound);
}

TEST_CASE("read-ahead: 64 KiB sequential reads keep the 4 OSTs busy with RPCs of 256 pages, nothing past the file's end",
          "[datapath][readahead]")
{
  // The window is what the stream has read (whole RPCs), up to 64 MiB: after the first 4 MiB every stripe has RPCs in
  // flight, so the rate approaches the 4 OSTs' 400 MiB/s (355: the first MiB is read 64 KiB at a time, one OST
  // at a time, and the window then doubles); the reads themselves wait only for pages in transit.
  auto r = small_sequential_reads(64);
  const double rate = 64 * kMiB / phase_s(r.phases.at(0));
  INFO("read rate " << rate / kMiB << " MiB/s, 4 OSTs' bound 400");
  CHECK(rate <= 4 * kDisk_Bps * (1 + 1e-9));
  CHECK(rate >= 0.85 * 4 * kDisk_Bps);
  CHECK(read_B(r) == 64 * kMiB);  // every page once, none past the end
  // The first MiB goes as 64 KiB RPCs (the window is still under one RPC); then whole RPCs.
  uint64_t full = 0;
  for (int i = 0; i < 4; ++i)
    full += oss(r, i).read_rpc_pages[8];
  CHECK(full >= 60);
}

TEST_CASE("read-ahead over a node: 8 ranks reading their own files share readahead_node_mb, read each byte once, at "
          "the OSTs' rate",
          "[datapath][readahead]")
{
  // 8 ranks on one node, 8 files of 16 MiB, one OST each (8 OSTs): about 1 MiB per rank may be in transit ahead
  // (readahead_node_mb 8 over 8 streams), enough to keep each OST busy while its rank copies; every byte read once.
  json p = platform(8, 8, 0, 1);
  p["clients"]["readahead_mb"] = 4;
  p["clients"]["readahead_node_mb"] = 8;
  pfsim::IorOptions o = ior(262144, 16 * 1048576, true);
  o.ranks = 8;
  o.file_per_proc = true;
  auto r = run(p, o, 8);
  const double rate = 8 * 16 * kMiB / phase_s(r.phases.at(0));
  INFO("read rate " << rate / kMiB << " MiB/s, 8 OSTs' bound 800");
  CHECK(read_B(r) == 8 * 16 * kMiB);
  CHECK(rate <= 8 * kDisk_Bps * (1 + 1e-9));
  CHECK(rate >= 0.85 * 8 * kDisk_Bps);
}

TEST_CASE("read-ahead at the routers' bound: 4 nodes of 8 streams whose windows fill readahead_node_mb",
          "[datapath][readahead]")
{
  // 4 nodes of 8 ranks, each reading its own file of 128 MiB (one stripe, 8 OSTs of 2 GB/s: 4 files each, one per
  // node) in 4 MiB transfers, RPCs of 4 MiB; node n behind LNET router n of 3.125 GB/s: the routers bound the read at
  // 4 x 3.125 GB/s (the disks allow 16 GB/s). readahead_mb 16 and readahead_node_mb 128 = 8 x 16: every stream's
  // window fits the node's budget, as Lustre sizes max_read_ahead_mb: llite's window ends at most
  // max_read_ahead_per_file_mb past the page being read, so a stream's pages in transit, its read's included, are at
  // most its window. When a stream held its read and a whole window (20 MiB, 8 x 20 > 128; before helper-115), the
  // budget, taken first come and kept by the streams that had it (each reply's pages went back to the rank that read
  // them), left some ranks one RPC at a time, their OSTs then the last ones busy while the routers idled: 10,972
  // MiB/s (92% of 11,921); then 11,540 (96.8%). Which streams win the budget first depends on the order the ranks
  // start (docs/configuration.md, readahead: "the outcome of the first-come race moves with small details"): since
  // the MDS queues simultaneous requests least-served rank first (the 32 opens at t = 0 in rank order), 11,286
  // (94.7%). The test holds it above 94%, which the 92% of the old budget rule fails.
  json p = platform(8, 8, 0, 1);
  p["network"]["routers"] = {{"count", 4}, {"link", {{"bandwidth", 3.125e9}, {"latency", 2e-6}}}};
  p["clients"]["max_pages_per_rpc"] = 1024;
  p["clients"]["page_cache_copy"] = 8e9;
  p["clients"]["rpc_overhead"] = 20e-6;
  p["clients"]["readahead_mb"] = 16;
  p["clients"]["readahead_node_mb"] = 128;
  p["oss"]["disk_read"] = 2e9;
  p["oss"]["rpc_service"] = 50e-6;
  pfsim::IorOptions o = ior(4 * 1048576, 128 * 1048576, true);
  o.ranks = 32;
  o.file_per_proc = true;
  auto r = run(p, o, 8, true);
  const auto& ph = r.phases.at(0);
  const double rate = 32 * 128 * kMiB / phase_s(ph);
  const double bound = 4 * 3.125e9;
  const auto [first, last] = std::minmax_element(ph.rank_end_s.begin(), ph.rank_end_s.end());
  INFO("read rate " << rate / kMiB << " MiB/s, routers' bound " << bound / kMiB << "; ranks end between "
                    << *first - ph.start_s << " and " << *last - ph.start_s << " s");
  CHECK(read_B(r) == 32 * 128 * kMiB);
  CHECK(rate <= bound * (1 + 1e-9));
  CHECK(rate >= 0.94 * bound);
}

TEST_CASE("read-ahead of a file larger than its window: every page read once, at the OST's rate", "[datapath][readahead]")
{
  // 64 KiB reads of 64 MiB on one OST with an 8 MiB window: the window's pages stay until read (a bound on the
  // pieces' count dropped pages about to be read, which were then read again: 1.88 x the bytes, slower than without
  // read-ahead, helper-66).
  json p = platform(1, 8, 0, 1);
  p["clients"]["readahead_mb"] = 8;
  auto r = run(p, ior(65536, 64 * 1048576, true));
  const double rate = 64 * kMiB / phase_s(r.phases.at(0));
  INFO("read rate " << rate / kMiB << " MiB/s, read " << read_B(r) / kMiB << " MiB");
  CHECK(read_B(r) == 64 * kMiB);
  CHECK(rate >= 0.95 * kDisk_Bps);
  CHECK(oss(r, 0).read_rpc_pages[8] >= 60);  // whole RPCs (the window ends at an RPC multiple)
}

TEST_CASE("read replies waiting for a congested router do not hold up a node alone on another one", "[datapath]")
{
  // 3 nodes of 8 ranks read 32 MiB each (4 MiB transfers) from one fast OSS behind 2 routers of 1 GB/s: nodes 0 and
  // 2 share router 0, node 1 is alone on router 1, so its 256 MiB need 0.268 s. Replies that waited for their turn
  // in a sender (16 per server) held node 1's replies behind router 0's queue: 0.426 s.
  const double GB = 1e9;
  json p = platform(1, 8, 0, 1);
  p["network"]["routers"] = {{"count", 2}, {"link", {{"bandwidth", GB}, {"latency", 1e-6}}}};
  p["clients"]["osc_max_rpcs_in_flight"] = 32;
  p["oss"]["disk_read"] = 100 * GB;
  pfsim::IorOptions o = ior(4 * 1048576, 32 * 1048576, true);
  o.ranks = 24;
  o.file_per_proc = true;
  auto r = run(p, o, 8, true);
  const auto& ph = r.phases.at(0);
  double node1 = 0;
  for (int k = 8; k < 16; ++k)
    node1 = std::max(node1, ph.rank_end_s.at(static_cast<size_t>(k)) - ph.start_s);
  const double bound = 8 * 32 * kMiB / GB;
  INFO("node 1 done after " << node1 << " s, its router's bound " << bound << " s");
  CHECK(node1 >= bound);
  CHECK(node1 <= 1.03 * bound);
}

TEST_CASE("write-back cache with an fsync (IOR -e): the close waits until the OST has every byte", "[datapath]")
{
  pfsim::IorOptions o = ior(4 * 1048576, 128 * 1048576);
  o.fsync = true;
  auto r = run(platform(1, 8, 32, 1), o);
  const double t = phase_s(r.phases.at(0));
  INFO("write phase " << t << " s");
  CHECK(t == Approx(128 * kMiB / kDisk_Bps).epsilon(0.01));
  CHECK(t >= 128 * kMiB / kDisk_Bps);
}

TEST_CASE("striping over 4 OSTs: each OST gets a quarter of the file and the client writes 4 x faster", "[datapath]")
{
  auto r = run(platform(4, 8, 0, 4), ior(4 * 1048576, 256 * 1048576));
  const double rate = 256 * kMiB / phase_s(r.phases.at(0));
  INFO("write rate " << rate / kMiB << " MiB/s");
  CHECK(rate == Approx(4 * kDisk_Bps).epsilon(0.02));
  for (int i = 0; i < 4; ++i)
    CHECK(oss(r, i).data_written_B == 64 * kMiB);
}

TEST_CASE("reads of 4 MiB: RPCs of 256 pages at the OST's bandwidth", "[datapath]")
{
  auto r = run(platform(1, 8, 0, 1), ior(4 * 1048576, 64 * 1048576, true));
  const double rate = 64 * kMiB / phase_s(r.phases.at(0));
  CHECK(rate == Approx(kDisk_Bps).epsilon(0.01));
  CHECK(oss(r, 0).read_rpc_pages[8] == 64);
}

TEST_CASE("small reads inside one RPC stay one RPC each (4 pages: bin 4)", "[datapath]")
{
  auto small = run(platform(1, 8, 0, 1), ior(16384, 1048576, true));
  CHECK(oss(small, 0).read_rpc_pages[2] == 64);
  CHECK(oss(small, 0).data_read_B == kMiB);
}

TEST_CASE("LMT samples: bytes per 5 s interval add up to the bytes written / an interior sample shows the disk rate",
          "[datapath]")
{
  // 2 GiB at 100 MiB/s: 20.48 s of writing, samples [0,5) [5,10) [10,15) [15,20) [20,25).
  auto r = run(platform(1, 8, 0, 1), ior(4 * 1048576, 2048ULL * 1048576));
  const auto& s = oss(r, 0);
  double sum = 0;
  uint64_t rpcs = 0;
  for (const auto& [k, v] : s.samples) {
    sum += v.written_B;
    rpcs += v.write_rpc_pages[8];
  }
  CHECK(rpcs == 2048);  // every 1 MiB RPC in one interval's 256-page bin
  CHECK(sum == Approx(2048 * kMiB).epsilon(1e-9));
  REQUIRE(s.samples.size() >= 4);
  CHECK(s.samples.at(2).written_B / 5 == Approx(kDisk_Bps).epsilon(0.005));  // [5, 10): fully inside the write
}

TEST_CASE("stragglers: an OST slow all the time at half its bandwidth serves at half of it", "[datapath][stragglers]")
{
  // Slow periods of 1e9 s and normal ones of 1 ms: the stationary draw at time 0 makes the OST slow (probability
  // 1 - 1e-18), at a factor of exactly 0.5. The write-through stream then runs at 50 MiB/s.
  json p = platform(1, 8, 0, 1);
  p["oss"]["stragglers"] = {{"enabled", true},
                            {"mean_normal", 1e-3},
                            {"mean_slow", 1e9},
                            {"slow_bandwidth_min", 0.5},
                            {"slow_bandwidth_max", 0.5}};
  auto r = run(p, ior(4 * 1048576, 64 * 1048576));
  const double rate = 64 * kMiB / phase_s(r.phases.at(0));
  CHECK(rate == Approx(0.5 * kDisk_Bps).epsilon(0.01));
  CHECK(oss(r, 0).straggler_slow_s == Approx(r.end_s));
}

// 64 OSTs with this straggler block over two phases 4,000 s apart (about 8,000 s): the sum of their slow shares of the
// run, their slow periods, and the run's end.
static std::tuple<double, uint64_t, double> stragglers_over_64_osts(const json& stragglers)
{
  json p = platform(64, 8, 0, 1);
  p["oss"]["stragglers"] = stragglers;
  pfsim::IorOptions o = ior(1048576, 1048576);
  o.repetitions = 2;
  o.delay_s = 4000;
  auto r = run(p, o);
  double slow = 0;
  uint64_t periods = 0;
  for (int i = 0; i < 64; ++i) {
    slow += oss(r, i).straggler_slow_s / r.end_s;
    periods += oss(r, i).straggler_periods;
  }
  return {slow, periods, r.end_s};
}

TEST_CASE("stragglers: over many OSTs and a long run, the time spent slow is mean_slow / (mean_normal + mean_slow)",
          "[datapath][stragglers]")
{
  // 64 OSTs over 8,000 s with periods of 40 s (slow) and 160 s (normal): 20% slow. Each OST's slow share over 8,000 s
  // is a renewal-reward average of ~40 cycles; the mean over 64 OSTs has a standard deviation of about 0.015.
  const auto [slow, periods, end_s] = stragglers_over_64_osts({{"enabled", true}, {"mean_normal", 160.0},
                                                                {"mean_slow", 40.0}});
  INFO("mean slow share " << slow / 64 << ", slow periods " << periods);
  CHECK(end_s > 4000);
  CHECK(slow / 64 == Approx(0.2).margin(0.06));
  // About one slow period per 200 s cycle and OST (-d 4000 before each of the 2 phases: about 8,000 s):
  // 64 x 8000 / 200 = 2560.
  CHECK(periods == Approx(64 * end_s / 200).epsilon(0.15));
}

TEST_CASE("stragglers: Erlang-7 normal periods keep the mean, so the slow share and the cycles per OST stay",
          "[datapath][stragglers]")
{
  // normal_shape 7: a normal period is 7 phases of 160 / 7 s. The slow share (20%) and the slow periods per OST (one
  // per 200 s cycle) are those of the exponential process: a phase mean not divided by 7 would give 7 x longer
  // cycles (a share of 3.4%, 366 periods).
  const auto [slow, periods, end_s] = stragglers_over_64_osts(
      {{"enabled", true}, {"mean_normal", 160.0}, {"normal_shape", 7}, {"mean_slow", 40.0}});
  INFO("mean slow share " << slow / 64 << ", slow periods " << periods);
  CHECK(slow / 64 == Approx(0.2).margin(0.05));
  CHECK(periods == Approx(64 * end_s / 200).epsilon(0.1));
}

TEST_CASE("1 MiB transfers on a file striped over 4 OSTs: each transfer is one RPC to its own stripe's OST",
          "[datapath]")
{
  // Each write() fits in one RPC and one stripe, so it takes the ordinary one-RPC path; it must still go to the OST of
  // its stripe (offset / stripe_size mod 4), not to the file's first OST.
  auto r = run(platform(4, 8, 0, 4), ior(1048576, 64 * 1048576));
  for (int i = 0; i < 4; ++i)
    CHECK(oss(r, i).data_written_B == 16 * kMiB);
}

TEST_CASE("osc_max_rpcs_in_flight 1: one bulk RPC at a time, the OST idles for a round trip between two", "[datapath]")
{
  // 1 ms links (RTT 4 ms) and 10 ms per MiB at the disk: a 4 MiB write() is 4 RPCs one after another, 14 ms each.
  json p = platform(1, 2, 0, 1, 1e-3);
  p["clients"]["osc_max_rpcs_in_flight"] = 1;
  auto r = run(p, ior(4 * 1048576, 32 * 1048576));
  const double expected = 32 * (0.004 + kMiB / kDisk_Bps) + 2 * (0.004 + 1e-6);
  CHECK(phase_s(r.phases.at(0)) == Approx(expected).epsilon(0.01));
}

TEST_CASE("holding partial RPCs: a repetition that rewrites held pages sends them once", "[datapath][holdback]")
{
  // IOR -i 2 -k of 512 KiB in 64 KiB writes, no fsync: repetition 1's 8 pieces wait in their half-full unit, and
  // repetition 2 dirties the same pages again (the same offsets and lengths; -k: the file is kept). The unit stays
  // half full; when the run ends its pages go once, as one RPC of 128 pages: 512 KiB reach the OST, not 1 MiB in two
  // overlapping RPCs.
  pfsim::IorOptions o = ior(65536, 524288);
  o.repetitions = 2;
  o.keep_file = true;
  auto r = run(holding(1, 32, 1), o);
  const auto [pages, bytes] = written(r);
  CHECK(pages[7] == 1);
  CHECK(std::accumulate(pages.begin(), pages.end(), uint64_t{0}) == 1);
  CHECK(bytes == 524288);
}

// mdtest -F -u with -w (and -e) 64 KiB files on `ranks` nodes of one rank, holding partial RPCs (2 OSTs, 32 MiB of
// cache), metadata in a microsecond: the data path's part of a small-file workload.
pfsim::RunRecords run_mdtest_holding(int ranks, uint64_t files, bool read, int stride)
{
  pfsim::MdtestOptions o;
  o.ranks = ranks;
  o.items_per_rank = files;
  o.unique_dir = true;
  o.files_only = true;
  o.write_bytes = 65536;
  o.read_bytes = read ? 65536 : 0;
  o.stride = stride;
  pfsim::SyntheticWorkload w(pfsim::mdtest_params(o));
  json p = holding(2, 32, 1);
  p["mds"]["service"].update({{"stat", 1e-6}, {"unlink", 1e-6}, {"mkdir", 1e-6}, {"rmdir", 1e-6}});
  auto platform = pfsim::config::parse_platform(p, "test");
  pfsim::RunOptions opts;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  return pfsim::run_simulation(platform, w, opts);
}

TEST_CASE("holding partial RPCs: an unlinked file's held pages are dropped, never written", "[datapath][holdback]")
{
  // mdtest -F -n 20 -w 65536, one rank: each file's 16 pages are a partial RPC that waits in the cache (no fsync, the
  // 30 s dirty_expire far away). The remove phase unlinks them, and the client drops their pages as Lustre's does when
  // the destroyed object's extent locks are cancelled with LDLM_FL_DISCARD_DATA: the OSTs write nothing. Without the
  // unlink they went at the run's end (1.25 MiB).
  auto r = run_mdtest_holding(1, 20, false, 0);
  const auto [pages, bytes] = written(r);
  CHECK(bytes == 0);
  CHECK(std::accumulate(pages.begin(), pages.end(), uint64_t{0}) == 0);
  CHECK(r.discarded_pieces == 20);
  CHECK(r.discarded_B == 20 * 65536.0);
  INFO("run " << r.end_s << " s");
  CHECK(r.end_s < 1.0);
}

// IOR -w -e of `block` bytes in `transfer` writes, one rank, over 4 OSTs striped in `stripe` (holding partial RPCs):
// the write RPCs, every one of 256 pages, and the bytes.
pfsim::RunRecords striped_write(uint64_t transfer, uint64_t block, const char* stripe, uint64_t rpcs)
{
  pfsim::IorOptions o = ior(transfer, block);
  o.fsync = true;
  json p = holding(4, 32, 4);
  p["oss"]["stripe_size"] = stripe;
  auto r = run(p, o);
  const auto [pages, bytes] = written(r);
  CHECK(pages[8] == rpcs);
  CHECK(std::accumulate(pages.begin(), pages.end(), uint64_t{0}) == rpcs);
  CHECK(bytes == static_cast<double>(block));
  return r;
}

TEST_CASE("holding partial RPCs: 64 KiB stripes: an OST's stripes follow each other in its object and fill RPCs of "
          "256 pages", "[datapath][holdback]")
{
  // 64 MiB in 1 MiB writes over 4 OSTs with stripes of 64 KiB: each write is cut into 16 pieces of 64 KiB, 4 per OST.
  // Stripes k and k + 4 are contiguous in their OST's object, so the osc's RPCs, built from an object's dirty pages,
  // are 256 pages: 16 MiB per object = 16 RPCs, 64 in all (helper-78: cut in file offsets, 1,024 RPCs of 16 pages).
  // 4 OSTs at 100 MiB/s: within 10% of 400 MiB/s.
  auto r = striped_write(1048576, 64 * 1048576, "64KiB", 64);
  const double rate = 64 * kMiB / phase_s(r.phases.at(0));
  INFO("write rate " << rate / kMiB << " MiB/s");
  CHECK(rate <= 4 * kDisk_Bps);
  CHECK(rate >= 0.9 * 4 * kDisk_Bps);
}

TEST_CASE("holding partial RPCs: a read of pages the node holds dirty is a copy from its page cache", "[datapath][holdback]")
{
  // IOR -w -r of 100 KiB in 4 KiB transfers, no fsync, no clean page cache (max_cached_mb 0): the 25 pieces wait in
  // their partial unit, and the 25 reads find them in memory (dirty pages are cached pages): no read RPC; the OST gets
  // the 100 KiB once, at the run's end (-k: IOR keeps the file). (helper-78, -81: the reads went to an OST that had
  // not received the data.)
  pfsim::IorOptions o = ior(4096, 102400);
  o.read = true;
  o.keep_file = true;
  auto r = run(holding(1, 32, 1), o);
  CHECK(r.cache_reads == 25);
  CHECK(r.cache_read_B == 102400.0);
  CHECK(read_B(r) == 0);
  CHECK(oss(r, 0).data_written_B == 102400.0);
}

TEST_CASE("holding partial RPCs: 192 KiB stripes, not a divisor of the RPC size: pieces are cut at the object's RPC "
          "bounds and fill RPCs of 256 pages", "[datapath][holdback]")
{
  // 48 MiB in 768 KiB writes over 4 OSTs with stripes of 192 KiB (12 MiB per object = 12 RPCs of 1 MiB, 48 in all).
  // An OST's 1 MiB object units begin inside stripes (at object offsets 1 MiB, 2 MiB, ...), so the pieces are cut
  // there too; cut at file multiples of 1 MiB alone, a piece straddled two units and left the next one unable to fill
  // (helper-80: 24 RPCs of 64 pages besides 48 of 256).
  striped_write(786432, 48 * 1048576, "192KiB", 48);
}

TEST_CASE("holding partial RPCs: a file another node unlinks has its held pages dropped there too", "[datapath][holdback]")
{
  // mdtest -F -n 10 -w 65536 -N 1, 4 ranks on 4 nodes: rank r removes rank r + 3's files (mdtest's rm_name), written on
  // another node. The OST's destroy cancels every node's extent locks with LDLM_FL_DISCARD_DATA: the writer nodes drop
  // their held pages when they would go (here at the run's end), so no byte is written and all 40 pieces are counted.
  auto r = run_mdtest_holding(4, 10, false, 1);
  const auto [pages, bytes] = written(r);
  CHECK(bytes == 0);
  CHECK(r.discarded_pieces == 40);
  CHECK(r.discarded_B == 40 * 65536.0);
}

TEST_CASE("holding partial RPCs: a read of another node's held pages waits for their write-back (lock callback)",
          "[datapath][holdback]")
{
  // mdtest -F -n 10 -w 65536 -e 65536 -N 1, 4 ranks on 4 nodes: rank r reads rank r + 2's files, held on another node.
  // The read's lock makes that node write them back first (FlushAsk / FlushDone), so the OSTs write every file before
  // they read it: 40 x 64 KiB written and read, nothing from a page cache; the removals (rank r + 3's files, already
  // written) drop nothing. (helper-82: the OSTs read 2.6 MB they never wrote.)
  auto r = run_mdtest_holding(4, 10, true, 1);
  const auto [pages, bytes] = written(r);
  CHECK(bytes == 40 * 65536.0);
  CHECK(read_B(r) == 40 * 65536.0);
  CHECK(r.cache_reads == 0);
  CHECK(r.discarded_pieces == 0);
}

// A DXT recording of file 7 on two ranks, each rank's rows (" X_POSIX <rank> write|read ...") in its block, replayed on
// two nodes of a holding platform (1 OST of 100 MiB/s).
pfsim::RunRecords replay_dxt_on(const json& p, const std::vector<std::string>& rows0,
                                const std::vector<std::string>& rows1);

pfsim::RunRecords replay_dxt(const std::vector<std::string>& rows0, const std::vector<std::string>& rows1)
{
  return replay_dxt_on(holding(1, 32, 1), rows0, rows1);
}

// The same on platform `p`.
pfsim::RunRecords replay_dxt_on(const json& p, const std::vector<std::string>& rows0,
                                const std::vector<std::string>& rows1)
{
  const pfsim::test::TempDir dir;
  const std::string path = dir.str() + "/t.dxt.txt";
  {
    std::ofstream f(path);
    f << "# darshan log version: 3.41\n# exe: test\n# nprocs: 2\n# run time: 2.0\n";
    for (int rank = 0; rank < 2; ++rank) {
      const auto& rows = rank == 0 ? rows0 : rows1;
      const auto writes = std::count_if(rows.begin(), rows.end(),
                                        [](const std::string& x) { return x.find(" write ") != std::string::npos; });
      f << "\n# DXT, file_id: 7, file_name: /scratch/shared\n# DXT, rank: " << rank << ", hostname: h" << rank
        << "\n# DXT, number of threads: 1\n# DXT, write_count: " << writes << ", read_count: " << rows.size() - writes
        << "\n# DXT, mnt_pt: /, fs_type: lustre\n";
      for (const auto& x : rows)
        f << x << "\n";
    }
  }
  auto trace = std::make_shared<const pfsim::iotrace::IoTrace>(pfsim::iotrace::load_dxt(path));
  pfsim::IoReplayWorkload w(trace, 2);
  auto platform = pfsim::config::parse_platform(p, "test");
  pfsim::RunOptions opts;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  return pfsim::run_simulation(platform, w, opts);
}

TEST_CASE("holding partial RPCs: a read waits only for the pages dirty when it asked, not for those written since",
          "[datapath][holdback]")
{
  // Rank 0 writes 4 KiB at 1 ms and 4 KiB more every 5 ms after (200 writes, 1 s), rank 1 (another node) reads the
  // first 4 KiB at 2 ms. The read asks rank 0's node to write back its dirty pages of the file and waits for those
  // only: it ends within milliseconds. (helper-83: it waited until the file had no dirty page at all, which the
  // writer's later pieces, held back, delayed to dirty_expire: 30 s.)
  std::vector<std::string> writes;
  for (int i = 0; i < 200; ++i)
    writes.push_back(" X_POSIX 0 write " + std::to_string(i) + " " + std::to_string(4096 * i) + " 4096 " +
                     std::to_string(0.001 + 0.005 * i) + " " + std::to_string(0.0011 + 0.005 * i));
  auto r = replay_dxt(writes, {" X_POSIX 1 read 0 0 4096 0.0020 0.0021"});
  INFO("run " << r.end_s << " s");
  CHECK(r.end_s < 2.0);
}

TEST_CASE("holding partial RPCs: a read waits for its own node's and its writer's node's dirty pages together",
          "[datapath][holdback]")
{
  // Rank 1 writes 1020 KiB at offset 0 at 1 ms (a partial RPC, held); rank 0 writes 4 KiB at 8 MiB at 1 ms (held on
  // its own node) and reads 4 KiB at offset 0 at 30 ms. The read waits for both write-backs: its writer's 1020 KiB
  // reach the 100 MiB/s disk first, at least 9.96 ms. (helper-84: the wait for its own node's page came first, and
  // the read then went without asking the writer's node: 87 us.)
  auto r = replay_dxt({" X_POSIX 0 write 0 8388608 4096 0.0010 0.0011", " X_POSIX 0 read 0 0 4096 0.0300 0.0301"},
                      {" X_POSIX 1 write 0 0 1044480 0.0010 0.0011"});
  const auto& reads = r.phases.at(0).latencies_by_op[pfsim::Op::Read];
  REQUIRE(reads.size() == 1);
  INFO("read " << reads[0] << " s");
  CHECK(reads[0] >= 1044480.0 / kDisk_Bps);
  CHECK(oss(r, 0).data_written_B == 1044480.0 + 4096.0);
}

TEST_CASE("holding partial RPCs: overlapping writes of one node's held pages reach the OST once, the rest counted "
          "as rewritten",
          "[datapath][holdback]")
{
  // Rank 0 writes 100,000 B at 1,000,000, then 100,000 B at 1,020,000 and 60,000 B at 1,000,000, all held (partial
  // units of 1 MiB): pages already dirty take the later bytes, so the OST gets the union, 120,000 B, and the other
  // 140,000 B are counted as rewritten (helper-87: the overlap inside the first unit was written twice, and the one
  // in the second unit was counted nowhere: 148,576 B written of 200,000, the rest in no counter).
  auto r = replay_dxt({" X_POSIX 0 write 0 1000000 100000 0.0010 0.0011", " X_POSIX 0 write 1 1020000 100000 0.0030 "
                       "0.0031", " X_POSIX 0 write 2 1000000 60000 0.0050 0.0051"},
                      {});
  CHECK(oss(r, 0).data_written_B == 120000.0);
  CHECK(r.rewritten_B == 140000.0);
  CHECK(r.discarded_B == 0);
}

TEST_CASE("a rank's pages read before another node's write of the file are read again after it", "[datapath][holdback]")
{
  // Rank 1 (node 1) writes page 0 at 1 ms and again at 200 ms; rank 0 (node 0) reads 100 B of it at 100 ms, which
  // fetches the page, and 100 B more at 300 ms. The second write's lock revokes rank 0's read lock and its pages: the
  // second read fetches the page again, after node 1's write-back (helper-89: its pages read before served it, stale).
  auto r = replay_dxt({" X_POSIX 0 read 0 0 100 0.1000 0.1001", " X_POSIX 0 read 1 100 100 0.3000 0.3001"},
                      {" X_POSIX 1 write 0 0 4096 0.0010 0.0011", " X_POSIX 1 write 1 0 4096 0.2000 0.2001"});
  CHECK(r.cache_reads == 0);
  CHECK(read_B(r) == 2 * 4096.0);
}

TEST_CASE("a read just before the pages a rank's last read fetched fetches only the pages before them", "[datapath]")
{
  // Rank 0 reads 100 B at 8,200 (the file ends at 8,300: page 2 holds 108 B), then 100 B at 8,100: the second read
  // fetches page 1 only, page 2 being in the page cache: 108 + 4,096 B from the OST (helper-89: page 2 again too).
  auto r = replay_dxt({" X_POSIX 0 read 0 8200 100 0.1000 0.1001", " X_POSIX 0 read 1 8100 100 0.2000 0.2001"}, {});
  CHECK(read_B(r) == 108.0 + 4096.0);
  CHECK(r.cache_reads == 0);
}

TEST_CASE("a read of 0 bytes inside the pages a rank fetched moves nothing and ends", "[datapath]")
{
  // Rank 0 reads 8 KiB at 0, then 0 bytes at 100 (DXT records the bytes a read returned). (helper-92: the empty read
  // moved its fetch past the pages it held and underflowed into an RPC of 1.8e19 bytes that never ended.)
  auto r = replay_dxt({" X_POSIX 0 read 0 0 8192 0.1000 0.1001", " X_POSIX 0 read 1 100 0 0.1020 0.1020"}, {});
  CHECK(read_B(r) == 8192.0);
  CHECK(r.end_s < 1.0);
}

TEST_CASE("pages read ahead before another node's write of the file are read again after it", "[datapath][readahead]")
{
  // Rank 0 reads the first 4 MiB of an 8 MiB file in 1 MiB reads (the read-ahead requests up to 8 MiB), then
  // 512 KiB at 7.5 MiB; rank 1 (another node, write-through) writes [6, 7) MiB at 1 s; rank 0 reads [6, 7) MiB at
  // 5 s: the write revoked the pages read ahead there, so they are read again: 9 MiB from the OST in all (helper-92:
  // 8 MiB, the read served from pages older than the write).
  json p = platform(1, 8, 0, 1);
  p["clients"]["readahead_mb"] = 8;
  auto r = replay_dxt_on(p,
                         {" X_POSIX 0 read 0 0 1048576 0.1000 0.1100", " X_POSIX 0 read 1 1048576 1048576 0.2000 0.2100",
                          " X_POSIX 0 read 2 2097152 1048576 0.3000 0.3100", " X_POSIX 0 read 3 3145728 1048576 0.4000 "
                          "0.4100", " X_POSIX 0 read 4 7864320 524288 0.5000 0.5100", " X_POSIX 0 read 5 6291456 "
                          "1048576 5.0000 5.0100"},
                         {" X_POSIX 1 write 0 6291456 1048576 1.0000 1.0100"});
  INFO("read from the OST " << read_B(r) / kMiB << " MiB");
  CHECK(read_B(r) == 9 * kMiB);
}

TEST_CASE("holding partial RPCs: IOR without -k removes its file between repetitions, with the pages still cached",
          "[datapath][holdback]")
{
  // IOR -i 2 of 512 KiB in 64 KiB writes, no fsync, no -k: IOR removes the file after repetition 1, whose 8 pieces
  // still wait in their half-full unit: they are dropped. It removes it after repetition 2 too, at the run's end: the
  // OST gets nothing. (helper-85: the model kept every repetition's file, so a repetition found the previous one's
  // pages; until 2026-11-27 the last repetition's pages were written at the run's end.)
  pfsim::IorOptions o = ior(65536, 524288);
  o.repetitions = 2;
  auto r = run(holding(1, 32, 1), o);
  const auto [pages, bytes] = written(r);
  CHECK(bytes == 0);
  CHECK(r.discarded_B == 2 * 524288);
}

TEST_CASE("holding partial RPCs: IOR -k rewrites its file: the second repetition's pieces replace the first's held ones",
          "[datapath][holdback]")
{
  // The same with -k: the file stays, repetition 2 rewrites the 8 pieces still held, and the 512 KiB reach the OST
  // once, at the run's end; the first repetition's are counted as rewritten.
  pfsim::IorOptions o = ior(65536, 524288);
  o.repetitions = 2;
  o.keep_file = true;
  auto r = run(holding(1, 32, 1), o);
  CHECK(written(r).second == 524288);
  CHECK(r.discarded_B == 0);
  CHECK(r.rewritten_B == 524288);
}

TEST_CASE("write-back cache without holding: IOR without -k drops the removed file's queued pages", "[datapath]")
{
  // IOR -i 2 of 16 MiB in 1 MiB writes, no fsync, 32 MiB of cache, 8 RPCs in flight to one 100 MiB/s OST: repetition
  // 1's writes return once copied, most of its RPCs still wait for a slot when repetition 2 starts; IOR has removed the
  // file, so those pages are dropped (the 8 in flight are written). Bytes: written + dropped = 32 MiB, some dropped.
  // (helper-86: without holding partial RPCs nothing was dropped, as with -k.)
  pfsim::IorOptions o = ior(1048576, 16 * 1048576);
  o.repetitions = 2;
  auto r = run(platform(1, 8, 32, 1), o);
  const auto [pages, bytes] = written(r);
  INFO("written " << bytes << ", dropped " << r.discarded_B);
  CHECK(r.discarded_B > 0);
  CHECK(bytes + r.discarded_B == 32 * kMiB);
}

// A node's dirty pages serve its reads whether they are held, queued for an RPC or in one: 2 ranks on 2 nodes read
// back their 16 MiB, written as whole 1 MiB RPCs into one OST of 100 MiB/s, most of them still queued or in flight
// when the reads start; only held pieces counted before, and these reads waited for the write-back and went to the
// OST (helper-98's round).
TEST_CASE("a node's dirty pages queued for or in an RPC serve its reads as held ones do", "[datapath]")
{
  json p = platform(1, 8, 64, 1);
  p["clients"]["hold_partial_rpcs"] = true;
  pfsim::IorOptions o = ior(1048576, 1048576);
  o.ranks = 2;
  o.segments = 16;
  o.read = true;
  o.keep_file = true;
  const auto r = run(p, o);
  CHECK(r.cache_reads == 2 * 16);
  CHECK(read_B(r) == 0);
  CHECK(oss(r, 0).data_written_B == 32 * kMiB);  // (and every byte written once)
}

// A node's read of pages it wrote and has already written back, while another part of the file is still dirty in its
// cache: the read goes to the OST without flushing the node's other dirty pages (its read matches the node's own
// extent lock, Lustre), and a later read of the dirty part is a copy. 1 rank, IOR -t 512k -b 1536k -w -r -d 1 -k, OST
// disk of d_Bps, copies at 1 GiB/s: the write's first two pieces fill a 1 MiB RPC and are written back during the 1 s
// delay, the third waits, held, in its partial RPC (dirty_expire 30 s). The read phase reads 1 MiB from the OST and
// copies 512 KiB: 1 MiB / d + 512 KiB / 1 GiB/s, faster with a faster disk. (helper-108: the first read released the
// held piece and waited for its write-back, and the third read then fetched it from the OST: 2 MiB / d, 1.5 MiB read
// from the OST, no copy.)
void check_read_back_around_dirty_pages(double d_Bps)
{
  constexpr double kCopy_Bps = 1024 * kMiB;
  json p = holding(1, 32, 1);
  p["clients"]["page_cache_copy"] = kCopy_Bps;
  p["oss"]["disk_write"] = d_Bps;
  p["oss"]["disk_read"] = d_Bps;
  pfsim::IorOptions o = ior(524288, 1572864);
  o.read = true;
  o.delay_s = 1;
  o.keep_file = true;  // (the held piece is written at the run's end, not dropped with the file)
  const auto r = run(p, o);
  const double read_s = phase_s(r.phases.at(1));
  const double expected_s = kMiB / d_Bps + 0.5 * kMiB / kCopy_Bps;
  INFO("disk " << d_Bps / kMiB << " MiB/s: read phase " << read_s * 1e3 << " ms, expected " << expected_s * 1e3
               << " ms; OST read " << read_B(r) / kMiB << " MiB, copies " << r.cache_read_B / kMiB << " MiB");
  CHECK(read_B(r) == kMiB);
  CHECK(r.cache_reads == 1);
  CHECK(r.cache_read_B == 0.5 * kMiB);
  CHECK(read_s == Approx(expected_s).epsilon(0.01));
  CHECK(oss(r, 0).data_written_B == 1.5 * kMiB);  // (the held piece at the run's end)
}

TEST_CASE("a read of pages written back flushes none of the node's other dirty pages (100 MiB/s disk)", "[datapath][holdback]")
{
  check_read_back_around_dirty_pages(100 * kMiB);
}

TEST_CASE("a read of pages written back flushes none of the node's other dirty pages (400 MiB/s disk)", "[datapath][holdback]")
{
  check_read_back_around_dirty_pages(400 * kMiB);
}

// The same with read-ahead: 1 rank, IOR -t 512k -b 3584k -w -r -d 1 -k, 2 MiB of read-ahead: the write's three full
// 1 MiB RPCs are written back during the delay, its last piece, [3, 3.5) MiB, waits held. The read phase's stream
// reads ahead up to that dirty piece and not into it (the OST would read bytes it has not been written), and the read
// of it is a copy: 3 MiB from the OST, the 3.5 MiB written once. (Before helper-108 the first read flushed it: the
// OST read 3.5 MiB, after the write-back.)
TEST_CASE("read-ahead stops at the node's dirty pages", "[datapath][holdback][readahead]")
{
  json p = holding(1, 32, 1);
  p["clients"]["page_cache_copy"] = 1024 * kMiB;
  p["clients"]["readahead_mb"] = 2;
  pfsim::IorOptions o = ior(524288, 3670016);
  o.read = true;
  o.delay_s = 1;
  o.keep_file = true;
  const auto r = run(p, o);
  INFO("OST read " << read_B(r) / kMiB << " MiB, copies " << r.cache_reads << " of " << r.cache_read_B / kMiB
                   << " MiB");
  CHECK(read_B(r) == 3 * kMiB);
  CHECK(r.cache_reads >= 1);
  CHECK(oss(r, 0).data_written_B == 3.5 * kMiB);
}

TEST_CASE("an OSS queue's same-instant arrivals: least-served rank first, then node and rank, after earlier ones",
          "[datapath]")
{
  // queue_arrival with the OSS's key (Request::data_seq), no simulation: RPCs arriving at one instant in the order
  // the node actors ran (node 2's first) take their places by (the rank's data RPCs, node, rank); one that arrived
  // earlier keeps its place ahead of them; a rank's own RPCs keep their order (equal keys).
  std::vector<pfsim::Request> rq(6);
  auto make = [&rq](size_t i, double at, uint64_t seq, uint32_t node, uint32_t rank) {
    rq[i].arrived_s = at;
    rq[i].data_seq = seq;
    rq[i].node = node;
    rq[i].local_rank = rank;
    return &rq[i];
  };
  std::deque<pfsim::Request*> q;
  const auto key = [](const pfsim::Request* r) { return r->data_seq; };
  pfsim::queue_arrival(q, make(0, 0.5, 9, 3, 0), key);  // earlier: stays first
  pfsim::queue_arrival(q, make(1, 1.0, 5, 2, 0), key);
  pfsim::queue_arrival(q, make(2, 1.0, 4, 2, 1), key);
  pfsim::queue_arrival(q, make(3, 1.0, 4, 0, 0), key);
  pfsim::queue_arrival(q, make(4, 1.0, 5, 1, 0), key);
  pfsim::queue_arrival(q, make(5, 1.0, 4, 0, 0), key);  // node 0 rank 0 again, same key: after its first
  std::vector<size_t> order;
  for (const auto* r : q)
    order.push_back(static_cast<size_t>(r - rq.data()));
  CHECK(order == std::vector<size_t>{0, 3, 5, 2, 4, 1});
}

TEST_CASE("deterministic ties at an OSS queue: simultaneous RPCs queue least-served rank first", "[datapath][closed]")
{
  // The OSS counterpart of the MDS's tie test (queueing_test.cpp): 25 one-rank nodes, write-through, one RPC each in
  // flight, of 4 KiB to one OST whose 16 threads spend S = 400 us on each (oss.rpc_service; a disk of 1e12 B/s). Every
  // round 16 replies and 16 new RPCs meet 9 queued ones at the same instants. Least-served first, every rank waits its
  // turn: the ranks end within a round or two of each other and the phase runs at c / S but for its first and last
  // rounds. (The node actors' run order, before, passed it too here; the order itself is the test above.)
  const int N = 25;
  const int c = 16;
  const double S = 400e-6;
  json p = pfsim::test::data_path_platform("oss-ties", 1, 1e12, 1, 0, 1);
  p["oss"]["threads"] = c;
  p["oss"]["rpc_service"] = S;
  pfsim::IorOptions o = ior(4096, 960 * 4096);  // 960 RPCs a rank, 0.6 s saturated
  o.ranks = N;
  o.file_per_proc = true;
  auto r = run(p, o, 0, true);
  const auto& ph = r.phases.at(0);
  const double x = 960.0 * N / phase_s(ph);
  const auto [first, last] = std::minmax_element(ph.rank_end_s.begin(), ph.rank_end_s.end());
  INFO("X " << x << " RPCs/s, c/S " << c / S << "/s; ranks end between " << *first - ph.start_s << " and "
            << *last - ph.start_s << " s");
  CHECK(x == Approx(c / S).epsilon(0.005));
  CHECK(x <= c / S * (1 + 1e-9));
  CHECK(*last - *first < 2 * S);
}
