#include "workload/trace.hpp"

#include "workload/mdtest_options.hpp"
#include "workload/text_input.hpp"
#include "workload/timing_check.hpp"

#include "config/reader.hpp"
#include "config/units.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using pfsim::config::ConfigError;

namespace pfsim::trace {

const char* trace_op_name(TraceOp op)
{
  switch (op) {
    case TraceOp::Stat:
      return "stat";
    case TraceOp::Read:
      return "read";
    case TraceOp::Create:
      return "create";
    case TraceOp::Delete:
      return "delete";
  }
  return "?";
}

uint64_t Trace::op_count() const
{
  uint64_t n = 0;
  for (const auto& s : streams)
    n += s.op.size();
  return n;
}

nlohmann::json Trace::describe() const
{
  nlohmann::json phases = nlohmann::json::array();
  for (const auto& p : this->phases)
    phases.push_back({{"name", p.name}, {"iteration", p.iteration}});
  return {{"format", format},
          {"path", path},
          {"prefix", prefix},
          {"ranks", ranks},
          {"recorded_ranks", recorded_ranks > 0 ? recorded_ranks : ranks},
          {"operations", op_count()},
          {"params",
           {{"obj_per_proc", params.obj_per_proc},
            {"precreate_per_set", params.precreate_per_set},
            {"data_sets", params.data_sets},
            {"iterations", params.iterations},
            {"offset", params.offset},
            {"object_size_B", params.object_size_B}}},
          {"phases", phases},
          {"shared_dir", shared_dir},
          {"mdtest_stride", mdtest_stride},
          {"missing", missing},
          {"warnings", warnings}};
}

namespace {

using textin::excerpt;
using textin::fail;
using textin::is_decimal;
using textin::strip_bom;
using textin::kTimingTolerance;
using textin::TimingCheck;

std::vector<std::string> split(const std::string& s, char sep)
{
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else if (c != '\r') {
      cur.push_back(c);
    }
  }
  out.push_back(cur);
  return out;
}

double parse_number(const std::string& file, size_t line, const std::string& column, const std::string& text)
{
  const char* b = text.c_str();
  char* e = nullptr;
  errno = 0;
  double v = is_decimal(text) ? std::strtod(b, &e) : 0.0;
  if (!is_decimal(text) || e == b || *e != '\0')
    fail(file, line, "column '" + column + "': not a number: " + excerpt(text) +
                         " (expected a decimal number such as 0.0012 or 1.2e-03)");
  // A decimal number beyond a double (1e400) or too close to 0 for one (1e-400): a number, but none the tools write.
  if (errno == ERANGE || !std::isfinite(v))
    fail(file, line, "column '" + column + "': " + excerpt(text) + " is out of range (expected 0 or a magnitude "
                     "between 2.2e-308 and 1.8e308, a double's range)");
  return v;
}

// Largest time or duration a latency file may hold: anything longer is a corrupt value, and would overflow the
// float32 the importer keeps or the simulated clock.
constexpr double kMaxSeconds = 1e9;

}  // namespace

void read_latency_csv(const std::string& file, std::vector<std::pair<float, float>>& rows, std::vector<float>* tp,
                      bool* has_tp)
{
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw ConfigError(file + ": cannot open file");
  const std::string expected = tp ? "time,runtime,tp" : "time,runtime";  // mdtest's files have the tp column
  std::string line;
  if (!std::getline(in, line))
    fail(file, 1, "empty file; expected the header " + expected);
  strip_bom(line);
  textin::check_header_blanks(file, line, expected);
  auto header = split(line, ',');
  int t_col = -1, r_col = -1, tp_col = -1;
  // time and runtime, and tp in mdtest's per-op files: no other column, none twice (md-real-io's and md-workbench's
  // files have two columns; a third is another tool's file or a corrupt one).
  std::string odd;  // the first unexpected or repeated column
  for (size_t i = 0; i < header.size(); ++i) {
    int* col = header[i] == "time" ? &t_col : header[i] == "runtime" ? &r_col : header[i] == "tp" && tp ? &tp_col
                                                                                                         : nullptr;
    if ((!col || *col >= 0) && odd.empty())
      odd = col ? "column " + excerpt(header[i]) + " appears twice" : "unexpected column " + excerpt(header[i]);
    if (col && *col < 0)
      *col = static_cast<int>(i);
  }
  if (t_col < 0 || r_col < 0)
    fail(file, 1, std::string("missing column '") + (t_col < 0 ? "time" : "runtime") + "' (header is " +
                      excerpt(line) + ", expected " + expected + ")");
  if (!odd.empty())
    fail(file, 1, odd + " (header is " + excerpt(line) + ", expected " + expected +
                      (tp ? ")" : "; only mdtest's per-op files have a third column, tp)"));
  if (has_tp)
    *has_tp = tp_col >= 0;
  if (in.eof())
    fail(file, 1, "truncated file: the header line has no end of line");
  size_t n = 1;
  while (std::getline(in, line)) {
    ++n;
    if (in.eof())
      fail(file, n, "truncated file: the last line has no end of line");
    if (line.empty() || line == "\r")
      fail(file, n, "empty line");
    auto f = split(line, ',');
    if (f.size() != header.size())
      fail(file, n, "expected " + std::to_string(header.size()) + " columns, got " + std::to_string(f.size()) +
                        " (" + excerpt(line) + ")");
    double t = parse_number(file, n, "time", f[static_cast<size_t>(t_col)]);
    double r = parse_number(file, n, "runtime", f[static_cast<size_t>(r_col)]);
    if (t < 0 || r < 0)
      fail(file, n, std::string("column '") + (t < 0 ? "time" : "runtime") + "': " +
                        excerpt(f[static_cast<size_t>(t < 0 ? t_col : r_col)]) + " is negative (expected seconds >= 0)");
    if (t > kMaxSeconds || r > kMaxSeconds)
      fail(file, n, std::string("column '") + (t > kMaxSeconds ? "time" : "runtime") + "': " +
                        excerpt(f[static_cast<size_t>(t > kMaxSeconds ? t_col : r_col)]) +
                        " s is out of range (expected at most 1e9 s)");
    rows.emplace_back(static_cast<float>(t), static_cast<float>(r));
    if (tp) {
      // mdtest writes tp = bytes / runtime with %e: a runtime below its timer's resolution (0) gives "inf" (or
      // "-nan" with 0 bytes). That row says nothing about the size: 0 (unknown).
      const std::string& tp_text = tp_col >= 0 ? f[static_cast<size_t>(tp_col)] : std::string();
      const bool zero_runtime_tp = r == 0 && (tp_text == "inf" || tp_text == "-nan" || tp_text == "nan");
      double x = tp_col >= 0 && !zero_runtime_tp ? parse_number(file, n, "tp", tp_text) : 0.0;
      if (x < 0)
        fail(file, n, "column 'tp': negative throughput " + excerpt(tp_text) + " (expected bytes / runtime, at least 0)");
      if (std::fabs(x) > FLT_MAX)
        fail(file, n, "column 'tp': " + excerpt(f[static_cast<size_t>(tp_col)]) + " is out of range (expected at most 3.4e+38, the float32 range)");
      tp->push_back(static_cast<float>(x));
    }
  }
}

