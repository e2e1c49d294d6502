#include "workload/io_trace.hpp"

#include "config/reader.hpp"
#include "workload/ior.hpp"
#include "workload/ior_summary.hpp"
#include "config/units.hpp"
#include "workload/text_input.hpp"
#include "workload/timing_check.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <sstream>
#include <tuple>

namespace pfsim::iotrace {

namespace fs = std::filesystem;
using config::ConfigError;

namespace {

// The most ranks a trace may name (a million: the largest recorded MPI jobs; the import keeps a stream per rank,
// ~80 bytes even when empty): a rank beyond it is a bad row, not a table to allocate.
constexpr long long kMaxTraceRanks = 1000000;

using textin::fail;

// Quoted input in a message (the importers' one form).
std::string quote(const std::string& s) { return textin::excerpt(s, 40); }

// A plain decimal integer (an optional leading '-' for the caller to refuse with its own message).
bool parse_int(const std::string& s, long long& v)
{
  const size_t from = !s.empty() && s[0] == '-' ? 1 : 0;
  if (s.size() <= from || s.find_first_not_of("0123456789", from) != std::string::npos || s.size() > 19 + from)
    return false;
  errno = 0;
  v = std::strtoll(s.c_str(), nullptr, 10);
  return errno == 0;
}

bool parse_u64(const std::string& s, uint64_t& v)
{
  if (s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos)
    return false;
  errno = 0;
  v = std::strtoull(s.c_str(), nullptr, 10);
  return errno == 0;
}

// A finite decimal number (1.5, 2e-3); no hex, inf or nan.
bool parse_number(const std::string& s, double& v)
{
  if (!textin::is_decimal(s))
    return false;
  char* end = nullptr;
  errno = 0;
  v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && errno != ERANGE && std::isfinite(v);
}

// How a refused field is quoted: a decimal number beyond a double's range (1e400, 1e-400) is said to be one, as the
// metadata importers say it; a number refused for its value (a negative time, -9.6e-04) is not (helper-123).
std::string refused(const std::string& s)
{
  double v = 0;
  return quote(s) + (textin::is_decimal(s) && !parse_number(s, v) ? " (out of a double's range)" : "");
}

std::vector<std::string> fields(const std::string& line)
{
  std::istringstream is(line);
  std::vector<std::string> out;
  for (std::string f; is >> f;)
    out.push_back(f);
  return out;
}

uint64_t fnv1a(const std::string& s)
{
  uint64_t h = 1469598103934665603ULL;
  for (unsigned char c : s)
    h = (h ^ c) * 1099511628211ULL;
  return h;
}

std::ifstream open_text(const std::string& file)
{
  std::error_code ec;
  if (!fs::is_regular_file(file, ec))
    throw ConfigError(file + ": " + (fs::exists(file, ec) ? "not a regular file" : "no such file"));
  std::ifstream in(file);
  if (!in)
    throw ConfigError(file + ": cannot open file");
  return in;
}

// Strips a trailing CR and, on the first line, a UTF-8 byte order mark.
void clean(std::string& line, size_t n)
{
  if (!line.empty() && line.back() == '\r')
    line.pop_back();
  if (n == 1)
    textin::strip_bom(line);
}

// Lines in a file (its newlines, and a last line without one): an upper bound on its rows, to reserve what they are
// read into at once (a vector grown by doubling holds two copies while it moves; capacity never written is not
// resident). 0 if it cannot be read (the import then says why).
uint64_t count_lines(const std::string& file)
{
  std::ifstream in(file, std::ios::binary);
  std::vector<char> buf(1 << 16);
  uint64_t n = 0;
  char last = '\n';
  for (;;) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    const auto got = static_cast<size_t>(in.gcount());
    if (got == 0)
      break;
    n += static_cast<uint64_t>(std::count(buf.begin(), buf.begin() + static_cast<long>(got), '\n'));
    last = buf[got - 1];
  }
  return n + (last != '\n');
}

// Where IOR puts transfer k of `rank` (of `ranks`) at the recorded rank count (IorLayout).
uint64_t ior_offset(const IorLayout& l, int ranks, int rank, uint64_t k)
{
  return ior_sequential_offset(l.block_B, l.transfer_B, l.file_per_proc, static_cast<uint64_t>(ranks),
                               static_cast<uint64_t>(rank), k);
}

template <class T>
void release(std::vector<T>& v)
{
  std::vector<T>().swap(v);
}

// A DXT dump's X_POSIX rows as read, one column per field, and per rank its rows' indices (dump order, then time
// order): the import's one copy of them (about 40 bytes a row), released column by column as the steps are made.
struct DxtRows {
  std::vector<double> start_s, end_s;
  std::vector<uint64_t> offset, length;
  std::vector<uint32_t> file;  // index in IoTrace::files
  std::vector<bool> write;
  std::vector<std::vector<uint32_t>> of_rank;
};

// A rank's rows in time order as the import makes them steps: an open before its first row on a file, a close after its
// last one. One per import, reused rank after rank (per file: where the rank last used it).
class RankFiles {
public:
  explicit RankFiles(size_t files) : seen_(files, 0), last_(files, 0) {}
  // The files the rows use.
  uint64_t count(const std::vector<uint32_t>& order, const std::vector<uint32_t>& file)
  {
    uint64_t n = 0;
    ++stamp_;
    for (const uint32_t row : order)
      if (seen_[file[row]] != stamp_) {
        seen_[file[row]] = stamp_;
        ++n;
      }
    return n;
  }
  // visit(row, first, last) for each row in order: first / last when it is the rank's first / last row on its file.
  template <class Visit>
  void walk(const std::vector<uint32_t>& order, const std::vector<uint32_t>& file, Visit visit)
  {
    for (size_t k = 0; k < order.size(); ++k)
      last_[file[order[k]]] = k;
    ++stamp_;
    for (size_t k = 0; k < order.size(); ++k) {
      const uint32_t f = file[order[k]];
      const bool first = seen_[f] != stamp_;
      seen_[f] = stamp_;
      visit(order[k], first, last_[f] == k);
    }
  }

private:
  std::vector<uint64_t> seen_, last_;
  uint64_t stamp_ = 0;
};

// Per read of each kept rank (time order), the recorded rank whose write it reads (IoRankStream::writer): of the writes
// that cover its bytes (same file, starting at or before it, no further back than the file's longest write), the last
// to end before it started; ties go to the write at the highest offset, then the lowest rank, then the earliest.
void find_writers(const DxtRows& rows, size_t files, std::vector<IoRankStream>& streams, int kept)
{
  struct Write {
    uint32_t row;
    int32_t rank;
  };
  uint64_t count = 0;
  for (size_t i = 0; i < rows.start_s.size(); ++i)
    count += rows.write[i] && rows.length[i] > 0;
  std::vector<Write> writes;
  writes.reserve(count);
  std::vector<uint64_t> longest(files, 0), file_begin(files + 1, 0);
  for (size_t r = 0; r < rows.of_rank.size(); ++r)
    for (const uint32_t row : rows.of_rank[r])
      if (rows.write[row] && rows.length[row] > 0) {
        writes.push_back({row, static_cast<int32_t>(r)});
        longest[rows.file[row]] = std::max(longest[rows.file[row]], rows.length[row]);
        ++file_begin[rows.file[row] + 1];
      }
  if (writes.empty())
    return;
  for (size_t f = 0; f < files; ++f)
    file_begin[f + 1] += file_begin[f];
  // By file and offset; at one offset by rank, then in the rank's time order
  std::sort(writes.begin(), writes.end(), [&rows](const Write& a, const Write& b) {
    return std::make_tuple(rows.file[a.row], rows.offset[a.row], a.rank, rows.start_s[a.row], a.row) <
           std::make_tuple(rows.file[b.row], rows.offset[b.row], b.rank, rows.start_s[b.row], b.row);
  });
  for (int r = 0; r < kept; ++r) {
    const auto& order = rows.of_rank[static_cast<size_t>(r)];
    std::vector<int32_t> found;
    found.reserve(static_cast<size_t>(
        std::count_if(order.begin(), order.end(), [&rows](uint32_t i) { return !rows.write[i]; })));
    bool any = false;
    for (const uint32_t row : order) {
      if (rows.write[row])
        continue;
      const uint32_t f = rows.file[row];
      const uint64_t off = rows.offset[row], end = off + rows.length[row];
      const auto lo = writes.begin() + static_cast<long>(file_begin[f]);
      const auto hi = writes.begin() + static_cast<long>(file_begin[f + 1]);
      double best_end = -1;
      int32_t best = -1;
      // Offset by offset down from the read's, each offset's writes in their order
      auto j = rows.length[row] == 0
                   ? lo
                   : std::upper_bound(lo, hi, off, [&rows](uint64_t o, const Write& x) { return o < rows.offset[x.row]; });
      while (j != lo) {
        const uint64_t at = rows.offset[(j - 1)->row];
        if (off - at >= longest[f])
          break;
        auto g = j - 1;
        while (g != lo && rows.offset[(g - 1)->row] == at)
          --g;
        for (auto x = g; x != j; ++x) {
          const double e = rows.end_s[x->row];
          if (at + rows.length[x->row] >= end && e <= rows.start_s[row] && e > best_end) {
            best_end = e;
            best = x->rank;
          }
        }
        j = g;
      }
      found.push_back(best);
      any = any || best >= 0;
    }
    if (any)
      streams[static_cast<size_t>(r)].writer = std::move(found);
  }
}

}  // namespace

