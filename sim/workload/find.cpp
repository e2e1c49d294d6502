#include "workload/find.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <queue>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace pfsim {

namespace {

// RankCursor::step counts a task's RPCs or stats in 32 bits: a task holds at most this many.
constexpr uint64_t kMaxTaskSteps = 1ULL << 31;

// Decimal numbers in [0, n) whose digits contain `pattern` (a pattern of digits; any other character never occurs),
// counted digit by digit (the numbers that avoid it, through the pattern's KMP automaton), not number by number: IO500
// sizes (10^6 files per task, 10^4 tasks) would take seconds otherwise.
uint64_t numbers_containing_impl(uint64_t n, const std::string& pattern)
{
  if (n == 0 || pattern.empty() || pattern.find_first_not_of("0123456789") != std::string::npos)
    return pattern.empty() ? n : 0;
  const size_t m = pattern.size();
  // next[s][c]: the automaton's state after digit c in state s (s = pattern characters matched; m = found).
  std::vector<size_t> fail(m, 0);
  for (size_t i = 1, k = 0; i < m; ++i) {
    while (k > 0 && pattern[i] != pattern[k])
      k = fail[k - 1];
    if (pattern[i] == pattern[k])
      ++k;
    fail[i] = k;
  }
  std::vector<std::array<size_t, 10>> next(m);
  for (size_t st = 0; st < m; ++st)
    for (int c = 0; c < 10; ++c) {
      size_t k = st;
      while (k > 0 && pattern[k] != '0' + c)
        k = fail[k - 1];
      next[st][c] = pattern[k] == '0' + c ? k + 1 : 0;
    }
  const std::string digits = std::to_string(n - 1);  // count in [0, n - 1]
  const size_t len = digits.size();
  // avoid[l][st]: digit strings of length l that, read from state st, never complete the pattern.
  std::vector<std::vector<uint64_t>> avoid(len, std::vector<uint64_t>(m, 0));
  for (size_t st = 0; st < m; ++st)
    avoid[0][st] = 1;
  for (size_t l = 1; l < len; ++l)
    for (size_t st = 0; st < m; ++st)
      for (int c = 0; c < 10; ++c)
        if (next[st][c] < m)
          avoid[l][st] += avoid[l - 1][next[st][c]];
  uint64_t clean = 0;  // numbers in [0, n - 1] without the pattern
  for (size_t l = 1; l < len; ++l)  // shorter numbers: a first digit 1-9 (0 itself when l = 1)
    for (int c = l == 1 ? 0 : 1; c < 10; ++c)
      if (next[0][c] < m)
        clean += avoid[l - 1][next[0][c]];
  size_t st = 0;
  bool found = false;
  for (size_t i = 0; i < len && !found; ++i) {  // as long as n - 1, below it digit by digit
    const int top = digits[i] - '0';
    for (int c = (i == 0 && len > 1) ? 1 : 0; c < top; ++c)
      if (next[st][c] < m)
        clean += avoid[len - 1 - i][next[st][c]];
    st = next[st][top];
    found = st == m;
  }
  if (!found)
    ++clean;  // n - 1 itself
  return n - clean;
}

}  // namespace

