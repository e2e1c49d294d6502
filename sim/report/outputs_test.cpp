// Output files: a run's outputs land together or not at all (OutputBatch over AtomicFile).
#include "report/outputs.hpp"

#include "test_util.hpp"

#include <catch2/catch.hpp>

#include <csignal>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace fs = std::filesystem;

using pfsim::test::TempDir;

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
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      for (int s : {SIGINT, SIGTERM, SIGHUP})
        std::signal(s, SIG_DFL);
      static int the_signal = 0;
      the_signal = sig;
      pfsim::OutputBatch::after_rename_for_test = [] { std::raise(the_signal); };
      pfsim::OutputBatch batch;
      for (const char* n : {"a.csv", "b.csv", "c.json"})
        pfsim::write_file_atomic((d.path / n).string(), "x\n");
      batch.commit();
      ::_exit(0);  // not reached: the held-back signal ends the process when commit() returns
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
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
    const pid_t pid = ::fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {  // the child: a batch of two written files and one being written, then the signal
      for (int s : {SIGINT, SIGTERM, SIGHUP})  // a plain process's dispositions (Catch installs its own handlers)
        std::signal(s, SIG_DFL);
      pfsim::OutputBatch batch;
      pfsim::write_file_atomic((d.path / "a.csv").string(), "x\n");
      pfsim::write_file_atomic((d.path / "b.csv").string(), "y\n");
      pfsim::AtomicFile open_one((d.path / "c.json").string());
      open_one.out() << "{";
      std::raise(sig);
      ::_exit(0);  // not reached: the signal ends the process
    }
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    INFO("signal " << sig);
    CHECK(WIFSIGNALED(status));  // it still dies of the signal (exit status 128 + sig for the shell)
    CHECK((WIFSIGNALED(status) && WTERMSIG(status) == sig));
    CHECK(d.entries() == 0);
  }
}

// helper-129: --latency-dir made its directory (and any missing parents) at write time and kept it whatever became of
// the run. make_output_dir makes the directory alone, and within a batch that ends without commit() removes it again
// with the batch's files, so a failed run leaves no directory it made (as it leaves none of its files).
TEST_CASE("output directory: made with the batch, gone with a failed batch, its parents never made", "[outputs]")
{
  TempDir d;
  const fs::path lat = d.path / "lat";
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
    try {
      pfsim::OutputBatch batch;
      pfsim::make_output_dir(lat.string());
      pfsim::write_file_atomic((lat / "a.csv").string(), "x\n");
      throw std::runtime_error("disk full");
    } catch (const std::runtime_error&) {
    }
    CHECK(d.entries() == 0);
  }
  SECTION("a directory that existed before stays, with what it held")
  {
    fs::create_directory(lat);
    pfsim::write_file_atomic((lat / "old.csv").string(), "x\n");
    try {
      pfsim::OutputBatch batch;
      pfsim::make_output_dir(lat.string());
      pfsim::write_file_atomic((lat / "a.csv").string(), "x\n");
      throw std::runtime_error("disk full");
    } catch (const std::runtime_error&) {
    }
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
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    for (int s : {SIGINT, SIGTERM, SIGHUP})
      std::signal(s, SIG_DFL);
    pfsim::OutputBatch batch;
    pfsim::make_output_dir((d.path / "lat").string());
    pfsim::write_file_atomic((d.path / "lat" / "a.csv").string(), "x\n");
    std::raise(SIGTERM);
    ::_exit(0);  // not reached
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  CHECK((WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM));
  CHECK(d.entries() == 0);
}
