#include "workload/trace.hpp"

#include "config/reader.hpp"

#include <algorithm>
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
          {"operations", op_count()},
          {"params",
           {{"obj_per_proc", params.obj_per_proc},
            {"precreate_per_set", params.precreate_per_set},
            {"data_sets", params.data_sets},
            {"iterations", params.iterations},
            {"offset", params.offset},
            {"object_size_B", params.object_size_B}}},
          {"phases", phases},
          {"missing", missing},
          {"warnings", warnings}};
}

namespace {

[[noreturn]] void fail(const std::string& file, size_t line, const std::string& what)
{
  throw ConfigError(file + ":" + std::to_string(line) + ": " + what);
}

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

// A decimal number as the tools print it: [+-]digits[.digits][e[+-]digits]. strtod alone would also take
// hexadecimal ("0x10", "0x1p3"), "inf", "nan" and leading white space.
bool is_decimal(const std::string& s)
{
  auto digit = [&](size_t i) { return i < s.size() && s[i] >= '0' && s[i] <= '9'; };
  size_t i = 0, mantissa = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-'))
    ++i;
  for (; digit(i); ++i)
    ++mantissa;
  if (i < s.size() && s[i] == '.')
    for (++i; digit(i); ++i)
      ++mantissa;
  if (mantissa == 0)
    return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
      ++i;
    if (!digit(i))
      return false;
    while (digit(i))
      ++i;
  }
  return i == s.size();
}

double parse_number(const std::string& file, size_t line, const std::string& column, const std::string& text)
{
  const char* b = text.c_str();
  char* e = nullptr;
  errno = 0;
  double v = is_decimal(text) ? std::strtod(b, &e) : 0.0;
  if (!is_decimal(text) || e == b || *e != '\0' || errno == ERANGE || !std::isfinite(v))
    fail(file, line, "column '" + column + "': not a number: \"" + text +
                         "\" (expected a decimal number such as 0.0012 or 1.2e-03)");
  return v;
}

// Largest time or duration a latency file may hold: anything longer is a corrupt value, and would overflow the
// float32 the importer keeps or the simulated clock.
constexpr double kMaxSeconds = 1e9;

}  // namespace

void read_latency_csv(const std::string& file, std::vector<std::pair<float, float>>& rows, std::vector<float>* tp)
{
  std::ifstream in(file, std::ios::binary);
  if (!in)
    throw ConfigError(file + ": cannot open file");
  std::string line;
  if (!std::getline(in, line))
    fail(file, 1, "empty file; expected the header time,runtime");
  auto header = split(line, ',');
  int t_col = -1, r_col = -1, tp_col = -1;
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == "time")
      t_col = static_cast<int>(i);
    else if (header[i] == "runtime")
      r_col = static_cast<int>(i);
    else if (header[i] == "tp")
      tp_col = static_cast<int>(i);
  }
  if (t_col < 0 || r_col < 0)
    fail(file, 1, std::string("missing column '") + (t_col < 0 ? "time" : "runtime") + "' (header is \"" + line +
                      "\", expected time,runtime)");
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
                        " (\"" + line + "\")");
    double t = parse_number(file, n, "time", f[static_cast<size_t>(t_col)]);
    double r = parse_number(file, n, "runtime", f[static_cast<size_t>(r_col)]);
    if (t < 0 || r < 0)
      fail(file, n, "negative time or runtime");
    if (t > kMaxSeconds || r > kMaxSeconds)
      fail(file, n, std::string("column '") + (t > kMaxSeconds ? "time" : "runtime") + "': " +
                        f[static_cast<size_t>(t > kMaxSeconds ? t_col : r_col)] +
                        " s is out of range (expected at most 1e9 s)");
    rows.emplace_back(static_cast<float>(t), static_cast<float>(r));
    if (tp) {
      double x = tp_col >= 0 ? parse_number(file, n, "tp", f[static_cast<size_t>(tp_col)]) : 0.0;
      if (std::fabs(x) > FLT_MAX)
        fail(file, n, "column 'tp': " + f[static_cast<size_t>(tp_col)] + " is out of range (expected at most 3.4e+38, the float32 range)");
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
         p == "Directory rename";
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
  size_t mdtest_dir_files = 0;           // mdtest Directory-phase files beside them (not replayed)
};

