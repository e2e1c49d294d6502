#include "model/simulation.hpp"

#include "config/reader.hpp"

#include "model/client.hpp"
#include "model/platform.hpp"
#include "model/servers.hpp"
#include "report/outputs.hpp"

#include <simgrid/Exception.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <memory>
#include <optional>

namespace sg4 = simgrid::s4u;

namespace pfsim {

namespace {
// Every operation the workload sends to the MDS needs a CPU demand in the platform: a missing "service.<op>" would
// silently cost nothing (a platform without "service" ran network-bound). Rank 0's operations of every phase
// name the kinds (every rank issues the same kinds; mdtest's tree phases are rank 0's).
void check_service_demands(const config::PlatformConfig& platform, const Workload& workload)
{
  const PerOp<bool> used = workload.kinds_used();
  for (Op op : kAllOps)
    if (used[op] && op != Op::Write && op != Op::Read && !platform.mds.service_given[op]) {
      // The file, and the --set that removed the field if one did: the last whose value sets it to null (a --set
      // merges into the file's object, so only an explicit null removes a field).
      const std::string field = std::string("mds.service.") + op_name(op);
      std::string where = platform.file.empty() ? "platform " + platform.name : platform.file;
      for (auto it = platform.sets.rbegin(); it != platform.sets.rend(); ++it)
        if (config::set_gives_field(*it, field, true)) {
          where = "--set " + *it + " (" + where + ")";
          break;
        }
      throw config::ConfigError(where + ": " + field + ": missing; the workload sends " +
                                op_name(op) + " requests to the MDS (expected a CPU demand, e.g. \"100us\"; "
                                "\"0us\" if it is really free)");
    }
}
// SimGrid maps each actor's stack (and a guard page after it, a second mapping) into the process; Linux refuses
// more than vm.max_map_count mappings (65530 by default), and SimGrid then aborts ("Failed to protect stack").
// The actors are known before the run: one per client node, the MDS threads (started on demand: never more than
// the requests that can wait at once, nodes x max_rpcs_in_flight, times the copies resends leave in the queues),
// the OSS threads (all started at once), their reply senders, the servers' doors, the journal and the watchdog.
// Without guard pages a run fits twice as many (guard pages only catch a stack overflow of the simulator itself);
// beyond that it is refused with what to change.
std::string actor_guard_arg(const config::PlatformConfig& platform, int nodes, int ranks_per_node)
{
  const auto& m = platform.mds;
  const auto& to = m.timeouts;
  const long long copies = to.enabled ? static_cast<long long>(to.max_resends) + 1 : 1;
  // A rank has one request out at a time: a node sends at most min(its ranks, max_rpcs_in_flight).
  const long long per_node = std::min(std::max(1, ranks_per_node), platform.clients.max_rpcs_in_flight);
  const long long waiting = static_cast<long long>(nodes) * per_node * copies;
  const int parts = m.partitions.enabled ? m.partitions.count : 1;
  auto started = [&](const config::ThreadConfig& t) {  // at most max; at least min (and one per partition)
    return std::min<long long>(t.max, std::max<long long>({waiting + parts, t.min, parts}));
  };
  const long long mds_threads = started(m.threads) + started(m.readpage_threads);
  const long long per_mds = mds_threads + platform.network.reply_senders + 3;  // the 2 counted before the doors (the journal's among them) + the door
  const long long per_oss = static_cast<long long>(platform.oss.threads) + platform.network.reply_senders + 2;  // + the door and the pacer
  const long long actors = nodes + m.count * per_mds + platform.oss.count * per_oss + 8;
  long long limit = 65530;
  if (std::ifstream in("/proc/sys/vm/max_map_count"); in)
    in >> limit;
  const long long spare = 4096;  // the process's own mappings (libraries, heap, the engine)
  if (2 * actors + spare <= limit)
    return {};
  if (actors + spare <= limit)
    return "--cfg=contexts/guard-size:0";
  // Name what to change: the client nodes, or the servers' thread counts when they are most of the actors.
  const long long server_threads = m.count * mds_threads + platform.oss.count * static_cast<long long>(platform.oss.threads);
  const long long senders = (static_cast<long long>(m.count) + platform.oss.count) * platform.network.reply_senders;
  const std::string what =
      senders > server_threads && senders > nodes
          ? "lower network.reply_senders (" + std::to_string(platform.network.reply_senders) + " per server, " +
                std::to_string(senders) + " in all)"
      : server_threads > nodes
          ? "lower the servers' threads (mds.threads.max, mds.readpage_threads.max: " + std::to_string(m.count * mds_threads) +
                " MDS threads can start; oss.threads: " +
                std::to_string(platform.oss.count * static_cast<long long>(platform.oss.threads)) + " OSS threads)"
          : "use more ranks per node (--ranks-per-node)";
  throw config::ConfigError(
      "this run needs about " + std::to_string(actors) + " simulated actors (" + std::to_string(nodes) +
      " client nodes, one each, plus the servers' threads, reply senders and doors), each with its own stack mapping, but "
      "vm.max_map_count is " + std::to_string(limit) + ": " + what + ", or raise the limit (sysctl "
      "vm.max_map_count=" + std::to_string(2 * (actors + spare)) + ")");
}

// SimGrid options that SimGrid itself accepts but that break a run: a non-positive max-min precision crashes the
// solver, a concurrency limit of 0 lets no transfer start (the run never ends), a negative TCP window is meaningless.
void check_simgrid_cfg(const std::vector<std::string>& args)
{
  for (const auto& a : args) {
    if (a.rfind("--cfg=", 0) != 0)
      continue;
    const std::string kv = a.substr(6);
    const auto colon = kv.find(':');
    if (colon == std::string::npos || colon == 0)
      throw std::invalid_argument(a + ": expected --cfg=<key>:<value> (--cfg=help lists SimGrid's keys)");
    const std::string key = kv.substr(0, colon);
    const std::string value = kv.substr(colon + 1);
    auto number = [&](double& v) {
      char* end = nullptr;
      v = std::strtod(value.c_str(), &end);
      return !value.empty() && end != nullptr && *end == '\0' && std::isfinite(v);
    };
    double v = 0;
    if (key == "maxmin/precision" || key == "surf/precision") {
      if (!number(v) || v <= 0)
        throw std::invalid_argument(a + ": expected a positive number (the max-min solver's precision)");
    } else if (key == "maxmin/concurrency-limit") {
      if (!number(v) || v != std::floor(v) || (v < 1 && v != -1))
        throw std::invalid_argument(a + ": expected an integer of at least 1, or -1 for no limit (0 lets no "
                                        "transfer start)");
    } else if (key == "network/TCP-gamma") {
      if (!number(v) || v < 0)
        throw std::invalid_argument(a + ": expected a TCP window of at least 0 bytes (0: no window)");
    }
  }
}
// What begins each of a run's warnings: a sweep point's begin with its name (helper-121: a sweep's lines did not say
// which point they were of).
std::string warning_head(const RunOptions& options)
{
  return "pfsim: warning: " + (options.point.empty() ? std::string() : options.point + ": ");
}

// A size in bytes, with its binary unit when it is a whole number of them or at least a MiB: "1048576 B (1 MiB)",
// "65536 B (64 KiB)", "3900 B".
std::string bytes_text(double b)
{
  char text[64];
  static const std::pair<double, const char*> units[] = {{1024.0 * 1024 * 1024, "GiB"}, {1024.0 * 1024, "MiB"},
                                                          {1024.0, "KiB"}};
  for (const auto& [unit, name] : units)
    if (b >= unit && (b >= 1024.0 * 1024 || std::fmod(b, unit) == 0)) {
      std::snprintf(text, sizeof text, "%.0f B (%.4g %s)", b, b / unit, name);
      return text;
    }
  std::snprintf(text, sizeof text, "%.0f B", b);
  return text;
}

// The load laws that state the size of the calls they were fitted on (clients.load_delay.per_op.<op>.fitted_size)
// and delayed calls of a size outside [fitted / 2, 2 x fitted] in this run: one line per law (at most one per run),
// after the run, from the counts the nodes kept (RunContext::law_sizes). The delay stays the law's as fitted.
std::string law_size_warnings(const config::PlatformConfig& platform, const PerOp<RunContext::LawSizes>& sizes,
                              const std::string& head)
{
  std::string out;
  const auto& ld = platform.clients.load_delay;
  for (Op op : kAllOps) {
    const auto& l = ld.law[op];
    const auto& n = sizes[op];
    if (!ld.enabled || !l.set || n.outside == 0)
      continue;
    const double f = config::LoadDelayLaw::kFittedSizeFactor;
    char line[1024];
    std::snprintf(line, sizeof line,
                  "%sclients.load_delay %s: fitted on %ss of %s (clients.load_delay.per_op.%s.fitted_size); %llu of "
                  "the %llu %ss it delayed in this run were of %s%s%s, outside [%.0f, %.0f] B (a factor %g either "
                  "side): the law's delay (%.4g us + %.4g us x n) was applied to them as fitted, not scaled to their "
                  "size (--set clients.load_delay.enabled=false leaves the laws out)\n",
                  head.c_str(), op_name(op), op_name(op), bytes_text(l.fitted_size_B).c_str(), op_name(op),
                  static_cast<unsigned long long>(n.outside), static_cast<unsigned long long>(n.delayed), op_name(op),
                  bytes_text(n.min_B).c_str(), n.max_B > n.min_B ? " to " : "",
                  n.max_B > n.min_B ? bytes_text(n.max_B).c_str() : "", l.fitted_size_B / f, l.fitted_size_B * f, f,
                  l.base_s * 1e6, l.per_unit_s * 1e6);
    out += line;
  }
  return out;
}
}  // namespace

void check_before_run(const config::PlatformConfig& platform, const Workload& workload, const RunOptions& options)
{
  check_service_demands(platform, workload);
  check_simgrid_cfg(options.simgrid_args);
  const int rpn = options.ranks_per_node > 0 ? options.ranks_per_node : platform.clients.ranks_per_node;
  actor_guard_arg(platform, (workload.ranks() + rpn - 1) / rpn, rpn);  // throws when the run cannot fit
}

std::string run_warnings(const config::PlatformConfig& platform, const Workload& workload, const RunOptions& options)
{
  const std::string head = warning_head(options);
  std::string out;
  for (const auto& w : options.warnings)
    out += head + w + "\n";
  char line[1024];  // (a sweep point's name may begin it)
  // A run of hundreds of millions of the tool's operations is accepted (the parameters may be meant), but said: pfsim
  // simulates from about 20,000 (large trace replays) to 600,000 (metabench) of them per wall second on one core, so
  // 1e8 take 3 minutes to 1.4 hours.
  const long double items = workload.operations();
  // The bulk RPCs of large reads and writes count too: a 1 GiB transfer is one IOR operation and 1,024 RPCs.
  const long double rpcs = static_cast<long double>(workload.data_bytes()) /
                           (4096.0L * static_cast<long double>(platform.clients.max_pages_per_rpc));
  // (Also with --time-limit: it bounds the simulated time, and a run of many RPCs may take little of it, helper-91.)
  if (items + rpcs > 1e8L) {
    // How long, at the two speeds: the unit that gives the fewest digits above 1 (4e12 operations: 77 days to 6.3 years).
    auto span = [](long double seconds) {
      static const std::pair<long double, const char*> units[] = {
          {31557600.0L, "years"}, {86400.0L, "days"}, {3600.0L, "hours"}, {60.0L, "minutes"}};
      char text[64];
      for (const auto& [unit, name] : units)
        if (seconds >= 2 * unit) {
          const long double v = seconds / unit;  // 2 significant digits, without an exponent below a million
          std::snprintf(text, sizeof text, v < 10 ? "%.1Lf %s" : v < 1e6L ? "%.0Lf %s" : "%.2Lg %s", v, name);
          return std::string(text);
        }
      std::snprintf(text, sizeof text, "%.0Lf seconds", seconds);
      return std::string(text);
    };
    const long double n = items + rpcs;
    // A stonewall (IOR -D, mdtest -W) ends its phase after so many seconds: the count is then the most it could be
    // (io500.py --no-caps: 1.7e8 for IO500's default sizes, of which a 5 s stonewall ran a few million).
    bool stonewalled = false;
    for (int ph = 0; ph < workload.phase_count() && !stonewalled; ++ph)
      stonewalled = workload.stonewall(ph).deadline_s > 0;
    std::snprintf(line, sizeof line, "%sthis run simulates %s%.3Lg of the tool's operations and bulk RPCs, "
                  "%s to %s of wall time at 0.6-0.02 million per second%s; --time-limit stops it only once that much "
                  "simulated time has passed\n", head.c_str(), stonewalled ? "up to " : "", n, span(n / 6e5L).c_str(),
                  span(n / 2e4L).c_str(), stonewalled ? " (its stonewall, -D or -W, ends its phases sooner)" : "");
    out += line;
  }

  // A load law past its data: the run's population can reach its rank count (active ranks; the other ranks'
  // metadata operations in flight stay below it), which the line extrapolates beyond twice the fitted range.
  const auto& ld = platform.clients.load_delay;
  std::optional<PerOp<bool>> used;  // the operations the workload sends (asked only when a law would warn)
  if (ld.enabled)
    for (Op op : kAllOps) {
      const auto& l = ld.law[op];
      if (l.set && l.fitted_up_to > 0 && l.per_unit_s > 0 && workload.ranks() > 2 * l.fitted_up_to) {
        if (!used)
          used = workload.kinds_used();
        if (!(*used)[op])  // (helper-102: pfsim find warned about the create and unlink laws)
          continue;
        std::snprintf(line, sizeof line, "%sclients.load_delay %s: fitted on populations up to %.0f; this "
                      "run of %d ranks reaches up to %.4gx that (more than twice), where the law's line (%.3g us + %.3g us x n) is an "
                      "extrapolation\n", head.c_str(), op_name(op), l.fitted_up_to, workload.ranks(), workload.ranks() / l.fitted_up_to,
                      l.base_s * 1e6, l.per_unit_s * 1e6);
        out += line;
      }
    }
  // Directory locking acts on directories several ranks update; in a workload of unique directories an override of
  // it changes nothing (the same rates to the last digit), which the run says.
  std::optional<bool> shared;  // asked once, and only for such an override (a workload may walk its operations)
  auto unshared = [&] {
    if (!shared)
      shared = workload.uses_shared_dirs();
    return !*shared;
  };
  for (const auto& s : platform.sets) {
    const std::string path = s.substr(0, s.find('='));
    for (const char* block : {"mds.dir_lock", "mds.mechanisms.lock_callbacks"})
      if ((path == block || path.rfind(std::string(block) + ".", 0) == 0 || config::set_gives_field(s, block)) &&
          unshared()) {
        out += head + "--set " + s + ": " + block + " acts only on directories that several ranks use, and "
               "this workload has none (each rank its own), so this changes nothing\n";
        break;
      }
  }
  // The per-client cost past its data: it grows linearly with the client nodes (docs/mechanisms.md b), a line the
  // fit drew through at most fitted_up_to nodes.
  const auto& pc = platform.mds.per_client;
  const int rpn = options.ranks_per_node > 0 ? options.ranks_per_node : platform.clients.ranks_per_node;
  const int nodes = (workload.ranks() + rpn - 1) / rpn;
  // With CPU partitions a request pays for its partition's clients only (node n is bound to partition n mod count).
  const auto& parts = platform.mds.partitions;
  const int counted = parts.enabled ? (nodes + parts.count - 1) / parts.count : nodes;
  if (pc.enabled && pc.fitted_up_to > 0 && counted > 2 * pc.fitted_up_to) {
    std::snprintf(line, sizeof line, "%smds.mechanisms.per_client: fitted on up to %.0f client nodes; "
                  "this run has %d%s (more than twice: %.4gx), where its cost per client node is extrapolated "
                  "linearly\n",
                  head.c_str(), pc.fitted_up_to, counted, parts.enabled ? " per CPU partition" : "", counted / pc.fitted_up_to);
    out += line;
  }
  // CPU partitions bind client node n to partition n mod count (docs/mechanisms.md f): with fewer client nodes than
  // partitions, the partitions no node is bound to, and their cores and threads, serve nobody.
  if (parts.enabled && parts.count > nodes) {
    std::snprintf(line, sizeof line, "%smds.mechanisms.partitions: %d partitions for %d client node%s "
                  "(node n is bound to partition n mod %d): %d partition%s and their cores serve no client\n",
                  head.c_str(), parts.count, nodes, nodes == 1 ? "" : "s", parts.count, parts.count - nodes,
                  parts.count - nodes == 1 ? "" : "s");
    out += line;
  }
  // The per-directory cost past its data: a directory per rank at most, spread over the MDSes (docs/mechanisms.md i);
  // not for a workload whose updates are all in shared directories (IOR's test directory, mdtest without -u).
  const auto& pd = platform.mds.per_directory;
  // The cost counts the directories of the updates that hold an MDS thread (at most threads.max of them), or those of
  // the MDS's last events_per_segment updates.
  const bool segment = pd.count == "journal_segment";
  const double ranks_per_mds = workload.own_directories() / platform.mds.count;  // (directories: D per rank in md-workbench)
  const double dirs_per_mds = std::min(ranks_per_mds, static_cast<double>(segment ? pd.events_per_segment
                                                                                  : platform.mds.threads.max));
  if (pd.enabled && pd.fitted_up_to > 0 && dirs_per_mds > 2 * pd.fitted_up_to && workload.updates_own_dirs()) {
    std::snprintf(line, sizeof line, "%smds.mechanisms.per_directory: fitted on up to %.0f directories "
                  "updated at once per MDS; this run can have %.0f (more than twice: %.4gx, %s), where its cost per directory "
                  "is extrapolated linearly\n", head.c_str(), pd.fitted_up_to, dirs_per_mds, dirs_per_mds / pd.fitted_up_to,
                  dirs_per_mds >= ranks_per_mds ? "the ranks' own directories"
                  : segment                     ? "one per update of a journal segment, events_per_segment"
                                                : "one per MDS thread, mds.threads.max");
    out += line;
  }
  return out;
}

RunRecords run_simulation(const config::PlatformConfig& platform, const Workload& workload,
                          const RunOptions& options, RunInfo* info)
{
  check_before_run(platform, workload, options);
  std::fputs(run_warnings(platform, workload, options).c_str(), stderr);
  auto wall0 = std::chrono::steady_clock::now();
  std::vector<std::string> args{"pfsim"};
  // No TCP window: SimGrid bounds a flow at TCP-gamma / (2 x route latency) (4 MiB by default, also under CM02),
  // which InfiniBand/Gemini RDMA transfers do not have (a 1 GiB transfer over 1 ms links ran at 2 GB/s on a
  // 10 GB/s link). A --cfg=network/TCP-gamma:... of the user comes later and wins.
  args.push_back("--cfg=network/TCP-gamma:0");
  {
    const int rpn0 = options.ranks_per_node > 0 ? options.ranks_per_node : platform.clients.ranks_per_node;
    const std::string guard = actor_guard_arg(platform, (workload.ranks() + rpn0 - 1) / rpn0, rpn0);
    if (!guard.empty())
      args.push_back(guard);
  }
  args.insert(args.end(), options.simgrid_args.begin(), options.simgrid_args.end());
  std::vector<char*> argv;
  for (auto& a : args)
    argv.push_back(a.data());
  int argc = static_cast<int>(argv.size());
  // SimGrid reads its --cfg/--log options here; what it refuses is the user's option: exit status 2, one line.
  std::unique_ptr<sg4::Engine> engine_owner;
  try {
    engine_owner = std::make_unique<sg4::Engine>(&argc, argv.data());
  } catch (const std::exception& e) {
    std::string what = e.what();
    what = what.substr(0, what.find('\n'));
    std::string given;
    for (const auto& a : options.simgrid_args)
      given += (given.empty() ? "" : " ") + a;
    throw std::invalid_argument("SimGrid refused its options (" + given + "): " + what +
                                " (--cfg=help lists SimGrid's keys)");
  }
  sg4::Engine& engine = *engine_owner;
  configure_engine(platform);
  install_interrupt_handler();  // after the engine's own SIGINT handler

  int rpn = options.ranks_per_node > 0 ? options.ranks_per_node : platform.clients.ranks_per_node;
  int ranks = workload.ranks();
  int nodes = (ranks + rpn - 1) / rpn;
  BuiltPlatform built = build_platform(platform, nodes);

  RunRecords records;
  records.keep_samples = options.keep_samples;
  records.latency_histograms = options.latency_histograms;
  records.rank_times = options.rank_times;
  records.phases.resize(static_cast<size_t>(workload.phase_count()));
  for (int p = 0; p < workload.phase_count(); ++p) {
    records.phases[p].name = workload.phase_name(p);
    records.phases[p].iteration = workload.phase_iteration(p);
    records.phases[p].items = workload.phase_items(p);
    if (options.rank_times) {
      records.phases[p].rank_end_s.assign(static_cast<size_t>(ranks), 0.0);
      records.phases[p].rank_data_first_s.assign(static_cast<size_t>(ranks), -1.0);
      records.phases[p].rank_data_last_s.assign(static_cast<size_t>(ranks), -1.0);
    }
    if (workload.stonewall(p).active())
      records.phases[p].rank_pairs.assign(static_cast<size_t>(ranks), 0);
  }
  records.servers.resize(built.mds.size() + built.oss.size());

  RunContext ctx{platform, workload, records, built.clients, built.mds, built.oss, {}, {}, {}, rpn, 0, ranks, 0,
                 options.seed, {}, -1, {}, {}, {}, {}, false, {}, {}, false, {}};
  LinkTurns turns(platform.network, built.clients.size(), built.mds.size() + built.oss.size());
  ctx.route.turns = &turns;
  for (auto* h : built.clients)
    ctx.route.node_mailboxes.push_back(sg4::Mailbox::by_name(h->get_name()));
  ctx.route.reply_size_B = platform.clients.reply_size_B;
  ctx.route.senders = platform.network.reply_senders;

  std::vector<std::unique_ptr<MdsServer>> mds;
  for (size_t m = 0; m < built.mds.size(); ++m) {
    mds.push_back(std::make_unique<MdsServer>(platform.mds, static_cast<int>(m), built.mds[m], built.mdt_disks[m],
                                              ctx.route, nodes, options.seed, records.servers[m]));
    ctx.mds.push_back(mds.back().get());
  }
  std::vector<std::unique_ptr<OssServer>> oss;
  for (size_t o = 0; o < built.oss.size(); ++o) {
    oss.push_back(std::make_unique<OssServer>(platform.oss, static_cast<int>(o), built.mds.size() + o, built.oss[o], ctx.route,
                                              records.servers[built.mds.size() + o], options.seed));
    ctx.oss.push_back(oss.back().get());
  }
  for (auto& m : mds)
    m->start();
  for (auto& o : oss)
    o->start();
  // A door per server: the mailbox the nodes put their requests to, with a permanent receiver on the server's host,
  // so that a put starts its transfer at once (over the route from the node to the server). The node hands the
  // request to the server itself when its put ends (ClientNode::take), in the order transfers end; the door only
  // collects the ended comms, in the order they were sent.
  for (auto* hosts : {&built.mds, &built.oss})
    for (auto* h : *hosts) {
      auto* door = sg4::Mailbox::by_name("door-" + h->get_name());
      ctx.doors.push_back(door);
      // The receiver is set here, before any node runs, so that no put can find the door without it. A put that
      // fails or is cancelled (none does today: a node waits for each of its puts) is the node's concern, not the
      // door's: the door goes on.
      auto actor = sg4::Actor::create("door-" + h->get_name(), h, [door] {
        for (;;) {
          try {
            door->get<Request>();
          } catch (const simgrid::NetworkFailureException&) {
          } catch (const simgrid::CancelException&) {
          }
        }
      });
      actor->daemonize();
      door->set_receiver(actor);
    }

  std::vector<std::unique_ptr<ClientNode>> clients;
  const bool cyclic = platform.clients.placement == "cyclic";
  ctx.cyclic = cyclic;
  ctx.sync_shared_writes = platform.clients.shared_file_writes == "sync";
  for (int n = 0; n < nodes; ++n) {
    // block: node n holds ranks n*rpn .. ; cyclic: ranks n, n + nodes, ... (the last nodes one fewer when the
    // ranks do not fill every node)
    int first = cyclic ? n : n * rpn;
    int stride = cyclic ? nodes : 1;
    int count = cyclic ? (ranks - n + nodes - 1) / nodes : std::min(rpn, ranks - first);
    clients.push_back(std::make_unique<ClientNode>(ctx, n, first, stride, count));
    ClientNode* c = clients.back().get();
    ctx.nodes.push_back(c);
    sg4::Actor::create("node-" + std::to_string(n), built.clients[n], [c] { (*c)(); });
  }
  // The watchdog is a daemon: a run that finishes first ends it, so it never lengthens a run. Created last
  // and only when asked, so runs without a limit keep their actors (and outputs) unchanged.
  bool time_limit_hit = false;
  if (options.time_limit_s > 0) {
    const double limit = options.time_limit_s;
    sg4::Actor::create("watchdog", built.clients.front(), [limit, &time_limit_hit] {
      sg4::this_actor::sleep_for(limit);
      time_limit_hit = true;
      sg4::Actor::kill_all();
    })->daemonize();
  }
  engine.run();
  records.end_s = sg4::Engine::get_clock();
  for (auto& o : oss)
    o->record_stragglers(records.end_s);
  if (!ctx.abort_reason.empty())
    throw std::runtime_error(ctx.abort_reason);
  if (time_limit_hit) {
    uint64_t served = 0, abandoned = 0, done = 0;
    for (const auto& s : records.servers) {
      served += s.served;
      abandoned += s.abandoned;
    }
    for (const auto& ph : records.phases)
      done += ph.ops;
    char limit[32];  // as given: 1ns is 1e-09, not 0.000000
    std::snprintf(limit, sizeof limit, "%.9g", options.time_limit_s);
    throw std::runtime_error("simulated time limit of " + std::string(limit) +
                             " s reached before the workload finished (" + std::to_string(done) +
                             " operations completed; servers served " + std::to_string(served) + " requests, " +
                             std::to_string(abandoned) + " of them already abandoned by their client; " +
                             std::to_string(records.resends) + " resends; " +
                             (records.last_completion_s < 0
                                  ? std::string("no operation completed: a deadlock, a livelock or a limit too short")
                                  : "the last operation completed at t=" + std::to_string(records.last_completion_s) +
                                        " s") +
                             ")");
  }
  // The last barrier releases every node with phase -1; if the engine stopped before, actors deadlocked.
  if (ctx.arrived != 0 || (!records.phases.empty() && records.phases.back().end_s <= 0 &&
                           records.phases.back().ops + records.phases.back().items > 0))
    throw std::runtime_error("simulation stopped before the workload finished (deadlock at t=" +
                             std::to_string(records.end_s) + " s)");
  for (auto& s : records.servers)
    s.change(records.end_s, 0);
  // A load law applied to calls of another size than it was fitted on: said once, after the run (the nodes count
  // them; which reads reach the OSTs, and so meet the law, is known only as the run goes).
  std::fputs(law_size_warnings(platform, ctx.law_sizes, warning_head(options)).c_str(), stderr);
  if (info) {
    info->ranks = ranks;
    info->nodes = nodes;
    info->ranks_per_node = rpn;
    info->wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  }
  return records;
}

}  // namespace pfsim
