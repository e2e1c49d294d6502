#include "report/outputs.hpp"

#include "pfsim_build_info.hpp"  // generated in the build directory (cmake/build_info.cmake)
#include "report/stats.hpp"

#include <xbt/base.h>  // (simgrid/version.h needs it first)
#include <simgrid/version.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <set>
#include <csignal>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>
#include <ctime>
#include <sstream>
#include <stdexcept>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>
#include <unordered_set>

namespace pfsim {

namespace {
std::atomic<unsigned long> temp_serial{0};  // temporary names unique within the process, not only per path

// Temporary files not yet renamed into place or removed. SIGINT, SIGTERM or SIGHUP (Ctrl-C, a batch system's
// kill) removes them before the process dies of the signal, so an interrupted run leaves neither outputs nor
// temporaries. The set changes only with those signals blocked, so the handler never sees it half-changed.
std::unordered_set<std::string>& live_temps()
{
  static std::unordered_set<std::string> s;
  return s;
}

// Directories make_output_dir created for a batch not yet committed: removed (rmdir, when empty) after the
// temporaries by the same handler, deepest last made first. Changed only with the signals blocked, as live_temps.
std::vector<std::string>& live_dirs()
{
  static std::vector<std::string> d;
  return d;
}

volatile std::sig_atomic_t g_interrupt_line = 1;  // set_interrupt_line
// Whether SIGINT, SIGTERM, SIGHUP were ignored when the process started (note_initial_signals), before SimGrid's
// engine installed its own SIGINT handler over an ignored SIGINT.
bool g_ignored_at_start[3] = {false, false, false};
int signal_slot(int sig) { return sig == SIGINT ? 0 : sig == SIGTERM ? 1 : 2; }

void remove_temps_and_die(int sig)
{
  // One line (write(2) is async-signal-safe; iostreams are not), then the temporaries, then the signal's death.
  if (g_interrupt_line != 0) {
    const char* name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "a signal";
    char line[160];
    int n = 0;
    for (const char* part : {"pfsim: stopped by ", name, " before the run finished; its outputs not yet in place were "
                                                         "removed\n"})
      for (const char* c = part; *c != '\0' && n < static_cast<int>(sizeof line); ++c)
        line[n++] = *c;
    [[maybe_unused]] const ssize_t w = ::write(2, line, static_cast<size_t>(n));
  }
  for (const auto& t : live_temps())
    ::unlink(t.c_str());
  for (auto d = live_dirs().rbegin(); d != live_dirs().rend(); ++d)
    ::rmdir(d->c_str());  // (async-signal-safe; fails, leaving it, unless empty)
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

}  // namespace

SignalsBlocked::SignalsBlocked()
{
  sigset_t s;
  sigemptyset(&s);
  for (int sig : {SIGINT, SIGTERM, SIGHUP})
    sigaddset(&s, sig);
  pthread_sigmask(SIG_BLOCK, &s, &old_);
}

SignalsBlocked::~SignalsBlocked() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

namespace {

// Taken over only from the default action: a signal ignored (nohup) or handled by someone else stays so. (Called
// with the signals blocked.)
void take_over_default_signals()
{
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction now {};
    if (sigaction(sig, nullptr, &now) == 0 && now.sa_handler == SIG_DFL && !(now.sa_flags & SA_SIGINFO))
      std::signal(sig, remove_temps_and_die);
  }
}

void track_temp(const std::string& tmp)
{
  SignalsBlocked b;
  if (live_temps().empty() && live_dirs().empty())
    take_over_default_signals();
  live_temps().insert(tmp);
}

void track_dir(const std::string& dir)
{
  SignalsBlocked b;
  if (live_temps().empty() && live_dirs().empty())
    take_over_default_signals();
  live_dirs().push_back(dir);
}

void untrack_dir(const std::string& dir)
{
  SignalsBlocked b;
  auto& d = live_dirs();
  d.erase(std::remove(d.begin(), d.end(), dir), d.end());
}

}  // namespace

void note_initial_signals()
{
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction now {};
    g_ignored_at_start[signal_slot(sig)] = sigaction(sig, nullptr, &now) == 0 && now.sa_handler == SIG_IGN;
  }
}

void set_interrupt_line(bool on) { g_interrupt_line = on ? 1 : 0; }