namespace {

// ------------------------------------------------------------------------------------------- file names

struct FileKey {
  int iteration = 0;
  std::string phase;  // precreate, stat, read, create, delete, cleanup, or the mdtest phase name
  int rank = -1;      // -1 = concatenated (-all) or rank 0 only (-L)
};

bool is_mdw_phase(const std::string& p)
{
  return p == "precreate" || p == "stat" || p == "read" || p == "create" || p == "delete" || p == "cleanup";
}

// mdtest phases written by --savePerOpDataCSV that the importer does not replay (kept out of the trace as before).
bool is_mdtest_dir_phase(const std::string& p)
{
  return p == "Directory creation" || p == "Directory stat" || p == "Directory read" || p == "Directory removal" ||
         p == "Directory rename" || p == "Tree creation" || p == "Tree removal";
}

std::optional<TraceOp> op_of_phase_file(const std::string& p)
{
  if (p == "stat" || p == "File stat")
    return TraceOp::Stat;
  if (p == "read" || p == "File read")
    return TraceOp::Read;
  if (p == "create" || p == "precreate" || p == "File creation")
    return TraceOp::Create;
  if (p == "delete" || p == "cleanup" || p == "File removal")
    return TraceOp::Delete;
  return std::nullopt;
}

struct Listing {
  std::string format;
  std::string prefix;
  std::map<std::string, FileKey> files;  // path -> key
  size_t mdtest_dir_files = 0;           // mdtest Directory- and Tree-phase files beside them (not replayed)
  std::string mdtest_dir_phases;         // their phases, e.g. "Directory creation, Tree removal"
};

// What a path that is not a regular file is, for a message: "a directory", "a FIFO", "a broken symbolic link to
// /x", "a symbolic link to a character device (/dev/null)".
std::string file_kind(const fs::path& p)
{
  std::error_code ec;
  const auto own = fs::symlink_status(p, ec);
  const auto st = fs::status(p, ec);
  std::string what;
  switch (st.type()) {
    case fs::file_type::directory:
      what = "a directory";
      break;
    case fs::file_type::fifo:
      what = "a FIFO";
      break;
    case fs::file_type::character:
      what = "a character device";
      break;
    case fs::file_type::block:
      what = "a block device";
      break;
    case fs::file_type::socket:
      what = "a socket";
      break;
    case fs::file_type::regular:
      what = "a regular file";
      break;
    case fs::file_type::not_found:
      what = "missing";
      break;
    default:
      what = "not a regular file";
  }
  if (fs::is_symlink(own)) {
    const std::string target = excerpt(fs::read_symlink(p, ec).string());
    return st.type() == fs::file_type::not_found ? "a broken symbolic link (to " + target + ")"
                                                 : "a symbolic link to " + what + " (" + target + ")";
  }
  return what;
}

// What a user may take for a trace (both are in IOR and IO500 result directories).
const std::string kNotTraces = "a Darshan DXT text dump or an IOR per-op file, <prefix>-<rep>-<rank %05d>.csv, is "
                               "replayed by naming the file itself: pfsim replay DIR/ior.dxt.txt or "
                               "DIR/ior-perop-0-00000.csv; binary .darshan logs need darshan-dxt-parser first";

Listing list_files(const std::string& path)
{
  fs::path dir = path;
  std::string only_prefix;
  std::string only_format;
  static const std::regex mdreal(R"(^(.+)-([0-9]+)-([a-z]+)-([0-9]+)\.csv$)");
  static const std::regex mdw_all(R"(^(.+)-([0-9]+\.[0-9]+)-([0-9]+)-([a-z]+)-all\.csv$)");
  static const std::regex mdw_l(R"(^(.+)-([0-9]+\.[0-9]+)-([0-9]+)-([a-z]+)\.csv$)");
  static const std::regex mdtest(R"(^(.+)-((?:File|Directory|Tree) [a-z]+)-([0-9]+)\.csv$)");
  // Names that have the shape of a latency file but an operation the format does not have are classified too
  // (`unknown` set): a file of the trace's own format and prefix with such a name is an error, not ignored.
  auto classify = [&](const std::string& name, FileKey& k, std::string& format, std::string& prefix,
                      bool* unknown = nullptr) {
    std::smatch m;
    if (unknown)
      *unknown = false;
    // A rank or iteration number of the name (digits only, by the patterns): at most 999,999,999.
    auto num = [&](const std::string& digits) {
      const size_t nz = std::min(digits.find_first_not_of('0'), digits.size());
      if (digits.size() - nz > 9)
        throw ConfigError((fs::is_directory(dir) ? (dir / name).string() : path) + ": the number " + digits +
                          " in the file name is out of range (a rank or iteration number, at most 999999999)");
      return std::stoi(digits);
    };
    auto other = [&](bool known) {
      if (unknown)
        *unknown = !known;
      return known || unknown;
    };
    if (std::regex_match(name, m, mdw_all)) {
      format = "md-workbench-all";
      prefix = m[1].str() + "-" + m[2].str();
      k = {num(m[3]), m[4], -1};
      return other(is_mdw_phase(m[4]));
    }
    if (std::regex_match(name, m, mdw_l)) {
      format = "md-workbench-rank0";
      prefix = m[1].str() + "-" + m[2].str();
      k = {num(m[3]), m[4], 0};
      return other(is_mdw_phase(m[4]));
    }
    if (std::regex_match(name, m, mdreal)) {
      format = "md-real-io-2017";
      prefix = m[1];
      k = {num(m[2]), m[3], num(m[4])};
      return other(is_mdw_phase(m[3]));
    }
    if (std::regex_match(name, m, mdtest) && !is_mdtest_dir_phase(m[2])) {
      format = "mdtest-perop";
      prefix = m[1];
      k = {0, m[2], num(m[3])};
      return other(op_of_phase_file(m[2]).has_value());
    }
    return false;
  };
  if (fs::is_regular_file(dir)) {
    FileKey k;
    std::error_code size_ec;
    if (fs::file_size(dir, size_ec) == 0 && !size_ec)
      throw ConfigError(path + ":1: empty file: expected a trace (a latency file, an mdtest or IOR per-op file, or a "
                               "Darshan DXT dump)");
    if (!classify(dir.filename().string(), k, only_format, only_prefix))
      throw ConfigError(path + ": not a recognised latency file name (expected <prefix>-<iter>-<phase>-<rank>.csv, "
                               "<prefix>-<wait>-<iter>-<phase>[-all].csv or <prefix>-File <op>-<rank>.csv; " +
                        kNotTraces + ")");
    dir = dir.parent_path();
    if (dir.empty())
      dir = ".";
  } else if (!fs::is_directory(dir)) {
    std::error_code ec;
    if (fs::exists(fs::symlink_status(dir, ec)))
      throw ConfigError(path + ": is " + file_kind(dir) + ", not a trace directory or latency file");
    throw ConfigError(path + ": no such trace directory or file");
  }
  Listing out;
  std::map<std::pair<std::string, std::string>, int> groups;
  std::vector<std::tuple<std::string, std::string, std::string, FileKey>> found;
  std::vector<std::tuple<std::string, std::string, std::string, FileKey>> unknown_files;
  size_t mdtest_dir_files = 0;
  std::set<std::string> skipped_phases;
  for (const auto& e : fs::directory_iterator(dir)) {
    std::error_code ec;
    if (!e.is_regular_file(ec)) {
      // Named like a latency file of the trace but not one (a directory, FIFO, device, broken link): said as such,
      // not ignored (the trace would then lack that rank's file, reported as missing).
      FileKey k;
      std::string format, prefix;
      bool unknown = false;
      if (classify(e.path().filename().string(), k, format, prefix, &unknown) &&
          (only_prefix.empty() || (prefix == only_prefix && format == only_format)))
        throw ConfigError(e.path().string() + ": is " + file_kind(e.path()) + ", not a regular file (its name is a " +
                          format + " latency file's)");
      continue;
    }
    std::smatch dm;
    const std::string fname = e.path().filename().string();
    if (std::regex_match(fname, dm, mdtest) && is_mdtest_dir_phase(dm[2])) {
      ++mdtest_dir_files;
      skipped_phases.insert(dm[2]);
    }
    FileKey k;
    std::string format, prefix;
    bool unknown = false;
    if (!classify(e.path().filename().string(), k, format, prefix, &unknown))
      continue;
    if (!only_prefix.empty() && (prefix != only_prefix || format != only_format))
      continue;
    if (unknown) {
      unknown_files.emplace_back(e.path().string(), format, prefix, k);
      continue;
    }
    groups[{format, prefix}]++;
    found.emplace_back(e.path().string(), format, prefix, k);
  }
  if (groups.empty() && mdtest_dir_files > 0)
    throw ConfigError(dir.string() + ": only mdtest Directory-phase files (" + std::to_string(mdtest_dir_files) +
                      "); the importer replays mdtest's File phases (creation, stat, read, removal), not its "
                      "directory phases");
  if (groups.empty())
    throw ConfigError(dir.string() + ": no latency files found; expected md-real-io 2017's "
                      "<prefix>-<iter>-<phase>-<rank>.csv, md-workbench's <prefix>-<wait>-<iter>-<op>[-all].csv or "
                      "mdtest's <prefix>-File <phase>-<rank>.csv (" + kNotTraces + ")");
  if (groups.size() > 1) {
    std::string list;
    for (const auto& g : groups)
      list += " " + g.first.second + " (" + g.first.first + ")";
    throw ConfigError(dir.string() + ": several traces in one directory:" + list + "; name one of its files");
  }
  out.format = groups.begin()->first.first;
  out.prefix = groups.begin()->first.second;
  std::sort(unknown_files.begin(), unknown_files.end(),
            [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
  for (const auto& [p, f, pre, k] : unknown_files)
    if (f == out.format && pre == out.prefix)
      throw ConfigError(p + ": unknown operation '" + k.phase + "' in a " + f + " trace (prefix " + pre +
                        "); expected one of " +
                        (f == "mdtest-perop" ? "File creation, File stat, File read, File removal"
                                             : "precreate, stat, read, create, delete, cleanup"));
  for (auto& [p, f, pre, k] : found)
    out.files[p] = k;
  out.mdtest_dir_files = out.format == "mdtest-perop" ? mdtest_dir_files : 0;
  for (const auto& ph : skipped_phases)
    out.mdtest_dir_phases += (out.mdtest_dir_phases.empty() ? "" : ", ") + ph;
  return out;
}

// ----------------------------------------------------------------------------------------- headers

std::string trim(std::string s)
{
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.pop_back();
  size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
    ++i;
  return s.substr(i);
}

// An integer field of a header's "key=value" block (obj-per-proc=20, object-size=3901): digits only, as the tools
// print them (no sign, fraction or exponent: object-size=1e3 is refused as -S=1e3 is), at most 2^31 - 1.
int to_int(const std::string& file, size_t line, const std::string& key, const std::string& v)
{
  const std::string x = trim(v);
  if (x.empty() || x.size() > 10 || x.find_first_not_of("0123456789") != std::string::npos ||
      std::stoll(x) > 2147483647)
    fail(file, line, "header field '" + key + "': expected a non-negative integer" +
                         (key == "object-size" ? " number of bytes" : "") + " (digits only, at most 2147483647), got " +
                         excerpt(v));
  return static_cast<int>(std::stoll(x));
}

uint64_t to_u64(const std::string& file, size_t line, const std::string& key, const std::string& digits)
{
  errno = 0;
  unsigned long long v = std::strtoull(digits.c_str(), nullptr, 10);
  if (errno == ERANGE)
    fail(file, line, "'" + key + "': number out of range: " + excerpt(digits));
  return v;
}

// A rate or time of a phase line ("17.9s", "11156.8 iops/s"; digits and dots, as the line's pattern matched it): a
// decimal number within a double's range (std::stod failed without naming the line: "pfsim: failed: stod").
double line_number(const std::string& file, size_t line, const std::string& what, const std::string& text)
{
  char* e = nullptr;
  errno = 0;
  const double v = is_decimal(text) ? std::strtod(text.c_str(), &e) : 0.0;
  if (!is_decimal(text) || *e != '\0')
    fail(file, line, "the phase line's " + what + ": not a number: " + excerpt(text) +
                         " (expected a decimal number such as 17.9)");
  if (errno == ERANGE || !std::isfinite(v))
    fail(file, line, "the phase line's " + what + ": " + excerpt(text) +
                         " is out of range (expected at most 1.8e308, a double's range)");
  return v;
}

// What the headers (mdreal.txt, stdout.txt) state besides the parameters.
struct HeaderInfo {
  enum Param { kI, kP, kD, kR, kS, kO, kParams };
  std::array<bool, kParams> stated{};  // the header gives it (Args line or "key=value" block)
  std::array<std::string, kParams> stated_at{};  // "file:line" where it was stated
  std::string args_at;                 // "file:line" of md-workbench's Args line; "" = none
  bool stonewall = false;              // a stonewall timer (-w > 0): ranks did different numbers of benchmark objects
  double waiting = 0;                  // md-workbench -t: after each operation a wait of this x its runtime
  // Statements of the run's rank count, each with where it was read (0 = absent).
  int report_ranks = 0;  // per-rank report lines "<r>: <phase> ...": highest r + 1
  std::string report_at;
  int nodemap = 0;  // "Nodemap: 11": one character per rank
  std::string nodemap_at;
  uint64_t dsets = 0;  // data sets of the precreate or cleanup line: ranks x D
  std::string dsets_at, dsets_phase;
  uint64_t total_objects = 0;  // "total objects: T" = ranks x D x (P + I x R)
  std::string total_at;
  // Which phases the run ran (md-real-io's "run-precreate" / "run-benchmark" / "run-cleanup" lines, md-workbench's
  // -1 -2 -3 options): bits 1 precreate, 2 benchmark, 4 cleanup; -1 = the header does not say.
  int run_phases = -1;
  std::string run_phases_at;
  std::string read_only_at;  // where md-workbench's --read-only was given ("": not given)
  // The latency files' prefix the output states (md-real-io's "latency=", md-workbench's -L) and where; whether
  // md-workbench's Args line has --latency-all (then it wrote only -all files), or md-real-io's option block its
  // "latency-all" line (then every rank kept its files; without it rank 0 alone did), and where.
  std::string latency, latency_at;
  std::string latency_all_at;
  bool args_latency = false;  // md-workbench's Args line has -L (without it the run wrote no latency files)
  // What tells the tool generation apart (Trace::output_generation): the banner ("MD-REAL-IO", "MD-Workbench"), an
  // option block ("\tinterface=posix": md-real-io and the standalone md-workbench print one, IOR's does not), the
  // interface option of the Args line (standalone: -i / --interface; IOR's: -a / --api).
  std::string banner;
  bool option_block = false;
  bool args_interface = false, args_api = false;
  // "file:line" of the first line of a recorded md-real-io option block: the "\tkey=value" lines after its
  // "MD-REAL-IO total objects: ..." line, which list every option, -L's prefix as "latency=" (empty without -L).
  // "" = none read (a block written by hand, without that line, states only what it has).
  std::string options_at;
};


// A value of an md-workbench integer option as IOR's parser reads it: digits with an optional k, m, g, t or p
// suffix (either case; powers of 1024: 4k = 4096).
int option_int(const std::string& file, size_t line, const std::string& option, const std::string& text)
{
  const double x = units::parse_tool_size(trim(text), 10);
  const bool size = option == "-S" || option == "--object-size";
  if (x < 0)
    fail(file, line, "option " + option + ": expected a non-negative integer" + (size ? " number of bytes" : "") +
                         " with an optional k/m/g/t/p suffix (powers of 1024, as md-workbench reads them: 4k = 4096), "
                         "got " + excerpt(text));
  if (x > 2147483647.0)
    fail(file, line, "option " + option + ": " + excerpt(text) + " is out of range (md-workbench keeps it in an int: "
                     "at most 2147483647)");
  return static_cast<int>(x);
}

// The options of md-workbench's parser (IOR 4.x; -i, -m, -M of the 2019 standalone tool): whether each takes a value
// and which parameter the importer reads from it (-1: none). Unknown options (a backend's) are taken as flags.
struct MdwOption {
  char short_name;
  const char* long_name;
  bool value;
  int param;
};
constexpr MdwOption kMdwOptions[] = {
    {'O', "offset", true, HeaderInfo::kO},
    {'I', "obj-per-proc", true, HeaderInfo::kI},
    {'P', "precreate-per-set", true, HeaderInfo::kP},
    {'D', "data-sets", true, HeaderInfo::kD},
    {'R', "iterations", true, HeaderInfo::kR},
    {'S', "object-size", true, HeaderInfo::kS},
    {'w', "stonewall-timer", true, -2},  // -2: read as the stonewall timer
    {'a', "api", true, -1},
    {'i', "interface", true, -1},
    {'L', "latency", true, -1},
    {'G', nullptr, true, -1},
    {'o', nullptr, true, -1},
    {'t', "waiting-time", true, -3},  // -3: read as the waiting factor
    {'m', "lim-free-mem", true, -1},
    {'M', "lim-free-mem-phase", true, -1},
    {0, "start-item", true, -1},
    {0, "run-info-file", true, -1},
    {0, "latency-all", false, -1},
    {'q', "quiet", false, -1},
    {'T', "adaptive-waiting", false, -1},
    {'1', "run-precreate", false, -1},
    {'2', "run-benchmark", false, -1},
    {'3', "run-cleanup", false, -1},
    {'W', "stonewall-wear-out", false, -1},
    {'X', "verify-read", false, -1},
    {'v', "verbose", false, -1},
    {0, "incompressible-data", false, -1},
    {0, "allocateBufferOnGPU", false, -1},
    {0, "print-detailed-stats", false, -1},
    {0, "read-only", false, -1},
    {0, "ignore-precreate-errors", false, -1},
    {0, "process-reports", false, -1},
};

// The arguments of md-workbench's "Args: <argv[0]> "<arg>" "<arg>" ..." line (each argument in double quotes; a
// hand-written line without quotes is split at white space).
std::vector<std::string> args_tokens(const std::string& s)
{
  std::vector<std::string> out;
  size_t i = s.find(" \"");
  if (i == std::string::npos) {  // argv[0] is the first word
    i = s.find_first_not_of(" \t");
    i = i == std::string::npos ? s.size() : s.find_first_of(" \t", i);
    if (i == std::string::npos)
      i = s.size();
  }
  while (i < s.size()) {
    if (s[i] == ' ' || s[i] == '\t') {
      ++i;
    } else if (s[i] == '"') {  // up to the quote that ends the argument (followed by a space or the end)
      size_t j = i + 1;
      while (j < s.size() && !(s[j] == '"' && (j + 1 == s.size() || s[j + 1] == ' ' || s[j + 1] == '\t')))
        ++j;
      out.push_back(s.substr(i + 1, j - i - 1));
      i = j + 1;
    } else {
      size_t j = s.find_first_of(" \t", i);
      if (j == std::string::npos)
        j = s.size();
      out.push_back(s.substr(i, j - i));
      i = j;
    }
  }
  return out;
}

// One header's statement of a parameter, at `file`:`line`. Headers must agree: a value that another line (of
// mdreal.txt or stdout.txt, or a repeated key) states otherwise is an error. (Within one Args line the last
// occurrence wins, as IOR's option parser does: read_args_line passes only that one.)
void set_param(BenchmarkParams& p, HeaderInfo& h, int param, int v, const std::string& file, size_t line)
{
  static const char* names[HeaderInfo::kParams] = {"obj-per-proc (-I)", "precreate-per-set (-P)", "data-sets (-D)",
                                                    "iterations (-R)", "object-size (-S)", "offset"};
  if (param == HeaderInfo::kD && v < 1)  // md-workbench and md-real-io make every rank's objects in D >= 1 sets
    fail(file, line, std::string("states ") + names[param] + " " + std::to_string(v) +
                         ": expected at least 1 data set per rank");
  if (param >= 0 && param < HeaderInfo::kParams && h.stated[static_cast<size_t>(param)]) {
    const int before = param == HeaderInfo::kI   ? p.obj_per_proc
                       : param == HeaderInfo::kP ? p.precreate_per_set
                       : param == HeaderInfo::kD ? p.data_sets
                       : param == HeaderInfo::kR ? p.iterations
                       : param == HeaderInfo::kS ? static_cast<int>(p.object_size_B)
                                                 : p.offset;
    if (before != v)
      fail(file, line, std::string("states ") + names[param] + " " + std::to_string(v) + ", but " +
                           h.stated_at[static_cast<size_t>(param)] + " states " + std::to_string(before) +
                           " (the run's headers must agree)");
  }
  if (param >= 0 && param < HeaderInfo::kParams)
    h.stated_at[static_cast<size_t>(param)] = file + ":" + std::to_string(line);
  switch (param) {
    case HeaderInfo::kI:
      p.obj_per_proc = v;
      break;
    case HeaderInfo::kP:
      p.precreate_per_set = v;
      break;
    case HeaderInfo::kD:
      p.data_sets = v;
      break;
    case HeaderInfo::kR:
      p.iterations = v;
      break;
    case HeaderInfo::kS:
      p.object_size_B = v;
      break;
    case HeaderInfo::kO:
      p.offset = v;
      break;
    default:
      return;
  }
  h.stated[static_cast<size_t>(param)] = true;
}

// md-workbench's command line as IOR's option parser reads it: -X=V, -X V, -XV, --long=V and --long V; the last
// occurrence of an option wins; "--" ends md-workbench's options (the 2019 tool's backend options follow).
void read_args_line(const std::string& file, size_t n, const std::string& rest, BenchmarkParams& p, HeaderInfo& h)
{
  h.args_at = file + ":" + std::to_string(n);
  std::array<int, HeaderInfo::kParams> last;  // each parameter's last occurrence on the line (-1: none)
  last.fill(-1);
  auto tok = args_tokens(rest);
  for (size_t i = 0; i < tok.size(); ++i) {
    const std::string& t = tok[i];
    if (t == "--")
      break;
    if (t.size() < 2 || t[0] != '-')
      continue;  // the value of an option the importer does not know
    const size_t eq = t.find('=');
    const std::string name = t.substr(0, eq);
    if (name.size() < 2)
      continue;
    const MdwOption* o = nullptr;
    for (const auto& c : kMdwOptions)
      if (name.size() > 2 && name[1] == '-' ? (c.long_name && name.compare(2, std::string::npos, c.long_name) == 0)
                                            : (c.short_name != 0 && name[1] == c.short_name)) {
        o = &c;
        break;
      }
    if (o && o->long_name && std::string(o->long_name) == "read-only")
      h.read_only_at = h.args_at;
    if (o && o->long_name && std::string(o->long_name) == "latency-all")
      h.latency_all_at = h.args_at;
    if (o && o->short_name == 'i')
      h.args_interface = true;
    if (o && o->short_name == 'a')
      h.args_api = true;
    if (o && (o->short_name == '1' || o->short_name == '2' || o->short_name == '3')) {  // -1 -2 -3: phases run
      h.run_phases = std::max(h.run_phases, 0) | (1 << (o->short_name - '1'));
      h.run_phases_at = h.args_at;
    }
    if (!o || !o->value)
      continue;
    const bool is_long = name.size() > 2 && name[1] == '-';
    std::string v, shown = name;
    if (eq != std::string::npos) {
      v = t.substr(eq + 1);
    } else if (!is_long && t.size() > 2) {  // -D2
      v = t.substr(2);
      shown = t.substr(0, 2);
    } else if (i + 1 < tok.size()) {  // -D 2, --data-sets 2
      v = tok[++i];
    } else {
      fail(file, n, "option " + name + " has no value (the Args line ends)");
    }
    if (o->short_name == 'L') {
      h.latency = v;
      h.latency_at = h.args_at;
      h.args_latency = true;
    } else if (o->param >= 0)
      last[static_cast<size_t>(o->param)] = option_int(file, n, shown, v);
    else if (o->param == -2)
      h.stonewall = option_int(file, n, shown, v) > 0;
    else if (o->param == -3) {
      char* end = nullptr;
      const double x = std::strtod(v.c_str(), &end);
      if (end == v.c_str() || *end != 0 || !std::isfinite(x) || x < 0)
        fail(file, n, "option " + shown + ": expected a non-negative waiting factor, got " + excerpt(v));
      h.waiting = x;
    }
  }
  for (int k = 0; k < HeaderInfo::kParams; ++k)
    if (last[static_cast<size_t>(k)] >= 0)
      set_param(p, h, k, last[static_cast<size_t>(k)], file, n);
}

// mdreal.txt (md-real-io 2017) or an md-workbench stdout.txt with the same "\tkey=value" block and phase lines.
void read_mdreal_header(const std::string& file, Trace& t, HeaderInfo& h)
{
  std::error_code ec;
  if (!fs::exists(fs::symlink_status(file, ec)))
    return;  // no header: what it would state is assumed, in warnings
  if (!fs::is_regular_file(file, ec))
    throw ConfigError(file + ": is " + file_kind(file) + ", not a regular file (the tool's saved output, read as the "
                      "trace's header)");
  std::ifstream in(file);
  if (!in)
    throw ConfigError(file + ": cannot open file (the tool's saved output, read as the trace's header)");
  static const std::regex phase_re(R"(^(precreate|benchmark|cleanup) ([0-9.]+)s ([0-9.]+) iops/s (.*)$)");
  static const std::regex obj_re(R"((^| )([0-9]+) obj( |$))");
  static const std::regex objs_re(R"(([0-9.]+) obj/s)");
  static const std::regex mib_re(R"(([0-9.]+) Mib/s)");
  static const std::regex dset_re(R"((^| )([0-9]+) dset( |$))");
  // IOR's md-workbench: "precreate process max:0.01s ... dsets: 4 objects:160 ..."
  static const std::regex mdw_phase_re(R"(^(precreate|benchmark|cleanup) process max:.*)");
  static const std::regex mdw_dsets_re(R"( dsets: ([0-9]+) )");
  static const std::regex report_re(R"(^([0-9]+): (precreate|benchmark|cleanup) )");
  static const std::regex nodemap_re(R"(^Nodemap: ([0-9]+)$)");
  static const std::regex total_re(R"(total objects: ([0-9]+) )");
  std::string line;
  size_t n = 0;
  auto& p = t.params;
  auto at = [&] { return file + ":" + std::to_string(n); };
  bool mdreal_banner = false;  // md-real-io's "MD-REAL-IO total objects: ..." line read: its option block follows
  while (std::getline(in, line)) {
    if (++n == 1)
      strip_bom(line);
    // A saved output cut short: its last value (an Args line's -S=39 for -S=3901) would be taken for the run's.
    if (in.eof())
      fail(file, n, "truncated file: the last line has no end of line (the tool's saved output cut short?)");
    std::string s = trim(line);
    if (s.rfind("Args:", 0) == 0) {  // md-workbench: Args: md-workbench "-I=20" ... ["--" backend options]
      read_args_line(file, n, s.substr(5), p, h);
      continue;
    }
    if (s.rfind("MD-REAL-IO ", 0) == 0)
      mdreal_banner = true;
    if (s == "latency-all") {  // md-real-io's option block: --latency-all (every rank kept its latency files)
      h.latency_all_at = at();
      continue;
    }
    if (s == "run-precreate" || s == "run-benchmark" || s == "run-cleanup") {  // md-real-io's list of the phases run
      h.run_phases = std::max(h.run_phases, 0) | (s == "run-precreate" ? 1 : s == "run-benchmark" ? 2 : 4);
      h.run_phases_at = at();
      continue;
    }
    auto eq = s.find('=');
    if (eq != std::string::npos && s.find(' ') == std::string::npos) {
      std::string k = s.substr(0, eq), v = s.substr(eq + 1);
      if (mdreal_banner && h.options_at.empty())
        h.options_at = at();
      static const std::map<std::string, int> keys = {
          {"obj-per-proc", HeaderInfo::kI}, {"precreate-per-set", HeaderInfo::kP}, {"data-sets", HeaderInfo::kD},
          {"iterations", HeaderInfo::kR},   {"object-size", HeaderInfo::kS},       {"offset", HeaderInfo::kO}};
      auto key = keys.find(k);
      if (key != keys.end())
        set_param(p, h, key->second, to_int(file, n, k, v), file, n);
      else if (k == "stonewall-timer")
        h.stonewall = to_int(file, n, k, v) > 0;
      else if (k == "latency" && v != "NULL") {  // (the 2019 tool's block lists an unset -L as latency=NULL)
        h.latency = v;
        h.latency_at = at();
      } else if (k == "interface")
        h.option_block = true;
      continue;
    }
    for (const char* banner : {"MD-REAL-IO ", "MD-Workbench "})
      if (h.banner.empty() && s.rfind(banner, 0) == 0)
        h.banner = trim(banner);
    std::smatch m;
    if (std::regex_search(s, m, total_re) && h.total_objects == 0) {
      h.total_objects = to_u64(file, n, "total objects", m[1]);
      h.total_at = at();
    }
    if (std::regex_match(s, m, nodemap_re)) {
      h.nodemap = static_cast<int>(std::min<size_t>(m[1].length(), 1000000000));
      h.nodemap_at = at();
      continue;
    }
    if (std::regex_search(s, m, report_re)) {
      uint64_t r = to_u64(file, n, "rank", m[1]);
      if (r < 1000000000ull && static_cast<int>(r) + 1 > h.report_ranks) {
        h.report_ranks = static_cast<int>(r) + 1;
        h.report_at = at();
      }
      continue;
    }
    // A phase line cut short (a truncated output) or garbled: its counts would be taken for a run's, and a line
    // left out would be a phase missing from the run (helper-136: "cleanup xx 16861.6 iops/s ..." passed unseen).
    // Every line of a phase's name alone or followed by a blank is one, but for md-workbench's --print-detailed-stats
    // table ("precreate \t4\t0\t160...": the name, a blank and a tab).
    static const std::regex phase_start_re(R"(^(precreate|benchmark|cleanup)( [^\t].*)?$)");
    static const std::regex errs_re(R"(\([0-9]+ errs\))");
    const bool mdw_line = std::regex_match(s, m, mdw_phase_re);
    if ((mdw_line || std::regex_match(s, phase_start_re)) &&
        (!(mdw_line || std::regex_match(s, phase_re)) || !std::regex_search(s, errs_re)))
      fail(file, n, "a phase line cut short or garbled (a truncated output?): expected \"<phase> <s>s <x> iops/s ... "
           "(<n> errs)\" or md-workbench's \"<phase> process max:... (<n> errs) ...\", got " + excerpt(s));
    if (mdw_line) {
      std::smatch x;
      if (m[1] != "benchmark" && h.dsets == 0 && std::regex_search(s, x, mdw_dsets_re)) {
        h.dsets = to_u64(file, n, "dsets", x[1]);
        h.dsets_at = at();
        h.dsets_phase = m[1];
      }
      ReportedPhase r;  // IOR md-workbench's line: which phase ran, its objects, where it was read
      r.name = m[1];
      r.file = file;
      r.line = n;
      static const std::regex mdw_objects_re(R"( objects:([0-9]+) )");
      if (std::regex_search(s, x, mdw_objects_re)) {
        r.objects = to_u64(file, n, "objects", x[1]);
        r.objects_stated = true;
      }
      t.reported.push_back(r);
      continue;
    }
    if (std::regex_match(s, m, phase_re)) {
      ReportedPhase r;
      r.name = m[1];
      r.time_s = line_number(file, n, "time", m[2]);
      r.iops = line_number(file, n, "iops/s", m[3]);
      std::string rest = m[4];
      std::smatch x;
      r.file = file;
      r.line = n;
      // md-real-io prints every phase's objects ("250000 obj"): a line without them is garbled too
      if (!std::regex_search(rest, x, obj_re))
        fail(file, n, "a phase line cut short or garbled: expected its object count \"<n> obj\" after \"iops/s\" "
                      "(md-real-io prints it on every phase line), got " + excerpt(s));
      r.objects = to_u64(file, n, "obj", x[2]);
      r.objects_stated = true;
      if (std::regex_search(rest, x, dset_re))
        r.dsets = to_u64(file, n, "dset", x[2]);
      if (std::regex_search(rest, x, objs_re))
        r.obj_per_s = line_number(file, n, "obj/s", x[1]);
      if (std::regex_search(rest, x, mib_re))
        r.mib_per_s = line_number(file, n, "Mib/s", x[1]);
      // Later md-real-io 2017 builds print the phase's slowest operation ("max 8.1748e-03s") before "(N errs)".
      static const std::regex max_re(R"( max ([0-9.eE+-]+)s )");
      r.has_max = std::regex_search(rest, x, max_re);
      if (r.name != "benchmark" && r.dsets > 0 && h.dsets == 0) {
        h.dsets = r.dsets;
        h.dsets_at = at();
        h.dsets_phase = r.name;
      }
      t.reported.push_back(r);
    }
  }
  if (n == 0)  // (an output cut to nothing, or a placeholder: what it would state must not be assumed silently)
    fail(file, 1, "empty file (expected the tool's saved output: md-real-io's parameter lines or md-workbench's Args "
                  "line and phase lines; remove it to replay with the parameters assumed)");
}

// The tool generation whose output the headers are (Trace::output_generation), "" when they do not tell.
std::string output_generation(const HeaderInfo& h)
{
  if (h.banner == "MD-REAL-IO")
    return "md-real-io-2017";
  if (h.banner.empty() && h.args_at.empty())
    return "";
  if (h.nodemap > 0 || h.args_api)
    return "md-workbench-ior";
  if (h.option_block || h.args_interface)
    return "md-workbench-2019";
  return "";
}

// ---------------------------------------------------------------------------------------- building

// (Timings a rank cannot have produced: TimingCheck, timing_check.hpp, shared with IOR's per-op import.)

struct Row {
  float time;
  float runtime;
  TraceOp op;
  uint32_t file;  // TimingCheck::file_id
  uint32_t line;  // line in that file
};

// Appends one phase of one rank: rows sorted by start time, think = gap since the previous end (0 when the
// operation starts before the previous one ended: counted by `timing` beyond its tolerance).
void append_phase(RankStream& s, std::vector<Row>& rows, TimingCheck& timing)
{
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.time < b.time; });
  double prev_end = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    double gap = static_cast<double>(r.time) - prev_end;
    if (i > 0 && -gap > kTimingTolerance)
      timing.overlap(-gap, r.file, r.line);
    s.op.push_back(static_cast<unsigned char>(r.op));
    s.think_s.push_back(static_cast<float>(std::max(0.0, gap)));
    s.runtime_s.push_back(r.runtime);
    prev_end = static_cast<double>(r.time) + r.runtime;
  }
}

