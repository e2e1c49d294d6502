// splitmix64: a stateless, platform-independent 64-bit mix (Steele, Lea, Flood 2014), used wherever the model
// needs a reproducible pseudo-random value keyed by position (think times, load-delay samples, OSS placement).
#pragma once
#include <cstdint>

namespace pfsim {

constexpr uint64_t kGolden64 = 0x9E3779B97F4A7C15ULL;

// The output function alone.
constexpr uint64_t splitmix64_mix(uint64_t z)
{
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// One step of the generator from state x (the value of state x + golden).
constexpr uint64_t splitmix64(uint64_t x) { return splitmix64_mix(x + kGolden64); }

}  // namespace pfsim
