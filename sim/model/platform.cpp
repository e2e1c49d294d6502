#include "model/platform.hpp"

#include <string>

namespace sg4 = simgrid::s4u;

namespace pfsim {

void configure_engine(const config::PlatformConfig& p)
{
  sg4::Engine::set_config("network/model:" + p.network.model);
  sg4::Engine::set_config(std::string("network/crosstraffic:") + (p.network.crosstraffic ? "1" : "0"));
}

BuiltPlatform build_platform(const config::PlatformConfig& p, int client_nodes)
{
  BuiltPlatform out;
  auto* zone = sg4::create_star_zone("pfsim");
  const auto& net = p.network;
  const bool full = net.duplex == "full";
  // A link in both directions: one shared link (half duplex), or SimGrid's split-duplex pair (full duplex).
  struct DuplexLink {
    const sg4::Link* shared = nullptr;
    sg4::SplitDuplexLink* split = nullptr;
    sg4::LinkInRoute dir(sg4::LinkInRoute::Direction d) const
    {
      return split ? sg4::LinkInRoute(split, d) : sg4::LinkInRoute(shared);
    }
  };
  auto make_link = [zone, full](const std::string& name, const config::LinkConfig& l) {
    DuplexLink out;
    if (full) {
      out.split = zone->create_split_duplex_link(name, l.bandwidth_Bps);
      out.split->set_latency(l.latency_s)->seal();
    } else {
      out.shared = zone->create_link(name, l.bandwidth_Bps)->set_latency(l.latency_s)->seal();
    }
    return out;
  };
  using Dir = sg4::LinkInRoute::Direction;
  // A component's route out (UP: its link, then its router) and in (DOWN: the router, then its link).
  auto connect = [zone, full](sg4::Host* host, const std::vector<DuplexLink>& links) {
    std::vector<sg4::LinkInRoute> up, down;
    for (const auto& l : links)
      up.push_back(l.dir(Dir::UP));
    for (auto it = links.rbegin(); it != links.rend(); ++it)
      down.push_back(it->dir(Dir::DOWN));
    if (full) {
      zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, up, false);
      zone->add_route(nullptr, host->get_netpoint(), nullptr, nullptr, down, false);
    } else {
      zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, up, true);
    }
  };

  std::vector<DuplexLink> routers;
  for (int r = 0; r < net.router_count; ++r)
    routers.push_back(make_link("router-" + std::to_string(r), net.router_link));

  for (int i = 0; i < client_nodes; ++i) {
    auto* host = zone->create_host("client-" + std::to_string(i), kFlopsPerSecond)->seal();
    std::vector<DuplexLink> links{make_link("client-link-" + std::to_string(i), net.client_link)};
    if (!routers.empty())
      links.push_back(routers[static_cast<size_t>(i) % routers.size()]);
    connect(host, links);
    out.clients.push_back(host);
  }
  for (int m = 0; m < p.mds.count; ++m) {
    auto* host = zone->create_host("mds-" + std::to_string(m), kFlopsPerSecond);
    host->set_core_count(p.mds.cores);
    auto* disk = host->create_disk("mdt-" + std::to_string(m), p.mds.journal.disk_write_Bps,
                                   p.mds.journal.disk_write_Bps);
    disk->seal();
    host->seal();
    connect(host, {make_link("mds-link-" + std::to_string(m), net.server_link)});
    out.mds.push_back(host);
    out.mdt_disks.push_back(disk);
  }
  for (int o = 0; o < p.oss.count; ++o) {
    auto* host = zone->create_host("oss-" + std::to_string(o), kFlopsPerSecond);
    auto* disk = host->create_disk("ost-" + std::to_string(o), p.oss.disk_read_Bps, p.oss.disk_write_Bps);
    disk->seal();
    host->seal();
    connect(host, {make_link("oss-link-" + std::to_string(o), net.server_link)});
    out.oss.push_back(host);
    out.ost_disks.push_back(disk);
  }
  zone->seal();
  return out;
}

}  // namespace pfsim
