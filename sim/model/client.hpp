// Client nodes. One actor per client node drives all of its ranks as an event loop (a rank is a small
// state record, not an actor), so 100,000 ranks need only ranks/ranks_per_node actors. Each node keeps
// Lustre's per-node RPC limits: max_rpcs_in_flight and max_mod_rpcs_in_flight (the mdc rpc_lock).
#pragma once
#include "config/platform_config.hpp"
#include "model/rpc.hpp"
#include "model/servers.hpp"
#include "report/records.hpp"
#include "workload/workload.hpp"

#include <simgrid/s4u.hpp>

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <map>
#include <queue>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace pfsim {

class ClientNode;

// State shared by the node actors of one run: servers, routes, and the inter-phase barrier.
struct RunContext {
  const config::PlatformConfig& platform;
  const Workload& workload;
  RunRecords& records;
  std::vector<simgrid::s4u::Host*> node_hosts;
  std::vector<simgrid::s4u::Host*> mds_hosts;
  std::vector<simgrid::s4u::Host*> oss_hosts;
  std::vector<MdsServer*> mds;
  std::vector<OssServer*> oss;
  ReplyRoute route;
  int ranks_per_node = 1;
  int arrived = 0;  // nodes done with the current phase
  int active_ranks = 0;  // ranks still in the current phase (the population of clients.load_delay)
  int md_ops_in_flight = 0;  // the tool's metadata operations the ranks have in flight (OpRequest::metadata)
  uint64_t seed = 0;
  std::string abort_reason;  // set by an actor that stops the run (all actors killed); run_simulation throws it
  int started_phase = -1;    // the last phase a node has begun (its record's start_s is set)
  // Where requests go, per target (the MDSes, then the OSSes): a mailbox on the server's host (simulation.cpp's
  // doors). A request's transfer is a put to it from the node (see ClientNode::transmit).
  std::vector<simgrid::s4u::Mailbox*> doors;
  // clients.hold_partial_rpcs: files unlinked (and not created again since). The OST's destroy cancels every node's
  // extent locks with LDLM_FL_DISCARD_DATA: another node's held pages of such a file are dropped when they would go
  // (ClientNode::release_units), not written. (The unlinking node drops its own at once: discard_held.)
  std::unordered_set<uint64_t> unlinked;
  // Per object, the client nodes with pieces of it in their write-back cache: an unlinked object is kept in
  // `unlinked` only while some node holds pieces of it (bounded by the caches, not by the files a run removes).
  std::unordered_map<uint64_t, uint32_t> holders;
  // Every client node (index = node), and where a rank runs (clients.placement): a reader's node asks the writer's
  // node to write back its dirty pages of the object before the read (ClientNode::begin_op).
  std::vector<ClientNode*> nodes;
  bool cyclic = false;
  int node_of(int rank) const
  {
    return node_of_rank(rank, static_cast<int>(nodes.size()), ranks_per_node, cyclic);
  }
  // Per file of known size (OpRequest::object_end > 0) that some rank has fetched pages of, the writes begun since:
  // a rank's pages fetched by a read (RankState::tail_*) serve its later reads only while no write of the file has
  // begun since (any node's: its write lock revokes the reader's read lock and its pages, helper-89).
  std::unordered_map<uint64_t, uint64_t> file_writes;
  // clients.shared_file_writes "sync": per file written in the run (and not unlinked or created again since), the one node that has
  // written it, or -1 once ranks of two or more nodes have: its writes are then synchronous (no write-back cache).
  std::unordered_map<uint64_t, int32_t> file_writer;
  bool sync_shared_writes = false;
  // Entries each directory's readdirs have listed so far (their replies arrived): a stat the listing node answers
  // from the attributes (clients.readdir_attributes) waits until its entry is among them (OpRequest::position).
  std::unordered_map<uint32_t, uint64_t> listed_entries;
  // Registers `node` as a writer of `object`; says whether the object now has writers on two or more nodes.
  bool written_from_nodes(uint64_t object, int node)
  {
    auto [it, fresh] = file_writer.emplace(object, node);
    if (!fresh && it->second != node)
      it->second = -1;
    return it->second < 0;
  }
  bool shared_written(uint64_t object) const
  {
    auto it = file_writer.find(object);
    return it != file_writer.end() && it->second < 0;
  }