void install_interrupt_handler()
{
  SignalsBlocked b;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction now {};
    if (sigaction(sig, nullptr, &now) != 0)
      continue;
    if (g_ignored_at_start[signal_slot(sig)])
      std::signal(sig, SIG_IGN);  // nohup, a background job's SIGINT: stays ignored
    else if (now.sa_handler != SIG_IGN)
      std::signal(sig, remove_temps_and_die);
  }
}

namespace {
// ": <the system's reason>" for an errno, "" when there is none.
std::string os_reason(int err) { return err != 0 ? std::string(": ") + std::strerror(err) : std::string(); }

void untrack_temp(const std::string& tmp)
{
  SignalsBlocked b;
  live_temps().erase(tmp);
}

void discard_temp(const std::string& tmp)
{
  std::remove(tmp.c_str());
  untrack_temp(tmp);
}
}  // namespace

AtomicFile::AtomicFile(std::string path)
    : path_(std::move(path)),
      tmp_(path_ + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(temp_serial.fetch_add(1)))
{
  // The rename would replace whatever is at the path: a FIFO, a link, a device or a directory is refused.
  std::error_code ec;
  auto st = std::filesystem::symlink_status(path_, ec);
  if (!ec && std::filesystem::exists(st) && !std::filesystem::is_regular_file(st))
    throw std::runtime_error(path_ + ": exists and is not a regular file (not replaced)");
  track_temp(tmp_);
  errno = 0;
  out_.open(tmp_, std::ios::binary | std::ios::trunc);
  if (!out_) {
    const int err = errno;
    discard_temp(tmp_);
    throw std::runtime_error(path_ + ": cannot write (temporary " + tmp_ + ")" + os_reason(err));
  }
  errno = 0;
}

AtomicFile::~AtomicFile()
{
  if (!done_) {
    out_.close();
    discard_temp(tmp_);
  }
}

void AtomicFile::commit()
{
  // (the stream keeps no error code: errno as the failing write() left it, e.g. No space left on device; it was
  // cleared when the file was opened)
  out_.flush();
  bool ok = static_cast<bool>(out_);
  int err = ok ? 0 : errno;
  errno = 0;
  out_.close();  // a write the kernel deferred may fail only here (NFS, quota)
  if (ok && !out_) {
    ok = false;
    err = errno;
  }
  done_ = true;
  if (!ok) {
    discard_temp(tmp_);
    throw std::runtime_error(path_ + ": write failed" + os_reason(err));
  }
  if (OutputBatch* batch = OutputBatch::current()) {  // renamed with the run's other outputs (still tracked)
    batch->add(tmp_, path_);
    return;
  }
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const int err = errno;
    discard_temp(tmp_);
    throw std::runtime_error(path_ + ": cannot rename temporary file into place" + os_reason(err));
  }
  untrack_temp(tmp_);
}

namespace {
thread_local OutputBatch* current_batch = nullptr;
}

OutputBatch::OutputBatch() : previous_(current_batch) { current_batch = this; }

OutputBatch::~OutputBatch()
{
  current_batch = previous_;
  if (!done_)
    for (const auto& f : files_)
      discard_temp(f.first);
  for (auto d = dirs_.rbegin(); d != dirs_.rend(); ++d) {
    if (!done_)
      ::rmdir(d->c_str());  // made for this batch and, its files gone, empty (else kept: not ours to empty)
    untrack_dir(*d);
  }
}

OutputBatch* OutputBatch::current() { return current_batch; }

void (*OutputBatch::after_rename_for_test)() = nullptr;

void OutputBatch::commit()
{
  current_batch = previous_;
  done_ = true;
  SignalsBlocked hold;  // all renamed or none: a signal meanwhile is delivered when they are
  for (size_t i = 0; i < files_.size(); ++i) {
    if (std::rename(files_[i].first.c_str(), files_[i].second.c_str()) != 0) {
      const int err = errno;
      for (size_t j = i; j < files_.size(); ++j)
        discard_temp(files_[j].first);
      throw std::runtime_error(files_[i].second + ": cannot rename temporary file into place" + os_reason(err));
    }
    untrack_temp(files_[i].first);
    if (after_rename_for_test != nullptr)
      after_rename_for_test();
  }
  for (const auto& d : dirs_)  // in place with the files: no longer the signal handler's to remove
    untrack_dir(d);
  dirs_.clear();
}

