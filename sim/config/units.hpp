// Unit strings accepted in configuration files, converted once on reading.
#pragma once
#include <string>

namespace pfsim::units {

// Durations: "24us", "1.5ms", "2s", "1min", "100ns"; a bare number is seconds.
double parse_duration_s(const std::string& text);
// Sizes: "4KiB", "1MiB", "3900B", "1GB" (SI, 1000-based), "1GiB" (1024-based); a bare number is bytes.
double parse_size_B(const std::string& text);
// Bandwidths: "10Gbps" (bits), "1.25GBps" / "1GiBps" (bytes), "500MBps"; a bare number is bytes/s.
double parse_bandwidth_Bps(const std::string& text);
// Frequencies / CPU speeds: "2.4GHz", "1e9Hz", "1Gf" (flop/s); a bare number is Hz.
double parse_frequency_Hz(const std::string& text);

}  // namespace pfsim::units