// Why a file holds fewer rows than expected: "(truncated file?)", or for a file of its header line alone (reported
// at its line 1, as "found 0" by every importer's file: per-rank, -all and mdtest files alike) that it is one.
std::string too_few(size_t rows)
{
  return rows == 0 ? " (the file holds its header line only)" : " (truncated file?)";
}

void check_count(const std::string& file, size_t rows, size_t expected, const std::string& what)
{
  if (expected > 0 && rows != expected)
    fail(file, rows + 1, "expected " + std::to_string(expected) + " rows (" + what + "), found " +
                             std::to_string(rows) +
                             (rows < expected ? too_few(rows) : " (a header that states too few rows?)"));
}

// The per-rank files of one phase (and operation kind).
struct RankGroup {
  std::string what;                          // "phase read of iteration 1"
  const std::map<int, std::string>* files;   // rank -> path
  std::function<std::string(int)> name;      // the path rank r's file would have
};

// Every group must hold the files of ranks 0..N-1, N being the most ranks any group has, or the rank count the
// tool's header states (stated > 0, `stated_by` says where). A missing file is reported by its own name.
int check_rank_groups(const std::vector<RankGroup>& groups, int stated, const std::string& stated_by)
{
  int n = 0;
  for (const auto& g : groups) {
    int r = 0;
    for (const auto& f : *g.files) {
      if (f.first != r)
        throw ConfigError(g.name(r) + ": missing file: rank gap in " + g.what + ": rank " + std::to_string(r) +
                          " is missing (found " + ranks_text(static_cast<long long>(g.files->size())) + ", highest " +
                          std::to_string(g.files->rbegin()->first) + ")");
      ++r;
    }
    n = std::max(n, r);
  }
  if (stated > 0 && n > stated)
    for (const auto& g : groups)
      if (g.files->count(stated))
        throw ConfigError(g.files->at(stated) + ": rank " + std::to_string(stated) + " is beyond the " +
                          ranks_text(stated) + " that " + stated_by + " states");
  if (stated > 0 && n < stated)
    throw ConfigError(groups.front().name(n) + ": missing file: " + stated_by + " states " + std::to_string(stated) +
                      " ranks, but no phase has a file of rank " + std::to_string(n) + " (the files hold ranks 0-" +
                      std::to_string(n - 1) + ")");
  for (const auto& g : groups) {
    int have = static_cast<int>(g.files->size());
    if (have < n)
      throw ConfigError(g.name(have) + ": missing file: " + g.what + " has " + ranks_text(have) +
                        ", other phases have " + std::to_string(n) + ": rank " + std::to_string(have) +
                        " is missing");
  }
  return n;
}

