// IOR from its own options: -t transfer size, -b block size, -s segments, -F file per process (else one shared
// file), -w / -r (write and read phases; both when none of -w -r -W -R is given, as IOR), -e fsync after the writes,
// -i repetitions, a -d delay before each write and read phase. Each repetition is a "write" phase (open, the
// transfers, close) and a "read" phase (open, the transfers, close), IOR's layout: in a shared file, segment s of rank
// r is at s x ranks x block + r x block; in a file per process at s x block. The data path of the client model
// (clients.max_pages_per_rpc, max_dirty_mb, oss.stripe_*) cuts each transfer into bulk RPCs. With -F, rank r's file is
// object r (oss.placement round_robin: file r of the job, docs/configuration.md); the shared file is object 0.
// IOR 4.1's other options that change what is done (IOR's src/ior.c: TestIoSys, WriteOrRead):
// - -z: the transfers of each block in a random order, the same in every segment (a shared file's segment dealt to
//   the ranks at random, block / transfer each); -z -z: each segment one whole block at a random place of the file
//   (reads only). Drawn from --seed: the same run gives the same offsets.
// - -D S: stonewalling (PhaseStonewall): a rank starts no transfer once S seconds have passed since its first one;
//   -O stoneWallingWearOut=1: then every rank goes on to the most transfers any rank did; a read after a stonewalled
//   write stops at the rank's count of the write, or at -O stoneWallingStatusFile's count.
// - -Y: every write synchronous (an fsync after each); -W: a verification read after the write, untimed
//   ("write-check" phase, not one of IOR's results); -R: the read verifies (the same reads); -u with -F: a directory
//   per rank (a "mkdir" phase before the first write, untimed); -g: barriers between the open, the transfers and the
//   close.
#pragma once
#include "workload/workload.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace pfsim {

struct IorOptions {
  int ranks = 1;
  uint64_t transfer_B = 262144;  // -t (IOR's default 256 KiB)
  uint64_t block_B = 1048576;    // -b (IOR's default 1 MiB)
  uint64_t segments = 1;         // -s
  bool file_per_proc = false;    // -F
  bool write = true;             // -w
  bool read = true;              // -r (or -R)
  bool fsync = false;            // -e
  int repetitions = 1;           // -i
  double delay_s = 0;            // -d: idle time before every write and read phase (IOR's interTestDelay)
  // -C (reorderTasks): the read phase reads the data of rank (r + read_shift) mod ranks, IOR's shift by -Q (its
  // taskPerNodeOffset) times the tasks per node, so that a node reads what another node wrote (not from its own page
  // cache); 0 without -C. The -W verification reads rank (r + check_shift)'s, 2 nodes on whatever -Q says (IOR 4.1).
  int read_shift = 0;
  int check_shift = 0;
  int task_offset = 1;           // -Q, as given (the Options' "task offset")
  // -k: the file is kept between repetitions; without it IOR removes it after each one (its dirty pages with it)
  bool keep_file = false;
  // -z given this many times: 1 random order within each block, 2 or more random blocks of the file (reads only)
  int random_offset = 0;
  uint64_t seed = 1;             // the random offsets' draw (pfsim's --seed; IOR's --random-offset-seed)
  double deadline_s = 0;         // -D (deadlineForStonewalling), seconds; 0: none
  bool wear_out = false;         // -O stoneWallingWearOut=1
  uint64_t pair_limit = 0;       // -O stoneWallingWearOutIterations=N: every phase stops after N transfers; 0: none
  // -O stoneWallingStatusFile=F: the transfers per rank the read phases stop after, as read from F before the run
  // (0: F unreadable, IOR's warning, no limit); -1: no file given.
  int64_t status_pairs = -1;
  bool fsync_per_write = false;  // -Y
  bool check_write = false;      // -W
  bool check_read = false;       // -R
  bool unique_dir = false;       // -u (with -F: a directory per rank)
  bool barriers = false;         // -g (intraTestBarriers)
  // --file-size (read-only runs): each file's size as the read finds it (IOR's get_file_size), over which -z -z draws
  // its blocks and of which IOR's Stat() warning speaks; 0: the test's size.
  uint64_t file_size_B = 0;
  nlohmann::json params;         // the options as given, echoed in results
};

