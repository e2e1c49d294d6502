// Data-path trace importers (Darshan DXT text, IOR -O savePerOpDataCSV) on the real files of
// ../shared/data/tool-outputs, their error messages, and the replay through the data path.
#include "workload/io_trace.hpp"

#include "config/platform_config.hpp"
#include "config/reader.hpp"
#include "model/simulation.hpp"
#include "report/io_report.hpp"
#include "test_util.hpp"
#include "workload/io_replay.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <fstream>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>

namespace fs = std::filesystem;
using pfsim::config::ConfigError;
using namespace pfsim::iotrace;
using pfsim::test::TempDir;

namespace {

const std::string kToolOutputs = "/work/shared/data/tool-outputs";
const std::string kDxt = kToolOutputs + "/darshan-dxt";
const std::string kIor = kToolOutputs + "/ior";
const std::string kTraces = std::string(PFSIM_SOURCE_DIR) + "/traces";
constexpr uint64_t kKiB = 1024;

// Every step of a rank, phase after phase.
std::vector<IoStep> steps(const IoTrace& t, int rank)
{
  std::vector<IoStep> v;
  const auto& s = t.streams.at(static_cast<size_t>(rank));
  for (int p = 0; p < static_cast<int>(t.phases.size()); ++p)
    for (uint64_t i = s.begin(p); i < s.end(p); ++i)
      v.push_back(t.step(rank, p, i));
  return v;
}

std::vector<IoStep> of(const IoTrace& t, int rank, IoOp op)
{
  std::vector<IoStep> v;
  for (const auto& s : steps(t, rank))
    if (s.op == op)
      v.push_back(s);
  return v;
}

// The message of the ConfigError that loading throws.
std::string error_of(const std::function<void()>& load)
{
  try {
    load();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

const std::string kHead = "# darshan log version: 3.41\n# nprocs: 2\n"
                          "# DXT, file_id: 42, file_name: /scratch/f\n# DXT, rank: 0, hostname: vm\n"
                          "# Module    Rank  Wt/Rd  Segment          Offset          Length    Start(s)      End(s)\n";

}  // namespace

TEST_CASE("DXT: the IOR run's shared file of 2 ranks x 8 writes and 8 reads of 256 KiB at segment-major offsets", "[iotrace]")
{
  const auto t = load_dxt(kDxt + "/own-runs/ior.dxt.txt");
  CHECK(t.format == "darshan-dxt");
  CHECK(t.ranks == 2);
  REQUIRE(t.files.size() == 1);
  CHECK(t.files[0].name == "/scratch/runs/darshan-own/iorfile");
  CHECK(t.files[0].id == 17238532579117402744ULL);
  CHECK(t.files[0].shared);
  CHECK(t.files[0].extent_B == 4 * 1048576);  // -b 1m -s 2 x 2 ranks
  CHECK(t.op_count() == 32);
  CHECK(t.mpiio_rows == 0);
  REQUIRE(t.phases.size() == 1);
  for (int r = 0; r < 2; ++r) {
    const auto st = steps(t, r);
    REQUIRE(st.size() == 18);  // open, 8 writes, 8 reads, close
    CHECK(st.front().op == (r == 0 ? IoOp::Create : IoOp::Open));  // rank 0 is the file's first writer
    CHECK(st.back().op == IoOp::Close);
    const auto w = of(t, r, IoOp::Write), rd = of(t, r, IoOp::Read);
    REQUIRE(w.size() == 8);
    REQUIRE(rd.size() == 8);
    for (size_t k = 0; k < 8; ++k) {
      // IOR: (segment x ranks + rank) x block + k x transfer
      const uint64_t expect = ((k / 4) * 2 + static_cast<uint64_t>(r)) * 1048576 + (k % 4) * 256 * kKiB;
      CHECK(w[k].offset == expect);
      CHECK(w[k].length == 256 * kKiB);
      CHECK(rd[k].offset == expect);  // the reads come after every write (time order), in the same order
    }
  }
  // Think times: both ranks start at 0.0038 (0 before the open); rank 0's first read starts 0.0074 after its last
  // write ended at 0.0047; 4-decimal times make most gaps 0.
  CHECK(t.step(0, 0, 0).think_s == 0.0f);
  CHECK(t.step(0, 0, 1).think_s == 0.0f);  // the open took the gap
  CHECK(of(t, 0, IoOp::Read)[0].think_s == Approx(0.0074 - 0.0047).margin(1e-7));
  CHECK(of(t, 1, IoOp::Write)[3].think_s == Approx(0.0042 - 0.0041).margin(1e-7));
  CHECK(of(t, 1, IoOp::Write)[1].think_s == 0.0f);
  // The recorded statistics (the times are not kept past the import): 16 writes from 0.0038 to 0.0047, latencies
  // of 0 to 0.2 ms (4-decimal times)
  const auto& wr = t.phases[0].recorded[0];
  CHECK(wr.ops == 16);
  CHECK(wr.bytes == 16 * 256.0 * kKiB);
  CHECK(wr.first_start_s == 0.0038);
  CHECK(wr.last_end_s == 0.0047);
  REQUIRE(wr.latency_s.size() == 16);
  CHECK(std::is_sorted(wr.latency_s.begin(), wr.latency_s.end()));
  CHECK(wr.latency_s.back() == Approx(2e-4).margin(1e-9));
  CHECK(t.writes == 16);
  CHECK(t.bytes_read == 16 * 256.0 * kKiB);
}

TEST_CASE("DXT: md-workbench and mdtest small files are shared only when several ranks used them", "[iotrace]")
{
  const auto m = load_dxt(kDxt + "/own-runs/mdw.dxt.txt");
  CHECK(m.ranks == 2);
  CHECK(m.files.size() == 32);
  CHECK(std::count_if(m.files.begin(), m.files.end(), [](const IoFile& f) { return f.shared; }) == 6);
  CHECK(m.op_count() == 44);
  uint64_t opens = 0, closes = 0, bytes = 0;
  for (int r = 0; r < 2; ++r) {
    opens += of(m, r, IoOp::Open).size() + of(m, r, IoOp::Create).size();
    closes += of(m, r, IoOp::Close).size();
    for (const auto& s : of(m, r, IoOp::Write))
      bytes += s.length;
  }
  CHECK(bytes == 124832);  // 32 objects of 3901 bytes
  CHECK(opens == closes);
  CHECK(opens == 32 + 6);  // one per (file, rank) block
  // Each rank's reads and writes are the dump's rows in recorded time order (ties in the dump's order).
  struct Row {
    double start;
    std::string file;
    IoOp op;
    uint64_t offset, length;
  };
  std::vector<std::vector<Row>> rows(2);
  {
    std::ifstream in(kDxt + "/own-runs/mdw.dxt.txt");
    std::string file;
    for (std::string line; std::getline(in, line);) {
      if (line.rfind("# DXT, file_id:", 0) == 0)
        file = line.substr(line.find("file_name: ") + 11);
      std::istringstream is(line);
      std::string module, op;
      int rank = 0;
      uint64_t segment = 0, offset = 0, length = 0;
      double start = 0;
      if (is >> module >> rank >> op >> segment >> offset >> length >> start && module == "X_POSIX")
        rows.at(static_cast<size_t>(rank))
            .push_back({start, file, op == "write" ? IoOp::Write : IoOp::Read, offset, length});
    }
  }
  for (int r = 0; r < 2; ++r) {
    auto& want = rows[static_cast<size_t>(r)];
    std::stable_sort(want.begin(), want.end(), [](const Row& a, const Row& b) { return a.start < b.start; });
    std::vector<IoStep> got;
    for (const auto& st : steps(m, r))
      if (st.op == IoOp::Write || st.op == IoOp::Read)
        got.push_back(st);
    REQUIRE(got.size() == want.size());
    for (size_t k = 0; k < got.size(); ++k) {
      INFO("rank " << r << ", operation " << k);
      CHECK(m.files[got[k].file].name == want[k].file);
      CHECK(got[k].op == want[k].op);
      CHECK(got[k].offset == want[k].offset);
      CHECK(got[k].length == want[k].length);
    }
  }
  const auto d = load_dxt(kDxt + "/own-runs/mdtest.dxt.txt");
  CHECK(d.files.size() == 10);
  CHECK(std::none_of(d.files.begin(), d.files.end(), [](const IoFile& f) { return f.shared; }));
  CHECK(of(d, 1, IoOp::Write).size() == 5);
  CHECK(of(d, 1, IoOp::Read).size() == 5);
  CHECK(of(d, 1, IoOp::Create).size() == 5);  // each file created by the rank that writes it first
}

TEST_CASE("DXT: the Darshan sample logs / X_MPIIO rows are counted and not replayed twice", "[iotrace]")
{
  const auto s = load_dxt(kDxt + "/from-darshan-repo-sample-logs/sample-dxt-simple.dxt.txt");
  CHECK(s.ranks == 16);  // nprocs 16; only rank 0 traced
  CHECK(s.op_count() == 2);
  CHECK(std::any_of(s.warnings.begin(), s.warnings.end(),
                    [](const std::string& w) { return w.find("15 of 16 ranks have no X_POSIX row") == 0; }));  // the MPI-IO write of 4000 bytes is also the POSIX one
  CHECK(s.mpiio_rows == 1);
  CHECK(of(s, 0, IoOp::Write).at(1).length == 4000);
  const auto big = load_dxt(kDxt + "/from-darshan-repo-sample-logs/dxt.dxt.txt");
  CHECK(big.ranks == 1);
  CHECK(big.files.size() == 169);
  CHECK(of(big, 0, IoOp::Write).size() == 1497);
  CHECK(of(big, 0, IoOp::Read).size() == 6126);
  uint64_t rb = 0;
  for (const auto& x : of(big, 0, IoOp::Read))
    rb += x.length;
  CHECK(rb == 22517726);
  for (const float think : big.streams[0].think_s)
    CHECK(think >= 0.0f);
}

TEST_CASE("IOR per-op files: the transfer size from tp x runtime and the IOR layout from the options", "[iotrace]")
{
  IorPerOpOptions o;
  o.file_per_proc = true;
  o.block_B = 1048576;  // the run's -b 1m -t 256k -s 2 -F
  // The files alone, without the stdout beside them (which states all of it: helper-112)
  TempDir alone;
  for (const char* f : {"ior-write-perop-0-00000.csv", "ior-write-perop-0-00001.csv"})
    fs::copy_file(kIor + "/" + f, alone.path / f);
  const auto t = load_ior_perop((alone.path / "ior-write-perop-0-00001.csv").string(), o);
  CHECK(t.notes.empty());
  CHECK(t.format == "ior-perop");
  CHECK(t.ranks == 2);
  REQUIRE(t.ior);
  CHECK(t.ior->transfer_B == 256 * kKiB);
  CHECK(t.ior->segments == 2);
  REQUIRE(t.phases.size() == 1);
  CHECK(t.phases[0].name == "write");
  REQUIRE(t.files.size() == 2);  // one per rank (-F), private
  CHECK_FALSE(t.files[1].shared);
  const auto w = of(t, 1, IoOp::Write);
  REQUIRE(w.size() == 8);
  for (size_t k = 0; k < 8; ++k)
    CHECK(w[k].offset == (k / 4) * 1048576 + (k % 4) * 256 * kKiB);  // its own file: segment x block + ...
  CHECK(w[0].file == 1);
  // rank 1's first transfer starts 2.14576721e-06 s after the phase start: the open before it takes that gap
  CHECK(t.step(1, 0, 0).op == IoOp::Create);
  CHECK(t.step(1, 0, 0).think_s == Approx(2.14576721e-06));
  CHECK(w[1].think_s == Approx(1.02043152e-04 - (2.14576721e-06 + 9.98973846e-05)).margin(1e-9));

  // The -w -r run's files (the read overwrote the write's): 2 repetitions, one shared file, read as told
  IorPerOpOptions r;
  r.write = false;
  r.block_B = 1048576;
  const auto s = load_ior_perop(kIor + "/ior-perop-0-00000.csv", r);
  REQUIRE(s.phases.size() == 2);
  CHECK(s.phases[1].iteration == 1);
  CHECK(s.phases[1].name == "read");
  REQUIRE(s.files.size() == 1);
  CHECK(s.files[0].shared);
  CHECK(s.inputs.size() == 5);  // the 4 files and the stdout
  for (int p = 0; p < 2; ++p)
    for (int rank = 0; rank < 2; ++rank) {
      const auto& st = s.streams[static_cast<size_t>(rank)];
      CHECK(st.end(p) - st.begin(p) == 10);  // open, 8 reads, close
      CHECK(s.step(rank, p, st.begin(p)).op == IoOp::Open);
      CHECK(s.step(rank, p, st.begin(p) + 6).offset == (1 * 2 + static_cast<uint64_t>(rank)) * 1048576 + 256 * kKiB);
    }
  // Without options, the run's stdout beside the files (ior-perop-stdout.txt: -w -r -b 1m -t 256k -s 2, 2 tasks)
  // states them: the reads (they overwrote the write's files), one shared file, block 1 MiB, 2 segments.
  const auto own = load_ior_perop(kIor + "/ior-perop-0-00000.csv", IorPerOpOptions{});
  CHECK(own.phases[0].name == "read");
  CHECK(own.ior->block_B == 1048576);
  CHECK(own.ior->segments == 2);
  CHECK_FALSE(own.ior->file_per_proc);
  CHECK(own.inputs.front() == kIor + "/ior-perop-stdout.txt");
  REQUIRE(own.notes.size() == 1);
  CHECK_THAT(own.notes[0], Catch::Contains("ior-perop-stdout.txt: replayed as reads, one shared file, block 1048576"));
  // The file-per-process read run's stdout (-r -F) and write run's (-w -F, -v -v -v) in traces/ior-perop
  const auto rd = load_ior_perop(kTraces + "/ior-perop/ior-read-perop-0-00001.csv", IorPerOpOptions{});
  CHECK((rd.phases[0].name == "read" && rd.ior->file_per_proc && rd.ior->block_B == 1048576));
  const auto wr = load_ior_perop(kTraces + "/ior-perop/ior-write-perop-0-00001.csv", IorPerOpOptions{});
  CHECK((wr.phases[0].name == "write" && wr.ior->file_per_proc && wr.ior->segments == 2));
  // Without a stdout: writes, and one segment of all 8 transfers (block 2 MiB) unless --ior-block
  TempDir d;
  for (const char* f : {"ior-perop-0-00000.csv", "ior-perop-0-00001.csv"})
    fs::copy_file(kIor + "/" + f, d.path / f);
  const auto one = load_ior_perop((d.path / "ior-perop-0-00000.csv").string(), IorPerOpOptions{});
  CHECK(one.ior->block_B == 2 * 1048576);
  CHECK(one.ior->segments == 1);
  CHECK(of(one, 1, IoOp::Write)[0].offset == 2 * 1048576);
  CHECK(one.notes.empty());
  CHECK_THAT(one.warnings.at(0), Catch::Contains("no IOR stdout beside them names savePerOpDataCSV=ior-perop"));
}

TEST_CASE("IOR per-op: the run's stdout states the rank files and contradicts no option", "[iotrace]")
{
  // helper-106: a read run was replayed as writes to one shared file, and a missing last rank went unnoticed.
  TempDir d;
  const std::string dir = kTraces + "/ior-perop/";
  for (const char* f : {"ior-read-perop-0-00000.csv", "ior-read-perop-stdout.txt"})
    fs::copy_file(dir + f, d.path / f);
  const std::string f0 = (d.path / "ior-read-perop-0-00000.csv").string();
  CHECK_THAT(error_of([&] { load_ior_perop(f0, IorPerOpOptions{}); }),
             Catch::StartsWith((d.path / "ior-read-perop-0-00001.csv").string() + ": missing (" +
                               (d.path / "ior-read-perop-stdout.txt").string() + ":21 states 2 tasks; files of ranks "
                               "0..0 found)"));
  fs::copy_file(dir + "ior-read-perop-0-00001.csv", d.path / "ior-read-perop-0-00001.csv");
  const std::string at = (d.path / "ior-read-perop-stdout.txt").string() + ":3: ";
  IorPerOpOptions w;
  w.write = true;
  CHECK_THAT(error_of([&] { load_ior_perop(f0, w); }),
             Catch::StartsWith("option --ior-op write: " + at + "the run's command line") &&
                 Catch::Contains("makes its per-op files reads"));
  IorPerOpOptions b;
  b.block_B = 2097152;
  CHECK_THAT(error_of([&] { load_ior_perop(f0, b); }),
             Catch::StartsWith("option --ior-block 2097152: " + at + "the run's block size is 1048576 bytes"));
  IorPerOpOptions same;  // the options it states, given again: accepted
  same.write = false;
  same.file_per_proc = true;
  same.block_B = 1048576;
  CHECK(load_ior_perop(f0, same).ior->segments == 2);
  // A stdout of another run (another savePerOpDataCSV) is not this run's; -F refused against a shared run's stdout
  std::string text;
  {
    std::ifstream in(d.path / "ior-read-perop-stdout.txt");
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  auto edit = [&](const std::string& from, const std::string& to) {
    std::string x = text;
    x.replace(x.find(from), from.size(), to);
    d.write("ior-read-perop-stdout.txt", x);
  };
  edit("savePerOpDataCSV=ior-read-perop", "savePerOpDataCSV=other");
  CHECK(load_ior_perop(f0, IorPerOpOptions{}).notes.empty());
  edit("-r -C -F", "-r -C");
  fs::rename(d.path / "ior-read-perop-stdout.txt", d.path / "run.out");
  {
    std::ifstream in(d.path / "run.out");
    std::string x((std::istreambuf_iterator<char>(in)), {});
    x.replace(x.find("file-per-process"), 16, "single-shared-file");
    d.write("run.out", x);
  }
  IorPerOpOptions f;
  f.file_per_proc = true;
  CHECK_THAT(error_of([&] { load_ior_perop(f0, f); }),
             Catch::StartsWith("option --ior-file-per-process: " + (d.path / "run.out").string() +
                               ":3: the run wrote one shared file (no -F)"));
  CHECK_FALSE(load_ior_perop(f0, IorPerOpOptions{}).ior->file_per_proc);
  fs::remove(d.path / "run.out");

  // helper-112: the accesses IOR runs after -w rewrite the files (-W's check, -R's check-read); an -O list; the
  // Options' exact blocksize when -b is not given; a job log of several runs (the last naming the prefix wrote the
  // files, its own Options apply); a -t the files contradict.
  auto stdout_with = [&](const std::string& from, const std::string& to) {
    std::string x = text;
    x.replace(x.find(from), from.size(), to);
    return x;
  };
  auto loaded = [&](const std::string& stdout_text) {
    d.write("ior-read-perop-stdout.txt", stdout_text);
    return load_ior_perop(f0, IorPerOpOptions{});
  };
  CHECK(loaded(stdout_with("-r -C -F", "-w -C -F")).phases[0].name == "write");
  CHECK(loaded(stdout_with("-r -C -F", "-w -W -C -F")).phases[0].name == "read");
  CHECK(loaded(stdout_with("-r -C -F", "-w -R -C -F")).phases[0].name == "read");
  CHECK(loaded(stdout_with("savePerOpDataCSV=ior-read-perop", "savePerOpDataCSV=ior-read-perop,summaryFormat=JSON"))
            .notes.size() == 1);
  const auto opt_block = loaded(stdout_with("-b 1m ", ""));
  CHECK((opt_block.ior->block_B == 1048576 && opt_block.ior->segments == 2));  // "blocksize : 1 MiB"
  // A log of a shared-file write run naming the prefix, then the -r -F run: the second's files, access and Options
  std::string shared_write = stdout_with("-r -C -F", "-w -C");
  shared_write.replace(shared_write.find("file-per-process"), 16, "single-shared-file");
  REQUIRE(shared_write.find("access              : single-shared-file\n") != std::string::npos);
  const auto log = loaded(shared_write + text);
  CHECK((log.phases[0].name == "read" && log.ior->file_per_proc));
  const auto log2 = loaded(text + shared_write);
  CHECK((log2.phases[0].name == "write" && !log2.ior->file_per_proc));
  CHECK(log2.notes.at(0).find("stdout.txt") != std::string::npos);
  CHECK_THAT(error_of([&] { loaded(stdout_with("-t 256k", "-t 128k")); }),
             Catch::Contains("stdout.txt:3: the run's transfer size 131072 bytes (-t or xfersize), but the per-op "
                             "files' transfers are 262144 bytes"));
  // helper-116: the segments and repetitions it states against the files; a command line against its own Options
  auto both = [&](const std::string& a, const std::string& b, const std::string& c, const std::string& d) {
    std::string x = stdout_with(a, b);
    x.replace(x.find(c), c.size(), d);
    return x;
  };
  const auto seg_cmd = loaded(stdout_with("-s 2", "-s 1"));  // Options still say 2 segments: used, and said
  CHECK(seg_cmd.ior->segments == 2);
  CHECK(std::any_of(seg_cmd.warnings.begin(), seg_cmd.warnings.end(), [](const std::string& w) {
    return w.find("disagree on the segments (-s 1, segments 2)") != std::string::npos;
  }));
  CHECK_THAT(error_of([&] { loaded(both("-s 2", "-s 1", "segments            : 2", "segments            : 1")); }),
             Catch::Contains("stdout.txt:3: the run's 1 segment (-s or segments) of 1048576 bytes hold 4 transfers of "
                             "262144 bytes per rank, but a rank's per-op file holds 8"));
  // Fewer: a stonewalled run (IOR lists stonewallingTime in its Options for -D), else an error (helper-136)
  const std::string four = both("-s 2", "-s 4", "segments            : 2", "segments            : 4");
  const std::string deadline = "aggregate filesize  : 4 MiB\n";
  std::string four_D = four;
  four_D.replace(four_D.find(deadline), deadline.size(), deadline + "stonewallingTime    : 5\nstoneWallingWearOut : 0\n");
  const auto stonewalled = loaded(four_D);
  CHECK_THAT(stonewalled.warnings.back(), Catch::Contains("the per-op files hold at most 8 (a stonewalled run"));
  CHECK_THAT(error_of([&] { loaded(four); }),
             Catch::StartsWith(f0 + ":9: expected 16 transfers (") &&
                 Catch::Contains("stdout.txt:10 lists the run's Options without stonewallingTime") &&
                 Catch::EndsWith("found 8 (a file cut at a row boundary, or rows deleted?)"));
  CHECK_THAT(error_of([&] { loaded(both("-i 1", "-i 2", "repetitions         : 1", "repetitions         : 2")); }),
             Catch::Contains("ior-read-perop-1-00000.csv: missing (") &&
                 Catch::Contains("stdout.txt:3 states 2 repetitions (-i); files of repetitions 0..0 found)"));
  const auto mixed = loaded(stdout_with("-r -C -F", "-r -C"));  // Options still say file-per-process
  CHECK(std::any_of(mixed.warnings.begin(), mixed.warnings.end(), [](const std::string& w) {
    return w.find("disagree on the file mode (no -F, access file-per-process)") != std::string::npos;
  }));
  CHECK(mixed.ior->file_per_proc);  // the Options' access: what IOR ran
}

TEST_CASE("IOR per-op: a rank file short of the stdout's transfers is an error when the stdout rules out a stonewall",
          "[iotrace]")
{
  // helper-136: a rank's file of its header line only, or with a row deleted, was a warning ("a stonewalled run (IOR
  // -D), or a file cut at a row boundary") beside a stdout of deadlineForStonewall: 0.
  TempDir d;
  for (const char* f : {"ior-write-perop-0-00000.csv", "ior-write-perop-0-00001.csv", "ior-write-perop-vvv-stdout.txt"})
    fs::copy_file(kIor + "/" + f, d.path / f);
  const std::string f0 = (d.path / "ior-write-perop-0-00000.csv").string();
  const std::string f1 = (d.path / "ior-write-perop-0-00001.csv").string();
  const std::string sout = (d.path / "ior-write-perop-vvv-stdout.txt").string();
  const std::string rows = d.read("ior-write-perop-0-00001.csv"), text = d.read("ior-write-perop-vvv-stdout.txt");
  const std::string header = "time,runtime,tp\n";
  CHECK_NOTHROW(load_ior_perop(f0, IorPerOpOptions{}));
  d.write("ior-write-perop-0-00001.csv", header);
  CHECK_THAT(error_of([&] { load_ior_perop(f0, IorPerOpOptions{}); }),
             Catch::StartsWith(f1 + ":1: expected 8 transfers (" + sout + ":3: the run's 2 segments (-s or segments) "
                               "of 1048576 bytes, transfers of 262144 bytes; no stonewall: " + sout +
                               ":18 states deadlineForStonewall: 0), found 0 (the file holds its header line only)"));
  d.write("ior-write-perop-0-00001.csv", rows.substr(0, rows.rfind('\n', rows.size() - 2) + 1));  // the last row deleted
  CHECK_THAT(error_of([&] { load_ior_perop(f0, IorPerOpOptions{}); }),
             Catch::StartsWith(f1 + ":8: expected 8 transfers (") && Catch::Contains("found 7 (a file cut"));
  // Without -vvv's Parameters, the Options without stonewallingTime say it
  std::string no_params = text;
  const auto dl = no_params.find("deadlineForStonewall: 0\n");
  REQUIRE(dl != std::string::npos);
  d.write("ior-write-perop-vvv-stdout.txt", no_params.erase(dl, 24));
  CHECK_THAT(error_of([&] { load_ior_perop(f0, IorPerOpOptions{}); }),
             Catch::Contains("no stonewall: " + sout + ":56 lists the run's Options without stonewallingTime"));
  // Without an exact block size the other ranks' count is expected
  std::string no_block = no_params;
  no_block.replace(no_block.find("-b 1m "), 6, "");
  const std::string exact = "blocksize           : 1 MiB";
  REQUIRE(no_block.find(exact) != std::string::npos);
  no_block.replace(no_block.find(exact), exact.size(), "blocksize           : 1.00 MiB");
  d.write("ior-write-perop-vvv-stdout.txt", no_block);
  CHECK_THAT(error_of([&] { load_ior_perop(f0, IorPerOpOptions{}); }),
             Catch::StartsWith(f1 + ":8: expected 8 transfers, as other ranks' files hold (no stonewall: " + sout +
                               ":56 lists"));
  // A stonewall possible (-D 5: deadlineForStonewall 5, stonewallingTime in the Options) or no stdout: a warning
  std::string with_d = text;
  with_d.replace(with_d.find("deadlineForStonewall: 0"), 23, "deadlineForStonewall: 5");
  with_d.replace(with_d.find("-F -b 1m"), 8, "-F -D 5 -b 1m");
  d.write("ior-write-perop-vvv-stdout.txt", with_d);
  auto warned = [&] {
    const auto w = load_ior_perop(f0, IorPerOpOptions{}).warnings;
    return std::any_of(w.begin(), w.end(), [](const std::string& x) {
      return x.find("ranks have different transfer counts (7 to 8") != std::string::npos;
    });
  };
  CHECK(warned());
  fs::remove(d.path / "ior-write-perop-vvv-stdout.txt");
  CHECK(warned());
  // A transfer count the command line gives (-O stoneWallingWearOutIterations=N, or a read's status file: IO500's
  // reads) stops every rank at the same count without a stonewall (helper-143: refused as a cut file)
  std::string limited = text;
  REQUIRE(limited.find("-F -b 1m") != std::string::npos);
  limited.replace(limited.find("-F -b 1m"), 8, "-F -O stoneWallingWearOutIterations=7 -b 1m");
  d.write("ior-write-perop-vvv-stdout.txt", limited);
  const std::string rows0 = d.read("ior-write-perop-0-00000.csv");
  d.write("ior-write-perop-0-00000.csv", rows0.substr(0, rows0.rfind('\n', rows0.size() - 2) + 1));
  CHECK_NOTHROW(load_ior_perop(f0, IorPerOpOptions{}));
  // ... the same count for every rank: one rank short of the others is still a cut file
  d.write("ior-write-perop-0-00001.csv", rows.substr(0, rows.rfind('\n', rows.rfind('\n', rows.size() - 2) - 1) + 1));
  CHECK_THAT(error_of([&] { load_ior_perop(f0, IorPerOpOptions{}); }), Catch::Contains("found 6"));
}

TEST_CASE("IOR per-op: rows of a rank that overlap in time are said as md-workbench's are", "[iotrace]")
{
  // helper-136: IOR runs a rank's transfers one after another; a row starting 4.9 ms before the previous one ended
  // (an edited or merged file) passed without a word, where the md-real-io importer warns.
  TempDir d;
  for (const char* f : {"ior-write-perop-0-00000.csv", "ior-write-perop-0-00001.csv", "ior-write-perop-vvv-stdout.txt"})
    fs::copy_file(kIor + "/" + f, d.path / f);
  const std::string f0 = (d.path / "ior-write-perop-0-00000.csv").string();
  for (const auto& w : load_ior_perop(f0, IorPerOpOptions{}).warnings)
    CHECK_THAT(w, !Catch::Contains("inconsistent"));
  std::string rows = d.read("ior-write-perop-0-00001.csv");
  const std::string second = "1.02043152e-04,7.20024109e-05,3.640767e+09";
  REQUIRE(rows.find(second) != std::string::npos);
  rows.replace(rows.find(second), second.size(), "1.02043152e-04,5.0e-03,5.24288e+07");  // 262144 bytes in 5 ms
  d.write("ior-write-perop-0-00001.csv", rows);
  const auto w = load_ior_perop(f0, IorPerOpOptions{}).warnings;
  CHECK(std::count_if(w.begin(), w.end(), [](const std::string& x) { return x.find("inconsistent") != std::string::npos; }) == 1);
  CHECK_THAT(w.back(), Catch::StartsWith(d.path.string() + ": inconsistent timings, replayed anyway: 6 operations "
                                         "start more than 1 ms before the previous operation of their rank ended "
                                         "(largest overlap 4.928 ms at ior-write-perop-0-00001.csv:4, first at "
                                         "ior-write-perop-0-00001.csv:4); the replay gives them no think time"));
}

// load_dxt's error for a DXT dump of kHead and `row`, written as b.dxt.txt in `d`.
std::string dxt_row_error(TempDir& d, const std::string& row)
{
  const std::string f = d.write("b.dxt.txt", kHead + row + "\n");
  return error_of([&] { load_dxt(f); });
}

TEST_CASE("DXT: an offset or length of more digits than 64 bits hold is out of range, not 'not an integer'", "[iotrace]")
{
  // helper-136: a 24-digit offset was "offset: expected an integer"
  TempDir d;
  auto err = [&d](const std::string& row) { return dxt_row_error(d, row); };
  const std::string where = (d.path / "b.dxt.txt").string() + ":6: ";
  CHECK_THAT(err(" X_POSIX 0 write 0 123456789012345678901234 1 0.1 0.2"),
             Catch::StartsWith(where + "offset \"123456789012345678901234\": out of range (expected a byte offset "
                               "from 0 to 1e15"));
  CHECK_THAT(err(" X_POSIX 0 write 0 0 123456789012345678901234 0.1 0.2"),
             Catch::StartsWith(where + "length \"123456789012345678901234\": out of range"));
  CHECK_THAT(err(" X_POSIX 0 write 0 1x 1 0.1 0.2"), Catch::StartsWith(where + "offset: expected an integer, got \"1x\""));
}

TEST_CASE("DXT errors: one message naming the file and line and what was expected", "[iotrace]")
{
  TempDir d;
  auto err = [&](const std::string& row) {
    const std::string f = d.write("bad.dxt.txt", kHead + " X_POSIX 0 write 0 0 100 0.1000 0.2000 1\n" + row + "\n");
    return error_of([&] { load_dxt(f); });
  };
  const std::string where = (d.path / "bad.dxt.txt").string() + ":7: ";
  CHECK_THAT(err(" X_POSIX 0 write 1 100 100 0.2000"), Catch::StartsWith(where + "truncated row: 7 columns"));
  CHECK_THAT(err(" X_POSIX 0 write 1 1x0 100 0.2000 0.3000"), Catch::StartsWith(where + "offset: expected an integer"));
  CHECK_THAT(err(" X_POSIX 0 write 1 100 -5 0.2000 0.3000"), Catch::StartsWith(where + "negative length -5"));
  CHECK_THAT(err(" X_POSIX 0 write 1 100 5 0.3000 0.2000"), Catch::StartsWith(where + "end 0.2000 before start 0.3000"));
  CHECK_THAT(err(" X_POSIX 0 write 1 100 5 0.3000 abc"), Catch::StartsWith(where + "end: expected a time"));
  CHECK_THAT(err(" X_POSIX 0 write 1 100 5 0.3000 1e400"), Catch::EndsWith("got \"1e400\" (out of a double's range)"));
  CHECK_THAT(err(" X_POSIX 0 write 1 100 5 -9.6e-04 0.3000"),
             Catch::EndsWith("start: expected a time in seconds >= 0, got \"-9.6e-04\""));
  CHECK_THAT(err(" X_POSIX 0 append 1 100 5 0.3000 0.4"), Catch::StartsWith(where + "expected write or read"));
  CHECK_THAT(err(" X_POSIX 1 write 1 100 5 0.3000 0.4"), Catch::StartsWith(where + "rank 1 in the block of rank 0"));
  CHECK_THAT(err("garbage here"), Catch::StartsWith(where + "expected a DXT row"));
  const std::string none = d.write("none.dxt.txt", "# darshan log version: 3.41\n# nprocs: 1\n\n");
  CHECK_THAT(error_of([&] { load_dxt(none); }), Catch::StartsWith(none + ":3: no X_POSIX row"));
  const std::string outside = d.write("outside.dxt.txt", "# nprocs: 1\n X_POSIX 0 write 0 0 1 0.1 0.2\n");
  CHECK_THAT(error_of([&] { load_dxt(outside); }), Catch::Contains(":2: X_POSIX row outside a block"));
  CHECK_THAT(error_of([&] { load_dxt((d.path / "absent.dxt.txt").string()); }), Catch::EndsWith("no such file"));
}

TEST_CASE("DXT cut short: a block with fewer rows than its write_count and read_count header is refused", "[iotrace]")
{
  // The real dump cut at a line boundary inside rank 0's reads: no row is malformed, the header's counts say what is
  // missing (8 writes and 8 reads declared at line 38).
  TempDir d;
  std::ifstream in(kDxt + "/own-runs/ior.dxt.txt");
  std::string text, line;
  for (int i = 0; i < 50 && std::getline(in, line); ++i)
    text += line + "\n";
  const std::string cut = d.write("cut.dxt.txt", text);
  CHECK_THAT(error_of([&] { load_dxt(cut); }),
             Catch::StartsWith(cut + ":38: the block of file \"/scratch/runs/darshan-own/iorfile\", rank 0 declares 8 "
                                     "writes and 8 reads, but 8 and 2 rows follow"));
  const std::string bad = d.write("count.dxt.txt", kHead + "# DXT, write_count: x, read_count: 1\n"
                                                           " X_POSIX 0 write 0 0 100 0.1000 0.2000\n");
  CHECK_THAT(error_of([&] { load_dxt(bad); }), Catch::Contains(":6: expected \"# DXT, write_count: W, read_count: R\""));
  CHECK(load_dxt(kDxt + "/own-runs/ior.dxt.txt").op_count() == 32);  // the whole dump: every block complete
  // ... and one with more rows than declared (helper-106: accepted, 33 operations): rank 0's last write twice
  std::ifstream whole(kDxt + "/own-runs/ior.dxt.txt");
  std::string dup;
  for (int i = 1; std::getline(whole, line); ++i)
    dup += line + "\n" + (i == 48 ? line + "\n" : "");
  const std::string extra = d.write("extra.dxt.txt", dup);
  CHECK_THAT(error_of([&] { load_dxt(extra); }),
             Catch::StartsWith(extra + ":49: a write row beyond the 8 writes the block of file "
                                       "\"/scratch/runs/darshan-own/iorfile\", rank 0 declares (line 38)"));
  // Cut inside a row (the real dump's first 1500 bytes end in "... 0.0038 0.00", rank 0's fourth write's end time):
  // the last line has no newline, which is what is said (not "end 0.00 before start 0.0038").
  const std::string mid = d.write("mid.dxt.txt", text.substr(0, 1500));
  CHECK_THAT(error_of([&] { load_dxt(mid); }), Catch::StartsWith(mid + ":41: truncated file: the last line has no end of "
                                                                      "line"));
}

TEST_CASE("DXT duplicates: a second dump header or a (file, rank, module) block seen before is refused naming both lines",
          "[iotrace]")
{
  // darshan-dxt-parser writes one header per dump and each (file_id, rank) block once per module: the real dump twice
  // (cat a a) would replay 64 operations for 32.
  TempDir d;
  std::ifstream in(kDxt + "/own-runs/ior.dxt.txt");
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);)
    lines.push_back(line + "\n");
  REQUIRE(lines.size() == 79);
  auto join = [&](size_t from, size_t to) {  // lines [from, to], 1-based
    std::string s;
    for (size_t i = from; i <= to; ++i)
      s += lines.at(i - 1);
    return s;
  };
  const std::string twice = d.write("twice.dxt.txt", join(1, 79) + join(1, 79));
  CHECK_THAT(error_of([&] { load_dxt(twice); }),
             Catch::StartsWith(twice + ":80: a second dump header (\"# darshan log version\"), the first at line 1"));
  // Rank 0's block (lines 35-56) again after rank 1's, in the same DXT_POSIX section: named at its own line.
  const std::string again = d.write("again.dxt.txt", join(1, 79) + "\n" + join(35, 56));
  CHECK_THAT(error_of([&] { load_dxt(again); }),
             Catch::StartsWith(again + ":81: a second X_POSIX block of file_id 17238532579117402744 "
                                       "(\"/scratch/runs/darshan-own/iorfile\"), rank 0, the first at line 35"));
  // Without section headers the block's first row gives its module: the same block twice is still refused ...
  const std::string row = " X_POSIX 0 write 0 0 100 0.1000 0.2000\n";
  const std::string bare = d.write("bare.dxt.txt", kHead + row + kHead.substr(kHead.find("# DXT, file_id")) + row);
  CHECK_THAT(error_of([&] { load_dxt(bare); }), Catch::StartsWith(bare + ":7: a second X_POSIX block of file_id 42"));
  // ... and the same file and rank in DXT_POSIX and DXT_MPIIO sections are two blocks (the Darshan sample log).
  CHECK(load_dxt(kDxt + "/from-darshan-repo-sample-logs/sample-dxt-simple.dxt.txt").mpiio_rows == 1);
}

TEST_CASE("DXT: a line holding only an OST list is an error naming its line (it crashed the importer)", "[iotrace]")
{
  // darshan-dxt-parser ends a row with the OSTs it touched ("[  3]"); a line with the list alone (a row cut in two)
  // left no field once the list was cut off, and the importer read the first of none (a segfault, helper-74).
  TempDir d;
  std::ifstream in(kDxt + "/own-runs/ior.dxt.txt");
  std::string text;
  size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    text += line + "\n";
    if (++n == 41)
      text += "   [  3]\n";
  }
  const std::string f = d.write("ost-alone.dxt.txt", text);
  CHECK_THAT(error_of([&] { load_dxt(f); }), Catch::StartsWith(f + ":42: expected a DXT row") &&
                                                  Catch::Contains("an OST list"));
}

