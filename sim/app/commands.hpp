// Sub-commands implemented outside main.cpp; each parses its own arguments (argv[1] is the command name)
// and returns the process exit status (2 for bad input, with one message naming the file/line/field).
#pragma once
#include "config/platform_config.hpp"
#include "config/units.hpp"

#include <nlohmann/json.hpp>
#include <cctype>
#include <filesystem>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include <stdexcept>
#include <string>

namespace pfsim::app {

// pfsim's version, in every results file ("pfsim_version") and the tools' output lines it prints.
inline constexpr const char* kVersion = "0.1.0";

// --set PATH=VALUE overrides applied to a platform's JSON before it is parsed (so they are validated like the
// file); a bad path or value is a ConfigError naming the --set (exit status 2). An object value is merged into the
// object at its path (its fields override, the others stay, a null field is removed); any other value replaces. (sim/app/platform_cli.cpp)
nlohmann::json apply_sets(nlohmann::json j, const std::vector<std::string>& sets);
// The platform file with its --set overrides; an error in an overridden field names the --set. Its warnings (a
// warning about an override names the --set: "--set PATH=VALUE: ...") are printed on stderr.
config::PlatformConfig load_platform(const std::string& file, const std::vector<std::string>& sets);
// The same, its warnings left in the result's `warnings` for the caller to print (--vary names its values in them).
config::PlatformConfig load_platform_unprinted(const std::string& file, const std::vector<std::string>& sets);
// A bulk I/O run (IOR, a replayed IOR or DXT trace) on a platform whose clients.load_delay has a law for read or
// write: that law (fitted on a metadata tool's small objects, e.g. Mistral's md-real-io 3.9 KB reads) delays each
// read() / write() call of the run whatever its size. The warning's text, or "" when none applies. A law that states
// the size it was fitted on (fitted_size) is not in it: run_simulation says, after the run, when that law delayed
// calls of another size.
std::string bulk_load_law_warning(const config::PlatformConfig& platform, bool reads, bool writes);

// Output paths are checked before a run, so that a run never ends in an unwritable output (exit status 2):
// a file must be a regular file or absent in an existing writable directory (a FIFO, link or device is
// refused: the atomic rename would replace it); a directory must be a writable one, or be missing in an existing
// directory (the run creates it, as the tools create their output directory, but not its parents: a typo in a
// parent would otherwise make a tree anywhere, helper-129); a prefix has no '/'; two outputs may not name the same
// path. `typed`: the option's value as given when it is not the directory (-L PREFIX, --savePerOpDataCSV=PREFIX).
void check_output_file(const std::string& option, const std::string& path);
void check_output_dir(const std::string& option, const std::string& path, const std::string& typed = "");
// Files already in an output directory that a run may leave behind: those named <prefix>-*<suffix> there, with their
// modification times, taken before the run writes its own (--latency-dir: <prefix>-*.csv; a sweep's --results-dir:
// ranks-*.json). left_unwritten names those the run did not rewrite; warn_unwritten prints one warning naming
// them and what follows (an earlier run's ranks or phases: a replay of the directory would read them).
struct OutputDirSnapshot {
  std::string option, dir, prefix, suffix;
  std::vector<std::pair<std::string, std::filesystem::file_time_type>> files;
};
OutputDirSnapshot snapshot_output_dir(const std::string& option, const std::string& dir, const std::string& prefix,
                                      const std::string& suffix);
std::vector<std::string> left_unwritten(const OutputDirSnapshot& before);
// --check, which writes nothing: the files of `before` a run writing the files named `written` would leave as they are.
std::vector<std::string> left_unwritten(const OutputDirSnapshot& before, const std::set<std::string>& written);
void warn_unwritten(const OutputDirSnapshot& before, const std::string& consequence);
// The warning for the files `stale` of `before` (left_unwritten's).
void warn_unwritten(const OutputDirSnapshot& before, const std::vector<std::string>& stale,
                    const std::string& consequence);
void check_file_prefix(const std::string& option, const std::string& prefix);
// The tools' own latency-file option (md-workbench -L=PREFIX, mdtest --savePerOpDataCSV=PREFIX): files
// PREFIX-...csv, i.e. {directory of PREFIX ("." if none), its last part}; invalid_argument naming `option` when PREFIX
// names a directory.
std::pair<std::string, std::string> split_file_prefix(const std::string& option, const std::string& prefix);
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& options);

// No output may replace an input of the run (platform, workload, trace): an output file may not be an input file
// (same path or same inode), an output directory may not be the trace's directory, nor hold an input file whose
// name the files written there can have (`prefix`...`suffix`), and an output file may not be in a directory the run
// reads (`read_dir`: the trace directory, whatever the file's name). invalid_argument naming the option and the
// input (exit status 2), before the run. Empty paths are skipped.
struct RunInput {
  std::string what;  // "the platform file", "the trace directory", "a file of the trace"
  std::string path;
  bool read_dir = false;  // a directory whose files the import takes by their names (the trace directory)
};
struct RunOutput {
  std::string option;  // "--out", "--latency-dir"
  std::string path;
  bool dir = false;    // a directory the run writes files into
  std::string prefix;  // dir: names of the files written there (prefix...suffix)
  std::string suffix;
};
void check_outputs_spare_inputs(const std::vector<RunOutput>& outputs, const std::vector<RunInput>& inputs);

