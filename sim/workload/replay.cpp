#include "workload/replay.hpp"

#include <algorithm>
#include <climits>
#include <array>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace pfsim {

using trace::PhaseKind;
using trace::TraceOp;

trace::Trace mdworkbench_trace(const MdWorkbenchParams& p)
{
  if (p.ranks < 1 || p.obj_per_proc < 0 || p.precreate_per_set < 0 || p.data_sets < 1 || p.iterations < 0 ||
      p.object_size_B < 0)
    throw std::invalid_argument("md-workbench parameters: expected ranks >= 1, -D >= 1 and non-negative -I -P -R -S");
  if (p.obj_per_proc > p.precreate_per_set)
    throw std::invalid_argument("md-workbench parameters: -I (" + std::to_string(p.obj_per_proc) +
                                ") must not exceed -P (" + std::to_string(p.precreate_per_set) + ")");
  trace::Trace t;
  t.format = "md-workbench-generated";
  t.ranks = 1;
  t.params = {p.obj_per_proc, p.precreate_per_set, p.data_sets, p.iterations, p.offset, p.object_size_B};
  t.streams.resize(1);
  auto& s = t.streams[0];
  // One rank's stream as a pattern per phase (RankStream::pattern): constant memory at any -I, -P, -D, -R.
  auto u8 = [](TraceOp op) { return static_cast<unsigned char>(op); };
  const uint64_t D = static_cast<uint64_t>(p.data_sets);
  const uint64_t pre = static_cast<uint64_t>(p.precreate_per_set) * D;
  const uint64_t bench = static_cast<uint64_t>(p.obj_per_proc) * D * 4;
  // The phases chosen (md-workbench -1 -2 -3; all by default), each with its operations per rank.
  s.phase_begin.push_back(0);
  auto add = [&](const char* name, PhaseKind kind, int iteration, uint64_t ops, std::vector<unsigned char> pattern) {
    t.phases.push_back({name, kind, iteration});
    s.pattern.push_back(std::move(pattern));
    s.phase_begin.push_back(s.phase_begin.back() + ops);
  };
  if (p.run_precreate)
    add("precreate", PhaseKind::Precreate, 0, pre, {u8(TraceOp::Create)});
  if (p.run_benchmark)
    for (int it = 0; it < p.iterations; ++it)
      add("benchmark", PhaseKind::Benchmark, it, bench,
          {u8(TraceOp::Stat), u8(TraceOp::Read), u8(TraceOp::Delete), u8(TraceOp::Create)});
  if (p.run_cleanup)
    add("cleanup", PhaseKind::Cleanup, p.iterations, pre, {u8(TraceOp::Delete)});
  if (t.phases.empty())
    throw std::invalid_argument("md-workbench parameters: no phase to run (-2 with -R 0)");
  return t;
}

