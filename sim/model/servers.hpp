// Metadata and object storage servers: service threads on cores serving a user-level request queue.
// (A shared SimGrid Mailbox as a server queue becomes quadratic with thousands of senders in 3.32; a
// deque plus a Semaphore is constant time per request.)
#pragma once
#include "config/platform_config.hpp"
#include "model/link_turns.hpp"
#include "model/rpc.hpp"
#include "report/records.hpp"

#include <simgrid/s4u.hpp>

#include <deque>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace pfsim {

// A request joins its queue after every request that arrived before it; requests that arrive at the same instant
// queue least-served rank first (the rank's RPC count, then its node and rank), the order in which a client node's
// timers of one instant fire (docs/architecture.md). In the order the node actors happen to run, the same ranks came
// last at every round of a deterministic closed loop (helper-128: 25 ranks on 16 threads of 400 us each, two ranks
// 711 us per stat against 613 us for the others, the phase, ended by its slowest rank, 12% slower than c / S).
// A rank's own requests keep their order (equal keys: the later one after). `count`: the rank's RPCs of the kind the
// server serves (Request::seq at an MDS, Request::data_seq at an OSS).
template <class Count> void queue_arrival(std::deque<Request*>& queue, Request* r, Count count)
{
  auto before = [&count](const Request* a, const Request* b) {
    return std::make_tuple(count(a), a->node, a->local_rank) < std::make_tuple(count(b), b->node, b->local_rank);
  };
  auto it = queue.end();
  while (it != queue.begin()) {
    auto prev = std::prev(it);
    if ((*prev)->arrived_s != r->arrived_s || !before(r, *prev))
      break;
    it = prev;
  }
  queue.insert(it, r);
}

// Where replies go: one mailbox per client node, each read by that node's actor only.
struct ReplyRoute {
  std::vector<simgrid::s4u::Mailbox*> node_mailboxes;
  double reply_size_B = 1024;
  int senders = 16;  // network.reply_senders
  LinkTurns* turns = nullptr;  // turns on the links for bulk transfers (the run's; read replies take theirs)
};

// Sends a server's replies without holding its service threads, as LNET does: `network.reply_senders` actors
// on the server host take replies from a user-level queue and `put` them (each held for the reply's latency and
// transfer: at most reply_senders replies per one-way time leave a server; docs/configuration.md says why not
// unlimited). A reply carrying a read's data takes its turn on the links of its route (LinkTurns) when it is sent,
// and waits with the server's pacer actor until the turn begins (in order of the turns' beginnings; a later reply
// whose turn begins first overtakes it): a sender is held only for its transfer, not while a reply waits for a
// congested router (other replies on free routes would wait behind it). Not detached comms: SimGrid 3.32 keeps detached or never-waited comms in the sending actor's
// activity list, which then grows with every reply and makes that actor's later activities scan it.
class ReplySender {
public:
  // `target`: the server's index among the targets (the MDSes, then the OSSes).
  ReplySender(const ReplyRoute& route, simgrid::s4u::Host* host, std::string name, size_t target);
  void send(Request* r, double extra_bytes = 0);

private:
  void run();
  void pace();  // the pacer actor: moves each waiting reply to queue_ when its turn begins
  const ReplyRoute& route_;
  size_t target_;
  std::deque<std::pair<Request*, double>> queue_;
  simgrid::s4u::SemaphorePtr items_ = simgrid::s4u::Semaphore::create(0);
  // Replies waiting for their turn: (begin, arrival order) -> (reply, bytes), the earliest first.
  std::map<std::pair<double, uint64_t>, std::pair<Request*, double>> waiting_;
  uint64_t waiting_order_ = 0;
  simgrid::s4u::MutexPtr pace_mutex_;
  simgrid::s4u::ConditionVariablePtr pace_cv_;
  bool pacer_started_ = false;
};

// The MDT journal (jbd2-like): updates append bytes; a commit writes them to the MDT disk (commit_latency plus
// bytes / disk_write) commit_interval after the transaction's first update, or when a quarter of the journal
// is used; updates block while the journal is full. One commit at a time (kjournald2).
// With credits (journal.credits): updates open handles that reserve credits in the running transaction
// (start_handle) and return the unused ones when they end (stop_handle); a transaction holds at most
// max_transaction_credits. A handle that does not fit requests a commit and sleeps until the transaction is
// locked and replaced; a commit locks the transaction (new handles wait), waits for its open handles to end,
// then opens the next one and writes. As jbd2 start_this_handle / jbd2_journal_stop / commit_transaction.
class Journal {
public:
  Journal(const config::JournalConfig& cfg, simgrid::s4u::Disk* disk, ServerRecord& record);
  void start(simgrid::s4u::Host* host);
  void reserve(double bytes);
  void start_handle(double credits);
  void stop_handle(double credits, double bytes);
  double committed_B() const { return committed_B_; }

private:
  void run();
  void append(double bytes);    // logs an update's bytes (no handle)
  void join(double credits);    // a handle joins the running transaction
  bool has_updates() const { return pending_B_ > 0 || open_handles_ > 0; }
  config::JournalConfig cfg_;
  simgrid::s4u::Disk* disk_;
  ServerRecord& rec_;
  double pending_B_ = 0;
  double txn_start_s_ = 0;  // when the running transaction got its first update
  double committing_B_ = 0;
  double committed_B_ = 0;
  // Credits (journal.credits): of the running transaction, its used blocks plus open handles' reservations.
  double outstanding_ = 0;
  int open_handles_ = 0;
  bool locked_ = false;            // the commit waits for the open handles; no handle may start
  bool commit_requested_ = false;  // a handle did not fit
  simgrid::s4u::MutexPtr mutex_;
  simgrid::s4u::ConditionVariablePtr space_;
  simgrid::s4u::ConditionVariablePtr wake_;
  simgrid::s4u::ConditionVariablePtr replaced_;  // the running transaction was locked and a new one opened
  simgrid::s4u::ConditionVariablePtr drained_;   // the locked transaction's last handle ended
};

