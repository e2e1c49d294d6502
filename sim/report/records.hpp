// What a run measured: per-phase times and per-operation latencies (client view), per-server queue
// statistics (server view). Filled by the model, read by the reports.
#pragma once
#include "model/ops.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pfsim {

struct OpSample {
  uint32_t rank;
  Op op;
  float start_s;    // start relative to the phase start
  float runtime_s;  // duration as the application sees it
};
// The order of latency files: by rank, then by start time.
inline bool rank_then_start(const OpSample& a, const OpSample& b)
{
  return a.rank != b.rank ? a.rank < b.rank : a.start_s < b.start_s;
}

struct PhaseRecord {
  std::string name;
  int iteration = 0;
  uint64_t items = 0;
  double start_s = 0;  // barrier release (simulated time)
  double end_s = 0;    // last rank done
  uint64_t ops = 0;
  PerOp<uint64_t> op_count;
  PerOp<std::vector<float>> latencies_by_op;  // every operation's latency, seconds, per kind (4 bytes each)
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
};

struct ServerRecord {
  std::string name;
  uint64_t served = 0;          // requests served (replies sent, including abandoned copies)
  uint64_t abandoned = 0;       // requests served after their client had given up (timeouts)
  double busy_time_s = 0;       // thread-seconds in service
  double sojourn_sum_s = 0;     // sum over served requests of (reply time - arrival time)
  double area_in_system = 0;    // integral over time of requests present (queued + in service)
  double last_change_s = 0;
  int in_system = 0;
  int max_queue = 0;
  int threads_started = 0;
  double observed_until_s = 0;
  uint64_t journal_commits = 0;       // MDT journal transactions committed
  uint64_t journal_handle_waits = 0;  // updates that waited for a journal transaction (journal.credits)

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
  double last_completion_s = -1;  // when the last operation completed (-1: none yet)
  double end_s = 0;
  bool keep_samples = false;
};

}  // namespace pfsim
