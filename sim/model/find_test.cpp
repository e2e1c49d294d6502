// pfind's walk (FindWorkload) and the readdir costs it rests on (clients.readdir_entries, clients.readdir_entry,
// mds.readdir_entry, clients.readdir_attributes), against closed forms. One simulation per TEST_CASE.
#include "config/platform_config.hpp"
#include "model/simulation.hpp"
#include "workload/find.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace {

using nlohmann::json;
constexpr double kLatency_s = 5e-6;  // per link, one way: a round trip crosses 4 links
constexpr double kBandwidth_Bps = 1e12;

// One MDS of `cores` cores, readdir 100 us per RPC plus `mds_entry` per entry, stat 50 us; the client spends
// `client_entry` per listed entry; fast links, no RPC overhead.
json platform(int entries_per_rpc, double client_entry, double mds_entry, bool attributes, int cores = 1,
              int ranks_per_node = 1)
{
  json link = {{"bandwidth", kBandwidth_Bps}, {"latency", kLatency_s}};
  return {{"name", "find-test"},
          {"network", {{"model", "CM02"}, {"client_link", link}, {"server_link", link}}},
          {"clients",
           {{"ranks_per_node", ranks_per_node},
            {"max_rpcs_in_flight", 8},
            {"max_mod_rpcs_in_flight", 1},
            {"rpc_overhead", 0.0},
            {"request_size", 1},
            {"reply_size", 1},
            {"readdir_entries", entries_per_rpc},
            {"readdir_entry", client_entry},
            {"readdir_attributes", attributes}}},
          {"mds",
           {{"cores", cores},
            {"threads", {{"min", 16}, {"max", 16}}},
            {"service", {{"readdir", 100e-6}, {"stat", 50e-6}}},
            {"readdir_entry", mds_entry},
            {"journal", {{"enabled", false}}},
            {"dir_lock", {{"enabled", false}}}}}};
}

double round_trip_s() { return 4 * kLatency_s + 2.0 / kBandwidth_Bps; }

pfsim::RunRecords run(const json& p, const pfsim::FindParams& fp)
{
  pfsim::FindWorkload w(fp);
  pfsim::RunOptions o;
  o.ranks_per_node = fp.ranks_per_node;
  o.simgrid_args.push_back("--log=root.thres:warning");
  return pfsim::run_simulation(pfsim::config::parse_platform(p, "test"), w, o);
}

double phase_s(const pfsim::RunRecords& r) { return r.phases.at(0).end_s - r.phases.at(0).start_s; }

pfsim::FindParams params(int ranks, std::vector<pfsim::FindDir> dirs, int per_rpc, bool stat = true)
{
  pfsim::FindParams p;
  p.ranks = ranks;
  p.dirs = std::move(dirs);
  p.entries_per_rpc = per_rpc;
  p.stat = stat;
  return p;
}

}  // namespace

TEST_CASE("find: mdtest names matching a pattern, counted as mdtest writes them")
{
  // Brute force over the names themselves, with patterns inside the rank, inside the item, across a dot, and none.
  for (const std::string pat : {"01", "1", "3.1", "test.1", "x", "", "mdtest"}) {
    uint64_t brute = 0;
    for (int r = 0; r < 13; ++r)
      for (uint64_t i = 0; i < 1200; ++i)
        if (("file.mdtest." + std::to_string(r) + "." + std::to_string(i)).find(pat) != std::string::npos)
          ++brute;
    INFO("pattern " << pat);
    CHECK(pfsim::mdtest_names_matching(13, 1200, pat) == brute);
  }
  // IO500's "01" over 2 tasks of 600,000 files: 45,460 (each task's own directory; rank 1's prefix has no "01").
  CHECK(pfsim::mdtest_names_matching(2, 600000, "01") == 45460);
  CHECK(pfsim::mdtest_names_matching(1, 100, "01", 101) == 100);  // task 101's every name
  // The digit-by-digit count against every number written out, over bounds with and without the pattern in them.
  for (const std::string pat : {"0", "1", "01", "10", "00", "11", "121", "1212", "999", "x", ""}) {
    uint64_t brute = 0, n = 0;
    for (uint64_t b : {0, 1, 2, 9, 10, 11, 99, 100, 101, 1000, 1211, 1212, 1213, 12121, 20000}) {
      for (; n < b; ++n)
        if (std::to_string(n).find(pat) != std::string::npos)
          ++brute;
      INFO("pattern " << pat << ", numbers below " << b);
      CHECK(pfsim::decimal_numbers_containing(b, pat) == (pat.empty() ? b : brute));
    }
  }
  CHECK(pfsim::decimal_numbers_containing(1000000000000ULL, "0") > 0);  // 10^12 at once (not number by number)
  // IO500's own find in shared/data/tool-outputs/io500/standard-results (2 tasks, mdtest -n 2000): found = 58, the
  // mdtest-hard files (the only ones of 3901 bytes) whose names hold "01".
  CHECK(pfsim::mdtest_names_matching(2, 2000, "01") == 58);
}

