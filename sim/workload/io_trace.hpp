// Recorded data-path (IOR-like) traces: per-rank sequences of opens, reads, writes and closes with sizes and offsets,
// imported from Darshan DXT text dumps and IOR -O savePerOpDataCSV files, replayed by io_replay.hpp.
//
// Formats (real examples in ../shared/data/tool-outputs, its README says which command made each):
//   darshan-dxt   darshan-dxt-parser's text: per (file, rank) blocks headed by "# DXT, file_id: I, file_name: F" and
//                 "# DXT, rank: R, hostname: H", then rows "X_POSIX R write|read SEG OFFSET LENGTH START END [PTHREAD]";
//                 times in seconds relative to the rank's Darshan init, 4 decimals. X_MPIIO rows (the MPI-IO layer
//                 above POSIX) are counted and not replayed: the POSIX rows are the operations that reach the file
//                 system, and an MPI-IO write is also a POSIX one.
//   ior-perop     IOR -O savePerOpDataCSV=P: P-<rep>-<rank %05d>.csv, header "time,runtime,tp": the transfer's start
//                 relative to the rank's transfer loop's start (after its open, IOR's startForStonewall), its
//                 duration, and its bytes per second (size = tp x runtime; "inf" for a transfer timed at 0 s). The
//                 files do not say read or write, shared file or file per process, nor offsets: IorPerOpOptions.
//
// DXT records no opens, closes, fsyncs nor barriers. The import gives each rank an open before its first operation on
// a file (a create when that operation is a write and the rank is the file's first writer) and a close after its last
// one. Think time = the recorded gap between the rank's previous operation's end and this one's start (never
// negative; the 4-decimal times make many gaps 0); it is replayed before the open when an open is inserted. A DXT
// trace is one phase ("dxt"): no barrier is recorded, so none is replayed; each rank's first operation keeps its
// offset from the earliest first operation of any rank (the ranks' clocks start at their own Darshan init, which
// MPI_Init roughly aligns).
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pfsim::iotrace {

enum class IoOp : unsigned char { Open, Create, Write, Read, Close };
const char* io_op_name(IoOp op);  // "open", "create", "write", "read", "close"

// One step of a rank, as IoTrace::step makes it. Opens, creates and closes are inserted by the import (offset and
// length 0).
struct IoStep {
  IoOp op = IoOp::Open;
  uint32_t file = 0;     // index in IoTrace::files
  uint64_t offset = 0;   // bytes
  uint64_t length = 0;   // bytes (write, read)
  float think_s = 0;     // idle time on the rank before this step
};

struct IoFile {
  std::string name;        // DXT file_name, or the IOR test file's name
  uint64_t id = 0;         // DXT file_id, or a hash of the name: the object's identity (its OSS placement)
  bool shared = false;     // used by several recorded ranks: one object at every replay rank count
  uint64_t extent_B = 0;   // the largest offset + length recorded
};

// A phase's recorded writes or reads, what the comparison with the replay reads of them (report/io_report.hpp): the
// recorded times are not kept past the import.
struct IoRecorded {
  uint64_t ops = 0;
  double bytes = 0;
  double first_start_s = 0;      // the first one's start (recorded clock; 0 without operations)
  double last_end_s = 0;         // the last one's end
  std::vector<float> latency_s;  // each one's end - start, sorted
};

struct IoPhase {
  std::string name;   // "dxt", or the IOR access "write" / "read"
  int iteration = 0;  // IOR's repetition (the <rep> of the file names)
  IoRecorded recorded[2];  // [0] writes, [1] reads: every recorded rank's
};

// A rank's steps, one column per field (25 bytes a step in a DXT trace, 4 in an IOR per-op trace, whose steps follow
// from IorLayout: per phase an open, the transfers, a close).
struct IoRankStream {
  std::vector<float> think_s;  // every step's
  // darshan-dxt only (empty for ior-perop)
  std::vector<IoOp> op;
  std::vector<uint32_t> file;
  std::vector<uint64_t> offset;
  std::vector<uint64_t> length;
  // darshan-dxt: per read, in step order, the recorded rank whose write it reads (-1: none); empty when none does.
  // That write covers the read's bytes (same file) and, of those that do, ended last before the read started, on the
  // ranks' recorded clocks (ties: the one at the highest offset, then the lowest rank, then the earliest).
  std::vector<int32_t> writer;
  std::vector<uint64_t> phase_begin;  // first step of each phase; phase_begin[phases] = the step count; empty: not kept
  bool kept() const { return !phase_begin.empty(); }
  uint64_t begin(int phase) const { return phase_begin[static_cast<size_t>(phase)]; }
  uint64_t end(int phase) const { return phase_begin[static_cast<size_t>(phase) + 1]; }
  uint64_t size() const { return phase_begin.empty() ? 0 : phase_begin.back(); }
};

// IOR's layout for a replay at another rank count: transfer k of rank m in a shared file is at
// (segment x M + m) x block + (k mod per block) x transfer, segment = k / (block / transfer); in its own file at
// segment x block + ... .
struct IorLayout {
  uint64_t transfer_B = 0;
  uint64_t block_B = 0;
  uint64_t segments = 0;
  bool file_per_proc = false;
  bool write = true;  // the files' transfers are writes (every phase), else reads
};

struct IoTrace {
  std::string format;  // "darshan-dxt" or "ior-perop"
  std::string path;    // the file named on the command line
  int ranks = 0;       // recorded ranks: one stream each
  int kept_ranks = 0;  // the streams holding their steps: recorded ranks 0 .. kept_ranks - 1 (load_*'s replay_ranks)
  std::vector<IoFile> files;
  std::vector<IoPhase> phases;
  std::vector<IoRankStream> streams;
  std::optional<IorLayout> ior;        // ior-perop: offsets follow IOR's rule at every rank count
  uint64_t mpiio_rows = 0;             // darshan-dxt: X_MPIIO rows counted, not replayed
  uint64_t writes = 0, reads = 0;      // recorded, every phase and rank
  double bytes_written = 0, bytes_read = 0;
  std::vector<std::string> inputs;     // files read
  std::vector<std::string> warnings;   // what the import had to assume
  std::vector<std::string> notes;      // what it took from elsewhere (IOR per-op: the run's stdout)

  // Step i, in [begin(phase), end(phase)) of the stream of `rank`, a kept one.
  IoStep step(int rank, int phase, uint64_t i) const;
  uint64_t op_count() const { return writes + reads; }  // recorded reads and writes
  nlohmann::json describe() const;
};

// Options for what an IOR per-op file does not record. IOR's stdout saved beside the files (any file there whose
// "Command line" names -O savePerOpDataCSV=<the files' prefix>; of a log of several runs, the last naming it) states
// them: the access (-w alone: the writes; else the reads: -r, -W's and -R's checks rewrite the files after the
// write, and neither -w nor -r runs both), -F or its Options' access, -b or its Options' blocksize, -t (which the
// files' transfers must agree with), and its Options' tasks (the rank files expected). An option given here that the
// stdout contradicts is an error naming both; without a stdout the options apply, else the defaults.
struct IorPerOpOptions {
  std::optional<bool> write;     // --ior-op write|read (default write)
  bool file_per_proc = false;    // --ior-file-per-process (IOR -F; default one shared file)
  uint64_t block_B = 0;          // --ior-block (IOR -b); 0 = every transfer of a rank in one block (one segment)
};

// "darshan-dxt", "ior-perop" or "" (not one of these; e.g. a metadata trace for trace.hpp): from the file's name and
// first lines. A DXT dump is a regular file whose first line is darshan-dxt-parser's "# darshan log version" or whose
// name ends in .dxt.txt; an IOR per-op file is named <P>-<rep>-<rank, 5 digits>.csv.
std::string detect_format(const std::string& path);

// Throw config::ConfigError "FILE:LINE: what was expected" on malformed input (a row outside a file block, a
// missing column, a non-numeric field, a negative length or offset, end < start, a rank that disagrees with its
// block, no X_POSIX row, a second dump header or a (file_id, rank, module) block seen before (dumps concatenated or
// duplicated), naming the earlier line, a row of another module inside a block (X_MPIIO in DXT_POSIX); IOR: a wrong header, a row without three numbers, a negative or non-finite value, a rank
// gap, repetitions with different rank counts, transfers per rank that are not a whole number of blocks).
// replay_ranks M between 1 and the recorded count N - 1: the steps of recorded ranks M .. N-1 are not kept (a replay at
// M ranks replays ranks 0 .. M-1 only); the errors, warnings, files and recorded statistics are the whole trace's.
// 0 (or M >= N): every rank's.
IoTrace load_dxt(const std::string& path, int replay_ranks = 0);
IoTrace load_ior_perop(const std::string& path, const IorPerOpOptions& options, int replay_ranks = 0);

}  // namespace pfsim::iotrace
