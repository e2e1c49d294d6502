#include "workload/synthetic.hpp"

#include "model/hash.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

namespace pfsim {
SyntheticWorkload::SyntheticWorkload(SyntheticParams p) : p_(std::move(p))
{
  if (p_.ranks < 1)
    throw std::invalid_argument("workload needs at least one rank");
  for (const auto& ph : p_.phases)
    if (ph.item_ops.empty() || ph.item_ops.size() != ph.item_bytes.size())
      throw std::invalid_argument("phase " + ph.name + " has no operations");
}

uint64_t SyntheticWorkload::items_of_rank(int rank) const
{
  if (p_.total_items > 0) {
    uint64_t n = static_cast<uint64_t>(p_.ranks);
    return p_.total_items / n + (static_cast<uint64_t>(rank) < p_.total_items % n ? 1 : 0);
  }
  return p_.items_per_rank;
}

uint64_t SyntheticWorkload::items_of_rank(int rank, int phase) const
{
  const auto& ph = p_.phases.at(phase);
  if (ph.tree)
    return p_.unique_dir || rank == 0 ? 1 : 0;
  return ph.items_per_rank > 0 ? ph.items_per_rank : items_of_rank(rank);
}

uint64_t SyntheticWorkload::phase_items(int phase) const
{
  const auto& ph = p_.phases.at(phase);
  if (ph.tree)
    return 1;  // mdtest's num_dirs_in_tree
  if (ph.items_per_rank > 0)
    return ph.items_per_rank * static_cast<uint64_t>(p_.ranks);
  return p_.total_items > 0 ? p_.total_items : p_.items_per_rank * static_cast<uint64_t>(p_.ranks);
}

PhaseStonewall SyntheticWorkload::stonewall(int phase) const
{
  const auto& ph = p_.phases.at(phase);
  PhaseStonewall sw;
  if (ph.stonewall_s > 0) {  // mdtest -W: its create always ends with the allreduce and the wear-out to the most
    sw.deadline_s = ph.stonewall_s;
    sw.wear_out = true;
    sw.per_item = true;
  } else if (ph.items_from >= 0) {  // the stat, read and removal after it: the items each rank's files count
    sw.limit_phase = ph.items_from;
    sw.per_item = true;
  }
  return sw;
}

bool SyntheticWorkload::next(int rank, int phase, RankCursor& c, OpRequest& out) const
{
  const auto& ph = p_.phases[phase];
  if (c.item >= items_of_rank(rank, phase))
    return false;
  if (c.stop > 0 && c.step == 0 && c.item >= c.stop)  // stonewalled (PhaseStonewall::per_item): no item past the stop
    return false;
  out.op = ph.item_ops[c.step];
  out.bytes = ph.item_bytes[c.step];
  // mdtest -N: whose items the rank works on in this phase.
  const int owner = ph.rank_shift == 0 ? rank : static_cast<int>((rank + ph.rank_shift) % p_.ranks);
  // mdtest's file.mdtest.<rank>.<i>: the same object in the create (write) and read phases.
  out.object = (static_cast<uint64_t>(owner) << 32) | (c.item & 0xffffffffULL);
  out.begins = c.step == 0;
  out.barrier = ph.first_step_barrier && c.item == 0 && c.step == 0;
  out.written_by = out.op == Op::Read && ph.written_phase >= 0 ? owner : -1;
  out.written_phase = out.written_by >= 0 ? ph.written_phase : -1;
  out.metadata = std::find(ph.item_ops.begin(), ph.item_ops.end(), Op::Read) == ph.item_ops.end();
  // Only a directory that several ranks update locks (mds.dir_lock): one rank alone is a unique directory.
  out.shared_dir = !p_.unique_dir && p_.ranks > 1;
  out.dir = p_.unique_dir ? static_cast<uint32_t>(owner) : static_cast<uint32_t>(p_.ranks);
  if (ph.tree) {  // the tree's top directory is made in the base directory that all ranks share
    out.shared_dir = p_.ranks > 1;
    // Without -u the files are made in that top directory, which is on its parent's MDS (a new directory's default
    // MDT in Lustre DNE, its parent's subtree in CephFS): the tree's mkdir and rmdir go to the files' MDS.
    out.dir = static_cast<uint32_t>(p_.ranks) + (p_.unique_dir ? 1 : 0);
  }
  // Think time before each item (the tool's operation: a create's open(O_CREAT) and close follow each other), not
  // between its steps (until 2026-11-25 every step had one: a create with think time Z cost 2 Z).
  out.think_s = c.step == 0 ? p_.think_s : 0.0;
  if (p_.think_exponential && p_.think_s > 0 && c.step == 0) {
    uint64_t h = splitmix64(splitmix64(splitmix64(p_.seed) ^ static_cast<uint64_t>(rank)) ^ (c.item * 64 + c.step) ^
                     (static_cast<uint64_t>(phase) << 48));
    double u = static_cast<double>(h >> 11) * (1.0 / 9007199254740992.0);
    out.think_s = -p_.think_s * std::log1p(-u);
  }
  if (++c.step == ph.item_ops.size()) {
    c.step = 0;
    ++c.item;
  }
  return true;
}

bool SyntheticWorkload::uses_shared_dirs() const
{
  if (p_.ranks < 2)
    return false;
  return !p_.unique_dir || std::any_of(p_.phases.begin(), p_.phases.end(), [](const auto& ph) { return ph.tree; });
}

bool SyntheticWorkload::updates_own_dirs() const
{
  if (p_.ranks > 1 && !p_.unique_dir)
    return false;
  const auto used = kinds_used();
  return std::any_of(kAllOps.begin(), kAllOps.end(), [&](Op op) { return used[op] && is_update(op); });
}

double SyntheticWorkload::data_bytes() const
{
  double b = 0;
  for (int p = 0; p < phase_count(); ++p) {
    const auto& ph = p_.phases[static_cast<size_t>(p)];
    double per_item = 0;
    for (size_t k = 0; k < ph.item_ops.size(); ++k)
      if (is_data(ph.item_ops[k]))
        per_item += ph.item_bytes[k];
    b += per_item * static_cast<double>(phase_items(p));
  }
  return b;
}

PerOp<bool> SyntheticWorkload::kinds_used() const
{
  PerOp<bool> used{};
  for (int p = 0; p < phase_count(); ++p)
    if (items_of_rank(0, p) > 0)
      for (Op op : p_.phases[static_cast<size_t>(p)].item_ops)
        used[op] = true;
  return used;
}

nlohmann::json SyntheticWorkload::describe() const
{
  nlohmann::json phases = nlohmann::json::array();
  for (const auto& ph : p_.phases) {
    nlohmann::json ops = nlohmann::json::array();
    for (Op op : ph.item_ops)
      ops.push_back(op_name(op));
    phases.push_back({{"name", ph.name}, {"item_ops", ops}, {"iteration", ph.iteration}});
  }
  // The same run as a workload file (pfsim run --workload; the ranks per node are in the results' platform).
  nlohmann::json as_file = {{"generator", p_.generator},
                            {"ranks", p_.ranks},
                            {"seed", p_.seed},
                            {"think_time", p_.think_s},
                            {"think_distribution", p_.think_exponential ? "exponential" : "constant"},
                            {p_.generator, p_.params}};
  return {{"generator", p_.generator}, {"ranks", p_.ranks},         {"parameters", p_.params},
          {"think_time_s", p_.think_s}, {"think_distribution", p_.think_exponential ? "exponential" : "constant"},
          {"unique_dir", p_.unique_dir}, {"phases", phases}, {"workload_file", as_file}};
}

SyntheticParams metabench_params(int ranks, uint64_t files, const std::string& dir_mode,
                                 const std::vector<std::string>& phases)
{
  SyntheticParams p;
  p.generator = "metabench";
  p.ranks = ranks;
  p.total_items = files;
  p.unique_dir = dir_mode == "unique";
  for (const auto& name : phases) {
    if (name == "create")
      p.phases.push_back({"create", {Op::Create, Op::Close}, {0, 0}, false, 0});
    else if (name == "stat")
      p.phases.push_back({"stat", {Op::Stat}, {0}, false, 0});
    else if (name == "unlink")
      p.phases.push_back({"unlink", {Op::Unlink}, {0}, false, 0});
    else
      throw std::invalid_argument("unknown metabench phase \"" + name + "\" (expected create, stat or unlink)");
  }
  p.params = {{"files", files}, {"dir_mode", dir_mode}, {"phases", phases}};
  return p;
}

std::optional<std::pair<std::string, std::string>> mdtest_option_problem(const MdtestOptions& o)
{
  const bool creates = o.run_create;
  if (o.stonewall_s < 0)
    return std::pair<std::string, std::string>{"W", "expected whole seconds, 0 or more (0: no stonewall)"};
  if (o.stonewall_s > 0 && creates && !o.files_only)
    return std::pair<std::string, std::string>{
        "W", "the stonewall with directories (no -F): mdtest 4.1 stops its Directory creation at the stonewall too, "
             "without the ranks agreeing on a count, and still counts -n directories in its rate and in the later "
             "phases; pfsim models the stonewall of the File creation phase (its allreduce and wear-out) alone: give "
             "-F, as IO500 does"};
  if (o.stonewall_s > 0 && creates && o.iterations > 1)
    return std::pair<std::string, std::string>{
        "W", "the stonewall with -i " + std::to_string(o.iterations) + ": mdtest 4.1 keeps a stonewalled iteration's "
             "count (o.items) for the next ones, whose creates start again from -n and compare against it, so their "
             "rates mix two counts; pfsim runs -W with one iteration"};
  if (o.file_items > 0 && creates)
    return std::pair<std::string, std::string>{
        "file_items", "a run that creates its files counts them itself (the status file is read only by a run "
                      "without the create phase)"};
  if (o.file_items > o.items_per_rank)
    return std::pair<std::string, std::string>{
        "file_items", std::to_string(o.file_items) + " items per rank, more than -n " +
                          std::to_string(o.items_per_rank) + ": a create of -n items per rank leaves at most -n"};
  return std::nullopt;
}

std::string mdtest_status_text(uint64_t items)
{
  return std::to_string(items);  // mdtest's fprintf(out, "%lld", count)
}

uint64_t read_mdtest_status_file(const std::string& path, uint64_t max_items)
{
  const std::string at = "-x " + path + ": ";
  std::error_code ec;
  std::string why;
  std::ifstream in;
  if (!std::filesystem::exists(path, ec))
    why = "no such file";
  else if (!std::filesystem::is_regular_file(path, ec))
    why = "not a regular file";
  else if (in.open(path, std::ios::binary); !in)
    why = std::strerror(errno);
  if (!why.empty())
    throw std::invalid_argument(
        at + "cannot read the stonewall status file (" + why + "): a run with -T, -E or -r and -x works on the " +
        "items per rank that a stonewalled create (-C -W S -x FILE) wrote there; mdtest warns \"Could not read " +
        "stonewall status file\" and goes on with -n items, which pfsim does not: run the create first, or drop -x");
  std::string text;
  char buf[256];
  while (text.size() <= 64 && in.read(buf, sizeof buf).gcount() > 0)  // (a status file is a few bytes)
    text.append(buf, static_cast<size_t>(in.gcount()));
  const auto first = text.find_first_not_of(" \t\r\n");
  const auto last = text.find_last_not_of(" \t\r\n");
  const std::string word = first == std::string::npos ? "" : text.substr(first, last - first + 1);
  std::string shown = word.substr(0, 40);
  for (auto& ch : shown)
    if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) >= 0x7f)
      ch = '?';
  if (word.empty() || word.size() > 19 || word.find_first_not_of("0123456789") != std::string::npos)
    throw std::invalid_argument(at + "expected the stonewall status file's one whole number (the items per rank a "
                                "stonewalled create made, as mdtest -x writes it), got " +
                                (word.empty() ? std::string("an empty file") : "\"" + shown +
                                 (word.size() > 40 ? "...\"" : "\"")));
  const uint64_t items = std::stoull(word);
  if (items == 0)
    throw std::invalid_argument(at + "holds 0 items per rank: a stonewalled create makes at least one item per rank "
                                "before it checks the stonewall, so no create wrote this");
  if (items > max_items)
    throw std::invalid_argument(at + "holds " + word + " items per rank, more than -n " + std::to_string(max_items) +
                                ": a create of -n items per rank leaves at most -n there, so the file is another "
                                "run's (give that run's -n)");
  return items;
}