ReplayWorkload::ReplayWorkload(std::shared_ptr<const trace::Trace> trace, ReplayOptions options)
    : trace_(std::move(trace)), opt_(options)
{
  if (!trace_ || trace_->ranks < 1 || trace_->streams.size() != static_cast<size_t>(trace_->ranks))
    throw std::invalid_argument("replay: the trace holds no ranks");
  // By default the recorded run's rank count (more than the streams for md-workbench -L files: rank 0's only).
  ranks_ = opt_.ranks > 0 ? opt_.ranks : std::max(trace_->ranks, trace_->recorded_ranks);
  D_ = std::max(1, trace_->params.data_sets);
  const size_t P = trace_->phases.size();
  const int N = trace_->ranks;

  // A benchmark object is one operation of every recorded kind (stat, read, delete, create), and the objects go to
  // the D data sets in turn: a limit on the operations keeps whole objects in every data set (rounded down, at
  // least one per set), so that the phase line's objects and rates stay those of the tool and the run has a true
  // header (-P and -I per data set).
  // Every benchmark iteration keeps the same objects, sized by the iteration with the most kinds (an iteration
  // whose reads are missing, --allow-missing, replays those objects' three other operations), so the header's -I
  // holds for every iteration.
  // (The kinds per object also give a benchmark read's object index: per_object_, writer_of_read.)
  limit_.assign(P, opt_.max_ops_per_phase);
  per_object_.assign(P, 1);
  std::vector<uint64_t>& kinds = per_object_;
  uint64_t most_kinds = 1;
  for (size_t p = 0; p < P; ++p) {
    if (trace_->phases[p].kind != PhaseKind::Benchmark)
      continue;
    std::array<uint64_t, trace::kTraceOpCount> seen{};
    for (const auto& s : trace_->streams) {
      const int ph = static_cast<int>(p);
      const auto c = s.counts(ph, s.end(ph) - s.begin(ph));
      for (size_t k = 0; k < seen.size(); ++k)
        seen[k] += c[k];
    }
    kinds[p] = std::max<uint64_t>(1, static_cast<uint64_t>(seen.size() - std::count(seen.begin(), seen.end(), 0u)));
    most_kinds = std::max(most_kinds, kinds[p]);
  }
  for (size_t p = 0; p < P && opt_.max_ops_per_phase > 0; ++p) {
    const PhaseKind kind = trace_->phases[p].kind;
    if (kind == PhaseKind::Other)
      continue;
    const uint64_t D = static_cast<uint64_t>(D_);
    const uint64_t per_object = kind == PhaseKind::Benchmark ? most_kinds : 1;
    const uint64_t objects_per_set = std::max<uint64_t>(1, opt_.max_ops_per_phase / (D * per_object));
    limit_[p] = objects_per_set * D * kinds[p];
  }

  // Items per phase as the tool counts them: objects created (precreate), deleted (cleanup), or operations (mdtest
  // phases); a benchmark object is one of each kind, counted by its creates or, in md-workbench's --read-only mode
  // (stat and read only), by its reads. Rank m replays stream m mod N.
  items_.assign(P, 0);
  for (size_t p = 0; p < P; ++p) {
    PhaseKind kind = trace_->phases[p].kind;
    for (int r = 0; r < N; ++r) {
      const auto& s = trace_->streams[static_cast<size_t>(r)];
      const uint64_t m = ops_in(s, static_cast<int>(p));
      const auto c = s.counts(static_cast<int>(p), m);
      auto count = [&c](TraceOp op) { return c[static_cast<size_t>(op)]; };
      uint64_t n = kind == PhaseKind::Other     ? m
                   : kind == PhaseKind::Cleanup ? count(TraceOp::Delete)
                                                : count(TraceOp::Create);
      if (kind == PhaseKind::Benchmark)
        n = std::max(n, count(TraceOp::Read));
      uint64_t copies = static_cast<uint64_t>(ranks_ / N) + (r < ranks_ % N ? 1 : 0);
      items_[p] += n * copies;
    }
  }

  // Who wrote what a read reads (writer_of_read), per phase from rank 0's stream: whether its creates write data, its
  // objects per data set and rank, the last earlier precreate and mdtest phase that wrote data, and the benchmark
  // iterations that create, with their first object index (md-workbench's index: the precreate's objects first, then
  // each iteration that creates, not --read-only, advances it by its objects).
  objects_.assign(P, 0);
  first_object_.assign(P, 0);
  last_precreate_.assign(P, -1);
  last_other_.assign(P, -1);
  uint64_t next_object = 0;
  int precreate = -1, other = -1;
  for (size_t p = 0; p < P; ++p) {
    const int ph = static_cast<int>(p);
    const auto& s0 = trace_->streams[0];
    const PhaseKind kind = trace_->phases[p].kind;
    last_precreate_[p] = precreate;
    last_other_[p] = other;
    const bool writes_data = trace_->params.object_size_B > 0 &&
                             s0.counts(ph, ops_in(s0, ph))[static_cast<size_t>(TraceOp::Create)] > 0;
    objects_[p] = ops_in(s0, ph) / per_object_[p] / static_cast<uint64_t>(D_);
    if (kind == PhaseKind::Cleanup)  // it removes what the benchmark left: the last P objects of every set
      first_object_[p] = next_object;
    if (kind == PhaseKind::Benchmark) {
      first_object_[p] = next_object;
      if (writes_data) {
        creating_.emplace_back(next_object, ph);
        next_object += objects_[p];
      }
    }
    if (writes_data && kind == PhaseKind::Precreate)
      precreate = ph;
    if (writes_data && kind == PhaseKind::Other)
      other = ph;
  }

  // Residual floors: quantile of the recorded latency per phase and kind.
  floor_.assign(P, {});
  if (opt_.residual_quantile >= 0) {
    std::vector<float> v;
    for (size_t p = 0; p < P; ++p)
      for (int k = 0; k < trace::kTraceOpCount; ++k) {
        v.clear();
        for (const auto& s : trace_->streams)
          for (uint64_t i = s.begin(static_cast<int>(p)); i < s.end(static_cast<int>(p)); ++i)
            if (s.op_at(static_cast<int>(p), i) == k)
              v.push_back(s.runtime_at(i));
        if (v.empty())
          continue;
        auto idx = static_cast<size_t>(opt_.residual_quantile * static_cast<double>(v.size() - 1));
        std::nth_element(v.begin(), v.begin() + static_cast<long>(idx), v.end());
        floor_[p][static_cast<size_t>(k)] = v[idx];
      }
    // Recorded population of every operation: the recorded ranks still in the phase when it started (a rank
    // leaves the phase at the end of its last operation). Rebuilt from think + runtime, which is what the
    // streams keep of the recorded clock.
    // Also the other ranks' metadata operations in flight at each operation's start (every rank's clock starts
    // at the phase start: the recorded tools start a phase after a barrier).
    active_.assign(static_cast<size_t>(N), {});
    md_in_flight_.assign(static_cast<size_t>(N), {});
    std::vector<double> ends(static_cast<size_t>(N));
    std::vector<double> md_starts, md_ends;
    for (size_t p = 0; p < P; ++p) {
      const int ph = static_cast<int>(p);
      md_starts.clear();
      md_ends.clear();
      for (int r = 0; r < N; ++r) {
        const auto& s = trace_->streams[static_cast<size_t>(r)];
        double t = 0;
        for (uint64_t i = s.begin(ph); i < s.end(ph); ++i) {
          t += static_cast<double>(s.think_at(i));
          if (static_cast<TraceOp>(s.op_at(ph, i)) != TraceOp::Read) {
            md_starts.push_back(t);
            md_ends.push_back(t + static_cast<double>(s.runtime_at(i)));
          }
          t += static_cast<double>(s.runtime_at(i));
        }
      }
      std::sort(md_starts.begin(), md_starts.end());
      std::sort(md_ends.begin(), md_ends.end());
      for (int r = 0; r < N; ++r) {
        const auto& s = trace_->streams[static_cast<size_t>(r)];
        double t = 0;
        for (uint64_t i = s.begin(ph); i < s.end(ph); ++i)
          t += static_cast<double>(s.think_at(i)) + static_cast<double>(s.runtime_at(i));
        ends[static_cast<size_t>(r)] = t;
      }
      std::vector<double> sorted = ends;
      std::sort(sorted.begin(), sorted.end());
      for (int r = 0; r < N; ++r) {
        const auto& s = trace_->streams[static_cast<size_t>(r)];
        auto& a = active_[static_cast<size_t>(r)];
        auto& m = md_in_flight_[static_cast<size_t>(r)];
        a.resize(s.size());
        m.resize(s.size());
        double t = 0;
        for (uint64_t i = s.begin(ph); i < s.end(ph); ++i) {
          t += static_cast<double>(s.think_at(i));
          auto later = sorted.end() - std::upper_bound(sorted.begin(), sorted.end(), t);
          a[i] = static_cast<uint16_t>(std::min<long>(65535, std::max<long>(1, later)));
          // Started at or before t and not yet ended at t, this operation itself excluded.
          long in_flight = (std::upper_bound(md_starts.begin(), md_starts.end(), t) - md_starts.begin()) -
                           (std::upper_bound(md_ends.begin(), md_ends.end(), t) - md_ends.begin());
          if (static_cast<TraceOp>(s.op_at(ph, i)) != TraceOp::Read && s.runtime_at(i) > 0)
            --in_flight;
          m[i] = static_cast<uint16_t>(std::min<long>(65535, std::max<long>(0, in_flight)));
          t += static_cast<double>(s.runtime_at(i));
        }
      }
    }
  }
}

