// CorePool: a released core goes to the longest-waiting thread, except that a waiter holding a directory
// lock (urgent) is served before the others. One SimGrid engine per TEST_CASE (one per process).
#include "model/servers.hpp"

#include <catch2/catch.hpp>

#include <simgrid/s4u.hpp>

#include <map>
#include <string>

namespace sg4 = simgrid::s4u;

namespace {

// One core. "a" takes it at t=0 for 1 s; "b" (never urgent) asks at 0.1 s, "c" at 0.2 s (urgent or not);
// each keeps the core 0.5 s. Returns the time each got the core.
std::map<std::string, double> run_three(bool c_urgent)
{
  int argc = 1;
  char name[] = "corepool_test";
  char* argv[] = {name, nullptr};
  sg4::Engine e(&argc, argv);
  auto* zone = sg4::create_full_zone("z");
  auto* host = zone->create_host("h", 1e9)->seal();
  zone->seal();
  auto pool = std::make_shared<pfsim::CorePool>(1);
  std::map<std::string, double> got;
  auto worker = [&](const std::string& who, double arrive, double hold, bool urgent) {
    sg4::Actor::create(who, host, [&, who, arrive, hold, urgent] {
      sg4::this_actor::sleep_until(arrive);
      pool->acquire(urgent);
      got[who] = sg4::Engine::get_clock();
      sg4::this_actor::sleep_for(hold);
      pool->release();
    });
  };
  worker("a", 0.0, 1.0, false);
  worker("b", 0.1, 0.5, false);
  worker("c", 0.2, 0.5, c_urgent);
  e.run();
  return got;
}

}  // namespace

TEST_CASE("cores: first come, first served among ordinary waiters", "[corepool]")
{
  auto got = run_three(false);
  CHECK(got["a"] == Approx(0.0));
  CHECK(got["b"] == Approx(1.0));  // waited since 0.1 s: first
  CHECK(got["c"] == Approx(1.5));
}

TEST_CASE("cores: a lock holder gets the next core before earlier ordinary waiters", "[corepool]")
{
  auto got = run_three(true);
  CHECK(got["a"] == Approx(0.0));
  CHECK(got["c"] == Approx(1.0));  // urgent, although it asked after b
  CHECK(got["b"] == Approx(1.5));
}
