#include "model/servers.hpp"

#include "model/hash.hpp"
#include "model/platform.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <mutex>
#include <tuple>

XBT_LOG_NEW_DEFAULT_CATEGORY(pfsim_servers, "pfsim metadata and object servers");

namespace sg4 = simgrid::s4u;

namespace pfsim {

namespace {
// Partition p's share of `total` threads split over n partitions: total / n, one more for the first total % n.
int share_of(int total, int n, int p)
{
  return total / n + (p < total % n ? 1 : 0);
}
}  // namespace

ReplySender::ReplySender(const ReplyRoute& route, sg4::Host* host, std::string name, size_t target)
    : route_(route), target_(target), pace_mutex_(sg4::Mutex::create()), pace_cv_(sg4::ConditionVariable::create())
{
  for (int i = 0; i < route.senders; ++i)
    sg4::Actor::create(name + "-lnet" + std::to_string(i), host, [this] { run(); })->daemonize();
}

void ReplySender::send(Request* r, double extra_bytes)
{
  if (extra_bytes > 0 && route_.turns != nullptr) {
    double until = 0;
    const double now = sg4::Engine::get_clock();
    // The reply's whole size on the wire, its header with the data (run).
    const double begin = route_.turns->reserve(now, r->node, target_, route_.reply_size_B + extra_bytes, false, until);
    if (begin > now) {
      // The first reply that must wait starts the pacer (a server that sends no data never starts one). The mutex and
      // condition variable exist from the start: creating an actor may run other actors, which may send meanwhile.
      if (!pacer_started_) {
        pacer_started_ = true;
        sg4::Actor::create("lnet-pacer-" + std::to_string(target_), sg4::this_actor::get_host(), [this] { pace(); })
            ->daemonize();
      }
      const bool first = waiting_.empty() || begin < waiting_.begin()->first.first;
      waiting_.emplace(std::make_pair(begin, waiting_order_++), std::make_pair(r, extra_bytes));
      if (first)  // (else the pacer already waits for an earlier turn)
        pace_cv_->notify_one();
      return;
    }
  }
  queue_.emplace_back(r, extra_bytes);
  items_->release();
}

void ReplySender::pace()
{
  std::unique_lock<sg4::Mutex> lock(*pace_mutex_);
  for (;;) {
    if (waiting_.empty()) {
      pace_cv_->wait(lock);
      continue;
    }
    auto first = waiting_.begin();
    if (first->first.first > sg4::Engine::get_clock()) {
      pace_cv_->wait_until(lock, first->first.first);  // or an earlier turn arrives
      continue;
    }
    queue_.push_back(first->second);
    waiting_.erase(first);
    items_->release();
  }
}

void ReplySender::run()
{
  for (;;) {
    items_->acquire();
    auto [r, extra] = queue_.front();
    queue_.pop_front();
    route_.node_mailboxes[r->node]->put(new NodeMessage(Reply{r}),
                                        static_cast<uint64_t>(route_.reply_size_B + extra));
  }
}

// ---------------------------------------------------------------------------------------------- Journal

Journal::Journal(const config::JournalConfig& cfg, sg4::Disk* disk, ServerRecord& record)
    : cfg_(cfg), disk_(disk), rec_(record), mutex_(sg4::Mutex::create()), space_(sg4::ConditionVariable::create()),
      wake_(sg4::ConditionVariable::create()), replaced_(sg4::ConditionVariable::create()),
      drained_(sg4::ConditionVariable::create())
{
}

void Journal::start(sg4::Host* host)
{
  if (cfg_.enabled)
    sg4::Actor::create("journal", host, [this] { run(); })->daemonize();
}

void Journal::reserve(double bytes)
{
  if (!cfg_.enabled)
    return;
  // Fast path without a simcall: actors are cooperative, nothing runs between the test and the update. After
  // a wait the update is made before `lock` releases the mutex: the release is a simcall, and another actor
  // could otherwise test the state this update is about to change.
  std::unique_lock<sg4::Mutex> lock(*mutex_, std::defer_lock);
  if (pending_B_ + committing_B_ + bytes > cfg_.capacity_B) {
    lock.lock();
    while (pending_B_ + committing_B_ + bytes > cfg_.capacity_B) {
      wake_->notify_one();
      space_->wait(lock);
    }
  }
  append(bytes);
}

void Journal::append(double bytes)
{
  const bool first = pending_B_ <= 0;
  if (first)
    txn_start_s_ = sg4::Engine::get_clock();  // the update opens a new transaction: its commit timer starts
  pending_B_ += bytes;
  if (first || pending_B_ >= cfg_.capacity_B / 4)
    wake_->notify_one();
}

void Journal::start_handle(double credits)
{
  const double max_credits = cfg_.max_transaction_credits();
  const double log_B = credits * cfg_.block_size_B;
  // Fast path without a simcall when nothing has to wait; after a wait the handle joins before `lock` releases
  // the mutex (see reserve).
  std::unique_lock<sg4::Mutex> lock(*mutex_, std::defer_lock);
  if (locked_ || outstanding_ + credits > max_credits || pending_B_ + committing_B_ + log_B > cfg_.capacity_B) {
    lock.lock();
    for (;;) {
      if (locked_) {  // jbd2: T_LOCKED, wait for the next transaction
        replaced_->wait(lock);
      } else if (pending_B_ + committing_B_ + log_B > cfg_.capacity_B) {  // no log space until a commit ends
        wake_->notify_one();
        space_->wait(lock);
      } else if (outstanding_ + credits > max_credits) {
        // jbd2: "if the current transaction is already too large, then start to commit it" and sleep until
        // it is locked and replaced; credits other handles return meanwhile go to later arrivals.
        commit_requested_ = true;
        wake_->notify_one();
        replaced_->wait(lock);
      } else {
        break;
      }
    }
    rec_.journal_handle_waits++;
  }
  join(credits);
}

void Journal::join(double credits)
{
  const bool first = !has_updates();
  if (first)
    txn_start_s_ = sg4::Engine::get_clock();
  outstanding_ += credits;
  open_handles_++;
  if (first)
    wake_->notify_one();
}

void Journal::stop_handle(double credits, double bytes)
{
  // The handle's unused credits go back; the blocks it logged stay in the transaction.
  outstanding_ += bytes / cfg_.block_size_B - credits;
  open_handles_--;
  pending_B_ += bytes;
  if (locked_ && open_handles_ == 0)
    drained_->notify_all();
  else if (pending_B_ >= cfg_.capacity_B / 4)
    wake_->notify_one();
}

void Journal::run()
{
  for (;;) {
    {
      std::unique_lock<sg4::Mutex> lock(*mutex_);
      // As jbd2: no running transaction, no timer (an idle journal schedules nothing, so a run whose actors
      // are all blocked ends as a deadlock instead of ticking forever); a transaction commits commit_interval
      // after its first update, or earlier once it fills a quarter of the journal or a handle does not fit.
      while (!has_updates())
        wake_->wait(lock);
      while (!commit_requested_ && pending_B_ < cfg_.capacity_B / 4) {
        const double left = txn_start_s_ + cfg_.commit_interval_s - sg4::Engine::get_clock();
        if (left <= 0)
          break;
        wake_->wait_for(lock, left);
      }
      if (cfg_.credits_enabled) {
        // Lock the transaction and let its open handles finish (their updates belong to it).
        commit_requested_ = false;
        locked_ = true;
        while (open_handles_ > 0)
          drained_->wait(lock);
        locked_ = false;
        outstanding_ = 0;
      }
      committing_B_ = pending_B_;
      pending_B_ = 0;
      if (cfg_.credits_enabled)
        replaced_->notify_all();
    }
    rec_.journal_commits++;
    if (cfg_.commit_latency_s > 0)
      sg4::this_actor::sleep_for(cfg_.commit_latency_s);
    if (committing_B_ > 0) {
      XBT_DEBUG("journal commit of %.0f bytes", committing_B_);
      disk_->write(static_cast<sg_size_t>(committing_B_));
    }
    committed_B_ += committing_B_;
    committing_B_ = 0;
    space_->notify_all();
  }
}

// ------------------------------------------------------------------------------------------- MdsServer

MdsServer::MdsServer(const config::MdsConfig& cfg, int index, sg4::Host* host, sg4::Disk* disk,
                     const ReplyRoute& route, int client_nodes, uint64_t seed, ServerRecord& record)
    : cfg_(cfg), index_(index), host_(host), journal_(cfg.journal, disk, record),
      replies_(route, host, "mds" + std::to_string(index), static_cast<size_t>(index)),
      client_nodes_(client_nodes), rng_(seed * 1000003ULL + static_cast<uint64_t>(index)), rec_(record)
{
  holders_first_ = cfg_.core_scheduling != "fifo";
  const bool preempt = cfg_.core_scheduling == "preempt";
  int nparts = cfg_.partitions.enabled ? cfg_.partitions.count : 1;
  parts_.resize(nparts);
  rdpg_.resize(nparts);
  for (int p = 0; p < nparts; ++p) {
    // The configured totals are split over the partitions (the first max % n get one more), so that partitions
    // on never add threads; the configuration asks for at least one per partition.
    parts_[p].max_threads = std::max(1, share_of(cfg_.threads.max, nparts, p));
    rdpg_[p].max_threads = std::max(1, share_of(cfg_.readpage_threads.max, nparts, p));
    parts_[p].core_count = std::max(1, cfg_.cores / nparts);
    parts_[p].cores = std::make_shared<CorePool>(parts_[p].core_count, preempt);
    for (int n = p; n < client_nodes; n += nparts)
      parts_[p].clients++;
  }
  rec_.name = "mds-" + std::to_string(index);
  rec_.cores = nparts * std::max(1, cfg_.cores / nparts);  // the cores the partitions have in all
}

void MdsServer::start()
{
  journal_.start(host_);
  int nparts = static_cast<int>(parts_.size());
  for (int p = 0; p < nparts; ++p) {
    int initial = std::min(parts_[p].max_threads, std::max(1, share_of(cfg_.threads.min, nparts, p)));
    for (int t = 0; t < initial; ++t)
      start_thread(p, false);
    initial = std::min(rdpg_[p].max_threads, std::max(1, share_of(cfg_.readpage_threads.min, nparts, p)));
    for (int t = 0; t < initial; ++t)
      start_thread(p, true);
  }
}

void MdsServer::start_thread(int p, bool readpage)
{
  auto& part = pool(p, readpage);
  std::string name = "mds" + std::to_string(index_) + "-p" + std::to_string(p) + (readpage ? "-rdpg" : "-t") +
                     std::to_string(part.started);
  part.started++;
  threads_total_++;
  (readpage ? rec_.readpage_threads_started : rec_.threads_started)++;
  sg4::Actor::create(name, host_, [this, p, readpage] { thread_loop(p, readpage); })->daemonize();
}

void MdsServer::enqueue(Request* r)
{
  double now = sg4::Engine::get_clock();
  r->arrived_s = now;
  rec_.change(now, +1);
  bool readpage = r->op == Op::Close || r->op == Op::Readdir;
  int p = partition_of(r->node);
  auto& part = pool(p, readpage);
  queue_arrival(part.queue, r, [](const Request* q) { return q->seq; });
  // (requests the idle threads take at this instant do not wait: helper-105 saw 1 for one rank and four idle threads)
  rec_.max_queue = std::max(rec_.max_queue, static_cast<int>(part.queue.size()) - part.idle);
  // Lustre's ptlrpc starts another service thread when a request waits and every thread is busy.
  if (static_cast<int>(part.queue.size()) > part.idle && part.started < part.max_threads)
    start_thread(p, readpage);
  part.items->release();
}

void MdsServer::thread_loop(int p, bool readpage)
{
  auto& part = pool(p, readpage);
  for (;;) {
    part.idle++;
    part.items->acquire();
    part.idle--;
    Request* r = part.queue.front();
    part.queue.pop_front();
    serve(*r, p);
  }
}

double MdsServer::sample(double mean_s)
{
  if (cfg_.service_distribution == "deterministic" || mean_s <= 0)
    return mean_s;
  // Inverse CDF on 53 random bits: the same on every platform for a given seed.
  double u = static_cast<double>(rng_() >> 11) * (1.0 / 9007199254740992.0);
  return -mean_s * std::log1p(-u);
}

bool CorePool::acquire(bool urgent)
{
  if (free_ > 0 && urgent_.empty() && normal_.empty()) {
    free_--;
    if (!urgent)
      running_ordinary_++;
    return false;
  }
  if (urgent && preempt_ && urgent_.empty() && preempting_ < running_ordinary_) {
    preempting_++;
    return true;  // runs now on a running ordinary thread's core (see release)
  }
  auto w = std::make_shared<Waiter>();
  (urgent ? urgent_ : normal_).push_back(w);
  w->wake->acquire();  // release() hands over its core or a preemption slot
  return w->preempting;
}

void CorePool::grant_preemptions()
{
  while (preempt_ && !urgent_.empty() && preempting_ < running_ordinary_) {
    auto w = urgent_.front();
    urgent_.pop_front();
    w->preempting = true;
    preempting_++;
    w->wake->release();
  }
}

void CorePool::release(bool preempting, double ran_s, bool urgent)
{
  // The preempting thread held no core of its own, whatever it ran: until 2026-11-26 a preempting thread was told
  // by a positive run time, so one that ran 0 s (a zero directory-lock hold, then the serial section's mutex taken)
  // released a core it never had, a core more than the server has.
  if (preempting) {
    debt_s_ += ran_s;
    preempting_--;
    grant_preemptions();
    return;
  }
  if (!urgent) {
    if (debt_s_ > 0) {  // this thread was the one preempted: it finishes its step that much later
      double d = debt_s_;
      debt_s_ = 0;
      sg4::this_actor::sleep_for(d);
    }
    running_ordinary_--;
  }
  if (!urgent_.empty()) {
    auto next = urgent_.front();
    urgent_.pop_front();
    next->wake->release();
  } else if (!normal_.empty()) {
    auto next = normal_.front();
    normal_.pop_front();
    running_ordinary_++;
    next->wake->release();
  } else {
    free_++;
  }
}

void MdsServer::compute(ThreadPoolQueue& part, double seconds, bool holds_lock)
{
  if (seconds <= 0)
    return;
  const bool urgent = holds_lock && holders_first_;
  bool preempted = part.cores->acquire(urgent);
  sg4::this_actor::sleep_for(seconds);
  rec_.cpu_s += seconds;
  part.cores->release(preempted, seconds, urgent);
}

double MdsServer::demand_s(const Request& r, int p)
{
  const auto& part = parts_[p];
  bool update = is_update(r.op);
  double d = sample(cfg_.service_s[r.op]);
  if (r.op == Op::Readdir)
    d += r.entries * cfg_.readdir_entry_s;
  if (cfg_.contention.enabled && update) {
    int same = part.busy_updates - 1;  // other threads inside an update in this partition
    int other = busy_updates_total_ - part.busy_updates;
    d += cfg_.contention.per_busy_thread_s[r.op] * (same + cfg_.contention.cross_partition_factor * other);
    XBT_VERB("%s: %d other threads in updates here, %d elsewhere, %d threads busy of %d", op_name(r.op), same,
             other, busy_total_, threads_total_);
  }
  if (cfg_.per_client.enabled)
    d += part.clients * cfg_.per_client.cost_per_client_s[r.op];
  if (cfg_.per_directory.enabled && update)  // the request's own directory is in updating_dirs_
    d += static_cast<double>(updating_dirs_.size() - 1) * cfg_.per_directory.cost_per_directory_s[r.op];
  // Runnable threads beyond the partition's cores: every request pays switches and cache refills. Runnable: inside a
  // request and not asleep on a lock or the journal (running, or waiting for a core). The threads of a CPU partition
  // run on its cores only.
  // A thread between two requests (its reply sent, about to take the next one queued) runs too: a semaphore's
  // acquire yields even when a request is waiting, so threads done at one instant took theirs one after another and
  // each counted the others as not runnable (helper-128: 9 threads on 6 cores, 312.4 us per request where every
  // request, the queue never empty, pays for 9: 315.0). Threads waiting for a request count only when one is queued
  // for them.
  const int waiting_with_work = std::min(part.idle, static_cast<int>(part.queue.size()));
  const int runnable = part.started - part.blocked - (part.idle - waiting_with_work);
  if (cfg_.oversubscription.enabled && runnable > part.core_count)
    d += cfg_.oversubscription.cost_per_extra_thread_s * (static_cast<double>(runnable) / part.core_count - 1.0);
  return d;
}

void MdsServer::compute_then_serial(ThreadPoolQueue& part, double seconds, bool holds_lock, const Request& r)
{
  const double serial = cfg_.serial.enabled ? cfg_.serial.hold_s[r.op] : 0;
  if (serial <= 0) {
    compute(part, seconds, holds_lock);
    return;
  }
  // A thread keeps its core from its CPU step into the MDT-wide section; it gives the core up only when it
  // has to sleep on the lock, and then gets a core first, as a lock holder.
  const bool urgent = holds_lock && holders_first_;
  bool preempted = part.cores->acquire(urgent);
  if (seconds > 0)
    sg4::this_actor::sleep_for(seconds);
  double ran = seconds;
  bool core_urgent = urgent;
  if (!serial_mutex_->try_lock()) {
    part.cores->release(preempted, ran, core_urgent);
    {
      Asleep asleep(part);
      serial_mutex_->lock();
    }
    core_urgent = holders_first_;
    preempted = part.cores->acquire(core_urgent);
    ran = 0;
  }
  sg4::this_actor::sleep_for(serial);
  ran += serial;
  rec_.cpu_s += seconds + serial;  // the thread keeps its core through the section
  serial_mutex_->unlock();
  part.cores->release(preempted, ran, core_urgent);
}

MdsServer::DirState& MdsServer::dir(uint32_t id)
{
  auto it = dirs_.find(id);
  if (it == dirs_.end()) {
    it = dirs_.emplace(id, DirState{}).first;
    it->second.holder.assign(static_cast<size_t>(client_nodes_), 0);
  }
  return it->second;
}

void MdsServer::lock_dir(DirState& ds, bool write, ThreadPoolQueue& part)
{
  // Actors are cooperative: nothing runs between these tests and the updates of the state.
  if (ds.waiting.empty() && !ds.writer && (!write || ds.readers == 0)) {
    if (write)
      ds.writer = true;
    else
      ds.readers++;
    return;
  }
  auto s = sg4::Semaphore::create(0);
  ds.waiting.emplace_back(write, s);
  Asleep asleep(part);  // not runnable while it waits (oversubscription)
  s->acquire();  // unlock_dir granted it before the wake-up
}

void MdsServer::unlock_dir(DirState& ds, bool write)
{
  if (write)
    ds.writer = false;
  else if (--ds.readers > 0)
    return;
  if (ds.waiting.empty())
    return;
  // The grants are taken off the queue before any wake-up: release() is a simcall, so the woken thread may run
  // (a zero-length hold, then its own unlock_dir) before this one continues, and it must find the queue as
  // granted, not pop another waiter's entry (that lost a wake-up: SIGSEGV or a run that never ended).
  if (ds.waiting.front().first) {  // the next writer, alone
    ds.writer = true;
    auto s = std::move(ds.waiting.front().second);
    ds.waiting.pop_front();
    s->release();
    return;
  }
  std::vector<sg4::SemaphorePtr> granted;
  while (!ds.waiting.empty() && !ds.waiting.front().first) {  // the run of readers at the head
    ds.readers++;
    granted.push_back(std::move(ds.waiting.front().second));
    ds.waiting.pop_front();
  }
  for (auto& s : granted)
    s->release();
}

// per_directory.count "journal_segment": the update joins the current segment's events; updating_dirs_ then counts
// each directory's events among the last events_per_segment (the one leaving the window is forgotten).
void MdsServer::note_segment_update(uint32_t dir)
{
  segment_events_.push_back(dir);
  updating_dirs_[dir]++;
  if (segment_events_.size() > static_cast<size_t>(cfg_.per_directory.events_per_segment)) {
    auto it = updating_dirs_.find(segment_events_.front());
    if (--it->second == 0)
      updating_dirs_.erase(it);
    segment_events_.pop_front();
  }
}

void MdsServer::serve(Request& r, int p)
{
  auto& part = parts_[p];
  bool update = is_update(r.op);
  part.busy++;
  busy_total_++;
  if (update) {
    part.busy_updates++;
    busy_updates_total_++;
    if (cfg_.per_directory.enabled) {
      if (segment_count_)
        note_segment_update(r.dir);
      else
        updating_dirs_[r.dir]++;
    }
  }
  double started = sg4::Engine::get_clock();
  bool locks_dir = r.shared_dir && (cfg_.dir_lock.enabled || cfg_.lock_callbacks.enabled);
  // The name lookup under the directory's lock taken shared (before the update's CPU demand).
  const double lookup = r.shared_dir && cfg_.dir_lock.enabled ? cfg_.dir_lock.lookup_hold_s[r.op] : 0;
  if (lookup > 0) {
    DirState& ds = dir(r.dir);
    lock_dir(ds, false, part);
    compute(part, lookup, true);
    unlock_dir(ds, false);
  }
  // An update outside a locked directory goes from its CPU demand straight into the MDT-wide section (h);
  // under a directory lock the section comes at the end of the hold.
  if (update && !locks_dir)
    compute_then_serial(part, demand_s(r, p), false, r);
  else
    compute(part, demand_s(r, p));
  // A journal handle spans the update's section under its parent's lock (mdd_trans_start comes before
  // mdd_pdo_write_lock in Lustre 2.1): a thread waiting for a shared directory holds its reservation.
  const bool handle = update && cfg_.journal.enabled && cfg_.journal.credits_enabled;
  const double credits = handle ? std::max(cfg_.journal.credits[r.op], cfg_.journal.bytes_per_update_B /
                                                                           cfg_.journal.block_size_B)
                                : 0;
  if (handle) {
    Asleep asleep(part);
    journal_.start_handle(credits);
  }

  if (locks_dir) {
    DirState& ds = dir(r.dir);
    if (update) {
      lock_dir(ds, true, part);
      if (cfg_.lock_callbacks.enabled) {
        int revoke = ds.holders - (ds.holder[r.node] ? 1 : 0);
        if (revoke > 0) {
          XBT_DEBUG("dir %u: revoking %d cached locks", r.dir, revoke);
          {
            Asleep asleep(part);
            sg4::this_actor::sleep_for(cfg_.lock_callbacks.rtt_s);
          }
          compute(part, revoke * cfg_.lock_callbacks.cpu_per_callback_s, true);
        }
        std::fill(ds.holder.begin(), ds.holder.end(), 0);
        ds.holders = 0;
      }
      double hold = cfg_.dir_lock.enabled ? cfg_.dir_lock.hold_s[r.op] : 0;
      compute_then_serial(part, hold, true, r);
      unlock_dir(ds, true);
    } else if (cfg_.lock_callbacks.enabled && !ds.holder[r.node] &&
               (r.op == Op::Stat || r.op == Op::Open || r.op == Op::Readdir)) {
      // A lookup (a stat or open by name, a readdir) caches the directory lock on the client; a close works on
      // the open handle and caches nothing.
      ds.holder[r.node] = 1;
      ds.holders++;
    }
  }
  if (handle) {
    journal_.stop_handle(credits, cfg_.journal.bytes_per_update_B);
  } else if (update) {
    Asleep asleep(part);
    journal_.reserve(cfg_.journal.bytes_per_update_B);
  }

  double now = sg4::Engine::get_clock();
  part.busy--;
  busy_total_--;
  if (update) {
    part.busy_updates--;
    busy_updates_total_--;
    if (cfg_.per_directory.enabled && !segment_count_) {
      auto it = updating_dirs_.find(r.dir);
      if (--it->second == 0)
        updating_dirs_.erase(it);
    }
  }
  rec_.served++;
  if (r.abandoned)
    rec_.abandoned++;
  rec_.busy_time_s += now - started;
  rec_.sojourn_sum_s += now - r.arrived_s;
  rec_.change(now, -1);
  rec_.observed_until_s = now;
  replies_.send(&r);
}

// ------------------------------------------------------------------------------------------- OssServer

OssServer::OssServer(const config::OssConfig& cfg, int index, size_t target, sg4::Host* host, const ReplyRoute& route,
                     ServerRecord& record, uint64_t seed)
    : cfg_(cfg), index_(index), host_(host), replies_(route, host, "oss" + std::to_string(index), target), rec_(record),
      rng_(splitmix64_mix(seed * kGolden64 + static_cast<uint64_t>(index) * 0xA0761D6478BD642FULL + 0x5157))
{
  rec_.name = "oss-" + std::to_string(index);
  q_.max_threads = cfg_.threads;
}

void OssServer::start()
{
  for (int t = 0; t < cfg_.threads; ++t) {
    q_.started++;
    sg4::Actor::create("oss" + std::to_string(index_) + "-t" + std::to_string(t), host_, [this] { thread_loop(); })
        ->daemonize();
  }
  rec_.threads_started = q_.started;
}

double OssServer::uniform()
{
  rng_ += kGolden64;
  return static_cast<double>(splitmix64_mix(rng_) >> 11) * 0x1.0p-53;  // [0, 1)
}

void OssServer::extend_periods(double until)
{
  const auto& s = cfg_.stragglers;
  while (periods_.empty() || periods_.back().end <= until) {
    bool slow;
    double start;
    if (periods_.empty()) {  // the stationary state at time 0 (exponential periods: the residual is one more draw)
      slow = uniform() < s.mean_slow_s / (s.mean_normal_s + s.mean_slow_s);
      start = 0;
    } else {
      slow = periods_.back().factor >= 1;
      start = periods_.back().end;
    }
    const double mean = slow ? s.mean_slow_s : s.mean_normal_s;
    double length = 0;
    if (slow || s.normal_shape == 1) {
      length = -mean * std::log1p(-uniform());
    } else {  // Erlang-k: k exponential phases; at time 0 the stationary state is in a phase uniform over the k
      int phases = s.normal_shape;
      if (periods_.empty())
        phases = 1 + std::min(s.normal_shape - 1, static_cast<int>(uniform() * s.normal_shape));
      for (int k = 0; k < phases; ++k)
        length += -(mean / s.normal_shape) * std::log1p(-uniform());
    }
    const double factor =
        slow ? s.slow_bandwidth_min + (s.slow_bandwidth_max - s.slow_bandwidth_min) * uniform() : 1.0;
    periods_.push_back({start, start + length, std::min(factor, 1.0 - 1e-12)});
    if (!slow)
      periods_.back().factor = 1.0;
  }
}

double OssServer::disk_time(double t0, double bytes, double bandwidth)
{
  if (!cfg_.stragglers.enabled)
    return bytes / bandwidth;
  double t = t0;
  double left = bytes;
  for (;;) {
    extend_periods(t);
    while (periods_.front().end <= t) {  // over: into the totals (extend_periods left one that is not)
      if (periods_.front().factor < 1) {
        past_slow_s_ += periods_.front().end - periods_.front().start;
        past_slow_periods_++;
      }
      periods_.pop_front();
    }
    const Period& p = periods_.front();
    const double rate = bandwidth * p.factor;
    if ((p.end - t) * rate >= left)
      return t + left / rate - t0;
    left -= (p.end - t) * rate;
    t = p.end;
  }
}

void OssServer::record_stragglers(double end_s)
{
  if (!cfg_.stragglers.enabled)
    return;
  extend_periods(end_s);
  rec_.straggler_slow_s = past_slow_s_;
  rec_.straggler_periods = past_slow_periods_;
  for (const auto& p : periods_) {
    if (p.start >= end_s)
      break;
    if (p.factor < 1) {
      rec_.straggler_slow_s += std::min(p.end, end_s) - p.start;
      rec_.straggler_periods++;
    }
  }
}

void OssServer::enqueue(Request* r)
{
  double now = sg4::Engine::get_clock();
  r->arrived_s = now;
  rec_.change(now, +1);
  queue_arrival(q_.queue, r, [](const Request* q) { return q->data_seq; });
  rec_.max_queue = std::max(rec_.max_queue, static_cast<int>(q_.queue.size()) - q_.idle);
  q_.items->release();
}

void OssServer::serve_in_object_order(const Request& r, double hold_s)
{
  // The objects: every stripe of the file the RPC covers. Its bytes are contiguous in this server's object, where the
  // file's stripes k, k + stripe_count, ... follow each other (with one stripe per file, the file's own stripes), so
  // they are the stripes of the RPC's first byte and the next ones in steps of stripe_count (helper-96: an RPC across
  // two stripes was ordered on the first only). Taken in increasing order, as every RPC does: no deadlock.
  const double size = cfg_.stripe_size_B;
  const auto first = static_cast<uint64_t>(static_cast<double>(r.offset) / size);
  const auto unit0 = static_cast<uint64_t>(static_cast<double>(r.obj_off) / size);
  const auto unit1 = static_cast<uint64_t>((static_cast<double>(r.obj_off) + std::max(1.0, std::ceil(r.bytes)) - 1) / size);
  const auto step = static_cast<uint64_t>(std::max(1, cfg_.stripe_count));
  std::vector<std::pair<uint64_t, uint64_t>> keys;
  for (uint64_t u = unit0; u <= unit1; ++u)
    keys.emplace_back(r.object, first + (u - unit0) * step);
  for (const auto& key : keys) {
    auto& turn = object_turns_[key];  // (a map's entries stay where they are while others come and go)
    turn.users++;
    turn.sem->acquire();
  }
  sg4::this_actor::sleep_for(hold_s);
  for (const auto& key : keys) {
    auto& turn = object_turns_[key];
    turn.sem->release();
    if (--turn.users == 0)
      object_turns_.erase(key);
  }
}

void OssServer::thread_loop()
{
  for (;;) {
    q_.idle++;
    q_.items->acquire();
    q_.idle--;
    Request* r = q_.queue.front();
    q_.queue.pop_front();
    double started = sg4::Engine::get_clock();
    if (cfg_.rpc_service_s > 0)
      sg4::this_actor::sleep_for(cfg_.rpc_service_s);
    if (r->bytes > 0) {
      const bool write = r->op == Op::Write;
      // oss.object_serial_*: the object's RPCs one at a time; then oss.parallel_*_latency, holding only the thread.
      if (const double hold = write ? cfg_.object_serial_write_s : cfg_.object_serial_read_s; hold > 0)
        serve_in_object_order(*r, hold);
      if (const double lat = write ? cfg_.parallel_write_latency_s : cfg_.parallel_read_latency_s; lat > 0)
        sg4::this_actor::sleep_for(lat);
      // The OST serves one transfer at a time at its bandwidth (FCFS; same throughput as sharing it).
      disk_queue_->acquire();
      const double now = sg4::Engine::get_clock();
      const double positioning_s = write ? cfg_.disk_write_latency_s : cfg_.disk_read_latency_s;
      sg4::this_actor::sleep_for(positioning_s + disk_time(now + positioning_s, r->bytes,
                                                           write ? cfg_.disk_write_Bps : cfg_.disk_read_Bps));
      disk_queue_->release();
      // (pages of the object: an RPC's bytes are contiguous there, not always in the file)
      const double first_page = std::floor(static_cast<double>(r->obj_off) / 4096);
      const double last_page = std::floor((static_cast<double>(r->obj_off) + std::ceil(r->bytes) - 1) / 4096);
      rec_.data_moved(r->op == Op::Write, r->bytes, last_page - first_page + 1, sg4::Engine::get_clock(),
                      cfg_.sample_interval_s, cfg_.sample_offset_s);
    }
    double now = sg4::Engine::get_clock();
    rec_.served++;
    if (r->abandoned)
      rec_.abandoned++;
    rec_.busy_time_s += now - started;
    rec_.sojourn_sum_s += now - r->arrived_s;
    rec_.change(now, -1);
    rec_.observed_until_s = now;
    replies_.send(r, r->op == Op::Read ? r->bytes : 0);
  }
}

}  // namespace pfsim
