// Platform file parsing: every error names the file and the field path; the effective configuration
// written into results (to_json) parses back to itself.
#include "app/commands.hpp"
#include "config/platform_config.hpp"
#include "config/reader.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

namespace {

using nlohmann::json;
using pfsim::config::ConfigError;
using pfsim::config::parse_platform;

// The repository root, from this file's path (sim/config/platform_config_test.cpp).
std::string repo_root()
{
  std::string here = __FILE__;
  return here.substr(0, here.rfind("/sim/config/"));
}

// The message of the ConfigError that parsing `j` throws ("" when it does not throw).
std::string error_of(const json& j, const std::string& file = "bad-platform.json")
{
  try {
    parse_platform(j, file);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("an unknown platform field names the file and the field path", "[config]")
{
  json j = {{"mds", {{"threds", {{"min", 4}}}}}};
  CHECK_THROWS_AS(parse_platform(j, "bad-platform.json"), ConfigError);
  std::string msg = error_of(j);
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("bad-platform.json") && Catch::Contains("mds.threds"));

  // At the top level and deep inside a nested object alike.
  CHECK_THAT(error_of({{"netwrok", json::object()}}), Catch::Contains("'netwrok'"));
  CHECK_THAT(error_of({{"network", {{"routers", {{"link", {{"latncy", "1us"}}}}}}}}),
             Catch::Contains("network.routers.link.latncy"));
}

TEST_CASE("a platform field of the wrong type is rejected with its path", "[config]")
{
  std::string msg = error_of({{"mds", {{"cores", "twelve"}}}});
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("bad-platform.json") && Catch::Contains("mds.cores") &&
                      Catch::Contains("integer"));
  CHECK_THAT(error_of({{"mds", {{"cores", 12.5}}}}), Catch::Contains("mds.cores"));
  CHECK_THAT(error_of({{"mds", {{"journal", {{"enabled", "yes"}}}}}}), Catch::Contains("mds.journal.enabled"));
  CHECK_THAT(error_of({{"clients", 16}}), Catch::Contains("clients") && Catch::Contains("object"));
  CHECK_THAT(error_of({{"network", {{"client_link", {{"latency", true}}}}}}),
             Catch::Contains("network.client_link.latency"));
}

TEST_CASE("a bad unit string names the field and the unit", "[config]")
{
  std::string msg = error_of({{"network", {{"client_link", {{"latency", "10 parsecs"}}}}}});
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("bad-platform.json") && Catch::Contains("network.client_link.latency") &&
                      Catch::Contains("parsecs"));
  CHECK_THAT(error_of({{"mds", {{"service", {{"create", "500 furlongs"}}}}}}), Catch::Contains("mds.service.create"));
  // A duration where a size is expected is a bad unit too.
  CHECK_THAT(error_of({{"clients", {{"request_size", "512us"}}}}), Catch::Contains("clients.request_size"));
}

TEST_CASE("a negative size is rejected with its path", "[config]")
{
  CHECK_THAT(error_of({{"clients", {{"request_size", -512}}}}),
             Catch::Contains("clients.request_size") && Catch::Contains("non-negative"));
  CHECK_THAT(error_of({{"clients", {{"reply_size", "-1KiB"}}}}), Catch::Contains("clients.reply_size"));
  CHECK_THAT(error_of({{"mds", {{"journal", {{"capacity", "-400MiB"}}}}}}), Catch::Contains("mds.journal.capacity"));
  // Negative durations and counts are refused the same way.
  CHECK_THAT(error_of({{"clients", {{"rpc_overhead", "-1us"}}}}), Catch::Contains("clients.rpc_overhead"));
  CHECK_THAT(error_of({{"mds", {{"cores", -1}}}}), Catch::Contains("mds.cores"));
}

TEST_CASE("an unknown operation in mds.service is rejected", "[config]")
{
  std::string msg = error_of({{"mds", {{"service", {{"create", "500us"}, {"mkfifo", "1ms"}}}}}});
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("bad-platform.json") && Catch::Contains("mds.service.mkfifo") &&
                      Catch::Contains("unknown operation"));
  CHECK_THAT(error_of({{"mds", {{"dir_lock", {{"hold", {{"creat", "40us"}}}}}}}}),
             Catch::Contains("mds.dir_lock.hold.creat"));
  CHECK_THAT(error_of({{"clients", {{"op_overhead", {{"stats", "10us"}}}}}}),
             Catch::Contains("clients.op_overhead.stats"));
}

TEST_CASE("mds.core_scheduling accepts fifo, lock_holder_first and preempt only", "[config]")
{
  std::string msg = error_of({{"mds", {{"core_scheduling", "round_robin"}}}});
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("mds.core_scheduling") && Catch::Contains("round_robin") &&
                      Catch::Contains("lock_holder_first") && Catch::Contains("preempt"));
  CHECK(parse_platform({{"mds", {{"core_scheduling", "fifo"}}}}, "ok.json").mds.core_scheduling == "fifo");
  CHECK(parse_platform({{"mds", {{"core_scheduling", "lock_holder_first"}}}}, "ok.json").mds.core_scheduling ==
        "lock_holder_first");
  CHECK(parse_platform(json::object(), "ok.json").mds.core_scheduling == "preempt");
}

TEST_CASE("oss.placement accepts object, node and round_robin only, round_robin by default", "[config]")
{
  std::string msg = error_of({{"oss", {{"placement", "stripe"}}}});
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("oss.placement") && Catch::Contains("stripe") && Catch::Contains("object") &&
                      Catch::Contains("node") && Catch::Contains("round_robin"));
  CHECK(parse_platform({{"oss", {{"placement", "node"}}}}, "ok.json").oss.placement == "node");
  CHECK(parse_platform({{"oss", {{"placement", "object"}}}}, "ok.json").oss.placement == "object");
  CHECK(parse_platform(json::object(), "ok.json").oss.placement == "round_robin");
}

TEST_CASE("threads.max below threads.min is rejected", "[config]")
{
  std::string msg = error_of({{"mds", {{"threads", {{"min", 16}, {"max", 8}}}}}});
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("mds.threads.max") && Catch::Contains("16"));
  // Equal is a fixed pool; max alone defaults to min.
  auto p = parse_platform({{"mds", {{"threads", {{"min", 8}, {"max", 8}}}}}}, "ok.json");
  CHECK(p.mds.threads.min == 8);
  CHECK(p.mds.threads.max == 8);
  CHECK(parse_platform({{"mds", {{"threads", {{"min", 24}}}}}}, "ok.json").mds.threads.max == 24);
}

TEST_CASE("oss.stragglers: a slow_bandwidth_max below slow_bandwidth_min names both fields and their values", "[config]")
{
  auto stragglers = [](const json& fields) {
    json b = fields;
    b["enabled"] = true;
    return error_of({{"oss", {{"stragglers", b}}}});
  };
  // Both given: the max is named, with both values.
  CHECK(stragglers({{"slow_bandwidth_min", 0.5}, {"slow_bandwidth_max", 0.3}}) ==
        "bad-platform.json: field 'oss.stragglers.slow_bandwidth_max': expected slow_bandwidth_max >= "
        "slow_bandwidth_min; slow_bandwidth_min is 0.5 and slow_bandwidth_max is 0.3 (raise max or lower min)");
  // One given against the other's default (0.4 and 0.6): the one given is named, the default said as such.
  CHECK(stragglers({{"slow_bandwidth_max", 0.25}}) ==
        "bad-platform.json: field 'oss.stragglers.slow_bandwidth_max': expected slow_bandwidth_max >= "
        "slow_bandwidth_min; slow_bandwidth_min is 0.4 (its default) and slow_bandwidth_max is 0.25 (raise max or "
        "lower min)");
  CHECK(stragglers({{"slow_bandwidth_min", 0.75}}) ==
        "bad-platform.json: field 'oss.stragglers.slow_bandwidth_min': expected slow_bandwidth_min <= "
        "slow_bandwidth_max; slow_bandwidth_min is 0.75 and slow_bandwidth_max is 0.6, its default (lower min or "
        "give a larger max)");
  // Equal is one factor for every slow period.
  CHECK(stragglers({{"slow_bandwidth_min", 0.5}, {"slow_bandwidth_max", 0.5}}).empty());
}

