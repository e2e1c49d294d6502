#include "config/platform_config.hpp"

#include "config/reader.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>

namespace pfsim::config {
namespace {

PerOp<double> read_per_op_durations(Reader r, const PerOp<double>& defaults)
{
  PerOp<double> out = defaults;
  for (const auto& key : r.keys()) {
    auto op = op_from_name(key);
    if (!op)
      r.fail(key, "unknown operation; expected one of create, open, close, stat, unlink, mkdir, rmdir, readdir, "
                  "write, read");
    out[*op] = r.duration_s(key);
  }
  r.finish();
  return out;
}

// A number for a message: 25600, 0.125, 0.00195312 (not std::to_string's 25600.000000).
std::string short_number(double x)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

// A per-operation setting the model applies to updates only (create, unlink, mkdir, rmdir): a value for another
// operation could never take effect, so it is refused rather than ignored.
// A per-operation setting of the MDS: write and read go to an OSS (oss.disk_write, oss.disk_read,
// oss.rpc_service), so a value for them could never take effect; 0 (what the effective configuration writes) is
// accepted.
void require_metadata_only(Reader& r, const std::string& table, const PerOp<double>& values)
{
  for (Op op : kAllOps)
    if (values[op] > 0 && is_data(op))
      r.fail(table + "." + op_name(op), "expected only metadata operations: write and read go to an OSS (see "
                                        "oss.disk_write, oss.disk_read, oss.rpc_service), never to the MDS");
}

// A distribution around a mean (load_delay shape, rank_factors): its values must average 1, within 0.1%.
void require_mean_one(Reader& r, const std::string& field, const std::vector<double>& values, const std::string& what)
{
  double sum = 0;
  for (double v : values)
    sum += v;
  const double mean = sum / static_cast<double>(values.size());
  if (std::fabs(mean - 1) > 1e-3)
    r.fail(field, "expected " + what + ", averaging 1 (within 0.1%); they average " + short_number(mean));
}

void require_updates_only(Reader& r, const std::string& table, const PerOp<double>& values, const std::string& what)
{
  for (Op op : kAllOps)
    if (values[op] > 0 && !is_update(op))
      r.fail(table + "." + op_name(op), "expected only updating operations (create, unlink, mkdir, rmdir) " + what);
}

nlohmann::json per_op_json(const PerOp<double>& table, const PerOp<bool>* given = nullptr)
{
  nlohmann::json j = nlohmann::json::object();
  for (Op op : kAllOps)
    if (given == nullptr || (*given)[op])
      j[op_name(op)] = table[op];
  return j;
}

nlohmann::json credits_json(const JournalConfig& jc)
{
  nlohmann::json j = {{"enabled", jc.credits_enabled}};
  for (Op op : kAllOps)
    if (jc.credits[op] > 0)
      j[op_name(op)] = static_cast<long long>(jc.credits[op]);  // whole blocks: read back as an integer
  return j;
}

const char* population_name(LoadPopulation p)
{
  return p == LoadPopulation::ActiveRanks ? "active_ranks" : "md_ops_in_flight";
}

const char* slope_key(LoadPopulation p)
{
  return p == LoadPopulation::ActiveRanks ? "per_active_rank" : "per_md_op_in_flight";
}

nlohmann::json load_delay_json(const LoadDelayConfig& d)
{
  nlohmann::json per = nlohmann::json::object();
  for (Op op : kAllOps) {
    const auto& l = d.law[op];
    if (!l.set)
      continue;
    nlohmann::json j = {{"base", l.base_s}, {"population", population_name(l.population)},
                        {slope_key(l.population), l.per_unit_s}};
    if (!l.shape.empty())
      j["shape"] = l.shape;
    if (!l.rank_factors.empty())
      j["rank_factors"] = l.rank_factors;
    if (l.fitted_up_to > 0)
      j["fitted_up_to"] = l.fitted_up_to;
    if (l.fitted_size_B > 0)
      j["fitted_size"] = l.fitted_size_B;
    per[op_name(op)] = j;
  }
  return {{"enabled", d.enabled}, {"population", population_name(d.population)}, {"per_op", per}};
}

LinkConfig read_link(Reader r, const LinkConfig& d)
{
  LinkConfig l;
  l.bandwidth_Bps = r.positive_bandwidth_Bps("bandwidth", d.bandwidth_Bps);
  l.latency_s = r.duration_s("latency", d.latency_s);
  r.finish();
  return l;
}

nlohmann::json link_json(const LinkConfig& l)
{
  return {{"bandwidth", l.bandwidth_Bps}, {"latency", l.latency_s}};
}

}  // namespace

PlatformConfig parse_platform(const nlohmann::json& j, const std::string& file)
{
  PlatformConfig p;
  bool senders_given = false;
  // Every mechanism is off unless "enabled": true. A block that gives values but no "enabled" at all is most likely
  // meant on: say that it stays off (a block with "enabled": false is off on purpose, as the fitted platforms' SMP
  // partitions, kept for --set ...enabled=true; so is mds.journal or mds.dir_lock, on by default, switched off with its
  // settings, which the effective configuration writes so: no warning, helper-135).
  auto unswitched = [&](const nlohmann::json& block, const std::string& path) {
    if (block.is_object() && !block.contains("enabled") && !block.empty())
      p.warnings.push_back(file + ": " + path + " gives settings but no \"enabled\": it stays off (add \"enabled\": "
                           "true to switch it on)");
  };
  auto at = [&](std::initializer_list<const char*> path) -> const nlohmann::json* {  // j's block at path, if any
    const nlohmann::json* n = &j;
    for (const char* k : path) {
      if (!n->is_object() || !n->contains(k))
        return nullptr;
      n = &(*n)[k];
    }
    return n;
  };
  if (const auto* m = at({"mds", "mechanisms"}); m && m->is_object())
    for (const auto& [name, block] : m->items())
      unswitched(block, "mds.mechanisms." + name);
  if (const auto* b = at({"clients", "load_delay"}))
    unswitched(*b, "clients.load_delay");
  if (const auto* b = at({"mds", "journal", "credits"}))
    unswitched(*b, "mds.journal.credits");
  if (const auto* b = at({"oss", "stragglers"}))
    unswitched(*b, "oss.stragglers");
  Reader top(j, file, "");
  p.name = top.string("name", "unnamed");
  p.description = top.string("description", "");
  p.sources = top.raw("sources");
  {
    Reader n = top.object("network");
    // SimGrid's "Constant" model has no links, and every pfsim platform is built of links (it aborted the run).
    if (n.has("model") && n.raw("model") == "Constant")
      n.fail("model", "\"Constant\" is not supported (SimGrid's Constant model has no links, and pfsim platforms "
                      "are built of links); expected one of \"CM02\", \"LV08\"");
    p.network.model = n.choice("model", p.network.model, {"CM02", "LV08"});
    p.network.crosstraffic = n.boolean("crosstraffic", p.network.crosstraffic);
    p.network.duplex = n.choice("duplex", p.network.duplex, {"full", "half"});
    p.network.client_link = read_link(n.object("client_link"), p.network.client_link);
    p.network.server_link = read_link(n.object("server_link"), p.network.server_link);
    Reader r = n.object("routers");
    p.network.router_count = static_cast<int>(r.integer("count", 0, 0, 100000));
    p.network.router_link = read_link(r.object("link"), p.network.router_link);
    r.finish();
    // A router link without a count (0 by default) is a machine without routers whose link nothing crosses
    // (helper-135: 1 Gbps router links, a 4-rank IOR write at 4,258 MiB/s). It cannot mean anything in the run, so it
    // is refused; "count": 0 written out keeps the link unused on purpose (for a --set network.routers.count=N), as
    // the effective configuration writes it for every platform without routers. After finish(): a misspelt "cuont"
    // is named as such.
    if (r.has("link") && !r.has("count"))
      r.fail("count", "expected the number of routers: network.routers gives a link but no count, and without a "
                      "count no router is modelled (the clients reach the servers directly and the link is never "
                      "crossed); give \"count\": N for N routers, or \"count\": 0 to keep the link unused");
    // Not given: set below, once the server counts are known.
    senders_given = n.has("reply_senders");
    p.network.reply_senders = static_cast<int>(n.integer("reply_senders", p.network.reply_senders, 1, 4096));
    n.finish();
  }
  {
    Reader c = top.object("clients");
    auto& cc = p.clients;
    cc.ranks_per_node = static_cast<int>(c.integer("ranks_per_node", cc.ranks_per_node, 1, 4096));
    cc.placement = c.choice("placement", cc.placement, {"block", "cyclic"});
    cc.max_rpcs_in_flight = static_cast<int>(c.integer("max_rpcs_in_flight", cc.max_rpcs_in_flight, 1, 4096));
    cc.max_mod_rpcs_in_flight =
        static_cast<int>(c.integer("max_mod_rpcs_in_flight", cc.max_mod_rpcs_in_flight, 1, 4096));
    // A modifying RPC also holds a max_rpcs_in_flight slot, so more modifying slots than that would be capped
    // silently: refused. Lustre >= 2.8's tunable (obd_set_max_mod_rpcs_in_flight, defaults 8 and 7) must be strictly
    // below max_rpcs_in_flight, keeping a slot for the others; a 1.8 client has no such tunable, its rpc_lock (1 here)
    // serialises the modifying RPCs, and its mdc takes max_rpcs_in_flight 1 (mdc_wr_max_rpcs_in_flight: 1 to
    // MDC_MAX_RIF_MAX): 1 and 1 is a 1.8 client with one RPC of any kind in flight (helper-129).
    // (1 is at most any max_rpcs_in_flight, which is at least 1: only a value above 1 can break the rule.)
    if (cc.max_mod_rpcs_in_flight > 1 && cc.max_mod_rpcs_in_flight >= cc.max_rpcs_in_flight)
      c.fail("max_mod_rpcs_in_flight",
             "expected less than max_rpcs_in_flight; max_mod_rpcs_in_flight is " +
                 std::to_string(cc.max_mod_rpcs_in_flight) + " and max_rpcs_in_flight " +
                 std::to_string(cc.max_rpcs_in_flight) +
                 " (a modifying RPC also holds one of those slots, and above 1 max_mod_rpcs_in_flight is Lustre "
                 ">= 2.8's tunable, which leaves one for the other RPCs; 1 is a 1.8 client's rpc_lock, with any "
                 "max_rpcs_in_flight)");
    cc.open_rpcs = c.choice("open_rpcs", cc.open_rpcs, {"modifying", "unlimited"});
    // Not given: the rule of the Lustre generation max_mod_rpcs_in_flight describes (1: before 2.8, its
    // cl_close_lock; more: 2.8's slots, which replaced the rpc_lock and the close lock).
    cc.close_rpcs = c.choice("close_rpcs", cc.max_mod_rpcs_in_flight == 1 ? "own_lock" : "modifying",
                             {"own_lock", "modifying", "unlimited"});
    cc.rpc_overhead_s = c.duration_s("rpc_overhead", cc.rpc_overhead_s);
    cc.op_overhead_s = read_per_op_durations(c.object("op_overhead"), cc.op_overhead_s);
    cc.osc_max_rpcs_in_flight =
        static_cast<int>(c.integer("osc_max_rpcs_in_flight", cc.max_rpcs_in_flight, 1, 4096));
    cc.max_pages_per_rpc = static_cast<int>(c.integer("max_pages_per_rpc", cc.max_pages_per_rpc, 1, 4096));
    {
      const double mib = c.number("max_dirty_mb", cc.max_dirty_B / 1048576.0, 0, 1048576);
      cc.max_dirty_B = mib * 1048576.0;
      if (cc.max_dirty_B > 0 && cc.max_dirty_B < 4096.0 * cc.max_pages_per_rpc)
        c.fail("max_dirty_mb", "expected 0 (write-through) or at least one RPC (max_pages_per_rpc x 4 KiB = " +
                                   std::to_string(4096.0 * cc.max_pages_per_rpc / 1048576.0) + " MiB)");
    }
    cc.shared_file_writes = c.choice("shared_file_writes", cc.shared_file_writes, {"cached", "sync"});
    cc.hold_partial_rpcs = c.boolean("hold_partial_rpcs", cc.hold_partial_rpcs);
    cc.dirty_expire_s = c.duration_s("dirty_expire", cc.dirty_expire_s);
    if (cc.dirty_expire_s <= 0)
      c.fail("dirty_expire", "expected a duration > 0 (how long a partial RPC's dirty pages may wait)");
    cc.page_cache_copy_Bps = c.bandwidth_Bps("page_cache_copy", cc.page_cache_copy_Bps);
    cc.max_cached_B = c.number("max_cached_mb", cc.max_cached_B / 1048576.0, 0, 1e12) * 1048576.0;
    cc.readahead_B = c.number("readahead_mb", cc.readahead_B / 1048576.0, 0, 1048576) * 1048576.0;
    cc.readahead_node_B =
        c.number("readahead_node_mb", (c.has("readahead_node_mb") ? cc.readahead_node_B : cc.readahead_B) / 1048576.0,
                 0, 1048576) * 1048576.0;
    if (cc.readahead_B > 0 && cc.readahead_B < 4096.0 * cc.max_pages_per_rpc)
      c.fail("readahead_mb", "expected 0 (no read-ahead) or at least one RPC (max_pages_per_rpc x 4 KiB = " +
                                 std::to_string(4096.0 * cc.max_pages_per_rpc / 1048576.0) +
                                 " MiB): read-ahead requests whole RPCs");
    cc.readahead_window = c.choice("readahead_window", cc.readahead_window, {"lustre", "linux"});
    if (cc.readahead_B > 0 && cc.readahead_node_B < cc.readahead_B)
      c.fail("readahead_node_mb", "expected at least readahead_mb (" + std::to_string(cc.readahead_B / 1048576.0) +
                                      "): the node's read-ahead holds at least one file's window");
    // Settings that the file gives and that its other settings make inert: said, as the mechanisms switched on with
    // nothing to charge (helper-135). Only what the file writes: a default is no one's choice.
    if (c.has("hold_partial_rpcs") && cc.hold_partial_rpcs && cc.max_dirty_B == 0)
      p.warnings.push_back(file + ": clients.hold_partial_rpcs is true but clients.max_dirty_mb is 0 (no write-back "
                                  "cache: every write waits for its RPCs), so nothing is held and it changes nothing "
                                  "(give max_dirty_mb, e.g. 32, for a write-back cache)");
    if (c.has("readahead_node_mb") && cc.readahead_node_B > 0 && cc.readahead_B == 0)
      p.warnings.push_back(file + ": clients.readahead_node_mb is " + short_number(cc.readahead_node_B / 1048576.0) +
                           " but clients.readahead_mb is 0 (no read-ahead), so it changes nothing (give readahead_mb, "
                           "e.g. 64, the window of each file's stream)");
    if (cc.page_cache_copy_Bps < 0)
      c.fail("page_cache_copy", "expected a bandwidth >= 0 (0: instantaneous)");
    cc.readdir_entries = static_cast<int>(c.integer("readdir_entries", cc.readdir_entries, 1, 1 << 20));
    cc.readdir_entry_s = c.duration_s("readdir_entry", cc.readdir_entry_s);
    if (cc.readdir_entry_s < 0)
      c.fail("readdir_entry", "expected a duration >= 0 (client time per listed entry)");
    cc.readdir_attributes = c.boolean("readdir_attributes", cc.readdir_attributes);
    cc.request_size_B = c.size_B("request_size", cc.request_size_B);
    cc.reply_size_B = c.size_B("reply_size", cc.reply_size_B);
    // SimGrid 3.32 never completes a 0-byte host-to-host communication: a request has at least a header.
    if (cc.request_size_B < 1)
      c.fail("request_size", "expected at least 1 byte (an RPC always carries a header)");
    if (c.has("load_delay")) {
      Reader ld = c.object("load_delay");
      cc.load_delay.enabled = ld.boolean("enabled", false);  // off unless enabled, as every mechanism
      auto population_of = [](Reader& r, LoadPopulation fallback) {
        return r.choice("population", population_name(fallback), {"active_ranks", "md_ops_in_flight"}) ==
                       "active_ranks"
                   ? LoadPopulation::ActiveRanks
                   : LoadPopulation::MetadataOpsInFlight;
      };
      cc.load_delay.population = population_of(ld, LoadPopulation::ActiveRanks);
      Reader po = ld.object("per_op");
      for (const auto& key : po.keys()) {
        auto op = op_from_name(key);
        if (!op)
          po.fail(key, "unknown operation; expected one of create, open, close, stat, unlink, mkdir, rmdir, "
                       "readdir, write, read");
        Reader lr = po.object(key);
        LoadDelayLaw law;
        law.set = true;
        law.base_s = lr.duration_s("base", 0);
        law.population = population_of(lr, cc.load_delay.population);
        const char* slope = slope_key(law.population);
        const LoadPopulation other = law.population == LoadPopulation::ActiveRanks
                                         ? LoadPopulation::MetadataOpsInFlight
                                         : LoadPopulation::ActiveRanks;
        if (lr.has(slope_key(other)))
          lr.fail(slope_key(other), std::string("is the slope of population \"") + population_name(other) +
                                        "\"; this law's population is \"" + population_name(law.population) +
                                        "\", expected \"" + slope + "\"");
        law.per_unit_s = lr.duration_s(slope, 0);
        if (law.base_s < 0)
          lr.fail("base", "expected a non-negative duration");
        if (law.per_unit_s < 0)
          lr.fail(slope, "expected a non-negative duration");
        if (lr.has("shape")) {
          const nlohmann::json& sh = lr.raw("shape");
          if (!sh.is_array() || sh.size() < 2)
            lr.fail("shape", "expected an array of at least 2 numbers (quantiles of delay / mean delay)");
          for (const auto& x : sh) {
            if (!x.is_number() || x.get<double>() < 0 || (!law.shape.empty() && x.get<double>() < law.shape.back()))
              lr.fail("shape", "expected non-negative, nondecreasing numbers");
            law.shape.push_back(x.get<double>());
          }
          // The law's mean is base + slope x n: the shape is its distribution around that mean (mean 1; the fit
          // writes 4 decimals). A shape that does not average 1 changes the mean (or, with 1e300, never ends).
          require_mean_one(lr, "shape", law.shape, "quantiles of delay / mean delay");
        }
        if (lr.has("rank_factors")) {
          const nlohmann::json& rf = lr.raw("rank_factors");
          if (!rf.is_array() || rf.empty())
            lr.fail("rank_factors", "expected a non-empty array of non-negative numbers (one per recorded rank)");
          for (const auto& x : rf) {
            if (!x.is_number() || x.get<double>() < 0)
              lr.fail("rank_factors", "expected non-negative numbers");
            law.rank_factors.push_back(x.get<double>());
          }
          require_mean_one(lr, "rank_factors", law.rank_factors, "each rank's slowness relative to the mean");
        }
        law.fitted_up_to = lr.number("fitted_up_to", 0.0, 0.0, 1e9);
        if (lr.has("fitted_size")) {
          // The size of the calls the law was fitted on: only a read or write call has one.
          if (*op != Op::Read && *op != Op::Write)
            lr.fail("fitted_size", "only a read or write law has one (the bytes of the calls it was fitted on)");
          // At least 1 byte: a call carries whole bytes, and a size below one (0.5, 1e-300, "0.5B") would read as
          // "fitted on reads of 0 B"; 0 and negatives are refused with the same words.
          law.fitted_size_B = lr.positive_size_B("fitted_size", 0);
        }
        lr.finish();  // (an unknown field first: "bse" is a typo, not a law without a base)
        // A law is its delay: base and its population's slope. One that gives neither delays nothing, and what it
        // does give (fitted_size, fitted_up_to, shape, rank_factors, population) describes a delay that is not there:
        // --set clients.load_delay.per_op.write.fitted_size=4k on a platform with no write law made an empty law and
        // a warning that its delay (0 us + 0 us x n) was applied. Refused, naming the field, as a law's slope of the
        // other population is; a law is added by giving its base or slope.
        if (!lr.has("base") && !lr.has(slope)) {
          std::string field;
          for (const char* k : {"fitted_size", "fitted_up_to", "shape", "rank_factors", "population"})
            if (field.empty() && lr.has(k))
              field = k;
          const std::string none = std::string("neither base nor ") + slope + " is given";
          if (field.empty())
            po.fail(key, "expected a law with a base or " + std::string(slope) + " (" + none +
                             ": an empty law delays nothing); give one, or leave the law out");
          lr.fail(field, "describes the " + key + " law's delay, but the law has none (" + none + "; this platform " +
                             "may have no " + key + " law): give the law's base or " + slope +
                             ", or leave the field out");
        }
        cc.load_delay.law[*op] = std::move(law);
      }
      po.finish();
      ld.finish();
      if (cc.load_delay.enabled &&
          std::none_of(kAllOps.begin(), kAllOps.end(), [&](Op op) { return cc.load_delay.law[op].set; }))
        p.warnings.push_back(file + ": clients.load_delay is on with no law in per_op: it changes nothing (a fit "
                                    "writes the laws: scripts/fit_mdrealio.py)");
    }
    c.finish();
  }
  {
    Reader m = top.object("mds");
    auto& mc = p.mds;
    mc.count = static_cast<int>(m.integer("count", mc.count, 1, 1024));
    mc.cores = static_cast<int>(m.integer("cores", mc.cores, 1, 4096));
    Reader t = m.object("threads");
    mc.threads.min = static_cast<int>(t.integer("min", mc.threads.min, 1, 100000));
    mc.threads.max = static_cast<int>(t.integer("max", mc.threads.min, 1, 100000));
    if (mc.threads.max < mc.threads.min)
      t.fail("max", "expected threads.max >= threads.min; threads.max is " + std::to_string(mc.threads.max) +
                        " and threads.min " + std::to_string(mc.threads.min) + " (raise max or lower min)");
    t.finish();
    Reader rt = m.object("readpage_threads");
    mc.readpage_threads.min = static_cast<int>(rt.integer("min", mc.readpage_threads.min, 1, 100000));
    mc.readpage_threads.max = static_cast<int>(rt.integer("max", mc.readpage_threads.min, 1, 100000));
    if (mc.readpage_threads.max < mc.readpage_threads.min)
      rt.fail("max", "expected readpage_threads.max >= readpage_threads.min; readpage_threads.max is " +
                         std::to_string(mc.readpage_threads.max) + " and readpage_threads.min " +
                         std::to_string(mc.readpage_threads.min) + " (raise max or lower min)");
    rt.finish();
    PerOp<bool> service_bare{};  // written as a bare number (seconds), not with a unit
    {
      const Reader sv = m.object("service");
      for (const auto& key : sv.keys())
        if (auto op = op_from_name(key)) {
          mc.service_given[*op] = true;
          service_bare[*op] = sv.bare_number(key);
        }
    }
    mc.service_s = read_per_op_durations(m.object("service"), mc.service_s);
    require_metadata_only(m, "service", mc.service_s);
    // "create": 484 meant 484 us is 484 s of CPU per request: run, but said (a bare number is in seconds). A value
    // written with its unit ("10s") is taken as meant: no warning (helper-129: "10s" was told it had no unit).
    for (Op op : kAllOps)
      if (service_bare[op] && mc.service_s[op] > 1)
        p.warnings.push_back(file + ": mds.service." + op_name(op) + " is " + short_number(mc.service_s[op]) +
                             " s of CPU per request; a number without a unit is read in seconds (write \"" +
                             short_number(mc.service_s[op]) + "us\" for microseconds)");
    mc.readdir_entry_s = m.duration_s("readdir_entry", mc.readdir_entry_s);
    if (mc.readdir_entry_s < 0)
      m.fail("readdir_entry", "expected a duration >= 0 (MDS CPU per entry a readdir lists)");
    mc.service_distribution =
        m.choice("service_distribution", mc.service_distribution, {"deterministic", "exponential"});
    mc.core_scheduling = m.choice("core_scheduling", mc.core_scheduling, {"fifo", "lock_holder_first", "preempt"});
    Reader jr = m.object("journal");
    mc.journal.enabled = jr.boolean("enabled", mc.journal.enabled);
    mc.journal.bytes_per_update_B = jr.size_B("bytes_per_update", mc.journal.bytes_per_update_B);
    // An update logs at least the block it changes (jbd2 journals whole blocks): with 0 no update logs anything, the
    // journal never commits and never fills, and a journal switched on does nothing (helper-135). Refused, as a
    // disk_write of 0 is with the journal on; "enabled": false is the journal that does nothing.
    if (mc.journal.enabled && mc.journal.bytes_per_update_B <= 0)
      jr.fail("bytes_per_update", "expected a positive size with the journal on (an update logs at least the block it "
                                  "changes; with 0 nothing is logged and the journal never commits, as if it were "
                                  "off): give the bytes an update logs (4KiB, one block), or \"enabled\": false for no "
                                  "journal");
    mc.journal.commit_interval_s = jr.duration_s("commit_interval", mc.journal.commit_interval_s);
    mc.journal.capacity_B = jr.size_B("capacity", mc.journal.capacity_B);
    // (a journal that is off writes nothing: 0 is its disk's "none")
    mc.journal.disk_write_Bps = mc.journal.enabled ? jr.positive_bandwidth_Bps("disk_write", mc.journal.disk_write_Bps)
                                                   : jr.bandwidth_Bps("disk_write", mc.journal.disk_write_Bps);
    if (mc.journal.enabled && mc.journal.capacity_B < mc.journal.bytes_per_update_B)
      jr.fail("capacity", "expected at least bytes_per_update; capacity is " + short_number(mc.journal.capacity_B) +
                              " B and bytes_per_update " + short_number(mc.journal.bytes_per_update_B) + " B");
    mc.journal.block_size_B = jr.size_B("block_size", mc.journal.block_size_B);
    if (mc.journal.block_size_B <= 0)
      jr.fail("block_size", "expected a positive size");
    mc.journal.commit_latency_s = jr.duration_s("commit_latency", mc.journal.commit_latency_s);
    {
      Reader cr = jr.object("credits");
      mc.journal.credits_enabled = cr.boolean("enabled", mc.journal.credits_enabled);
      const double max_credits = mc.journal.max_transaction_credits();
      const double logged = mc.journal.bytes_per_update_B / mc.journal.block_size_B;  // blocks an update logs
      // Credits are whole blocks: an update without an entry reserves the blocks it logs, rounded up.
      const double default_credits = std::ceil(logged);
      const std::string limit = "the transaction limit capacity / block_size / 4 = " + short_number(max_credits) +
                                " (" + std::to_string(static_cast<long long>(max_credits)) + " whole credits)";
      if (mc.journal.credits_enabled && !mc.journal.enabled)
        cr.fail("enabled", "journal credits need the journal (mds.journal.enabled true)");
      PerOp<bool> given{};
      for (const auto& key : cr.keys()) {
        if (key == "enabled")
          continue;
        auto op = op_from_name(key);
        if (!op || !is_update(*op))
          cr.fail(key, "expected an updating operation (create, unlink, mkdir, rmdir) with its credits");
        mc.journal.credits[*op] = static_cast<double>(cr.integer(key, 0, 1000000000));
        given[*op] = true;
        if (mc.journal.credits_enabled && mc.journal.credits[*op] > max_credits)
          cr.fail(key, "expected at most " + limit);
        if (mc.journal.credits_enabled && mc.journal.credits[*op] < logged)
          cr.fail(key, "expected at least the blocks one update logs (bytes_per_update / block_size = " +
                           short_number(logged) + ")");
      }
      // The updates without an entry reserve the default, which has to fit a transaction too; it is filled in,
      // so the effective configuration shows what every update reserved.
      std::string defaulted;
      for (Op op : kAllOps)
        if (mc.journal.credits_enabled && is_update(op) && !given[op]) {
          mc.journal.credits[op] = default_credits;
          defaulted += std::string(defaulted.empty() ? "" : ", ") + op_name(op);
        }
      if (!defaulted.empty() && default_credits > max_credits)
        cr.fail("enabled", "the default credits of " + defaulted + " (the blocks an update logs, bytes_per_update / "
                           "block_size = " + short_number(logged) + ", rounded up to " +
                           std::to_string(static_cast<long long>(default_credits)) + ") are more than " + limit);
      cr.finish();
    }
    jr.finish();
    Reader dl = m.object("dir_lock");
    mc.dir_lock.enabled = dl.boolean("enabled", mc.dir_lock.enabled);
    mc.dir_lock.hold_s = read_per_op_durations(dl.object("hold"), mc.dir_lock.hold_s);
    require_updates_only(dl, "hold", mc.dir_lock.hold_s,
                         "to hold the directory lock (other operations take it only shared, see lookup_hold)");
    mc.dir_lock.lookup_hold_s = read_per_op_durations(dl.object("lookup_hold"), mc.dir_lock.lookup_hold_s);
    require_metadata_only(dl, "lookup_hold", mc.dir_lock.lookup_hold_s);
    dl.finish();

    Reader mech = m.object("mechanisms");
    {
      Reader r = mech.object("contention");
      mc.contention.enabled = r.boolean("enabled", false);
      mc.contention.per_busy_thread_s = read_per_op_durations(r.object("per_busy_thread"), {});
      require_updates_only(r, "per_busy_thread", mc.contention.per_busy_thread_s,
                           "to pay for other threads busy in updates");
      mc.contention.cross_partition_factor = r.number("cross_partition_factor", 1.0, 0.0, 1.0);
      r.finish();
    }
    {
      Reader r = mech.object("per_client");
      mc.per_client.enabled = r.boolean("enabled", false);
      mc.per_client.cost_per_client_s = read_per_op_durations(r.object("cost_per_client"), {});
      require_metadata_only(r, "cost_per_client", mc.per_client.cost_per_client_s);
      mc.per_client.fitted_up_to = r.number("fitted_up_to", 0.0, 0.0, 1e9);
      r.finish();
    }
    {
      Reader r = mech.object("per_directory");
      mc.per_directory.enabled = r.boolean("enabled", false);
      mc.per_directory.cost_per_directory_s = read_per_op_durations(r.object("cost_per_directory"), {});
      require_updates_only(r, "cost_per_directory", mc.per_directory.cost_per_directory_s,
                           "to pay for other directories being updated");
      mc.per_directory.fitted_up_to = r.number("fitted_up_to", 0.0, 0.0, 1e9);
      mc.per_directory.count = r.choice("count", mc.per_directory.count, {"in_progress", "journal_segment"});
      mc.per_directory.events_per_segment =
          static_cast<int>(r.integer("events_per_segment", mc.per_directory.events_per_segment, 1, 1 << 24));
      r.finish();
    }
    {
      Reader r = mech.object("lock_callbacks");
      mc.lock_callbacks.enabled = r.boolean("enabled", false);
      mc.lock_callbacks.rtt_s = r.duration_s("rtt", 0);
      mc.lock_callbacks.cpu_per_callback_s = r.duration_s("cpu_per_callback", 0);
      r.finish();
    }
    {
      Reader r = mech.object("timeouts");
      mc.timeouts.enabled = r.boolean("enabled", false);
      mc.timeouts.timeout_s = r.duration_s("timeout", 0);
      mc.timeouts.resend_delay_s = r.duration_s("resend_delay", 0);
      if (mc.timeouts.resend_delay_s < 0)
        r.fail("resend_delay", "expected a duration >= 0");
      if (mc.timeouts.enabled && mc.timeouts.timeout_s <= 0)
        r.fail("timeout", "expected a positive duration when timeouts are enabled");
      mc.timeouts.max_resends = static_cast<int>(r.integer("max_resends", mc.timeouts.max_resends, 0, 1000000000));
      r.finish();
    }
    {
      Reader r = mech.object("oversubscription");
      mc.oversubscription.enabled = r.boolean("enabled", false);
      mc.oversubscription.cost_per_extra_thread_s = r.duration_s("cost_per_extra_thread", 0);
      r.finish();
    }
    {
      Reader r = mech.object("serial_section");
      mc.serial.enabled = r.boolean("enabled", false);
      mc.serial.hold_s = read_per_op_durations(r.object("hold"), {});
      require_updates_only(r, "hold", mc.serial.hold_s, "to hold the MDT-wide lock");
      r.finish();
    }
    {
      Reader r = mech.object("partitions");
      mc.partitions.enabled = r.boolean("enabled", false);
      mc.partitions.count = static_cast<int>(r.integer("count", 1, 1, 1024));
      if (mc.partitions.enabled && mc.cores % mc.partitions.count != 0)
        r.fail("count", "expected a divisor of mds.cores (" + std::to_string(mc.cores) + ")");
      // The thread totals are split over the partitions: each needs one thread of each pool.
      if (mc.partitions.enabled && std::min(mc.threads.max, mc.readpage_threads.max) < mc.partitions.count)
        r.fail("count", "expected at most mds.threads.max (" + std::to_string(mc.threads.max) +
                            ") and mds.readpage_threads.max (" + std::to_string(mc.readpage_threads.max) +
                            ") partitions: the thread totals are split over the partitions, one thread each at least");
      r.finish();
    }
    mech.finish();
    // A mechanism switched on with nothing to charge changes no request: said, so that a what-if such as
    // --set 'mds.mechanisms.oversubscription={"enabled":true}' does not pass for an answer.
    auto all_zero = [](const PerOp<double>& v) {
      return std::all_of(kAllOps.begin(), kAllOps.end(), [&](Op op) { return v[op] == 0; });
    };
    const std::vector<std::pair<bool, std::string>> idle{
        {mc.contention.enabled && all_zero(mc.contention.per_busy_thread_s), "contention: every per_busy_thread is 0"},
        {mc.per_client.enabled && all_zero(mc.per_client.cost_per_client_s), "per_client: every cost_per_client is 0"},
        {mc.per_directory.enabled && all_zero(mc.per_directory.cost_per_directory_s),
         "per_directory: every cost_per_directory is 0"},
        // (with the directory lock off, lock callbacks still make shared-directory updates take it)
        {mc.lock_callbacks.enabled && mc.dir_lock.enabled && mc.lock_callbacks.rtt_s == 0 &&
             mc.lock_callbacks.cpu_per_callback_s == 0,
         "lock_callbacks: rtt and cpu_per_callback are 0"},
        {mc.oversubscription.enabled && mc.oversubscription.cost_per_extra_thread_s == 0,
         "oversubscription: cost_per_extra_thread is 0"},
        {mc.serial.enabled && all_zero(mc.serial.hold_s), "serial_section: every hold is 0"},
        {mc.partitions.enabled && mc.partitions.count == 1, "partitions: count is 1 (one partition is the server)"},
    };
    for (const auto& [on, what] : idle)
      if (on)
        p.warnings.push_back(file + ": mds.mechanisms." + what + ": the mechanism is on but changes nothing");
    // cross_partition_factor weighs other partitions' threads: without partitions there are none.
    if (mc.contention.enabled && !mc.partitions.enabled && mc.contention.cross_partition_factor != 1.0)
      p.warnings.push_back(file + ": mds.mechanisms.contention.cross_partition_factor applies between CPU partitions, "
                                  "and mds.mechanisms.partitions is off: it changes nothing");
    m.finish();
  }
  {
    Reader o = top.object("oss");
    auto& oc = p.oss;
    oc.count = static_cast<int>(o.integer("count", oc.count, 1, 100000));
    oc.threads = static_cast<int>(o.integer("threads", oc.threads, 1, 100000));
    oc.rpc_service_s = o.duration_s("rpc_service", oc.rpc_service_s);
    oc.disk_read_Bps = o.positive_bandwidth_Bps("disk_read", oc.disk_read_Bps);
    oc.disk_write_Bps = o.positive_bandwidth_Bps("disk_write", oc.disk_write_Bps);
    oc.disk_read_latency_s = o.duration_s("disk_read_latency", oc.disk_read_latency_s);
    oc.disk_write_latency_s = o.duration_s("disk_write_latency", oc.disk_write_latency_s);
    oc.object_serial_read_s = o.duration_s("object_serial_read", oc.object_serial_read_s);
    oc.object_serial_write_s = o.duration_s("object_serial_write", oc.object_serial_write_s);
    oc.parallel_read_latency_s = o.duration_s("parallel_read_latency", oc.parallel_read_latency_s);
    oc.parallel_write_latency_s = o.duration_s("parallel_write_latency", oc.parallel_write_latency_s);
    oc.placement = o.choice("placement", oc.placement, {"object", "node", "round_robin"});
    oc.stripe_count = static_cast<int>(o.integer("stripe_count", oc.stripe_count, 1, 100000));
    if (oc.stripe_count > oc.count)
      o.fail("stripe_count", "expected at most oss.count (" + std::to_string(oc.count) + "): one stripe per OST");
    oc.stripe_size_B = o.size_B("stripe_size", oc.stripe_size_B);
    if (oc.stripe_size_B < 65536 || std::fmod(oc.stripe_size_B, 65536) != 0)
      o.fail("stripe_size", "expected a positive multiple of 64 KiB (Lustre's rule), in bytes or with a unit");
    // (the layout's lmm_stripe_size is 32 bits: the largest multiple of 64 KiB below 4 GiB)
    if (oc.stripe_size_B > 4294901760.0)
      o.fail("stripe_size", "expected at most 4294901760 bytes (4 GiB - 64 KiB: Lustre keeps a stripe size in 32 bits)");
    if (o.has("stragglers")) {
      Reader st = o.object("stragglers");
      auto& sc = oc.stragglers;
      sc.enabled = st.boolean("enabled", false);
      sc.mean_normal_s = st.duration_s("mean_normal", sc.mean_normal_s);
      sc.normal_shape = static_cast<int>(st.integer("normal_shape", sc.normal_shape, 1, 1000));
      sc.mean_slow_s = st.duration_s("mean_slow", sc.mean_slow_s);
      // A period shorter than a bulk RPC's time at the disk is not what the process describes (periods of seconds to
      // minutes), and each period costs memory and time: at least 1 ms.
      if (sc.mean_normal_s < 1e-3)
        st.fail("mean_normal", "expected at least 1ms (straggler periods last seconds to minutes)");
      if (sc.mean_slow_s < 1e-3)
        st.fail("mean_slow", "expected at least 1ms (straggler periods last seconds to minutes)");
      sc.slow_bandwidth_min = st.number("slow_bandwidth_min", sc.slow_bandwidth_min, 1e-6, 1);
      sc.slow_bandwidth_max = st.number("slow_bandwidth_max", sc.slow_bandwidth_max, 1e-6, 1);
      if (sc.slow_bandwidth_max < sc.slow_bandwidth_min) {  // (the field given names the error: helper-87)
        const std::string values =
            "slow_bandwidth_min is " + short_number(sc.slow_bandwidth_min) +
            (st.has("slow_bandwidth_min") ? "" : " (its default)") + " and slow_bandwidth_max is " +
            short_number(sc.slow_bandwidth_max) + (st.has("slow_bandwidth_max") ? "" : ", its default");
        if (!st.has("slow_bandwidth_max"))
          st.fail("slow_bandwidth_min", "expected slow_bandwidth_min <= slow_bandwidth_max; " + values +
                                            " (lower min or give a larger max)");
        st.fail("slow_bandwidth_max", "expected slow_bandwidth_max >= slow_bandwidth_min; " + values +
                                          " (raise max or lower min)");
      }
      st.finish();
    }
    oc.sample_interval_s = o.duration_s("sample_interval", oc.sample_interval_s);
    if (oc.sample_interval_s <= 0)
      o.fail("sample_interval", "expected a positive duration");
    oc.sample_offset_s = o.duration_s("sample_offset", oc.sample_offset_s);
    if (oc.sample_offset_s < 0 || oc.sample_offset_s >= oc.sample_interval_s)
      o.fail("sample_offset", "expected a duration in [0, sample_interval)");
    o.finish();
  }
  top.finish();
  // network.reply_senders not given: as many senders as keep a server's reply rate at 16 per 10 us of one-way
  // latency (1.6 M/s) whatever the latency (a sender holds a reply for its latency too, so a fixed 16 capped a 1 ms
  // path at 16 k replies/s), but at most 16,384 senders over all servers (each is an actor with a stack; 64 OSSes
  // then get 252 each): 16 on every platform in platforms/.
  if (!senders_given) {
    const double one_way_s = p.network.one_way_latency_s();
    const double servers = static_cast<double>(p.mds.count) + p.oss.count;
    const double wanted = std::ceil(16 * one_way_s / 10e-6);
    p.network.reply_senders = static_cast<int>(std::max(16.0, std::min({wanted, 4096.0, std::floor(16384 / servers)})));
  }
  return p;
}

PlatformConfig load_platform(const std::string& file)
{
  return parse_platform(load_json_file(file), file);
}

nlohmann::json effective_json(const PlatformConfig& p, int ranks_per_node)
{
  PlatformConfig q = p;
  if (ranks_per_node > 0)
    q.clients.ranks_per_node = ranks_per_node;
  return to_json(q);
}

nlohmann::json to_json(const PlatformConfig& p)
{
  const auto& m = p.mds;
  const auto& c = p.clients;
  const auto& n = p.network;
  return {
      {"name", p.name},
      {"description", p.description},
      {"sources", p.sources},
      {"network",
       {{"model", n.model},
        {"crosstraffic", n.crosstraffic},
        {"duplex", n.duplex},
        {"reply_senders", n.reply_senders},
        {"client_link", link_json(n.client_link)},
        {"server_link", link_json(n.server_link)},
        {"routers", {{"count", n.router_count}, {"link", link_json(n.router_link)}}}}},
      {"clients",
       {{"ranks_per_node", c.ranks_per_node},
        {"placement", c.placement},
        {"max_rpcs_in_flight", c.max_rpcs_in_flight},
        {"max_mod_rpcs_in_flight", c.max_mod_rpcs_in_flight},
        {"open_rpcs", c.open_rpcs},
        {"close_rpcs", c.close_rpcs},
        {"rpc_overhead", c.rpc_overhead_s},
        {"op_overhead", per_op_json(c.op_overhead_s)},
        {"request_size", c.request_size_B},
        {"reply_size", c.reply_size_B},
        {"osc_max_rpcs_in_flight", c.osc_max_rpcs_in_flight},
        {"max_pages_per_rpc", c.max_pages_per_rpc},
        {"max_dirty_mb", c.max_dirty_B / 1048576.0},
        {"shared_file_writes", c.shared_file_writes},
        {"hold_partial_rpcs", c.hold_partial_rpcs},
        {"dirty_expire", c.dirty_expire_s},
        {"page_cache_copy", c.page_cache_copy_Bps},
        {"readdir_entries", c.readdir_entries},
        {"readdir_entry", c.readdir_entry_s},
        {"readdir_attributes", c.readdir_attributes},
        {"max_cached_mb", c.max_cached_B / 1048576.0},
        {"readahead_mb", c.readahead_B / 1048576.0},
        {"readahead_node_mb", c.readahead_node_B / 1048576.0},
        {"readahead_window", c.readahead_window},
        {"load_delay", load_delay_json(c.load_delay)}}},
      {"mds",
       {{"count", m.count},
        {"cores", m.cores},
        {"threads", {{"min", m.threads.min}, {"max", m.threads.max}}},
        {"readpage_threads", {{"min", m.readpage_threads.min}, {"max", m.readpage_threads.max}}},
        // Only the demands the file gave: one it did not give stays missing when the configuration is read back (an
        // error if the workload needs it), not a free operation.
        {"service", per_op_json(m.service_s, &m.service_given)},
        {"readdir_entry", m.readdir_entry_s},
        {"service_distribution", m.service_distribution},
        {"core_scheduling", m.core_scheduling},
        {"journal",
         {{"enabled", m.journal.enabled},
          {"bytes_per_update", m.journal.bytes_per_update_B},
          {"commit_interval", m.journal.commit_interval_s},
          {"capacity", m.journal.capacity_B},
          {"disk_write", m.journal.disk_write_Bps},
          {"block_size", m.journal.block_size_B},
          {"commit_latency", m.journal.commit_latency_s},
          {"credits", credits_json(m.journal)}}},
        {"dir_lock",
         {{"enabled", m.dir_lock.enabled},
          {"hold", per_op_json(m.dir_lock.hold_s)},
          {"lookup_hold", per_op_json(m.dir_lock.lookup_hold_s)}}},
        {"mechanisms",
         {{"contention",
           {{"enabled", m.contention.enabled},
            {"per_busy_thread", per_op_json(m.contention.per_busy_thread_s)},
            {"cross_partition_factor", m.contention.cross_partition_factor}}},
          {"per_client",
           {{"enabled", m.per_client.enabled},
            {"cost_per_client", per_op_json(m.per_client.cost_per_client_s)},
            {"fitted_up_to", m.per_client.fitted_up_to}}},
          {"per_directory",
           {{"enabled", m.per_directory.enabled},
            {"cost_per_directory", per_op_json(m.per_directory.cost_per_directory_s)},
            {"fitted_up_to", m.per_directory.fitted_up_to},
            {"count", m.per_directory.count},
            {"events_per_segment", m.per_directory.events_per_segment}}},
          {"lock_callbacks",
           {{"enabled", m.lock_callbacks.enabled},
            {"rtt", m.lock_callbacks.rtt_s},
            {"cpu_per_callback", m.lock_callbacks.cpu_per_callback_s}}},
          {"timeouts", {{"enabled", m.timeouts.enabled}, {"timeout", m.timeouts.timeout_s},
                        {"resend_delay", m.timeouts.resend_delay_s}, {"max_resends", m.timeouts.max_resends}}},
          {"oversubscription",
           {{"enabled", m.oversubscription.enabled},
            {"cost_per_extra_thread", m.oversubscription.cost_per_extra_thread_s}}},
          {"serial_section", {{"enabled", m.serial.enabled}, {"hold", per_op_json(m.serial.hold_s)}}},
          {"partitions", {{"enabled", m.partitions.enabled}, {"count", m.partitions.count}}}}}}},
      {"oss",
       {{"count", p.oss.count},
        {"threads", p.oss.threads},
        {"rpc_service", p.oss.rpc_service_s},
        {"disk_read", p.oss.disk_read_Bps},
        {"disk_write", p.oss.disk_write_Bps},
        {"disk_read_latency", p.oss.disk_read_latency_s},
        {"disk_write_latency", p.oss.disk_write_latency_s},
        {"object_serial_read", p.oss.object_serial_read_s},
        {"object_serial_write", p.oss.object_serial_write_s},
        {"parallel_read_latency", p.oss.parallel_read_latency_s},
        {"parallel_write_latency", p.oss.parallel_write_latency_s},
        {"placement", p.oss.placement},
        {"stripe_count", p.oss.stripe_count},
        {"stripe_size", p.oss.stripe_size_B},
        {"sample_interval", p.oss.sample_interval_s},
        {"sample_offset", p.oss.sample_offset_s},
        {"stragglers",
         {{"enabled", p.oss.stragglers.enabled},
          {"mean_normal", p.oss.stragglers.mean_normal_s},
          {"normal_shape", p.oss.stragglers.normal_shape},
          {"mean_slow", p.oss.stragglers.mean_slow_s},
          {"slow_bandwidth_min", p.oss.stragglers.slow_bandwidth_min},
          {"slow_bandwidth_max", p.oss.stragglers.slow_bandwidth_max}}}}},
  };
}

}  // namespace pfsim::config
