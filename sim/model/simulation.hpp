// Runs one simulation: platform + workload -> records. SimGrid allows one engine per process, so a
// process runs one simulation; sweeps fork one process per point.
#pragma once
#include "config/platform_config.hpp"
#include "report/records.hpp"
#include "workload/workload.hpp"

#include <string>
#include <vector>

namespace pfsim {

struct RunOptions {
  int ranks_per_node = 0;     // 0 = the platform's clients.ranks_per_node
  uint64_t seed = 1;          // random streams (service-time sampling)
  bool keep_samples = false;  // keep every operation's (rank, start, runtime) for latency files
  // Latency percentiles from constant-memory histograms (report/records.hpp) instead of every latency (4 bytes
  // per operation): for runs that keep no samples and must not grow with their length.
  bool latency_histograms = false;
  // Each rank's end of every phase (PhaseRecord::rank_end_s: 8 bytes per rank and phase), for the tools' per-process
  // times (md-workbench's "process max/min/mean", md-real-io's per-rank lines) without per-operation samples.
  bool rank_times = false;
  std::vector<std::string> simgrid_args;  // e.g. "--log=pfsim_client.thres:debug"
  // Simulated seconds after which a run that has not finished stops with an error (0: no limit). A guard
  // against configurations that never end, e.g. RPC timeouts below the queueing delay resent at once
  // (congestion collapse, docs/mechanisms.md (d)).
  double time_limit_s = 0;
  // The caller's warnings about this run ("pfsim: warning: " is prepended), printed with run_warnings' once every
  // check before the run has passed, so that a refused run says one thing.
  std::vector<std::string> warnings;
  // A sweep point's name ("640 ranks", "640 ranks with oss.count=4"): begins each of the run's warnings, so that the
  // lines of points that run side by side say which point they are of. "": a single run.
  std::string point;
};

struct RunInfo {
  int ranks = 0;
  int nodes = 0;
  int ranks_per_node = 0;
  double wall_s = 0;
};

RunRecords run_simulation(const config::PlatformConfig& platform, const Workload& workload,
                          const RunOptions& options, RunInfo* info = nullptr);
// The checks run_simulation makes before it starts (service demands of the workload's operations, SimGrid options,
// the actor count against vm.max_map_count): a caller that prints progress runs them first, so that a refused run
// says one thing. Throws as run_simulation does.
void check_before_run(const config::PlatformConfig& platform, const Workload& workload, const RunOptions& options);
// The warnings a run prints on stderr before it starts (one line each, "pfsim: warning: ..."): parameters that take
// a model past its data or a run past hours. `pfsim replay --check` prints them for each rank count.
std::string run_warnings(const config::PlatformConfig& platform, const Workload& workload, const RunOptions& options);

}  // namespace pfsim
