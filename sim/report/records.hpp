// What a run measured: per-phase times and per-operation latencies (client view), per-server queue
// statistics (server view). Filled by the model, read by the reports.
#pragma once
#include "model/ops.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace pfsim {

struct OpSample {
  double start_s;      // start relative to the phase start (double: an operation's steps are subtracted from it)
  float runtime_s;     // duration as the application sees it
  uint32_t rank : 24;  // up to 16.7 M ranks (kMaxRanks is 10 M): 16 bytes per sample
  Op op : 8;
};
static_assert(sizeof(OpSample) == 16, "one sample per simulated RPC: keep it at 16 bytes");
// The order of latency files: by rank, then by start time.
inline bool rank_then_start(const OpSample& a, const OpSample& b)
{
  return a.rank != b.rank ? a.rank < b.rank : a.start_s < b.start_s;
}

// Latencies kept in constant memory: counts in logarithmic buckets of 256 per doubling (each bucket 0.27%
// wide), plus the exact count, sum, minimum and maximum. A percentile is the bucket of the nearest-rank
// sample, reported at the bucket's geometric middle (within 0.14% of that sample) and clipped to [min, max].
// Used instead of the per-operation vectors when a run keeps no samples (replay --no-samples), so that
// memory does not grow with the run's length.
class LatencyHistogram {
public:
  static constexpr int kPerDoubling = 256;
  void add(float v)
  {
    if (count_ == 0 || v < min_)
      min_ = v;
    if (count_ == 0 || v > max_)
      max_ = v;
    ++count_;
    sum_ += v;
    buckets_[bucket(v)]++;
  }
  void merge(const LatencyHistogram& o)
  {
    if (o.count_ == 0)
      return;
    if (count_ == 0 || o.min_ < min_)
      min_ = o.min_;
    if (count_ == 0 || o.max_ > max_)
      max_ = o.max_;
    count_ += o.count_;
    sum_ += o.sum_;
    for (const auto& [b, n] : o.buckets_)
      buckets_[b] += n;
  }
  uint64_t count() const { return count_; }
  double sum() const { return sum_; }
  double min() const { return min_; }
  double max() const { return max_; }
  bool empty() const { return count_ == 0; }
  // Nearest-rank percentile, q in [0, 1] (the rule of percentile_sorted in stats.hpp).
  double percentile(double q) const
  {
    if (count_ == 0)
      return 0;
    uint64_t rank = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count_)));
    rank = rank < 1 ? 1 : (rank > count_ ? count_ : rank);
    std::vector<std::pair<int32_t, uint64_t>> sorted(buckets_.begin(), buckets_.end());
    std::sort(sorted.begin(), sorted.end());
    uint64_t seen = 0;
    for (const auto& [b, n] : sorted) {
      seen += n;
      if (seen >= rank) {
        double v = b == kZero ? 0.0 : std::exp2((b + 0.5) / kPerDoubling);
        return v < min_ ? min_ : (v > max_ ? max_ : v);
      }
    }
    return max_;
  }

private:
  static constexpr int32_t kZero = INT32_MIN;  // latencies of 0 (and below the float range)
  static int32_t bucket(float v)
  {
    return v > 0 ? static_cast<int32_t>(std::floor(std::log2(static_cast<double>(v)) * kPerDoubling)) : kZero;
  }
  uint64_t count_ = 0;
  double sum_ = 0;
  double min_ = 0;
  double max_ = 0;
  // Hashed, not ordered: a std::map's lookup per operation was ~3% of a replay's CPU; percentile() sorts the few
  // hundred to thousand buckets it needs.
  std::unordered_map<int32_t, uint64_t> buckets_;
};

