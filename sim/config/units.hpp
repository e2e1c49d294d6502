// Unit strings accepted in configuration files, converted once on reading.
#pragma once
#include <cstddef>
#include <string>

namespace pfsim::units {

// The largest values accepted (in the base unit), whether written with a unit or as a bare JSON number. Beyond
// them a simulation hangs or is silently wrong: past ~1e17 s a microsecond step no longer advances a double clock,
// and byte counts near 2^64 overflow SimGrid's sizes. 1e9 s is the trace importer's bound; 1e15 B (1 PB) is the
// command line's -w / -e bound.
constexpr double kMaxDurationS = 1e9;
constexpr double kMaxSizeB = 1e15;
// A bandwidth is 0 (only where the field allows it, e.g. an unused disk) or at least this: below it a single
// request takes longer than kMaxDurationS allows for. There is no upper bound (a huge bandwidth only makes
// transfers instantaneous).
constexpr double kMinBandwidthBps = 1;

// Every parser reads "<decimal number><unit>" and throws std::invalid_argument with a message saying what was
// expected (a unit such as "24us", a known unit, a non-negative number, a value within the bounds above). A
// number without a unit is refused unless `bare_ok` is true, then read in the base unit: configuration fields
// take bare numbers as JSON numbers, not strings (a quoted "20" is too easily a typo for "20us").
// Durations: "24us", "1.5ms", "2s", "1min", "100ns"; base unit seconds.
double parse_duration_s(const std::string& text, bool bare_ok = false);
// Sizes: "4KiB", "1MiB", "3900B", "1GB" (SI, 1000-based), "1GiB" (1024-based); base unit bytes.
double parse_size_B(const std::string& text, bool bare_ok = false);
// The same for a field where 0 is no value: 0 and anything below 1 byte, negatives included, are refused with one
// rule, "expected a positive size of at least 1 byte".
double parse_positive_size_B(const std::string& text, bool bare_ok = false);
// Bandwidths: "10Gbps" (bits), "1.25GBps" / "1GiBps" (bytes), "500MBps"; base unit bytes/s.
double parse_bandwidth_Bps(const std::string& text, bool bare_ok = false);
// The same for a field where 0 is no value (a link, a disk that data crosses): 0 is refused too, and every value
// below the bound, negatives included, is refused with one rule, "expected a positive bandwidth of at least 1 B/s".
double parse_positive_bandwidth_Bps(const std::string& text, bool bare_ok = false);
// Frequencies / CPU speeds: "2.4GHz", "1e9Hz", "1Gf" (flop/s); base unit Hz.
double parse_frequency_Hz(const std::string& text, bool bare_ok = false);

// The same range checks for a value already in the base unit (a bare JSON number): returns it, or throws
// std::invalid_argument saying the accepted range.
double check_duration_s(double seconds);
double check_size_B(double bytes);
double check_positive_size_B(double bytes);
double check_bandwidth_Bps(double bytes_per_s);
double check_positive_bandwidth_Bps(double bytes_per_s);
double check_frequency_Hz(double hz);

// A count or byte size as the tools' option parser reads it (IOR 4.x's string_to_bytes, used by mdtest and
// md-workbench: sscanf " %lld %c "): digits with an optional k, m, g, t or p suffix in either case, powers of 1024
// (4k = 4096), blanks around them; IOR ignores what follows the letter, of which the spellings "16MB" and "16MiB" are
// taken. Returns -1 if `text` is not one (a sign, another letter, which IOR would read as bytes) or has more than
// `max_digits` digits.
double parse_tool_size(const std::string& text, size_t max_digits = 16);

}  // namespace pfsim::units