SyntheticParams mdtest_params(const MdtestOptions& o)
{
  if (auto problem = mdtest_option_problem(o))
    throw std::invalid_argument("mdtest " + problem->first + ": " + problem->second);
  SyntheticParams p;
  p.generator = "mdtest";
  p.ranks = o.ranks;
  p.items_per_rank = o.items_per_rank;
  p.unique_dir = o.unique_dir;
  if (!o.run_create && !o.run_stat && !o.run_read && !o.run_remove)
    throw std::invalid_argument("mdtest: no phase chosen (-C -T -E -r)");
  for (int it = 0; it < o.iterations; ++it) {
    if (o.run_create) {
      SyntheticPhase tree_create{"Tree creation", {Op::Mkdir}, {0}, true, it};
      tree_create.tree = true;
      p.phases.push_back(tree_create);
    }
    const size_t first_timed = p.phases.size();  // (the tree phases have no phase_end: no sync)
    if (!o.files_only) {
      if (o.run_create) {
        p.phases.push_back({"Directory creation", {Op::Mkdir}, {0}, true, it});
        p.phases.back().first_step_barrier = o.time_unique_dir && o.unique_dir;
      }
      if (o.run_stat) {
        p.phases.push_back({"Directory stat", {Op::Stat}, {0}, true, it});
        p.phases.back().shift_steps = 1;
      }
      if (o.run_remove) {
        p.phases.push_back({"Directory removal", {Op::Rmdir}, {0}, true, it});
        p.phases.back().shift_steps = 3;
      }
    }
    if (!o.dirs_only) {
      int creation = -1;  // this iteration's File creation phase
      if (o.run_create) {
        SyntheticPhase create{"File creation", {Op::Create}, {0}, false, it};
        if (o.write_bytes > 0) {
          create.item_ops.push_back(Op::Write);
          create.item_bytes.push_back(o.write_bytes);
        }
        create.item_ops.push_back(Op::Close);
        create.item_bytes.push_back(0);
        create.stonewall_s = o.stonewall_s;
        create.first_step_barrier = o.time_unique_dir && o.unique_dir;
        p.phases.push_back(create);
        creation = static_cast<int>(p.phases.size()) - 1;
      }
      const size_t first_file_use = p.phases.size();
      if (o.run_stat) {
        p.phases.push_back({"File stat", {Op::Stat}, {0}, false, it});
        p.phases.back().shift_steps = 1;
      }
      // mdtest always runs its read phase; with -e 0 it only opens and closes ("a read test will actually just
      // open/close", md_validate_tests in IOR 4.x mdtest.c).
      if (o.run_read && o.read_bytes > 0) {
        p.phases.push_back({"File read", {Op::Open, Op::Read, Op::Close}, {0, o.read_bytes, 0}, false, it});
        p.phases.back().written_phase = o.write_bytes > 0 ? creation : -1;
      }
      else if (o.run_read)
        p.phases.push_back({"File read", {Op::Open, Op::Close}, {0, 0}, false, it});
      if (o.run_read)
        p.phases.back().shift_steps = 2;
      if (o.run_remove) {
        p.phases.push_back({"File removal", {Op::Unlink}, {0}, false, it});
        p.phases.back().shift_steps = 3;
      }
      // After a stonewalled create the stat, read and removal work on the items made (mdtest's o.items = the most any
      // rank made); without a create, on the status file's count (-x), else on -n.
      for (size_t k = first_file_use; k < p.phases.size(); ++k) {
        if (creation >= 0 && o.stonewall_s > 0)
          p.phases[k].items_from = creation;
        if (creation < 0)
          p.phases[k].items_per_rank = o.file_items;
      }
    }
    for (size_t k = first_timed; k < p.phases.size(); ++k)
      p.phases[k].sync_at_end = o.sync_each_phase;
    if (o.run_remove) {
      SyntheticPhase tree_remove{"Tree removal", {Op::Rmdir}, {0}, true, it};
      tree_remove.tree = true;
      p.phases.push_back(tree_remove);
    }
  }
  if (p.phases.empty())  // -D -E: directories have no read phase
    throw std::invalid_argument("mdtest: no phase to run (-E chooses the File read phase, and -D runs directories "
                                "only)");
  p.params = {{"n", o.items_per_rank}, {"u", o.unique_dir}, {"F", o.files_only}, {"D", o.dirs_only},
              {"w", o.write_bytes},    {"e", o.read_bytes}, {"i", o.iterations}};
  if (o.stride != 0)
    p.params["N"] = o.stride;
  // (given only: the results of runs without them stay as they were)
  if (o.stonewall_s > 0)
    p.params["W"] = o.stonewall_s;
  if (o.sync_each_phase)
    p.params["Y"] = true;
  if (o.time_unique_dir)
    p.params["t"] = true;
  if (o.file_items > 0)
    p.params["file_items"] = o.file_items;
  if (!(o.run_create && o.run_stat && o.run_read && o.run_remove))
    for (const auto& [key, on] : {std::pair{"C", o.run_create}, {"T", o.run_stat}, {"E", o.run_read}, {"r", o.run_remove}})
      p.params[key] = on;
  set_mdtest_stride(p, o.stride);  // -N as typed; the run applies mdtest's rule for its placement (run_point)
  return p;
}

