#include "workload/ior.hpp"

#include "model/hash.hpp"

#include <cstdio>
#include <map>
#include <stdexcept>

namespace pfsim {

uint64_t random_permutation(uint64_t i, uint64_t n, uint64_t key)
{
  if (n <= 1)
    return 0;
  int bits = 64 - __builtin_clzll(n - 1);  // the bits that hold n - 1, made even (two halves of equal width)
  bits += bits % 2;
  const int half = bits / 2;
  const uint64_t mask = half == 64 ? ~0ULL : (1ULL << half) - 1;
  uint64_t x = i;
  do {  // a bijection of [0, 2^bits), applied again until it lands in [0, n) (at most 4 tries on average)
    uint64_t l = x >> half, r = x & mask;
    for (uint64_t round = 0; round < 4; ++round) {
      const uint64_t f = splitmix64_mix(r ^ splitmix64(key + round)) & mask;
      const uint64_t nl = r;
      r = l ^ f;
      l = nl;
    }
    x = (l << half) | r;
  } while (x >= n);
  return x;
}

const std::map<std::string, const char*>& ior_not_modelled_options()
{
  static const std::map<std::string, const char*> m{
      {"-c", "collective I/O, an MPI-IO mode (-a MPIIO): pfsim models independent POSIX I/O"},
      {"-V", "MPI_File_set_view, MPI-IO's file view (-a MPIIO): pfsim models POSIX I/O"},
      {"-J", "HDF5's dataset alignment (-a HDF5): pfsim models POSIX I/O"},
      {"-T", "maxTimeDuration: IOR skips the phases that would start after N minutes, which pfsim does not model (it "
             "runs every repetition: give fewer with -i)"},
      {"-Z", "random task reordering for the read (reorderTasksRandom): pfsim models -C's constant shift"},
      {"-X", "the seed of -Z's random task reordering, which pfsim does not model"},
      {"-E", "useExistingTestFile: pfsim models the write of a file IOR has just removed"},
      {"-m", "multiFile: a file per repetition"},
      {"-B", "O_DIRECT: the page cache bypassed, which the client model does not do"},
      {"-M", "memoryPerNode: memory hogged on the node (its page cache), which pfsim does not model"},
      {"-N", "numTasks: a test on fewer tasks than the job (give --ranks)"},
      {"-f", "an IOR script of several tests: run each test's options"},
      {"-P", "a shared file pointer"},
      {"-S", "a strided MPI datatype"},
      {"-p", "preallocation (MPI-IO)"},
      {"-I", "individual HDF5 data sets"},
      {"-y", "dual mount points"},
  };
  return m;
}

const char* ior_not_modelled(const std::string& option)
{
  const auto& m = ior_not_modelled_options();
  auto it = m.find(option);
  return it == m.end() ? nullptr : it->second;
}

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
  if (!o_.write && !o_.read && !o_.check_write)
    throw std::invalid_argument("ior: neither -w nor -r: nothing to do");
  // IOR 4.1's ValidateTests
  if (o_.random_offset == 1 && o_.block_B == o_.transfer_B)
    throw std::invalid_argument("option -z: expected a block size -b larger than the transfer size -t (" +
                                std::to_string(o_.transfer_B) + " bytes; IOR: \"IOR will randomize access within a "
                                "block and repeats the same pattern for all segments, therefore choose blocksize > "
                                "transferSize\"; -z -z draws whole blocks)");
  if (o_.random_offset > 1 && (o_.write || o_.check_write))
    throw std::invalid_argument("option -z -z: expected a read-only run (-r without -w or -W): IOR 4.1 draws the "
                                "blocks of -z -z from the size of the file it reads, which a write does not have");
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
    // -u: IOR makes each rank's directory when it first names its file (before its first write), untimed
    if (rep == 0 && own_dirs() && o_.write)
      phases_.push_back({Kind::Mkdir, rep, -1});
    const int write = o_.write ? static_cast<int>(phases_.size()) : -1;
    if (o_.write)
      phases_.push_back({Kind::Write, rep, -1});
    if (o_.check_write)
      phases_.push_back({Kind::Check, rep, write});
    if (o_.read)
      phases_.push_back({Kind::Read, rep, write});
  }
}

std::string IorWorkload::phase_name(int phase) const
{
  switch (phases_.at(phase).kind) {
    case Kind::Mkdir:
      return "mkdir";
    case Kind::Write:
      return "write";
    case Kind::Check:
      return "write-check";
    case Kind::Read:
      break;
  }
  return "read";
}