TEST_CASE("DXT: an X_MPIIO row inside a DXT_POSIX block is malformed, an error as a missing row is", "[iotrace]")
{
  // The real dump with rank 0's third write (line 43) made an X_MPIIO row: 8 writes declared, 7 X_POSIX ones follow.
  // It was counted as one of the 8 and only warned about; the row deleted was the "cut short" error.
  TempDir d;
  std::ifstream in(kDxt + "/own-runs/ior.dxt.txt");
  std::string text, without;
  size_t n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (n != 43)
      without += line + "\n";
    if (n == 43)
      line.replace(line.find("X_POSIX"), 7, "X_MPIIO");
    text += line + "\n";
  }
  const std::string mpiio = d.write("mpiio.dxt.txt", text);
  CHECK_THAT(error_of([&] { load_dxt(mpiio); }),
             Catch::StartsWith(mpiio + ":43: X_MPIIO row in the X_POSIX block of file "
                                       "\"/scratch/runs/darshan-own/iorfile\", rank 0 (line 35): expected X_POSIX rows only"));
  const std::string cut = d.write("cut.dxt.txt", without);
  CHECK_THAT(error_of([&] { load_dxt(cut); }), Catch::Contains("a dump cut short?"));
  // Without section headers, the block's first row sets its module.
  const std::string mixed = d.write("mixed.dxt.txt", kHead + " X_POSIX 0 write 0 0 100 0.1000 0.2000\n"
                                                             " X_MPIIO 0 write 0 0 100 0.1000 0.2000\n");
  CHECK_THAT(error_of([&] { load_dxt(mixed); }), Catch::StartsWith(mixed + ":7: X_MPIIO row in the X_POSIX block"));
}

