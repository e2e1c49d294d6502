// Typed description of a simulated machine, parsed once from a platform JSON file (platforms/*.json).
// Every field is documented where it is declared, with its unit; docs/configuration.md lists the JSON names.
#pragma once
#include "model/ops.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pfsim::config {

struct LinkConfig {
  double bandwidth_Bps = 1.25e9;  // "bandwidth"
  double latency_s = 1e-6;        // "latency": one-way
};

struct NetworkConfig {
  // "model": SimGrid network model. CM02 (default here) is the plain max-min sharing model without the
  // TCP-derived corrections of LV08 (which multiplies latency by ~13.01 and bandwidth by 0.97, fitted for
  // wide-area TCP); HPC interconnect RPCs are latency-bound and need the latency as measured. SimGrid's
  // "Constant" model is refused: it has no links, and the platform is built of links.
  std::string model = "CM02";
  bool crosstraffic = false;      // "crosstraffic": SimGrid's reverse-direction ack traffic; off = faster
  // "duplex": "full" (each link carries its bandwidth in each direction at once, as InfiniBand, Gemini and
  // Ethernet links do: a node's requests and the replies it receives do not share) or "half" (one bandwidth for
  // both directions, SimGrid's shared link).
  std::string duplex = "full";
  // "reply_senders": replies one server transfers at once (each for its latency and transfer time). Not given:
  // max(16, 16 x one-way latency / 10 us), at most 4096 (16 up to 10 us: every fitted platform).
  int reply_senders = 16;
  LinkConfig client_link;         // "client_link": each client node's injection link
  // "routers.count": LNET routers between client fabric and server network (0: none). A "link" without a "count"
  // is refused (no router would cross it); "count": 0 written out keeps the link unused.
  int router_count = 0;
  LinkConfig router_link;         // "routers.link": each router's link (shared by the nodes it serves)
  LinkConfig server_link;         // "server_link": each server's (MDS, OSS) link
  // A message's latency from a client node to a server: its link, the router's if any, the server's.
  double one_way_latency_s() const
  {
    return client_link.latency_s + server_link.latency_s + (router_count > 0 ? router_link.latency_s : 0.0);
  }
};