TEST_CASE("values with units are converted on reading", "[config]")
{
  auto p = parse_platform({{"network", {{"client_link", {{"bandwidth", "10Gbps"}, {"latency", "1.5us"}}}}},
                           {"clients", {{"reply_size", "1KiB"}}},
                           {"mds", {{"service", {{"stat", "210us"}}}, {"journal", {{"capacity", "400MiB"}}}}}},
                          "ok.json");
  CHECK(p.network.client_link.bandwidth_Bps == Approx(1.25e9));
  CHECK(p.network.client_link.latency_s == Approx(1.5e-6));
  CHECK(p.clients.reply_size_B == Approx(1024));
  CHECK(p.mds.service_s[pfsim::Op::Stat] == Approx(210e-6));
  CHECK(p.mds.journal.capacity_B == Approx(400.0 * 1048576));
}

TEST_CASE("to_json of a parsed platform parses back to the same configuration", "[config]")
{
  auto round_trip = [](const json& input, const std::string& name) {
    json first = pfsim::config::to_json(parse_platform(input, name));
    // Through text, as results files are written and read back.
    json reparsed = json::parse(first.dump(2));
    json second = pfsim::config::to_json(parse_platform(reparsed, name + " (round trip)"));
    INFO(name << ": " << first.dump() << "\nvs\n" << second.dump());
    CHECK(first == second);
    return first;
  };

  SECTION("the shipped platform file")
  {
    std::string file = repo_root() + "/platforms/cray-xe6-lustre2.1.json";
    json input = pfsim::config::load_json_file(file);
    json out = round_trip(input, file);
    CHECK(out["name"] == "cray-xe6-lustre2.1");
    CHECK(out["sources"] == input["sources"]);  // documentation kept verbatim
    CHECK(out["mds"]["service"]["create"].get<double>() == Approx(500e-6));
  }
  SECTION("an empty platform: every default filled in")
  {
    json out = round_trip(json::object(), "empty.json");
    pfsim::config::PlatformConfig d;
    CHECK(out["mds"]["threads"]["min"] == d.mds.threads.min);
    CHECK(out["mds"]["cores"] == d.mds.cores);
    CHECK(out["clients"]["max_rpcs_in_flight"] == d.clients.max_rpcs_in_flight);
    CHECK(out["network"]["model"] == d.network.model);
    // Every operation appears in the per-operation tables with a default, so the written configuration is
    // complete; the MDS's CPU demands have none (a missing one is an error when a workload needs it), so an empty
    // platform writes none.
    CHECK(out["clients"]["op_overhead"].size() == static_cast<size_t>(pfsim::kOpCount));
    CHECK(out["mds"]["service"] == json::object());
  }
  SECTION("the MDS demands a file does not give stay missing (not 0, a free operation) when read back")
  {
    json out = round_trip({{"mds", {{"service", {{"create", "300us"}, {"stat", 0}}}}}}, "some.json");
    CHECK(out["mds"]["service"] == json({{"create", 300e-6}, {"stat", 0.0}}));
    auto again = parse_platform(out, "again.json");
    CHECK(again.mds.service_given[pfsim::Op::Create]);
    CHECK(again.mds.service_given[pfsim::Op::Stat]);  // given as 0: free on purpose
    CHECK_FALSE(again.mds.service_given[pfsim::Op::Open]);
  }
  SECTION("mechanisms switched on")
  {
    json in = {{"mds",
                {{"cores", 16},
                 {"mechanisms",
                  {{"contention", {{"enabled", true}, {"per_busy_thread", {{"create", "2us"}}}, {"cross_partition_factor", 0.5}}},
                   {"timeouts", {{"enabled", true}, {"timeout", "100s"}}},
                   {"partitions", {{"enabled", true}, {"count", 4}}}}}}}};
    json out = round_trip(in, "mech.json");
    CHECK(out["mds"]["mechanisms"]["partitions"]["count"] == 4);
    CHECK(out["mds"]["mechanisms"]["contention"]["per_busy_thread"]["create"].get<double>() == Approx(2e-6));
  }
}

TEST_CASE("clients.load_delay: bad laws are rejected with their field path", "[config][load_delay]")
{
  auto with_law = [](const nlohmann::json& law) {
    nlohmann::json j = {{"clients", {{"load_delay", {{"per_op", {{"create", law}}}}}}}};
    return j;
  };
  auto message = [](const nlohmann::json& j) { return error_of(j, "law.json"); };
  CHECK_THAT(message(with_law({{"base", "-1ms"}})), Catch::Contains("law.json") && Catch::Contains("clients.load_delay.per_op.create.base"));
  CHECK_THAT(message(with_law({{"base", "1ms"}, {"shape", {2.0, 1.0}}})), Catch::Contains("shape") && Catch::Contains("nondecreasing"));
  CHECK_THAT(message(with_law({{"base", "1ms"}, {"rank_factors", nlohmann::json::array()}})), Catch::Contains("rank_factors"));
  CHECK_THAT(message(with_law({{"base", "1ms"}, {"slope", "1us"}})), Catch::Contains("slope"));
  nlohmann::json bad_op = {{"clients", {{"load_delay", {{"per_op", {{"chmod", {{"base", "1ms"}}}}}}}}}};
  CHECK_THAT(message(bad_op), Catch::Contains("chmod") && Catch::Contains("unknown operation"));
  // A valid law round-trips through to_json.
  auto p = parse_platform(with_law({{"base", "1ms"}, {"per_active_rank", "2us"}, {"shape", {0.5, 1.5}}}), "law.json");
  auto again = parse_platform(pfsim::config::to_json(p), "again.json");
  const auto& law = again.clients.load_delay.law[pfsim::Op::Create];
  CHECK(law.set);
  CHECK(law.base_s == Approx(1e-3));
  CHECK(law.per_unit_s == Approx(2e-6));
  CHECK(law.shape.size() == 2);
  CHECK(law.mean_s(10) == Approx(1.02e-3));
}