TEST_CASE("IOR per-op errors: a rank gap / a wrong header / a malformed row", "[iotrace]")
{
  TempDir d;
  const std::string row = "0.0,1.0e-04,2.62144e+09\n";
  d.write("p-0-00000.csv", "time,runtime,tp\n" + row);
  d.write("p-0-00002.csv", "time,runtime,tp\n" + row);
  CHECK_THAT(error_of([&] { load_ior_perop((d.path / "p-0-00000.csv").string(), {}); }),
             Catch::StartsWith((d.path / "p-0-00001.csv").string() + ": missing (expected one file per repetition 0..0 and rank 0..2"));
  d.write("p-0-00001.csv", "time,runtime\n" + row);
  CHECK_THAT(error_of([&] { load_ior_perop((d.path / "p-0-00000.csv").string(), {}); }),
             Catch::StartsWith((d.path / "p-0-00001.csv").string() + ":1: expected the header time,runtime,tp"));
  // White space around a column's name is named as such, as by the metadata trace importers.
  d.write("p-0-00001.csv", "time,runtime,tp \n" + row);
  CHECK_THAT(error_of([&] { load_ior_perop((d.path / "p-0-00000.csv").string(), {}); }),
             Catch::StartsWith((d.path / "p-0-00001.csv").string() + ":1: unexpected white space in column \"tp \""));
  d.write("p-0-00001.csv", "time,runtime,tp\n" + row + "0.1,2e-4\n");
  CHECK_THAT(error_of([&] { load_ior_perop((d.path / "p-0-00000.csv").string(), {}); }),
             Catch::StartsWith((d.path / "p-0-00001.csv").string() + ":3: 2 columns: expected 3"));
  d.write("p-0-00001.csv", "time,runtime,tp\n" + row + "0.1,-2e-4,5\n");
  CHECK_THAT(error_of([&] { load_ior_perop((d.path / "p-0-00000.csv").string(), {}); }),
             Catch::StartsWith((d.path / "p-0-00001.csv").string() + ":3: runtime: expected a finite number >= 0"));
  d.write("p-0-00001.csv", "time,runtime,tp\n" + row + "-9.6e-04,2e-4,5\n");  // a number, refused for its sign only
  CHECK_THAT(error_of([&] { load_ior_perop((d.path / "p-0-00000.csv").string(), {}); }),
             Catch::EndsWith(":3: time: expected a finite number >= 0, got \"-9.6e-04\""));
  // A file cut inside its last row: the row may parse ("2.893452" of "2.893452e+09"), the missing newline says it was cut.
  d.write("p-0-00001.csv", "time,runtime,tp\n" + row + "0.1,1.0e-04,2.62144");
  CHECK_THAT(error_of([&] { load_ior_perop((d.path / "p-0-00000.csv").string(), {}); }),
             Catch::StartsWith((d.path / "p-0-00001.csv").string() + ":3: truncated file: the last line has no end of line"));
  d.write("p-0-00001.csv", "time,runtime,tp\n" + row);
  const auto t = load_ior_perop((d.path / "p-0-00002.csv").string(), {});
  CHECK(t.ranks == 3);
  CHECK(t.ior->transfer_B == 262144);  // 1e-4 s x 2.62144e9 B/s
  // A row starting before the row above it (helper-106: no word): replayed in the file's order, with a warning
  d.write("p-0-00001.csv", "time,runtime,tp\n0.5,1.0e-04,2.62144e+09\n" + row);
  const auto back = load_ior_perop((d.path / "p-0-00000.csv").string(), {}).warnings;
  CHECK_THAT(back.at(back.size() - 2),
             Catch::StartsWith(d.path.string() + ": inconsistent timings, replayed anyway: 1 rows start more than 1 ms "
                               "before the row above them in their rank's file (largest step back 500.000 ms at "
                               "p-0-00001.csv:3, first at p-0-00001.csv:3); replayed in the files' order"));
  d.write("p-0-00001.csv", "time,runtime,tp\n" + row);
  // A rank missing from the first repetition only is named there (not blamed on the complete later one), and a
  // missing repetition is an error too.
  TempDir e;
  e.write("q-0-00000.csv", "time,runtime,tp\n" + row);
  e.write("q-1-00000.csv", "time,runtime,tp\n" + row);
  e.write("q-1-00001.csv", "time,runtime,tp\n" + row);
  CHECK_THAT(error_of([&] { load_ior_perop((e.path / "q-1-00000.csv").string(), {}); }),
             Catch::StartsWith((e.path / "q-0-00001.csv").string() + ": missing"));
  e.write("q-0-00001.csv", "time,runtime,tp\n" + row);
  e.write("q-3-00000.csv", "time,runtime,tp\n" + row);
  e.write("q-3-00001.csv", "time,runtime,tp\n" + row);
  CHECK_THAT(error_of([&] { load_ior_perop((e.path / "q-0-00000.csv").string(), {}); }),
             Catch::StartsWith((e.path / "q-2-00000.csv").string() + ": missing (expected one file per repetition 0..3"));
}

