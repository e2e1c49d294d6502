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
  double bytes = 0;
  uint64_t object = 0;      // the object a data RPC moves (OSS placement)
  double arrived_s = 0;     // arrival at the server
  uint64_t seq = 0;         // client-side sequence, to recognise replies to abandoned copies
  bool abandoned = false;   // the client gave up on this copy (timeout) and resent it
  bool replied = false;     // its reply has arrived (a timeout after this point changes nothing)
  uint32_t resends = 0;     // copies of this operation's request sent before this one (timeouts)
  // A bulk RPC carrying one piece of a larger read or write (ClientNode's data path): its OST (the target index,
  // metadata targets first), and whether its pages sit in the node's write-back cache until it is answered.
  bool chunk = false;
  bool cached = false;
  uint32_t target = 0;
};

struct Reply {
  Request* request;
};
struct BarrierRelease {
  int phase;  // the phase that may start now; -1 = the run is over
};
using NodeMessage = std::variant<Reply, BarrierRelease>;

}  // namespace pfsim
