// The md-workbench and md-real-io lines pfsim prints, against the real tools' stdout (traces/, copied from
// ../shared/data/tool-outputs): the statistics of the phase lines computed from the latency files the real run wrote
// beside them (--latency-all: the very values its statistics were computed from), the Nodemap line, the dates and the
// Total runtime line. No simulation: each test case builds the phases from the real files.
#include "report/mdreal_report.hpp"

#include "workload/trace.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using pfsim::MdrealPhase;
using pfsim::ReportFormat;
using pfsim::trace::PhaseKind;
using pfsim::trace::TraceOp;

namespace {

const std::string kTraces = std::string(PFSIM_SOURCE_DIR) + "/traces/";

std::vector<std::string> lines_of(const std::string& file)
{
  std::ifstream in(file);
  REQUIRE(in);
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);)
    out.push_back(l);
  return out;
}

// The per-kind statistics of a phase line, as analysis scripts read them: {"read", "(3.8660e-06s, ...)"} in order.
std::vector<std::pair<std::string, std::vector<std::string>>> statistics_of(const std::string& line)
{
  static const std::regex kind_re(R"( (read|stat|create|delete)\(([^)]*)\))");
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (std::sregex_iterator it(line.begin(), line.end(), kind_re), end; it != end; ++it) {
    std::vector<std::string> values;
    std::stringstream fields((*it)[2].str());
    for (std::string v; std::getline(fields, v, ',');)
      values.push_back(v.substr(v.find_first_not_of(' ')));
    out.emplace_back((*it)[1].str(), values);
  }
  return out;
}

// Whether two statistics printed "%.4e" differ by at most one unit of their last digit (1.1969e-04s, 1.1968e-04s).
bool within_last_digit(const std::string& a, const std::string& b)
{
  const auto e = a.find('e');
  return e == b.find('e') && a.substr(e) == b.substr(e) &&
         std::abs(std::llround(std::stod(a.substr(0, e)) * 1e4) - std::llround(std::stod(b.substr(0, e)) * 1e4)) <= 1;
}

// A phase of a --latency-all run from its files <dir>/lat-0.00-<iter>-<name>-all.csv (every rank's rows concatenated,
// `ranks` equal parts): the samples of each operation kind, rank by rank.
MdrealPhase phase_from_files(const std::string& dir, PhaseKind kind, int iteration, int ranks)
{
  MdrealPhase p;
  p.kind = kind;
  p.name = kind == PhaseKind::Precreate ? "precreate" : kind == PhaseKind::Cleanup ? "cleanup" : "benchmark";
  p.iteration = iteration;
  p.rank_time_s.assign(static_cast<size_t>(ranks), 1.0);
  std::vector<std::pair<std::string, TraceOp>> files;
  if (kind == PhaseKind::Benchmark)
    files = {{"read", TraceOp::Read}, {"stat", TraceOp::Stat}, {"create", TraceOp::Create}, {"delete", TraceOp::Delete}};
  else
    files = {{p.name, kind == PhaseKind::Precreate ? TraceOp::Create : TraceOp::Delete}};
  for (const auto& [name, op] : files) {
    std::vector<std::pair<float, float>> rows;
    pfsim::trace::read_latency_csv(dir + "/lat-0.00-" + std::to_string(iteration) + "-" + name + "-all.csv", rows,
                                   nullptr);
    REQUIRE(rows.size() % static_cast<size_t>(ranks) == 0);
    const size_t per_rank = rows.size() / static_cast<size_t>(ranks);
    for (size_t i = 0; i < rows.size(); ++i)
      p.samples.push_back({static_cast<uint32_t>(i / per_rank), static_cast<unsigned char>(op), rows[i].first,
                           rows[i].second});
    p.objects += kind == PhaseKind::Benchmark ? (op == TraceOp::Read ? rows.size() : 0) : rows.size();
  }
  return p;
}

