#include "workload/ior_summary.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

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
    if (!j.is_number_integer())
      fail("an integer");
    if (j.is_number_unsigned() && j.get<unsigned long long>() > static_cast<unsigned long long>(max))
      fail("an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " + j.dump());
    const long long v = j.get<long long>();
    if (v < min || v > max)
      fail("an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "], got " + std::to_string(v));
    return v;
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
  off("randomOffset", "random offsets (-z)");
  off("collective", "collective I/O (-c)");
  off("fsyncperwrite", "an fsync after every write (-Y)");
  off("deadlineForStonewall", "stonewalling (-D), which moves less data than the test's parameters say");
  off("stoneWallingWearOut", "stonewalling's wear-out (-O stoneWallingWearOut)");
  off("reorderTasksRandom", "random task reordering for the read (-Z)");
  auto& o = s.options;
  o.transfer_B = static_cast<uint64_t>(p.at("transferSize").integer(1, 1000000000000000LL));
  o.block_B = static_cast<uint64_t>(p.at("blockSize").integer(1, 1000000000000000LL));
  o.segments = static_cast<uint64_t>(p.at("segmentCount").integer(1, 1000000000000000LL));
  o.file_per_proc = p.at("filePerProc").integer(0, 1) != 0;
  o.write = p.at("writeFile").integer(0, 1) != 0;
  o.read = p.at("readFile").integer(0, 1) != 0;
  o.fsync = p.at("fsync").integer(0, 1) != 0;
  o.repetitions = static_cast<int>(p.at("repetitions").integer(1, 10000));
  o.delay_s = static_cast<double>(p.at("interTestDelay").integer(0, 1000000000));
  s.tasks_per_node = static_cast<int>(p.at("tasksPerNode").integer(1, 4096));
  s.reorder = p.at("reorderTasks").integer(0, 1) != 0;
  s.test_file = p.at("testFileName").string();
  o.ranks = static_cast<int>(test.at("Options").at("tasks").integer(1, 10000000));
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
  return s;
}

}  // namespace pfsim
