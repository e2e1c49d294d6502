// Workload generators driven by the tools' own parameters: metabench (a fixed number of files spread over
// the ranks; create, stat, unlink) and mdtest (-n items per rank, -u, -F/-D, -w/-e bytes, -i iterations).
#pragma once
#include "workload/workload.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace pfsim {

// One phase of a synthetic workload: every item runs `item_ops` in order.
struct SyntheticPhase {
  std::string name;
  std::vector<Op> item_ops;
  std::vector<double> item_bytes;  // one per item op (0 for metadata ops)
  bool directories = false;        // items are directories (mkdir/rmdir phases)
  int iteration = 0;
  // mdtest's "Tree creation" / "Tree removal": the test directory tree (one directory with mdtest's default
  // -b 1 -z 0) made by every rank in the base directory with -u, by rank 0 alone without; its rate counts the
  // directories of one tree, as mdtest's num_dirs_in_tree / time.
  bool tree = false;
  // mdtest's File read after this iteration's File creation wrote the files (-w > 0): that phase, -1 otherwise. Each
  // rank reads the data of the rank whose files it works on, which that rank's node may still cache
  // (OpRequest::written_by, written_phase).
  int written_phase = -1;
  // mdtest -N S: the phase works on the files (directories) of rank r + rank_shift, mod the ranks: S for the stat
  // phases, 2S for File read, 3S for the removals (mdtest's stat_name, read_name and rm_name); 0 for the creations.
  int64_t rank_shift = 0;
  int shift_steps = 0;  // k of the k x S above (1 stat, 2 read, 3 removal): set_mdtest_stride sets rank_shift from it
  // Items per rank when not the workload's (mdtest -n): the count mdtest -x's status file holds, for the File phases
  // of a run that does not create them. 0: the workload's.
  uint64_t items_per_rank = 0;
  // mdtest -W S on the File creation phase: a rank starts no item once S seconds have passed since its start of the
  // phase, then every rank goes on to the most items any rank made (PhaseStonewall, per item; 0: none). A later File
  // phase of the iteration works on as many items as each rank's files count in `items_from`'s (-1: -n of them).
  double stonewall_s = 0;
  int items_from = -1;
  // mdtest -Y: the phase ends with every rank's sync(2) (Workload::phase_ends_with_sync).
  bool sync_at_end = false;
  // mdtest -t with -u: the creation phase's time includes the MPI_Barrier every rank makes before it enters its
  // unique directory (unique_dir_access MK_UNI_DIR): each rank's first step waits at it (OpRequest::barrier).
  bool first_step_barrier = false;
};

struct SyntheticParams {
  std::string generator;          // "metabench" or "mdtest"
  int ranks = 1;
  uint64_t total_items = 0;       // metabench: files in total, spread over the ranks
  uint64_t items_per_rank = 0;    // mdtest -n
  bool unique_dir = true;         // metabench dir_mode "unique" / mdtest -u
  double think_s = 0;             // idle time before each item (tool operation), not between its steps (mean when exponential)
  bool think_exponential = false; // think times exponentially distributed (Poisson-like arrivals)
  uint64_t seed = 1;              // for random think times (a stateless hash of seed, rank, item, step)
  std::vector<SyntheticPhase> phases;
  nlohmann::json params;          // the tool parameters as given, echoed in results
};

class SyntheticWorkload final : public Workload {
public:
  explicit SyntheticWorkload(SyntheticParams p);
  int ranks() const override { return p_.ranks; }
  int phase_count() const override { return static_cast<int>(p_.phases.size()); }
  std::string phase_name(int phase) const override { return p_.phases.at(phase).name; }
  uint64_t phase_items(int phase) const override;
  double data_bytes() const override;  // each phase's items x the bytes of its items' data steps (mdtest -w, -e)
  int phase_iteration(int phase) const override { return p_.phases.at(phase).iteration; }
  bool next(int rank, int phase, RankCursor& cursor, OpRequest& out) const override;
  nlohmann::json describe() const override;
  // Every phase's item operations, of the phases rank 0 has items in (without walking them: -n 10^12 is fine).
  PerOp<bool> kinds_used() const override;
  PhaseStonewall stonewall(int phase) const override;
  bool phase_ends_with_sync(int phase) const override { return p_.phases.at(phase).sync_at_end; }
  // Without walking the items: ranks share the directory (metabench shared, mdtest without -u) or the base
  // directory of mdtest's tree phases.
  bool uses_shared_dirs() const override;
  bool updates_own_dirs() const override;
  // The tree's top directory (with -u, directory ranks + 1, the parent of the ranks' own) or the one shared directory
  // (no -u: directory `ranks`) is the first the job creates, so it is on the first MDS whatever the rank count (it
  // was on MDS `ranks` mod count: with 2 MDS it moved with the ranks' parity). The ranks' directories follow.
  uint64_t directory_order(uint32_t dir) const override { return dir >= static_cast<uint32_t>(p_.ranks) ? 0 : dir; }
  // mdtest's ranks create their files in step: rank r's file i is the job's file i x ranks + r.
  uint64_t creation_order(uint64_t object) const override
  {
    return (object & 0xffffffffULL) * static_cast<uint64_t>(p_.ranks) + (object >> 32);
  }
  uint64_t items_of_rank(int rank) const;
  uint64_t items_of_rank(int rank, int phase) const;
  const SyntheticParams& params() const { return p_; }

private:
  SyntheticParams p_;
};

