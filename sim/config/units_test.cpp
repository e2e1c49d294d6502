#include "config/units.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

using namespace pfsim::units;

TEST_CASE("unit strings convert to base units", "[units]")
{
  CHECK(parse_duration_s("24us") == Approx(24e-6));
  CHECK(parse_duration_s("1.5ms") == Approx(1.5e-3));
  CHECK(parse_duration_s("2", true) == Approx(2.0));  // a bare number only where the caller allows it
  CHECK(parse_size_B("1MiB") == Approx(1048576.0));
  CHECK(parse_size_B("3900B") == Approx(3900.0));
  CHECK(parse_size_B("1GB") == Approx(1e9));
  CHECK(parse_bandwidth_Bps("10Gbps") == Approx(1.25e9));
  CHECK(parse_bandwidth_Bps("500MBps") == Approx(5e8));
  CHECK(parse_bandwidth_Bps("8Tbps") == Approx(parse_bandwidth_Bps("1TBps")));  // bytes reach tera as bits do
  CHECK(parse_bandwidth_Bps("1TiBps") == Approx(1099511627776.0));
  CHECK(parse_frequency_Hz("2.4GHz") == Approx(2.4e9));
  // IOR's and lfs's one-letter size suffixes are powers of 1024 (helper-78: --set oss.stripe_size=64k was refused)
  CHECK(parse_size_B("64k") == 65536.0);
  CHECK(parse_size_B("1M") == 1048576.0);
  CHECK(parse_size_B("2g") == 2147483648.0);
}

TEST_CASE("a decimal value scaled by a power of ten is the double nearest the value as written", "[units]")
{
  // helper-77: 100 x 1e-6 rounds twice (9.999999999999999e-05), and the effective configuration showed it
  CHECK(parse_duration_s("100us") == 1e-4);
  CHECK(parse_duration_s("10us") == 1e-5);
  CHECK(parse_duration_s("1162.34us") == 0.00116234);
  CHECK(parse_duration_s("700ms") == 0.7);
  CHECK(parse_size_B("3.9kB") == 3900.0);
  CHECK(parse_duration_s("1.5e3us") == Approx(1.5e-3));  // an exponent in the text: scaled as before
  CHECK(parse_duration_s("2min") == 120.0);              // not a power of ten
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
  CHECK(parse_duration_s("0.25", true) == Approx(0.25));
}

TEST_CASE("a unit string without its unit is refused, with an example that has one", "[units]")
{
  CHECK_THROWS_WITH(parse_duration_s("20"), Catch::Contains("with a unit") && Catch::Contains("\"24us\"") &&
                                                Catch::Contains("\"20\"") && Catch::Contains("JSON number"));
  CHECK_THROWS_WITH(parse_size_B("512"), Catch::Contains("with a unit") && Catch::Contains("\"1MiB\""));
  CHECK_THROWS_WITH(parse_bandwidth_Bps("10"), Catch::Contains("with a unit") && Catch::Contains("\"10Gbps\""));
  CHECK_THROWS_WITH(parse_frequency_Hz("2e9"), Catch::Contains("with a unit"));
  CHECK_THROWS_AS(parse_duration_s("0"), std::invalid_argument);
  CHECK(parse_size_B("512", true) == Approx(512.0));
  CHECK(parse_bandwidth_Bps("10", true) == Approx(10.0));
}

