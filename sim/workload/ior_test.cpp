// IorWorkload's steps without a simulation: the offsets of -z and -z -z, the phases of -u and -W, -g's barriers, -Y's
// synchronous writes, and how a stonewall's stop ends a rank's transfers (IOR 4.1's WriteOrRead and TestIoSys).
#include "workload/ior.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <vector>

namespace {

pfsim::IorOptions ior(int ranks, uint64_t transfer, uint64_t block, uint64_t segments)
{
  pfsim::IorOptions o;
  o.ranks = ranks;
  o.transfer_B = transfer;
  o.block_B = block;
  o.segments = segments;
  return o;
}

// Every step of `rank` in `phase`.
std::vector<pfsim::OpRequest> steps(const pfsim::IorWorkload& w, int rank, int phase, uint64_t stop = 0)
{
  std::vector<pfsim::OpRequest> out;
  pfsim::RankCursor c;
  c.stop = stop;
  pfsim::OpRequest r;
  while (w.next(rank, phase, c, r))
    out.push_back(r);
  return out;
}

std::vector<uint64_t> offsets(const std::vector<pfsim::OpRequest>& s)
{
  std::vector<uint64_t> out;
  for (const auto& r : s)
    if (r.op == pfsim::Op::Write || r.op == pfsim::Op::Read)
      out.push_back(r.offset);
  return out;
}

}  // namespace

TEST_CASE("random_permutation is a bijection of 0..n-1 that depends on its key", "[ior]")
{
  for (uint64_t n : {1ULL, 2ULL, 3ULL, 7ULL, 64ULL, 1000ULL, 4097ULL}) {
    std::vector<uint64_t> seen;
    for (uint64_t i = 0; i < n; ++i)
      seen.push_back(pfsim::random_permutation(i, n, 42));
    std::sort(seen.begin(), seen.end());
    std::vector<uint64_t> all(n);
    for (uint64_t i = 0; i < n; ++i)
      all[i] = i;
    CHECK(seen == all);
  }
  std::vector<uint64_t> a, b;
  for (uint64_t i = 0; i < 1000; ++i) {
    a.push_back(pfsim::random_permutation(i, 1000, 1));
    b.push_back(pfsim::random_permutation(i, 1000, 2));
  }
  CHECK(a != b);
  uint64_t in_place = 0;  // an identity would leave every index where it was
  for (uint64_t i = 0; i < 1000; ++i)
    in_place += a[i] == i;
  CHECK(in_place < 20);
}

TEST_CASE("IOR -z on files per process: each block's transfers once each in a random order, the same in every segment",
          "[ior]")
{
  auto o = ior(2, 4096, 16 * 4096, 3);
  o.file_per_proc = true;
  o.random_offset = 1;
  o.write = true;
  o.read = false;
  const pfsim::IorWorkload w(o);
  for (int rank : {0, 1}) {
    const auto off = offsets(steps(w, rank, 0));
    REQUIRE(off.size() == 48);
    for (uint64_t seg = 0; seg < 3; ++seg) {
      std::vector<uint64_t> block(off.begin() + static_cast<long>(seg * 16), off.begin() + static_cast<long>(seg * 16 + 16));
      std::vector<uint64_t> in_block;
      for (uint64_t x : block)
        in_block.push_back(x - seg * 16 * 4096);
      // the segment's block, every transfer once
      std::vector<uint64_t> sorted = in_block;
      std::sort(sorted.begin(), sorted.end());
      for (uint64_t j = 0; j < 16; ++j)
        CHECK(sorted[j] == j * 4096);
      CHECK(in_block != sorted);  // not in order
      // IOR 4: the same order in every segment
      std::vector<uint64_t> first(off.begin(), off.begin() + 16);
      CHECK(in_block == first);
    }
  }
  // each rank its own order; another seed, another order
  CHECK(offsets(steps(w, 0, 0)) != offsets(steps(w, 1, 0)));
  o.seed = 2;
  CHECK(offsets(steps(pfsim::IorWorkload(o), 0, 0)) != offsets(steps(w, 0, 0)));
}

TEST_CASE("IOR -z on a shared file: every transfer of a segment dealt to one rank, block / transfer each", "[ior]")
{
  auto o = ior(4, 8, 10 * 8, 2);
  o.random_offset = 1;
  o.read = false;
  const pfsim::IorWorkload w(o);
  std::multiset<uint64_t> all;
  for (int rank = 0; rank < 4; ++rank) {
    const auto off = offsets(steps(w, rank, 0));
    CHECK(off.size() == 20);
    for (size_t k = 0; k < off.size(); ++k)
      CHECK(off[k] / (4 * 10 * 8) == k / 10);  // transfer k of a rank is in segment k / 10
    all.insert(off.begin(), off.end());
  }
  REQUIRE(all.size() == 80);
  uint64_t expect = 0;
  for (uint64_t x : all) {  // the file's 80 transfers, each once
    CHECK(x == expect);
    expect += 8;
  }
}

