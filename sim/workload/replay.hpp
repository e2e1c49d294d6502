// Replays a recorded trace (trace.hpp) at any rank count, and generates md-workbench runs from the tool's
// parameters as a trace of one synthetic rank.
//
// Rescaling rules (M replay ranks, N recorded ranks):
//   - rank m replays the stream of recorded rank m mod N (streams reused round-robin), with its think times
//     (the recorded gaps between one operation's end and the next one's start): the think-time distribution
//     of the recording is kept at every M;
//   - namespaces stay distinct: rank m owns data-set directories m*D .. m*D+D-1; in a benchmark iteration, as
//     md-workbench's run_benchmark, object f of data set d is looked up, read and deleted in set d of rank
//     (m - K(d+1)) mod M and created in set d of rank (m + K(d+1)) mod M (K = offset): each such directory is
//     updated by two ranks (shared, so it locks) unless 2K(d+1) is a multiple of M (then one rank does both); the data-set directories are
//     created (mkdir, all before the precreate's objects) and removed (rmdir, each after its set's objects in the
//     cleanup) in the shared root directory, which stays shared (and locked) at every M; the recorded gap before
//     the first object after them held those directory operations, so it is not replayed as think time (nor when
//     --no-dataset-ops leaves them out);
//   - an md-real-io operation becomes the client operations it performs: stat = Stat; read = Open, Read
//     (object size), Close; create = Create, Write (object size), Close; delete = Unlink. Data goes to an OSS.
//   - optional trace-driven residuals (ReplayOptions::residual_quantile): the part of each recorded latency above
//     the low quantile of its operation kind in its phase (stalls, slow OSTs, per-rank slowness the model does not
//     have) is replayed as a delay inside that operation (OpRequest::excess_s), with the number of recorded ranks
//     that were active when it was recorded. With the platform's clients.load_delay law for that operation the
//     client scales it by law(active ranks now) / law(recorded active ranks): at another rank count the excess
//     grows or shrinks as the trace's own concurrency variation says (model/client.cpp).
#pragma once
#include "workload/trace.hpp"
#include "workload/workload.hpp"

#include <array>
#include <memory>
#include <vector>

namespace pfsim {

struct ReplayOptions {
  int ranks = 0;  // replay ranks M; 0 = the recorded count
  // Quantile q of each (phase, operation kind) latency taken as the modelled part; the excess of each
  // operation over it is replayed as a residual delay. A negative value disables residuals.
  double residual_quantile = -1;
  bool dataset_ops = true;  // mkdir of the data sets at the start of precreate, rmdir at the end of cleanup
  // Each rank replays only the first K recorded operations of every phase (0 = all): short runs at very large
  // rank counts (the rates then describe the start of each phase).
  uint32_t max_ops_per_phase = 0;
  // An mdtest trace's rank shift as the replay applies it (mdtest's rule on the replay's placement,
  // mdtest_effective_stride: -N times the tasks on node 0 with block placement over several nodes); -1: the trace's
  // -N as recorded.
  int64_t mdtest_stride = -1;
};

// Parameters of `pfsim mdworkbench` (md-workbench / md-real-io command-line names), with md-workbench's defaults
// (IOR 4.x and the 2019 tool: -I 1000 -P 3000 -D 10 -R 3 -S 3901 --offset 1; pfsim had -D 1 until 2026-11-26).
struct MdWorkbenchParams {
  int ranks = 1;
  int obj_per_proc = trace::kMdwDefaultI;         // -I
  int precreate_per_set = trace::kMdwDefaultP;    // -P
  int data_sets = trace::kMdwDefaultD;            // -D
  int iterations = trace::kMdwDefaultR;           // -R
  double object_size_B = trace::kMdwDefaultS;     // -S
  int offset = trace::kMdwDefaultOffset;          // --offset
  // md-workbench -1 -2 -3: the precreate, the benchmark iterations and the cleanup run (all, unless some are chosen)
  bool run_precreate = true;
  bool run_benchmark = true;
  bool run_cleanup = true;
};
// One synthetic rank: precreate (P x D creates, data sets interleaved), R benchmark iterations of I x D
// objects (stat, read, delete, create each), cleanup (P x D deletes). No think time.
trace::Trace mdworkbench_trace(const MdWorkbenchParams& p);

class ReplayWorkload final : public Workload {
public:
  ReplayWorkload(std::shared_ptr<const trace::Trace> trace, ReplayOptions options);

