#include "workload/io_replay.hpp"

#include "config/units.hpp"
#include "model/hash.hpp"

#include <algorithm>
#include <cmath>

#include <stdexcept>

namespace pfsim {

using iotrace::IoOp;

IoReplayWorkload::IoReplayWorkload(std::shared_ptr<const iotrace::IoTrace> trace, int ranks)
    : trace_(std::move(trace))
{
  if (!trace_ || trace_->ranks < 1 || trace_->streams.size() != static_cast<size_t>(trace_->ranks))
    throw std::invalid_argument("replay: the trace holds no ranks");
  if (ranks < 0)
    throw std::invalid_argument("replay: expected at least one rank");
  ranks_ = ranks > 0 ? ranks : trace_->ranks;
  if (ranks_ > trace_->kept_ranks && trace_->kept_ranks < trace_->ranks)
    throw std::invalid_argument("replay: the trace keeps the steps of " + std::to_string(trace_->kept_ranks) +
                                " of its " + std::to_string(trace_->ranks) + " recorded ranks (imported for a replay at " +
                                std::to_string(trace_->kept_ranks) + "), not " + std::to_string(ranks_));
  // The shared IOR file laid out again for M ranks must fit the model's largest file.
  if (trace_->ior && !trace_->ior->file_per_proc &&
      static_cast<double>(trace_->ior->segments) * static_cast<double>(trace_->ior->block_B) * ranks_ > units::kMaxSizeB)
    throw std::invalid_argument("replay: the shared IOR file at " + std::to_string(ranks_) +
                                " ranks would exceed 1e15 bytes, the model's largest file");
  // A shared DXT file's copy c is laid out c extents further: the last copy must fit too.
  if (!trace_->ior) {
    const double copies = std::ceil(static_cast<double>(ranks_) / trace_->ranks);
    for (const auto& f : trace_->files)
      if (f.shared && static_cast<double>(f.extent_B) * copies > units::kMaxSizeB)
        throw std::invalid_argument("replay: " + std::to_string(static_cast<long long>(copies)) + " copies of the shared "
                                    "file " + f.name + " (" + std::to_string(f.extent_B) + " bytes each) would exceed "
                                    "1e15 bytes, the model's largest file");
  }
}

uint64_t IoReplayWorkload::creation_order(uint64_t object) const
{
  if (!order_built_) {
    order_built_ = true;
    const auto copies = static_cast<uint64_t>((ranks_ + trace_->ranks - 1) / trace_->ranks);
    const uint64_t files = trace_->files.size();
    // At most 2^20 files in the creation order (about 50 MB); beyond, a file's order is its id, a hash: placement
    // round_robin then spreads them at random, as "object" does.
    if (copies * files <= (uint64_t{1} << 20))
      for (uint64_t c = 0; c < copies; ++c)
        for (uint64_t f = 0; f < files; ++f)
          if (c == 0 || !trace_->files[f].shared)
            order_.emplace(object_of(trace_->files[f], c), c * files + f);
  }
  auto it = order_.find(object);
  return it == order_.end() ? object : it->second;
}

uint64_t IoReplayWorkload::object_of(const iotrace::IoFile& file, uint64_t copy)
{
  return file.shared || copy == 0 ? file.id : splitmix64(file.id ^ (copy * kGolden64));
}

// The phase's reads or writes at the replayed rank count: each recorded rank's, times its copies.
std::pair<uint64_t, double> IoReplayWorkload::phase_totals(int phase, bool write) const
{
  const IoOp want = write ? IoOp::Write : IoOp::Read;
  uint64_t ops = 0;
  double bytes = 0;
  for (int r = 0; r < trace_->ranks; ++r) {
    if (copies(r) == 0)  // not replayed (the trace may not keep its steps)
      continue;
    const auto& s = trace_->streams[static_cast<size_t>(r)];
    uint64_t k = 0;
    double b = 0;
    for (uint64_t i = s.begin(phase); i < s.end(phase); ++i)
      if (const auto st = trace_->step(r, phase, i); st.op == want) {
        ++k;
        b += static_cast<double>(st.length);
      }
    ops += k * copies(r);
    bytes += b * static_cast<double>(copies(r));
  }
  return {ops, bytes};
}

uint64_t IoReplayWorkload::phase_ops(int phase, bool write) const { return phase_totals(phase, write).first; }

double IoReplayWorkload::phase_bytes(int phase, bool write) const { return phase_totals(phase, write).second; }

uint64_t IoReplayWorkload::phase_items(int phase) const { return phase_ops(phase, true) + phase_ops(phase, false); }

double IoReplayWorkload::data_bytes() const
{
  double b = 0;
  for (int p = 0; p < phase_count(); ++p)
    b += phase_bytes(p, true) + phase_bytes(p, false);
  return b;
}

bool IoReplayWorkload::next(int rank, int phase, RankCursor& c, OpRequest& out) const
{
  const auto& s = stream(rank);
  const uint64_t i = s.begin(phase) + c.item;
  if (i >= s.end(phase))
    return false;
  const auto st = trace_->step(rank % trace_->ranks, phase, i);
  const auto& file = trace_->files[st.file];
  const uint64_t copy = static_cast<uint64_t>(rank / trace_->ranks);
  out = OpRequest{};
  out.dir = 0;
  out.shared_dir = ranks_ > 1;
  out.think_s = st.think_s;
  out.object = object_of(file, copy);
  switch (st.op) {
    case IoOp::Open:
      out.op = Op::Open;
      break;
    case IoOp::Create:
      out.op = !file.shared || copy == 0 ? Op::Create : Op::Open;
      break;
    case IoOp::Close:
      out.op = Op::Close;
      break;
    case IoOp::Write:
    case IoOp::Read: {
      out.op = st.op == IoOp::Write ? Op::Write : Op::Read;
      out.bytes = static_cast<double>(st.length);
      // RankCursor::aux counts the rank's reads: IoRankStream::writer's index (a DXT trace has fewer than 2^32 rows)
      if (st.op == IoOp::Read) {
        if (!s.writer.empty()) {
          const int32_t w = s.writer[c.aux];
          const int64_t replayed = static_cast<int64_t>(copy) * trace_->ranks + w;
          out.written_by = w >= 0 && replayed < ranks_ ? static_cast<int32_t>(replayed) : -1;
        }
        ++c.aux;
      }
      out.metadata = false;
      out.offset = st.offset;
      // The file's size, where read-ahead stops (clients.readahead_mb): the recorded extent, times the copies that
      // share it.
      out.object_end = file.extent_B;
      if (file.shared && trace_->ior) {  // IOR's shared-file layout at M ranks (transfer k = the step after the open)
        const auto& l = *trace_->ior;
        const uint64_t k = c.item - 1, per_block = l.block_B / l.transfer_B;
        out.offset = ((k / per_block) * static_cast<uint64_t>(ranks_) + static_cast<uint64_t>(rank)) * l.block_B +
                     (k % per_block) * l.transfer_B;
        out.object_end = std::max<uint64_t>(1, l.segments) * static_cast<uint64_t>(ranks_) * l.block_B;
      } else if (file.shared) {
        out.offset = st.offset + copy * file.extent_B;
        const uint64_t copies = (static_cast<uint64_t>(ranks_) + trace_->ranks - 1) / trace_->ranks;
        out.object_end = copies * file.extent_B;
      }
      break;
    }
  }
  ++c.item;
  return true;
}

PerOp<bool> IoReplayWorkload::kinds_used() const
{
  PerOp<bool> used{};
  for (int r = 0; r < std::min(ranks_, trace_->ranks); ++r) {
    const auto& s = trace_->streams[static_cast<size_t>(r)];
    for (int p = 0; p < phase_count(); ++p)
      for (uint64_t i = s.begin(p); i < s.end(p); ++i)
        switch (trace_->step(r, p, i).op) {
          case IoOp::Open: used[Op::Open] = true; break;
          case IoOp::Create: used[Op::Create] = true; used[Op::Open] = used[Op::Open] || ranks_ > trace_->ranks; break;
          case IoOp::Close: used[Op::Close] = true; break;
          case IoOp::Write: used[Op::Write] = true; break;
          case IoOp::Read: used[Op::Read] = true; break;
        }
  }
  return used;
}

nlohmann::json IoReplayWorkload::describe() const
{
  return {{"generator", "replay"},
          {"trace", trace_->describe()},
          {"ranks", ranks_},
          {"rules",
           "rank m replays recorded rank m mod N with its think times; a file one recorded rank used is each copy's own "
           "object, a file several used stays one shared object (" +
               std::string(trace_->ior ? "laid out again for M ranks as IOR does"
                                       : "copy c at the recorded offset + c x the file's extent") +
               "); opens before a rank's first operation on a file and closes after its last are inserted (not "
               "recorded); every file in one directory; " +
               (trace_->format == "darshan-dxt" ? "one phase, no barrier (DXT records none)"
                                                : "one phase per IOR repetition, a barrier between them")}};
}

}  // namespace pfsim