// fitted_size: the bytes of the calls a read or write law was fitted on (Mistral's read law: md-real-io's 3,900-byte
// objects). A positive size, in bytes or with a unit; only on a read or write law; kept in the effective configuration.
TEST_CASE("clients.load_delay: a read law's fitted_size is a positive size, refused elsewhere", "[config][load_delay]")
{
  auto with_law = [](const char* op, const nlohmann::json& law) {
    return nlohmann::json{{"clients", {{"load_delay", {{"enabled", true}, {"per_op", {{op, law}}}}}}}};
  };
  auto message = [](const nlohmann::json& j) { return error_of(j, "size.json"); };
  const char* field = "clients.load_delay.per_op.read.fitted_size";
  for (const nlohmann::json& bad : {nlohmann::json(0), nlohmann::json(-3900), nlohmann::json("0B"), nlohmann::json("abc"),
                                    nlohmann::json(true), nlohmann::json::array({3900})})
    CHECK_THAT(message(with_law("read", {{"base", "6ms"}, {"fitted_size", bad}})),
               Catch::Contains("size.json") && Catch::Contains(field));
  // Below 1 byte, negatives too: "at least 1 byte" (helper-149: 0.5, 1e-300 and "0.5B" were taken, then reported as
  // "fitted on reads of 0 B"; -1 was told "a non-negative size", which 0 is and is refused)
  for (const nlohmann::json& bad : {nlohmann::json(0), nlohmann::json(0.5), nlohmann::json(1e-300),
                                    nlohmann::json("0.5B"), nlohmann::json(-1), nlohmann::json("-1B"),
                                    nlohmann::json(" -2KiB")})
    CHECK_THAT(message(with_law("read", {{"base", "6ms"}, {"fitted_size", bad}})),
               Catch::Contains(field) && Catch::Contains("expected a positive size of at least 1 byte") &&
                   !Catch::Contains("non-negative"));
  CHECK(parse_platform(with_law("write", {{"base", "6ms"}, {"fitted_size", 1}}), "one.json")
            .clients.load_delay.law[pfsim::Op::Write].fitted_size_B == 1);
  CHECK(parse_platform(with_law("read", {{"base", "6ms"}, {"fitted_size", "4k"}}), "k.json")
            .clients.load_delay.law[pfsim::Op::Read].fitted_size_B == 4096);
  CHECK_THAT(message(with_law("stat", {{"base", "1ms"}, {"fitted_size", 3900}})),
             Catch::Contains("clients.load_delay.per_op.stat.fitted_size") && Catch::Contains("read or write law"));
  auto p = parse_platform(with_law("read", {{"base", "6ms"}, {"fitted_size", "3900B"}}), "size.json");
  const auto& law = p.clients.load_delay.law[pfsim::Op::Read];
  CHECK(law.fitted_size_B == 3900);
  CHECK(parse_platform(with_law("read", {{"base", "6ms"}, {"fitted_size", 3900}}), "n.json")
            .clients.load_delay.law[pfsim::Op::Read].fitted_size_B == 3900);
  // Its range: a factor 2 either side (1950 and 7800 inside, a 1 MiB read outside).
  CHECK_FALSE(law.size_outside_fit(1950));
  CHECK_FALSE(law.size_outside_fit(7800));
  CHECK(law.size_outside_fit(1949));
  CHECK(law.size_outside_fit(1048576));
  CHECK_FALSE(pfsim::config::LoadDelayLaw{}.size_outside_fit(1048576));  // not stated: never outside
  auto again = parse_platform(pfsim::config::to_json(p), "again.json");
  CHECK(again.clients.load_delay.law[pfsim::Op::Read].fitted_size_B == 3900);
  CHECK(pfsim::config::to_json(parse_platform(with_law("read", {{"base", "6ms"}}), "x.json"))["clients"]["load_delay"]
            ["per_op"]["read"]
                .count("fitted_size") == 0);
}

// A law is its delay (base, its population's slope): one that gives neither, but a field describing that delay
// (helper-149: --set clients.load_delay.per_op.write.fitted_size=4k on a platform without a write law made a law of
// 0 us + 0 us x n, and the run warned it had applied it), is refused naming that field; an empty law naming the law.
// A law with either is one (base 0 too, a slope alone too).
TEST_CASE("clients.load_delay: a law without base or slope is refused, naming the field it gives", "[config][load_delay]")
{
  auto with_law = [](const char* op, const nlohmann::json& law, const char* population = "active_ranks") {
    return nlohmann::json{
        {"clients", {{"load_delay", {{"enabled", true}, {"population", population}, {"per_op", {{op, law}}}}}}}};
  };
  auto message = [](const nlohmann::json& j) { return error_of(j, "nolaw.json"); };
  CHECK_THAT(message(with_law("write", {{"fitted_size", "4k"}})),
             Catch::Contains("nolaw.json") && Catch::Contains("'clients.load_delay.per_op.write.fitted_size'") &&
                 Catch::Contains("neither base nor per_active_rank"));
  CHECK_THAT(message(with_law("open", {{"fitted_up_to", 50}})),
             Catch::Contains("'clients.load_delay.per_op.open.fitted_up_to'") && Catch::Contains("the law has none"));
  CHECK_THAT(message(with_law("stat", {{"shape", {0.5, 1.5}}}, "md_ops_in_flight")),
             Catch::Contains("'clients.load_delay.per_op.stat.shape'") &&
                 Catch::Contains("neither base nor per_md_op_in_flight"));
  CHECK_THAT(message(with_law("stat", {{"rank_factors", {1.0}}})),
             Catch::Contains("'clients.load_delay.per_op.stat.rank_factors'"));
  CHECK_THAT(message(with_law("stat", {{"population", "md_ops_in_flight"}})),
             Catch::Contains("'clients.load_delay.per_op.stat.population'"));
  CHECK_THAT(message(with_law("create", nlohmann::json::object())),
             Catch::Contains("'clients.load_delay.per_op.create'") && Catch::Contains("empty law"));
  CHECK_THAT(message(with_law("create", {{"bse", "1ms"}})), Catch::Contains("bse"));  // a typo is said as such
  CHECK(parse_platform(with_law("write", {{"base", 0}, {"fitted_size", "4k"}}), "a.json")
            .clients.load_delay.law[pfsim::Op::Write].set);
  CHECK(parse_platform(with_law("write", {{"per_active_rank", "1us"}, {"fitted_size", "4k"}}), "b.json")
            .clients.load_delay.law[pfsim::Op::Write].fitted_size_B == 4096);
}

