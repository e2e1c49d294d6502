// pfsim command line: run one simulation, or sweep a workload over rank counts.
//
//   pfsim run   --platform P.json --workload W.json [--ranks N] [--out R.json] [--latency-dir D]
//   pfsim sweep --platform P.json --workload W.json --ranks 512,1024 --csv S.csv [--jobs 2] [--results-dir D]
//   pfsim mdtest    --platform P.json --ranks N -n 5000 [-u] [-F|-D] [-w B] [-e B] [-i I] [...]
//   pfsim metabench --platform P.json --ranks N --files F [--dir-mode unique|shared] [...]
//   pfsim ior       --platform P.json --ranks N -t 4m -b 4g [-s S] [-F] [-w] [-r] [-e] [-i I] [--lmt L.csv] [...]
//   pfsim ior       --platform P.json --ranks 8,16,32 --csv S.csv [--vary oss.count=1,2,4] [--jobs 2] -t 4m -b 4g [...]
// Common: --ranks-per-node K, --seed S, --set mds.threads.max=64 (override a platform field), --verbose,
// --log=... (SimGrid logging). Errors in inputs: one message naming file and field, exit status 2.
#include "app/commands.hpp"
#include "app/sweep.hpp"
#include "config/platform_config.hpp"
#include "config/reader.hpp"
#include "model/simulation.hpp"
#include "report/ior_report.hpp"
#include "report/mdreal_report.hpp"
#include "report/outputs.hpp"
#include "workload/find.hpp"
#include "workload/ior.hpp"
#include "workload/ior_summary.hpp"
#include "workload/mdtest_options.hpp"
#include "workload/workload_file.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <tuple>
#include <vector>