const char* io_op_name(IoOp op)
{
  switch (op) {
    case IoOp::Open: return "open";
    case IoOp::Create: return "create";
    case IoOp::Write: return "write";
    case IoOp::Read: return "read";
    case IoOp::Close: return "close";
  }
  return "?";
}

IoStep IoTrace::step(int rank, int phase, uint64_t i) const
{
  const auto& s = streams[static_cast<size_t>(rank)];
  IoStep st;
  st.think_s = s.think_s[i];
  if (!ior) {
    st.op = s.op[i];
    st.file = s.file[i];
    st.offset = s.offset[i];
    st.length = s.length[i];
    return st;
  }
  // IOR: an open (a create when writing, rank 0's of a shared file), the transfers in IOR's layout, a close
  const auto& l = *ior;
  st.file = l.file_per_proc ? static_cast<uint32_t>(rank) : 0;
  if (i == s.begin(phase)) {
    st.op = l.write && (l.file_per_proc || rank == 0) ? IoOp::Create : IoOp::Open;
  } else if (i + 1 == s.end(phase)) {
    st.op = IoOp::Close;
  } else {
    st.op = l.write ? IoOp::Write : IoOp::Read;
    st.length = l.transfer_B;
    st.offset = ior_offset(l, ranks, rank, i - s.begin(phase) - 1);
  }
  return st;
}

nlohmann::json IoTrace::describe() const
{
  nlohmann::json ph = nlohmann::json::array();
  for (const auto& p : phases)
    ph.push_back({{"name", p.name}, {"iteration", p.iteration}});
  const auto shared = std::count_if(files.begin(), files.end(), [](const IoFile& f) { return f.shared; });
  nlohmann::json j = {{"format", format},         {"path", path},
                      {"ranks", ranks},           {"phases", ph},
                      {"files", files.size()},    {"shared_files", shared},
                      {"writes", writes},         {"reads", reads},
                      {"bytes_written", bytes_written}, {"bytes_read", bytes_read},
                      {"inputs", inputs},         {"warnings", warnings},
                      {"notes", notes}};
  if (format == "darshan-dxt")
    j["mpiio_rows_not_replayed"] = mpiio_rows;
  if (ior)
    j["ior_layout"] = {{"transfer_size", ior->transfer_B},
                       {"block_size", ior->block_B},
                       {"segments", ior->segments},
                       {"file_per_proc", ior->file_per_proc}};
  return j;
}

namespace {
// <P>-<rep>-<rank>.csv: the rank has at least 5 digits, the repetition at least one (IOR's per-op files' names)
bool ior_perop_name(const std::string& name)
{
  if (name.size() < 4 || name.compare(name.size() - 4, 4, ".csv") != 0)
    return false;
  const std::string stem = name.substr(0, name.size() - 4);
  const auto d2 = stem.rfind('-');
  if (d2 == std::string::npos || d2 == 0)
    return false;
  const auto d1 = stem.rfind('-', d2 - 1);
  const std::string rank = stem.substr(d2 + 1), rep = d1 == std::string::npos ? "" : stem.substr(d1 + 1, d2 - d1 - 1);
  auto digits = [](const std::string& s) { return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos; };
  return d1 != std::string::npos && d1 > 0 && rank.size() >= 5 && digits(rank) && digits(rep);
}
}  // namespace

std::string detect_format(const std::string& path)
{
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    return "";
  const std::string name = fs::path(path).filename().string();
  auto ends_with = [&name](const std::string& s) {
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  };
  if (ends_with(".dxt.txt"))
    return "darshan-dxt";
  std::ifstream in(path);
  std::string first;
  std::getline(in, first);
  clean(first, 1);
  if (first.rfind("# darshan log version", 0) == 0)
    return "darshan-dxt";
  return ior_perop_name(name) ? "ior-perop" : "";
}