uint64_t decimal_numbers_containing(uint64_t n, const std::string& pattern)
{
  return numbers_containing_impl(n, pattern);
}

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
  const uint64_t by_item = decimal_numbers_containing(items, pattern);
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
  return node_of_rank(rank, (p_.ranks + per - 1) / per, per, p_.cyclic);
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
  // Directories whole, largest first, each to the rank with the fewest entries so far; on a tie, the nodes in turn
  // (a rank's first on each node, then its second...: pfind's stealing spreads the readers over the job, it does not
  // fill one node with them first, which would leave that node no idle rank to stat what it lists).
  std::vector<size_t> order(n);
  for (size_t d = 0; d < n; ++d)
    order[d] = d;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return p_.dirs[a].entries > p_.dirs[b].entries; });
  const int per = std::max(1, p_.ranks_per_node);
  const int nodes = (p_.ranks + per - 1) / per;
  auto turn = [&](int r) {  // the rank's place in the nodes-in-turn order
    const int local = p_.cyclic ? r / nodes : r % per;
    return static_cast<uint64_t>(local) * static_cast<uint64_t>(nodes) + static_cast<uint64_t>(node_of(r));
  };
  using Load = std::tuple<uint64_t, uint64_t, int>;  // (entries so far, turn, rank)
  std::priority_queue<Load, std::vector<Load>, std::greater<Load>> least;
  for (int r = 0; r < p_.ranks; ++r)
    least.push({0, turn(r), r});
  std::vector<uint64_t> entries(R, 0);
  for (size_t d : order) {
    auto [load, tie, r] = least.top();
    least.pop();
    const auto& dir = p_.dirs[d];
    reader_[d] = r;
    // An empty directory is still one readdir (its end).
    const uint64_t k = static_cast<uint64_t>(p_.entries_per_rpc);
    const uint64_t rpcs = std::max<uint64_t>(1, dir.entries / k + (dir.entries % k != 0 ? 1 : 0));
    // In tasks of at most 2^31 RPCs (RankCursor::step is 32 bits), each listing its own entries (Task::first).
    for (uint64_t done = 0; done < rpcs; done += kMaxTaskSteps) {
      const uint64_t n_rpcs = std::min(kMaxTaskSteps, rpcs - done);
      const uint64_t covered = std::min(dir.entries - std::min(dir.entries, done * k), n_rpcs * k);
      tasks_[r].push_back(Task{static_cast<uint32_t>(d), true, false, n_rpcs, covered});
    }
    total_rpcs_ += rpcs;
    entries[r] += dir.entries;
    total_entries_ += dir.entries;
    least.push({load + dir.entries, tie, r});
  }
  if (!p_.stat)
    return;
  for (const auto& d : p_.dirs)
    total_stats_ += std::min(d.matching, d.entries);
  if (total_stats_ == 0)
    return;
  // When each directory's read starts on its reader (estimated): its earlier directories' entries x entry_cost.
  std::vector<double> read_start(n, 0.0);
  std::vector<double> finish(R, 0.0);  // each rank's estimated clock: its reads done
  std::vector<bool> started(n, false);
  for (size_t r = 0; r < R; ++r) {
    double t = 0;
    for (const auto& task : tasks_[r]) {
      if (!started[task.dir]) {  // (a directory of more than 2^31 RPCs is several tasks)
        started[task.dir] = true;
        read_start[task.dir] = t;
      }
      t += static_cast<double>(task.first) * p_.entry_cost_s;
    }
    finish[r] = t;
  }
  // The stats in chunks (about 8 per rank in all), in the order their names are listed (below: at the end of the
  // readdir RPC that carries them), each to the rank that would finish it first: a rank of the reader's node pays
  // local_stat_cost_s per stat, any other stat_cost_s (a stat of a name another node listed is an RPC). Without costs
  // (a platform without stat or readdir times) every stat counts 1: even shares.
  const double remote = p_.stat_cost_s > 0 ? p_.stat_cost_s : 1.0;
  const double local = p_.stat_cost_s > 0 ? std::max(0.0, p_.local_stat_cost_s) : 1.0;
  const uint64_t chunk = std::min(kMaxTaskSteps, std::max<uint64_t>(1, (total_stats_ + 8 * R - 1) / (8 * R)));
  struct Chunk {
    double avail_first, avail_last;
    uint32_t dir;
    uint64_t first, count;
  };
  std::vector<Chunk> chunks;
  for (size_t d = 0; d < n; ++d) {
    const uint64_t m = std::min(p_.dirs[d].matching, p_.dirs[d].entries);
    // Match k (0-based) is entry position(k) of the listing, listed when the reply that carries it arrives: at the
    // end of readdir RPC ceil(position / entries_per_rpc).
    const uint64_t e = p_.dirs[d].entries, per_rpc = static_cast<uint64_t>(p_.entries_per_rpc);
    auto listed_at = [&](uint64_t k) {
      const uint64_t pos = position(d, k);
      const uint64_t upto = std::min(e, (pos / per_rpc + (pos % per_rpc != 0 ? 1 : 0)) * per_rpc);
      return read_start[d] + static_cast<double>(upto) * p_.entry_cost_s;
    };
    for (uint64_t k = 0; k < m; k += chunk) {
      const uint64_t c = std::min(chunk, m - k);
      chunks.push_back({listed_at(k), listed_at(k + c - 1), static_cast<uint32_t>(d), k, c});
    }
  }
  std::stable_sort(chunks.begin(), chunks.end(),
                   [](const Chunk& a, const Chunk& b) { return a.avail_first < b.avail_first; });
  // The earliest-free rank overall and on each node (ordered sets: (clock, rank)).
  using Free = std::set<std::pair<double, int>>;
  Free all;
  std::map<int, Free> on_node;
  for (int r = 0; r < p_.ranks; ++r) {
    all.insert({finish[r], r});
    on_node[node_of(r)].insert({finish[r], r});
  }
  // A run of `count` stats from `clock`: no earlier than the first is listed, keeping pace with the listing after it.
  auto run = [](double clock, const Chunk& c, double cost) {
    const double start = std::max(clock, c.avail_first);
    const double pace = c.count > 1 ? std::max(0.0, c.avail_last - start) / static_cast<double>(c.count - 1) : 0.0;
    return start + static_cast<double>(c.count - 1) * std::max(pace, cost) + cost;
  };
  // An RPC stat also needs its MDS: a run of them ends no earlier than that MDS's cores have served them after what
  // they already serve (each MDS's estimated clock: mds_free). A stat the client answers needs none.
  const int mds_count = std::max(1, p_.mds_count);
  std::vector<double> mds_free(static_cast<size_t>(mds_count), 0.0);
  const double mds_per_stat = p_.mds_stat_s / std::max(1, p_.mds_cores);
  auto rpc_stats = [&](bool here) { return !(here && p_.attributes); };
  auto finish_at = [&](double clock, const Chunk& c, bool here) {
    const double end = run(clock, c, here ? local : remote);
    if (!rpc_stats(here))
      return end;
    const double& busy = mds_free[static_cast<size_t>(p_.dirs[c.dir].order % static_cast<uint64_t>(mds_count))];
    return std::max(end, std::max(busy, c.avail_first) + static_cast<double>(c.count) * mds_per_stat);
  };
  for (const Chunk& c : chunks) {
    const int reader_node = node_of(reader_[c.dir]);
    const auto [fa, a] = *all.begin();
    const auto [fb, b] = *on_node[reader_node].begin();
    const bool a_local = node_of(a) == reader_node;
    const double end_a = finish_at(fa, c, a_local);
    const double end_b = finish_at(fb, c, true);
    const bool take_b = end_b < end_a || (end_b == end_a && b < a);
    const int r = take_b ? b : a;
    const double clock = take_b ? fb : fa;
    const bool here = take_b || a_local;
    Task task{c.dir, false, here, c.count, c.first};
    const double end = take_b ? end_b : end_a;
    if (rpc_stats(here)) {
      double& busy = mds_free[static_cast<size_t>(p_.dirs[c.dir].order % static_cast<uint64_t>(mds_count))];
      busy = std::max(busy, c.avail_first) + static_cast<double>(c.count) * mds_per_stat;
    }
    tasks_[static_cast<size_t>(r)].push_back(task);
    all.erase({clock, r});
    on_node[node_of(r)].erase({clock, r});
    all.insert({end, r});
    on_node[node_of(r)].insert({end, r});
  }
}

uint64_t FindWorkload::position(size_t dir, uint64_t k) const
{
  // Match k (0-based) of the directory's m is its entry ceil((k + 1) x entries / m) in the listing (the matches spread
  // evenly over it).
  const auto& d = p_.dirs[dir];
  const uint64_t m = std::min(d.matching, d.entries);
  const long double x =
      static_cast<long double>(k + 1) * static_cast<long double>(d.entries) / static_cast<long double>(m);
  return std::min(d.entries, static_cast<uint64_t>(std::ceil(x)));
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
      e += t.first;
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
    const uint64_t e = t.first;  // the entries this task lists
    out.entries = static_cast<uint32_t>(cursor.step + 1 < t.count ? k : e - std::min(e, k * cursor.step));
  } else {
    out.op = Op::Stat;
    out.listed = t.listed;
    out.position = position(t.dir, t.first + cursor.step);
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