TEST_CASE("find: directories go whole, largest first, to the least loaded rank, in readdir RPCs of at most K entries")
{
  auto p = params(2, {{600, 0, 0}, {1000, 0, 1}, {600, 0, 2}}, 256, false);
  pfsim::FindWorkload w(p);
  CHECK(w.reader_of(1) == 0);  // the largest first, to rank 0
  CHECK(w.reader_of(0) == 1);
  CHECK(w.reader_of(2) == 1);  // rank 1 has 600 < 1000
  CHECK(w.entries_of_rank(0) == 1000);
  CHECK(w.entries_of_rank(1) == 1200);
  CHECK(w.phase_items(0) == 2200);
  // Rank 0: ceil(1000 / 256) = 4 readdirs of 256, 256, 256 and 232 entries, on directory 1's MDS order.
  pfsim::RankCursor c;
  pfsim::OpRequest op;
  std::vector<uint32_t> sizes;
  while (w.next(0, 0, c, op)) {
    CHECK(op.op == pfsim::Op::Readdir);
    CHECK(op.dir == 1);
    sizes.push_back(op.entries);
  }
  CHECK(sizes == std::vector<uint32_t>{256, 256, 256, 232});
  CHECK(w.directory_order(2) == 2);
  // A directory of more than 2^31 RPCs (RankCursor::step is 32 bits) is listed in several tasks: 2^31 + 3 RPCs of one
  // entry each, and every entry listed once (the walk itself is not simulated here).
  {
    auto big = params(1, {{(1ULL << 31) + 3, 0, 0}}, 1, false);
    pfsim::FindWorkload b(big);
    CHECK(b.entries_of_rank(0) == (1ULL << 31) + 3);
    CHECK(b.operations() == static_cast<long double>((1ULL << 31) + 3));
    pfsim::RankCursor tail;  // the second task: the last 3 RPCs
    tail.item = 1;
    pfsim::OpRequest o;
    int rpcs = 0;
    while (b.next(0, 0, tail, o)) {
      CHECK(o.entries == 1);
      ++rpcs;
    }
    CHECK(rpcs == 3);
  }
  // An empty directory is one readdir of no entries.
  pfsim::FindWorkload e(params(1, {{0, 0, 0}}, 256, false));
  pfsim::RankCursor ce;
  REQUIRE(e.next(0, 0, ce, op));
  CHECK(op.entries == 0);
  CHECK_FALSE(e.next(0, 0, ce, op));
}

