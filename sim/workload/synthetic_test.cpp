// The mdtest generator's options without a simulation: -x's status file as mdtest writes and reads it, the option
// combinations pfsim refuses, and the phases -W, -x, -Y and -t give.
#include "workload/synthetic.hpp"

#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

using pfsim::test::TempDir;

namespace {

pfsim::MdtestOptions files(int ranks, uint64_t n)
{
  pfsim::MdtestOptions o;
  o.ranks = ranks;
  o.items_per_rank = n;
  o.files_only = true;
  return o;
}

// The message of the std::invalid_argument `f` throws ("" when it throws none).
template <class F> std::string error_of(F f)
{
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("mdtest -x: the status file holds the items per rank as mdtest writes it, read back the same", "[mdtest]")
{
  TempDir d;
  CHECK(pfsim::mdtest_status_text(2642) == "2642");  // fprintf("%lld"): no newline
  const auto path = d.write("easy.stonewall", pfsim::mdtest_status_text(2642));
  CHECK(pfsim::read_mdtest_status_file(path, 5000) == 2642);
  CHECK(pfsim::read_mdtest_status_file(path, 2642) == 2642);
  // a number on a line of its own (an edited file) reads the same
  CHECK(pfsim::read_mdtest_status_file(d.write("nl", " 17\n"), 5000) == 17);
}

TEST_CASE("mdtest -x: a missing, empty, malformed, zero or too large status file is an error naming it", "[mdtest]")
{
  TempDir d;
  const std::string missing = (d.path / "none").string();
  const std::string e1 = error_of([&] { pfsim::read_mdtest_status_file(missing, 10); });
  CHECK(e1.find("-x " + missing + ": cannot read the stonewall status file (no such file)") == 0);
  CHECK(e1.find("Could not read stonewall status file") != std::string::npos);  // what mdtest does instead
  CHECK(error_of([&] { pfsim::read_mdtest_status_file(d.str(), 10); }).find("not a regular file") !=
        std::string::npos);
  const auto empty = d.write("empty", "");
  CHECK(error_of([&] { pfsim::read_mdtest_status_file(empty, 10); }).find("got an empty file") != std::string::npos);
  for (const char* text : {"12abc", "-5", "1 2", "0x10", "1.5", "99999999999999999999"}) {
    const auto path = d.write("bad", text);
    const std::string e = error_of([&] { pfsim::read_mdtest_status_file(path, 10); });
    INFO(text << ": " << e);
    CHECK(e.find("-x " + path + ": expected the stonewall status file's one whole number") == 0);
  }
  const auto zero = d.write("zero", "0");
  CHECK(error_of([&] { pfsim::read_mdtest_status_file(zero, 10); }).find("holds 0 items per rank") !=
        std::string::npos);
  const auto big = d.write("big", "11");
  CHECK(error_of([&] { pfsim::read_mdtest_status_file(big, 10); }).find("holds 11 items per rank, more than -n 10") !=
        std::string::npos);
}

TEST_CASE("mdtest -W: refused with directories and with more than one iteration, as mdtest 4.1 cannot run them",
          "[mdtest]")
{
  auto o = files(2, 100);
  o.stonewall_s = 5;
  CHECK_FALSE(pfsim::mdtest_option_problem(o));
  auto both = o;
  both.files_only = false;
  REQUIRE(pfsim::mdtest_option_problem(both));
  CHECK(pfsim::mdtest_option_problem(both)->first == "W");
  CHECK(pfsim::mdtest_option_problem(both)->second.find("give -F") != std::string::npos);
  CHECK(error_of([&] { pfsim::mdtest_params(both); }).find("mdtest W: ") == 0);
  auto two = o;
  two.iterations = 2;
  REQUIRE(pfsim::mdtest_option_problem(two));
  CHECK(pfsim::mdtest_option_problem(two)->second.find("-i 2") != std::string::npos);
  // without the create -W changes nothing (mdtest stops only its creates): accepted
  auto stat = both;
  stat.run_create = false;
  CHECK_FALSE(pfsim::mdtest_option_problem(stat));
  // the status file's count belongs to a run without the create, and is at most -n
  auto counted = o;
  counted.file_items = 50;
  CHECK(pfsim::mdtest_option_problem(counted)->first == "file_items");
  counted.run_create = false;
  CHECK_FALSE(pfsim::mdtest_option_problem(counted));
  counted.file_items = 101;
  CHECK(pfsim::mdtest_option_problem(counted)->second.find("more than -n 100") != std::string::npos);
}

TEST_CASE("mdtest -W -Y -t -x: the phases they give, and the parameters recorded only when given", "[mdtest]")
{
  auto o = files(4, 100);
  o.unique_dir = true;
  const auto plain = pfsim::mdtest_params(o);
  for (const char* key : {"W", "Y", "t", "file_items"})
    CHECK_FALSE(plain.params.contains(key));
  o.stonewall_s = 3;
  o.sync_each_phase = true;
  o.time_unique_dir = true;
  const auto p = pfsim::mdtest_params(o);
  CHECK(p.params["W"] == 3);
  CHECK(p.params["Y"] == true);
  CHECK(p.params["t"] == true);
  const pfsim::SyntheticWorkload w(p);
  REQUIRE(w.phase_count() == 6);  // Tree creation, File creation, stat, read, removal, Tree removal
  CHECK(w.phase_name(1) == "File creation");
  const auto sw = w.stonewall(1);
  CHECK(sw.deadline_s == 3);
  CHECK(sw.wear_out);
  CHECK(sw.per_item);
  for (int k = 2; k <= 4; ++k) {  // stat, read and removal: the items the create made, per rank
    CHECK(w.stonewall(k).limit_phase == 1);
    CHECK(w.stonewall(k).per_item);
  }
  CHECK_FALSE(w.stonewall(0).active());  // the tree
  CHECK_FALSE(w.phase_ends_with_sync(0));
  for (int k = 1; k <= 4; ++k)
    CHECK(w.phase_ends_with_sync(k));
  CHECK_FALSE(w.phase_ends_with_sync(5));
  // -t -u: the create's first step of each rank waits at a barrier, its later steps do not
  pfsim::RankCursor c;
  pfsim::OpRequest r;
  REQUIRE(w.next(2, 1, c, r));
  CHECK(r.barrier);
  REQUIRE(w.next(2, 1, c, r));
  CHECK_FALSE(r.barrier);
  // a stop (the stonewall) ends the rank's items there
  pfsim::RankCursor stopped;
  stopped.stop = 1;
  REQUIRE(w.next(0, 1, stopped, r));  // item 0: create, close
  REQUIRE(w.next(0, 1, stopped, r));
  CHECK_FALSE(w.next(0, 1, stopped, r));
  // -x's count: the File phases of a run without the create
  auto later = files(4, 100);
  later.run_create = false;
  later.file_items = 37;
  const pfsim::SyntheticWorkload x(pfsim::mdtest_params(later));
  REQUIRE(x.phase_count() == 4);  // stat, read, removal, Tree removal
  for (int k = 0; k < 3; ++k) {
    CHECK(x.phase_items(k) == 4 * 37);
    CHECK(x.items_of_rank(3, k) == 37);
  }
  CHECK(x.phase_items(3) == 1);
}

TEST_CASE("mdtest's -N on a placement: times the tasks on node 0 with block placement over several nodes", "[mdtest]")
{
  // mdtest.c: "set the shift to mimic IOR and shift by procs per node" (numNodes > 1 and tasksBlockMapping)
  CHECK(pfsim::mdtest_effective_stride(1, 8, 4, false) == 4);    // 2 nodes of 4 in blocks
  CHECK(pfsim::mdtest_effective_stride(3, 160, 16, false) == 48);
  CHECK(pfsim::mdtest_effective_stride(1, 8, 4, true) == 1);     // cyclic: as typed
  CHECK(pfsim::mdtest_effective_stride(1, 4, 4, false) == 1);    // one node
  CHECK(pfsim::mdtest_effective_stride(1, 3, 16, false) == 1);   // fewer ranks than a node holds
  CHECK(pfsim::mdtest_effective_stride(0, 8, 4, false) == 0);    // no -N
  CHECK(pfsim::mdtest_effective_stride(1, 5, 4, false) == 4);    // node 0 full, the last one short
  // The phases' shifts follow the stride set: k x (stride mod ranks) for the stat, read and removal.
  pfsim::MdtestOptions o;
  o.ranks = 12;
  o.items_per_rank = 2;
  o.files_only = true;
  o.stride = 1;
  auto p = pfsim::mdtest_params(o);
  pfsim::set_mdtest_stride(p, 4);
  std::vector<int64_t> shifts;
  for (const auto& ph : p.phases)
    if (!ph.tree)
      shifts.push_back(ph.rank_shift);
  CHECK(shifts == std::vector<int64_t>{0, 4, 8, 12});  // creation, stat r + 4, read r + 8, removal r + 12 (= r)
}