// A population-dependent delay center (a flow-equivalent server, as in queueing-network decomposition): the part of
// the file system the model has no explicit server for (OST/MDT disks under other users' load, journal stalls)
// folded into one delay per operation whose mean grows with a population n: mean(n) = base + slope * n.
// The population ("population", per law or for all) is either the number of active ranks (ranks that have not finished the current
// phase; slope key "per_active_rank") or the number of metadata operations of the tool (stat, create, delete:
// not data reads) that other ranks have in flight when the operation starts (slope key "per_md_op_in_flight"):
// the customers present at the unmodelled metadata server, which is what its delay depends on. Fitted from a
// recorded trace's own concurrency variation (scripts/fit_mdrealio.py). Synthetic operations draw the delay as mean(n) times one of
// the equally probable values of "shape" (quantiles of the recorded delay / its mean); replayed operations scale
// their recorded excess by mean(n_sim) / mean(n_recorded).
enum class LoadPopulation { ActiveRanks, MetadataOpsInFlight };
struct LoadDelayLaw {
  bool set = false;
  LoadPopulation population = LoadPopulation::ActiveRanks;  // "population" (default: load_delay's "population")
  double base_s = 0;            // "base"
  double per_unit_s = 0;        // "per_active_rank" or "per_md_op_in_flight" (the population's slope)
  std::vector<double> shape;    // "shape": nondecreasing, mean ~1; empty = deterministic
  // "rank_factors": mean excess of each recorded rank / the overall mean, in recorded rank order (slow nodes,
  // slow OSTs of that rank's files); synthetic rank m uses factor m mod size. Empty = 1 for every rank.
  std::vector<double> rank_factors;
  // "fitted_up_to": the largest population the law was fitted on (0: not stated). A run whose population can
  // exceed it extrapolates the line; the run says so (a warning) past twice that.
  double fitted_up_to = 0;
  // "fitted_size" (read and write laws only): the bytes of the calls the law was fitted on (Mistral's read law: the
  // 3,900-byte objects md-real-io read; fit_mdrealio.py writes its object size). 0: not stated. The law's delay does
  // not depend on a call's size: a run whose calls under the law are of a size outside [fitted / 2, 2 x fitted]
  // (kFittedSizeFactor) gets them delayed as fitted, and says so (a warning, once per run: run_simulation).
  double fitted_size_B = 0;
  static constexpr double kFittedSizeFactor = 2;
  bool size_outside_fit(double bytes) const
  {
    return fitted_size_B > 0 &&
           (bytes < fitted_size_B / kFittedSizeFactor || bytes > fitted_size_B * kFittedSizeFactor);
  }
  double mean_s(double n) const { return base_s + per_unit_s * n; }
  double rank_factor(int rank) const
  {
    return rank_factors.empty() ? 1.0 : rank_factors[static_cast<size_t>(rank) % rank_factors.size()];
  }
  // A replayed excess recorded with n_rec ranks active, replayed by `rank` with n_now active: the part up to
  // the top of the law's distribution for that rank (mean(n_rec) x rank factor x last shape value) scales by
  // mean(n_now) / mean(n_rec); the rest (a stall recorded with few ranks active) keeps its duration.
  double scale_recorded(double excess_s, double n_rec, double n_now, int rank) const
  {
    double rec = mean_s(n_rec);
    if (rec <= 0)
      return excess_s;
    double cap = shape.empty() ? excess_s : rec * rank_factor(rank) * shape.back();
    double scaled = excess_s < cap ? excess_s : cap;
    return scaled * mean_s(n_now) / rec + (excess_s - scaled);
  }
};
struct LoadDelayConfig {
  bool enabled = false;
  // "population": "active_ranks" | "md_ops_in_flight", the default of the laws (each may state its own)
  LoadPopulation population = LoadPopulation::ActiveRanks;
  PerOp<LoadDelayLaw> law;      // "per_op.<op>": applied to the first client operation of that kind
};