TEST_CASE("DXT and IOR replay rescaling: copies of a private file are distinct objects and a shared file stays one", "[iotrace]")
{
  auto t = std::make_shared<const IoTrace>(load_dxt(kDxt + "/own-runs/ior.dxt.txt"));
  pfsim::IoReplayWorkload w(t, 4);
  CHECK(w.phase_items(0) == 64);
  CHECK(w.phase_bytes(0, true) == 8.0 * 1048576);  // 4 ranks x 8 x 256 KiB
  pfsim::RankCursor c;
  pfsim::OpRequest r;
  REQUIRE(w.next(3, 0, c, r));  // rank 3 = copy 1 of recorded rank 1: opens (copy 0 of rank 0 created it)
  CHECK(r.op == pfsim::Op::Open);
  REQUIRE(w.next(3, 0, c, r));
  CHECK(r.op == pfsim::Op::Write);
  CHECK(r.object == t->files[0].id);
  CHECK(r.offset == 1048576 + 4 * 1048576);  // recorded offset + one extent
  CHECK(r.bytes == 262144);

  auto m = std::make_shared<const IoTrace>(load_dxt(kDxt + "/own-runs/mdtest.dxt.txt"));
  pfsim::IoReplayWorkload wm(m, 4);
  pfsim::RankCursor c1, c3;
  pfsim::OpRequest r1, r3;
  REQUIRE(wm.next(1, 0, c1, r1));
  REQUIRE(wm.next(3, 0, c3, r3));
  CHECK(r1.op == pfsim::Op::Create);
  CHECK(r3.op == pfsim::Op::Create);  // its own file
  CHECK(r1.object != r3.object);
  // oss.placement round_robin: copy c's file f is the job's file c x files + f (a shared file: copy 0's).
  const uint64_t files = m->files.size();
  CHECK(wm.creation_order(r1.object) < files);
  CHECK(wm.creation_order(r3.object) >= files);
  CHECK(wm.creation_order(r3.object) < 2 * files);
  CHECK(w.creation_order(t->files[0].id) == 0);

  IorPerOpOptions o;
  o.block_B = 1048576;
  auto io = std::make_shared<const IoTrace>(load_ior_perop(kIor + "/ior-perop-0-00000.csv", o));
  pfsim::IoReplayWorkload wi(io, 4);
  pfsim::RankCursor ci;
  pfsim::OpRequest ri;
  std::vector<uint64_t> offsets;
  while (wi.next(3, 0, ci, ri))
    if (ri.op == pfsim::Op::Read)  // the -w -r run's files hold its reads (its stdout beside them says so)
      offsets.push_back(ri.offset);
  REQUIRE(offsets.size() == 8);
  CHECK(offsets[0] == 3 * 1048576);            // IOR's layout at 4 ranks: (0 x 4 + 3) x block
  CHECK(offsets[5] == 7 * 1048576 + 262144);   // (1 x 4 + 3) x block + 1 transfer
}

