// A data-path trace's replay against its recording (workload/io_replay.hpp): per phase and direction (write, read)
// the operations, bytes, rate and latency statistics of the recorded run and of the simulated one.
//
// Rate = bytes / window, window = the first operation's start to the last one's end over all ranks (IOR's wr/rd
// time). Recorded windows and latencies come from the trace's times (DXT: 4 decimals, each rank's clock from its own
// Darshan init, so a window is good to about 0.1 ms and latencies below 0.1 ms read as 0); recorded values are those
// of the recorded rank count N, simulated ones of the replay's M ranks.
#pragma once
#include "report/records.hpp"
#include "report/stats.hpp"
#include "workload/io_replay.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pfsim {

struct IoKindStats {
  uint64_t ops = 0;
  double bytes = 0;
  double window_s = 0;  // first start to last end (0 without operations)
  LatencySummary latency;
  bool simulated = false;
  // A rate needs time: none for a window of 0 (every recorded operation at one 4-decimal time), nor, simulated, for a
  // window below SimGrid's 1 ns timing precision or operations that all took 0 s (writes into a write-back cache
  // whose copy is free, clients.page_cache_copy 0: a window of their think times, or of rounding, is not a rate). A
  // recorded kind whose latencies all print as 0.0000 s keeps its rate over the window.
  bool has_rate() const { return window_s > 0 && (!simulated || (window_s > 1e-9 && latency.max_s > 0)); }
  double rate_Bps() const { return has_rate() ? bytes / window_s : 0; }
  // Why there is no rate, for the output ("rate_note" beside a null rate_MiBps, a note under the table's "n/a");
  // "" with a rate or without operations.
  std::string no_rate_reason(bool write) const;
};

struct IoPhaseComparison {
  std::string name;
  int iteration = 0;
  double simulated_phase_s = 0;  // barrier to barrier
  IoKindStats recorded[2];       // [0] write, [1] read
  IoKindStats simulated[2];
};

// Reads each phase's per-kind record: op_count, op_first_start_s / op_last_end_s (the window), and latencies_by_op,
// or histogram_by_op when RunRecords::latency_histograms (pfsim replay --no-samples). No per-operation samples.
std::vector<IoPhaseComparison> io_compare(const IoReplayWorkload& w, const RunRecords& records);
// One line per phase and direction with operations: phase, iteration, op, recorded and simulated operations, MiB,
// MiB/s, the rate's relative error, and latency p50 / p99 / max, recorded and simulated.
// The "error" column (and the JSON's rate_error) compares rates only at the recorded rank count (same_ranks): at
// another count the two rates are of different runs, printed side by side with "-" (null) as the error.
std::string io_compare_text(const std::vector<IoPhaseComparison>& c, bool same_ranks);
// One "pfsim: note:" line per rate the table prints as "n/a", saying why (IoKindStats::no_rate_reason), for stderr
// (the table's rows stay what scripts parse).
std::string io_no_rate_notes(const std::vector<IoPhaseComparison>& c);
nlohmann::json io_compare_json(const std::vector<IoPhaseComparison>& c, int recorded_ranks, int ranks);

}  // namespace pfsim
