// Builds the SimGrid platform of a PlatformConfig: one star zone holding client nodes, LNET routers
// (shared links), MDS and OSS hosts with their disks.
#pragma once
#include "config/platform_config.hpp"

#include <simgrid/s4u.hpp>
#include <vector>

namespace pfsim {

// Nominal CPU speed of every simulated host. Service demands are seconds of one core and are spent with
// sleep_for on a core taken from an FCFS pool (docs/architecture.md), so the speed only labels the hosts.
constexpr double kFlopsPerSecond = 1e9;

struct BuiltPlatform {
  std::vector<simgrid::s4u::Host*> clients;
  std::vector<simgrid::s4u::Host*> mds;
  std::vector<simgrid::s4u::Disk*> mdt_disks;
  std::vector<simgrid::s4u::Host*> oss;
  std::vector<simgrid::s4u::Disk*> ost_disks;
};

// Engine options that must be set before the platform exists (network model, cross-traffic).
void configure_engine(const config::PlatformConfig& p);
BuiltPlatform build_platform(const config::PlatformConfig& p, int client_nodes);

}  // namespace pfsim