void make_output_dir(const std::string& dir)
{
  std::error_code ec;
  if (std::filesystem::is_directory(dir, ec))
    return;
  if (!std::filesystem::create_directory(dir, ec) || ec) {
    if (std::filesystem::is_directory(dir))
      return;  // made meanwhile by another process: there now, not ours
    throw std::runtime_error(dir + ": cannot create the output directory" +
                             (ec ? ": " + ec.message() : std::string(" (it exists and is not a directory)")));
  }
  if (OutputBatch* batch = OutputBatch::current()) {
    track_dir(dir);
    batch->add_dir(dir);
  }
}

void write_file_atomic(const std::string& path, const std::string& content)
{
  AtomicFile f(path);
  f.out() << content;
  f.commit();
}

std::string clock_date(double t_s, const char* layout)
{
  const auto t = static_cast<std::time_t>(std::floor(std::max(0.0, t_s)));
  std::tm tm{};
  gmtime_r(&t, &tm);  // UTC: the same text whatever the machine's time zone
  char buf[64];
  std::strftime(buf, sizeof buf, layout, &tm);
  return buf;
}

std::string mdtest_date(double t_s)
{
  return clock_date(t_s, "%m/%d/%Y %H:%M:%S");
}

std::string mdtest_command_lines(const MdtestCommand& c)
{
  std::ostringstream os;
  os << "Command line used: mdtest";
  auto count = [&os](const char* opt, double v) { os << " '" << opt << "' '" << static_cast<long long>(std::llround(v)) << "'"; };
  if (!c.typed.empty()) {
    for (const auto& t : c.typed)  // mdtest prints its argv, quoted
      os << " '" << t << "'";
  } else {
    if (c.n >= 0)
      count("-n", static_cast<double>(c.n));
    if (c.w > 0)
      count("-w", c.w);
    if (c.e > 0)
      count("-e", c.e);
    if (c.iterations > 1)
      count("-i", static_cast<double>(c.iterations));
    for (const auto& [on, flag] : {std::pair{c.u, "-u"}, {c.F, "-F"}, {c.D, "-D"}})
      if (on)
        os << " '" << flag << "'";
    for (const auto& f : c.only_phases)
      os << " '" << f << "'";
    if (c.stride != 0)
      count("-N", static_cast<double>(c.stride));
    if (c.stonewall_s > 0)
      count("-W", static_cast<double>(c.stonewall_s));
    for (const auto& [on, flag] : {std::pair{c.sync, "-Y"}, {c.time_unique_dir, "-t"}})
      if (on)
        os << " '" << flag << "'";
  }
  if (!c.perop_prefix.empty())
    os << " '--savePerOpDataCSV=" << c.perop_prefix << "'";
  os << "\n" << c.nodemap;
  // mdtest's VERBOSE(0, ...) line of its shift, printed at the default verbosity (its format "V-%d: Rank %3d Line %5d ",
  // the line of mdtest.c 4.1.0+dev that prints it, as the real IO500 outputs show)
  if (c.shift > 0)
    os << "V-0: Rank   0 Line  2594 Shifting ranks by " << c.shift << " for each phase.\n";
  // mdtest's "<tasks> tasks, <tasks x -n> files/directories" (files with -F, directories with -D)
  if (c.n >= 0)
    os << c.tasks << " tasks, " << static_cast<unsigned long long>(c.tasks) * static_cast<unsigned long long>(c.n)
       << (c.F ? " files" : c.D ? " directories" : " files/directories") << "\n";
  return os.str();
}

nlohmann::json oss_data_json(const ServerRecord& s)
{
  auto bins = [](const std::array<uint64_t, ServerRecord::kPageBins>& h) {
    nlohmann::json j = nlohmann::json::object();
    for (size_t b = 0; b < h.size(); ++b)
      j[std::to_string(1u << b)] = h[b];
    return j;
  };
  return {{"written_bytes", s.data_written_B},
          {"read_bytes", s.data_read_B},
          {"write_rpcs_by_pages", bins(s.write_rpc_pages)},
          {"read_rpcs_by_pages", bins(s.read_rpc_pages)}};
}