struct ClientConfig {
  int ranks_per_node = 16;             // "ranks_per_node": default when the workload does not say
  // "placement": how ranks map to client nodes. "block": ranks 0..K-1 on node 0, K..2K-1 on node 1 (SLURM's and
  // mpirun's default); "cyclic": rank r on node r mod nodes (srun --distribution=cyclic, mpirun --map-by node).
  // It decides which ranks share a node's RPC slots, link and cached locks. scripts/trace_node_serialization.py
  // tells from a recorded trace which one a run used (DKRZ Mistral's md-real-io runs: cyclic).
  std::string placement = "block";
  // "max_rpcs_in_flight": per client node and target (Lustre mdc/osc max_rpcs_in_flight, default 8), any RPC, modifying
  // ones included. 1 (one RPC of any kind in flight) is a 1.8 client's (its mdc takes 1 to MDC_MAX_RIF_MAX); Lustre
  // >= 2.8 refuses an mdc max_rpcs_in_flight of 1, as it keeps max_mod_rpcs_in_flight below it.
  int max_rpcs_in_flight = 8;
  // "osc_max_rpcs_in_flight": the same limit towards each OST (Lustre's osc.*.max_rpcs_in_flight, set apart from the
  // mdc's); not given: max_rpcs_in_flight. It may be 1 whatever max_mod_rpcs_in_flight is.
  int osc_max_rpcs_in_flight = 8;
  // "max_mod_rpcs_in_flight": modifying metadata RPCs in flight per client node. Lustre clients before 2.8
  // serialised them with the mdc rpc_lock (one at a time); LU-5319 (2.8) made it tunable, default 7. At most
  // max_rpcs_in_flight, and below it when above 1 (2.8's rule, obd_set_max_mod_rpcs_in_flight).
  int max_mod_rpcs_in_flight = 1;
  // "open_rpcs": an open of an existing file (the open intent) is a modifying RPC to the client, as in every Lustre
  // version (before 2.8 mdc_enqueue takes the rpc_lock for every intent but getattr and lookup; from 2.8
  // obd_skip_mod_rpc_slot spares only getattr, lookup, readdir and read layouts): "modifying" (default) takes a
  // max_mod_rpcs_in_flight slot; "unlimited": only max_rpcs_in_flight bounds it (the model before 2026-11-26).
  std::string open_rpcs = "modifying";
  // "close_rpcs": how a node's closes are limited. "own_lock" (default, Lustre before 2.8): mdc_close holds the
  // per-MDC cl_close_lock, one close in flight per node and MDS, apart from the modifying RPCs; "modifying" (Lustre
  // >= 2.8): a close takes a max_mod_rpcs_in_flight slot, and one close may go when they are all taken
  // (obd_get_mod_rpc_slot); "unlimited": only max_rpcs_in_flight (the model before 2026-11-26). Not given: own_lock
  // with one modifying slot, modifying with more (the two Lustre generations).
  std::string close_rpcs = "own_lock";
  // "rpc_overhead": client processing per RPC while holding its slot (pack, send, wake-up, unpack), s.
  double rpc_overhead_s = 20e-6;
  PerOp<double> op_overhead_s;         // "op_overhead.<op>": client CPU per operation outside the slot, s
  // The data path (Lustre's osc): "max_pages_per_rpc" pages of 4 KiB per bulk RPC (1.x/2.x default 256 = 1 MiB); a
  // read or write is cut into RPCs at multiples of that size and at stripe boundaries (oss.stripe_size), each RPC to
  // its stripe's OST, up to max_rpcs_in_flight per OST and node.
  int max_pages_per_rpc = 256;
  // "max_dirty_mb": the write-back cache per node and OST (Lustre osc max_dirty_mb, default 32 MiB). 0 (default): a
  // write waits for its RPCs (write-through, O_DIRECT-like; the model before 2026-11-26). Above 0: a write returns
  // once its pages are in the cache (copied at "page_cache_copy"), waiting while that OST's dirty data would exceed
  // the limit; the pages go out once a slot is free (pieces waiting for one are merged into full RPCs;
  // hold_partial_rpcs holds partial ones back), and leave the cache when their RPC is answered. A close does not wait
  // for them (as Lustre's); an fsync does (IOR -e).
  double max_dirty_B = 0;
  // "shared_file_writes": what a file written from two or more client nodes does with the write-back cache.
  // "cached" (default, Lustre): each node caches its writes (its extent locks cover what it writes; conflicts between
  // nodes' extents are not modelled). "sync" (CephFS): the MDS revokes the buffer and cache capabilities (Fb, Fc) of a
  // file open for writing on more than one client, and every write to it is then synchronous: write() returns when
  // the OSD has acknowledged it (the kernel client's ceph_sync_write), and the written pages do not stay in the page
  // cache. Here a file turns synchronous when a rank of a second node begins to write it, and stays so until it is
  // unlinked or created again. Without a write-back cache (max_dirty_mb 0) every write waits for its RPCs anyway, and
  // "sync" only keeps such a file's written pages out of the page cache (max_cached_mb).
  std::string shared_file_writes = "cached";
  // "hold_partial_rpcs" (with max_dirty_mb; without a cache it has no effect, and true with max_dirty_mb 0 is warned
  // about): dirty pages wait in the cache until they make a full RPC, as Lustre's osc sends a write RPC only when an object has max_pages_per_rpc pages pending (osc_makes_rpc), or when writers wait
  // for cache space on that OSC, an fsync wants them, or they have been dirty for "dirty_expire" (the kernel's
  // writeback of an inode dirtied that long ago: vm.dirty_expire_centisecs, 30 s). false (default): every piece goes
  // as soon as a slot is free (the model before 2026-11-27). Here a full RPC is an aligned max_pages_per_rpc unit
  // (within one stripe) wholly dirty.
  bool hold_partial_rpcs = false;
  double dirty_expire_s = 30;
  double page_cache_copy_Bps = 0;  // "page_cache_copy": memory bandwidth of the copy into the cache; 0: instantaneous
  // Directory listing (a readdir of a directory of n entries is ceil(n / readdir_entries) RPCs to its MDS, each listing
  // up to that many entries). "readdir_entries": entries per readdir RPC (the Ceph kernel client's readdir_max_entries,
  // default 1024; Lustre lists whole directory pages). "readdir_entry": client time per listed entry (the reply's
  // dentries and inodes instantiated, the tool's own work per entry: pfind's name match), s. "readdir_attributes": the
  // reply carries each entry's attributes and capabilities (CephFS: the MDS encodes an inode stat with caps for every
  // dentry it lists, and ceph_readdir_prepopulate fills the client's inodes), so a stat of an entry the node has just
  // listed (OpRequest::listed) is answered by the client, no RPC; false (default, Lustre): it is a getattr RPC.
  int readdir_entries = 1024;
  double readdir_entry_s = 0;
  bool readdir_attributes = false;
  // "max_cached_mb": the node's page cache for file data (Lustre llite max_cached_mb, by default 3/4 of the node's
  // RAM). 0 (default): none, every read goes to the OSTs. Above 0: a read of data that a rank of the same node wrote
  // earlier in the run (IOR's read phase without -C, mdtest's File read of its own files) is served from the node's
  // memory (at page_cache_copy) with no RPC, as long as the node wrote at most max_cached_mb in the phase that wrote
  // the data (more than the cache holds: read back in the order written, the oldest pages were evicted first, LRU,
  // and every read misses). Reads of data written on other nodes, or before the run, go to the OSTs.
  double max_cached_B = 0;
  // "readahead_mb": Lustre llite's read-ahead of a rank's sequential reads (max_read_ahead_per_file_mb; Lustre 2.x
  // 64, 1.8 40). 0 (default): none, every read waits for its own RPCs. Above 0 (at least one RPC): from a rank's
  // second read that starts where its previous read of the same object ended, the client also requests the pages
  // ahead of the read, in whole RPCs of max_pages_per_rpc, up to a window of what the stream has read so far (at most
  // readahead_mb; bounded as readahead_window says), never past the object's end (known for IOR's files and replayed
  // I/O traces), into the node's read-ahead pages; a later read of the node waits only for those still in transit.
  // "readahead_node_mb" (max_read_ahead_mb): the node's read-ahead pages in transit, over all its ranks (default:
  // readahead_mb), taken first come (ll_ra_count_get); given above 0 with readahead_mb 0, it is warned about.
  double readahead_B = 0;
  double readahead_node_B = 0;
  // "readahead_window": where a stream's window ends. "lustre" (default): at most readahead_mb past where the read
  // began, as llite's (ras_set_start, then ll_readahead to ras_window_start + ras_window_pages): a stream's pages in
  // transit, its read's included, are at most readahead_mb, and a node whose readahead_node_mb is ranks x readahead_mb
  // holds every stream's window. "linux": up to the window past the read's end (the model before helper-115; Linux's
  // page-cache read-ahead, the CephFS kernel client's, keeps one to two windows ahead of the reader).
  std::string readahead_window = "lustre";
  double request_size_B = 512;         // "request_size": metadata request on the wire
  double reply_size_B = 1024;          // "reply_size": metadata reply on the wire
  LoadDelayConfig load_delay;          // "load_delay": off by default
};

