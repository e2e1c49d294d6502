// pfsim replay      <trace-dir-or-file> --platform P.json [--check] [--ranks M] [--out R.json] [--latency-dir D]
//                   [--latency-prefix mdreal] [--residual-quantile Q] [--allow-missing] [--object-size B]
//                   [--no-samples] [--max-ops-per-phase K] [--ranks-per-node K] [--seed S] [--set path=value] [--quiet] [--verbose]
// pfsim mdworkbench --platform P.json --ranks N -I 1000 -P 5000 -D 1 -R 3 -S 3900 [--offset 1] [same outputs]
//
// Both print the stdout of the tool generation chosen (--output-format: md-real-io 2017, IOR 4.x's or the 2019
// standalone md-workbench; mdtest for mdtest traces) line for line, from its banner to "Total runtime: ... time: ..."
// (docs/architecture.md, "The tools' own output"), optionally write that tool's latency files and a results JSON
// (effective platform, workload, seed, per-phase rates and per-operation latencies).
#include "app/commands.hpp"
#include "app/sweep.hpp"
#include "config/platform_config.hpp"
#include "config/reader.hpp"
#include "config/units.hpp"
#include "model/simulation.hpp"
#include "report/mdreal_report.hpp"
#include "report/outputs.hpp"
#include "workload/replay.hpp"
#include "workload/synthetic.hpp"
#include "workload/trace.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <tuple>
#include <vector>