// The real run's phase lines (global and per rank) next to pfsim's from the same latencies: every statistic equal,
// except where the 2019 tool reads past its sorted array (its quantile position round(q n + 0.49) >= n): there the real
// line holds whatever followed in memory and pfsim's 0.0000e+00s.
void check_against_real(const std::string& trace, ReportFormat format)
{
  const auto real = lines_of(kTraces + trace + "/stdout.txt");
  const std::vector<std::pair<PhaseKind, int>> phases = {
      {PhaseKind::Precreate, 0}, {PhaseKind::Benchmark, 0}, {PhaseKind::Benchmark, 1}, {PhaseKind::Cleanup, 2}};
  size_t at = 0;
  int compared = 0, past_the_end = 0;
  for (const auto& [kind, iteration] : phases) {
    const MdrealPhase p = phase_from_files(kTraces + trace, kind, iteration, 2);
    while (at < real.size() && real[at].find(" process max:") == std::string::npos)
      ++at;
    std::vector<std::string> sim = {pfsim::mdworkbench_phase_line(p, 2, format)};
    std::istringstream rank_lines(pfsim::mdworkbench_rank_lines(p, 2, format));
    const bool with_rank_lines = at + 1 < real.size() && real[at + 1].rfind("0: ", 0) == 0;  // --process-reports
    for (std::string l; with_rank_lines && std::getline(rank_lines, l);)
      sim.push_back(l);
    REQUIRE(at + sim.size() <= real.size());
    for (const auto& line : sim) {
      INFO("real:  " << real[at] << "\npfsim: " << line);
      const auto want = statistics_of(real[at++]), got = statistics_of(line);
      REQUIRE(want.size() == got.size());
      for (size_t k = 0; k < want.size(); ++k) {
        CHECK(got[k].first == want[k].first);
        REQUIRE(got[k].second.size() == 7);
        const size_t n = static_cast<size_t>(std::count_if(p.samples.begin(), p.samples.end(), [&](const auto& s) {
                           return pfsim::trace::trace_op_name(static_cast<TraceOp>(s.op)) == got[k].first;
                         })) / (line.rfind("0: ", 0) == 0 || line.rfind("1: ", 0) == 0 ? 2 : 1);
        for (size_t f = 0; f < 7; ++f) {
          static const float kQuantile[7] = {0, 0.25f, 0, 0.75f, 0.90f, 0.99f, 0};
          const bool beyond = format == ReportFormat::MdWorkbench2019 && kQuantile[f] > 0 &&
                              std::lround(static_cast<double>(kQuantile[f] * static_cast<float>(n)) + 0.49) >=
                                  static_cast<long>(n);
          if (beyond) {
            CHECK(got[k].second[f] == "0.0000e+00s");
            ++past_the_end;
          } else if (f == 2 && n % 2 == 0) {
            // an even count's median averages two values the files hold to 5 digits: the last digit may differ by 1
            CHECK(within_last_digit(got[k].second[f], want[k].second[f]));
            ++compared;
          } else {
            CHECK(got[k].second[f] == want[k].second[f]);
            ++compared;
          }
        }
      }
    }
  }
  CHECK(compared >= 4 * 7 * 2 + 2 * 7);  // at least every statistic of the four phase lines
  // 2019: q99 of the 80 benchmark operations of each kind (2 iterations x 4 kinds), of each rank's 80 precreates and 80
  // cleanup deletes (2 x 2) and of each rank's 40 benchmark operations of each kind (2 x 2 x 4)
  CHECK(past_the_end == (format == ReportFormat::MdWorkbench2019 ? 8 + 4 + 16 : 0));
}

}  // namespace

TEST_CASE("md-workbench IOR 4.x phase lines: the statistics the real tool printed, from its --latency-all files",
          "[tool-lines]")
{
  check_against_real("md-workbench-latency-all", ReportFormat::MdWorkbench);
}

