#include "config/units.hpp"

#include <cctype>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

namespace pfsim::units {
namespace {

using Table = std::vector<std::pair<const char*, double>>;

// Splits "<number><suffix>" and scales by the suffix's factor. Throws std::invalid_argument naming the
// accepted suffixes when the text is not a finite non-negative number followed by a known suffix.
double parse_with(const std::string& text, const Table& table, const char* what)
{
  size_t pos = 0;
  double value = 0;
  // Decimal numbers only: std::stod would also read hexadecimal ("0x10") and "inf"/"nan".
  size_t first = text.find_first_not_of(" \t");
  if (first != std::string::npos && (text[first] == '+' || text[first] == '-'))
    ++first;
  if (first == std::string::npos || first >= text.size() ||
      !(std::isdigit(static_cast<unsigned char>(text[first])) || text[first] == '.') ||
      text.find_first_of("xX", first) == first + 1)
    throw std::invalid_argument("expected a " + std::string(what) + " such as \"" + table.front().first +
                                "\" after a decimal number, got \"" + text + "\"");
  try {
    value = std::stod(text, &pos);
  } catch (const std::exception&) {
    throw std::invalid_argument("expected a " + std::string(what) + " such as \"" + table.front().first +
                                "\", got \"" + text + "\"");
  }
  std::string suffix = text.substr(pos);
  while (!suffix.empty() && std::isspace(static_cast<unsigned char>(suffix.front())))
    suffix.erase(suffix.begin());
  if (!std::isfinite(value) || value < 0)
    throw std::invalid_argument("expected a non-negative " + std::string(what) + ", got \"" + text + "\"");
  if (suffix.empty())
    return value;
  for (const auto& [name, factor] : table)
    if (suffix == name)
      return value * factor;
  std::string known;
  for (const auto& entry : table)
    known += std::string(known.empty() ? "" : ", ") + entry.first;
  throw std::invalid_argument("unknown " + std::string(what) + " unit \"" + suffix + "\" in \"" + text +
                              "\" (known: " + known + ")");
}

}  // namespace

double parse_duration_s(const std::string& text)
{
  static const Table table{{"us", 1e-6}, {"ns", 1e-9}, {"ms", 1e-3}, {"s", 1.0}, {"min", 60.0}, {"h", 3600.0}};
  return parse_with(text, table, "duration");
}

double parse_size_B(const std::string& text)
{
  static const Table table{{"MiB", 1048576.0},    {"B", 1.0},     {"KiB", 1024.0}, {"GiB", 1073741824.0},
                           {"TiB", 1099511627776.0}, {"kB", 1e3}, {"KB", 1e3},     {"MB", 1e6},
                           {"GB", 1e9},           {"TB", 1e12}};
  return parse_with(text, table, "size");
}

double parse_bandwidth_Bps(const std::string& text)
{
  static const Table table{{"Gbps", 1e9 / 8},      {"Bps", 1.0},       {"kBps", 1e3},        {"MBps", 1e6},
                           {"GBps", 1e9},          {"KiBps", 1024.0},  {"MiBps", 1048576.0}, {"GiBps", 1073741824.0},
                           {"bps", 1.0 / 8},       {"kbps", 1e3 / 8},  {"Mbps", 1e6 / 8},    {"Tbps", 1e12 / 8}};
  return parse_with(text, table, "bandwidth");
}

double parse_frequency_Hz(const std::string& text)
{
  static const Table table{{"GHz", 1e9}, {"Hz", 1.0}, {"kHz", 1e3}, {"MHz", 1e6},
                           {"f", 1.0},   {"kf", 1e3}, {"Mf", 1e6},  {"Gf", 1e9}};
  return parse_with(text, table, "frequency");
}

}  // namespace pfsim::units
