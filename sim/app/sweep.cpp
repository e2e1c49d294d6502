#include "app/sweep.hpp"

#include "app/commands.hpp"
#include "config/reader.hpp"
#include "report/outputs.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <csignal>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace pfsim::app {

namespace {
volatile std::sig_atomic_t g_stop_signal = 0;  // SIGTERM/SIGINT/SIGHUP received by a sweep's parent
extern "C" void on_stop_signal(int sig) { g_stop_signal = sig; }
}  // namespace

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

std::string sweep_csv_rows(int ranks, const nlohmann::json& j,
                           const std::function<std::string(const nlohmann::json&, size_t)>& extra)
{
  std::string out;
  size_t index = 0;
  for (const auto& p : j["phases"]) {
    const auto& lat = p["latency"].contains("item") ? p["latency"]["item"] : p["latency"]["all"];
    char line[512];
    std::snprintf(line, sizeof line, "%d,%d,%s,%d,%llu,%.6f,%.3f,%.6e,%.6e\n", ranks, j["run"]["nodes"].get<int>(),
                  p["name"].get<std::string>().c_str(), p["iteration"].get<int>(),
                  static_cast<unsigned long long>(p["items"].get<uint64_t>()), p["time_s"].get<double>(),
                  p["rate_items_per_s"].get<double>(), lat["p50_s"].get<double>(), lat["p99_s"].get<double>());
    out += line;
    if (extra) {  // the command's own columns, before the line's end
      out.pop_back();
      out += extra(j, index) + "\n";
    }
    ++index;
  }
  return out;
}

std::pair<std::string, std::vector<std::string>> parse_vary(const std::string& option, const std::string& text)
{
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0)
    throw std::invalid_argument(option + " " + text + ": expected PATH=V1,V2,... (e.g. mds.threads.max=64,128,512)");
  std::pair<std::string, std::vector<std::string>> out{text.substr(0, eq), {}};
  const std::string list = text.substr(eq + 1);
  if (!list.empty() && (list.front() == '{' || list.front() == '['))
    throw std::invalid_argument(option + " " + text + ": expected scalar values (numbers, true/false, strings such as "
                                "200us) separated by commas, not a JSON object or list");
  size_t start = 0;
  while (true) {
    const size_t comma = list.find(',', start);
    const std::string v = list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (v.empty())
      throw std::invalid_argument(option + " " + text + ": an empty value in the list (expected PATH=V1,V2,...)");
    if (std::find(out.second.begin(), out.second.end(), v) != out.second.end())
      throw std::invalid_argument(option + " " + text + ": the value " + v + " is given twice");
    out.second.push_back(v);
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  if (out.second.size() < 2)
    throw std::invalid_argument(option + " " + text + ": one value; give at least two (one value is a --set)");
  return out;
}

std::vector<config::PlatformConfig> vary_platforms(const std::string& file, const std::vector<std::string>& sets,
                                                   const SweepSpec& spec, const std::string& vary_text)
{
  for (const auto& set : sets)  // (a --set of the field itself would be replaced by every value: said, not ignored)
    if (set.substr(0, set.find('=')) == spec.vary_path)
      throw std::invalid_argument("--vary " + vary_text + " and --set " + set + ": the same field; --vary gives its "
                                  "values (drop the --set)");
  std::vector<config::PlatformConfig> out;
  std::vector<std::string> effective;  // each value's effective platform: two that are the same are one point twice
  // The warnings not about a value are said once: those of the platform without the --vary (file and --set) are
  // the caller's, who loaded it first and said them; another that every value gives alike, with the first value.
  std::vector<std::string> said;
  try {
    said = load_platform_unprinted(file, sets).warnings;
  } catch (const config::ConfigError&) {  // (the caller has loaded it: not reached)
  }
  for (const auto& v : spec.vary_values) {
    std::vector<std::string> with = sets;
    const std::string set = spec.vary_path + "=" + v;
    with.push_back(set);
    // An error, or a warning, about the value's override ("--set PATH=V: ...") is named as the --vary value the user
    // typed; any other error of the value's platform is said to be the value's.
    const std::string head = "--set " + set + ": ", named = "--vary " + vary_text + ", value " + v + ": ";
    try {
      out.push_back(load_platform_unprinted(file, with));
    } catch (const config::ConfigError& e) {
      const std::string why = e.what();
      throw config::ConfigError(named + (why.rfind(head, 0) == 0 ? why.substr(head.size()) : why));
    }
    // One about the value's override names it.
    for (const auto& w : out.back().warnings) {
      if (w.rfind(head, 0) == 0) {
        std::cerr << "pfsim: warning: " << named << w.substr(head.size()) << "\n";
        continue;
      }
      if (std::find(said.begin(), said.end(), w) != said.end())
        continue;
      said.push_back(w);
      std::cerr << "pfsim: warning: " << w << "\n";
    }
    effective.push_back(config::effective_json(out.back(), 0).dump());
    for (size_t k = 0; k + 1 < effective.size(); ++k)
      if (effective[k] == effective.back())
        throw std::invalid_argument("--vary " + vary_text + ": the values " + spec.vary_values[k] + " and " + v +
                                    " give the same platform (the same point twice)");
  }
  return out;
}