Listing list_files(const std::string& path)
{
  fs::path dir = path;
  std::string only_prefix;
  std::string only_format;
  static const std::regex mdreal(R"(^(.+)-([0-9]+)-([a-z]+)-([0-9]+)\.csv$)");
  static const std::regex mdw_all(R"(^(.+)-([0-9]+\.[0-9]+)-([0-9]+)-([a-z]+)-all\.csv$)");
  static const std::regex mdw_l(R"(^(.+)-([0-9]+\.[0-9]+)-([0-9]+)-([a-z]+)\.csv$)");
  static const std::regex mdtest(R"(^(.+)-((?:File|Directory) [a-z]+)-([0-9]+)\.csv$)");
  // Names that have the shape of a latency file but an operation the format does not have are classified too
  // (`unknown` set): a file of the trace's own format and prefix with such a name is an error, not ignored.
  auto classify = [&](const std::string& name, FileKey& k, std::string& format, std::string& prefix,
                      bool* unknown = nullptr) {
    std::smatch m;
    if (unknown)
      *unknown = false;
    auto other = [&](bool known) {
      if (unknown)
        *unknown = !known;
      return known || unknown;
    };
    if (std::regex_match(name, m, mdw_all)) {
      format = "md-workbench-all";
      prefix = m[1].str() + "-" + m[2].str();
      k = {std::stoi(m[3]), m[4], -1};
      return other(is_mdw_phase(m[4]));
    }
    if (std::regex_match(name, m, mdw_l)) {
      format = "md-workbench-rank0";
      prefix = m[1].str() + "-" + m[2].str();
      k = {std::stoi(m[3]), m[4], 0};
      return other(is_mdw_phase(m[4]));
    }
    if (std::regex_match(name, m, mdreal)) {
      format = "md-real-io-2017";
      prefix = m[1];
      k = {std::stoi(m[2]), m[3], std::stoi(m[4])};
      return other(is_mdw_phase(m[3]));
    }
    if (std::regex_match(name, m, mdtest) && !is_mdtest_dir_phase(m[2])) {
      format = "mdtest-perop";
      prefix = m[1];
      k = {0, m[2], std::stoi(m[3])};
      return other(op_of_phase_file(m[2]).has_value());
    }
    return false;
  };
  if (fs::is_regular_file(dir)) {
    FileKey k;
    if (!classify(dir.filename().string(), k, only_format, only_prefix))
      throw ConfigError(path + ": not a recognised latency file name (expected <prefix>-<iter>-<phase>-<rank>.csv, "
                               "<prefix>-<wait>-<iter>-<phase>[-all].csv or <prefix>-File <op>-<rank>.csv)");
    dir = dir.parent_path();
    if (dir.empty())
      dir = ".";
  } else if (!fs::is_directory(dir)) {
    throw ConfigError(path + ": no such trace directory or file");
  }
  Listing out;
  std::map<std::pair<std::string, std::string>, int> groups;
  std::vector<std::tuple<std::string, std::string, std::string, FileKey>> found;
  std::vector<std::tuple<std::string, std::string, std::string, FileKey>> unknown_files;
  size_t mdtest_dir_files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file())
      continue;
    std::smatch dm;
    const std::string fname = e.path().filename().string();
    if (std::regex_match(fname, dm, mdtest) && is_mdtest_dir_phase(dm[2]))
      ++mdtest_dir_files;
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
    throw ConfigError(dir.string() + ": no latency files (time,runtime CSV) found");
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

int to_int(const std::string& file, size_t line, const std::string& key, const std::string& v)
{
  double x = parse_number(file, line, key, trim(v));
  if (x < 0 || x != std::floor(x) || x > 2e9)
    fail(file, line, "'" + key + "': expected a non-negative integer, got \"" + v + "\"");
  return static_cast<int>(x);
}

uint64_t to_u64(const std::string& file, size_t line, const std::string& key, const std::string& digits)
{
  errno = 0;
  unsigned long long v = std::strtoull(digits.c_str(), nullptr, 10);
  if (errno == ERANGE)
    fail(file, line, "'" + key + "': number out of range: \"" + digits + "\"");
  return v;
}

