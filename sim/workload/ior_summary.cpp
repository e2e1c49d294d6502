#include "workload/ior_summary.hpp"

#include "config/reader.hpp"
#include "config/units.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <tuple>

namespace pfsim {
namespace {

struct Field {
  const std::string& file;
  const nlohmann::json& j;
  std::string path;

  [[noreturn]] void fail(const std::string& expected) const
  {
    throw std::invalid_argument(file + ": " + path + ": expected " + expected);
  }
  Field at(const std::string& key) const
  {
    if (!j.is_object())
      fail("an object");
    auto it = j.find(key);
    if (it == j.end())
      throw std::invalid_argument(file + ": " + path + ": no field \"" + key + "\" (an IOR JSON summary, ior -O "
                                  "summaryFormat=JSON, has it)");
    return {file, *it, path + "." + key};
  }
  Field at(size_t i) const
  {
    if (!j.is_array() || j.size() <= i)
      fail("an array of at least " + std::to_string(i + 1) + " element(s)");
    return {file, j[i], path + "[" + std::to_string(i) + "]"};
  }
  long long integer(long long min, long long max) const
  {
    try {
      return config::json_integer(j, min, max);  // (a whole 1e10 is out of the range, not "not an integer")
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(file + ": " + path + ": " + e.what());
    }
  }
  double number() const
  {
    if (!j.is_number())
      fail("a number");
    return j.get<double>();
  }
  std::string string() const
  {
    if (!j.is_string())
      fail("a string");
    return j.get<std::string>();
  }
};

// Two fields of the summary that must agree and do not: the error names both with their values.
[[noreturn]] void conflict(const Field& a, const std::string& a_value, const Field& b, const std::string& b_value,
                           const std::string& expected)
{
  throw std::invalid_argument(a.file + ": " + a.path + " " + a_value + " and " + b.path + " " + b_value +
                              " disagree: expected " + expected);
}

}  // namespace

// A size as IOR's HumanReadable prints it in Options ("1 MiB", "1.50 GiB", "262144 bytes") in bytes; -1 if it is not
// one. `unit_B`: the unit's size (a two-decimal value is good to half a hundredth of it).
double human_bytes(const std::string& text, double& unit_B)
{
  std::istringstream is(text);
  double v = 0;
  std::string unit, rest;
  if (!(is >> v >> unit) || (is >> rest) || v < 0)
    return -1;
  const std::pair<const char*, double> units[] = {
      {"bytes", 1.0}, {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}, {"TiB", 1099511627776.0}};
  for (const auto& [name, size] : units)
    if (unit == name) {
      unit_B = size;
      return v * size;
    }
  return -1;
}

// IOR's size argument (its parser: an integer with an optional k, m, g, t or p suffix, powers of 1024); -1 if not.
long double ior_size_arg(const std::string& text)
{
  return units::parse_tool_size(text, 19);
}

namespace {
std::vector<std::string> command_words(const std::string& command)
{
  std::istringstream is(command);
  std::vector<std::string> words;
  for (std::string w; is >> w;)
    words.push_back(w);
  return words;
}
}  // namespace

std::string command_option(const std::string& command, const std::string& flag)
{
  const auto words = command_words(command);
  std::string value;
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i] == flag && i + 1 < words.size())
      value = words[i + 1];
    else if (words[i].size() > flag.size() + 1 && words[i].compare(0, flag.size() + 1, flag + "=") == 0)
      value = words[i].substr(flag.size() + 1);
    else if (words[i].size() > flag.size() && words[i].compare(0, flag.size(), flag) == 0 &&
             std::isdigit(static_cast<unsigned char>(words[i][flag.size()])))
      value = words[i].substr(flag.size());
  }
  return value;
}

std::vector<IorDirective> ior_directive_list(const std::string& given)
{
  std::vector<IorDirective> out;
  size_t pos = 0;
  while (true) {
    const size_t comma = std::min(given.find(',', pos), given.size());
    IorDirective d;
    d.text = given.substr(pos, comma - pos);
    const auto eq = d.text.find('=');
    d.key = d.text.substr(0, eq);
    for (auto& ch : d.key)
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    d.value = eq == std::string::npos ? "" : d.text.substr(eq + 1);
    out.push_back(std::move(d));
    if (comma == given.size())
      return out;
    pos = comma + 1;
  }
}

std::vector<std::string> command_options(const std::string& command, const std::string& flag)
{
  const auto words = command_words(command);
  std::vector<std::string> values;
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i] == flag && i + 1 < words.size())
      values.push_back(words[++i]);
    else if (words[i].size() > flag.size() && words[i].compare(0, flag.size(), flag) == 0 && flag.size() == 2)
      values.push_back(words[i].substr(words[i][flag.size()] == '=' ? flag.size() + 1 : flag.size()));
  }
  return values;
}

