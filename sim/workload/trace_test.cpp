#include "workload/trace.hpp"

#include "config/reader.hpp"
#include "test_util.hpp"
#include "workload/replay.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>
#include <iterator>
#include <string>
#include <vector>
#include <sys/stat.h>

namespace fs = std::filesystem;
using pfsim::config::ConfigError;
using namespace pfsim::trace;
using pfsim::test::TempDir;

namespace {

const std::string kToolOutputs = "/work/shared/data/tool-outputs";
const std::string kMistral = "/work/shared/data/mistral-mdrealio";

// A valid 2-rank md-real-io 2017 trace: precreate 2, one benchmark iteration of 1 object, cleanup 2.
void write_small_mdreal(const TempDir& d)
{
  d.write("mdreal.txt", "\tobj-per-proc=1 \n\tprecreate-per-set=2 \n\tdata-sets=1 \n\tobject-size=3900 \n"
                        "\titerations=1 \n\toffset=1 \n");
  for (int r = 0; r < 2; ++r) {
    std::string R = std::to_string(r);
    d.write("mdreal-0-precreate-" + R + ".csv", "time,runtime\n0.0001,1.0e-3\n0.0012,2.0e-3\n");
    d.write("mdreal-0-create-" + R + ".csv", "time,runtime\n0.0000,5.0e-4\n");
    d.write("mdreal-0-stat-" + R + ".csv", "time,runtime\n0.0006,2.0e-4\n");
    d.write("mdreal-0-read-" + R + ".csv", "time,runtime\n0.0009,3.0e-3\n");
    d.write("mdreal-0-delete-" + R + ".csv", "time,runtime\n0.0040,3.0e-4\n");
    d.write("mdreal-1-cleanup-" + R + ".csv", "time,runtime\n0.0,1.0e-4\n0.0002,1.0e-4\n");
  }
}

// The replay of write_small_mdreal's trace with these options.
pfsim::ReplayWorkload small_replay(const pfsim::ReplayOptions& o)
{
  TempDir d;
  write_small_mdreal(d);
  return pfsim::ReplayWorkload(std::make_shared<const Trace>(load_trace(d.str())), o);
}

// A --latency-all trace (lat-0.00-<iter>-<op>-all.csv) of `ranks` ranks, rank after rank: `per_set` precreate and
// cleanup rows, `per_iter` objects of every benchmark iteration (stat, read, delete, create, 1 ms apart) per rank.
// A rank's precreate and cleanup times start at 0; its benchmark times start at `bench_start` x rank, so with
// bench_start > 0 they never go down at a rank boundary.
void write_small_all(const TempDir& d, int ranks, int per_set, int per_iter, int iterations, double bench_start)
{
  auto file = [&](const std::string& name, int rows, int ops, int offset, double start) {
    std::string text = "time,runtime\n";
    for (int r = 0; r < ranks; ++r)
      for (int i = 0; i < rows; ++i) {
        char line[64];
        std::snprintf(line, sizeof line, "%.7f,%.4e\n", start * r + 1e-3 * (ops * i + offset), 5e-4);
        text += line;
      }
    d.write(name, text);
  };
  file("lat-0.00-0-precreate-all.csv", per_set, 1, 0, 0);
  for (int it = 0; it < iterations; ++it) {
    const char* ops[] = {"stat", "read", "delete", "create"};
    for (int k = 0; k < 4; ++k)
      file("lat-0.00-" + std::to_string(it) + "-" + ops[k] + "-all.csv", per_iter, 4, k, bench_start);
  }
  file("lat-0.00-" + std::to_string(iterations) + "-cleanup-all.csv", per_set, 1, 0, 0);
}

std::string error_of(const std::string& path, const ImportOptions& options = {})
{
  try {
    load_trace(path, options);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("md-real-io 2017 directory: ranks / phases / merged order and think times", "[trace]")
{
  TempDir d;
  write_small_mdreal(d);
  Trace t = load_trace(d.str());
  CHECK(t.format == "md-real-io-2017");
  CHECK(t.ranks == 2);
  REQUIRE(t.phases.size() == 3);
  CHECK(t.phases[1].name == "benchmark");
  CHECK(t.params.object_size_B == 3900);
  const auto& s = t.streams[1];
  REQUIRE(s.op.size() == 8);
  // benchmark merged by time: create (0), stat (0.6 ms), read (0.9 ms), delete (4 ms)
  CHECK(static_cast<TraceOp>(s.op[s.begin(1)]) == TraceOp::Create);
  CHECK(static_cast<TraceOp>(s.op[s.begin(1) + 1]) == TraceOp::Stat);
  CHECK(static_cast<TraceOp>(s.op[s.begin(1) + 2]) == TraceOp::Read);
  CHECK(static_cast<TraceOp>(s.op[s.begin(1) + 3]) == TraceOp::Delete);
  // think = start - previous end: 0.6 - 0.5 = 0.1 ms; 4.0 - (0.9 + 3.0) = 0.1 ms
  CHECK(s.think_s[s.begin(1) + 1] == Approx(1e-4).margin(1e-7));
  CHECK(s.think_s[s.begin(1) + 3] == Approx(1e-4).margin(1e-7));
  CHECK(s.runtime_s[s.begin(1) + 2] == Approx(3e-3));
}

TEST_CASE("importers reject malformed files naming file and line", "[trace]")
{
  TempDir d;
  write_small_mdreal(d);
  SECTION("missing column")
  {
    d.write("mdreal-0-stat-1.csv", "time,latency\n0.0006,2.0e-4\n");
    auto e = error_of(d.str());
    CHECK_THAT(e, Catch::Contains("mdreal-0-stat-1.csv:1") && Catch::Contains("missing column 'runtime'"));
  }
  SECTION("non-numeric value")
  {
    d.write("mdreal-0-precreate-0.csv", "time,runtime\n0.0001,1.0e-3\n0.0012,abc\n");
    auto e = error_of(d.str());
    CHECK_THAT(e, Catch::Contains("mdreal-0-precreate-0.csv:3") && Catch::Contains("not a number"));
  }
  SECTION("negative value: the column and the value are named")
  {
    d.write("mdreal-0-precreate-0.csv", "time,runtime\n0.0001,1.0e-3\n0.0012,-2e-4\n");
    auto e = error_of(d.str());
    CHECK_THAT(e, Catch::Contains("mdreal-0-precreate-0.csv:3") && Catch::Contains("column 'runtime'") &&
                      Catch::Contains("-2e-4") && Catch::Contains("negative"));
  }
  SECTION("truncated file: last line cut")
  {
    d.write("mdreal-1-cleanup-0.csv", "time,runtime\n0.0,1.0e-4\n0.0002,1.0");
    auto e = error_of(d.str());
    CHECK_THAT(e, Catch::Contains("mdreal-1-cleanup-0.csv:3") && Catch::Contains("truncated"));
  }
  SECTION("truncated file: rows missing")
  {
    d.write("mdreal-0-precreate-1.csv", "time,runtime\n0.0001,1.0e-3\n");
    auto e = error_of(d.str());
    CHECK_THAT(e, Catch::Contains("mdreal-0-precreate-1.csv:2") && Catch::Contains("expected 2 rows"));
  }
  SECTION("rank gap")
  {
    d.write("mdreal-0-stat-3.csv", "time,runtime\n0.0006,2.0e-4\n");
    auto e = error_of(d.str());
    CHECK_THAT(e, Catch::Contains("rank gap") && Catch::Contains("rank 2 is missing"));
  }
  SECTION("missing operation kind in one iteration")
  {
    fs::remove(d.path / "mdreal-0-read-0.csv");
    fs::remove(d.path / "mdreal-0-read-1.csv");
    d.write("mdreal.txt", "\tobj-per-proc=1 \n\tprecreate-per-set=2 \n\tdata-sets=1 \n\titerations=2 \n");
    for (int r = 0; r < 2; ++r)
      for (const char* k : {"stat", "read", "create", "delete"})
        d.write(std::string("mdreal-1-") + k + "-" + std::to_string(r) + ".csv", "time,runtime\n0.0,1e-4\n");
    fs::rename(d.path / "mdreal-1-cleanup-0.csv", d.path / "mdreal-2-cleanup-0.csv");
    fs::rename(d.path / "mdreal-1-cleanup-1.csv", d.path / "mdreal-2-cleanup-1.csv");
    CHECK_THAT(error_of(d.str()), Catch::Contains("no files for operation 'read'"));
    ImportOptions o;
    o.allow_missing = true;
    CHECK(load_trace(d.str(), o).missing.size() == 1);
  }
  SECTION("a header whose iteration count the files contradict names where it says so")
  {
    d.write("mdreal.txt", "\tobj-per-proc=1 \n\tprecreate-per-set=2 \n\tdata-sets=1 \n\titerations=3 \n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal.txt:4: header says iterations=3") &&
                                      Catch::Contains("cleanup files") && Catch::Contains("are numbered 1") &&
                                      Catch::Contains("up to iteration 0"));
  }
  SECTION("a cleanup numbered beyond the header's iteration count is named as the cleanup's number")
  {
    d.write("mdreal.txt", "\tobj-per-proc=1 \n\tprecreate-per-set=2 \n\tdata-sets=1 \n\titerations=1 \n");
    REQUIRE(error_of(d.str()).empty());
    fs::rename(d.path / "mdreal-1-cleanup-0.csv", d.path / "mdreal-5-cleanup-0.csv");
    fs::rename(d.path / "mdreal-1-cleanup-1.csv", d.path / "mdreal-5-cleanup-1.csv");
    CHECK_THAT(error_of(d.str()), Catch::Contains("header says iterations=1") &&
                                      Catch::Contains("cleanup files") && Catch::Contains("are numbered 5"));
  }
}

TEST_CASE("values beyond float32 or above 1e9 s are rejected naming file and line", "[trace]")
{
  TempDir d;
  write_small_mdreal(d);
  SECTION("runtime overflowing float32")
  {
    d.write("mdreal-0-stat-1.csv", "time,runtime\n0.0006,1e39\n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-stat-1.csv:2") && Catch::Contains("'runtime'") &&
                                      Catch::Contains("out of range"));
  }
  SECTION("absurd runtime that fits a double")
  {
    d.write("mdreal-0-read-0.csv", "time,runtime\n0.0009,1e300\n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-read-0.csv:2") && Catch::Contains("out of range"));
  }
  SECTION("time column")
  {
    d.write("mdreal-0-precreate-0.csv", "time,runtime\n0.0001,1.0e-3\n1e39,2.0e-3\n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-precreate-0.csv:3") && Catch::Contains("'time'") &&
                                      Catch::Contains("out of range"));
  }
  SECTION("a decimal number beyond a double or below its smallest: out of range, not \"not a number\"")
  {
    for (const char* v : {"1e-400", "1e400", "-1e999"}) {
      INFO(v);
      d.write("mdreal-0-stat-1.csv", std::string("time,runtime\n0.0006,") + v + "\n");
      CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-stat-1.csv:2: column 'runtime': \"" + std::string(v) +
                                                    "\" is out of range") && !Catch::Contains("not a number"));
    }
    TempDir m;  // mdtest's files (time, runtime and tp: the same parser)
    for (int r = 0; r < 2; ++r)
      m.write("mdtest-perop-File creation-0000" + std::to_string(r) + ".csv",
              "time,runtime,tp\n0.0,1.0e-4,3.9e7\n" + std::string(r == 1 ? "1e-400" : "0.0001") + ",1.0e-4,3.9e7\n");
    CHECK_THAT(error_of(m.str()), Catch::Contains("File creation-00001.csv:3: column 'time': \"1e-400\" is out of range"));
  }
  SECTION("mdtest tp column beyond float32")
  {
    TempDir m;
    for (int r = 0; r < 2; ++r)
      m.write("mdtest-perop-File creation-0000" + std::to_string(r) + ".csv",
              "time,runtime,tp\n0.0,1.0e-4,3.9e7\n0.0001,1.0e-4," + std::string(r == 1 ? "1e40" : "3.9e7") + "\n");
    CHECK_THAT(error_of(m.str()), Catch::Contains("File creation-00001.csv:3") && Catch::Contains("'tp'"));
  }
}

TEST_CASE("only decimal numbers parse: hexadecimal / inf / nan are rejected", "[trace]")
{
  TempDir d;
  write_small_mdreal(d);
  for (const char* bad : {"0x10", "0x1p3", "0X1P-3", "inf", "nan", " 0.5", "1e", ".", "1.5e+"}) {
    d.write("mdreal-0-stat-0.csv", std::string("time,runtime\n") + bad + ",2.0e-4\n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-stat-0.csv:2") && Catch::Contains("not a number"));
  }
  for (const char* good : {"0.0006", "6e-4", "6.0E-04", ".0006", "6.", "+0.0006"}) {
    d.write("mdreal-0-stat-0.csv", std::string("time,runtime\n") + good + ",2.0e-4\n");
    CHECK(error_of(d.str()).empty());
  }
}

TEST_CASE("a file of the trace's name pattern for an unknown operation is an error", "[trace]")
{
  SECTION("md-real-io 2017")
  {
    TempDir d;
    write_small_mdreal(d);
    d.write("mdreal-0-frobnicate-0.csv", "time,runtime\n0.0,1e-4\n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-frobnicate-0.csv") && Catch::Contains("'frobnicate'") &&
                                      Catch::Contains("precreate, stat, read, create, delete, cleanup"));
    // also when the trace is named by one of its files
    CHECK_THAT(error_of((d.path / "mdreal-0-stat-0.csv").string()), Catch::Contains("mdreal-0-frobnicate-0.csv"));
  }
  SECTION("md-workbench --latency-all")
  {
    TempDir d;
    for (const auto& e : fs::directory_iterator(kToolOutputs + "/md-workbench-ior/run2-latency-all"))
      fs::copy(e.path(), d.path / e.path().filename());
    fs::copy(d.path / "lat-0.00-0-stat-all.csv", d.path / "lat-0.00-0-frob-all.csv");
    CHECK_THAT(error_of(d.str()), Catch::Contains("lat-0.00-0-frob-all.csv") && Catch::Contains("'frob'"));
  }
  SECTION("mdtest per-op")
  {
    TempDir d;
    for (const auto& e : fs::directory_iterator(kToolOutputs + "/mdtest"))
      fs::copy(e.path(), d.path / e.path().filename());
    fs::copy(d.path / "mdtest-perop-File stat-00000.csv", d.path / "mdtest-perop-File frobnicate-00000.csv");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdtest-perop-File frobnicate-00000.csv") &&
                                      Catch::Contains("File creation, File stat, File read, File removal"));
    // mdtest's directory phases are known operations the importer does not replay: still ignored
    fs::remove(d.path / "mdtest-perop-File frobnicate-00000.csv");
    fs::copy(d.path / "mdtest-perop-File stat-00000.csv", d.path / "mdtest-perop-Directory stat-00000.csv");
    CHECK(error_of(d.str()).empty());
  }
}

TEST_CASE("mdtest per-op files: every rank's file of a phase has the same row count", "[trace]")
{
  TempDir d;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/mdtest"))
    fs::copy(e.path(), d.path / e.path().filename());
  SECTION("rank 1's File creation cut to 20 lines")
  {
    d.keep_lines("mdtest-perop-File creation-00001.csv", 20);
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdtest-perop-File creation-00001.csv:20") &&
                                      Catch::Contains("expected 50 rows") && Catch::Contains("found 19"));
  }
  SECTION("rank 1's File stat cut to the header")
  {
    d.keep_lines("mdtest-perop-File stat-00001.csv", 1);
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdtest-perop-File stat-00001.csv:1") &&
                                      Catch::Contains("found 0"));
  }
  SECTION("rank 0's file is the short one")
  {
    d.keep_lines("mdtest-perop-File read-00000.csv", 30);
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdtest-perop-File read-00000.csv:30"));
  }
  SECTION("without mdtest's output, 2 ranks: a row too many in one file is named, not its phase's other file")
  {
    // (helper-94: the two stat files tied, 50 and 51 rows, and the intact one was called truncated; rank 1's other
    // phases have 50 rows, as every file of an mdtest run)
    for (const auto& e : fs::directory_iterator(d.path))
      if (e.path().extension() == ".txt" || e.path().filename() == "mdtest-rankperf.csv")
        fs::remove(e.path());
    const auto f = d.path / "mdtest-perop-File stat-00001.csv";
    std::ifstream in(f);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    size_t at = 0;
    for (int i = 0; i < 5; ++i)
      at = text.find('\n', at) + 1;  // line 6 starts here
    const std::string row6 = text.substr(at, text.find('\n', at) + 1 - at);
    d.write("mdtest-perop-File stat-00001.csv", text + row6);
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdtest-perop-File stat-00001.csv") && Catch::Contains("found 51") &&
                                      Catch::Contains("expected 50 rows"));
  }
}

