#include "workload/synthetic.hpp"

#include "model/hash.hpp"

#include <algorithm>
#include <cmath>
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
  if (p_.phases.at(phase).tree)
    return p_.unique_dir || rank == 0 ? 1 : 0;
  return items_of_rank(rank);
}

uint64_t SyntheticWorkload::phase_items(int phase) const
{
  if (p_.phases.at(phase).tree)
    return 1;  // mdtest's num_dirs_in_tree
  return p_.total_items > 0 ? p_.total_items : p_.items_per_rank * static_cast<uint64_t>(p_.ranks);
}

bool SyntheticWorkload::next(int rank, int phase, RankCursor& c, OpRequest& out) const
{
  const auto& ph = p_.phases[phase];
  if (c.item >= items_of_rank(rank, phase))
    return false;
  out.op = ph.item_ops[c.step];
  out.bytes = ph.item_bytes[c.step];
  // mdtest -N: whose items the rank works on in this phase.
  const int owner = ph.rank_shift == 0 ? rank : static_cast<int>((rank + ph.rank_shift) % p_.ranks);
  // mdtest's file.mdtest.<rank>.<i>: the same object in the create (write) and read phases.
  out.object = (static_cast<uint64_t>(owner) << 32) | (c.item & 0xffffffffULL);
  out.begins = c.step == 0;
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

SyntheticParams mdtest_params(const MdtestOptions& o)
{
  SyntheticParams p;
  p.generator = "mdtest";
  p.ranks = o.ranks;
  p.items_per_rank = o.items_per_rank;
  p.unique_dir = o.unique_dir;
  if (!o.run_create && !o.run_stat && !o.run_read && !o.run_remove)
    throw std::invalid_argument("mdtest: no phase chosen (-C -T -E -r)");
  // mdtest -N: the k-th shifted phase works on rank r + k N's items (mod the ranks)
  auto shift = [&o](int64_t k) { return k * (o.stride % o.ranks); };
  for (int it = 0; it < o.iterations; ++it) {
    if (o.run_create) {
      SyntheticPhase tree_create{"Tree creation", {Op::Mkdir}, {0}, true, it};
      tree_create.tree = true;
      p.phases.push_back(tree_create);
    }
    if (!o.files_only) {
      if (o.run_create)
        p.phases.push_back({"Directory creation", {Op::Mkdir}, {0}, true, it});
      if (o.run_stat) {
        p.phases.push_back({"Directory stat", {Op::Stat}, {0}, true, it});
        p.phases.back().rank_shift = shift(1);
      }
      if (o.run_remove) {
        p.phases.push_back({"Directory removal", {Op::Rmdir}, {0}, true, it});
        p.phases.back().rank_shift = shift(3);
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
        p.phases.push_back(create);
        creation = static_cast<int>(p.phases.size()) - 1;
      }
      if (o.run_stat) {
        p.phases.push_back({"File stat", {Op::Stat}, {0}, false, it});
        p.phases.back().rank_shift = shift(1);
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
        p.phases.back().rank_shift = shift(2);
      if (o.run_remove) {
        p.phases.push_back({"File removal", {Op::Unlink}, {0}, false, it});
        p.phases.back().rank_shift = shift(3);
      }
    }
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
  if (!(o.run_create && o.run_stat && o.run_read && o.run_remove))
    for (const auto& [key, on] : {std::pair{"C", o.run_create}, {"T", o.run_stat}, {"E", o.run_read}, {"r", o.run_remove}})
      p.params[key] = on;
  return p;
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
