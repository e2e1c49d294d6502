#include "workload/find.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <stdexcept>
#include <utility>

namespace pfsim {

namespace {

// Decimal numbers in [0, n) whose digits contain `pattern` (a pattern of digits; any other character never occurs).
uint64_t numbers_containing(uint64_t n, const std::string& pattern)
{
  if (pattern.find_first_not_of("0123456789") != std::string::npos)
    return 0;
  uint64_t count = 0;
  for (uint64_t i = 0; i < n; ++i)
    if (std::to_string(i).find(pattern) != std::string::npos)
      ++count;
  return count;
}

}  // namespace

uint64_t mdtest_names_matching(int ranks, uint64_t items, const std::string& pattern, int first_rank)
{
  if (pattern.empty())
    return static_cast<uint64_t>(ranks) * items;
  uint64_t total = 0;
  if (pattern.find('.') != std::string::npos) {  // may span the dots: every name, as mdtest writes it
    for (int r = first_rank; r < first_rank + ranks; ++r)
      for (uint64_t i = 0; i < items; ++i)
        if (("file.mdtest." + std::to_string(r) + "." + std::to_string(i)).find(pattern) != std::string::npos)
          ++total;
    return total;
  }
  // Without a dot the pattern lies within one part: the rank's ("file", "mdtest", the rank) or the item number.
  const uint64_t by_item = numbers_containing(items, pattern);
  for (int r = first_rank; r < first_rank + ranks; ++r) {
    const bool in_prefix = std::string("file").find(pattern) != std::string::npos ||
                           std::string("mdtest").find(pattern) != std::string::npos ||
                           std::to_string(r).find(pattern) != std::string::npos;
    total += in_prefix ? items : by_item;
  }
  return total;
}

int FindWorkload::node_of(int rank) const
{
  const int per = std::max(1, p_.ranks_per_node);
  if (!p_.cyclic)
    return rank / per;
  const int nodes = (p_.ranks + per - 1) / per;
  return rank % nodes;
}

FindWorkload::FindWorkload(FindParams p) : p_(std::move(p))
{
  if (p_.ranks < 1)
    throw std::invalid_argument("find: expected at least 1 rank");
  if (p_.entries_per_rpc < 1)
    throw std::invalid_argument("find: expected at least 1 entry per readdir RPC");
  const size_t n = p_.dirs.size();
  const auto R = static_cast<size_t>(p_.ranks);
  tasks_.assign(R, {});
  reader_.assign(n, 0);
  // Directories whole, largest first, each to the rank with the fewest entries so far (lowest rank on a tie).
  std::vector<size_t> order(n);
  for (size_t d = 0; d < n; ++d)
    order[d] = d;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return p_.dirs[a].entries > p_.dirs[b].entries; });
  using Load = std::pair<uint64_t, int>;  // (entries so far, rank)
  std::priority_queue<Load, std::vector<Load>, std::greater<Load>> least;
  for (int r = 0; r < p_.ranks; ++r)
    least.push({0, r});
  std::vector<uint64_t> entries(R, 0);
  for (size_t d : order) {
    auto [load, r] = least.top();
    least.pop();
    const auto& dir = p_.dirs[d];
    reader_[d] = r;
    // An empty directory is still one readdir (its end).
    const uint64_t rpcs = std::max<uint64_t>(1, (dir.entries + p_.entries_per_rpc - 1) / p_.entries_per_rpc);
    tasks_[r].push_back(Task{static_cast<uint32_t>(d), true, false, rpcs});
    entries[r] += dir.entries;
    total_entries_ += dir.entries;
    least.push({load + dir.entries, r});
  }
  if (!p_.stat)
    return;
  for (const auto& d : p_.dirs)
    total_stats_ += std::min(d.matching, d.entries);
  if (total_stats_ == 0)
    return;
  // Water filling: rank r's share is max(0, T - L_r) / stat_cost, with L_r its directory time and T the level at which
  // the shares add up to every stat. Without costs (a platform without readdir or stat times): even shares.
  std::vector<double> busy(R, 0.0);
  const bool costed = p_.entry_cost_s > 0 && p_.stat_cost_s > 0;
  for (size_t r = 0; r < R; ++r)
    busy[r] = costed ? entries[r] * p_.entry_cost_s / p_.stat_cost_s : 0.0;  // in stats
  std::vector<double> sorted = busy;
  std::sort(sorted.begin(), sorted.end());
  const double M = static_cast<double>(total_stats_);
  double level = 0, below = 0;  // level T (in stats): the k lowest ranks fill up to it
  for (size_t k = 1; k <= R; ++k) {
    below += sorted[k - 1];
    const double t = (M + below) / static_cast<double>(k);
    if (k == R || t <= sorted[k]) {
      level = t;
      break;
    }
  }
  // Whole stats: floors, then the remainder one each to the ranks with the largest fractions (lowest rank on a tie).
  std::vector<uint64_t> share(R, 0);
  std::vector<std::pair<double, size_t>> frac;
  uint64_t given = 0;
  for (size_t r = 0; r < R; ++r) {
    const double want = std::max(0.0, level - busy[r]);
    share[r] = static_cast<uint64_t>(std::floor(want));
    given += share[r];
    frac.push_back({want - std::floor(want), r});
  }
  std::stable_sort(frac.begin(), frac.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  for (size_t i = 0; given < total_stats_; i = (i + 1) % R) {
    share[frac[i].second]++;
    given++;
  }
  while (given > total_stats_) {  // floating-point excess: taken back from the last ranks holding some
    for (size_t r = R; r-- > 0 && given > total_stats_;)
      if (share[r] > 0) {
        share[r]--;
        given--;
      }
  }
  // When each directory's read starts on its reader (estimated): its earlier directories' entries x entry_cost.
  std::vector<double> read_start(n, 0.0);
  for (size_t r = 0; r < R; ++r) {
    double t = 0;
    for (const auto& task : tasks_[r]) {
      read_start[task.dir] = t;
      t += p_.dirs[task.dir].entries * p_.entry_cost_s;
    }
  }
  // The stats in directory order, cut into the ranks' shares in rank order: each rank's a run of a few directories.
  size_t d = 0;
  uint64_t done_in_dir = 0;  // stats of directory d handed out so far
  uint64_t left_in_dir = n ? std::min(p_.dirs[0].matching, p_.dirs[0].entries) : 0;
  for (size_t r = 0; r < R; ++r) {
    uint64_t want = share[r];
    double t = entries[r] * p_.entry_cost_s;  // the rank's estimated clock: its reads done
    while (want > 0) {
      while (left_in_dir == 0) {
        ++d;
        left_in_dir = std::min(p_.dirs[d].matching, p_.dirs[d].entries);
        done_in_dir = 0;
      }
      const uint64_t take = std::min(want, left_in_dir);
      const bool listed = node_of(static_cast<int>(r)) == node_of(reader_[d]);
      Task task{static_cast<uint32_t>(d), false, listed, take};
      // Match k of the directory's m is listed at read_start + (k + 1) / m of its read.
      const auto& dir = p_.dirs[d];
      const double m = static_cast<double>(std::min(dir.matching, dir.entries));
      const double read_s = dir.entries * p_.entry_cost_s;
      const double first = read_start[d] + (done_in_dir + 1) / m * read_s;
      const double last = read_start[d] + (done_in_dir + take) / m * read_s;
      // From its first stat on (no earlier than the first is listed), the rank keeps pace with the listing: its
      // last stat starts when the last name is listed, or as soon as it can when it is behind.
      const double start = std::max(t, first);
      const double pace = take > 1 ? std::max(0.0, last - start) / static_cast<double>(take - 1) : 0.0;
      task.first_think_s = start - t;
      task.think_s = std::max(0.0, pace - p_.stat_cost_s);
      t = start + static_cast<double>(take - 1) * std::max(pace, p_.stat_cost_s) + p_.stat_cost_s;
      tasks_[r].push_back(task);
      want -= take;
      left_in_dir -= take;
      done_in_dir += take;
    }
  }
}

