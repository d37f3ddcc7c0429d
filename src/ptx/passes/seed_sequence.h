#pragma once
// The numbers a pass draws from an option's seed (block_order's bijections, perturb's delay points):
// SplitMix64, so every seed gives another, reproducible sequence.
#include <cstdint>

namespace barracuda::ptx::passes {

inline uint64_t split_mix(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

}  // namespace barracuda::ptx::passes