TEST_CASE("md-workbench: files of a phase the Args line says did not run (-1 -2 -3, --read-only) are an error", "[trace]")
{
  TempDir d;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/md-workbench-ior/run2-latency-all"))
    fs::copy_file(e.path(), d.path / e.path().filename());
  std::ifstream in(d.path / "stdout.txt");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const auto eol = text.find('\n');
  REQUIRE(error_of(d.str()).empty());
  // Benchmark only (-2): the precreate and cleanup files belong to another run.
  d.write("stdout.txt", text.substr(0, eol) + " \"-2\"" + text.substr(eol));
  CHECK_THAT(error_of(d.str()), Catch::Contains("precreate") && Catch::Contains("stdout.txt:1") &&
                                    Catch::Contains("without the"));
  // All three phases named: accepted.
  d.write("stdout.txt", text.substr(0, eol) + " \"-1\" \"-2\" \"-3\"" + text.substr(eol));
  CHECK(error_of(d.str()).empty());
  // --read-only: the benchmark only stats and reads, so create and delete files contradict it.
  d.write("stdout.txt", text.substr(0, eol) + " \"--read-only\"" + text.substr(eol));
  CHECK_THAT(error_of(d.str()), Catch::Contains("--read-only") && Catch::Contains("stdout.txt:1") &&
                                    (Catch::Contains("create-all.csv") || Catch::Contains("delete-all.csv")));
}

TEST_CASE("mdtest: two outputs naming the per-op files must state the same run", "[trace]")
{
  TempDir d;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/mdtest"))
    fs::copy(e.path(), d.path / e.path().filename());
  // A second copy of the output that made the files: the same run, accepted.
  fs::copy(d.path / "mdtest-allopts.txt", d.path / "zz-copy.txt");
  CHECK(error_of(d.str()).empty());
  // Its command line alone (no "launched with" line: no task count stated): not a contradiction.
  {
    std::ifstream in(d.path / "mdtest-allopts.txt");
    std::string line;
    while (std::getline(in, line) && line.find("Command line used:") == std::string::npos) {
    }
    d.write("aa-cmdline.txt", line + "\n");
    CHECK(error_of(d.str()).empty());
    fs::remove(d.path / "aa-cmdline.txt");
  }
  // The copy without -u: shared or unique directories would depend on which file name sorts first.
  {
    std::ifstream in(d.path / "mdtest-allopts.txt");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto at = text.find("'-u' ");
    REQUIRE(at != std::string::npos);
    text.erase(at, 5);
    for (const char* name : {"aa-shared.txt", "zz-copy.txt"}) {
      INFO(name);
      fs::remove(d.path / "aa-shared.txt");
      fs::remove(d.path / "zz-copy.txt");
      d.write(name, text);
      CHECK_THAT(error_of(d.str()), Catch::Contains(name) && Catch::Contains("mdtest-allopts.txt:4") &&
                                        Catch::Contains("state different runs"));
    }
  }
}

TEST_CASE("md-real-io: a missing rank or rank file is named / also against the header rank count", "[trace]")
{
  TempDir d;
  write_small_mdreal(d);
  // md-real-io's report line: "<ranks x data-sets> dset"; latency-all: every rank kept its latency files
  d.write("mdreal.txt", "\tobj-per-proc=1 \n\tprecreate-per-set=2 \n\tdata-sets=1 \n\tobject-size=3900 \n"
                        "\titerations=1 \n\toffset=1 \n\tlatency-all\n\n"
                        "precreate 0.0s 100.0 iops/s 2 dset 4 obj 1.000 dset/s 100.0 obj/s 0.4 Mib/s (0 errs)\n");
  REQUIRE(error_of(d.str()).empty());
  SECTION("the highest rank's files are all missing")
  {
    for (const char* f : {"mdreal-0-precreate-1.csv", "mdreal-0-create-1.csv", "mdreal-0-stat-1.csv",
                          "mdreal-0-read-1.csv", "mdreal-0-delete-1.csv", "mdreal-1-cleanup-1.csv"})
      fs::remove(d.path / f);
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-precreate-1.csv: missing file") &&
                                      Catch::Contains("mdreal.txt:9") && Catch::Contains("states 2 ranks"));
    // Without latency-all md-real-io keeps rank 0's files only: that form, replayed as md-workbench's -L files are
    // (rank 0's stream for every rank, the header's rank count the replay's default), with the same warning.
    const std::string header = d.read("mdreal.txt");
    d.write("mdreal.txt", header.substr(0, header.find("\tlatency-all\n")) +
                              header.substr(header.find("\tlatency-all\n") + 13));
    Trace t = load_trace(d.str());
    CHECK(t.format == "md-real-io-2017");
    CHECK(t.ranks == 1);
    CHECK(t.recorded_ranks == 2);
    REQUIRE(t.warnings.size() == 1);
    CHECK_THAT(t.warnings[0], Catch::Contains("hold rank 0's operations only (no header states latency-all)") &&
                                  Catch::Contains("the run had 2 ranks (") && Catch::Contains("mdreal.txt:8") &&
                                  Catch::Contains("the replay's default; every replayed rank replays rank 0's stream "
                                                  "(record with --latency-all to keep every rank)"));
    CHECK(pfsim::ReplayWorkload(std::make_shared<const Trace>(t), {}).ranks() == 2);
    // ... but a rank's files missing beside another rank's are still an error (rank 1's precreate is back)
    d.write("mdreal-0-precreate-1.csv", "time,runtime\n0.0001,1.0e-3\n0.0012,2.0e-3\n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("-1.csv: missing file") && Catch::Contains("rank 1 is missing"));
  }
  SECTION("a rank beyond the stated count")
  {
    for (const char* k : {"precreate", "create", "stat", "read", "delete"})
      fs::copy(d.path / (std::string("mdreal-0-") + k + "-1.csv"), d.path / (std::string("mdreal-0-") + k + "-2.csv"));
    fs::copy(d.path / "mdreal-1-cleanup-1.csv", d.path / "mdreal-1-cleanup-2.csv");
    CHECK_THAT(error_of(d.str()), Catch::Contains("-2.csv: rank 2 is beyond the 2 ranks"));
  }
  SECTION("one rank's file of one phase")
  {
    fs::remove(d.path / "mdreal-0-read-1.csv");
    auto e = error_of(d.str());
    CHECK_THAT(e, Catch::Contains("mdreal-0-read-1.csv: missing file") && Catch::Contains("rank 1 is missing"));
    CHECK_THAT(e, !Catch::Contains("read-0.csv"));
  }
}

TEST_CASE("md-real-io recorded without --latency-all (rank 0's files only) imports as md-workbench's -L files", "[trace]")
{
  // The real run's output without its "latency-all" line, and only rank 0's files, as md-real-io writes them without
  // --latency-all (its help: "Keep the latency files from all ranks").
  TempDir d;
  d.copy_files(kToolOutputs + "/md-real-io-2017");
  for (const char* k : {"0-precreate", "0-stat", "0-read", "0-create", "0-delete", "1-stat", "1-read", "1-create",
                        "1-delete", "2-cleanup"})
    fs::remove(d.path / (std::string("lat-") + k + "-1.csv"));
  CHECK_THAT(error_of(d.str()), Catch::Contains("lat-0-precreate-1.csv: missing file") &&
                                    Catch::Contains("states 2 ranks, but no phase has a file of rank 1"));
  d.write("stdout.txt", TempDir::removed(d.read("stdout.txt"), "\tlatency-all\n"));
  Trace t = load_trace(d.str());
  CHECK(t.format == "md-real-io-2017");
  CHECK(t.ranks == 1);
  CHECK(t.recorded_ranks == 2);
  CHECK(t.op_count() == 80 + 2 * 160 + 80);  // rank 0's operations
  REQUIRE(t.warnings.size() == 1);
  CHECK_THAT(t.warnings[0], Catch::Contains("md-real-io files without latency-all hold rank 0's operations only (the "
                                            "option block at " + d.str() + "/stdout.txt:5 has no latency-all line)") &&
                                Catch::Contains("the run had 2 ranks (" + d.str() + "/stdout.txt:23") &&
                                Catch::Contains("every replayed rank replays rank 0's stream"));
}

TEST_CASE("md-real-io without a header: a file cut at a line boundary disagrees with its siblings", "[trace]")
{
  TempDir d;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/md-real-io-2017"))
    if (e.path().filename() != "stdout.txt")
      fs::copy(e.path(), d.path / e.path().filename());
  REQUIRE(error_of(d.str()).empty());
  SECTION("benchmark file")
  {
    d.keep_lines("lat-0-stat-0.csv", 10);
    CHECK_THAT(error_of(d.str()), Catch::Contains("lat-0-stat-0.csv:10") && Catch::Contains("expected 40 rows") &&
                                      Catch::Contains("found 9"));
  }
  SECTION("cleanup file against the precreate files")
  {
    d.keep_lines("lat-2-cleanup-1.csv", 41);
    CHECK_THAT(error_of(d.str()), Catch::Contains("lat-2-cleanup-1.csv:41") && Catch::Contains("expected 80 rows"));
  }
}

TEST_CASE("md-workbench --latency-all files are split where time restarts", "[trace]")
{
  Trace t = load_trace(kToolOutputs + "/md-workbench-ior/run2-latency-all");
  CHECK(t.format == "md-workbench-all");
  CHECK(t.ranks == 2);                   // MPI -np 2
  CHECK(t.params.obj_per_proc == 20);   // from stdout.txt Args: -I=20
  CHECK(t.params.object_size_B == 3901);
  REQUIRE(t.phases.size() == 4);        // precreate, benchmark x 2, cleanup
  for (const auto& s : t.streams) {
    CHECK(s.end(0) - s.begin(0) == 80);            // -P 40 x -D 2
    CHECK(s.end(1) - s.begin(1) == 4 * 40);        // -I 20 x -D 2, four operations each
    CHECK(s.end(3) - s.begin(3) == 80);
  }
}

TEST_CASE("a truncated --latency-all file is rejected (rank count disagrees)", "[trace]")
{
  TempDir d;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/md-workbench-ior/run2-latency-all"))
    fs::copy(e.path(), d.path / e.path().filename());
  // Keep only rank 0's rows of one file.
  d.keep_lines("lat-0.00-1-stat-all.csv", 41);
  CHECK_THAT(error_of(d.str()), Catch::Contains("lat-0.00-1-stat-all.csv:41") && Catch::Contains("expected 80 rows") &&
                                    Catch::Contains("found 40: 1 rank's rows"));
}

TEST_CASE("a benchmark iteration's missing operation file is named as its format names it", "[trace]")
{
  // -L: lat-0.00-<iter>-<op>.csv (it was named "lat-0.00-1-stat-*.csv", which no -L file matches); -all:
  // lat-0.00-<iter>-<op>-all.csv; md-real-io: one per rank, lat-<iter>-<op>-*.csv.
  struct Case {
    const char* dir;
    std::vector<const char*> removed;
    const char* named;
  };
  const Case cases[] = {
      {"/md-workbench-ior/run1-L-process-reports", {"lat-0.00-1-stat.csv"}, "lat-0.00-1-stat.csv"},
      {"/md-workbench-ior/run2-latency-all", {"lat-0.00-1-stat-all.csv"}, "lat-0.00-1-stat-all.csv"},
      {"/md-real-io-2017", {"lat-1-stat-0.csv", "lat-1-stat-1.csv"}, "lat-1-stat-*.csv"}};
  for (const auto& [dir, removed, file] : cases) {
    INFO(dir);
    TempDir d;
    d.copy_files(kToolOutputs + dir);
    for (const char* f : removed)
      REQUIRE(fs::remove(d.path / f));
    CHECK_THAT(error_of(d.str()), Catch::Contains(d.str() + "/" + file + ": no file") &&
                                      Catch::Contains("for operation 'stat' of benchmark iteration 1"));
    ImportOptions o;
    o.allow_missing = true;
    const Trace t = load_trace(d.str(), o);
    REQUIRE(t.missing.size() == 1);
    CHECK(t.missing[0] == file);
  }
}

TEST_CASE("a latency file of its header line only: one message for per-rank and -all files", "[trace]")
{
  // It was ":1: expected 40 rows ... found 0" for a per-rank file and ":2: no data rows" for an -all file.
  TempDir r, a;
  r.copy_files(kToolOutputs + "/md-real-io-2017");
  r.keep_lines("lat-0-stat-0.csv", 1);
  CHECK_THAT(error_of(r.str()), Catch::Contains("lat-0-stat-0.csv:1: expected 40 rows (obj-per-proc x data-sets = 20 x "
                                                "2), found 0 (the file holds its header line only)"));
  a.copy_files(kToolOutputs + "/md-workbench-ior/run2-latency-all");
  a.keep_lines("lat-0.00-0-stat-all.csv", 1);
  CHECK_THAT(error_of(a.str()), Catch::Contains("lat-0.00-0-stat-all.csv:1: expected 80 rows (2 ranks: ") &&
                                    Catch::Contains("40 rows per rank: obj-per-proc x data-sets = 20 x 2), found 0 "
                                                    "(the file holds its header line only)"));
  fs::remove(a.path / "stdout.txt");  // nothing states the rows per rank
  CHECK_THAT(error_of(a.str()), Catch::Contains("lat-0.00-0-stat-all.csv:1: expected every rank's rows, found 0 (the "
                                                "file holds its header line only)"));
  // mdtest's per-rank files say the same
  TempDir m;
  m.copy_files(kToolOutputs + "/mdtest");
  m.keep_lines("mdtest-perop-File stat-00001.csv", 1);
  CHECK_THAT(error_of(m.str()), Catch::Contains("mdtest-perop-File stat-00001.csv:1: expected 50 rows") &&
                                    Catch::Contains("found 0 (the file holds its header line only)"));
}

TEST_CASE("md-workbench -L files hold rank 0 only", "[trace]")
{
  Trace t = load_trace(kToolOutputs + "/md-workbench-ior/run1-L-process-reports");
  CHECK(t.format == "md-workbench-rank0");
  CHECK(t.ranks == 1);
  CHECK(t.op_count() == 80 + 2 * 160 + 80);
}

TEST_CASE("md-real-io 2017 and standalone 2019 tool outputs import", "[trace]")
{
  Trace a = load_trace(kToolOutputs + "/md-real-io-2017");
  CHECK(a.format == "md-real-io-2017");
  CHECK(a.ranks == 2);
  CHECK(a.params.data_sets == 2);
  CHECK(a.reported.size() == 4);  // precreate, 2 benchmark, cleanup lines from stdout.txt
  Trace b = load_trace(kToolOutputs + "/md-workbench-standalone-2019");
  CHECK(b.format == "md-workbench-all");
  CHECK(b.ranks == 2);
  CHECK(b.op_count() == 2 * (80 + 2 * 160 + 80));
}

TEST_CASE("mdtest --savePerOpDataCSV files: one phase per operation / object size from tp", "[trace]")
{
  Trace t = load_trace(kToolOutputs + "/mdtest/mdtest-perop-File stat-00000.csv");
  CHECK(t.format == "mdtest-perop");
  CHECK(t.ranks == 2);
  REQUIRE(t.phases.size() == 4);
  CHECK(t.phases[0].name == "File creation");
  CHECK(t.phases[3].name == "File removal");
  CHECK(t.params.object_size_B == 3901);
  CHECK(t.op_count() == 2 * 4 * 50);
}

TEST_CASE("the Mistral 50-rank md-real-io trace: counts of ranks / phases and operations", "[trace][mistral]")
{
  TempDir d;
  std::string cmd = "tar xJf " + kMistral + "/results-5-7217624.tar.xz -C " + d.str();
  REQUIRE(std::system(cmd.c_str()) == 0);
  Trace t = load_trace(d.str() + "/results-5-7217624");
  CHECK(t.ranks == 50);
  CHECK(t.phases.size() == 5);  // precreate, benchmark x 3, cleanup
  CHECK(t.params.obj_per_proc == 1000);
  CHECK(t.params.precreate_per_set == 5000);
  CHECK(t.reported.size() == 5);
  CHECK(t.reported[1].obj_per_s == Approx(2789.2));
  CHECK(t.op_count() == 50ull * (5000 + 3 * 4000 + 5000));
  // The recorded order of a benchmark object in md-real-io 2017 is create, stat, read, delete.
  const auto& s = t.streams[0];
  CHECK(static_cast<TraceOp>(s.op[s.begin(1)]) == TraceOp::Create);
  CHECK(static_cast<TraceOp>(s.op[s.begin(1) + 1]) == TraceOp::Stat);
}

