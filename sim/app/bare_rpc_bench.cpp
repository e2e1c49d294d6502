// The bare-engine baseline of scripts/bench: N client actors doing request/response exchanges with one
// server host through SimGrid comms (same platform shape and message sizes as pfsim), with no model:
// no queueing logic, no service time, no workload. Prints exchanges per wall second.
#include <simgrid/s4u.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

namespace sg4 = simgrid::s4u;

int main(int argc, char** argv)
{
  if (argc < 3) {
    std::fprintf(stderr, "usage: bare_rpc_bench NODES EXCHANGES_TOTAL\n");
    return 2;
  }
  int nodes = std::stoi(argv[1]);
  long long total = std::stoll(argv[2]);
  int sg_argc = 2;
  std::string log = "--log=root.thres:warning";
  char* sg_argv[] = {argv[0], log.data(), nullptr};
  auto wall0 = std::chrono::steady_clock::now();
  sg4::Engine e(&sg_argc, sg_argv);
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  auto* zone = sg4::create_star_zone("bare");
  std::vector<sg4::Host*> clients;
  for (int i = 0; i < nodes; ++i) {
    auto* h = zone->create_host("c" + std::to_string(i), 1e9)->seal();
    auto* l = zone->create_link("l" + std::to_string(i), 5e9)->set_latency(1.5e-6)->seal();
    zone->add_route(h->get_netpoint(), nullptr, nullptr, nullptr, {sg4::LinkInRoute(l)}, true);
    clients.push_back(h);
  }
  auto* server = zone->create_host("server", 1e9)->seal();
  auto* sl = zone->create_link("sl", 5e9)->set_latency(1.5e-6)->seal();
  zone->add_route(server->get_netpoint(), nullptr, nullptr, nullptr, {sg4::LinkInRoute(sl)}, true);
  zone->seal();
  // Exactly `total` exchanges: total / nodes per client node, the remainder one more each on the first nodes (as pfsim
  // gives the files that do not divide evenly to its first ranks).
  for (int i = 0; i < nodes; ++i) {
    sg4::Host* h = clients[i];
    const long long per_node = total / nodes + (i < total % nodes ? 1 : 0);
    sg4::Actor::create("c" + std::to_string(i), h, [h, server, per_node] {
      for (long long k = 0; k < per_node; ++k) {
        sg4::Comm::sendto(h, server, 512);
        sg4::Comm::sendto(server, h, 1024);
      }
    });
  }
  e.run();
  double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  std::printf("bare: %lld exchanges, %.3f s wall, %.0f exchanges per wall second\n", total, wall,
              static_cast<double>(total) / wall);
  return 0;
}
