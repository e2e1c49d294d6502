// Replays a recorded data-path trace (io_trace.hpp: Darshan DXT, IOR per-op files) at any rank count through the
// client model's data path (bulk RPCs of clients.max_pages_per_rpc, striping, the write-back cache).
//
// Rescaling rules (M replay ranks, N recorded ranks), those of the metadata replay (replay.hpp):
//   - rank m replays the stream of recorded rank m mod N (copy c = m / N of it) with its think times, so the
//     recorded think-time distribution is kept at every M;
//   - namespaces stay distinct: a file one recorded rank used is its own object in every copy (copy 0 keeps the
//     recorded identity, copy c > 0 a distinct one derived from it), so each replay rank has its own files;
//   - a file several recorded ranks used stays one shared object at every M. In a DXT trace copy c accesses it at
//     the recorded offset + c x the file's recorded extent (copies do not overwrite each other's bytes); an IOR per-op
//     trace lays the shared file out again for M ranks as IOR does: (segment x M + m) x block + k x transfer;
//   - object identity comes from the file (DXT file_id, a hash of the IOR test file's name), so the OSS placement
//     (oss.placement object) is stable from run to run and between rank counts;
//   - every file is in one directory (IOR's test directory; DXT paths are not mapped to directories): creates lock
//     it when several ranks replay;
//   - opens, creates and closes are those the import inserted (DXT and IOR per-op files record none); a shared file's
//     copies c > 0 open it (copy 0 of its creator creates it);
//   - a DXT read of bytes that one recorded write covers (same file; of those, the one that ended last before the read
//     started, on the ranks' recorded clocks) reads what that write's rank wrote: in copy c, replay rank c x N + w,
//     whose node's page cache may serve it (OpRequest::written_by, clients.max_cached_mb). Reads no single recorded
//     write covers, and every read of an IOR per-op trace (which holds one access), were written before the run.
#pragma once
#include <utility>
#include "workload/io_trace.hpp"
#include "workload/workload.hpp"

#include <memory>
#include <unordered_map>
#include <vector>

namespace pfsim {

class IoReplayWorkload final : public Workload {
public:
  // invalid_argument when the trace holds no rank, ranks < 0 (0 = the recorded count), or ranks above the rank count
  // the trace was imported for (IoTrace::kept_ranks).
  IoReplayWorkload(std::shared_ptr<const iotrace::IoTrace> trace, int ranks);

  int ranks() const override { return ranks_; }
  int phase_count() const override { return static_cast<int>(trace_->phases.size()); }
  std::string phase_name(int phase) const override { return trace_->phases.at(static_cast<size_t>(phase)).name; }
  int phase_iteration(int phase) const override { return trace_->phases.at(static_cast<size_t>(phase)).iteration; }
  // Reads and writes of the phase, all replay ranks (IOR counts transfers).
  uint64_t phase_items(int phase) const override;
  bool next(int rank, int phase, RankCursor& cursor, OpRequest& out) const override;
  PerOp<bool> kinds_used() const override;
  bool uses_shared_dirs() const override { return ranks_ > 1; }
  double data_bytes() const override;
  // Copy c's file f (the trace's order) is the job's file c x files + f; a shared file is one file, copy 0's (up to
  // 2^20 files; beyond, the file's id, a hash).
  // Built at the first call (placement round_robin only asks).
  uint64_t creation_order(uint64_t object) const override;
  nlohmann::json describe() const override;

  // Operations and bytes of writes (write = true) or reads of the phase, all replay ranks.
  uint64_t phase_ops(int phase, bool write) const;
  double phase_bytes(int phase, bool write) const;
  bool has_writes() const  // some phase writes data
  {
    for (int p = 0; p < phase_count(); ++p)
      if (phase_bytes(p, true) > 0)
        return true;
    return false;
  }
  const iotrace::IoTrace& trace() const { return *trace_; }

private:
  std::pair<uint64_t, double> phase_totals(int phase, bool write) const;  // (operations, bytes)
  const iotrace::IoRankStream& stream(int rank) const
  {
    return trace_->streams[static_cast<size_t>(rank % trace_->ranks)];
  }
  uint64_t copies(int recorded_rank) const
  {
    return static_cast<uint64_t>(ranks_ / trace_->ranks + (recorded_rank < ranks_ % trace_->ranks ? 1 : 0));
  }
  // A private file is each copy's own object; a shared one is one object for all.
  static uint64_t object_of(const iotrace::IoFile& file, uint64_t copy);
  std::shared_ptr<const iotrace::IoTrace> trace_;
  int ranks_ = 0;
  mutable std::unordered_map<uint64_t, uint64_t> order_;  // object -> creation_order
  mutable bool order_built_ = false;
};

}  // namespace pfsim
