// CephFS's synchronous shared-file writes (clients.shared_file_writes) and the object servers' per-object order
// (oss.object_serial_*) and parallel latency (oss.parallel_*_latency), against closed forms. One simulation per
// TEST_CASE.
#include "config/platform_config.hpp"
#include "model/simulation.hpp"
#include "workload/ior.hpp"
#include "test_util.hpp"

#include <catch2/catch.hpp>

namespace {

using pfsim::test::read_B;
using pfsim::test::written_B;

using nlohmann::json;
constexpr double kMiB = 1048576;
constexpr double kDisk_Bps = 100 * kMiB;

// One OST of 100 MiB/s, fast links, one rank per node, no client or server CPU time.
json platform(double dirty_mb, const std::string& shared_file_writes)
{
  json p = pfsim::test::data_path_platform("sync-writes-test", 1, kDisk_Bps, 8, dirty_mb, 1);
  p["clients"]["shared_file_writes"] = shared_file_writes;
  return p;
}

// IOR -w: `ranks` ranks (one per node), `segments` transfers of `transfer` bytes each, one shared file or -F.
pfsim::RunRecords run(const json& p, int ranks, uint64_t transfer, uint64_t segments, bool file_per_proc,
                      int repetitions = 1, bool keep = true, bool write = true, bool read = false,
                      int ranks_per_node = 0, uint64_t block = 0)
{
  pfsim::IorOptions o;
  o.repetitions = repetitions;
  o.ranks = ranks;
  o.transfer_B = transfer;
  o.block_B = block > 0 ? block : transfer;
  o.segments = segments;
  o.file_per_proc = file_per_proc;
  o.keep_file = keep;  // (-k: the cached pages are written after the phase, not dropped with the file)
  o.write = write;
  o.read = read;
  pfsim::IorWorkload w(o);
  pfsim::RunOptions opts;
  opts.ranks_per_node = ranks_per_node;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  return pfsim::run_simulation(pfsim::config::parse_platform(p, "test"), w, opts);
}

double write_phase_s(const pfsim::RunRecords& r) { return r.phases.at(0).end_s - r.phases.at(0).start_s; }
double read_phase_s(const pfsim::RunRecords& r) { return r.phases.back().end_s - r.phases.back().start_s; }

// Write-through, disks too fast to matter, and 1 ms of the oss timing `field` per data RPC.
json one_ms(const char* field)
{
  json p = platform(0, "cached");
  p["oss"][field] = 1e-3;
  p["oss"]["disk_write"] = 1e12;
  p["oss"]["disk_read"] = 1e12;
  return p;
}

}  // namespace

// Two nodes write alternate 64 KiB pieces of one file: with "sync" each write waits for its RPC, so the two ranks
// keep the OST busy and the phase lasts the bytes over its bandwidth (8 MiB at 100 MiB/s = 80 ms); with "cached"
// (next test) the same writes are copies into a 64 MiB cache and the phase is over at once.
TEST_CASE("clients.shared_file_writes sync: a file written from two nodes is written synchronously (the OST's bound)",
          "[syncwrites]")
{
  const auto r = run(platform(64, "sync"), 2, 65536, 64, false);
  CHECK(written_B(r) == 8 * kMiB);
  CHECK(write_phase_s(r) == Approx(8 * kMiB / kDisk_Bps).epsilon(0.03));
}

TEST_CASE("clients.shared_file_writes cached: the same shared file's writes go into the write-back cache",
          "[syncwrites]")
{
  const auto r = run(platform(64, "cached"), 2, 65536, 64, false);
  CHECK(written_B(r) == 8 * kMiB);  // (written back after the phase)
  CHECK(write_phase_s(r) < 0.01 * 8 * kMiB / kDisk_Bps);
}

// Each node writes its own file (-F): one writer per file, so "sync" leaves the cache to it.
TEST_CASE("clients.shared_file_writes sync: a file only one node writes keeps its write-back cache", "[syncwrites]")
{
  const auto r = run(platform(64, "sync"), 2, 65536, 64, true);
  CHECK(written_B(r) == 8 * kMiB);
  CHECK(write_phase_s(r) < 0.01 * 8 * kMiB / kDisk_Bps);
}

// Four nodes write 4 KiB pieces of one 1 MiB stripe, write-through: with 1 ms of object_serial_write the OST serves
// that object's 256 RPCs one at a time (256 ms, the disk's 40 us per piece inside each hold); the same writes to four
// files (four objects) overlap, 64 x 1 ms each.
TEST_CASE("oss.object_serial_write: one object's RPCs are served one at a time", "[syncwrites]")
{
  const auto r = run(one_ms("object_serial_write"), 4, 4096, 64, false);
  CHECK(written_B(r) == 1 * kMiB);
  CHECK(write_phase_s(r) == Approx(256 * 1e-3).epsilon(0.03));
}

TEST_CASE("oss.object_serial_write: different objects' RPCs overlap", "[syncwrites]")
{
  const auto r = run(one_ms("object_serial_write"), 4, 4096, 64, true);
  CHECK(written_B(r) == 1 * kMiB);
  CHECK(write_phase_s(r) == Approx(64 * 1e-3).epsilon(0.03));
}

// The parallel latency holds neither the object nor the disk: the four writers of one object each wait 1 ms per
// write, together (64 ms), not in turn (256 ms); Little's law: 4 RPCs in flight / 1 ms = 4,000 RPCs/s.
TEST_CASE("oss.parallel_write_latency: RPCs of one object wait their latency together", "[syncwrites]")
{
  const auto r = run(one_ms("parallel_write_latency"), 4, 4096, 64, false);
  CHECK(write_phase_s(r) == Approx(64 * 1e-3).epsilon(0.03));
}

