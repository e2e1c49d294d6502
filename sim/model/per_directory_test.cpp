// Mechanism (i), mds.mechanisms.per_directory: an update pays cost_per_directory for every other directory with an
// update inside the MDS when it starts. With one core and N ranks that are always inside the MDS (a service time far
// above the round trip), each create finds the N - 1 others inside:
//   - N ranks in N directories (metabench unique):      X = 1 / (s + c (N - 1))
//   - N ranks in one shared directory (directory lock off): X = 1 / s, where contention (a) would still charge N - 1.
// Closes cost no CPU and the ranks round trips are 40 us per create, so every other rank is inside when one arrives.
// One simulation per TEST_CASE (one SimGrid engine per process).
#include "config/platform_config.hpp"
#include "model/simulation.hpp"
#include "workload/synthetic.hpp"

#include <catch2/catch.hpp>

namespace {

using nlohmann::json;

constexpr double kCreate_s = 100e-6;
constexpr double kPerDir_s = 10e-6;
constexpr int kRanks = 8;

json platform(const json& mechanisms)
{
  json link = {{"bandwidth", 1e11}, {"latency", 5e-6}};
  return {
      {"name", "per-directory-test"},
      {"network", {{"model", "CM02"}, {"client_link", link}, {"server_link", link}}},
      {"clients",
       {{"ranks_per_node", 1}, {"max_rpcs_in_flight", 64}, {"max_mod_rpcs_in_flight", 63}, {"rpc_overhead", 0}}},
      {"mds",
       {{"cores", 1},
        {"threads", {{"min", 64}, {"max", 64}}},
        {"service", {{"create", kCreate_s}, {"close", 0}}},  // a metabench create is open(O_CREAT) + close
        {"journal", {{"enabled", false}}},
        {"dir_lock", {{"enabled", false}}},
        {"mechanisms", mechanisms}}},
  };
}

double create_rate(const json& mechanisms, const std::string& dir_mode)
{
  auto p = pfsim::config::parse_platform(platform(mechanisms), "test");
  const uint64_t files = 500 * kRanks;
  pfsim::SyntheticWorkload workload(pfsim::metabench_params(kRanks, files, dir_mode, {"create"}));
  pfsim::RunOptions opts;
  opts.ranks_per_node = 1;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  auto rec = pfsim::run_simulation(p, workload, opts);
  const auto& ph = rec.phases.at(0);
  REQUIRE(ph.op_count[pfsim::Op::Create] == files);
  return static_cast<double>(files) / (ph.end_s - ph.start_s);
}

const json kPerDirectory = {{"per_directory", {{"enabled", true}, {"cost_per_directory", {{"create", kPerDir_s}}}}}};

}  // namespace

TEST_CASE("per_directory: N ranks in their own directories pay for the N - 1 other directories", "[per_directory]")
{
  // 1%: the first creates of the run see fewer directories inside.
  CHECK(create_rate(kPerDirectory, "unique") == Approx(1 / (kCreate_s + kPerDir_s * (kRanks - 1))).epsilon(0.01));
}

TEST_CASE("per_directory: N ranks in one shared directory pay nothing", "[per_directory]")
{
  CHECK(create_rate(kPerDirectory, "shared") == Approx(1 / kCreate_s).epsilon(0.01));
}

TEST_CASE("per_directory against contention: contention charges the shared directory's N - 1 requests",
          "[per_directory]")
{
  const json contention = {{"contention", {{"enabled", true}, {"per_busy_thread", {{"create", kPerDir_s}}}}}};
  CHECK(create_rate(contention, "shared") == Approx(1 / (kCreate_s + kPerDir_s * (kRanks - 1))).epsilon(0.01));
}

TEST_CASE("per_directory counted over the journal segment: N ranks in N directories, all in the last 1024 updates",
          "[per_directory]")
{
  // count "journal_segment": the distinct directories among the MDS's last events_per_segment updates. With 8 ranks
  // each updating its own directory, every directory is among the last 1024: the same closed form as when all are
  // in progress, 1 / (s + c (N - 1)).
  json m = kPerDirectory;
  m["per_directory"]["count"] = "journal_segment";
  CHECK(create_rate(m, "unique") == Approx(1 / (kCreate_s + kPerDir_s * (kRanks - 1))).epsilon(0.01));
}

TEST_CASE("per_directory counted over a journal segment of 4 updates: the 8 ranks' directories, 4 at a time",
          "[per_directory]")
{
  // events_per_segment 4: the 8 ranks' creates are served in turn, so the last 4 updates (the update's own among
  // them) are in 4 directories: each pays for 3 others, X = 1 / (s + 3 c), where the in-progress count charges 7.
  json m = kPerDirectory;
  m["per_directory"]["count"] = "journal_segment";
  m["per_directory"]["events_per_segment"] = 4;
  CHECK(create_rate(m, "unique") == Approx(1 / (kCreate_s + 3 * kPerDir_s)).epsilon(0.01));
}