IoTrace load_dxt(const std::string& path, int replay_ranks)
{
  std::ifstream in = open_text(path);
  IoTrace t;
  t.format = "darshan-dxt";
  t.path = path;
  t.inputs.push_back(path);
  std::map<uint64_t, uint32_t> file_of;  // file_id -> index
  std::vector<int> first_user;  // per file: the first rank seen using it
  DxtRows rows;
  {
    const uint64_t lines = count_lines(path);  // at most that many rows
    rows.start_s.reserve(lines);
    rows.end_s.reserve(lines);
    rows.offset.reserve(lines);
    rows.length.reserve(lines);
    rows.file.reserve(lines);
    rows.write.reserve(lines);
  }
  double t0 = -1;  // the earliest start
  long long nprocs = 0;
  bool in_block = false;
  uint32_t cur_file = 0;
  long long cur_rank = -1;
  uint64_t posix_rows = 0;
  std::string line;
  size_t n = 0;
  const std::string kRow = "expected a DXT row \"X_POSIX rank write|read segment offset length start end [pthread]\"";
  // A block's header says how many writes and reads it holds ("# DXT, write_count: W, read_count: R"): a block with
  // fewer rows is a dump cut short (at a line boundary no row is malformed), refused with the header's line.
  long long want_w = -1, want_r = -1, got_w = 0, got_r = 0;
  size_t count_line = 0;
  // darshan-dxt-parser prints one header per dump ("# darshan log version") and, in each module's section ("# DXT_POSIX
  // module data"), each (file, rank) block once: a second header is dumps concatenated, a block seen before in its
  // module's section a duplicated one (either would replay operations twice). A block's module is its section's
  // (X_POSIX rows under DXT_POSIX), else its first row's; a row of another module inside it is malformed.
  size_t header_line = 0;
  std::string section;                                          // "X_POSIX" under "# DXT_POSIX module data"; "": none
  std::string block_module;                                     // the current block's rows' module
  size_t block_line = 0;                                        // the current block's "# DXT, file_id:" line
  std::map<std::tuple<uint64_t, long long, std::string>, size_t> blocks;  // (file_id, rank, module) -> its line
  auto note_block = [&] {
    if (cur_rank < 0 || block_module.empty())
      return;
    const auto [it, added] = blocks.emplace(std::make_tuple(t.files[cur_file].id, cur_rank, block_module), block_line);
    if (!added)
      fail(path, block_line, "a second " + block_module + " block of file_id " + std::to_string(t.files[cur_file].id) +
                                 " (" + quote(t.files[cur_file].name) + "), rank " + std::to_string(cur_rank) +
                                 ", the first at line " + std::to_string(it->second) +
                                 ": expected each (file, rank) block once per dump (a dump duplicated?)");
  };
  auto check_block = [&] {
    // darshan-dxt-parser prints every block's counts line before its rows: a block with neither is a dump cut inside
    // its header (its rows would be lost without a word)
    if (in_block && count_line < block_line && got_w + got_r == 0)
      fail(path, block_line, "the block of file " + quote(t.files[cur_file].name) +
                                 (cur_rank >= 0 ? ", rank " + std::to_string(cur_rank) : std::string()) +
                                 " has no \"# DXT, write_count: W, read_count: R\" line: expected darshan-dxt-parser's "
                                 "block header whole (a dump cut short?)");
    if (want_w >= 0 && (got_w < want_w || got_r < want_r))
      fail(path, count_line, "the block of file " + quote(t.files[cur_file].name) + ", rank " +
                                 std::to_string(cur_rank) + " declares " + std::to_string(want_w) + " writes and " +
                                 std::to_string(want_r) + " reads, but " + std::to_string(got_w) + " and " +
                                 std::to_string(got_r) + " rows follow: expected every row (a dump cut short?)");
    want_w = want_r = -1;
    got_w = got_r = 0;
  };
  while (std::getline(in, line)) {
    clean(line, ++n);
    if (line.find_first_not_of(" \t") == std::string::npos)
      continue;
    // darshan-dxt-parser ends every line with a newline: a last line without one is a dump cut short (inside a row, its
    // last field may be cut: "end 0.00" where the dump said 0.0042)
    if (in.eof())
      fail(path, n, "truncated file: the last line has no end of line (expected every line of a darshan-dxt-parser "
                    "dump to end with one)");
    if (line[0] == '#') {
      if (line.rfind("# darshan log version:", 0) == 0) {
        if (header_line > 0)
          fail(path, n, "a second dump header (\"# darshan log version\"), the first at line " +
                            std::to_string(header_line) + ": expected one darshan-dxt-parser dump per file (dumps "
                            "concatenated?)");
        header_line = n;
      } else if (line.rfind("# DXT_", 0) == 0 && line.size() > 17 && line.compare(line.size() - 12, 12, " module data") == 0) {
        check_block();
        in_block = false;
        section = "X_" + line.substr(6, line.size() - 18);
      } else if (line.rfind("# nprocs:", 0) == 0) {
        const auto f = fields(line.substr(9));
        const std::string v = f.size() == 1 ? f[0] : line.substr(9);
        if (!parse_int(v, nprocs) || nprocs < 1 || nprocs > kMaxTraceRanks)
          fail(path, n, "nprocs: expected a positive integer up to " + std::to_string(kMaxTraceRanks) + ", got " +
                            quote(v));
      } else if (line.rfind("# DXT, file_id:", 0) == 0) {
        check_block();
        const auto comma = line.find(", file_name: ");
        if (comma == std::string::npos)
          fail(path, n, "expected \"# DXT, file_id: ID, file_name: NAME\"");
        const std::string id = line.substr(16, comma - 16);
        uint64_t v = 0;
        if (!parse_u64(id, v))
          fail(path, n, "file_id: expected an unsigned integer, got " + quote(id));
        const std::string name = line.substr(comma + 13);
        auto [it, added] = file_of.emplace(v, static_cast<uint32_t>(t.files.size()));
        if (added) {
          t.files.push_back({name, v, false, 0});
          first_user.push_back(-1);
        } else if (t.files[it->second].name != name) {
          fail(path, n, "file_id " + id + " named " + quote(name) + ", earlier " + quote(t.files[it->second].name));
        }
        cur_file = it->second;
        in_block = true;
        cur_rank = -1;
        block_line = n;
        block_module = section;
      } else if (line.rfind("# DXT, rank:", 0) == 0) {
        const std::string rest = line.substr(12);
        const std::string v = fields(rest.substr(0, rest.find(','))).empty() ? "" : fields(rest.substr(0, rest.find(',')))[0];
        if (!parse_int(v, cur_rank) || cur_rank < 0 || cur_rank >= kMaxTraceRanks)
          fail(path, n, "rank: expected an integer from 0 to " + std::to_string(kMaxTraceRanks - 1) + ", got " +
                            quote(v));
        note_block();
      } else if (line.rfind("# DXT, write_count:", 0) == 0) {
        const auto comma = line.find(", read_count:");
        const std::string w = comma == std::string::npos ? "" : line.substr(19, comma - 19);
        const std::string r = comma == std::string::npos ? "" : line.substr(comma + 13);
        const auto fw = fields(w), fr = fields(r);
        if (fw.size() != 1 || fr.size() != 1 || !parse_int(fw[0], want_w) || !parse_int(fr[0], want_r) || want_w < 0 ||
            want_r < 0)
          fail(path, n, "expected \"# DXT, write_count: W, read_count: R\" with integers >= 0, got " + quote(line));
        count_line = n;
      }
      continue;
    }
    // On Lustre darshan-dxt-parser ends each row with the OSTs the extent touched ("[  3]" per OST): not replayed
    // (the platform's striping places the data), and cut before the columns are counted.
    const auto bracket = line.find('[');
    if (bracket != std::string::npos &&
        line.find_first_not_of("[] 0123456789\t", bracket) == std::string::npos)
      line.erase(bracket);
    const auto f = fields(line);
    if (f.empty())  // nothing but an OST list (or white space, checked above as a blank line would be)
      fail(path, n, kRow + ", got an OST list (\"[  3]\") with no row before it");
    if (in_block && (f[0] == "X_MPIIO" || f[0] == "X_POSIX")) {
      if (block_module.empty()) {  // no section header: the block's first row says its module
        block_module = f[0];
        note_block();
      } else if (f[0] != block_module) {
        fail(path, n, f[0] + " row in the " + block_module + " block of file " + quote(t.files[cur_file].name) +
                          ", rank " + std::to_string(cur_rank) + " (line " + std::to_string(block_line) +
                          "): expected " + block_module + " rows only (darshan-dxt-parser prints each module's "
                          "blocks in its own section)");
      }
    }
    if (f.size() > 2 && (f[0] == "X_MPIIO" || f[0] == "X_POSIX")) {  // the block's rows, counted against its header
      got_w += f[2] == "write";
      got_r += f[2] == "read";
      // darshan-dxt-parser prints exactly the rows it declares: one more is a row added or a block's rows merged
      if (want_w >= 0 && (got_w > want_w || got_r > want_r))
        fail(path, n, "a " + f[2] + " row beyond the " + std::to_string(f[2] == "write" ? want_w : want_r) + " " +
                          f[2] + "s the block of file " + quote(t.files[cur_file].name) + ", rank " +
                          std::to_string(cur_rank) + " declares (line " + std::to_string(count_line) +
                          "): expected exactly the declared rows");
    }
    if (f[0] == "X_MPIIO") {  // the MPI-IO layer: its POSIX operations are the X_POSIX rows
      ++t.mpiio_rows;
      continue;
    }
    if (f[0] != "X_POSIX")
      fail(path, n, kRow + ", got " + quote(line));
    if (!in_block || cur_rank < 0)
      fail(path, n, "X_POSIX row outside a block: expected \"# DXT, file_id: ...\" and \"# DXT, rank: ...\" lines before it");
    if (f.size() < 8)
      fail(path, n, "truncated row: " + std::to_string(f.size()) + " columns, " + kRow);
    if (f.size() > 9)
      fail(path, n, std::to_string(f.size()) + " columns, " + kRow);
    long long rank = 0, offset = 0, length = 0;
    uint64_t segment = 0;
    double start = 0, end = 0;
    // A whole number too long for 64 bits is said as out of range, not as "not an integer" (helper-136)
    auto digits = [](const std::string& x) {
      const size_t from = !x.empty() && x[0] == '-' ? 1 : 0;
      return x.size() > from && x.find_first_not_of("0123456789", from) == std::string::npos;
    };
    if (!parse_int(f[1], rank) && digits(f[1]))
      fail(path, n, "rank " + quote(f[1]) + ": out of range (expected below " + std::to_string(kMaxTraceRanks) + ")");
    if (!parse_int(f[1], rank) || rank < 0)
      fail(path, n, "rank: expected an integer >= 0, got " + quote(f[1]));
    if (rank >= kMaxTraceRanks || (nprocs > 0 && rank >= nprocs))
      fail(path, n, "rank " + f[1] + ": expected below " +
                        (nprocs > 0 ? "nprocs " + std::to_string(nprocs) : std::to_string(kMaxTraceRanks)));
    if (rank != cur_rank)
      fail(path, n, "rank " + f[1] + " in the block of rank " + std::to_string(cur_rank));
    if (f[2] != "write" && f[2] != "read")
      fail(path, n, "expected write or read, got " + quote(f[2]));
    if (!parse_u64(f[3], segment))
      fail(path, n, digits(f[3]) && f[3][0] != '-' ? "segment " + quote(f[3]) + ": out of range (expected a 64-bit count)"
                                                   : "segment: expected an integer >= 0, got " + quote(f[3]));
    if (!parse_int(f[4], offset))
      fail(path, n, digits(f[4]) ? "offset " + quote(f[4]) + ": out of range (expected a byte offset from 0 to 1e15, "
                                   "the model's largest file)"
                                 : "offset: expected an integer, got " + quote(f[4]));
    if (offset < 0)
      fail(path, n, "negative offset " + f[4] + ": expected a byte offset >= 0");
    if (!parse_int(f[5], length))
      fail(path, n, digits(f[5]) ? "length " + quote(f[5]) + ": out of range (expected a byte count from 0 to 1e15, "
                                   "the model's largest file)"
                                 : "length: expected an integer, got " + quote(f[5]));
    if (length < 0)
      fail(path, n, "negative length " + f[5] + ": expected a byte count >= 0");
    if (!parse_number(f[6], start) || start < 0)
      fail(path, n, "start: expected a time in seconds >= 0, got " + refused(f[6]));
    if (!parse_number(f[7], end) || end < 0)
      fail(path, n, "end: expected a time in seconds >= 0, got " + refused(f[7]));
    if (end < start)
      fail(path, n, "end " + f[7] + " before start " + f[6] + ": expected end >= start");
    if (end > units::kMaxDurationS)
      fail(path, n, "end " + f[7] + " s: expected at most 1e9 s (the simulated clock's range)");
    if (static_cast<double>(offset) + static_cast<double>(length) > units::kMaxSizeB)
      fail(path, n, "offset + length above 1e15 bytes, the model's largest file");
    // (rows are indexed in 32 bits: 4 billion of them would take 170 GB)
    if (posix_rows == std::numeric_limits<uint32_t>::max())
      fail(path, n, "more than " + std::to_string(posix_rows) + " X_POSIX rows: expected fewer");
    ++posix_rows;
    if (static_cast<size_t>(rank) >= rows.of_rank.size())
      rows.of_rank.resize(static_cast<size_t>(rank) + 1);
    rows.of_rank[static_cast<size_t>(rank)].push_back(static_cast<uint32_t>(rows.start_s.size()));
    rows.start_s.push_back(start);
    rows.end_s.push_back(end);
    rows.offset.push_back(static_cast<uint64_t>(offset));
    rows.length.push_back(static_cast<uint64_t>(length));
    rows.file.push_back(cur_file);
    rows.write.push_back(f[2] == "write");
    if (t0 < 0 || start < t0)
      t0 = start;
    if (first_user[cur_file] < 0)
      first_user[cur_file] = static_cast<int>(rank);
    else if (first_user[cur_file] != rank)
      t.files[cur_file].shared = true;  // used by several ranks
    auto& ext = t.files[cur_file].extent_B;
    ext = std::max(ext, static_cast<uint64_t>(offset + length));
  }
  check_block();
  if (n == 0)
    fail(path, 1, "empty file; expected darshan-dxt-parser output");
  if (posix_rows == 0)
    fail(path, n, std::string("no X_POSIX row in the file") +
                      (t.mpiio_rows > 0 ? " (" + std::to_string(t.mpiio_rows) + " X_MPIIO rows, not replayed)" : "") +
                      ": expected darshan-dxt-parser output of a log with DXT POSIX tracing (DXT_ENABLE_IO_TRACE=1)");
  if (nprocs > 0 && static_cast<size_t>(nprocs) < rows.of_rank.size())
    fail(path, n, "rows of rank " + std::to_string(rows.of_rank.size() - 1) + " in a log of nprocs " +
                      std::to_string(nprocs));
  t.ranks = static_cast<int>(std::max<size_t>(rows.of_rank.size(), static_cast<size_t>(nprocs)));
  t.kept_ranks = replay_ranks > 0 ? std::min(replay_ranks, t.ranks) : t.ranks;
  rows.of_rank.resize(static_cast<size_t>(t.ranks));
  const auto idle = std::count_if(rows.of_rank.begin(), rows.of_rank.end(), [](const auto& v) { return v.empty(); });
  // Each rank's rows in time order (ties keep the dump's order)
  for (auto& order : rows.of_rank)
    std::sort(order.begin(), order.end(), [&rows](uint32_t a, uint32_t b) {
      return rows.start_s[a] < rows.start_s[b] || (rows.start_s[a] == rows.start_s[b] && a < b);
    });
  // Dropping files nobody accessed in POSIX (a block of X_MPIIO rows only) keeps the indices: they are never used.
  t.phases.push_back({"dxt", 0, {}});
  t.streams.resize(static_cast<size_t>(t.ranks));
  find_writers(rows, t.files.size(), t.streams, t.kept_ranks);
  // The steps, one column at a time, each row column released once read: think times (from the recorded times, which
  // go into the recorded statistics), then operations and files, then offsets, then lengths.
  RankFiles rank_files(t.files.size());
  auto& rec = t.phases[0].recorded;
  for (auto& k : rec)
    k.latency_s.reserve(static_cast<size_t>(std::count(rows.write.begin(), rows.write.end(), &k == &rec[0])));
  for (int r = 0; r < t.ranks; ++r) {
    auto& s = t.streams[static_cast<size_t>(r)];
    const auto& order = rows.of_rank[static_cast<size_t>(r)];
    const bool keep = r < t.kept_ranks;
    if (keep) {
      const uint64_t steps = order.size() + 2 * rank_files.count(order, rows.file);  // an open and a close per file
      s.phase_begin = {0, steps};
      s.think_s.reserve(steps);
    }
    // Think time: the gap since the rank's previous operation's end (the first one's since t0), before the open
    double prev_end = t0;
    rank_files.walk(order, rows.file, [&](uint32_t row, bool first, bool last) {
      const double start = rows.start_s[row], end = rows.end_s[row];
      const float gap = static_cast<float>(std::max(0.0, start - prev_end));
      prev_end = std::max(prev_end, end);
      if (keep) {
        if (first)
          s.think_s.push_back(gap);
        s.think_s.push_back(first ? 0.f : gap);  // the open took the gap
        if (last)
          s.think_s.push_back(0.f);
      }
      auto& k = rec[rows.write[row] ? 0 : 1];
      k.first_start_s = k.ops == 0 ? start : std::min(k.first_start_s, start);
      k.last_end_s = k.ops == 0 ? end : std::max(k.last_end_s, end);
      ++k.ops;
      k.bytes += static_cast<double>(rows.length[row]);
      k.latency_s.push_back(static_cast<float>(end - start));
    });
  }
  release(rows.start_s);
  release(rows.end_s);
  for (auto& k : rec)
    std::sort(k.latency_s.begin(), k.latency_s.end());
  t.writes = rec[0].ops;
  t.reads = rec[1].ops;
  t.bytes_written = rec[0].bytes;
  t.bytes_read = rec[1].bytes;
  // Operations: per file, the lowest rank whose first operation on it writes creates it (every other rank opens it).
  std::vector<int> creator(t.files.size(), -1);
  for (int r = 0; r < t.kept_ranks; ++r) {
    auto& s = t.streams[static_cast<size_t>(r)];
    s.op.reserve(s.size());
    s.file.reserve(s.size());
    rank_files.walk(rows.of_rank[static_cast<size_t>(r)], rows.file, [&](uint32_t row, bool first, bool last) {
      const uint32_t f = rows.file[row];
      if (first) {
        const bool creates = rows.write[row] && creator[f] < 0;
        if (creates)
          creator[f] = r;
        s.op.push_back(creates ? IoOp::Create : IoOp::Open);
        s.file.push_back(f);
      }
      s.op.push_back(rows.write[row] ? IoOp::Write : IoOp::Read);
      s.file.push_back(f);
      if (last) {
        s.op.push_back(IoOp::Close);
        s.file.push_back(f);
      }
    });
  }
  release(rows.file);
  release(rows.write);
  // Offsets and lengths of the reads and writes (0 for the opens and closes)
  for (auto [column, steps] : {std::pair{&rows.offset, &IoRankStream::offset}, {&rows.length, &IoRankStream::length}}) {
    for (int r = 0; r < t.kept_ranks; ++r) {
      auto& s = t.streams[static_cast<size_t>(r)];
      auto& out = s.*steps;
      out.reserve(s.size());
      auto row = rows.of_rank[static_cast<size_t>(r)].begin();
      for (const IoOp op : s.op)
        out.push_back(op == IoOp::Write || op == IoOp::Read ? (*column)[*row++] : 0);
    }
    release(*column);
  }
  release(rows.of_rank);
  t.warnings.push_back("DXT records no opens, closes or barriers: each rank opens a file before its first operation "
                       "on it and closes it after its last one; the trace is one phase (dxt)");
  if (t.mpiio_rows > 0)
    t.warnings.push_back(std::to_string(t.mpiio_rows) + (t.mpiio_rows == 1 ? " X_MPIIO row" : " X_MPIIO rows") +
                         " not replayed (the MPI-IO layer: its "
                         "operations reach the file system as the X_POSIX rows)");
  if (idle > 0)
    t.warnings.push_back(std::to_string(idle) + " of " + std::to_string(t.ranks) +
                         " ranks have no X_POSIX row: they replay nothing");
  return t;
}