// Mechanisms that can make MDS throughput fall as clients grow (docs/mechanisms.md). All off by default.
struct ContentionConfig {
  bool enabled = false;
  // "per_busy_thread.<op>": extra CPU per update of this kind for every other thread concurrently inside
  // an update (jbd2 transaction-start and llog catalog locks, cache lines bouncing between sockets), s.
  // Per operation because operations enter different numbers of contended sections. Updates only.
  PerOp<double> per_busy_thread_s;
  // "cross_partition_factor": weight of busy threads of *other* CPU partitions (1 = one shared structure
  // such as the ldiskfs journal; 0 = fully partitioned state).
  double cross_partition_factor = 1.0;
};

struct PerClientConfig {
  bool enabled = false;
  // "cost_per_client.<op>": extra CPU per request of this kind for each client node connected to the
  // request's CPU partition (per-export state walked per request: export lists, lock namespaces), s.
  PerOp<double> cost_per_client_s;
  // "fitted_up_to": the most client nodes the fit saw (scripts/calibrate_lu1695.py writes it; 0: not stated). A run
  // of more than twice as many gets a warning: the cost grows linearly there, past its data.
  double fitted_up_to = 0;
};

// Mechanism (i), docs/mechanisms.md: a cost per update that grows with the number of *directories* being updated
// on the MDS at once, not with the requests. CephFS stands behind it: each journal segment of an MDS must write back
// every directory fragment its events dirtied (one RADOS omap update per dirty dirfrag when the segment expires), so
// the per-update cost of that write-back grows with the directories updated together; a shared directory is one.
struct PerDirectoryConfig {
  bool enabled = false;
  // "cost_per_directory.<op>": extra CPU per update of this kind for every other directory with an update inside
  // this MDS when it starts, s. Updates only.
  PerOp<double> cost_per_directory_s;
  // "fitted_up_to": the most directories updated at once per MDS the fit saw (calibrate_spartan.py writes it; 0: not
  // stated). A run whose ranks per MDS exceed twice that gets a warning: the cost grows linearly there, past its data.
  double fitted_up_to = 0;
  // "count": which directories count. "in_progress" (default, the proxy the Spartan fit of 2026-11-24 used): those
  // with an update holding an MDS thread now, queued ones included, so an MDS that falls behind pays more per update
  // (a positive feedback: two identical MDS can settle unequally loaded, docs/spartan-cephfs.md section 6).
  // "journal_segment": the distinct directories among the MDS's last "events_per_segment" updates (CephFS's
  // mds_log_events_per_segment, 1024: the events of one journal segment, whose dirty dirfrags it writes back), which
  // follows what the MDS has done, not what waits for it.
  std::string count = "in_progress";
  int events_per_segment = 1024;
};

