// Barriers between phases: a phase in which some or all ranks have no operation must still end (every node
// arrives at once, and the last one releases every node, itself included). One simulation per TEST_CASE
// (one SimGrid engine per process); a timeout of the test means a hang.
#include "config/platform_config.hpp"
#include "model/simulation.hpp"
#include "workload/replay.hpp"
#include "workload/synthetic.hpp"

#include <catch2/catch.hpp>

#include <memory>

namespace {

pfsim::RunOptions options(int ranks_per_node)
{
  pfsim::RunOptions o;
  o.ranks_per_node = ranks_per_node;
  o.simgrid_args = {"--log=root.thres:warning"};
  return o;
}

}  // namespace

TEST_CASE("md-workbench with -I 0: the empty benchmark iterations end and cleanup runs", "[barrier]")
{
  auto platform = pfsim::config::load_platform(std::string(PFSIM_SOURCE_DIR) + "/platforms/mistral-lustre02.json");
  pfsim::MdWorkbenchParams p;
  p.ranks = 6;
  p.obj_per_proc = 0;
  p.precreate_per_set = 4;
  p.data_sets = 1;
  p.iterations = 2;
  auto trace = std::make_shared<const pfsim::trace::Trace>(pfsim::mdworkbench_trace(p));
  pfsim::ReplayOptions ro;
  ro.ranks = 6;  // the generated trace is one rank's stream
  pfsim::ReplayWorkload w(trace, ro);
  auto r = pfsim::run_simulation(platform, w, options(3));
  REQUIRE(r.phases.size() == 4);  // precreate, 2 benchmark iterations, cleanup
  CHECK(r.phases[1].items == 0);
  CHECK(r.phases[2].items == 0);
  // Nothing to do: only the barrier messages take (network) time.
  CHECK(r.phases[1].end_s - r.phases[1].start_s < 1e-3);
  CHECK(r.phases[2].end_s - r.phases[2].start_s < 1e-3);
  CHECK(r.phases[3].items == 24);
  CHECK(r.phases[3].end_s > r.phases[3].start_s);
}

TEST_CASE("metabench with more ranks than files: nodes whose ranks have no file still pass the barriers",
          "[barrier]")
{
  auto platform = pfsim::config::load_platform(std::string(PFSIM_SOURCE_DIR) + "/platforms/cray-xe6-lustre2.1-fitted.json");
  pfsim::SyntheticWorkload w(pfsim::metabench_params(64, 10, "unique", {"create", "stat", "unlink"}));
  auto r = pfsim::run_simulation(platform, w, options(16));
  REQUIRE(r.phases.size() == 3);
  for (const auto& ph : r.phases) {
    CHECK(ph.items == 10);
    CHECK(ph.ops >= 10);  // RPCs: a create is an open and a close
    CHECK(ph.end_s > ph.start_s);
  }
}

// A phase starts when its first node is released, in every iteration alike: with 1 ms links, the release of a
// barrier takes 2 link latencies, which the second iteration's phases counted and the first's did not (Tree
// creation 4.102 ms against 2.102 ms in a deterministic run).
TEST_CASE("identical mdtest iterations take the same time: the barrier's release is in no phase", "[barrier]")
{
  auto platform = pfsim::config::load_platform(std::string(PFSIM_SOURCE_DIR) + "/platforms/cray-xe6-lustre2.1-fitted.json");
  platform.network.client_link.latency_s = 1e-3;
  pfsim::MdtestOptions m;
  m.ranks = 2;
  m.items_per_rank = 10;
  m.unique_dir = true;
  m.files_only = true;
  m.iterations = 2;
  pfsim::SyntheticWorkload w(pfsim::mdtest_params(m));
  auto r = pfsim::run_simulation(platform, w, options(1));
  const size_t per_iteration = r.phases.size() / 2;
  REQUIRE(per_iteration * 2 == r.phases.size());
  for (size_t p = 0; p < per_iteration; ++p) {
    const auto& a = r.phases[p];
    const auto& b = r.phases[p + per_iteration];
    INFO(a.name << ": " << (a.end_s - a.start_s) * 1e3 << " ms, then " << (b.end_s - b.start_s) * 1e3 << " ms");
    CHECK(b.end_s - b.start_s == Approx(a.end_s - a.start_s).epsilon(1e-9));
  }
}