// Row counts that must agree (the files of one class, or the ranks of a concatenated file) when no header says
// what they are. Keeps one example per distinct count, not one entry per file.
class CountCheck {
 public:
  explicit CountCheck(std::string what) : what_(std::move(what)) {}
  // `line` = the line to report if this count is the odd one; `label` says which rank of a concatenated file.
  void add(const std::string& file, size_t rows, size_t line, const std::string& label = "")
  {
    auto& c = counts_[rows];
    if (c.n++ == 0)
      c.example = {file, line, label};
  }
  // The expected count: the most common one (on a tie the larger: a cut file is short); 0 if none was added.
  size_t most_common() const
  {
    auto expected = counts_.begin();
    for (auto it = counts_.begin(); it != counts_.end(); ++it)
      if (it->second.n >= expected->second.n)
        expected = it;
    return expected == counts_.end() ? 0 : expected->first;
  }
  // The count a header states (mdtest's -n): the files that differ from it are the odd ones, whatever the others hold
  // (helper-88: of two files, one with an extra row, the longer was taken as the expected count and the other named).
  void stated(size_t rows, std::string where)
  {
    stated_ = rows;
    stated_at_ = std::move(where);
  }
  // Names the shortest file whose count is not the expected one.
  void check() const
  {
    if (stated_ > 0) {
      for (const auto& [rows, c] : counts_)
        if (rows != stated_)
          fail(c.example.file, c.example.line,
               "expected " + std::to_string(stated_) + " rows (" + stated_at_ + "), found " + std::to_string(rows) +
                   c.example.label + (rows < stated_ ? too_few(rows) : " (a row too many?)"));
      return;
    }
    if (counts_.size() < 2)
      return;
    const auto expected = counts_.find(most_common());
    for (const auto& [rows, c] : counts_) {
      if (rows == expected->first)
        continue;
      const auto& ex = c.example;
      fail(ex.file, ex.line,
           "expected " + std::to_string(expected->first) + " rows (" + what_ + ", as in " +
               fs::path(expected->second.example.file).filename().string() + expected->second.example.label +
               "), found " + std::to_string(rows) + ex.label + (rows < expected->first ? too_few(rows) : ""));
    }
  }

 private:
  struct Example {
    std::string file;
    size_t line = 0;
    std::string label;
  };
  struct Count {
    size_t n = 0;
    Example example;
  };
  std::string what_;
  std::map<size_t, Count> counts_;
  size_t stated_ = 0;
  std::string stated_at_;
};

// The run's rank count as the headers state it (0: they do not) and `by` where: the per-rank report lines, the
// Nodemap, the precreate or cleanup line's data sets over -D, or the total objects over D x (P + I x R) when that
// divides exactly, in that order (`known`: which parameters are stated or md-workbench's defaults). Statements
// that disagree with the one used are described in `disagree`.
int header_ranks(const Trace& t, const HeaderInfo& h, const std::array<bool, HeaderInfo::kParams>& known,
                 std::string& by, std::string& disagree)
{
  std::vector<std::pair<uint64_t, std::string>> found;
  if (h.report_ranks > 0)
    found.emplace_back(h.report_ranks, h.report_at + " (per-rank report lines 0: to " +
                                           std::to_string(h.report_ranks - 1) + ":)");
  if (h.nodemap > 0)
    found.emplace_back(h.nodemap, h.nodemap_at + " (Nodemap: one character per rank)");
  const auto& p = t.params;
  const uint64_t D = known[HeaderInfo::kD] && p.data_sets > 0 ? static_cast<uint64_t>(p.data_sets) : 0;
  if (h.dsets > 0 && D > 0 && h.dsets % D == 0)
    found.emplace_back(h.dsets / D, h.dsets_at + " (" + h.dsets_phase + " line: " + std::to_string(h.dsets) +
                                        " dset with data-sets=" + std::to_string(D) + ")");
  if (h.total_objects > 0 && D > 0 && known[HeaderInfo::kI] && known[HeaderInfo::kP] && known[HeaderInfo::kR]) {
    const uint64_t per_rank = D * (static_cast<uint64_t>(p.precreate_per_set) +
                                   static_cast<uint64_t>(p.obj_per_proc) * static_cast<uint64_t>(p.iterations));
    if (per_rank > 0 && h.total_objects % per_rank == 0)
      found.emplace_back(h.total_objects / per_rank,
                         h.total_at + " (total objects " + std::to_string(h.total_objects) +
                             " = ranks x D x (P + I x R) with D=" + std::to_string(D) + ", P=" +
                             std::to_string(p.precreate_per_set) + ", I=" + std::to_string(p.obj_per_proc) +
                             ", R=" + std::to_string(p.iterations) + ")");
  }
  found.erase(std::remove_if(found.begin(), found.end(), [](const auto& f) { return f.first > 1000000000ull; }),
              found.end());
  if (found.empty())
    return 0;
  by = found[0].second;
  for (size_t i = 1; i < found.size(); ++i)
    if (found[i].first != found[0].first)
      disagree += (disagree.empty() ? "" : ", ") + found[i].second + " states " + std::to_string(found[i].first);
  return static_cast<int>(found[0].first);
}

// One --latency-all file: the rows of every rank, rank after rank.
struct ConcatFile {
  size_t phase = 0;  // index in the phase plan
  TraceOp op = TraceOp::Stat;
  std::string path;
  uint32_t id = 0;                  // TimingCheck::file_id
  size_t per_rank = 0;              // rows per rank the header gives (0: unknown)
  std::string per_rank_what;        // where that number comes from
  bool varies = false;              // a benchmark file of a stonewalled run: ranks hold different row counts
  std::vector<std::pair<float, float>> rows;
  std::vector<size_t> restarts;     // rows whose time is below the row above
  std::vector<size_t> begin;        // first row of every rank, then rows.size()
};

// Splits every --latency-all file into its ranks and returns the rank count: `stated` (> 0) when a header states
// it; else the count the files with a known number of rows per rank hold (all must agree); else the smallest count
// that divides every file's rows and puts every point where time restarts at a rank boundary (a rank's times start
// near 0, so a restart is a rank boundary, but a rank may start above the last time of the rank before it).
int split_concatenated(std::vector<ConcatFile>& files, int stated, const std::string& stated_by,
                       const std::string& dir, Trace& t)
{
  auto name = [](const ConcatFile& f) { return fs::path(f.path).filename().string(); };
  size_t N = stated > 0 ? static_cast<size_t>(stated) : 0;
  std::string by = stated_by;
  // Files with a known number of rows per rank: a whole number of ranks each, the same for all.
  for (const auto& f : files)
    if (N == 0 && f.per_rank > 0 && f.rows.size() % f.per_rank != 0)
      fail(f.path, f.rows.size() + 1,
           std::to_string(f.rows.size()) + " rows are not a multiple of the " + std::to_string(f.per_rank) +
               " rows per rank (" + f.per_rank_what + ") (truncated file?)");
  if (N == 0) {
    CountCheck votes("");
    std::map<size_t, const ConcatFile*> example;
    for (const auto& f : files)
      if (f.per_rank > 0) {
        votes.add(f.path, f.rows.size() / f.per_rank, f.rows.size() + 1);
        example.emplace(f.rows.size() / f.per_rank, &f);
      }
    if (!example.empty()) {
      N = votes.most_common();
      const auto* e = example.at(N);
      by = name(*e) + " (" + std::to_string(e->rows.size()) + " rows of " + std::to_string(e->per_rank) +
           " per rank: " + e->per_rank_what + ")";
    }
  }
  for (const auto& f : files)
    if (N > 0 && f.per_rank > 0 && f.rows.size() != N * f.per_rank)
      fail(f.path, f.rows.size() + 1,
           "expected " + std::to_string(N * f.per_rank) + " rows (" + std::to_string(N) + " ranks: " + by + "; " +
               std::to_string(f.per_rank) + " rows per rank: " + f.per_rank_what + "), found " +
               std::to_string(f.rows.size()) +
               (f.rows.size() % f.per_rank == 0 ? ": " + ranks_text(static_cast<long long>(f.rows.size() / f.per_rank)) + (f.rows.size() / f.per_rank == 1 ? "'s rows" : "' rows")
                                                : std::string()) +
               (f.rows.size() < N * f.per_rank ? " (truncated file?)" : ""));
  if (N == 0) {
    // Nothing states it: the smallest rank count at least the most restarts any file shows + 1 that divides the
    // rows of every file and puts every restart at a rank boundary.
    const ConcatFile* most = &files.front();
    size_t limit = 0;
    for (const auto& f : files) {
      if (f.restarts.size() > most->restarts.size())
        most = &f;
      if (!f.varies)
        limit = limit == 0 ? f.rows.size() : std::min(limit, f.rows.size());
    }
    const size_t low = most->restarts.size() + 1;
    const ConcatFile* odd = nullptr;  // why the lowest count does not fit
    auto fits = [&](size_t n) {
      for (const auto& f : files) {
        bool ok = f.varies ? f.restarts.size() + 1 <= n : f.rows.size() % n == 0;
        for (size_t i = 0; ok && !f.varies && i < f.restarts.size(); ++i)
          ok = f.restarts[i] % (f.rows.size() / n) == 0;
        if (!ok) {
          if (!odd)
            odd = &f;
          return false;
        }
      }
      return true;
    };
    if (limit == 0)
      N = low;
    for (size_t n = low; N == 0 && n <= limit; ++n)
      if (fits(n))
        N = n;
    if (N == 0 && !odd)  // no count was tried: some file has fewer rows than the restarts of another ask for
      for (const auto& f : files)
        if (!f.varies && (!odd || f.rows.size() < odd->rows.size()))
          odd = &f;
    if (N == 0 && !odd)
      odd = most;
    if (N == 0)
      fail(odd->path, odd->rows.size() + 1,
           "cannot split the ranks: " + name(*most) + " restarts its time " + std::to_string(low - 1) + " times (" +
               std::to_string(low) + " ranks at least), but no rank count from " + std::to_string(low) +
               " up divides the rows of every file (this one has " + std::to_string(odd->rows.size()) +
               ") with every restart at a rank boundary; a stdout.txt with md-workbench's Args line states the rows "
               "per rank (truncated file?)");
    bool shown = false;  // some file restarts at every rank boundary
    for (const auto& f : files)
      shown |= f.restarts.size() + 1 == N;
    if (!shown)
      t.warnings.push_back(dir + ": no header states the ranks or the rows per rank, and no --latency-all file's time "
                                 "restarts at every rank boundary: split into " + std::to_string(N) + " ranks, the "
                                 "smallest count that divides every file's rows with every restart of time at a rank "
                                 "boundary (a stdout.txt with md-workbench's Args line states the rows per rank)");
    by = "the row counts and restarts of time of the files";
  }
  for (auto& f : files) {
    f.begin.clear();
    if (f.varies) {
      if (f.restarts.size() + 1 != N)
        fail(f.path, f.rows.size() + 1,
             "the run used a stonewall timer (-w), so its ranks did different numbers of benchmark operations and "
             "the file splits only where time restarts: " + std::to_string(f.restarts.size()) + " times, not the " +
                 std::to_string(N - 1) + " of " + std::to_string(N) + " ranks (" + by + ")");
      f.begin.push_back(0);
      f.begin.insert(f.begin.end(), f.restarts.begin(), f.restarts.end());
    } else {
      if (f.rows.size() % N != 0)
        fail(f.path, f.rows.size() + 1,
             std::to_string(f.rows.size()) + " rows are not a multiple of the " + std::to_string(N) + " ranks (" + by +
                 ") (truncated file?)");
      for (size_t r = 0; r < N; ++r)
        f.begin.push_back(r * (f.rows.size() / N));
    }
    f.begin.push_back(f.rows.size());
  }
  return static_cast<int>(N);
}