uint64_t IorWorkload::phase_items(int phase) const
{
  if (phases_.at(phase).kind == Kind::Mkdir)
    return static_cast<uint64_t>(o_.ranks);
  return transfers_per_rank() * static_cast<uint64_t>(o_.ranks);
}

double IorWorkload::phase_delay_s(int phase) const
{
  const Kind k = phases_.at(phase).kind;
  return k == Kind::Write || k == Kind::Read ? o_.delay_s : 0.0;
}

namespace {

// The transfers per rank a data phase moves at most: the test's, or fewer with stoneWallingWearOutIterations, or for a
// read with the status file's count (a stonewall's deadline is not known before the run).
uint64_t transfers_at_most(uint64_t per_rank, bool read, const IorOptions& o)
{
  if (o.pair_limit > 0)
    per_rank = std::min(per_rank, o.pair_limit);
  if (read && o.status_pairs > 0)
    per_rank = std::min(per_rank, static_cast<uint64_t>(o.status_pairs));
  return per_rank;
}

}  // namespace

double IorWorkload::data_bytes() const
{
  double bytes = 0;
  for (const auto& p : phases_)
    if (p.kind != Kind::Mkdir)
      bytes += static_cast<double>(transfers_at_most(transfers_per_rank(), p.kind == Kind::Read, o_)) *
               static_cast<double>(o_.transfer_B) * o_.ranks;
  return bytes;
}

long double IorWorkload::operations() const
{
  long double n = 0;
  for (const auto& p : phases_)
    n += p.kind == Kind::Mkdir ? o_.ranks
                               : static_cast<long double>(transfers_at_most(transfers_per_rank(), p.kind == Kind::Read,
                                                                            o_)) * o_.ranks;
  return n;
}

PhaseStonewall IorWorkload::stonewall(int phase) const
{
  const Phase& ph = phases_.at(phase);
  PhaseStonewall s;
  if (ph.kind == Kind::Mkdir)
    return s;
  s.deadline_s = o_.deadline_s;
  s.wear_out = o_.wear_out;
  s.limit = o_.pair_limit;  // (IOR restores it before every write)
  if (ph.kind == Kind::Write)
    return s;
  // After a stonewalled write of the repetition, the verification and the read stop at the rank's count of the write
  // (IOR: stoneWallingWearOutIterations = the write's pairs_accessed); the read takes the status file's count instead.
  if (o_.deadline_s > 0 && ph.write_phase >= 0) {
    s.limit = 0;
    s.limit_phase = ph.write_phase;
  }
  if (ph.kind == Kind::Read && o_.status_pairs >= 0) {
    s.limit = static_cast<uint64_t>(o_.status_pairs);
    s.limit_phase = -1;
  }
  return s;
}

std::pair<uint64_t, int> IorWorkload::transfer_offset(int src, uint64_t k) const
{
  const uint64_t per_block = o_.block_B / o_.transfer_B;
  const uint64_t segment = k / per_block;
  const uint64_t j = k % per_block;
  const auto ranks = static_cast<uint64_t>(o_.ranks);
  const auto s = static_cast<uint64_t>(src);
  const uint64_t key = splitmix64(o_.seed * kGolden64 + 0x10e);  // the run's draw
  if (o_.random_offset > 1) {
    // One block of the file per segment, drawn anew for each (IOR 4.1: rand64() % blocks), read in order, over the
    // file's size as the read finds it (IOR's fileSizeForRead: --file-size, else the test's).
    const uint64_t blocks = o_.file_size_B > 0 ? o_.file_size_B / o_.block_B
                                               : o_.segments * (o_.file_per_proc ? 1 : ranks);
    const uint64_t block = splitmix64(splitmix64(key ^ s) + segment) % blocks;
    return {block * o_.block_B + j * o_.transfer_B,
            o_.file_per_proc ? src : static_cast<int>(block % ranks)};
  }
  if (o_.random_offset == 1) {
    if (o_.file_per_proc)  // the rank's own order of a block's transfers, the same in every segment (IOR 4)
      return {segment * o_.block_B + random_permutation(j, per_block, splitmix64(key ^ s)) * o_.transfer_B, src};
    // A shared file: the segment's ranks x per_block transfers dealt to the ranks at random, per_block each, in a
    // random order (IOR 4 deals each transfer to a random rank, so its ranks' counts vary around per_block).
    const uint64_t q = random_permutation(s * per_block + j, ranks * per_block, key);
    return {segment * ranks * o_.block_B + q * o_.transfer_B, src};
  }
  return {ior_sequential_offset(o_.block_B, o_.transfer_B, o_.file_per_proc, ranks, s, k), src};
}