struct LockCallbackConfig {
  bool enabled = false;
  // An update in a shared directory revokes the directory lock cached by other client nodes (blocking
  // ASTs): "rtt" once per revocation (wait for cancels) plus "cpu_per_callback" MDS CPU per holder, both
  // spent while holding the directory lock.
  double rtt_s = 0;
  double cpu_per_callback_s = 0;
};

struct TimeoutConfig {
  bool enabled = false;
  // "timeout": a client gives up on a request not answered within this time and resends it; the server
  // still serves the abandoned copy (its reply is dropped).
  double timeout_s = 0;
  // "resend_delay": time between the timeout and the resend. In Lustre a timed-out request fails its import:
  // the client reconnects before it resends, which takes at least a connect round trip (seconds with the
  // default connect timeouts). 0 = resend at once. With 0 and a timeout below the queueing delay, every copy
  // times out and the run never ends (congestion collapse): a delay lets the queue drain.
  double resend_delay_s = 0;
  // "max_resends": an operation resent this many times whose last copy times out too (max_resends + 1 timeouts in
  // a row) stops the run with an error (no copy can come back in time: the timeout is below the round trip). Lustre resends forever; a
  // simulation that cannot finish should say so.
  int max_resends = 100;
};

struct OversubscriptionConfig {
  bool enabled = false;
  // "cost_per_extra_thread": extra CPU per request times (runnable threads / cores - 1) when more service threads
  // are runnable than cores (context switches, cache refills), s. Runnable: inside a request and not asleep on a
  // lock or the journal; per CPU partition, against its cores.
  double cost_per_extra_thread_s = 0;
};

