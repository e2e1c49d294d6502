#include "workload/workload_file.hpp"

#include "config/reader.hpp"

#include <algorithm>
#include <cmath>

namespace pfsim {

using config::ConfigError;
using config::Reader;

WorkloadSpec parse_workload(const nlohmann::json& j, const std::string& file)
{
  Reader top(j, file, "");
  WorkloadSpec spec;
  if (!top.has("generator"))
    top.fail("generator", "missing; expected \"metabench\" or \"mdtest\" (a workload file names its generator)");
  std::string gen = top.choice("generator", "", {"metabench", "mdtest"});
  // "ranks" may be left to the command line (run --ranks, sweep --ranks); a run without either is refused there.
  spec.ranks_given = top.has("ranks");
  int ranks = static_cast<int>(top.integer("ranks", 1, 1, 10000000));
  // Absent: the platform's clients.ranks_per_node (0 here); given: at least 1, as on the command line.
  spec.ranks_per_node = static_cast<int>(top.integer("ranks_per_node", 0, 1, 4096));
  spec.seed = static_cast<uint64_t>(top.integer("seed", 1, 0, INT64_MAX));
  double think = top.duration_s("think_time", 0);
  bool think_exp = top.choice("think_distribution", "constant", {"constant", "exponential"}) == "exponential";
  if (gen == "metabench") {
    Reader m = top.object("metabench");
    long long files = m.integer("files", 1, INT64_MAX);
    std::string mode = m.choice("dir_mode", "unique", {"unique", "shared"});
    auto phases = m.string_list("phases", {"create", "stat", "unlink"});
    if (phases.empty())
      m.fail("phases", "expected at least one of create, stat, unlink");
    for (size_t k = 0; k < phases.size(); ++k) {
      const auto& ph = phases[k];
      if (ph != "create" && ph != "stat" && ph != "unlink")
        m.fail("phases", "unknown phase \"" + ph + "\"; expected create, stat or unlink");
      if (std::find(phases.begin(), phases.begin() + static_cast<long>(k), ph) != phases.begin() + static_cast<long>(k))
        m.fail("phases", "phase \"" + ph + "\" given twice; metabench runs each of create, stat, unlink once");
    }
    m.finish();
    if (top.has("mdtest"))
      top.fail("mdtest", "not allowed with generator \"metabench\"");
    spec.params = metabench_params(ranks, static_cast<uint64_t>(files), mode, phases);
  } else {
    Reader m = top.object("mdtest");
    MdtestOptions o;
    o.ranks = ranks;
    o.items_per_rank = static_cast<uint64_t>(m.integer("n", 1, INT64_MAX));
    o.unique_dir = m.boolean("u", false);
    // "F" and "D" both true: both kinds, as mdtest -F -D
    const bool F = m.boolean("F", false), D = m.boolean("D", false);
    o.files_only = F && !D;
    o.dirs_only = D && !F;
    o.write_bytes = m.size_B("w", 0);
    o.read_bytes = m.size_B("e", 0);
    if (o.write_bytes > kMaxFileBytes)
      m.fail("w", "expected at most 1 PB per file");
    if (o.write_bytes != std::floor(o.write_bytes))
      m.fail("w", "expected a whole number of bytes (mdtest -w takes an integer)");
    if (o.read_bytes != std::floor(o.read_bytes))
      m.fail("e", "expected a whole number of bytes (mdtest -e takes an integer)");
    if (o.read_bytes > kMaxFileBytes)
      m.fail("e", "expected at most 1 PB per file");
    o.iterations = static_cast<int>(m.integer("i", 1, 1, 10000));  // as pfsim mdtest -i (kMaxIterations)
    // The phases mdtest -C -T -E -r choose (pfsim mdtest records them only when not all run): absent, a phase runs.
    o.run_create = m.boolean("C", true);
    o.run_stat = m.boolean("T", true);
    o.run_read = m.boolean("E", true);
    o.run_remove = m.boolean("r", true);
    if (!o.run_create && !o.run_stat && !o.run_read && !o.run_remove)
      m.fail("C", "no phase runs: expected at least one of \"C\", \"T\", \"E\", \"r\" true (mdtest -C -T -E -r)");
    if (o.dirs_only && !o.run_create && !o.run_stat && !o.run_remove)
      m.fail("E", "with \"D\" (directories only) the read phase alone runs nothing (mdtest -D -E)");
    if (!o.dirs_only && o.run_create && o.run_read && o.read_bytes > o.write_bytes)
      m.fail("e", "expected at most \"w\" (the bytes written per file; mdtest: read bytes must be smaller than "
                  "write bytes, when one run creates and reads)");
    o.stride = m.integer("N", 0, 0, INT32_MAX);  // mdtest -N: the rank shift of the stat, read and removal phases
    // mdtest -W (whole seconds, as mdtest's int), -Y, -t, and the File phases' items that -x's status file gave
    o.stonewall_s = static_cast<int>(m.integer("W", 0, 0, 1000000000));
    o.sync_each_phase = m.boolean("Y", false);
    o.time_unique_dir = m.boolean("t", false);
    o.file_items = static_cast<uint64_t>(m.integer("file_items", 0, 1, INT64_MAX));
    if (auto problem = mdtest_option_problem(o))
      m.fail(problem->first, problem->second);
    m.finish();
    if (top.has("metabench"))
      top.fail("metabench", "not allowed with generator \"mdtest\"");
    spec.params = mdtest_params(o);
  }
  spec.params.think_s = think;
  spec.params.think_exponential = think_exp;
  spec.params.seed = spec.seed;
  top.finish();
  return spec;
}

WorkloadSpec load_workload(const std::string& file)
{
  return parse_workload(config::load_json_file(file), file);
}

WorkloadSpec with_ranks(const WorkloadSpec& spec, int ranks)
{
  WorkloadSpec s = spec;
  s.params.ranks = ranks;
  return s;
}

}  // namespace pfsim
