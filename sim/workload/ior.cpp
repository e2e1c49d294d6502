#include "workload/ior.hpp"

#include <cstdio>
#include <stdexcept>

namespace pfsim {

IorWorkload::IorWorkload(IorOptions o) : o_(std::move(o))
{
  if (o_.ranks < 1)
    throw std::invalid_argument("ior: expected at least one rank");
  if (o_.transfer_B == 0)
    throw std::invalid_argument("option -t: expected a transfer size of at least 1 byte");
  if (o_.transfer_B % 8 != 0)  // IOR moves 8-byte words (IOR_size_t)
    throw std::invalid_argument("option -t: expected a multiple of 8 bytes, got " + std::to_string(o_.transfer_B) +
                                " (IOR: \"transfer size must be a multiple of access size\")");
  if (o_.block_B == 0 || o_.block_B % o_.transfer_B != 0)
    throw std::invalid_argument("option -b: expected a positive multiple of the transfer size -t (" +
                                std::to_string(o_.transfer_B) + " bytes), got " + std::to_string(o_.block_B) +
                                " bytes (IOR: \"block size must be a multiple of transfer size\")");
  if (o_.segments == 0)
    throw std::invalid_argument("option -s: expected at least one segment");
  if (!o_.write && !o_.read)
    throw std::invalid_argument("ior: neither -w nor -r: nothing to do");
  // The offsets must fit 64 bits (and the model's 1e15-byte files): the shared file is segments x ranks x block.
  const double file_B = static_cast<double>(o_.segments) * static_cast<double>(o_.block_B) *
                        (o_.file_per_proc ? 1.0 : static_cast<double>(o_.ranks));
  if (file_B > 1e15) {
    char b[64];
    std::snprintf(b, sizeof b, "%.4g", file_B);
    throw std::invalid_argument("ior: a file of " + std::string(b) + " bytes (-s x -b" +
                                std::string(o_.file_per_proc ? "" : " x ranks, one shared file") +
                                "): expected at most 1e15 bytes, the model's largest file");
  }
  // A phase's transfer count must fit the 64-bit counters (-F -t 1 -b 1e15 at 10^7 ranks would not).
  if (static_cast<long double>(transfers_per_rank()) * o_.ranks > 9e18L)
    throw std::invalid_argument("ior: " + std::to_string(transfers_per_rank()) + " transfers per rank x " +
                                std::to_string(o_.ranks) + " ranks: more than a 64-bit count holds");
  for (int rep = 0; rep < o_.repetitions; ++rep) {
    if (o_.write)
      phases_.push_back({true, rep});
    if (o_.read)
      phases_.push_back({false, rep});
  }
}

uint64_t IorWorkload::phase_items(int /*phase*/) const
{
  return transfers_per_rank() * static_cast<uint64_t>(o_.ranks);
}

// Steps of a rank in a phase: 0 the open (a create when writing: rank 0's of the shared file, every rank's of its
// own file), 1..N the transfers, N + 1 the close (with -e, an fsync first: the step waits for the rank's cached data).
bool IorWorkload::next(int rank, int phase, RankCursor& c, OpRequest& out) const
{
  const Phase& ph = phases_.at(phase);
  const uint64_t n = transfers_per_rank();
  const uint64_t step = c.item;
  if (step > n + 1)
    return false;
  c.item++;
  out = OpRequest{};
  out.dir = 0;  // IOR's test files are in one directory
  out.shared_dir = o_.ranks > 1;
  // -C: the read phase reads another rank's data (IOR's reorderTasks), written in this run by the write phase
  const int src = ph.write ? rank : (rank + o_.read_shift) % o_.ranks;
  out.object = o_.file_per_proc ? static_cast<uint64_t>(src) : 0;
  if (step == 0) {
    out.think_s = phase_delay_s(phase);
    out.op = ph.write && (o_.file_per_proc || rank == 0) ? Op::Create : Op::Open;
    // IOR removes the file after each repetition unless -k: the next repetition's write starts without its pages
    // (each node drops what it still holds of it; the last repetition's file stays, its pages written at the end)
    out.drop_held = ph.write && ph.repetition > 0 && !o_.keep_file;
    return true;
  }
  if (step == n + 1) {
    out.op = Op::Close;
    out.flush = ph.write && o_.fsync;
    return true;
  }
  const uint64_t k = step - 1;  // transfer k of the rank
  const uint64_t per_block = o_.block_B / o_.transfer_B;
  const uint64_t segment = k / per_block;
  const uint64_t in_block = (k % per_block) * o_.transfer_B;
  out.op = ph.write ? Op::Write : Op::Read;
  out.bytes = static_cast<double>(o_.transfer_B);
  out.offset = o_.file_per_proc
                   ? segment * o_.block_B + in_block
                   : (segment * static_cast<uint64_t>(o_.ranks) + static_cast<uint64_t>(src)) * o_.block_B + in_block;
  out.object_end = o_.block_B * o_.segments * (o_.file_per_proc ? 1 : static_cast<uint64_t>(o_.ranks));
  out.metadata = false;
  if (!ph.write && o_.write) {  // each repetition writes (the phase before) before it reads
    out.written_by = src;
    out.written_phase = phase - 1;
  }
  return true;
}

PerOp<bool> IorWorkload::kinds_used() const
{
  PerOp<bool> used{};
  used[Op::Open] = o_.read || !o_.file_per_proc;
  used[Op::Create] = o_.write;
  used[Op::Close] = true;
  used[Op::Write] = o_.write;
  used[Op::Read] = o_.read;
  return used;
}

nlohmann::json IorWorkload::describe() const
{
  return {{"generator", "ior"},
          {"ranks", o_.ranks},
          {"transfer_size", o_.transfer_B},
          {"block_size", o_.block_B},
          {"segments", o_.segments},
          {"file_per_proc", o_.file_per_proc},
          {"write", o_.write},
          {"read", o_.read},
          {"fsync", o_.fsync},
          {"repetitions", o_.repetitions},
          {"delay_before_each_phase_s", o_.delay_s},
          {"params", o_.params}};
}

}  // namespace pfsim