std::string lmt_samples_csv(const RunRecords& records, double interval_s, double offset_s,
                            const nlohmann::json& effective)
{
  std::ostringstream o;
  o.precision(12);
  if (!effective.is_null())
    o << "# pfsim effective configuration: " << effective.dump() << "\n";
  o << "oss,start_s,end_s,written_bytes,read_bytes,write_MiB_per_s,read_MiB_per_s";
  for (const char* kind : {"write", "read"})
    for (size_t b = 0; b < ServerRecord::kPageBins; ++b)
      o << "," << kind << "_rpcs_" << (1u << b);  // RPCs of 2^(b-1) < pages <= 2^b in the interval
  o << "\n";
  // Every OSS, the idle ones too (LMT lists every OST), in the samples in which some OSS moved data.
  std::set<uint64_t> busy;
  for (const auto& s : records.servers)
    for (const auto& [k, v] : s.samples)
      busy.insert(k);
  for (const auto& s : records.servers) {
    if (s.name.rfind("oss-", 0) != 0)
      continue;
    for (uint64_t k : busy) {
      const auto it = s.samples.find(k);
      const ServerRecord::Sample none;
      const auto& v = it == s.samples.end() ? none : it->second;
      const double start = offset_s + (static_cast<double>(k) - 1) * interval_s;
      o << s.name << "," << start << "," << start + interval_s << "," << v.written_B << "," << v.read_B << ","
        << v.written_B / 1048576.0 / interval_s << "," << v.read_B / 1048576.0 / interval_s;
      for (const auto* bins : {&v.write_rpc_pages, &v.read_rpc_pages})
        for (uint64_t n : *bins)
          o << "," << n;
      o << "\n";
    }
  }
  return o.str();
}

double phase_rate(const PhaseRecord& p)
{
  double t = p.end_s - p.start_s;
  return t > 0 ? static_cast<double>(p.items) / t : 0.0;
}

