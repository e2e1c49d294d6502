// IOR's JSON summary (ior -O summaryFormat=JSON [-O summaryFile=F]): read a recorded run's parameters and results, so
// that pfsim ior --from F runs the same test (at its task count or another) and compares; and write one for a
// simulated run, so that the scripts that read IOR's JSON read pfsim's.
#pragma once
#include "workload/ior.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pfsim {

struct IorMeasured {
  std::string access;  // "write" or "read"
  int iteration = 0;
  double bw_MiBps = 0;
  double total_s = 0;
};

struct IorSummary {
  IorOptions options;         // the first test's parameters (its task count in options.ranks)
  int tasks_per_node = 0;
  bool reorder = false;        // reorderTasks (-C)
  std::string command_line;    // "Command line"
  std::string test_file;       // Parameters.testFileName
  std::vector<IorMeasured> results;
};

// Reads an IOR JSON summary; invalid_argument naming the file and the field (tests[0].Parameters.transferSize) and
// what was expected, for a malformed file or a test pfsim does not model (an API other than POSIX, random offsets,
// collective I/O, an fsync per write); naming both fields and their values when two that state one value disagree
// (blockSize and Options.blocksize, a result's blockKiB or the command line's -b; repetitions and the results;
// writeFile 0 and write results; Options.tasks and tasksPerNode x nodes).
IorSummary read_ior_summary(const std::string& path);

}  // namespace pfsim