namespace {
// A CSV field: quoted (its quotes doubled) when it holds a comma, a quote or a line break.
std::string csv_field(const std::string& v)
{
  if (v.find_first_of(",\"\r\n") == std::string::npos)
    return v;
  std::string out = "\"";
  for (char ch : v)
    out += ch == '"' ? std::string("\"\"") : std::string(1, ch);
  return out + "\"";
}

// The machine's name as it goes into a sweep's temporary directory (letters and digits only): sweeps on other
// machines that share a TMPDIR cannot tell whether its pid lives, nor see its lock, so they never remove it.
std::string host_tag()
{
  char name[256] = {};
  ::gethostname(name, sizeof name - 1);
  std::string out;
  for (const char* c = name; *c && out.size() < 32; ++c)
    if (std::isalnum(static_cast<unsigned char>(*c)))
      out += *c;
  return out;
}

// Removes the temporary directories of sweeps that died without cleaning up (pfsim-sweep-<host>-<pid>-XXXXXX of this
// user and machine): only when its pid is gone, nothing holds the directory's lock, which a sweep takes for its whole
// life (flock: released by the kernel even on SIGKILL, and seen across pid namespaces, where a live sweep's pid can
// look gone), and it is older than 10 s (a new sweep's directory exists a moment before its lock). A directory of a
// live sweep, of another user or machine, or of another name is left; so is one whose lock cannot be tried (a file
// system without locks).
void remove_dead_sweeps_dirs(const std::string& base)
{
  static const std::regex name(R"(pfsim-sweep-([A-Za-z0-9]{0,32})-([0-9]{1,9})-[A-Za-z0-9]{6})");
  const std::string host = host_tag();
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(base, ec)) {
    std::smatch m;
    const std::string file = e.path().filename().string();
    struct stat st {};
    if (!std::regex_match(file, m, name) || m[1].str() != host || ::lstat(e.path().c_str(), &st) != 0 ||
        !S_ISDIR(st.st_mode) || st.st_uid != ::getuid() || ::time(nullptr) - st.st_mtime < 10)
      continue;
    const auto pid = static_cast<pid_t>(std::stol(m[2].str()));
    if (::kill(pid, 0) == 0 || errno != ESRCH)
      continue;
    const int fd = ::open(e.path().c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
      continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) {  // (any failure, EWOULDBLOCK or a file system without locks: kept)
      std::error_code rm;
      std::filesystem::remove_all(e.path(), rm);
    }
    ::close(fd);
  }
}

// Holds the sweep's lock on its temporary directory (see remove_dead_sweeps_dirs) until the sweep ends; the points,
// forked, share it and die with the sweep.
struct DirLock {
  int fd = -1;
  explicit DirLock(const std::string& dir)  // "": none (a --results-dir is the user's, not removed)
      : fd(dir.empty() ? -1 : ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC))
  {
    if (fd >= 0)
      ::flock(fd, LOCK_EX | LOCK_NB);
  }
  ~DirLock()
  {
    if (fd >= 0)
      ::close(fd);
  }
  DirLock(const DirLock&) = delete;
  DirLock& operator=(const DirLock&) = delete;
};
}  // namespace