class IorWorkload final : public Workload {
public:
  // invalid_argument naming the option when the sizes do not fit IOR's rules (-b a multiple of -t, ...).
  explicit IorWorkload(IorOptions o);
  enum class Kind { Mkdir, Write, Check, Read };
  int ranks() const override { return o_.ranks; }
  int phase_count() const override { return static_cast<int>(phases_.size()); }
  std::string phase_name(int phase) const override;
  Kind phase_kind(int phase) const { return phases_.at(phase).kind; }
  // The write phase of `phase`'s repetition (a write phase's own index; -1: none, a read-only run).
  int write_phase(int phase) const
  {
    return phase_kind(phase) == Kind::Write ? phase : phases_.at(static_cast<size_t>(phase)).write_phase;
  }
  // Transfers (IOR's I/O operations) of the phase, all ranks; the mkdirs of the "mkdir" phase.
  uint64_t phase_items(int phase) const override;
  int phase_iteration(int phase) const override { return phases_.at(phase).repetition; }
  bool next(int rank, int phase, RankCursor& cursor, OpRequest& out) const override;
  PerOp<bool> kinds_used() const override;
  bool uses_shared_dirs() const override { return o_.ranks > 1; }
  // -u -F: each rank creates its file in a directory of its own
  bool updates_own_dirs() const override { return own_dirs() && o_.write; }
  nlohmann::json describe() const override;
  double data_bytes() const override;
  // (the run's size estimate: the transfers a phase moves at most, stoneWallingWearOutIterations and a read's status
  // file counted; helper-132: a read after a stonewalled write was estimated at the test's whole size)
  long double operations() const override;
  const IorOptions& options() const { return o_; }
  // IOR sleeps -d seconds before every write and read phase (DelaySecs), then starts its timers after a barrier.
  double phase_delay_s(int phase) const override;
  PhaseStonewall stonewall(int phase) const override;
  // IOR removes its file after every repetition, the last one too, unless -k (RemoveFile).
  bool removes_files_at_end() const override { return o_.write && !o_.keep_file; }
  uint64_t transfers_per_rank() const { return o_.segments * (o_.block_B / o_.transfer_B); }
  double bytes_per_phase() const
  {
    return static_cast<double>(o_.block_B) * static_cast<double>(o_.segments) * o_.ranks;
  }
  // The offset of rank `src`'s transfer k (0-based, in its order) in its file, and the rank whose data is there.
  std::pair<uint64_t, int> transfer_offset(int src, uint64_t k) const;

private:
  struct Phase {
    Kind kind;
    int repetition;
    int write_phase;  // the repetition's write phase (-1: none): what a read or check reads, and its pair counts
  };
  bool own_dirs() const { return o_.unique_dir && o_.file_per_proc; }  // -u -F: rank r's file in directory 1 + r
  IorOptions o_;
  std::vector<Phase> phases_;
};

// IOR 4.x options that change what runs and that pfsim does not model: pfsim ior refuses them by name, with the reason
// (nullptr for an option not listed here).
const char* ior_not_modelled(const std::string& option);
const std::map<std::string, const char*>& ior_not_modelled_options();  // all of them, by option

// Where IOR's transfer k of `rank` is, in order (no -z): segment k / (block / transfer) of the rank's file (-F) or of
// the shared file, whose segments are the ranks' blocks in rank order. IorWorkload and the IOR per-op importer's
// layout (io_trace.cpp) both place transfers by it.
inline uint64_t ior_sequential_offset(uint64_t block_B, uint64_t transfer_B, bool file_per_proc, uint64_t ranks,
                                      uint64_t rank, uint64_t k)
{
  const uint64_t per_block = block_B / transfer_B;
  const uint64_t segment = k / per_block, in_block = (k % per_block) * transfer_B;
  return file_per_proc ? segment * block_B + in_block : (segment * ranks + rank) * block_B + in_block;
}

// A pseudo-random bijection of [0, n) keyed by `key` (the same key, the same order): a Feistel network cycle-walked
// back into [0, n). O(1) memory, so that a rank's 10^7 transfers need no table.
uint64_t random_permutation(uint64_t i, uint64_t n, uint64_t key);

}  // namespace pfsim
