#include "config/units.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <utility>
#include <vector>

namespace pfsim::units {
namespace {

using Table = std::vector<std::pair<const char*, double>>;

constexpr const char* kDoubleRange = " within a double's range (about 1.8e308)";

struct Quantity {
  const char* what;     // "duration"
  const char* example;  // "24us"
  const char* base;     // "seconds", how a bare number is read
  Table table;
  double max;            // largest value in the base unit (0: none)
  const char* max_text;  // "1e9 s"
  double min_positive;   // smallest non-zero value in the base unit (0: none)
  const char* min_text;
};

const Quantity kDuration{"duration",
                         "24us",
                         "seconds",
                         {{"us", 1e-6}, {"ns", 1e-9}, {"ms", 1e-3}, {"s", 1.0}, {"min", 60.0}, {"h", 3600.0}},
                         kMaxDurationS,
                         "1e9 s (about 32 years)",
                         0,
                         ""};
const Quantity kSize{"size",
                     "1MiB",
                     "bytes",
                     {{"MiB", 1048576.0},
                      {"B", 1.0},
                      {"KiB", 1024.0},
                      {"GiB", 1073741824.0},
                      {"TiB", 1099511627776.0},
                      {"kB", 1e3},
                      {"KB", 1e3},
                      {"MB", 1e6},
                      {"GB", 1e9},
                      {"TB", 1e12},
                      {"PiB", 1125899906842624.0},
                      {"PB", 1e15},
                      // IOR's and lfs setstripe's one-letter suffixes: powers of 1024 (-t 64k, -S 1M)
                      {"k", 1024.0},
                      {"K", 1024.0},
                      {"m", 1048576.0},
                      {"M", 1048576.0},
                      {"g", 1073741824.0},
                      {"G", 1073741824.0},
                      {"t", 1099511627776.0},
                      {"T", 1099511627776.0}},
                     kMaxSizeB,
                     "1e15 B (1 PB)",
                     0,
                     ""};
// A size where 0 is no value (the bytes a load law was fitted on): the same units, at least one byte.
const Quantity kPositiveSize = [] {
  Quantity q = kSize;
  q.min_positive = 1;
  q.min_text = "1 byte";
  return q;
}();
const Quantity kBandwidth{"bandwidth",
                          "10Gbps",
                          "bytes/s",
                          {{"Gbps", 1e9 / 8},
                           {"Bps", 1.0},
                           {"kBps", 1e3},
                           {"MBps", 1e6},
                           {"GBps", 1e9},
                           {"KiBps", 1024.0},
                           {"MiBps", 1048576.0},
                           {"GiBps", 1073741824.0},
                           {"TBps", 1e12},
                           {"TiBps", 1099511627776.0},
                           {"bps", 1.0 / 8},
                           {"kbps", 1e3 / 8},
                           {"Mbps", 1e6 / 8},
                           {"Tbps", 1e12 / 8}},
                          0,
                          "",
                          kMinBandwidthBps,
                          "1 B/s (8 bps)"};
const Quantity kFrequency{"frequency",
                          "2.4GHz",
                          "Hz",
                          {{"GHz", 1e9}, {"Hz", 1.0}, {"kHz", 1e3}, {"MHz", 1e6}, {"f", 1.0}, {"kf", 1e3}, {"Mf", 1e6},
                           {"Gf", 1e9}},
                          0,
                          "",
                          0,
                          ""};

// What a field that refuses 0 expects: "expected a positive bandwidth of at least 1 B/s (8 bps)".
std::string positive_expected(const Quantity& q)
{
  return std::string("expected a positive ") + q.what +
         (q.min_positive > 0 ? std::string(" of at least ") + q.min_text : std::string());
}

// The value (base unit) within the quantity's bounds, or invalid_argument; `shown` is the value as written. With
// `positive`, 0 and anything below the smallest non-zero value (negatives too) are refused as one rule.
double check(const Quantity& q, double value, const std::string& shown, bool positive = false)
{
  if (positive && std::isfinite(value) && (value <= 0 || value < q.min_positive))
    throw std::invalid_argument(positive_expected(q) + ", got " + shown);
  if (!std::isfinite(value) || (q.max > 0 && value > q.max))
    throw std::invalid_argument(shown + " is out of range: expected a " + q.what +
                                (q.max > 0 ? std::string(" of at most ") + q.max_text : std::string(kDoubleRange)));
  if (value > 0 && value < q.min_positive)
    throw std::invalid_argument(shown + " is out of range: expected a " + q.what + " of 0 or at least " + q.min_text);
  return value;
}

std::string json_number(double value)
{
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", value);
  // The shortest form that reads back the same, as the JSON text most likely had it.
  for (int digits = 1; digits <= 17; ++digits) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, value);
    if (std::strtod(shorter, nullptr) == value)
      return shorter;
  }
  return buf;
}

// number x factor. A power of ten scales the decimal text itself ("100" and 1e-6 read as "100e-6"): the double nearest
// the value as written (0.0001), where 100 x 1e-6 rounds twice and gives 9.999999999999999e-05, which the effective
// configuration would show.
double scaled(const std::string& number, double value, double factor)
{
  const int e = static_cast<int>(std::lround(std::log10(factor)));
  if (number.find_first_of("eE") != std::string::npos || std::strtod(("1e" + std::to_string(e)).c_str(), nullptr) != factor)
    return value * factor;
  return std::strtod((number + "e" + std::to_string(e)).c_str(), nullptr);
}