TEST_CASE("the Mistral 100-rank trace lacks iteration 0 reads: rejected unless allowed", "[trace][mistral]")
{
  TempDir d;
  std::string cmd = "tar xJf " + kMistral + "/results-10-7217628.tar.xz -C " + d.str() +
                    " --wildcards 'results-10-7217628/mdreal-0-*' 'results-10-7217628/mdreal-1-*' "
                    "'results-10-7217628/mdreal-3-*' 'results-10-7217628/mdreal.txt'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  CHECK_THAT(error_of(d.str() + "/results-10-7217628"), Catch::Contains("mdreal-0-read-*.csv"));
}

TEST_CASE("replay: rank m replays stream m mod N / counts scale with M", "[replay]")
{
  pfsim::ReplayOptions o;
  o.ranks = 5;
  auto w = small_replay(o);
  CHECK(w.ranks() == 5);
  CHECK(w.phase_items(0) == 5 * 2);  // precreate objects
  CHECK(w.phase_items(1) == 5 * 1);  // benchmark objects
  CHECK(w.phase_items(2) == 5 * 2);  // cleanup objects
  // Benchmark of rank 4 (offset 1, one data set), as md-workbench's run_benchmark: the object is created, written
  // and closed in rank 4 + 1 = 0's set, and looked up, read and deleted in rank 4 - 1 = 3's set; each of those
  // directories is updated by two ranks, so it is shared.
  pfsim::RankCursor c;
  pfsim::OpRequest r;
  std::vector<pfsim::Op> ops;
  while (w.next(4, 1, c, r)) {
    ops.push_back(r.op);
    const bool creating = ops.size() <= 3;  // create, write, close
    CHECK(r.dir == (creating ? 0u : 3u));
    CHECK(r.shared_dir);
  }
  CHECK(ops == std::vector<pfsim::Op>{pfsim::Op::Create, pfsim::Op::Write, pfsim::Op::Close, pfsim::Op::Stat,
                                      pfsim::Op::Open, pfsim::Op::Read, pfsim::Op::Close, pfsim::Op::Unlink});
  // Precreate starts with the data-set mkdir in the shared root directory.
  c = {};
  REQUIRE(w.next(2, 0, c, r));
  CHECK(r.op == pfsim::Op::Mkdir);
  CHECK(r.shared_dir);
}

TEST_CASE("replay with residuals: each operation carries its excess and the recorded ranks then active", "[replay]")
{
  TempDir d;
  write_small_mdreal(d);
  // Precreate: rank 0 ends at 2 ms; rank 1's second create starts at 3 ms, when only rank 1 is left.
  d.write("mdreal-0-precreate-0.csv", "time,runtime\n0.0,1.0e-3\n0.001,1.0e-3\n");
  d.write("mdreal-0-precreate-1.csv", "time,runtime\n0.0,1.0e-3\n0.003,2.5e-3\n");
  auto t = std::make_shared<const Trace>(load_trace(d.str()));
  pfsim::ReplayOptions o;
  o.residual_quantile = 0;  // floor = the fastest create of the phase (1 ms)
  pfsim::ReplayWorkload w(t, o);
  auto creates = [&w](int rank) {
    std::vector<std::pair<float, float>> out;  // (excess, recorded active) of each create
    pfsim::RankCursor c;
    pfsim::OpRequest r;
    while (w.next(rank, 0, c, r))
      if (r.op == pfsim::Op::Create) {
        CHECK(r.excess_s >= 0);
        out.emplace_back(r.excess_s, r.recorded_active);
      } else {
        CHECK(r.excess_s < 0);  // mkdir of the data set, and the write and close steps carry none
      }
    return out;
  };
  auto r0 = creates(0);
  auto r1 = creates(1);
  REQUIRE(r0.size() == 2);
  REQUIRE(r1.size() == 2);
  CHECK(r0[0].second == 2);
  CHECK(r0[1].second == 2);
  CHECK(r1[0].second == 2);
  CHECK(r1[1].second == 1);
  CHECK(r0[1].first == Approx(0.0).margin(1e-7));
  CHECK(r1[1].first == Approx(1.5e-3).epsilon(1e-4));
}

TEST_CASE("md-workbench generator: phases and counts from the tool's parameters", "[replay]")
{
  pfsim::MdWorkbenchParams p;
  p.ranks = 4;
  p.obj_per_proc = 3;
  p.precreate_per_set = 5;
  p.data_sets = 2;
  p.iterations = 2;
  auto t = std::make_shared<const Trace>(pfsim::mdworkbench_trace(p));
  pfsim::ReplayOptions o;
  o.ranks = p.ranks;
  pfsim::ReplayWorkload w(t, o);
  REQUIRE(w.phase_count() == 4);
  CHECK(w.phase_items(0) == 4 * 5 * 2);
  CHECK(w.phase_items(1) == 4 * 3 * 2);
  CHECK(w.phase_iteration(3) == 2);
  CHECK(w.compound_count(0, 1) == 3 * 2 * 4);
  CHECK_THROWS(pfsim::mdworkbench_trace({1, 10, 5, 1, 1, 100, 1}));  // -I > -P
  // The stream is a pattern per phase, not a list of operations: its memory does not grow with the parameters
  // (-D 10^9 -P 10^9: 10^18 precreate operations per rank, which a list could not hold and whose indexes overflow
  // 32 bits).
  const auto& s = t->streams[0];
  CHECK(s.op.empty());
  CHECK(s.begin(1) == 5 * 2);
  CHECK(s.end(1) - s.begin(1) == 3 * 2 * 4);
  for (uint64_t i = s.begin(1); i < s.end(1); ++i)
    CHECK(static_cast<int>(s.op_at(1, i)) == static_cast<int>(std::array<TraceOp, 4>{
                                                  TraceOp::Stat, TraceOp::Read, TraceOp::Delete, TraceOp::Create}[(i - s.begin(1)) % 4]));
  p.data_sets = 1000000000;
  p.precreate_per_set = 1000000000;
  p.obj_per_proc = 1000000000;
  auto big = pfsim::mdworkbench_trace(p);
  CHECK(big.streams[0].op.empty());
  CHECK(big.streams[0].end(0) == 1000000000000000000ULL);
  CHECK(big.streams[0].size() == 2 * 1000000000000000000ULL + 2 * 4 * 1000000000000000000ULL);
  CHECK(static_cast<TraceOp>(big.streams[0].op_at(3, big.streams[0].size() - 1)) == TraceOp::Delete);
}

TEST_CASE("a trace of one phase (md-workbench -1 or -3) imports / misnumbered cleanup files are an error", "[trace]")
{
  // md-workbench -1 writes only the precreate files (IO500's mdworkbench-create), -3 only the cleanup files.
  TempDir full;
  write_small_mdreal(full);
  TempDir pre, clean, bad;
  for (int r = 0; r < 2; ++r) {
    std::string R = std::to_string(r);
    fs::copy_file(full.path / ("mdreal-0-precreate-" + R + ".csv"), pre.path / ("mdreal-0-precreate-" + R + ".csv"));
    fs::copy_file(full.path / ("mdreal-1-cleanup-" + R + ".csv"), clean.path / ("mdreal-1-cleanup-" + R + ".csv"));
  }
  Trace p = load_trace(pre.str());
  REQUIRE(p.phases.size() == 1);
  CHECK(p.phases[0].name == "precreate");
  CHECK(p.ranks == 2);
  CHECK(p.op_count() == 4);
  Trace c = load_trace(clean.str());
  REQUIRE(c.phases.size() == 1);
  CHECK(c.phases[0].name == "cleanup");
  CHECK(c.op_count() == 4);
  // One benchmark iteration but cleanup numbered 2: md-workbench numbers cleanup with the iteration count, so
  // iteration 1 is missing; cleanup numbered 0 is below the benchmark files.
  for (const auto& e : fs::directory_iterator(full.path))
    if (e.path().filename().string().find("cleanup") == std::string::npos && e.path().extension() == ".csv")
      fs::copy_file(e.path(), bad.path / e.path().filename());
  bad.write("mdreal-2-cleanup-0.csv", "time,runtime\n0.0,1.0e-4\n0.0002,1.0e-4\n");
  bad.write("mdreal-2-cleanup-1.csv", "time,runtime\n0.0,1.0e-4\n0.0002,1.0e-4\n");
  CHECK_THAT(error_of(bad.str()), Catch::Contains("cleanup files are numbered 2") &&
                                      Catch::Contains("mdreal-1-*-*.csv") && Catch::Contains("benchmark iteration 1"));
  fs::remove(bad.path / "mdreal-2-cleanup-0.csv");
  fs::remove(bad.path / "mdreal-2-cleanup-1.csv");
  bad.write("mdreal-0-cleanup-0.csv", "time,runtime\n0.0,1.0e-4\n0.0002,1.0e-4\n");
  bad.write("mdreal-0-cleanup-1.csv", "time,runtime\n0.0,1.0e-4\n0.0002,1.0e-4\n");
  // (helper-94: the file of the iteration too many is named, and the tool is md-real-io, not md-workbench)
  CHECK_THAT(error_of(bad.str()), Catch::Contains("cleanup files in") && Catch::Contains("are numbered 0") &&
                                      Catch::Contains("mdreal-0-") && Catch::Contains("benchmark file of iteration 0") &&
                                      Catch::Contains("md-real-io numbers the cleanup"));
}

TEST_CASE("replay --max-ops-per-phase keeps whole benchmark objects in every data set", "[replay]")
{
  // The 2017 tool output: 2 ranks, 2 data sets, benchmark objects of 4 operations (create, stat, read, delete). K is
  // rounded down to whole objects in each of the 2 sets, at least one per set (K = 7: 1 object per set would not
  // split into the sets, and no true -I could be printed).
  auto t = std::make_shared<const Trace>(load_trace(kToolOutputs + "/md-real-io-2017"));
  REQUIRE(t->phases[1].kind == pfsim::trace::PhaseKind::Benchmark);
  for (auto [k, objects_per_rank, precreate_per_rank] :
       std::vector<std::array<uint32_t, 3>>{{1, 2, 2}, {10, 2, 10}, {7, 2, 6}, {17, 4, 16}}) {
    pfsim::ReplayOptions o;
    o.max_ops_per_phase = k;
    pfsim::ReplayWorkload w(t, o);
    INFO("K = " << k);
    CHECK(w.phase_items(1) == 2 * objects_per_rank);  // 2 ranks
    CHECK(w.compound_count(0, 1) == 4 * objects_per_rank);
    CHECK(w.phase_items(0) == 2 * precreate_per_rank);  // precreate: one object per operation
  }
}

TEST_CASE("replay --max-ops-per-phase: an iteration without reads (--allow-missing) keeps the others' objects", "[replay]")
{
  // The 2017 tool output without iteration 0's read files: its objects are 3 operations, the others' 4. Every
  // iteration must replay the same objects, or the header's -I is wrong for some of them.
  TempDir d;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/md-real-io-2017"))
    if (e.path().filename().string().rfind("lat-0-read-", 0) != 0)
      fs::copy_file(e.path(), d.path / e.path().filename());
  ImportOptions io;
  io.allow_missing = true;
  auto t = std::make_shared<const Trace>(load_trace(d.str(), io));
  REQUIRE(t->phases[1].kind == pfsim::trace::PhaseKind::Benchmark);
  REQUIRE(t->phases[2].kind == pfsim::trace::PhaseKind::Benchmark);
  for (uint32_t k : {8u, 12u, 17u}) {
    pfsim::ReplayOptions o;
    o.max_ops_per_phase = k;
    pfsim::ReplayWorkload w(t, o);
    INFO("K = " << k);
    const uint64_t objects = w.phase_items(2) / 2;  // 2 ranks
    CHECK(objects == std::max<uint64_t>(2, k / 8 * 2));  // 2 data sets, 4 operations per object
    CHECK(w.phase_items(1) == w.phase_items(2));
    CHECK(w.compound_count(0, 1) == 3 * objects);
    CHECK(w.compound_count(0, 2) == 4 * objects);
  }
}

TEST_CASE("replay --no-dataset-ops: the gaps the mkdirs and rmdirs took are not think time", "[replay]")
{
  // Leaving the data-set operations out must not turn the recorded time they took into idle think time: every
  // phase's think time sums to the same with and without them.
  auto t = std::make_shared<const Trace>(load_trace(kToolOutputs + "/md-real-io-2017"));
  auto thinks = [&t](bool dataset_ops, int phase) {
    pfsim::ReplayOptions o;
    o.dataset_ops = dataset_ops;
    pfsim::ReplayWorkload w(t, o);
    pfsim::RankCursor c;
    pfsim::OpRequest op;
    double sum = 0;
    while (w.next(0, phase, c, op))
      sum += op.think_s;
    return sum;
  };
  for (int phase = 0; phase < static_cast<int>(t->phases.size()); ++phase) {
    INFO("phase " << t->phases[static_cast<size_t>(phase)].name);
    CHECK(thinks(false, phase) == Approx(thinks(true, phase)).epsilon(1e-9));
  }
}

TEST_CASE("what an import assumes is a warning / --data-sets states -D for files without a header", "[trace]")
{
  // The IOR --latency-all files without their stdout.txt: nothing states -D (the run used -D 2).
  TempDir d;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/md-workbench-ior/run2-latency-all"))
    if (e.path().extension() == ".csv")
      fs::copy_file(e.path(), d.path / e.path().filename());
  Trace bare = load_trace(d.str());
  CHECK(bare.params.data_sets <= 1);
  REQUIRE(bare.warnings.size() == 2);  // -D, and the object size and offset
  CHECK_THAT(bare.warnings[0], Catch::Contains("(-D); assumed 1") && Catch::Contains("--data-sets"));
  ImportOptions o;
  o.data_sets = 2;
  Trace stated = load_trace(d.str(), o);
  CHECK(stated.params.data_sets == 2);
  REQUIRE(stated.warnings.size() == 1);
  CHECK_THAT(stated.warnings[0], !Catch::Contains("(-D)"));
  // A header that says otherwise wins the argument: an error, not a silent choice.
  o.data_sets = 3;
  CHECK_THAT(error_of(kToolOutputs + "/md-real-io-2017", o),
             Catch::Contains("--data-sets 3") && Catch::Contains("data-sets=2"));
  // D must divide every phase's objects per rank (80 precreate objects: 3 or 81 data sets cannot hold them).
  for (int bad : {3, 81}) {
    o.data_sets = bad;
    CHECK_THAT(error_of(d.str(), o), Catch::Contains("--data-sets " + std::to_string(bad)) &&
                                         Catch::Contains("not a multiple of the data sets"));
  }
  // mdtest has no data sets: the option is refused, not ignored.
  o.data_sets = 3;
  CHECK_THAT(error_of(kToolOutputs + "/mdtest", o), Catch::Contains("--data-sets") && Catch::Contains("mdtest trace"));
  // --offset states the offset the warning names (it said "(--offset)" before replay had that option).
  ImportOptions off;
  off.data_sets = 2;
  off.offset = 3;
  Trace with_offset = load_trace(d.str(), off);
  CHECK(with_offset.params.offset == 3);
  REQUIRE(with_offset.warnings.size() == 1);
  CHECK_THAT(with_offset.warnings[0], !Catch::Contains("offset"));
  off.offset = 2;  // the md-real-io header states offset=1; IOR's Args line without --offset means md-workbench's 1
  CHECK_THAT(error_of(kToolOutputs + "/md-real-io-2017", off),
             Catch::Contains("--offset 2") && Catch::Contains("offset=1"));
  CHECK_THAT(error_of(kToolOutputs + "/md-workbench-ior/run2-latency-all", off),
             Catch::Contains("--offset 2") && Catch::Contains("md-workbench's default"));
  off.data_sets = 0;
  CHECK_THAT(error_of(kToolOutputs + "/mdtest", off), Catch::Contains("--offset") && Catch::Contains("mdtest trace"));
  // The same for the object size (it was silently ignored where the header states it).
  ImportOptions size;
  size.object_size_B = 100;
  CHECK_THAT(error_of(kToolOutputs + "/md-real-io-2017", size),
             Catch::Contains("--object-size 100") && Catch::Contains("object-size="));
  size.object_size_B = load_trace(kToolOutputs + "/md-real-io-2017").params.object_size_B;
  CHECK(load_trace(kToolOutputs + "/md-real-io-2017", size).params.object_size_B == size.object_size_B);
  // -L files: rank 0 only, said once.
  Trace l = load_trace(kToolOutputs + "/md-workbench-ior/run1-L-process-reports");
  REQUIRE(l.warnings.size() == 1);
  CHECK_THAT(l.warnings[0], Catch::Contains("rank 0's operations only"));
  // Without the files' headers the warning says there is none; with a stdout.txt without its Args line, that it has
  // none (it said "no mdreal.txt or stdout.txt states these" beside the stdout.txt).
  CHECK_THAT(bare.warnings[1], Catch::Contains(d.str() + ": no mdreal.txt or stdout.txt states these; assumed"));
  TempDir n;
  n.copy_files(kToolOutputs + "/md-workbench-ior/run1-L-process-reports");
  const std::string text = n.read("stdout.txt");
  REQUIRE(text.rfind("Args:", 0) == 0);
  n.write("stdout.txt", text.substr(text.find('\n') + 1));
  Trace no_args = load_trace(n.str());
  bool said = false;
  for (const auto& w : no_args.warnings) {
    CHECK_THAT(w, !Catch::Contains("no mdreal.txt or stdout.txt"));
    said |= w.find(n.str() + ": stdout.txt has no Args line (md-workbench's command line), so nothing states these; "
                             "assumed md-workbench's defaults: the object size (-S) 3901 B") != std::string::npos;
  }
  CHECK(said);
}