// md-workbench style traces (2017 per-rank files, -L rank 0 files, -all concatenated files).
Trace load_mdw(const Listing& L, const std::string& dir, const ImportOptions& opt)
{
  Trace t;
  t.format = L.format;
  t.path = dir;
  t.prefix = L.prefix;
  HeaderInfo h;
  if (L.format == "md-real-io-2017") {
    read_mdreal_header((fs::path(dir) / (L.prefix + ".txt")).string(), t, h);
    // md-real-io's stdout saved as mdreal.txt beside files of another prefix (pfsim --latency-prefix lat).
    if (L.prefix != "mdreal")
      read_mdreal_header((fs::path(dir) / "mdreal.txt").string(), t, h);
  }
  read_mdreal_header((fs::path(dir) / "stdout.txt").string(), t, h);
  // An output that names other latency files is another run's (a stdout saved beside renamed or other files): what
  // it states is used, and errors below if it contradicts the files, but said.
  // (md-workbench's files are <-L>-<waiting factor>-...: "lat-0.00" is -L=lat's)
  std::string named_prefix = L.prefix;
  if (L.format != "md-real-io-2017" && named_prefix.rfind('-') != std::string::npos)
    named_prefix.erase(named_prefix.rfind('-'));
  if (!h.latency.empty() && fs::path(h.latency).filename().string() != named_prefix)
    t.warnings.push_back(h.latency_at + ": the output states latency files " + excerpt(h.latency) + ", but these are " +
                         L.prefix + "-*: it may be another run's output (its parameters are used)");
  if (!h.latency_all_at.empty() && L.format == "md-workbench-rank0")
    t.warnings.push_back(h.latency_all_at + ": the output's run had --latency-all, which writes only -all files, but "
                         "these are rank 0's -L files: it may be another run's output (its parameters are used)");
  // The same for an Args line without -L (the run wrote no latency files) and -all files beside an Args line
  // without --latency-all (the run wrote rank 0's -L files).
  if (L.format != "md-real-io-2017" && !h.args_at.empty() && !h.args_latency)
    t.warnings.push_back(h.args_at + ": the output's run had no -L, so it wrote no latency files, but these are " +
                         L.prefix + "-* latency files: it may be another run's output (its parameters are used)");
  else if (L.format == "md-workbench-all" && !h.args_at.empty() && h.latency_all_at.empty())
    t.warnings.push_back(h.args_at + ": the output's run had no --latency-all, which writes rank 0's -L files only, "
                         "but these are -all files: it may be another run's output (its parameters are used)");
  // A recorded md-real-io option block lists every option, -L's prefix as "latency=" (empty without -L): one whose
  // latency= is empty, or that has none, is of a run that wrote no latency files, as an Args line without -L.
  if (L.format == "md-real-io-2017" && h.args_at.empty() && (!h.options_at.empty() || !h.latency_at.empty()) &&
      h.latency.empty())
    t.warnings.push_back((h.latency_at.empty() ? h.options_at + ": the output's run had no -L (its option block has no "
                                                                "latency= line)"
                                               : h.latency_at + ": the output's run had no -L (its option block's "
                                                                "latency= is empty)") +
                         ", so it wrote no latency files, but these are " + L.prefix +
                         "-* latency files: it may be another run's output (its parameters are used)");
  // Who leaves a parameter unstated, for the warnings that assume it: no header, or the headers read (an md-workbench
  // stdout.txt without its Args line states none of md-workbench's options).
  std::string unstated;
  {
    std::vector<std::string> read;
    std::error_code ec;
    for (const std::string& name : {L.prefix + ".txt", std::string("mdreal.txt"), std::string("stdout.txt")})
      if ((name == "stdout.txt" || L.format == "md-real-io-2017") &&
          std::find(read.begin(), read.end(), name) == read.end() &&
          fs::exists(fs::symlink_status(fs::path(dir) / name, ec)))
        read.push_back(name);
    if (read.empty())
      unstated = "no mdreal.txt or stdout.txt states ";
    else if (L.format != "md-real-io-2017")
      unstated = "stdout.txt has no Args line (md-workbench's command line), so nothing states ";
    else
      for (size_t i = 0; i < read.size(); ++i)
        unstated += (i ? " nor " : read.size() > 1 ? "neither " : "") + read[i] +
                    (i + 1 < read.size() ? "" : read.size() > 1 ? " states " : " does not state ");
  }
  auto& prm = t.params;
  // What the header states; then --data-sets / --object-size; then, with an Args line, md-workbench's defaults
  // (the command line is complete); then assumptions, each said in a warning.
  const bool args = !h.args_at.empty();
  auto known = h.stated;                               // stated, given by an option or md-workbench's default
  std::array<bool, HeaderInfo::kParams> tool_default{};  // md-workbench's default
  auto defaulted = [&](int k) {
    return tool_default[static_cast<size_t>(k)]
               ? " (md-workbench's default: the Args line at " + h.args_at + " does not give it)"
               : std::string();
  };
  if (h.stated[HeaderInfo::kD]) {
    if (opt.data_sets > 0 && opt.data_sets != prm.data_sets)
      throw ConfigError(dir + ": --data-sets " + std::to_string(opt.data_sets) + " but the trace's header states " +
                        "data-sets=" + std::to_string(prm.data_sets) + " (" + h.stated_at[HeaderInfo::kD] + ")");
  } else if (opt.data_sets > 0) {
    prm.data_sets = opt.data_sets;
    known[HeaderInfo::kD] = true;
  } else if (args) {
    prm.data_sets = kMdwDefaultD;
    known[HeaderInfo::kD] = tool_default[HeaderInfo::kD] = true;
  } else if (h.dsets > 0 && (h.report_ranks > 0 || h.nodemap > 0) &&
             h.dsets % static_cast<uint64_t>(h.report_ranks > 0 ? h.report_ranks : h.nodemap) == 0) {
    // No Args line, but the phase line's data sets (ranks x D) and a rank count stated apart from them.
    const int n = h.report_ranks > 0 ? h.report_ranks : h.nodemap;
    prm.data_sets = static_cast<int>(h.dsets / static_cast<uint64_t>(n));
    known[HeaderInfo::kD] = true;
    t.warnings.push_back(dir + ": no Args line states -D; data sets per rank " + std::to_string(prm.data_sets) +
                         " from " + h.dsets_at + " (" + std::to_string(h.dsets) + " dset over " + std::to_string(n) +
                         " ranks: " + (h.report_ranks > 0 ? h.report_at : h.nodemap_at) + ")");
  } else {
    prm.data_sets = 0;
    t.warnings.push_back(dir + ": " + unstated + "the data sets per rank (-D); assumed 1 "
                               "(--data-sets D sets it; the object counts and directories depend on it)");
  }
  std::vector<std::string> assumed;
  if (h.stated[HeaderInfo::kS] && opt.object_size_B > 0 && opt.object_size_B != prm.object_size_B) {
    auto bytes = [](double b) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.15g", b);
      return std::string(buf);
    };
    throw ConfigError(dir + ": --object-size " + bytes(opt.object_size_B) + " but the trace's header states " +
                      "object-size=" + bytes(prm.object_size_B) + " (" + h.stated_at[HeaderInfo::kS] + ")");
  }
  if (!h.stated[HeaderInfo::kS]) {
    if (opt.object_size_B > 0) {
      prm.object_size_B = opt.object_size_B;
    } else {
      prm.object_size_B = kMdwDefaultS;
      tool_default[HeaderInfo::kS] = args;
      if (!args)
        assumed.push_back("the object size (-S) 3901 B (--object-size B sets it: the bytes every create writes and "
                          "every read reads)");
    }
    known[HeaderInfo::kS] = true;
  }
  if (opt.offset >= 0 && (h.stated[HeaderInfo::kO] || args)) {
    if (opt.offset != prm.offset)
      throw ConfigError(dir + ": --offset " + std::to_string(opt.offset) + " but the trace's header states offset=" +
                        std::to_string(prm.offset) +
                        (h.stated[HeaderInfo::kO] ? " (" + h.stated_at[HeaderInfo::kO] + ")"
                                                  : " (md-workbench's default: the Args line at " +
                                                                        h.args_at + " does not give it)"));
  } else if (opt.offset >= 0) {
    prm.offset = opt.offset;
  } else if (!h.stated[HeaderInfo::kO] && !args)
    assumed.push_back("the offset (--offset) 1 (in the benchmark rank r reads and deletes in rank r - (d + 1)'s data set d and "
                      "creates in rank r + (d + 1)'s)");
  if (!assumed.empty()) {
    std::string w = dir + ": " + unstated + (assumed.size() > 1 ? "these" : "this") +
                    "; assumed md-workbench's default" + (assumed.size() > 1 ? "s: " : ": ");
    for (size_t i = 0; i < assumed.size(); ++i)
      w += (i ? "; " : "") + assumed[i];
    t.warnings.push_back(w);
  }
  if (args) {
    const std::pair<int, int> defaults[] = {
        {HeaderInfo::kI, kMdwDefaultI}, {HeaderInfo::kP, kMdwDefaultP}, {HeaderInfo::kR, kMdwDefaultR}};
    for (auto [k, v] : defaults)
      if (!known[static_cast<size_t>(k)]) {
        (k == HeaderInfo::kI ? prm.obj_per_proc : k == HeaderInfo::kP ? prm.precreate_per_set : prm.iterations) = v;
        known[static_cast<size_t>(k)] = tool_default[static_cast<size_t>(k)] = true;
      }
    known[HeaderInfo::kO] = true;
  }

  // (iteration, phase file name) -> rank -> path
  std::map<std::pair<int, std::string>, std::map<int, std::string>> groups;
  for (const auto& [path, k] : L.files) {
    auto [it, fresh] = groups[{k.iteration, k.phase}].emplace(k.rank, path);
    if (!fresh)  // "lat-0-stat-7.csv" and "lat-0-stat-07.csv": which one is rank 7's?
      throw ConfigError(path + ": a second file " +
                        (k.rank < 0 ? std::string("of every rank (-all)") : "for rank " + std::to_string(k.rank)) +
                        " of this phase (" + it->second + " is one too); expected one file per " +
                        (k.rank < 0 ? "phase" : "rank and phase"));
  }
  // Benchmark iterations are counted from the benchmark files alone: a run with -1 (precreate only) or -3
  // (cleanup only) has none. md-workbench numbers the cleanup files with the iteration count.
  int bench_iters = 0;
  int cleanup_iter = -1;
  std::string last_bench_file;  // a file of the last benchmark iteration (named when it is one too many)
  for (const auto& g : groups) {
    if (g.first.second == "cleanup")
      cleanup_iter = std::max(cleanup_iter, g.first.first);
    else if (g.first.second != "precreate" && g.first.first + 1 >= bench_iters) {
      bench_iters = g.first.first + 1;
      last_bench_file = g.second.begin()->second;
    }
  }
  const std::string tool = t.format == "md-real-io-2017" ? "md-real-io" : "md-workbench";
  // One precreate (iteration 0) and one cleanup per run: other numbers are files of another run left beside
  // these (a reused --latency-dir), which would otherwise be ignored without a word.
  for (const auto& g : groups)
    if ((g.first.second == "cleanup" && g.first.first != cleanup_iter) ||
        (g.first.second == "precreate" && g.first.first != 0))
      throw ConfigError(g.second.begin()->second + ": a " + g.first.second + " file of iteration " +
                        std::to_string(g.first.first) + ", but a run has one " + g.first.second + " (" +
                        (g.first.second == "cleanup" ? "numbered with the iteration count, here " +
                                                           std::to_string(cleanup_iter)
                                                     : std::string("iteration 0")) +
                        "): files of another run in the same directory?");
  // Files of a phase the header says did not run (-1 -2 -3, run-precreate ...), and a --read-only benchmark (stat and
  // read only) with create or delete files: files of another run, or a header of another run.
  for (const auto& g : groups) {
    const std::string& kind = g.first.second;
    const int bit = kind == "precreate" ? 1 : kind == "cleanup" ? 4 : 2;
    const std::string phase = bit == 1 ? "precreate" : bit == 4 ? "cleanup" : "benchmark";
    if (h.run_phases >= 0 && (h.run_phases & bit) == 0)
      throw ConfigError(g.second.begin()->second + ": a " + phase + " file, but " + h.run_phases_at +
                        " states the phases the run ran without the " + phase + " (files of another run?)");
    if (!h.read_only_at.empty() && bit == 2 && (kind == "create" || kind == "delete"))
      throw ConfigError(g.second.begin()->second + ": a benchmark " + kind + " file, but " + h.read_only_at +
                        " states --read-only (the benchmark only stats and reads; files of another run?)");
  }
  // md-workbench -t F (its files are named <prefix>-<F>-...): each operation was followed by a wait of F x its
  // runtime. The replay keeps the recorded gaps, so those waits are fixed think times, not F x the simulated runtime.
  {
    const auto dash = t.prefix.rfind('-');
    const double in_name =
        dash == std::string::npos || t.format == "md-real-io-2017" ? 0 : std::atof(t.prefix.c_str() + dash + 1);
    const double f = std::max(h.waiting, in_name);
    if (f > 0) {
      char msg[96];
      std::snprintf(msg, sizeof msg, "%g", f);
      t.warnings.push_back(dir + ": the run waited after each operation (md-workbench -t " + msg +
                           ": a wait of that times the operation's runtime); the replay keeps the recorded waits as "
                           "fixed think times, which do not follow the simulated runtimes");
    }
  }
  const bool has_cleanup = cleanup_iter >= 0;
  if (has_cleanup && bench_iters > cleanup_iter)
    throw ConfigError(last_bench_file + ": a benchmark file of iteration " + std::to_string(bench_iters - 1) +
                      ", but the cleanup files in " + dir + " are numbered " + std::to_string(cleanup_iter) + " (" +
                      tool + " numbers the cleanup with the iteration count; files of another run?)");
  // With a cleanup, its number is the iteration count: an iteration without files is reported below.
  const int bench_files = bench_iters;  // iterations with benchmark files (0 .. bench_files - 1)
  if (has_cleanup && bench_iters > 0)
    bench_iters = cleanup_iter;
  if (prm.iterations > 0 && bench_iters > 0 && bench_iters != prm.iterations && has_cleanup)
    throw ConfigError((h.stated[HeaderInfo::kR] ? h.stated_at[HeaderInfo::kR] : dir) + ": header says " +
                      (h.args_at.empty() ? "iterations=" : "-R=") + std::to_string(prm.iterations) +
                      defaulted(HeaderInfo::kR) + " but the cleanup files in " + dir + " are numbered " +
                      std::to_string(cleanup_iter) + " (" + tool + " numbers the cleanup with the iteration count; "
                      "benchmark files go up to iteration " + std::to_string(bench_files - 1) + ")");
  // The benchmark iterations the recorded output reports (one phase line each) or, without phase lines, its header
  // states (iterations=, -R; not when it says the benchmark did not run: md-workbench without -2 among -1 -2 -3).
  // Iterations without any file are missing, as a reported precreate without files is (below).
  int expect_iters = -1;
  std::string expect_what;  // "<file>: line N reports benchmark iteration " or "<file:line>: states iterations=R"
  std::vector<const ReportedPhase*> bench_reports;
  for (const auto& r : t.reported)
    if (r.name == "benchmark")
      bench_reports.push_back(&r);
  const bool bench_ran = h.run_phases < 0 || (h.run_phases & 2) != 0;
  // -I 0: iterations without operations, whose files a writer may leave out (pfsim does)
  const bool bench_empty = known[HeaderInfo::kI] && prm.obj_per_proc == 0 && !h.stonewall;
  if (bench_empty) {
  } else if (!bench_reports.empty()) {
    expect_iters = static_cast<int>(bench_reports.size());
  } else if (bench_ran && (h.stated[HeaderInfo::kR] || tool_default[HeaderInfo::kR])) {
    expect_iters = prm.iterations;
    expect_what = (h.stated[HeaderInfo::kR] ? h.stated_at[HeaderInfo::kR] : h.args_at) + ": states iterations=" +
                  std::to_string(prm.iterations) + defaulted(HeaderInfo::kR);
  }
  if (expect_iters >= 0 && bench_iters > expect_iters)
    throw ConfigError(dir + ": benchmark files of iteration " + std::to_string(bench_iters - 1) + ", but " +
                      (bench_reports.empty() ? expect_what
                                             : bench_reports.front()->file + " reports " +
                                                   std::to_string(expect_iters) + " benchmark iteration(s)") +
                      " (files of another run in the same directory?)");
  const int plan_iters = std::max(bench_iters, expect_iters);

  int D = std::max(1, prm.data_sets);
  size_t per_set = static_cast<size_t>(prm.precreate_per_set) * static_cast<size_t>(D);
  size_t per_iter = h.stonewall ? 0 : static_cast<size_t>(prm.obj_per_proc) * static_cast<size_t>(D);
  const std::string set_what = "precreate-per-set x data-sets = " + std::to_string(prm.precreate_per_set) + " x " +
                               std::to_string(D) + defaulted(HeaderInfo::kP) + defaulted(HeaderInfo::kD);
  const std::string iter_what = "obj-per-proc x data-sets = " + std::to_string(prm.obj_per_proc) + " x " +
                                std::to_string(D) + defaulted(HeaderInfo::kI) + defaulted(HeaderInfo::kD);
  // A header that states 0 objects (-P 0, -I 0) for a phase whose files hold rows contradicts them (0 is also
  // "unknown" below, where nothing states the count).
  const bool set_zero = known[HeaderInfo::kP] && prm.precreate_per_set == 0;
  const bool iter_zero = known[HeaderInfo::kI] && prm.obj_per_proc == 0 && !h.stonewall;
  auto check_zero = [&](const std::string& file, size_t rows, bool bench) {
    if (rows > 0 && (bench ? iter_zero : set_zero))
      throw ConfigError(file + ": " + std::to_string(rows) + " rows, but the header states " +
                        (bench ? iter_what : set_what) + " = 0 objects");
  };

  // Phase list in run order.
  struct PhaseFiles {
    TracePhase phase;
    std::vector<std::pair<std::string, TraceOp>> kinds;  // file phase name and op
  };
  std::vector<PhaseFiles> plan;
  std::vector<std::string> missing_what;  // for the --allow-missing warning
  std::vector<int> missing_iters;
  auto has = [&](int it, const std::string& ph) { return groups.count({it, ph}) > 0; };
  std::vector<int> missing_whole;  // benchmark iterations without any file
  auto iteration_files = [&](int it) {
    return L.prefix + "-" + std::to_string(it) +
           (L.format == "md-real-io-2017" ? "-*-*.csv" : L.format == "md-workbench-all" ? "-*-all.csv" : "-*.csv");
  };
  if (has(0, "precreate"))
    plan.push_back(PhaseFiles{TracePhase{"precreate", PhaseKind::Precreate, 0}, {{"precreate", TraceOp::Create}}});
  for (int it = 0; it < plan_iters; ++it) {
    PhaseFiles pf{TracePhase{"benchmark", PhaseKind::Benchmark, it}, {}};
    if (!has(it, "stat") && !has(it, "read") && !has(it, "create") && !has(it, "delete")) {
      missing_whole.push_back(it);
      continue;
    }
    for (const char* k : {"stat", "read", "create", "delete"}) {
      if (has(it, k)) {
        pf.kinds.emplace_back(k, *op_of_phase_file(k));
      } else {
        bool elsewhere = false;
        for (int j = 0; j < plan_iters; ++j)
          elsewhere |= has(j, k);
        if (!elsewhere)
          continue;  // this kind was never recorded
        // the file (-L, -all) or files (md-real-io's, one per rank) the run would have written
        std::string miss = L.prefix + "-" + std::to_string(it) + "-" + k +
                           (L.format == "md-real-io-2017"    ? "-*.csv"
                            : L.format == "md-workbench-all" ? "-all.csv"
                                                             : ".csv");
        if (!opt.allow_missing)
          throw ConfigError(dir + "/" + miss + ": no " + (L.format == "md-real-io-2017" ? "files" : "file") +
                            " for operation '" + k + "' of benchmark iteration " +
                            std::to_string(it) + " (present in other iterations); --allow-missing imports the rest");
        t.missing.push_back(miss);
        missing_what.push_back("'" + std::string(k) + "' of benchmark iteration " + std::to_string(it) + " (" + miss +
                               ")");
        if (missing_iters.empty() || missing_iters.back() != it)
          missing_iters.push_back(it);
      }
    }
    plan.push_back(pf);
  }
  // Whole benchmark iterations without files that the output reports, its header states, or the cleanup's number
  // (md-workbench numbers it with the iteration count) implies: an error, or with --allow-missing a warning.
  if (!missing_whole.empty()) {
    std::string iters, files;
    for (size_t i = 0; i < missing_whole.size(); ++i) {
      iters += (i ? ", " : "") + std::to_string(missing_whole[i]);
      files += (i ? ", " : "") + iteration_files(missing_whole[i]);
      t.missing.push_back(iteration_files(missing_whole[i]));
    }
    const int first = missing_whole.front();
    const std::string source =
        !bench_reports.empty() && first < static_cast<int>(bench_reports.size())
            ? bench_reports[static_cast<size_t>(first)]->file + ": line " +
                  std::to_string(bench_reports[static_cast<size_t>(first)]->line) + " reports benchmark iteration " +
                  std::to_string(first)
        : !expect_what.empty() ? expect_what
                               : dir + ": the cleanup files are numbered " + std::to_string(cleanup_iter) +
                                     " (" + tool + " numbers the cleanup with the iteration count)";
    const bool several = missing_whole.size() > 1;
    const std::string what = source + ", but the trace has no latency files of benchmark iteration" +
                             (several ? "s " : " ") + iters + " (" + files + ")";
    if (!opt.allow_missing)
      throw ConfigError(what + " (--allow-missing replays the trace without " + (several ? "them)" : "it)"));
    t.warnings.push_back(what + ": --allow-missing: the replay has no benchmark iteration" + (several ? "s " : " ") +
                         iters);
  }
  if (has_cleanup)
    plan.push_back(PhaseFiles{TracePhase{"cleanup", PhaseKind::Cleanup, cleanup_iter}, {{"cleanup", TraceOp::Delete}}});
  // A precreate or cleanup the recorded output reports but whose latency files are all missing: an error (a run
  // with -1/-3 reports only the phases it ran), or with --allow-missing a warning (the replay then lacks it).
  for (const char* ph : {"precreate", "cleanup"}) {
    const bool files = std::string(ph) == "precreate" ? has(0, "precreate") : has_cleanup;
    auto rep = std::find_if(t.reported.begin(), t.reported.end(), [&](const ReportedPhase& r) { return r.name == ph; });
    if (files || rep == t.reported.end())
      continue;
    const std::string what = rep->file + ": line " + std::to_string(rep->line) + " reports a " + ph +
                             " phase, but the trace has no " + ph + " latency files";
    if (!opt.allow_missing)
      throw ConfigError(what + " (--allow-missing replays the trace without it)");
    t.missing.push_back(L.prefix + "-" + (std::string(ph) == "precreate" ? "0" : "*") + "-" + ph +
                        (L.format == "md-real-io-2017" ? "-*.csv" : L.format == "md-workbench-all" ? "-all.csv" : ".csv"));
    t.warnings.push_back(what + ": --allow-missing: the replay has no " + ph + " phase");
  }
  if (!missing_what.empty()) {
    std::string ops, iters;
    for (size_t i = 0; i < missing_what.size(); ++i)
      ops += (i ? ", " : "") + missing_what[i];
    for (size_t i = 0; i < missing_iters.size(); ++i)
      iters += (i ? ", " : "") + std::to_string(missing_iters[i]);
    t.warnings.push_back(dir + ": --allow-missing: no files of operation " + ops + ": benchmark iteration" +
                         (missing_iters.size() > 1 ? "s " + iters + " are" : " " + iters + " is") +
                         " replayed without these operations, and the gaps where they were in the recording are "
                         "replayed as think time, so the times and rates of " +
                         (missing_iters.size() > 1 ? "these iterations" : "this iteration") +
                         " are not comparable with the recorded ones");
  }

  // Ranks: the header's statement, checked against the files.
  std::string stated_by, disagree;
  const int stated = header_ranks(t, h, known, stated_by, disagree);
  t.process_reports = h.report_ranks > 0;
  t.output_generation = output_generation(h);
  if (!disagree.empty())
    t.warnings.push_back(dir + ": the headers disagree on the rank count: " + stated_by + " states " +
                         std::to_string(stated) + ", " + disagree + "; used " + std::to_string(stated));
  int ranks = -1;
  bool mdreal_rank0 = false;  // md-real-io files of rank 0 only (recorded without --latency-all)
  bool concatenated = L.format == "md-workbench-all";
  if (!concatenated) {
    std::vector<RankGroup> rgs;
    for (const auto& pf : plan)
      for (const auto& [k, op] : pf.kinds) {
        int it = pf.phase.iteration;
        std::string phase = k;
        rgs.push_back({"phase " + k + " of iteration " + std::to_string(it), &groups[{it, k}],
                       [&L, &dir, it, phase](int r) {
                         if (L.format != "md-real-io-2017")
                           return (fs::path(dir) / (L.prefix + "-" + std::to_string(it) + "-" + phase + ".csv")).string();
                         return (fs::path(dir) / (L.prefix + "-" + std::to_string(it) + "-" + phase + "-" +
                                                  std::to_string(r) + ".csv"))
                             .string();
                       }});
      }
    // md-real-io 2017 keeps the latency files of rank 0 only unless --latency-all (a "latency-all" line in its
    // option block): rank 0's files alone, with headers that state more ranks and not latency-all, are that form,
    // replayed as md-workbench's -L files are.
    mdreal_rank0 = L.format == "md-real-io-2017" && h.latency_all_at.empty() && stated > 1 && !rgs.empty() &&
                   std::all_of(rgs.begin(), rgs.end(), [](const RankGroup& g) {
                     return g.files->size() == 1 && g.files->begin()->first == 0;
                   });
    ranks = check_rank_groups(rgs, L.format == "md-real-io-2017" && !mdreal_rank0 ? stated : 0, stated_by);
  }
  // Every rank's md-real-io files beside an option block that names the latency files without latency-all (with
  // which md-real-io keeps rank 0's alone), as md-workbench's -all files beside an Args line without --latency-all.
  if (L.format == "md-real-io-2017" && ranks > 1 && h.latency_all_at.empty() && !h.latency_at.empty() &&
      h.args_at.empty())
    t.warnings.push_back(h.latency_at + ": the output's run had no latency-all, with which md-real-io keeps rank 0's "
                         "latency files only, but these are the files of " + ranks_text(ranks) +
                         ": it may be another run's output (its parameters are used)");
  if (L.format == "md-workbench-rank0" || mdreal_rank0) {
    t.recorded_ranks = stated > 0 ? stated : 1;
    std::error_code ec;
    if (stated != 1)  // a 1-rank run's -L files hold every operation: nothing to warn about
      t.warnings.push_back(
        dir + ": " +
        (mdreal_rank0 ? "md-real-io files without latency-all hold rank 0's operations only (" +
                            (h.latency_at.empty() ? std::string("no header states latency-all")
                                                  : "the option block at " + h.latency_at +
                                                        " has no latency-all line") +
                            ")"
                      : std::string("md-workbench -L files hold rank 0's operations only")) +
        "; " +
        (stated > 0 ? "the run had " + std::to_string(stated) + " ranks (" + stated_by + "), the replay's default"
                    : std::string(fs::exists(fs::symlink_status(fs::path(dir) / "stdout.txt", ec))
                                      ? "stdout.txt does not state"
                                      : "no stdout.txt states") +
                          " the run's rank count, so the replay runs 1 rank unless --ranks M") +
        "; every replayed rank replays rank 0's stream (record with --latency-all to keep every rank)");
  }
  // Without a header saying -I/-P/-D, the files must at least agree with each other: every benchmark file (any
  // operation, rank and iteration) holds obj-per-proc x data-sets rows, every precreate and cleanup file
  // precreate-per-set x data-sets (a stonewalled run's benchmark files hold what each rank did).
  CountCheck bench_counts("as many as every other benchmark file"), set_counts("as many as every other precreate "
                                                                               "and cleanup file");
  TimingCheck timing;
  std::vector<std::pair<float, float>> rows;
  std::map<std::pair<size_t, TraceOp>, uint64_t> op_rows;  // (plan index, operation): rows of all ranks' files
  if (concatenated) {
    std::vector<ConcatFile> files;
    for (size_t pi = 0; pi < plan.size(); ++pi)
      for (const auto& [k, op] : plan[pi].kinds) {
        ConcatFile f;
        f.phase = pi;
        f.op = op;
        f.path = groups[{plan[pi].phase.iteration, k}].begin()->second;
        f.id = timing.file_id(f.path);
        const bool bench = plan[pi].phase.kind == PhaseKind::Benchmark;
        f.varies = bench && h.stonewall;
        if (known[HeaderInfo::kD]) {
          f.per_rank = bench ? per_iter : per_set;
          f.per_rank_what = bench ? iter_what : set_what;
        }
        read_latency_csv(f.path, f.rows, nullptr);
        if (f.rows.empty() && bench && iter_zero)
          continue;  // -I 0: a benchmark iteration's files hold their header only (md-workbench and pfsim write them)
        if (f.rows.empty())  // (as a per-rank file of its header line alone is reported)
          fail(f.path, 1, "expected " +
                              (f.per_rank > 0 && stated > 0
                                   ? std::to_string(f.per_rank * static_cast<size_t>(stated)) + " rows (" +
                                         std::to_string(stated) + " ranks: " + stated_by + "; " +
                                         std::to_string(f.per_rank) + " rows per rank: " + f.per_rank_what + ")"
                                   : f.per_rank > 0
                                       ? std::to_string(f.per_rank) + " rows per rank (" + f.per_rank_what + ")"
                                                    : std::string("every rank's rows")) +
                              ", found 0" + too_few(0));
        check_zero(f.path, f.rows.size(), bench);
        for (size_t i = 1; i < f.rows.size(); ++i)
          if (f.rows[i].first < f.rows[i - 1].first)
            f.restarts.push_back(i);
        files.push_back(std::move(f));
      }
    ranks = split_concatenated(files, stated, stated_by, dir, t);
    for (const auto& f : files) {
      op_rows[{f.phase, f.op}] += f.rows.size();
      for (int r = 0; r < ranks; ++r)
        timing.check_order(f.rows, f.begin[static_cast<size_t>(r)], f.begin[static_cast<size_t>(r) + 1], f.id);
      if (f.per_rank == 0 && !f.varies)
        (plan[f.phase].phase.kind == PhaseKind::Benchmark ? bench_counts : set_counts)
            .add(f.path, f.rows.size() / static_cast<size_t>(ranks), f.rows.size() + 1,
                 " per rank (" + std::to_string(f.rows.size()) + " rows, " + std::to_string(ranks) + " ranks)");
    }
    t.ranks = ranks;
    t.streams.resize(static_cast<size_t>(ranks));
    std::vector<Row> merged;
    for (size_t pi = 0; pi < plan.size(); ++pi)
      for (int r = 0; r < ranks; ++r) {
        merged.clear();
        for (const auto& f : files) {
          if (f.phase != pi)
            continue;
          for (size_t i = f.begin[static_cast<size_t>(r)]; i < f.begin[static_cast<size_t>(r) + 1]; ++i)
            merged.push_back({f.rows[i].first, f.rows[i].second, f.op, f.id, static_cast<uint32_t>(i + 2)});
        }
        auto& s = t.streams[static_cast<size_t>(r)];
        s.phase_begin.push_back(static_cast<uint32_t>(s.op.size()));
        append_phase(s, merged, timing);
      }
  } else {
    t.ranks = ranks;
    t.streams.resize(static_cast<size_t>(ranks));
    std::vector<Row> merged;
    for (int r = 0; r < ranks; ++r) {
      auto& s = t.streams[static_cast<size_t>(r)];
      for (size_t pi = 0; pi < plan.size(); ++pi) {
        const auto& pf = plan[pi];
        merged.clear();
        const bool bench = pf.phase.kind == PhaseKind::Benchmark;
        for (const auto& [k, op] : pf.kinds) {
          const std::string& file = groups[{pf.phase.iteration, k}][r];
          rows.clear();
          read_latency_csv(file, rows, nullptr);
          op_rows[{pi, op}] += rows.size();
          size_t expected = bench ? per_iter : per_set;
          check_zero(file, rows.size(), bench);
          check_count(file, rows.size(), expected, bench ? iter_what : set_what);
          if (expected == 0 && !(bench && h.stonewall))
            (bench ? bench_counts : set_counts).add(file, rows.size(), rows.size() + 1);
          const uint32_t id = timing.file_id(file);
          timing.check_order(rows, 0, rows.size(), id);
          for (size_t i = 0; i < rows.size(); ++i)
            merged.push_back({rows[i].first, rows[i].second, op, id, static_cast<uint32_t>(i + 2)});
        }
        s.phase_begin.push_back(static_cast<uint32_t>(s.op.size()));
        append_phase(s, merged, timing);
      }
    }
  }
  bench_counts.check();
  set_counts.check();
  // The objects each phase line states (all ranks': md-real-io's "<n> obj", md-workbench's "objects:<n>") against the
  // rows of each operation's files of that phase (one per object: md-workbench stats, reads, deletes and creates
  // every object of an iteration once), when the files hold every rank's operations and the benchmark ran without
  // a stonewall timer, whose objects the line may count otherwise (helper-136: a cleanup line of 250 obj beside
  // files of 250,000 rows passed).
  if (L.format != "md-workbench-rank0" && !mdreal_rank0) {
    int bench_line = 0;  // the benchmark lines are the iterations 0, 1, ... in order
    for (const auto& r : t.reported) {
      const bool bench = r.name == "benchmark";
      const int it = bench ? bench_line++ : -1;
      if (!r.objects_stated || (bench && h.stonewall))
        continue;
      const PhaseKind kind = bench ? PhaseKind::Benchmark : r.name == "precreate" ? PhaseKind::Precreate
                                                                                   : PhaseKind::Cleanup;
      for (size_t pi = 0; pi < plan.size(); ++pi) {
        if (plan[pi].phase.kind != kind || (bench && plan[pi].phase.iteration != it))
          continue;
        for (const auto& [k, op] : plan[pi].kinds) {
          const uint64_t found = op_rows[{pi, op}];
          if (found == r.objects)
            continue;
          const std::string files = L.prefix + "-" + std::to_string(plan[pi].phase.iteration) + "-" + k +
                                    (L.format == "md-real-io-2017" ? "-*.csv" : L.format == "md-workbench-all"
                                                                                    ? "-all.csv" : ".csv");
          throw ConfigError(r.file + ":" + std::to_string(r.line) + ": the " + r.name + " line states " +
                            std::to_string(r.objects) + " objects (all ranks'), but its '" + k + "' latency files (" +
                            files + ", " + ranks_text(t.ranks) + ") hold " + std::to_string(found) + " rows, one per "
                            "object: expected the output of the run that wrote them (an edited line or files?)");
        }
      }
    }
  }
  if (t.recorded_ranks == 0)
    t.recorded_ranks = t.ranks;
  const std::string timing_warning = timing.warning(dir);
  if (!timing_warning.empty())
    t.warnings.push_back(timing_warning);
  for (auto& s : t.streams) {
    s.phase_begin.push_back(static_cast<uint32_t>(s.op.size()));
    s.op.shrink_to_fit();
    s.think_s.shrink_to_fit();
    s.runtime_s.shrink_to_fit();
  }
  for (const auto& pf : plan)
    t.phases.push_back(pf.phase);
  if (prm.iterations == 0)
    prm.iterations = bench_iters;
  if (prm.data_sets == 0)
    prm.data_sets = 1;
  // md-workbench interleaves a rank's objects over its D data sets: every precreate / cleanup phase holds
  // P x D of them per rank, every benchmark iteration I x D (x the operations of an object).
  if (opt.data_sets > 0) {
    for (size_t p = 0; p < t.phases.size(); ++p) {
      const auto& s = t.streams.front();
      uint64_t n = s.end(static_cast<int>(p)) - s.begin(static_cast<int>(p));
      if (t.phases[p].kind == PhaseKind::Benchmark)
        n /= std::max<size_t>(1, plan[p].kinds.size());
      if (n % static_cast<uint64_t>(opt.data_sets) != 0)
        throw ConfigError(dir + ": --data-sets " + std::to_string(opt.data_sets) + ": rank 0's " + t.phases[p].name +
                          " (iteration " + std::to_string(t.phases[p].iteration) + ") holds " + std::to_string(n) +
                          " objects, not a multiple of the data sets (md-workbench makes P x D or I x D per rank)");
    }
  }
  return t;
}