TEST_CASE("clients.load_delay: each law has a population, its own or the default, and that population's slope",
          "[config][load_delay]")
{
  auto parse = [](const nlohmann::json& ld) {
    return parse_platform(nlohmann::json{{"clients", {{"load_delay", ld}}}}, "pop.json");
  };
  auto message = [&](const nlohmann::json& ld) {
    try {
      parse(ld);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  using pfsim::config::LoadPopulation;
  auto p = parse({{"population", "md_ops_in_flight"},
                  {"per_op",
                   {{"create", {{"base", "1ms"}, {"per_md_op_in_flight", "40us"}}},
                    {"open", {{"population", "active_ranks"}, {"base", "6ms"}, {"per_active_rank", "1us"}}}}}});
  const auto& create = p.clients.load_delay.law[pfsim::Op::Create];
  const auto& open = p.clients.load_delay.law[pfsim::Op::Open];
  CHECK(create.population == LoadPopulation::MetadataOpsInFlight);
  CHECK(create.per_unit_s == Approx(40e-6));
  CHECK(open.population == LoadPopulation::ActiveRanks);
  CHECK(open.per_unit_s == Approx(1e-6));
  // Round trip through the effective configuration.
  auto again = parse_platform(pfsim::config::to_json(p), "again.json");
  CHECK(again.clients.load_delay.law[pfsim::Op::Create].population == LoadPopulation::MetadataOpsInFlight);
  CHECK(again.clients.load_delay.law[pfsim::Op::Create].per_unit_s == Approx(40e-6));
  CHECK(again.clients.load_delay.law[pfsim::Op::Open].population == LoadPopulation::ActiveRanks);
  // The other population's slope is an error naming the field and the slope expected.
  CHECK_THAT(message({{"per_op", {{"create", {{"base", "1ms"}, {"per_md_op_in_flight", "4us"}}}}}}),
             Catch::Contains("clients.load_delay.per_op.create.per_md_op_in_flight") &&
                 Catch::Contains("per_active_rank"));
  CHECK_THAT(message({{"population", "md_ops_in_flight"}, {"per_op", {{"stat", {{"per_active_rank", "4us"}}}}}}),
             Catch::Contains("per_active_rank") && Catch::Contains("per_md_op_in_flight"));
  CHECK_THAT(message({{"population", "clients"}, {"per_op", nlohmann::json::object()}}),
             Catch::Contains("clients.load_delay.population"));
}

TEST_CASE("clients.load_delay: replayed excess scales with the population up to the law's top quantile", "[config][load_delay]")
{
  pfsim::config::LoadDelayLaw law;
  law.set = true;
  law.base_s = 1e-3;
  law.per_unit_s = 1e-4;  // mean(10) = 2 ms, mean(30) = 4 ms
  // Without a shape everything scales: 1 ms recorded at n = 10 is 2 ms at n = 30, 0.5 ms at n = 0.
  CHECK(law.scale_recorded(1e-3, 10, 30, 0) == Approx(2e-3));
  CHECK(law.scale_recorded(1e-3, 10, 0, 0) == Approx(0.5e-3));
  CHECK(law.scale_recorded(1e-3, 10, 10, 0) == Approx(1e-3));
  // Shape top 3 and rank factors {1, 2}: the cap at n_rec = 10 is 6 ms for rank 0, 12 ms for rank 1.
  law.shape = {0.0, 1.0, 3.0};
  law.rank_factors = {1.0, 2.0};
  CHECK(law.scale_recorded(5e-3, 10, 30, 0) == Approx(10e-3));             // below the cap: x2
  CHECK(law.scale_recorded(0.5, 10, 30, 0) == Approx(6e-3 * 2 + (0.5 - 6e-3)));  // a stall: only 6 ms scale
  CHECK(law.scale_recorded(0.5, 10, 30, 3) == Approx(12e-3 * 2 + (0.5 - 12e-3)));  // rank 3 uses factor 2
  CHECK(law.rank_factor(2) == 1.0);
  // A law whose mean is 0 at the recorded population leaves the excess alone.
  pfsim::config::LoadDelayLaw zero;
  CHECK(zero.scale_recorded(1e-3, 5, 50, 0) == 1e-3);
}

TEST_CASE("journal credits: a reservation above the transaction limit, or for a non-update, is rejected", "[config]")
{
  // 400 MiB / 4 KiB / 4 = 25,600 credits per transaction (jbd2 j_max_transaction_buffers = j_maxlen / 4).
  CHECK_THAT(error_of({{"mds", {{"journal", {{"credits", {{"enabled", true}, {"create", 30000}}}}}}}}),
             Catch::Contains("mds.journal.credits.create") && Catch::Contains("25600"));
  CHECK_THAT(error_of({{"mds", {{"journal", {{"credits", {{"enabled", true}, {"stat", 10}}}}}}}}),
             Catch::Contains("mds.journal.credits.stat") && Catch::Contains("updating operation"));
  CHECK_THAT(error_of({{"mds", {{"journal", {{"credits", {{"enabled", true}, {"create", -1}}}}}}}}),
             Catch::Contains("mds.journal.credits.create"));
  CHECK_THAT(error_of({{"mds", {{"journal", {{"block_size", "0B"}}}}}}), Catch::Contains("mds.journal.block_size"));
}

TEST_CASE("serial section: only updates hold the MDT-wide lock, and holds are durations", "[config]")
{
  auto serial = [](json hold) {
    return json{{"mds", {{"mechanisms", {{"serial_section", {{"enabled", true}, {"hold", hold}}}}}}}};
  };
  CHECK_THAT(error_of(serial({{"stat", "5us"}})),
             Catch::Contains("mds.mechanisms.serial_section.hold.stat") && Catch::Contains("updating operations"));
  CHECK_THAT(error_of(serial({{"unlink", "-5us"}})), Catch::Contains("mds.mechanisms.serial_section.hold.unlink"));
  CHECK_THAT(error_of(serial({{"rename", "5us"}})), Catch::Contains("unknown operation"));
  auto ok = pfsim::config::parse_platform(serial({{"unlink", "45us"}}), "ok.json");
  CHECK(ok.mds.serial.enabled);
  CHECK(ok.mds.serial.hold_s[pfsim::Op::Unlink] == Approx(45e-6));
  CHECK(ok.mds.serial.hold_s[pfsim::Op::Create] == 0);
}

TEST_CASE("network.model: SimGrid's Constant model (no links) is refused, naming the models that work", "[config]")
{
  // It was accepted, then SimGrid aborted the run (SIGABRT) on the platform's first link.
  std::string msg = error_of({{"network", {{"model", "Constant"}}}});
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("bad-platform.json") && Catch::Contains("network.model") &&
                      Catch::Contains("Constant") && Catch::Contains("\"CM02\", \"LV08\""));
  CHECK(parse_platform({{"network", {{"model", "LV08"}}}}, "ok.json").network.model == "LV08");
}

TEST_CASE("durations, sizes and bandwidths beyond what a run can simulate are out of range", "[config]")
{
  // Unit strings and bare JSON numbers alike; these values made runs hang.
  CHECK_THAT(error_of({{"clients", {{"request_size", "1e20B"}}}}),
             Catch::Contains("clients.request_size") && Catch::Contains("out of range") && Catch::Contains("1 PB"));
  CHECK_THAT(error_of({{"clients", {{"request_size", 1e20}}}}),
             Catch::Contains("clients.request_size") && Catch::Contains("out of range"));
  CHECK_THAT(error_of({{"network", {{"client_link", {{"latency", "1e20s"}}}}}}),
             Catch::Contains("network.client_link.latency") && Catch::Contains("out of range") &&
                 Catch::Contains("1e9 s"));
  CHECK_THAT(error_of({{"mds", {{"service", {{"stat", "1e20s"}}}}}}),
             Catch::Contains("mds.service.stat") && Catch::Contains("out of range"));
  CHECK_THAT(error_of({{"mds", {{"service", {{"stat", 2e9}}}}}}),
             Catch::Contains("mds.service.stat") && Catch::Contains("out of range"));
  CHECK_THAT(error_of({{"mds", {{"journal", {{"capacity", "2000TB"}}}}}}),
             Catch::Contains("mds.journal.capacity") && Catch::Contains("out of range"));
  CHECK_THAT(error_of({{"mds", {{"service", {{"stat", "1e400us"}}}}}}),
             Catch::Contains("mds.service.stat") && Catch::Contains("the number in \"1e400us\" is out of range"));
  CHECK_THAT(error_of({{"network", {{"client_link", {{"bandwidth", 1e-300}}}}}}),
             Catch::Contains("network.client_link.bandwidth") && Catch::Contains("at least 1 B/s"));
  CHECK_THAT(error_of({{"oss", {{"disk_read", "1e308Gbps"}}}}),
             Catch::Contains("oss.disk_read") && Catch::Contains("out of range"));
  // The bounds themselves are accepted.
  auto p = parse_platform({{"mds", {{"service", {{"stat", "1e9s"}}}}}, {"clients", {{"reply_size", 1e15}}}}, "ok.json");
  CHECK(p.mds.service_s[pfsim::Op::Stat] == Approx(1e9));
  CHECK(p.clients.reply_size_B == Approx(1e15));
}

TEST_CASE("a bandwidth's error states the rule its field enforces: positive for links and disks, 0 or more for "
          "page_cache_copy", "[config]")
{
  // helper-121: oss.disk_write = -5MBps said "expected a non-negative bandwidth" and 0 "expected a positive bandwidth".
  const std::vector<std::string> positive_fields = {"/oss/disk_write", "/oss/disk_read", "/network/client_link/bandwidth",
                                                     "/mds/journal/disk_write"};
  for (const auto& field : positive_fields)
    for (const json value : {json("-5MBps"), json("0MBps"), json("-0Gbps"), json(-5), json(0), json("0.5Bps"), json(0.5)}) {
      json j = {{"mds", {{"journal", {{"enabled", true}}}}}};  // (a journal's disk only when it is on)
      j[json::json_pointer(field)] = value;
      const std::string msg = error_of(j);
      INFO(j.dump() << ": " << msg);
      CHECK_THAT(msg, Catch::Contains("expected a positive bandwidth of at least 1 B/s (8 bps), got ") &&
                          !Catch::Contains("non-negative") && !Catch::Contains("0 or at least"));
    }
  // 0 is page_cache_copy's "instantaneous" (and a disabled journal's unused disk): negatives alone are refused.
  CHECK_THAT(error_of({{"clients", {{"page_cache_copy", "-5MBps"}}}}),
             Catch::Contains("clients.page_cache_copy") && Catch::Contains("expected a non-negative bandwidth"));
  CHECK_THAT(error_of({{"clients", {{"page_cache_copy", "0.5Bps"}}}}),
             Catch::Contains("expected a bandwidth of 0 or at least 1 B/s"));
  CHECK(parse_platform({{"clients", {{"page_cache_copy", "0MBps"}}}}, "p.json").clients.page_cache_copy_Bps == 0);
  CHECK(parse_platform({{"mds", {{"journal", {{"enabled", false}, {"disk_write", 0}}}}}}, "p.json")
            .mds.journal.disk_write_Bps == 0);
}

TEST_CASE("a quoted number without a unit is refused / a bare JSON number is in the base unit", "[config]")
{
  // "20" was silently 20 s, "512" 512 B.
  std::string msg = error_of({{"clients", {{"rpc_overhead", "20"}}}});
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("bad-platform.json") && Catch::Contains("clients.rpc_overhead") &&
                      Catch::Contains("with a unit") && Catch::Contains("\"24us\""));
  CHECK_THAT(error_of({{"clients", {{"request_size", "512"}}}}),
             Catch::Contains("clients.request_size") && Catch::Contains("with a unit") && Catch::Contains("\"1MiB\""));
  CHECK_THAT(error_of({{"mds", {{"dir_lock", {{"hold", {{"create", "0"}}}}}}}}),
             Catch::Contains("mds.dir_lock.hold.create") && Catch::Contains("with a unit"));
  auto p = parse_platform({{"clients", {{"rpc_overhead", 2e-5}, {"request_size", 512}}}}, "ok.json");
  CHECK(p.clients.rpc_overhead_s == Approx(2e-5));
  CHECK(p.clients.request_size_B == Approx(512));
  // Bandwidth strings too: "6.788e+09" is refused, "6.788e+09Bps" and the bare number are bytes/s.
  CHECK_THROWS_WITH(parse_platform({{"network", {{"client_link", {{"bandwidth", "6.788e+09"}}}}}}, "bad.json"),
                    Catch::Contains("network.client_link.bandwidth"));
  CHECK(parse_platform({{"network", {{"client_link", {{"bandwidth", "6.788e+09Bps"}}}}}}, "ok.json")
            .network.client_link.bandwidth_Bps == Approx(6.788e9));
  CHECK(parse_platform({{"network", {{"client_link", {{"bandwidth", 6.788e9}}}}}}, "ok.json")
            .network.client_link.bandwidth_Bps == Approx(6.788e9));
}