// Splits "<number><suffix>" and scales by the suffix's factor. Throws std::invalid_argument naming what was
// expected when the text is not a finite non-negative decimal number followed by a known suffix, or when the
// value is out of the quantity's range.
double parse_with(const std::string& text, const Quantity& q, bool bare_ok, bool positive = false)
{
  const std::string expected =
      std::string("expected a ") + q.what + " such as \"" + q.example + "\" (a decimal number and a unit)";
  // Decimal numbers only: strtod would also read hexadecimal ("0x10") and "inf"/"nan".
  size_t first = text.find_first_not_of(" \t");
  if (first != std::string::npos && (text[first] == '+' || text[first] == '-'))
    ++first;
  if (first == std::string::npos || first >= text.size() ||
      !(std::isdigit(static_cast<unsigned char>(text[first])) || text[first] == '.') ||
      text.find_first_of("xX", first) == first + 1)
    throw std::invalid_argument(expected + ", got \"" + text + "\"");
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  double value = std::strtod(begin, &end);
  if (end == begin)
    throw std::invalid_argument(expected + ", got \"" + text + "\"");
  // strtod says ERANGE on overflow (HUGE_VAL) and on underflow (a tiny number, 0 or subnormal, kept as such).
  if (errno == ERANGE && std::isinf(value))
    throw std::invalid_argument("the number in \"" + text + "\" is out of range: expected a " + q.what +
                                (q.max > 0 ? std::string(" of at most ") + q.max_text : std::string(kDoubleRange)));
  std::string suffix = text.substr(static_cast<size_t>(end - begin));
  // Blanks around the unit as before the number (" 50us", "50us ", "200 us"): helper-135's "50us " was refused.
  while (!suffix.empty() && std::isspace(static_cast<unsigned char>(suffix.front())))
    suffix.erase(suffix.begin());
  while (!suffix.empty() && (suffix.back() == ' ' || suffix.back() == '\t'))
    suffix.pop_back();
  if (!std::isfinite(value) || value < 0)
    throw std::invalid_argument((positive ? positive_expected(q) : std::string("expected a non-negative ") + q.what) +
                                ", got \"" + text + "\"");
  if (suffix.empty()) {
    if (!bare_ok)
      throw std::invalid_argument(std::string("expected a ") + q.what + " with a unit, such as \"" + q.example +
                                  "\", got \"" + text + "\" (a number in " + q.base +
                                  " is written as a JSON number, without quotes)");
    return check(q, value, "\"" + text + "\"", positive);
  }
  for (const auto& [name, factor] : q.table)
    if (suffix == name)
      return check(q, scaled(std::string(begin, static_cast<size_t>(end - begin)), value, factor), "\"" + text + "\"",
                   positive);
  std::string known;
  for (const auto& entry : q.table)
    known += std::string(known.empty() ? "" : ", ") + entry.first;
  throw std::invalid_argument("unknown " + std::string(q.what) + " unit \"" + suffix + "\" in \"" + text +
                              "\" (known: " + known + ")");
}

}  // namespace

double parse_duration_s(const std::string& text, bool bare_ok)
{
  return parse_with(text, kDuration, bare_ok);
}

double parse_size_B(const std::string& text, bool bare_ok)
{
  return parse_with(text, kSize, bare_ok);
}

double parse_positive_size_B(const std::string& text, bool bare_ok)
{
  return parse_with(text, kPositiveSize, bare_ok, true);
}

double parse_bandwidth_Bps(const std::string& text, bool bare_ok)
{
  return parse_with(text, kBandwidth, bare_ok);
}

double parse_positive_bandwidth_Bps(const std::string& text, bool bare_ok)
{
  return parse_with(text, kBandwidth, bare_ok, true);
}

double parse_frequency_Hz(const std::string& text, bool bare_ok)
{
  return parse_with(text, kFrequency, bare_ok);
}

double check_duration_s(double seconds)
{
  return check(kDuration, seconds, json_number(seconds));
}

double check_size_B(double bytes)
{
  return check(kSize, bytes, json_number(bytes));
}

double check_positive_size_B(double bytes)
{
  return check(kPositiveSize, bytes, json_number(bytes), true);
}

double check_bandwidth_Bps(double bytes_per_s)
{
  return check(kBandwidth, bytes_per_s, json_number(bytes_per_s));
}

double check_positive_bandwidth_Bps(double bytes_per_s)
{
  return check(kBandwidth, bytes_per_s, json_number(bytes_per_s), true);
}

double check_frequency_Hz(double hz)
{
  return check(kFrequency, hz, json_number(hz));
}

double parse_tool_size(const std::string& text, size_t max_digits)
{
  const auto blank = [&text](size_t i) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t'))
      ++i;
    return i;
  };
  const size_t first = blank(0);
  size_t end = first;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9')
    ++end;
  const size_t digits = end - first;
  if (digits == 0 || digits > max_digits)
    return -1;
  size_t i = blank(end);
  int shift = 0;
  if (i < text.size()) {
    static const std::string suffixes = "kmgtp";
    const size_t k = suffixes.find(static_cast<char>(std::tolower(static_cast<unsigned char>(text[i]))));
    if (k == std::string::npos)
      return -1;
    shift = 10 * static_cast<int>(k + 1);
    ++i;
    // IOR reads nothing after the unit letter: 16MB and 16MiB are 16m. Only those spellings are taken here.
    const auto lower = [&text](size_t at) { return std::tolower(static_cast<unsigned char>(text[at])); };
    if (i < text.size() && lower(i) == 'i' && i + 1 < text.size() && lower(i + 1) == 'b')
      i += 2;
    else if (i < text.size() && lower(i) == 'b')
      ++i;
    if (blank(i) != text.size())
      return -1;
  }
  return std::ldexp(std::stod(text.substr(first, digits)), shift);
}

}  // namespace pfsim::units