// The cores of a CPU partition. A thread holds a core for the whole CPU part of a step (run to completion:
// MDS requests are far shorter than a scheduler time slice), so more runnable threads than cores queue
// for one: first come, first served, except that `urgent` waiters (threads holding a lock) are served
// before the others ("lock_holder_first"). A released core is handed directly to the next waiter.
// With `preempt` ("preempt": Linux CFS wake-up preemption, a thread woken with a lock has slept and has the
// smallest virtual runtime), an urgent thread that finds every core busy runs at once on the core of a
// running ordinary thread, if one is left that no other lock holder is already preempting (each core runs one
// preempting thread at a time; lock holders do not preempt one another, so a lock taken shared by many
// threads cannot create cores). Otherwise it waits at the head of the queue and takes the first core freed or
// the first preemption slot a finishing preemptor gives back. The preempted thread loses that time: the next
// ordinary thread to finish its step finishes it that much later (it repays the debt before it releases its
// core), so no CPU time is created.
class CorePool {
public:
  explicit CorePool(int cores, bool preempt = false) : free_(cores), preempt_(preempt) {}
  // Returns true if the thread preempted another one (then pass that, and the time it ran, to release()).
  bool acquire(bool urgent);
  // `preempting`: what acquire returned; `ran_s`: the CPU time a preempting thread took from the running one
  // (repaid by it; may be 0: a preempting thread that ran nothing still gives back its slot and no core);
  // `urgent`: as passed to acquire (a lock holder does not repay other threads' preemptions).
  void release(bool preempting = false, double ran_s = 0, bool urgent = false);

private:
  struct Waiter {
    simgrid::s4u::SemaphorePtr wake = simgrid::s4u::Semaphore::create(0);
    bool preempting = false;  // woken to preempt a running thread rather than with a core of its own
  };
  // Hands a preemption slot to the first urgent waiter while a running ordinary thread is left to preempt.
  void grant_preemptions();
  int free_;
  bool preempt_;
  int running_ordinary_ = 0;  // threads holding a core that were not urgent when they took it
  int preempting_ = 0;        // urgent threads running on another thread's core
  double debt_s_ = 0;         // core time taken by preempting threads, not yet repaid
  std::deque<std::shared_ptr<Waiter>> urgent_;
  std::deque<std::shared_ptr<Waiter>> normal_;
};

// A request queue served by a pool of threads that grows on demand from min to max.
struct ThreadPoolQueue {
  std::deque<Request*> queue;
  simgrid::s4u::SemaphorePtr items = simgrid::s4u::Semaphore::create(0);
  int idle = 0;
  int started = 0;
  int busy = 0;
  int busy_updates = 0;
  int blocked = 0;  // threads inside a request asleep on a lock or the journal (not runnable)
  int core_count = 1;  // the cores the pool's threads run on
  int max_threads = 1;
  int clients = 0;  // client nodes bound to this queue
  // Cores this pool's threads run on (see CorePool).
  std::shared_ptr<CorePool> cores;
};

class MdsServer {
public:
  MdsServer(const config::MdsConfig& cfg, int index, simgrid::s4u::Host* host, simgrid::s4u::Disk* disk,
            const ReplyRoute& route, int client_nodes, uint64_t seed, ServerRecord& record);
  void start();
  // Called by a client node actor when a request has arrived over the network.
  void enqueue(Request* r);
  int partition_of(uint32_t node) const { return static_cast<int>(node % parts_.size()); }

private:
  // A shared directory's lock: writer-fair reader-writer lock (Linux rw_semaphore semantics). A request that
  // cannot take it joins the FIFO queue; a release hands the lock over (the woken request already holds it).
  struct DirState {
    int readers = 0;
    bool writer = false;
    std::deque<std::pair<bool, simgrid::s4u::SemaphorePtr>> waiting;  // (wants to write, wake-up)
    std::vector<char> holder;  // client nodes caching the directory lock
    int holders = 0;
  };
  // Takes the lock; a request that has to wait counts as asleep in `part` (not runnable) until it is granted.
  static void lock_dir(DirState& ds, bool write, ThreadPoolQueue& part);
  static void unlock_dir(DirState& ds, bool write);
  ThreadPoolQueue& pool(int partition, bool readpage) { return readpage ? rdpg_[partition] : parts_[partition]; }
  void start_thread(int partition, bool readpage);
  void thread_loop(int partition, bool readpage);
  void serve(Request& r, int partition);
  double demand_s(const Request& r, int partition);
  double sample(double mean_s);
  void compute(ThreadPoolQueue& part, double seconds, bool holds_lock = false);
  DirState& dir(uint32_t id);
  // compute(), then the MDT-wide section of mechanism (h) if the request's operation has one.
  void compute_then_serial(ThreadPoolQueue& part, double seconds, bool holds_lock, const Request& r);

