// Output files: a run's outputs land together or not at all (OutputBatch over AtomicFile).
#include "report/outputs.hpp"

#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace fs = std::filesystem;

using pfsim::test::TempDir;

namespace {

// Runs `child` in a forked process with a plain process's dispositions of SIGINT, SIGTERM and SIGHUP (Catch installs
// its own handlers) and returns its wait status; `child` is to end the process (it exits 0 if it returns).
int in_child(void (*child)(const fs::path&, int), const fs::path& dir, int sig)
{
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    for (int s : {SIGINT, SIGTERM, SIGHUP})
      std::signal(s, SIG_DFL);
    child(dir, sig);
    ::_exit(0);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  return status;
}

}  // namespace

TEST_CASE("output batch: files appear only at commit / a batch ended by an error leaves nothing", "[outputs]")
{
  TempDir d;
  const std::string a = (d.path / "a.csv").string(), b = (d.path / "b.json").string();
  SECTION("committed: both files in place, no temporary left")
  {
    pfsim::OutputBatch batch;
    pfsim::write_file_atomic(a, "x\n");
    pfsim::write_file_atomic(b, "{}\n");
    CHECK_FALSE(fs::exists(a));  // written to a temporary name until the batch commits
    CHECK_FALSE(fs::exists(b));
    batch.commit();
    CHECK(fs::exists(a));
    CHECK(fs::exists(b));
    CHECK(d.entries() == 2);
  }
  SECTION("an exception after the first file: neither file, no temporary")
  {
    try {
      pfsim::OutputBatch batch;
      pfsim::write_file_atomic(a, "x\n");
      throw std::runtime_error("disk full");
    } catch (const std::runtime_error&) {
    }
    CHECK(d.entries() == 0);
  }
  SECTION("without a batch a file is renamed into place at once")
  {
    pfsim::write_file_atomic(a, "x\n");
    CHECK(fs::exists(a));
    CHECK(d.entries() == 1);
  }
}

TEST_CASE("a signal during the renames of a batch: every output in place, then the signal's death", "[outputs]")
{
  // helper-120: a SIGTERM between two renames left some latency files under their final names and removed the rest.
  // The renames now run with the signals held back: the signal raised after the first rename is delivered after
  // the last one, so the child dies of it with all three files in place and no temporary.
  for (int sig : {SIGTERM, SIGINT}) {
    TempDir d;
    const int status = in_child(
        [](const fs::path& dir, int signal) {
          static int the_signal = 0;
          the_signal = signal;
          pfsim::OutputBatch::after_rename_for_test = [] { std::raise(the_signal); };
          pfsim::OutputBatch batch;
          for (const char* n : {"a.csv", "b.csv", "c.json"})
            pfsim::write_file_atomic((dir / n).string(), "x\n");
          batch.commit();  // the held-back signal ends the process when commit() returns
        },
        d.path, sig);
    INFO("signal " << sig);
    CHECK((WIFSIGNALED(status) && WTERMSIG(status) == sig));
    CHECK(fs::exists(d.path / "a.csv"));
    CHECK(fs::exists(d.path / "b.csv"));
    CHECK(fs::exists(d.path / "c.json"));
    CHECK(d.entries() == 3);
  }
}

TEST_CASE("a run killed while its outputs are written (SIGTERM, SIGINT) leaves no temporary file", "[outputs]")
{
  for (int sig : {SIGTERM, SIGINT}) {
    TempDir d;
    // the child: a batch of two written files and one being written, then the signal
    const int status = in_child(
        [](const fs::path& dir, int signal) {
          pfsim::OutputBatch batch;
          pfsim::write_file_atomic((dir / "a.csv").string(), "x\n");
          pfsim::write_file_atomic((dir / "b.csv").string(), "y\n");
          pfsim::AtomicFile open_one((dir / "c.json").string());
          open_one.out() << "{";
          std::raise(signal);
        },
        d.path, sig);
    INFO("signal " << sig);
    CHECK(WIFSIGNALED(status));  // it still dies of the signal (exit status 128 + sig for the shell)
    CHECK((WIFSIGNALED(status) && WTERMSIG(status) == sig));
    CHECK(d.entries() == 0);
  }
}