TEST_CASE("mdtest Directory-phase files: said to be skipped, and alone an error that says why", "[trace]")
{
  TempDir both, dirs;
  for (int r = 0; r < 2; ++r) {
    char rank[8];
    std::snprintf(rank, sizeof rank, "%05d", r);
    const std::string rows = "time,runtime,tp\n0.0,1.0e-4,1.0e4\n1.0e-4,1.0e-4,1.0e4\n";
    both.write(std::string("mdtest-perop-File creation-") + rank + ".csv", rows);
    both.write(std::string("mdtest-perop-Directory creation-") + rank + ".csv", rows);
    both.write(std::string("mdtest-perop-Tree removal-") + rank + ".csv", rows);
    dirs.write(std::string("mdtest-perop-Directory creation-") + rank + ".csv", rows);
  }
  both.write("mdtest.txt", "Command line used: mdtest '-n' '2' '-u' '-C' '--savePerOpDataCSV=mdtest-perop'\n");  // -u stated
  Trace t = load_trace(both.str());
  CHECK(t.phases.size() == 1);
  REQUIRE(t.warnings.size() == 1);
  CHECK_THAT(t.warnings[0], Catch::Contains("4 files of mdtest's Directory and Tree phases are not replayed") &&
                                Catch::Contains("(Directory creation, Tree removal;"));
  CHECK_THAT(error_of(dirs.str()), Catch::Contains("only mdtest Directory-phase files (2)"));
}

TEST_CASE("a directory of no replayable tool's files (IOR's outputs) says which files a trace has", "[trace]")
{
  CHECK_THAT(error_of(kToolOutputs + "/ior"), Catch::Contains("/ior: no latency files found") &&
                                                  Catch::Contains("mdtest's <prefix>-File <phase>-<rank>.csv") &&
                                                  Catch::Contains("an IOR per-op file") && Catch::Contains("by naming the file itself"));
}

TEST_CASE("no Args line: -D from the phase line's data sets over the stated rank count", "[trace]")
{
  // run2-latency-all without its Args line: Nodemap (2 ranks) and "dsets: 4" remain, so D = 2, said in a warning.
  TempDir d;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/md-workbench-ior/run2-latency-all"))
    fs::copy_file(e.path(), d.path / e.path().filename());
  fs::permissions(d.path / "stdout.txt", fs::perms::owner_write, fs::perm_options::add);
  std::ifstream in(d.path / "stdout.txt");
  std::string line, text;
  while (std::getline(in, line))
    if (line.rfind("Args:", 0) != 0)
      text += line + "\n";
  in.close();
  d.write("stdout.txt", text);
  Trace t = load_trace(d.str());
  CHECK(t.params.data_sets == 2);
  CHECK(t.ranks == 2);
  bool said = false;
  for (const auto& w : t.warnings)
    said = said || (w.find("data sets per rank 2") != std::string::npos && w.find("4 dset over 2 ranks") != std::string::npos);
  CHECK(said);
}

TEST_CASE("md-workbench -all files of two runs in one directory: refused, not mixed or crashed on", "[trace]")
{
  // No header; precreate and cleanup restart their time twice (3 ranks at least), the benchmark files hold 2
  // rows: no rank count fits, and the message names the file that cannot hold them (this used to crash).
  TempDir d;
  d.write("lat-0.00-0-precreate-all.csv", "time,runtime\n7e-7,1e-4\n1.0007e-3,1e-4\n7e-7,1e-4\n1.0007e-3,1e-4\n");
  for (const char* k : {"stat", "read", "delete", "create"})
    d.write(std::string("lat-0.00-0-") + k + "-all.csv", "time,runtime\n7e-7,1e-4\n7e-7,1e-4\n");
  d.write("lat-0.00-1-cleanup-all.csv",
          "time,runtime\n7e-7,1e-4\n1.0007e-3,1e-4\n7e-7,1e-4\n1.0007e-3,1e-4\n7e-7,1e-4\n1.0007e-3,1e-4\n");
  CHECK_THAT(error_of(d.str()), Catch::Contains("cannot split the ranks") && Catch::Contains("-all.csv:3"));
  // A cleanup numbered otherwise than the run's (a stale file of a run with another -R) is an error naming it.
  TempDir two;
  const std::string rows = "time,runtime\n0.0,1e-4\n0.0,1e-4\n";
  for (const char* k : {"precreate", "stat", "read", "delete", "create"})
    two.write(std::string("lat-0.00-0-") + k + "-all.csv", rows);
  two.write("lat-0.00-1-cleanup-all.csv", rows);
  two.write("lat-0.00-3-cleanup-all.csv", rows);
  CHECK_THAT(error_of(two.str()), Catch::Contains("lat-0.00-1-cleanup-all.csv") &&
                                      Catch::Contains("files of another run"));
}

TEST_CASE("replay: objects of 0 bytes move no data (mdtest -w 0: create + close)", "[replay]")
{
  TempDir d;
  for (int r = 0; r < 2; ++r) {
    char rank[8];
    std::snprintf(rank, sizeof rank, "%05d", r);
    d.write(std::string("mdtest-perop-File creation-") + rank + ".csv", "time,runtime,tp\n0.0,1.0e-4,0\n");
  }
  auto t = std::make_shared<const Trace>(load_trace(d.str()));
  REQUIRE(t->params.object_size_B <= 0);
  pfsim::ReplayWorkload w(t, {});
  pfsim::RankCursor c;
  pfsim::OpRequest r;
  std::vector<pfsim::Op> ops;
  while (w.next(0, 0, c, r))
    ops.push_back(r.op);
  CHECK(ops == std::vector<pfsim::Op>{pfsim::Op::Create, pfsim::Op::Close});
  CHECK(w.compound_primitives(static_cast<int>(TraceOp::Create)) == 2);
}

TEST_CASE("replay with residuals: each operation carries the other ranks' metadata operations then in flight", "[replay]")
{
  // Benchmark of write_small_mdreal, both ranks alike: create 0-0.5 ms, stat 0.6-0.8 ms, read 0.9-3.9 ms,
  // delete 4.0-4.3 ms. At each create, stat and delete the other rank's same operation is in flight (1); at the
  // read nothing is (reads are not metadata operations, and the stats ended at 0.8 ms).
  pfsim::ReplayOptions o;
  o.residual_quantile = 0;
  auto w = small_replay(o);
  for (int rank : {0, 1, 2, 3}) {  // ranks 2, 3 replay recorded ranks 0, 1 with the same recorded counts
    std::vector<std::pair<pfsim::Op, float>> first_steps;
    std::vector<std::pair<bool, bool>> flags;  // (begins, metadata) of every step
    pfsim::RankCursor c;
    pfsim::OpRequest r;
    while (w.next(rank, 1, c, r)) {
      flags.emplace_back(r.begins, r.metadata);
      if (r.begins)
        first_steps.emplace_back(r.op, r.recorded_md_in_flight);
    }
    REQUIRE(first_steps.size() == 4);
    CHECK(first_steps[0] == std::make_pair(pfsim::Op::Create, 1.0f));
    CHECK(first_steps[1] == std::make_pair(pfsim::Op::Stat, 1.0f));
    CHECK(first_steps[2] == std::make_pair(pfsim::Op::Open, 0.0f));  // (a read's excess: on its Read step, 0 too)
    CHECK(first_steps[3] == std::make_pair(pfsim::Op::Unlink, 1.0f));
    // create, write, close | stat | open, read, close | unlink: one tool operation each, the read not metadata.
    const std::vector<std::pair<bool, bool>> expected = {{true, true},  {false, true},  {false, true}, {true, true},
                                                         {true, false}, {false, false}, {false, false}, {true, true}};
    CHECK(flags == expected);
  }
}

TEST_CASE("md-workbench --latency-all files split by the rows per rank, not only where time restarts", "[trace]")
{
  // 3 ranks, -I 2 -P 2 -D 1 -R 1; every rank's benchmark starts after the previous rank's ended, so the benchmark
  // files' time never goes down at a rank boundary (pfsim's own files look like that, and real ones can).
  TempDir d;
  write_small_all(d, 3, 2, 2, 1, 0.1);
  auto check_split = [](const Trace& t) {
    REQUIRE(t.ranks == 3);
    REQUIRE(t.phases.size() == 3);
    for (const auto& s : t.streams) {
      CHECK(s.end(0) - s.begin(0) == 2);
      CHECK(s.end(1) - s.begin(1) == 4 * 2);
      CHECK(s.end(2) - s.begin(2) == 2);
    }
    // rank 2's benchmark starts at 0.2 s: its first operation (a stat) has no think time before it
    const auto& s = t.streams[2];
    CHECK(static_cast<TraceOp>(s.op[s.begin(1)]) == TraceOp::Stat);
  };
  SECTION("the header states the rows per rank")
  {
    d.write("stdout.txt", "Args: md-workbench \"-I=2\" \"-P=2\" \"-D=1\" \"-R=1\" \"-S=3901\" \"-L=lat\" "
                          "\"--latency-all\"\n");
    Trace t = load_trace(d.str());
    check_split(t);
    CHECK(t.warnings.empty());
  }
  SECTION("the header states the rank count only")
  {
    d.write("stdout.txt", "Nodemap: 111\n");
    check_split(load_trace(d.str()));
  }
  SECTION("no header: the precreate file restarts its time at every rank boundary")
  {
    Trace t = load_trace(d.str());
    check_split(t);
    for (const auto& w : t.warnings)
      CHECK_THAT(w, !Catch::Contains("rank boundary"));
  }
  SECTION("no header, -I 1: one row per rank and benchmark file")
  {
    TempDir one;
    write_small_all(one, 4, 3, 1, 2, 0.1);
    Trace t = load_trace(one.str());
    CHECK(t.ranks == 4);
    CHECK(t.op_count() == 4 * (3 + 2 * 4 + 3));
  }
  SECTION("a file whose rows are not a multiple of the rows per rank")
  {
    d.write("stdout.txt", "Args: md-workbench \"-I=2\" \"-P=2\" \"-D=1\" \"-R=1\"\n");
    d.keep_lines("lat-0.00-0-read-all.csv", 6);  // 5 rows of 2 per rank
    CHECK_THAT(error_of(d.str()), Catch::Contains("lat-0.00-0-read-all.csv:6") &&
                                      Catch::Contains("5 rows are not a multiple of the 2 rows per rank") &&
                                      Catch::Contains("obj-per-proc x data-sets = 2 x 1"));
    d.write("stdout.txt", "Args: md-workbench \"-I=2\" \"-P=2\" \"-D=1\" \"-R=1\"\nNodemap: 111\n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("lat-0.00-0-read-all.csv:6") && Catch::Contains("expected 6 rows") &&
                                      Catch::Contains("found 5"));
  }
  SECTION("a stonewalled run (-w): the ranks' benchmark rows differ, split where time restarts")
  {
    d.write("stdout.txt", "Args: md-workbench \"-I=2\" \"-P=2\" \"-D=1\" \"-R=1\" \"-w\" \"1\"\n");
    for (const char* k : {"stat", "read", "delete", "create"})  // ranks 0 and 2 did 2 objects, rank 1 one
      d.write(std::string("lat-0.00-0-") + k + "-all.csv",
              "time,runtime\n0.001,1e-4\n0.005,1e-4\n0.002,1e-4\n0.001,1e-4\n0.005,1e-4\n");
    Trace t = load_trace(d.str());
    REQUIRE(t.ranks == 3);
    CHECK(t.streams[0].end(1) - t.streams[0].begin(1) == 8);
    CHECK(t.streams[1].end(1) - t.streams[1].begin(1) == 4);
    CHECK(t.streams[2].end(1) - t.streams[2].begin(1) == 8);
  }
  SECTION("no header: a file cut inside a rank")
  {
    d.keep_lines("lat-0.00-0-precreate-all.csv", 6);
    CHECK_THAT(error_of(d.str()), Catch::Contains("lat-0.00-0-precreate-all.csv:6") &&
                                      Catch::Contains("cannot split the ranks"));
  }
}

TEST_CASE("md-workbench -L files: the run's rank count comes from the header and is the replay's default", "[trace]")
{
  Trace t = load_trace(kToolOutputs + "/md-workbench-ior/run1-L-process-reports");
  CHECK(t.ranks == 1);           // rank 0's stream
  CHECK(t.recorded_ranks == 2);  // its stdout.txt: "0: ..." and "1: ..." report lines
  REQUIRE(t.warnings.size() == 1);
  CHECK_THAT(t.warnings[0], Catch::Contains("the run had 2 ranks") && Catch::Contains("stdout.txt:6") &&
                                Catch::Contains("per-rank report lines"));
  pfsim::ReplayWorkload w(std::make_shared<const Trace>(t), {});
  CHECK(w.ranks() == 2);
  // Only the total objects: D x (P + I x R) = 2 x (40 + 20 x 2) = 160 per rank.
  TempDir d;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/md-workbench-ior/run1-L-process-reports"))
    if (e.path().extension() == ".csv")
      fs::copy_file(e.path(), d.path / e.path().filename());
  const std::string args = "Args: md-workbench \"-I=20\" \"-P=40\" \"-D=2\" \"-R=2\" \"-L=lat\"\n";
  d.write("stdout.txt", args + "MD-Workbench total objects: 480 workingset size: 0.595 MiB\n");
  Trace total = load_trace(d.str());
  CHECK(total.recorded_ranks == 3);
  CHECK_THAT(total.warnings.back(), Catch::Contains("the run had 3 ranks") && Catch::Contains("total objects 480"));
  // not a whole number of ranks: not used
  d.write("stdout.txt", args + "MD-Workbench total objects: 500 workingset size: 0.595 MiB\n");
  Trace odd = load_trace(d.str());
  CHECK(odd.recorded_ranks == 1);
  CHECK_THAT(odd.warnings.back(), Catch::Contains("stdout.txt does not state the run's rank count"));
  // (no stdout.txt at all: said so)
  fs::remove(d.path / "stdout.txt");
  CHECK_THAT(load_trace(d.str()).warnings.back(), Catch::Contains("no stdout.txt states the run's rank count"));
}

TEST_CASE("the tool generation that printed a trace's stdout: IOR 4.x md-workbench, 2019 standalone, md-real-io 2017",
          "[trace]")
{
  // The real outputs: IOR's has a Nodemap line, the 2019 tool md-real-io's option block, md-real-io its banner.
  CHECK(load_trace(kToolOutputs + "/md-workbench-ior/run1-L-process-reports").output_generation == "md-workbench-ior");
  CHECK(load_trace(kToolOutputs + "/md-workbench-ior/run2-latency-all").output_generation == "md-workbench-ior");
  CHECK(load_trace(kToolOutputs + "/md-workbench-standalone-2019").output_generation == "md-workbench-2019");
  CHECK(load_trace(kToolOutputs + "/md-real-io-2017").output_generation == "md-real-io-2017");
  // Without those lines the Args line's interface option tells (-a: IOR's, -i: the standalone tool's); with neither, no
  // header says, and no stdout.txt says nothing either.
  TempDir d;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/md-workbench-ior/run2-latency-all"))
    if (e.path().extension() == ".csv")
      fs::copy_file(e.path(), d.path / e.path().filename());
  const std::string args = "\"-I=20\" \"-P=40\" \"-D=2\" \"-R=2\" \"-S=3901\" \"-L=lat\" \"--latency-all\"\n";
  d.write("stdout.txt", "Args: md-workbench \"-a\" \"POSIX\" " + args);
  CHECK(load_trace(d.str()).output_generation == "md-workbench-ior");
  d.write("stdout.txt", "Args: md-workbench \"-i=posix\" " + args);
  CHECK(load_trace(d.str()).output_generation == "md-workbench-2019");
  d.write("stdout.txt", "Args: md-workbench " + args);
  CHECK(load_trace(d.str()).output_generation.empty());
  // the 2019 tool's "latency=NULL" (no -L) names no latency files: no warning that the files are another run's
  d.write("stdout.txt", "Args: md-workbench " + args + "MD-Workbench total objects: 320 workingset size: 0.595 MiB\n"
                        "\toffset=1 \n\tinterface=posix\n\tlatency=NULL\n");
  const Trace null_latency = load_trace(d.str());
  CHECK(null_latency.output_generation == "md-workbench-2019");
  for (const auto& w : null_latency.warnings)
    CHECK_THAT(w, !Catch::Contains("another run"));
  fs::remove(d.path / "stdout.txt");
  CHECK(load_trace(d.str()).output_generation.empty());
}