bool command_flag(const std::string& command, const std::string& flag)
{
  const auto words = command_words(command);
  return std::find(words.begin(), words.end(), flag) != words.end();
}

namespace {

// Fields that state one thing twice (IOR writes each from one value): a contradiction is an edited or assembled
// file, and the run would be of one of the two tests.
void check_consistency(const IorSummary& s, const Field& root, const Field& test, const Field& p, const Field& results)
{
  const auto& o = s.options;
  const Field opts = test.at("Options");
  auto num = [](double v) {
    std::ostringstream os;
    os << v;
    return os.str();
  };
  // Sizes: Parameters (bytes), Options (IOR's human-readable form), each result (KiB, 4 decimals), the command line.
  for (const auto& [key, human_key, kib_key, flag, bytes] :
       {std::make_tuple("blockSize", "blocksize", "blockKiB", "-b", o.block_B),
        std::make_tuple("transferSize", "xfersize", "xferKiB", "-t", o.transfer_B)}) {
    const std::string what = std::string("the same ") + (flag == std::string("-b") ? "block" : "transfer") + " size";
    const std::string v = std::to_string(bytes);
    if (opts.j.contains(human_key)) {
      const Field h = opts.at(human_key);
      double unit = 1;
      const double b = h.j.is_string() ? human_bytes(h.j.get<std::string>(), unit) : -1;
      if (b < 0)
        h.fail("a size as IOR prints it (\"1 MiB\", \"262144 bytes\")");
      if (std::fabs(b - static_cast<double>(bytes)) > 0.005 * unit + 0.5)
        conflict(p.at(key), v, h, h.j.dump(), what);
    }
    for (size_t i = 0; i < results.j.size(); ++i) {
      const Field r = results.at(i);
      if (!r.j.contains(kib_key))
        continue;
      const double kib = r.at(kib_key).number();
      if (std::fabs(kib * 1024 - static_cast<double>(bytes)) > 0.00005 * 1024 + 1e-9 * static_cast<double>(bytes))
        conflict(p.at(key), v, r.at(kib_key), num(kib), what);
    }
    const std::string arg = command_option(s.command_line, flag);
    if (!arg.empty() && ior_size_arg(arg) >= 0 && ior_size_arg(arg) != static_cast<long double>(bytes))
      conflict(p.at(key), v, root.at("Command line"), "(" + std::string(flag) + " " + arg + ")", what);
  }
  const std::string deadline = command_option(s.command_line, "-D");
  if (!deadline.empty() && ior_size_arg(deadline) >= 0 &&
      ior_size_arg(deadline) != static_cast<long double>(o.deadline_s))
    conflict(p.at("deadlineForStonewall"), num(o.deadline_s), root.at("Command line"), "(-D " + deadline + ")",
             "the same stonewalling deadline");
  const std::string segments = command_option(s.command_line, "-s");
  if (!segments.empty() && ior_size_arg(segments) >= 0 && ior_size_arg(segments) != static_cast<long double>(o.segments))
    conflict(p.at("segmentCount"), std::to_string(o.segments), root.at("Command line"), "(-s " + segments + ")",
             "the same segment count");
  // Repetitions: Options, the command line, and the results of each access the test ran (one per repetition).
  const std::string reps = std::to_string(o.repetitions);
  if (opts.j.contains("repetitions") && opts.at("repetitions").integer(0, 1000000000) != o.repetitions)
    conflict(p.at("repetitions"), reps, opts.at("repetitions"), opts.at("repetitions").j.dump(),
             "the same repetition count");
  const std::string i_arg = command_option(s.command_line, "-i");
  if (!i_arg.empty() && ior_size_arg(i_arg) >= 0 && ior_size_arg(i_arg) != static_cast<long double>(o.repetitions))
    conflict(p.at("repetitions"), reps, root.at("Command line"), "(-i " + i_arg + ")", "the same repetition count");
  for (const auto& [access, key, on] : {std::make_tuple("write", "writeFile", o.write),
                                        std::make_tuple("read", "readFile", o.read)}) {
    const auto n = std::count_if(s.results.begin(), s.results.end(), [&](const IorMeasured& m) { return m.access == access; });
    if (!on && n > 0)
      conflict(p.at(key), "0", results, std::to_string(n) + " \"" + access + "\" result(s)",
               std::string("no ") + access + " result in a test without " + access + "s, or " + key + " 1");
    if (on && n != o.repetitions)
      conflict(p.at("repetitions"), reps, results, std::to_string(n) + " \"" + access + "\" result(s)",
               std::string("one ") + access + " result per repetition (" + key + " 1)");
  }
  // Tasks: IOR's tasksPerNode is node 0's count and nodes the MPI job's, which may have more nodes than the test uses
  // (-N below the job's size, or node 0 with fewer tasks than the others): only more tasks than the nodes can hold
  // contradict them.
  const long long tpn = s.tasks_per_node;
  if (p.j.contains("nodes")) {
    const long long nodes = p.at("nodes").integer(1, 10000000);
    if (o.ranks > tpn * nodes)
      conflict(opts.at("tasks"), std::to_string(o.ranks), p.at("tasksPerNode"),
               std::to_string(tpn) + " x " + p.path + ".nodes " + std::to_string(nodes),
               "at most tasksPerNode tasks on each node");
  }
  for (const auto& [okey, pkey, value] : {std::make_tuple("nodes", "nodes", -1LL),
                                          std::make_tuple("clients per node", "tasksPerNode", tpn)}) {
    if (!opts.j.contains(okey) || !p.j.contains(pkey))
      continue;
    const long long pv = value >= 0 ? value : p.at(pkey).integer(1, 10000000);
    if (opts.at(okey).integer(0, 10000000) != pv)
      conflict(p.at(pkey), std::to_string(pv), opts.at(okey), opts.at(okey).j.dump(), "the same count");
  }
  // Switches the command line sets (a flag there means 1; its absence proves nothing: -O key=1 or a script may set
  // it) and the Options' access, which IOR prints from filePerProc (helper-104: Parameters won without a word).
  for (const auto& [key, flag, on, what] :
       {std::make_tuple("filePerProc", "-F", o.file_per_proc, "the same file mode"),
        std::make_tuple("fsync", "-e", o.fsync, "the same fsync setting"),
        std::make_tuple("reorderTasks", "-C", s.reorder, "the same task reordering"),
        std::make_tuple("writeFile", "-w", o.write, "the same accesses"),
        std::make_tuple("readFile", "-r", o.read, "the same accesses"),
        std::make_tuple("randomOffset", "-z", o.random_offset > 0, "the same offsets"),
        std::make_tuple("fsyncperwrite", "-Y", o.fsync_per_write, "the same fsync setting"),
        std::make_tuple("uniqueDir", "-u", o.unique_dir, "the same directories"),
        std::make_tuple("checkWrite", "-W", o.check_write, "the same checks"),
        std::make_tuple("checkRead", "-R", o.check_read, "the same checks"),
        std::make_tuple("keepFile", "-k", s.keep_file, "the same file removal")})
    if (!on && command_flag(s.command_line, flag))
      conflict(p.at(key), "0", root.at("Command line"), std::string("(") + flag + ")", what);
  if (opts.j.contains("access")) {
    const Field a = opts.at("access");
    const std::string v = a.string();
    if ((v == "file-per-process" || v == "single-shared-file") && (v == "file-per-process") != o.file_per_proc)
      conflict(p.at("filePerProc"), o.file_per_proc ? "1" : "0", a, a.j.dump(), "the same file mode");
  }
  if (opts.j.contains("segments") && opts.at("segments").integer(0, 1000000000000000LL) != static_cast<long long>(o.segments))
    conflict(p.at("segmentCount"), std::to_string(o.segments), opts.at("segments"), opts.at("segments").j.dump(),
             "the same segment count");
}

}  // namespace