namespace {

// What IOR's stdout says of a run whose per-op files it names (IorPerOpOptions).
struct IorStdout {
  std::string file;
  size_t command_line = 0;  // its "Command line" line
  std::string command;
  bool write = true;
  bool file_per_proc = false;
  std::string access;       // its Options' access ("file-per-process", "single-shared-file")
  uint64_t block_B = 0;     // 0: not stated exactly
  uint64_t transfer_B = 0;  // 0: not stated exactly
  long long tasks = -1;     // -1: not stated
  size_t tasks_line = 0;
  long long segments = -1;     // -s, else the Options' segments; -1: not stated
  long long repetitions = -1;  // -i, else the Options' repetitions; -1: not stated
  // The Options' own values, for a command line that contradicts them (an edited or assembled file)
  uint64_t options_block_B = 0;
  long long options_segments = -1, options_repetitions = -1;
  // The stonewall (-D, or -O deadlineForStonewalling): IOR's Options list "stonewallingTime" when it is > 0 (and
  // nothing when 0), -vvv's Parameters "deadlineForStonewall: N" always. -1: the stdout does not tell (no Options,
  // IOR -q); 0: no stonewall, so every rank did segments x block / transfer transfers.
  long long stonewall_s = -1;
  size_t stonewall_line = 0;      // where it was stated, or the Options' line (0: not seen)
  bool stonewall_options = false;  // stonewall_s 0 from the Options' line (no stonewallingTime in them)
  // The command line gives IOR a transfer count to stop at (-O stoneWallingWearOutIterations=N, or a status file a read
  // takes it from, -O stoneWallingStatusFile=F: IO500's reads): every rank may do fewer than the test's transfers,
  // the same number each, without a stonewall (helper-143).
  bool pair_limit = false;
};

// The value after "key :" on an IOR Options line ("tasks               : 2"), "" if the line is not that key's.
std::string options_value(const std::string& line, const std::string& key)
{
  if (line.compare(0, key.size(), key) != 0)
    return "";
  const size_t colon = line.find(':', key.size());
  if (colon == std::string::npos || line.find_first_not_of(' ', key.size()) != colon)
    return "";
  const size_t from = line.find_first_not_of(' ', colon + 1);
  return from == std::string::npos ? "" : line.substr(from, line.find_last_not_of(" \r") + 1 - from);
}

// An IOR size as its Options print it ("1 MiB", "262144 bytes", "1.50 GiB"), in bytes when exact: IOR prints a whole
// number of its unit when the size is one ("%d MiB"), else two decimals; 0 when not exact or not a size.
uint64_t exact_ior_size(const std::string& text)
{
  double unit = 0;
  const double v = human_bytes(text, unit);
  return v > 0 && text.find('.') == std::string::npos ? static_cast<uint64_t>(v) : 0;
}

// IOR's stdout beside per-op files of `prefix`: the first file (in name order) of the directory, other than a .csv,
// that holds an IOR run whose "Command line" names -O savePerOpDataCSV=<path ending in prefix> (an -O value may list
// several key=value pairs, comma-separated). A file holding several IOR runs (a job's log) is read for the last run
// that names it, the one whose files remain (each run rewrites them); its Options are those printed before the next
// run's. A file without a "Command line" in its first 400 lines is not IOR's output. A second file naming the prefix
// is named in a warning.
std::optional<IorStdout> find_ior_stdout(const fs::path& dir, const std::string& prefix, std::vector<std::string>& warnings)
{
  std::vector<fs::path> candidates;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::error_code ec;
    if (e.path().extension() == ".csv" || !fs::is_regular_file(e.path(), ec) ||
        fs::file_size(e.path(), ec) > (64u << 20))
      continue;
    candidates.push_back(e.path());
  }
  std::sort(candidates.begin(), candidates.end());
  std::optional<IorStdout> found;
  for (const auto& c : candidates) {
    std::ifstream in(c);
    std::string line;
    std::optional<IorStdout> last;  // the last run of this file naming the prefix
    IorStdout s;
    bool reading = false;  // inside the Options of a run naming the prefix
    bool ior = false;      // a "Command line" seen
    for (size_t n = 1; std::getline(in, line); ++n) {
      if (!ior && n > 400)
        break;
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      if (const std::string cmd = options_value(line, "Command line"); !cmd.empty()) {
        ior = true;
        if (reading)
          last = s;
        reading = false;
        std::istringstream words(cmd);
        for (std::string w; words >> w;) {
          const auto at = w.find("savePerOpDataCSV=");
          if (at == std::string::npos)
            continue;
          const std::string value = w.substr(at + 17, w.find(',', at) == std::string::npos ? std::string::npos
                                                                                          : w.find(',', at) - at - 17);
          if (fs::path(value).filename().string() == prefix)
            reading = true;
        }
        if (reading) {
          s = IorStdout{};
          s.file = c.string();
          s.command_line = n;
          s.command = cmd;
          std::string lower = cmd;
          for (auto& ch : lower)
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
          s.pair_limit = lower.find("stonewallingwearoutiterations") != std::string::npos ||
                         lower.find("stonewallingstatusfile") != std::string::npos;
        }
        continue;
      }
      if (!reading)
        continue;
      if (!options_value(line, "Began").empty()) {  // the next run's header: this run's Options are over
        last = s;
        reading = false;
        continue;
      }
      if (line.rfind("Options:", 0) == 0 && s.stonewall_line == 0) {
        s.stonewall_s = 0;  // unless the Options list stonewallingTime (or the Parameters a deadline)
        s.stonewall_line = n;
        s.stonewall_options = true;
        continue;
      }
      for (const char* key : {"deadlineForStonewall", "stonewallingTime"}) {
        long long v = 0;
        if (const auto d = options_value(line, key); !d.empty() && parse_int(d, v) && v > s.stonewall_s) {
          s.stonewall_s = v;
          s.stonewall_line = n;
          s.stonewall_options = false;
        }
      }
      // The run's first test's Options (IOR prints them once per test, after the command line)
      if (const auto v = options_value(line, "tasks"); !v.empty() && s.tasks < 0) {
        long long t = 0;
        if (parse_int(v, t) && t > 0) {
          s.tasks = t;
          s.tasks_line = n;
        }
      } else if (const auto a = options_value(line, "access"); !a.empty() && s.access.empty()) {
        s.access = a;
      } else if (const auto b = options_value(line, "blocksize"); !b.empty() && s.options_block_B == 0) {
        s.options_block_B = exact_ior_size(b);
      } else if (const auto x = options_value(line, "xfersize"); !x.empty() && s.transfer_B == 0) {
        s.transfer_B = exact_ior_size(x);
      } else if (const auto g = options_value(line, "segments"); !g.empty() && s.options_segments < 0) {
        long long v = 0;
        if (parse_int(g, v) && v > 0)
          s.options_segments = v;
      } else if (const auto i = options_value(line, "repetitions"); !i.empty() && s.options_repetitions < 0) {
        long long v = 0;
        if (parse_int(i, v) && v > 0)
          s.options_repetitions = v;
      }
    }
    if (reading)
      last = s;
    if (!last)
      continue;
    if (found) {
      warnings.push_back("IOR stdout: " + last->file + " names these per-op files too; read " + found->file);
      continue;
    }
    IorStdout r = *last;
    // IOR rewrites the per-op files at each access it runs: -w, then -W's check, -r, -R's check. They hold writes
    // only when -w runs alone; without -w and -r IOR runs both (the read's files remain).
    const auto has = [&](const char* f) { return command_flag(r.command, f); };
    r.write = has("-w") && !has("-r") && !has("-W") && !has("-R");
    const std::string at = r.file + ":" + std::to_string(r.command_line) + ": ";
    uint64_t cmd_block = 0;
    for (auto [flag, value] : {std::pair<const char*, uint64_t*>{"-b", &cmd_block}, {"-t", &r.transfer_B}}) {
      const std::string arg = command_option(r.command, flag);
      if (arg.empty())
        continue;
      const long double v = ior_size_arg(arg);
      if (v <= 0 || v > static_cast<long double>(units::kMaxSizeB))
        throw ConfigError(at + flag + " " + arg + ": expected IOR's size (an integer with an optional k, m, g, t or p "
                          "suffix) up to 1e15 bytes");
      *value = static_cast<uint64_t>(v);
    }
    long long cmd_segments = -1, cmd_repetitions = -1;
    for (auto [flag, value] : {std::pair<const char*, long long*>{"-s", &cmd_segments}, {"-i", &cmd_repetitions}}) {
      const std::string arg = command_option(r.command, flag);
      long long v = 0;
      if (arg.empty())
        continue;
      if (!parse_int(arg, v) || v <= 0)
        throw ConfigError(at + flag + " " + arg + ": expected a whole number >= 1");
      *value = v;
    }
    // IOR prints its Options from the values it ran (a script or -O may set them too): they are used; a command line
    // that contradicts them is an edited or assembled file, said.
    const bool access_known = r.access == "file-per-process" || r.access == "single-shared-file";
    r.file_per_proc = access_known ? r.access == "file-per-process" : has("-F");
    r.block_B = r.options_block_B > 0 ? r.options_block_B : cmd_block;
    r.segments = r.options_segments > 0 ? r.options_segments : cmd_segments;
    r.repetitions = r.options_repetitions > 0 ? r.options_repetitions : cmd_repetitions;
    std::vector<std::string> disagree;
    if (r.options_block_B > 0 && cmd_block > 0 && cmd_block != r.options_block_B)
      disagree.push_back("the block size (-b " + std::to_string(cmd_block) + ", blocksize " +
                         std::to_string(r.options_block_B) + " bytes)");
    if (r.options_segments > 0 && cmd_segments > 0 && cmd_segments != r.options_segments)
      disagree.push_back("the segments (-s " + std::to_string(cmd_segments) + ", segments " +
                         std::to_string(r.options_segments) + ")");
    if (r.options_repetitions > 0 && cmd_repetitions > 0 && cmd_repetitions != r.options_repetitions)
      disagree.push_back("the repetitions (-i " + std::to_string(cmd_repetitions) + ", repetitions " +
                         std::to_string(r.options_repetitions) + ")");
    if (access_known && has("-F") != r.file_per_proc)
      disagree.push_back(std::string("the file mode (") + (has("-F") ? "-F" : "no -F") + ", access " + r.access + ")");
    for (const auto& d : disagree)
      warnings.push_back(at + "the command line and the Options below it disagree on " + d + ": an edited or assembled "
                         "IOR output? The Options, what IOR ran, are used");
    found = r;
  }
  return found;
}