// The command's options as given, for the results' "inputs" (every run records its effective configuration): each
// option with its value and each switch (true), except where outputs go and what does not change results (--out,
// --latency-dir, --csv, --results-dir, --lmt, --jobs, --quiet: the same run written to two places must give the same
// file). (sim/app/platform_cli.cpp)
nlohmann::json recorded_options(const std::map<std::string, std::string>& opts, const std::vector<std::string>& flags);

// A --log=/--cfg= argument for SimGrid, checked before SimGrid sees it (it aborts on a malformed --log);
// --cfg may not set what the platform file sets (network/model, network/crosstraffic).
void check_simgrid_arg(const std::string& arg);

// The limits the workload and platform files enforce, for the same counts given on the command line.
constexpr long long kMaxRanks = 10000000;
constexpr long long kMaxRanksPerNode = 4096;
constexpr long long kMaxIterations = 10000;  // each iteration's phases keep their records (~7 KB each)

// An integer option's value: plain decimal digits (no 1e2, no 0x10), within [min, max]; invalid_argument naming
// the option otherwise (exit status 2). Shared by every command.
inline long long parse_int_option(const std::string& option, const std::string& text, long long min, long long max)
{
  // Plain decimal digits with an optional leading '-': no sign '+', no spaces, no exponent or hex.
  const size_t digits_from = !text.empty() && text[0] == '-' ? 1 : 0;
  const bool plain = text.size() > digits_from &&
                     text.find_first_not_of("0123456789", digits_from) == std::string::npos;
  try {
    size_t pos = 0;
    long long v = plain ? std::stoll(text, &pos) : 0;
    if (plain && pos == text.size() && v >= min && v <= max)
      return v;
  } catch (const std::exception&) {
  }
  throw std::invalid_argument("option " + option + ": expected an integer in [" + std::to_string(min) + ", " +
                              std::to_string(max) + "], got \"" + text + "\"");
}

// A count or size option of the tools (mdtest -w/-e, md-workbench -I -P -D -R -S) as their parser (IOR's) reads it:
// digits with an optional k/m/g/t/p suffix, powers of 1024 (-w 1m = 1048576), within [min, max]; invalid_argument
// naming the option and the tool otherwise.
inline long long parse_tool_size_option(const std::string& option, const std::string& text, long long min,
                                        long long max, const char* tool)
{
  const double v = units::parse_tool_size(text, 16);
  if (v < static_cast<double>(min) || v > static_cast<double>(max))
    throw std::invalid_argument("option " + option + ": expected an integer in [" + std::to_string(min) + ", " +
                                std::to_string(max) + "], digits with an optional k/m/g/t/p suffix (powers of 1024, as " +
                                tool + " reads them: 4k = 4096), got \"" + text + "\"");
  return static_cast<long long>(v);
}

// The tools' interface option (mdtest and IOR's md-workbench -a, md-real-io's -i), whose case they ignore: POSIX is
// the one modelled.
inline void check_posix_api(const std::string& option, const std::string& value)
{
  std::string v = value;
  for (auto& ch : v)
    ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (v != "posix")
    throw std::invalid_argument(option + " " + value + ": pfsim models the POSIX interface on a Lustre-like file "
                                "system; expected POSIX");
}

// --time-limit T (simulated time, any duration unit or a bare number of seconds, at most 1e9 s; "" = no limit): a
// positive duration or invalid_argument naming the option (exit status 2).
// mdtest's -N S as a run on `platform` applies it (pfsim::mdtest_effective_stride: S times the tasks on node 0 with
// the ranks in blocks over several nodes), `ranks_per_node` the run's option (0: the platform's); pfsim mdtest and
// pfsim run of mdtest workloads (main.cpp), replays of mdtest traces (cmd_replay.cpp).
int64_t mdtest_shift_on(const config::PlatformConfig& platform, int64_t stride, int ranks, int ranks_per_node);

inline double time_limit_s(const std::string& text)
{
  if (text.empty())
    return 0;
  double t = 0;
  if (text.find_first_not_of(" \t") != std::string::npos && text[text.find_first_not_of(" \t")] == '-')
    throw std::invalid_argument("--time-limit: expected a positive duration, got \"" + text + "\"");
  try {
    t = units::parse_duration_s(text, true);  // a bare number is seconds
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--time-limit: ") + e.what());
  }
  if (t <= 0)
    throw std::invalid_argument("--time-limit: expected a positive duration, got \"" + text + "\"");
  return t;
}

int cmd_replay(int argc, char** argv);       // pfsim replay <trace> --ranks M ...     (sim/app/cmd_replay.cpp)
int cmd_mdworkbench(int argc, char** argv);  // pfsim mdworkbench -I -P -D -R -S ...  (sim/app/cmd_replay.cpp)
// pfsim replay of a data-path trace (Darshan DXT dump, IOR per-op file; sim/app/cmd_replay_io.cpp): cmd_replay hands
// its arguments over when one of them names such a file or an --ior-* option is given.
bool is_io_trace_replay(int argc, char** argv);
int cmd_replay_io(int argc, char** argv);

}  // namespace pfsim::app
