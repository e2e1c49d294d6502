// pfsim replay <dxt-dump | ior-perop-file> --platform P.json [--ranks M] [--out R.json] [--check] [--ior-op write|read]
//              [--ior-file-per-process] [--ior-block B] [--ranks-per-node K] [--seed S] [--set path=value]
//              [--time-limit T] [--no-samples] [--quiet] [--verbose]
//
// The data-path traces (workload/io_trace.hpp) replayed through the client model's data path: prints, per phase and
// direction, the recorded and simulated operations, bytes, rates and latency percentiles (report/io_report.hpp);
// --out holds the results JSON (effective platform, workload, seed, per-phase rates and latencies) with the
// comparison under "io_replay".
#include "app/commands.hpp"
#include "config/reader.hpp"
#include "model/simulation.hpp"
#include "report/io_report.hpp"
#include "report/outputs.hpp"
#include "workload/io_replay.hpp"
#include "workload/io_trace.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

namespace pfsim::app {
namespace {

struct IoOpt {
  const char* name;
  bool value;
};
constexpr IoOpt kIoOpts[] = {{"--platform", true},       {"--set", true},        {"--ranks", true},
                             {"--ranks-per-node", true}, {"--seed", true},       {"--out", true},
                             {"--time-limit", true},     {"--ior-op", true},     {"--ior-block", true},
                             {"--ior-file-per-process", false}, {"--check", false}, {"--quiet", false},
                             {"--verbose", false},       {"--no-samples", false}};

struct IoArgs {
  std::string trace;
  std::map<std::string, std::string> opts;
  std::vector<std::string> flags, sets, simgrid;
  bool has(const std::string& f) const { return std::find(flags.begin(), flags.end(), f) != flags.end(); }
  std::string opt(const std::string& k) const { return opts.count(k) ? opts.at(k) : ""; }
};

IoArgs parse_io(int argc, char** argv)
{
  IoArgs a;
  for (int i = 2; i < argc; ++i) {
    std::string s = argv[i];
    if (s.rfind("--log=", 0) == 0 || s.rfind("--cfg=", 0) == 0) {
      check_simgrid_arg(s);
      a.simgrid.push_back(s);
      continue;
    }
    if (s.size() < 2 || s[0] != '-') {
      if (!a.trace.empty())
        throw std::invalid_argument("replay needs one trace file, got \"" + a.trace + "\" and \"" + s + "\"");
      a.trace = s;
      continue;
    }
    std::string value;
    const auto eq = s.find('=');
    const bool inline_value = s.rfind("--", 0) == 0 && eq != std::string::npos;
    if (inline_value) {
      value = s.substr(eq + 1);
      s = s.substr(0, eq);
    }
    const IoOpt* spec = nullptr;
    for (const auto& o : kIoOpts)
      if (s == o.name)
        spec = &o;
    if (!spec) {
      // replay --help lists the metadata replays' options too: say which ones this trace takes.
      std::string names;
      for (const auto& o : kIoOpts)
        names += (names.empty() ? "" : ", ") + std::string(o.name);
      throw std::invalid_argument("option " + s + " is not one of a DXT / IOR per-op replay's (" + names +
                                  "; the others in pfsim replay --help are for metadata traces)");
    }
    if (!spec->value) {
      if (inline_value)
        throw std::invalid_argument("option " + s + " takes no value");
      a.flags.push_back(s);
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= argc || argv[i + 1][0] == '\0')
        throw std::invalid_argument("option " + s + " needs a value");
      value = argv[++i];
    }
    if (value.empty())
      throw std::invalid_argument("option " + s + " needs a non-empty value");
    if (s == "--set") {
      a.sets.push_back(value);
    } else {
      if (a.opts.count(s) && a.opts[s] != value)
        throw std::invalid_argument("option " + s + " given twice (" + a.opts[s] + " and " + value + "); give it once");
      a.opts[s] = value;
    }
  }
  if (a.trace.empty())
    throw std::invalid_argument("replay needs one trace file");
  return a;
}

}  // namespace

bool is_io_trace_replay(int argc, char** argv)
{
  for (int i = 2; i < argc; ++i) {
    const std::string s = argv[i];
    if (s.rfind("--ior-", 0) == 0)
      return true;
    if (!s.empty() && s[0] != '-' && !iotrace::detect_format(s).empty())
      return true;
  }
  return false;
}