  int ranks() const override { return ranks_; }
  int phase_count() const override { return static_cast<int>(trace_->phases.size()); }
  std::string phase_name(int phase) const override;
  uint64_t phase_items(int phase) const override { return items_[static_cast<size_t>(phase)]; }
  int phase_iteration(int phase) const override { return trace_->phases[static_cast<size_t>(phase)].iteration; }
  bool next(int rank, int phase, RankCursor& cursor, OpRequest& out) const override;
  // md-workbench's data sets: every rank makes its set d in step, so rank r's set d (directory r x D + d) is the
  // job's directory d x ranks + r (with r x D + d, an even D put every rank's set d on one of 2 MDSes). The root
  // directory (the data sets' parent; mdtest's one shared directory without -u) is the first, on the first MDS
  // whatever the rank count, as pfsim mdtest's (it was on MDS ranks x D mod count).
  uint64_t directory_order(uint32_t dir) const override
  {
    const auto root = static_cast<uint32_t>(ranks_) * static_cast<uint32_t>(D_);
    if (dir >= root)
      return 0;
    return static_cast<uint64_t>(dir % static_cast<uint32_t>(D_)) * static_cast<uint64_t>(ranks_) + dir / D_;
  }
  // md-workbench's data sets: D per rank.
  double own_directories() const override { return static_cast<double>(ranks_) * D_; }
  // The ranks' objects (see next) in step: rank r's k-th object of a phase is the job's k x ranks + r.
  uint64_t creation_order(uint64_t object) const override
  {
    return (object & 0xffffffULL) * static_cast<uint64_t>(ranks_) + ((object >> 24) & 0xffffffULL);
  }
  nlohmann::json describe() const override;
  PerOp<bool> kinds_used() const override;  // from the recorded kinds, without walking rank 0's operations
  // Recorded operations of each kind (TraceOp) that rank replays in the phase (data-set operations aside).
  std::array<uint64_t, trace::kTraceOpCount> kind_counts(int rank, int phase) const;

  // What the reports need to regroup client operations into md-real-io operations.
  static constexpr int kDatasetOp = -1;  // a mkdir/rmdir of a data set (not in latency files)
  uint64_t compound_count(int rank, int phase) const;
  int compound_kind(int rank, int phase, uint64_t item) const;  // TraceOp or kDatasetOp
  int compound_primitives(int kind) const;
  int dataset_ops(int phase) const;  // per rank
  const trace::Trace& trace() const { return *trace_; }
  const ReplayOptions& options() const { return opt_; }
  double floor_s(int phase, trace::TraceOp op) const { return floor_[static_cast<size_t>(phase)][static_cast<int>(op)]; }

private:
  // Where compound item `item` of a phase (n trace operations per rank) sits in md-workbench's order: the
  // precreate's D data-set mkdirs come first; the cleanup removes data set after data set, each rmdir right after
  // its objects (when the rows split into D equal sets; otherwise the rmdirs come last).
  struct Slot {
    bool dataset = false;  // a data-set mkdir/rmdir (not a trace operation)
    uint64_t k = 0;        // the trace operation (index in the phase)
    uint32_t set = 0;      // data set of the directory
    bool after_dataset_op = false;  // first trace operation after data-set operations: its recorded gap held them
  };
  Slot slot(int phase, uint64_t n, uint64_t item) const;
  const trace::RankStream& stream(int rank) const { return trace_->streams[static_cast<size_t>(rank % trace_->ranks)]; }
  uint64_t ops_in(const trace::RankStream& s, int phase) const
  {
    uint64_t n = s.end(phase) - s.begin(phase);
    const uint64_t lim = limit_[static_cast<size_t>(phase)];
    return lim > 0 && n > lim ? lim : n;
  }
  std::shared_ptr<const trace::Trace> trace_;
  ReplayOptions opt_;
  int ranks_ = 0;
  int D_ = 1;
  std::vector<uint64_t> items_;
  // --max-ops-per-phase per phase (0 = all); in a benchmark phase rounded down to whole objects, at least one.
  std::vector<uint64_t> limit_;
  // Per phase, for who wrote what a read reads (writer_of_read; rank 0's stream): the trace operations per benchmark
  // object, the objects per data set and rank, and a benchmark iteration's first object index.
  std::vector<uint64_t> per_object_, objects_, first_object_;
  std::vector<int> last_precreate_, last_other_;           // -1: none before
  std::vector<std::pair<uint64_t, int>> creating_;          // (first object index, phase), in phase order
  std::pair<int32_t, int32_t> writer_of_read(int phase, uint64_t k, int owner, int64_t shift) const;  // (rank, phase)
  int wrap(int64_t rank) const { return static_cast<int>(((rank % ranks_) + ranks_) % ranks_); }  // rank mod M
  std::vector<std::array<float, trace::kTraceOpCount>> floor_;  // per phase and kind
  std::vector<std::vector<uint16_t>> active_;  // per recorded rank and operation: recorded ranks in the phase
  // Per recorded rank and operation: the other recorded ranks' metadata operations (stat, create, delete) in
  // flight when it started.
  std::vector<std::vector<uint16_t>> md_in_flight_;
};

}  // namespace pfsim
