// A parallel find over a directory tree, as IO500's find phase runs it (pfind: MPI ranks share the directories by
// work stealing; each rank reads a directory with readdir, matches every name against -name, and stats the names
// that match when -newer or -size needs their attributes). Its rate is pfind's: files examined / time.
#pragma once
#include "workload/workload.hpp"

#include <string>
#include <vector>

namespace pfsim {

struct FindDir {
  uint64_t entries = 0;   // files in the directory (every one is listed and counted)
  uint64_t matching = 0;  // names matching -name: the ones pfind stats (with -newer/-size)
  uint64_t order = 0;     // where the directory came in its job's creation order (Workload::directory_order: its MDS)
};

struct FindParams {
  int ranks = 1;
  std::vector<FindDir> dirs;
  int entries_per_rpc = 1024;  // clients.readdir_entries
  bool stat = true;            // pfind -newer / -size: the matching names are stat'ed
  // Where the ranks run (clients.ranks_per_node and placement): a stat of an entry listed on the same node is the
  // listing node's (OpRequest::listed).
  int ranks_per_node = 1;
  bool cyclic = false;
  // Estimated times (from the platform) for sharing the stats out (see FindWorkload): per listed entry (its share of
  // the readdir RPC's round trip and service, and the client's and MDS's time per entry), per stat by a rank of
  // another node than the directory's reader (an RPC), and per stat by a rank of the reader's node (the client's time
  // alone when the readdir reply brought the attributes, clients.readdir_attributes; else an RPC too).
  double entry_cost_s = 0;
  double stat_cost_s = 0;
  double local_stat_cost_s = 0;
  // clients.readdir_attributes: the reader's node answers its stats itself (local_stat_cost_s), each once the node's
  // listing has reached its entry (ClientNode waits for it), and they need no MDS.
  bool attributes = false;
  // The MDSes (mds.count, mds.cores) and a stat's service there (mds.service.stat): RPC stats are shared out no faster
  // than the directory's MDS serves them (a directory's MDS: its order mod mds_count).
  int mds_count = 1;
  int mds_cores = 1;
  double mds_stat_s = 0;
  nlohmann::json params;  // the options as given, echoed in results
};

// The static equivalent of pfind's work stealing, computed once:
//  - directories go whole to ranks (a rank reads a directory with one readdir stream: pfind's find_do_readdir loops
//    until the directory ends), largest first to the rank with the fewest entries so far (LPT), ties to the nodes in
//    turn;
//  - the stats (matching names) go in chunks (about 8 per rank in all), in the order their names are listed, each to
//    the rank whose estimated clock would finish it first (list scheduling): in pfind the readers enqueue the matches
//    and idle ranks steal half of a queue at a time. A rank of the reader's node stats a name at local_stat_cost_s, any
//    other at stat_cost_s, and an RPC stat no faster than its MDS's cores serve the RPC stats given out so far; a stat
//    is `listed` when its rank is on the node that read its directory. A name is listed when the readdir reply that
//    carries it arrives (its entry's RPC of entries_per_rpc).
// A rank does its directory reads first, then its stats. A stat starts no earlier than the reader's readdir replies
// have listed its name (OpRequest::position, the matches spread evenly over the directory; ClientNode waits for it):
// the stats of a long directory follow its read, as pfind's do (its thieves find the queue empty until then).
// The estimated clocks only decide which rank gets a chunk: a static stand-in for the stealing.
class FindWorkload final : public Workload {
public:
  explicit FindWorkload(FindParams p);
  int ranks() const override { return p_.ranks; }
  int phase_count() const override { return 1; }
  std::string phase_name(int) const override { return "find"; }
  uint64_t phase_items(int) const override { return total_entries_; }
  bool next(int rank, int phase, RankCursor& cursor, OpRequest& out) const override;
  nlohmann::json describe() const override;
  PerOp<bool> kinds_used() const override;
  bool uses_shared_dirs() const override { return false; }
  bool updates_own_dirs() const override { return false; }
  double own_directories() const override { return 0; }
  uint64_t directory_order(uint32_t dir) const override { return p_.dirs.at(dir).order; }
  uint64_t total_stats() const { return total_stats_; }
  long double operations() const override { return static_cast<long double>(total_rpcs_ + total_stats_); }
  // The rank that reads directory d, and each rank's stats (for tests and the results).
  int reader_of(size_t dir) const { return reader_.at(dir); }
  uint64_t stats_of_rank(int rank) const;
  uint64_t entries_of_rank(int rank) const;

private:
  struct Task {
    uint32_t dir = 0;
    bool readdir = true;   // else stats
    bool listed = false;   // stats: of a directory this rank's node read
    uint64_t count = 0;    // readdir RPCs, or stats
    // stats: the directory's first match they cover (0-based, in listing order); readdir: the entries they list
    uint64_t first = 0;
  };
  int node_of(int rank) const;
  uint64_t position(size_t dir, uint64_t match) const;  // a match's entry in the listing, 1-based
  FindParams p_;
  std::vector<std::vector<Task>> tasks_;  // per rank
  std::vector<int> reader_;
  uint64_t total_entries_ = 0;
  uint64_t total_rpcs_ = 0;  // readdir RPCs
  uint64_t total_stats_ = 0;
};

// mdtest's file names (mdtest.c: "file.mdtest.<rank>.<item>", rank the creating task), and how many of `ranks` x
// `items` of them contain `pattern` (pfind -name "*P*"; IO500 gives "*01*"). Ranks `first_rank` on.
uint64_t mdtest_names_matching(int ranks, uint64_t items, const std::string& pattern, int first_rank = 0);
// How many of the decimal numbers 0 .. n - 1 contain `pattern` (0 unless it is digits; n when it is empty).
uint64_t decimal_numbers_containing(uint64_t n, const std::string& pattern);

}  // namespace pfsim