TEST_CASE("md-workbench 2019 phase lines: the statistics the real tool printed, by its own quantile rule",
          "[tool-lines]")
{
  check_against_real("md-workbench-standalone-2019", ReportFormat::MdWorkbench2019);
  // and its times with one decimal ("min:0.0s mean: 0.0s"), IOR's with two
  const MdrealPhase p = phase_from_files(kTraces + "md-workbench-standalone-2019", PhaseKind::Cleanup, 2, 2);
  const std::regex y2019(R"(^cleanup process max:\d+\.\d\ds min:\d+\.\ds mean: \d+\.\ds balance:)");
  const std::regex ior(R"(^cleanup process max:\d+\.\d\ds min:\d+\.\d\ds mean: \d+\.\d\ds balance:)");
  CHECK(std::regex_search(pfsim::mdworkbench_phase_line(p, 2, ReportFormat::MdWorkbench2019), y2019));
  CHECK(std::regex_search(pfsim::mdworkbench_phase_line(p, 2, ReportFormat::MdWorkbench), ior));
  for (const auto& l : lines_of(kTraces + "md-workbench-standalone-2019/stdout.txt"))
    if (l.rfind("cleanup process max:", 0) == 0)
      CHECK(std::regex_search(l, y2019));
}

TEST_CASE("Nodemap line: one digit per rank, 1 on rank 0's node, as the real IOR md-workbench prints it",
          "[tool-lines]")
{
  const auto real = lines_of(kTraces + "md-workbench-latency-all/stdout.txt");
  REQUIRE(real.size() > 1);
  CHECK(pfsim::nodemap_line({0, 0}) == real[1] + "\n");  // "Nodemap: 11": its 2 ranks on one node
  CHECK(pfsim::nodemap_line({0, 0, 1, 1, 2}) == "Nodemap: 11000\n");  // block placement, 2 ranks per node
  CHECK(pfsim::nodemap_line({0, 1, 2, 0, 1, 2}) == "Nodemap: 100100\n");  // cyclic over 3 nodes
}

TEST_CASE("dates and Total runtime line: the real tools' form, the simulated clock from the Unix epoch",
          "[tool-lines]")
{
  CHECK(pfsim::simulated_date(0) == "1970-01-01 00:00:00");
  CHECK(pfsim::simulated_date(73.9) == "1970-01-01 00:01:13");  // floored, as time() is
  CHECK(pfsim::simulated_date(90061) == "1970-01-02 01:01:01");
  CHECK(pfsim::total_runtime_line(73.6) == "Total runtime: 74s time: 1970-01-01 00:01:13\n");
  const std::regex total(R"(^Total runtime: \d+s time: \d{4}-\d\d-\d\d \d\d:\d\d:\d\d$)");
  for (const char* trace : {"md-real-io-2017", "md-workbench-latency-all", "md-workbench-standalone-2019"}) {
    const auto real = lines_of(kTraces + trace + "/stdout.txt");
    INFO(trace);
    CHECK(std::regex_match(real.back(), total));
  }
  const std::string line = pfsim::total_runtime_line(0.27);
  CHECK(std::regex_match(line.substr(0, line.size() - 1), total));
}

TEST_CASE("output format names: mdworkbench2019, and each trace's own generation", "[tool-lines]")
{
  CHECK(pfsim::parse_report_format("mdworkbench2019") == ReportFormat::MdWorkbench2019);
  CHECK(std::string(pfsim::report_format_name(ReportFormat::MdWorkbench2019)) == "mdworkbench2019");
  CHECK(pfsim::is_mdworkbench(ReportFormat::MdWorkbench2019));
  CHECK_FALSE(pfsim::is_mdworkbench(ReportFormat::MdReal2017));
  CHECK_THROWS_WITH(pfsim::parse_report_format("mdworkbench2020"), Catch::Contains("mdworkbench2019"));
  CHECK(pfsim::report_format_of_trace("md-workbench-all", "md-workbench-2019") == ReportFormat::MdWorkbench2019);
  CHECK(pfsim::report_format_of_trace("md-workbench-all", "md-workbench-ior") == ReportFormat::MdWorkbench);
  CHECK(pfsim::report_format_of_trace("md-workbench-rank0", "") == ReportFormat::MdWorkbench);
  CHECK(pfsim::report_format_of_trace("md-real-io-2017", "md-real-io-2017") == ReportFormat::MdReal2017);
}