// mdreal.txt (md-real-io 2017) or an md-workbench stdout.txt with the same "\tkey=value" block and phase lines.
void read_mdreal_header(const std::string& file, Trace& t)
{
  std::ifstream in(file);
  if (!in)
    return;
  static const std::regex phase_re(R"(^(precreate|benchmark|cleanup) ([0-9.]+)s ([0-9.]+) iops/s (.*)$)");
  static const std::regex obj_re(R"((^| )([0-9]+) obj( |$))");
  static const std::regex objs_re(R"(([0-9.]+) obj/s)");
  static const std::regex mib_re(R"(([0-9.]+) Mib/s)");
  static const std::regex dset_re(R"((^| )([0-9]+) dset( |$))");
  std::string line;
  size_t n = 0;
  auto& p = t.params;
  while (std::getline(in, line)) {
    ++n;
    std::string s = trim(line);
    if (s.rfind("Args:", 0) == 0) {  // md-workbench: Args: md-workbench "-I=20" ... "--" backend options
      std::istringstream ss(s.substr(5));
      std::string tok;
      while (ss >> tok) {
        if (tok.size() >= 2 && tok.front() == '"' && tok.back() == '"')
          tok = tok.substr(1, tok.size() - 2);
        if (tok == "--")
          break;
        auto eq = tok.find('=');
        if (eq == std::string::npos)
          continue;
        std::string k = tok.substr(0, eq), v = tok.substr(eq + 1);
        if (k == "-I" || k == "--obj-per-proc")
          p.obj_per_proc = to_int(file, n, k, v);
        else if (k == "-P" || k == "--precreate-per-set")
          p.precreate_per_set = to_int(file, n, k, v);
        else if (k == "-D" || k == "--data-sets")
          p.data_sets = to_int(file, n, k, v);
        else if (k == "-R" || k == "--iterations")
          p.iterations = to_int(file, n, k, v);
        else if (k == "-S" || k == "--object-size")
          p.object_size_B = to_int(file, n, k, v);
        else if (k == "--offset")
          p.offset = to_int(file, n, k, v);
      }
      continue;
    }
    auto eq = s.find('=');
    if (eq != std::string::npos && s.find(' ') == std::string::npos) {
      std::string k = s.substr(0, eq), v = s.substr(eq + 1);
      if (k == "obj-per-proc")
        p.obj_per_proc = to_int(file, n, k, v);
      else if (k == "precreate-per-set")
        p.precreate_per_set = to_int(file, n, k, v);
      else if (k == "data-sets")
        p.data_sets = to_int(file, n, k, v);
      else if (k == "iterations")
        p.iterations = to_int(file, n, k, v);
      else if (k == "object-size")
        p.object_size_B = to_int(file, n, k, v);
      else if (k == "offset")
        p.offset = to_int(file, n, k, v);
      continue;
    }
    std::smatch m;
    if (std::regex_match(s, m, phase_re)) {
      ReportedPhase r;
      r.name = m[1];
      r.time_s = std::stod(m[2]);
      r.iops = std::stod(m[3]);
      std::string rest = m[4];
      std::smatch x;
      r.file = file;
      r.line = n;
      if (std::regex_search(rest, x, obj_re))
        r.objects = to_u64(file, n, "obj", x[2]);
      if (std::regex_search(rest, x, dset_re))
        r.dsets = to_u64(file, n, "dset", x[2]);
      if (std::regex_search(rest, x, objs_re))
        r.obj_per_s = std::stod(x[1]);
      if (std::regex_search(rest, x, mib_re))
        r.mib_per_s = std::stod(x[1]);
      // Later md-real-io 2017 builds print the phase's slowest operation ("max 8.1748e-03s") before "(N errs)".
      static const std::regex max_re(R"( max ([0-9.eE+-]+)s )");
      r.has_max = std::regex_search(rest, x, max_re);
      t.reported.push_back(r);
    }
  }
}

// ---------------------------------------------------------------------------------------- building

struct Row {
  float time;
  float runtime;
  TraceOp op;
};

// Appends one phase of one rank: rows sorted by start time, think = gap since the previous end.
void append_phase(RankStream& s, std::vector<Row>& rows)
{
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) { return a.time < b.time; });
  double prev_end = 0;
  for (const auto& r : rows) {
    double think = std::max(0.0, static_cast<double>(r.time) - prev_end);
    s.op.push_back(static_cast<unsigned char>(r.op));
    s.think_s.push_back(static_cast<float>(think));
    s.runtime_s.push_back(r.runtime);
    prev_end = static_cast<double>(r.time) + r.runtime;
  }
}

