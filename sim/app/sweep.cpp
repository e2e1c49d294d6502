#include "app/sweep.hpp"

#include "app/commands.hpp"
#include "config/reader.hpp"
#include "report/outputs.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>

namespace pfsim::app {

std::vector<int> parse_rank_list(const std::string& option, const std::string& text)
{
  std::vector<int> out;
  const std::string expected = option + ": expected a comma-separated list of integers in [1, " +
                               std::to_string(kMaxRanks) + "] (digits only), got \"" + text + "\"";
  if (!text.empty() && text.back() == ',')
    throw std::invalid_argument(expected);  // getline would drop the empty last item
  std::stringstream ss(text);
  std::string part;
  while (std::getline(ss, part, ',')) {
    // Digits only, as parse_int_option reads one integer: no sign, spaces, exponent or hex.
    if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 12)
      throw std::invalid_argument(expected);
    long long v = std::stoll(part);
    if (v < 1 || v > kMaxRanks)
      throw std::invalid_argument(expected);
    out.push_back(static_cast<int>(v));
  }
  if (out.empty())
    throw std::invalid_argument(option + ": empty list");
  for (size_t i = 0; i < out.size(); ++i)
    for (size_t j = i + 1; j < out.size(); ++j)
      if (out[i] == out[j])
        throw std::invalid_argument(option + ": " + std::to_string(out[i]) + " appears twice in \"" + text + "\"");
  return out;
}

// p50_s, p99_s: of the phase's items (the tool's operations, e.g. a create's open(O_CREAT) + close), not of the
// RPCs mixed (half creates, half closes: a p50 that was neither).
const char* const kSweepCsvHeader = "ranks,nodes,phase,iteration,items,time_s,rate,p50_s,p99_s\n";

std::string sweep_csv_rows(int ranks, const nlohmann::json& j)
{
  std::string out;
  for (const auto& p : j["phases"]) {
    const auto& lat = p["latency"].contains("item") ? p["latency"]["item"] : p["latency"]["all"];
    char line[512];
    std::snprintf(line, sizeof line, "%d,%d,%s,%d,%llu,%.6f,%.3f,%.6e,%.6e\n", ranks, j["run"]["nodes"].get<int>(),
                  p["name"].get<std::string>().c_str(), p["iteration"].get<int>(),
                  static_cast<unsigned long long>(p["items"].get<uint64_t>()), p["time_s"].get<double>(),
                  p["rate_items_per_s"].get<double>(), lat["p50_s"].get<double>(), lat["p99_s"].get<double>());
    out += line;
  }
  return out;
}

void run_sweep(const SweepSpec& spec, const std::function<nlohmann::json(int)>& point,
               const std::function<nlohmann::json(const nlohmann::json&)>& workload)
{
  std::string dir = spec.results_dir, tmpdir;
  if (dir.empty()) {
    char tmpl[] = "/tmp/pfsim-sweep-XXXXXX";
    if (!::mkdtemp(tmpl))
      throw std::runtime_error("cannot create a temporary directory");
    dir = tmpdir = tmpl;
  }
  std::filesystem::create_directories(dir);
  auto point_file = [&](int r) { return dir + "/ranks-" + std::to_string(r) + ".json"; };

  std::fflush(nullptr);
  size_t next = 0;
  int running = 0;
  bool failed = false;
  while ((next < spec.ranks.size() && !failed) || running > 0) {
    if (next < spec.ranks.size() && running < spec.jobs && !failed) {
      int r = spec.ranks[next++];
      pid_t pid = ::fork();
      if (pid < 0)
        throw std::runtime_error("fork failed");
      if (pid == 0) {
        int rc = 0;
        try {
          write_file_atomic(point_file(r), point(r).dump(2) + "\n");
        } catch (const std::exception& e) {
          std::fprintf(stderr, "pfsim: point %d ranks: %s\n", r, e.what());
          rc = 1;
        }
        std::fflush(nullptr);
        ::_exit(rc);
      }
      running++;
      continue;
    }
    int status = 0;
    if (::wait(&status) > 0) {
      running--;
      if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        failed = true;
    }
  }
  if (failed) {
    // No table: it would lack points. Each finished point's results are complete (written atomically), so a
    // --results-dir keeps them (a long what-if sweep stopped by one --time-limit does not lose the others); without
    // one they go with the temporary directory.
    if (!tmpdir.empty()) {
      std::filesystem::remove_all(tmpdir);
      throw std::runtime_error("a sweep point failed (see above); no table written");
    }
    std::string kept;
    for (int r : spec.ranks)
      if (std::filesystem::exists(point_file(r)))
        kept += (kept.empty() ? "" : ", ") + std::to_string(r);
    throw std::runtime_error("a sweep point failed (see above); no table written" +
                             (kept.empty() ? std::string() : "; the finished points' results (ranks " + kept +
                                                                 ") are in " + dir));
  }

  std::string table = kSweepCsvHeader;
  nlohmann::json meta = nlohmann::json::object();
  nlohmann::json pts = nlohmann::json::array();
  for (int r : spec.ranks) {
    auto j = config::load_json_file(point_file(r));
    table += sweep_csv_rows(r, j);
    // The sweep's effective configuration (defaults filled in) beside the CSV: platform, workload, seed, and every
    // point's phases, so a CSV is never separated from what produced it.
    if (meta.empty()) {
      meta = {{"pfsim_version", j["pfsim_version"]}, {"seed", j["seed"]},         {"inputs", j["inputs"]},
              {"platform", j["platform"]},           {"workload", workload(j)}};
      if (j.contains("build"))
        meta["build"] = j["build"];
    }
    pts.push_back({{"run", j["run"]}, {"phases", j["phases"]}, {"servers", j["servers"]}});
  }
  meta["ranks"] = spec.ranks;
  meta["points"] = pts;
  OutputBatch batch;  // the CSV and its configuration file land together
  write_file_atomic(spec.csv, table);
  write_file_atomic(spec.csv + ".json", meta.dump(1) + "\n");
  batch.commit();
  if (!tmpdir.empty())
    std::filesystem::remove_all(tmpdir);
  if (!spec.quiet)
    std::cout << table;
}

}  // namespace pfsim::app