nlohmann::json results_json(RunRecords& records, const nlohmann::json& header)
{
  nlohmann::json out = header;
  // What made the results: the source commit ("-dirty": with uncommitted changes) and the SimGrid it ran on.
  out["build"] = {{"commit", PFSIM_COMMIT},
                  {"simgrid", std::to_string(SIMGRID_VERSION_MAJOR) + "." + std::to_string(SIMGRID_VERSION_MINOR) +
                                  "." + std::to_string(SIMGRID_VERSION_PATCH)}};
  nlohmann::json phases = nlohmann::json::array();
  for (auto& p : records.phases) {
    nlohmann::json lat;
    if (records.latency_histograms) {
      LatencyHistogram all;
      for (Op op : kAllOps)
        all.merge(p.histogram_by_op[op]);
      lat["all"] = to_json(summarize(all));
      for (Op op : kAllOps)
        if (!p.histogram_by_op[op].empty())
          lat[op_name(op)] = to_json(summarize(p.histogram_by_op[op]));
    } else {
      std::vector<float> all = p.all_latencies();
      lat["all"] = to_json(summarize(all));
      for (Op op : kAllOps)
        if (!p.latencies_by_op[op].empty())
          lat[op_name(op)] = to_json(summarize(p.latencies_by_op[op]));
    }
    if (!p.item_histogram.empty())
      lat["item"] = to_json(summarize(p.item_histogram));
    double t = p.end_s - p.start_s;
    nlohmann::json ph = {{"name", p.name},
                         {"iteration", p.iteration},
                         {"items", p.items},
                         {"operations", p.ops},
                         {"start_s", p.start_s},
                         {"time_s", t},
                         {"rate_items_per_s", phase_rate(p)},
                         {"rate_ops_per_s", t > 0 ? static_cast<double>(p.ops) / t : 0.0},
                         {"latency", lat}};
    // The tool operations latency.item describes, and their rate: an md-workbench object is four of them (stat,
    // read, delete, create), so its items are not; Little's law is rate_tool_ops_per_s x latency.item.mean_s
    // (plus think time) = ranks.
    const auto n = p.item_histogram.count();  // 0 in a phase without operations (md-workbench -I 0)
    ph["tool_operations"] = n;
    ph["rate_tool_ops_per_s"] = t > 0 ? static_cast<double>(n) / t : 0.0;
    phases.push_back(ph);
  }
  out["phases"] = phases;
  if (records.latency_histograms)
    out["latency_percentiles"] = "log histogram, 256 buckets per doubling: within 0.14% of the nearest-rank "
                                 "sample (no per-operation samples kept)";
  nlohmann::json servers = nlohmann::json::array();
  const bool moved_data = std::any_of(records.servers.begin(), records.servers.end(),
                                      [](const ServerRecord& s) { return s.data_written_B > 0 || s.data_read_B > 0; });
  for (const auto& s : records.servers) {
    double span = records.end_s;
    servers.push_back({{"name", s.name},
                       {"served", s.served},
                       {"abandoned_served", s.abandoned},
                       {"threads_started", s.threads_started},
                       {"readpage_threads_started", s.readpage_threads_started},
                       {"busy_thread_seconds", s.busy_time_s},
                       // Servers without a core model (an OSS: its threads' service is busy_thread_seconds) have
                       // no CPU figures: null, not a 0 that reads as an idle server.
                       {"cpu_seconds", s.cores > 0 ? nlohmann::json(s.cpu_s) : nlohmann::json()},
                       {"cpu_utilization", s.cores > 0 ? nlohmann::json(span > 0 ? s.cpu_s / (s.cores * span) : 0.0)
                                                       : nlohmann::json()},
                       {"mean_in_system", span > 0 ? s.area_in_system / span : 0.0},
                       {"throughput_per_s", span > 0 ? static_cast<double>(s.served) / span : 0.0},
                       {"mean_sojourn_s", s.served ? s.sojourn_sum_s / static_cast<double>(s.served) : 0.0},
                       {"max_queue", s.max_queue},
                       {"journal_commits", s.journal_commits},
                       {"journal_handle_waits", s.journal_handle_waits}});
    if (moved_data && s.name.rfind("oss-", 0) == 0)  // LMT-like counters of every OSS, when data moved
      servers.back()["data"] = oss_data_json(s);
    if (s.straggler_slow_s >= 0)
      servers.back()["stragglers"] = {{"slow_s", s.straggler_slow_s},
                                      {"slow_fraction", span > 0 ? s.straggler_slow_s / span : 0.0},
                                      {"slow_periods", s.straggler_periods}};
  }
  out["servers"] = servers;
  out["resends"] = records.resends;
  out["client_cache_reads"] = {{"reads", records.cache_reads}, {"bytes", records.cache_read_B}};
  out["client_readahead_reads"] = {{"reads", records.readahead_reads}, {"bytes", records.readahead_read_B}};
  if (records.local_stats > 0)
    out["client_local_stats"] = records.local_stats;
  out["client_discarded_writes"] = {{"pieces", records.discarded_pieces}, {"bytes", records.discarded_B}};
  out["client_rewritten_writes"] = {{"pieces", records.rewritten_pieces}, {"bytes", records.rewritten_B}};
  out["simulated_time_s"] = records.end_s;
  return out;
}

std::string mdtest_stonewall_line(const PhaseRecord& phase, uint64_t items_per_rank, int ranks)
{
  // mdtest: hit when o.items != sum / size (integer division), i.e. when some rank had made fewer than -n
  if (!phase.wear_out || ranks < 1 || phase.stonewall_pairs_sum / static_cast<uint64_t>(ranks) == items_per_rank)
    return "";
  char line[160];
  std::snprintf(line, sizeof line, "Continue stonewall hit min: %llu max: %llu avg: %.1f \n\n",
                static_cast<unsigned long long>(phase.stonewall_pairs_min),
                static_cast<unsigned long long>(phase.stonewall_pairs_max),
                static_cast<double>(phase.stonewall_pairs_sum) / ranks);
  return line;
}

namespace {
// mdtest 4.1's tests (mdtest_test_num_t) in its order, by the names its output and pfsim's phases give them.
constexpr std::array<const char*, 11> kMdtestTests{"Directory creation", "Directory stat", "Directory read",
                                                   "Directory rename", "Directory removal", "File creation",
                                                   "File stat", "File read", "File removal", "Tree creation",
                                                   "Tree removal"};
constexpr size_t kMdtestDirRead = 2, kMdtestTreeCreate = 9;

// ",<items / time>,<time>" in mdtest's %.10e (an empty time: inf, as C prints it), ",," without items.
std::string rank_csv_fields(double items, double time_s)
{
  if (items <= 0)
    return ",,";
  char f[96];
  std::snprintf(f, sizeof f, ",%.10e,%.10e", items / time_s, time_s);
  return f;
}
}  // namespace