TEST_CASE("a rank or iteration number too large for the importer is an error naming the file", "[trace]")
{
  TempDir d;
  write_small_mdreal(d);
  fs::copy(d.path / "mdreal-0-stat-1.csv", d.path / "mdreal-0-stat-99999999999.csv");
  CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-stat-99999999999.csv: the number 99999999999") &&
                                    Catch::Contains("out of range"));
  fs::remove(d.path / "mdreal-0-stat-99999999999.csv");
  fs::copy(d.path / "mdreal-0-stat-1.csv", d.path / "mdreal-4000000000-stat-1.csv");
  CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-4000000000-stat-1.csv: the number 4000000000"));
}

TEST_CASE("headers that disagree (mdreal.txt and stdout.txt, a repeated key, two Args lines) are an error", "[trace]")
{
  TempDir d;
  write_small_mdreal(d);
  const std::string block = "\tobj-per-proc=1 \n\tprecreate-per-set=2 \n\tdata-sets=1 \n\titerations=1 \n\toffset=1 \n";
  d.write("mdreal.txt", block + "\tobject-size=3900 \n");
  REQUIRE(error_of(d.str()).empty());
  SECTION("stdout.txt beside mdreal.txt with another object size")
  {
    d.write("stdout.txt", block + "\tobject-size=100 \n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt:6: states object-size (-S) 100") &&
                                      Catch::Contains("mdreal.txt:6 states 3900"));
  }
  SECTION("the same statement in both is fine")
  {
    d.write("stdout.txt", block + "\tobject-size=3900 \n");
    CHECK(error_of(d.str()).empty());
  }
  SECTION("a key repeated with another value")
  {
    d.write("mdreal.txt", block + "\tobject-size=3900 \n\toffset=2 \n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal.txt:7: states offset 2") &&
                                      Catch::Contains("mdreal.txt:5 states 1"));
  }
  SECTION("within one Args line the last occurrence wins, as in IOR; two Args lines must agree")
  {
    fs::remove(d.path / "mdreal.txt");  // (an empty one is an error: a saved output cut to nothing)
    d.write("stdout.txt", "Args: md-workbench \"-I=1\" \"-P=2\" \"-D=3\" \"-D=1\" \"-R=1\" \"-S=3900\" \"-O=1\"\n");
    CHECK(error_of(d.str()).empty());
    d.write("stdout.txt", "Args: md-workbench \"-I=1\" \"-P=2\" \"-D=1\" \"-R=1\" \"-S=3900\" \"-O=1\"\n"
                          "Args: md-workbench \"-I=1\" \"-P=2\" \"-D=1\" \"-R=2\" \"-S=3900\" \"-O=1\"\n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt:2: states iterations (-R) 2") &&
                                      Catch::Contains("stdout.txt:1 states 1"));
  }
}

TEST_CASE("md-workbench Args line: every form of IOR's option parser, sizes with k/m/g suffixes", "[trace]")
{
  TempDir d;
  write_small_all(d, 2, 4, 2, 1, 0);  // -P 2 -D 2 -I 1 per rank, as the Args lines below say
  auto params_of = [&](const std::string& opts) {
    d.write("stdout.txt", "Args: ./md-workbench \"-a\" \"POSIX\" \"-o\" \"/scratch/my data\" " + opts + "\n");
    return load_trace(d.str()).params;
  };
  for (const std::string& dsets :
       {"\"-D=2\"", "\"-D\" \"2\"", "\"-D2\"", "\"--data-sets\" \"2\"", "\"--data-sets=2\""}) {
    INFO(dsets);
    auto p = params_of("\"-I\" \"1\" \"-P2\" \"--iterations=1\" " + dsets + " \"-S\" \"8000\" \"-O\" \"0\"");
    CHECK(p.data_sets == 2);
    CHECK(p.obj_per_proc == 1);
    CHECK(p.precreate_per_set == 2);
    CHECK(p.iterations == 1);
    CHECK(p.object_size_B == 8000);
    CHECK(p.offset == 0);
  }
  CHECK(params_of("\"-I=1\" \"-P=2\" \"-D=2\" \"-R=1\" \"-S=4k\"").object_size_B == 4096);
  CHECK(params_of("\"-I=1\" \"-P=2\" \"-D=2\" \"-R=1\" \"--object-size\" \"1M\"").object_size_B == 1048576);
  // the last occurrence wins; what follows "--" is the backend's (the 2019 tool)
  CHECK(params_of("\"-I=1\" \"-P=2\" \"-D=3\" \"-D\" \"2\" \"-R=1\" \"--\" \"-D=/scratch/data\"").data_sets == 2);
  // options the line does not give take md-workbench's defaults (-D 10: 2 x 10 precreate rows cannot be 4 rows)
  d.write("stdout.txt", "Args: md-workbench \"-I=1\" \"-P=2\" \"-R=1\"\n");
  CHECK_THAT(error_of(d.str()), Catch::Contains("x 10 (md-workbench's default") &&
                                    Catch::Contains("stdout.txt:1 does not give it"));
  d.write("stdout.txt", "Args: md-workbench \"-I=1\" \"-P=2\" \"-D=2\" \"-S=4.5k\"\n");
  CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt:1: option -S") && Catch::Contains("\"4.5k\""));
  d.write("stdout.txt", "Args: md-workbench \"-I=1\" \"-P=2\" \"-D\"\n");
  CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt:1: option -D has no value"));
}

TEST_CASE("a UTF-8 byte order mark is skipped / the missing-column message names the format's own header", "[trace]")
{
  const std::string bom = "\xEF\xBB\xBF";
  TempDir d;
  write_small_mdreal(d);
  d.write("mdreal-0-stat-1.csv", bom + "time,runtime\n0.0006,2.0e-4\n");
  d.write("mdreal.txt", bom + "\tobj-per-proc=1 \n\tprecreate-per-set=2 \n\tdata-sets=1 \n\tobject-size=3900 \n"
                              "\titerations=1 \n\toffset=1 \n");
  Trace t = load_trace(d.str());
  CHECK(t.params.obj_per_proc == 1);
  CHECK(t.op_count() == 16);
  TempDir a;
  write_small_all(a, 2, 2, 1, 1, 0);
  a.write("stdout.txt", bom + "Args: md-workbench \"-I=1\" \"-P=2\" \"-D=1\" \"-R=1\" \"-S=100\"\n");
  CHECK(load_trace(a.str()).params.object_size_B == 100);
  TempDir m;
  for (int r = 0; r < 2; ++r)
    m.write("mdtest-perop-File creation-0000" + std::to_string(r) + ".csv",
            (r == 0 ? bom : std::string()) + "time,runtime,tp\n0.0,1.0e-4,3.9e7\n");
  CHECK(load_trace(m.str()).ranks == 2);
  m.write("mdtest-perop-File creation-00001.csv", "time,latency,tp\n0.0,1.0e-4,3.9e7\n");
  CHECK_THAT(error_of(m.str()), Catch::Contains("File creation-00001.csv:1") &&
                                    Catch::Contains("expected time,runtime,tp)"));
}

TEST_CASE("an object size no file states is a warning (md-workbench and mdtest)", "[trace]")
{
  TempDir d;
  write_small_all(d, 2, 2, 1, 1, 0);
  Trace bare = load_trace(d.str());
  CHECK(bare.params.object_size_B == 3901);
  bool said = false;
  for (const auto& w : bare.warnings)
    said |= w.find("the object size (-S) 3901 B (--object-size B") != std::string::npos &&
            w.find("the offset (--offset) 1") != std::string::npos;
  CHECK(said);
  ImportOptions o;
  o.object_size_B = 5000;
  Trace sized = load_trace(d.str(), o);
  CHECK(sized.params.object_size_B == 5000);
  for (const auto& w : sized.warnings)
    CHECK_THAT(w, !Catch::Contains("object size"));
  // mdtest files without the tp column
  TempDir m;
  for (int r = 0; r < 2; ++r)
    m.write("mdtest-perop-File creation-0000" + std::to_string(r) + ".csv", "time,runtime\n0.0,1.0e-4\n");
  m.write("mdtest.txt", "Command line used: mdtest '-n' '1' '-u' '-F' '-C' '--savePerOpDataCSV=mdtest-perop'\n");
  Trace t = load_trace(m.str());
  REQUIRE(t.warnings.size() == 1);
  CHECK_THAT(t.warnings[0], Catch::Contains("tp column") && Catch::Contains("assumed 0 B"));
  CHECK(load_trace(m.str(), o).params.object_size_B == 5000);
}

TEST_CASE("mdtest without -F: a warning that its Directory and Tree phases are not in the trace", "[trace]")
{
  // The real mdtest 4.x run (no -F): its output reports Directory and Tree phases, which have no per-op files.
  Trace t = load_trace(kToolOutputs + "/mdtest");
  bool said = false;
  for (const auto& w : t.warnings)
    said |= w.find("mdtest-allopts.txt:4") != std::string::npos && w.find("no -F") != std::string::npos;
  CHECK(said);
  // With -F nothing is left out: no such warning.
  TempDir m;
  for (int r = 0; r < 2; ++r)
    m.write("mdtest-perop-File creation-0000" + std::to_string(r) + ".csv", "time,runtime,tp\n0.0,1.0e-4,1.0e4\n");
  m.write("mdtest.txt", "Command line used: mdtest '-n' '1' '-u' '-F' '-C' '--savePerOpDataCSV=mdtest-perop'\n");
  for (const auto& w : load_trace(m.str()).warnings)
    CHECK_THAT(w, !Catch::Contains("no -F"));
}

TEST_CASE("inconsistent timings: one summary warning per trace, think time clamped to 0", "[trace]")
{
  TempDir d;
  write_small_mdreal(d);
  for (const auto& w : load_trace(d.str()).warnings)
    CHECK_THAT(w, !Catch::Contains("inconsistent"));
  // rank 0: the create (0 - 5 ms) overlaps the stat (0.6 ms) by 4.4 ms; rank 1: the stat starts 0.2 ms before the
  // create ended (clock noise, not counted); rank 1's precreate rows go back by 8.8 ms.
  d.write("mdreal-0-create-0.csv", "time,runtime\n0.0000,5.0e-3\n");
  d.write("mdreal-0-stat-1.csv", "time,runtime\n0.0003,2.0e-4\n");
  d.write("mdreal-0-precreate-1.csv", "time,runtime\n0.0100,1.0e-3\n0.0012,2.0e-3\n");
  Trace t = load_trace(d.str());
  REQUIRE(t.warnings.size() == 1);
  const auto& w = t.warnings[0];
  CHECK_THAT(w, Catch::Contains("1 operations start more than 1 ms before the previous operation") &&
                    Catch::Contains("4.400 ms at mdreal-0-stat-0.csv:2"));
  CHECK_THAT(w, Catch::Contains("1 rows start more than 1 ms before the row above") &&
                    Catch::Contains("8.800 ms at mdreal-0-precreate-1.csv:3"));
  const auto& s = t.streams[0];
  CHECK(static_cast<TraceOp>(s.op[s.begin(1) + 1]) == TraceOp::Stat);
  CHECK(s.think_s[s.begin(1) + 1] == 0.0f);
}

TEST_CASE("replay of a trace with --allow-missing: a warning says what is missing, rates not comparable", "[trace]")
{
  TempDir d;
  write_small_mdreal(d);
  fs::remove(d.path / "mdreal-0-read-0.csv");
  fs::remove(d.path / "mdreal-0-read-1.csv");
  d.write("mdreal.txt", "\tobj-per-proc=1 \n\tprecreate-per-set=2 \n\tdata-sets=1 \n\titerations=2 \n"
                        "\tobject-size=3900 \n\toffset=1 \n");
  for (int r = 0; r < 2; ++r)
    for (const char* k : {"stat", "read", "create", "delete"})
      d.write(std::string("mdreal-1-") + k + "-" + std::to_string(r) + ".csv", "time,runtime\n0.0,1e-4\n");
  fs::rename(d.path / "mdreal-1-cleanup-0.csv", d.path / "mdreal-2-cleanup-0.csv");
  fs::rename(d.path / "mdreal-1-cleanup-1.csv", d.path / "mdreal-2-cleanup-1.csv");
  ImportOptions o;
  o.allow_missing = true;
  Trace t = load_trace(d.str(), o);
  REQUIRE(t.warnings.size() == 1);
  CHECK_THAT(t.warnings[0], Catch::Contains("--allow-missing") &&
                                Catch::Contains("'read' of benchmark iteration 0 (mdreal-0-read-*.csv)") &&
                                Catch::Contains("think time") && Catch::Contains("not comparable"));
}

TEST_CASE("replay: data-set mkdirs come before the precreate, each rmdir after its set / their recorded gap is not think time",
          "[replay]")
{
  // The md-real-io 2017 tool output (2 ranks, -D 2, -P 40): rank 0's cleanup rows 1-40 are set 0, then an 8.3 ms
  // gap (the rmdir of set 0), then set 1; the precreate's first row starts after both mkdirs.
  auto t = std::make_shared<const Trace>(load_trace(kToolOutputs + "/md-real-io-2017"));
  REQUIRE(t->params.data_sets == 2);
  pfsim::ReplayOptions o;
  pfsim::ReplayWorkload w(t, o);
  const int cleanup = w.phase_count() - 1, precreate = 0;
  REQUIRE(w.phase_name(cleanup) == "cleanup");
  std::vector<std::pair<pfsim::Op, float>> seq;
  pfsim::RankCursor c;
  pfsim::OpRequest r;
  while (w.next(0, cleanup, c, r))
    seq.emplace_back(r.op, static_cast<float>(r.think_s));
  REQUIRE(seq.size() == 82);
  CHECK(seq[40].first == pfsim::Op::Rmdir);
  CHECK(seq[81].first == pfsim::Op::Rmdir);
  CHECK(seq[41].first == pfsim::Op::Unlink);
  CHECK(seq[41].second == 0.f);  // recorded 8.3 ms: the rmdir's time, simulated instead
  const auto& s = t->streams[0];
  const uint32_t b = s.begin(cleanup);
  CHECK(s.think_s[b + 40] > 5e-3f);
  CHECK(seq[42].second == s.think_s[b + 41]);  // the other gaps are replayed as recorded
  c = {};
  seq.clear();
  while (w.next(0, precreate, c, r))
    seq.emplace_back(r.op, static_cast<float>(r.think_s));
  REQUIRE(seq.size() >= 3);
  CHECK(seq[0].first == pfsim::Op::Mkdir);
  CHECK(seq[1].first == pfsim::Op::Mkdir);
  CHECK(seq[2].first == pfsim::Op::Create);
  CHECK(seq[2].second == 0.f);
  CHECK(s.think_s[s.begin(precreate)] > 1e-4f);
}

TEST_CASE("mdtest files: a zero runtime's tp of inf (mdtest's bytes / 0) is read / --object-size must agree with tp",
          "[trace]")
{
  TempDir d;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/mdtest"))
    if (e.path().extension() == ".csv")
      fs::copy_file(e.path(), d.path / e.path().filename());
  const auto f = d.path / "mdtest-perop-File creation-00000.csv";
  std::ifstream in(f);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const size_t second = text.find('\n', text.find('\n') + 1) + 1;  // the second row
  text.replace(second, text.find('\n', second) - second, "9.20295715e-05,0.00000000e+00,inf");
  std::ofstream(f) << text;
  Trace t = load_trace(d.str());
  CHECK(t.params.object_size_B == 3901);  // the other rows' tp x runtime
  ImportOptions o;
  o.object_size_B = 100;
  CHECK_THAT(error_of(d.str(), o), Catch::Contains("--object-size 100") && Catch::Contains("tp column gives 3901"));
}