TEST_CASE("IOR -z -z reads one whole block at a random place of the file per segment, in order", "[ior]")
{
  auto o = ior(2, 4096, 4 * 4096, 100);
  o.file_per_proc = true;
  o.random_offset = 2;
  o.write = false;
  const pfsim::IorWorkload w(o);
  const auto off = offsets(steps(w, 1, 0));
  REQUIRE(off.size() == 400);
  std::set<uint64_t> blocks;
  bool in_order = true;
  for (size_t seg = 0; seg < 100; ++seg) {
    const uint64_t start = off[seg * 4];
    CHECK(start % (4 * 4096) == 0);
    CHECK(start < 100 * 4 * 4096);
    for (size_t j = 0; j < 4; ++j)
      CHECK(off[seg * 4 + j] == start + j * 4096);
    in_order = in_order && start == seg * 4 * 4096;
    blocks.insert(start);
  }
  CHECK_FALSE(in_order);
  CHECK(blocks.size() > 50);  // 100 draws of 100 blocks: about 63 distinct
  // a write has no file to draw from in IOR 4.1: refused
  o.write = true;
  CHECK_THROWS_WITH(pfsim::IorWorkload(o), Catch::Contains("-z -z"));
  // -z alone needs blocks of several transfers (IOR's rule)
  auto one = ior(1, 4096, 4096, 10);
  one.random_offset = 1;
  CHECK_THROWS_WITH(pfsim::IorWorkload(one), Catch::Contains("option -z"));
}

TEST_CASE("IOR -u -W -g -Y: a mkdir phase, a write-check phase of another rank's data, barriers, synchronous writes",
          "[ior]")
{
  auto o = ior(4, 1024, 4096, 2);
  o.file_per_proc = true;
  o.unique_dir = true;
  o.check_write = true;
  o.barriers = true;
  o.fsync_per_write = true;
  o.check_shift = 2;
  o.read_shift = 1;
  o.repetitions = 2;
  const pfsim::IorWorkload w(o);
  // repetition 0: mkdir, write, write-check, read; repetition 1: write, write-check, read
  REQUIRE(w.phase_count() == 7);
  CHECK(w.phase_name(0) == "mkdir");
  CHECK(w.phase_name(1) == "write");
  CHECK(w.phase_name(2) == "write-check");
  CHECK(w.phase_name(3) == "read");
  CHECK(w.phase_name(4) == "write");
  CHECK(w.phase_delay_s(0) == 0);
  const auto mk = steps(w, 3, 0);
  REQUIRE(mk.size() == 1);
  CHECK(mk[0].op == pfsim::Op::Mkdir);
  CHECK(mk[0].dir == 0);  // made in the test file's directory, which the ranks share
  CHECK(mk[0].shared_dir);
  const auto wr = steps(w, 3, 1);
  REQUIRE(wr.size() == 1 + 8 + 1);
  CHECK(wr[0].op == pfsim::Op::Create);
  CHECK(wr[0].dir == 4);  // rank 3's own directory
  CHECK_FALSE(wr[0].shared_dir);
  CHECK(wr[1].barrier);  // after the open
  CHECK_FALSE(wr[2].barrier);
  CHECK(wr[9].op == pfsim::Op::Close);
  CHECK(wr[9].barrier);  // before the close
  for (size_t k = 1; k <= 8; ++k)
    CHECK(wr[k].sync);
  const auto check = steps(w, 3, 2);
  CHECK(check[1].op == pfsim::Op::Read);
  CHECK(check[1].object == 1);  // rank (3 + 2) mod 4's file
  CHECK(check[1].written_by == 1);
  CHECK(check[1].written_phase == 1);
  CHECK_FALSE(check[1].barrier);  // (IOR's verification has no -g barriers)
  const auto rd = steps(w, 3, 3);
  CHECK(rd[1].object == 0);  // rank (3 + 1) mod 4's
  CHECK(rd[1].barrier);
  CHECK(steps(w, 0, 5)[1].written_phase == 4);  // repetition 1 reads what its own write wrote
}

TEST_CASE("IOR stonewall: a rank's stop ends its transfers, and a read after a stonewalled write stops at its count",
          "[ior]")
{
  auto o = ior(2, 8, 80, 3);
  o.deadline_s = 1;
  const pfsim::IorWorkload w(o);
  const auto s = steps(w, 0, 0, 7);
  REQUIRE(s.size() == 1 + 7 + 1);
  CHECK(s.back().op == pfsim::Op::Close);
  CHECK(offsets(s).back() == 6 * 8);  // the first 7 transfers, in order
  CHECK(w.stonewall(0).deadline_s == 1);
  CHECK(w.stonewall(0).limit_phase == -1);
  CHECK(w.stonewall(1).limit_phase == 0);  // the read: the write's counts
  o.status_pairs = 5;
  CHECK(pfsim::IorWorkload(o).stonewall(1).limit == 5);  // the status file's count instead
  CHECK(pfsim::IorWorkload(o).stonewall(1).limit_phase == -1);
  o.deadline_s = 0;
  o.status_pairs = -1;
  CHECK_FALSE(pfsim::IorWorkload(o).stonewall(1).active());
}

TEST_CASE("IOR -z -z draws its blocks over the file as the read finds it (--file-size)", "[ior]")
{
  // IO500's rnd4K read: -t 4096 -b 4096 -s 10000000 over ior-easy's files (here 64 KiB = 16 blocks each). IOR 4.1
  // draws over the size it stats (fileSizeForRead), not over the test's 40 GB: every read is inside the 16 blocks.
  auto o = ior(2, 4096, 4096, 10000000);
  o.file_per_proc = true;
  o.random_offset = 2;
  o.write = false;
  o.file_size_B = 16 * 4096;
  const pfsim::IorWorkload w(o);
  std::set<uint64_t> blocks;
  for (uint64_t k = 0; k < 1000; ++k) {
    const auto [offset, src] = w.transfer_offset(1, k);
    CHECK(offset % 4096 == 0);
    CHECK(offset + 4096 <= o.file_size_B);
    CHECK(src == 1);
    blocks.insert(offset);
  }
  CHECK(blocks.size() == 16);  // 1000 draws of 16 blocks: every one
}
