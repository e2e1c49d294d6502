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
  bool keep_file = false;      // keepFile (-k)
  // The command line's -O stoneWallingStatusFile: a file of the recorded machine, neither read nor written by a run
  // --from the summary
  std::string status_file;
  std::vector<IorMeasured> results;
};

// Reads an IOR JSON summary; invalid_argument naming the file and the field (tests[0].Parameters.transferSize) and
// what was expected, for a malformed file or a test pfsim does not model (an API other than POSIX, collective I/O,
// random task reordering); naming both fields and their values when two that state one value disagree
// (blockSize and Options.blocksize, a result's blockKiB or the command line's -b; repetitions and the results;
// writeFile 0 and write results; Options.tasks and tasksPerNode x nodes).
IorSummary read_ior_summary(const std::string& path);

// IOR's text output, as its JSON summary and its stdout print it:
// - a size in Options ("1 MiB", "1.50 GiB", "262144 bytes") in bytes, -1 if it is not one; `unit_B` the unit's size
//   (a two-decimal value is good to half a hundredth of it);
// - a size argument as IOR reads it (units::parse_tool_size), -1 if it is not one;
// - the value of a short option `flag` ("-b") in a "Command line" ("-b 1m", "-b=1m" or "-b1m"; the last one given),
//   "" if absent; and whether a flag without a value ("-F") is given.
double human_bytes(const std::string& text, double& unit_B);
long double ior_size_arg(const std::string& text);
std::string command_option(const std::string& command, const std::string& flag);
bool command_flag(const std::string& command, const std::string& flag);
// Every value of a repeatable option (-O KEY=VALUE), in order: "-O v", "-O=v" or "-Ov".
std::vector<std::string> command_options(const std::string& command, const std::string& flag);
// One -O value's directives ("k=v,k=v", IOR's comma list), every piece in order, empty ones too: the key in lower
// case (IOR compares them so), the value as given, and the piece as typed (for messages).
struct IorDirective {
  std::string key, value, text;
};
std::vector<IorDirective> ior_directive_list(const std::string& given);

}  // namespace pfsim