// mdtest --savePerOpDataCSV: one phase per operation kind, in mdtest's order; object size = tp x runtime.
// mdtest's "Command line used: mdtest '-n' '50' '-u' ..." in the directory's text files (the tool's saved stdout)
// says whether every rank had its own directory (-u) or all shared one. Only a line whose --savePerOpDataCSV names
// these files states their run (several must agree); lines of other runs are ignored. None: -u assumed, in a warning.
// What the mdtest output that made these files states about their counts: "-n N" of its Command line (files per
// rank when the line has no -I, -z, -b or -L, which spread items over a tree, and no -W, a stonewall timer that
// stops each rank early) and "launched with N total task(s)".
struct MdtestStated {
  long long items = -1;  // -n; -1: not stated or not checkable
  std::string items_at;
  int tasks = -1;  // launched with N total task(s)
  std::string tasks_at;
  std::string line_at;  // "file:line" of the command line these come from ("": none)
  // The File phases the command line runs: all four unless -C, -T, -E or -r selects some; none with -D.
  std::set<std::string> phases;
  double write_B = -1, read_B = -1;  // -w, -e (bytes; -1: not given, mdtest's default 0)
  bool dir_phases = false;  // no -F: mdtest also ran its Directory (and Tree) phases, which write no per-op files
  int stride = 0;           // -N (0: not given, mdtest's default)
  std::string error;  // a malformed value on the line, thrown when the line is the one used
  std::string unmodelled;  // options that change what mdtest ran and that the replay does not model (a warning)
};