  config::MdsConfig cfg_;
  int index_;
  simgrid::s4u::Host* host_;
  Journal journal_;
  ReplySender replies_;
  int client_nodes_;
  std::mt19937_64 rng_;
  ServerRecord& rec_;
  std::vector<ThreadPoolQueue> parts_;  // main service per CPU partition; holds the partition's cores
  std::vector<ThreadPoolQueue> rdpg_;   // readpage service (close, readdir) per CPU partition
  std::unordered_map<uint32_t, DirState> dirs_;  // never iterated; its references outlive insertions
  // The MDT-wide lock of mechanism (h), "mechanisms.serial_section": one for the whole MDS, whatever the
  // CPU partitions.
  simgrid::s4u::MutexPtr serial_mutex_ = simgrid::s4u::Mutex::create();
  int threads_total_ = 0;
  int busy_updates_total_ = 0;
  // Updates inside this MDS per directory (mechanism (i), per_directory): its size is the directories being
  // updated at once. Only counted and looked up, never iterated.
  std::unordered_map<uint32_t, int> updating_dirs_;
  // per_directory.count "journal_segment": the directories of the last events_per_segment updates, in order.
  std::deque<uint32_t> segment_events_;
  void note_segment_update(uint32_t dir);
  int busy_total_ = 0;  // threads inside a request, all partitions
  // A thread inside a request asleep on a directory lock, the section of mechanism (h), a lock callback or the
  // journal: counted while it sleeps, so that oversubscription (e) sees the runnable threads only.
  struct Asleep {
    Asleep(ThreadPoolQueue& part) : part_(part) { part_.blocked++; }
    ~Asleep() { part_.blocked--; }
    Asleep(const Asleep&) = delete;
    Asleep& operator=(const Asleep&) = delete;
    ThreadPoolQueue& part_;
  };
  bool holders_first_ = true;  // lock holders get a core first (core_scheduling preempt or lock_holder_first)
  const bool segment_count_ = cfg_.per_directory.count == "journal_segment";
};

// An OSS with its OST: fixed thread pool; a data RPC costs rpc_service CPU plus the OST transfer, served
// one at a time at the OST's bandwidth (FCFS).
class OssServer {
public:
  // `target`: its index among the targets (after the MDSes).
  OssServer(const config::OssConfig& cfg, int index, size_t target, simgrid::s4u::Host* host, const ReplyRoute& route,
            ServerRecord& record, uint64_t seed = 1);
  void start();
  void enqueue(Request* r);
  // The straggler process's time spent slow in [0, end_s) and its slow periods begun before end_s, into the record.
  void record_stragglers(double end_s);

private:
  void thread_loop();
  // The time the OST needs, from t0 on, to move `bytes` at `bandwidth` times the straggler factor of each period.
  double disk_time(double t0, double bytes, double bandwidth);
  config::OssConfig cfg_;
  int index_;
  simgrid::s4u::Host* host_;
  ReplySender replies_;
  ServerRecord& rec_;
  ThreadPoolQueue q_;
  simgrid::s4u::SemaphorePtr disk_queue_ = simgrid::s4u::Semaphore::create(1);
  // oss.object_serial_*: per object (a file's stripe) being served or waited for, its RPCs in order; an entry lives
  // while some RPC holds or waits for it (memory bounded by the RPCs at the server).
  struct ObjectTurn {
    int users = 0;
    simgrid::s4u::SemaphorePtr sem = simgrid::s4u::Semaphore::create(1);
  };
  std::map<std::pair<uint64_t, uint64_t>, ObjectTurn> object_turns_;
  void serve_in_object_order(const Request& r, double hold_s);
  // oss.stragglers: the OST's periods, [start, end) at a bandwidth factor (1 normal, below 1 slow), generated as far
  // as they are needed; transfers at one OST start in time order, so a cursor finds the current one.
  struct Period {
    double start, end, factor;
  };
  void extend_periods(double until);
  // Periods still ahead of the OST's transfers; those behind are folded into the totals (memory stays bounded over a
  // run of simulated days).
  std::deque<Period> periods_;
  double past_slow_s_ = 0;
  uint64_t past_slow_periods_ = 0;
  uint64_t rng_;
  double uniform();
};

}  // namespace pfsim
