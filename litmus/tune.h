#pragma once
// Stress parameters and the grid `barracuda-litmus --tune` searches (Sorensen & Donaldson tune theirs per
// chip: the setting that exposes weak behaviour best differs between GPUs). Host-only.

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace litmus {

inline constexpr uint32_t kMaxSpreadWords = 64;  // the litmus memory is sized for this spread

struct StressSetting {
  uint32_t lines = 64;          // scratchpad lines (128 bytes) the stressing threads hammer
  uint32_t iterations = 256;    // store+load pairs per stressing thread
  uint32_t spread_words = 32;   // distance between two litmus locations (32: one line each)
  int stress_blocks = -1;       // blocks beyond the test blocks that only stress; -1: one per SM
};

// The command-line form, as barracuda-litmus parses it (run.sh passes the tuned setting back this way).
inline std::string setting_arguments(const StressSetting& s) {
  return "--stress-lines " + std::to_string(s.lines) + " --stress-iterations " + std::to_string(s.iterations) +
         " --location-spread " + std::to_string(s.spread_words) + " --stress-blocks " +
         std::to_string(s.stress_blocks);
}

// Every combination of a few values per parameter, from light to heavy; stressing block counts from
// none to as many as can be co-resident with the test blocks (`max_stress_blocks`).
inline std::vector<StressSetting> tuning_grid(int sms, int max_stress_blocks) {
  std::vector<int> block_counts;
  for (int b : {0, sms / 2, sms, max_stress_blocks}) {
    b = std::clamp(b, 0, max_stress_blocks);
    if (std::find(block_counts.begin(), block_counts.end(), b) == block_counts.end()) block_counts.push_back(b);
  }
  std::vector<StressSetting> grid;
  for (uint32_t lines : {1u, 4u, 16u, 64u, 256u}) {
    for (uint32_t iterations : {16u, 64u, 256u, 1024u}) {
      for (uint32_t spread : {1u, 8u, 32u, kMaxSpreadWords}) {
        for (int blocks : block_counts) grid.push_back({lines, iterations, spread, blocks});
      }
    }
  }
  return grid;
}

}  // namespace litmus