// metabench: `files` in total over `ranks`; dir_mode "unique" (one directory per rank) or "shared";
// phases among "create" (open(O_CREAT)+close), "stat", "unlink".
SyntheticParams metabench_params(int ranks, uint64_t files, const std::string& dir_mode,
                                 const std::vector<std::string>& phases);

struct MdtestOptions {
  int ranks = 1;
  uint64_t items_per_rank = 0;  // -n
  bool unique_dir = false;      // -u
  bool files_only = false;      // -F
  bool dirs_only = false;       // -D
  double write_bytes = 0;       // -w
  double read_bytes = 0;        // -e
  int iterations = 1;           // -i
  int64_t stride = 0;           // -N: the stat, read and removal phases work on rank r + N's, r + 2N's, r + 3N's items
  // -C -T -E -r: the create, stat, read and removal phases run (mdtest: all four unless some are chosen); the tree
  // is made with the creates and removed with the removals.
  bool run_create = true;
  bool run_stat = true;
  bool run_read = true;
  bool run_remove = true;
  // -W S: the File creation phase's stonewall, whole seconds (mdtest's int; 0: none). pfsim runs it with files only
  // (-F) and one iteration (mdtest_option_problem).
  int stonewall_s = 0;
  bool sync_each_phase = false;  // -Y: each phase ends with the ranks' sync(2) (not the tree phases)
  bool time_unique_dir = false;  // -t: with -u, the creation phases include the barrier before the unique directory
  // The items per rank of the File phases of a run that does not create them, read from -x's status file (mdtest's
  // o.items after ReadStoneWallingIterations); 0: -n.
  uint64_t file_items = 0;
};
// mdtest's rank shift on a placement: -N S as typed, multiplied by the tasks on node 0 when the ranks are placed in
// blocks over several nodes (mdtest.c since IOR 3.2: "set the shift to mimic IOR and shift by procs per node", so that
// the consumer is on another node; it prints "Shifting ranks by <S> for each phase."). Cyclic placement or one node:
// S. `ranks_per_node`: the run's.
int64_t mdtest_effective_stride(int64_t stride, int ranks, int ranks_per_node, bool cyclic);
// Sets the File and Directory phases' rank shifts of an mdtest workload for the shift `stride` (k x (stride mod
// ranks), k their shift_steps); mdtest_params sets them from -N as typed.
void set_mdtest_stride(SyntheticParams& p, int64_t stride);
// Why these options cannot run together (mdtest 4.1's rules where it has them, pfsim's limits where it models less):
// {the option (letter, as the workload file's key), the reason}; nullopt when they can.
std::optional<std::pair<std::string, std::string>> mdtest_option_problem(const MdtestOptions& o);
// mdtest's SUMMARY rows for these options, in its order (a phase that did not run prints zeros).
std::vector<std::string> mdtest_summary_rows(const MdtestOptions& o);
// mdtest phases in the tool's order: directory creation/stat/removal (unless -F), then file
// creation/stat/read/removal (unless -D); "File read" opens, reads -e bytes (none with -e 0) and closes.
// std::invalid_argument when mdtest_option_problem has one.
SyntheticParams mdtest_params(const MdtestOptions& o);

// mdtest -x's stonewall status file (StoreStoneWallingIterations, ReadStoneWallingIterations in IOR 4.1's
// utilities.c): after a stonewalled create, rank 0 writes the most items any rank made ("%lld", no newline); a run
// that does not create reads it and works on that many items per rank in its File phases. The file holds no rank
// count. The text mdtest writes:
std::string mdtest_status_text(uint64_t items);
// The items per rank `path` holds: its one whole number (spaces around it allowed), from 1 to `max_items` (-n: a
// create of -n items per rank never leaves more). std::invalid_argument naming the file and what is wrong otherwise
// (mdtest warns "Could not read stonewall status file" and goes on with -n items; pfsim does not guess).
uint64_t read_mdtest_status_file(const std::string& path, uint64_t max_items);

}  // namespace pfsim
