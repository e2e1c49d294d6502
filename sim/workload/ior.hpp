// IOR from its own options: -t transfer size, -b block size, -s segments, -F file per process (else one shared
// file), -w / -r (write and read phases; both when neither is given, as IOR), -e fsync after the writes, -i
// repetitions, a -d delay before each phase. Each repetition is a "write" phase (open, the transfers, close) and a "read" phase (open, the
// transfers, close), IOR's layout: in a shared file, segment s of rank r is at s x ranks x block + r x block; in a
// file per process at s x block. The data path of the client model (clients.max_pages_per_rpc, max_dirty_mb,
// oss.stripe_*) cuts each transfer into bulk RPCs. With -F, rank r's file is object r (oss.placement round_robin:
// file r of the job, docs/configuration.md); the shared file is object 0.
#pragma once
#include "workload/workload.hpp"

#include <cstdint>
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
  bool read = true;              // -r
  bool fsync = false;            // -e
  int repetitions = 1;           // -i
  double delay_s = 0;            // -d: idle time before every write and read phase (IOR's interTestDelay)
  // -C (reorderTasks): the read phase reads the data of rank (r + read_shift) mod ranks, IOR's shift by the tasks per
  // node, so that a node reads what another node wrote (not from its own page cache); 0 without -C.
  int read_shift = 0;
  // -k: the file is kept between repetitions; without it IOR removes it after each one (its dirty pages with it)
  bool keep_file = false;
  nlohmann::json params;         // the options as given, echoed in results
};

class IorWorkload final : public Workload {
public:
  // invalid_argument naming the option when the sizes do not fit IOR's rules (-b a multiple of -t, ...).
  explicit IorWorkload(IorOptions o);
  int ranks() const override { return o_.ranks; }
  int phase_count() const override { return static_cast<int>(phases_.size()); }
  std::string phase_name(int phase) const override { return phases_.at(phase).write ? "write" : "read"; }
  // Transfers (IOR's I/O operations) of the phase, all ranks.
  uint64_t phase_items(int phase) const override;
  int phase_iteration(int phase) const override { return phases_.at(phase).repetition; }
  bool next(int rank, int phase, RankCursor& cursor, OpRequest& out) const override;
  PerOp<bool> kinds_used() const override;
  bool uses_shared_dirs() const override { return o_.ranks > 1; }
  bool updates_own_dirs() const override { return false; }  // one test directory
  nlohmann::json describe() const override;
  double data_bytes() const override { return bytes_per_phase() * static_cast<double>(phases_.size()); }
  const IorOptions& options() const { return o_; }
  // IOR sleeps -d seconds before every write and read phase (DelaySecs), then starts its timers after a barrier.
  double phase_delay_s(int /*phase*/) const override { return o_.delay_s; }
  // IOR removes its file after every repetition, the last one too, unless -k (RemoveFile).
  bool removes_files_at_end() const override { return o_.write && !o_.keep_file; }
  uint64_t transfers_per_rank() const { return o_.segments * (o_.block_B / o_.transfer_B); }
  double bytes_per_phase() const
  {
    return static_cast<double>(o_.block_B) * static_cast<double>(o_.segments) * o_.ranks;
  }

private:
  struct Phase {
    bool write;
    int repetition;
  };
  IorOptions o_;
  std::vector<Phase> phases_;
};

}  // namespace pfsim