  // Called by a node whose ranks all finished `phase`; the last one releases everybody.
  void arrive(int phase);
  // A collective inside the phase (OpRequest::barrier, a stonewall's wear-out): the ranks that have reached it so far,
  // and the most data steps those of a wear-out had done. The last rank to reach it releases every node.
  int collective_arrived = 0;
  uint64_t collective_max = 0;
  // Per operation whose clients.load_delay law states a fitted_size: the calls the law delayed, and those of a size
  // outside its fitted range (LoadDelayLaw::size_outside_fit) with the smallest and largest of their sizes, for the
  // run's one warning (run_simulation). Counted only: the delay is the law's as fitted whatever the size.
  struct LawSizes {
    uint64_t delayed = 0;
    uint64_t outside = 0;
    double min_B = 0;
    double max_B = 0;
  };
  PerOp<LawSizes> law_sizes{};
};

class ClientNode {
public:
  // Pieces of `object` in this node's write-back cache (held, queued or in flight; clients.hold_partial_rpcs).
  uint32_t dirty_pieces_of(uint64_t object) const
  {
    auto it = dirty_pieces_.find(object);
    return it == dirty_pieces_.end() ? 0 : static_cast<uint32_t>(it->second.size());
  }
  // The node's ranks are first_rank, first_rank + stride, ... (ranks of them): stride 1 for a block placement,
  // the node count for a cyclic one (clients.placement).
  ClientNode(RunContext& ctx, int node, int first_rank, int stride, int ranks);
  void operator()();

private:
  // Start: a think time ended (only with a metadata-operations-in-flight load law; see start_op).
  // DataDone: a read or write cut into bulk RPCs is over (its last RPC answered, or its pages in the cache).
  // BulkSent: a bulk write's bytes have left the node on its connection to a server (Timer::rank holds the target):
  // the next one may start.
  // Expire: held dirty pages (clients.hold_partial_rpcs) may have been dirty for dirty_expire (expiries_).
  enum class TimerKind : unsigned char { Ready, Complete, Timeout, Resend, Start, DataDone, BulkSent, Expire, FsyncDone,
                                         Synced };
  struct Timer {
    double t;
    uint32_t rank;
    TimerKind kind;
    uint64_t seq;
    // Timers of one instant fire least-served rank first (seq counts a rank's RPCs): the rank that then finds
    // every slot taken is the one that has sent the most. Ordering ties by rank number instead left the same
    // high-numbered ranks waiting at every round of a deterministic closed loop (8 ranks, 7 modifying slots:
    // ranks 6 and 7 took turns waiting while ranks 1-5 never did, and mdtest's phase rate, set by the slowest
    // rank, was 6/RTT instead of 7/RTT).
    bool operator>(const Timer& o) const
    {
      if (t != o.t)
        return t > o.t;
      if (seq != o.seq)
        return seq > o.seq;
      return rank > o.rank;
    }
  };
  struct RankState {
    RankCursor cursor;
    OpRequest op;
    double op_start_s = 0;
    bool in_item = false;       // a tool operation (item) is in progress
    double item_runtime_s = 0;  // its steps' runtimes so far (think times between steps excluded)
    Request* outstanding = nullptr;
    uint64_t seq = 0;
    uint64_t data_rpcs = 0;  // its data RPCs cut so far (Request::data_seq)
    bool in_md_op = false;  // counted in RunContext::md_ops_in_flight
    double local_ready_s = 0;  // a stat the client answers: when its client time is over (it may wait for the listing)
    bool lock_wait = false;  // its read waits for dirty pages of the object to be written back (FlushAsk)
    bool sync_write = false;  // its write goes synchronously (clients.shared_file_writes "sync"): no write-back cache
    bool lock_granted = false;  // ... and they were: the read goes (not waiting again for pages written since)
    uint8_t lock_pending = 0;   // its node's and the writer's node's write-backs it still waits for
    // The data path: the current operation goes as bulk RPCs (chunked); its RPCs not yet answered (write-through,
    // read) or not yet in the cache (write-back); the rank's written RPCs still in the cache (an fsync waits for
    // them); whether its current step waits for that (flushing); when the copy into the cache can end.
    bool chunked = false;
    uint64_t next_off = 0;    // where the next RPC of the current read or write starts
    uint64_t end_off = 0;     // where it ends
    uint32_t chunks_out = 0;  // its RPCs cut and not yet answered (in the cache: not yet entered)
    uint32_t dirty_chunks = 0;
    bool flushing = false;
    bool barrier_after_flush = false;  // flushing before the step's barrier (IOR -g -e), then joins it
    double copy_done_s = 0;
    bool cache_read = false;  // the current step is a read the node's page cache serves (decided in begin_op)
    // Read-ahead (clients.readahead_mb): the rank's stream of sequential reads of ra_object: where it began
    // (ra_start), where its current read began (ra_read: with readahead_window "lustre" its window ends at most
    // readahead_mb past it) and where its next read continues (ra_next), how far it has requested pages ahead
    // (ra_end), its sequential reads so far (ra_reads); the read-ahead RPCs the current read waits for (ra_waiting);
    // whether the read needs no RPC of its own (ra_served).
    uint64_t ra_object = UINT64_MAX;
    uint64_t ra_start = 0;
    uint64_t ra_read = 0;
    uint64_t ra_next = 0;
    uint64_t ra_end = 0;
    uint32_t ra_reads = 0;
    uint32_t ra_waiting = 0;
    bool ra_served = false;
    // A read, or a write not into the cache, whose object's RPC-size units span several stripes (stripe_size not a
    // multiple of the RPC size, several stripes): the next object offset to send and the end, per stripe index of the
    // file (index k mod stripe_count), so that an RPC takes an object's contiguous bytes up to its unit's end
    // (objects_split). Empty otherwise.
    std::vector<uint64_t> obj_next;
    std::vector<uint64_t> obj_stop;
    // The pages its last read fetched from the OSTs (a read moves whole pages: [tail_begin, tail_end) of tail_object,
    // page-aligned, up to the file's end), in the node's page cache: a later read they cover is a copy (tail_covers).
    // Forgotten at a phase's start, and no longer valid once a write of the file begins (any node's: tail_valid).
    uint64_t tail_object = UINT64_MAX;
    uint64_t tail_begin = 0;
    uint64_t tail_end = 0;
    uint64_t tail_writes = 0;  // RunContext::file_writes of the object when they were fetched
    uint64_t fetch_begin = 0;  // the current read's pages to fetch (fetch_range), set when it is sent
    uint64_t fetch_end = 0;
    // Stonewalling (PhaseStonewall): the rank's data steps done in the phase and their bytes, when its first one began,
    // whether one just completed (the deadline is checked before the next step), whether its stop may still move
    // (until a wear-out's allreduce sets it); the collective it waits at (0 none, 1 a barrier before its fetched step,
    // 2 a wear-out's allreduce before its next step is fetched).
    // With PhaseStonewall::per_item, `pairs` counts its items, and sw_item says that an item has begun and is not yet
    // counted. node_sync: its steps are done and it waits until the node's cache is clean
    // (Workload::phase_ends_with_sync).
    uint64_t pairs = 0;
    double pair_B = 0;
    double sw_start_s = -1;
    bool sw_check = false;
    bool sw_running = false;
    bool sw_item = false;
    bool node_sync = false;
    uint8_t parked = 0;
  };