uint64_t FindWorkload::stats_of_rank(int rank) const
{
  uint64_t s = 0;
  for (const auto& t : tasks_.at(static_cast<size_t>(rank)))
    if (!t.readdir)
      s += t.count;
  return s;
}

uint64_t FindWorkload::entries_of_rank(int rank) const
{
  uint64_t e = 0;
  for (const auto& t : tasks_.at(static_cast<size_t>(rank)))
    if (t.readdir)
      e += p_.dirs[t.dir].entries;
  return e;
}

bool FindWorkload::next(int rank, int /*phase*/, RankCursor& cursor, OpRequest& out) const
{
  const auto& list = tasks_.at(static_cast<size_t>(rank));
  while (cursor.item < list.size() && cursor.step >= list[cursor.item].count) {
    cursor.item++;
    cursor.step = 0;
  }
  if (cursor.item >= list.size())
    return false;
  const Task& t = list[cursor.item];
  out = OpRequest{};
  out.dir = t.dir;
  if (t.readdir) {
    out.op = Op::Readdir;
    const uint64_t k = static_cast<uint64_t>(p_.entries_per_rpc);
    const uint64_t e = p_.dirs[t.dir].entries;
    out.entries = static_cast<uint32_t>(cursor.step + 1 < t.count ? k : e - std::min(e, k * cursor.step));
  } else {
    out.op = Op::Stat;
    out.listed = t.listed;
    out.think_s = cursor.step == 0 ? t.first_think_s : t.think_s;
  }
  cursor.step++;
  return true;
}

PerOp<bool> FindWorkload::kinds_used() const
{
  PerOp<bool> used{};
  used[Op::Readdir] = true;
  used[Op::Stat] = total_stats_ > 0;
  return used;
}

nlohmann::json FindWorkload::describe() const
{
  nlohmann::json j = p_.params;
  j["generator"] = "find";
  j["ranks"] = p_.ranks;
  j["directories"] = p_.dirs.size();
  j["entries"] = total_entries_;
  j["stats"] = total_stats_;
  j["entries_per_readdir"] = p_.entries_per_rpc;
  j["stat"] = p_.stat;
  return j;
}

}  // namespace pfsim