int64_t mdtest_effective_stride(int64_t stride, int ranks, int ranks_per_node, bool cyclic)
{
  if (stride <= 0 || ranks <= 0 || ranks_per_node <= 0)
    return stride;
  const int nodes = (ranks + ranks_per_node - 1) / ranks_per_node;
  if (nodes <= 1 || cyclic)
    return stride;
  // (block placement: node 0 holds ranks_per_node ranks; mdtest's int multiplication, here in 64 bits)
  return stride * std::min(ranks, ranks_per_node);
}

void set_mdtest_stride(SyntheticParams& p, int64_t stride)
{
  for (auto& ph : p.phases)
    ph.rank_shift = ph.shift_steps * (p.ranks > 0 ? stride % p.ranks : 0);
}

std::vector<std::string> mdtest_summary_rows(const MdtestOptions& o)
{
  std::vector<std::string> rows;
  // "Directory rename" is one of mdtest's rows; pfsim does not simulate renames, so it prints zeros there, as mdtest
  // does for a phase that did not run.
  if (!o.files_only)
    rows.insert(rows.end(), {"Directory creation", "Directory stat", "Directory rename", "Directory removal"});
  if (!o.dirs_only)
    rows.insert(rows.end(), {"File creation", "File stat", "File read", "File removal"});
  rows.insert(rows.end(), {"Tree creation", "Tree removal"});
  return rows;
}

}  // namespace pfsim