struct SerialSectionConfig {
  bool enabled = false;
  // "hold.<op>": CPU time an update of this kind spends inside one MDT-wide lock that every such update
  // takes (Lustre 2.1: the unlink llog record appended under the plain log's lgh_lock, llog_cat_add_rec;
  // the OST object allocation of a create), s. Threads waiting for it sleep (no core); CPU partitions do
  // not split it. Nested inside the parent directory's lock where an update takes one.
  PerOp<double> hold_s;
};

struct PartitionConfig {
  bool enabled = false;
  int count = 1;  // "count": CPU partitions (Lustre 2.3+ CPTs); each has its own queue and threads
};

struct JournalConfig {
  bool enabled = true;
  // "bytes_per_update": journal bytes written per update (one block); above 0 when the journal is on.
  double bytes_per_update_B = 4096;
  double commit_interval_s = 5;      // "commit_interval": a transaction commits this long after its first update (jbd2)
  double capacity_B = 400.0 * 1048576;  // "capacity": journal size; updates block when it is full
  double disk_write_Bps = 200e6;     // "disk_write": MDT device sequential write bandwidth
  double block_size_B = 4096;        // "block_size": journal block (jbd2 buffer); credits count blocks
  // "commit_latency": fixed time of every commit on top of writing its bytes (the cache flush and the
  // commit block of a jbd2 commit with barriers), s.
  double commit_latency_s = 0;
  // "credits": jbd2 handle credits (docs/mechanisms.md (g)). When enabled, an update opens a journal handle
  // before it takes its parent directory's lock (Lustre 2.1 mdd_create/mdd_unlink: mdd_trans_start, then
  // mdd_pdo_write_lock) and reserves "<op>" credits (blocks) in the running transaction until it ends; a
  // transaction holds at most capacity / block_size / 4 credits (jbd2 j_max_transaction_buffers), used
  // blocks plus the reservations of open handles. A handle that does not fit requests a commit and waits
  // for the next transaction. An update without an entry reserves the blocks it logs, rounded up to whole
  // blocks (filled in on reading, so `credits` holds every update's reservation when enabled).
  bool credits_enabled = false;
  PerOp<double> credits;
  double max_transaction_credits() const { return capacity_B / block_size_B / 4; }
};

struct DirLockConfig {
  bool enabled = true;
  // "hold.<op>": time an update holds its parent directory's lock (Lustre 2.1 has no parallel directory
  // operations: updates in one directory serialise on it). Only directories shared by several ranks lock.
  // Updates only (create, unlink, mkdir, rmdir): other operations take the lock shared (lookup_hold).
  PerOp<double> hold_s;
  // "lookup_hold.<op>": CPU time a request in a shared directory first spends looking its name up under
  // the directory's lock taken *shared* (Lustre 2.1 osd-ldiskfs: osd_ea_lookup_rec under down_read of the
  // directory's oo_ext_idx_sem, inserts and deletes under down_write). The lock is writer-fair like a Linux
  // rw_semaphore: a reader that finds a writer holding or waiting queues behind it (FIFO), and a release
  // wakes either the next writer or the run of readers at the head of the queue. 0: no shared section.
  PerOp<double> lookup_hold_s;
};

struct ThreadConfig {
  int min = 16;   // "min": threads started at mount (Lustre mds_num_threads / threads_min)
  int max = 16;   // "max": threads started on demand when all are busy (threads_max)
};