std::string ReplayWorkload::phase_name(int phase) const
{
  return trace_->phases[static_cast<size_t>(phase)].name;
}

int ReplayWorkload::dataset_ops(int phase) const
{
  if (!opt_.dataset_ops)
    return 0;
  PhaseKind k = trace_->phases[static_cast<size_t>(phase)].kind;
  return (k == PhaseKind::Precreate || k == PhaseKind::Cleanup) ? D_ : 0;
}

uint64_t ReplayWorkload::compound_count(int rank, int phase) const
{
  const auto& s = stream(rank);
  return ops_in(s, phase) + static_cast<uint64_t>(dataset_ops(phase));
}

ReplayWorkload::Slot ReplayWorkload::slot(int phase, uint64_t n, uint64_t item) const
{
  Slot out;
  const auto kind = trace_->phases[static_cast<size_t>(phase)].kind;
  const uint64_t dsets = static_cast<uint64_t>(dataset_ops(phase));
  const uint64_t D = static_cast<uint64_t>(D_);
  if (dsets == 0) {
    out.k = item;
    out.set = static_cast<uint32_t>((kind == PhaseKind::Benchmark ? item / per_object_[static_cast<size_t>(phase)] : item) % D);
    if (kind == PhaseKind::Cleanup && n > 0 && n % D == 0)  // set after set, as with the rmdirs
      out.set = static_cast<uint32_t>(item / (n / D));
    // Left out (--no-dataset-ops), the mkdirs and rmdirs still took the recorded gaps they sat in: those gaps are
    // not think time either (the first precreate object; in the cleanup, the first object of every set after the
    // first, when the rows split into the sets).
    if (kind == PhaseKind::Precreate)
      out.after_dataset_op = item == 0;
    else if (kind == PhaseKind::Cleanup && n > 0 && n % D == 0)
      out.after_dataset_op = item > 0 && item % (n / D) == 0;
  } else if (kind == PhaseKind::Precreate) {  // md-workbench: every mkdir, then the objects, sets interleaved
    out.dataset = item < dsets;
    out.k = out.dataset ? 0 : item - dsets;
    out.set = static_cast<uint32_t>(out.dataset ? item : out.k % D);
    out.after_dataset_op = !out.dataset && out.k == 0;
  } else if (n > 0 && n % D == 0) {  // cleanup: set after set, each rmdir after its objects
    const uint64_t m = n / D;
    const uint64_t block = item / (m + 1), within = item % (m + 1);
    out.dataset = within == m;
    out.k = block * m + (out.dataset ? 0 : within);
    out.set = static_cast<uint32_t>(block);
    out.after_dataset_op = !out.dataset && block > 0 && within == 0;
  } else {  // rows that do not split into the sets: the rmdirs last
    out.dataset = item >= n;
    out.k = out.dataset ? 0 : item;
    out.set = static_cast<uint32_t>(out.dataset ? item - n : item % D);
  }
  return out;
}