// Why a rank's per-op file holds fewer transfers than expected (reported at its last line, as trace.cpp's too_few).
std::string short_file(uint64_t rows)
{
  return rows == 0 ? " (the file holds its header line only)" : " (a file cut at a row boundary, or rows deleted?)";
}

// Where and how the stdout says its run had no stonewall (IorStdout::stonewall_s 0), for a message.
std::string no_stonewall(const IorStdout& s)
{
  return s.file + ":" + std::to_string(s.stonewall_line) +
         (s.stonewall_options ? " lists the run's Options without stonewallingTime (IOR lists it for -D > 0)"
                              : " states deadlineForStonewall: 0");
}

}  // namespace

IoTrace load_ior_perop(const std::string& path, const IorPerOpOptions& given, int replay_ranks)
{
  const fs::path p(path);
  const std::string name = p.filename().string();
  if (detect_format(path) != "ior-perop")
    throw ConfigError(path + ": not an IOR per-op file (expected <prefix>-<rep>-<rank %05d>.csv)");
  const std::string stem = name.substr(0, name.size() - 4);
  const auto d2 = stem.rfind('-');
  const auto d1 = stem.rfind('-', d2 - 1);
  const std::string prefix = stem.substr(0, d1);
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  // Every <prefix>-<rep>-<rank>.csv beside it: rep -> rank -> file
  std::map<long long, std::map<long long, std::string>> files;
  long long top_rank = -1;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string n = e.path().filename().string();
    // (by name: a directory or a special file of such a name is an error below, not a rank left out)
    if (n.rfind(prefix + "-", 0) != 0 || !ior_perop_name(n))
      continue;
    const std::string s = n.substr(0, n.size() - 4);
    const auto b = s.rfind('-'), a = s.rfind('-', b - 1);
    if (s.substr(0, a) != prefix)
      continue;
    long long rep = 0, rank = 0;
    if (!parse_int(s.substr(a + 1, b - a - 1), rep) || !parse_int(s.substr(b + 1), rank) || rep > 1000000 ||
        rank >= kMaxTraceRanks)
      throw ConfigError(e.path().string() + ": expected <prefix>-<repetition>-<rank %05d>.csv with a repetition up to "
                        "1000000 and a rank below " + std::to_string(kMaxTraceRanks));
    std::error_code ec;
    if (!fs::is_regular_file(e.path(), ec))
      throw ConfigError(e.path().string() + ": " + (fs::is_directory(e.path(), ec) ? "a directory" : "not a regular "
                        "file") + " (expected IOR's per-op CSV of rank " +
                        std::to_string(rank) + ", repetition " + std::to_string(rep) + ")");
    files[rep][rank] = e.path().string();
    top_rank = std::max(top_rank, rank);
  }
  IoTrace t;
  t.format = "ior-perop";
  t.path = path;
  // The run's stdout, if saved beside the files: the options it states, checked against those given.
  const auto sout = find_ior_stdout(dir, prefix, t.warnings);
  IorPerOpOptions options = given;
  if (sout) {
    const std::string at = sout->file + ":" + std::to_string(sout->command_line) + ": ";
    if (given.write && *given.write != sout->write)
      throw ConfigError("option --ior-op " + std::string(*given.write ? "write" : "read") + ": " + at +
                                  "the run's command line (" + textin::excerpt(sout->command, 60) + ") makes its per-op "
                                  "files " + (sout->write ? "writes" : "reads"));
    if (given.file_per_proc && !sout->file_per_proc)
      throw ConfigError("option --ior-file-per-process: " + at + "the run wrote one shared file (no -F)");
    if (given.block_B > 0 && sout->block_B > 0 && given.block_B != sout->block_B)
      throw ConfigError("option --ior-block " + std::to_string(given.block_B) + ": " + at + "the run's block "
                                  "size is " + std::to_string(sout->block_B) + " bytes");
    options.write = sout->write;
    options.file_per_proc = sout->file_per_proc;
    if (options.block_B == 0)
      options.block_B = sout->block_B;
    // Every rank writes its per-op file at each repetition: the tasks and repetitions (-i) it states are the files
    // expected. A count `found` (files of 0..found-1) against the `stated` one: the first file missing or beyond.
    auto expect = [&](long long found, long long stated, size_t line, const char* what, bool rank) {
      if (stated <= 0 || files.empty() || found == stated)
        return;
      const long long first = std::min(found, stated);
      char name[48];
      std::snprintf(name, sizeof name, "-%lld-%05lld.csv", rank ? files.begin()->first : first, rank ? first : 0LL);
      throw ConfigError((dir / (prefix + name)).string() + ": " + (found < stated ? "missing" : "beyond the run's") +
                        " (" + sout->file + ":" + std::to_string(line) + " states " + std::to_string(stated) + " " +
                        what + "; files of " + (rank ? "ranks" : "repetitions") + " 0.." + std::to_string(found - 1) +
                        " found)");
    };
    expect(top_rank + 1, sout->tasks, sout->tasks_line, "tasks", true);
    expect(files.empty() ? 0 : files.rbegin()->first + 1, sout->repetitions, sout->command_line, "repetitions (-i)",
           false);
  }
  const bool write = options.write.value_or(true);
  if (sout)
    t.inputs.push_back(sout->file);
  // IOR writes repetitions 0..i-1, each with one file per rank 0..N-1: a hole in either is a lost file.
  const long long reps = files.empty() ? 0 : files.rbegin()->first + 1;
  for (long long rep = 0; rep < reps; ++rep)
    for (long long r = 0; r <= top_rank; ++r)
      if (!files.count(rep) || !files.at(rep).count(r)) {
        char missing[48];
        std::snprintf(missing, sizeof missing, "-%lld-%05lld.csv", rep, r);
        throw ConfigError((dir / (prefix + missing)).string() + ": missing (expected one file per repetition 0.." +
                          std::to_string(reps - 1) + " and rank 0.." + std::to_string(top_rank) +
                          ", as IOR writes them; " + std::to_string(files.count(rep) ? files.at(rep).size() : 0) +
                          (files.count(rep) && files.at(rep).size() == 1 ? " file" : " files") + " of repetition " +
                          std::to_string(rep) + " found)");
      }
  const int ranks = static_cast<int>(top_rank + 1);
  t.ranks = ranks;
  // The files are read once, into the steps' think times (the rest of each step follows from IorLayout) and the
  // recorded statistics; per repetition and rank, the transfers read.
  const int kind = write ? 0 : 1;  // IoPhase::recorded's
  t.kept_ranks = replay_ranks > 0 ? std::min(replay_ranks, ranks) : ranks;
  t.streams.resize(static_cast<size_t>(ranks));
  std::vector<std::vector<uint64_t>> counts;  // [rep index][rank]
  uint64_t transfers = 0;
  std::vector<double> sizes;  // tp x runtime of each transfer with both > 0
  {
    // Everything read into reserved at once, from the files' line counts
    uint64_t all = 0;
    std::vector<uint64_t> steps(static_cast<size_t>(ranks), 0);
    for (const auto& [rep, by_rank] : files) {
      t.phases.push_back({write ? "write" : "read", static_cast<int>(rep), {}});
      uint64_t phase = 0;
      for (const auto& [rank, file] : by_rank) {
        const uint64_t lines = count_lines(file);  // the header and the transfers
        phase += lines;
        steps[static_cast<size_t>(rank)] += lines + 1;  // an open, the transfers, a close
      }
      t.phases.back().recorded[kind].latency_s.reserve(phase);
      all += phase;
    }
    sizes.reserve(all);
    for (int r = 0; r < t.kept_ranks; ++r)
      t.streams[static_cast<size_t>(r)].think_s.reserve(steps[static_cast<size_t>(r)]);
  }
  textin::TimingCheck timing;
  std::vector<std::string> first_file;
  for (const auto& [rep, by_rank] : files) {
    counts.emplace_back();
    auto& rec = t.phases[counts.size() - 1].recorded[kind];
    for (const auto& [rank, file] : by_rank) {
      t.inputs.push_back(file);
      std::ifstream in = open_text(file);
      std::string line;
      size_t n = 0;
      if (!std::getline(in, line))
        fail(file, 1, "empty file: expected the header time,runtime,tp");
      clean(line, ++n);
      textin::check_header_blanks(file, line, "time,runtime,tp");
      if (line != "time,runtime,tp")
        fail(file, 1, "expected the header time,runtime,tp (IOR -O savePerOpDataCSV), got " + quote(line));
      auto& s = t.streams[static_cast<size_t>(rank)];
      const bool keep = rank < t.kept_ranks;
      if (keep)
        s.phase_begin.push_back(s.think_s.size());
      uint64_t k = 0;
      double last_time = 0, prev_end = 0;
      const uint32_t file_id = timing.file_id(file);
      while (std::getline(in, line)) {
        clean(line, ++n);
        // IOR ends every row with a newline: a last row without one is a file cut short (its last number may be cut)
        if (in.eof())
          fail(file, n, "truncated file: the last line has no end of line (expected every row to end with one)");
        if (line.empty())
          fail(file, n, "empty line: expected time,runtime,tp");
        std::vector<std::string> c;
        std::stringstream ss(line);
        for (std::string x; std::getline(ss, x, ',');)
          c.push_back(x);
        if (!line.empty() && line.back() == ',')
          c.push_back("");
        if (c.size() != 3)
          fail(file, n, std::to_string(c.size()) + " columns: expected 3, time,runtime,tp");
        double x[3];
        const char* what[3] = {"time", "runtime", "tp"};
        // IOR prints tp = size / runtime with %e: a transfer timed at 0 s has tp "inf" (its size is then the
        // recovered transfer size, as every other transfer's).
        const bool inf_tp = c[2] == "inf";
        for (int j = 0; j < (inf_tp ? 2 : 3); ++j)
          if (!parse_number(c[static_cast<size_t>(j)], x[j]) || x[j] < 0)
            fail(file, n, std::string(what[j]) + ": expected a finite number >= 0, got " +
                              refused(c[static_cast<size_t>(j)]));
        if (inf_tp && x[1] != 0)
          fail(file, n, "tp: inf with a runtime of " + c[1] + " s: expected a finite number (inf only for 0 s)");
        if (inf_tp)
          x[2] = 0;
        if (x[0] + x[1] > units::kMaxDurationS)
          fail(file, n, "time + runtime above 1e9 s (the simulated clock's range)");
        if (x[1] * x[2] > units::kMaxSizeB)
          fail(file, n, "tp x runtime above 1e15 bytes (the model's largest transfer)");
        const double start = x[0], end = x[0] + x[1];
        // IOR times a rank's transfers one after another (each call returns before the next starts): a row starting
        // before the row above, or before the end of the rank's previous transfer, is an edited or merged file; said
        // as md-workbench's rows are (TimingCheck), replayed in the file's order with no think time before it
        if (k > 0 && last_time - start > textin::kTimingTolerance)
          timing.backwards(last_time - start, file_id, static_cast<uint32_t>(n));
        else if (k > 0 && prev_end - start > textin::kTimingTolerance)
          timing.overlap(prev_end - start, file_id, static_cast<uint32_t>(n));
        // Think time: the open's, the loop's start (it comes after the open); a transfer's, the gap since the end
        // of the rank's previous one
        if (k == 0) {
          prev_end = start;
          if (keep)
            s.think_s.push_back(static_cast<float>(start));
        }
        if (keep)
          s.think_s.push_back(static_cast<float>(std::max(0.0, start - prev_end)));
        prev_end = std::max(prev_end, end);
        rec.first_start_s = rec.ops == 0 ? start : std::min(rec.first_start_s, start);
        rec.last_end_s = rec.ops == 0 ? end : std::max(rec.last_end_s, end);
        ++rec.ops;
        rec.latency_s.push_back(static_cast<float>(end - start));
        if (x[1] > 0 && x[2] > 0)
          sizes.push_back(x[1] * x[2]);
        last_time = x[0];
        ++k;
      }
      if (keep && k > 0)
        s.think_s.push_back(0.f);  // the close
      counts.back().push_back(k);
      transfers += k;
    }
    first_file.push_back(by_rank.begin()->second);
  }
  for (int r = 0; r < t.kept_ranks; ++r)
    t.streams[static_cast<size_t>(r)].phase_begin.push_back(t.streams[static_cast<size_t>(r)].think_s.size());
  // The transfer size: the median of tp x runtime over every transfer (tp has 7 significant digits), rounded to a
  // multiple of 8 bytes (IOR requires -t to be one).
  if (sizes.empty())
    throw ConfigError(first_file.front() + ": no transfer with runtime > 0 and tp > 0: cannot recover the transfer size");
  std::nth_element(sizes.begin(), sizes.begin() + static_cast<long>(sizes.size() / 2), sizes.end());
  const double median = sizes[sizes.size() / 2];
  const uint64_t recovered = std::max<uint64_t>(8, static_cast<uint64_t>(std::llround(median / 8)) * 8);
  const uint64_t transfer = sout && sout->transfer_B > 0 ? sout->transfer_B : recovered;
  const std::string stdout_at = sout ? sout->file + ":" + std::to_string(sout->command_line) : "";
  // The stdout's -t against the transfers the files hold: another run's stdout (its files replaced) would replay
  // another amount of data
  if (transfer != recovered && std::fabs(median / static_cast<double>(transfer) - 1) > 0.01)
    throw ConfigError(stdout_at + ": the run's transfer size " + std::to_string(transfer) + " bytes (-t or xfersize), "
                      "but the per-op files' transfers are " + std::to_string(recovered) + " bytes (the median of tp x "
                      "runtime): expected the stdout of the run that wrote them");
  // Transfers whose own size is unknown (timed at 0 s, or tp 0) or more than 1% off: replayed at the recovered size.
  uint64_t off = 0, known = 0;
  for (const double x : sizes)
    if (x > 0) {
      ++known;
      off += std::fabs(x / static_cast<double>(transfer) - 1) > 0.01;
    }
  release(sizes);
  const uint64_t unknown = transfers - known;
  uint64_t fewest = UINT64_MAX, most_rows = 0;
  std::string fewest_file;
  for (size_t i = 0; i < counts.size(); ++i)
    for (size_t r = 0; r < counts[i].size(); ++r) {
      most_rows = std::max(most_rows, counts[i][r]);
      if (counts[i][r] < fewest) {
        fewest = counts[i][r];
        fewest_file = files.at(t.phases[i].iteration).at(static_cast<long long>(r));
      }
    }
  // Layout: IOR's -b (one segment of every transfer when not given)
  const uint64_t block = options.block_B > 0 ? options.block_B : std::max<uint64_t>(1, most_rows) * transfer;
  if (block % transfer != 0)
    throw ConfigError((given.block_B > 0 ? std::string("option --ior-block") : stdout_at + ": the run's -b") + ": " +
                      std::to_string(block) + " bytes is not a multiple of the transfer size " +
                      std::to_string(transfer) + " bytes" +
                      (transfer == recovered ? " recovered from the files (tp x runtime)" : " (the stdout's -t)"));
  const uint64_t per_block = block / transfer;
  IorLayout layout{transfer, block, 0, options.file_per_proc, write};
  // A rank whose transfers end inside a block (a stonewalled run, IOR -D: ranks stop at different counts) keeps
  // IOR's offset pattern: its last segment is partial.
  uint64_t partial = 0;
  for (const auto& rep : counts)
    for (const uint64_t k : rep) {
      partial += k % per_block != 0;
      layout.segments = std::max<uint64_t>(layout.segments, (k + per_block - 1) / per_block);
    }
  // The stdout's segments (-s): a rank's file holds at most segments x block / transfer transfers (fewer: a
  // stonewalled run, IOR -D); more is another run's stdout (helper-116: -s 1 beside files of 2 segments passed)
  if (sout && sout->segments > 0) {
    const std::string seg_at = stdout_at + ": the run's " + std::to_string(sout->segments) + " segment" +
                               (sout->segments == 1 ? "" : "s") + " (-s or segments) of " + std::to_string(block) +
                               " bytes";
    if (layout.segments > static_cast<uint64_t>(sout->segments))
      throw ConfigError(seg_at + " hold " + std::to_string(static_cast<uint64_t>(sout->segments) * per_block) +
                        " transfers of " + std::to_string(transfer) + " bytes per rank, but a rank's per-op file holds " +
                        std::to_string(most_rows) + ": expected the stdout of the run that wrote them");
    // Without a stonewall every rank does every transfer (IOR's loop stops early only at the -D deadline or at a
    // transfer count the command line gives): a shorter file is cut at a row boundary or has rows deleted (helper-136:
    // a file of its header line only was a warning).
    const uint64_t expected = static_cast<uint64_t>(sout->segments) * per_block;
    if (sout->stonewall_s == 0 && !sout->pair_limit && options.block_B > 0)
      for (size_t i = 0; i < counts.size(); ++i)
        for (size_t r = 0; r < counts[i].size(); ++r)
          if (counts[i][r] < expected)
            fail(files.at(t.phases[i].iteration).at(static_cast<long long>(r)), counts[i][r] + 1,
                 "expected " + std::to_string(expected) + " transfers (" + seg_at + ", transfers of " +
                     std::to_string(transfer) + " bytes; no stonewall: " + no_stonewall(*sout) + "), found " +
                     std::to_string(counts[i][r]) + short_file(counts[i][r]));
    if (most_rows < expected)
      t.warnings.push_back(seg_at + " would be " + std::to_string(static_cast<uint64_t>(sout->segments) * per_block) +
                           " transfers per rank; the per-op files hold at most " + std::to_string(most_rows) +
                           " (a stonewalled run, IOR -D?)");
  }
  if (static_cast<double>(layout.segments) * static_cast<double>(block) *
          (options.file_per_proc ? 1.0 : static_cast<double>(ranks)) > units::kMaxSizeB)
    throw ConfigError(path + ": " + std::to_string(layout.segments) + " segments of " + std::to_string(block) +
                      " bytes: the file would exceed 1e15 bytes, the model's largest");
  t.ior = layout;
  // Files: IOR's test file, shared, or one per rank (IOR -F names them <file>.<rank %08d>)
  if (options.file_per_proc) {
    for (int r = 0; r < ranks; ++r) {
      char n[32];
      std::snprintf(n, sizeof n, ".%08d", r);
      t.files.push_back({prefix + n, fnv1a(prefix + n), false, 0});
    }
  } else {
    t.files.push_back({prefix, fnv1a(prefix), true, 0});  // without -F IOR uses one file, even from one rank
  }
  // A file's extent: its last transfer's end (a rank's offsets grow with its transfers)
  for (int r = 0; r < ranks; ++r)
    for (const auto& rep : counts)
      if (const uint64_t k = rep[static_cast<size_t>(r)]; k > 0) {
        auto& ext = t.files[options.file_per_proc ? static_cast<size_t>(r) : 0].extent_B;
        ext = std::max(ext, ior_offset(layout, ranks, r, k - 1) + transfer);
      }
  // Recorded bytes: the transfers' sizes summed one by one, as the replay sums them
  for (auto& ph : t.phases) {
    auto& rec = ph.recorded[kind];
    for (uint64_t k = 0; k < rec.ops; ++k)
      rec.bytes += static_cast<double>(transfer);
    std::sort(rec.latency_s.begin(), rec.latency_s.end());
  }
  (write ? t.writes : t.reads) = transfers;
  for (uint64_t k = 0; k < transfers; ++k)
    (write ? t.bytes_written : t.bytes_read) += static_cast<double>(transfer);
  std::ostringstream w;
  if (sout && options.block_B == 0)
    t.warnings.push_back("the IOR stdout " + sout->file + " states no exact block size (-b, or its Options' "
                         "blocksize): one block of every transfer of a rank (" + std::to_string(block) + " bytes, 1 "
                         "segment); --ior-block gives it");
  if (sout) {
    w << "IOR per-op files read with the run's stdout " << sout->file << ": replayed as " << (write ? "writes" : "reads") << ", " << (options.file_per_proc ? "a file per process" : "one shared file")
      << ", block " << block << " bytes, " << layout.segments << (layout.segments == 1 ? " segment" : " segments")
      << ", transfer size " << transfer << " bytes"
      << (sout->transfer_B > 0 ? "" : " (the median of tp x runtime, rounded to a multiple of 8 bytes)");
    t.notes.push_back(w.str());
  } else {
    w << "IOR per-op files record no access, file mode or block size, and no IOR stdout beside them names "
         "savePerOpDataCSV=" << prefix << ": replayed as " << (write ? "writes" : "reads")
      << " (--ior-op), " << (options.file_per_proc ? "a file per process (--ior-file-per-process)" : "one shared file")
      << ", block " << block << " bytes, " << layout.segments << (layout.segments == 1 ? " segment" : " segments")
      << (options.block_B > 0 ? "" : " (--ior-block)") << "; transfer size " << transfer
      << " bytes (the median of tp x runtime, rounded to a multiple of 8 bytes)";
    t.warnings.push_back(w.str());
  }
  if (partial > 0)
    t.warnings.push_back(std::to_string(partial) + " rank file(s) end inside a block of " + std::to_string(block) +
                         " bytes (a stonewalled run, or --ior-block not IOR's -b): the last segment is partial");
  auto plural = [](uint64_t k, const char* one, const char* many) { return std::to_string(k) + (k == 1 ? one : many); };
  if (off > 0)
    t.warnings.push_back(plural(off, " transfer", " transfers") + " whose tp x runtime is more than 1% from " +
                         std::to_string(transfer) + " bytes: replayed at " + std::to_string(transfer) + " bytes");
  if (unknown > 0)
    t.warnings.push_back(plural(unknown, " transfer", " transfers") + " timed at 0 s or with tp 0 (no size recorded): "
                         "replayed at " + std::to_string(transfer) + " bytes");
  if (const std::string w = timing.warning(dir.string(), "replayed in the files' order"); !w.empty())
    t.warnings.push_back(w);
  // IOR gives every rank the same count unless the run was stonewalled (-D): a shorter file is said, naming it; an
  // error when the stdout says the run had no stonewall.
  if (fewest < most_rows && sout && sout->stonewall_s == 0)
    fail(fewest_file, fewest + 1, "expected " + std::to_string(most_rows) + " transfers, as other ranks' files hold "
         "(no stonewall: " + no_stonewall(*sout) + ", so every rank did the same transfers), found " +
         std::to_string(fewest) + short_file(fewest));
  if (fewest < most_rows)
    t.warnings.push_back("ranks have different transfer counts (" + std::to_string(fewest) + " to " +
                         std::to_string(most_rows) + "; fewest: " + fewest_file + "): a stonewalled run (IOR -D), or a "
                         "file cut at a row boundary");
  return t;
}

}  // namespace pfsim::iotrace