TEST_CASE("every shipped platform file loads", "[config]")
{
  for (const char* name : {"cray-xe6-lustre2.1.json", "cray-xe6-lustre2.1-fitted.json",
                           "cray-xe6-lustre2.1-fitted-threads512.json", "mistral-lustre02.json"}) {
    std::string file = repo_root() + "/platforms/" + name;
    INFO(file);
    CHECK_NOTHROW(pfsim::config::load_platform(file));
  }
}

TEST_CASE("per-operation settings the model applies to updates only are refused for other operations", "[config]")
{
  // sim/model/servers.cpp: the exclusive directory-lock hold and the contention cost are taken by updates only.
  CHECK_THAT(error_of({{"mds", {{"dir_lock", {{"hold", {{"stat", "1ms"}}}}}}}}),
             Catch::Contains("mds.dir_lock.hold.stat") && Catch::Contains("updating operations"));
  CHECK_THAT(error_of({{"mds", {{"dir_lock", {{"hold", {{"close", "1ms"}}}}}}}}),
             Catch::Contains("mds.dir_lock.hold.close") && Catch::Contains("updating operations"));
  CHECK_THAT(error_of({{"mds", {{"mechanisms", {{"contention", {{"per_busy_thread", {{"stat", "100us"}}}}}}}}}}),
             Catch::Contains("mds.mechanisms.contention.per_busy_thread.stat") &&
                 Catch::Contains("updating operations"));
  // The settings that apply to every operation stay accepted for all of them; 0 (no effect) is not an error.
  json dir_lock = {{"hold", {{"create", "40us"}, {"stat", "0us"}}}, {"lookup_hold", {{"stat", "5us"}}}};
  auto p = parse_platform(
      {{"mds", {{"dir_lock", dir_lock}, {"mechanisms", {{"per_client", {{"cost_per_client", {{"stat", "1us"}}}}}}}}}},
      "ok.json");
  CHECK(p.mds.dir_lock.hold_s[pfsim::Op::Create] == Approx(40e-6));
  CHECK(p.mds.dir_lock.lookup_hold_s[pfsim::Op::Stat] == Approx(5e-6));
}

TEST_CASE("journal credits: the default credits are checked against the transaction limit and written out",
          "[config]")
{
  // 1 MiB / 2 MiB / 4 = 0.125: not one whole credit, and an update logs at least one block. It was accepted
  // without per-operation credits and refused with them.
  json journal = {{"enabled", true}, {"block_size", "2MiB"}, {"capacity", "1MiB"}, {"credits", {{"enabled", true}}}};
  json tiny = {{"mds", {{"journal", journal}}}};
  std::string msg = error_of(tiny);
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("mds.journal.credits.enabled") && Catch::Contains("default credits") &&
                      Catch::Contains("transaction limit") && Catch::Contains("0 whole credits"));
  tiny["mds"]["journal"]["credits"]["create"] = 1;
  CHECK_THAT(error_of(tiny), Catch::Contains("mds.journal.credits.create") && Catch::Contains("0 whole credits"));

  // Defaults: the blocks an update logs, rounded up to whole blocks, shown in the effective configuration.
  auto p = parse_platform({{"mds",
                            {{"journal",
                              {{"bytes_per_update", "6KiB"}, {"credits", {{"enabled", true}, {"create", 133}}}}}}}},
                          "ok.json");
  CHECK(p.mds.journal.credits[pfsim::Op::Create] == 133);
  CHECK(p.mds.journal.credits[pfsim::Op::Unlink] == 2);
  CHECK(p.mds.journal.credits[pfsim::Op::Rmdir] == 2);
  CHECK(p.mds.journal.credits[pfsim::Op::Stat] == 0);
  json out = pfsim::config::to_json(p);
  CHECK(out["mds"]["journal"]["credits"] == json({{"enabled", true}, {"create", 133}, {"unlink", 2}, {"mkdir", 2},
                                                  {"rmdir", 2}}));
  // ... and it reads back to the same configuration (credits are written as integers).
  json again = pfsim::config::to_json(parse_platform(json::parse(out.dump()), "again.json"));
  CHECK(again == out);
  // Without credits nothing is filled in.
  CHECK(pfsim::config::to_json(parse_platform(json::object(), "ok.json"))["mds"]["journal"]["credits"] ==
        json({{"enabled", false}}));
}

TEST_CASE("a JSON number beyond a double's range names the file, the field and its position", "[config]")
{
  // It was a raw library exception ("[json.exception.out_of_range.406] number overflow"), exit status 1.
  std::string msg;
  try {
    pfsim::config::parse_json_strict("{\"name\": \"x\",\n \"mds\": {\"cores\": 1e400}}", "big.json");
  } catch (const ConfigError& e) {
    msg = e.what();
  }
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("big.json") && Catch::Contains("field 'mds.cores'") && Catch::Contains("1e400") &&
                      Catch::Contains("line 2, column 19") && Catch::Contains("out of range"));
  // In an array, and with the prefix of a --set value.
  try {
    pfsim::config::parse_json_strict("{\"a\": [1, -1e999]}", "--set x.y={...}", "x.y");
    msg = "";
  } catch (const ConfigError& e) {
    msg = e.what();
  }
  CHECK_THAT(msg, Catch::Contains("--set x.y={...}") && Catch::Contains("field 'x.y.a[1]'"));
}

// A load_delay block is off unless it says "enabled": true, as every mechanism: --set of one of its fields on a
// platform without it (clients.load_delay.per_op.stat.base=10us) used to switch the delay center on.
TEST_CASE("clients.load_delay: a block without enabled stays off", "[config][load_delay]")
{
  auto p = parse_platform(nlohmann::json{{"clients", {{"load_delay", {{"per_op", {{"stat", {{"base", "10us"}}}}}}}}}},
                          "ld.json");
  CHECK_FALSE(p.clients.load_delay.enabled);
  auto q = parse_platform(
      nlohmann::json{{"clients", {{"load_delay", {{"enabled", true}, {"per_op", {{"stat", {{"base", "10us"}}}}}}}}}},
      "ld.json");
  CHECK(q.clients.load_delay.enabled);
}