int ReplayWorkload::compound_kind(int rank, int phase, uint64_t item) const
{
  const auto& s = stream(rank);
  const Slot sl = slot(phase, ops_in(s, phase), item);
  return sl.dataset ? kDatasetOp : s.op_at(phase, s.begin(phase) + sl.k);
}

int ReplayWorkload::compound_primitives(int kind) const
{
  if (kind == static_cast<int>(TraceOp::Read) || kind == static_cast<int>(TraceOp::Create))
    return trace_->params.object_size_B > 0 ? 3 : 2;  // with or without the data transfer
  return 1;
}

bool ReplayWorkload::next(int rank, int phase, RankCursor& c, OpRequest& out) const
{
  const auto& s = stream(rank);
  const auto& ph = trace_->phases[static_cast<size_t>(phase)];
  const uint64_t n = ops_in(s, phase);
  const uint64_t dsets = static_cast<uint64_t>(dataset_ops(phase));
  if (c.item >= n + dsets)
    return false;
  const uint32_t root_dir = static_cast<uint32_t>(ranks_) * static_cast<uint32_t>(D_);
  out.bytes = 0;
  out.written_by = -1;
  out.written_phase = -1;
  // Objects are not named in a trace: an identity per rank, phase and position (data-set directories), the files
  // named below as the tools name them.
  out.object = (static_cast<uint64_t>(phase) << 48) ^ (static_cast<uint64_t>(rank) << 24) ^ c.item;
  out.think_s = 0;
  out.begins = true;
  out.metadata = true;
  const Slot sl = slot(phase, n, c.item);
  if (sl.dataset) {  // data-set directory in the shared root directory
    out.op = ph.kind == PhaseKind::Precreate ? Op::Mkdir : Op::Rmdir;
    out.dir = root_dir;
    out.shared_dir = ranks_ > 1;  // a directory locks only when several ranks update it
    ++c.item;
    return true;
  }
  const uint64_t k = sl.k;
  const uint64_t i = s.begin(phase) + k;
  const auto kind = static_cast<TraceOp>(s.op_at(phase, i));
  // Directory of this object. Precreate and cleanup: the rank's own data set. Benchmark, as md-workbench's
  // run_benchmark: object f of data set d is looked up, read and deleted in rank r - K(d+1)'s set d and created in
  // rank r + K(d+1)'s (K = --offset): set d of rank o is updated by ranks o + s (deletes) and o - s (creates),
  // s = K(d+1) mod M, two ranks unless 2s is a multiple of M (2 ranks, offset 1: one rank does both).
  // mdtest -N S: the File stat, read and removal phases work on rank r + S's, r + 2S's and r + 3S's files.
  int owner = rank;
  int64_t shift = 0;
  out.shared_dir = false;
  if (ph.kind == PhaseKind::Benchmark) {
    shift = static_cast<int64_t>(trace_->params.offset) * (static_cast<int64_t>(sl.set) + 1) % ranks_;
    const int64_t o = kind == TraceOp::Create ? rank + shift : rank - shift;
    owner = wrap(o);
    out.shared_dir = (2 * shift) % ranks_ != 0;
  } else if (const int64_t stride = opt_.mdtest_stride >= 0 ? opt_.mdtest_stride : trace_->mdtest_stride;
             ph.kind == PhaseKind::Other && stride > 0) {
    const int64_t times = kind == TraceOp::Stat ? 1 : kind == TraceOp::Read ? 2 : kind == TraceOp::Delete ? 3 : 0;
    owner = wrap(rank + times * (stride % ranks_));
  }
  out.dir = static_cast<uint32_t>(owner) * static_cast<uint32_t>(D_) + sl.set;
  // mdtest: item k of every File phase is the owner's file k (mdtest's file.mdtest.<owner>.<k>), the same object in
  // its creation, stat, read and removal, as pfsim mdtest names it; a replayed create and its read then meet on one
  // OST, a read of pages its node holds dirty is served from them, an unlink drops them.
  if (ph.kind == PhaseKind::Other)
    out.object = (uint64_t{1} << 63) | (static_cast<uint64_t>(owner) << 32) | (sl.k & 0xffffffffULL);
  // md-workbench: object f of a data set, as its index runs (writer_of_read): the precreate makes 0..P-1 of every set;
  // benchmark iteration i reads, stats and deletes f = first_object + j of the owner's set and creates P + f in the set
  // of rank + K(d+1); the cleanup removes the P left, first_object onwards. One object from creation to removal, so a
  // read meets its OST and a read or an unlink finds the writer node's held pages.
  if (ph.kind != PhaseKind::Other) {
    const auto at = static_cast<size_t>(phase);
    const auto D = static_cast<uint64_t>(D_);
    uint64_t f = 0;
    if (ph.kind == PhaseKind::Precreate) {
      f = k / D;
    } else if (ph.kind == PhaseKind::Benchmark) {
      f = first_object_[at] + k / per_object_[at] / D;
      if (kind == TraceOp::Create) {
        const int pre = last_precreate_[at];
        f += pre >= 0 ? objects_[static_cast<size_t>(pre)]
                      : static_cast<uint64_t>(std::max(0, trace_->params.precreate_per_set));
      }
    } else {  // cleanup: set after set when the rows split into the sets, else interleaved
      f = first_object_[at] + (n > 0 && n % D == 0 ? k % (n / D) : k / D);
    }
    out.object = (uint64_t{1} << 62) ^ (static_cast<uint64_t>(out.dir) * 0x9E3779B97F4A7C15ULL) ^ f;
  }
  if (trace_->shared_dir && ph.kind == PhaseKind::Other) {  // mdtest without -u: every rank in one directory
    out.dir = root_dir;
    out.shared_dir = ranks_ > 1;
  }
  const double size = trace_->params.object_size_B;
  // Objects of 0 bytes (mdtest -w 0 / -e 0) move no data: create + close, open + close.
  static constexpr Op kRead[3] = {Op::Open, Op::Read, Op::Close};
  static constexpr Op kCreate[3] = {Op::Create, Op::Write, Op::Close};
  static constexpr Op kRead0[2] = {Op::Open, Op::Close};
  static constexpr Op kCreate0[2] = {Op::Create, Op::Close};
  int steps = 1;
  switch (kind) {
    case TraceOp::Stat:
      out.op = Op::Stat;
      break;
    case TraceOp::Delete:
      out.op = Op::Unlink;
      break;
    case TraceOp::Read:
      steps = compound_primitives(static_cast<int>(kind));
      out.op = steps == 3 ? kRead[c.step] : kRead0[c.step];
      out.bytes = steps == 3 && c.step == 1 ? size : 0;
      if (out.bytes > 0)
        std::tie(out.written_by, out.written_phase) = writer_of_read(phase, k, owner, shift);
      break;
    case TraceOp::Create:
      steps = compound_primitives(static_cast<int>(kind));
      out.op = steps == 3 ? kCreate[c.step] : kCreate0[c.step];
      out.bytes = steps == 3 && c.step == 1 ? size : 0;
      break;
  }
  out.excess_s = -1;  // (and its recorded populations: set below on the step that carries the excess)
  out.recorded_active = 0;
  out.recorded_md_in_flight = 0;
  out.begins = c.step == 0;
  out.metadata = kind != TraceOp::Read;
  if (c.step == 0) {
    // The recorded gap before the first operation after data-set mkdirs/rmdirs held them; they are simulated (or
    // left out). Where the recording's own set boundaries lie matters too when --max-ops-per-phase cut the rows:
    // the cleanup's recorded rmdir gaps sit at multiples of the recorded rows per set, not of the replayed ones.
    const uint64_t recorded = s.end(phase) - s.begin(phase);
    const uint64_t D = static_cast<uint64_t>(D_);
    const bool recorded_rmdir_gap = ph.kind == PhaseKind::Cleanup && D > 1 && recorded % D == 0 && k > 0 &&
                                    k % (recorded / D) == 0;
    out.think_s = sl.after_dataset_op || recorded_rmdir_gap ? 0.f : s.think_at(i);
  }
  // The recorded excess is replayed inside the step that stands for the unmodelled part: a read's on its OST read
  // (its excess is the OST's: random small reads on busy disks; clients.load_delay's "read" law scales it), any other
  // operation's on its first step.
  const uint32_t excess_step = kind == TraceOp::Read && steps == 3 ? 1 : 0;
  if (c.step == excess_step && opt_.residual_quantile >= 0) {
    out.excess_s = std::max(0.f, s.runtime_at(i) - floor_[static_cast<size_t>(phase)][s.op_at(phase, i)]);
    out.recorded_active = active_[static_cast<size_t>(rank % trace_->ranks)][i];
    out.recorded_md_in_flight = md_in_flight_[static_cast<size_t>(rank % trace_->ranks)][i];
  }
  if (++c.step == static_cast<uint32_t>(steps)) {
    c.step = 0;
    ++c.item;
  }
  return true;
}