TEST_CASE("DXT replay of the IOR trace on one OST: the write rate is bounded by the disk and every byte reaches it",
          "[iotrace]")
{
  // One OST at 100 MiB/s, write-through, 8 RPCs in flight, 1 us links: each 256 KiB write() is one 64-page RPC. The
  // shared file is one object on the one OST, so the writes' rate (bytes / first start to last end) cannot exceed
  // the disk's 100 MiB/s; with both ranks' RPCs queued at the disk it stays busy between their round trips, so the
  // rate is within 10% of it (the recorded think times are 0.1 ms at most against 40 ms of disk time).
  constexpr double kMiB = 1048576, kDisk = 100 * kMiB;
  nlohmann::json fast = {{"bandwidth", 1e12}, {"latency", 1e-6}};
  nlohmann::json p = {{"name", "iotrace-test"},
                      {"network", {{"model", "CM02"}, {"client_link", fast}, {"server_link", fast}}},
                      {"clients", {{"ranks_per_node", 1}, {"max_rpcs_in_flight", 8}, {"max_mod_rpcs_in_flight", 1},
                                   {"rpc_overhead", 0.0}, {"max_dirty_mb", 0}}},
                      {"mds", {{"cores", 4}, {"threads", {{"min", 4}, {"max", 4}}},
                               {"service", {{"create", 1e-6}, {"open", 1e-6}, {"close", 1e-6}}},
                               {"journal", {{"enabled", false}}}}},
                      {"oss", {{"count", 1}, {"threads", 32}, {"rpc_service", 0.0}, {"disk_write", kDisk},
                               {"disk_read", kDisk}, {"stripe_count", 1}}}};
  auto platform = pfsim::config::parse_platform(p, "test");
  auto t = std::make_shared<const IoTrace>(load_dxt(kDxt + "/own-runs/ior.dxt.txt"));
  pfsim::IoReplayWorkload w(t, 0);
  pfsim::RunOptions o;  // as pfsim replay runs it: no per-operation samples
  o.simgrid_args.push_back("--log=root.thres:warning");
  auto records = pfsim::run_simulation(platform, w, o);
  const auto cmp = pfsim::io_compare(w, records);
  REQUIRE(cmp.size() == 1);
  REQUIRE(records.phases[0].samples.empty());
  const auto& wr = cmp[0].simulated[0];
  INFO("simulated write rate " << wr.rate_Bps() / kMiB << " MiB/s over " << wr.window_s << " s");
  CHECK(wr.ops == 16);
  CHECK(wr.bytes == 4 * kMiB);
  CHECK(wr.rate_Bps() <= kDisk * (1 + 1e-9));
  CHECK(wr.rate_Bps() >= 0.9 * kDisk);
  CHECK(cmp[0].recorded[0].ops == 16);
  CHECK(cmp[0].recorded[0].window_s == Approx(0.0047 - 0.0038).margin(1e-9));
  const auto& oss = *std::find_if(records.servers.begin(), records.servers.end(),
                                  [](const pfsim::ServerRecord& s) { return s.name == "oss-0"; });
  CHECK(oss.data_written_B == 4 * kMiB);
  CHECK(oss.data_read_B == 4 * kMiB);
  CHECK(oss.write_rpc_pages[6] == 16);  // bin 6: 33-64 pages, one 256 KiB RPC per write()
}