// Steps of a rank in a phase: 0 the open (a create when writing: rank 0's of the shared file, every rank's of its
// own file), 1..N the transfers, N + 1 the close (with -e, an fsync first: the step waits for the rank's cached data).
// A "mkdir" phase is one step, the rank's directory.
bool IorWorkload::next(int rank, int phase, RankCursor& c, OpRequest& out) const
{
  const Phase& ph = phases_.at(phase);
  const uint64_t n = transfers_per_rank();
  out = OpRequest{};
  out.dir = 0;  // IOR's test files are in one directory
  out.shared_dir = o_.ranks > 1;
  if (ph.kind == Kind::Mkdir) {  // IOR's PrependDir: <dir>/<rank>, made in the test file's directory
    if (c.item > 0)
      return false;
    c.item++;
    out.op = Op::Mkdir;
    return true;
  }
  // Stonewalling: once the rank has done `stop` transfers, its next step is the close.
  if (c.stop > 0 && c.item >= 1 && c.item <= n && c.item - 1 >= c.stop)
    c.item = n + 1;
  const uint64_t step = c.item;
  if (step > n + 1)
    return false;
  c.item++;
  const bool write = ph.kind == Kind::Write;
  // -C: the read phase reads another rank's data (IOR's reorderTasks), written in this run by the write phase
  const int src = write ? rank : (rank + (ph.kind == Kind::Check ? o_.check_shift : o_.read_shift)) % o_.ranks;
  out.object = o_.file_per_proc ? static_cast<uint64_t>(src) : 0;
  if (own_dirs()) {  // -u: the file is in its rank's directory, which no other rank updates
    out.dir = 1 + static_cast<uint32_t>(src);
    out.shared_dir = false;
  }
  if (step == 0) {
    out.think_s = phase_delay_s(phase);
    out.op = write && (o_.file_per_proc || rank == 0) ? Op::Create : Op::Open;
    // IOR removes the file after each repetition unless -k: the next repetition's write starts without its pages
    // (each node drops what it still holds of it; the last repetition's file stays, its pages written at the end)
    out.drop_held = write && ph.repetition > 0 && !o_.keep_file;
    return true;
  }
  const bool barriers = o_.barriers && ph.kind != Kind::Check;  // (IOR's verification has no -g barriers)
  if (step == n + 1) {
    out.op = Op::Close;
    out.flush = write && o_.fsync;
    out.barrier = barriers;
    return true;
  }
  const uint64_t k = step - 1;  // transfer k of the rank
  const auto [offset, owner] = transfer_offset(src, k);
  out.op = write ? Op::Write : Op::Read;
  out.bytes = static_cast<double>(o_.transfer_B);
  out.offset = offset;
  out.object_end = o_.block_B * o_.segments * (o_.file_per_proc ? 1 : static_cast<uint64_t>(o_.ranks));
  out.metadata = false;
  out.barrier = barriers && k == 0;
  out.sync = write && o_.fsync_per_write;
  if (!write && ph.write_phase >= 0) {  // each repetition writes (the phase before) before it reads
    out.written_by = owner;
    out.written_phase = ph.write_phase;
  }
  return true;
}

PerOp<bool> IorWorkload::kinds_used() const
{
  PerOp<bool> used{};
  used[Op::Open] = o_.read || o_.check_write || !o_.file_per_proc;
  used[Op::Create] = o_.write;
  used[Op::Close] = true;
  used[Op::Write] = o_.write;
  used[Op::Read] = o_.read || o_.check_write;
  used[Op::Mkdir] = own_dirs() && o_.write;
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
          {"random_offset", o_.random_offset},
          {"deadline_s", o_.deadline_s},
          {"wear_out", o_.wear_out},
          {"pair_limit", o_.pair_limit},
          {"status_file_pairs", o_.status_pairs >= 0 ? nlohmann::json(o_.status_pairs) : nlohmann::json(nullptr)},
          {"fsync_per_write", o_.fsync_per_write},
          {"check_write", o_.check_write},
          {"check_read", o_.check_read},
          {"unique_dir", o_.unique_dir},
          {"intra_test_barriers", o_.barriers},
          {"read_shift", o_.read_shift},
          {"check_shift", o_.check_shift},
          {"params", o_.params}};
}

}  // namespace pfsim