MdtestStated read_mdtest_output(const std::string& dir, const std::string& prefix, Trace& t)
{
  static const std::regex token_re(R"('([^']*)'|(\S+))");
  static const std::regex launched_re(R"(launched with ([0-9]{1,9}) total task)");
  std::vector<std::string> others;                  // command lines of other runs (they name no such files)
  std::string matching;
  bool matching_u = false;
  MdtestStated matching_stated;
  std::vector<fs::path> texts;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file() && e.path().extension() == ".txt")
      texts.push_back(e.path());
  std::sort(texts.begin(), texts.end());
  for (const auto& f : texts) {
    std::ifstream in(f);
    std::string line;
    int tasks = -1;
    std::string tasks_at;
    for (size_t n = 1; std::getline(in, line); ++n) {
      std::smatch lm;
      // mdtest's command line cut short: an option lost at its end (-N 1) would change the replay.
      if (in.eof() && line.find("Command line used:") != std::string::npos && line.find("mdtest") != std::string::npos)
        fail(f.string(), n, "truncated file: mdtest's \"Command line used:\" line has no end of line (a saved "
                            "output cut short?)");
      if (std::regex_search(line, lm, launched_re)) {
        tasks = std::stoi(lm[1]);
        tasks_at = (f.parent_path() / f.filename()).string() + ":" + std::to_string(n);
        continue;
      }
      const auto at = line.find("Command line used:");
      if (at == std::string::npos || line.find("mdtest", at) == std::string::npos)
        continue;
      bool u = false, named = false, tree = false;
      std::string perop;  // its --savePerOpDataCSV value ("": none)
      MdtestStated st;
      st.tasks = tasks;
      st.tasks_at = tasks_at;
      st.line_at = (f.parent_path() / f.filename()).string() + ":" + std::to_string(n);
      bool dirs_only = false, files_only = false;
      std::vector<std::string> toks;
      const std::string args = line.substr(at + 18);
      for (std::sregex_iterator it(args.begin(), args.end(), token_re), end; it != end; ++it)
        toks.push_back((*it)[1].matched ? (*it)[1].str() : (*it)[2].str());
      for (size_t i = 0; i < toks.size(); ++i) {
        const std::string& tok = toks[i];
        u |= tok == "-u" || tok == "--unique-dir-per-task";
        // --savePerOpDataCSV=P (or P as the next word): the files are P-<phase>-<rank>.csv, P possibly with a path
        if (tok.rfind("--savePerOpDataCSV", 0) == 0) {
          std::string v = tok.size() > 18 && tok[18] == '=' ? tok.substr(19)
                          : tok.size() == 18 && i + 1 < toks.size() ? toks[i + 1]
                                                                    : std::string();
          perop = v.empty() ? "(empty)" : v;
          named |= !v.empty() && fs::path(v).filename().string() == prefix;
        }
        // -I/-z/-b/-L spread -n over a tree; -W (stonewall timer, IO500's mdtest-hard) stops each rank early
        tree |= tok.rfind("-I", 0) == 0 || tok.rfind("-z", 0) == 0 || tok.rfind("-b", 0) == 0 ||
                tok.rfind("-L", 0) == 0 || tok.rfind("-W", 0) == 0 || tok.rfind("--stonewall-timer", 0) == 0;
        // -n N, -n=N, -nN (IOR's option parser)
        std::string v;
        if (tok == "-n" && i + 1 < toks.size())
          v = toks[i + 1];
        else if (tok.rfind("-n", 0) == 0 && tok.size() > 2)
          v = tok.substr(tok[2] == '=' ? 3 : 2);
        if (!v.empty() && v.size() <= 15 && v.find_first_not_of("0123456789") == std::string::npos) {
          st.items = std::stoll(v);
          st.items_at = (f.parent_path() / f.filename()).string() + ":" + std::to_string(n);
        }
        // -N S, -N=S, -NS: the rank shift of the stat, read and removal phases
        if (tok.rfind("-N", 0) == 0 && (tok.size() > 2 || i + 1 < toks.size())) {
          const std::string ns = tok.size() > 2 ? tok.substr(tok[2] == '=' ? 3 : 2) : toks[i + 1];
          if (!ns.empty() && ns.size() <= 9 && ns.find_first_not_of("0123456789") == std::string::npos)
            st.stride = std::stoi(ns);
          else if (st.error.empty())
            st.error = st.line_at + ": option -N: expected a non-negative integer rank stride, got " + excerpt(ns);
        }
        // Phase selection: -C create, -T stat, -E read, -r remove only (mdtest runs all four without any); -D dirs.
        static const std::map<std::string, std::string> only = {
            {"-C", "File creation"}, {"-T", "File stat"}, {"-E", "File read"}, {"-r", "File removal"}};
        if (auto o = only.find(tok); o != only.end())
          st.phases.insert(o->second);
        dirs_only |= tok == "-D";
        files_only |= tok == "-F";
        // (-z 2, -z2, -z=2; mdtest's long ones as typed)
        const std::string opt = tok.rfind("--", 0) == 0 ? tok.substr(0, tok.find('=')) : tok.substr(0, 2);
        if (const char* why = tok.size() > 1 && tok[0] == '-' ? mdtest_not_modelled(opt) : nullptr;
            why != nullptr && st.unmodelled.find(opt + " (") == std::string::npos)
          st.unmodelled += (st.unmodelled.empty() ? "" : ", ") + opt + " (" + why + ")";
        // -w B, -w=B, -wB and -e (bytes written / read per file)
        for (const char* name : {"-w", "-e"}) {
          std::string b;
          bool given = false;
          if (tok == name && i + 1 < toks.size()) {
            b = toks[i + 1];
            given = true;
          } else if (tok.rfind(name, 0) == 0 && tok.size() > 2) {
            b = tok.substr(tok[2] == '=' ? 3 : 2);
            given = true;
          }
          if (!given)
            continue;
          const double x = units::parse_tool_size(b);  // IOR's parser: 4k = 4096; -1: not a count
          if (x < 0 && st.error.empty())
            st.error = st.line_at + ": option " + name + ": expected a non-negative integer number of bytes (digits "
                       "with an optional k/m/g/t/p suffix), got " + excerpt(b);
          (std::string(name) == "-w" ? st.write_B : st.read_B) = x < 0 ? -1 : x;
        }
      }
      if (st.phases.empty())
        st.phases = {"File creation", "File stat", "File read", "File removal"};
      if (dirs_only)
        st.phases.clear();
      st.dir_phases = !files_only;
      if (tree)
        st.items = -1;
      const std::string where = f.filename().string() + ": line " + std::to_string(n);
      if (!named) {
        // Not the run that wrote these files: it wrote no per-op files, or files of another prefix.
        others.push_back(where + (perop.empty() ? std::string(" (no --savePerOpDataCSV)")
                                                : " (--savePerOpDataCSV=" + excerpt(perop) + ")"));
        continue;
      }
      // Two outputs that both name these files (copies of one run's stdout, or two runs with one prefix) must
      // state the same run; otherwise which one made the files is a guess (it was the file name's order).
      // (-n and the task count only where both state them: a saved command line without mdtest's "launched
      // with" line states no task count)
      auto differ = [](long long a, long long b) { return a >= 0 && b >= 0 && a != b; };
      if (!matching.empty() &&
          (u != matching_u || differ(st.items, matching_stated.items) || differ(st.tasks, matching_stated.tasks) ||
           st.phases != matching_stated.phases || st.write_B != matching_stated.write_B ||
           st.read_B != matching_stated.read_B || st.stride != matching_stated.stride))
        throw ConfigError(matching_stated.line_at + " and " + st.line_at + ": two mdtest command lines name "
                          "--savePerOpDataCSV=" + prefix + " but state different runs (-u, -n, -w, -e, -N, the "
                          "phases or the task count); expected one output per set of per-op files (move the "
                          "other out of the directory)");
      if (matching.empty()) {
        matching = where;
        matching_u = u;
        matching_stated = st;
      } else {  // what only the later output states
        if (matching_stated.tasks < 0) {
          matching_stated.tasks = st.tasks;
          matching_stated.tasks_at = st.tasks_at;
        }
        if (matching_stated.items < 0) {
          matching_stated.items = st.items;
          matching_stated.items_at = st.items_at;
        }
      }
    }
  }
  if (!matching.empty()) {
    if (!matching_stated.unmodelled.empty())
      t.warnings.push_back(matching_stated.line_at + ": mdtest options the replay does not model: " +
                           matching_stated.unmodelled + "; it replays the recorded operations as they are, each rank's "
                           "files in " + (matching_u ? "its own directory" : "the one shared directory") +
                           " (no tree), every phase between barriers");
    t.shared_dir = !matching_u;
    t.mdtest_stride = matching_stated.stride;
    return matching_stated;
  }
  // Only the command line that wrote these files states their run: mdtest writes per-op files only with
  // --savePerOpDataCSV, so a line without it, or naming another prefix, is another run's (a saved stdout of an earlier
  // run beside them) and says nothing about these.
  std::string ignored;
  for (const auto& o : others)
    ignored += (ignored.empty() ? "" : ", ") + o;
  t.warnings.push_back(dir + ": no mdtest output (a .txt file with 'Command line used: ... --savePerOpDataCSV=" +
                       prefix + "') states the run of these files" +
                       (others.empty() ? std::string() : " (other runs' command lines ignored: " + ignored + ")") +
                       "; assumed -u (unique directories: no directory is shared, none locks) and the counts of the "
                       "files");
  return MdtestStated{};
}