namespace {

using pfsim::config::ConfigError;

using pfsim::app::kVersion;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Cli {
  std::string command;
  std::map<std::string, std::string> opts;        // --key value / -k value
  std::vector<std::string> flags;                 // switches without value
  std::vector<std::string> sets;                  // --set a.b=c
  std::vector<std::string> simgrid_args;          // --log=..., --cfg=...
  std::vector<std::string> tool_args;             // the tool's own options (single dash) as typed, in order
  std::vector<std::string> ior_O;                 // IOR's -O KEY=VALUE options (repeatable)
};

const char* kUsage =
    "usage: pfsim <command> [options]   (pfsim <command> --help for its options)\n"
    "commands:\n"
    "  run          one simulation of a workload file\n"
    "  sweep        a workload over several rank counts (one process per point, --jobs in parallel)\n"
    "  mdtest       mdtest's file/directory phases from its own options (-n -u -F -D -w -e -i)\n"
    "  metabench    metabench create/stat/unlink of --files files over --ranks ranks\n"
    "  replay       replay a recorded md-real-io / md-workbench / mdtest trace, Darshan DXT dump or IOR per-op\n"
    "               files at any rank count\n"
    "  mdworkbench  md-workbench from its parameters (-I -P -D -R -S --offset)\n"
    "  ior          IOR's write/read phases from its own options (-t -b -s -F -w -r -e -i), LMT-like OST samples;\n"
    "               --ranks LIST --csv FILE: bandwidth over rank counts (--vary: a platform field's values too)\n"
    "  find         a parallel find (pfind, IO500's find phase) over mdtest's trees or directories of given sizes\n"
    "  version      print the version\n"
    "errors in inputs: one message naming the file, line or field; exit status 2\n";

// Options each command accepts: (name, takes a value, help). Anything else is a usage error, so a typo
// (--rank for --ranks) never runs silently with a default.
struct OptSpec {
  const char* name;
  bool value;
  const char* help;
  bool tool_long = false;  // one of the tool's own --long options (mdtest's): printed back in "Command line used"
};

const std::vector<OptSpec> kCommon{
    {"--platform", true, "FILE platform JSON (required)"},
    {"--set", true, "PATH=VALUE override one platform field, e.g. mds.threads.max=64 (repeatable); an object "
                    "VALUE is merged into the field's object: the fields it names change, the others stay "
                    "(mds.threads={\"max\":8} keeps threads.min; null removes a field: mds.threads.min=null, or {\"min\":null})"},
    {"--ranks-per-node", true, "K ranks per client node (default: the platform's clients.ranks_per_node)"},
    {"--seed", true, "S random seed (default 1); same inputs and seed give identical outputs"},
    {"--time-limit", true, "T simulated time (e.g. 600s) after which an unfinished run stops with an error "
                           "(guards against configurations that never end, such as timeouts in congestion collapse)"},
    {"--verbose", false, "SimGrid's info messages"},
    {"--quiet", false, "no summary on stdout"},
    {"--help", false, "this text"},
    {"-h", false, "this text"},
};

const std::vector<OptSpec>& command_opts(const std::string& cmd)
{
  static const std::map<std::string, std::vector<OptSpec>> m{
      {"run",
       {{"--workload", true, "FILE workload JSON (required)"},
        {"--ranks", true, "N override the workload's rank count"},
        {"--out", true,
         "FILE results JSON (effective configuration, rates, latency percentiles); its directory must exist"},
        {"--latency-dir", true, "DIR per-RPC latency files <prefix>-<iteration>-<phase>-all.csv: time,runtime,rank,op "
                                "(a create is its create and close RPCs; DIR is created if missing, its parent must exist)"},
        {"--latency-prefix", true, "NAME prefix of the latency files (default latency)"},
        {"--check", false, "read and check the platform, the --set values, the workload file and the options, then "
                           "exit (0: all taken) without simulating or writing anything"}}},
      {"sweep",
       {{"--workload", true, "FILE workload JSON (required)"},
        {"--check", false, "read and check the platform, the --set values, the workload file, --ranks and --vary, "
                           "then exit (0: all taken) without simulating or writing anything (--csv not needed)"},
        {"--ranks", true, "LIST comma-separated rank counts"},
        {"--csv", true,
         "FILE sweep table (required, in an existing directory); FILE.json holds the effective configuration"},
        {"--jobs", true, "J points simulated in parallel (default 1)"},
        {"--results-dir", true, "DIR keep every point's results JSON (created if missing; its parent must exist)"},
        {"--vary", true, "PATH=V1,V2,... every rank count for each value of one platform field (a --set of it per "
                         "point, after the others; e.g. mds.mechanisms.partitions.count=1,2,4): the table's first "
                         "column is PATH"}}},
      {"mdtest",
       {{"--ranks", true, "N MPI ranks (required)"},
        {"-n", true, "ITEMS per rank (required)"},
        {"-u", false, "unique directory per rank"},
        {"-F", false, "files only (with -D: both, as mdtest)"},
        {"-D", false, "directories only (with -F: both, as mdtest)"},
        {"-w", true, "BYTES written per file"},
        {"-e", true, "BYTES read per file (at most -w when the run both creates and reads, as mdtest checks)"},
        {"-i", true, "N iterations (default 1; the per-op files hold the last, as mdtest's)"},
        {"-d", true, "PATH mdtest's test directory: accepted so that a real command line runs, recorded, no effect"},
        {"-a", true, "API mdtest's I/O interface: POSIX (the one modelled; accepted so that a real command line runs)"},
        {"-C", false, "only the create phases (Tree, Directory and File creation; with -T -E -r: those chosen)"},
        {"-T", false, "only the stat phases (Directory and File stat)"},
        {"-E", false, "only the read phase (File read)"},
        {"-r", false, "only the removal phases (Directory, File and Tree removal)"},
        {"-P", false, "also print mdtest's SUMMARY time table (each phase's time in seconds, under mdtest's own "
                      "heading \"ms/op\")"},
        {"-N", true, "STRIDE mdtest's rank shift (default 0): rank r stats rank r + S's items, reads r + 2S's files "
                     "and removes r + 3S's (mdtest's stat_name, read_name, rm_name), with -u in that rank's "
                     "directory (mdtest's unique_*_dir names shift by one more stride; the files are the same), all "
                     "mod the ranks. S is N times the tasks on node 0 when the ranks are placed in blocks over "
                     "several nodes, as mdtest shifts (\"Shifting ranks by S for each phase.\", printed), else N: "
                     "-N 1 stats the next node's items, but the read's 2S wraps round: with 2 nodes a rank reads its "
                     "own node's files (the page cache's, clients.max_cached_mb), from 3 nodes on the node two "
                     "further's"},
        {"--savePerOpDataCSV", true, "PREFIX mdtest's own form of --latency-dir/--latency-prefix: the files "
                                     "PREFIX-<phase>-<rank %05d>.csv (PREFIX's directory is created if missing, its "
                                     "parent must exist)", true},
        {"-W", true, "S stonewall (whole seconds, with -F and one iteration): in File creation a rank starts no item "
                     "once S s have passed since its start of the phase (the one in progress completes: with L s per "
                     "create, floor(S / L) + 1 of them); then every rank goes on to the most items any rank made "
                     "(mdtest's allreduce), which the phase's rate and time cover and the later phases work on; "
                     "mdtest's \"Continue stonewall hit min: .. max: .. avg: ..\" line when a rank had stopped"},
        {"-x", true, "FILE stonewall status file: a stonewalled create (-C -W) writes the items per rank there "
                     "(mdtest's \"%lld\", no rank count); a run without -C reads it and its File phases work on "
                     "that many items per rank (missing, malformed, 0 or more than -n: an error)"},
        {"-Y", false, "sync after each phase (not the tree's), inside its time: each rank waits until its node's "
                      "write-back cache is written (sync(2) writes every dirty page of the node); the sync command's "
                      "own start is not modelled"},
        {"-t", false, "time the unique working directory's overhead: with -u the creation phases include the "
                      "MPI_Barrier every rank makes before entering its directory (mdtest 4.1's only such overhead); "
                      "without -u no effect"},
        {"--saveRankPerformanceDetails", true, "FILE mdtest's per-rank CSV (StoreRankInformation): its header, an "
                                               "\"all\" row (the first iteration's items / phase time), a row per "
                                               "rank and iteration (items / time before the phase's barrier); %.10e. "
                                               "mdtest's Directory read has no operations (rate inf, time 0), its "
                                               "Directory rename is not simulated (empty, a note says so)", true},
        // Recorded and printed in "Command line used", no effect on what is simulated (so that the recorded command
        // lines of ../shared/data run as typed):
        {"-v", false, "verbosity (repeatable): accepted, no effect"},
        {"-L", false, "files only at the tree's leaf level: accepted, no effect (the tree has depth 0 here, so its "
                      "one directory is the leaf)"},
        {"-X", false, "verify the data read: accepted, no effect"},
        {"-G", true, "SEED mdtest's data seed: accepted, no effect"},
        {"-V", true, "LEVEL verbosity: accepted, no effect"},
        {"--dataPacketType", true, "TYPE the written data's pattern: accepted, no effect", true},
        {"--print-all-procs", false, "accepted, no effect: pfsim prints mdtest's default summary layout", true},
        {"--showRankStatistics", false, "accepted, no effect: pfsim prints mdtest's default summary layout", true},
        {"--out", true, "FILE results JSON; its directory must exist"},
        {"--latency-dir", true, "DIR mdtest --savePerOpDataCSV files: <prefix>-<phase>-<rank %05d>.csv, one row "
                                "per operation, last iteration, File phases only (as mdtest 4.1); DIR is created if "
                                "missing, its parent must exist"},
        {"--latency-prefix", true, "NAME prefix of the latency files (default mdtest-perop)"}}},
      {"metabench",
       {{"--ranks", true, "N MPI ranks (required)"},
        {"--files", true, "F files in all (default 1000000)"},
        {"--dir-mode", true, "unique|shared per-rank directories (default: unique) or one shared directory"},
        {"--out", true, "FILE results JSON; its directory must exist"},
        {"--latency-dir", true, "DIR per-RPC latency files <prefix>-<iteration>-<phase>-all.csv: time,runtime,rank,op "
                                "(a create is its create and close RPCs; DIR is created if missing, its parent must exist)"},
        {"--latency-prefix", true, "NAME prefix of the latency files (default latency)"}}},
      {"find",
       {{"--ranks", true, "N pfind's MPI ranks (required; a comma-separated list with --csv)"},
        {"--mdtest-easy", true, "R:N the tree of mdtest -n N -u with R tasks: R directories of N files (IO500's "
                                "mdtest-easy)"},
        {"--mdtest-hard", true, "R:N the tree of mdtest -n N without -u: one directory of R x N files (IO500's "
                                "mdtest-hard)"},
        {"--dirs", true, "LIST more directories, comma-separated ENTRIES[:MATCHING] (MATCHING: the names -name "
                         "matches; default all)"},
        {"--name", true, "PATTERN pfind -name \"*PATTERN*\" (a plain substring): only the names containing it are "
                         "stat'ed (IO500: 01); default every name"},
        {"--no-stat", false, "pfind without -newer and -size: no name is stat'ed (default: IO500's find, with both)"},
        {"--out", true, "FILE results JSON; its directory must exist"},
        {"--csv", true, "FILE a sweep: --ranks LIST (comma-separated), one row per rank count (FILE.json: every "
                        "point's results and the effective configuration)"},
        {"--jobs", true, "J sweep points simulated in parallel (default 1)"},
        {"--results-dir", true, "DIR keep every sweep point's results JSON (created if missing; its parent must exist)"},
        {"--vary", true, "PATH=V1,V2,... a sweep over one platform field's values too"}}},
      {"ior",
       {{"--ranks", true, "N MPI ranks (required unless --from; a comma-separated list with --csv)"},
        {"-t", true, "BYTES transfer size, k/m/g suffixes (default 256k)"},
        {"-b", true, "BYTES block size: each rank's contiguous bytes per segment, a multiple of -t (default 1m)"},
        {"-s", true, "N segments (default 1)"},
        {"-F", false, "file per process (default: one shared file)"},
        {"-w", false, "write phase (with none of -w -r -W -R: write and read, as IOR)"},
        {"-r", false, "read phase"},
        {"-e", false, "fsync after the writes: the close waits until the written data left the write-back cache"},
        {"-i", true, "N repetitions (default 1)"},
        {"-d", true, "S seconds of delay before every write and read phase (IOR's interTestDelay; not in the phase's "
                     "time)"},
        {"-a", true, "API IOR's I/O interface: POSIX (the one modelled)"},
        {"-o", true, "PATH IOR's test file: recorded, printed, no effect"},
        {"-C", false, "reorder tasks for the read: rank r reads the data of rank r + -Q x tasks per node (r + -Q with "
                      "clients.placement cyclic): another node's, not in its own page cache (clients.max_cached_mb)"},
        {"-k", false, "keep the file (without it IOR removes it after each repetition, the last one too: with a "
                      "write-back cache, the next repetition starts without its dirty pages, and those left at the "
                      "end are dropped, not written)"},
        {"-Q", true, "N with -C, read the data of the tasks N nodes on (IOR's taskPerNodeOffset; default 1: rank r "
                     "reads rank r + N x tasks per node's, r + N with clients.placement cyclic)"},
        {"-z", false, "random offsets (IOR 4's randomOffset): each block's transfers in a random order, the same in "
                      "every segment (a shared file's segment dealt to the ranks at random, block / transfer each; "
                      "not with -C); given twice (-z -z, reads only): each segment one whole block at a random place "
                      "of the file (IOR 4.1). Drawn from --seed. Out of order, the client's writes merge into RPCs "
                      "and its reads are read ahead only where they happen to follow each other"},
        {"-D", true, "S stonewalling (deadlineForStonewalling): a rank starts no transfer S seconds after its first "
                     "one began (the one in progress completes); the bandwidth is of the data moved. A read after a "
                     "stonewalled write reads as many transfers as the rank wrote"},
        {"-Y", false, "fsync after every write (fsyncPerWrite): every write synchronous, done when the OSTs have it"},
        {"-R", false, "checkRead: the read phase verifies what it reads (IOR 4: the same reads, timed as the read; "
                      "the comparison's CPU time is not modelled); runs the read phase without -r"},
        {"-W", false, "checkWrite: after the write, every rank reads the data back to verify it, untimed and not one "
                      "of IOR's results (a \"write-check\" phase in --out; with -C the tasks 2 nodes on, whatever -Q says, as IOR 4.1)"},
        {"-u", false, "uniqueDir: with -F each rank's file in a directory of its own, made before the first write "
                      "(the MDS sees the mkdirs; untimed, a \"mkdir\" phase in --out)"},
        {"-g", false, "intraTestBarriers: barriers after the open and before the close (in the phase's time)"},
        {"-G", true, "N setTimeStampSignature: accepted and recorded, no effect (the data's pattern)"},
        {"-l", true, "TYPE dataPacketType (offset, incompressible, timestamp, random): accepted and recorded, no "
                     "effect"},
        {"--dataPacketType", true, "TYPE as -l", true},
        {"-v", false, "verbose (repeatable): accepted and recorded, no effect (pfsim prints IOR's default output)"},
        {"-q", false, "quitOnError: accepted and recorded, no effect (a simulation finds no data errors)"},
        {"-x", false, "singleXferAttempt: accepted and recorded, no effect (simulated transfers are never short)"},
        {"-O", true, "KEY=VALUE IOR's directives (repeatable, or a comma list): summaryFormat=JSON|default and "
                     "summaryFile=FILE (IOR's report to FILE: the JSON summary, or the text but for the lines IOR prints to "
                     "stdout, its header, warnings and stonewalling lines); "
                     "stoneWallingWearOut=1 (with -D: once every rank has stopped, each goes on to the most "
                     "transfers any rank did; IOR's 'stonewalling pairs accessed' line); "
                     "stoneWallingWearOutIterations=N (every phase stops after N transfers per rank); "
                     "stoneWallingStatusFile=FILE (with -k: a wear-out write stores its transfers per rank there "
                     "at the end, a read stops after the count it finds there); "
                     "saveRankPerformanceDetailsCSV=FILE (IOR's per-rank times and throughputs, CSV)"},
        {"--from", true, "FILE an IOR JSON summary (ior -O summaryFormat=JSON): run its test (its tasks, or --ranks) "
                         "and compare with its results (stderr, and \"compared_with\" in --out)"},
        {"--out", true, "FILE results JSON (per-OST data counters and RPC sizes in \"servers\"); its directory must exist"},
        {"--lmt", true, "FILE LMT-like samples: bytes each OST wrote and read per oss.sample_interval (CSV)"},
        {"--file-size", true, "BYTES a read-only run's files as it finds them (each rank's with -F, else the one), the "
                              "size IOR stats: -z -z draws its blocks over it and IOR's Stat() warning reports it "
                              "(default: the test's size, -s x -b per rank; give it for files an earlier run left, "
                              "e.g. IO500's rnd4K read of ior-easy's files)"},
        {"--rank-times", false, "each rank's time in every phase in --out (\"ior\"[].rank_times_s), for per-pair "
                                "bandwidths"},
        {"--csv", true, "FILE a sweep: --ranks LIST (comma-separated), one IOR run per rank count, one row per phase "
                        "(write/read) and repetition with its time_s (IOR's total) and bw_MiBps (IOR's bwMiB); "
                        "FILE.json: every point's results (\"ior\": IOR's Results) and the effective configuration; "
                        "IOR's own output is not printed (no --out, --lmt, nor -O's files; -W's and -u's untimed "
                        "phases have rows without bw_MiBps)"},
        {"--jobs", true, "J sweep points simulated in parallel (default 1)"},
        {"--results-dir", true, "DIR keep every sweep point's results JSON (created if missing; its parent must exist)"},
        {"--vary", true, "PATH=V1,V2,... a sweep over one platform field's values too (e.g. oss.count=1,2,4,8): "
                         "the table's first column is PATH"}}},
  };
  auto it = m.find(cmd);
  if (it == m.end())
    throw UsageError("unknown command \"" + cmd + "\"; expected run, sweep, mdtest, metabench, ior, find, replay, mdworkbench or version");
  return it->second;
}

const OptSpec* find_opt(const std::string& cmd, const std::string& name)
{
  for (const auto* list : {&kCommon, &command_opts(cmd)})
    for (const auto& o : *list)
      if (name == o.name)
        return &o;
  return nullptr;
}

std::string command_help(const std::string& cmd)
{
  std::ostringstream os;
  os << "usage: pfsim " << cmd << " [options]\n";
  for (const auto* list : {&command_opts(cmd), &kCommon}) {
    for (const auto& o : *list) {
      std::string h = o.help;
      std::string arg;
      if (o.value) {
        auto sp = h.find(' ');
        arg = " " + h.substr(0, sp);
        h = h.substr(sp + 1);
      }
      std::string left = std::string("  ") + o.name + arg;
      os << left << std::string(left.size() < 26 ? 26 - left.size() : 1, ' ') << h << "\n";
    }
  }
  os << "  --log=... --cfg=...     passed to SimGrid\n";
  if (cmd == "ior") {  // IOR's options that change what runs and that pfsim does not model
    os << "refused (not modelled; the error says why):";
    for (const auto& [name, why] : pfsim::ior_not_modelled_options())
      os << " " << name;
    os << "\n";
  }
  if (cmd == "mdtest") {  // mdtest's, but for those it models (its own options above)
    os << "refused (not modelled; the error says why):";
    for (const auto& [name, why] : pfsim::mdtest_not_modelled_options())
      if (find_opt(cmd, name) == nullptr)
        os << " " << name;
    os << "\n";
  }
  return os.str();
}

Cli parse_cli(int argc, char** argv)
{
  Cli cli;
  if (argc < 2)
    throw UsageError("missing command; expected run, sweep, mdtest, metabench, ior, find, replay or mdworkbench (pfsim --help)");
  cli.command = argv[1];
  command_opts(cli.command);  // unknown command: usage error
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--log=", 0) == 0 || a.rfind("--cfg=", 0) == 0) {
      pfsim::app::check_simgrid_arg(a);
      cli.simgrid_args.push_back(a);
    } else if (a.size() > 1 && a[0] == '-') {
      if (a[1] != '-') {  // mdtest's options (pfsim's own are --long): its "Command line used" prints them as typed
        cli.tool_args.push_back(a);
        if (const OptSpec* s = find_opt(cli.command, a); s && s->value && i + 1 < argc)
          cli.tool_args.emplace_back(argv[i + 1]);
      }
      // -n=10 and --ranks=4, as IOR's option parser (mdtest 4.x) reads them, for options that take a value
      bool inline_given = false;
      std::string inline_value;
      if (const auto eq = a.find('='); eq != std::string::npos && eq > 1) {
        const OptSpec* s = find_opt(cli.command, a.substr(0, eq));
        if (s && s->value) {
          inline_value = a.substr(eq + 1);
          a = a.substr(0, eq);
          inline_given = true;
        }
      }
      // -t1m and -n1000: a short option's value written against it, as IOR 4's and mdtest's parser take it
      if (!inline_given && a[1] != '-' && a.size() > 2 && find_opt(cli.command, a) == nullptr) {
        const OptSpec* s = find_opt(cli.command, a.substr(0, 2));
        if (s && s->value) {
          inline_value = a.substr(2);
          a = a.substr(0, 2);
          inline_given = true;
        }
      }
      const OptSpec* spec = find_opt(cli.command, a);
      if (!spec && cli.command == "ior")
        if (const char* why = pfsim::ior_not_modelled(a))
          throw UsageError("IOR option " + a + " (" + why + ") is not supported by pfsim ior; run without it");
      if (!spec && cli.command == "mdtest")
        if (const char* why = pfsim::mdtest_not_modelled(a))
          throw UsageError("mdtest option " + a + " (" + why + ") is not supported by pfsim mdtest, which runs mdtest's "
                           "default tree (depth 0: one directory), every phase to its end, and prints mdtest's "
                           "default summary; run without it");
      if (!spec)
        throw UsageError("unknown option " + a + " for \"" + cli.command + "\" (pfsim " + cli.command +
                         " --help lists them)");
      // mdtest's own long options are in its "Command line used" as typed, with their values (pfsim's --long ones
      // are not)
      if (spec->tool_long) {
        cli.tool_args.push_back(inline_given ? a + "=" + inline_value : a);
        if (!inline_given && spec->value && i + 1 < argc)
          cli.tool_args.emplace_back(argv[i + 1]);
      }
      if (!spec->value) {
        cli.flags.push_back(a);
        continue;
      }
      if (!inline_given && i + 1 >= argc)
        throw UsageError("option " + a + " needs a value");
      const std::string value = inline_given ? inline_value : std::string(argv[++i]);
      if (value.empty())
        throw UsageError("option " + a + " needs a non-empty value");
      // "--csv --quiet": the next option is not the value (it wrote a file named --quiet); a value that really
      // starts with -- goes inline (--csv=--x)
      if (!inline_given && value.rfind("--", 0) == 0)
        throw UsageError("option " + a + " needs a value, got the option " + value + " (write " + a + "=" + value +
                         " for a value that starts with --)");
      if (a == "--set") {
        cli.sets.push_back(value);
      } else if (a == "-O") {
        cli.ior_O.push_back(value);
      } else {
        // One value per option: a second one silently won, and the results recorded only it.
        if (cli.opts.count(a) && cli.opts[a] != value)
          throw UsageError("option " + a + " given twice (" + cli.opts[a] + " and " + value + "); give it once");
        cli.opts[a] = value;
      }
    } else {
      throw UsageError("unexpected argument \"" + a + "\"");
    }
  }
  // mdtest --savePerOpDataCSV=PREFIX: the per-op files PREFIX-<phase>-<rank>.csv, i.e. --latency-dir <PREFIX's
  // directory, . if none> --latency-prefix <its last part>
  if (auto s = cli.opts.find("--savePerOpDataCSV"); s != cli.opts.end()) {
    for (const char* o : {"--latency-dir", "--latency-prefix"})
      if (cli.opts.count(o))
        throw UsageError("--savePerOpDataCSV=" + s->second + " and " + o + " " + cli.opts[o] + ": --savePerOpDataCSV "
                         "is mdtest's form of --latency-dir and --latency-prefix; give one form");
    try {
      std::tie(cli.opts["--latency-dir"], cli.opts["--latency-prefix"]) =
          pfsim::app::split_file_prefix("--savePerOpDataCSV", s->second);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  return cli;
}

bool has_flag(const Cli& c, const std::string& f)
{
  for (const auto& x : c.flags)
    if (x == f)
      return true;
  return false;
}

std::string opt(const Cli& c, const std::string& k, const std::string& fallback = "")
{
  auto it = c.opts.find(k);
  return it == c.opts.end() ? fallback : it->second;
}

constexpr long long kNoMax = std::numeric_limits<long long>::max();  // counts that are not stored in an int

long long opt_int(const Cli& c, const std::string& k, long long fallback, long long min,
                  long long max = std::numeric_limits<int>::max())
{
  auto it = c.opts.find(k);
  return it == c.opts.end() ? fallback : pfsim::app::parse_int_option(k, it->second, min, max);
}

pfsim::config::PlatformConfig platform_of(const Cli& c)
{
  std::string file = opt(c, "--platform");
  if (file.empty())
    throw UsageError("missing --platform FILE");
  return pfsim::app::load_platform(file, c.sets);
}

// pfsim mdtest's options (mdtest's own, as typed) to the generator's; UsageError naming the option.
pfsim::MdtestOptions mdtest_options(const Cli& c)
{
  pfsim::MdtestOptions o;
  o.ranks = static_cast<int>(opt_int(c, "--ranks", 1, 1, pfsim::app::kMaxRanks));
  o.items_per_rank = static_cast<uint64_t>(opt_int(c, "-n", -1, 1, kNoMax));
  if (c.opts.find("-n") == c.opts.end())
    throw UsageError("mdtest needs -n ITEMS (per rank)");
  // The phase's item count (ranks x -n) must fit the 64-bit counters (and the tools' own: mdtest keeps it in a
  // uint64_t too).
  if (o.items_per_rank > static_cast<uint64_t>(kNoMax) / static_cast<uint64_t>(o.ranks))
    throw UsageError("-n " + c.opts.at("-n") + " x --ranks " + std::to_string(o.ranks) +
                     " items are more than a 64-bit count holds (at most " + std::to_string(kNoMax) + ")");
  o.unique_dir = has_flag(c, "-u");
  // -F -D together: both kinds, as with neither (mdtest runs "files/directories")
  o.files_only = has_flag(c, "-F") && !has_flag(c, "-D");
  o.dirs_only = has_flag(c, "-D") && !has_flag(c, "-F");
  // -w 1m: mdtest reads its byte counts with IOR's parser (k/m/g/t/p suffixes, powers of 1024)
  auto bytes = [&c](const char* k) {
    return c.opts.count(k) ? static_cast<double>(pfsim::app::parse_tool_size_option(
                                 k, c.opts.at(k), 0, static_cast<long long>(pfsim::kMaxFileBytes), "mdtest"))
                           : 0.0;
  };
  o.write_bytes = bytes("-w");
  o.read_bytes = bytes("-e");
  o.iterations = static_cast<int>(opt_int(c, "-i", 1, 1, pfsim::app::kMaxIterations));
  if (c.opts.count("-a"))
    pfsim::app::check_posix_api("-a", c.opts.at("-a"));
  // -C -T -E -r: only the phases chosen (mdtest: none of them means all four)
  const bool C = has_flag(c, "-C"), T = has_flag(c, "-T"), E = has_flag(c, "-E"), r = has_flag(c, "-r");
  if (C || T || E || r) {
    o.run_create = C;
    o.run_stat = T;
    o.run_read = E;
    o.run_remove = r;
  }
  // mdtest checks the sizes only when one run both creates and reads the files (a -E run reads files an earlier
  // -C run wrote)
  if (!o.dirs_only && o.run_create && o.run_read && o.read_bytes > o.write_bytes)
    throw UsageError("-e " + std::to_string(static_cast<long long>(o.read_bytes)) + ": expected at most -w (" +
                     std::to_string(static_cast<long long>(o.write_bytes)) +
                     " bytes written per file; mdtest: \"read bytes must be smaller than write bytes\")");
  o.stride = opt_int(c, "-N", 0, 0, std::numeric_limits<int>::max());  // mdtest's nstride is an int
  // -W S: mdtest's stone_wall_timer_seconds, an int (whole seconds, as IOR's -D); -Y, -t
  o.stonewall_s = static_cast<int>(opt_int(c, "-W", 0, 0, 1000000000));
  o.sync_each_phase = has_flag(c, "-Y");
  o.time_unique_dir = has_flag(c, "-t");
  if (auto problem = pfsim::mdtest_option_problem(o))
    throw UsageError("-W " + c.opts.at("-W") + ": " + problem->second);
  // -x FILE in a run without the create: its File phases work on the items per rank the file holds (mdtest's
  // file_test reads it, ReadStoneWallingIterations); a create writes it instead (mdtest_status_file_written).
  if (c.opts.count("-x") && !o.run_create && !o.dirs_only)
    o.file_items = pfsim::read_mdtest_status_file(c.opts.at("-x"), o.items_per_rank);
  return o;
}

// Whether this run writes mdtest -x's status file: a stonewalled create of files (mdtest's file_test_create stores it
// after its allreduce, only with -W).
bool mdtest_status_file_written(const Cli& c, const pfsim::MdtestOptions& o)
{
  return c.opts.count("-x") && o.run_create && !o.dirs_only && o.stonewall_s > 0;
}

// mdtest's File creation stopped by its stonewall (every rank at the allreduce): the one of the first iteration
// (pfsim runs -W with one), nullptr without.
const pfsim::PhaseRecord* stonewalled_create(const pfsim::RunRecords& r)
{
  for (const auto& p : r.phases)
    if (p.name == "File creation" && p.wear_out)
      return &p;
  return nullptr;
}

pfsim::WorkloadSpec workload_of(const Cli& c)
{
  pfsim::WorkloadSpec spec;
  // The rank count is the question a run answers: never a silent default.
  if ((c.command == "mdtest" || c.command == "metabench") && !c.opts.count("--ranks"))
    throw UsageError(c.command + " needs --ranks N (MPI ranks)");
  if (c.command == "mdtest") {
    spec.params = pfsim::mdtest_params(mdtest_options(c));
  } else if (c.command == "metabench") {
    std::string mode = opt(c, "--dir-mode", "unique");
    if (mode != "unique" && mode != "shared")
      throw UsageError("--dir-mode: expected unique or shared, got \"" + mode + "\"");
    spec.params = pfsim::metabench_params(static_cast<int>(opt_int(c, "--ranks", 1, 1, pfsim::app::kMaxRanks)),
                                          static_cast<uint64_t>(opt_int(c, "--files", 1000000, 1, kNoMax)), mode,
                                          {"create", "stat", "unlink"});
  } else {
    std::string file = opt(c, "--workload");
    if (file.empty())
      throw UsageError("missing --workload FILE");
    spec = pfsim::load_workload(file);
    if (!spec.ranks_given && !c.opts.count("--ranks"))
      throw UsageError("the workload file " + file + " states no \"ranks\" and the command line gives no --ranks: "
                       "the rank count is the question a run answers, give one of them");
    if (c.opts.count("--ranks") && c.command == "run")
      spec = pfsim::with_ranks(spec, static_cast<int>(opt_int(c, "--ranks", 1, 1, pfsim::app::kMaxRanks)));
    // The workload's ranks_per_node beats the platform's: an override of the platform's changes nothing.
    if (spec.ranks_per_node > 0 && !c.opts.count("--ranks-per-node"))
      for (auto it = c.sets.rbegin(); it != c.sets.rend(); ++it)
        if (pfsim::config::set_gives_field(*it, "clients.ranks_per_node")) {
          std::cerr << "pfsim: warning: --set " << *it << " changes nothing: the workload file " << file
                    << " gives ranks_per_node " << spec.ranks_per_node
                    << ", which applies (--ranks-per-node K overrides it)\n";
          break;
        }
  }
  spec.ranks_per_node = static_cast<int>(opt_int(c, "--ranks-per-node", spec.ranks_per_node, 1, pfsim::app::kMaxRanksPerNode));
  spec.seed = static_cast<uint64_t>(opt_int(c, "--seed", static_cast<long long>(spec.seed), 0, kNoMax));
  spec.params.seed = spec.seed;
  return spec;
}

pfsim::RunOptions run_options(const Cli& c, const pfsim::WorkloadSpec& spec)
{
  pfsim::RunOptions o;
  o.ranks_per_node = spec.ranks_per_node;
  o.seed = spec.seed;
  o.keep_samples = !opt(c, "--latency-dir").empty();
  o.rank_times = c.command == "mdtest" && c.opts.count("--saveRankPerformanceDetails");  // (its per-rank rows)
  o.time_limit_s = pfsim::app::time_limit_s(opt(c, "--time-limit"));
  if (!has_flag(c, "--verbose"))
    o.simgrid_args.push_back("--log=root.thres:warning");
  for (const auto& a : c.simgrid_args)
    o.simgrid_args.push_back(a);
  // metabench spreads its files over the ranks: with fewer files, the other ranks only join the barriers
  // (pfsim metabench, and a run or sweep point of a metabench workload file).
  const auto& p = spec.params;
  if (p.generator == "metabench" && p.total_items < static_cast<uint64_t>(p.ranks))
    o.warnings.push_back(std::to_string(p.total_items) + " files over " + std::to_string(p.ranks) + " ranks: " +
                         std::to_string(static_cast<uint64_t>(p.ranks) - p.total_items) + " ranks have no file to "
                         "create, stat or unlink, so the rates are " + std::to_string(p.total_items) +
                         (p.total_items == 1 ? " rank's work" : " ranks' work"));
  // A phase that stats, reads or removes items no earlier phase made (metabench phases in another order, mdtest
  // -T, -E or -r without -C): simulated as if an earlier run had made them.
  bool files_made = false, dirs_made = false;
  for (const auto& ph : p.phases) {
    if (ph.tree || ph.iteration > 0)
      continue;
    const bool makes = std::find(ph.item_ops.begin(), ph.item_ops.end(),
                                 ph.directories ? pfsim::Op::Mkdir : pfsim::Op::Create) != ph.item_ops.end();
    bool& made = ph.directories ? dirs_made : files_made;
    if (!makes && !made)
      o.warnings.push_back("phase \"" + ph.name + "\" works on " + (ph.directories ? "directories" : "files") +
                           " that no earlier phase of this run made: simulated as if an earlier run had made them "
                           "(they exist, are not in any page cache and their directories hold them)");
    made = made || makes;
  }
  return o;
}

// Runs `workload` (its wall time on stderr) and returns its results JSON with the run's effective configuration and
// inputs; the records go to `records`.
nlohmann::json simulate(const Cli& c, const pfsim::config::PlatformConfig& platform, const pfsim::Workload& workload,
                        const pfsim::RunOptions& options, pfsim::RunRecords& records, pfsim::RunInfo& info)
{
  records = pfsim::run_simulation(platform, workload, options, &info);
  std::fprintf(stderr, "pfsim: %d ranks on %d node(s), %.3f s simulated, %.2f s wall\n", info.ranks, info.nodes,
               records.end_s, info.wall_s);
  nlohmann::json header = {
      {"pfsim_version", kVersion},
      {"seed", options.seed},
      {"inputs",
       {{"platform_file", opt(c, "--platform")},
        {"workload_file", opt(c, "--workload")},
        {"set", c.sets},                      // already applied in "platform"
        {"simgrid_args", c.simgrid_args},    // --cfg/--log passed to SimGrid (they can change results)
        {"options", pfsim::app::recorded_options(c.opts, c.flags)}}},
      {"platform", pfsim::config::effective_json(platform, info.ranks_per_node)},
      {"workload", workload.describe()},
      {"run", {{"ranks", info.ranks}, {"nodes", info.nodes}, {"ranks_per_node", info.ranks_per_node}}},
  };
  // The workload file that reruns this run (pfsim run --workload) states the ranks per node it ran with (helper-88:
  // an mdtest of 5 ranks, 2 per node, reran on 1 node, and its reads came from the page cache).
  if (auto& w = header["workload"]; w.contains("workload_file") && w["workload_file"].is_object())
    w["workload_file"]["ranks_per_node"] = info.ranks_per_node;
  return pfsim::results_json(records, header);
}

// Runs one point and returns its results JSON (effective configuration included).
// mdtest -N as mdtest runs it on this run's placement (pfsim::mdtest_effective_stride): S x the tasks on node 0 when
// the ranks are placed in blocks over several nodes; 0 without -N or for other generators.
int64_t mdtest_shift(const pfsim::config::PlatformConfig& platform, const pfsim::WorkloadSpec& spec,
                     const pfsim::RunOptions& options)
{
  if (spec.params.generator != "mdtest")
    return 0;
  return pfsim::app::mdtest_shift_on(platform, spec.params.params.value("N", int64_t{0}), spec.params.ranks,
                                     options.ranks_per_node);
}

nlohmann::json run_point(const Cli& c, const pfsim::config::PlatformConfig& platform, const pfsim::WorkloadSpec& spec,
                         pfsim::RunRecords* keep = nullptr, const std::string& point = "")
{
  auto options = run_options(c, spec);
  pfsim::SyntheticParams params = spec.params;
  if (const int64_t shift = mdtest_shift(platform, spec, options); shift > 0)
    pfsim::set_mdtest_stride(params, shift);
  pfsim::SyntheticWorkload workload(params);
  pfsim::RunRecords records;
  pfsim::RunInfo info;
  options.point = point;  // (a sweep point's warnings name it)
  auto out = simulate(c, platform, workload, options, records, info);
  if (keep)
    *keep = std::move(records);
  return out;
}

int iterations_of(const pfsim::RunRecords& r)
{
  int it = 0;
  for (const auto& p : r.phases)
    it = std::max(it, p.iteration + 1);
  return it;
}

// The latency files' name prefix: --latency-prefix, else mdtest's (mdtest) or pfsim's own.
std::string latency_prefix(const Cli& c)
{
  return opt(c, "--latency-prefix", c.command == "mdtest" ? "mdtest-perop" : "latency");
}

void check_output_paths(const Cli& c)
{
  using namespace pfsim::app;
  time_limit_s(opt(c, "--time-limit"));  // a bad value is an error before anything runs
  check_output_file("--out", opt(c, "--out"));
  check_output_file("--csv", opt(c, "--csv"));
  check_output_file("--lmt", opt(c, "--lmt"));
  if (!opt(c, "--csv").empty())
    check_output_file("--csv (its configuration file)", opt(c, "--csv") + ".json");
  if (c.opts.count("--savePerOpDataCSV"))  // (its directory is --latency-dir: the error names the option typed)
    check_output_dir("--savePerOpDataCSV", opt(c, "--latency-dir"), c.opts.at("--savePerOpDataCSV"));
  else
    check_output_dir("--latency-dir", opt(c, "--latency-dir"));
  check_output_dir("--results-dir", opt(c, "--results-dir"));
  check_file_prefix("--latency-prefix", opt(c, "--latency-prefix"));
  check_distinct_outputs({{"--out", opt(c, "--out")},
                          {"--lmt", opt(c, "--lmt")},
                          {"--csv", opt(c, "--csv")},
                          {"--csv (its configuration file)", opt(c, "--csv").empty() ? "" : opt(c, "--csv") + ".json"},
                          {"--latency-dir", opt(c, "--latency-dir")},
                          {"--results-dir", opt(c, "--results-dir")}});
  // No output replaces the platform or workload file.
  const std::string csv = opt(c, "--csv");
  check_outputs_spare_inputs(
      {{"--out", opt(c, "--out"), false, "", ""},
       {"--lmt", opt(c, "--lmt"), false, "", ""},
       {"--csv", csv, false, "", ""},
       {"--csv (its configuration file)", csv.empty() ? csv : csv + ".json", false, "", ""},
       {"--latency-dir", opt(c, "--latency-dir"), true,
        latency_prefix(c), ".csv"},
       {"--results-dir", opt(c, "--results-dir"), true, "ranks-", ".json"}},
      {{"the platform file", opt(c, "--platform")}, {"the workload file", opt(c, "--workload")}});
}

// A sweep's rank list (--ranks, else `default_ranks`), table and jobs, and with --vary each value's platform, loaded
// and checked before any point runs (a bad value is one error, exit 2): pfsim sweep's and pfsim find's.
std::pair<pfsim::app::SweepSpec, std::vector<pfsim::config::PlatformConfig>> sweep_setup(
    const Cli& c, const std::string& default_ranks = "")
{
  pfsim::app::SweepSpec sweep;
  sweep.ranks = pfsim::app::parse_rank_list("--ranks", opt(c, "--ranks", default_ranks));
  sweep.csv = opt(c, "--csv");
  if (sweep.csv.empty())
    throw UsageError(c.command + " needs --csv FILE");
  sweep.jobs = static_cast<int>(opt_int(c, "--jobs", 1, 1, 1024));
  sweep.results_dir = opt(c, "--results-dir");
  sweep.quiet = has_flag(c, "--quiet");
  std::vector<pfsim::config::PlatformConfig> varied;
  if (c.opts.count("--vary")) {
    try {
      std::tie(sweep.vary_path, sweep.vary_values) = pfsim::app::parse_vary("--vary", c.opts.at("--vary"));
      varied = pfsim::app::vary_platforms(opt(c, "--platform"), c.sets, sweep, c.opts.at("--vary"));
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  return {sweep, varied};
}

// A sweep's recorded inputs: the first point's, with the sweep's own rank list and --vary (not the first point's).
nlohmann::json sweep_inputs(const Cli& c, const pfsim::app::SweepSpec& sweep, const nlohmann::json& first)
{
  nlohmann::json inputs = first["inputs"];
  if (c.opts.count("--ranks"))
    inputs["options"]["--ranks"] = c.opts.at("--ranks");  // the sweep's list
  if (!sweep.vary_values.empty()) {  // the sweep's --vary, not the first point's --set of its first value
    inputs["options"]["--vary"] = c.opts.at("--vary");
    inputs["set"] = c.sets;
  }
  return inputs;
}

// pfsim mdtest's own files besides --out and the per-op files: -x's status file (when this run writes it) and
// --saveRankPerformanceDetails, checked before the run (writable, distinct, sparing the inputs); the warnings about a
// status file this run neither reads nor writes.
void check_mdtest_outputs(const Cli& c, const pfsim::MdtestOptions& o)
{
  const std::string status = mdtest_status_file_written(c, o) ? c.opts.at("-x") : "";
  const std::string rank_csv = opt(c, "--saveRankPerformanceDetails");
  pfsim::app::check_output_file("-x", status);
  pfsim::app::check_output_file("--saveRankPerformanceDetails", rank_csv);
  const std::string latency_dir = opt(c, "--latency-dir");
  pfsim::app::check_distinct_outputs({{"--out", opt(c, "--out")},
                                      {"--latency-dir", latency_dir},
                                      {"-x", status},
                                      {"--saveRankPerformanceDetails", rank_csv}});
  pfsim::app::check_outputs_spare_inputs({{"--out", opt(c, "--out"), false, "", ""},
                                          {"-x", status, false, "", ""},
                                          {"--saveRankPerformanceDetails", rank_csv, false, "", ""},
                                          {"--latency-dir", latency_dir, true, latency_prefix(c), ".csv"}},
                                         {{"the platform file", opt(c, "--platform")},
                                          {"the status file (-x)", status.empty() ? opt(c, "-x") : ""}});
  if (!c.opts.count("-x"))
    return;
  if (o.run_create && o.stonewall_s <= 0)
    std::cerr << "pfsim mdtest: warning: -x " << c.opts.at("-x") << " with -C and without -W: mdtest writes its "
              << "status file only after a stonewalled create (-W S), and a run that creates does not read it: the "
              << "file is neither written nor read\n";
  else if (o.dirs_only)
    std::cerr << "pfsim mdtest: warning: -x " << c.opts.at("-x") << " with -D: the status file counts the File "
              << "phases' items, and -D runs none: it is neither written nor read\n";
}

// pfsim run/sweep --check: the inputs read and checked as a run reads them (the platform with its --set values, the
// workload file, the rank counts, --vary's values), nothing simulated or written; exit 0 when all are taken.
int check_inputs(const Cli& c)
{
  check_output_paths(c);
  platform_of(c);
  const auto spec = workload_of(c);
  if (c.opts.count("--ranks"))
    pfsim::app::parse_rank_list("--ranks", c.opts.at("--ranks"));
  if (c.opts.count("--vary")) {
    try {
      pfsim::app::SweepSpec sweep;
      std::tie(sweep.vary_path, sweep.vary_values) = pfsim::app::parse_vary("--vary", c.opts.at("--vary"));
      pfsim::app::vary_platforms(opt(c, "--platform"), c.sets, sweep, c.opts.at("--vary"));
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
  }
  std::cerr << "pfsim " << c.command << " --check: " << opt(c, "--platform") << " and " << opt(c, "--workload")
            << " taken (" << spec.params.generator << ")\n";
  return 0;
}

int cmd_run(const Cli& c)
{
  if (c.command == "run" && has_flag(c, "--check"))
    return check_inputs(c);
  check_output_paths(c);
  const bool mdtest = c.command == "mdtest";
  pfsim::MdtestOptions mo;
  if (mdtest) {
    mo = mdtest_options(c);
    check_mdtest_outputs(c, mo);
  }
  auto platform = platform_of(c);
  auto spec = workload_of(c);
  pfsim::RunRecords records;
  auto results = run_point(c, platform, spec, &records);
  const int64_t shift = mdtest_shift(platform, spec, run_options(c, spec));  // (-N as run_point applied it)
  // mdtest's stonewall, status file and per-rank file, in --out (only when used: other runs' results stay as they were)
  const pfsim::PhaseRecord* sw = stonewalled_create(records);
  const uint64_t n = spec.params.items_per_rank;
  nlohmann::json md = nlohmann::json::object();
  if (sw) {  // what mdtest's allreduce saw (updateStoneWallIterations), and IO500's rate-stonewall from it
    const double avg = static_cast<double>(sw->stonewall_pairs_sum) / spec.params.ranks;
    md["stonewall"] = {{"seconds", spec.params.params.value("W", 0)},
                       {"hit", !pfsim::mdtest_stonewall_line(*sw, n, spec.params.ranks).empty()},
                       {"items_min", sw->stonewall_pairs_min},
                       {"items_max", sw->stonewall_pairs_max},
                       {"items_sum", sw->stonewall_pairs_sum},
                       {"items_mean", avg},
                       {"time_s", sw->stonewall_s},
                       // IO500's rate-stonewall (its kIOPS x 1000): the items made by the allreduce over rank 0's time
                       {"rate_items_per_s", sw->stonewall_s > 0 ? sw->stonewall_pairs_sum / sw->stonewall_s : 0.0}};
  }
  if (mdtest && c.opts.count("-x")) {
    nlohmann::json x = {{"path", c.opts.at("-x")}};
    if (mo.file_items > 0)
      x["read_items"] = mo.file_items;
    if (mdtest_status_file_written(c, mo) && sw)
      x["written_items"] = sw->stonewall_pairs_max;
    md["status_file"] = x;
  }
  if (mdtest && c.opts.count("--saveRankPerformanceDetails"))
    md["rank_performance_file"] = c.opts.at("--saveRankPerformanceDetails");
  // -N as applied: the stat, read and removal work on rank r + k x shift's items (mdtest_effective_stride)
  if (shift > 0)
    md["rank_shift"] = shift;
  if (!md.empty())
    results["mdtest"] = md;
  std::string latency_dir = opt(c, "--latency-dir");
  const std::string prefix = latency_prefix(c);
  const auto before = pfsim::app::snapshot_output_dir("--latency-dir", latency_dir, prefix, ".csv");
  pfsim::OutputBatch batch;  // the latency files and --out land together, or none of them
  if (!latency_dir.empty() && c.command == "mdtest") {
    std::vector<size_t> rpcs;
    for (const auto& ph : spec.params.phases)
      rpcs.push_back(ph.item_ops.size());
    const double w = spec.params.params.value("w", 0.0);
    pfsim::write_mdtest_perop_files(latency_dir, prefix, records, rpcs, w > 0 ? w : spec.params.params.value("e", 0.0));
  } else if (!latency_dir.empty()) {
    pfsim::write_latency_files(latency_dir, prefix, records);
  }
  std::string out = opt(c, "--out");
  if (!out.empty())
    pfsim::write_file_atomic(out, results.dump(2) + "\n");
  // mdtest's status file: after its allreduce, rank 0 stores the most items any rank made (file_test_create)
  if (mdtest && mdtest_status_file_written(c, mo) && sw)
    pfsim::write_file_atomic(c.opts.at("-x"), pfsim::mdtest_status_text(sw->stonewall_pairs_max));
  if (mdtest && c.opts.count("--saveRankPerformanceDetails")) {
    pfsim::MdtestRankDetails d;
    d.ranks = spec.params.ranks;
    // mdtest's o.items when it writes the file: the stonewall's count after a stonewalled create (every rank goes on
    // to it), the status file's after -x without a create, else -n
    d.items = sw ? sw->stonewall_pairs_max : mo.file_items > 0 ? mo.file_items : n;
    d.dir_read = !mo.files_only && mo.run_read;
    pfsim::write_file_atomic(c.opts.at("--saveRankPerformanceDetails"), pfsim::mdtest_rank_csv(records, d));
  }
  batch.commit();
  pfsim::app::warn_unwritten(before, "a replay of the directory would read them too");
  // mdtest's Directory rename (run when no phase is chosen, with directories and more than one item): not simulated
  if (mdtest && c.opts.count("--saveRankPerformanceDetails") && !mo.files_only && n > 1 &&
      !(has_flag(c, "-C") || has_flag(c, "-T") || has_flag(c, "-E") || has_flag(c, "-r")))
    std::fprintf(stderr, "pfsim: note: --saveRankPerformanceDetails=%s: the Directory rename columns are empty: mdtest "
                 "runs its rename phase here, which pfsim does not simulate\n",
                 c.opts.at("--saveRankPerformanceDetails").c_str());
  if (!has_flag(c, "--quiet")) {
    // mdtest's "mdtest-4.1.0 was launched with N total task(s) on K node(s)", which scripts (and pfsim replay) read
    // An mdtest run's line has mdtest's own form ("mdtest-<version> was launched with ..."), as scripts anchored on
    // "^mdtest-" read it; the version names pfsim, and the platform goes to stderr.
    if (spec.params.generator == "mdtest") {
      std::cerr << "pfsim " << kVersion << ": simulated mdtest, platform " << platform.name << "\n";
      std::cout << "-- started at " << pfsim::mdtest_date(0) << " --\n\n";
      std::cout << "mdtest-pfsim-" << kVersion;
    } else {
      std::cout << "pfsim " << kVersion << " (simulated " << spec.params.generator << ")";
    }
    std::cout << " was launched with " << spec.params.ranks << " total task(s) on " << results["run"]["nodes"]
              << " node(s)" << (spec.params.generator == "mdtest" ? "" : ", platform " + platform.name) << "\n";
    if (spec.params.generator == "mdtest") {  // pfsim mdtest, or pfsim run of an mdtest workload file
      // mdtest's own lines: saved beside the per-op files, they tell pfsim replay whether ranks shared a directory.
      const auto& m = spec.params.params;  // n, u, F, D, w, e, i as simulated
      pfsim::MdtestCommand cmd;
      cmd.n = static_cast<long long>(spec.params.items_per_rank);
      cmd.w = m.value("w", 0.0);
      cmd.e = m.value("e", 0.0);
      cmd.iterations = m.value("i", 1LL);
      cmd.u = m.value("u", false);
      cmd.F = m.value("F", false);
      cmd.D = m.value("D", false);
      cmd.stride = m.value("N", 0LL);
      cmd.stonewall_s = m.value("W", 0LL);
      cmd.sync = m.value("Y", false);
      cmd.time_unique_dir = m.value("t", false);
      // -C -T -E -r: the phases that ran, when not all four did (a workload file's absent key means the phase runs)
      std::vector<std::string> ran;
      for (const char* f : {"C", "T", "E", "r"})
        if (m.value(f, true))
          ran.push_back(std::string("-") + f);
      if (ran.size() < 4)
        cmd.only_phases = ran;
      // (pfsim run writes its own latency files; --savePerOpDataCSV typed is printed with the options as typed)
      if (!latency_dir.empty() && c.command == "mdtest" && !c.opts.count("--savePerOpDataCSV"))
        cmd.perop_prefix = prefix;
      if (c.command == "mdtest")
        cmd.typed = c.tool_args;
      cmd.tasks = spec.params.ranks;
      cmd.shift = shift;
      {
        const int rpn = results["run"]["ranks_per_node"].get<int>(), nodes = results["run"]["nodes"].get<int>();
        std::vector<int> node_of;
        for (int r = 0; r < spec.params.ranks; ++r)
          node_of.push_back(pfsim::node_of_rank(r, nodes, rpn, platform.clients.placement == "cyclic"));
        cmd.nodemap = pfsim::nodemap_line(node_of);
      }
      std::cout << pfsim::mdtest_command_lines(cmd);
    }
    if (sw)  // (printed during mdtest's create phase, after its task line)
      std::cout << pfsim::mdtest_stonewall_line(*sw, n, spec.params.ranks);
    std::vector<std::string> rows;
    if (c.command == "mdtest") {
      rows = pfsim::mdtest_summary_rows(mo);
    } else if (spec.params.generator == "mdtest") {  // pfsim run of a recorded mdtest workload: the same rows
      pfsim::MdtestOptions recorded;
      recorded.files_only = spec.params.params.value("F", false);
      recorded.dirs_only = spec.params.params.value("D", false);
      rows = pfsim::mdtest_summary_rows(recorded);
    }
    if (std::find(rows.begin(), rows.end(), "Directory rename") != rows.end())
      std::fprintf(stderr, "pfsim: note: the Directory rename row is 0, as mdtest prints a phase that did not run: "
                           "pfsim does not simulate renames\n");
    std::cout << pfsim::mdtest_summary(records, std::max(1, iterations_of(records)), rows, has_flag(c, "-P"));
    if (spec.params.generator == "mdtest")
      std::cout << "-- finished at " << pfsim::mdtest_date(records.end_s) << " --\n\n";  // (mdtest ends with a blank line)
  }
  return 0;
}

// IOR's -O directives (KEY=VALUE, repeatable, or a comma list, keys in any case as IOR's parser takes them): the
// summary's format and file, the stonewall's wear-out, pair limit and status file, the per-rank CSV.
struct IorDirectives {
  bool json = false;
  std::string file;             // summaryFile
  bool wear_out = false;        // stoneWallingWearOut
  bool wear_out_given = false;
  uint64_t pair_limit = 0;      // stoneWallingWearOutIterations
  std::string status_file;      // stoneWallingStatusFile
  std::string rank_csv;         // saveRankPerformanceDetailsCSV
};

IorDirectives ior_directives(const Cli& c)
{
  IorDirectives out;
  auto lower = [](std::string v) {
    for (auto& ch : v)
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return v;
  };
  for (const auto& given : c.ior_O) {
    for (const auto& [key, value, kv] : pfsim::ior_directive_list(given)) {
      const std::string v = lower(value);
      if (key == "summaryformat" && (v == "json" || v == "default")) {
        out.json = v == "json";
      } else if (key == "summaryfile" && !value.empty()) {
        out.file = value;
      } else if (key == "stonewallingwearout" && (v == "0" || v == "1")) {
        out.wear_out = v == "1";
        out.wear_out_given = true;
      } else if (key == "stonewallingwearoutiterations" && !value.empty()) {
        try {
          out.pair_limit = static_cast<uint64_t>(pfsim::app::parse_int_option(
              "-O stoneWallingWearOutIterations", value, 0, std::numeric_limits<long long>::max()));
        } catch (const std::invalid_argument& e) {
          throw UsageError(e.what());
        }
      } else if (key == "stonewallingstatusfile" && !value.empty()) {
        out.status_file = value;
      } else if (key == "saverankperformancedetailscsv" && !value.empty()) {
        out.rank_csv = value;
      } else if (key == "summaryformat" && v == "csv") {  // an IOR format, not one pfsim writes (helper-126)
        throw UsageError("-O " + kv + ": IOR's CSV summary is not written by pfsim; expected summaryFormat=JSON "
                         "(IOR's JSON summary) or default (IOR's text)");
      } else {
        throw UsageError("-O " + kv + ": expected summaryFormat=JSON|default, summaryFile=FILE, stoneWallingWearOut=0|1, "
                         "stoneWallingWearOutIterations=N, stoneWallingStatusFile=FILE or "
                         "saveRankPerformanceDetailsCSV=FILE (the IOR -O directives pfsim models)");
      }
    }
  }
  return out;
}

// IOR's stonewall status file (-O stoneWallingStatusFile): the transfers per rank it holds, as IOR reads it
// (ReadStoneWallingIterations: an integer, the file's first word); nullopt when it cannot be read (IOR warns and sets
// no limit).
std::optional<uint64_t> read_status_file(const std::string& path)
{
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return std::nullopt;
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word.empty() || word.size() > 19 || word.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoull(word);
}

// How often a flag was given (IOR counts -z and -v).
int flag_count(const Cli& c, const std::string& f)
{
  return static_cast<int>(std::count(c.flags.begin(), c.flags.end(), f));
}

// IOR's options (its own parser's size suffixes) to the generator's; invalid_argument naming the option.
pfsim::IorOptions ior_options(const Cli& c, const pfsim::IorSummary* from)
{
  const IorDirectives d = ior_directives(c);
  if (from) {  // the recorded test's parameters; only the rank count may change
    for (const char* k : {"-t", "-b", "-s", "-i", "-d", "-o", "-Q", "-D"})
      if (c.opts.count(k))
        throw UsageError(std::string("option ") + k + " with --from: the recorded test's parameters are used (give "
                         "--ranks and --ranks-per-node to run it at another scale)");
    for (const char* f : {"-F", "-w", "-r", "-e", "-C", "-k", "-z", "-Y", "-R", "-W", "-u", "-g"})
      if (has_flag(c, f))
        throw UsageError(std::string("option ") + f + " with --from: the recorded test's parameters are used");
    if (d.wear_out_given || d.pair_limit > 0 || !d.status_file.empty())
      throw UsageError("-O stoneWalling... with --from: the recorded test's parameters are used");
    if (c.opts.count("-a"))
      pfsim::app::check_posix_api("-a", c.opts.at("-a"));
    pfsim::IorOptions o = from->options;
    if (c.opts.count("--ranks"))
      o.ranks = static_cast<int>(opt_int(c, "--ranks", 1, 1, pfsim::app::kMaxRanks));
    o.seed = static_cast<uint64_t>(opt_int(c, "--seed", 1, 0, kNoMax));
    o.params = {{"from", opt(c, "--from")}, {"command_line", from->command_line}};
    return o;
  }
  if (!c.opts.count("--ranks"))
    throw UsageError("ior needs --ranks N (MPI ranks)");
  pfsim::IorOptions o;
  o.ranks = static_cast<int>(opt_int(c, "--ranks", 1, 1, pfsim::app::kMaxRanks));
  auto size = [&c](const char* k, uint64_t fallback) {
    return c.opts.count(k) ? static_cast<uint64_t>(pfsim::app::parse_tool_size_option(
                                 k, c.opts.at(k), 1, static_cast<long long>(pfsim::kMaxFileBytes), "IOR"))
                           : fallback;
  };
  o.transfer_B = size("-t", o.transfer_B);
  o.block_B = size("-b", o.block_B);
  o.segments = static_cast<uint64_t>(opt_int(c, "-s", 1, 1, kNoMax));
  o.file_per_proc = has_flag(c, "-F");
  const bool w = has_flag(c, "-w"), r = has_flag(c, "-r");
  o.check_write = has_flag(c, "-W");
  o.check_read = has_flag(c, "-R");
  const bool none = !w && !r && !o.check_write && !o.check_read;  // IOR: no access given, write and read
  o.write = w || none;
  o.read = r || o.check_read || none;
  o.fsync = has_flag(c, "-e");
  o.keep_file = has_flag(c, "-k");
  o.repetitions = static_cast<int>(opt_int(c, "-i", 1, 1, pfsim::app::kMaxIterations));
  o.delay_s = static_cast<double>(opt_int(c, "-d", 0, 0, 1000000000));
  o.task_offset = static_cast<int>(opt_int(c, "-Q", 1, 0, std::numeric_limits<int>::max()));
  o.random_offset = flag_count(c, "-z");
  o.seed = static_cast<uint64_t>(opt_int(c, "--seed", 1, 0, kNoMax));
  o.deadline_s = static_cast<double>(opt_int(c, "-D", 0, 0, 1000000000));
  o.wear_out = d.wear_out;
  o.pair_limit = d.pair_limit;
  o.fsync_per_write = has_flag(c, "-Y");
  o.unique_dir = has_flag(c, "-u");
  o.barriers = has_flag(c, "-g");
  if (c.opts.count("-a"))
    pfsim::app::check_posix_api("-a", c.opts.at("-a"));
  if (c.opts.count("-G"))
    opt_int(c, "-G", 0, std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  for (const char* k : {"-l", "--dataPacketType"})
    if (c.opts.count(k)) {
      static const std::vector<std::string> types{"offset", "incompressible", "timestamp", "random", "o", "i", "t", "r"};
      if (std::find(types.begin(), types.end(), c.opts.at(k)) == types.end())
        throw UsageError(std::string(k) + " " + c.opts.at(k) + ": expected offset, incompressible, timestamp or random "
                         "(or o, i, t, r), IOR's data packet types");
    }
  if (c.opts.count("-l") && c.opts.count("--dataPacketType") && c.opts.at("-l") != c.opts.at("--dataPacketType"))
    throw UsageError("-l " + c.opts.at("-l") + " and --dataPacketType=" + c.opts.at("--dataPacketType") +
                     ": the same option twice; give it once");
  // IOR 4.1's ValidateTests, with its words
  if (!d.status_file.empty() && !o.keep_file)
    throw UsageError("-O stoneWallingStatusFile=" + d.status_file + " without -k (IOR: \"a StoneWallingStatusFile is "
                     "only sensible when splitting write/read into multiple executions of ior, please use -k\")");
  if (!d.status_file.empty() && !o.wear_out && o.write)
    throw UsageError("-O stoneWallingStatusFile=" + d.status_file + " with a write but without -O "
                     "stoneWallingWearOut=1 (IOR: \"the StoneWallingStatusFile is only sensible for a write test when "
                     "using stoneWallingWearOut\")");
  if (o.wear_out && o.deadline_s <= 0)
    throw UsageError("-O stoneWallingWearOut=1 without -D (IOR: \"the stoneWallingWearOut is only sensible when setting "
                     "a stonewall deadline with -D\")");
  if (o.check_read && !o.write && !c.opts.count("-G"))
    throw UsageError("-R without -w needs -G N, the data signature the written data carries (IOR: \"using readCheck "
                     "only requires to write a timeStampSignature -- use -G\")");
  if (o.random_offset > 0 && o.check_read)  // (IOR's --random-offset-seed, which would allow it, is not taken)
    throw UsageError("-z with -R (IOR: \"random offset with read check option requires to set the random seed\", "
                     "--random-offset-seed, which pfsim does not take)");
  if (o.random_offset > 0 && has_flag(c, "-C") && !o.file_per_proc)
    throw UsageError("-z with -C on a shared file (IOR: \"random offset and constant reorder tasks specified with "
                     "single-shared-file. Choose one and resubmit\")");
  if (c.opts.count("--file-size")) {
    o.file_size_B = static_cast<uint64_t>(pfsim::app::parse_tool_size_option(
        "--file-size", c.opts.at("--file-size"), 1, static_cast<long long>(pfsim::kMaxFileBytes), "IOR"));
    if (o.write || o.check_write)
      throw UsageError("--file-size with a write (-w or -W): the files the read finds are the ones this run writes");
    if (o.file_size_B < o.block_B)
      throw UsageError("--file-size " + c.opts.at("--file-size") + ": below one block (-b " +
                       std::to_string(o.block_B) + " bytes): no block of the file to read");
  }
  // The status file's count for the read phases, read now: IOR writes it at the end of the test, so a read in the
  // same run reads what an earlier run left.
  if (!d.status_file.empty() && o.read)
    o.status_pairs = static_cast<int64_t>(read_status_file(d.status_file).value_or(0));
  o.params = {{"t", o.transfer_B}, {"b", o.block_B},     {"s", o.segments}, {"F", o.file_per_proc},
              {"w", o.write},      {"r", o.read},        {"e", o.fsync},    {"i", o.repetitions},
              {"C", has_flag(c, "-C")}, {"k", has_flag(c, "-k")}, {"o", opt(c, "-o", "testFile")},
              {"d", o.delay_s},    {"Q", o.task_offset}, {"z", o.random_offset}, {"D", o.deadline_s},
              {"Y", o.fsync_per_write}, {"R", o.check_read}, {"W", o.check_write}, {"u", o.unique_dir},
              {"g", o.barriers},   {"G", opt(c, "-G")},  {"l", opt(c, "-l", opt(c, "--dataPacketType"))},
              {"v", flag_count(c, "-v")}, {"q", has_flag(c, "-q")}, {"x", has_flag(c, "-x")}, {"O", c.ior_O}};
  if (o.file_size_B > 0)
    o.params["file_size"] = o.file_size_B;
  return o;
}

// A count of files or entries as typed: digits only, at most kMaxFindEntries (so that sums and products stay exact in a
// double and in 64 bits); nullopt otherwise.
constexpr uint64_t kMaxFindEntries = 1ULL << 50;  // about 10^15
std::optional<uint64_t> whole_count(const std::string& text, uint64_t max)
{
  if (text.empty() || text.size() > 19 || text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  const uint64_t v = std::stoull(text);
  if (v > max)
    return std::nullopt;
  return v;
}

// "R:N" of --mdtest-easy / --mdtest-hard: R tasks, N files each.
std::pair<int, uint64_t> tasks_and_files(const Cli& c, const std::string& key)
{
  const std::string v = c.opts.at(key);
  const auto colon = v.find(':');
  std::optional<uint64_t> r, n;
  if (colon != std::string::npos) {
    r = whole_count(v.substr(0, colon), static_cast<uint64_t>(pfsim::app::kMaxRanks));
    n = whole_count(v.substr(colon + 1), kMaxFindEntries);
  }
  if (!r || *r < 1 || !n || *n > kMaxFindEntries / *r)
    throw UsageError(key + " " + v + ": expected TASKS:FILES, whole numbers: TASKS from 1 to " +
                     std::to_string(pfsim::app::kMaxRanks) + ", FILES >= 0, TASKS x FILES at most " +
                     std::to_string(kMaxFindEntries) + " (e.g. 160:12500)");
  return {static_cast<int>(*r), *n};
}

// pfsim find's walk at `ranks` ranks: the trees of the command line, the platform's costs for the share-out.
pfsim::FindParams find_params(const Cli& c, const pfsim::config::PlatformConfig& platform, int ranks)
{
  pfsim::FindParams p;
  p.ranks = ranks;
  const std::string name = opt(c, "--name");  // (an empty value is refused as for every option)
  if (name.find_first_of("*?[]") != std::string::npos)
    throw UsageError("--name " + name + ": expected a plain substring of the names (pfind -name \"*01*\" is --name "
                     "01); glob characters are not read");
  p.stat = !has_flag(c, "--no-stat");
  // The names that --name matches, counted only when they are stat'ed; a pattern with a dot may span mdtest's name
  // parts and is counted name by name (at most 10^8 of them).
  double dotted_names = 0;  // names a pattern with a dot makes pfsim count one by one, over the trees
  auto check_dotted = [&](double names) {
    if (!p.stat || name.find('.') == std::string::npos)
      return;
    dotted_names += names;
    if (dotted_names > 1e8)
      throw UsageError("--name " + name + ": a pattern with a dot is counted name by name, and the trees hold " +
                       std::to_string(static_cast<uint64_t>(dotted_names)) +
                       " names (at most 10^8; a pattern without a dot is counted at any size)");
  };
  auto matching = [&](int ranks, uint64_t items, int first_rank) -> uint64_t {
    return p.stat ? pfsim::mdtest_names_matching(ranks, items, name, first_rank) : 0;
  };
  // A tree's names matching --name (the ones stat'ed; IO500's "found" are mdtest-hard's, the only files of its -size);
  // null with --no-stat, which counts none.
  auto matched = [&](uint64_t m) { return p.stat ? nlohmann::json(m) : nlohmann::json(nullptr); };
  nlohmann::json given = nlohmann::json::object();
  uint64_t order = 0;  // the trees' directories in the order IO500 makes them: mdtest-easy's, then mdtest-hard's
  if (c.opts.count("--mdtest-easy")) {
    auto [r, n] = tasks_and_files(c, "--mdtest-easy");
    check_dotted(static_cast<double>(r) * static_cast<double>(n));
    uint64_t matches = 0;
    for (int k = 0; k < r; ++k) {  // task k's directory holds its own files (mdtest -u: file.mdtest.<k>.<i>)
      p.dirs.push_back({n, matching(1, n, k), static_cast<uint64_t>(k)});
      matches += p.dirs.back().matching;
    }
    order = static_cast<uint64_t>(r);
    given["mdtest_easy"] = {{"tasks", r}, {"files_per_task", n}, {"matching", matched(matches)}};
  }
  if (c.opts.count("--mdtest-hard")) {
    auto [r, n] = tasks_and_files(c, "--mdtest-hard");
    check_dotted(static_cast<double>(r) * static_cast<double>(n));
    // One directory, the first its job makes (its MDS is the first: Workload::directory_order 0, as pfsim mdtest's).
    p.dirs.push_back({static_cast<uint64_t>(r) * n, matching(r, n, 0), 0});
    given["mdtest_hard"] = {{"tasks", r}, {"files_per_task", n}, {"matching", matched(p.dirs.back().matching)}};
    order = std::max<uint64_t>(order, 1);
  }
  if (c.opts.count("--dirs")) {
    const std::string list = c.opts.at("--dirs");
    size_t pos = 0;
    while (pos <= list.size()) {
      const size_t comma = std::min(list.find(',', pos), list.size());
      const std::string item = list.substr(pos, comma - pos);
      const size_t colon = item.find(':');
      auto number = [&](const std::string& text) {
        const auto v = whole_count(text, kMaxFindEntries);
        if (!v)
          throw UsageError("--dirs " + list + ": item \"" + item + "\": expected ENTRIES[:MATCHING], whole numbers from 0 "
                           "to " + std::to_string(kMaxFindEntries));
        return *v;
      };
      const uint64_t e = number(item.substr(0, colon));
      const uint64_t m = colon == std::string::npos ? e : number(item.substr(colon + 1));
      if (m > e)
        throw UsageError("--dirs " + list + ": item \"" + item + "\": MATCHING " + std::to_string(m) +
                         " exceeds the directory's " + std::to_string(e) + " entries");
      if (!name.empty() && colon == std::string::npos)
        throw UsageError("--dirs " + list + ": item \"" + item + "\" gives no MATCHING count, and --name " + name +
                         " applies only to mdtest's names: write ENTRIES:MATCHING");
      p.dirs.push_back({e, m, order++});
      pos = comma + 1;
    }
    given["dirs"] = list;
  }
  if (p.dirs.empty())
    throw UsageError("find needs a tree to search: --mdtest-easy R:N, --mdtest-hard R:N or --dirs LIST");
  double total = 0;
  for (const auto& d : p.dirs)
    total += static_cast<double>(d.entries);
  if (total > static_cast<double>(kMaxFindEntries))
    throw UsageError("the tree holds " + std::to_string(total) + " files in all: at most " +
                     std::to_string(kMaxFindEntries));
  given["name"] = name.empty() ? nlohmann::json(nullptr) : nlohmann::json(name);
  p.params = given;
  const auto& cl = platform.clients;
  const auto& md = platform.mds;
  p.entries_per_rpc = cl.readdir_entries;
  p.ranks_per_node = static_cast<int>(opt_int(c, "--ranks-per-node", cl.ranks_per_node, 1, pfsim::app::kMaxRanksPerNode));
  p.cyclic = cl.placement == "cyclic";
  // Estimated costs for sharing out the stats (FindWorkload): a listed entry's share of its readdir RPC (a round trip,
  // the RPC's service and overhead) and its own times; a stat by another node (an RPC: its round trip and service);
  // a stat by the reader's node (the client's alone when the reply brought the attributes).
  const double rtt = 2 * platform.network.one_way_latency_s();
  p.entry_cost_s = cl.readdir_entry_s + md.readdir_entry_s +
                   (md.service_s[pfsim::Op::Readdir] + cl.rpc_overhead_s + rtt) / cl.readdir_entries;
  p.stat_cost_s = cl.op_overhead_s[pfsim::Op::Stat] + cl.rpc_overhead_s + rtt + md.service_s[pfsim::Op::Stat];
  p.local_stat_cost_s = cl.readdir_attributes ? cl.op_overhead_s[pfsim::Op::Stat] : p.stat_cost_s;
  p.attributes = cl.readdir_attributes;
  p.mds_count = md.count;
  p.mds_cores = md.cores;
  p.mds_stat_s = md.service_s[pfsim::Op::Stat];
  return p;
}

// One pfsim find run at `ranks` ranks on `platform`: its results JSON with the "find" entry (files, stats, time, rate).
nlohmann::json find_point(const Cli& c, const pfsim::config::PlatformConfig& platform, int ranks,
                          const std::string& sweep_point = "")
{
  Cli point = c;  // the results state their own rank count (a sweep point's too)
  point.opts["--ranks"] = std::to_string(ranks);
  const auto p = find_params(point, platform, ranks);
  pfsim::FindWorkload workload(p);
  pfsim::WorkloadSpec spec;
  spec.ranks_per_node = p.ranks_per_node;
  spec.seed = static_cast<uint64_t>(opt_int(c, "--seed", 1, 0, kNoMax));
  auto options = run_options(c, spec);
  options.point = sweep_point;  // (a sweep point's warnings name it)
  pfsim::RunRecords records;
  pfsim::RunInfo info;
  auto results = simulate(point, platform, workload, options, records, info);
  const auto& ph = records.phases.at(0);
  const double t = ph.end_s - ph.start_s;
  const double rate = t > 0 ? static_cast<double>(workload.phase_items(0)) / t : 0.0;
  results["find"] = {{"files", workload.phase_items(0)}, {"directories", p.dirs.size()},
                     {"stats", workload.total_stats()}, {"local_stats", records.local_stats}, {"time_s", t},
                     {"rate", rate}};
  return results;
}

// pfsim find's and pfsim ior's one run or sweep: with --csv a sweep, which --out does not serve; without, one run,
// for which a rank list or a sweep option is refused.
void check_run_or_sweep(const Cli& c)
{
  if (c.opts.count("--csv")) {
    if (c.opts.count("--out"))
      throw UsageError("--out is one run's results; a sweep (--csv) writes every point's to --csv FILE.json "
                       "(and --results-dir)");
    return;
  }
  if (c.opts.count("--ranks") && c.opts.at("--ranks").find(',') != std::string::npos)
    throw UsageError("--ranks " + c.opts.at("--ranks") + ": a list of rank counts is a sweep: give --csv FILE");
  for (const char* o : {"--jobs", "--results-dir", "--vary"})
    if (c.opts.count(o))
      throw UsageError(std::string(o) + " is a sweep's option: give --csv FILE (and --ranks LIST)");
}

// FILE.json's header of a find or ior sweep: its inputs and the first point's workload (each point's ranks are in
// "ranks" and its "run").
nlohmann::json point_sweep_header(const Cli& c, const pfsim::app::SweepSpec& sweep, const nlohmann::json& first)
{
  nlohmann::json w = first["workload"];
  w.erase("ranks");
  return nlohmann::json{{"inputs", sweep_inputs(c, sweep, first)}, {"workload", w}};
}

int cmd_find(const Cli& c)
{
  if (!c.opts.count("--ranks"))
    throw UsageError("find needs --ranks N (pfind's MPI ranks; a list with --csv)");
  check_output_paths(c);
  pfsim::app::check_outputs_spare_inputs({{"--out", opt(c, "--out"), false, "", ""}},
                                         {{"the platform file", opt(c, "--platform")}});
  check_run_or_sweep(c);  // (helper-113: find ignored the sweep options without --csv, where ior refuses them)
  auto platform = platform_of(c);
  if (c.opts.count("--csv")) {  // a sweep over rank counts (and --vary), as pfsim sweep's
    auto [sweep, varied] = sweep_setup(c);
    find_params(c, platform, sweep.ranks.front());  // the trees and options checked once, before any point runs
    pfsim::app::run_sweep(
        sweep,
        [&](int r, int k) {
          const std::string name = pfsim::app::sweep_point_name(sweep, r, k);
          if (k < 0)
            return find_point(c, platform, r, name);
          Cli point = c;
          point.opts.erase("--vary");  // its value for this point is the last --set
          point.sets.push_back(sweep.vary_path + "=" + sweep.vary_values[static_cast<size_t>(k)]);
          return find_point(point, varied[static_cast<size_t>(k)], r, name);
        },
        [&](const nlohmann::json& first) { return point_sweep_header(c, sweep, first); });
    return 0;
  }
  const int ranks = static_cast<int>(opt_int(c, "--ranks", 1, 1, pfsim::app::kMaxRanks));
  auto results = find_point(c, platform, ranks);
  const auto& f = results["find"];
  const std::string out = opt(c, "--out");
  if (!out.empty())
    pfsim::write_file_atomic(out, results.dump(2) + "\n");
  if (!has_flag(c, "--quiet")) {
    std::cout << "pfsim " << kVersion << " (simulated pfind) was launched with " << ranks << " total task(s) on "
              << results["run"]["nodes"] << " node(s), platform " << platform.name << "\n";
    std::printf("examined %llu files in %llu directories, stat'ed %llu (%llu answered by the client)\n",
                f["files"].get<unsigned long long>(), f["directories"].get<unsigned long long>(),
                f["stats"].get<unsigned long long>(), f["local_stats"].get<unsigned long long>());
    // IO500's result line (main.c: "[RESULT] %20s %15s %s : time %.3f seconds", the score as "%f"; helper-145)
    std::printf("[RESULT] %20s %15f kIOPS : time %.3f seconds\n", "find", f["rate"].get<double>() / 1000.0,
                f["time_s"].get<double>());
  }
  return 0;
}

// IOR's warnings about its options on this platform (the same at every rank count): the bulk-load law past its data,
// -e without a write-back cache, a write phase that times write() into the cache.
std::vector<std::string> ior_warnings(const pfsim::config::PlatformConfig& platform, const pfsim::IorOptions& io)
{
  std::vector<std::string> out;
  if (auto w = pfsim::app::bulk_load_law_warning(platform, io.read, io.write); !w.empty())
    out.push_back(w);
  if (io.fsync && platform.clients.max_dirty_B <= 0)
    out.push_back("-e (fsync) waits for the write-back cache, and clients.max_dirty_mb is 0 (writes wait for their "
                  "RPCs): it changes nothing");
  // As real IOR without -e: the write phase then times copies into the page cache, here free of cost.
  if (io.write && !io.fsync && !io.fsync_per_write && platform.clients.max_dirty_B > 0 &&
      platform.clients.page_cache_copy_Bps <= 0)
    out.push_back("writes return once their pages are in the write-back cache (clients.max_dirty_mb " +
                  std::to_string(static_cast<long long>(platform.clients.max_dirty_B / 1048576)) +
                  ") and clients.page_cache_copy is not set (a copy costs nothing): without -e the write bandwidth is "
                  "the cache's, not the OSTs' (-e, or --set clients.max_dirty_mb=0)");
  return out;
}

// One IOR run at the rank count of c's --ranks (else the recorded one of `from`), ready to simulate: its workload and
// run options (ior_warnings among their warnings).
struct IorRun {
  std::unique_ptr<pfsim::IorWorkload> workload;
  pfsim::RunOptions options;
  bool reorder = false;  // -C (typed or recorded)
};

IorRun ior_run(const Cli& c, const pfsim::config::PlatformConfig& platform, const pfsim::IorSummary* from)
{
  IorRun run;
  pfsim::IorOptions io = ior_options(c, from);
  pfsim::WorkloadSpec spec;
  spec.ranks_per_node = static_cast<int>(
      opt_int(c, "--ranks-per-node", from ? std::min(from->tasks_per_node, io.ranks) : 0, 1,
              pfsim::app::kMaxRanksPerNode));
  // -C: IOR reads the data of the rank one node further (rank + tasks per node, with ranks placed in blocks; with the
  // cyclic placement the next rank is on the next node)
  run.reorder = has_flag(c, "-C") || (from && from->reorder);
  // -Q N: the read reads the tasks N nodes on; -W's verification 2 nodes on whatever -Q says (IOR 4.1's TestIoSys:
  // rankOffset = taskPerNodeOffset x shift for the read, 2 x shift for the check, "move two nodes away"), shift being
  // the tasks on node 0 with ranks placed in blocks (fewer than the ranks per node when the ranks do not fill one
  // node: then no shift), 1 with the cyclic placement (helper-125).
  if (run.reorder) {
    const long long per_node =
        spec.ranks_per_node > 0 ? spec.ranks_per_node : static_cast<long long>(platform.clients.ranks_per_node);
    const long long shift = platform.clients.placement == "cyclic" ? 1 : std::min<long long>(per_node, io.ranks);
    io.read_shift = static_cast<int>(static_cast<long long>(io.task_offset) * shift % io.ranks);
    io.check_shift = static_cast<int>(2 * shift % io.ranks);
  }
  try {
    run.workload = std::make_unique<pfsim::IorWorkload>(io);
  } catch (const std::invalid_argument& e) {  // a recorded test pfsim cannot run: said to be the --from file's
    if (!from)
      throw;
    throw ConfigError(opt(c, "--from") + ": the test it records (its Parameters, as IOR's options): " + e.what());
  }
  spec.seed = static_cast<uint64_t>(opt_int(c, "--seed", 1, 0, kNoMax));
  run.options = run_options(c, spec);
  run.options.rank_times = has_flag(c, "--rank-times") || !ior_directives(c).rank_csv.empty();
  for (auto& w : ior_warnings(platform, run.workload->options()))
    run.options.warnings.push_back(std::move(w));
  return run;
}

// Simulates `run` and returns its results JSON with IOR's own entries: "ior" (IOR's JSON Results, one per phase, as
// "phases"), "ior_warnings" (a write phase above the OSTs' disks), "compared_with" (--from). `point`: a sweep point's
// name, which begins its lines on stderr ("" for a single run).
nlohmann::json ior_simulate(const Cli& c, const pfsim::config::PlatformConfig& platform, const IorRun& run,
                            const pfsim::IorSummary* from, pfsim::RunRecords& records, pfsim::RunInfo& info,
                            const std::string& point = "")
{
  const pfsim::IorWorkload& workload = *run.workload;
  auto results = simulate(c, platform, workload, run.options, records, info);
  const std::string at = point.empty() ? "" : point + ": ";
  nlohmann::json ior = nlohmann::json::array();
  for (const auto& r : pfsim::ior_results(records, workload)) {
    // IOR's JSON "Results" entry, with the repetition, the mean transfer time and the data moved (IOR's
    // aggFileSizeForBW: less than the test's size after a stonewall)
    nlohmann::json entry = pfsim::ior_result_json(r, workload);
    entry["iteration"] = r.repetition;
    entry["mean_transfer_s"] = r.mean_transfer_s;
    entry["bytes"] = r.bytes;
    const auto& ph = records.phases[r.phase];
    if (ph.wear_out)  // IOR's "stonewalling pairs accessed" line, in numbers
      entry["stonewall"] = {{"pairs_min", ph.stonewall_pairs_min}, {"pairs_max", ph.stonewall_pairs_max},
                            {"bytes_min", ph.stonewall_bytes_min}, {"bytes_sum", ph.stonewall_bytes_sum},
                            {"time_s", ph.stonewall_s}};
    ior.push_back(entry);
    if (has_flag(c, "--rank-times")) {
      nlohmann::json t = nlohmann::json::array();
      for (double e : ph.rank_end_s)
        t.push_back(e - ph.start_s);
      ior.back()["rank_times_s"] = t;
    }
  }
  results["ior"] = ior;  // IOR's JSON summary fields (tests[].Results[])
  // A write phase faster than every OST's disk together timed write() into the write-back cache (IOR without -e, as
  // on a real machine): said, so that it is not read as the OSTs' rate (helper-111: 831,262 MiB/s against 61,035).
  {
    const double disks_MiBps = platform.oss.count * platform.oss.disk_write_Bps / 1048576.0;
    nlohmann::json cache_warnings = nlohmann::json::array();
    for (const auto& r : pfsim::ior_results(records, workload))
      if (r.access == "write" && !workload.options().fsync && !workload.options().fsync_per_write &&
          r.bw_MiBps > 1.02 * disks_MiBps) {
        char w[400];
        std::snprintf(w, sizeof w, "write, iteration %d: %.2f MiB/s, above the %d OSTs' disks together (%.2f MiB/s): "
                      "it times write() into the write-back cache (clients.max_dirty_mb), not the data reaching the "
                      "OSTs (-e, fsync, times that)", r.repetition, r.bw_MiBps, platform.oss.count, disks_MiBps);
        cache_warnings.push_back(w);
        std::fprintf(stderr, "pfsim: warning: %s%s\n", at.c_str(), w);
      }
    // A read phase that took no simulated time: every read a copy from the node's page cache, free without
    // clients.page_cache_copy. IOR's formulas then give IOPS = transfers / 0 s, printed "inf" as IOR's printf
    // prints it (null in the JSON outputs, which have no inf), and a latency of 0 (helper-149: said nowhere). Once
    // per run, naming the repetitions.
    std::vector<int> untimed;
    for (const auto& r : pfsim::ior_results(records, workload))
      if (r.access == "read" && r.bytes > 0 && r.wrrd_s <= 0)
        untimed.push_back(r.repetition);
    if (!untimed.empty() && platform.clients.page_cache_copy_Bps <= 0 && records.cache_reads > 0) {
      std::string its;
      for (int k : untimed)
        its += (its.empty() ? "" : ", ") + std::to_string(k);
      const std::string shift =
          run.reorder && results["run"].value("nodes", 0) == 1
              ? "; -C reads another task's data, here on the reader's node: every rank is on one node"
              : "";
      const std::string w =
          "read, iteration" + std::string(untimed.size() > 1 ? "s " : " ") + its +
          ": the phase's reads took no simulated time (wr/rd 0 s, IOPS inf: IOR's transfers / that time, null in the "
          "JSON; latency 0): the node's page cache served them (clients.max_cached_mb) and clients.page_cache_copy "
          "is not set, so a copy costs nothing" + shift +
          " (--set clients.page_cache_copy=4GBps charges the copies, clients.max_cached_mb=0 reads from the OSTs)";
      cache_warnings.push_back(w);
      std::fprintf(stderr, "pfsim: warning: %s%s\n", at.c_str(), w.c_str());
    }
    if (!cache_warnings.empty())
      results["ior_warnings"] = cache_warnings;
  }
  results["inputs"]["ior_O"] = c.ior_O;  // -O KEY=VALUE as given
  if (from) {  // the recorded run against the simulated one, result by result
    nlohmann::json cmp = nlohmann::json::array();
    const auto sim = pfsim::ior_results(records, workload);
    for (const auto& m : from->results)
      for (const auto& r : sim)
        if (r.access == m.access && r.repetition == m.iteration) {
          const double err = m.bw_MiBps > 0 ? r.bw_MiBps / m.bw_MiBps - 1 : 0.0;
          cmp.push_back({{"access", m.access}, {"iteration", m.iteration}, {"measured_bwMiB", m.bw_MiBps},
                         {"simulated_bwMiB", r.bw_MiBps}, {"error", err}});
          std::fprintf(stderr, "pfsim: %s%s, iteration %d: measured %.2f MiB/s, simulated %.2f MiB/s (%+.1f%%)%s\n",
                       at.c_str(), m.access.c_str(), m.iteration, m.bw_MiBps, r.bw_MiBps, 100 * err,
                       workload.ranks() != from->options.ranks ? " (at another task count)" : "");
        }
    results["compared_with"] = {{"file", opt(c, "--from")}, {"command_line", from->command_line},
                                {"tasks", from->options.ranks}, {"results", cmp}};
  }
  return results;
}

// pfsim ior --ranks LIST --csv FILE: one IOR run per rank count (and --vary value), as pfsim sweep's points; each row
// of the table one phase (access and repetition) with IOR's bandwidth, FILE.json each point's IOR results.
int ior_sweep(const Cli& c, const pfsim::config::PlatformConfig& platform, const pfsim::IorSummary* from)
{
  if (c.opts.count("--lmt"))  // (--out: check_run_or_sweep)
    throw UsageError("--lmt is one run's; a sweep (--csv) writes every point's results to --csv FILE.json (and "
                     "--results-dir)");
  const IorDirectives d = ior_directives(c);  // (the stonewall's directives are parameters of every point)
  for (const auto& [given, what] : {std::make_pair(d.file, "summaryFile"),
                                    std::make_pair(d.rank_csv, "saveRankPerformanceDetailsCSV"),
                                    std::make_pair(d.status_file, "stoneWallingStatusFile")})
    if (!given.empty())
      throw UsageError(std::string("-O ") + what + "=" + given + " with --csv: a sweep writes its table, not IOR's "
                       "files (each point's IOR results are in --csv FILE.json)");
  if (d.json)
    throw UsageError("-O summaryFormat=JSON with --csv: a sweep writes its table, not IOR's summaries (each point's IOR "
                     "results are in --csv FILE.json)");
  auto [sweep, varied] = sweep_setup(c, from ? std::to_string(from->options.ranks) : "");
  sweep.extra_header = ",bw_MiBps";
  sweep.extra_fields = [](const nlohmann::json& j, size_t phase) {
    // the IOR result of the phase (an untimed phase, -W's verification or -u's mkdirs, has none: an empty field)
    const auto& p = j["phases"].at(phase);
    for (const auto& e : j["ior"])
      if (e["access"] == p["name"] && e["iteration"] == p["iteration"]) {
        char field[64];
        std::snprintf(field, sizeof field, ",%.3f", e["bwMiB"].get<double>());
        return std::string(field);
      }
    return std::string(",");
  };
  sweep.point_keys = {"ior", "ior_warnings", "compared_with"};
  auto point_cli = [&](int r, int k) {
    Cli point = c;  // each point's results state its own rank count, as a single run's --out would
    point.opts["--ranks"] = std::to_string(r);
    if (k >= 0) {
      point.opts.erase("--vary");  // its value for this point is the last --set
      point.sets.push_back(sweep.vary_path + "=" + sweep.vary_values[static_cast<size_t>(k)]);
    }
    return point;
  };
  auto platform_of_point = [&](int k) -> const pfsim::config::PlatformConfig& {
    return k < 0 ? platform : varied[static_cast<size_t>(k)];
  };
  // Every point built and checked before the first one runs (a bad point is one error, exit 2); the warnings, the
  // same at every rank count, said once (with the --vary values they hold for, when not all), not by every point.
  std::vector<std::pair<std::string, std::vector<std::string>>> warned;  // a warning, the --vary values it holds for
  for (int k = sweep.vary_values.empty() ? -1 : 0; k < static_cast<int>(sweep.vary_values.size()); ++k)
    for (int r : sweep.ranks) {
      const IorRun run = ior_run(point_cli(r, k), platform_of_point(k), from);
      pfsim::check_before_run(platform_of_point(k), *run.workload, run.options);
      for (const auto& w : run.options.warnings) {
        auto it = std::find_if(warned.begin(), warned.end(), [&](const auto& x) { return x.first == w; });
        if (it == warned.end())
          it = warned.insert(warned.end(), {w, {}});
        const std::string value = k < 0 ? "" : sweep.vary_values[static_cast<size_t>(k)];
        if (k >= 0 && std::find(it->second.begin(), it->second.end(), value) == it->second.end())
          it->second.push_back(value);
      }
    }
  for (const auto& [w, values] : warned) {
    std::string with;
    if (!values.empty() && values.size() < sweep.vary_values.size())
      for (const auto& v : values)
        with += (with.empty() ? "with " + sweep.vary_path + "=" : ",") + v;
    std::fprintf(stderr, "pfsim: warning: %s%s\n", with.empty() ? "" : (with + ": ").c_str(), w.c_str());
  }
  pfsim::app::run_sweep(
      sweep,
      [&](int r, int k) {
        const Cli point = point_cli(r, k);
        IorRun run = ior_run(point, platform_of_point(k), from);
        run.options.warnings.clear();  // (said once, above)
        run.options.point = pfsim::app::sweep_point_name(sweep, r, k);
        pfsim::RunRecords records;
        pfsim::RunInfo info;
        return ior_simulate(point, platform_of_point(k), run, from, records, info, run.options.point);
      },
      [&](const nlohmann::json& first) { return point_sweep_header(c, sweep, first); });
  return 0;
}

int cmd_ior(const Cli& c)
{
  check_run_or_sweep(c);
  if (!c.opts.count("--ranks") && !c.opts.count("--from"))
    throw UsageError("ior needs --ranks N (MPI ranks; a comma-separated list with --csv)");
  const IorDirectives d = ior_directives(c);
  pfsim::app::check_output_file("-O summaryFile", d.file);
  pfsim::app::check_output_file("-O saveRankPerformanceDetailsCSV", d.rank_csv);
  // (the status file is read before the run and, after a wear-out, written at its end)
  if (d.wear_out)
    pfsim::app::check_output_file("-O stoneWallingStatusFile", d.status_file);
  pfsim::app::check_distinct_outputs({{"--out", opt(c, "--out")}, {"--lmt", opt(c, "--lmt")},
                                      {"-O summaryFile", d.file},
                                      {"-O saveRankPerformanceDetailsCSV", d.rank_csv},
                                      {"-O stoneWallingStatusFile", d.status_file}});
  const std::string csv = opt(c, "--csv");
  pfsim::app::check_outputs_spare_inputs({{"-O summaryFile", d.file, false, "", ""},
                                          {"-O saveRankPerformanceDetailsCSV", d.rank_csv, false, "", ""},
                                          {"-O stoneWallingStatusFile", d.wear_out ? d.status_file : "", false, "", ""},
                                          {"--out", opt(c, "--out"), false, "", ""},
                                          {"--lmt", opt(c, "--lmt"), false, "", ""},
                                          {"--csv", csv, false, "", ""},
                                          {"--csv (its configuration file)", csv.empty() ? csv : csv + ".json", false,
                                           "", ""},
                                          {"--results-dir", opt(c, "--results-dir"), true, "ranks-", ".json"}},
                                         {{"the IOR summary", opt(c, "--from")},
                                          {"the platform file", opt(c, "--platform")}});
  check_output_paths(c);
  auto platform = platform_of(c);
  std::optional<pfsim::IorSummary> from;
  if (c.opts.count("--from"))
    from = pfsim::read_ior_summary(c.opts.at("--from"));
  if (c.opts.count("--csv"))
    return ior_sweep(c, platform, from ? &*from : nullptr);
  const IorRun run = ior_run(c, platform, from ? &*from : nullptr);
  const pfsim::IorWorkload& workload = *run.workload;
  const auto& io = workload.options();
  // IOR's read phase warns when it cannot read a pair count from the status file, and reads without a limit
  const bool status_unread = !d.status_file.empty() && io.read && !read_status_file(d.status_file);
  if (status_unread)
    std::fprintf(stderr, "pfsim: warning: -O stoneWallingStatusFile=%s: no transfer count to read there (IOR: \"Could "
                 "not read back the stonewalling status from the file!\"): the read phases have no limit\n",
                 d.status_file.c_str());
  if (from && !from->status_file.empty())
    std::fprintf(stderr, "pfsim: note: the recorded run's -O stoneWallingStatusFile=%s is neither read nor written "
                 "(a file of the recorded machine): its read phases have no limit from it\n",
                 from->status_file.c_str());
  pfsim::RunRecords records;
  pfsim::RunInfo info;
  auto results = ior_simulate(c, platform, run, from ? &*from : nullptr, records, info);
  pfsim::OutputBatch batch;
  const nlohmann::json effective = {
      {"seed", results["seed"]}, {"inputs", results["inputs"]}, {"platform", results["platform"]}};
  if (!opt(c, "--out").empty())
    pfsim::write_file_atomic(opt(c, "--out"), results.dump(2) + "\n");
  if (!opt(c, "--lmt").empty())
    pfsim::write_file_atomic(opt(c, "--lmt"), pfsim::lmt_samples_csv(records, platform.oss.sample_interval_s,
                                                                       platform.oss.sample_offset_s, effective));
  pfsim::IorReportInfo ri;
  ri.typed = c.tool_args;
  if (from)
    ri.typed = {"(as", opt(c, "--from") + ":", from->command_line + ")"};
  ri.platform = platform.name;
  ri.version = kVersion;
  ri.test_file = from ? from->test_file : opt(c, "-o", "testFile");
  ri.nodes = info.nodes;
  // IOR's tasks per node are the tasks on rank 0's node: fewer than the nodes' capacity when the run does not fill one.
  ri.ranks_per_node = std::min(info.ranks_per_node, info.ranks);
  ri.reorder = run.reorder;
  ri.keep_file = has_flag(c, "-k") || (from && from->keep_file);
  ri.status_file = !d.status_file.empty() || (from && !from->status_file.empty());
  ri.status_unread = status_unread;
  ri.verbose = flag_count(c, "-v");
  ri.time_stamp_signature = c.opts.count("-G") ? opt_int(c, "-G", 0, std::numeric_limits<int>::min(),
                                                         std::numeric_limits<int>::max())
                                               : 0;
  ri.data_packet_type = opt(c, "-l", opt(c, "--dataPacketType"));
  ri.single_xfer = has_flag(c, "-x");
  ri.effective = effective;
  // IOR's summaryFile: the JSON summary, or the text report but for what IOR prints to stdout (its out_logfile)
  const auto text = d.json ? std::make_pair(std::string(), std::string())
                           : pfsim::ior_split_summary_file(pfsim::ior_output(records, workload, ri));
  if (!d.file.empty())
    pfsim::write_file_atomic(d.file, d.json ? pfsim::ior_json_summary(records, workload, ri).dump(2) + "\n" : text.second);
  if (!d.rank_csv.empty())
    pfsim::write_file_atomic(d.rank_csv, pfsim::ior_rank_csv(records, workload));
  // IOR's ShowTestEnd: after a wear-out, rank 0 stores the first repetition's write pairs in the status file
  if (io.wear_out && !d.status_file.empty())
    pfsim::write_file_atomic(d.status_file, std::to_string(pfsim::ior_write_pairs(records, workload)));
  batch.commit();
  if (!has_flag(c, "--quiet")) {
    if (d.json && d.file.empty())
      std::cout << pfsim::ior_json_summary(records, workload, ri).dump(2) << "\n";
    else if (d.json)  // IOR with summaryFile prints only this line (tool-outputs/ior/ior-json-stdout.txt)
      std::cout << "Writing output to " << d.file << "\n";
    else if (!d.file.empty())
      std::cout << "Writing output to " << d.file << "\n" << text.first;
    else
      std::cout << pfsim::ior_output(records, workload, ri);
  }
  return 0;
}

int cmd_sweep(const Cli& c)
{
  if (has_flag(c, "--check"))
    return check_inputs(c);
  check_output_paths(c);
  auto platform = platform_of(c);
  auto spec = workload_of(c);
  auto [sweep, varied] = sweep_setup(c, std::to_string(spec.params.ranks));
  // The workload's ranks_per_node beats the platform's at every point, as workload_of says of a --set of it.
  if (sweep.vary_path == "clients.ranks_per_node" && spec.ranks_per_node > 0 && !c.opts.count("--ranks-per-node"))
    std::cerr << "pfsim: warning: --vary " << c.opts.at("--vary") << " changes nothing: the workload file "
              << opt(c, "--workload") << " gives ranks_per_node " << spec.ranks_per_node
              << ", which applies at every point (--ranks-per-node K overrides it)\n";
  pfsim::app::run_sweep(
      sweep,
      [&](int r, int k) {
        Cli point = c;  // each point's results state its own rank count, as a single run's --out would
        if (point.opts.count("--ranks"))
          point.opts["--ranks"] = std::to_string(r);
        if (k < 0)
          return run_point(point, platform, pfsim::with_ranks(spec, r), nullptr,
                           pfsim::app::sweep_point_name(sweep, r, k));
        point.opts.erase("--vary");  // its value for this point is the last --set
        point.sets.push_back(sweep.vary_path + "=" + sweep.vary_values[static_cast<size_t>(k)]);
        return run_point(point, varied[static_cast<size_t>(k)], pfsim::with_ranks(spec, r), nullptr,
                         pfsim::app::sweep_point_name(sweep, r, k));
      },
      [&](const nlohmann::json& first) {
        // The workload as given (its own rank count); each point's ranks are in "ranks" and its "run".
        auto w = pfsim::SyntheticWorkload(spec.params).describe();
        if (!spec.ranks_given) {  // the file states no rank count (1 stood in)
          w["ranks"] = nullptr;
          w["workload_file"].erase("ranks");
        }
        return nlohmann::json{{"inputs", sweep_inputs(c, sweep, first)}, {"workload", w}};
      });
  return 0;
}

// An error message as one bounded line, whatever input it quotes (the readers cap their own excerpts; this is the
// last guard): control characters escaped (\n, \x01), at most 2000 bytes.
std::string one_line(const char* what)
{
  constexpr size_t kMax = 2000;
  std::string out;
  for (const char* p = what; *p; ++p) {
    if (out.size() >= kMax) {
      out += "...";
      break;
    }
    const auto c = static_cast<unsigned char>(*p);
    if (c >= 0x20 && c != 0x7f) {
      out += *p;
    } else {
      char esc[8];
      std::snprintf(esc, sizeof esc, c == '\n' ? "\\n" : c == '\t' ? "\\t" : c == '\r' ? "\\r" : "\\x%02x", c);
      out += esc;
    }
  }
  return out;
}

}  // namespace

int main(int argc, char** argv)
{
  pfsim::note_initial_signals();
  try {
    std::string first = argc >= 2 ? argv[1] : "";
    if (first == "--help" || first == "-h" || first == "help") {
      std::cout << kUsage;
      return 0;
    }
    if (first == "--version" || first == "version") {
      std::cout << "pfsim " << kVersion << "\n";
      return 0;
    }
    if (argc >= 2 && std::string(argv[1]) == "replay")
      return pfsim::app::cmd_replay(argc, argv);
    if (argc >= 2 && std::string(argv[1]) == "mdworkbench")
      return pfsim::app::cmd_mdworkbench(argc, argv);
    Cli cli = parse_cli(argc, argv);
    if (has_flag(cli, "--help") || has_flag(cli, "-h")) {
      std::cout << command_help(cli.command);
      return 0;
    }
    if (cli.command == "run" || cli.command == "mdtest" || cli.command == "metabench")
      return cmd_run(cli);
    if (cli.command == "sweep")
      return cmd_sweep(cli);
    if (cli.command == "ior")
      return cmd_ior(cli);
    if (cli.command == "find")
      return cmd_find(cli);
    throw UsageError("unknown command \"" + cli.command + "\"");
  } catch (const ConfigError& e) {
    std::cerr << "pfsim: error: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const UsageError& e) {
    std::cerr << "pfsim: usage error: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    std::cerr << "pfsim: error: " << one_line(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "pfsim: failed: " << one_line(e.what()) << "\n";
    return 1;
  }
}
