// CorePool: a released core goes to the longest-waiting thread, except that a waiter holding a directory
// lock (urgent) is served before the others. One SimGrid engine per TEST_CASE (one per process).
#include "model/servers.hpp"

#include <catch2/catch.hpp>

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <map>
#include <string>

namespace sg4 = simgrid::s4u;

namespace {

sg4::Engine make_engine()
{
  int argc = 1;
  static char name[] = "corepool_test";
  char* argv[] = {name, nullptr};
  return sg4::Engine(&argc, argv);
}

// One host in a full zone, on the engine of this process.
sg4::Host* make_host()
{
  auto* zone = sg4::create_full_zone("z");
  auto* host = zone->create_host("h", 1e9)->seal();
  zone->seal();
  return host;
}

// One core. "a" takes it at t=0 for 1 s; "b" (never urgent) asks at 0.1 s, "c" at 0.2 s (urgent or not);
// each keeps the core 0.5 s. Returns the time each got the core.
std::map<std::string, double> run_three(bool c_urgent)
{
  sg4::Engine e = make_engine();
  auto* host = make_host();
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

namespace {
// Two cores, preemption on. "a" and "b" take them at 0 for 1 s each; "h" (urgent) arrives at 0.2 s and runs
// 0.3 s; "w" (ordinary) waits from 0.1 s for 0.5 s. Returns when each got the core and when each finished.
std::map<std::string, std::pair<double, double>> run_preempt()
{
  sg4::Engine e = make_engine();
  auto* host = make_host();
  auto pool = std::make_shared<pfsim::CorePool>(2, true);
  std::map<std::string, std::pair<double, double>> t;
  auto worker = [&](const std::string& who, double arrive, double hold, bool urgent) {
    sg4::Actor::create(who, host, [&, who, arrive, hold, urgent] {
      sg4::this_actor::sleep_until(arrive);
      bool pre = pool->acquire(urgent);
      t[who].first = sg4::Engine::get_clock();
      sg4::this_actor::sleep_for(hold);
      pool->release(pre ? hold : 0, urgent);
      t[who].second = sg4::Engine::get_clock();
    });
  };
  worker("a", 0.0, 1.0, false);
  worker("b", 0.0, 1.0, false);
  worker("w", 0.1, 0.5, false);
  worker("h", 0.2, 0.3, true);
  e.run();
  return t;
}
}  // namespace

TEST_CASE("cores with preemption: a lock holder runs at once and the preempted thread pays its time", "[corepool]")
{
  auto t = run_preempt();
  CHECK(t["h"].first == Approx(0.2));   // no core free, runs at once
  CHECK(t["h"].second == Approx(0.5));
  // The first ordinary thread to finish (a or b, both at 1.0 s) repays the 0.3 s: it releases its core at
  // 1.3 s, and the waiter starts at 1.0 s on the other one's core. The CPU time is that without preemption
  // (a 1 + b 1 + h 0.3 + w 0.5 = 2.8 core-seconds on 2 cores).
  CHECK(std::max(t["a"].second, t["b"].second) == Approx(1.3));
  CHECK(std::min(t["a"].second, t["b"].second) == Approx(1.0));
  CHECK(t["w"].first == Approx(1.0));
  CHECK(t["w"].second == Approx(1.5));
}