TEST_CASE("find: the stats go in chunks to the rank that would finish them first")
{
  // One directory of 10,000 entries on rank 0 (10 us each: 100 ms, one per readdir RPC so that the names are listed
  // one by one) and 3 idle ranks; 1,300 stats of 100 us, in chunks
  // of ceil(1,300 / 32) = 41, listed over the 100 ms. The idle ranks keep up with the listing (a chunk of 41 takes
  // 4.1 ms, the three take one every 3.15 ms of listing between them): rank 0 gets none, the others about a third each.
  auto p = params(4, {{10000, 1300, 0}}, 1);
  p.entry_cost_s = 10e-6;
  p.stat_cost_s = p.local_stat_cost_s = 100e-6;
  pfsim::FindWorkload w(p);
  CHECK(w.total_stats() == 1300);
  CHECK(w.stats_of_rank(0) == 0);
  uint64_t sum = 0;
  for (int r = 1; r < 4; ++r) {
    CHECK(w.stats_of_rank(r) >= 433 - 41);
    CHECK(w.stats_of_rank(r) <= 434 + 41);
    sum += w.stats_of_rank(r);
  }
  CHECK(sum == 1300);
  // 10,000 stats (1 s of work) against rank 0's 100 ms of reading: the ranks finish together at about
  // (1 + 0.1) / 4 = 0.275 s, so rank 0 takes about 1,750 and the others about 2,750, within a chunk (313).
  auto q = params(4, {{10000, 10000, 0}}, 1);
  q.entry_cost_s = 10e-6;
  q.stat_cost_s = q.local_stat_cost_s = 100e-6;
  pfsim::FindWorkload v(q);
  CHECK(std::llabs(static_cast<long long>(v.stats_of_rank(0)) - 1750) <= 313);
  for (int r = 1; r < 4; ++r)
    CHECK(std::llabs(static_cast<long long>(v.stats_of_rank(r)) - 2750) <= 313);
  // Stats that cost the reader's node nothing (the readdir reply brought the attributes) stay on that node: 4 ranks,
  // 2 per node, rank 0 reads; ranks 0 and 1 take every stat.
  auto l = params(4, {{10000, 1000, 0}}, 1000);
  l.ranks_per_node = 2;
  l.entry_cost_s = 10e-6;
  l.stat_cost_s = 100e-6;
  l.local_stat_cost_s = 1e-6;
  pfsim::FindWorkload lw(l);
  CHECK(lw.stats_of_rank(0) + lw.stats_of_rank(1) == 1000);
  // Without costs: even shares, within a chunk (ceil(1,000 / 32) = 32). --no-stat: none.
  pfsim::FindWorkload even(params(4, {{10000, 1000, 0}}, 1000));
  for (int r = 0; r < 4; ++r)
    CHECK(std::llabs(static_cast<long long>(even.stats_of_rank(r)) - 250) <= 32);
  pfsim::FindWorkload none(params(4, {{10000, 1000, 0}}, 1000, false));
  CHECK(none.total_stats() == 0);
}

TEST_CASE("find: one rank lists a directory in ceil(N / K) readdir RPCs, each a round trip, its service and its entries")
{
  // 10,000 entries, 1,000 per RPC; client 10 us and MDS 5 us per entry, 100 us per readdir RPC:
  // T = 10 x (round trip + 100 us) + 10,000 x 15 us = 151.2 ms. No stats (--no-stat).
  auto r = run(platform(1000, 10e-6, 5e-6, false), params(1, {{10000, 0, 0}}, 1000, false));
  const double expect = 10 * (round_trip_s() + 100e-6) + 10000 * 15e-6;
  CHECK(phase_s(r) == Approx(expect).epsilon(0.01));
  CHECK(r.phases.at(0).items == 10000);
}

TEST_CASE("find: with readdir_attributes a stat of an entry its node listed is the client's, no RPC")
{
  // Two ranks on one node; rank 0 lists 2,000 entries, all matching; the stats shared between the two ranks are all
  // of an entry their node listed: answered by the client. The phase is the listing alone:
  // 2 x (round trip + 100 us) + 2,000 x 1 us = 2.2 ms.
  auto fp = params(2, {{2000, 2000, 0}}, 1000);
  fp.ranks_per_node = 2;
  auto r = run(platform(1000, 1e-6, 0, true, 1, 2), fp);
  CHECK(r.local_stats == 2000);
  // None before its entry is listed (helper-101: without costs there is no think time, and they were all answered at
  // t = 0): the last ones wait for the last readdir's reply.
  const auto& ph = r.phases.at(0);
  CHECK(ph.op_last_end_s[pfsim::Op::Stat] >= ph.op_last_end_s[pfsim::Op::Readdir]);
  CHECK(ph.op_first_start_s[pfsim::Op::Stat] < ph.op_last_end_s[pfsim::Op::Readdir]);
  CHECK(phase_s(r) == Approx(2 * (round_trip_s() + 100e-6) + 2000 * 1e-6).epsilon(0.02));
}

TEST_CASE("find: without readdir_attributes every stat is a getattr RPC at the MDS")
{
  // The same on two nodes, without attributes: 2,000 stats of 50 us on the one MDS core after the listing (rank 1's
  // stats start at once, rank 0's after its listing): the MDS is busy 2 x 100 us + 2,000 x 50 us = 100.2 ms, a lower
  // bound of the phase; each rank's closed loop adds its round trips: rank 1 does 1,000 stats, each at least a round
  // trip plus 50 us.
  auto fp = params(2, {{2000, 2000, 0}}, 1000);
  auto r = run(platform(1000, 1e-6, 0, false), fp);
  CHECK(r.local_stats == 0);
  const double busy = 2 * 100e-6 + 2000 * 50e-6;
  CHECK(phase_s(r) >= busy * 0.999);
  CHECK(phase_s(r) <= busy + 1000 * round_trip_s() + 2 * (round_trip_s() + 100e-6) + 1e-3);
}