namespace {

const std::string kIo500Results = "/work/shared/data/tool-outputs/io500/standard-results";

std::vector<std::string> csv_fields(const std::string& line)
{
  std::vector<std::string> f;
  size_t pos = 0;
  for (;;) {
    const size_t comma = line.find(',', pos);
    f.push_back(line.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    if (comma == std::string::npos)
      return f;
    pos = comma + 1;
  }
}

std::vector<std::string> lines_of(const std::string& text)
{
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

pfsim::PhaseRecord phase_record(const std::string& name, int iteration, uint64_t items, double time_s,
                                std::vector<double> rank_end_s = {})
{
  pfsim::PhaseRecord p;
  p.name = name;
  p.iteration = iteration;
  p.items = items;
  p.start_s = 10;
  p.end_s = 10 + time_s;
  for (double& t : rank_end_s)
    t += 10;
  p.rank_end_s = rank_end_s;
  return p;
}

}  // namespace

TEST_CASE("mdtest --saveRankPerformanceDetails: IO500's mdtest-easy-delete.csv again from its own times", "[outputs]")
{
  // The real file (mdtest 4.1, 2 tasks, -n 2000 -u -F -r: File removal and Tree removal ran): its times put in
  // records, the file pfsim writes from them has the real one's header and its rows field for field (the rates
  // within the 10 digits the times are printed with).
  std::ifstream in(kIo500Results + "/mdtest-easy-delete.csv");
  REQUIRE(in);
  const std::string real((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  pfsim::RunRecords r;
  r.phases.push_back(phase_record("File removal", 0, 4000, 3.0752897263e-02, {1.4757871628e-02, 3.0732870102e-02}));
  r.phases.push_back(phase_record("Tree removal", 0, 1, 4.6893835068e-02));
  pfsim::MdtestRankDetails d;
  d.ranks = 2;
  d.items = 2000;
  const std::string sim = pfsim::mdtest_rank_csv(r, d);
  const auto a = lines_of(sim), b = lines_of(real);
  REQUIRE(a.size() == b.size());
  CHECK(a[0] == b[0]);  // the header, byte for byte
  CHECK(sim.back() == '\n');
  for (size_t i = 1; i < a.size(); ++i) {
    const auto x = csv_fields(a[i]), y = csv_fields(b[i]);
    INFO("row " << i << "\n  pfsim: " << a[i] << "\n  mdtest: " << b[i]);
    REQUIRE(x.size() == y.size());
    for (size_t k = 0; k < x.size(); ++k) {
      if (k < 2 || y[k].empty()) {
        CHECK(x[k] == y[k]);
      } else {
        REQUIRE(x[k].size() == y[k].size());  // %.10e
        CHECK(std::stod(x[k]) == Approx(std::stod(y[k])).epsilon(1e-9));
      }
    }
  }
}

TEST_CASE("mdtest --saveRankPerformanceDetails: every test's columns, iterations, Directory read's inf", "[outputs]")
{
  // mdtest -n 50 -i 2 -u as in tool-outputs/mdtest/mdtest-rankperf.csv: the all row (24 fields) holds the first
  // iteration, then a row per iteration and rank (20 fields: the 9 Directory and File tests); Directory read runs
  // without operations (items / 0 s: inf, as C prints it), Directory rename is not simulated (empty).
  std::ifstream in("/work/shared/data/tool-outputs/mdtest/mdtest-rankperf.csv");
  REQUIRE(in);
  const std::string real((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  pfsim::RunRecords r;
  for (int it = 0; it < 2; ++it) {
    const double k = 1 + it;
    r.phases.push_back(phase_record("Tree creation", it, 1, 1e-4 * k));
    for (const char* name : {"Directory creation", "Directory stat", "Directory removal", "File creation",
                             "File stat", "File read", "File removal"})
      r.phases.push_back(phase_record(name, it, 100, 4e-3 * k, {2e-3 * k, 4e-3 * k}));
    r.phases.push_back(phase_record("Tree removal", it, 1, 5e-4 * k));
  }
  pfsim::MdtestRankDetails d;
  d.ranks = 2;
  d.items = 50;
  d.dir_read = true;
  const auto a = lines_of(pfsim::mdtest_rank_csv(r, d)), b = lines_of(real);
  REQUIRE(a.size() == b.size());
  CHECK(a[0] == b[0]);
  for (size_t i = 1; i < a.size(); ++i) {
    INFO("row " << i << ": " << a[i]);
    CHECK(csv_fields(a[i]).size() == csv_fields(b[i]).size());
    CHECK(csv_fields(a[i])[0] == csv_fields(b[i])[0]);  // all, then ranks 0 and 1 of iteration 0, of iteration 1
  }
  CHECK(a[1].rfind("all,50,2.5000000000e+04,4.0000000000e-03,2.5000000000e+04,4.0000000000e-03,inf,"
                   "0.0000000000e+00,,,2.5000000000e+04,", 0) == 0);  // 100 items / 4 ms
  // a tree is one directory per rank: 2 / 0.1 ms and 2 / 0.5 ms
  CHECK(a[1].substr(a[1].size() - 67) == "2.0000000000e+04,1.0000000000e-04,4.0000000000e+03,5.0000000000e-04");
  CHECK(a[2].rfind("0,,2.5000000000e+04,2.0000000000e-03,2.5000000000e+04,2.0000000000e-03,inf,0.0000000000e+00,,,",
                   0) == 0);
  CHECK(a[5].rfind("1,,6.2500000000e+03,8.0000000000e-03,", 0) == 0);  // iteration 1, rank 1: 50 / 8 ms
}

// helper-129: --latency-dir made its directory (and any missing parents) at write time and kept it whatever became of
// the run. make_output_dir makes the directory alone, and within a batch that ends without commit() removes it again
// with the batch's files, so a failed run leaves no directory it made (as it leaves none of its files).
TEST_CASE("output directory: made with the batch, gone with a failed batch, its parents never made", "[outputs]")
{
  TempDir d;
  const fs::path lat = d.path / "lat";
  // a batch that makes the directory, writes a.csv in it, and ends in an exception before its commit()
  const auto batch_fails_after_a_file = [&lat] {
    try {
      pfsim::OutputBatch batch;
      pfsim::make_output_dir(lat.string());
      pfsim::write_file_atomic((lat / "a.csv").string(), "x\n");
      throw std::runtime_error("disk full");
    } catch (const std::runtime_error&) {
    }
  };
  SECTION("committed: the directory and its file stay")
  {
    pfsim::OutputBatch batch;
    pfsim::make_output_dir(lat.string());
    pfsim::write_file_atomic((lat / "a.csv").string(), "x\n");
    batch.commit();
    CHECK(fs::exists(lat / "a.csv"));
  }
  SECTION("an exception after the directory's first file: neither the file nor the directory")
  {
    batch_fails_after_a_file();
    CHECK(d.entries() == 0);
  }
  SECTION("a directory that existed before stays, with what it held")
  {
    fs::create_directory(lat);
    pfsim::write_file_atomic((lat / "old.csv").string(), "x\n");
    batch_fails_after_a_file();
    CHECK(fs::exists(lat / "old.csv"));
    CHECK_FALSE(fs::exists(lat / "a.csv"));
  }
  SECTION("a missing parent is an error naming the directory, and nothing is made")
  {
    CHECK_THROWS_WITH(pfsim::make_output_dir((d.path / "x" / "lat").string()),
                      Catch::Contains((d.path / "x" / "lat").string()));
    CHECK(d.entries() == 0);
  }
}

TEST_CASE("a run killed while its outputs are written leaves no output directory it made", "[outputs]")
{
  TempDir d;
  const int status = in_child(
      [](const fs::path& dir, int signal) {
        pfsim::OutputBatch batch;
        pfsim::make_output_dir((dir / "lat").string());
        pfsim::write_file_atomic((dir / "lat" / "a.csv").string(), "x\n");
        std::raise(signal);
      },
      d.path, SIGTERM);
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM));
  CHECK(d.entries() == 0);
}