  void begin_phase(int phase);
  void start_op(uint32_t r);
  void launch_op(uint32_t r);  // the fetched step begins (after a barrier it waited at): its think time, then begin_op
  // Stonewalling (Workload::stonewall) and collectives inside a phase: rank r reaches a collective (wear_out: the
  // allreduce of its pairs before it goes on to the most any rank did; else a barrier before its fetched step) and
  // waits; every node's waiting ranks go on when the last rank of the run has reached it (CollectiveRelease).
  void join_collective(uint32_t r, bool wear_out);
  void release_parked(uint64_t max_pairs);
  // Rank r has done its steps of the phase (its stonewall count recorded); with the phase's sync it waits for the
  // node's dirty pages first (sync_over), then counts as done (rank_done: the node arrives at the barrier after its
  // last rank).
  void steps_over(uint32_t r);
  void rank_done();
  void sync_over();  // the node's cache is clean: the ranks waiting in their sync go on
  uint64_t pair_limit(int rank) const;  // the phase's pair limit for `rank` (PhaseStonewall::limit, limit_phase)
  void begin_op(uint32_t r);  // the operation starts (its think time is over): delay center, then send
  void try_send(uint32_t r);
  bool slot_free(const RankState& s) const;
  void send(uint32_t r);
  // A request for rank r's current operation to `target`, moving `bytes` at `offset` of its object.
  Request* new_request(uint32_t r, size_t target, uint64_t offset, double bytes);
  void transmit(Request* q);
  void put(Request* q);  // the request's transfer to its server's door starts now
  void on_reply(Request* q);
  void complete(uint32_t r);
  // The operation of rank r is over: its latency recorded (complete() for a single RPC, DataDone for bulk RPCs).
  void record_completion(uint32_t r);
  void hand_slots(size_t target);  // freed slots of `target` to its waiting chunks and ranks
  // The data path (clients.max_pages_per_rpc, max_dirty_mb; oss.stripe_size, stripe_count).
  bool goes_chunked(const RankState& s) const;
  bool into_cache(const RankState& s) const;  // a write into the write-back cache (max_dirty_mb, not synchronous)
  bool reads_ahead(const OpRequest& op) const;  // a read of an object of known size with clients.readahead_mb
  void send_chunks(uint32_t r);
  void admit_to_cache(size_t target);
  void on_chunk_reply(Request* q);
  void resume_ranks();
  // Read-ahead: the current read's part already requested ahead (its RPCs awaited), and the pages ahead of it.
  void read_ahead_start(uint32_t r);
  void read_ahead_issue(uint32_t r);
  void read_ahead_reply(Request* q);
  // A phase begins: the read-ahead streams end and the pages read ahead go (a phase may rewrite them: IOR's next
  // repetition); read-ahead RPCs not yet sent are not sent (hand_slots), those in transit are dropped on arrival.
  void read_ahead_drop_all();
  bool read_ahead_dropped(Request* q);  // a queued read-ahead RPC nobody will read: discarded, not sent
  // The node's pages read ahead (its page cache: any rank's read finds them), per object by offset: each read-ahead
  // RPC's range, in transit (its RPC) or arrived, and the ranks whose read waits for it. Pages read to a piece's
  // end leave it; pieces nobody reads are dropped oldest first beyond a bound (ra_order_: the order requested).
  struct RaPiece {
    uint64_t end = 0;
    Request* in_transit = nullptr;
    bool read_out = false;  // read to its end (or its phase over) while in transit: dropped when it arrives
    uint32_t rank = 0;      // whose stream requested it (not dropped while ahead of that stream)
    std::vector<uint32_t> waiters;
    uint64_t writes = 0;    // RunContext::file_writes of the file when it was requested: a write since revokes it
  };
  std::unordered_map<uint64_t, std::map<uint64_t, RaPiece>> ra_pages_;
  std::deque<std::pair<uint64_t, uint64_t>> ra_order_;  // (object, start)
  double ra_arrived_B_ = 0;  // pages read ahead, arrived and not yet read
  double ra_in_transit_B_ = 0;  // read-ahead pages in transit (Lustre's ra_cur_pages; clients.readahead_node_mb)
  void ra_drop(std::map<uint64_t, RaPiece>& pieces, std::map<uint64_t, RaPiece>::iterator it);
  std::vector<uint64_t> ra_object_pieces(const Request* q) const;
  void rewritten(double bytes, bool whole = true);
  // Reads of files of known size move whole pages (Lustre reads through the page cache): the pages of the current read
  // not in the rank's tail (fetch_begin/end), and whether the tail holds the whole read.
  bool fetch_range(RankState& s) const;  // true: a read of whole pages (its RPC moves fetch_end - fetch_begin)
  uint64_t writes_of(uint64_t object) const;  // RunContext::file_writes of the object (0: none counted)
  bool tail_valid(const RankState& s) const;
  bool tail_covers(const RankState& s) const;