// --set with an object merges into the file's object: the fields it names override, the others stay. It replaced
// the whole object: --set 'mds.mechanisms={"contention":{"enabled":true}}' silently switched serial_section and
// per_client off.
TEST_CASE("set overrides: an object value is merged into the object at its path", "[config][set]")
{
  nlohmann::json file = {{"mds", {{"threads", {{"min", 2}, {"max", 512}}},
                                  {"mechanisms", {{"per_client", {{"enabled", true}, {"x", 1}}}}}}}};
  auto j = pfsim::app::apply_sets(file, {"mds.threads={\"max\":64}",
                                         "mds.mechanisms={\"contention\":{\"enabled\":true},\"per_client\":{\"x\":2}}"});
  CHECK(j["mds"]["threads"]["min"] == 2);
  CHECK(j["mds"]["threads"]["max"] == 64);
  CHECK(j["mds"]["mechanisms"]["per_client"]["enabled"] == true);
  CHECK(j["mds"]["mechanisms"]["per_client"]["x"] == 2);
  CHECK(j["mds"]["mechanisms"]["contention"]["enabled"] == true);
  // null removes a field (JSON merge patch).
  auto n = pfsim::app::apply_sets(file, {"mds.threads={\"min\":null}"});
  CHECK_FALSE(n["mds"]["threads"].contains("min"));
  CHECK(n["mds"]["threads"]["max"] == 512);
  // PATH=null removes the field too, and makes nothing on a path the file does not have (an empty object there, a
  // law with no delay, would be refused).
  auto r = pfsim::app::apply_sets(file, {"mds.threads.min=null", "clients.load_delay.per_op.write.fitted_size=null"});
  CHECK_FALSE(r["mds"]["threads"].contains("min"));
  CHECK(r["mds"]["threads"]["max"] == 512);
  CHECK_FALSE(r.contains("clients"));
  // A value that is not an object replaces.
  auto k = pfsim::app::apply_sets(file, {"mds.threads=8"});
  CHECK(k["mds"]["threads"] == 8);
}

TEST_CASE("set_gives_field: which --set gives a field (a merge only gives what its value holds)", "[config]")
{
  using pfsim::config::set_gives_field;
  CHECK(set_gives_field("mds.service.create=100us", "mds.service.create"));
  CHECK(set_gives_field("mds.service={\"create\":null}", "mds.service.create", true));
  CHECK(set_gives_field("mds.service.create=null", "mds.service.create", true));
  CHECK_FALSE(set_gives_field("mds.service.create=100us", "mds.service.create", true));
  // A parent path whose value does not hold the field leaves it as the file has it.
  CHECK_FALSE(set_gives_field("mds={\"threads\":{\"max\":32}}", "mds.service.create"));
  CHECK(set_gives_field("mds={\"service\":{\"create\":\"1us\"}}", "mds.service.create"));
  CHECK_FALSE(set_gives_field("mds.services.create=1us", "mds.service.create"));
  CHECK_FALSE(set_gives_field("no-equals-sign", "mds"));
}

TEST_CASE("clients.close_rpcs: without a value, the rule of the Lustre generation the modifying slots describe", "[config]")
{
  // one slot (the pre-2.8 rpc_lock): closes have their own cl_close_lock; 2.8's slots: closes take them
  CHECK(parse_platform(json::object(), "p.json").clients.close_rpcs == "own_lock");
  CHECK(parse_platform({{"clients", {{"max_mod_rpcs_in_flight", 7}}}}, "p.json").clients.close_rpcs == "modifying");
  CHECK(parse_platform({{"clients", {{"max_mod_rpcs_in_flight", 7}, {"close_rpcs", "own_lock"}}}}, "p.json")
            .clients.close_rpcs == "own_lock");
  CHECK(parse_platform(json::object(), "p.json").clients.open_rpcs == "modifying");
  CHECK_THAT(error_of({{"clients", {{"close_rpcs", "lock"}}}}), Catch::Contains("clients.close_rpcs"));
  CHECK_THAT(error_of({{"clients", {{"open_rpcs", "free"}}}}), Catch::Contains("clients.open_rpcs"));
  // the effective configuration records the rule applied
  auto p = parse_platform({{"clients", {{"max_mod_rpcs_in_flight", 3}}}}, "p.json");
  CHECK(pfsim::config::to_json(p)["clients"]["close_rpcs"] == "modifying");
}

TEST_CASE("clients.shared_file_writes and the object servers' per-object order and parallel latency: defaults, "
          "errors, the effective configuration", "[config]")
{
  auto p = parse_platform(json::object(), "p.json");
  CHECK(p.clients.shared_file_writes == "cached");
  CHECK(p.oss.object_serial_write_s == 0);
  CHECK(p.oss.parallel_read_latency_s == 0);
  CHECK_THAT(error_of({{"clients", {{"shared_file_writes", "synchronous"}}}}),
             Catch::Contains("clients.shared_file_writes") && Catch::Contains("sync"));
  CHECK_THAT(error_of({{"oss", {{"object_serial_write", "-1ms"}}}}), Catch::Contains("oss.object_serial_write"));
  CHECK_THAT(error_of({{"oss", {{"parallel_read_latency", "fast"}}}}), Catch::Contains("oss.parallel_read_latency"));
  auto q = parse_platform({{"clients", {{"shared_file_writes", "sync"}}},
                           {"oss", {{"object_serial_write", "2ms"}, {"parallel_read_latency", "3ms"},
                                    {"object_serial_read", "4ms"}, {"parallel_write_latency", "5ms"}}}},
                          "p.json");
  CHECK(q.oss.object_serial_read_s == Approx(4e-3));
  CHECK(q.oss.parallel_write_latency_s == Approx(5e-3));
  const auto j = pfsim::config::to_json(q);
  CHECK(j["clients"]["shared_file_writes"] == "sync");
  CHECK(j["oss"]["object_serial_write"].get<double>() == Approx(2e-3));
  CHECK(j["oss"]["parallel_read_latency"].get<double>() == Approx(3e-3));
  CHECK(j["oss"]["object_serial_read"].get<double>() == Approx(4e-3));
  CHECK(j["oss"]["parallel_write_latency"].get<double>() == Approx(5e-3));
}

TEST_CASE("clients.readahead_window: lustre by default, linux on request, anything else named", "[config]")
{
  CHECK(parse_platform(json::object(), "p.json").clients.readahead_window == "lustre");
  auto p = parse_platform({{"clients", {{"readahead_mb", 8}, {"readahead_window", "linux"}}}}, "p.json");
  CHECK(p.clients.readahead_window == "linux");
  CHECK(pfsim::config::to_json(p)["clients"]["readahead_window"] == "linux");
  CHECK_THAT(error_of({{"clients", {{"readahead_window", "llite"}}}}),
             Catch::Contains("clients.readahead_window") && Catch::Contains("lustre"));
}

TEST_CASE("network.reply_senders: without a value, 16 per 10 us of one-way latency (at least 16, at most 4096)", "[config]")
{
  CHECK(parse_platform(json::object(), "p.json").network.reply_senders == 16);  // 1 + 1 us
  json slow = {{"network", {{"client_link", {{"latency", "250us"}}}, {"server_link", {{"latency", "250us"}}}}}};
  CHECK(parse_platform(slow, "p.json").network.reply_senders == 800);
  slow["network"]["routers"] = {{"count", 2}, {"link", {{"latency", "500us"}}}};
  CHECK(parse_platform(slow, "p.json").network.reply_senders == 1600);
  // at most 16,384 over all servers: 1 MDS and 64 OSSes get 252 each
  slow["oss"] = {{"count", 64}};
  CHECK(parse_platform(slow, "p.json").network.reply_senders == 252);
  slow["network"]["reply_senders"] = 32;
  CHECK(parse_platform(slow, "p.json").network.reply_senders == 32);
}