TEST_CASE("DXT on Lustre: the OSTs darshan-dxt-parser lists after each row are accepted and not replayed", "[iotrace]")
{
  TempDir d;
  const std::string f = d.write("lustre.dxt.txt", kHead + " X_POSIX 0 write 0 0 1048576 0.1000 0.2000 1   [  3]\n"
                                                          " X_POSIX 0 write 1 1048576 1048576 0.2000 0.3000  [  4] [ 12]\n");
  const auto t = load_dxt(f);
  const auto w = of(t, 0, IoOp::Write);
  REQUIRE(w.size() == 2);
  CHECK(w[1].offset == 1048576);
  CHECK(w[1].length == 1048576);
}

TEST_CASE("DXT bounds: a rank beyond nprocs, a time beyond the clock's range: errors naming the line", "[iotrace]")
{
  TempDir d;
  auto err = [&d](const std::string& row) { return dxt_row_error(d, row); };
  const std::string where = (d.path / "b.dxt.txt").string() + ":6: ";
  CHECK_THAT(err("# DXT, rank: 2000000000, hostname: vm\n X_POSIX 2000000000 write 0 0 1 0.1 0.2"),
             Catch::StartsWith(where + "rank: expected an integer from 0 to"));
  CHECK_THAT(err(" X_POSIX 0 write 0 0 1 0.1 2e300"), Catch::StartsWith(where + "end 2e300 s"));
  const std::string big = d.write("big.dxt.txt", "# nprocs: 1\n# DXT, file_id: 1, file_name: f\n# DXT, rank: 0, hostname: h\n"
                                                  " X_POSIX 0 write 0 0 1 0.1 0.2\n# DXT, rank: 1, hostname: h\n"
                                                  " X_POSIX 1 write 0 0 1 0.1 0.2\n");
  CHECK_THAT(error_of([&] { load_dxt(big); }), Catch::StartsWith(big + ":6: rank 1: expected below nprocs 1"));
}

