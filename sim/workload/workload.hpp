// What the ranks do: an abstract per-rank operation stream grouped into phases separated by barriers.
// Generators (synthetic.hpp) and trace importers implement it; the client model only calls next().
#pragma once
#include "model/ops.hpp"

#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>

namespace pfsim {

// One operation as the client model sees it.
struct OpRequest {
  Op op = Op::Stat;
  uint32_t dir = 0;         // directory id (selects the MDS and the directory lock)
  bool shared_dir = false;  // the directory is used by several ranks (only those take the directory lock)
  double bytes = 0;         // payload of write/read
  uint64_t object = 0;      // identity of the object a write/read moves (its OSS: oss.placement "object")
  uint64_t offset = 0;      // where in the object a write/read starts (its stripes: oss.stripe_size, stripe_count)
  uint64_t object_end = 0;  // the object's size, where read-ahead stops (clients.readahead_mb); 0: unknown, none
  // The step first waits until the rank's written data is out of the node's write-back cache (an fsync before the
  // close: IOR -e); nothing to wait for without clients.max_dirty_mb.
  bool flush = false;
  // The file was removed since the node wrote it (IOR without -k removes it after each repetition): the node's held
  // dirty pages of it are dropped before this step (clients.hold_partial_rpcs), as the unlink's lock cancel drops them.
  bool drop_held = false;
  // readdir: the entries this RPC lists (clients.readdir_entries at most; the MDS's mds.readdir_entry and the client's
  // clients.readdir_entry are per entry). stat: `listed` when the node lists the entry with a readdir (pfind's lstat of
  // a name it read), which a client whose readdir replies carry attributes answers itself (clients.readdir_attributes)
  // once the listing has reached the entry's `position`.
  uint32_t entries = 0;
  bool listed = false;
  uint64_t position = 0;  // a listed stat: its entry's place in the directory's listing (1 = first; 0: not known)
  double think_s = 0;       // idle time on the rank before this operation starts
  // Trace-driven excess (replay with residuals): the recorded latency above the modelled floor, applied inside
  // the operation as a delay, and the number of recorded ranks active when it was recorded. excess_s < 0: none.
  float excess_s = -1;
  float recorded_active = 0;
  // Other recorded ranks' metadata operations in flight when it was recorded (clients.load_delay population
  // "md_ops_in_flight").
  float recorded_md_in_flight = 0;
  // Where this step sits in the tool's own operations: `begins` on the first step of one (an md-real-io create
  // is create, write, close; an mdtest file read open, read, close), `metadata` when that tool operation is a
  // metadata one (stat, create, unlink, mkdir...; not one that reads data). The client counts the metadata
  // operations in flight from these (the population "md_ops_in_flight"). Defaults: each step its own operation.
  bool begins = true;
  bool metadata = true;
  // A read of data that rank `written_by` wrote earlier in this run (IOR's read phase, mdtest's File read): served
  // from that node's page cache when it is this node's (clients.max_cached_mb). -1: not written in this run.
  int32_t written_by = -1;
  // The phase in which it was written (-1: this one): the node's cache still holds it when the node has written at
  // most max_cached_mb since that phase began (LRU evicts what was written first).
  int32_t written_phase = -1;
  // The step starts once every rank of the run has reached its own step with `barrier` in this phase: an MPI_Barrier
  // inside the phase (IOR -g: between the open and the transfers, and before the close).
  bool barrier = false;
  // A write that does not stay in the write-back cache: done when its RPCs are answered (IOR -Y, an fsync after
  // every write). Its pages stay in the node's page cache (clients.max_cached_mb), clean.
  bool sync = false;
};

// Stonewalling (IOR -D, -O stoneWallingWearOut, a pair limit), the model's part: the workload states it per phase, the
// client model counts each rank's data steps (reads and writes: IOR's "pairs") and stops them through
// RankCursor::stop.
struct PhaseStonewall {
  // A rank starts no data step once this long has passed since its first data step of the phase began; the step in
  // progress at the deadline completes (IOR checks after each transfer). 0: none.
  double deadline_s = 0;
  // Every rank, once its data steps are over (the deadline, the limit or its last one), waits for all the others (an
  // MPI_Allreduce of the counts) and then goes on to the most any rank did.
  bool wear_out = false;
  // A rank stops after this many data steps (0: no limit)...
  uint64_t limit = 0;
  // ... or, when >= 0, after as many as it did in that earlier phase (IOR's read after a stonewalled write; mdtest's
  // stat, read and removal after a stonewalled create).
  int limit_phase = -1;
  // What is counted, and from when. false: IOR's pairs, each data step (a read or a write), the deadline counted from
  // the rank's first data step (IOR's startForStonewall). true: mdtest's items, each tool operation once its last step
  // is done (an mdtest create is its create, write and close), the deadline counted from the rank's start of the phase
  // (mdtest's progress->start_time), checked after each item (create_remove_items_helper); the workload starts no item
  // past RankCursor::stop.
  bool per_item = false;
  bool active() const { return deadline_s > 0 || wear_out || limit > 0 || limit_phase >= 0; }
};

// The client node of `rank` (clients.placement): block, ranks_per_node consecutive ranks per node; cyclic, rank r on
// node r mod nodes. Shared by the simulation (RunContext::node_of) and the generators that place work by node.
inline int node_of_rank(int rank, int nodes, int ranks_per_node, bool cyclic)
{
  return cyclic ? rank % nodes : rank / ranks_per_node;
}

// Position of one rank in its stream; opaque to the client model, small so that 100,000 ranks are cheap.
struct RankCursor {
  uint64_t item = 0;
  uint32_t step = 0;
  uint32_t aux = 0;
  // Set by the model (stonewalling, PhaseStonewall): once the rank has done `stop` data steps in the phase, its next
  // step is the one after its data steps (IOR's close); with PhaseStonewall::per_item, once it has done `stop` items
  // it has no next step. 0: no stop. Workloads without a PhaseStonewall ignore it.
  uint64_t stop = 0;
};

class Workload {
public:
  virtual ~Workload() = default;
  virtual int ranks() const = 0;
  virtual int phase_count() const = 0;
  virtual std::string phase_name(int phase) const = 0;
  // Objects the phase counts for its rate (files created, stat'ed...), as the tool reports it.
  virtual uint64_t phase_items(int phase) const = 0;
  // Iteration a phase belongs to (mdtest -i, md-workbench benchmark rounds); 0 when not iterated.
  virtual int phase_iteration(int /*phase*/) const { return 0; }
  // Next operation of `rank` in `phase`; false when the rank has finished the phase.
  virtual bool next(int rank, int phase, RankCursor& cursor, OpRequest& out) const = 0;
  // The operation kinds the workload sends (for the platform checks before a run). By default rank 0's operations
  // of every phase, walked once; a generator that knows its kinds answers without the walk.
  virtual PerOp<bool> kinds_used() const
  {
    PerOp<bool> used{};
    for (int p = 0; p < phase_count(); ++p) {
      RankCursor c;
      OpRequest r;
      while (next(0, p, c, r))
        used[r.op] = true;
    }
    return used;
  }
  // Whether some operation is in a directory several ranks use (OpRequest::shared_dir): by default rank 0's
  // operations, walked until one is (a shared directory of a generator or a trace is rank 0's too).
  virtual bool uses_shared_dirs() const
  {
    for (int p = 0; p < phase_count(); ++p) {
      RankCursor c;
      OpRequest r;
      while (next(0, p, c, r))
        if (r.shared_dir)
          return true;
    }
    return false;
  }
  // How many directories of their own the ranks update (the per-directory cost's warning): one per rank by default.
  virtual double own_directories() const { return ranks(); }
  // Whether some update (create, unlink, mkdir, rmdir) is in a directory of its rank's own (!OpRequest::shared_dir):
  // by default rank 0's operations, walked until one is. Generators answer from their parameters (a walk of
  // mdtest -n 1e12 takes hours).
  virtual bool updates_own_dirs() const
  {
    for (int p = 0; p < phase_count(); ++p) {
      RankCursor c;
      OpRequest r;
      while (next(0, p, c, r))
        if (is_update(r.op) && !r.shared_dir)
          return true;
    }
    return false;
  }
  // Stonewalling in `phase` (none by default). A workload that states one honours RankCursor::stop.
  virtual PhaseStonewall stonewall(int /*phase*/) const { return {}; }
  // Whether each rank, its steps of `phase` done, runs sync(2) before the barrier (mdtest -Y: its phase_end calls the
  // `sync` command, inside the phase's time): it waits until its node's write-back cache holds no dirty page (every
  // rank's; held pieces go at once). False by default.
  virtual bool phase_ends_with_sync(int /*phase*/) const { return false; }
  // Idle time of every rank at the start of `phase` (after its barrier) that the phase's time leaves out, as the tool
  // times it (IOR's -d: its sleep comes before its timers start): the phase is recorded as starting after it.
  virtual double phase_delay_s(int /*phase*/) const { return 0; }
  // Where directory `dir` comes in the order the job creates its directories: its MDS is directory_order mod
  // mds.count (directories dealt over the MDSes, as an even subtree partition pins them). By default the id itself
  // (mdtest -u: rank r's directory is r).
  virtual uint64_t directory_order(uint32_t dir) const { return dir; }
  // Where OpRequest::object comes in the order the job creates its files (oss.placement "round_robin" deals the
  // files over the OSTs in this order). By default the object itself (IOR -F: rank r's file is object r).
  virtual uint64_t creation_order(uint64_t object) const { return object; }
  // The tool operations the run simulates (for the run's size estimate): by default every phase's items, as the tool
  // counts them; a tool whose items are not its operations (pfind examines a file per listed entry, many per readdir)
  // says its own.
  virtual long double operations() const
  {
    long double n = 0;
    for (int p = 0; p < phase_count(); ++p)
      n += static_cast<long double>(phase_items(p));
    return n;
  }
  // Bytes the workload reads and writes in all (for the run's size estimate: each 1 MiB is a bulk RPC); 0 when
  // unknown without a walk.
  virtual double data_bytes() const { return 0; }
  // The job removes every file it wrote after its last phase (IOR without -k): pages still in a write-back cache then
  // go unwritten rather than being written back at the run's end.
  virtual bool removes_files_at_end() const { return false; }
  // Parameters of the workload, for the results' effective configuration.
  virtual nlohmann::json describe() const = 0;
};

}  // namespace pfsim