TEST_CASE("find: readers of many directories share the MDS cores (the utilisation bound)")
{
  // 8 ranks, 8 directories of 5,000 entries, 1 ms... MDS 20 us per entry on 2 cores, client 1 us: the MDS needs
  // 8 x 5,000 x 20 us / 2 cores = 400 ms (plus 8 x 5 readdirs x 100 us / 2 = 2 ms), while one reader alone would take
  // 5 x (rt + 100 us) + 5,000 x 21 us = 105.5 ms: the phase is the cores' bound.
  std::vector<pfsim::FindDir> dirs;
  for (uint64_t d = 0; d < 8; ++d)
    dirs.push_back({5000, 0, d});
  auto r = run(platform(1000, 1e-6, 20e-6, false, 2), params(8, dirs, 1000, false));
  const double bound = (8 * 5000 * 20e-6 + 8 * 5 * 100e-6) / 2;
  CHECK(phase_s(r) >= bound * 0.999);
  CHECK(phase_s(r) == Approx(bound).epsilon(0.03));
}

TEST_CASE("find: another rank's stats of a directory wait until the reader has listed their names")
{
  // Unit: rank 0 reads 10,000 entries; most of the 1,000 matches go to rank 1 (rank 0 takes some of the last reply's
  // once its reading is over), in listing order, each with its entry's place in the listing (match k is entry
  // (k + 1) x 10: the matches spread evenly).
  auto p = params(2, {{10000, 1000, 0}}, 1000);
  p.entry_cost_s = 10e-6;
  p.stat_cost_s = p.local_stat_cost_s = 50e-6;
  pfsim::FindWorkload w(p);
  REQUIRE(w.stats_of_rank(1) >= 900);
  REQUIRE(w.stats_of_rank(0) + w.stats_of_rank(1) == 1000);
  pfsim::RankCursor c;
  pfsim::OpRequest op;
  uint64_t k = 0;
  while (w.next(1, 0, c, op)) {
    REQUIRE(op.op == pfsim::Op::Stat);
    CHECK(op.position == (k + 1) * 10);
    CHECK(op.think_s == 0);
    ++k;
  }
  CHECK(k == w.stats_of_rank(1));
  // Simulated: 2 ranks on 2 nodes, no readdir attributes (every stat an RPC), no costs given to the share-out (so
  // no estimate holds the stats back): a directory of 2,000 entries in 2 readdir RPCs of 1,000 (the client spends
  // 10 us per entry: about 10 ms each), every name stat'ed. No stat ends before the reply that lists its entry: the
  // stats of the first 1,000 entries after the first reply, those of the last 1,000 after the second.
  auto q = params(2, {{2000, 2000, 0}}, 1000);
  pfsim::FindWorkload wq(q);
  pfsim::RunOptions o;
  o.keep_samples = true;
  o.simgrid_args.push_back("--log=root.thres:warning");
  auto r = pfsim::run_simulation(pfsim::config::parse_platform(platform(1000, 10e-6, 0, false), "test"), wq, o);
  std::vector<double> listed;  // the readdir replies' ends
  double first_stat = 1e9, last_stat = 0;
  for (const auto& x : r.phases.at(0).samples)
    if (x.op == pfsim::Op::Readdir)
      listed.push_back(x.start_s + x.runtime_s);
  std::sort(listed.begin(), listed.end());
  REQUIRE(listed.size() == 2);
  int before_second = 0;  // stats done before the second reply: at most the first reply's 1,000
  int stats = 0;
  for (const auto& x : r.phases.at(0).samples)
    if (x.op == pfsim::Op::Stat) {
      const double end = x.start_s + x.runtime_s;
      first_stat = std::min(first_stat, end);
      last_stat = std::max(last_stat, end);
      before_second += end < listed[1] ? 1 : 0;
      ++stats;
    }
  CHECK(stats == 2000);
  CHECK(first_stat >= listed[0]);
  CHECK(before_second <= 1000);
  CHECK(last_stat >= listed[1]);
  CHECK(r.local_stats == 0);
}
