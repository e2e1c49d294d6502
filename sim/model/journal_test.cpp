// The MDT journal with jbd2 handle credits (journal.credits, docs/mechanisms.md (g)): closed forms for the
// transaction limit, and the check that a limit below the number of updates waiting for a shared
// directory does not idle its lock. One simulation per TEST_CASE (one SimGrid engine per process).
#include "config/platform_config.hpp"
#include "model/simulation.hpp"
#include "workload/synthetic.hpp"

#include <catch2/catch.hpp>

namespace {

using nlohmann::json;

constexpr double kHold_s = 100e-6;  // directory lock hold per create (H)
constexpr double kBlock_B = 4096;

// 32 client nodes of one rank, 64 threads on 64 cores (only the journal and the lock serialise), creates
// of 200 us before the lock and H under it; the journal logs one block per create on a 100 GB/s device.
// A transaction holds at most max_credits (capacity = 4 x max_credits blocks).
json journal_platform(double max_credits, double credits, double commit_latency_s, double commit_interval_s)
{
  json link = {{"bandwidth", 1e11}, {"latency", 5e-6}};
  return {
      {"name", "journal-test"},
      {"network", {{"model", "CM02"}, {"client_link", link}, {"server_link", link}}},
      {"clients",
       {{"ranks_per_node", 1},
        {"max_mod_rpcs_in_flight", 1},
        {"rpc_overhead", 30e-6},
        {"op_overhead", {{"create", 20e-6}, {"close", 5e-6}}}}},
      {"mds",
       {{"cores", 64},
        {"threads", {{"min", 64}, {"max", 64}}},
        {"service", {{"create", 200e-6}, {"close", 50e-6}}},
        {"service_distribution", "deterministic"},
        {"journal",
         {{"enabled", true},
          {"bytes_per_update", kBlock_B},
          {"block_size", kBlock_B},
          {"capacity", 4 * max_credits * kBlock_B},
          {"commit_interval", commit_interval_s},
          {"commit_latency", commit_latency_s},
          {"disk_write", 1e11},
          {"credits", {{"enabled", true}, {"create", static_cast<long long>(credits)}}}}},
        {"dir_lock", {{"enabled", true}, {"hold", {{"create", kHold_s}}}}}}},
  };
}

struct Run {
  double rate_per_s;
  pfsim::ServerRecord mds;
};

Run run_creates(const json& j, uint64_t files, const std::string& dir_mode)
{
  auto platform = pfsim::config::parse_platform(j, "test");
  pfsim::SyntheticWorkload workload(pfsim::metabench_params(32, files, dir_mode, {"create"}));
  pfsim::RunOptions opts;
  opts.ranks_per_node = 1;
  opts.simgrid_args.push_back("--log=root.thres:warning");
  auto rec = pfsim::run_simulation(platform, workload, opts);
  const auto& ph = rec.phases.at(0);
  REQUIRE(ph.op_count[pfsim::Op::Create] == files);
  return {files / (ph.end_s - ph.start_s), rec.servers.at(0)};
}

}  // namespace

TEST_CASE("credits equal to the transaction limit allow one update per commit", "[journal]")
{
  // C = limit: after one update the transaction (1 used block + C) is full, so the next update requests a
  // commit and waits for the transaction to be replaced, and the next replacement waits for the commit
  // in progress (one commit at a time). Unique directories (the handles are instantaneous): one create per
  // commit, X = 1 / (commit_latency + one block / 100 GB/s).
  const double L = 5e-3;
  const uint64_t files = 400;  // 2 s
  auto r = run_creates(journal_platform(1000, 1000, L, 5.0), files, "unique");
  INFO("rate " << r.rate_per_s << "/s, 1/L " << 1 / L << "/s, commits " << r.mds.journal_commits);
  // 2%: the first create and the last close fall outside the commit cycle (~1 ms of 2 s). Letting a handle
  // into a full transaction, or committing two transactions at once, doubles the rate.
  CHECK(r.rate_per_s == Approx(1 / (L + kBlock_B / 1e11)).epsilon(0.02));
  CHECK(r.mds.journal_commits >= files - 1);
  CHECK(r.mds.journal_handle_waits > 0);
}

TEST_CASE("credits well below the limit never make an update wait", "[journal]")
{
  // 32 waiting handles x 10 credits + at most 10 ms of used blocks (100) stay below 1000: only the lock
  // (1/H) bounds the rate, and a handle waits only while a commit drains the transaction (T_LOCKED).
  auto r = run_creates(journal_platform(1000, 10, 0, 10e-3), 20000, "shared");
  INFO("rate " << r.rate_per_s << "/s, waits " << r.mds.journal_handle_waits << ", commits " << r.mds.journal_commits);
  CHECK(r.rate_per_s == Approx(1 / kHold_s).epsilon(0.02));
  CHECK(r.mds.journal_commits >= 150);  // one per 10 ms of a 2 s phase
}

TEST_CASE("a transaction limit below the updates waiting for a directory does not idle its lock", "[journal]")
{
  // 32 updates wait for the shared directory, each holding a 100-credit handle, against a 1000-credit
  // limit: at most 10 fit in a transaction and the others wait for it to be replaced, which a 20 ms commit
  // (20 x the 1 ms the 10 need under the lock) delays. As in jbd2, credits an ending handle returns go to
  // the next arriving update, so about 10 handles stay queued on the lock and it never idles: the rate
  // stays at 1/H. (This is why the credit limit cannot produce LU-1695's shared-directory collapse:
  // docs/lu1695.md, section 6.) Admitting only at replacement would give about 10 / 20 ms = 500/s.
  auto r = run_creates(journal_platform(1000, 100, 20e-3, 5.0), 20000, "shared");
  INFO("rate " << r.rate_per_s << "/s, waits " << r.mds.journal_handle_waits << ", commits " << r.mds.journal_commits);
  CHECK(r.mds.journal_handle_waits >= r.mds.journal_commits);  // the limit binds: waits at every commit
  CHECK(r.rate_per_s == Approx(1 / kHold_s).epsilon(0.02));
}