// The rank that wrote the object a read reads and the phase it wrote it in, if this run wrote it (rank -1
// otherwise): its node's page cache may serve the read (clients.max_cached_mb). md-workbench's benchmark reads object
// f = start + j of rank o = r - K(d+1)'s set d (start: the iteration's first object index, j: the rank's j-th object of
// the set in it); f < P was made by o in the precreate, a later one by o - K(d+1) in the iteration whose creates made
// object f - P (md-workbench creates object f + P in rank r + K(d+1)'s set as it deletes f). mdtest's File read reads
// the files its rank (with -N, rank r + 2N) made in the last File creation before it.
std::pair<int32_t, int32_t> ReplayWorkload::writer_of_read(int phase, uint64_t k, int owner, int64_t shift) const
{
  const auto at = static_cast<size_t>(phase);
  const PhaseKind kind = trace_->phases[at].kind;
  constexpr std::pair<int32_t, int32_t> kNone{-1, -1};
  if (kind == PhaseKind::Other)
    return last_other_[at] < 0 ? kNone : std::pair<int32_t, int32_t>{owner, last_other_[at]};
  if (kind != PhaseKind::Benchmark)
    return kNone;
  const uint64_t f = first_object_[at] + k / per_object_[at] / static_cast<uint64_t>(D_);
  const int pre = last_precreate_[at];
  // The precreate's objects per set: this run's, or the recorded -P when the run has no precreate
  const uint64_t P = pre >= 0 ? objects_[static_cast<size_t>(pre)]
                              : static_cast<uint64_t>(std::max(0, trace_->params.precreate_per_set));
  if (f < P)
    return pre < 0 ? kNone : std::pair<int32_t, int32_t>{owner, pre};
  // The iteration whose creates made object f - P: the last creating one that starts at or before it.
  const uint64_t made = f - P;
  auto it = std::upper_bound(creating_.begin(), creating_.end(), std::pair<uint64_t, int>{made, INT32_MAX});
  if (it == creating_.begin())
    return kNone;
  --it;
  const auto q = static_cast<size_t>(it->second);
  if (it->second > phase || made >= first_object_[q] + objects_[q])
    return kNone;
  return {static_cast<int32_t>(wrap(owner - shift)), it->second};
}