struct MdsConfig {
  int count = 1;                 // "count": MDS hosts; directories dealt over them in creation order (Workload::directory_order)
  int cores = 12;                // "cores"
  ThreadConfig threads;          // "threads": the main metadata service (mdt)
  // "readpage_threads": the separate readpage service (mdt_rdpg) that serves close and readdir; Lustre
  // sends CLOSE to its own portal so that closes are not stuck behind throttled creates (bug 7034).
  ThreadConfig readpage_threads;
  PerOp<double> service_s;       // "service.<op>": CPU demand per operation on one core, s
  PerOp<bool> service_given;     // which "service.<op>" the file gives (a workload's MDS operation must have one)
  // "readdir_entry": CPU per entry a readdir RPC lists (each dentry and inode encoded into the reply), on top of
  // service.readdir per RPC, s.
  double readdir_entry_s = 0;
  // "service_distribution": "deterministic" (every request costs its mean) or "exponential" (memoryless,
  // for queueing-theory checks and for servers whose service time varies widely).
  std::string service_distribution = "deterministic";
  // "core_scheduling": how threads waiting for a core are ordered. "fifo": first come, first served.
  // "lock_holder_first": a thread holding a lock (directory, MDT-wide section) gets the next free core
  // before threads that hold none. "preempt" (default): it runs at once, on a running thread's core if none
  // is free, and that thread finishes its step that much later (Linux CFS: a thread woken with a lock has
  // slept, so it has the smallest virtual runtime and preempts the running one). Without priority the lock
  // holder's CPU work queues behind every other request's and the serialised hold stretches with the
  // number of busy threads; with only "lock_holder_first" it still waits for the next core to free, which
  // with a few cores per CPU partition is a large part of a hold.
  std::string core_scheduling = "preempt";
  JournalConfig journal;
  DirLockConfig dir_lock;
  ContentionConfig contention;             // "mechanisms.contention"
  PerClientConfig per_client;              // "mechanisms.per_client"
  PerDirectoryConfig per_directory;        // "mechanisms.per_directory"
  LockCallbackConfig lock_callbacks;       // "mechanisms.lock_callbacks"
  TimeoutConfig timeouts;                  // "mechanisms.timeouts"
  OversubscriptionConfig oversubscription; // "mechanisms.oversubscription"
  SerialSectionConfig serial;              // "mechanisms.serial_section"
  PartitionConfig partitions;              // "mechanisms.partitions"
};