  // The outstanding copy a timer was set for, or nullptr if that copy was completed or replaced since.
  Request* current(const Timer& t) const;
  void on_timeout(uint32_t r);
  void handle(NodeMessage* msg);
  void fire_timers();
  void take(size_t i);
  void post_receive();  // one more receive on the node's mailbox (see waited_)
  struct ChunkQueue;
  void merge_queued(Request* q, ChunkQueue& queue);  // cached pieces queued behind q that join its RPC
  // The RPC-size unit an offset lies in, [start, end), in file offsets: max_pages_per_rpc pages from a multiple of
  // that size in the OST's object (obj_unit), cut at the stripe's end when the file has several (one object's offsets
  // are the file's with one stripe). Reads and writes are cut into RPCs at these bounds; cached pieces then merge, and
  // partial ones are held, in the object's units (obj_unit), which one piece never straddles.
  std::pair<uint64_t, uint64_t> rpc_unit(uint64_t offset) const;
  // `self_in_md_op`: the rank's own metadata operation is in flight (a later step of it), not counted as another's.
  double load_delay(const OpRequest& op, int rank, bool self_in_md_op);

  RunContext& ctx_;
  int node_;
  int first_rank_;
  int stride_;
  int rank_of(uint32_t r) const { return first_rank_ + static_cast<int>(r) * stride_; }  // global rank
  std::vector<RankState> ranks_;
  simgrid::s4u::Host* host_ = nullptr;
  simgrid::s4u::Mailbox* mailbox_ = nullptr;
  std::priority_queue<Timer, std::vector<Timer>, std::greater<>> timers_;
  // What the node waits for: receives posted on its mailbox and its requests in transit, comm wait_set_[i] being
  // waited_[i]. Kept up to date as comms start and end rather than rebuilt at every wake-up (a reference count
  // taken and dropped per comm per event).
  // Receives: one more than the bulk replies (reads' data) the node expects: one posted with each read RPC sent,
  // and one for everything else (the small replies and barrier releases, taken in the order they were sent). So a
  // reply never waits behind a bulk reply still in transit: bulk replies in transit are at most the reads
  // outstanding, and each holds a receive of its own. With a single receive, SimGrid hands it the oldest message
  // put there, which may still be in transit: a stat's reply waited behind another rank's bulk read reply (20 ms in
  // sim/model/network_test.cpp). Small replies keep the one receive: a receive per reply doubled the node's wait
  // set and cost metabench at 8192 ranks 26% more wall time, for replies of one size that end in send order anyway.
  struct Waited {
    Request* request;  // a request in transit to its server's door; nullptr for a receive
    std::unique_ptr<NodeMessage*> received;  // a receive's message, once it has ended
    bool notice = false;  // a message to another node (FlushAsk, FlushDone) in transit: nothing to do when it ends
  };
  void send_notice(int node, NodeMessage* m);
  // Dirty pieces per object (dirty_pieces_of; each with its span in the file as it entered the cache,
  // Request::dirty_begin/end, and its index here, dirty_slot: a read they cover is a copy from the node's page cache,
  // whether they are held, queued for an RPC or in one, dirty_covers), and who waits for an object's to be written:
  // ranks of this node reading it, other nodes' readers (FlushAsk); woken when the object's last piece leaves the cache
  // (forget_dirty). (a read waits only for the pieces that entered the cache before it asked, by Request::dirty_id,
  // not for the ones a writer goes on adding, which would hold it until dirty_expire: a waiter counts those down)
  std::unordered_map<uint64_t, std::vector<Request*>> dirty_pieces_;
  uint64_t dirty_ids_ = 0;
  struct FlushWaiter {
    uint32_t node, rank;
    uint64_t seq;
    uint64_t before;     // the pieces it waits for: the object's with dirty_id <= before
    uint32_t remaining;  // how many of them are still in the cache
    uint64_t begin = 0, end = UINT64_MAX;  // and that overlap these file bytes (this node's read: the bytes it reads)
  };
  // A read waits for the object's pieces now in the cache that overlap [begin, end) (another node's read: all of them).
  void wait_for_pieces(uint64_t object, uint32_t node, uint32_t rank, uint64_t seq, uint64_t begin = 0,
                       uint64_t end = UINT64_MAX);
  static bool overlaps(const Request* p, uint64_t begin, uint64_t end)
  {
    return p->dirty_end > begin && p->dirty_begin < end;
  }
  void lock_answered(uint32_t r, uint64_t seq);  // one of the rank's write-back waits is over
  void fsync_over(uint32_t r);  // a rank's fsync whose last dirty piece left the cache goes on
  std::unordered_map<uint64_t, std::vector<FlushWaiter>> flush_waiters_;
  // Ranks whose stat the client answers once its entry is listed (RunContext::listed_entries), per directory.
  std::unordered_map<uint32_t, std::vector<uint32_t>> listing_waiters_;
  void answer_listed_stat(uint32_t r);
  bool wait_for_writeback(uint32_t r);  // a read of dirty pages: written back first (true: the rank waits)
  std::vector<simgrid::s4u::CommPtr> wait_set_;
  std::vector<Waited> waited_;
  size_t receives_posted_ = 0;
  size_t bulk_replies_expected_ = 0;  // read RPCs transmitted whose reply has not been received
  // RPCs in flight per target, as Lustre counts them per MDC / OSC (one per client and MDT / OST): index
  // target_of(op), metadata targets first (the MDSes), then the data targets (the OSSes).
  // A data RPC's: the file's first OST (its object's OSS, oss.placement); target_of(op) the OST of op's stripe.
  size_t target_of(Op op, uint32_t dir, uint64_t object) const;
  size_t target_of(const OpRequest& op) const;
  size_t stripe_target(const OpRequest& op, uint64_t offset) const;  // the OST of op's file at `offset`
  static uint64_t length_of(const OpRequest& op);  // a read's or write's bytes, at least 1
  void data_ended(uint32_t r, double now);  // a transfer (or an fsync) of rank r ended: IOR's wr/rd and latency ends
  int rpc_limit(size_t target) const;  // max_rpcs_in_flight (an MDS) or osc_max_rpcs_in_flight (an OST)
  std::vector<int> in_flight_per_target_;
  std::vector<int> mod_in_flight_per_target_;  // modifying metadata RPCs (max_mod_rpcs_in_flight), MDS only
  std::vector<int> close_in_flight_per_target_;  // closes (clients.close_rpcs), MDS only
  // Bulk RPCs per target waiting for a max_rpcs_in_flight slot (FIFO), and the write-back cache per target: bytes
  // in it, and write RPCs waiting to enter it (FIFO, as osc_enter_cache).
  struct QueuedChunk {
    uint64_t order;  // arrival order, shared with waiting_ (hand_slots serves the earliest)
    Request* request;
  };
  // A queue per target made on first use (an empty std::deque allocates ~600 bytes: a node of 1,000 client nodes x
  // 65 targets x 6 queues held 230 MB of empty queues).
  template <class Q> struct Lazy {
    std::unique_ptr<Q> q;
    Q& get()
    {
      if (!q)
        q = std::make_unique<Q>();
      return *q;
    }
  };
  // A target's queue of bulk RPCs, with its cached pieces indexed by (object, offset), so that a freed slot builds
  // a full RPC from the pieces that continue the head's object wherever they are queued (ClientNode::merge_queued).
  // A piece merged out of the middle leaves an empty entry (request nullptr), dropped when it reaches the front
  // (std::deque keeps references to its other elements valid through push_back and pop_front).
  struct ChunkQueue {
    struct Key {
      uint64_t object;
      uint64_t offset;
      bool operator==(const Key& o) const { return object == o.object && offset == o.offset; }
    };
    struct KeyHash {
      size_t operator()(const Key& k) const { return std::hash<uint64_t>()(k.object * 0x9E3779B97F4A7C15ULL ^ k.offset); }
    };
    std::deque<QueuedChunk> q;
    // Every queued cached piece by where it starts (two ranks may write the same place: several entries).
    using Index = std::unordered_multimap<Key, QueuedChunk*, KeyHash>;
    Index cached;
    void push(uint64_t order, Request* r);
    bool empty();                 // after dropping the emptied entries at the front
    const QueuedChunk& front() const { return q.front(); }  // only after !empty()
    Request* pop_front();
    Index::iterator earliest(uint64_t object, uint64_t offset);  // the first queued there, or cached.end()
    Request* take(Index::iterator it);                           // out of the queue (its entry emptied)
    Request* take_entry(QueuedChunk& entry);                     // a cached piece out of the queue, by its entry
  };
  std::vector<Lazy<ChunkQueue>> chunk_queue_;
  // One connection per server, as LNet has one per peer (socklnd's bulk socket, an RC queue pair): a node's bulk
  // writes to one target leave on it one after the other, in order, not side by side. Side by side, a window of W
  // RPCs all arrived together after W RPCs' transfer time and the disk waited for the last (write-through at 64 in
  // flight ran 15% below the disk's rate, and more RPCs in flight gave less bandwidth). The next one starts when
  // the previous one's bytes have left at the route's nominal bandwidth (the slowest of the client, router and server
  // links, each sending the writes that took a turn on it one after the other: reserve_bulk), not when it
  // arrives: the latencies overlap, as a stream's do. Requests without bulk data (metadata, reads) and the servers'
  // replies are not held by it.
  // Per target: when the connection is free (the last bulk write's bytes have left), and the writes waiting for it
  // (a timer, BulkSent, only when some wait: a write that finds the connection free leaves at once).
  std::vector<double> bulk_free_at_;
  std::vector<Lazy<std::deque<Request*>>> bulk_wait_;
  // A bulk write takes its turn on the links of its route (LinkTurns): returns when it begins.
  double reserve_bulk(double now, Request* q);
  // clients.max_cached_mb: the bytes this node's ranks have written in the run, and that count when each phase began
  // (grown as phases begin): a read of data written in phase p is served from the node's page cache while the node
  // has written at most max_cached_mb since p began (LRU has evicted nothing of p's then; a repetition that rewrites
  // the same file starts a new phase, so its pages replace the previous ones rather than add to them).
  // (The last kPhaseMarks phases' counts only, in a ring: a read of data written further back counts everything
  // the node wrote in the run, a miss unless it all fits; constant memory at mdtest -i 10000.)
  static constexpr int kPhaseMarks = 64;
  double written_B_ = 0;
  std::array<double, kPhaseMarks> written_at_phase_{};
  double written_since(int phase) const;
  bool cache_hit(const OpRequest& op) const;
  bool dirty_covers(const OpRequest& op) const;
  uint64_t before_dirty(uint64_t object, uint64_t begin, uint64_t limit) const;  // read-ahead stops at dirty pages
  static uint64_t union_length(std::vector<std::pair<uint64_t, uint64_t>>& spans);  // sorts them  // a read of pages the node holds dirty, all of them
  bool is_local_rank(int rank) const;
  void bulk_sent(size_t target);  // the connection to `target` is free: its next waiting write takes its turn
  std::vector<double> dirty_B_;
  std::vector<Lazy<std::deque<Request*>>> cache_wait_;
  // clients.hold_partial_rpcs: per target, the cached pieces that do not yet make a full RPC, by the RPC-size unit
  // (aligned in the OST's object: obj_unit) they lie in; a unit goes to chunk_queue_ when its pieces fill it, when writers wait
  // for that target's cache, when an fsync wants its object, or when its object's pages have been dirty for
  // dirty_expire (the kernel writes an expired inode back whole: every unit of the object).
  struct UnitKey {
    uint64_t object;
    uint64_t start;
    bool operator==(const UnitKey& o) const { return object == o.object && start == o.start; }
  };
  struct UnitKeyHash {
    size_t operator()(const UnitKey& k) const
    {
      return std::hash<uint64_t>()(k.object * 0x9E3779B97F4A7C15ULL ^ k.start);
    }
  };
  struct HeldUnit {
    double bytes = 0;    // its pieces' bytes
    double size = 0;     // a full RPC's there
    double since_s = 0;  // when its first piece entered
    uint64_t order = 0;  // and in which order (units are released in it: deterministic)
    uint64_t lo = UINT64_MAX, hi = 0;  // the span its pieces cover, gaps included (a piece outside rewrites none)
    std::vector<Request*> pieces;
  };
  using HeldUnits = std::unordered_map<UnitKey, HeldUnit, UnitKeyHash>;
  std::vector<Lazy<HeldUnits>> held_;
  struct Expiry {
    double t;
    size_t target;
    UnitKey unit;
  };
  std::deque<Expiry> expiries_;  // in time order (dirty_expire is one constant)
  double expire_armed_s_ = -1;   // when the pending Expire timer fires; -1: none
  size_t held_units_ = 0;
  // Indexes, so that a release looks up what it releases (a walk over every held unit per expiry was quadratic:
  // mdtest -w 3901, each small file its own unit, 91 s of CPU against 4 s): each object's held units, (target,
  // unit start); each rank's pieces in the cache per object, held or not (an fsync releases those objects' held
  // units, other ranks' pieces of a shared file too, even when the rank's own are already on their way).
  std::unordered_map<uint64_t, std::set<std::pair<size_t, uint64_t>>> held_by_object_;
  std::vector<std::unordered_map<uint64_t, uint32_t>> dirty_by_rank_;
  void hold(size_t t, Request* q);  // a piece entered t's cache
  uint64_t obj_offset(uint64_t offset) const;  // a file offset's place in its OST's object
  uint64_t stripe_index(uint64_t offset) const;  // its stripe's index in the file mod stripe_count
  // The bytes of stripe index j (stripes j, j + stripe_count, ...) before file offset f: where f lies, or the first of
  // that index's bytes after it, in that object.
  uint64_t obj_bytes_before(uint64_t j, uint64_t f) const;
  uint64_t file_offset(uint64_t j, uint64_t obj_off) const;  // obj_offset's inverse for stripe index j
  bool objects_split() const;  // the object's RPC-size units span stripes (several stripes, not a multiple in size)
  void split_by_object(RankState& s);  // fills obj_next/obj_stop for [next_off, end_off)
  std::pair<uint64_t, uint64_t> obj_unit(uint64_t obj_off) const;  // the RPC-size unit an object offset lies in
  void release_units(size_t t, std::vector<UnitKey> units);  // those units' pieces join t's chunk queue
  void release_objects(std::vector<uint64_t> objects);  // every held unit of those objects, every target
  void release_overlapping(uint64_t object, uint64_t begin, uint64_t end);  // its held units with pieces there
  void release_by_target(std::map<size_t, std::vector<UnitKey>>& by_target);
  void release_target(size_t t);  // everything held for t (writers wait for its cache; the run is over)
  void release_all();
  void release_flushed(uint32_t r);  // rank r's fsync: the objects it has pieces held of
  void discard_held(uint64_t object);  // the object was unlinked: its held pieces are dropped, never written
  void drop_queued(const uint64_t* object, std::set<size_t>& targets);
  void discard_all_cached();  // every file was removed (the job's end, IOR without -k): the cache's pieces dropped
  void drop_piece(size_t t, Request* p);  // a held piece of an unlinked file leaves the cache unwritten
  void on_expiry();
  void leave_cache(size_t t, const Request* p);  // a piece's bytes, RPC and rank's count leave the cache
  void forget_dirty(const Request* p);  // a piece left the cache (dirty_by_rank_)
  long long chunks_pending_ = 0;  // bulk RPCs of the node not yet answered (queued, waiting for cache, in flight)
  uint64_t dirty_chunks_ = 0;     // written pieces in the node's write-back cache (its ranks' dirty_chunks)
  std::deque<uint32_t> resumed_;  // ranks whose piece entered a cache: they cut their next one (resume_ranks)
  bool resuming_ = false;
  // Which per-node limit besides max_rpcs_in_flight an RPC of `op` takes (clients.open_rpcs, close_rpcs).
  enum class SlotKind : unsigned char { None, Modifying, CloseLock, ModifyingClose };
  static constexpr size_t kSlotKinds = 4;
  SlotKind slot_kind(Op op) const;
  void take_slot(Op op, size_t target, int by);  // by +1 when sent, -1 when completed
  SlotKind open_kind_;   // clients.open_rpcs
  SlotKind close_kind_;  // clients.close_rpcs
  // Ranks waiting for an RPC slot, FIFO, kept apart by target and slot kind: a completion frees a slot of its own
  // target only, and ranks of one target and kind are sendable alike, so it looks at the heads of its target's
  // queues instead of every waiting rank (an O(waiting) scan per completion with many ranks on one node).
  struct Waiting {
    uint64_t order;  // arrival order among all waiting ranks of the node
    uint32_t rank;
  };
  std::vector<Lazy<std::array<std::deque<Waiting>, kSlotKinds>>> waiting_;  // [target][SlotKind]
  uint64_t waiting_order_ = 0;
  bool place_by_node_ = false;                 // oss.placement "node"
  bool round_robin_ = false;                   // oss.placement "round_robin"
  int phase_ = 0;
  PhaseStonewall sw_;        // the current phase's stonewalling (Workload::stonewall)
  bool sw_active_ = false;
  bool phase_sync_ = false;  // the current phase ends with a sync (Workload::phase_ends_with_sync)
  int syncing_ = 0;          // ranks waiting in that sync for the node's dirty pages
  std::vector<uint32_t> parked_;  // ranks waiting at a collective (RankState::parked)
  int done_ranks_ = 0;
  bool finished_ = false;
  // Some load law counts the metadata operations in flight: an operation is counted, and its delay drawn, when
  // its think time ends rather than when the previous operation completes.
  bool md_population_ = false;
  uint64_t rng_state_ = 0;  // splitmix64, for the load-delay shape samples
};

}  // namespace pfsim