TEST_CASE("IOR per-op: one recorded rank without -F is one shared file at any rank count / a 0 s transfer's inf tp / "
          "a stonewalled rank's partial block", "[iotrace]")
{
  TempDir d;
  // 3 transfers of 256 KiB, the second timed at 0 s (IOR prints tp = size / 0 = inf).
  d.write("p-0-00000.csv", "time,runtime,tp\n0.0,1.0e-04,2.62144e+09\n1.0e-04,0.0,inf\n1.0e-04,1.0e-04,2.62144e+09\n");
  IorPerOpOptions o;
  o.block_B = 2 * 262144;  // 3 transfers: one whole block and a partial one (a stonewalled rank)
  auto t = std::make_shared<const IoTrace>(load_ior_perop((d.path / "p-0-00000.csv").string(), o));
  CHECK(t->ior->transfer_B == 262144);
  CHECK(t->ior->segments == 2);
  CHECK(t->files.at(0).shared);
  CHECK(std::any_of(t->warnings.begin(), t->warnings.end(),
                    [](const std::string& w) { return w.find("partial") != std::string::npos; }));
  pfsim::IoReplayWorkload w(t, 4);
  std::set<uint64_t> objects;
  for (int r = 0; r < 4; ++r) {
    pfsim::RankCursor c;
    pfsim::OpRequest q;
    std::vector<uint64_t> off;
    while (w.next(r, 0, c, q))
      if (q.op == pfsim::Op::Write) {
        objects.insert(q.object);
        off.push_back(q.offset);
      }
    REQUIRE(off.size() == 3);
    CHECK(off[0] == static_cast<uint64_t>(r) * 2 * 262144);            // segment 0 of rank r
    CHECK(off[2] == (4 + static_cast<uint64_t>(r)) * 2 * 262144);      // segment 1 (partial) of rank r
  }
  CHECK(objects.size() == 1);  // one shared file for the 4 ranks
  d.write("p-0-00000.csv", "time,runtime,tp\n0.0,1.0e-04,inf\n");
  CHECK_THAT(error_of([&] { load_ior_perop((d.path / "p-0-00000.csv").string(), {}); }),
             Catch::StartsWith((d.path / "p-0-00000.csv").string() + ":2: tp: inf with a runtime of 1.0e-04 s"));
}

TEST_CASE("Data replay comparison without samples: per-kind counts and windows, latencies exact or from histograms",
          "[iotrace]")
{
  // io_compare reads the phase's per-kind record, not per-operation samples: 16 writes from t = 1.0 s to 1.5 s with
  // latencies 1..16 ms, given once as every value and once as a histogram (pfsim replay --no-samples). The counts
  // and windows are the same; the percentiles are the nearest-rank values, the histogram's within 0.14%.
  auto t = std::make_shared<const IoTrace>(load_dxt(kDxt + "/own-runs/ior.dxt.txt"));
  pfsim::IoReplayWorkload w(t, 0);
  auto fill = [&](bool histograms) {
    pfsim::RunRecords r;
    r.latency_histograms = histograms;
    r.phases.resize(static_cast<size_t>(w.phase_count()));
    auto& ph = r.phases[0];
    ph.op_count[pfsim::Op::Write] = 16;
    ph.op_first_start_s[pfsim::Op::Write] = 1.0;
    ph.op_last_end_s[pfsim::Op::Write] = 1.5;
    for (int i = 1; i <= 16; ++i) {
      if (histograms)
        ph.histogram_by_op[pfsim::Op::Write].add(static_cast<float>(i * 1e-3));
      else
        ph.latencies_by_op[pfsim::Op::Write].push_back(static_cast<float>(i * 1e-3));
    }
    return pfsim::io_compare(w, r);
  };
  const auto exact = fill(false);
  const auto hist = fill(true);
  REQUIRE(exact.size() == 1);
  REQUIRE(hist.size() == 1);
  for (const auto* c : {&exact[0], &hist[0]}) {
    const auto& wr = c->simulated[0];
    CHECK(wr.ops == 16);
    CHECK(wr.window_s == Approx(0.5));
    CHECK(wr.bytes == 4 * 1048576.0);  // the trace's writes, as replayed
    CHECK(wr.rate_Bps() == Approx(8 * 1048576.0));
    CHECK(c->simulated[1].ops == 0);  // no read completed: no window, no rate
    CHECK(c->simulated[1].window_s == 0);
  }
  CHECK(exact[0].simulated[0].latency.p50_s == Approx(8e-3).epsilon(1e-6));
  CHECK(exact[0].simulated[0].latency.max_s == Approx(16e-3).epsilon(1e-6));
  for (double pfsim::LatencySummary::*q :
       {&pfsim::LatencySummary::p50_s, &pfsim::LatencySummary::p99_s, &pfsim::LatencySummary::max_s})
    CHECK(hist[0].simulated[0].latency.*q == Approx(exact[0].simulated[0].latency.*q).epsilon(0.0014));
}