TEST_CASE("a mechanism block with settings and no \"enabled\" stays off, with a warning", "[config]")
{
  json j = {{"mds", {{"mechanisms", {{"contention", {{"per_busy_thread", {{"create", "10us"}}}}},
                                     {"partitions", {{"enabled", false}, {"count", 4}}}}}}}};
  auto p = parse_platform(j, "p.json");
  CHECK_FALSE(p.mds.contention.enabled);
  REQUIRE(p.warnings.size() == 1);  // partitions are off on purpose ("enabled": false): no warning
  CHECK_THAT(p.warnings[0], Catch::Contains("p.json: mds.mechanisms.contention gives settings but no \"enabled\""));
  CHECK(parse_platform({{"clients", {{"load_delay", {{"per_op", json::object()}}}}}}, "q.json").warnings.size() == 1);
  CHECK(parse_platform(json::object(), "r.json").warnings.empty());
  CHECK(parse_platform({{"mds", {{"journal", {{"credits", {{"create", 8}}}}}}}}, "s.json").warnings.size() == 1);
}

TEST_CASE("a mechanism switched on with every cost 0 changes nothing, and says so", "[config]")
{
  for (const char* m : {"contention", "per_client", "lock_callbacks", "oversubscription", "serial_section"}) {
    auto p = parse_platform({{"mds", {{"mechanisms", {{m, {{"enabled", true}}}}}}}}, "p.json");
    REQUIRE(p.warnings.size() == 1);
    CHECK_THAT(p.warnings[0], Catch::Contains(std::string("p.json: mds.mechanisms.") + m) &&
                                  Catch::Contains("the mechanism is on but changes nothing"));
  }
  // a cost given: no warning
  auto p = parse_platform(
      {{"mds", {{"mechanisms", {{"oversubscription", {{"enabled", true}, {"cost_per_extra_thread", "2us"}}}}}}}}, "p.json");
  CHECK(p.warnings.empty());
}

TEST_CASE("settings that change nothing: one CPU partition, a cross-partition weight without partitions, a load delay "
          "without laws", "[config]")
{
  auto warns = [](const json& j) { return parse_platform(j, "p.json").warnings; };
  auto one = warns({{"mds", {{"mechanisms", {{"partitions", {{"enabled", true}, {"count", 1}}}}}}}});
  REQUIRE(one.size() == 1);
  CHECK_THAT(one[0], Catch::Contains("partitions: count is 1"));
  auto cross = warns({{"mds", {{"mechanisms", {{"contention", {{"enabled", true}, {"per_busy_thread", {{"create", "1us"}}},
                                                               {"cross_partition_factor", 0.5}}}}}}}});
  REQUIRE(cross.size() == 1);
  CHECK_THAT(cross[0], Catch::Contains("cross_partition_factor applies between CPU partitions"));
  auto law = warns({{"clients", {{"load_delay", {{"enabled", true}}}}}});
  REQUIRE(law.size() == 1);
  CHECK_THAT(law[0], Catch::Contains("clients.load_delay is on with no law"));
  // with partitions on, the weight matters: no warning
  CHECK(warns({{"mds", {{"cores", 12}, {"mechanisms", {{"partitions", {{"enabled", true}, {"count", 4}}},
                                                       {"contention", {{"enabled", true}, {"per_busy_thread", {{"create", "1us"}}},
                                                                       {"cross_partition_factor", 0.5}}}}}}}})
            .empty());
}

TEST_CASE("an MDS service time above 1 s is run but warned about: a bare number is read in seconds", "[config]")
{
  auto p = parse_platform({{"mds", {{"service", {{"create", 484}, {"stat", "200us"}}}}}}, "bare.json");
  CHECK(p.mds.service_s[pfsim::Op::Create] == 484);
  REQUIRE(p.warnings.size() == 1);
  CHECK_THAT(p.warnings[0], Catch::Contains("bare.json") && Catch::Contains("mds.service.create") &&
                                Catch::Contains("484us"));
  CHECK(parse_platform({{"mds", {{"service", {{"create", 484e-6}}}}}}, "ok.json").warnings.empty());
}

// helper-129: "stat": "10s" was told "a number without a unit is read in seconds". A value written with its unit is
// taken as meant (no rule warns about a large MDS time as such); only a bare number gets the warning.
TEST_CASE("an MDS service time written with its unit is not warned about as a bare number, however large", "[config]")
{
  for (const char* v : {"10s", "1e9s", "2min"}) {
    auto p = parse_platform({{"mds", {{"service", {{"stat", v}}}}}}, "unit.json");
    INFO(v);
    CHECK(p.warnings.empty());
  }
  auto p = parse_platform({{"mds", {{"service", {{"stat", "10s"}, {"create", 10}}}}}}, "mixed.json");
  REQUIRE(p.warnings.size() == 1);
  CHECK_THAT(p.warnings[0], Catch::Contains("mds.service.create") && !Catch::Contains("mds.service.stat"));
}

// helper-129: a whole number beyond an integer field's range was "expected an integer, got 10000000000.0"; every
// integer field now states its range, whatever the number's form, and takes a whole number however written.
TEST_CASE("an integer field states its range for every value it refuses and takes whole numbers as written", "[config]")
{
  CHECK_THAT(error_of({{"mds", {{"threads", {{"min", 1}, {"max", 1e10}}}}}}),
             Catch::Contains("'mds.threads.max': expected an integer in [1, 100000], got 1e+10"));
  CHECK_THAT(error_of({{"mds", {{"cores", 12.5}}}}), Catch::Contains("'mds.cores': expected an integer in [1, 4096], got 12.5"));
  CHECK_THAT(error_of({{"mds", {{"cores", "twelve"}}}}),
             Catch::Contains("'mds.cores': expected an integer in [1, 4096], got \"twelve\""));
  // 1e400 from a --set reaches the field as its text (nlohmann does not parse it): out of the range, as 1e10
  CHECK_THAT(error_of({{"mds", {{"cores", "1e400"}}}}), Catch::Contains("'mds.cores': expected an integer in [1, 4096], got 1e400"));
  CHECK_THAT(error_of({{"mds", {{"cores", 18446744073709551615ULL}}}}),
             Catch::Contains("expected an integer in [1, 4096], got 18446744073709551615"));
  CHECK_THAT(error_of({{"mds", {{"cores", -1e19}}}}), Catch::Contains("expected an integer in [1, 4096], got -1e+19"));
  CHECK(parse_platform({{"mds", {{"cores", 2e1}}}}, "p.json").mds.cores == 20);
  CHECK(parse_platform({{"mds", {{"cores", 16.0}}}}, "p.json").mds.cores == 16);
  // a number field: the same for the text of a number beyond a double
  CHECK_THAT(error_of({{"clients", {{"readahead_mb", "1e400"}}}}),
             Catch::Contains("'clients.readahead_mb': expected a number in [0, 1048576], got 1e400"));
}

TEST_CASE("readpage_threads.max below readpage_threads.min is rejected with both values", "[config]")
{
  CHECK_THAT(error_of({{"mds", {{"readpage_threads", {{"min", 600}, {"max", 512}}}}}}),
             Catch::Contains("'mds.readpage_threads.max'") &&
                 Catch::Contains("readpage_threads.max is 512 and readpage_threads.min 600"));
}

