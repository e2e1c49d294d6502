// Workload files: errors name the file and the field; metabench spreads its file count over the ranks
// exactly as the tool does (every file created once, rank shares differing by at most one).
#include "config/reader.hpp"
#include "workload/synthetic.hpp"
#include "workload/workload_file.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

namespace {

using nlohmann::json;
using pfsim::config::ConfigError;
using pfsim::parse_workload;

std::string error_of(const json& j, const std::string& file = "bad-workload.json")
{
  try {
    parse_workload(j, file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// mdtest -F -n n at `ranks` ranks (-u when unique): what the tests below vary from.
pfsim::MdtestOptions mdtest_files(int ranks, uint64_t n, bool unique)
{
  pfsim::MdtestOptions o;
  o.ranks = ranks;
  o.items_per_rank = n;
  o.unique_dir = unique;
  o.files_only = true;
  return o;
}

// Operations rank `rank` issues in `phase`, by walking the stream as the client model does.
uint64_t ops_of_rank(const pfsim::Workload& w, int rank, int phase)
{
  pfsim::RankCursor cursor;
  pfsim::OpRequest op;
  uint64_t n = 0;
  while (w.next(rank, phase, cursor, op))
    ++n;
  return n;
}

}  // namespace

TEST_CASE("workload file errors name the file and the field", "[workload]")
{
  SECTION("unknown generator")
  {
    std::string msg = error_of({{"generator", "ior"}, {"ranks", 4}});
    INFO(msg);
    CHECK_THROWS_AS(parse_workload({{"generator", "ior"}, {"ranks", 4}}, "bad-workload.json"), ConfigError);
    CHECK_THAT(msg, Catch::Contains("bad-workload.json") && Catch::Contains("generator") &&
                        Catch::Contains("ior") && Catch::Contains("metabench"));
  }
  SECTION("missing generator")
  {
    // "missing", not an empty name (a platform file given as --workload was reported as generator "")
    CHECK_THAT(error_of({{"ranks", 4}}), Catch::Contains("'generator'") && Catch::Contains("missing") &&
                                             !Catch::Contains("\"\""));
  }
  SECTION("ranks left to the command line")
  {
    // Accepted, marked as not given: pfsim run / sweep then need --ranks (test_cli_errors.sh).
    auto spec = parse_workload({{"generator", "metabench"}, {"metabench", {{"files", 100}}}}, "w.json");
    CHECK_FALSE(spec.ranks_given);
    CHECK(parse_workload({{"generator", "metabench"}, {"ranks", 8}, {"metabench", {{"files", 100}}}}, "w.json").ranks_given);
  }
  SECTION("ranks of the wrong type or out of range")
  {
    CHECK_THAT(error_of({{"generator", "metabench"}, {"ranks", "512"}, {"metabench", {{"files", 100}}}}),
               Catch::Contains("'ranks'"));
    CHECK_THAT(error_of({{"generator", "metabench"}, {"ranks", 0}, {"metabench", {{"files", 100}}}}),
               Catch::Contains("'ranks'"));
  }
  SECTION("unknown metabench phase")
  {
    std::string msg = error_of(
        {{"generator", "metabench"}, {"ranks", 4}, {"metabench", {{"files", 100}, {"phases", {"create", "rename"}}}}});
    INFO(msg);
    CHECK_THAT(msg, Catch::Contains("bad-workload.json") && Catch::Contains("metabench.phases") &&
                        Catch::Contains("rename"));
  }
  SECTION("mdtest: no phase chosen, or -e above -w in a run that creates and reads")
  {
    std::string msg = error_of({{"generator", "mdtest"},
                                {"ranks", 4},
                                {"mdtest", {{"n", 10}, {"C", false}, {"T", false}, {"E", false}, {"r", false}}}});
    INFO(msg);
    CHECK_THAT(msg, Catch::Contains("bad-workload.json") && Catch::Contains("mdtest.C") && Catch::Contains("no phase"));
    msg = error_of({{"generator", "mdtest"}, {"ranks", 4}, {"mdtest", {{"n", 10}, {"w", 100}, {"e", 200}}}});
    CHECK_THAT(msg, Catch::Contains("mdtest.e") && Catch::Contains("at most"));
    // A read-only run (-E) reads what an earlier run wrote: mdtest does not compare -e with -w then.
    CHECK(error_of({{"generator", "mdtest"}, {"ranks", 4}, {"mdtest", {{"n", 10}, {"e", 200}, {"C", false}}}}).empty());
  }
  SECTION("unknown field and the other generator's block")
  {
    CHECK_THAT(error_of({{"generator", "mdtest"}, {"ranks", 4}, {"mdtest", {{"n", 10}, {"z", 3}}}}),
               Catch::Contains("mdtest.z"));
    CHECK_THAT(error_of({{"generator", "mdtest"}, {"ranks", 4}, {"mdtest", {{"n", 10}}}, {"metabench", json::object()}}),
               Catch::Contains("metabench"));
    CHECK_THAT(error_of({{"generator", "metabench"}, {"ranks", 4}, {"metabench", {{"files", 10}}}, {"thinktime", "1s"}}),
               Catch::Contains("thinktime"));
  }
  SECTION("bad think time unit and distribution")
  {
    CHECK_THAT(error_of({{"generator", "metabench"}, {"ranks", 4}, {"metabench", {{"files", 10}}},
                         {"think_time", "3 fortnights"}}),
               Catch::Contains("think_time"));
    CHECK_THAT(error_of({{"generator", "metabench"}, {"ranks", 4}, {"metabench", {{"files", 10}}},
                         {"think_distribution", "pareto"}}),
               Catch::Contains("think_distribution"));
  }
}

TEST_CASE("a valid workload file gives the tool's phases", "[workload]")
{
  auto spec = parse_workload({{"generator", "mdtest"},
                              {"ranks", 8},
                              {"ranks_per_node", 4},
                              {"seed", 7},
                              {"think_time", "1ms"},
                              {"think_distribution", "exponential"},
                              {"mdtest", {{"n", 100}, {"u", true}, {"F", true}, {"w", 3900}, {"e", 3900}, {"i", 2}}}},
                             "ok.json");
  CHECK(spec.ranks_per_node == 4);
  CHECK(spec.seed == 7);
  CHECK(spec.params.ranks == 8);
  CHECK(spec.params.items_per_rank == 100);
  CHECK(spec.params.think_s == Approx(1e-3));
  CHECK(spec.params.think_exponential);
  // -F: no directory phases; -e adds "File read"; two iterations, each between mdtest's tree phases.
  std::vector<std::string> names;
  for (const auto& ph : spec.params.phases)
    names.push_back(ph.name);
  CHECK(names == std::vector<std::string>{"Tree creation", "File creation", "File stat", "File read", "File removal",
                                          "Tree removal", "Tree creation", "File creation", "File stat", "File read",
                                          "File removal", "Tree removal"});
  CHECK(spec.params.phases.back().iteration == 1);
}

TEST_CASE("metabench spreads F files over R ranks exactly", "[workload]")
{
  struct Case {
    int ranks;
    uint64_t files;
  };
  // Divisible, not divisible, fewer files than ranks, one rank, LU-1695's 1M files over 512 and 8192.
  const std::vector<Case> cases{{4, 100}, {7, 100}, {100, 7}, {1, 1000}, {512, 1000000}, {8192, 1000000}, {3, 2}};
  for (const auto& c : cases) {
    pfsim::SyntheticWorkload w(pfsim::metabench_params(c.ranks, c.files, "unique", {"create", "stat", "unlink"}));
    INFO(c.files << " files over " << c.ranks << " ranks");
    uint64_t sum = 0;
    uint64_t lo = UINT64_MAX;
    uint64_t hi = 0;
    for (int r = 0; r < c.ranks; ++r) {
      uint64_t n = w.items_of_rank(r);
      sum += n;
      lo = std::min(lo, n);
      hi = std::max(hi, n);
    }
    CHECK(sum == c.files);
    CHECK(hi - lo <= 1);
    CHECK(lo == c.files / c.ranks);
    for (int p = 0; p < w.phase_count(); ++p)
      CHECK(w.phase_items(p) == c.files);
    // The operation streams agree with the counts: a create item is open(O_CREAT) + close, a stat or
    // unlink item is one operation (checked on the first and last ranks to stay fast).
    for (int r : {0, c.ranks - 1}) {
      CHECK(ops_of_rank(w, r, 0) == 2 * w.items_of_rank(r));
      CHECK(ops_of_rank(w, r, 1) == w.items_of_rank(r));
      CHECK(ops_of_rank(w, r, 2) == w.items_of_rank(r));
    }
  }
}

TEST_CASE("metabench directory modes: one directory per rank or one shared", "[workload]")
{
  pfsim::SyntheticWorkload unique(pfsim::metabench_params(4, 40, "unique", {"create"}));
  pfsim::SyntheticWorkload shared(pfsim::metabench_params(4, 40, "shared", {"create"}));
  pfsim::RankCursor c0, c1, s0, s1;
  pfsim::OpRequest u0, u1, v0, v1;
  REQUIRE(unique.next(0, 0, c0, u0));
  REQUIRE(unique.next(3, 0, c1, u1));
  REQUIRE(shared.next(0, 0, s0, v0));
  REQUIRE(shared.next(3, 0, s1, v1));
  CHECK_FALSE(u0.shared_dir);
  CHECK(u0.dir != u1.dir);
  CHECK(v0.shared_dir);
  CHECK(v0.dir == v1.dir);
  CHECK(u0.op == pfsim::Op::Create);
}

TEST_CASE("mdtest's tree phases: made by every rank with -u, by rank 0 alone without / one directory counted", "[workload]")
{
  for (bool unique : {true, false}) {
    pfsim::MdtestOptions o = mdtest_files(3, 5, unique);
    o.iterations = 2;
    pfsim::SyntheticWorkload w(pfsim::mdtest_params(o));
    INFO("unique " << unique);
    // Per iteration: Tree creation, File creation, File stat, File read (open + close: no -e), File removal,
    // Tree removal.
    REQUIRE(w.phase_count() == 12);
    for (int it = 0; it < 2; ++it) {
      const int first = 6 * it, last = 6 * it + 5;
      CHECK(w.phase_name(first + 3) == "File read");
      CHECK(w.phase_name(first) == "Tree creation");
      CHECK(w.phase_name(last) == "Tree removal");
      CHECK(w.phase_items(first) == 1);  // mdtest's rate: num_dirs_in_tree / time
      for (int r = 0; r < 3; ++r) {
        CHECK(ops_of_rank(w, r, first) == (unique || r == 0 ? 1u : 0u));
        CHECK(ops_of_rank(w, r, last) == (unique || r == 0 ? 1u : 0u));
        CHECK(ops_of_rank(w, r, first + 1) == 2 * 5);  // create + close per file
        CHECK(ops_of_rank(w, r, first + 3) == 2 * 5);  // open + close per file
      }
      pfsim::RankCursor c;
      pfsim::OpRequest op;
      REQUIRE(w.next(0, first, c, op));
      CHECK(op.op == pfsim::Op::Mkdir);
      CHECK(op.shared_dir);  // the tree's top directory goes into the base directory all ranks share
      // Without -u the files are made in that top directory, which is on its parent's MDS: the tree's mkdir is
      // counted against the files' directory (so both are on one MDS whatever the rank count).
      pfsim::RankCursor cf;
      pfsim::OpRequest file;
      REQUIRE(w.next(0, first + 1, cf, file));
      CHECK((op.dir == file.dir) == !unique);
    }
  }
}

TEST_CASE("mdtest -C -T -E -r and -N in a workload file: what pfsim mdtest records reruns the same phases", "[workload]")
{
  // pfsim mdtest records its options as the workload file's "mdtest" block (results' workload.workload_file); with a
  // phase choice and -N it must load back to the same phases and rank shifts (it was refused: unknown field
  // 'mdtest.C').
  pfsim::MdtestOptions o = mdtest_files(6, 4, true);
  o.write_bytes = 100;
  o.read_bytes = 100;
  o.run_stat = false;
  o.stride = 2;
  const auto made = pfsim::mdtest_params(o);
  json file = {{"generator", "mdtest"}, {"ranks", 6}, {"mdtest", made.params}};
  const auto back = parse_workload(file, "recorded.json").params;
  CHECK(back.params == made.params);
  REQUIRE(back.phases.size() == made.phases.size());
  for (size_t i = 0; i < made.phases.size(); ++i) {
    CHECK(back.phases[i].name == made.phases[i].name);
    CHECK(back.phases[i].rank_shift == made.phases[i].rank_shift);
  }
  // The phases: Tree creation, File creation, File read (rank r + 2N's files), File removal (r + 3N's), Tree removal.
  std::vector<std::string> names;
  for (const auto& ph : made.phases)
    names.push_back(ph.name);
  CHECK(names == std::vector<std::string>{"Tree creation", "File creation", "File read", "File removal", "Tree removal"});
  CHECK(made.phases[2].rank_shift == 4);
  CHECK(made.phases[3].rank_shift == 6);
  pfsim::SyntheticWorkload w(made);
  pfsim::RankCursor c;
  pfsim::OpRequest op;
  REQUIRE(w.next(1, 2, c, op));  // rank 1's File read: open of rank 5's file
  CHECK(op.dir == 5);
  REQUIRE(w.next(1, 2, c, op));  // its read
  CHECK(op.written_by == 5);
  pfsim::RankCursor r;
  REQUIRE(w.next(3, 3, r, op));  // rank 3 removes rank (3 + 6) mod 6 = 3's files
  CHECK(op.dir == 3);
}

TEST_CASE("mdtest -W -Y -t and -x's count in a workload file: what pfsim mdtest records reruns them", "[workload]")
{
  // The stonewall, the sync after each phase, -t and the File phases' count read from -x are in the recorded block
  // (W, Y, t, file_items), and load back to the same stonewall, syncs and counts; the combinations pfsim mdtest
  // refuses are refused in the file too, naming the field.
  pfsim::MdtestOptions o = mdtest_files(4, 100, true);
  o.stonewall_s = 2;
  o.sync_each_phase = true;
  o.time_unique_dir = true;
  const auto made = pfsim::mdtest_params(o);
  json file = {{"generator", "mdtest"}, {"ranks", 4}, {"mdtest", made.params}};
  const auto back = parse_workload(file, "recorded.json").params;
  CHECK(back.params == made.params);
  REQUIRE(back.phases.size() == made.phases.size());
  for (size_t i = 0; i < made.phases.size(); ++i) {
    CHECK(back.phases[i].stonewall_s == made.phases[i].stonewall_s);
    CHECK(back.phases[i].items_from == made.phases[i].items_from);
    CHECK(back.phases[i].sync_at_end == made.phases[i].sync_at_end);
    CHECK(back.phases[i].first_step_barrier == made.phases[i].first_step_barrier);
  }
  pfsim::MdtestOptions later = mdtest_files(4, 100, true);
  later.run_create = false;
  later.file_items = 42;
  const auto counted = pfsim::mdtest_params(later);
  json file2 = {{"generator", "mdtest"}, {"ranks", 4}, {"mdtest", counted.params}};
  const auto back2 = parse_workload(file2, "recorded.json").params;
  CHECK(back2.params["file_items"] == 42);
  CHECK(pfsim::SyntheticWorkload(back2).phase_items(0) == 4 * 42);
  // refused as on the command line: -W with directories, file_items with the create
  file["mdtest"]["F"] = false;
  CHECK_THROWS_WITH(parse_workload(file, "w.json"), Catch::Contains("mdtest.W") && Catch::Contains("give -F"));
  file2["mdtest"]["C"] = true;
  CHECK_THROWS_WITH(parse_workload(file2, "w.json"), Catch::Contains("mdtest.file_items"));
}

TEST_CASE("workload ranks_per_node: absent means the platform's, given it is at least 1", "[workload]")
{
  json base = {{"generator", "metabench"}, {"ranks", 16}, {"metabench", {{"files", 100}}}};
  CHECK(parse_workload(base, "ok.json").ranks_per_node == 0);  // the platform default
  json zero = base;
  zero["ranks_per_node"] = 0;  // was accepted and silently replaced by the platform default
  CHECK_THAT(error_of(zero), Catch::Contains("bad-workload.json") && Catch::Contains("'ranks_per_node'") &&
                                 Catch::Contains("[1, 4096]"));
  json four = base;
  four["ranks_per_node"] = 4;
  CHECK(parse_workload(four, "ok.json").ranks_per_node == 4);
}

TEST_CASE("workload durations and sizes: a unit, and within range", "[workload]")
{
  json base = {{"generator", "metabench"}, {"ranks", 4}, {"metabench", {{"files", 10}}}};
  auto with = [&](const char* key, const json& v) {
    json j = base;
    j[key] = v;
    return error_of(j);
  };
  CHECK_THAT(with("think_time", "1e20s"), Catch::Contains("'think_time'") && Catch::Contains("out of range"));
  CHECK_THAT(with("think_time", 2e9), Catch::Contains("'think_time'") && Catch::Contains("out of range"));
  CHECK_THAT(with("think_time", "1e400us"), Catch::Contains("'think_time'") && Catch::Contains("out of range"));
  CHECK_THAT(with("think_time", "5"), Catch::Contains("'think_time'") && Catch::Contains("with a unit"));
  json half = base;
  half["think_time"] = 0.5;  // a bare JSON number is seconds
  CHECK(parse_workload(half, "ok.json").params.think_s == Approx(0.5));
  CHECK_THAT(error_of({{"generator", "mdtest"}, {"ranks", 4}, {"mdtest", {{"n", 10}, {"w", "2000TB"}}}}),
             Catch::Contains("mdtest.w") && Catch::Contains("1 PB"));
}

TEST_CASE("a workload file with a number beyond a double's range names the file and the field", "[workload]")
{
  std::string msg;
  try {
    pfsim::config::parse_json_strict(R"({"generator": "metabench", "ranks": 4, "think_time": 1e400})", "w.json");
  } catch (const ConfigError& e) {
    msg = e.what();
  }
  CHECK_THAT(msg, Catch::Contains("w.json") && Catch::Contains("'think_time'") && Catch::Contains("out of range"));
}

// Inputs that ran silently: a metabench phase twice, fractional mdtest byte counts.
TEST_CASE("workload files: a metabench phase twice and fractional -w/-e bytes are errors", "[workload]")
{
  CHECK_THAT(error_of({{"generator", "metabench"}, {"ranks", 4},
                       {"metabench", {{"files", 100}, {"phases", {"create", "stat", "stat"}}}}}),
             Catch::Contains("metabench.phases") && Catch::Contains("twice"));
  CHECK_THAT(error_of({{"generator", "mdtest"}, {"ranks", 4}, {"mdtest", {{"n", 10}, {"w", "1.5B"}}}}),
             Catch::Contains("mdtest.w") && Catch::Contains("whole number"));
  CHECK(error_of({{"generator", "mdtest"}, {"ranks", 4}, {"mdtest", {{"n", 10}, {"w", "3901B"}, {"e", "3901B"}}}})
            .empty());
}