TEST_CASE("DXT replay: a read of bytes another rank wrote earlier names that rank (its node's page cache may serve it)",
          "[iotrace]")
{
  // Rank 0 writes bytes 0-99 of the shared file (0.1-0.2 s); rank 1 reads them at 0.3 s (after: rank 0's data), reads
  // bytes 50-149 (no one write covers them) and, in a second file that rank 0 writes only after, reads first.
  TempDir d;
  const std::string f = d.write(
      "w.dxt.txt",
      kHead + " X_POSIX 0 write 0 0 100 0.1000 0.2000\n"
              "# DXT, file_id: 42, file_name: /scratch/f\n# DXT, rank: 1, hostname: vm\n"
              " X_POSIX 1 read 0 0 100 0.3000 0.3100\n X_POSIX 1 read 1 50 100 0.3200 0.3300\n"
              "# DXT, file_id: 43, file_name: /scratch/g\n# DXT, rank: 1, hostname: vm\n"
              " X_POSIX 1 read 0 0 100 0.0100 0.0200\n"
              "# DXT, file_id: 43, file_name: /scratch/g\n# DXT, rank: 0, hostname: vm\n"
              " X_POSIX 0 write 0 0 100 0.5000 0.6000\n");
  auto t = std::make_shared<const IoTrace>(load_dxt(f));
  auto readers = [&t](int ranks, int rank) {
    pfsim::IoReplayWorkload w(t, ranks);
    pfsim::RankCursor c;
    pfsim::OpRequest op;
    std::vector<int32_t> by;
    while (w.next(rank, 0, c, op))
      if (op.op == pfsim::Op::Read)
        by.push_back(op.written_by);
    return by;
  };
  // Rank 1's three reads, in its order (file f's, then g's, as the import orders them by time: g's read first).
  CHECK(readers(2, 1) == std::vector<int32_t>{-1, 0, -1});
  // At 4 ranks rank 3 is copy 1 of rank 1: it reads copy 1's bytes, which rank 2 (copy 1 of rank 0) wrote.
  CHECK(readers(4, 3) == std::vector<int32_t>{-1, 2, -1});
  // At 3 ranks rank 2 is copy 1 of rank 0 (a writer), and no replayed rank 3 exists to read after it.
  CHECK(readers(3, 1) == std::vector<int32_t>{-1, 0, -1});
  CHECK(readers(3, 2).empty());

  // Writes that end at the same time: the one at the highest offset, then the lowest rank's (whatever the dump's order)
  const std::string ties = d.write(
      "t.dxt.txt", "# darshan log version: 3.41\n# nprocs: 3\n"
                   "# DXT, file_id: 44, file_name: /scratch/h\n# DXT, rank: 1, hostname: vm\n"
                   " X_POSIX 1 write 0 0 100 0.1000 0.2000\n X_POSIX 1 write 1 10 90 0.1000 0.2000\n"
                   "# DXT, file_id: 44, file_name: /scratch/h\n# DXT, rank: 0, hostname: vm\n"
                   " X_POSIX 0 write 0 0 100 0.1000 0.2000\n"
                   "# DXT, file_id: 44, file_name: /scratch/h\n# DXT, rank: 2, hostname: vm\n"
                   " X_POSIX 2 read 0 10 50 0.3000 0.3100\n X_POSIX 2 read 1 0 50 0.3200 0.3300\n");
  t = std::make_shared<const IoTrace>(load_dxt(ties));
  CHECK(readers(3, 2) == std::vector<int32_t>{1, 0});
}

TEST_CASE("DXT and IOR per-op imported for a replay at fewer ranks: the other ranks' steps are not kept, the replay "
          "and the recorded statistics are the whole trace's", "[iotrace]")
{
  IorPerOpOptions o;
  o.block_B = 1048576;
  for (const bool dxt : {true, false}) {
    INFO((dxt ? "DXT" : "IOR per-op"));
    auto load = [&](int replay_ranks) {
      return std::make_shared<const IoTrace>(dxt ? load_dxt(kDxt + "/own-runs/ior.dxt.txt", replay_ranks)
                                                 : load_ior_perop(kIor + "/ior-perop-0-00000.csv", o, replay_ranks));
    };
    const auto all = load(0), one = load(1);
    REQUIRE(all->ranks == 2);
    CHECK(all->kept_ranks == 2);
    CHECK(one->ranks == 2);
    CHECK(one->kept_ranks == 1);
    CHECK_FALSE(one->streams[1].kept());
    CHECK(one->streams[1].think_s.empty());
    CHECK(load(2)->kept_ranks == 2);  // at the recorded count or more: every rank's
    CHECK(load(5)->kept_ranks == 2);
    CHECK(one->op_count() == all->op_count());
    CHECK(one->describe() == all->describe());
    REQUIRE(one->phases.size() == all->phases.size());
    for (size_t p = 0; p < all->phases.size(); ++p)
      for (int k = 0; k < 2; ++k) {
        const auto &a = all->phases[p].recorded[k], &b = one->phases[p].recorded[k];
        CHECK(a.ops == b.ops);
        CHECK(a.bytes == b.bytes);
        CHECK(a.first_start_s == b.first_start_s);
        CHECK(a.last_end_s == b.last_end_s);
        CHECK(a.latency_s == b.latency_s);
      }
    // The replay at 1 rank: the same operations
    pfsim::IoReplayWorkload wa(all, 1), w1(one, 1);
    CHECK(w1.phase_items(0) == wa.phase_items(0));
    CHECK(w1.data_bytes() == wa.data_bytes());
    for (int p = 0; p < wa.phase_count(); ++p) {
      pfsim::RankCursor ca, c1;
      pfsim::OpRequest ra, r1;
      bool more = true;
      while (more) {
        more = wa.next(0, p, ca, ra);
        REQUIRE(w1.next(0, p, c1, r1) == more);
        CHECK((ra.op == r1.op && ra.object == r1.object && ra.offset == r1.offset && ra.bytes == r1.bytes &&
               ra.think_s == r1.think_s && ra.written_by == r1.written_by));
      }
    }
    // At more ranks than it keeps: an error, not a replay of missing steps
    CHECK_THROWS_AS(pfsim::IoReplayWorkload(one, 2), std::invalid_argument);
    CHECK_THROWS_AS(pfsim::IoReplayWorkload(one, 0), std::invalid_argument);
  }
}

TEST_CASE("IOR per-op: a rank's file that is a directory is an error / DXT: a dump cut inside a block header is an "
          "error", "[iotrace]")
{
  // helper-79: the directory was left out as if it were not a rank's file (1 rank replayed of 2), and the cut block
  // lost its rank's operations with only a warning.
  TempDir d;
  fs::copy_file(kIor + "/ior-perop-0-00000.csv", d.path / "ior-perop-0-00000.csv");
  fs::create_directory(d.path / "ior-perop-0-00001.csv");
  CHECK_THAT(error_of([&] { load_ior_perop((d.path / "ior-perop-0-00000.csv").string(), IorPerOpOptions{}); }),
             Catch::StartsWith((d.path / "ior-perop-0-00001.csv").string() + ": a directory (expected IOR's per-op CSV "
                                                                              "of rank 1"));
  std::ifstream in(kDxt + "/own-runs/ior.dxt.txt");
  std::string text, line;
  size_t n = 0, second_block = 0;
  while (std::getline(in, line)) {
    text += line + "\n";
    ++n;
    if (line.rfind("# DXT, rank: 1", 0) == 0 && second_block == 0)
      second_block = n - 1;  // its file_id line
    if (second_block > 0 && line.rfind("# DXT, number of threads", 0) == 0)
      break;  // cut before its write_count line
  }
  REQUIRE(second_block > 0);
  const std::string cut = d.write("cut.dxt.txt", text);
  CHECK_THAT(error_of([&] { load_dxt(cut); }),
             Catch::StartsWith(cut + ":" + std::to_string(second_block) + ": the block of file") &&
                 Catch::Contains("rank 1 has no \"# DXT, write_count: W, read_count: R\" line"));
}