// helper-129: max_rpcs_in_flight 1 was refused "as Lustre requires". Lustre >= 2.8 keeps its max_mod_rpcs_in_flight
// tunable below max_rpcs_in_flight (obd_set_max_mod_rpcs_in_flight); a 1.8 client has no such tunable (its rpc_lock
// is max_mod_rpcs_in_flight 1 here) and its mdc takes max_rpcs_in_flight 1. Both generations' settings are accepted.
TEST_CASE("clients.max_mod_rpcs_in_flight: at most max_rpcs_in_flight, and below it when above 1", "[config]")
{
  const auto clients = [](int rif, int mod) {
    return json{{"clients", {{"max_rpcs_in_flight", rif}, {"max_mod_rpcs_in_flight", mod}}}};
  };
  const auto one = parse_platform(clients(1, 1), "p.json");
  CHECK(one.clients.max_rpcs_in_flight == 1);
  CHECK(one.clients.osc_max_rpcs_in_flight == 1);
  CHECK(one.clients.close_rpcs == "own_lock");
  CHECK_NOTHROW(parse_platform(clients(8, 7), "p.json"));
  CHECK_NOTHROW(parse_platform(clients(2, 1), "p.json"));
  CHECK_THAT(error_of(clients(8, 8)),
             Catch::Contains("'clients.max_mod_rpcs_in_flight': expected less than max_rpcs_in_flight; "
                             "max_mod_rpcs_in_flight is 8 and max_rpcs_in_flight 8"));
  CHECK_THAT(error_of(clients(1, 2)), Catch::Contains("expected less than max_rpcs_in_flight; "
                                                      "max_mod_rpcs_in_flight is 2 and max_rpcs_in_flight 1"));
}

// helper-135: a routers block with a link and no count ran without routers (count 0), a 4-rank IOR write at 4,258
// MiB/s through 1 Gbps router links, without a word. "count": 0 written out keeps the link unused on purpose (the
// effective configuration writes it so for every platform without routers).
TEST_CASE("network.routers: a router link without a count is refused, a count of 0 written out keeps it", "[config]")
{
  const json link = {{"bandwidth", "1Gbps"}, {"latency", "1us"}};
  const std::string msg = error_of({{"network", {{"routers", {{"link", link}}}}}}, "dne4.json");
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("dne4.json") && Catch::Contains("'network.routers.count'") &&
                      Catch::Contains("no router") && Catch::Contains("\"count\": 0"));
  auto p = parse_platform({{"network", {{"routers", {{"count", 0}, {"link", link}}}}}}, "off.json");
  CHECK(p.network.router_count == 0);
  CHECK(p.warnings.empty());
  CHECK(parse_platform({{"network", {{"routers", {{"count", 4}, {"link", link}}}}}}, "on.json").network.router_count == 4);
  CHECK(parse_platform({{"network", {{"routers", {{"count", 4}}}}}}, "nolink.json").warnings.empty());  // default link
  CHECK(error_of({{"network", {{"routers", json::object()}}}}).empty());
  // a misspelt count is named as such
  CHECK_THAT(error_of({{"network", {{"routers", {{"cuont", 4}, {"link", link}}}}}}),
             Catch::Contains("unknown field 'network.routers.cuont'"));
}

// helper-135: settings that the file gives but that other settings make inert were accepted without a word.
TEST_CASE("a setting that its other settings make inert is warned about, naming the file and the field", "[config]")
{
  auto warns = [](const json& j) { return parse_platform(j, "p.json").warnings; };
  auto hold = warns({{"clients", {{"hold_partial_rpcs", true}}}});
  REQUIRE(hold.size() == 1);
  CHECK_THAT(hold[0], Catch::StartsWith("p.json: clients.hold_partial_rpcs") && Catch::Contains("max_dirty_mb is 0") &&
                          Catch::Contains("changes nothing"));
  CHECK(warns({{"clients", {{"hold_partial_rpcs", true}, {"max_dirty_mb", 32}}}}).empty());
  CHECK(warns({{"clients", {{"hold_partial_rpcs", false}}}}).empty());
  auto ra = warns({{"clients", {{"readahead_node_mb", 64}}}});
  REQUIRE(ra.size() == 1);
  CHECK_THAT(ra[0], Catch::StartsWith("p.json: clients.readahead_node_mb") && Catch::Contains("readahead_mb is 0") &&
                        Catch::Contains("changes nothing"));
  CHECK(warns({{"clients", {{"readahead_node_mb", 0}}}}).empty());
  CHECK(warns({{"clients", {{"readahead_mb", 8}, {"readahead_node_mb", 64}}}}).empty());
  // Off on purpose ("enabled": false), as the existing rule for mechanism blocks: the settings are kept for a --set
  // ...enabled=true, and the effective configuration writes them so; no warning.
  CHECK(warns({{"mds", {{"dir_lock", {{"enabled", false}, {"hold", {{"create", "100us"}}}}}}}}).empty());
  CHECK(warns({{"mds", {{"journal", {{"enabled", false}, {"disk_write", "10MBps"}}}}}}).empty());
  // The effective configuration of the shipped platforms reads back without these warnings.
  for (const char* name : {"titan-atlas2.json", "spartan-cephfs-fitted.json", "nersc-grace-lmt.json"}) {
    const auto p = pfsim::config::load_platform(repo_root() + "/platforms/" + name);
    INFO(name);
    CHECK(parse_platform(pfsim::config::to_json(p), name).warnings.empty());
  }
}

// helper-135: with bytes_per_update 0 an update logs nothing and the journal never commits: on, yet doing nothing.
TEST_CASE("mds.journal.bytes_per_update: 0 is refused with the journal on, taken with it off", "[config]")
{
  const std::string msg = error_of({{"mds", {{"journal", {{"bytes_per_update", 0}}}}}}, "j.json");
  INFO(msg);
  CHECK_THAT(msg, Catch::Contains("j.json") && Catch::Contains("'mds.journal.bytes_per_update'") &&
                      Catch::Contains("\"enabled\": false"));
  CHECK(error_of({{"mds", {{"journal", {{"enabled", false}, {"bytes_per_update", 0}}}}}}).empty());
  CHECK(error_of({{"mds", {{"journal", {{"bytes_per_update", "512B"}}}}}}).empty());
}

// helper-135: "50us " was refused (unknown duration unit "us ") where " 50us" was taken.
TEST_CASE("a unit string's blanks before and after are taken alike", "[config]")
{
  for (const char* v : {"50us", " 50us", "50us ", " 50 us ", "50\tus\t"}) {
    INFO('"' << v << '"');
    auto p = parse_platform({{"clients", {{"rpc_overhead", v}}}}, "p.json");
    CHECK(p.clients.rpc_overhead_s == 50e-6);
  }
  // a quoted number without a unit stays refused, blanks or not
  CHECK_THAT(error_of({{"clients", {{"rpc_overhead", "50 "}}}}), Catch::Contains("with a unit"));
}

// A --set that makes a file's setting inert is named by the warning, as a --set that gives the setting is.
TEST_CASE("an inert-setting warning names the --set that made the setting inert, or that gave it", "[config][set]")
{
  const std::string titan = repo_root() + "/platforms/titan-atlas2.json";  // hold_partial_rpcs, max_dirty_mb 32
  auto off = pfsim::app::load_platform_unprinted(titan, {"clients.max_dirty_mb=0"});
  REQUIRE(off.warnings.size() == 1);
  CHECK_THAT(off.warnings[0], Catch::StartsWith("--set clients.max_dirty_mb=0: clients.hold_partial_rpcs is true"));
  auto ra = pfsim::app::load_platform_unprinted(titan, {"clients.readahead_mb=0", "clients.readahead_node_mb=64"});
  REQUIRE(ra.warnings.size() == 1);
  CHECK_THAT(ra.warnings[0], Catch::StartsWith("--set clients.readahead_node_mb=64: clients.readahead_node_mb is 64"));
  CHECK(pfsim::app::load_platform_unprinted(titan, {}).warnings.empty());
  const std::string msg = [&] {
    try {
      pfsim::app::load_platform_unprinted(repo_root() + "/platforms/mistral-lustre02.json",
                                          {"network.routers.link.bandwidth=1Gbps"});
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  CHECK_THAT(msg, Catch::StartsWith("--set network.routers.link.bandwidth=1Gbps: ") &&
                      Catch::Contains("'network.routers.count'"));
}