PerOp<bool> ReplayWorkload::kinds_used() const
{
  // The RPC steps next() makes of each recorded kind rank 0 replays, without walking its operations.
  PerOp<bool> used{};
  const auto& s = stream(0);
  for (int p = 0; p < phase_count(); ++p) {
    if (dataset_ops(p) > 0)
      used[trace_->phases[static_cast<size_t>(p)].kind == PhaseKind::Precreate ? Op::Mkdir : Op::Rmdir] = true;
    const auto c = s.counts(p, ops_in(s, p));
    auto has = [&c](TraceOp k) { return c[static_cast<size_t>(k)] > 0; };
    const bool data = compound_primitives(static_cast<int>(TraceOp::Read)) == 3;
    if (has(TraceOp::Stat))
      used[Op::Stat] = true;
    if (has(TraceOp::Delete))
      used[Op::Unlink] = true;
    if (has(TraceOp::Read)) {
      used[Op::Open] = used[Op::Close] = true;
      used[Op::Read] = used[Op::Read] || data;
    }
    if (has(TraceOp::Create)) {
      used[Op::Create] = used[Op::Close] = true;
      used[Op::Write] = used[Op::Write] || data;
    }
  }
  return used;
}

std::array<uint64_t, trace::kTraceOpCount> ReplayWorkload::kind_counts(int rank, int phase) const
{
  const auto& s = stream(rank);
  return s.counts(phase, ops_in(s, phase));
}

