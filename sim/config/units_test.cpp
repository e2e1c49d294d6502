#include "config/units.hpp"

#include <catch2/catch.hpp>
#include <stdexcept>

using namespace pfsim::units;

TEST_CASE("unit strings convert to base units", "[units]")
{
  CHECK(parse_duration_s("24us") == Approx(24e-6));
  CHECK(parse_duration_s("1.5ms") == Approx(1.5e-3));
  CHECK(parse_duration_s("2") == Approx(2.0));
  CHECK(parse_size_B("1MiB") == Approx(1048576.0));
  CHECK(parse_size_B("3900B") == Approx(3900.0));
  CHECK(parse_size_B("1GB") == Approx(1e9));
  CHECK(parse_bandwidth_Bps("10Gbps") == Approx(1.25e9));
  CHECK(parse_bandwidth_Bps("500MBps") == Approx(5e8));
  CHECK(parse_frequency_Hz("2.4GHz") == Approx(2.4e9));
}

TEST_CASE("bad unit strings are rejected with the accepted units", "[units]")
{
  CHECK_THROWS_WITH(parse_duration_s("24parsecs"), Catch::Contains("unknown duration unit") && Catch::Contains("us"));
  CHECK_THROWS_AS(parse_size_B("-1MiB"), std::invalid_argument);
  CHECK_THROWS_AS(parse_size_B("lots"), std::invalid_argument);
  CHECK_THROWS_AS(parse_bandwidth_Bps("10 furlongs"), std::invalid_argument);
}

TEST_CASE("only decimal numbers are read: hexadecimal, inf and nan are rejected", "[units]")
{
  CHECK_THROWS_WITH(parse_duration_s("0x10us"), Catch::Contains("decimal") && Catch::Contains("0x10us"));
  CHECK_THROWS_AS(parse_size_B("0X1p3B"), std::invalid_argument);
  CHECK_THROWS_AS(parse_duration_s("inf"), std::invalid_argument);
  CHECK_THROWS_AS(parse_duration_s("nan s"), std::invalid_argument);
  CHECK(parse_duration_s(".5ms") == Approx(0.5e-3));
  CHECK(parse_duration_s("1e-3s") == Approx(1e-3));
  CHECK(parse_duration_s("0.25") == Approx(0.25));
}