TEST_CASE("two files for one rank and phase (rank 07 beside 7, mdtest's 1 beside 00001) are an error", "[trace]")
{
  TempDir a;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/md-real-io-2017"))
    fs::copy_file(e.path(), a.path / e.path().filename());
  fs::copy_file(a.path / "lat-0-stat-1.csv", a.path / "lat-0-stat-01.csv");
  CHECK_THAT(error_of(a.str()), Catch::Contains("a second file for rank 1"));
  TempDir b;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/mdtest"))
    fs::copy_file(e.path(), b.path / e.path().filename());
  fs::copy_file(b.path / "mdtest-perop-File stat-00001.csv", b.path / "mdtest-perop-File stat-1.csv");
  CHECK_THAT(error_of(b.str()), Catch::Contains("a second file for rank 1") && Catch::Contains("File stat"));
  TempDir c;  // md-workbench --latency-all: the file of every rank, twice
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/md-workbench-ior/run2-latency-all"))
    fs::copy_file(e.path(), c.path / e.path().filename());
  fs::copy_file(c.path / "lat-0.00-0-stat-all.csv", c.path / "lat-0.00-00-stat-all.csv");
  CHECK_THAT(error_of(c.str()), Catch::Contains("a second file of every rank (-all) of this phase") &&
                                    !Catch::Contains("rank -1"));
}

TEST_CASE("a precreate the recorded output reports, without its latency files: error, or a warning with --allow-missing",
          "[trace]")
{
  TempDir d;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/md-workbench-ior/run2-latency-all"))
    fs::copy_file(e.path(), d.path / e.path().filename());
  fs::remove(d.path / "lat-0.00-0-precreate-all.csv");
  CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt: line 4 reports a precreate phase") &&
                                    Catch::Contains("--allow-missing"));
  ImportOptions o;
  o.allow_missing = true;
  Trace t = load_trace(d.str(), o);
  CHECK(t.phases.front().name == "benchmark");
  CHECK(std::any_of(t.warnings.begin(), t.warnings.end(),
                    [](const std::string& w) { return w.find("no precreate phase") != std::string::npos; }));
}

TEST_CASE("replay: a benchmark directory one rank both creates and deletes in is not shared (2 ranks, offset 1)",
          "[replay]")
{
  // Set 0 of rank o: deletes by rank o + 1, creates by rank o - 1, the same rank when there are 2 ranks.
  pfsim::ReplayOptions o;
  o.ranks = 2;
  auto w = small_replay(o);
  pfsim::RankCursor c;
  pfsim::OpRequest r;
  int ops = 0;
  while (w.next(1, 1, c, r)) {
    ++ops;
    CHECK(r.dir == 0);  // rank 1 works in rank 0's set only
    CHECK_FALSE(r.shared_dir);
  }
  CHECK(ops > 0);
}

TEST_CASE("mdtest traces: 'Command line used' without -u makes the replay share one directory", "[trace][replay]")
{
  TempDir d;
  for (int r = 0; r < 2; ++r)
    d.write("mdtest-perop-File creation-0000" + std::to_string(r) + ".csv", "time,runtime,tp\n0.0,1.0e-4,1.0e4\n");
  CHECK_THAT(load_trace(d.str()).warnings.back(), Catch::Contains("assumed -u"));
  // A command line cut short (no end of line): an option lost at its end would change the replay (helper-79)
  d.write("mdtest.txt", "Command line used: mdtest '-n' '1' '-C' '-w' '1' '--savePerOpDataCSV=mdtest-perop' '-N");
  CHECK_THAT(error_of(d.str()), Catch::Contains("mdtest.txt:1: truncated file: mdtest's \"Command line used:\""));
  d.write("mdtest.txt", "Command line used: mdtest '-n' '1' '-C' '-w' '1' '--savePerOpDataCSV=mdtest-perop'\n");
  d.write("other.txt", "Command line used: mdtest '-n' '1' '-u'\n");  // another run: its --savePerOpDataCSV differs
  auto t = std::make_shared<const Trace>(load_trace(d.str()));
  CHECK(t->shared_dir);
  pfsim::ReplayOptions o;
  o.ranks = 3;
  pfsim::ReplayWorkload w(t, o);
  std::set<uint32_t> dirs;
  for (int rank = 0; rank < 3; ++rank) {
    pfsim::RankCursor c;
    pfsim::OpRequest r;
    while (w.next(rank, 0, c, r)) {
      dirs.insert(r.dir);
      CHECK(r.shared_dir);
    }
  }
  CHECK(dirs.size() == 1);
  // The results' rules say so (they described md-workbench's data sets for every trace until 2026-11-26).
  const std::string rules = w.describe()["rules"];
  CHECK_THAT(rules, Catch::Contains("one shared directory") && !Catch::Contains("data-set"));
  pfsim::ReplayWorkload wu(std::make_shared<const Trace>(load_trace(kToolOutputs + "/mdtest")), o);
  CHECK_THAT(wu.describe()["rules"].get<std::string>(), Catch::Contains("its own directory (-u)"));
  // Command lines that wrote no such per-op files state another run: ignored, named in the warning. (A saved stdout
  // of an earlier run without -u would have made a unique-directory run a shared one.)
  TempDir other;
  for (int r = 0; r < 2; ++r)
    other.write("mdtest-perop-File creation-0000" + std::to_string(r) + ".csv", "time,runtime,tp\n0.0,1.0e-4,1.0e4\n");
  other.write("a.txt", "Command line used: mdtest '-n' '1' '-C' '-w' '1'\n");
  other.write("b.txt", "Command line used: mdtest '-n' '1' '-C' '-w' '1' '--savePerOpDataCSV=zzz'\n");
  Trace ot = load_trace(other.str());
  CHECK_FALSE(ot.shared_dir);
  CHECK_THAT(ot.warnings.back(), Catch::Contains("assumed -u") && Catch::Contains("a.txt: line 1 (no --savePerOpDataCSV)") &&
                                     Catch::Contains("b.txt: line 1 (--savePerOpDataCSV=\"zzz\")"));
  // The per-op option with a path names the files by its last component; as a separate word too.
  other.write("b.txt", "Command line used: mdtest '-n' '1' '-C' '-w' '1' '--savePerOpDataCSV' '/scratch/out/mdtest-perop'\n");
  Trace pt = load_trace(other.str());
  CHECK(pt.shared_dir);
  for (const auto& wn : pt.warnings)
    CHECK_THAT(wn, !Catch::Contains("assumed -u"));
  // The tool outputs' commands all have -u: unique directories, no warning about it.
  Trace u = load_trace(kToolOutputs + "/mdtest");
  CHECK_FALSE(u.shared_dir);
  for (const auto& wn : u.warnings)
    CHECK_THAT(wn, !Catch::Contains("assumed -u"));
}

TEST_CASE("mdtest traces: the output's task count and -n must match the per-op files", "[trace]")
{
  TempDir d;
  for (int r = 0; r < 2; ++r)
    d.write("mdtest-perop-File creation-0000" + std::to_string(r) + ".csv",
            "time,runtime,tp\n0.0,1.0e-4,1.0e4\n0.1,1.0e-4,1.0e4\n");
  const std::string cmd = "Command line used: mdtest '-n' '2' '-u' '-C' '--savePerOpDataCSV=mdtest-perop'\n";
  d.write("mdtest.txt", "mdtest-4.1.0 was launched with 2 total task(s) on 1 node(s)\n" + cmd);
  REQUIRE(error_of(d.str()).empty());
  d.write("mdtest.txt", "mdtest-4.1.0 was launched with 3 total task(s) on 1 node(s)\n" + cmd);
  CHECK_THAT(error_of(d.str()), Catch::Contains("mdtest.txt:1) states 3 ranks") &&
                                    Catch::Contains("File creation-00002.csv: missing file"));
  // A file of a rank beyond the stated tasks is named as such (it was called a missing File creation file).
  d.write("mdtest.txt", "mdtest-4.1.0 was launched with 1 total task(s) on 1 node(s)\n" + cmd);
  CHECK_THAT(error_of(d.str()), Catch::Contains("File creation-00001.csv: rank 1 is beyond the 1 rank that") &&
                                    Catch::Contains("mdtest.txt:1"));
  d.write("mdtest.txt", "mdtest-4.1.0 was launched with 2 total task(s) on 1 node(s)\n"
                        "Command line used: mdtest '-n' '5' '-u' '-C' '--savePerOpDataCSV=mdtest-perop'\n");
  CHECK_THAT(error_of(d.str()), Catch::Contains("File creation-00000.csv:3: expected 5 rows") &&
                                    Catch::Contains("mdtest.txt:2 states -n 5") && Catch::Contains("truncated"));
  // One file with a row too many of two: that one is named, not the other (helper-88: the longer was taken as the
  // expected count, and the file with the stated -n rows was called truncated).
  d.write("mdtest.txt", "mdtest-4.1.0 was launched with 2 total task(s) on 1 node(s)\n" + cmd);
  d.write("mdtest-perop-File creation-00001.csv", "time,runtime,tp\n0.0,1.0e-4,1.0e4\n0.1,1.0e-4,1.0e4\n0.2,1.0e-4,1.0e4\n");
  CHECK_THAT(error_of(d.str()), Catch::Contains("File creation-00001.csv:4: expected 2 rows") &&
                                    Catch::Contains("a row too many"));
  d.write("mdtest-perop-File creation-00001.csv", "time,runtime,tp\n0.0,1.0e-4,1.0e4\n0.1,1.0e-4,1.0e4\n");
  // Options that change what mdtest ran and that the replay does not model: one warning naming them (helper-88: a
  // tree of depth 2 was replayed flat without a word).
  d.write("mdtest.txt", "Command line used: mdtest '-n' '2' '-F' '-u' '-z' '2' '-b=2' '-R' '-C' "
                        "'--savePerOpDataCSV=mdtest-perop'\n");
  Trace tree = load_trace(d.str());
  REQUIRE(tree.warnings.size() == 1);
  CHECK_THAT(tree.warnings[0], Catch::Contains("mdtest.txt:1: mdtest options the replay does not model: -z (tree "
                                               "depth), -b (tree branching factor), -R (random stat order)"));
  // -I (items per directory) spreads -n over a tree, -W (stonewall) stops ranks early: not a per-rank file count
  d.write("mdtest.txt", "Command line used: mdtest '-n' '5' '-I' '1' '-u' '-C' '--savePerOpDataCSV=mdtest-perop'\n");
  CHECK(error_of(d.str()).empty());
  d.write("mdtest.txt", "Command line used: mdtest '-n' '5' '-W' '300' '-u' '-C' '--savePerOpDataCSV=mdtest-perop'\n");
  CHECK(error_of(d.str()).empty());
}

TEST_CASE("md-workbench -t (waits after each operation): a warning that the waits are replayed as fixed think times",
          "[trace]")
{
  TempDir d;
  write_small_all(d, 2, 4, 2, 1, 0);  // -P 2 -D 2 -I 1 per rank
  const std::string args = "Args: md-workbench \"-I=1\" \"-P=2\" \"-D=2\" \"-R=1\" \"-S=3901\" \"-O=1\"";
  d.write("stdout.txt", args + "\n");
  for (const auto& w : load_trace(d.str()).warnings)
    CHECK_THAT(w, !Catch::Contains("md-workbench -t"));
  d.write("stdout.txt", args + " \"-t=0.5\"\n");
  auto t = load_trace(d.str());
  REQUIRE_FALSE(t.warnings.empty());
  CHECK_THAT(t.warnings.back(), Catch::Contains("md-workbench -t 0.5") && Catch::Contains("fixed think times"));
  d.write("stdout.txt", args + " \"-t\" \"-1\"\n");
  CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt:1: option -t: expected a non-negative waiting factor"));
}

namespace {
// A copy of one of the tool outputs (files only) to edit.
void copy_tool_output(const std::string& name, const TempDir& d)
{
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/" + name))
    fs::copy_file(e.path(), d.path / e.path().filename());
}

// Replaces the first `from` by `to` in file `name` of `d`.
void edit(const TempDir& d, const std::string& name, const std::string& from, const std::string& to)
{
  std::ifstream in(d.path / name, std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  in.close();
  const auto at = text.find(from);
  REQUIRE(at != std::string::npos);
  d.write(name, text.replace(at, from.size(), to));
}

bool any_contains(const std::vector<std::string>& v, const std::string& what)
{
  return std::any_of(v.begin(), v.end(), [&](const std::string& s) { return s.find(what) != std::string::npos; });
}
}  // namespace

TEST_CASE("benchmark iterations the output reports or the header states, without their files: error, or with "
          "--allow-missing a warning and trace.missing",
          "[trace]")
{
  ImportOptions allow;
  allow.allow_missing = true;
  SECTION("md-real-io: every benchmark file gone (the phase lines report two iterations)")
  {
    TempDir d;
    copy_tool_output("md-real-io-2017", d);
    for (int it = 0; it < 2; ++it)
      for (const char* op : {"stat", "read", "create", "delete"})
        for (int r = 0; r < 2; ++r)
          fs::remove(d.path / ("lat-" + std::to_string(it) + "-" + op + "-" + std::to_string(r) + ".csv"));
    CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt: line ") &&
                                      Catch::Contains("reports benchmark iteration 0") &&
                                      Catch::Contains("iterations 0, 1") && Catch::Contains("--allow-missing"));
    Trace t = load_trace(d.str(), allow);
    CHECK(t.phases.size() == 2);  // precreate, cleanup
    CHECK(t.missing == std::vector<std::string>{"lat-0-*-*.csv", "lat-1-*-*.csv"});
    CHECK(any_contains(t.warnings, "the replay has no benchmark iterations 0, 1"));
  }
  SECTION("md-real-io without phase lines: the header's iterations=")
  {
    TempDir d;
    write_small_mdreal(d);
    for (const char* op : {"stat", "read", "create", "delete"})
      for (int r = 0; r < 2; ++r)
        fs::remove(d.path / (std::string("mdreal-0-") + op + "-" + std::to_string(r) + ".csv"));
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal.txt:5: states iterations=1") &&
                                      Catch::Contains("benchmark iteration 0 (mdreal-0-*-*.csv)"));
  }
  SECTION("md-workbench -L: the second iteration gone")
  {
    TempDir d;
    copy_tool_output("md-workbench-ior/run1-L-process-reports", d);
    for (const char* op : {"stat", "read", "create", "delete"})
      fs::remove(d.path / (std::string("lat-0.00-1-") + op + ".csv"));
    CHECK_THAT(error_of(d.str()), Catch::Contains("reports benchmark iteration 1") &&
                                      Catch::Contains("(lat-0.00-1-*.csv)"));
    CHECK(load_trace(d.str(), allow).missing == std::vector<std::string>{"lat-0.00-1-*.csv"});
  }
  SECTION("mdtest: a File phase the command line runs")
  {
    TempDir d;
    copy_tool_output("mdtest", d);
    for (int r = 0; r < 2; ++r)
      fs::remove(d.path / ("mdtest-perop-File stat-0000" + std::to_string(r) + ".csv"));
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdtest-allopts.txt:4: the mdtest command line runs the File stat "
                                                  "phase") &&
                                      Catch::Contains("--allow-missing"));
    Trace t = load_trace(d.str(), allow);
    CHECK(t.phases.size() == 3);
    CHECK(t.missing == std::vector<std::string>{"mdtest-perop-File stat-*.csv"});
    // -C -E -r: the command line does not run the stat phase
    edit(d, "mdtest-allopts.txt", "'-u'", "'-u' '-C' '-E' '-r'");
    CHECK(error_of(d.str()).empty());
  }
}

TEST_CASE("mdtest: a negative tp is an error / the command line's -w and -e are read and checked", "[trace]")
{
  TempDir d;
  copy_tool_output("mdtest", d);
  const std::string cmd = "mdtest-allopts.txt";  // the command line whose --savePerOpDataCSV names the files
  SECTION("the tool output: -w 3901 agrees with tp")
  {
    CHECK(load_trace(d.str()).params.object_size_B == 3901);
  }
  SECTION("negative tp")
  {
    d.keep_lines("mdtest-perop-File read-00001.csv", 2);
    d.write("mdtest-perop-File read-00001.csv", "time,runtime,tp\n0.0,1.0e-4,-3.9e7\n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("File read-00001.csv:2") && Catch::Contains("column 'tp'") &&
                                      Catch::Contains("negative"));
  }
  SECTION("-w not a number, -e negative")
  {
    edit(d, cmd, "'-w' '3901'", "'-w' 'abc'");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdtest-allopts.txt:4: option -w") && Catch::Contains("\"abc\""));
    edit(d, cmd, "'-w' 'abc'", "'-w' '3901'");
    edit(d, cmd, "'-e' '3901'", "'-e' '-1'");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdtest-allopts.txt:4: option -e") && Catch::Contains("\"-1\""));
  }
  SECTION("-w disagreeing with the tp column")
  {
    edit(d, cmd, "'-w' '3901'", "'-w' '4000'");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdtest-allopts.txt:4: states -w 4000") &&
                                      Catch::Contains("File creation-00000.csv gives 3901 B"));
  }
  SECTION("no File creation files: the object size is the command line's -w, not assumed 0 B")
  {
    for (int r = 0; r < 2; ++r)
      fs::remove(d.path / ("mdtest-perop-File creation-0000" + std::to_string(r) + ".csv"));
    edit(d, cmd, "'-w' '3901'", "'-w' '2k'");
    ImportOptions o;
    o.allow_missing = true;
    Trace t = load_trace(d.str(), o);
    CHECK(t.params.object_size_B == 2048);
    CHECK_FALSE(any_contains(t.warnings, "assumed 0 B"));
  }
}