nlohmann::json ReplayWorkload::describe() const
{
  nlohmann::json floors = nlohmann::json::array();
  for (size_t p = 0; p < floor_.size(); ++p) {
    nlohmann::json f = nlohmann::json::object();
    for (int k = 0; k < trace::kTraceOpCount; ++k)
      if (floor_[p][static_cast<size_t>(k)] > 0)
        f[trace::trace_op_name(static_cast<TraceOp>(k))] = floor_[p][static_cast<size_t>(k)];
    floors.push_back(f);
  }
  static const std::string layout =
      "own data-set directories; benchmark object of set d: stat, read, delete in rank m-offset*(d+1)'s set d, create "
      "in rank m+offset*(d+1)'s; data-set mkdirs before the precreate, each rmdir after its set in the cleanup, in the "
      "shared root directory";
  if (trace_->format == "md-workbench-generated")  // pfsim mdworkbench: no recording, nothing replayed
    return {{"generator", "mdworkbench"},
            {"ranks", ranks_},
            {"rules", "every rank runs md-workbench's phases closed-loop, no think time; " + layout},
            {"dataset_ops", opt_.dataset_ops},
            {"max_ops_per_phase", opt_.max_ops_per_phase}};
  // mdtest's File phases have no data sets: each rank's files in its own directory (-u) or all in one.
  const std::string rules =
      trace_->format == "mdtest-perop"
          ? std::string("rank m replays recorded rank m mod N with its think times; mdtest File phases: ") +
                (trace_->shared_dir ? "every rank's files in one shared directory (it locks)"
                                    : "each rank's files in its own directory (-u)")
          : "rank m replays recorded rank m mod N with its think times; " + layout +
                " (the recorded gap that held them is not replayed as think time)";
  return {{"generator", "replay"},
          {"trace", trace_->describe()},
          {"ranks", ranks_},
          {"rules", rules},
          {"residual_quantile", opt_.residual_quantile},
          {"residual_floors_s", floors},
          {"dataset_ops", opt_.dataset_ops},
          {"max_ops_per_phase", opt_.max_ops_per_phase}};
}

}  // namespace pfsim