std::string mdtest_rank_csv(const RunRecords& records, const MdtestRankDetails& d)
{
  std::string out = "rank,items";
  for (const char* test : kMdtestTests)
    out += std::string(",rate-") + test + ",time-" + test;
  out += "\n";
  int iterations = 1;
  for (const auto& p : records.phases)
    iterations = std::max(iterations, p.iteration + 1);
  auto find = [&records](const char* test, int iteration) -> const PhaseRecord* {
    for (const auto& p : records.phases)
      if (p.iteration == iteration && p.name == test)
        return &p;
    return nullptr;
  };
  const auto ranks = static_cast<uint64_t>(d.ranks);
  // "all": the first iteration's aggregate (StoreRankInformation reads agg->, the first of the iterations' results)
  out += "all," + std::to_string(d.items);
  for (size_t e = 0; e < kMdtestTests.size(); ++e) {
    if (const PhaseRecord* p = find(kMdtestTests[e], 0))
      out += rank_csv_fields(static_cast<double>(e >= kMdtestTreeCreate ? ranks : p->items), p->end_s - p->start_s);
    else if (e == kMdtestDirRead && d.dir_read)
      out += rank_csv_fields(static_cast<double>(d.items * ranks), 0.0);
    else
      out += ",,";
  }
  out += "\n";
  for (int it = 0; it < iterations; ++it)
    for (uint64_t r = 0; r < ranks; ++r) {
      out += std::to_string(r) + ",";
      for (size_t e = 0; e < kMdtestTreeCreate; ++e) {
        if (const PhaseRecord* p = find(kMdtestTests[e], it)) {
          const uint64_t items = p->rank_pairs.empty() ? p->items / ranks : p->rank_pairs[r];
          const double end = p->rank_end_s.empty() ? p->end_s : p->rank_end_s[r];
          out += rank_csv_fields(static_cast<double>(items), end - p->start_s);
        } else if (e == kMdtestDirRead && d.dir_read) {
          out += rank_csv_fields(static_cast<double>(d.items), 0.0);
        } else {
          out += ",,";
        }
      }
      out += "\n";
    }
  return out;
}

std::string mdtest_summary_table(const std::vector<std::pair<std::string, std::vector<double>>>& rates, int iterations,
                                 const char* heading)
{
  std::ostringstream o;
  // mdtest prints "iterations" whatever the count ("(of 1 iterations)").
  o << "\n" << heading << ": (of " << iterations << " iterations)\n";
  o << "   Operation                     Max            Min           Mean        Std Dev\n";
  o << "   ---------                     ---            ---           ----        -------\n";
  char line[256];
  for (const auto& [name, v] : rates) {
    MeanSd m = mean_sd(v);
    std::snprintf(line, sizeof line, "   %-22s %14.3f %14.3f %14.3f %14.3f\n", name.c_str(), m.max, m.min, m.mean, m.sd);
    o << line;
  }
  return o.str();
}

std::string mdtest_summary(const RunRecords& records, int iterations, const std::vector<std::string>& rows, bool times)
{
  auto grouped = [&](auto value) {
    std::vector<std::pair<std::string, std::vector<double>>> v;
    for (const auto& p : records.phases) {
      auto it = std::find_if(v.begin(), v.end(), [&](const auto& r) { return r.first == p.name; });
      if (it == v.end())
        v.push_back({p.name, {value(p)}});
      else
        it->second.push_back(value(p));
    }
    if (rows.empty()) {
      // mdtest lists the tree rows last, although the tree is made first and removed last in every iteration.
      std::stable_partition(v.begin(), v.end(), [](const auto& r) { return r.first.rfind("Tree ", 0) != 0; });
      return v;
    }
    std::vector<std::pair<std::string, std::vector<double>>> ordered;
    for (const auto& name : rows) {
      auto it = std::find_if(v.begin(), v.end(), [&](const auto& r) { return r.first == name; });
      ordered.push_back(it != v.end() ? *it : std::pair{name, std::vector<double>(std::max(1, iterations), 0.0)});
    }
    return ordered;
  };
  std::string out = mdtest_summary_table(grouped([](const PhaseRecord& p) { return phase_rate(p); }), iterations);
  if (times)
    out += mdtest_summary_table(grouped([](const PhaseRecord& p) { return p.end_s - p.start_s; }), iterations,
                                "SUMMARY time (in ms/op)");
  return out;
}