int cmd_replay_io(int argc, char** argv)
{
  const IoArgs a = parse_io(argc, argv);
  const std::string format = iotrace::detect_format(a.trace);
  if (format.empty())
    throw config::ConfigError(a.trace + ": not a Darshan DXT dump (darshan-dxt-parser output, *.dxt.txt) nor an IOR "
                              "per-op file (<prefix>-<rep>-<rank %05d>.csv); the --ior-* options are for the latter");
  const bool ior = format == "ior-perop";
  if (!ior)
    for (const char* o : {"--ior-op", "--ior-block", "--ior-file-per-process"})
      if (a.opts.count(o) || a.has(o))
        throw std::invalid_argument(std::string(o) + ": an option of IOR per-op files; " + a.trace +
                                    " is a Darshan DXT dump (it records each operation's direction, offset and size)");
  iotrace::IorPerOpOptions io;
  if (a.opts.count("--ior-op")) {
    const std::string v = a.opt("--ior-op");
    if (v != "write" && v != "read")
      throw std::invalid_argument("option --ior-op: expected write or read, got \"" + v + "\"");
    io.write = v == "write";
  }
  io.file_per_proc = a.has("--ior-file-per-process");
  if (a.opts.count("--ior-block"))
    io.block_B = static_cast<uint64_t>(parse_tool_size_option("--ior-block", a.opt("--ior-block"), 8,
                                                              1000000000000000LL, "IOR"));
  if (a.opts.count("--ranks") && a.opt("--ranks").find(',') != std::string::npos)
    throw std::invalid_argument("option --ranks: a data-path trace (DXT, IOR per-op) replays at one rank count; a list of counts "
                     "(a sweep) is for md-real-io, md-workbench and mdtest traces");
  const int ranks = a.opts.count("--ranks") ? static_cast<int>(parse_int_option("--ranks", a.opt("--ranks"), 1, kMaxRanks)) : 0;
  RunOptions o;
  o.ranks_per_node = a.opts.count("--ranks-per-node")
                         ? static_cast<int>(parse_int_option("--ranks-per-node", a.opt("--ranks-per-node"), 1, kMaxRanksPerNode))
                         : 0;
  o.seed = a.opts.count("--seed") ? static_cast<uint64_t>(parse_int_option("--seed", a.opt("--seed"), 0, 1000000000)) : 1;
  o.time_limit_s = time_limit_s(a.opt("--time-limit"));
  // No per-operation samples: the comparison needs per-kind counts, windows and latencies (4 B per operation), or
  // with --no-samples latency histograms of constant size.
  o.latency_histograms = a.has("--no-samples");
  if (!a.has("--verbose"))
    o.simgrid_args.push_back("--log=root.thres:warning");
  o.simgrid_args.insert(o.simgrid_args.end(), a.simgrid.begin(), a.simgrid.end());
  const bool check_only = a.has("--check");
  check_output_file("--out", a.opt("--out"));
  std::optional<config::PlatformConfig> platform;
  if (!check_only || a.opts.count("--platform")) {
    if (a.opt("--platform").empty())
      throw std::invalid_argument("missing --platform FILE");
    platform = load_platform(a.opt("--platform"), a.sets);
  }
  // An IOR per-op file's directory is read for its siblings (every rank's and repetition's file, *.csv by IOR's naming):
  // a results file there is refused only when it could be taken for one (a .csv name), as IOR writes its per-op files
  // into the working directory, where users replay them from. A DXT dump is read alone.
  const std::string trace_dir =
      !ior ? "" : std::filesystem::path(a.trace).has_parent_path() ? std::filesystem::path(a.trace).parent_path().string() : ".";
  const bool out_as_trace_file = ior && std::filesystem::path(a.opt("--out")).extension() == ".csv";
  check_outputs_spare_inputs({{"--out", a.opt("--out"), false, "", ""}},
                             {{"the platform file", a.opt("--platform")},
                              {"the trace directory", trace_dir, out_as_trace_file},
                              {"a file of the trace", a.trace}});
  const auto wall0 = std::chrono::steady_clock::now();
  // At fewer ranks than recorded, the steps of the ranks not replayed are not kept
  auto tr = std::make_shared<const iotrace::IoTrace>(ior ? iotrace::load_ior_perop(a.trace, io, ranks)
                                                         : iotrace::load_dxt(a.trace, ranks));
  std::vector<RunInput> inputs{{"the platform file", a.opt("--platform")},
                               {"the trace directory", trace_dir, out_as_trace_file}};
  for (const auto& f : tr->inputs)
    inputs.push_back({"a file of the trace", f});
  check_outputs_spare_inputs({{"--out", a.opt("--out"), false, "", ""}}, inputs);
  const double import_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  IoReplayWorkload w(tr, ranks);
  std::string note;
  if (!a.has("--quiet")) {
    char line[200];
    auto s_if = [](size_t n) { return n == 1 ? "" : "s"; };
    std::snprintf(line, sizeof line, ": %d recorded rank%s, %zu phase%s, %llu reads and writes, %zu file%s in %.2f s\n",
                  tr->ranks, s_if(static_cast<size_t>(tr->ranks)), tr->phases.size(), s_if(tr->phases.size()),
                  static_cast<unsigned long long>(tr->op_count()), tr->files.size(), s_if(tr->files.size()), import_s);
    note = "pfsim: imported " + tr->format + " trace " + tr->path + line;
  }
  for (const auto& x : tr->notes)
    if (!a.has("--quiet"))
      note += "pfsim: note: " + x + "\n";
  for (const auto& x : tr->warnings)
    note += "pfsim: warning: " + x + "\n";
  if (platform) {
    const auto kinds = w.kinds_used();
    if (auto x = bulk_load_law_warning(*platform, kinds[Op::Read], kinds[Op::Write]); !x.empty())
      note += "pfsim: warning: " + x + "\n";
  }
  // With a write-back cache a simulated write() returns once its pages are cached: the write rates then compare the
  // calls (as the recorded ones are), not the rate at which the data reaches the servers.
  std::string cache_warning;
  if (platform && platform->clients.max_dirty_B > 0 && w.has_writes()) {
    char line[320];
    std::snprintf(line, sizeof line,
                  "simulated write() calls return once their pages are in the write-back cache "
                  "(clients.max_dirty_mb %g, page_cache_copy %s): the write rates compare the calls, as recorded, "
                  "not the rate at which data reaches the OSTs (--set clients.max_dirty_mb=0 for that)",
                  platform->clients.max_dirty_B / 1048576.0,
                  platform->clients.page_cache_copy_Bps > 0
                      ? (std::to_string(platform->clients.page_cache_copy_Bps / 1e9) + " GB/s").c_str()
                      : "instantaneous");
    cache_warning = line;
    note += "pfsim: warning: " + cache_warning + "\n";
  }
  if (platform)
    check_before_run(*platform, w, o);
  std::fputs(note.c_str(), stderr);
  if (check_only) {
    if (platform)
      std::fputs(run_warnings(*platform, w, o).c_str(), stderr);
    if (!a.opt("--out").empty())
      std::fprintf(stderr, "pfsim: --check: --out %s checked, not written\n", a.opt("--out").c_str());
    return 0;
  }
  RunInfo info;
  RunRecords records = run_simulation(*platform, w, o, &info);
  std::fprintf(stderr, "pfsim: %d ranks on %d node(s), %.3f s simulated, %.2f s wall\n", info.ranks, info.nodes,
               records.end_s, info.wall_s);
  const auto cmp = io_compare(w, records);
  if (!a.opt("--out").empty()) {
    nlohmann::json header = {
        {"pfsim_version", kVersion},
        {"pfsim_command", "replay"},
        {"seed", o.seed},
        {"inputs",
         {{"trace", a.trace},
          {"platform_file", a.opt("--platform")},
          {"set", a.sets},
          {"simgrid_args", a.simgrid},
          {"options", recorded_options(a.opts, a.flags)}}},
        {"platform", config::effective_json(*platform, info.ranks_per_node)},
        {"workload", w.describe()},
        {"run", {{"ranks", info.ranks}, {"nodes", info.nodes}, {"ranks_per_node", info.ranks_per_node}}},
    };
    auto results = results_json(records, header);
    results["io_replay"] = io_compare_json(cmp, tr->ranks, w.ranks());
    if (!cache_warning.empty())
      results["io_replay"]["warnings"] = nlohmann::json::array({cache_warning});
    OutputBatch batch;
    write_file_atomic(a.opt("--out"), results.dump(2) + "\n");
    batch.commit();
  }
  if (!a.has("--quiet")) {
    std::cerr << "pfsim replay of " << tr->format << " " << tr->path << ": " << w.ranks() << " ranks (recorded "
              << tr->ranks << "), platform " << platform->name << "\n";
    std::cout << io_compare_text(cmp, w.ranks() == tr->ranks);
    std::cout.flush();
    std::cerr << io_no_rate_notes(cmp);
  }
  return 0;
}

}  // namespace pfsim::app
