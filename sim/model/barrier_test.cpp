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