TEST_CASE("a header column with white space around its name is said as such by the md-real-io, md-workbench and "
          "mdtest importers (not as a missing column)",
          "[trace]")
{
  // "time,runtime " was "missing column 'runtime'" although the column is there: the real files, one header edited.
  struct Case {
    std::string dir, file, header, column;
  };
  const std::vector<Case> cases = {
      {kToolOutputs + "/md-real-io-2017", "lat-0-stat-1.csv", "time,runtime ", "\"runtime \""},
      {kToolOutputs + "/md-workbench-standalone-2019", "lat-0.00-0-stat-all.csv", "time ,runtime", "\"time \""},
      {kToolOutputs + "/mdtest", "mdtest-perop-File stat-00001.csv", "time,runtime, tp", "\" tp\""},
  };
  for (const auto& c : cases) {
    TempDir d;
    d.copy_files(c.dir);
    const std::string text = d.read(c.file);
    d.write(c.file, c.header + text.substr(text.find('\n')));
    const std::string e = error_of(d.str());
    INFO(e);
    CHECK_THAT(e, Catch::Contains(c.file + ":1: unexpected white space in column " + c.column) &&
                      !Catch::Contains("missing column"));
  }
}

TEST_CASE("latency files with Windows line endings import as the real files do (the md-real-io, md-workbench and "
          "mdtest importers)",
          "[trace]")
{
  // The header's "\r" is the line's ending, not white space in the last column (helper-74: CRLF files were refused
  // as 'unexpected white space in column "runtime\x0d"' after the header check came in).
  for (const std::string dir : {"/md-real-io-2017", "/md-workbench-standalone-2019", "/mdtest"}) {
    TempDir d;
    d.copy_files(kToolOutputs + dir);
    for (const auto& e : fs::directory_iterator(d.path))
      if (e.path().extension() == ".csv") {
        const std::string name = e.path().filename().string();
        std::string text = d.read(name), crlf;
        for (char c : text)
          crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
        d.write(name, crlf);
      }
    const Trace plain = load_trace(kToolOutputs + dir), windows = load_trace(d.str());
    INFO(dir);
    CHECK(windows.ranks == plain.ranks);
    CHECK(windows.op_count() == plain.op_count());
    CHECK(plain.op_count() > 0);
  }
}

TEST_CASE("md-real-io and md-workbench latency files have two columns: a third is an error", "[trace]")
{
  TempDir d;
  write_small_mdreal(d);
  SECTION("header time,runtime,x")
  {
    d.write("mdreal-0-stat-1.csv", "time,runtime,x\n0.0006,2.0e-4,5\n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-stat-1.csv:1: unexpected column \"x\"") &&
                                      Catch::Contains("only mdtest's per-op files have a third column"));
  }
  SECTION("header time,runtime,tp (mdtest's) in an md-real-io trace")
  {
    d.write("mdreal-0-stat-1.csv", "time,runtime,tp\n0.0006,2.0e-4,5\n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-stat-1.csv:1: unexpected column \"tp\""));
  }
  SECTION("a row with an extra field")
  {
    d.write("mdreal-0-stat-1.csv", "time,runtime\n0.0006,2.0e-4,5\n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-stat-1.csv:2: expected 2 columns, got 3"));
  }
  SECTION("a column twice")
  {
    d.write("mdreal-0-stat-1.csv", "time,runtime,time\n0.0006,2.0e-4,0.0006\n");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-stat-1.csv:1: column \"time\" appears twice"));
  }
}

TEST_CASE("a file named like a latency file or header that is not a regular file says what it is", "[trace]")
{
  TempDir d;
  write_small_mdreal(d);
  const fs::path f = d.path / "mdreal-0-stat-1.csv";
  fs::remove(f);
  SECTION("directory")
  {
    fs::create_directory(f);
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-stat-1.csv: is a directory, not a regular file"));
  }
  SECTION("broken symbolic link")
  {
    fs::create_symlink(d.path / "nowhere", f);
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-stat-1.csv: is a broken symbolic link"));
  }
  SECTION("link to /dev/null")
  {
    fs::create_symlink("/dev/null", f);
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-stat-1.csv: is a symbolic link to a character device"));
  }
  SECTION("FIFO")
  {
    REQUIRE(::mkfifo(f.c_str(), 0600) == 0);
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal-0-stat-1.csv: is a FIFO, not a regular file"));
  }
  SECTION("stdout.txt and mdreal.txt directories")
  {
    d.write("mdreal-0-stat-1.csv", "time,runtime\n0.0006,2.0e-4\n");
    fs::create_directory(d.path / "stdout.txt");
    CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt: is a directory, not a regular file"));
    fs::remove(d.path / "stdout.txt");
    fs::remove(d.path / "mdreal.txt");
    fs::create_directory(d.path / "mdreal.txt");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal.txt: is a directory, not a regular file"));
  }
}

TEST_CASE("header fields: integers as the tools print them, at their line, and data-sets at least 1", "[trace]")
{
  TempDir d;
  write_small_mdreal(d);  // mdreal.txt: obj-per-proc, precreate-per-set, data-sets, object-size, iterations, offset
  auto header = [&](const std::string& from, const std::string& to) { edit(d, "mdreal.txt", from, to); };
  SECTION("data-sets=0")
  {
    header("data-sets=1", "data-sets=0");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal.txt:3: states data-sets (-D) 0") &&
                                      Catch::Contains("at least 1 data set"));
  }
  SECTION("object-size=1e3 and 3901.7: an integer number of bytes")
  {
    for (const char* v : {"1e3", "3901.7", "-5"}) {
      d.write("mdreal.txt", "\tobj-per-proc=1 \n\tprecreate-per-set=2 \n\tdata-sets=1 \n\tobject-size=" +
                                std::string(v) + " \n\titerations=1 \n\toffset=1 \n");
      CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal.txt:4: header field 'object-size'") &&
                                        Catch::Contains("integer number of bytes") && !Catch::Contains("column"));
    }
  }
  SECTION("obj-per-proc=abc")
  {
    header("obj-per-proc=1", "obj-per-proc=abc");
    CHECK_THAT(error_of(d.str()), Catch::Contains("mdreal.txt:1: header field 'obj-per-proc'") &&
                                      !Catch::Contains("column"));
  }
  SECTION("md-workbench's Args line: -D=0, -S=1e3")
  {
    TempDir w;
    write_small_all(w, 2, 2, 1, 1, 0);
    w.write("stdout.txt", "Args: md-workbench \"-I=1\" \"-P=2\" \"-D=0\" \"-R=1\"\n");
    CHECK_THAT(error_of(w.str()), Catch::Contains("stdout.txt:1: states data-sets (-D) 0"));
    w.write("stdout.txt", "Args: md-workbench \"-I=1\" \"-P=2\" \"-D=1\" \"-R=1\" \"-S=1e3\"\n");
    CHECK_THAT(error_of(w.str()), Catch::Contains("stdout.txt:1: option -S") &&
                                      Catch::Contains("integer number of bytes"));
  }
}

TEST_CASE("error messages quote at most 60 characters of input, non-printable bytes escaped", "[trace]")
{
  TempDir d;
  write_small_mdreal(d);
  d.write("mdreal-0-stat-1.csv", "time,runtime\n0.0006,2.0e-4" + std::string(100000, '7') + "\n");
  const std::string e = error_of(d.str());
  CHECK_THAT(e, Catch::Contains("mdreal-0-stat-1.csv:2") && Catch::Contains("...\""));
  CHECK(e.size() < 400);
  static const char nul[] = "time,runtime\n0.0006\0x,2.0e-4\n";
  d.write("mdreal-0-stat-1.csv", std::string(nul, sizeof nul - 1));
  CHECK_THAT(error_of(d.str()), Catch::Contains("\"0.0006\\x00x\""));
}

TEST_CASE("an output naming other latency files than the trace's is said to be maybe another run's", "[trace]")
{
  // md-real-io 2017: the files renamed foo-*, the saved stdout still says latency=lat.
  TempDir m;
  for (const auto& e : fs::directory_iterator(kToolOutputs + "/md-real-io-2017")) {
    const std::string name = e.path().filename().string();
    fs::copy(e.path(), m.path / (name.rfind("lat-", 0) == 0 ? "foo-" + name.substr(4) : name));
  }
  auto said = [](const Trace& t, const std::string& what) {
    for (const auto& w : t.warnings)
      if (w.find(what) != std::string::npos && w.find("another run's output") != std::string::npos)
        return true;
    return false;
  };
  CHECK(said(load_trace(m.str()), "stdout.txt:5: the output states latency files \"lat\", but these are foo-*"));
  // The real files name their own prefix: no such warning (md-real-io, and md-workbench's <-L>-<waiting factor>).
  for (const char* d : {"/md-real-io-2017", "/md-workbench-ior/run2-latency-all", "/md-workbench-standalone-2019"})
    CHECK_FALSE(said(load_trace(kToolOutputs + d), "latency files"));
  // md-workbench: an Args line with --latency-all beside rank 0's -L files (which that run did not write).
  TempDir w;
  w.copy_files(kToolOutputs + "/md-workbench-ior/run1-L-process-reports");
  const std::string text = w.read("stdout.txt");
  CHECK_FALSE(said(load_trace(w.str()), "--latency-all"));
  w.write("stdout.txt", TempDir::inserted(text, "\"--process-reports\"", "\"--latency-all\" "));
  CHECK(said(load_trace(w.str()), "had --latency-all, which writes only -all files"));
  // An Args line without -L: that run wrote no latency files.
  w.write("stdout.txt", TempDir::removed(text, " \"-L=lat\""));
  CHECK(said(load_trace(w.str()), "stdout.txt:1: the output's run had no -L, so it wrote no latency files"));
  // md-workbench's -all files beside an Args line without --latency-all (that run wrote rank 0's -L files).
  TempDir a;
  a.copy_files(kToolOutputs + "/md-workbench-ior/run2-latency-all");
  a.write("stdout.txt", TempDir::removed(a.read("stdout.txt"), " \"--latency-all\""));
  CHECK(said(load_trace(a.str()), "stdout.txt:1: the output's run had no --latency-all, which writes rank 0's -L "
                                  "files only, but these are -all files"));
  // md-real-io: every rank's files beside an option block without latency-all (with which rank 0 alone keeps them).
  TempDir r;
  r.copy_files(kToolOutputs + "/md-real-io-2017");
  r.write("stdout.txt", TempDir::removed(r.read("stdout.txt"), "\tlatency-all\n"));
  CHECK(said(load_trace(r.str()), "stdout.txt:5: the output's run had no latency-all, with which md-real-io keeps rank "
                                  "0's latency files only, but these are the files of 2 ranks"));
  // The real outputs state what their files are: none of these.
  for (const char* d : {"/md-real-io-2017", "/md-workbench-ior/run1-L-process-reports",
                        "/md-workbench-ior/run2-latency-all", "/md-workbench-standalone-2019"})
    CHECK_FALSE(said(load_trace(kToolOutputs + d), "had no"));
}

TEST_CASE("md-real-io: an option block whose latency= is empty or missing is said to be maybe another run's", "[trace]")
{
  // md-real-io lists every option in its block, -L's prefix as latency= (empty without -L): beside latency files,
  // such a block is of a run that wrote none, as md-workbench's Args line without -L (a warning; its parameters used).
  TempDir r;
  r.copy_files(kToolOutputs + "/md-real-io-2017");
  const std::string text = r.read("stdout.txt");
  CHECK_FALSE(any_contains(load_trace(r.str()).warnings, "had no -L"));
  const std::string then = ", so it wrote no latency files, but these are lat-* latency files: it may be another run's "
                           "output (its parameters are used)";
  SECTION("no latency= line")
  {
    r.write("stdout.txt", TempDir::removed(text, "\tlatency=lat\n"));
    const Trace t = load_trace(r.str());
    CHECK(t.params.obj_per_proc == 20);
    CHECK(any_contains(t.warnings, r.str() + "/stdout.txt:2: the output's run had no -L (its option block has no "
                                             "latency= line)" + then));
  }
  SECTION("latency= empty, as md-real-io prints it without -L")
  {
    edit(r, "stdout.txt", "\tlatency=lat\n", "\tlatency=\n");
    const Trace t = load_trace(r.str());
    CHECK(t.params.obj_per_proc == 20);
    CHECK(any_contains(t.warnings, r.str() + "/stdout.txt:5: the output's run had no -L (its option block's latency= "
                                             "is empty)" + then));
  }
  SECTION("a recorded mdreal.txt (after md-real-io's banner line) as the Mistral runs', and a hand-written block")
  {
    TempDir m;
    write_small_mdreal(m);
    const std::string block = m.read("mdreal.txt");
    CHECK_FALSE(any_contains(load_trace(m.str()).warnings, "had no -L"));  // parameters alone: no statement of -L
    const std::string banner = "MD-REAL-IO total objects: 6 workingset size: 0.022 MiB (version: 5044ecc@master) "
                               "time: 2017-07-09 00:54:04\n";
    m.write("mdreal.txt", banner + block + "\tlatency=/home/dkrz/k202079/results-5-7217624/mdreal\n\tlatency-all\n");
    CHECK(load_trace(m.str()).warnings.empty());
    m.write("mdreal.txt", banner + block + "\tlatency-all\n");
    CHECK(any_contains(load_trace(m.str()).warnings, m.str() + "/mdreal.txt:2: the output's run had no -L (its option "
                                                     "block has no latency= line), so it wrote no latency files, but "
                                                     "these are mdreal-* latency files"));
  }
}

TEST_CASE("a truncated or garbled phase line of the saved output, and mdtest files with and without tp: errors", "[trace]")
{
  TempDir d;
  d.copy_files(kToolOutputs + "/md-real-io-2017");
  const std::string text = d.read("stdout.txt");
  const auto bench = text.find("\nbenchmark ");
  REQUIRE(bench != std::string::npos);
  // cut in the middle of the first benchmark line (no "(0 errs)", no newline): a truncated file; with a newline after
  // the cut, a phase line cut short
  d.write("stdout.txt", text.substr(0, text.find(" obj ", bench) + 1));
  const size_t line = static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(bench) + 1, '\n')) + 1;
  CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt:" + std::to_string(line) + ": truncated file: the last "
                                                "line has no end of line"));
  d.write("stdout.txt", text.substr(0, text.find(" obj ", bench) + 1) + "\n");
  CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt:" + std::to_string(line) + ": a phase line cut short"));
  // cut inside a parameter line (object-size=39 of 3901) and an empty saved output (helper-79: both replayed as if
  // whole, the cut value taken for the run's or every parameter assumed)
  const auto size_at = text.find("object-size=");
  REQUIRE(size_at != std::string::npos);
  d.write("stdout.txt", text.substr(0, size_at + 14));
  const size_t size_line = static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(size_at), '\n')) + 1;
  CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt:" + std::to_string(size_line) + ": truncated file"));
  d.write("stdout.txt", "");
  CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt:1: empty file"));
  // a phase line's time beyond a double, or with two dots: named at its line (it was "pfsim: failed: stod", exit 1, or
  // 1.2.3 read as 1.2)
  const auto time_at = text.find(' ', bench + 1) + 1;
  for (const std::string& bad : {std::string(400, '9') + ".0", std::string("1.2.3")}) {
    INFO(bad.substr(0, 10));
    d.write("stdout.txt", text.substr(0, time_at) + bad + text.substr(text.find('s', time_at)));
    CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt:" + std::to_string(line) + ": the phase line's time: ") &&
                                      Catch::Contains(bad.size() > 10 ? "is out of range" : "not a number: \"1.2.3\""));
  }
  // a number replaced by text
  std::string garbled = text;
  garbled.replace(garbled.find(" iops/s", bench) - 7, 7, "abc.def");
  d.write("stdout.txt", garbled);
  CHECK_THAT(error_of(d.str()), Catch::Contains("stdout.txt:" + std::to_string(line) + ": a phase line cut short or garbled"));
  d.write("stdout.txt", text);
  CHECK_NOTHROW(load_trace(d.str()));
  // md-workbench's --print-detailed-stats table rows ("precreate \t4\t0...", run4) are not phase lines
  TempDir w;
  w.copy_files(kToolOutputs + "/md-workbench-ior/run2-latency-all");
  std::ifstream t4(kToolOutputs + "/md-workbench-ior/run4-detailed-stats/stdout.txt");
  std::string table, l4;
  while (std::getline(t4, l4))
    if (l4.rfind("precreate \t", 0) == 0 || l4.rfind("benchmark \t", 0) == 0)
      table += l4 + "\n";
  REQUIRE(!table.empty());
  w.write("stdout.txt", w.read("stdout.txt") + table);
  CHECK_NOTHROW(load_trace(w.str()));
  // md-workbench's Args line cut inside a value ("-S=39 for "-S=3901")
  const std::string wtext = w.read("stdout.txt");
  const auto args_at = wtext.find("Args:");
  REQUIRE(args_at != std::string::npos);
  const auto s_at = wtext.find("-S=", args_at);
  REQUIRE(s_at != std::string::npos);
  w.write("stdout.txt", wtext.substr(0, s_at + 5));
  CHECK_THAT(error_of(w.str()), Catch::Contains("stdout.txt:") && Catch::Contains(": truncated file"));

  TempDir m;
  m.copy_files(kToolOutputs + "/mdtest");
  std::ifstream f(m.path / "mdtest-perop-File stat-00001.csv");
  std::string rows, row;
  std::getline(f, row);
  rows = "time,runtime\n";
  while (std::getline(f, row))
    rows += row.substr(0, row.rfind(',')) + "\n";
  f.close();
  m.write("mdtest-perop-File stat-00001.csv", rows);
  CHECK_THAT(error_of(m.str()), Catch::Contains("mdtest-perop-File stat-00001.csv:1: the header lacks mdtest's tp "
                                                "column, which ") &&
                                    Catch::Contains("-00000.csv has; expected the same columns"));
}

