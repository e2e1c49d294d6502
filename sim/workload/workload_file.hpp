// Workload JSON files (e.g. validation/lu1695/workload-unique.json):
//   {"generator": "metabench", "ranks": 512, "ranks_per_node": 16, "seed": 1, "think_time": "0s",
//    "think_distribution": "constant" | "exponential",
//    "metabench": {"files": 1000000, "dir_mode": "unique", "phases": ["create", "stat", "unlink"]}}
//   {"generator": "mdtest", "ranks": 100,
//    "mdtest": {"n": 5000, "u": true, "F": true, "D": false, "w": 3900, "e": 3900, "i": 3}}
#pragma once
#include "workload/synthetic.hpp"

#include <cstdint>
#include <memory>
#include <string>

namespace pfsim {

// Largest -w / -e per file accepted (byte counts beyond ~1.8e19 overflow SimGrid's 64-bit sizes).
constexpr double kMaxFileBytes = 1e15;

struct WorkloadSpec {
  SyntheticParams params;
  int ranks_per_node = 0;  // 0 = platform default
  uint64_t seed = 1;
  bool ranks_given = true;  // the file states "ranks" (else 1 stands in, and the command line must give --ranks)
};

WorkloadSpec parse_workload(const nlohmann::json& j, const std::string& file);
WorkloadSpec load_workload(const std::string& file);

// The same spec at another rank count (sweeps): the tool parameters are kept (metabench keeps the total
// file count, mdtest keeps -n per rank).
WorkloadSpec with_ranks(const WorkloadSpec& spec, int ranks);

}  // namespace pfsim