// A 96 KiB write over 64 KiB stripes covers two of them: of one segment of 4 ranks, ranks 0 and 1 both write stripe 1
// and ranks 2 and 3 stripe 4, so with 1 ms per RPC each pair takes turns and the segment takes 2 ms (helper-96: ordered
// on its first stripe only, the four went at once, 1 ms). (Over several segments the ranks then write staggered by
// one segment, where no two share a stripe.)
TEST_CASE("oss.object_serial_write: an RPC over several stripes waits for each of them", "[syncwrites]")
{
  json p = one_ms("object_serial_write");
  p["oss"]["stripe_size"] = 65536;
  const auto r = run(p, 4, 98304, 1, false);
  CHECK(written_B(r) == 4 * 98304.0);
  CHECK(write_phase_s(r) == Approx(2e-3).epsilon(0.03));
}

// IOR -i 2 without -k removes the file after each repetition, and the next one creates it again: it starts with no
// writers, so its first node caches its pieces as in repetition 1 (helper-96: the second repetition was synchronous
// from its first write). 4 ranks, one per node, 64 KiB writes of 4 MiB blocks, 1 ms per write RPC at the OST; the
// other ranks' opens take 1 ms, so rank 0 (IOR's creator) has copied its 64 pieces into its cache (copies take no
// time) before any other node writes: it is done within its open and create, where a synchronous rank needs 64 ms.
TEST_CASE("clients.shared_file_writes sync: a file created again starts without writers", "[syncwrites]")
{
  json p = platform(64, "sync");
  p["oss"]["disk_write"] = 1e12;
  p["oss"]["object_serial_write"] = 1e-3;
  p["clients"]["op_overhead"] = {{"open", 1e-3}};
  pfsim::IorOptions o;
  o.ranks = 4;
  o.transfer_B = 65536;
  o.block_B = 4 * 1048576;
  o.write = true;
  o.read = false;
  o.repetitions = 2;
  pfsim::IorWorkload w(o);
  pfsim::RunOptions opts;
  opts.rank_times = true;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  const auto r = pfsim::run_simulation(pfsim::config::parse_platform(p, "test"), w, opts);
  REQUIRE(r.phases.size() == 2);
  for (const auto& ph : r.phases) {
    REQUIRE(ph.rank_end_s.size() == 4);
    CHECK(ph.rank_end_s[0] - ph.start_s < 5e-3);  // cached, in both repetitions
    for (int k = 1; k < 4; ++k)
      CHECK(ph.rank_end_s[static_cast<size_t>(k)] - ph.start_s > 64e-3);  // synchronous
  }
}

// IOR -w -r of a shared file, 4 ranks on 2 nodes, without -C: each rank reads what it wrote, which a node's page cache
// (1 GiB) serves as copies, unless the file was written synchronously: then its pages were not kept and every read
// goes to the OST, with or without a write-back cache (helper-97: without one, "sync" changed nothing).
TEST_CASE("clients.shared_file_writes sync: a shared file's written pages do not serve reads (write-through too)",
          "[syncwrites]")
{
  json p = platform(0, "sync");
  p["clients"]["max_cached_mb"] = 1024;
  const auto r = run(p, 4, 65536, 16, false, 1, true, true, true, 2);
  CHECK(r.cache_reads == 0);
  CHECK(read_B(r) == 4 * 16 * 65536.0);
}

TEST_CASE("clients.shared_file_writes cached: the same reads are page-cache copies", "[syncwrites]")
{
  json p = platform(0, "cached");
  p["clients"]["max_cached_mb"] = 1024;
  const auto r = run(p, 4, 65536, 16, false, 1, true, true, true, 2);
  CHECK(r.cache_reads == 4 * 16);
}

// Reads (of data written before the run) of one 1 MiB stripe by 4 nodes, 4 KiB each: with 1 ms of object_serial_read
// one at a time (256 ms); with 1 ms of parallel_read_latency together (64 ms).
TEST_CASE("oss.object_serial_read: one object's reads are served one at a time", "[syncwrites]")
{
  const auto r = run(one_ms("object_serial_read"), 4, 4096, 64, false, 1, true, false, true);
  CHECK(read_phase_s(r) == Approx(256 * 1e-3).epsilon(0.03));
}

TEST_CASE("oss.parallel_read_latency: reads of one object wait their latency together", "[syncwrites]")
{
  const auto r = run(one_ms("parallel_read_latency"), 4, 4096, 64, false, 1, true, false, true);
  CHECK(read_phase_s(r) == Approx(64 * 1e-3).epsilon(0.03));
}

// The run's end drops the queued read-ahead RPCs, as a phase's start does: 16 nodes reading 64 MiB blocks of a
// shared file from one OST of 100 MiB/s with 64 MiB of read-ahead; after the phase the OST serves at most the RPCs in
// flight then (16 nodes x 8 x 1 MiB: 1.28 s). helper-98: the OST went on reading queued read-ahead for 1.9 s.
TEST_CASE("read-ahead RPCs still queued when the run ends are not sent", "[syncwrites]")
{
  json p = platform(0, "cached");
  p["clients"]["readahead_mb"] = 64;
  const auto r = run(p, 16, 1048576, 1, false, 1, true, false, true, 0, 64 * 1048576);
  CHECK(read_B(r) >= 16 * 64 * kMiB);
  CHECK(r.end_s - r.phases.back().end_s <= 16 * 8 * kMiB / kDisk_Bps * 1.02);
}