void check_count(const std::string& file, size_t rows, size_t expected, const char* what)
{
  if (expected > 0 && rows != expected)
    fail(file, rows + 1, "expected " + std::to_string(expected) + " rows (" + what + "), found " +
                             std::to_string(rows) + " (truncated file?)");
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
                          " is missing (found " + std::to_string(g.files->size()) + " ranks, highest " +
                          std::to_string(g.files->rbegin()->first) + ")");
      ++r;
    }
    n = std::max(n, r);
  }
  if (stated > 0 && n > stated)
    for (const auto& g : groups)
      if (g.files->count(stated))
        throw ConfigError(g.files->at(stated) + ": rank " + std::to_string(stated) + " is beyond the " +
                          std::to_string(stated) + " ranks that " + stated_by + " states");
  if (stated > 0 && n < stated)
    throw ConfigError(groups.front().name(n) + ": missing file: " + stated_by + " states " + std::to_string(stated) +
                      " ranks, but no phase has a file of rank " + std::to_string(n) + " (the files hold ranks 0-" +
                      std::to_string(n - 1) + ")");
  for (const auto& g : groups) {
    int have = static_cast<int>(g.files->size());
    if (have < n)
      throw ConfigError(g.name(have) + ": missing file: " + g.what + " has " + std::to_string(have) +
                        " ranks, other phases have " + std::to_string(n) + ": rank " + std::to_string(have) +
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
  // The expected count is the most common one (on a tie the larger: a cut file is short); names the shortest
  // file that differs.
  void check() const
  {
    if (counts_.size() < 2)
      return;
    auto expected = counts_.begin();
    for (auto it = counts_.begin(); it != counts_.end(); ++it)
      if (it->second.n >= expected->second.n)
        expected = it;
    for (const auto& [rows, c] : counts_) {
      if (rows == expected->first)
        continue;
      const auto& ex = c.example;
      fail(ex.file, ex.line,
           "expected " + std::to_string(expected->first) + " rows (" + what_ + ", as in " +
               fs::path(expected->second.example.file).filename().string() + expected->second.example.label +
               "), found " + std::to_string(rows) + ex.label + (rows < expected->first ? " (truncated file?)" : ""));
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
};

// The rank count md-real-io's own report states: the precreate (or cleanup) line's "<n> dset" is ranks x data-sets.
int stated_ranks(const Trace& t, std::string& stated_by)
{
  if (t.params.data_sets <= 0)
    return 0;
  for (const auto& r : t.reported)
    if ((r.name == "precreate" || r.name == "cleanup") && r.dsets > 0 &&
        r.dsets % static_cast<uint64_t>(t.params.data_sets) == 0 &&
        r.dsets / static_cast<uint64_t>(t.params.data_sets) <= 1000000000ull) {
      stated_by = r.file + ":" + std::to_string(r.line) + " (" + r.name + " line: " + std::to_string(r.dsets) +
                  " dset with data-sets=" + std::to_string(t.params.data_sets) + ")";
      return static_cast<int>(r.dsets / static_cast<uint64_t>(t.params.data_sets));
    }
  return 0;
}

// md-workbench style traces (2017 per-rank files, -L rank 0 files, -all concatenated files).
Trace load_mdw(const Listing& L, const std::string& dir, const ImportOptions& opt)
{
  Trace t;
  t.format = L.format;
  t.path = dir;
  t.prefix = L.prefix;
  if (L.format == "md-real-io-2017")
    read_mdreal_header((fs::path(dir) / (L.prefix + ".txt")).string(), t);
  read_mdreal_header((fs::path(dir) / "stdout.txt").string(), t);
  if (t.params.data_sets <= 0 && opt.data_sets > 0) {
    t.params.data_sets = opt.data_sets;
  } else if (opt.data_sets > 0 && opt.data_sets != t.params.data_sets) {
    throw ConfigError(dir + ": --data-sets " + std::to_string(opt.data_sets) + " but the trace's header states " +
                      "data-sets=" + std::to_string(t.params.data_sets));
  } else if (t.params.data_sets <= 0) {
    t.warnings.push_back(dir + ": no mdreal.txt or stdout.txt states the data sets per rank (-D); assumed 1 "
                               "(--data-sets D sets it; the object counts and directories depend on it)");
  }
  if (L.format == "md-workbench-rank0")
    t.warnings.push_back(dir + ": md-workbench -L files hold rank 0's operations only; every replayed rank replays "
                               "rank 0's stream (record with --latency-all to keep every rank)");
  if (t.params.object_size_B <= 0)
    t.params.object_size_B = opt.object_size_B;
  if (t.params.object_size_B <= 0)
    t.params.object_size_B = 3901;  // md-workbench's default -S

  // (iteration, phase file name) -> rank -> path
  std::map<std::pair<int, std::string>, std::map<int, std::string>> groups;
  for (const auto& [path, k] : L.files)
    groups[{k.iteration, k.phase}][k.rank] = path;
  // Benchmark iterations are counted from the benchmark files alone: a run with -1 (precreate only) or -3
  // (cleanup only) has none. md-workbench numbers the cleanup files with the iteration count.
  int bench_iters = 0;
  int cleanup_iter = -1;
  for (const auto& g : groups) {
    if (g.first.second == "cleanup")
      cleanup_iter = std::max(cleanup_iter, g.first.first);
    else if (g.first.second != "precreate")
      bench_iters = std::max(bench_iters, g.first.first + 1);
  }
  const bool has_cleanup = cleanup_iter >= 0;
  if (has_cleanup && bench_iters > cleanup_iter)
    throw ConfigError(dir + ": the cleanup files are numbered " + std::to_string(cleanup_iter) + " but benchmark "
                      "files go up to iteration " + std::to_string(bench_iters - 1) + " (md-workbench numbers cleanup "
                      "with the iteration count)");
  // With a cleanup, its number is the iteration count: an iteration without files is reported below.
  if (has_cleanup && bench_iters > 0)
    bench_iters = cleanup_iter;
  if (t.params.iterations > 0 && bench_iters > 0 && bench_iters != t.params.iterations && has_cleanup)
    throw ConfigError(dir + ": header says iterations=" + std::to_string(t.params.iterations) + " but files hold " +
                      std::to_string(bench_iters) + " benchmark iterations");

  int D = std::max(1, t.params.data_sets);
  size_t per_set = static_cast<size_t>(t.params.precreate_per_set) * static_cast<size_t>(D);
  size_t per_iter = static_cast<size_t>(t.params.obj_per_proc) * static_cast<size_t>(D);

  // Phase list in run order.
  struct PhaseFiles {
    TracePhase phase;
    std::vector<std::pair<std::string, TraceOp>> kinds;  // file phase name and op
  };
  std::vector<PhaseFiles> plan;
  auto has = [&](int it, const std::string& ph) { return groups.count({it, ph}) > 0; };
  if (has(0, "precreate"))
    plan.push_back({{"precreate", PhaseKind::Precreate, 0}, {{"precreate", TraceOp::Create}}});
  for (int it = 0; it < bench_iters; ++it) {
    PhaseFiles pf{{"benchmark", PhaseKind::Benchmark, it}, {}};
    for (const char* k : {"stat", "read", "create", "delete"}) {
      if (has(it, k)) {
        pf.kinds.emplace_back(k, *op_of_phase_file(k));
      } else {
        bool elsewhere = false;
        for (int j = 0; j < bench_iters; ++j)
          elsewhere |= has(j, k);
        if (!elsewhere)
          continue;  // this kind was never recorded
        std::string miss = L.prefix + "-" + std::to_string(it) + "-" + k + "-*.csv";
        if (!opt.allow_missing)
          throw ConfigError(dir + "/" + miss + ": no files for operation '" + k + "' of benchmark iteration " +
                            std::to_string(it) + " (present in other iterations); --allow-missing imports the rest");
        t.missing.push_back(miss);
      }
    }
    if (pf.kinds.empty())
      throw ConfigError(dir + ": benchmark iteration " + std::to_string(it) + " has no latency files");
    plan.push_back(pf);
  }
  if (has_cleanup)
    plan.push_back({{"cleanup", PhaseKind::Cleanup, cleanup_iter}, {{"cleanup", TraceOp::Delete}}});

  // Ranks.
  int ranks = -1;
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
    std::string stated_by;
    int stated = L.format == "md-real-io-2017" ? stated_ranks(t, stated_by) : 0;
    ranks = check_rank_groups(rgs, stated, stated_by);
  }
  // Without a header saying -I/-P/-D, the files must at least agree with each other: every benchmark file (any
  // operation, rank and iteration) holds obj-per-proc x data-sets rows, every precreate and cleanup file
  // precreate-per-set x data-sets.
  CountCheck bench_counts("as many as every other benchmark file"), set_counts("as many as every other precreate "
                                                                               "and cleanup file");

  std::vector<std::pair<float, float>> rows;
  if (concatenated) {
    // Split every file at the points where time goes backwards; all files must agree on the rank count.
    std::vector<std::vector<std::vector<Row>>> per_phase_rank(plan.size());  // only small test traces use this
    for (size_t pi = 0; pi < plan.size(); ++pi) {
      for (const auto& [k, op] : plan[pi].kinds) {
        const std::string& file = groups[{plan[pi].phase.iteration, k}].begin()->second;
        rows.clear();
        read_latency_csv(file, rows, nullptr);
        std::vector<std::vector<Row>> split_rows(1);
        for (size_t i = 0; i < rows.size(); ++i) {
          if (i > 0 && rows[i].first < rows[i - 1].first)
            split_rows.emplace_back();
          split_rows.back().push_back({rows[i].first, rows[i].second, op});
        }
        if (rows.empty())
          fail(file, 2, "no data rows");
        int n = static_cast<int>(split_rows.size());
        if (ranks >= 0 && n != ranks)
          fail(file, rows.size() + 1, "time restarts " + std::to_string(n - 1) + " times (" + std::to_string(n) +
                                          " ranks), other files hold " + std::to_string(ranks) + " ranks");
        ranks = n;
        size_t expected = plan[pi].phase.kind == PhaseKind::Benchmark ? per_iter : per_set;
        size_t line = 1;
        for (size_t r = 0; r < split_rows.size(); ++r) {
          const auto& rr = split_rows[r];
          check_count(file, rr.size(), expected, "rows per rank");
          line += rr.size();
          if (expected == 0)
            (plan[pi].phase.kind == PhaseKind::Benchmark ? bench_counts : set_counts)
                .add(file, rr.size(), line, " for rank " + std::to_string(r) + " (ending at line " +
                                                std::to_string(line) + ")");
        }
        auto& dst = per_phase_rank[pi];
        dst.resize(static_cast<size_t>(n));
        for (int r = 0; r < n; ++r)
          dst[static_cast<size_t>(r)].insert(dst[static_cast<size_t>(r)].end(), split_rows[static_cast<size_t>(r)].begin(),
                                             split_rows[static_cast<size_t>(r)].end());
      }
    }
    t.ranks = ranks;
    t.streams.resize(static_cast<size_t>(ranks));
    for (size_t pi = 0; pi < plan.size(); ++pi)
      for (int r = 0; r < ranks; ++r) {
        auto& s = t.streams[static_cast<size_t>(r)];
        s.phase_begin.push_back(static_cast<uint32_t>(s.op.size()));
        append_phase(s, per_phase_rank[pi][static_cast<size_t>(r)]);
      }
  } else {
    t.ranks = ranks;
    t.streams.resize(static_cast<size_t>(ranks));
    std::vector<Row> merged;
    for (int r = 0; r < ranks; ++r) {
      auto& s = t.streams[static_cast<size_t>(r)];
      for (const auto& pf : plan) {
        merged.clear();
        for (const auto& [k, op] : pf.kinds) {
          const std::string& file = groups[{pf.phase.iteration, k}][r];
          rows.clear();
          read_latency_csv(file, rows, nullptr);
          size_t expected = pf.phase.kind == PhaseKind::Benchmark ? per_iter : per_set;
          check_count(file, rows.size(), expected, pf.phase.kind == PhaseKind::Benchmark ? "obj-per-proc x data-sets"
                                                                                        : "precreate-per-set x data-sets");
          if (expected == 0)
            (pf.phase.kind == PhaseKind::Benchmark ? bench_counts : set_counts).add(file, rows.size(), rows.size() + 1);
          for (const auto& x : rows)
            merged.push_back({x.first, x.second, op});
        }
        s.phase_begin.push_back(static_cast<uint32_t>(s.op.size()));
        append_phase(s, merged);
      }
    }
  }
  bench_counts.check();
  set_counts.check();
  for (auto& s : t.streams) {
    s.phase_begin.push_back(static_cast<uint32_t>(s.op.size()));
    s.op.shrink_to_fit();
    s.think_s.shrink_to_fit();
    s.runtime_s.shrink_to_fit();
  }
  for (const auto& pf : plan)
    t.phases.push_back(pf.phase);
  if (t.params.iterations == 0)
    t.params.iterations = bench_iters;
  if (t.params.data_sets == 0)
    t.params.data_sets = 1;
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
Trace load_mdtest(const Listing& L, const std::string& dir)
{
  Trace t;
  t.format = L.format;
  t.path = dir;
  t.prefix = L.prefix;
  std::map<std::string, std::map<int, std::string>> groups;
  for (const auto& [path, k] : L.files)
    groups[k.phase][k.rank] = path;
  int ranks = -1;
  std::vector<std::string> order;
  for (const char* name : {"File creation", "File stat", "File read", "File removal"})
    if (groups.count(name))
      order.emplace_back(name);
  std::vector<RankGroup> rgs;
  for (const auto& name : order)
    rgs.push_back({"phase '" + name + "'", &groups[name], [&L, &dir, name](int r) {
                     char rank[32];
                     std::snprintf(rank, sizeof rank, "%05d", r);
                     return (fs::path(dir) / (L.prefix + "-" + name + "-" + rank + ".csv")).string();
                   }});
  ranks = check_rank_groups(rgs, 0, "");
  t.ranks = ranks;
  t.streams.resize(static_cast<size_t>(ranks));
  std::vector<std::pair<float, float>> rows;
  std::vector<float> tp;
  std::vector<Row> merged;
  std::vector<double> sizes;
  for (const auto& name : order) {
    t.phases.push_back({name, PhaseKind::Other, 0});
    TraceOp op = *op_of_phase_file(name);
    // mdtest gives every rank the same items (-n): one rank's file with fewer rows is cut.
    CountCheck counts("as many as the other ranks' files of phase '" + name + "'");
    for (int r = 0; r < ranks; ++r) {
      rows.clear();
      tp.clear();
      read_latency_csv(groups[name][r], rows, &tp);
      counts.add(groups[name][r], rows.size(), rows.size() + 1);
      merged.clear();
      for (size_t i = 0; i < rows.size(); ++i) {
        merged.push_back({rows[i].first, rows[i].second, op});
        if (op == TraceOp::Create && r == 0 && tp[i] > 0)
          sizes.push_back(static_cast<double>(tp[i]) * rows[i].second);
      }
      auto& s = t.streams[static_cast<size_t>(r)];
      s.phase_begin.push_back(static_cast<uint32_t>(s.op.size()));
      append_phase(s, merged);
    }
    counts.check();
  }
  for (auto& s : t.streams)
    s.phase_begin.push_back(static_cast<uint32_t>(s.op.size()));
  if (!sizes.empty()) {
    std::nth_element(sizes.begin(), sizes.begin() + static_cast<long>(sizes.size() / 2), sizes.end());
    t.params.object_size_B = std::round(sizes[sizes.size() / 2]);
  }
  t.params.data_sets = 1;
  t.params.offset = 0;
  if (L.mdtest_dir_files > 0)
    t.warnings.push_back(dir + ": " + std::to_string(L.mdtest_dir_files) + " files of mdtest's Directory phases are "
                         "not replayed (the importer replays the File phases only)");
  return t;
}

}  // namespace

Trace load_trace(const std::string& path, const ImportOptions& options)
{
  Listing L = list_files(path);
  std::string dir = fs::is_directory(path) ? path : fs::path(path).parent_path().string();
  if (dir.empty())
    dir = ".";
  if (L.format == "mdtest-perop") {
    if (options.data_sets > 0)
      throw ConfigError(dir + ": --data-sets is md-workbench's -D; this is an mdtest trace (mdtest has no data sets)");
    return load_mdtest(L, dir);
  }
  return load_mdw(L, dir, options);
}

}  // namespace pfsim::trace
