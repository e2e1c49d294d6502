// Turns on the links of bulk transfers' routes (bulk writes from a client node to a server, read replies back).
#pragma once
#include "config/platform_config.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace pfsim {

// Each direction of each link a bulk transfer crosses (the client node's link, its LNET router, the server's link)
// sends the transfers that took a turn on it one after the other at its bandwidth: a FIFO virtual clock, the time it
// will have sent them. A transfer begins once every link of its route has sent what came before it, so that hundreds
// of nodes' transfers do not cross a few routers side by side (SimGrid's fluid sharing then finishes them together,
// the disks behind idle, and its cost grows with the flows on a link). Writes go up (node, router, server), read
// replies down (server, router, node); with half-duplex links (network.duplex) both directions share one clock, as
// they share one bandwidth. Only the transfers that take turns are counted: metadata RPCs and small replies cross
// the links beside them.
class LinkTurns {
public:
  LinkTurns(const config::NetworkConfig& net, size_t nodes, size_t servers)
      : client_Bps_(net.client_link.bandwidth_Bps), router_Bps_(net.router_link.bandwidth_Bps),
        server_Bps_(net.server_link.bandwidth_Bps), routers_(std::max(0, net.router_count)),
        directions_(net.duplex == "half" ? 1 : 2)
  {
    for (int d = 0; d < directions_; ++d) {
      node_[d].assign(nodes, 0.0);
      router_[d].assign(routers_, 0.0);
      server_[d].assign(servers, 0.0);
    }
  }

  // A transfer of `bytes` between client node `node` and server `server` (targets' order: the MDSes, then the OSSes)
  // takes its turn at `now`, towards the server (`up`) or from it. Returns when it begins; `until` is when its bytes
  // will have left the last link of its route, and not before they crossed the slowest one from the beginning.
  double reserve(double now, size_t node, size_t server, double bytes, bool up, double& until)
  {
    const int d = up || directions_ == 1 ? 0 : 1;
    double& client = node_[d][node];
    double* router = routers_ > 0 ? &router_[d][node % routers_] : nullptr;
    double& srv = server_[d][server];
    const double begin = std::max({now, client, router != nullptr ? *router : 0.0, srv});
    until = begin;
    auto take = [&](double& free_at, double Bps) {
      free_at = std::max(free_at, now) + bytes / Bps;
      until = std::max({until, free_at, begin + bytes / Bps});
    };
    take(client, client_Bps_);
    if (router != nullptr)
      take(*router, router_Bps_);
    take(srv, server_Bps_);
    return begin;
  }

private:
  double client_Bps_, router_Bps_, server_Bps_;
  size_t routers_;
  int directions_;
  std::vector<double> node_[2], router_[2], server_[2];
};

}  // namespace pfsim