IorSummary read_ior_summary(const std::string& path)
{
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    throw std::invalid_argument(path + ": not a regular file; expected IOR's JSON summary (ior -O summaryFormat=JSON "
                                "-O summaryFile=F)");
  std::ifstream in(path);
  if (!in)
    throw std::invalid_argument(path + ": cannot open the IOR JSON summary");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {  // a syntax error, a number out of a double's range
    throw std::invalid_argument(path + ": not JSON (" + std::string(e.what()) + "); expected IOR's JSON summary "
                                "(ior -O summaryFormat=JSON -O summaryFile=F)");
  }
  IorSummary s;
  Field root{path, j, "(top)"};
  s.command_line = root.at("Command line").string();
  Field tests = root.at("tests");
  if (tests.j.is_array() && tests.j.size() > 1)
    tests.fail("one test (the summary of one IOR test; got " + std::to_string(tests.j.size()) + ")");
  Field test = tests.at(0);
  Field p = test.at("Parameters");
  const std::string api = p.at("api").string();
  if (api != "POSIX")
    p.at("api").fail("\"POSIX\", the interface pfsim models, got \"" + api + "\"");
  auto off = [&](const char* key, const char* what) {
    if (p.j.contains(key) && p.at(key).integer(0, 1000000000000LL) != 0)
      p.at(key).fail(std::string("0: ") + what + " is not modelled");
  };
  off("collective", "collective I/O (-c)");
  off("reorderTasksRandom", "random task reordering for the read (-Z)");
  auto& o = s.options;
  o.transfer_B = static_cast<uint64_t>(p.at("transferSize").integer(1, 1000000000000000LL));
  o.block_B = static_cast<uint64_t>(p.at("blockSize").integer(1, 1000000000000000LL));
  if (o.transfer_B % 8 != 0)  // (IorWorkload's checks of -t and -b, named by the summary's fields)
    p.at("transferSize").fail("a multiple of 8 bytes (IOR: \"transfer size must be a multiple of access size\"), got " +
                              std::to_string(o.transfer_B));
  if (o.block_B % o.transfer_B != 0)
    p.at("blockSize").fail("a multiple of " + p.path + ".transferSize (" + std::to_string(o.transfer_B) +
                           " bytes), got " + std::to_string(o.block_B) +
                           " (IOR: \"block size must be a multiple of transfer size\")");
  o.segments = static_cast<uint64_t>(p.at("segmentCount").integer(1, 1000000000000000LL));
  o.file_per_proc = p.at("filePerProc").integer(0, 1) != 0;
  o.write = p.at("writeFile").integer(0, 1) != 0;
  o.read = p.at("readFile").integer(0, 1) != 0;
  o.fsync = p.at("fsync").integer(0, 1) != 0;
  // The options pfsim models beyond those (IOR 4.1's Parameters; older summaries may lack some: their defaults)
  auto optional = [&](const char* key, long long max) {
    return p.j.contains(key) ? p.at(key).integer(0, max) : 0LL;
  };
  o.random_offset = static_cast<int>(optional("randomOffset", 1000));
  o.fsync_per_write = optional("fsyncperwrite", 1) != 0;
  o.deadline_s = static_cast<double>(optional("deadlineForStonewall", 1000000000));
  o.wear_out = optional("stoneWallingWearOut", 1) != 0;
  o.unique_dir = optional("uniqueDir", 1) != 0;
  o.check_write = optional("checkWrite", 1) != 0;
  o.check_read = optional("checkRead", 1) != 0;
  o.read = o.read || o.check_read;  // (IOR runs the read phase for -R alone)
  s.keep_file = optional("keepFile", 1) != 0;
  o.keep_file = s.keep_file;
  o.repetitions = static_cast<int>(p.at("repetitions").integer(1, 10000));
  o.delay_s = static_cast<double>(p.at("interTestDelay").integer(0, 1000000000));
  s.tasks_per_node = static_cast<int>(p.at("tasksPerNode").integer(1, 4096));
  s.reorder = p.at("reorderTasks").integer(0, 1) != 0;
  s.test_file = p.at("testFileName").string();
  o.ranks = static_cast<int>(test.at("Options").at("tasks").integer(1, 10000000));
  // -Q: the Options' "task offset" (IOR prints it with -C), else the command line's
  if (const Field opts = test.at("Options"); opts.j.contains("task offset"))
    o.task_offset = static_cast<int>(opts.at("task offset").integer(0, 1000000000));
  else if (const std::string q = command_option(s.command_line, "-Q"); !q.empty() && ior_size_arg(q) >= 0)
    o.task_offset = static_cast<int>(std::min<long double>(ior_size_arg(q), 1000000000));
  // Not in Parameters: -g, and the -O directives of the stonewall
  o.barriers = command_flag(s.command_line, "-g");
  for (const auto& directives : command_options(s.command_line, "-O")) {
    for (const auto& [key, value, text] : ior_directive_list(directives)) {
      if (key == "stonewallingstatusfile")
        s.status_file = value;
      else if (key == "stonewallingwearoutiterations" && ior_size_arg(value) >= 0)
        o.pair_limit = static_cast<uint64_t>(ior_size_arg(value));
      else if (key == "stonewallingwearout" && (value == "0" || value == "1") && !p.j.contains("stoneWallingWearOut"))
        o.wear_out = value == "1";
    }
  }
  Field results = test.at("Results");
  if (!results.j.is_array())
    results.fail("an array of results");
  std::vector<int> seen(2, 0);  // per access: the iteration of its next result
  for (size_t i = 0; i < results.j.size(); ++i) {
    Field r = results.at(i);
    IorMeasured m;
    m.access = r.at("access").string();
    if (m.access != "write" && m.access != "read")
      r.at("access").fail("\"write\" or \"read\", got \"" + m.access + "\"");
    m.iteration = seen[m.access == "write" ? 0 : 1]++;
    m.bw_MiBps = r.at("bwMiB").number();
    m.total_s = r.at("totalTime").number();
    if (m.bw_MiBps < 0 || m.total_s < 0)
      r.at(m.bw_MiBps < 0 ? "bwMiB" : "totalTime").fail("a number >= 0");
    s.results.push_back(m);
  }
  if (!o.write && !o.read)
    p.fail("writeFile or readFile set: the test did neither");
  if (s.results.empty())
    results.fail("at least one result to compare with");
  check_consistency(s, root, test, p, results);
  return s;
}

}  // namespace pfsim