Trace load_mdtest(const Listing& L, const std::string& dir, const ImportOptions& opt)
{
  Trace t;
  t.format = L.format;
  t.path = dir;
  t.prefix = L.prefix;
  std::map<std::string, std::map<int, std::string>> groups;
  for (const auto& [path, k] : L.files) {
    auto [it, fresh] = groups[k.phase].emplace(k.rank, path);
    if (!fresh)  // "...-1.csv" beside mdtest's own "...-00001.csv"
      throw ConfigError(path + ": a second file for rank " + std::to_string(k.rank) + " of phase '" + k.phase + "' (" +
                        it->second + " is one too); expected one file per rank and phase");
  }
  // The mdtest output's command line: which File phases ran, -w, -e, -n and the task count.
  const MdtestStated stated = read_mdtest_output(dir, L.prefix, t);
  if (!stated.error.empty())
    throw ConfigError(stated.error);
  int ranks = -1;
  std::vector<std::string> order;
  for (const char* name : {"File creation", "File stat", "File read", "File removal"})
    if (groups.count(name)) {
      order.emplace_back(name);
    } else if (!stated.line_at.empty() && stated.phases.count(name)) {
      // A phase the command line ran without any file: an error, or with --allow-missing a warning (as for md-real-io).
      const std::string files = L.prefix + "-" + name + "-*.csv";
      const std::string what = stated.line_at + ": the mdtest command line runs the " + name + " phase, but the "
                               "trace has no '" + name + "' files (" + files + ")";
      if (!opt.allow_missing)
        throw ConfigError(what + " (--allow-missing replays the trace without it)");
      t.missing.push_back(files);
      t.warnings.push_back(what + ": --allow-missing: the replay has no " + name + " phase");
    }
  std::vector<RankGroup> rgs;
  for (const auto& name : order)
    rgs.push_back({"phase '" + name + "'", &groups[name], [&L, &dir, name](int r) {
                     char rank[32];
                     std::snprintf(rank, sizeof rank, "%05d", r);
                     return (fs::path(dir) / (L.prefix + "-" + name + "-" + rank + ".csv")).string();
                   }});
  // The task count the output states ("launched with N total task(s)") names a file beyond it as such.
  ranks = check_rank_groups(rgs, std::max(0, stated.tasks), "the mdtest output (" + stated.tasks_at + ")");
  t.ranks = ranks;
  t.streams.resize(static_cast<size_t>(ranks));
  std::vector<std::pair<float, float>> rows;
  std::vector<float> tp;
  std::vector<Row> merged;
  std::vector<double> sizes;
  bool size_known = false;  // rank 0's File creation file has the tp column (tp 0: mdtest -w 0)
  std::pair<std::string, bool> tp_files;  // the first file read, and whether it has the tp column
  TimingCheck timing;
  // mdtest gives every rank the same items (-n) in every phase: a file with another count is cut or edited. Without a
  // stated -n the count of most files of every phase is the expected one (helper-94: with 2 ranks, a file with a row
  // too many tied with its phase's other file, and the intact one was named).
  CountCheck counts("as many as the other per-op files: mdtest gives every rank -n items in every phase");
  if (stated.items > 0)
    counts.stated(static_cast<size_t>(stated.items),
                  stated.items_at + " states -n " + std::to_string(stated.items) + ", files per rank");
  for (const auto& name : order) {
    t.phases.push_back({name, PhaseKind::Other, 0});
    TraceOp op = *op_of_phase_file(name);
    for (int r = 0; r < ranks; ++r) {
      rows.clear();
      tp.clear();
      bool has_tp = false;
      read_latency_csv(groups[name][r], rows, &tp, &has_tp);
      // One mdtest wrote every file of a trace, all with its tp column or (older mdtest) none: a file without it
      // among files with it is cut or edited.
      if (tp_files.first.empty())
        tp_files = {groups[name][r], has_tp};
      else if (has_tp != tp_files.second)
        fail(groups[name][r], 1, std::string("the header ") +
                                     (has_tp ? "has mdtest's tp column, which " + tp_files.first + " lacks"
                                             : "lacks mdtest's tp column, which " + tp_files.first + " has") +
                                     "; expected the same columns in every per-op file of one run");
      size_known |= op == TraceOp::Create && r == 0 && has_tp;
      counts.add(groups[name][r], rows.size(), rows.size() + 1);
      const uint32_t id = timing.file_id(groups[name][r]);
      timing.check_order(rows, 0, rows.size(), id);
      merged.clear();
      for (size_t i = 0; i < rows.size(); ++i) {
        merged.push_back({rows[i].first, rows[i].second, op, id, static_cast<uint32_t>(i + 2)});
        if (op == TraceOp::Create && r == 0 && tp[i] > 0)
          sizes.push_back(static_cast<double>(tp[i]) * rows[i].second);
      }
      auto& s = t.streams[static_cast<size_t>(r)];
      s.phase_begin.push_back(static_cast<uint32_t>(s.op.size()));
      append_phase(s, merged, timing);
    }
    if (stated.items > 0)
      counts.check();
  }
  counts.check();
  t.recorded_ranks = t.ranks;
  for (auto& s : t.streams)
    s.phase_begin.push_back(static_cast<uint32_t>(s.op.size()));
  auto bytes = [](double b) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.15g", b);
    return std::string(buf);
  };
  if (!sizes.empty() || size_known) {
    if (!sizes.empty()) {
      std::nth_element(sizes.begin(), sizes.begin() + static_cast<long>(sizes.size() / 2), sizes.end());
      t.params.object_size_B = std::round(sizes[sizes.size() / 2]);
    }
    // The command line's -w against the tp column (printed with 7 digits: within 1 B or 0.1%).
    if (stated.write_B >= 0 &&
        std::fabs(t.params.object_size_B - stated.write_B) > std::max(1.0, 1e-3 * stated.write_B))
      throw ConfigError(stated.line_at + ": states -w " + bytes(stated.write_B) + " (bytes written per file), but " +
                        groups["File creation"].begin()->second + " gives " + bytes(t.params.object_size_B) +
                        " B (its tp column x runtime)");
    if (stated.write_B >= 0)
      t.params.object_size_B = stated.write_B;
    if (opt.object_size_B > 0 && opt.object_size_B != t.params.object_size_B)
      throw ConfigError(dir + ": --object-size " + bytes(opt.object_size_B) + " but the File creation files' tp "
                        "column gives " + bytes(t.params.object_size_B) + " B (tp x runtime)");
  } else if (stated.write_B >= 0) {  // no File creation file with tp: the command line's -w
    if (opt.object_size_B > 0 && opt.object_size_B != stated.write_B)
      throw ConfigError(dir + ": --object-size " + bytes(opt.object_size_B) + " but " + stated.line_at +
                        " states -w " + bytes(stated.write_B));
    t.params.object_size_B = stated.write_B;
  } else if (stated.read_B > 0 && !groups.count("File creation")) {  // reads only (-E): the bytes each read moves
    if (opt.object_size_B > 0 && opt.object_size_B != stated.read_B)
      throw ConfigError(dir + ": --object-size " + bytes(opt.object_size_B) + " but " + stated.line_at +
                        " states -e " + bytes(stated.read_B));
    t.params.object_size_B = stated.read_B;
  } else if (opt.object_size_B > 0) {
    t.params.object_size_B = opt.object_size_B;
  } else if (groups.count("File creation") || groups.count("File read")) {
    t.warnings.push_back(dir + ": no File creation file with mdtest's tp column nor a command line's -w gives the "
                               "object size (tp x runtime); assumed 0 B: creates and reads move no data "
                               "(--object-size B sets it)");
  }
  t.params.data_sets = 1;
  t.params.offset = 0;
  if (stated.tasks >= 0 && stated.tasks != t.ranks)
    throw ConfigError(stated.tasks_at + ": states " + std::to_string(stated.tasks) + " tasks, but the per-op files "
                      "hold " + std::to_string(t.ranks) + " ranks (expected one file per task and phase)");
  if (stated.items >= 0)
    for (const auto& name : order)
      for (const auto& [r, path] : groups[name])
        if (const uint64_t rows = t.streams[static_cast<size_t>(r)].end(static_cast<int>(&name - order.data())) -
                                  t.streams[static_cast<size_t>(r)].begin(static_cast<int>(&name - order.data()));
            rows != static_cast<uint64_t>(stated.items))
          throw ConfigError(path + ": holds " + std::to_string(rows) + " operations, but " + stated.items_at +
                            " states -n " + std::to_string(stated.items) + " (files per rank)");
  if (L.mdtest_dir_files == 0 && stated.dir_phases && !stated.line_at.empty())
    t.warnings.push_back(stated.line_at + ": the mdtest run has no -F, so it also ran its Directory and Tree phases; "
                         "mdtest writes no per-op files for them and the replay has only the File phases");
  if (L.mdtest_dir_files > 0)
    t.warnings.push_back(dir + ": " + std::to_string(L.mdtest_dir_files) + " files of mdtest's Directory and Tree phases are "
                         "not replayed (" + L.mdtest_dir_phases + "; the importer replays the File phases only)");
  const std::string timing_warning = timing.warning(dir);
  if (!timing_warning.empty())
    t.warnings.push_back(timing_warning);
  return t;
}

}  // namespace

namespace {
std::string trace_dir(const std::string& path)
{
  std::string dir = fs::is_directory(path) ? path : fs::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}
}  // namespace

TraceFiles list_trace(const std::string& path)
{
  const Listing L = list_files(path);
  TraceFiles out;
  out.format = L.format;
  out.dir = trace_dir(path);
  for (const auto& f : L.files)
    out.files.push_back(f.first);
  std::error_code ec;
  if (L.format == "mdtest-perop") {  // every text file may hold mdtest's output (read_mdtest_output)
    for (const auto& e : fs::directory_iterator(out.dir, ec))
      if (e.path().extension() == ".txt")
        out.files.push_back(e.path().string());
  } else {
    for (const std::string& name : {L.prefix + ".txt", std::string("mdreal.txt"), std::string("stdout.txt")}) {
      const auto f = fs::path(out.dir) / name;
      if (fs::exists(f, ec) && std::find(out.files.begin(), out.files.end(), f.string()) == out.files.end())
        out.files.push_back(f.string());
    }
  }
  return out;
}

Trace load_trace(const std::string& path, const ImportOptions& options)
{
  Listing L = list_files(path);
  const std::string dir = trace_dir(path);
  if (L.format == "mdtest-perop") {
    if (options.data_sets > 0)
      throw ConfigError(dir + ": --data-sets is md-workbench's -D; this is an mdtest trace (mdtest has no data sets)");
    if (options.offset >= 0)
      throw ConfigError(dir + ": --offset is md-workbench's; this is an mdtest trace (mdtest has no benchmark phase "
                              "reading other ranks' data sets)");
    return load_mdtest(L, dir, options);
  }
  return load_mdw(L, dir, options);
}

}  // namespace pfsim::trace