struct PhaseRecord {
  std::string name;
  int iteration = 0;
  uint64_t items = 0;
  double start_s = 0;  // barrier release (simulated time)
  double end_s = 0;    // last rank done
  uint64_t ops = 0;
  PerOp<uint64_t> op_count;
  PerOp<std::vector<float>> latencies_by_op;  // every operation's latency, seconds, per kind (4 bytes each)
  PerOp<LatencyHistogram> histogram_by_op;    // instead of latencies_by_op when RunRecords::latency_histograms
  // The tool's operations (items: metabench's create = open(O_CREAT) + close, md-workbench's read = open + read +
  // close): the sum of their steps' latencies (a recorded gap between two steps of a replayed item is not part of
  // it); always a histogram.
  LatencyHistogram item_histogram;
  // Per kind, the first operation's start and the last one's end (simulated time; set once op_count is not 0): a
  // data replay's windows per direction without per-operation samples.
  PerOp<double> op_first_start_s;
  PerOp<double> op_last_end_s;
  // All operations of the phase (concatenated per kind: a copy, made when a report needs it).
  std::vector<float> all_latencies() const
  {
    size_t n = 0;
    for (const auto& v : latencies_by_op.v)
      n += v.size();
    std::vector<float> all;
    all.reserve(n);
    for (const auto& v : latencies_by_op.v)
      all.insert(all.end(), v.begin(), v.end());
    return all;
  }
  std::vector<OpSample> samples;  // only when per-operation output is requested
  // The phase's reads and writes: the first one's start and the last one's end (or the end of an fsync's wait for
  // the written data, OpRequest::flush); -1 without any (IOR's wr/rd time).
  double data_first_start_s = -1;
  double data_last_end_s = -1;
  double rank0_data_first_s = -1;  // the same for rank 0 alone (IOR's latency column)
  double rank0_data_last_s = -1;
  // When RunRecords::rank_times: the simulated time each rank completed its last step of the phase (its data-set
  // mkdirs/rmdirs included); start_s for a rank with nothing to do. And each rank's first data step's start and last
  // data step's end (an fsync's wait included; -1 without any): IOR's per-rank access time.
  std::vector<double> rank_end_s;
  std::vector<double> rank_data_first_s;
  std::vector<double> rank_data_last_s;
  // A phase with stonewalling (Workload::stonewall): each rank's data steps done (IOR's pairs), and with a wear-out
  // what IOR's allreduce saw when every rank had stopped: the fewest and most pairs, the fewest and all bytes moved by
  // then, and rank 0's time from its first data step to the allreduce's end (IOR's "stonewalling pairs accessed" line).
  // With PhaseStonewall::per_item the pairs are items (mdtest's), their sum too (mdtest's "Continue stonewall hit"
  // line), and rank 0's time runs from its start of the phase.
  std::vector<uint64_t> rank_pairs;
  bool wear_out = false;
  uint64_t stonewall_pairs_min = 0, stonewall_pairs_max = 0, stonewall_pairs_sum = 0;
  double stonewall_bytes_min = 0, stonewall_bytes_sum = 0;
  double stonewall_s = 0;
};

struct ServerRecord {
  std::string name;
  uint64_t served = 0;          // requests served (replies sent, including abandoned copies)
  uint64_t abandoned = 0;       // requests whose service ended after their client had given up (timeouts); a copy
                                // given up while its reply was queued or in transit is dropped but not counted
  double busy_time_s = 0;       // thread-seconds in service
  int cores = 0;                // MDS: its cores (0 for an OSS, whose CPU is not modelled as cores)
  double cpu_s = 0;             // MDS: core-seconds of CPU work (service demands, mechanisms' costs, lock holds)
  double sojourn_sum_s = 0;     // sum over served requests of (reply time - arrival time)
  double area_in_system = 0;    // integral over time of requests present (queued + in service)
  double last_change_s = 0;
  int in_system = 0;
  int max_queue = 0;            // the most requests seen waiting for a thread (queued beyond the idle threads that take
                                // them at once; one CPU partition's or the readpage queue, not their sum)
  int threads_started = 0;           // service threads (mds.threads; an OSS's threads), over its CPU partitions
  int readpage_threads_started = 0;  // MDS: readpage threads (mds.readpage_threads), counted apart
  double observed_until_s = 0;
  uint64_t journal_commits = 0;       // MDT journal transactions committed
  uint64_t journal_handle_waits = 0;  // updates that waited for a journal transaction (journal.credits)