namespace pfsim::app {
namespace {

using config::ConfigError;

struct Args {
  std::string command;
  std::vector<std::string> positional;
  std::map<std::string, std::string> opts;
  std::vector<std::string> flags;
  std::vector<std::string> sets;
  std::vector<std::string> simgrid;
  std::vector<std::string> backend;  // pfsim mdworkbench: the interface's options after "--" (recorded, no effect)
};

// Options of replay and mdworkbench: (name, takes a value, help). Anything else is a usage error.
struct OptSpec {
  const char* name;
  bool value;
  const char* help;
};

const std::vector<OptSpec> kCommonOpts{
    {"--platform", true, "FILE platform JSON (required)"},
    {"--set", true, "PATH=VALUE override one platform field (repeatable); an object VALUE is merged into the "
                    "field's object: the fields it names change, the others stay (null removes a field: PATH=null, or {\"f\":null})"},
    {"--ranks-per-node", true, "K ranks per client node (default: the platform's)"},
    {"--seed", true, "S random seed (default 1)"},
    {"--out", true,
     "FILE results JSON (effective configuration, phase rates, latency percentiles); its directory must exist "
     "(--latency-dir is created)"},
    {"--latency-dir", true, "DIR latency files named as the output format's tool does (md-real-io: "
                           "mdreal-<iter>-<phase>-<rank>.csv; md-workbench: lat-...csv; mdtest: mdtest-perop-...csv); created if "
                           "missing, its parent must exist"},
    {"--latency-prefix", true, "NAME prefix of the latency files (default mdreal, lat or mdtest-perop by format)"},
    {"-L", true, "PREFIX the tools' own form of the two above (md-workbench and md-real-io -L=PREFIX): latency files "
                 "PREFIX-...csv, i.e. --latency-dir <PREFIX's directory, . if none> --latency-prefix <its last part>"
                 " (that directory is created if missing, its parent must exist)"},
    {"--output-format", true, "F mdreal2017|mdworkbench|mdworkbench2019|mdtest: phase lines and latency files of that "
                              "tool (mdworkbench: IOR 4.x's md-workbench; mdworkbench2019: the standalone md-workbench "
                              "of 2019) (default: the trace's own, as its saved stdout tells; md-workbench (IOR 4.x) for "
                              "mdworkbench)"},
    {"--latency-all", false, "md-workbench format: one <op>-all.csv of every rank instead of rank 0's files "
                             "(the default for a replayed trace that holds every rank's latencies; pfsim "
                             "mdworkbench, like md-workbench -L, writes rank 0's)"},
    {"--no-samples", false, "(for data-path traces: see above) keep no per-operation samples (16 B per operation; without --out, --latency-dir or an md-workbench/mdtest format none are kept anyway, unless the recorded md-real-io lines carry 'max'); --out then has per-RPC percentiles only, from histograms of constant size (within 0.14%); not with --latency-dir, nor with md-workbench phase lines (add --quiet or --output-format mdreal2017), and md-real-io lines lose 'max'"},
    {"--process-reports", false, "md-workbench and md-real-io formats: after each phase line, one line per rank "
                                 "(\"0: precreate process max:...\", \"0: precreate 0.0s ...\"), as the tools' "
                                 "--process-reports print them (the default for a trace whose recorded output has "
                                 "them)"},
    {"--no-dataset-ops", false, "leave out md-workbench's mkdir/rmdir of the data sets"},
    {"--time-limit", true, "T simulated time (e.g. 600s) after which an unfinished run stops with an error"},
    {"--csv", true, "FILE sweep: --ranks takes a comma-separated list (e.g. 50,100,1000) and each rank count is "
                    "simulated in its own process; FILE gets one row per point and phase (ranks,nodes,phase,"
                    "iteration,items,time_s,rate,p50_s,p99_s: items and rate in objects, p50/p99 of the tool's "
                    "operations), FILE.json the effective configuration and every point's results; printed on stdout "
                    "unless --quiet (not with --out, --latency-dir or the options of the tool's output)"},
    {"--jobs", true, "J sweep: points simulated in parallel (default 1)"},
    {"--results-dir", true, "DIR sweep: keep every point's results JSON there (ranks-<M>.json, as --out writes it); created "
                          "if missing, its parent must exist"},
    {"--vary", true, "PATH=V1,V2,... sweep: every rank count for each value of one platform field (a --set of it per "
                     "point, after the others; e.g. mds.cores=12,24): the table's first column is PATH"},
    {"--quiet", false, "no phase lines on stdout"},
    {"--verbose", false, "SimGrid's info messages"},
    {"--help", false, "this text"},
    {"-h", false, "this text"},
};

const std::vector<OptSpec> kReplayOpts{
    {"--check", false, "import and validate the trace with every check a replay makes (headers, row counts, ranks, "
                       "options, output paths), print the import summary and warnings as a replay does (with --platform, those "
                       "of each --ranks count), simulate and write nothing: exit status 0, or 2 with the one error "
                       "line (--platform is not needed; given, it is checked)"},
    {"--ranks", true, "M ranks to replay (default: the recorded run's, for -L files as its stdout.txt states); rank m "
                      "replays recorded rank m mod N; with --csv a comma-separated list (a sweep)"},
    {"--residual-quantile", true, "Q replay each op's excess over the Q-quantile latency of its kind (e.g. 0.01)"},
    {"--allow-missing", false, "import a trace without the files of a phase the recording has (an operation of a "
                               "benchmark iteration, a whole iteration, the precreate, cleanup or an mdtest File "
                               "phase its output reports): a warning names them, the results' trace.missing lists "
                               "them (those rates are not comparable with the recorded ones)"},
    {"--object-size", true, "B object size in bytes (an integer) when the trace does not record it (a header that "
                            "states another: error)"},
    {"--data-sets", true, "D data sets per rank (md-workbench -D) when no mdreal.txt or stdout.txt states it"},
    {"--offset", true, "K md-workbench --offset, when no mdreal.txt or stdout.txt states it: in "
                       "the benchmark rank r looks up, reads and deletes object f of data set d in rank r-K(d+1)'s set d "
                       "and creates it in rank r+K(d+1)'s"},
    {"--max-ops-per-phase", true, "K replay only the first K operations of every phase per rank (rounded down to whole objects in every data "
                                   "set, at least one per set: a benchmark object is 4 operations)"},
};

const std::vector<OptSpec> kWorkbenchOpts{
    {"--ranks", true, "N ranks (with --csv a comma-separated list: a sweep)"},
    {"-I", true, "OBJ objects per rank and data set per benchmark iteration (default 1000; at most -P: md-workbench "
                 "warns and runs past the precreated objects, pfsim refuses)"},
    {"-P", true, "OBJ objects precreated per rank and data set (default 3000)"},
    {"-D", true, "SETS data sets (directories) per rank (default 10, as md-workbench)"},
    {"-R", true, "ITER benchmark iterations (default 3)"},
    {"-S", true, "BYTES object size (default 3901)"},
    {"--offset", true, "K in the benchmark rank r looks up, reads and deletes object f of data set d in rank "
                       "r-K(d+1)'s set d and creates it in rank r+K(d+1)'s (md-workbench's run_benchmark; default 1)"},
    {"-O", true, "K the same as --offset (md-workbench's short form)"},
    // So that a real command line runs as typed (pfsim mdtest takes -a and -d alike): recorded in --out, no effect.
    {"-a", true, "API md-workbench's I/O interface (IOR 4.x): POSIX, the one modelled; accepted so that a real command "
                 "line runs, recorded"},
    {"-i", true, "IFACE md-workbench's / md-real-io's interface (2017-2019 standalone, -i=posix): posix, the one "
                 "modelled; accepted, recorded"},
    {"-o", true, "PATH md-workbench's directory (IOR 4.x -o): accepted so that a real command line runs, recorded, no "
                 "effect"},
    {"-1", false, "run the precreate phase (md-workbench: with -1, -2 or -3 only the phases chosen run)"},
    {"-2", false, "run the benchmark iterations"},
    {"-3", false, "run the cleanup phase"},
    {"-t", true, "S md-workbench's waiting time between object operations: 0 only (accepted so that a real command "
                 "line runs; a waiting time is refused rather than ignored)"},
    // Accepted so that the recorded command lines run (their Args lines), recorded, no effect on what is simulated:
    {"-v", false, "verbosity (repeatable): accepted, no effect"},
    {"-q", false, "less printing: accepted, no effect"},
    {"-X", false, "verify the data read: accepted, no effect"},
    {"-G", true, "SEED md-workbench's timestamp / data seed: accepted, no effect"},
    {"--dataPacketType", true, "TYPE the written data's pattern: accepted, no effect"},
    {"--print-detailed-stats", false, "accepted; the detailed statistics lines are not printed"},
    {"--run-info-file", true, "FILE md-workbench's resume log: accepted, not written"},
    {"--ignore-precreate-errors", false, "accepted, no effect (a simulated precreate has no errors)"},
    {"--", false, "the interface's own options follow (md-workbench standalone: -- -D=DIR): accepted, recorded, no "
                  "effect"},
};

const OptSpec* find_opt(const std::string& cmd, const std::string& name)
{
  for (const auto* list : {&kCommonOpts, cmd == "replay" ? &kReplayOpts : &kWorkbenchOpts})
    for (const auto& o : *list)
      if (name == o.name)
        return &o;
  return nullptr;
}

void print_help(const std::string& cmd)
{
  std::cout << "usage: pfsim " << cmd << (cmd == "replay" ? " <trace-dir-or-file>" : "") << " [options]\n";
  if (cmd == "replay")
    std::cout << "  traces: md-real-io 2017 directories, md-workbench -L / --latency-all files, mdtest "
                 "--savePerOpDataCSV files;\n"
                 "  data-path traces (a file): Darshan DXT dumps (darshan-dxt-parser output) and IOR -O "
                 "savePerOpDataCSV files\n"
                 "  (<prefix>-<rep>-<rank>.csv), replayed with --platform --ranks --ranks-per-node --seed --set --out "
                 "--time-limit\n"
                 "  --check --quiet --verbose, --no-samples (latency percentiles from histograms of constant size, "
                 "within 0.14%,\n"
                 "  instead of 4 B per operation) and, for IOR per-op files, which record no direction, file mode or "
                 "block size\n"
                 "  (IOR's stdout beside them, whose Command line names savePerOpDataCSV=<prefix>, states them; an "
                 "option it\n"
                 "  contradicts is an error):\n"
                 "    --ior-op write|read        the access (default write)\n"
                 "    --ior-file-per-process     IOR -F: a file per rank (default one shared file)\n"
                 "    --ior-block B              IOR -b (default: every transfer of a rank in one block)\n"
                 "  they print per phase and direction the recorded and simulated operations, MiB, MiB/s and "
                 "latency p50/p99/max\n";
  for (const auto* list : {cmd == "replay" ? &kReplayOpts : &kWorkbenchOpts, &kCommonOpts})
    for (const auto& o : *list) {
      std::string h = o.help, arg;
      if (cmd != "replay" && std::string(o.name) == "--output-format")  // the generator has no trace, nor mdtest phases
        h = "F mdreal2017|mdworkbench|mdworkbench2019: phase lines and latency files of that tool (md-real-io 2017, "
            "IOR 4.x's md-workbench, the standalone md-workbench of 2019; default mdworkbench)";
      if (o.value) {
        auto sp = h.find(' ');
        arg = " " + h.substr(0, sp);
        h = h.substr(sp + 1);
      }
      std::string left = std::string("  ") + o.name + arg;
      std::cout << left << std::string(left.size() < 28 ? 28 - left.size() : 1, ' ') << h << "\n";
    }
  std::cout << "  --log=... --cfg=...       passed to SimGrid\n";
}

// One value per option (-I=5 and -I 5 alike): a second, different one silently won, and the results recorded only it.
void set_once(Args& a, const std::string& option, const std::string& value)
{
  if (a.opts.count(option) && a.opts[option] != value)
    throw std::invalid_argument("option " + option + " given twice (" + a.opts[option] + " and " + value +
                                "); give it once");
  a.opts[option] = value;
}

// md-workbench options that change what runs and that pfsim mdworkbench does not model: refused by name.
void refuse_unsupported(const std::string& command, const std::string& name)
{
  static const std::map<std::string, const char*> m{
      {"-w", "stonewall timer: each benchmark iteration stops after w seconds"},
      {"-W", "stonewall wear-out"},
      {"--read-only", "a benchmark of lookups and reads only"},
      {"--start-item", "start at a later object"},
      {"-T", "adaptive waiting time"},
      {"--allocateBufferOnGPU", "buffers on a GPU"},
  };
  if (command != "mdworkbench")
    return;
  if (auto it = m.find(name); it != m.end())
    throw std::invalid_argument("md-workbench option " + name + " (" + it->second + ") is not supported by pfsim "
                                "mdworkbench, which runs every chosen phase to its end; run without it");
}

Args parse(int argc, char** argv)
{
  Args a;
  a.command = argv[1];
  for (int i = 2; i < argc; ++i) {
    std::string s = argv[i];
    if (s.rfind("--log=", 0) == 0 || s.rfind("--cfg=", 0) == 0) {
      check_simgrid_arg(s);
      a.simgrid.push_back(s);
    } else if (s == "--" && a.command == "mdworkbench") {
      // md-workbench passes what follows "--" to its interface (the POSIX plugin's -D=DIR): recorded, no effect. A
      // pfsim option there would be lost silently: refused.
      for (++i; i < argc; ++i) {
        const std::string b = argv[i];
        const std::string name = b.substr(0, b.find('='));
        if (b.rfind("--", 0) == 0 && find_opt(a.command, name) != nullptr)
          throw std::invalid_argument("option " + name + " after \"--\": what follows \"--\" are the interface's "
                                      "own options (md-workbench: -- -D=DIR); give pfsim's options before it");
        a.backend.push_back(b);
      }
      a.flags.emplace_back("--");
    } else if (s.size() > 1 && s[0] == '-') {
      auto eq = s.find('=');
      const OptSpec* before_eq = eq == std::string::npos ? nullptr : find_opt(a.command, s.substr(0, eq));
      // md-workbench style -I=1000, and --name=value for an option that takes a value (as the Args line prints
      // them: "--offset=1"); --set keeps its own PATH=VALUE form
      if (eq != std::string::npos && (s[1] != '-' || (before_eq && before_eq->value && s.substr(0, eq) != "--set"))) {
        refuse_unsupported(a.command, s.substr(0, eq));
        if (!find_opt(a.command, s.substr(0, eq)))
          throw std::invalid_argument("unknown option " + s.substr(0, eq) + " for \"" + a.command + "\" (pfsim " +
                                      a.command + " --help lists them)");
        if (eq + 1 == s.size())
          throw std::invalid_argument("option " + s.substr(0, eq) + " needs a non-empty value");
        set_once(a, s.substr(0, eq), s.substr(eq + 1));
        continue;
      }
      const OptSpec* spec = find_opt(a.command, s);
      if (!spec)
        refuse_unsupported(a.command, s);
      if (!spec)
        throw std::invalid_argument("unknown option " + s + " for \"" + a.command + "\" (pfsim " + a.command +
                                    " --help lists them)");
      if (!spec->value) {
        a.flags.push_back(s);
        continue;
      }
      if (i + 1 >= argc)
        throw std::invalid_argument("option " + s + " needs a value");
      if (argv[i + 1][0] == '\0')
        throw std::invalid_argument("option " + s + " needs a non-empty value");
      // "--csv --quiet": the next option is not the value (it wrote a file named --quiet)
      if (std::string(argv[i + 1]).rfind("--", 0) == 0)
        throw std::invalid_argument("option " + s + " needs a value, got the option " + argv[i + 1] + " (write " + s +
                                    "=" + argv[i + 1] + " for a value that starts with --)");
      if (s == "--set")
        a.sets.emplace_back(argv[++i]);
      else
        set_once(a, s, argv[++i]);
    } else {
      a.positional.push_back(s);
    }
  }
  if (auto o = a.opts.find("-O"); o != a.opts.end()) {  // md-workbench's -O is --offset
    parse_int_option("-O", o->second, 0, 1000000000);  // an error names the option typed (as --offset's range)
    if (a.opts.count("--offset") && a.opts["--offset"] != o->second)
      throw std::invalid_argument("-O " + o->second + " and --offset " + a.opts["--offset"] + " disagree (-O is "
                                  "md-workbench's short form of --offset)");
    a.opts["--offset"] = o->second;
    a.opts.erase(o);
  }
  // The tools' -L=PREFIX (md-workbench's Args line prints it, md-real-io's header as latency=PREFIX): the files go
  // next to PREFIX, named PREFIX-<iter>-... . "-L" stays in the options, so that the errors and --out name it.
  if (auto l = a.opts.find("-L"); l != a.opts.end()) {
    for (const char* o : {"--latency-dir", "--latency-prefix"})
      if (a.opts.count(o))
        throw std::invalid_argument("-L " + l->second + " and " + o + " " + a.opts[o] + ": -L PREFIX is --latency-dir "
                                    "<its directory> --latency-prefix <its last part>; give one form");
    std::tie(a.opts["--latency-dir"], a.opts["--latency-prefix"]) = split_file_prefix("-L", l->second);
  }
  for (const char* api : {"-a", "-i"})
    if (auto it = a.opts.find(api); it != a.opts.end())
      check_posix_api(api, it->second);
  return a;
}

bool flag(const Args& a, const std::string& f)
{
  return std::find(a.flags.begin(), a.flags.end(), f) != a.flags.end();
}

std::string opt(const Args& a, const std::string& k, const std::string& d = "")
{
  auto it = a.opts.find(k);
  return it == a.opts.end() ? d : it->second;
}

double opt_num(const Args& a, const std::string& k, double d, double min, double max)
{
  auto it = a.opts.find(k);
  if (it == a.opts.end())
    return d;
  try {
    size_t pos = 0;
    double v = std::stod(it->second, &pos);
    if (pos != it->second.size() || !(v >= min && v <= max))  // NaN fails both
      throw std::invalid_argument("");
    return v;
  } catch (const std::exception&) {
    std::ostringstream range;
    range << "[" << min << ", " << max << "]";
    throw std::invalid_argument("option " + k + ": expected a number in " + range.str() + ", got \"" + it->second +
                                "\"");
  }
}

int opt_int(const Args& a, const std::string& k, int d, int min, long long max = 1000000000)
{
  auto it = a.opts.find(k);
  return it == a.opts.end() ? d : static_cast<int>(parse_int_option(k, it->second, min, max));
}

// md-workbench's own integer options (-I -P -D -R -S) as its parser reads them: -S=4k is 4096 bytes.
int tool_int(const Args& a, const std::string& k, int d, int min, int max = 1000000000)
{
  auto it = a.opts.find(k);
  return it == a.opts.end() ? d : static_cast<int>(parse_tool_size_option(k, it->second, min, max, "md-workbench"));
}

// A sweep (--csv) writes its table, the table's configuration file and --results-dir; a run writes --out and the
// tool's outputs. Options of the other kind are refused, not ignored.
void check_sweep_options(const Args& a)
{
  const bool sweep = a.opts.count("--csv") > 0;
  if (sweep) {
    for (const char* o : {"--out", "-L", "--latency-dir", "--latency-prefix", "--output-format"})
      if (a.opts.count(o))
        throw std::invalid_argument(std::string("--csv: a sweep writes its table and each point's results "
                                                "(--results-dir), not ") + o + "; run one rank count for it");
    for (const char* f : {"--latency-all", "--process-reports"})
      if (flag(a, f))
        throw std::invalid_argument(std::string("--csv: a sweep writes its table and each point's results "
                                                "(--results-dir); drop ") + f);
    if (!a.opts.count("--ranks"))
      throw std::invalid_argument("--csv: a sweep needs --ranks LIST (comma-separated rank counts)");
    opt_int(a, "--jobs", 1, 1, 1024);  // before the import
  } else {
    for (const char* o : {"--jobs", "--results-dir", "--vary"})
      if (a.opts.count(o))
        throw std::invalid_argument(std::string(o) + " is an option of a sweep: add --csv FILE and a --ranks list");
  }
}

// (after check_sweep_options, which both commands call first)
void check_output_paths(const Args& a)
{
  check_output_file("--out", opt(a, "--out"));
  check_output_file("--csv", opt(a, "--csv"));
  if (!opt(a, "--csv").empty())
    check_output_file("--csv (its configuration file)", opt(a, "--csv") + ".json");
  if (a.opts.count("-L"))  // (its directory is --latency-dir: the error names the option typed)
    check_output_dir("-L", opt(a, "--latency-dir"), a.opts.at("-L"));
  else
    check_output_dir("--latency-dir", opt(a, "--latency-dir"));
  check_output_dir("--results-dir", opt(a, "--results-dir"));
  check_file_prefix("--latency-prefix", opt(a, "--latency-prefix"));
  check_distinct_outputs({{"--out", opt(a, "--out")},
                          {"--csv", opt(a, "--csv")},
                          {"--csv (its configuration file)", opt(a, "--csv").empty() ? "" : opt(a, "--csv") + ".json"},
                          {"--latency-dir", opt(a, "--latency-dir")},
                          {"--results-dir", opt(a, "--results-dir")}});
}

// --ranks: one count, or with --csv the sweep's list. 0 = absent (the recorded count).
std::vector<int> ranks_of(const Args& a)
{
  // (a sweep's list is checked point by point with --check and no --csv)
  if (a.opts.count("--csv") || (flag(a, "--check") && opt(a, "--ranks").find(',') != std::string::npos))
    return parse_rank_list("--ranks", opt(a, "--ranks"));
  if (opt(a, "--ranks").find(',') != std::string::npos)
    throw std::invalid_argument("--ranks " + opt(a, "--ranks") + ": a list of rank counts is a sweep: add --csv FILE "
                                "(or --check to check each count)");
  return {opt_int(a, "--ranks", 0, 1, kMaxRanks)};
}

// md-real-io 2017's or md-workbench's header for what this run simulated (pfsim's importer reads both:
// sim/workload/trace.cpp read_mdreal_header): -P and -I from rank 0's creates per data set in the precreate and the
// first benchmark iteration (so a header-less trace and --max-ops-per-phase give the counts the latency files hold;
// in md-workbench's --read-only mode the benchmark reads and creates nothing: its reads), -R from the benchmark
// phases. valid = false when the counts do not split into the data sets (no true header exists).
struct SimulatedParams {
  bool valid = false;
  int64_t P = 0, I = 0;
  uint64_t D = 1;
  int R = 0;
  bool read_only = false;
};

SimulatedParams simulated_params(const ReplayWorkload& w)
{
  SimulatedParams out;
  const auto& p = w.trace().params;
  const uint64_t d = static_cast<uint64_t>(std::max(1, p.data_sets));
  const int create = static_cast<int>(trace::TraceOp::Create), read = static_cast<int>(trace::TraceOp::Read);
  int64_t P = -1, I = -1;
  int R = 0;
  bool read_only = false;
  for (int ph = 0; ph < w.phase_count(); ++ph) {
    const auto kind = w.trace().phases[static_cast<size_t>(ph)].kind;
    if (kind == trace::PhaseKind::Benchmark)
      ++R;
    if ((kind != trace::PhaseKind::Precreate || P >= 0) && (kind != trace::PhaseKind::Benchmark || I >= 0))
      continue;
    const auto counts = w.kind_counts(0, ph);
    uint64_t creates = counts[static_cast<size_t>(create)], reads = counts[static_cast<size_t>(read)];
    if (kind == trace::PhaseKind::Benchmark && creates == 0 && reads > 0) {
      read_only = true;
      creates = reads;
    }
    if (creates % d != 0)
      return out;
    (kind == trace::PhaseKind::Precreate ? P : I) = static_cast<int64_t>(creates / d);
  }
  // No benchmark phase (-R 0, or md-workbench -1/-3 without -2): -I and -R are what the trace's header or the
  // generator's options state; no precreate (-2/-3 without -1): -P is.
  if (I < 0)
    I = p.obj_per_proc;
  if (R == 0)
    R = std::max(0, p.iterations);
  if (P < 0)
    P = p.precreate_per_set;
  out = {true, std::max<int64_t>(P, 0), std::max<int64_t>(I, 0), d, R, read_only};
  return out;
}

// mdtest's "Command line used:" and "<tasks> tasks, <files> files" lines for an mdtest trace's replay, as pfsim
// mdtest prints them: saved beside the per-op files as the tool's stdout, they tell a replay of those files whether
// the ranks shared a directory (-u), the files per rank (-n, when every rank replays as many), the phases (-C -T -E
// -r when not all four), the bytes (-w, -e), the rank shift (-N) and the files' prefix.
std::string mdtest_command_line(const ReplayWorkload& w, const std::string& perop_prefix, int nodes,
                                const std::vector<int>& node_of_rank)
{
  const auto& t = w.trace();
  std::ostringstream os;
  // mdtest's own form ("mdtest-<version> was launched with"); that this is a replay is on stderr
  os << "mdtest-pfsim-" << kVersion << " was launched with " << w.ranks() << " total task(s) on " << nodes << " node(s)\n";
  std::set<std::string> phase_of;  // the File phases the trace has
  for (int ph = 0; ph < w.phase_count(); ++ph)
    phase_of.insert(w.phase_name(ph));
  int64_t n = -1;
  if (w.phase_count() > 0) {
    n = static_cast<int64_t>(w.compound_count(0, 0));
    for (int r = 1; r < std::min(w.ranks(), t.ranks) && n >= 0; ++r)
      if (static_cast<int64_t>(w.compound_count(r, 0)) != n)
        n = -1;  // ranks replay different counts: no -n states them
  }
  MdtestCommand cmd;
  cmd.n = n;
  const double size = t.params.object_size_B;
  cmd.w = phase_of.count("File creation") ? size : 0;
  cmd.e = phase_of.count("File read") ? size : 0;
  cmd.u = !t.shared_dir;
  cmd.F = true;
  cmd.stride = t.mdtest_stride;  // -N: the replay shifts the stat, read and removal ranks as the recorded run did
  cmd.shift = w.options().mdtest_stride > 0 ? w.options().mdtest_stride : 0;  // (as applied: mdtest's V-0 line)
  if (phase_of.size() < 4)
    for (const auto& [name, flag] : std::vector<std::pair<std::string, std::string>>{
             {"File creation", "-C"}, {"File stat", "-T"}, {"File read", "-E"}, {"File removal", "-r"}})
      if (phase_of.count(name))
        cmd.only_phases.push_back(flag);
  cmd.perop_prefix = perop_prefix;
  cmd.tasks = w.ranks();
  cmd.nodemap = nodemap_line(node_of_rank);
  os << mdtest_command_lines(cmd);
  return os.str();
}

// The parameters the run simulated, for the results JSON (what a header-less trace left to the counts).
nlohmann::json simulated_params_json(const SimulatedParams& s, const ReplayWorkload& w)
{
  if (!s.valid)
    return nullptr;
  const auto& p = w.trace().params;
  return {{"obj_per_proc", s.I},       {"precreate_per_set", s.P}, {"data_sets", s.D}, {"iterations", s.R},
          {"object_size_B", p.object_size_B}, {"offset", p.offset}, {"read_only", s.read_only}};
}

// What the tools print before their phase lines besides the simulated parameters.
struct HeaderContext {
  std::vector<std::string> extra_args;  // md-workbench's output options as its Args line lists them ("-L=lat", ...)
  // Options recorded without effect that the tool's own lines show: -a POSIX, -o PATH (IOR 4.x), -i IFACE (standalone)
  std::map<std::string, std::string> lead;
  std::vector<std::string> interface_options;  // the standalone tools' interface options after "--" (-D=DIR)
  std::string latency;                         // md-real-io's and the standalone md-workbench's -L prefix ("": none)
  bool latency_all = false, process_reports = false;
  std::array<bool, 3> phases_run{true, true, true};  // precreate, benchmark, cleanup (the -1 -2 -3 the tools list)
  std::vector<int> node_of_rank;                     // the simulated placement, for IOR's Nodemap
  // md-real-io 2017: the later build (64ab18e, ../shared/data/tool-outputs/md-real-io-2017) lists stonewall-timer and
  // run-info-file too; the Mistral recordings' (5044ecc) does not.
  bool later_2017_build = false;
};

// The POSIX interface's root directory as md-real-io and the standalone md-workbench list it ("root-dir=DIR" after the
// option block): its -D=DIR or --root-dir=DIR after "--", else the plugin's default "out".
std::string root_dir_of(const std::vector<std::string>& interface_options)
{
  std::string dir = "out";
  for (const auto& x : interface_options)
    for (const char* key : {"-D=", "--root-dir="})
      if (x.rfind(key, 0) == 0)
        dir = x.substr(std::string(key).size());
  return dir;
}

// The tool's lines before its first phase line (as a file of the trace's own form: pfsim replay reads -I, -P, -D, -R,
// -S and the offset back from them):
//   md-workbench (IOR 4.x)   Args: md-workbench "-I=20" ... / Nodemap: 11 / MD-Workbench total objects: ... time: ...
//   md-workbench 2019        Args: md-workbench ... / MD-Workbench total objects: ... time: ... / md-real-io's option
//                            block (the tool's option table order, "key=value " for integers) / root-dir=DIR / blank
//   md-real-io 2017          MD-REAL-IO total objects: ... time: ... / its option block / root-dir=DIR / blank
// "time:" is simulated_date(0); "WARNING: num > precreate ..." follows the banner when -I > -P, as in the tools. Without
// the parameters (a trace whose counts do not give them) only the Nodemap, which needs none.
std::string tool_header(ReportFormat format, const SimulatedParams& s, const ReplayWorkload& w, const HeaderContext& c)
{
  const std::string nodemap = format == ReportFormat::MdWorkbench ? nodemap_line(c.node_of_rank) : "";
  if (!s.valid)
    return nodemap;
  const auto& p = w.trace().params;
  const int64_t P = s.P, I = s.I;
  const uint64_t d = s.D;
  const int R = s.R;
  const bool read_only = s.read_only;
  const double ranks = w.ranks();
  const double objects = ranks * static_cast<double>(d) * static_cast<double>(P + I * R);
  const double workingset_MiB = ranks * static_cast<double>(d) * static_cast<double>(P) * p.object_size_B / 1048576.0;
  char size[32], totals[160];
  std::snprintf(size, sizeof size, "%.15g", p.object_size_B);
  std::snprintf(totals, sizeof totals, " total objects: %.0f workingset size: %.3f MiB (version: pfsim) time: %s\n",
                objects, workingset_MiB, simulated_date(0).c_str());
  const std::string warning = I > P ? kNumOverPrecreateWarning : "";
  const std::string interface = c.lead.count("-i") ? c.lead.at("-i") : "posix";
  std::ostringstream o;
  if (is_mdworkbench(format)) {
    o << "Args: md-workbench ";
    if (format == ReportFormat::MdWorkbench) {
      for (const char* api : {"-a", "-o"})  // IOR 4.x's md-workbench, typed first in its real command lines
        if (c.lead.count(api) != 0)
          o << "\"" << api << "\" \"" << c.lead.at(api) << "\" ";
    } else if (c.lead.count("-i") != 0) {  // the standalone tool's interface (its real command lines: "-i=posix" first)
      o << "\"-i=" << interface << "\" ";
    }
    o << "\"-I=" << I << "\" \"-P=" << P << "\" \"-D=" << d << "\" \"-R=" << R << "\" \"-S=" << size
      << "\" \"--offset=" << p.offset << "\"" << (read_only ? " \"--read-only\"" : "");
    for (const auto& x : c.extra_args)
      o << " \"" << x << "\"";
    if (format == ReportFormat::MdWorkbench2019 && !c.interface_options.empty()) {
      o << " \"--\"";
      for (const auto& x : c.interface_options)
        o << " \"" << x << "\"";
    }
    o << "\n" << nodemap << "MD-Workbench" << totals << warning;
    if (format == ReportFormat::MdWorkbench)
      return o.str();
  } else {
    o << "MD-REAL-IO" << totals << warning;
  }
  // md-real-io's and the standalone md-workbench's option block (print_current_options): the options with a value in
  // the tool's table order ("%d " integers, strings as they are, an unset one "=NULL" in 2019's), then the flags set.
  // The interface and the free-memory limits (none in the model) as the tools print their defaults; the phases run
  // (-1 -2 -3, all without them) as "run-..." flags. The output options as the real ones show them (-L=lat
  // --latency-all --process-reports: "latency=lat", "latency-all", "process-reports").
  const bool y2019 = format == ReportFormat::MdWorkbench2019;
  o << "\toffset=" << p.offset << " \n\tinterface=" << interface << "\n\tobj-per-proc=" << I << " \n";
  if (!c.latency.empty() || y2019)
    o << "\tlatency=" << (c.latency.empty() ? "NULL" : c.latency) << "\n";
  o << "\tprecreate-per-set=" << P << " \n\tdata-sets=" << d << " \n\tlim-free-mem=0 \n\tlim-free-mem-phase=0 \n"
    << "\tobject-size=" << size << " \n\titerations=" << R << " \n";
  if (y2019)
    o << "\twaiting-time=0.000000 \n";
  if (y2019 || c.later_2017_build)
    o << "\tstonewall-timer=0 \n";
  if (y2019)
    o << "\tstart-item=0\n";
  if (y2019 || c.later_2017_build)
    o << "\trun-info-file=mdtest.status\n";
  if (c.latency_all)
    o << "\tlatency-all\n";
  for (int k = 0; k < 3; ++k)
    if (c.phases_run[static_cast<size_t>(k)])
      o << (k == 0 ? "\trun-precreate\n" : k == 1 ? "\trun-benchmark\n" : "\trun-cleanup\n");
  if (read_only)
    o << "\tread-only\n";
  if (c.process_reports)
    o << "\tprocess-reports\n";
  // then the interface's options (the POSIX plugin's root directory), each block ended by a blank line
  o << "\n\troot-dir=" << root_dir_of(c.interface_options) << "\n\n";
  return o.str();
}

// Each rank's node as simulated (the Nodemap lines).
std::vector<int> nodes_of_ranks(const ReplayWorkload& w, const RunInfo& info, const config::PlatformConfig& platform)
{
  const bool cyclic = platform.clients.placement == "cyclic";
  std::vector<int> nodes;
  for (int r = 0; r < w.ranks(); ++r)
    nodes.push_back(node_of_rank(r, info.nodes, info.ranks_per_node, cyclic));
  return nodes;
}

// The header's context of a run: the output options its Args line lists (`output_args`), the interface options, the
// phases run, the simulated placement of the ranks.
HeaderContext header_context(const Args& a, const trace::Trace& t, const ReplayWorkload& w, const RunInfo& info,
                             const config::PlatformConfig& platform, ReportFormat format,
                             const std::vector<std::string>& output_args, bool later_2017_build)
{
  HeaderContext c;
  c.extra_args = output_args;
  c.lead = a.opts;
  c.interface_options = a.backend;
  c.later_2017_build = later_2017_build;
  for (const auto& x : output_args) {
    if (x.rfind("-L=", 0) == 0)
      c.latency = x.substr(3);
    c.latency_all |= x == "--latency-all";
    c.process_reports |= x == "--process-reports";
  }
  // md-real-io 2017 files are every rank's (its latency-all); md-workbench's as --latency-all says
  if (format == ReportFormat::MdReal2017)
    c.latency_all = !c.latency.empty();
  if (a.command == "mdworkbench" && (flag(a, "-1") || flag(a, "-2") || flag(a, "-3"))) {
    c.phases_run = {flag(a, "-1"), flag(a, "-2"), flag(a, "-3")};
  } else if (a.command != "mdworkbench") {  // a replay runs the recorded phases
    c.phases_run = {false, false, false};
    static_assert(static_cast<int>(trace::PhaseKind::Precreate) == 0 && static_cast<int>(trace::PhaseKind::Cleanup) == 2,
                  "phases_run is indexed by the phase kind");
    for (const auto& ph : t.phases)
      if (ph.kind != trace::PhaseKind::Other)
        c.phases_run[static_cast<size_t>(ph.kind)] = true;
  }
  c.node_of_rank = nodes_of_ranks(w, info, platform);
  return c;
}

config::PlatformConfig platform_of(const Args& a)
{
  std::string file = opt(a, "--platform");
  if (file.empty())
    throw std::invalid_argument("missing --platform FILE");
  return load_platform(file, a.sets);
}

// The options' conflicts with each other and with the trace's format (trace_format "": not known yet, only the
// conflicts of options given explicitly are checked). Returns the output format. Called before the trace is imported
// (its format comes from its file names), so that a bad combination is one error line, not an import first.
ReportFormat check_run_options(const Args& a, const std::string& trace_format, ReportFormat default_format)
{
  const bool explicit_format = a.opts.count("--output-format") > 0;
  const ReportFormat format = explicit_format ? parse_report_format(opt(a, "--output-format")) : default_format;
  const bool known = explicit_format || !trace_format.empty();  // the format is the one the run will use
  if (!trace_format.empty() && format == ReportFormat::Mdtest && trace_format != "mdtest-perop")
    throw std::invalid_argument("--output-format mdtest: only for mdtest traces (their phases are mdtest's); this is a " +
                                trace_format + " workload, use mdreal2017 or mdworkbench");
  // mdtest's phases (File creation, File stat, ...) are not md-real-io or md-workbench phases: their lines would
  // carry names with spaces, and their latency files names neither tool (nor pfsim's importer) reads.
  if (!trace_format.empty() && format != ReportFormat::Mdtest && trace_format == "mdtest-perop")
    throw std::invalid_argument(std::string("--output-format ") + report_format_name(format) +
                                ": an mdtest trace's phases (File creation, File stat, File read, File removal) are "
                                "not " + (format == ReportFormat::MdReal2017 ? "md-real-io" : "md-workbench") +
                                " phases; use --output-format mdtest (the default for an mdtest trace)");
  // What --no-samples cannot give, said before the simulation rather than after it (or printed wrong).
  if (flag(a, "--no-samples")) {
    if (!opt(a, "--latency-dir").empty())
      throw std::invalid_argument("--latency-dir needs per-operation samples (drop --no-samples)");
    // (a sweep, --csv, prints its table, not phase lines)
    if (known && is_mdworkbench(format) && !flag(a, "--quiet") && !a.opts.count("--csv"))
      throw std::invalid_argument("--no-samples: md-workbench's phase lines (per-process times, op-max, latency "
                                  "lists) need per-operation samples; drop --no-samples, or add --quiet or "
                                  "--output-format mdreal2017");
  }
  if (known && flag(a, "--latency-all") && !is_mdworkbench(format))
    throw std::invalid_argument(std::string("--latency-all: md-workbench's one file of every rank; this run writes ") +
                                report_format_name(format) + " files (use --output-format mdworkbench)");
  if (known && flag(a, "--process-reports") && format == ReportFormat::Mdtest)
    throw std::invalid_argument("--process-reports: md-workbench's and md-real-io's per-rank lines; this run prints "
                                "mdtest output");
  return format;
}

// The latency files' name prefix: --latency-prefix, else the one the output format's tool uses.
std::string latency_prefix(const Args& a, ReportFormat format)
{
  return opt(a, "--latency-prefix", format == ReportFormat::MdReal2017 ? "mdreal"
                                    : is_mdworkbench(format)          ? "lat"
                                                                          : "mdtest-perop");
}

// What the run writes, for check_outputs_spare_inputs.
std::vector<RunOutput> outputs_of(const Args& a, ReportFormat format)
{
  const std::string csv = opt(a, "--csv");
  return {{"--out", opt(a, "--out"), false, "", ""},
          {"--csv", csv, false, "", ""},
          {"--csv (its configuration file)", csv.empty() ? csv : csv + ".json", false, "", ""},
          {"--latency-dir", opt(a, "--latency-dir"), true, latency_prefix(a, format), ".csv"},
          {"--results-dir", opt(a, "--results-dir"), true, "ranks-", ".json"}};
}

// md-real-io's phase lines carry the slowest operation ("max <s>s") only with per-operation samples.
// md-real-io 2017's later build prints each phase's slowest operation ("max 2.5807e-04s"), the Mistral runs' build
// does not: a replay prints it as the recorded lines do; pfsim mdworkbench, with no recorded lines, as the later build.
bool prints_max(const Args& a, const trace::Trace& tr)
{
  return a.command == "mdworkbench" ||
         std::any_of(tr.reported.begin(), tr.reported.end(), [](const auto& r) { return r.has_max; });
}

// Whether an md-workbench-format run writes every rank's latency files (-all) or rank 0's: every rank's for
// --latency-all or a replay of a trace with every rank's, rank 0's for a trace of rank 0 only (md-workbench -L files,
// md-real-io files recorded without --latency-all) and for pfsim mdworkbench, as md-workbench -L does.
bool all_ranks_files_of(const Args& a, const trace::Trace& tr)
{
  const bool rank0_trace = tr.format == "md-workbench-rank0" || tr.recorded_ranks > tr.ranks;
  return flag(a, "--latency-all") || (a.command == "replay" && !rank0_trace);
}

void warn_no_samples_max(const Args& a, const trace::Trace& tr, ReportFormat format)
{
  if (format == ReportFormat::MdReal2017 && flag(a, "--no-samples") && !flag(a, "--quiet") && prints_max(a, tr))
    std::fprintf(stderr, "pfsim: warning: --no-samples: the phase lines leave out 'max <s>s' (the slowest "
                         "operation needs per-operation samples)\n");
}

// The simulation options the command line gives (the same for a run and for every point of a sweep).
RunOptions run_options_of(const Args& a, ReportFormat format, bool with_max)
{
  RunOptions o;
  o.ranks_per_node = opt_int(a, "--ranks-per-node", 0, 1, kMaxRanksPerNode);  // absent: the platform's
  o.seed = static_cast<uint64_t>(opt_int(a, "--seed", 1, 0));
  o.time_limit_s = time_limit_s(opt(a, "--time-limit"));
  // Per-operation samples (16 bytes each) are kept only where a report reads them: latency files, the
  // results JSON (per-kind latencies of md-real-io operations; a sweep keeps every point's), md-workbench and mdtest
  // summaries. A later md-real-io 2017 build prints each phase's slowest operation: replayed in the same form.
  o.keep_samples = !flag(a, "--no-samples") &&
                   (!opt(a, "--latency-dir").empty() || !opt(a, "--out").empty() || !opt(a, "--csv").empty() ||
                    format != ReportFormat::MdReal2017 || with_max);
  // Without samples nothing needs every latency: the JSON's per-RPC percentiles come from constant-memory
  // histograms, so the run's memory does not grow with its length.
  o.latency_histograms = !o.keep_samples;
  o.rank_times = true;  // per-process times of the phase lines (8 bytes per rank and phase)
  if (!flag(a, "--verbose"))
    o.simgrid_args.push_back("--log=root.thres:warning");
  o.simgrid_args.insert(o.simgrid_args.end(), a.simgrid.begin(), a.simgrid.end());
  return o;
}

nlohmann::json inputs_of(const Args& a, nlohmann::json inputs, ReportFormat format)
{
  inputs["output_format"] = report_format_name(format);
  inputs["set"] = a.sets;                // already applied in "platform"
  inputs["simgrid_args"] = a.simgrid;    // --cfg/--log passed to SimGrid (they can change results)
  inputs["options"] = recorded_options(a.opts, a.flags);
  return inputs;
}

// The results JSON of a run (what --out holds, and each point of a sweep).
nlohmann::json results_of(const Args& a, const nlohmann::json& inputs, const config::PlatformConfig& platform,
                          const ReplayWorkload& w, const RunOptions& o, const RunInfo& info, RunRecords& records,
                          std::vector<MdrealPhase>& phases, ReportFormat format, bool with_max)
{
  nlohmann::json header = {
      {"pfsim_version", kVersion},
      {"pfsim_command", a.command},
      {"seed", o.seed},
      {"inputs", inputs},
      {"platform", config::effective_json(platform, info.ranks_per_node)},
      {"workload", w.describe()},
      // No wall time here: same inputs and seed must give byte-identical files (it is printed on stderr).
      {"run", {{"ranks", info.ranks}, {"nodes", info.nodes}, {"ranks_per_node", info.ranks_per_node}}},
  };
  if (format != ReportFormat::Mdtest)  // what the printed header states
    header["workload"]["simulated_parameters"] = simulated_params_json(simulated_params(w), w);
  auto results = results_json(records, header);
  results["mdreal"] = mdreal_json(phases, with_max);  // its lines as printed
  return results;
}

// A sweep over --ranks LIST with --csv: each point replays the trace at its rank count in a child process (the trace
// imported once, before the children fork) and keeps the results JSON --out would hold.
// An mdtest trace's -N as a replay at `ranks` applies it: mdtest's rule on the replay's placement
// (mdtest_effective_stride: times the tasks on node 0 with block placement over several nodes); -1 for traces without
// -N (the trace's own: none).
int64_t mdtest_stride_of(const config::PlatformConfig& platform, const trace::Trace& t, int ranks, const RunOptions& o)
{
  return t.mdtest_stride <= 0 ? -1 : mdtest_shift_on(platform, t.mdtest_stride, ranks, o.ranks_per_node);
}

int sweep(const Args& a, const config::PlatformConfig& platform, std::shared_ptr<const trace::Trace> tr,
          const ReplayOptions& ro, const std::vector<int>& ranks, nlohmann::json inputs, ReportFormat default_format,
          const std::string& before_run)
{
  const ReportFormat format = check_run_options(a, tr->format, default_format);
  inputs = inputs_of(a, std::move(inputs), format);
  const bool with_max = format == ReportFormat::MdReal2017 && prints_max(a, *tr);  // each point's JSON lines as printed
  const RunOptions o = run_options_of(a, format, with_max);
  // Every point's workload, built and checked before the first one runs (a bad point is one error line, exit 2); the
  // points' processes use these (forked copies) rather than build them again.
  std::map<int, std::unique_ptr<const ReplayWorkload>> workload_of;
  for (int r : ranks) {
    ReplayOptions rr = ro;
    rr.ranks = r;
    rr.mdtest_stride = mdtest_stride_of(platform, *tr, r, o);
    workload_of[r] = std::make_unique<const ReplayWorkload>(tr, rr);
    check_before_run(platform, *workload_of[r], o);
  }
  SweepSpec spec;
  spec.ranks = ranks;
  spec.csv = opt(a, "--csv");
  spec.jobs = opt_int(a, "--jobs", 1, 1, 1024);
  spec.results_dir = opt(a, "--results-dir");
  spec.quiet = flag(a, "--quiet");
  // --vary: each value's platform, checked with every point's workload before any point runs
  std::vector<config::PlatformConfig> varied;
  if (a.opts.count("--vary")) {
    std::tie(spec.vary_path, spec.vary_values) = parse_vary("--vary", a.opts.at("--vary"));
    varied = vary_platforms(opt(a, "--platform"), a.sets, spec, a.opts.at("--vary"));
    for (const auto& pf : varied)
      for (int r : ranks)
        check_before_run(pf, *workload_of[r], o);
  }
  std::fputs(before_run.c_str(), stderr);
  run_sweep(
      spec,
      [&](int r, int k) {
        const ReplayWorkload& w = *workload_of.at(r);
        const config::PlatformConfig& pf = k < 0 ? platform : varied[static_cast<size_t>(k)];
        RunOptions po = o;
        po.point = sweep_point_name(spec, r, k);  // (its warnings name it)
        RunInfo info;
        RunRecords records = run_simulation(pf, w, po, &info);
        std::fprintf(stderr, "pfsim: %d ranks on %d node(s), %.3f s simulated, %.2f s wall\n", info.ranks, info.nodes,
                     records.end_s, info.wall_s);
        auto phases = mdreal_phases(w, records);  // (takes the samples it regroups from records first)
        nlohmann::json in = inputs;  // the point's own rank count, as a single run's --out states it
        in["options"]["--ranks"] = std::to_string(r);
        if (in.contains("mdworkbench"))
          in["mdworkbench"]["ranks"] = r;
        if (k >= 0) {  // its value is the last --set, as a single run's
          in["options"].erase("--vary");
          in["set"].push_back(spec.vary_path + "=" + spec.vary_values[static_cast<size_t>(k)]);
        }
        return results_of(a, in, pf, w, o, info, records, phases, format, with_max);
      },
      [&](const nlohmann::json& first) {
        nlohmann::json in = inputs;  // with the sweep's rank list
        if (in.contains("mdworkbench"))
          in["mdworkbench"]["ranks"] = ranks;
        auto w = first["workload"];  // the first point's; each point's rank count is in "ranks" and its "run"
        w["ranks"] = nullptr;
        return nlohmann::json{{"inputs", in}, {"workload", w}};
      });
  return 0;
}

// `before_run`: what to print on stderr once every check has passed, just before the simulation (the import line
// and its warnings), so that a refused run prints one line.
int run(const Args& a, const config::PlatformConfig& platform, std::shared_ptr<const trace::Trace> tr,
        const ReplayOptions& ro, nlohmann::json inputs, ReportFormat default_format,
        const std::string& before_run = "")
{
  const ReportFormat format = check_run_options(a, tr->format, default_format);
  inputs = inputs_of(a, std::move(inputs), format);
  const bool with_max = format == ReportFormat::MdReal2017 && prints_max(a, *tr);
  const RunOptions o = run_options_of(a, format, with_max);
  ReplayOptions rw = ro;
  rw.mdtest_stride = mdtest_stride_of(platform, *tr, ro.ranks > 0 ? ro.ranks : tr->ranks, o);
  ReplayWorkload w(tr, rw);
  warn_no_samples_max(a, *tr, format);
  // md-workbench's per-rank lines: asked for, or the recorded run printed them (and is replayed in its form).
  const bool process_reports =
      format != ReportFormat::Mdtest && (flag(a, "--process-reports") || tr->process_reports);
  check_before_run(platform, w, o);
  std::fputs(before_run.c_str(), stderr);
  RunInfo info;
  RunRecords records = run_simulation(platform, w, o, &info);
  std::fprintf(stderr, "pfsim: %d ranks on %d node(s), %.3f s simulated, %.2f s wall\n", info.ranks, info.nodes,
               records.end_s, info.wall_s);
  auto phases = mdreal_phases(w, records);
  std::string lat_dir = opt(a, "--latency-dir");
  // md-workbench's Args line (and md-real-io's option block) lists the options that shaped its output; so does ours.
  const bool all_ranks_files = all_ranks_files_of(a, *tr);
  std::vector<std::string> mdw_output_args;
  const std::string prefix = latency_prefix(a, format);
  if (!lat_dir.empty())  // as typed when given as -L (md-workbench prints its argv)
    mdw_output_args.push_back("-L=" + (a.opts.count("-L") ? opt(a, "-L") : prefix));
  if (!lat_dir.empty() && all_ranks_files)
    mdw_output_args.push_back("--latency-all");
  if (process_reports)
    mdw_output_args.push_back("--process-reports");
  for (const char* phase : {"-1", "-2", "-3"})  // pfsim mdworkbench's phases, when chosen
    if (flag(a, phase))
      mdw_output_args.emplace_back(phase);
  OutputBatch batch;  // the latency files and --out land together, or none of them
  const auto before = snapshot_output_dir("--latency-dir", lat_dir, prefix, ".csv");
  if (!lat_dir.empty()) {  // (check_run_options refused --latency-dir with --no-samples: samples are kept)
    switch (format) {
      case ReportFormat::MdReal2017:
        write_mdreal_latency_files(lat_dir, prefix, phases, w.ranks());
        break;
      case ReportFormat::MdWorkbench:
      case ReportFormat::MdWorkbench2019:
        // A trace with every rank's latencies (md-real-io 2017, --latency-all, mdtest) gives every rank's back;
        // an -L trace (rank 0 only) gives rank 0's files, and so does pfsim mdworkbench, as md-workbench -L does.
        write_mdworkbench_latency_files(
            lat_dir, prefix, phases, all_ranks_files);
        break;
      case ReportFormat::Mdtest:
        write_mdtest_latency_files(lat_dir, prefix, phases, w.ranks(),
                                   tr->params.object_size_B);
        break;
    }
  }
  const SimulatedParams simulated = simulated_params(w);  // for the header printed (the one in --out: results_of)
  std::string out = opt(a, "--out");
  if (!out.empty())
    write_file_atomic(out, results_of(a, inputs, platform, w, o, info, records, phases, format, with_max).dump(2) +
                               "\n");
  batch.commit();
  warn_unwritten(before, "a replay of the directory would read them too");
  if (!flag(a, "--quiet")) {
    const auto& t = *tr;
    // What ran goes to stderr, so that stdout is the tool's own output from its first line (md-workbench's Args:,
    // md-real-io's parameter block), as scripts reading the real tools expect.
    std::cerr << "pfsim " << (a.command == "replay" ? "replay of " + t.format + " " + t.path : std::string("mdworkbench"))
              << ": " << w.ranks() << " ranks";
    if (a.command == "replay")
      std::cerr << " (recorded " << std::max(t.ranks, t.recorded_ranks) << ")";
    std::cerr << ", platform " << platform.name << "\n";
    // The tool's own header (md-real-io's parameter lines, md-workbench's Args line), so that this output saved as
    // the latency directory's mdreal.txt or stdout.txt, as the real tools' output is, describes the trace the
    // latency files form: pfsim replay then reads -D, -S and the offset back instead of assuming them.
    if (format != ReportFormat::Mdtest)
      std::cout << tool_header(format, simulated, w,
                               header_context(a, t, w, info, platform, format, mdw_output_args, with_max));
    if (format == ReportFormat::Mdtest)  // mdtest's lines, its start and end dates as pfsim mdtest prints them
      std::cout << "-- started at " << mdtest_date(0) << " --\n\n"
                << mdtest_command_line(w, lat_dir.empty() ? std::string() : prefix, info.nodes,
                                       nodes_of_ranks(w, info, platform))
                << mdtest_summary_of(phases) << "-- finished at " << mdtest_date(records.end_s) << " --\n\n";
    for (const auto& p : phases)
      if (format == ReportFormat::MdReal2017) {
        std::cout << mdreal_phase_line(p, with_max && !p.samples.empty()) << "\n";
        if (process_reports)
          std::cout << mdreal_rank_lines(p, w.ranks(), with_max);
      }
      else if (is_mdworkbench(format)) {
        std::cout << mdworkbench_phase_line(p, w.ranks(), format) << "\n";
        if (process_reports)
          std::cout << mdworkbench_rank_lines(p, w.ranks(), format);
      }
    // Both tools end with "Total runtime: 73s time: 2017-07-09 00:55:17": the simulated runtime, rounded as the tools
    // round it, and the simulated clock as a date (simulated_date).
    if (format != ReportFormat::Mdtest)
      std::cout << total_runtime_line(records.end_s);
  }
  return 0;
}

}  // namespace

int cmd_replay(int argc, char** argv)
{
  // A Darshan DXT dump or IOR per-op file: the data-path replay (its own options, cmd_replay_io.cpp).
  if (is_io_trace_replay(argc, argv) && !std::any_of(argv + 2, argv + argc, [](const char* s) {
        return std::string(s) == "--help" || std::string(s) == "-h";
      }))
    return cmd_replay_io(argc, argv);
  Args a = parse(argc, argv);
  if (flag(a, "--help") || flag(a, "-h")) {
    print_help(a.command);
    return 0;
  }
  if (a.positional.size() != 1)
    throw std::invalid_argument("replay needs one trace directory or latency file, got " +
                                std::to_string(a.positional.size()));
  // Every option and the platform are checked before the trace is imported (which may take minutes).
  trace::ImportOptions io;
  io.allow_missing = flag(a, "--allow-missing");
  // bytes: an integer, as the headers' object-size= and -S state it
  io.object_size_B = a.opts.count("--object-size") ? static_cast<double>(parse_int_option(
                                                         "--object-size", opt(a, "--object-size"), 0, 1000000000000000LL))
                                                   : 0;
  io.data_sets = opt_int(a, "--data-sets", 0, 1);
  io.offset = opt_int(a, "--offset", -1, 0);
  ReplayOptions ro;
  check_sweep_options(a);
  const std::vector<int> ranks = ranks_of(a);
  ro.ranks = ranks.front();
  ro.residual_quantile = opt_num(a, "--residual-quantile", -1, 0, 1);  // absent: -1 (off)
  ro.dataset_ops = !flag(a, "--no-dataset-ops");
  ro.max_ops_per_phase = static_cast<uint32_t>(opt_int(a, "--max-ops-per-phase", 0, 1));  // absent: 0 (all)
  if (a.opts.count("--output-format"))
    parse_report_format(opt(a, "--output-format"));
  time_limit_s(opt(a, "--time-limit"));
  opt_int(a, "--ranks-per-node", 0, 1, kMaxRanksPerNode);  // read again by run(); bad values must not wait for the import
  opt_int(a, "--seed", 1, 0);
  // --check appended to a planned command line checks its outputs' paths too, and writes nothing.
  const bool check_only = flag(a, "--check");
  check_run_options(a, "", ReportFormat::MdReal2017);  // conflicts of the options alone
  check_output_paths(a);
  std::optional<config::PlatformConfig> platform;
  if (!check_only || a.opts.count("--platform"))
    platform = platform_of(a);
  // The trace's files by name (no file read yet): the options against its format, the outputs against its files.
  const trace::TraceFiles files = trace::list_trace(a.positional[0]);
  const ReportFormat format = check_run_options(a, files.format, report_format_of_trace(files.format));
  std::vector<RunInput> inputs{{"the platform file", opt(a, "--platform")}, {"the trace directory", files.dir, true}};
  for (const auto& f : files.files)
    inputs.push_back({"a file of the trace", f});
  check_outputs_spare_inputs(outputs_of(a, format), inputs);
  auto wall0 = std::chrono::steady_clock::now();
  auto tr = std::make_shared<const trace::Trace>(trace::load_trace(a.positional[0], io));
  double import_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  std::string note;
  if (!flag(a, "--quiet")) {
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.2f", import_s);
    note = "pfsim: imported " + tr->format + " trace " + tr->path + ": " + trace::ranks_text(tr->ranks) + ", " +
           std::to_string(tr->phases.size()) + " phases, " + std::to_string(tr->op_count()) + " operations in " +
           seconds + " s\n";
  }
  for (const auto& w : tr->warnings)
    note += "pfsim: warning: " + w + "\n";
  // A shortened replay under a load law is its own run, not the recording's first K operations: the ranks end their
  // short phases at different times, and the tails run with fewer active ranks than were active when those
  // operations were recorded (a helper measured precreate +63% against the same 200 operations per rank recorded).
  if (ro.max_ops_per_phase > 0 && ro.residual_quantile >= 0 && platform && platform->clients.load_delay.enabled &&
      std::any_of(kAllOps.begin(), kAllOps.end(), [&](Op op) {
        const auto& l = platform->clients.load_delay.law[op];
        return l.set && l.per_unit_s != 0;
      }))
    note += "pfsim: warning: --max-ops-per-phase with clients.load_delay: the ranks end their shortened phases at "
            "different times, so the phase tails run with fewer active ranks than the recording had at those "
            "operations and the load law shrinks their recorded excess; the rates describe this short run, not the "
            "recording's first " + std::to_string(ro.max_ops_per_phase) + " operations per rank (to compare with "
            "those: --set clients.load_delay.enabled=false)\n";
  // Under a load law a replay without --residual-quantile replays none of the recorded latencies: every operation
  // draws the law's delay, a different model (at 1,000 Mistral ranks 12.2k benchmark objects/s against 19.5k with
  // the recorded excess; two README rows were taken that way without knowing it, helper-64).
  if (ro.residual_quantile < 0 && platform && platform->clients.load_delay.enabled) {
    std::string kinds;
    for (Op op : kAllOps)
      if (platform->clients.load_delay.law[op].set)
        kinds += (kinds.empty() ? "" : ", ") + std::string(op_name(op));
    if (!kinds.empty())
      note += "pfsim: note: no --residual-quantile: the recorded latencies are not replayed; every " + kinds +
              " draws its delay from clients.load_delay (the law's mean at the active ranks, a shape quantile, the "
              "rank's factor; the other kinds get none). To replay each operation's recorded excess, as "
              "validation/mistral does: --residual-quantile 0.01\n";
  }
  if (check_only) {
    std::fputs(note.c_str(), stderr);
    const ReportFormat f = check_run_options(a, tr->format, report_format_of_trace(tr->format, tr->output_generation));
    for (int r : ranks) {  // what the replay builds before it simulates (rank mapping, limits, residual floors)
      ReplayOptions rr = ro;
      rr.ranks = r;
      ReplayWorkload w(tr, rr);
      if (platform) {
        RunOptions o = run_options_of(a, f, false);
        if (ranks.size() > 1)  // (a sweep's check: each rank count's warnings name it, as its point's would)
          o.point = sweep_point_name(SweepSpec{}, r, -1);
        check_before_run(*platform, w, o);
        std::fputs(run_warnings(*platform, w, o).c_str(), stderr);
      }
      // The files of the latency directory this replay would leave as they are (an earlier run's), as a run warns.
      const std::string lat_dir = opt(a, "--latency-dir");
      if (!lat_dir.empty()) {
        const std::string prefix = latency_prefix(a, f);
        const auto before = snapshot_output_dir("--latency-dir", lat_dir, prefix, ".csv");
        warn_unwritten(before, left_unwritten(before, latency_file_names(w, f, prefix, all_ranks_files_of(a, *tr))),
                       "a replay of the directory would read them too");
      }
    }
    warn_no_samples_max(a, *tr, f);
    std::string unwritten;
    for (const char* o : {"--out", a.opts.count("-L") ? "-L" : "--latency-dir", "--csv", "--results-dir"})
      if (a.opts.count(o))
        unwritten += std::string(unwritten.empty() ? "" : ", ") + o + " " + opt(a, o);
    if (!unwritten.empty())
      std::fprintf(stderr, "pfsim: --check: %s checked, not written\n", unwritten.c_str());
    return 0;
  }
  const nlohmann::json recorded = {{"trace", a.positional[0]}, {"platform_file", opt(a, "--platform")}};
  if (a.opts.count("--csv"))
    return sweep(a, *platform, tr, ro, ranks, recorded, report_format_of_trace(tr->format, tr->output_generation), note);
  return run(a, *platform, tr, ro, recorded, report_format_of_trace(tr->format, tr->output_generation), note);
}

int cmd_mdworkbench(int argc, char** argv)
{
  Args a = parse(argc, argv);
  if (flag(a, "--help") || flag(a, "-h")) {
    print_help(a.command);
    return 0;
  }
  if (!a.positional.empty())
    throw std::invalid_argument("unexpected argument \"" + a.positional[0] + "\"");
  MdWorkbenchParams p;
  // The rank count is the question a run answers: never a silent default (as pfsim mdtest and metabench).
  if (!a.opts.count("--ranks"))
    throw std::invalid_argument("mdworkbench needs --ranks N (MPI ranks)");
  check_sweep_options(a);
  const std::vector<int> ranks = ranks_of(a);
  p.ranks = ranks.front();
  p.obj_per_proc = tool_int(a, "-I", p.obj_per_proc, 0);
  p.precreate_per_set = tool_int(a, "-P", p.precreate_per_set, 0);
  p.data_sets = tool_int(a, "-D", p.data_sets, 1);
  p.iterations = tool_int(a, "-R", p.iterations, 0, kMaxIterations);
  p.object_size_B = static_cast<double>(tool_int(a, "-S", static_cast<int>(p.object_size_B), 0, 1000000000));  // bytes
  p.offset = opt_int(a, "--offset", p.offset, 0);
  if (flag(a, "-1") || flag(a, "-2") || flag(a, "-3")) {
    p.run_precreate = flag(a, "-1");
    p.run_benchmark = flag(a, "-2");
    p.run_cleanup = flag(a, "-3");
  }
  if (auto t = a.opts.find("-t"); t != a.opts.end()) {
    char* end = nullptr;
    const double wait_s = std::strtod(t->second.c_str(), &end);
    if (end == t->second.c_str() || *end != '\0' || !(wait_s >= 0))
      throw std::invalid_argument("option -t: expected a waiting time in seconds (a number >= 0), got \"" + t->second +
                                  "\"");
    if (wait_s != 0)
      throw std::invalid_argument("option -t " + t->second + ": pfsim mdworkbench models no waiting time between "
                                  "object operations (-t 0 only; a recorded trace's think times are replayed by pfsim "
                                  "replay)");
  }
  time_limit_s(opt(a, "--time-limit"));
  check_run_options(a, "md-workbench-generated", ReportFormat::MdWorkbench);
  check_output_paths(a);
  check_outputs_spare_inputs(outputs_of(a, ReportFormat::MdWorkbench), {{"the platform file", opt(a, "--platform")}});
  auto platform = platform_of(a);
  auto tr = std::make_shared<const trace::Trace>(mdworkbench_trace(p));
  ReplayOptions ro;
  ro.ranks = p.ranks;
  ro.dataset_ops = !flag(a, "--no-dataset-ops");
  nlohmann::json inputs = {{"platform_file", opt(a, "--platform")},
                            {"mdworkbench",
                             {{"I", p.obj_per_proc}, {"P", p.precreate_per_set}, {"D", p.data_sets}, {"R", p.iterations},
                              {"S", p.object_size_B}, {"offset", p.offset}, {"ranks", p.ranks}}}};
  if (!(p.run_precreate && p.run_benchmark && p.run_cleanup))
    inputs["mdworkbench"]["phases"] = {{"precreate", p.run_precreate}, {"benchmark", p.run_benchmark},
                                       {"cleanup", p.run_cleanup}};
  if (!a.backend.empty())
    inputs["mdworkbench"]["interface_options"] = a.backend;
  if (a.opts.count("--csv")) {
    return sweep(a, platform, tr, ro, ranks, inputs, ReportFormat::MdWorkbench, "");
  }
  return run(a, platform, tr, ro, inputs, ReportFormat::MdWorkbench);
}

}  // namespace pfsim::app