TEST_CASE("values beyond what a simulation can represent are out of range", "[units]")
{
  // Durations at most 1e9 s: past ~1e17 s a microsecond step no longer advances the clock (runs hung).
  CHECK(parse_duration_s("1e9s") == Approx(1e9));
  CHECK_THROWS_WITH(parse_duration_s("1e20s"),
                    Catch::Contains("\"1e20s\" is out of range") && Catch::Contains("1e9 s"));
  CHECK_THROWS_WITH(parse_duration_s("277778h"), Catch::Contains("out of range"));  // 1.0000008e9 s
  CHECK_THROWS_WITH(parse_duration_s("2e9", true), Catch::Contains("out of range"));
  // Sizes at most 1e15 B (1 PB), as the command line's -w / -e: near 2^64 they overflow.
  CHECK(parse_size_B("1e15B") == Approx(1e15));
  CHECK_THROWS_WITH(parse_size_B("1e20B"), Catch::Contains("out of range") && Catch::Contains("1 PB"));
  CHECK_THROWS_WITH(parse_size_B("1024TiB"), Catch::Contains("out of range"));
  // Bandwidths: finite, and 0 or at least 1 B/s (a smaller one makes one request last ages); no upper bound.
  CHECK(parse_bandwidth_Bps("1e300Bps") == Approx(1e300));
  CHECK(parse_bandwidth_Bps("0Bps") == 0);
  CHECK_THROWS_WITH(parse_bandwidth_Bps("1e308Gbps"), Catch::Contains("out of range"));
  CHECK_THROWS_WITH(parse_bandwidth_Bps("1bps"), Catch::Contains("out of range") && Catch::Contains("1 B/s"));
  // A number beyond a double's range says so (it used to say "expected a duration such as \"us\"").
  CHECK_THROWS_WITH(parse_duration_s("1e400us"),
                    Catch::Contains("the number in \"1e400us\" is out of range") && Catch::Contains("1e9 s"));
  CHECK_THROWS_WITH(parse_bandwidth_Bps("1e400Bps"), Catch::Contains("out of range"));
  CHECK(parse_duration_s("1e-400s") == 0);  // underflow: the nearest double, as a JSON number would read
  // The same bounds for bare JSON numbers, which the configuration reader checks with these.
  CHECK(check_duration_s(5) == 5);
  CHECK_THROWS_WITH(check_duration_s(1e20), Catch::Contains("1e+20 is out of range") && Catch::Contains("1e9 s"));
  CHECK_THROWS_WITH(check_size_B(2e15), Catch::Contains("out of range") && Catch::Contains("1 PB"));
  CHECK_THROWS_WITH(check_bandwidth_Bps(1e-300), Catch::Contains("out of range"));
  CHECK(check_bandwidth_Bps(0) == 0);
}

TEST_CASE("the tools' option sizes: IOR's parser, powers of 1024", "[units]")
{
  using pfsim::units::parse_tool_size;
  CHECK(parse_tool_size("3901") == 3901);
  CHECK(parse_tool_size("4k") == 4096);
  CHECK(parse_tool_size("1M") == 1048576);
  CHECK(parse_tool_size("2g") == 2.0 * (1 << 30));
  CHECK(parse_tool_size("1p") == std::ldexp(1.0, 50));
  CHECK(parse_tool_size("0") == 0);
  // IOR's sscanf(" %lld %c "): blanks around, nothing read after the letter (helper-134: scripts pass -b 16MB)
  for (const char* spelled : {"16MB", "16mb", "16MiB", "16mib", "16 m", " 16m ", "\t16M"})
    CHECK(parse_tool_size(spelled) == 16.0 * 1048576);
  CHECK(parse_tool_size(" 7 ") == 7);
  for (const char* bad : {"", "k", "-1", "+1", "1.5k", "1x", "1kx", "1mbs", "1 k b", "1 2", "12345678901"})
    CHECK(parse_tool_size(bad, 10) == -1);
  CHECK(parse_tool_size("12345678901", 11) == 12345678901.0);
}

// helper-135: "50us " was refused (unknown duration unit "us ") where " 50us" was taken; blanks (spaces, tabs) around
// the number and the unit are taken alike, as the documentation's "200 us".
TEST_CASE("blanks before and after a unit string are taken alike", "[units]")
{
  CHECK(parse_duration_s("50us ") == 50e-6);
  CHECK(parse_duration_s(" 50us") == 50e-6);
  CHECK(parse_duration_s(" 50 us\t") == 50e-6);
  CHECK(parse_size_B("4KiB  ") == 4096.0);
  CHECK(parse_bandwidth_Bps("10Gbps ") == 1.25e9);
  CHECK(parse_duration_s("2 ", true) == 2.0);
  CHECK_THROWS_WITH(parse_duration_s("2 "), Catch::Contains("with a unit"));  // a quoted number still needs its unit
  CHECK_THROWS_WITH(parse_duration_s("50u s"), Catch::Contains("unknown duration unit \"u s\""));
}

// A positive size (a load law's fitted_size): the size table, at least one byte; 0, fractions of a byte and negatives
// refused with one rule, as a positive bandwidth's.
TEST_CASE("a positive size is at least one byte, in any size unit", "[units]")
{
  CHECK(parse_positive_size_B("3900B") == 3900);
  CHECK(parse_positive_size_B("4KiB") == 4096);
  CHECK(parse_positive_size_B("1B") == 1);
  CHECK(check_positive_size_B(1) == 1);
  for (const char* bad : {"0B", "0.5B", "-1B", "1e-300B"})
    CHECK_THROWS_WITH(parse_positive_size_B(bad), Catch::Contains("expected a positive size of at least 1 byte"));
  for (double bad : {0.0, 0.5, -3900.0})
    CHECK_THROWS_WITH(check_positive_size_B(bad), Catch::Contains("expected a positive size of at least 1 byte"));
  CHECK(parse_size_B("0.5B") == 0.5);  // an ordinary size field keeps its range
}