TEST_CASE("every garbled phase line is named at its line, and a line stating other objects than its files is an error", "[trace]")
{
  // helper-136: a garbled cleanup line passed unseen, a garbled first benchmark line was blamed on the iteration
  // count without a line, and a cleanup line of 250 obj beside files of 250,000 rows passed.
  TempDir d;
  d.copy_files(kToolOutputs + "/md-real-io-2017");
  const std::string text = d.read("stdout.txt");
  auto line_of = [&](const std::string& start) {
    const auto at = text.find("\n" + start);
    REQUIRE(at != std::string::npos);
    return std::count(text.begin(), text.begin() + static_cast<long>(at) + 1, '\n') + 1;
  };
  auto with = [&](const std::string& from, const std::string& to) {
    std::string x = text;
    const auto at = x.find(from);
    REQUIRE(at != std::string::npos);
    d.write("stdout.txt", x.replace(at, from.size(), to));
    return error_of(d.str());
  };
  for (const std::string phase : {"cleanup", "benchmark", "precreate"}) {
    INFO(phase);
    const std::string at = "stdout.txt:" + std::to_string(line_of(phase + " 0.0s")) + ": a phase line cut short or garbled";
    CHECK_THAT(with("\n" + phase + " 0.0s ", "\n" + phase + " xx "), Catch::Contains(at));
    CHECK_THAT(with("\n" + phase + " 0.0s ", "\n" + phase + "  0.0s "), Catch::Contains(at));
  }
  CHECK_THAT(with("iops/s 80 obj 4735.9", "iops/s 80 ob 4735.9"),
             Catch::Contains("stdout.txt:" + std::to_string(line_of("benchmark 0.0s")) + ": a phase line cut short or "
                             "garbled: expected its object count \"<n> obj\""));
  // The objects a line states against its files' rows (2 ranks x 2 data sets x 40 precreated, x 20 per iteration)
  CHECK_THAT(with("iops/s 160 obj 4 dset", "iops/s 16 obj 4 dset"),
             Catch::Contains("stdout.txt:" + std::to_string(line_of("cleanup 0.0s")) + ": the cleanup line states 16 "
                             "objects (all ranks'), but its 'cleanup' latency files (lat-2-cleanup-*.csv, 2 ranks) "
                             "hold 160 rows"));
  CHECK_THAT(with("iops/s 80 obj 6262.1", "iops/s 81 obj 6262.1"),
             Catch::Contains("stdout.txt:" + std::to_string(line_of("benchmark 0.0s 25048.5")) + ": the benchmark line "
                             "states 81 objects") && Catch::Contains("(lat-1-stat-*.csv, 2 ranks) hold 80 rows"));
  d.write("stdout.txt", text);
  CHECK_NOTHROW(load_trace(d.str()));
  // md-workbench's "objects:N" (a --latency-all run of IOR's md-workbench), against its -all files
  TempDir w;
  w.copy_files(kToolOutputs + "/md-workbench-ior/run2-latency-all");
  CHECK_NOTHROW(load_trace(w.str()));
  std::string wtext = w.read("stdout.txt");
  const auto cleanup = wtext.find("\ncleanup process");
  REQUIRE(cleanup != std::string::npos);
  wtext.replace(wtext.find("objects:160", cleanup), 11, "objects:16");
  w.write("stdout.txt", wtext);
  CHECK_THAT(error_of(w.str()), Catch::Contains(": the cleanup line states 16 objects (all ranks'), but its 'cleanup' "
                                                "latency files (lat-0.00-2-cleanup-all.csv, 2 ranks) hold 160 rows"));
}

TEST_CASE("mdtest -N S: the File stat, read and removal of rank r work on ranks r + S, r + 2S and r + 3S", "[replay]")
{
  // mdtest's stat_name, read_name and rm_name: (rank + k x nstride) % size for k = 1, 2, 3. The real run's command
  // line with -N 1 added, replayed at 8 ranks with -u: rank 0 stats in rank 1's directory, reads rank 2's files
  // (written by rank 2 in File creation: whose node may cache them) and removes rank 3's.
  TempDir d;
  d.copy_files(kToolOutputs + "/mdtest");
  const std::string text = d.read("mdtest-allopts.txt");
  d.write("mdtest-allopts.txt", TempDir::inserted(text, "'-u' ", "'-N' '1' "));
  auto t = std::make_shared<const Trace>(load_trace(d.str()));
  REQUIRE(t->mdtest_stride == 1);
  REQUIRE_FALSE(t->shared_dir);
  pfsim::ReplayOptions o;
  o.ranks = 8;
  pfsim::ReplayWorkload w(t, o);
  std::map<std::string, std::set<uint32_t>> dirs;
  std::set<int32_t> readers_of;
  for (int phase = 0; phase < w.phase_count(); ++phase) {
    pfsim::RankCursor c;
    pfsim::OpRequest op;
    while (w.next(0, phase, c, op)) {
      dirs[w.phase_name(phase)].insert(op.dir);
      if (op.op == pfsim::Op::Read)
        readers_of.insert(op.written_by);
    }
  }
  // One directory per rank (-u, one data set): rank k's is directory k.
  CHECK(dirs["File creation"] == std::set<uint32_t>{0});
  CHECK(dirs["File stat"] == std::set<uint32_t>{1});
  CHECK(dirs["File read"] == std::set<uint32_t>{2});
  CHECK(dirs["File removal"] == std::set<uint32_t>{3});
  CHECK(readers_of == std::set<int32_t>{2});
  // Item k of every File phase is the owner's file k, one object throughout (an OST, held pages and an unlink meet
  // on it): rank 2's creations are the objects rank 0 reads, rank 3's those it removes.
  auto objects = [&](int rank, const std::string& name, pfsim::Op kind) {
    std::vector<uint64_t> v;
    for (int phase = 0; phase < w.phase_count(); ++phase) {
      if (w.phase_name(phase) != name)
        continue;
      pfsim::RankCursor c;
      pfsim::OpRequest op;
      while (w.next(rank, phase, c, op))
        if (op.op == kind)
          v.push_back(op.object);
    }
    return v;
  };
  const auto made2 = objects(2, "File creation", pfsim::Op::Create);
  REQUIRE(!made2.empty());
  CHECK(objects(0, "File read", pfsim::Op::Read) == made2);
  CHECK(objects(0, "File removal", pfsim::Op::Unlink) == objects(3, "File creation", pfsim::Op::Create));
  CHECK(objects(0, "File removal", pfsim::Op::Unlink) != made2);
  // A value that is not a stride: an error naming the line.
  d.write("mdtest-allopts.txt", TempDir::inserted(text, "'-u' ", "'-N' 'x' "));
  CHECK_THAT(error_of(d.str()), Catch::Contains("mdtest-allopts.txt:4") && Catch::Contains("option -N"));
  // Two outputs that differ only in -N state different runs.
  d.write("mdtest-allopts.txt", text);
  d.write("zz-stride.txt", TempDir::inserted(text, "'-u' ", "'-N' '1' "));
  CHECK_THAT(error_of(d.str()), Catch::Contains("state different runs"));
}

TEST_CASE("an empty trace file is named as empty, not as a file name pfsim does not know", "[trace]")
{
  TempDir d;
  d.write("lat-0.00-0-precreate-all.csv", "");
  d.write("notes.txt", "");
  CHECK_THAT(error_of((d.path / "lat-0.00-0-precreate-all.csv").string()), Catch::Contains(":1: empty file"));
  CHECK_THAT(error_of((d.path / "notes.txt").string()), Catch::Contains("notes.txt:1: empty file: expected a trace"));
}

namespace {

// What the replay says of rank r's reads, in order: (writer, writing phase), (-1, -1) for data written before the run.
std::vector<std::pair<int32_t, int32_t>> replayed_readers(const pfsim::Workload& w, int r)
{
  std::vector<std::pair<int32_t, int32_t>> got;
  for (int ph = 0; ph < w.phase_count(); ++ph) {
    pfsim::RankCursor c;
    pfsim::OpRequest op;
    while (w.next(r, ph, c, op))
      if (op.op == pfsim::Op::Read)
        got.emplace_back(op.written_by, op.written_by >= 0 ? op.written_phase : -1);
  }
  return got;
}

// md-workbench's benchmark bookkeeping, brute force (IOR 4.x md-workbench.c run_benchmark): every object of every
// rank's data set with the rank and phase that made it; in iteration i, object f = i x I + j of set d: rank r reads
// and deletes it in rank r - K(d+1)'s set and creates object f + P in rank r + K(d+1)'s. Returns, per rank, the
// (writer, phase) of each of its benchmark reads in order (-1, -1: not made in this run).
std::vector<std::vector<std::pair<int32_t, int32_t>>> mdworkbench_readers(const pfsim::MdWorkbenchParams& p, int M,
                                                                           bool read_only = false)
{
  std::map<std::tuple<int, int, long>, std::pair<int32_t, int32_t>> made;  // (owner, set, index) -> (rank, phase)
  int phase = 0;
  if (p.run_precreate) {
    for (int r = 0; r < M; ++r)
      for (int d = 0; d < p.data_sets; ++d)
        for (long f = 0; f < p.precreate_per_set; ++f)
          made[{r, d, f}] = {r, 0};
    phase = 1;
  }
  std::vector<std::vector<std::pair<int32_t, int32_t>>> reads(static_cast<size_t>(M));
  auto mod = [M](long x) { return static_cast<int>(((x % M) + M) % M); };
  for (int it = 0; p.run_benchmark && it < p.iterations; ++it, ++phase)
    for (long j = 0; j < p.obj_per_proc; ++j)
      for (int d = 0; d < p.data_sets; ++d)
        for (int r = 0; r < M; ++r) {
          // (--read-only: the index does not advance, and nothing is deleted or created)
          const long f = (read_only ? 0 : static_cast<long>(it) * p.obj_per_proc) + j;
          const long shift = static_cast<long>(p.offset) * (d + 1);
          auto at = made.find({mod(r - shift), d, f});
          reads[static_cast<size_t>(r)].push_back(at == made.end() ? std::pair<int32_t, int32_t>{-1, -1} : at->second);
          if (read_only)
            continue;
          if (at != made.end())
            made.erase(at);
          made[{mod(r + shift), d, f + p.precreate_per_set}] = {r, phase};
        }
  return reads;
}

}  // namespace

TEST_CASE("md-workbench reads: the writer and phase of every read match a brute-force model of md-workbench", "[replay]")
{
  // Generated traces (pfsim mdworkbench) replayed at their rank count and at others, over data sets, offsets, -P not a
  // multiple of -I (objects made by the benchmark and read in the same or a later iteration), -2 alone (no precreate:
  // its objects were not written in this run). A wrong object index, shift, creator or phase fails here.
  struct Case {
    int N, M, I, P, D, R, K;
    bool precreate;
  };
  for (const Case& k : {Case{4, 4, 5, 7, 3, 4, 2, true}, Case{4, 7, 5, 7, 3, 4, 2, true}, Case{6, 3, 3, 4, 2, 5, 1, true},
                        Case{5, 9, 3, 4, 2, 3, 5, true}, Case{4, 4, 10, 20, 1, 2, 1, true}, Case{4, 4, 5, 7, 2, 3, 1, false},
                        Case{3, 8, 2, 5, 1, 6, 3, true}}) {
    pfsim::MdWorkbenchParams p{k.N, k.I, k.P, k.D, k.R, 100, k.K};
    p.run_precreate = k.precreate;
    p.run_cleanup = false;
    auto t = std::make_shared<const Trace>(pfsim::mdworkbench_trace(p));
    pfsim::ReplayOptions o;
    o.ranks = k.M;
    pfsim::ReplayWorkload w(t, o);
    p.ranks = k.M;
    const auto want = mdworkbench_readers(p, k.M);
    INFO("N " << k.N << " M " << k.M << " -I " << k.I << " -P " << k.P << " -D " << k.D << " -R " << k.R << " offset "
              << k.K << (k.precreate ? "" : " (-2 only)"));
    size_t made_here = 0;
    for (int r = 0; r < k.M; ++r) {
      const auto got = replayed_readers(w, r);
      INFO("rank " << r);
      CHECK(got == want[static_cast<size_t>(r)]);
      for (const auto& g : got)
        made_here += g.first >= 0;
    }
    CHECK(made_here > 0);  // every case has reads of objects this run made
  }
}

TEST_CASE("md-workbench reads in a trace without stats or with --read-only: the object index follows the kinds "
          "recorded", "[replay]")
{
  // A recording whose benchmark lacks a kind (here the stats: 3 operations per object), and one of md-workbench
  // --read-only (stat and read per object, and the object index does not advance: every iteration reads the first
  // -I precreated objects), as the importer gives them; the generated trace's benchmark patterns replaced.
  const pfsim::MdWorkbenchParams p{4, 3, 5, 2, 4, 100, 1};
  for (bool read_only : {false, true}) {
    pfsim::trace::Trace t = pfsim::mdworkbench_trace(p);
    auto& s = t.streams[0];
    const std::vector<unsigned char> pattern =
        read_only ? std::vector<unsigned char>{static_cast<unsigned char>(TraceOp::Stat),
                                               static_cast<unsigned char>(TraceOp::Read)}
                  : std::vector<unsigned char>{static_cast<unsigned char>(TraceOp::Read),
                                               static_cast<unsigned char>(TraceOp::Delete),
                                               static_cast<unsigned char>(TraceOp::Create)};
    std::vector<uint64_t> begin{0};
    for (size_t ph = 0; ph < t.phases.size(); ++ph) {
      uint64_t n = s.end(static_cast<int>(ph)) - s.begin(static_cast<int>(ph));
      if (t.phases[ph].kind == pfsim::trace::PhaseKind::Benchmark) {
        s.pattern[ph] = pattern;
        n = static_cast<uint64_t>(p.obj_per_proc * p.data_sets) * pattern.size();
      }
      begin.push_back(begin.back() + n);
    }
    s.phase_begin = begin;
    pfsim::ReplayOptions o;
    o.ranks = 4;
    pfsim::ReplayWorkload w(std::make_shared<const Trace>(t), o);
    const auto want = mdworkbench_readers(p, 4, read_only);
    INFO((read_only ? "--read-only" : "no stats"));
    for (int r = 0; r < 4; ++r) {
      const auto got = replayed_readers(w, r);
      auto text = [](const std::vector<std::pair<int32_t, int32_t>>& v) {
        std::string out;
        for (const auto& [who, when] : v)
          out += "(" + std::to_string(who) + "," + std::to_string(when) + ")";
        return out;
      };
      INFO("rank " << r << ": replay " << text(got) << ", model " << text(want[static_cast<size_t>(r)]));
      CHECK(got == want[static_cast<size_t>(r)]);
    }
  }
}