struct OssConfig {
  int count = 1;
  int threads = 32;
  double rpc_service_s = 50e-6;       // "rpc_service": CPU per data RPC
  double disk_read_Bps = 500e6;       // "disk_read"
  double disk_write_Bps = 500e6;      // "disk_write"
  // "disk_read_latency", "disk_write_latency": the OST's time per transfer (per RPC) before its bytes move at
  // disk_read / disk_write: positioning (a seek and a rotation on a disk), a controller's command overhead. A
  // transfer of B bytes holds the OST for latency + B / bandwidth, so small RPCs are bounded by 1 / latency per
  // second (IOPS) and large ones by the bandwidth. Default 0 (bandwidth only). A straggler's slow period slows the
  // bytes, not the positioning.
  double disk_read_latency_s = 0;
  double disk_write_latency_s = 0;
  // "object_serial_read", "object_serial_write": time per data RPC during which no other RPC of the same object (a
  // stripe of the file, stripe_size bytes: a CephFS RADOS object) is served at this server, in arrival order: an OSD
  // processes one placement group's operations in order, one at a time in its shard (and a small partial overwrite
  // reads, modifies and writes its blocks). 0 (default): none. Per direction: a read whose object_serial_read is 0 does
  // not wait for a write holding its object.
  double object_serial_read_s = 0;
  double object_serial_write_s = 0;
  // "parallel_read_latency", "parallel_write_latency": time per data RPC, after its object's serial part, that holds
  // neither the disk nor the object (only a service thread): replication to other OSDs and their commits, a
  // positioning on one of a server's many drives. 0 (default): none.
  double parallel_read_latency_s = 0;
  double parallel_write_latency_s = 0;
  // "placement": which OSS a file's first stripe is on. "round_robin" (default): Lustre's round-robin allocator as
  // one job's files see it when nothing else allocates: the job's file k (in creation order,
  // Workload::creation_order: IOR -F rank r's file is r, mdtest's ranks create in step) starts on OST
  // k x stripe_count mod count, so files created together are on different OSTs. "object": the OSS that a hash of
  // the object's identity (its directory and index) gives, uniformly at random, as CephFS's CRUSH places objects
  // (and Lustre's weighted-random allocator when the OSTs are unbalanced); a read goes where that object's identity
  // hashes. "node": every RPC of client node n goes to OSS n mod count (the rule before 2026-11-25, kept for
  // comparison). Until 2026-11-26 the default was "object", and "round_robin" took object k mod count, which put
  // every mdtest rank's file i on one OST.
  std::string placement = "round_robin";
  // "stragglers": OSTs that slow down for a while and recover (Titan/Atlas2, seed 002): each OST alternates between
  // normal periods and slow ones, both exponentially distributed ("mean_normal", "mean_slow"), independently of the
  // others; in a slow period its bandwidth is a fraction of disk_write/disk_read drawn uniformly in
  // ["slow_bandwidth_min", "slow_bandwidth_max"] (one draw per period). A transfer that spans a change runs at each
  // period's rate in turn. At time 0 each OST is slow with the stationary probability mean_slow / (mean_normal +
  // mean_slow). Reproducible from the run's seed and the OST's index.
  struct Stragglers {
    bool enabled = false;
    double mean_normal_s = 150;
    // "normal_shape" k: a normal period is Erlang-k (the sum of k exponential phases of mean mean_normal / k): 1 is
    // exponential; larger k, less variable (P(> x) falls faster past the mean)
    int normal_shape = 1;
    double mean_slow_s = 37;
    double slow_bandwidth_min = 0.4;
    double slow_bandwidth_max = 0.6;
  } stragglers;
  // The default file layout (lfs setstripe): "stripe_count" OSTs per file, from the file's first OST (placement)
  // on in index order, "stripe_size" bytes per stripe (default 1 MiB; a multiple of 64 KiB, as Lustre requires).
  // Every RPC of a read or write goes to the OST of its stripe (offset / stripe_size mod stripe_count).
  int stripe_count = 1;
  double stripe_size_B = 1048576;
  // LMT-like counters per OST (pfsim ior --lmt; the results' servers[].data): bytes moved per "sample_interval" (LMT: 5 s),
  // intervals starting at "sample_offset" + k x interval of simulated time (the OSS's clock is not the client's).
  double sample_interval_s = 5;
  double sample_offset_s = 0;
};

struct PlatformConfig {
  std::string name;
  // Where it was read from (not part of the platform: not written by to_json): the file and the --set overrides
  // applied to it, for errors found later (e.g. a service demand the workload needs).
  std::string file;
  std::vector<std::string> sets;
  // Settings that parse but do nothing (a mechanism block with values and no "enabled"), for the command to print.
  std::vector<std::string> warnings;
  std::string description;
  nlohmann::json sources;  // "sources": where each figure comes from (documentation, kept verbatim)
  NetworkConfig network;
  ClientConfig clients;
  MdsConfig mds;
  OssConfig oss;
};

PlatformConfig parse_platform(const nlohmann::json& j, const std::string& file);
PlatformConfig load_platform(const std::string& file);
nlohmann::json to_json(const PlatformConfig& p);
// The platform a run used, as a results file records it: to_json with the ranks per node the run had (a
// --ranks-per-node or a workload's value overrides clients.ranks_per_node), so the file reruns that run.
nlohmann::json effective_json(const PlatformConfig& p, int ranks_per_node);

}  // namespace pfsim::config