std::string sweep_point_name(const SweepSpec& spec, int ranks, int k)
{
  return std::to_string(ranks) + " ranks" +
         (k < 0 ? "" : " with " + spec.vary_path + "=" + spec.vary_values[static_cast<size_t>(k)]);
}

void run_sweep(const SweepSpec& spec, const std::function<nlohmann::json(int, int)>& point,
               const std::function<nlohmann::json(const nlohmann::json&)>& sweep_fields)
{
  std::string dir = spec.results_dir, tmpdir;
  if (dir.empty()) {
    const char* env = std::getenv("TMPDIR");
    const std::string base = env && *env ? env : "/tmp";
    remove_dead_sweeps_dirs(base);
    // The machine and the sweep's pid in the name: a sweep killed by SIGKILL (no handler runs) leaves its directory,
    // and a later sweep on this machine removes it once that pid is gone.
    std::string tmpl = base + "/pfsim-sweep-" + host_tag() + "-" + std::to_string(::getpid()) + "-XXXXXX";
    if (!::mkdtemp(tmpl.data()))
      throw std::runtime_error("cannot create a temporary directory from " + tmpl);
    dir = tmpdir = tmpl;
  }
  const DirLock held(tmpdir);
  // (--results-dir: created if missing, not its parents, which the command line checked: check_output_dir)
  const bool made_dir = std::filesystem::create_directory(dir);
  // The points: every rank count, value by value of --vary (k = -1 without one).
  struct Point {
    int ranks;
    int k;
  };
  std::vector<Point> points;
  for (int k = spec.vary_values.empty() ? -1 : 0; k < static_cast<int>(spec.vary_values.size()); ++k)
    for (int r : spec.ranks)
      points.push_back({r, k});
  auto point_file = [&](const Point& p) {
    return dir + "/ranks-" + std::to_string(p.ranks) + (p.k < 0 ? "" : "-vary" + std::to_string(p.k + 1)) + ".json";
  };
  auto point_name = [&](const Point& p) { return sweep_point_name(spec, p.ranks, p.k); };
  // Points of an earlier sweep in a reused --results-dir that this one does not rewrite (a reader of ranks-*.json
  // would mix their configurations with this sweep's).
  const auto before = snapshot_output_dir("--results-dir", tmpdir.empty() ? dir : "", "ranks", ".json");
  const pid_t parent = ::getpid();

  // A signal to the sweep stops it cleanly: the points are stopped (they also die with the parent), the temporary
  // directory goes, and the process then dies of the signal as it would have. (Without it a killed sweep left its
  // /tmp/pfsim-sweep-* behind.) No SA_RESTART: wait() returns EINTR and the loop sees the signal.
  struct sigaction stop {}, old_term {}, old_int {}, old_hup {};
  stop.sa_handler = on_stop_signal;
  sigemptyset(&stop.sa_mask);
  g_stop_signal = 0;
  // A signal the sweep was started to ignore (nohup, a background job's SIGINT) stays ignored.
  for (auto [sig, old] : {std::pair{SIGTERM, &old_term}, {SIGINT, &old_int}, {SIGHUP, &old_hup}}) {
    ::sigaction(sig, nullptr, old);
    if (old->sa_handler != SIG_IGN)
      ::sigaction(sig, &stop, nullptr);
  }
  auto restore_signals = [&] {
    ::sigaction(SIGTERM, &old_term, nullptr);
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGHUP, &old_hup, nullptr);
  };
  std::fflush(nullptr);
  size_t next = 0;
  int running = 0;
  bool failed = false;
  std::map<pid_t, size_t> point_of;  // running children: their point
  std::vector<size_t> finished;      // points whose child ended with their results written
  int died_of_stop = 0;           // points that died of the stop signal before the sweep saw it (still "running")
  while ((next < points.size() && !failed) || running > 0) {
    if (g_stop_signal != 0) {
      const int sig = g_stop_signal;
      std::fprintf(stderr, "pfsim: sweep stopped by %s (%d point(s) running, stopped): no table written\n",
                   sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal",
                   running + died_of_stop);
      for (const auto& [pid, r] : point_of)
        ::kill(pid, SIGTERM);
      while (::wait(nullptr) > 0 || errno == EINTR) {
      }
      std::error_code ec;
      if (!tmpdir.empty())
        std::filesystem::remove_all(tmpdir, ec);
      else if (made_dir && std::filesystem::is_empty(dir, ec))
        std::filesystem::remove(dir, ec);  // made for this sweep, and no point finished (as when a point fails)
      restore_signals();
      ::raise(sig);  // dies of it (the default action)
      ::_exit(128 + sig);
    }
    if (next < points.size() && running < spec.jobs && !failed) {
      const size_t i = next++;
      const Point pt = points[i];
      pid_t pid = ::fork();
      if (pid < 0) {  // no new point; the running ones are waited for, then the failure is reported
        std::fprintf(stderr, "pfsim: point %s: fork failed\n", point_name(pt).c_str());
        failed = true;
        continue;
      }
      if (pid == 0) {
        restore_signals();  // a point dies of a signal as a single run does
        set_interrupt_line(false);  // (the sweep says it stopped)
        // A point dies with the sweep: a signal to the parent only (a batch system's, a kill) left the points running,
        // and they wrote their results after the sweep had gone.
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent)  // the parent died before the line above
          ::_exit(1);
        int rc = 0;
        try {
          write_file_atomic(point_file(pt), point(pt.ranks, pt.k).dump(2) + "\n");
        } catch (const std::exception& e) {
          std::fprintf(stderr, "pfsim: point %s: %s\n", point_name(pt).c_str(), e.what());
          rc = 1;
        }
        std::fflush(nullptr);
        ::_exit(rc);
      }
      point_of[pid] = i;
      running++;
      continue;
    }
    int status = 0;
    const pid_t done = ::wait(&status);
    if (done > 0) {
      running--;
      const size_t i = point_of[done];
      point_of.erase(done);
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        finished.push_back(i);
      } else if (WIFSIGNALED(status) &&
                 (WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGTERM || WTERMSIG(status) == SIGHUP)) {
        // A Ctrl-C reaches the whole process group: a point may die of it before the sweep's own handler has run.
        // The sweep stops as if it had got the signal (one line, the signal's status), not as a failed point.
        if (g_stop_signal == 0)
          g_stop_signal = WTERMSIG(status);
        ++died_of_stop;
      } else {
        failed = true;
        if (WIFSIGNALED(status))  // (an exception says itself; a killed point could not)
          std::fprintf(stderr, "pfsim: point %s: killed by signal %d\n", point_name(points[i]).c_str(),
                       WTERMSIG(status));
      }
    } else if (errno != EINTR) {
      break;  // no child left to wait for
    }
  }
  restore_signals();
  if (failed) {
    // No table: it would lack points. Each finished point's results are complete (written atomically), so a
    // --results-dir keeps them (a long what-if sweep stopped by one --time-limit does not lose the others); without
    // one they go with the temporary directory.
    if (!tmpdir.empty()) {
      std::filesystem::remove_all(tmpdir);
      throw std::runtime_error("a sweep point failed (see above); no table written");
    }
    std::error_code ec;
    if (made_dir && std::filesystem::is_empty(dir, ec))
      std::filesystem::remove(dir, ec);  // made for this sweep, and nothing finished
    std::string kept;  // this sweep's finished points only (not an earlier sweep's files in the directory)
    for (size_t i = 0; i < points.size(); ++i)
      if (std::find(finished.begin(), finished.end(), i) != finished.end())
        kept += (kept.empty() ? "" : ", ") +
                (spec.vary_values.empty() ? std::to_string(points[i].ranks) : point_name(points[i]));
    std::string older;  // files this sweep did not write (an earlier sweep's), its unfinished points' among them
    for (const auto& name : left_unwritten(before))
      older += (older.empty() ? "" : ", ") + name;
    throw std::runtime_error("a sweep point failed (see above); no table written" +
                             (kept.empty() ? std::string()
                                          : "; the finished points' results (" +
                                                std::string(spec.vary_values.empty() ? "ranks " : "") + kept +
                                                                 ") are in " + dir) +
                             (older.empty() ? std::string() : "; " + older + " there are an earlier sweep's"));
  }

  const bool vary = !spec.vary_values.empty();
  std::string table = (vary ? csv_field(spec.vary_path) + "," : std::string()) + kSweepCsvHeader;
  if (!spec.extra_header.empty()) {  // the command's own columns, before the header's line end
    table.pop_back();
    table += spec.extra_header + "\n";
  }
  nlohmann::json meta = nlohmann::json::object();
  nlohmann::json pts = nlohmann::json::array();
  for (const Point& pt : points) {
    auto j = config::load_json_file(point_file(pt));
    const std::string rows = sweep_csv_rows(pt.ranks, j, spec.extra_header.empty() ? nullptr : spec.extra_fields);
    // The point's value as its effective platform holds it (base units: 200us is 0.0002; a string unquoted), so that
    // the column plots; the text as given when the platform does not hold the path as a number or a string.
    std::string effective;
    if (vary) {
      const nlohmann::json* at = &j["platform"];
      for (size_t b = 0; at != nullptr && b <= spec.vary_path.size();) {
        const size_t e = std::min(spec.vary_path.find('.', b), spec.vary_path.size());
        const std::string key = spec.vary_path.substr(b, e - b);
        at = at->is_object() && at->contains(key) ? &(*at)[key] : nullptr;
        b = e + 1;
      }
      effective = at == nullptr                       ? spec.vary_values[static_cast<size_t>(pt.k)]
                  : at->is_string()                   ? at->get<std::string>()
                  : at->is_number() || at->is_boolean() ? at->dump()
                                                      : spec.vary_values[static_cast<size_t>(pt.k)];
    }
    if (vary) {  // each row begins with the point's value
      const std::string value = csv_field(effective) + ",";
      for (size_t b = 0; b < rows.size();) {
        const size_t e = rows.find('\n', b);
        table += value + rows.substr(b, e - b + 1);
        b = e + 1;
      }
    } else {
      table += rows;
    }
    // The sweep's effective configuration (defaults filled in) beside the CSV: platform, workload, seed, and every
    // point's phases, so a CSV is never separated from what produced it.
    if (meta.empty()) {
      meta = {{"seed", j["seed"]}};
      if (!vary)  // (with --vary each point has its own, below)
        meta["platform"] = j["platform"];
      for (const char* k : {"pfsim_version", "build"})
        if (j.contains(k))
          meta[k] = j[k];
      meta.update(sweep_fields(j));  // the sweep's "inputs" (its rank list) and "workload"
    }
    pts.push_back({{"run", j["run"]}, {"phases", j["phases"]}, {"servers", j["servers"]}});
    for (const auto& key : spec.point_keys)
      if (j.contains(key))
        pts.back()[key] = j[key];
    if (vary) {  // each value's own platform
      pts.back()["vary"] = {{"path", spec.vary_path},
                            {"value", spec.vary_values[static_cast<size_t>(pt.k)]},
                            {"effective", effective}};
      pts.back()["platform"] = j["platform"];
    }
  }
  meta["ranks"] = spec.ranks;
  if (vary)
    meta["vary"] = {{"path", spec.vary_path}, {"values", spec.vary_values}};
  meta["points"] = pts;
  OutputBatch batch;  // the CSV and its configuration file land together
  write_file_atomic(spec.csv, table);
  write_file_atomic(spec.csv + ".json", meta.dump(1) + "\n");
  batch.commit();
  if (!tmpdir.empty())
    std::filesystem::remove_all(tmpdir);
  warn_unwritten(before, "a reader of the directory's ranks-*.json would mix an earlier sweep's points with this one's");
  if (!spec.quiet)
    std::cout << table;
}

}  // namespace pfsim::app
