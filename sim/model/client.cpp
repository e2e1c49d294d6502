#include "model/client.hpp"

#include "model/hash.hpp"

#include <algorithm>
#include <numeric>
#include <cmath>

XBT_LOG_NEW_DEFAULT_CATEGORY(pfsim_client, "pfsim client nodes");

namespace sg4 = simgrid::s4u;

namespace pfsim {

void RunContext::arrive(int phase)
{
  if (++arrived < static_cast<int>(node_hosts.size()))
    return;
  arrived = 0;
  double now = sg4::Engine::get_clock();
  records.phases[phase].end_s = now;
  // A stonewalled phase moved the data steps its ranks did: those are its items (IOR's pairs, its bytes / transfer).
  if (auto& ph = records.phases[phase]; !ph.rank_pairs.empty())
    ph.items = std::accumulate(ph.rank_pairs.begin(), ph.rank_pairs.end(), uint64_t{0});
  int next = phase + 1 < workload.phase_count() ? phase + 1 : -1;
  active_ranks = workload.ranks();
  XBT_INFO("phase %d (%s) done at %.6f s", phase, workload.phase_name(phase).c_str(), now);
  // Not detached (see ReplyRoute::send): the releasing node waits until every release is delivered.
  std::vector<sg4::CommPtr> releases;
  for (auto* host : node_hosts)
    releases.push_back(sg4::Mailbox::by_name(host->get_name())->put_async(new NodeMessage(BarrierRelease{next}), 1));
  sg4::Comm::wait_all(releases);
}

ClientNode::ClientNode(RunContext& ctx, int node, int first_rank, int stride, int ranks)
    : ctx_(ctx), node_(node), first_rank_(first_rank), stride_(stride), ranks_(static_cast<size_t>(ranks)),
      in_flight_per_target_(ctx.mds_hosts.size() + ctx.oss_hosts.size(), 0),
      mod_in_flight_per_target_(ctx.mds_hosts.size() + ctx.oss_hosts.size(), 0),
      close_in_flight_per_target_(ctx.mds_hosts.size() + ctx.oss_hosts.size(), 0),
      chunk_queue_(ctx.mds_hosts.size() + ctx.oss_hosts.size()),
      bulk_free_at_(ctx.mds_hosts.size() + ctx.oss_hosts.size(), 0.0),
      bulk_wait_(ctx.mds_hosts.size() + ctx.oss_hosts.size()),
      dirty_B_(ctx.mds_hosts.size() + ctx.oss_hosts.size(), 0.0),
      cache_wait_(ctx.mds_hosts.size() + ctx.oss_hosts.size()),
      held_(ctx.platform.clients.hold_partial_rpcs && ctx.platform.clients.max_dirty_B > 0
                ? ctx.mds_hosts.size() + ctx.oss_hosts.size()
                : 0),
      dirty_by_rank_(ctx.platform.clients.hold_partial_rpcs && ctx.platform.clients.max_dirty_B > 0
                        ? static_cast<size_t>(ranks)
                        : 0),
      open_kind_(ctx.platform.clients.open_rpcs == "modifying" ? SlotKind::Modifying : SlotKind::None),
      close_kind_(ctx.platform.clients.close_rpcs == "own_lock"    ? SlotKind::CloseLock
                  : ctx.platform.clients.close_rpcs == "modifying" ? SlotKind::ModifyingClose
                                                                   : SlotKind::None),
      waiting_(ctx.mds_hosts.size() + ctx.oss_hosts.size()),
      place_by_node_(ctx.platform.oss.placement == "node"),
      round_robin_(ctx.platform.oss.placement == "round_robin"),
      rng_state_(ctx.seed * kGolden64 + static_cast<uint64_t>(node) * 0xD1B54A32D192ED03ULL + 1)
{
  const auto& ld = ctx.platform.clients.load_delay;
  for (Op op : kAllOps)
    md_population_ = md_population_ ||
                     (ld.enabled && ld.law[op].set && ld.law[op].population == config::LoadPopulation::MetadataOpsInFlight);
}

// clients.load_delay (config/platform_config.hpp): the delay of the population-dependent delay center for this
// operation at the current number of active ranks.
double ClientNode::load_delay(const OpRequest& op, int rank, bool self_in_md_op)
{
  const auto& ld = ctx_.platform.clients.load_delay;
  const config::LoadDelayLaw* law = ld.enabled && ld.law[op.op].set ? &ld.law[op.op] : nullptr;
  const bool by_ranks = law == nullptr || law->population == config::LoadPopulation::ActiveRanks;
  // The other ranks' metadata operations: a later step of the rank's own (the close of a create) is not one of them
  // (until 2026-11-26 it was counted: one rank's closes under such a law saw a population of 1).
  const double now_n = by_ranks ? ctx_.active_ranks : ctx_.md_ops_in_flight - (self_in_md_op ? 1 : 0);
  if (law != nullptr && law->fitted_size_B > 0) {  // (counted for the run's warning; the delay stays the law's)
    auto& sizes = ctx_.law_sizes[op.op];
    sizes.delayed++;
    if (law->size_outside_fit(op.bytes)) {
      sizes.min_B = sizes.outside == 0 ? op.bytes : std::min(sizes.min_B, op.bytes);
      sizes.max_B = sizes.outside == 0 ? op.bytes : std::max(sizes.max_B, op.bytes);
      sizes.outside++;
    }
  }
  if (op.excess_s >= 0)  // replayed excess, rescaled to the simulated population
    return law == nullptr ? op.excess_s
                          : law->scale_recorded(op.excess_s, by_ranks ? op.recorded_active : op.recorded_md_in_flight,
                                                now_n, rank);
  if (law == nullptr)
    return 0;
  double mean = law->mean_s(now_n);
  mean *= law->rank_factor(rank);
  if (law->shape.empty())
    return mean;
  // splitmix64 -> one of the shape's equally probable values.
  const uint64_t z = splitmix64_mix(rng_state_ += kGolden64);
  auto k = static_cast<size_t>(static_cast<double>(z >> 11) * 0x1.0p-53 * static_cast<double>(law->shape.size()));
  double q = law->shape[std::min(k, law->shape.size() - 1)];
  return mean * q;
}

void ClientNode::operator()()
{
  host_ = sg4::this_actor::get_host();
  mailbox_ = sg4::Mailbox::by_name(host_->get_name());
  // A permanent receiver: replies start flowing to the node as soon as they are sent, side by side, not one
  // transfer at a time when this actor posts its next receive (which capped a node at one reply per link latency
  // and made small replies wait behind another rank's bulk read reply).
  mailbox_->set_receiver(sg4::Actor::self());
  post_receive();
  begin_phase(0);
  // After the last phase, the write-back cache still drains: the data reaches the OSTs before the job ends (its
  // bulk RPCs are in the OSTs' counters), but the phases' times do not wait for it (a close does not).
  while (!finished_ || chunks_pending_ > 0) {
    fire_timers();
    // A timeout whose request has its reply (or was replaced) can no longer fire: dropped here, it does not wake
    // the node at its deadline either, so timeouts that never expire leave the run as it is without them.
    while (!timers_.empty() && timers_.top().kind == TimerKind::Timeout) {
      const Request* q = current(timers_.top());
      if (q != nullptr && !q->replied)
        break;
      timers_.pop();
    }
    // Always a finite wait (1e12 s when no timer is pending): SimGrid orders simultaneous wake-ups differently
    // for an unbounded wait, so a run with timers that never fire (timeouts on, nothing timing out) would
    // otherwise differ from the same run without them.
    double timeout = timers_.empty() ? 1e12 : std::max(0.0, timers_.top().t - sg4::Engine::get_clock());
    ssize_t i = sg4::Comm::wait_any_for(wait_set_, timeout);
    // When what ended makes a timer due now (a reply with a zero rpc_overhead), everything else that ended at this
    // instant is taken in before any timer fires, so that replies arriving together complete in the timers' order
    // (least-served rank first), not in the order SimGrid happens to deliver them: that order repeated at every
    // round of a deterministic closed loop and left the same ranks waiting for a slot each time. (Only then: the
    // extra poll costs ~10% of a run's CPU.)
    while (i >= 0) {
      take(static_cast<size_t>(i));
      if ((finished_ && chunks_pending_ == 0) || timers_.empty() || timers_.top().t > sg4::Engine::get_clock())
        break;
      i = sg4::Comm::wait_any_for(wait_set_, 0);
    }
  }
  // The receives still posted (for a barrier release, for replies to copies given up on) are cancelled.
  for (size_t k = 0; k < waited_.size(); ++k)
    if (waited_[k].request == nullptr && wait_set_[k]->get_state() != sg4::Activity::State::FINISHED)
      wait_set_[k]->cancel();
  mailbox_->set_receiver(nullptr);
}

void ClientNode::post_receive()
{
  auto cell = std::make_unique<NodeMessage*>(nullptr);
  wait_set_.push_back(mailbox_->get_async<NodeMessage>(cell.get()));
  waited_.push_back(Waited{nullptr, std::move(cell)});
  ++receives_posted_;
}

// What ended: a receive (a reply or a barrier message) or a request's transfer to its server's door.
void ClientNode::take(size_t i)
{
  Waited w = std::move(waited_[i]);
  if (i + 1 < waited_.size()) {
    waited_[i] = std::move(waited_.back());
    wait_set_[i] = std::move(wait_set_.back());
  }
  waited_.pop_back();
  wait_set_.pop_back();
  if (w.notice)  // a message of ours to another node has arrived there
    return;
  if (w.request == nullptr) {
    --receives_posted_;
    NodeMessage* m = *w.received;
    const auto* release = std::get_if<BarrierRelease>(m);
    if (const auto* reply = std::get_if<Reply>(m); reply != nullptr && reply->request->op == Op::Read)
      --bulk_replies_expected_;
    // Post the next receive before handling: a barrier release may make this node the last to arrive at the
    // next barrier at once (a phase with no operations for its ranks), and the release it then sends to every
    // node, itself included, must find a receive posted. After the last release, none is needed unless the
    // cache still drains (its write replies come to this one; reads have their own).
    if (receives_posted_ < bulk_replies_expected_ + 1 &&
        (release == nullptr || release->phase >= 0 || chunks_pending_ > 0))
      post_receive();
    handle(m);
    return;
  }
  Request* q = w.request;
  if (is_data(q->op))
    ctx_.oss[q->target - ctx_.mds_hosts.size()]->enqueue(q);
  else
    ctx_.mds[q->target]->enqueue(q);  // its directory's MDS (target_of)
}

void ClientNode::fire_timers()
{
  while (!timers_.empty() && timers_.top().t <= sg4::Engine::get_clock()) {
    Timer t = timers_.top();
    timers_.pop();
    switch (t.kind) {
      case TimerKind::Ready:
        try_send(t.rank);
        break;
      case TimerKind::Complete:
        if (current(t) != nullptr)
          complete(t.rank);
        break;
      case TimerKind::Timeout:
        if (Request* q = current(t); q != nullptr && !q->replied)
          on_timeout(t.rank);
        break;
      case TimerKind::Resend:
        if (Request* q = current(t))
          transmit(q);
        break;
      case TimerKind::Start:
        if (t.seq == ranks_[t.rank].seq)  // (a think time's end, or a read's write-back waits over)
          begin_op(t.rank);
        break;
      case TimerKind::DataDone:
        record_completion(t.rank);
        start_op(t.rank);
        break;
      case TimerKind::BulkSent:
        bulk_sent(t.rank);
        break;
      case TimerKind::Expire:
        on_expiry();
        break;
      case TimerKind::FsyncDone:
        fsync_over(t.rank);
        break;
      case TimerKind::Synced:
        rank_done();
        break;
    }
  }
}

void ClientNode::handle(NodeMessage* msg)
{
  std::visit(
      [this](auto&& m) {
        using T = std::decay_t<decltype(m)>;
        if constexpr (std::is_same_v<T, Reply>) {
          on_reply(m.request);
        } else if constexpr (std::is_same_v<T, FlushAsk>) {
          // Another node reads this object: its dirty pages here go now, and that node is told once they are written.
          release_objects({m.object});
          if (dirty_pieces_.count(m.object) > 0)
            wait_for_pieces(m.object, m.node, m.rank, m.seq);
          else
            send_notice(static_cast<int>(m.node), new NodeMessage(FlushDone{m.rank, m.seq}));
        } else if constexpr (std::is_same_v<T, FlushDone>) {
          lock_answered(m.rank, m.seq);
        } else if constexpr (std::is_same_v<T, CollectiveRelease>) {
          release_parked(m.max_pairs);
        } else {
          if (m.phase < 0) {
            finished_ = true;
            // Nobody reads what is read ahead now: the queued read-ahead RPCs are not sent (those in flight finish),
            // as at a phase's start (helper-98: after a read phase, 915 MiB more were read from the OSTs).
            read_ahead_drop_all();
            // The run is over: what the nodes still hold is written back now rather than after dirty_expire (the
            // job's end stands for the writeback that follows it; the OST counters include it, no phase's time does),
            // unless the job removed its files (IOR without -k: dropped, as at a repetition's end).
            if (ctx_.workload.removes_files_at_end() && ctx_.platform.clients.max_dirty_B > 0)
              discard_all_cached();
            if (held_units_ > 0)
              release_all();
          }
          else
            begin_phase(m.phase);
        }
      },
      *msg);
  delete msg;
}

void ClientNode::begin_phase(int phase)
{
  phase_ = phase;
  written_at_phase_[static_cast<size_t>(phase % kPhaseMarks)] = written_B_;
  // A phase starts when its first node is released (phase 0: at once), not when the last node arrived at the
  // barrier: the release's network latency is not the phase's, as it is not in phase 0 (the phases of identical
  // iterations took 2 link latencies longer from the second on).
  if (ctx_.started_phase < phase) {
    ctx_.started_phase = phase;
    auto& ph = ctx_.records.phases[phase];
    ph.start_s = sg4::Engine::get_clock() + ctx_.workload.phase_delay_s(phase);
    std::fill(ph.rank_end_s.begin(), ph.rank_end_s.end(), ph.start_s);
  }
  done_ranks_ = 0;
  read_ahead_drop_all();
  sw_ = ctx_.workload.stonewall(phase);
  sw_active_ = sw_.active();
  phase_sync_ = ctx_.workload.phase_ends_with_sync(phase);
  syncing_ = 0;
  const double now = sg4::Engine::get_clock();
  for (uint32_t k = 0; k < ranks_.size(); ++k) {
    auto& r = ranks_[k];
    r.cursor = RankCursor{};
    r.tail_object = UINT64_MAX;
    r.pairs = 0;
    r.pair_B = 0;
    // mdtest's stonewall clock starts with the rank's phase (progress->start_time), IOR's at its first transfer
    r.sw_start_s = sw_active_ && sw_.per_item ? now : -1;
    r.sw_check = false;
    r.sw_item = false;
    r.node_sync = false;
    r.sw_running = sw_active_;
    if (sw_active_)
      r.cursor.stop = pair_limit(rank_of(k));
  }
  for (uint32_t r = 0; r < ranks_.size(); ++r)
    start_op(r);
  if (ranks_.empty())
    ctx_.arrive(phase_);
}

uint64_t ClientNode::pair_limit(int rank) const
{
  if (sw_.limit_phase < 0)
    return sw_.limit;
  const auto& done = ctx_.records.phases.at(static_cast<size_t>(sw_.limit_phase)).rank_pairs;
  return done.empty() ? 0 : done[static_cast<size_t>(rank)];
}

void ClientNode::start_op(uint32_t r)
{
  auto& s = ranks_[r];
  if (sw_active_ && sw_.per_item) {
    // mdtest's stonewall (per item): after each item, the deadline (create_remove_items_helper's CHECK_STONE_WALL:
    // the item in progress at the deadline completes, the rank then stops); with a wear-out, a rank whose items are
    // over (the deadline or its last one) waits at the allreduce (updateStoneWallIterations), then goes on to the most
    // items any rank made. Items are counted after the allreduce too: the phase's items are what the ranks made.
    RankCursor peek = s.cursor;
    OpRequest ahead;
    bool more = ctx_.workload.next(rank_of(r), phase_, peek, ahead);
    if (s.sw_item && (!more || ahead.begins)) {
      s.sw_item = false;
      s.pairs++;
      if (s.sw_running && sw_.deadline_s > 0 && sg4::Engine::get_clock() - s.sw_start_s > sw_.deadline_s &&
          (s.cursor.stop == 0 || s.cursor.stop > s.pairs)) {
        s.cursor.stop = s.pairs;
        more = false;
      }
    }
    if (s.sw_running && sw_.wear_out && !more) {
      if (s.in_md_op) {  // its last item is over (as the code below says when a step returns no next one)
        ctx_.md_ops_in_flight--;
        s.in_md_op = false;
      }
      if (s.in_item) {
        ctx_.records.phases[phase_].item_histogram.add(static_cast<float>(s.item_runtime_s));
        s.in_item = false;
      }
      join_collective(r, true);
      return;
    }
  } else if (sw_active_ && s.sw_running) {
    // IOR's stonewall (per pair): after each data step, the deadline (IOR's hitStonewall, checked once the transfer is
    // over: the one in progress at the deadline completes); with a wear-out, a rank whose data steps are over (the
    // deadline, its limit or its last one) waits at the allreduce before anything else.
    if (s.sw_check) {
      s.sw_check = false;
      if (sw_.deadline_s > 0 && sg4::Engine::get_clock() - s.sw_start_s > sw_.deadline_s &&
          (s.cursor.stop == 0 || s.cursor.stop > s.pairs))
        s.cursor.stop = s.pairs;
    }
    if (sw_.wear_out && s.pairs > 0) {
      RankCursor peek = s.cursor;
      OpRequest ahead;
      if (!ctx_.workload.next(rank_of(r), phase_, peek, ahead) || !is_data(ahead.op)) {
        join_collective(r, true);
        return;
      }
    }
  }
  s.op.excess_s = -1;
  s.op.begins = true;
  s.op.metadata = true;
  const bool more = ctx_.workload.next(rank_of(r), phase_, s.cursor, s.op);
  if (s.in_md_op && (!more || s.op.begins)) {  // the rank's previous tool operation has ended
    ctx_.md_ops_in_flight--;
    s.in_md_op = false;
  }
  if (s.in_item && (!more || s.op.begins)) {  // its latency as the tool counts it: the sum of its steps'
    ctx_.records.phases[phase_].item_histogram.add(static_cast<float>(s.item_runtime_s));
    s.in_item = false;
  }
  if (!more) {
    steps_over(r);
    return;
  }
  if (s.op.barrier) {  // an MPI_Barrier before the step (IOR -g): it begins once every rank is there
    // IOR's fsync (-e) is the end of its write loop and the -g barrier comes after it, then the close: a rank that
    // has pages to flush waits for them first (fsync_over joins the barrier then), so that the ranks close together
    // (helper-125/126: the fsync after the barrier gave each rank its own close time).
    if (s.op.flush && s.dirty_chunks > 0) {
      s.flushing = true;
      s.barrier_after_flush = true;
      if (held_units_ > 0)
        release_flushed(r);
      return;
    }
    join_collective(r, false);
    return;
  }
  launch_op(r);
}

void ClientNode::launch_op(uint32_t r)
{
  auto& s = ranks_[r];
  double now = sg4::Engine::get_clock();
  s.op_start_s = now + s.op.think_s;
  if (sw_active_ && s.sw_start_s < 0 && is_data(s.op.op))
    s.sw_start_s = s.op_start_s;  // IOR's startForStonewall
  if (s.op.begins) {
    s.in_item = true;
    s.item_runtime_s = 0;
    s.sw_item = sw_active_ && sw_.per_item;
  }
  // A rank thinking is not a customer of the metadata server: with that population the operation is counted,
  // and its delay drawn, when the think time ends.
  if (md_population_ && s.op.think_s > 0) {
    timers_.push(Timer{s.op_start_s, r, TimerKind::Start, s.seq});
    return;
  }
  begin_op(r);
}

void ClientNode::steps_over(uint32_t r)
{
  auto& s = ranks_[r];
  if (auto& done = ctx_.records.phases[phase_].rank_pairs; !done.empty())
    done[static_cast<size_t>(rank_of(r))] = s.pairs;
  ctx_.active_ranks--;
  // mdtest -Y: sync(2) writes back every dirty page of the node, whichever rank wrote it, and returns when they are
  // written (Lustre 2.x's llite sets no sync_fs: the pages are all, no MDT commit; CephFS's also waits for the MDS's
  // safe replies, which the model does not tell from its replies).
  if (phase_sync_ && dirty_chunks_ > 0) {
    s.node_sync = true;
    ++syncing_;
    if (held_units_ > 0)
      release_all();
    return;
  }
  rank_done();
}

void ClientNode::rank_done()
{
  if (++done_ranks_ == static_cast<int>(ranks_.size()))
    ctx_.arrive(phase_);
}

void ClientNode::sync_over()
{
  const double now = sg4::Engine::get_clock();
  for (uint32_t r = 0; r < ranks_.size() && syncing_ > 0; ++r)
    if (ranks_[r].node_sync) {  // (through a timer: not from inside the cache's bookkeeping)
      ranks_[r].node_sync = false;
      --syncing_;
      timers_.push(Timer{now, r, TimerKind::Synced, ranks_[r].seq});
    }
}

void ClientNode::join_collective(uint32_t r, bool wear_out)
{
  auto& s = ranks_[r];
  s.parked = wear_out ? 2 : 1;
  parked_.push_back(r);
  if (wear_out) {  // IOR's allreduce of the pairs (and its reductions of the data moved, for rank 0's line)
    auto& ph = ctx_.records.phases[phase_];
    if (!ph.wear_out) {  // the first rank there
      ph.wear_out = true;
      ph.stonewall_pairs_min = ph.stonewall_pairs_max = ph.stonewall_pairs_sum = s.pairs;
      ph.stonewall_bytes_min = ph.stonewall_bytes_sum = s.pair_B;
    } else {
      ph.stonewall_pairs_min = std::min(ph.stonewall_pairs_min, s.pairs);
      ph.stonewall_pairs_max = std::max(ph.stonewall_pairs_max, s.pairs);
      ph.stonewall_pairs_sum += s.pairs;
      ph.stonewall_bytes_min = std::min(ph.stonewall_bytes_min, s.pair_B);
      ph.stonewall_bytes_sum += s.pair_B;
    }
    ctx_.collective_max = std::max(ctx_.collective_max, s.pairs);
  }
  if (++ctx_.collective_arrived < ctx_.workload.ranks())
    return;
  const uint64_t most = ctx_.collective_max;
  ctx_.collective_arrived = 0;
  ctx_.collective_max = 0;
  for (size_t n = 0; n < ctx_.nodes.size(); ++n)  // (a small message to each node, this one's too)
    send_notice(static_cast<int>(n), new NodeMessage(CollectiveRelease{most}));
}

void ClientNode::release_parked(uint64_t max_pairs)
{
  std::vector<uint32_t> released;
  released.swap(parked_);
  for (uint32_t r : released) {
    auto& s = ranks_[r];
    const uint8_t kind = s.parked;
    s.parked = 0;
    if (kind == 2) {  // the wear-out: on to the most pairs any rank did, then what follows the data steps
      // (its allreduce is inside IOR's data loop: a rank that has done the most pairs ends its data time here,
      // not at its last transfer; helper-126: the per-rank runtime left the wait out, 1.0044 s against 1.14 s)
      if (!sw_.per_item)
        data_ended(r, sg4::Engine::get_clock());
      // mdtest's allreduce is inside its create loop (file_test_create) too: a rank with the most items, which has no
      // more to make, ends its time before the phase's barrier here, not at its last item
      if (sw_.per_item && !ctx_.records.phases[phase_].rank_end_s.empty())
        ctx_.records.phases[phase_].rank_end_s[static_cast<size_t>(rank_of(r))] = sg4::Engine::get_clock();
      s.cursor.stop = max_pairs;
      s.sw_running = false;
      if (rank_of(r) == 0)
        ctx_.records.phases[phase_].stonewall_s = sg4::Engine::get_clock() - s.sw_start_s;
      start_op(r);
    } else {
      launch_op(r);
    }
  }
}

void ClientNode::begin_op(uint32_t r)
{
  auto& s = ranks_[r];
  // A file created (again: IOR's next repetition without -k, mdtest's next iteration) has no writers yet
  // (clients.shared_file_writes "sync"; helper-96: IOR -i 2 wrote its second file synchronously from the start).
  if (ctx_.sync_shared_writes && s.op.op == Op::Create)
    ctx_.file_writer.erase(s.op.object);
  // The file was removed since (IOR without -k): its pages still in the write-back cache go unwritten (held ones,
  // and those queued for a slot, with or without holding partial RPCs; those in flight are written).
  if (s.op.drop_held && ctx_.platform.clients.max_dirty_B > 0) {
    s.op.drop_held = false;
    discard_held(s.op.object);
  }
  // An fsync (OpRequest::flush) first waits until the rank's written pages have left the cache (on_chunk_reply calls
  // begin_op again then); the step itself, its client time and its RPC, starts after it, as IOR's close after its fsync.
  if (s.op.flush && s.dirty_chunks > 0) {
    s.flushing = true;
    if (held_units_ > 0)
      release_flushed(r);
    return;
  }
  double now = sg4::Engine::get_clock();
  const auto& cl = ctx_.platform.clients;
  // A stat of a name a readdir lists (pfind's lstat, OpRequest::position) starts no earlier than the listing has
  // reached its entry. One the node answers from the attributes waits for its own node's readdir replies
  // (listing_waiters_); an RPC stat, of a name another node lists, looks again after a quarter of a readdir RPC's
  // time (pfind's thieves poll for work).
  const bool local_stat = s.op.op == Op::Stat && s.op.listed && cl.readdir_attributes;
  if (s.op.op == Op::Stat && s.op.position > 0 && s.op.position > ctx_.listed_entries[s.op.dir]) {
    if (local_stat) {
      s.local_ready_s = -1;  // its client time after the reply that lists it (answer_listed_stat)
      listing_waiters_[s.op.dir].push_back(r);
    } else {
      const auto& md = ctx_.platform.mds;
      const double rpc = cl.readdir_entries * (cl.readdir_entry_s + md.readdir_entry_s) + md.service_s[Op::Readdir];
      timers_.push(Timer{now + std::max(10e-6, rpc / 4), r, TimerKind::Start, s.seq});
    }
    return;
  }
  // The delay center is part of the operation's latency: a replayed excess (set on the first step of a
  // compound operation) or the law of this operation kind.
  // (none for a read the node's page cache serves: the law stands for the servers' part)
  s.cache_read = cache_hit(s.op) || dirty_covers(s.op);
  // A stat of an entry the node has listed, whose attributes and capabilities came with the listing (CephFS):
  // answered by the client, no RPC (nor the load law, which stands for the servers' part).
  double delay = s.cache_read || local_stat ? 0.0 : load_delay(s.op, rank_of(r), s.in_md_op);  // population: the other ranks
  if (s.op.begins && s.op.metadata && !local_stat) {  // (a stat the client answers is no customer of the MDS)
    ctx_.md_ops_in_flight++;
    s.in_md_op = true;
  }
  // A listed stat that waited for its entry starts now: its client time and delay after the wait, not inside it.
  const double start = s.op.position > 0 ? std::max(s.op_start_s, now) : s.op_start_s;
  double ready = start + cl.op_overhead_s[s.op.op] + delay;
  if (s.op.op == Op::Readdir)  // the client's work on the entries listed (their dentries and inodes, the tool's)
    ready += s.op.entries * cl.readdir_entry_s;
  if (local_stat) {
    s.local_ready_s = ready;
    answer_listed_stat(r);
    return;
  }
  if (ready > now)
    timers_.push(Timer{ready, r, TimerKind::Ready, s.seq});
  else
    try_send(r);
}

size_t ClientNode::target_of(Op op, uint32_t dir, uint64_t object) const
{
  // A metadata RPC goes to the MDS of its directory (Workload::directory_order), a data RPC to its object's first OST
  // (oss.placement "round_robin": by Workload::creation_order; "object": a hash of the object's directory and
  // identity, uniform over the OSSes; "node": the node's).
  if (!is_data(op))  // directories dealt over the MDSes in creation order (Workload::directory_order)
    return static_cast<size_t>(ctx_.workload.directory_order(dir) % ctx_.mds_hosts.size());
  const size_t n = ctx_.oss_hosts.size();
  if (place_by_node_)
    return ctx_.mds_hosts.size() + static_cast<size_t>(node_) % n;
  // "round_robin": Lustre's allocator deals the job's new files over the OSTs in creation order, each file taking
  // the next stripe_count OSTs, so that files created together land on different OSTs.
  // lod_alloc_rr's start index S grows by stripe_count per file and is brought back below the count when it exceeds
  // it (S > count, strictly), and only then, and only if stripe_count > 1 and count mod stripe_count != 1, its offset
  // grows by one (helper-87: without that guard, 7 OSTs and 3 stripes put 7, 7, 4, 7, 7, 4, 6 objects of 14 files on
  // the OSTs; 3k mod 7 alone covers them evenly). File k starts on OST (k x stripe_count + offset) mod count, the
  // offset being the wraps before it: ceil(k x stripe_count / count) - 1 of them when stripe_count < count (each
  // takes count off S), k when stripe_count = count (every file wraps: "stripe_count_min >= count"). (Lustre starts
  // at a random index, reseeded every few thousand files; pfsim at 0.) The strict "S > count" puts file
  // count / stripe_count on the OSTs of file 0 when stripe_count divides the count, as Lustre does.
  if (round_robin_) {
    const auto sc = static_cast<uint64_t>(ctx_.platform.oss.stripe_count);
    const uint64_t k = ctx_.workload.creation_order(object);
    const uint64_t start = k * sc;
    uint64_t offset = 0;
    if (sc > 1 && n % sc != 1)
      offset = sc >= n ? k : (start == 0 ? 0 : (start + n - 1) / n - 1);
    return ctx_.mds_hosts.size() + static_cast<size_t>((start + offset) % n);
  }
  // "object": the draw is the run's --seed's (a CephFS pool's CRUSH map, another draw per seed), so that a sweep over
  // the OSS count can be averaged over seeds (one draw per count made 37 -> 38 OSDs 21% slower, helper-121); seed 1
  // adds 0, the placement of before seeds drew it.
  const uint64_t draw = (ctx_.seed - 1) * 0x94D049BB133111EBULL;
  const uint64_t z =
      splitmix64_mix(object * kGolden64 + (static_cast<uint64_t>(dir) + 1) * 0xD1B54A32D192ED03ULL + draw);
  return ctx_.mds_hosts.size() + static_cast<size_t>(z % n);
}

size_t ClientNode::target_of(const OpRequest& op) const
{
  return is_data(op.op) ? stripe_target(op, op.offset) : target_of(op.op, op.dir, op.object);
}

size_t ClientNode::stripe_target(const OpRequest& op, uint64_t offset) const
{
  // Stripe k of a file is on its first OST + k mod stripe_count (RAID-0 layout).
  const size_t first = target_of(op.op, op.dir, op.object) - ctx_.mds_hosts.size();
  return ctx_.mds_hosts.size() + (first + static_cast<size_t>(stripe_index(offset))) % ctx_.oss_hosts.size();
}

uint64_t ClientNode::stripe_index(uint64_t offset) const
{
  const auto& o = ctx_.platform.oss;
  return offset / static_cast<uint64_t>(o.stripe_size_B) % static_cast<uint64_t>(o.stripe_count);
}

uint64_t ClientNode::length_of(const OpRequest& op)
{
  return std::max<uint64_t>(1, static_cast<uint64_t>(std::llround(op.bytes)));
}

void ClientNode::data_ended(uint32_t r, double now)
{
  auto& ph = ctx_.records.phases[phase_];
  ph.data_last_end_s = std::max(ph.data_last_end_s, now);
  if (rank_of(r) == 0)
    ph.rank0_data_last_s = std::max(ph.rank0_data_last_s, now);
  if (!ph.rank_data_last_s.empty()) {
    double& last = ph.rank_data_last_s[static_cast<size_t>(rank_of(r))];
    last = std::max(last, now);
  }
}

int ClientNode::rpc_limit(size_t target) const
{
  const auto& c = ctx_.platform.clients;
  return target < ctx_.mds_hosts.size() ? c.max_rpcs_in_flight : c.osc_max_rpcs_in_flight;
}

bool ClientNode::slot_free(const RankState& s) const
{
  const auto& c = ctx_.platform.clients;
  const size_t t = target_of(s.op);
  if (in_flight_per_target_[t] >= rpc_limit(t))
    return false;
  switch (slot_kind(s.op.op)) {
    case SlotKind::Modifying:
      return mod_in_flight_per_target_[t] < c.max_mod_rpcs_in_flight;
    case SlotKind::CloseLock:
      return close_in_flight_per_target_[t] == 0;
    case SlotKind::ModifyingClose:  // obd_get_mod_rpc_slot: a free slot, or the one extra close
      return mod_in_flight_per_target_[t] < c.max_mod_rpcs_in_flight || close_in_flight_per_target_[t] == 0;
    case SlotKind::None:
      break;
  }
  return true;
}

ClientNode::SlotKind ClientNode::slot_kind(Op op) const
{
  if (is_data(op))
    return SlotKind::None;
  if (is_update(op))
    return SlotKind::Modifying;
  return op == Op::Open ? open_kind_ : op == Op::Close ? close_kind_ : SlotKind::None;
}

void ClientNode::take_slot(Op op, size_t t, int by)
{
  const SlotKind k = slot_kind(op);
  if (k == SlotKind::Modifying || k == SlotKind::ModifyingClose)
    mod_in_flight_per_target_[t] += by;
  if (k == SlotKind::CloseLock || k == SlotKind::ModifyingClose)
    close_in_flight_per_target_[t] += by;
}

bool ClientNode::is_local_rank(int rank) const
{
  const int k = rank - first_rank_;
  return k >= 0 && k % stride_ == 0 && static_cast<size_t>(k / stride_) < ranks_.size();
}

bool ClientNode::cache_hit(const OpRequest& op) const
{
  const double cache = ctx_.platform.clients.max_cached_B;
  if (op.op != Op::Read || cache <= 0 || op.written_by < 0 || !is_local_rank(op.written_by))
    return false;
  if (ctx_.sync_shared_writes && ctx_.shared_written(op.object))  // written synchronously: not kept in the cache
    return false;
  return written_since(op.written_phase >= 0 && op.written_phase <= phase_ ? op.written_phase : phase_) <= cache;
}

// A read of pages the node has dirty (clients.hold_partial_rpcs): they are in its page cache whatever max_cached_mb
// says (dirty pages are cached pages), held, queued for an RPC or in one, so a read they cover whole is a copy, no RPC.
// (helper-78, -81: the read went to an OST that had not received them, and an mdtest -w -e run read 11.9 MiB from
// OSTs that never wrote a byte, its pages dropped unwritten at the unlinks; until helper-98's round only held pieces
// counted, and pieces queued for or in an RPC were written back first and read from the OST.) A read they cover in
// part goes to the OSTs once those pieces are written back (wait_for_writeback). Pages already written back are clean:
// they serve reads only through max_cached_mb.
bool ClientNode::dirty_covers(const OpRequest& op) const
{
  if (op.op != Op::Read || dirty_pieces_.empty())
    return false;
  // A file written synchronously (clients.shared_file_writes): the revocation of the cache capability flushes the
  // pages held from before; a read waits for them (wait_for_writeback) and goes to the OSDs (helper-96).
  if (ctx_.sync_shared_writes && ctx_.shared_written(op.object))
    return false;
  const auto o = dirty_pieces_.find(op.object);
  if (o == dirty_pieces_.end())
    return false;
  const uint64_t b = op.offset, e = op.offset + length_of(op);
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (const Request* p : o->second) {
    const uint64_t pb = p->dirty_begin, pe = p->dirty_end;
    if (pe > b && pb < e)
      spans.emplace_back(std::max(pb, b), std::min(pe, e));
  }
  return union_length(spans) >= e - b;  // (the spans lie in [b, e): covered whole when their union is as long)
}

// Where read-ahead over [begin, limit) of an object stops: at the first page the node holds dirty there (its own
// dirty pages are in its page cache, which Lustre's read-ahead does not read again; the reads that reach them are
// copies, dirty_covers), so that the OST is not asked for bytes it has not been written. (Lustre goes on past them;
// here the stream's next read beyond them starts its window again.)
uint64_t ClientNode::before_dirty(uint64_t object, uint64_t begin, uint64_t limit) const
{
  if (dirty_pieces_.empty())
    return limit;
  const auto o = dirty_pieces_.find(object);
  if (o == dirty_pieces_.end())
    return limit;
  for (const Request* p : o->second)
    if (overlaps(p, begin, limit))
      limit = std::max(begin, p->dirty_begin / 4096 * 4096);
  return limit;
}

// The bytes a set of [begin, end) spans covers, overlaps counted once.
uint64_t ClientNode::union_length(std::vector<std::pair<uint64_t, uint64_t>>& spans)
{
  std::sort(spans.begin(), spans.end());
  uint64_t covered = 0, reach = 0;
  for (const auto& [b, e] : spans) {
    if (e > std::max(b, reach))
      covered += e - std::max(b, reach);
    reach = std::max(reach, e);
  }
  return covered;
}

double ClientNode::written_since(int phase) const
{
  if (phase_ - phase >= kPhaseMarks)
    return written_B_;
  return written_B_ - written_at_phase_[static_cast<size_t>(phase % kPhaseMarks)];
}

void ClientNode::try_send(uint32_t r)
{
  auto& s = ranks_[r];
  // When the operation starts (after its think time): a write revokes every rank's pages of the file read before
  // (tail_valid), and a read of pages the rank's last read fetched, still valid, is a copy.
  if (s.op.op == Op::Write)
    if (auto w = ctx_.file_writes.find(s.op.object); w != ctx_.file_writes.end())
      w->second++;
  if (!s.cache_read && !s.lock_granted && tail_covers(s))
    s.cache_read = true;
  // A read of pages dirty in another node's cache, or in part in this node's, waits for their write-back when it
  // starts (after its think time: helper-84's read asked at its previous operation's end, 29 ms early). Not a read the
  // node's page cache serves (its dirty pages are there too), nor one whose wait is over (whatever was written since).
  if (s.op.op == Op::Read && !held_.empty() && s.op.bytes > 0 && !s.cache_read && !s.lock_granted &&
      wait_for_writeback(r))
    return;
  s.lock_granted = false;
  if (s.cache_read) {  // the node's page cache holds the data: a copy, no RPC (clients.max_cached_mb)
    s.cache_read = false;
    if (s.op.object == s.ra_object && s.op.offset == s.ra_next)  // the stream goes on through a copy at its end
      s.ra_next = s.op.offset + length_of(s.op);
    const double copy = ctx_.platform.clients.page_cache_copy_Bps;
    const double now = sg4::Engine::get_clock();
    s.seq++;
    ctx_.records.cache_reads++;
    ctx_.records.cache_read_B += s.op.bytes;
    timers_.push(Timer{copy > 0 ? now + s.op.bytes / copy : now, r, TimerKind::DataDone, s.seq});
    return;
  }
  // clients.shared_file_writes "sync" (CephFS): a write to a file that ranks of another node write too goes
  // synchronously, and its pages do not stay in the node's page cache.
  // A write the workload makes synchronous (IOR -Y: an fsync after each) goes the same way, but its pages stay in the
  // node's page cache, clean.
  const bool shared_sync =
      s.op.op == Op::Write && ctx_.sync_shared_writes && ctx_.written_from_nodes(s.op.object, node_);
  s.sync_write = s.op.op == Op::Write && (shared_sync || s.op.sync);
  if (s.op.op == Op::Write && !shared_sync)
    written_B_ += s.op.bytes;
  const bool ahead = reads_ahead(s.op);
  if (ahead || goes_chunked(s)) {
    s.chunked = true;
    s.seq++;  // a bulk operation counts as one RPC of the rank's (the timers' least-served-first order)
    fetch_range(s);
    s.next_off = s.fetch_begin;
    s.end_off = s.fetch_end;
    s.chunks_out = 0;
    s.copy_done_s = sg4::Engine::get_clock();
    if (ahead)
      read_ahead_start(r);
    s.obj_next.clear();
    s.obj_stop.clear();
    if (objects_split() && !into_cache(s))
      split_by_object(s);
    send_chunks(r);
    if (ahead)
      read_ahead_issue(r);
    return;
  }
  const auto& op = s.op;
  if (slot_free(ranks_[r]))
    send(r);
  else
    waiting_[target_of(op)].get()[static_cast<size_t>(slot_kind(op.op))].push_back(
        Waiting{waiting_order_++, r});
}

Request* ClientNode::new_request(uint32_t r, size_t target, uint64_t offset, double bytes)
{
  const auto& op = ranks_[r].op;
  auto* q = new Request();
  q->node = static_cast<uint32_t>(node_);
  q->local_rank = r;
  q->op = op.op;
  q->dir = op.dir;
  q->shared_dir = op.shared_dir;
  q->entries = op.op == Op::Readdir ? op.entries : 0;
  q->object = op.object;
  q->offset = offset;
  q->obj_off = is_data(op.op) ? obj_offset(offset) : offset;
  q->bytes = bytes;
  q->target = static_cast<uint32_t>(target);
  if (is_data(op.op))
    q->data_seq = ++ranks_[r].data_rpcs;
  return q;
}

void ClientNode::send(uint32_t r)
{
  auto& s = ranks_[r];
  const size_t t = target_of(s.op);
  in_flight_per_target_[t]++;
  take_slot(s.op.op, t, +1);
  const bool pages = fetch_range(s);
  auto* q = new_request(r, t, s.fetch_begin, pages ? static_cast<double>(s.fetch_end - s.fetch_begin) : s.op.bytes);
  q->seq = ++s.seq;
  s.outstanding = q;
  transmit(q);
}

void ClientNode::transmit(Request* q)
{
  if (q->op == Op::Write && q->bytes > 0) {  // bulk data: one at a time on the node's connection (bulk_free_at_)
    auto& waiting = bulk_wait_[q->target].get();
    waiting.push_back(q);
    if (waiting.size() > 1)  // the head waits with a timer set
      return;
    if (sg4::Engine::get_clock() < bulk_free_at_[q->target])
      timers_.push(Timer{bulk_free_at_[q->target], q->target, TimerKind::BulkSent, 0});
    else
      bulk_sent(q->target);
    return;
  }
  put(q);
}

// A bulk write's turn on the links of its route: the node's client link, its LNET router and the server's link each
// send the writes that took a turn on them one after the other at its bandwidth (the NIC's and the links' queues), so
// the write begins once every one of them has sent what came before it, and has left when the slowest has sent it.
// Each link is then busy for the write's bytes at its own bandwidth (a fast link is not held for a slow one's time).
// Without turns every connection sent at the route's whole rate: a node striping over 8 OSTs let up to 8 x W of its
// RPCs cross its link side by side, the first reaching its OST 8 x W times later than it could (its disk idle
// meanwhile), and a few routers carried the RPCs of hundreds of nodes side by side, which also made SimGrid's
// network model slow (its cost grows with the transfers sharing a link). Returns when it begins; its end is in
// q->bulk_until.
double ClientNode::reserve_bulk(double now, Request* q)
{
  // The turn is for what the put carries: the request's header and its data (put). Reserving the data alone left
  // each small write's header unaccounted: 3901-byte writes with 512-byte headers offered the link 13% more than
  // its turns allowed, and a burst of them piled up side by side (1,800 transfers at once from 8 nodes).
  return ctx_.route.turns->reserve(now, static_cast<size_t>(node_), q->target,
                                   ctx_.platform.clients.request_size_B + q->bytes, true, q->bulk_until);
}

// The connection to server t is free (or the head's turn on its links has come): its next waiting write takes its
// turn and leaves when the turn begins.
void ClientNode::bulk_sent(size_t t)
{
  auto& waiting = bulk_wait_[t].get();
  const double now = sg4::Engine::get_clock();
  Request* next = waiting.front();
  if (next->bulk_until < 0) {
    const double begin = reserve_bulk(now, next);
    if (begin > now) {
      timers_.push(Timer{begin, static_cast<uint32_t>(t), TimerKind::BulkSent, 0});
      return;
    }
  }
  waiting.pop_front();
  bulk_free_at_[t] = next->bulk_until;
  next->bulk_until = -1;
  if (!waiting.empty())
    timers_.push(Timer{bulk_free_at_[t], static_cast<uint32_t>(t), TimerKind::BulkSent, 0});
  put(next);
}

void ClientNode::put(Request* q)
{
  // The RPC slot's target is where the request goes (a bulk RPC's: its stripe's OST). The transfer is a put to the
  // target's door, not a host-to-host Comm::sendto_async: SimGrid 3.32 makes every sendto a detached comm, keeps
  // them all in one list, and walks the whole list each time it finishes or re-tests an ended one (each wait_any
  // over it does), so a run's cost grew with the square of the requests in transit in the whole simulation (IOR at
  // 4 ranks, 36 stripes, 47008-byte writes into the cache: 13.8 s of wall time at 1000 segments, 145 s at 2000). A
  // put's comm is listed with this node's activities only.
  const double bytes = ctx_.platform.clients.request_size_B + (q->op == Op::Write ? q->bytes : 0);
  wait_set_.push_back(ctx_.doors[q->target]->put_async(q, static_cast<uint64_t>(bytes)));
  waited_.push_back(Waited{q, nullptr});
  // A read's reply carries its data: a receive of its own (see waited_), posted now, so that it finds it whenever it
  // comes and holds no other reply behind it.
  if (q->op == Op::Read) {
    ++bulk_replies_expected_;
    post_receive();
  }
  // mds.mechanisms.timeouts: the MDS's overload mechanism, so metadata RPCs only (a bulk write of a MiB to an OSS
  // is not held to a metadata RPC's timeout).
  const auto& to = ctx_.platform.mds.timeouts;
  if (to.enabled && !is_data(q->op))
    timers_.push(Timer{sg4::Engine::get_clock() + to.timeout_s, q->local_rank, TimerKind::Timeout, q->seq});
}

void ClientNode::on_reply(Request* q)
{
  if (q->chunk) {
    on_chunk_reply(q);
    return;
  }
  auto& s = ranks_[q->local_rank];
  if (q->abandoned || s.outstanding != q) {
    delete q;  // reply to a copy the client already gave up on
    return;
  }
  q->replied = true;  // the client now only finishes its own part: no timeout, no resend
  timers_.push(Timer{sg4::Engine::get_clock() + ctx_.platform.clients.rpc_overhead_s, q->local_rank,
                     TimerKind::Complete, q->seq});
}

Request* ClientNode::current(const Timer& t) const
{
  Request* q = ranks_[t.rank].outstanding;
  return q != nullptr && q->seq == t.seq ? q : nullptr;
}

void ClientNode::on_timeout(uint32_t r)
{
  auto& s = ranks_[r];
  XBT_DEBUG("rank %d: request %llu timed out, resending", rank_of(r),
            static_cast<unsigned long long>(s.outstanding->seq));
  s.outstanding->abandoned = true;  // the server still serves it; its reply will be dropped
  ctx_.records.resends++;
  const auto& to = ctx_.platform.mds.timeouts;
  if (s.outstanding->resends >= static_cast<uint32_t>(to.max_resends)) {
    // No copy can come back in time (timeout below the round trip, or congestion collapse): stop the run.
    ctx_.abort_reason = "a " + std::string(op_name(s.op.op)) + " request of rank " +
                        std::to_string(rank_of(r)) + " timed out " +
                        std::to_string(to.max_resends + 1) + " times in a row at t=" +
                        std::to_string(sg4::Engine::get_clock()) + " s (mds.mechanisms.timeouts.timeout " +
                        std::to_string(to.timeout_s) + " s is below its round trip; max_resends " +
                        std::to_string(to.max_resends) + ")";
    sg4::Actor::kill_all();
    sg4::this_actor::exit();
  }
  auto* q = new Request(*s.outstanding);
  q->abandoned = false;
  q->resends++;
  q->seq = ++s.seq;
  s.outstanding = q;
  // A zero delay fires in this same pass of fire_timers().
  timers_.push(Timer{sg4::Engine::get_clock() + ctx_.platform.mds.timeouts.resend_delay_s, r, TimerKind::Resend, q->seq});
}

void ClientNode::answer_listed_stat(uint32_t r)
{
  // Its client time once its think time is over and, when it waited for the listing, after the reply that listed it.
  auto& s = ranks_[r];
  s.seq++;
  ctx_.records.local_stats++;
  const double now = sg4::Engine::get_clock();
  const double end = s.local_ready_s >= 0 ? s.local_ready_s : now + ctx_.platform.clients.op_overhead_s[Op::Stat];
  timers_.push(Timer{end, r, TimerKind::DataDone, s.seq});
}

void ClientNode::complete(uint32_t r)
{
  auto& s = ranks_[r];
  if (s.op.op == Op::Readdir && s.outstanding != nullptr) {
    // Its entries are listed: this node's stats of them waiting for the listing are answered.
    const uint64_t listed = ctx_.listed_entries[s.op.dir] += s.outstanding->entries;
    if (auto w = listing_waiters_.find(s.op.dir); w != listing_waiters_.end()) {
      auto& ranks = w->second;
      size_t kept = 0;
      for (uint32_t x : ranks) {
        if (ranks_[x].op.position <= listed)
          answer_listed_stat(x);
        else
          ranks[kept++] = x;
      }
      ranks.resize(kept);
    }
  }
  delete s.outstanding;
  s.outstanding = nullptr;
  const size_t t = target_of(s.op);
  in_flight_per_target_[t]--;
  take_slot(s.op.op, t, -1);
  record_completion(r);
  if (ctx_.sync_shared_writes && s.op.op == Op::Unlink)
    ctx_.file_writer.erase(s.op.object);
  if (!held_.empty() && s.op.op == Op::Unlink) {
    discard_held(s.op.object);
    if (ctx_.holders.count(s.op.object) > 0)  // other nodes' held pages of it are dropped when they would go
      ctx_.unlinked.insert(s.op.object);
  } else if (!held_.empty() && s.op.op == Op::Create && !ctx_.unlinked.empty() && ctx_.unlinked.erase(s.op.object)) {
    // Created again (mdtest's next iteration): the unlinked file's pages this node still holds are dropped now, not
    // taken for the new file's (helper-82: a rewrite replaced them, counted nowhere, and on the old file's clock).
    discard_held(s.op.object);
  }
  hand_slots(t);
  start_op(r);
}

void ClientNode::record_completion(uint32_t r)
{
  auto& s = ranks_[r];
  double now = sg4::Engine::get_clock();
  auto& ph = ctx_.records.phases[phase_];
  const double runtime_s = now - s.op_start_s;
  const auto runtime = static_cast<float>(runtime_s);
  s.item_runtime_s += runtime_s;
  ph.ops++;
  ph.op_first_start_s[s.op.op] =
      ph.op_count[s.op.op] == 0 ? s.op_start_s : std::min(ph.op_first_start_s[s.op.op], s.op_start_s);
  ph.op_last_end_s[s.op.op] = ph.op_count[s.op.op] == 0 ? now : std::max(ph.op_last_end_s[s.op.op], now);
  ph.op_count[s.op.op]++;
  if (ctx_.records.rank_times)
    ph.rank_end_s[static_cast<size_t>(rank_of(r))] = now;
  ctx_.records.last_completion_s = now;
  if (is_data(s.op.op)) {
    if (ph.data_first_start_s < 0 || s.op_start_s < ph.data_first_start_s)
      ph.data_first_start_s = s.op_start_s;
    if (rank_of(r) == 0 && ph.rank0_data_first_s < 0)
      ph.rank0_data_first_s = s.op_start_s;
    if (!ph.rank_data_first_s.empty()) {
      double& first = ph.rank_data_first_s[static_cast<size_t>(rank_of(r))];
      if (first < 0)
        first = s.op_start_s;
    }
    if (sw_active_ && !sw_.per_item) {  // a pair done (IOR's pairCnt): the deadline is checked before the next step
      s.pairs++;
      s.pair_B += s.op.bytes;
      s.sw_check = true;
    }
    data_ended(r, now);
  }
  if (ctx_.records.latency_histograms)
    ph.histogram_by_op[s.op.op].add(runtime);
  else
    ph.latencies_by_op[s.op.op].push_back(runtime);
  if (ctx_.records.keep_samples)
    ph.samples.push_back(OpSample{s.op_start_s - ph.start_s, runtime, static_cast<uint32_t>(rank_of(r)), s.op.op});
}

void ClientNode::hand_slots(size_t t)
{
  // Hand freed slots to the waiting RPCs in arrival order (a waiting update may be passed by a read): the bulk pieces
  // (chunk_queue_) and the ranks waiting to send one RPC (waiting_, by slot kind). Only this target's waiters can have
  // become sendable (none is sendable between events), and sending only takes slots: the next to go is the earliest
  // head, among this target's queues, that finds a slot.
  auto* chunks = chunk_queue_[t].q.get();  // null: none was ever queued there
  auto* queues = waiting_[t].q.get();
  for (;;) {
    std::deque<Waiting>* next = nullptr;
    if (queues != nullptr)
      for (auto& kind : *queues)
        if (!kind.empty() && (next == nullptr || kind.front().order < next->front().order) &&
            slot_free(ranks_[kind.front().rank]))
          next = &kind;
    if (chunks != nullptr && !chunks->empty() && in_flight_per_target_[t] < rpc_limit(t) &&
        (next == nullptr || chunks->front().order < next->front().order)) {
      Request* q = chunks->pop_front();
      if (q->prefetch && read_ahead_dropped(q))
        continue;
      if (q->cached)
        merge_queued(q, *chunks);
      in_flight_per_target_[t]++;
      transmit(q);
      continue;
    }
    if (next == nullptr)
      break;
    const uint32_t w = next->front().rank;
    next->pop_front();
    send(w);
  }
}

// Dirty pages that wait for an RPC slot are sent as full RPCs, as the osc builds its write RPCs from an object's
// dirty extents when a slot frees (osc_build_rpc): the cached pieces queued behind `q` that continue its object where
// it ends, in object offsets (any rank's: one node's page cache; wherever they are in the queue, as several ranks'
// pieces interleave there), up to one RPC (max_pages_per_rpc pages, not across an RPC-size multiple of the object),
// go in its RPC. rpc_unit: where writes into the cache are cut, and reads and other writes when no object unit spans
// stripes (objects_split), in file offsets (at RPC-size multiples and stripe boundaries); obj_unit: the unit cached
// pieces fill and merge in, and the other RPCs end at when objects_split.
std::pair<uint64_t, uint64_t> ClientNode::rpc_unit(uint64_t offset) const
{
  // Within its stripe, where the file's offsets and the object's run side by side: the object's RPC-size unit
  // (obj_unit), so that a piece never straddles two units the osc would send apart (helper-80: 192 KiB stripes cut
  // at file multiples of 1 MiB left units that could never fill). A stripe size that is a multiple of the RPC size
  // gives the file's own multiples; with one stripe the object's offsets are the file's.
  const uint64_t o = obj_offset(offset);
  const auto [us, ue] = obj_unit(o);
  if (ctx_.platform.oss.stripe_count <= 1)
    return {us, ue};
  const auto stripe = static_cast<uint64_t>(ctx_.platform.oss.stripe_size_B);
  const uint64_t chunk = offset / stripe * stripe;
  return {std::max(chunk, offset - (o - us)), std::min(chunk + stripe, offset + (ue - o))};
}

// Where a file offset lies in its OST's object: stripe k of the file is the (k / stripe_count)-th stripe of its OST's
// object, so stripes k and k + stripe_count follow each other there (RAID-0 striping, Lustre's lov).
uint64_t ClientNode::obj_offset(uint64_t offset) const
{
  const auto& o = ctx_.platform.oss;
  if (o.stripe_count <= 1)
    return offset;
  const auto stripe = static_cast<uint64_t>(o.stripe_size_B);
  const uint64_t k = offset / stripe;
  return k / static_cast<uint64_t>(o.stripe_count) * stripe + offset % stripe;
}

// The RPC-size unit an object offset lies in (aligned in the object, as the osc's RPCs of an object's pages are).
std::pair<uint64_t, uint64_t> ClientNode::obj_unit(uint64_t obj_off) const
{
  const auto rpc = static_cast<uint64_t>(ctx_.platform.clients.max_pages_per_rpc) * 4096;
  const uint64_t start = obj_off / rpc * rpc;
  return {start, start + rpc};
}

uint64_t ClientNode::obj_bytes_before(uint64_t j, uint64_t f) const
{
  const auto stripe = static_cast<uint64_t>(ctx_.platform.oss.stripe_size_B);
  const auto count = static_cast<uint64_t>(ctx_.platform.oss.stripe_count);
  const uint64_t k = f / stripe;
  const uint64_t whole = k > j ? (k - j + count - 1) / count : 0;  // stripes j, j + count, ... below stripe k
  return whole * stripe + (k % count == j ? f % stripe : 0);
}

uint64_t ClientNode::file_offset(uint64_t j, uint64_t obj_off) const
{
  const auto stripe = static_cast<uint64_t>(ctx_.platform.oss.stripe_size_B);
  const auto count = static_cast<uint64_t>(ctx_.platform.oss.stripe_count);
  return (obj_off / stripe * count + j) * stripe + obj_off % stripe;
}

bool ClientNode::objects_split() const
{
  const auto& o = ctx_.platform.oss;
  const auto rpc = static_cast<uint64_t>(ctx_.platform.clients.max_pages_per_rpc) * 4096;
  return o.stripe_count > 1 && static_cast<uint64_t>(o.stripe_size_B) % rpc != 0;
}

void ClientNode::split_by_object(RankState& s)
{
  const auto count = static_cast<uint64_t>(ctx_.platform.oss.stripe_count);
  s.obj_next.resize(count);
  s.obj_stop.resize(count);
  for (uint64_t j = 0; j < count; ++j) {
    s.obj_next[j] = obj_bytes_before(j, s.next_off);
    s.obj_stop[j] = obj_bytes_before(j, s.end_off);
  }
}

void ClientNode::merge_queued(Request* q, ChunkQueue& queue)
{
  const uint64_t unit_end = obj_unit(q->obj_off).second;
  uint64_t end = q->obj_off + static_cast<uint64_t>(q->bytes);
  Request* tail = q;
  for (;;) {
    if (end >= unit_end)
      break;  // q's RPC ends here (the next piece would start in another RPC-size unit or stripe)
    auto it = queue.earliest(q->object, end);
    if (it == queue.cached.end())
      break;
    const uint64_t n_end = end + static_cast<uint64_t>(it->second->request->bytes);
    if (n_end > unit_end)
      break;
    Request* n = queue.take(it);
    tail->merged = n;
    tail = n;
    q->bytes += n->bytes;
    end = n_end;
  }
}

void ClientNode::ChunkQueue::push(uint64_t order, Request* r)
{
  q.push_back(QueuedChunk{order, r});
  if (r->cached)
    cached.emplace(Key{r->object, r->obj_off}, &q.back());
}

bool ClientNode::ChunkQueue::empty()
{
  while (!q.empty() && q.front().request == nullptr)
    q.pop_front();
  return q.empty();
}

Request* ClientNode::ChunkQueue::pop_front()
{
  Request* r = q.front().request;
  if (r->cached) {
    auto [first, last] = cached.equal_range(Key{r->object, r->obj_off});
    for (auto it = first; it != last; ++it)
      if (it->second == &q.front()) {
        cached.erase(it);
        break;
      }
  }
  q.pop_front();
  return r;
}

ClientNode::ChunkQueue::Index::iterator ClientNode::ChunkQueue::earliest(uint64_t object, uint64_t offset)
{
  auto [first, last] = cached.equal_range(Key{object, offset});
  auto best = cached.end();
  for (auto it = first; it != last; ++it)
    if (best == cached.end() || it->second->order < best->second->order)
      best = it;
  return best;
}

Request* ClientNode::ChunkQueue::take_entry(QueuedChunk& entry)
{
  Request* r = entry.request;
  auto [first, last] = cached.equal_range(Key{r->object, r->obj_off});
  for (auto it = first; it != last; ++it)
    if (it->second == &entry) {
      cached.erase(it);
      break;
    }
  entry.request = nullptr;
  return r;
}

Request* ClientNode::ChunkQueue::take(Index::iterator it)
{
  Request* r = it->second->request;
  it->second->request = nullptr;
  cached.erase(it);
  return r;
}

// The data path. A read or write goes as bulk RPCs when it is larger than one RPC, crosses an RPC-size or stripe
// boundary, or is a write into the write-back cache; else as one RPC of the ordinary path (as before the data path
// existed, so small-file workloads run as they did).
bool ClientNode::into_cache(const RankState& s) const
{
  return s.op.op == Op::Write && ctx_.platform.clients.max_dirty_B > 0 && !s.sync_write;
}

bool ClientNode::goes_chunked(const RankState& s) const
{
  const auto& op = s.op;
  if (!is_data(op.op) || op.bytes <= 0)
    return false;
  if (into_cache(s))
    return true;
  // (beyond its RPC-size unit: an RPC multiple of the object, or the stripe's end)
  return op.offset + length_of(op) > rpc_unit(op.offset).second;
}

// Cuts the rank's current read or write into RPCs: at multiples of max_pages_per_rpc pages and at stripe boundaries
// (with several stripes not a multiple of the RPC size, a read's or write-through write's RPC takes an object's
// contiguous stripes up to its RPC-size unit: obj_next), each to its stripe's OST (the file's first OST, as
// oss.placement gives it, then the next ones in index order).
// Pieces are cut as the window allows (a write into the cache: one at a time, as write() dirties pages in order and
// waits at a full cache; otherwise osc_max_rpcs_in_flight per stripe), so a 1 TB write does not make a million RPCs at once.
void ClientNode::send_chunks(uint32_t r)
{
  auto& s = ranks_[r];
  if (!s.chunked)
    return;
  const auto& c = ctx_.platform.clients;
  const auto& o = ctx_.platform.oss;
  const bool cached = into_cache(s);
  const auto window = static_cast<uint32_t>(cached ? 1 : c.osc_max_rpcs_in_flight * o.stripe_count);
  while (s.chunked && s.next_off < s.end_off && s.chunks_out < window) {
    const size_t t = stripe_target(s.op, s.next_off);
    Request* q = nullptr;
    if (!s.obj_next.empty()) {
      // An RPC of the object's contiguous bytes from the first byte not yet sent, up to its RPC-size unit's end: the
      // osc builds a read (or write-through) RPC from an object's pages, and stripes k and k + stripe_count follow
      // each other there. The next RPC starts at the first byte of the file not yet sent.
      const uint64_t j = stripe_index(s.next_off);
      const uint64_t from = s.obj_next[j];
      const uint64_t to = std::min(s.obj_stop[j], obj_unit(from).second);
      q = new_request(r, t, s.next_off, static_cast<double>(to - from));
      s.obj_next[j] = to;
      s.next_off = s.end_off;
      for (size_t i = 0; i < s.obj_next.size(); ++i)
        if (s.obj_next[i] < s.obj_stop[i])
          s.next_off = std::min(s.next_off, file_offset(i, s.obj_next[i]));
    } else {
      const uint64_t end = std::min(s.end_off, rpc_unit(s.next_off).second);  // an RPC ends at its unit's end
      q = new_request(r, t, s.next_off, static_cast<double>(end - s.next_off));
      s.next_off = end;
    }
    q->chunk = true;
    s.chunks_out++;
    chunks_pending_++;
    if (cached) {
      cache_wait_[t].get().push_back(q);
      admit_to_cache(t);
    } else {
      chunk_queue_[t].get().push(waiting_order_++, q);
      hand_slots(t);
    }
  }
  if (s.chunked && s.next_off >= s.end_off && s.chunks_out == 0 && s.ra_waiting == 0) {
    // Written into the cache: done when the copy is; read from pages read ahead only: when they are copied out;
    // otherwise when the last RPC's reply is processed.
    s.chunked = false;
    const double now = sg4::Engine::get_clock();
    const double copy = c.page_cache_copy_Bps;
    const double done = cached        ? std::max(now, s.copy_done_s)
                        : s.ra_served ? now + (copy > 0 ? s.op.bytes / copy : 0.0)
                                      : now + c.rpc_overhead_s;
    s.ra_served = false;
    timers_.push(Timer{done, r, TimerKind::DataDone, s.seq});
  }
  resume_ranks();
}

// The ranks whose piece entered a cache cut their next one (not from inside admit_to_cache: a rank cutting its pieces
// one at a time into a cache with room would otherwise recurse once per piece).
void ClientNode::resume_ranks()
{
  if (resuming_)
    return;
  resuming_ = true;
  while (!resumed_.empty()) {  // in the order their pieces entered
    const uint32_t r = resumed_.front();
    resumed_.pop_front();
    send_chunks(r);
  }
  resuming_ = false;
}

// Write RPCs enter the cache of their OST in arrival order while it has room (clients.max_dirty_mb); each then goes
// out as soon as an osc_max_rpcs_in_flight slot is free. The ranks whose piece entered are resumed (resume_ranks).
void ClientNode::admit_to_cache(size_t t)
{
  const auto& c = ctx_.platform.clients;
  const double now = sg4::Engine::get_clock();
  auto& wait = cache_wait_[t].get();
admit:
  while (!wait.empty() && dirty_B_[t] + wait.front()->bytes <= c.max_dirty_B) {
    Request* q = wait.front();
    wait.pop_front();
    dirty_B_[t] += q->bytes;
    q->cached = true;
    auto& s = ranks_[q->local_rank];
    s.chunks_out--;
    s.dirty_chunks++;
    dirty_chunks_++;
    if (c.page_cache_copy_Bps > 0)
      s.copy_done_s = std::max(s.copy_done_s, now) + q->bytes / c.page_cache_copy_Bps;
    if (held_.empty()) {
      chunk_queue_[t].get().push(waiting_order_++, q);
    } else {
      dirty_by_rank_[q->local_rank][q->object]++;
      q->dirty_id = ++dirty_ids_;
      auto& pieces = dirty_pieces_[q->object];
      if (pieces.empty())
        ctx_.holders[q->object]++;
      q->dirty_begin = q->offset;
      q->dirty_end = q->offset + static_cast<uint64_t>(q->bytes);
      q->dirty_slot = static_cast<uint32_t>(pieces.size());
      pieces.push_back(q);
      const uint32_t rank = q->local_rank;  // (hold may send q, or drop it if its file was unlinked)
      hold(t, q);
      resumed_.push_back(rank);
      continue;
    }
    resumed_.push_back(q->local_rank);
  }
  // Writers wait for this cache: what it holds goes, full RPCs or not (osc_makes_rpc's cache waiters). Pages of files
  // another node unlinked are dropped then, which makes room at once.
  if (!wait.empty() && !held_.empty()) {
    const double before = dirty_B_[t];
    release_target(t);
    if (dirty_B_[t] < before)
      goto admit;
  }
  hand_slots(t);
}

// ----------------------------------------------------------------------------------- Partial RPCs held back
// clients.hold_partial_rpcs: a piece entering the cache joins the RPC-size unit of its OST's object it lies in (the
// pieces were cut at those units' bounds and stripe ends: rpc_unit, so one unit holds it whole); a unit its pieces fill
// goes at once.
void ClientNode::hold(size_t t, Request* q)
{
  const auto [start, end] = obj_unit(q->obj_off);
  const UnitKey key{q->object, start};
  auto& units = held_[t].get();
  if (q->bytes >= static_cast<double>(end - start) && units.count(key) == 0) {  // a full RPC by itself
    chunk_queue_[t].get().push(waiting_order_++, q);
    return;
  }
  auto [it, fresh] = units.try_emplace(key);
  HeldUnit& unit = it->second;
  if (fresh) {
    const double now = sg4::Engine::get_clock();
    unit.size = static_cast<double>(end - start);
    unit.since_s = now;
    unit.order = waiting_order_++;
    ++held_units_;
    held_by_object_[key.object].emplace(t, start);
    expiries_.push_back(Expiry{now + ctx_.platform.clients.dirty_expire_s, t, key});
    if (expire_armed_s_ < 0) {
      expire_armed_s_ = expiries_.front().t;
      timers_.push(Timer{expire_armed_s_, 0, TimerKind::Expire, 0});
    }
  }
  // A rewrite of pages the unit already holds (IOR's next repetition) dirties them again: an older piece that the new
  // one covers whole leaves the cache, and only the new one goes. (Its rank is not in an fsync: an fsync releases
  // the units of every object its rank has pieces of, and the rank writes nothing until it is over.) A new piece
  // that an older one covers whole changes pages already dirty: it adds nothing and leaves at once; one that overlaps
  // an older one at an end adds only the rest (helper-87: both went, and the overlap was written twice). Either way
  // the OST gets each dirty byte once, and the bytes written again are counted (client_rewritten_writes). Only the
  // same rank's pieces: a rank's fsync waits for its own pieces, and one absorbed into another rank's piece would let
  // it return with its bytes still dirty (helper-92); other ranks' overlaps are written twice.
  // (Only a piece inside the span the unit's pieces cover can overlap one: a stream appending pieces scans nothing.)
  uint64_t q_end = q->obj_off + static_cast<uint64_t>(q->bytes);
  for (auto p = unit.pieces.begin(); q->obj_off < unit.hi && q_end > unit.lo && p != unit.pieces.end();) {
    Request* old = *p;
    const uint64_t o_end = old->obj_off + static_cast<uint64_t>(old->bytes);
    if (old->local_rank != q->local_rank || o_end <= q->obj_off || old->obj_off >= q_end || old->obj_off < q->obj_off ||
        o_end > q_end) {
      ++p;
      continue;
    }
    p = unit.pieces.erase(p);
    unit.bytes -= old->bytes;
    rewritten(old->bytes);
    leave_cache(t, old);
    delete old;
  }
  for (const Request* old : unit.pieces) {
    const uint64_t o_end = old->obj_off + static_cast<uint64_t>(old->bytes);
    if (old->local_rank != q->local_rank || o_end <= q->obj_off || old->obj_off >= q_end)
      continue;
    if (old->obj_off <= q->obj_off && o_end >= q_end) {  // inside an older piece: its pages are dirty already
      rewritten(q->bytes);
      leave_cache(t, q);
      delete q;
      return;
    }
    // At one end (the older pieces left are none inside this one): this one keeps the part beyond it.
    const uint64_t cut = old->obj_off <= q->obj_off ? o_end - q->obj_off : q_end - old->obj_off;
    rewritten(static_cast<double>(cut), false);
    dirty_B_[t] -= static_cast<double>(cut);
    if (old->obj_off <= q->obj_off) {
      q->obj_off += cut;
      q->offset += cut;
    } else {
      q_end -= cut;
    }
    q->bytes -= static_cast<double>(cut);
  }
  unit.pieces.push_back(q);
  unit.bytes += q->bytes;
  unit.lo = std::min(unit.lo, q->obj_off);
  unit.hi = std::max(unit.hi, q_end);
  if (unit.bytes < unit.size)
    return;
  // Full when its pieces cover it (overlapping pieces of other lengths count their pages once).
  std::vector<std::pair<uint64_t, uint64_t>> spans;
  for (const Request* p : unit.pieces)
    spans.emplace_back(p->obj_off, p->obj_off + static_cast<uint64_t>(p->bytes));
  if (static_cast<double>(union_length(spans)) >= unit.size)
    release_units(t, {key});
}

// A read of a file of known size (IOR's, a DXT or IOR-trace replay's) fetches whole pages, up to the file's end, from
// the first page its rank's tail does not hold (helper-87: IOR -t 8 -b 64k sent 8,192 RPCs of 8 bytes, one per read,
// where Lustre reads each page once and the next reads find it in the page cache). The fetched pages become the tail.
// Other reads (metadata tools' small files, read whole) move their bytes as before.
bool ClientNode::fetch_range(RankState& s) const
{
  const uint64_t b = s.op.offset, e = s.op.offset + length_of(s.op);
  s.fetch_begin = b;
  s.fetch_end = e;
  if (s.op.op != Op::Read || s.op.object_end == 0 || s.op.bytes <= 0)
    return false;  // (a read of 0 bytes, which DXT records, fetches nothing: helper-92, inside the tail it underflowed)
  s.fetch_begin = b / 4096 * 4096;
  s.fetch_end = std::max(e, std::min(s.op.object_end, (e + 4095) / 4096 * 4096));
  // The pages the tail holds are not fetched again, at either end (helper-89: a read just before the tail fetched its
  // first page again); the tail then grows by what is fetched next to it.
  const bool valid = tail_valid(s);
  if (valid && s.fetch_begin >= s.tail_begin && s.fetch_begin < s.tail_end)
    s.fetch_begin = s.tail_end;
  if (valid && s.fetch_end > s.tail_begin && s.fetch_end <= s.tail_end && s.fetch_begin < s.tail_begin)
    s.fetch_end = std::max(e <= s.tail_begin ? e : s.tail_begin, s.fetch_begin + 1);
  s.fetch_end = std::max(s.fetch_end, s.fetch_begin);
  if (valid && s.fetch_begin <= s.tail_end && s.fetch_end >= s.tail_begin) {
    s.tail_begin = std::min(s.tail_begin, s.fetch_begin);
    s.tail_end = std::max(s.tail_end, s.fetch_end);
  } else {
    s.tail_object = s.op.object;
    s.tail_begin = s.fetch_begin;
    s.tail_end = s.fetch_end;
    s.tail_writes = ctx_.file_writes[s.op.object];  // (counted from now on: files some rank has pages of)
  }
  return true;
}

uint64_t ClientNode::writes_of(uint64_t object) const
{
  const auto w = ctx_.file_writes.find(object);
  return w == ctx_.file_writes.end() ? 0 : w->second;
}

bool ClientNode::tail_valid(const RankState& s) const
{
  return s.op.object == s.tail_object && writes_of(s.op.object) == s.tail_writes;
}

bool ClientNode::tail_covers(const RankState& s) const
{
  return s.op.op == Op::Read && s.op.object_end > 0 && s.op.bytes > 0 && tail_valid(s) &&
         s.op.offset >= s.tail_begin && s.op.offset + length_of(s.op) <= s.tail_end;
}

// Bytes written again into pages already dirty (a whole piece, or `whole` false: part of one).
void ClientNode::rewritten(double bytes, bool whole)
{
  ctx_.records.rewritten_B += bytes;
  if (whole)
    ctx_.records.rewritten_pieces++;
}

// A piece leaves the node's write-back cache (written, rewritten or dropped): its bytes, its RPC and its rank's count.
void ClientNode::leave_cache(size_t t, const Request* p)
{
  dirty_B_[t] -= p->bytes;
  chunks_pending_--;
  ranks_[p->local_rank].dirty_chunks--;
  if (!dirty_by_rank_.empty())  // (kept only when holding partial RPCs)
    forget_dirty(p);
  if (--dirty_chunks_ == 0 && syncing_ > 0)
    sync_over();
}

void ClientNode::forget_dirty(const Request* p)
{
  auto& objects = dirty_by_rank_[p->local_rank];
  auto it = objects.find(p->object);
  if (--it->second == 0)
    objects.erase(it);
  auto d = dirty_pieces_.find(p->object);
  auto& pieces = d->second;  // (out of the list by a swap with its last piece, O(1))
  Request* last = pieces.back();
  pieces[p->dirty_slot] = last;
  last->dirty_slot = p->dirty_slot;
  pieces.pop_back();
  if (pieces.empty()) {
    dirty_pieces_.erase(d);
    auto h = ctx_.holders.find(p->object);
    if (--h->second == 0) {  // no node holds pages of it any more: an unlinked one is forgotten
      ctx_.holders.erase(h);
      ctx_.unlinked.erase(p->object);
    }
  }
  // The reads that waited for the object's pages dirty when they asked go on once those have left the cache (this
  // node's ranks through lock_answered, other nodes' told).
  if (flush_waiters_.empty())
    return;
  auto w = flush_waiters_.find(p->object);
  if (w == flush_waiters_.end())
    return;
  auto& waiters = w->second;
  for (auto f = waiters.begin(); f != waiters.end();) {
    if (p->dirty_id > f->before || !overlaps(p, f->begin, f->end) || --f->remaining > 0) {
      ++f;
      continue;
    }
    if (f->node == static_cast<uint32_t>(node_))
      lock_answered(f->rank, f->seq);
    else
      send_notice(static_cast<int>(f->node), new NodeMessage(FlushDone{f->rank, f->seq}));
    f = waiters.erase(f);
  }
  if (waiters.empty())
    flush_waiters_.erase(w);
}

// A read (this node's rank, or another node's) waits for the object's pieces now in this cache (all of them have a
// dirty_id up to the last given).
void ClientNode::wait_for_pieces(uint64_t object, uint32_t node, uint32_t rank, uint64_t seq, uint64_t begin,
                                 uint64_t end)
{
  const auto& pieces = dirty_pieces_.at(object);
  const auto n = std::count_if(pieces.begin(), pieces.end(), [&](const Request* p) { return overlaps(p, begin, end); });
  flush_waiters_[object].push_back(FlushWaiter{node, rank, seq, dirty_ids_, static_cast<uint32_t>(n), begin, end});
}

void ClientNode::lock_answered(uint32_t r, uint64_t seq)
{
  auto& s = ranks_[r];
  if (!s.lock_wait || s.seq != seq || s.lock_pending == 0 || --s.lock_pending > 0)
    return;
  s.lock_wait = false;
  s.lock_granted = true;  // try_send again, through a timer (not from inside the cache's bookkeeping)
  timers_.push(Timer{sg4::Engine::get_clock(), r, TimerKind::Ready, seq});
}

void ClientNode::fsync_over(uint32_t r)
{
  auto& s = ranks_[r];
  if (!s.flushing || s.dirty_chunks != 0)
    return;
  s.flushing = false;
  const double now = sg4::Engine::get_clock();
  data_ended(r, now);
  if (s.barrier_after_flush) {  // IOR -g -e: the fsync done, the barrier before the close
    s.barrier_after_flush = false;
    join_collective(r, false);
    return;
  }
  s.op_start_s = std::max(s.op_start_s, now);  // the close itself starts now (or after its think time)
  begin_op(r);
}

void ClientNode::send_notice(int node, NodeMessage* m)
{
  wait_set_.push_back(ctx_.route.node_mailboxes[static_cast<size_t>(node)]->put_async(
      m, static_cast<uint64_t>(ctx_.platform.clients.request_size_B)));
  waited_.push_back(Waited{nullptr, nullptr, true});
}

// clients.hold_partial_rpcs: a read of an object whose pages are dirty in another node's cache reads them once they
// are written back, as Lustre's read takes an extent lock whose callback makes the holder flush them first: the
// writer's node's (the rank OpRequest::written_by names) is asked to write them back (FlushAsk, a small message as a
// lock callback is), and the read waits until it says they are written (FlushDone). This node's own dirty pages are
// flushed for no read of its own (its read matches the node's own PW extent lock): those the read's pages cover whole
// are a copy (dirty_covers); pages it reads that are not dirty here are clean, on the OSTs (or never written here),
// and it reads them without waiting; only dirty pieces among the pages it reads, when they do not cover it whole, go
// now and the read waits for them (a read partly copied, partly fetched is not modelled). Then begin_op again.
// (helper-82: reads went to OSTs that had not received the data, at times never: IO500's mdtest-hard read 62 MB
// from OSTs that wrote nothing. Until helper-108, 2026-11-27, a read not covered whole by this node's dirty pages
// released and waited for all of them, the whole file's, and the later reads of pages that had been dirty went to
// the OSTs: IOR -t 512k -b 1536k -w -r -d 1 -k, the last piece held, read 1.5 MiB from the OST in 2 MiB / disk
// bandwidth where it now reads 1 MiB and copies the held piece, datapath_test.)
bool ClientNode::wait_for_writeback(uint32_t r)
{
  auto& s = ranks_[r];
  const uint64_t object = s.op.object;
  if (dirty_covers(s.op))  // a copy from the node's held pages
    return false;
  // Both at once (helper-84: waiting for this node's first and then going, the writer's node was never asked).
  uint8_t pending = 0;
  if (auto o = dirty_pieces_.find(object); o != dirty_pieces_.end()) {
    // The pages the read fetches (fetch_range: whole pages). A file written synchronously (clients.shared_file_writes
    // "sync"): the revocation of the cache capability flushes all the pages held from before (dirty_covers).
    const bool revoked = ctx_.sync_shared_writes && ctx_.shared_written(object);
    const uint64_t begin = revoked ? 0 : s.op.offset / 4096 * 4096;
    const uint64_t end = revoked ? UINT64_MAX : (s.op.offset + length_of(s.op) + 4095) / 4096 * 4096;
    if (std::any_of(o->second.begin(), o->second.end(), [&](const Request* p) { return overlaps(p, begin, end); })) {
      release_overlapping(object, begin, end);
      if (auto d = dirty_pieces_.find(object);  // on their way now
          d != dirty_pieces_.end() &&
          std::any_of(d->second.begin(), d->second.end(), [&](const Request* p) { return overlaps(p, begin, end); })) {
        wait_for_pieces(object, static_cast<uint32_t>(node_), r, s.seq, begin, end);
        ++pending;
      }
    }
  }
  if (s.op.written_by >= 0 && !is_local_rank(s.op.written_by) && !ctx_.nodes.empty()) {
    const int w = ctx_.node_of(s.op.written_by);
    if (w != node_ && ctx_.nodes[static_cast<size_t>(w)]->dirty_pieces_of(object) > 0) {
      send_notice(w, new NodeMessage(FlushAsk{object, static_cast<uint32_t>(node_), r, s.seq}));
      ++pending;
    }
  }
  s.lock_wait = pending > 0;
  s.lock_pending = pending;
  return pending > 0;
}

// The units' pieces join the target's chunk queue, unit by unit in the order the units were begun, each unit's pieces
// by offset (merge_queued then builds one RPC of a unit's contiguous pieces). The caller hands the slots.
void ClientNode::release_units(size_t t, std::vector<UnitKey> units)
{
  auto& held = *held_[t].q;
  std::sort(units.begin(), units.end(),
            [&held](const UnitKey& a, const UnitKey& b) { return held.at(a).order < held.at(b).order; });
  auto& queue = chunk_queue_[t].get();
  for (const UnitKey& key : units) {
    auto it = held.find(key);
    auto& pieces = it->second.pieces;
    std::stable_sort(pieces.begin(), pieces.end(),
                     [](const Request* a, const Request* b) { return a->obj_off < b->obj_off; });
    const bool unlinked = !ctx_.unlinked.empty() && ctx_.unlinked.count(key.object) > 0;
    for (Request* q : pieces)
      if (unlinked)  // another node unlinked the file: its pages are dropped, not written
        drop_piece(t, q);
      else
        queue.push(waiting_order_++, q);
    held.erase(it);
    --held_units_;
    auto o = held_by_object_.find(key.object);
    o->second.erase({t, key.start});
    if (o->second.empty())
      held_by_object_.erase(o);
  }
}

void ClientNode::release_objects(std::vector<uint64_t> objects)
{
  std::sort(objects.begin(), objects.end());
  objects.erase(std::unique(objects.begin(), objects.end()), objects.end());
  std::map<size_t, std::vector<UnitKey>> by_target;  // targets in index order: deterministic
  for (uint64_t object : objects)
    if (auto o = held_by_object_.find(object); o != held_by_object_.end())
      for (const auto& [t, start] : o->second)
        by_target[t].push_back(UnitKey{object, start});
  release_by_target(by_target);
}

void ClientNode::release_overlapping(uint64_t object, uint64_t begin, uint64_t end)
{
  std::map<size_t, std::vector<UnitKey>> by_target;
  if (auto o = held_by_object_.find(object); o != held_by_object_.end())
    for (const auto& [t, start] : o->second) {
      const auto& pieces = held_[t].q->at(UnitKey{object, start}).pieces;
      if (std::any_of(pieces.begin(), pieces.end(), [&](const Request* p) { return overlaps(p, begin, end); }))
        by_target[t].push_back(UnitKey{object, start});
    }
  release_by_target(by_target);
}

void ClientNode::release_by_target(std::map<size_t, std::vector<UnitKey>>& by_target)
{
  for (auto& [t, units] : by_target) {
    release_units(t, std::move(units));
    admit_to_cache(t);  // (room that pieces of unlinked files left, if writers wait); hands the slots
  }
  resume_ranks();
}

void ClientNode::release_target(size_t t)
{
  if (held_[t].q == nullptr || held_[t].q->empty())
    return;
  std::vector<UnitKey> all;
  for (const auto& [key, unit] : *held_[t].q)
    all.push_back(key);
  release_units(t, std::move(all));
}

void ClientNode::release_all()
{
  for (size_t t = 0; t < held_.size() && held_units_ > 0; ++t) {
    release_target(t);
    admit_to_cache(t);  // hands the slots
  }
  resume_ranks();
}

// An fsync writes back the file's dirty pages on the node: every held unit of each object rank r has pieces in the
// cache of (other ranks' pieces of a shared file too).
void ClientNode::release_flushed(uint32_t r)
{
  std::vector<uint64_t> objects;
  for (const auto& [object, pieces] : dirty_by_rank_[r])
    objects.push_back(object);
  release_objects(std::move(objects));
}

// Units dirty for dirty_expire: their objects are written back (all their held units, as the kernel's writeback of an
// inode dirtied that long ago writes all its dirty pages).
void ClientNode::on_expiry()
{
  const double now = sg4::Engine::get_clock();
  expire_armed_s_ = -1;
  std::vector<uint64_t> objects;
  while (!expiries_.empty() && expiries_.front().t <= now) {
    const Expiry e = expiries_.front();
    expiries_.pop_front();
    auto it = held_[e.target].q->find(e.unit);
    // A unit released since and begun again later is not yet due.
    if (it != held_[e.target].q->end() && it->second.since_s + ctx_.platform.clients.dirty_expire_s <= now)
      objects.push_back(e.unit.object);
  }
  release_objects(std::move(objects));
  while (!expiries_.empty() && held_[expiries_.front().target].q->count(expiries_.front().unit) == 0)
    expiries_.pop_front();  // released since: nothing to wake for
  if (!expiries_.empty()) {
    expire_armed_s_ = expiries_.front().t;
    timers_.push(Timer{expire_armed_s_, 0, TimerKind::Expire, 0});
  }
}

// A held piece of an unlinked file leaves the cache unwritten.
void ClientNode::drop_piece(size_t t, Request* p)
{
  leave_cache(t, p);
  const auto& s = ranks_[p->local_rank];
  ctx_.records.discarded_pieces++;
  ctx_.records.discarded_B += p->bytes;
  // (a rank whose fsync released it and waits for no other piece goes on: through a timer, not from in here)
  if (s.flushing && s.dirty_chunks == 0)
    timers_.push(Timer{sg4::Engine::get_clock(), p->local_rank, TimerKind::FsyncDone, s.seq});
  delete p;
}

// An unlinked file's dirty pages are never written: the OST destroys the object and its extent locks are cancelled
// with LDLM_FL_DISCARD_DATA, so the client drops the pages instead of writing them back. The node drops the units it
// holds of the object and its pieces queued for a slot (those in flight still go). Their cache space is free again.
void ClientNode::discard_held(uint64_t object)
{
  std::set<size_t> targets;  // (in index order: deterministic)
  if (auto o = held_by_object_.find(object); o != held_by_object_.end()) {
    for (const auto& [t, start] : o->second) {
      auto& held = *held_[t].q;
      auto it = held.find(UnitKey{object, start});
      for (Request* p : it->second.pieces)
        drop_piece(t, p);
      held.erase(it);
      --held_units_;
      targets.insert(t);
    }
    held_by_object_.erase(o);
  }
  // Pieces still waiting for an RPC slot are dirty pages too: dropped (those in flight are written). Looked for only
  // when the object still has pieces in the cache (IOR's full RPCs queued behind the slots, helper-85: a repetition
  // that found the previous one's 32 MiB still queued wrote at 5,155 MiB/s where the first wrote at 22,909).
  if (held_.empty() || dirty_pieces_.count(object) > 0)  // (without holding, no per-object count: looked for)
    drop_queued(&object, targets);
  for (size_t t : targets)
    admit_to_cache(t);  // writers that waited for the space; hands the target's slots
  resume_ranks();
}

// The cached pieces queued for an RPC slot, of `object` (nullptr: of every object), are dropped; their targets noted.
void ClientNode::drop_queued(const uint64_t* object, std::set<size_t>& targets)
{
  for (size_t t = 0; t < chunk_queue_.size(); ++t)
    if (auto* queue = chunk_queue_[t].q.get(); queue != nullptr && !queue->empty())
      for (auto& entry : queue->q)
        if (entry.request != nullptr && entry.request->cached &&
            (object == nullptr || entry.request->object == *object)) {
          drop_piece(t, queue->take_entry(entry));
          targets.insert(t);
        }
}

// Every file the job wrote was removed (IOR without -k, at the run's end): every cached piece goes unwritten, held or
// queued for a slot (those in flight are written).
void ClientNode::discard_all_cached()
{
  std::vector<uint64_t> objects;
  for (const auto& entry : held_by_object_)
    objects.push_back(entry.first);
  std::sort(objects.begin(), objects.end());  // (deterministic order)
  for (const uint64_t object : objects)
    discard_held(object);
  std::set<size_t> targets;  // pieces queued for a slot, not held
  drop_queued(nullptr, targets);
  for (size_t t : targets)
    admit_to_cache(t);
  resume_ranks();
}

void ClientNode::on_chunk_reply(Request* q)
{
  const size_t t = q->target;
  in_flight_per_target_[t]--;
  if (q->prefetch) {
    read_ahead_reply(q);
    hand_slots(t);
    return;
  }
  if (!q->cached) {
    const uint32_t r = q->local_rank;
    chunks_pending_--;
    ranks_[r].chunks_out--;
    delete q;
    send_chunks(r);
    hand_slots(t);
    return;
  }
  // The RPC's pieces (q's own and those merged into it) leave the cache; then each piece's rank whose fsync waited
  // for them goes on (a rank with several pieces here, once: its fsync is over after the first).
  for (Request* p = q->merged; p != nullptr; p = p->merged)
    q->bytes -= p->bytes;
  for (Request* p = q; p != nullptr; p = p->merged) {
    leave_cache(t, p);
  }
  admit_to_cache(t);  // hands the freed slot too
  resume_ranks();
  for (Request* p = q; p != nullptr;) {
    const uint32_t r = p->local_rank;
    Request* next = p->merged;
    delete p;
    p = next;
    fsync_over(r);  // when its last dirty piece left the cache: IOR counts the fsync in the transfers' time
  }
}

// ----------------------------------------------------------------------------------------------- Read-ahead
// Lustre llite's read-ahead, simplified (clients.readahead_mb): a rank's read that starts where its previous read of
// the same object ended continues its stream; from its second read the stream's window is what it has read so far,
// up to readahead_mb; the pages from the read's end to the window's end, rounded down to whole RPCs (with stripes
// smaller than an RPC, to rows that end a unit in every object; never past the object's end, nor beyond the node's
// readahead_node_mb of pages in transit) are requested as read-ahead RPCs, queued
// behind the reads' own RPCs for the same OSC slots, into the node's read-ahead pages. A read of pages already
// requested (by any rank of the node) waits only for those still in transit; a read elsewhere starts a new stream.

bool ClientNode::reads_ahead(const OpRequest& op) const
{
  return op.op == Op::Read && op.object_end > 0 && op.bytes > 0 && ctx_.platform.clients.readahead_B > 0;
}

void ClientNode::read_ahead_start(uint32_t r)
{
  auto& s = ranks_[r];
  const uint64_t begin = s.next_off, end = s.end_off;
  if (s.ra_object != s.op.object || begin != s.ra_next) {  // a new stream
    s.ra_object = s.op.object;
    s.ra_start = begin;
    s.ra_reads = 0;
    s.ra_end = end;
  } else {
    s.ra_reads++;
  }
  s.ra_read = begin;
  s.ra_next = end;
  s.ra_end = std::max(s.ra_end, end);
  // The pages of the node's read-ahead that continue from the read's start: read from there (waiting for those in
  // transit), the rest cut into the read's own RPCs.
  auto obj = ra_pages_.find(s.op.object);
  if (obj == ra_pages_.end())
    return;
  auto& pieces = obj->second;
  auto it = pieces.upper_bound(begin);
  if (it == pieces.begin())
    return;
  --it;
  uint64_t pos = begin;
  const uint64_t writes = writes_of(s.op.object);
  while (it != pieces.end() && it->first <= pos && pos < end) {
    RaPiece& p = it->second;
    if (p.end <= pos)
      break;
    if (p.writes != writes) {
      // A write of the file began since these pages were requested: its lock revoked them (helper-92: they served a
      // read of bytes another node had written since). Arrived, they go; in transit, they go when they arrive. The
      // read reads from here with its own RPCs.
      if (p.in_transit == nullptr)
        ra_drop(pieces, it);
      else if (p.waiters.empty())
        p.read_out = true;
      break;
    }
    if (p.in_transit != nullptr) {
      p.waiters.push_back(r);
      s.ra_waiting++;
    }
    pos = p.end;
    auto next = std::next(it);
    if (p.end <= end) {  // read to its end: its pages leave the read-ahead
      if (p.in_transit != nullptr)
        p.read_out = true;
      else
        ra_drop(pieces, it);
    }
    it = next;
  }
  if (pieces.empty())
    ra_pages_.erase(obj);
  s.next_off = std::min(pos, end);
  s.ra_served = pos >= end;
  if (pos > begin) {  // the read found pages read ahead
    ctx_.records.readahead_reads++;
    ctx_.records.readahead_read_B += static_cast<double>(std::min(pos, end) - begin);
  }
}

// An arrived piece leaves the read-ahead (the object's map stays, possibly empty: the caller erases it).
void ClientNode::ra_drop(std::map<uint64_t, RaPiece>& pieces, std::map<uint64_t, RaPiece>::iterator it)
{
  ra_arrived_B_ -= static_cast<double>(it->second.end - it->first);
  pieces.erase(it);
}

void ClientNode::read_ahead_issue(uint32_t r)
{
  auto& s = ranks_[r];
  if (s.ra_reads == 0)
    return;  // the stream's first read: not yet sequential
  const auto& c = ctx_.platform.clients;
  const auto rpc = static_cast<uint64_t>(c.max_pages_per_rpc) * 4096;
  // The window: what the stream has read so far (it doubles as the stream goes on, as Linux's and Lustre's windows
  // grow with the hits), up to readahead_mb. (One RPC more per read, whatever the read's size, read a stream of 64 KiB
  // reads far past its block: IOR -b 1m of a shared file read 16 x its bytes from the OSTs, helper-67.) With
  // readahead_window "lustre" it ends at most readahead_mb past where the read began, as llite's: a stream's pages in
  // transit, its read's included, are at most readahead_mb. (Until helper-115 a stream held its read and a whole
  // window, "linux": with readahead_node_mb = ranks x readahead_mb some streams got one RPC at a time and
  // router-bound reads of 4 MiB ran at 85% of the bound, 97% now: datapath_test.)
  const double window = std::min(c.readahead_B, static_cast<double>(s.ra_next - s.ra_start));
  const uint64_t most =
      c.readahead_window == "lustre" ? s.ra_read + static_cast<uint64_t>(c.readahead_B) : UINT64_MAX;
  // The window ends at an RPC multiple (read-ahead RPCs are whole ones, as Lustre's), or at the object's end.
  uint64_t limit = std::min(s.ra_next + static_cast<uint64_t>(window), most) / rpc * rpc;
  const bool split = objects_split();
  if (split) {
    // With stripes smaller than an RPC, at a file offset where every object's RPC-size unit ends (rows of stripes
    // that hold whole units: lcm(stripe, RPC) x stripe_count), once the window holds such a row (it stays at least
    // the window less a row ahead of the reads), so that read-ahead RPCs are whole object units (a window moving
    // 1 MiB per read gave each object 256 KiB pieces of its units, never a whole one). The window is taken in file
    // offsets first, as far as the node's read-ahead in transit allows, cut at such a row too (Lustre reserves the
    // window's pages, ll_ra_count_get, trimmed to an RPC boundary, then the osc builds each object's RPCs from them;
    // helper-89: cut at any page, with readahead_node_mb = readahead_mb, 64 KiB stripes read at 562 MiB/s where
    // 1 MiB stripes read at 944), so that a stream's pages are requested without holes.
    const auto stripe = static_cast<uint64_t>(ctx_.platform.oss.stripe_size_B);
    const uint64_t row = std::lcm(stripe, rpc) * static_cast<uint64_t>(ctx_.platform.oss.stripe_count);
    const auto room = static_cast<uint64_t>(std::max(0.0, c.readahead_node_B - ra_in_transit_B_));
    if (window >= static_cast<double>(row)) {
      limit = std::max(s.ra_end, std::min(s.ra_next + static_cast<uint64_t>(window), most) / row * row);
      limit = std::min(limit, std::max(s.ra_end, (s.ra_end + room) / row * row));
    } else {
      limit = std::min(limit, std::max(s.ra_end, s.ra_end + room));
    }
  }
  if (limit >= s.op.object_end)
    limit = s.op.object_end;
  limit = before_dirty(s.op.object, s.ra_end, limit);
  auto& pieces = ra_pages_[s.op.object];
  while (s.ra_end < limit) {
    // Pages another rank of the node already requested are not requested again.
    auto it = pieces.upper_bound(s.ra_end);
    if (it != pieces.begin() && std::prev(it)->second.end > s.ra_end) {
      s.ra_end = std::prev(it)->second.end;
      continue;
    }
    uint64_t end = std::min(limit, rpc_unit(s.ra_end).second);
    if (it != pieces.end())
      end = std::min(end, it->first);
    double bytes = static_cast<double>(end - s.ra_end);
    if (!split && ra_in_transit_B_ + bytes > c.readahead_node_B)
      break;  // the node's read-ahead is all in transit
    // With stripes smaller than an RPC, the RPC goes on in its object: the same OST's next stripes of the window
    // (contiguous in the object), up to the object's RPC-size unit, each a piece of its own in file offsets, until a
    // page already requested (ra_object_pieces). (The window's end above keeps them within the node's read-ahead.)
    std::vector<std::pair<uint64_t, uint64_t>> more;
    if (split) {
      const auto stripe = static_cast<uint64_t>(ctx_.platform.oss.stripe_size_B);
      const uint64_t j = stripe_index(s.ra_end);
      uint64_t o = obj_offset(s.ra_end) + (end - s.ra_end);
      const uint64_t stop = std::min(obj_unit(obj_offset(s.ra_end)).second, obj_bytes_before(j, limit));
      while (end % stripe == 0 && o < stop && o % stripe == 0) {
        const uint64_t fb = file_offset(j, o);
        uint64_t fe = fb + std::min(stop - o, stripe);
        auto at = pieces.upper_bound(fb);
        if (at != pieces.begin() && std::prev(at)->second.end > fb)
          break;
        if (at != pieces.end() && at->first < fe)
          fe = at->first;
        more.emplace_back(fb, fe);
        bytes += static_cast<double>(fe - fb);
        o += fe - fb;
      }
    }
    const size_t t = stripe_target(s.op, s.ra_end);
    auto* q = new_request(r, t, s.ra_end, bytes);
    q->chunk = true;
    q->prefetch = true;
    const uint64_t writes = ctx_.file_writes[s.op.object];  // (counted from now on: a write revokes the pages)
    pieces.emplace(s.ra_end, RaPiece{end, q, false, r, {}, writes});
    ra_order_.emplace_back(s.op.object, s.ra_end);
    for (const auto& [fb, fe] : more) {
      pieces.emplace(fb, RaPiece{fe, q, false, r, {}, writes});
      ra_order_.emplace_back(s.op.object, fb);
    }
    ra_in_transit_B_ += bytes;
    s.ra_end = end;
    chunks_pending_++;
    chunk_queue_[t].get().push(waiting_order_++, q);
    hand_slots(t);
  }
  if (pieces.empty())
    ra_pages_.erase(s.op.object);
  // Arrived pages nobody reads (past a rank's block, a stream that ended) are dropped, oldest first, once the arrived
  // pages exceed every rank's window plus the node's read-ahead (the page cache's LRU, with room for what the ranks'
  // streams still read); a piece still ahead of the stream that requested it is kept.
  const double bound = static_cast<double>(ranks_.size()) * c.readahead_B + c.readahead_node_B;
  for (size_t n = ra_order_.size(); n > 0 && ra_arrived_B_ > bound; --n) {
    const auto [object, start] = ra_order_.front();
    ra_order_.pop_front();
    auto obj = ra_pages_.find(object);
    if (obj == ra_pages_.end())
      continue;
    auto it = obj->second.find(start);
    if (it == obj->second.end())
      continue;  // read out already
    const RaPiece& p = it->second;
    const auto& owner = ranks_[p.rank];
    if (p.in_transit != nullptr || (owner.ra_object == object && start >= owner.ra_next)) {
      ra_order_.emplace_back(object, start);  // in transit, or ahead of its stream: kept
      continue;
    }
    ra_drop(obj->second, it);
    if (obj->second.empty())
      ra_pages_.erase(obj);
  }
  while (!ra_order_.empty()) {  // entries of pieces already read out
    const auto [object, start] = ra_order_.front();
    auto obj = ra_pages_.find(object);
    if (obj != ra_pages_.end() && obj->second.count(start) > 0)
      break;
    ra_order_.pop_front();
  }
}

// The file offsets where a read-ahead RPC's pieces start: one piece, or with stripes smaller than an RPC one per
// stripe of its object range (read_ahead_issue), the first where the RPC starts.
std::vector<uint64_t> ClientNode::ra_object_pieces(const Request* q) const
{
  std::vector<uint64_t> starts{q->offset};
  if (!objects_split())
    return starts;
  const auto stripe = static_cast<uint64_t>(ctx_.platform.oss.stripe_size_B);
  const uint64_t j = stripe_index(q->offset);
  const uint64_t end = q->obj_off + static_cast<uint64_t>(q->bytes);
  for (uint64_t o = (q->obj_off / stripe + 1) * stripe; o < end; o += stripe)
    starts.push_back(file_offset(j, o));
  return starts;
}

void ClientNode::read_ahead_reply(Request* q)
{
  chunks_pending_--;
  ra_in_transit_B_ -= q->bytes;
  auto obj = ra_pages_.find(q->object);
  std::vector<uint32_t> waiters;
  for (const uint64_t start : ra_object_pieces(q)) {
    auto it = obj->second.find(start);
    RaPiece& p = it->second;
    p.in_transit = nullptr;
    ra_arrived_B_ += static_cast<double>(p.end - start);
    waiters.insert(waiters.end(), p.waiters.begin(), p.waiters.end());
    p.waiters.clear();
    if (p.read_out)
      ra_drop(obj->second, it);
  }
  if (obj->second.empty())
    ra_pages_.erase(obj);
  delete q;
  for (uint32_t w : waiters) {
    ranks_[w].ra_waiting--;
    send_chunks(w);  // its read may be complete
  }
}

void ClientNode::read_ahead_drop_all()
{
  for (auto& r : ranks_)
    r.ra_object = UINT64_MAX;
  for (auto obj = ra_pages_.begin(); obj != ra_pages_.end();) {
    for (auto it = obj->second.begin(); it != obj->second.end();) {
      if (it->second.in_transit != nullptr) {
        it->second.read_out = true;  // (no read waits at a phase's start)
        ++it;
      } else {
        auto next = std::next(it);
        ra_drop(obj->second, it);
        it = next;
      }
    }
    obj = obj->second.empty() ? ra_pages_.erase(obj) : std::next(obj);
  }
}

bool ClientNode::read_ahead_dropped(Request* q)
{
  auto obj = ra_pages_.find(q->object);
  const std::vector<uint64_t> starts = ra_object_pieces(q);
  for (const uint64_t start : starts) {
    const RaPiece& p = obj->second.at(start);
    if (!p.read_out || !p.waiters.empty())
      return false;
  }
  chunks_pending_--;
  ra_in_transit_B_ -= q->bytes;
  for (const uint64_t start : starts)
    obj->second.erase(start);  // never arrived: not in ra_arrived_B_
  if (obj->second.empty())
    ra_pages_.erase(obj);
  delete q;
  return true;
}

}  // namespace pfsim
