// Messages between clients and servers.
#pragma once
#include "model/ops.hpp"

#include <cstdint>
#include <variant>

namespace pfsim {

struct Request {
  uint32_t node = 0;        // client node index
  uint32_t local_rank = 0;  // rank index within its node
  Op op = Op::Stat;
  uint32_t dir = 0;
  bool shared_dir = false;
  uint32_t entries = 0;     // a readdir's entries listed (mds.readdir_entry each)
  double bytes = 0;
  uint64_t object = 0;      // the object a data RPC moves (OSS placement)
  uint64_t offset = 0;      // where in it (its pages: LMT's RPC-size histogram)
  // where in its OST's object (the file's stripes on that OST follow each other there): the osc builds its RPCs from an
  // object's dirty pages, so cached pieces merge and fill RPC-size units in object offsets (ClientNode::obj_offset)
  uint64_t obj_off = 0;
  uint64_t dirty_id = 0;  // when it entered the write-back cache, in the node's order (a read waits for earlier ones)
  // Its span in the file as it entered the cache, and its place in the node's list of the object's dirty pieces
  // (ClientNode::dirty_pieces_, clients.hold_partial_rpcs): a read these spans cover is a copy.
  uint64_t dirty_begin = 0, dirty_end = 0;
  uint32_t dirty_slot = 0;
  double arrived_s = 0;     // arrival at the server
  uint64_t seq = 0;         // client-side sequence, to recognise replies to abandoned copies
  uint64_t data_seq = 0;    // a data RPC: the rank's data RPCs so far, this one included (an OSS's same-instant order)
  bool abandoned = false;   // the client gave up on this copy (timeout) and resent it
  bool replied = false;     // its reply has arrived (a timeout after this point changes nothing)
  uint32_t resends = 0;     // copies of this operation's request sent before this one (timeouts)
  // Where it goes (the target index, metadata targets first: the MDS of its directory, the OST of its stripe); for a
  // bulk RPC carrying one piece of a larger read or write (ClientNode's data path), whether its pages sit in the
  // node's write-back cache until it is answered.
  uint32_t target = 0;
  bool chunk = false;
  bool cached = false;
  // Cached pieces merged into this one's RPC (ClientNode::merge_queued), a list through their own `merged`; this
  // request's `bytes` are then the RPC's, its own piece's being bytes minus theirs.
  Request* merged = nullptr;
  // A bulk write that has its turn on the links of its route and waits for it to begin (ClientNode::reserve_bulk):
  // the time its bytes will have left; -1 none.
  double bulk_until = -1;
  bool prefetch = false;  // a read-ahead RPC (clients.readahead_mb): its pages go to the node's read-ahead pages
};

struct Reply {
  Request* request;
};
struct BarrierRelease {
  int phase;  // the phase that may start now; -1 = the run is over
};
// clients.hold_partial_rpcs: a reader's node asks the writer's node to write back its dirty pages of an object (the
// blocking callback of the extent lock the read wants, with the flush it makes), and is told when they are written.
struct FlushAsk {
  uint64_t object;
  uint32_t node;  // the reader's node, and its rank waiting (local index) with that rank's seq
  uint32_t rank;
  uint64_t seq;
};
struct FlushDone {
  uint32_t rank;
  uint64_t seq;
};
// Every rank of the run has reached a collective inside the phase (OpRequest::barrier, a stonewall's wear-out): its
// ranks waiting there go on; `max_pairs` is the most data steps any rank had done (the wear-out's allreduce).
struct CollectiveRelease {
  uint64_t max_pairs;
};
using NodeMessage = std::variant<Reply, BarrierRelease, FlushAsk, FlushDone, CollectiveRelease>;

}  // namespace pfsim