void write_latency_files(const std::string& dir, const std::string& prefix, const RunRecords& records)
{
  make_output_dir(dir);
  for (const auto& p : records.phases) {
    // Rank order, then start time: sort 4-byte indices, not copies of the samples, and stream the lines.
    const auto& s = p.samples;
    if (s.size() > std::numeric_limits<uint32_t>::max())
      throw std::runtime_error("phase " + p.name + ": more than 2^32 samples for one latency file");
    std::vector<uint32_t> order(s.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&s](uint32_t a, uint32_t b) { return rank_then_start(s[a], s[b]); });
    std::string name = p.name;
    std::replace(name.begin(), name.end(), ' ', '_');
    AtomicFile f(dir + "/" + prefix + "-" + std::to_string(p.iteration) + "-" + name + "-all.csv");
    // One row per client RPC (a metabench create is two: the create and its close), so the rank and the RPC's kind
    // are columns: a script can split the file by either (time and runtime as md-workbench writes them).
    f.out() << "time,runtime,rank,op\n";
    char buf[96];
    for (uint32_t i : order) {
      int n = std::snprintf(buf, sizeof buf, "%.7f,%.4e,%u,%s\n", s[i].start_s, s[i].runtime_s,
                            static_cast<unsigned>(s[i].rank), op_name(s[i].op));
      f.out().write(buf, n);
    }
    f.commit();
  }
}

void append_mdtest_perop_row(std::string& rows, double start_s, double runtime_s, double size_B)
{
  const double rt = std::max(runtime_s, 1e-12);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.8e,%.8e,%e\n", std::max(0.0, start_s), rt, size_B / rt);
  rows += buf;
}

std::string mdtest_perop_file_name(const std::string& prefix, const std::string& phase, uint32_t rank)
{
  char r[16];
  std::snprintf(r, sizeof r, "%05u", rank);
  return prefix + "-" + phase + "-" + r + ".csv";
}

void write_mdtest_perop_file(const std::string& dir, const std::string& prefix, const std::string& phase,
                             uint32_t rank, const std::string& rows)
{
  write_file_atomic(dir + "/" + mdtest_perop_file_name(prefix, phase, rank), "time,runtime,tp\n" + rows);
}

void write_mdtest_perop_files(const std::string& dir, const std::string& prefix, const RunRecords& records,
                              const std::vector<size_t>& rpcs_per_item, double object_size_B)
{
  if (rpcs_per_item.size() != records.phases.size())
    throw std::logic_error("mdtest per-op files: " + std::to_string(rpcs_per_item.size()) + " phase shapes for " +
                           std::to_string(records.phases.size()) + " phases");
  make_output_dir(dir);
  std::map<std::string, size_t> last;  // phase name -> index of its last iteration
  for (size_t i = 0; i < records.phases.size(); ++i)
    last[records.phases[i].name] = i;
  for (const auto& [name, pi] : last) {
    if (name.rfind("File ", 0) != 0)
      continue;  // mdtest 4.1 keeps per-operation data of its File phases only (no Directory or Tree files)
    const auto& p = records.phases[pi];
    const size_t k = std::max<size_t>(1, rpcs_per_item[pi]);
    const double size = name.find("stat") != std::string::npos ? 1.0 : object_size_B;
    std::vector<uint32_t> order(p.samples.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(),
                     [&s = p.samples](uint32_t a, uint32_t b) { return rank_then_start(s[a], s[b]); });
    std::map<uint32_t, std::string> text;  // rank -> rows
    for (size_t i = 0; i < order.size(); i += k) {
      const auto& first = p.samples[order[i]];
      if (i + k > order.size() || p.samples[order[i + k - 1]].rank != first.rank)
        throw std::logic_error("mdtest per-op files: phase " + name + ": rank " + std::to_string(first.rank) +
                               " has a number of client operations that is not a multiple of " + std::to_string(k));
      const auto& lastop = p.samples[order[i + k - 1]];
      append_mdtest_perop_row(text[first.rank], first.start_s,
                              static_cast<double>(lastop.start_s) + lastop.runtime_s - first.start_s, size);
    }
    for (const auto& [rank, rows] : text)
      write_mdtest_perop_file(dir, prefix, name, rank, rows);
  }
}

}  // namespace pfsim
