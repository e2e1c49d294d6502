// Latency file names: replay --check's prediction (latency_file_names, from the workload's operation counts) names
// exactly the files the writers create from a simulated run's samples, in every output format. One simulation per
// TEST_CASE (one SimGrid engine per process).
#include "report/mdreal_report.hpp"

#include "config/platform_config.hpp"
#include "model/simulation.hpp"
#include "report/outputs.hpp"
#include "test_util.hpp"
#include "workload/replay.hpp"
#include "workload/synthetic.hpp"
#include "workload/trace.hpp"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;
using pfsim::ReportFormat;
using pfsim::test::TempDir;

namespace {

const std::string kToolOutputs = "/work/shared/data/tool-outputs";

std::set<std::string> files_in(const fs::path& dir)
{
  std::set<std::string> names;
  for (const auto& e : fs::directory_iterator(dir))
    names.insert(e.path().filename().string());
  return names;
}

// Simulates `w` keeping its samples, writes its latency files in every format (md-workbench's of rank 0 and of every
// rank) each in a directory of its own, and checks that the files there are the predicted ones. Every format for every
// trace, also the pairings pfsim replay refuses (mdtest files of an md-real-io trace): the writers and the prediction
// take any. Returns every
// format's names, prefixed by the directory's name ("mdreal/", "mdworkbench/", "mdworkbench-all/", "mdtest/").
std::set<std::string> check_predicted_names(const pfsim::ReplayWorkload& w, double object_size_B)
{
  auto platform = pfsim::config::load_platform(std::string(PFSIM_SOURCE_DIR) + "/platforms/mistral-lustre02.json");
  pfsim::RunOptions o;
  o.ranks_per_node = 2;
  o.keep_samples = true;
  o.simgrid_args = {"--log=root.thres:warning"};
  auto records = pfsim::run_simulation(platform, w, o);
  const auto phases = pfsim::mdreal_phases(w, records);
  TempDir d;
  struct Case {
    const char* dir;
    ReportFormat format;
    bool all_ranks;
  };
  std::set<std::string> all;
  for (const Case& c : {Case{"mdreal", ReportFormat::MdReal2017, false},
                        Case{"mdworkbench", ReportFormat::MdWorkbench, false},
                        Case{"mdworkbench-all", ReportFormat::MdWorkbench, true},
                        Case{"mdtest", ReportFormat::Mdtest, false}}) {
    const std::string dir = (d.path / c.dir).string();
    const std::string prefix = "lat";
    switch (c.format) {
      case ReportFormat::MdReal2017:
        pfsim::write_mdreal_latency_files(dir, prefix, phases, w.ranks());
        break;
      case ReportFormat::MdWorkbench:
        pfsim::write_mdworkbench_latency_files(dir, prefix, phases, c.all_ranks);
        break;
      case ReportFormat::Mdtest:
        pfsim::write_mdtest_latency_files(dir, prefix, phases, w.ranks(), object_size_B);
        break;
    }
    // Both sides with the directory's name before each file's, for a failure's message.
    std::set<std::string> written, predicted;
    for (const auto& n : files_in(dir))
      written.insert(std::string(c.dir) + "/" + n);
    for (const auto& n : pfsim::latency_file_names(w, c.format, prefix, c.all_ranks))
      predicted.insert(std::string(c.dir) + "/" + n);
    CHECK_FALSE(written.empty());
    CHECK(predicted == written);
    all.insert(written.begin(), written.end());
  }
  return all;
}

pfsim::ReplayWorkload replay_of(const std::string& trace_path, int ranks)
{
  pfsim::ReplayOptions ro;
  ro.ranks = ranks;
  return pfsim::ReplayWorkload(std::make_shared<const pfsim::trace::Trace>(pfsim::trace::load_trace(trace_path)), ro);
}

}  // namespace

TEST_CASE("latency file names: md-real-io 2017 trace replayed at its 2 ranks", "[latency-names]")
{
  const auto w = replay_of(kToolOutputs + "/md-real-io-2017", 2);
  const auto names = check_predicted_names(w, w.trace().params.object_size_B);
  // Each format's naming as its tool writes it.
  CHECK(names.count("mdreal/lat-0-precreate-1.csv"));
  CHECK(names.count("mdreal/lat-1-stat-0.csv"));
  CHECK(names.count("mdworkbench/lat-0.00-1-read.csv"));
  CHECK(names.count("mdworkbench-all/lat-0.00-2-cleanup-all.csv"));
  CHECK(names.count("mdtest/lat-precreate-00001.csv"));
}

TEST_CASE("latency file names: md-real-io 2017 trace replayed at 5 ranks (rank m replays stream m mod 2)",
          "[latency-names]")
{
  const auto w = replay_of(kToolOutputs + "/md-real-io-2017", 5);
  const auto names = check_predicted_names(w, w.trace().params.object_size_B);
  CHECK(names.count("mdreal/lat-1-delete-4.csv"));
  CHECK(names.count("mdtest/lat-cleanup-00004.csv"));
}

TEST_CASE("latency file names: mdtest per-op trace (phase names with spaces) at 3 ranks", "[latency-names]")
{
  const auto w = replay_of(kToolOutputs + "/mdtest/mdtest-perop-File stat-00000.csv", 3);
  const auto names = check_predicted_names(w, w.trace().params.object_size_B);
  CHECK(names.count("mdtest/lat-File creation-00002.csv"));  // mdtest keeps the space
  CHECK(names.count("mdreal/lat-0-File_creation-2.csv"));    // md-real-io and md-workbench replace it
  CHECK(names.count("mdworkbench/lat-0.00-0-File_stat.csv"));
}

TEST_CASE("latency file names: md-workbench -L trace (rank 0 only) at 2 ranks", "[latency-names]")
{
  const auto w = replay_of(kToolOutputs + "/md-workbench-ior/run1-L-process-reports", 2);
  check_predicted_names(w, w.trace().params.object_size_B);
}

TEST_CASE("latency file names: md-workbench -I 0 (benchmark iterations without objects) at 4 ranks",
          "[latency-names]")
{
  pfsim::MdWorkbenchParams p;
  p.ranks = 4;
  p.obj_per_proc = 0;
  p.precreate_per_set = 3;
  p.data_sets = 1;
  p.iterations = 2;
  pfsim::ReplayOptions ro;
  ro.ranks = 4;  // the generated trace is one rank's stream
  const pfsim::ReplayWorkload w(std::make_shared<const pfsim::trace::Trace>(pfsim::mdworkbench_trace(p)), ro);
  const auto names = check_predicted_names(w, 3900);
  CAPTURE(names);
  // md-workbench still writes an empty iteration's four files (header only); md-real-io and mdtest write none.
  for (const char* op : {"stat", "read", "create", "delete"}) {
    CHECK(names.count("mdworkbench/lat-0.00-0-" + std::string(op) + ".csv"));
    CHECK(names.count("mdworkbench-all/lat-0.00-1-" + std::string(op) + "-all.csv"));
    CHECK_FALSE(names.count("mdreal/lat-0-" + std::string(op) + "-0.csv"));
  }
}