  // An OSS's data counters, as LMT reads them from the OST: bytes written and read, RPCs by size (bin b: RPCs of
  // 2^(b-1) < pages <= 2^b, 4 KiB pages; b = 0: one page), and the bytes of each sample interval (sample k covers
  // [offset + (k-1) x interval, offset + k x interval) of simulated time; an RPC's bytes count when the OST has
  // written or read them, as obdfilter's counters).
  static constexpr size_t kPageBins = 13;  // 1 .. 4096 pages (16 MiB RPCs)
  double data_written_B = 0;
  double data_read_B = 0;
  std::array<uint64_t, kPageBins> write_rpc_pages{};
  std::array<uint64_t, kPageBins> read_rpc_pages{};
  // One sample interval's counters: bytes and RPCs by size, written and read (LMT's per-interval brw_stats).
  struct Sample {
    double written_B = 0;
    double read_B = 0;
    std::array<uint64_t, kPageBins> write_rpc_pages{};
    std::array<uint64_t, kPageBins> read_rpc_pages{};
  };
  // Sample k -> its counters; only samples with data (a run of simulated days with a few bursts keeps a few entries,
  // not one per 5 s).
  std::map<uint64_t, Sample> samples;
  // oss.stragglers: the OST's time spent slow during the run, and its slow periods (begun before the run's end);
  // negative without stragglers.
  double straggler_slow_s = -1;
  uint64_t straggler_periods = 0;
  // `pages`: the 4 KiB pages the RPC touches (an unaligned 3000 bytes may touch 2).
  void data_moved(bool write, double bytes, double pages, double t, double interval, double offset)
  {
    (write ? data_written_B : data_read_B) += bytes;
    size_t bin = 0;
    while (bin + 1 < kPageBins && std::exp2(static_cast<double>(bin)) < pages)
      ++bin;
    (write ? write_rpc_pages : read_rpc_pages)[bin]++;
    auto& sample = samples[static_cast<uint64_t>(std::floor((t - offset) / interval) + 1)];
    (write ? sample.written_B : sample.read_B) += bytes;
    (write ? sample.write_rpc_pages : sample.read_rpc_pages)[bin]++;
  }

  void change(double now, int delta)
  {
    area_in_system += in_system * (now - last_change_s);
    last_change_s = now;
    in_system += delta;
  }
};

struct RunRecords {
  std::vector<PhaseRecord> phases;
  std::vector<ServerRecord> servers;
  uint64_t resends = 0;
  uint64_t local_stats = 0;   // stats the client answered from a readdir's attributes (clients.readdir_attributes)
  uint64_t cache_reads = 0;   // reads served from a node's page cache (clients.max_cached_mb), no RPC
  double cache_read_B = 0;
  // reads that found some of their pages read ahead (clients.readahead_mb), and the bytes they found there
  uint64_t readahead_reads = 0;
  double readahead_read_B = 0;
  uint64_t discarded_pieces = 0;  // held write pieces of unlinked files, dropped unwritten (clients.hold_partial_rpcs)
  double discarded_B = 0;
  // bytes written again into dirty pages before they were sent (a held piece rewritten whole, or the part of a new
  // piece that pages already dirty hold): written once to the OSTs (clients.hold_partial_rpcs)
  uint64_t rewritten_pieces = 0;
  double rewritten_B = 0;
  double last_completion_s = -1;  // when the last operation completed (-1: none yet)
  double end_s = 0;
  bool keep_samples = false;
  bool rank_times = false;
  bool latency_histograms = false;  // latencies in PhaseRecord::histogram_by_op (constant memory), not vectors
};

}  // namespace pfsim
