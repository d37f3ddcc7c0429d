#pragma once
// Which lanes of a block's warp exist: the block's last warp may have fewer than 32 threads. One
// definition for the device runtime (a group that is its whole warp) and the engine (a warp's live
// lanes when it enters).
#include <stdint.h>

#include "barracuda/record_view.h"

namespace barracuda {

// The lanes of warp `warp` of a block of `block_threads` threads (0 past its last warp).
BARRACUDA_HOST_DEVICE constexpr uint32_t existing_lanes_of_warp(uint32_t block_threads, uint32_t warp) {
  const uint32_t first = warp * kWarpSize;
  if (first >= block_threads) return 0;
  const uint32_t lanes = block_threads - first < kWarpSize ? block_threads - first : kWarpSize;
  return lanes == kWarpSize ? ~0u : (1u << lanes) - 1;
}
// The lowest lane of a non-empty lane mask.
BARRACUDA_HOST_DEVICE constexpr uint32_t lowest_lane(uint32_t lanes) {
  uint32_t lane = 0;
  while (lane < kWarpSize - 1 && !(lanes >> lane & 1u)) ++lane;
  return lane;
}
static_assert(lowest_lane(0x8u) == 3 && lowest_lane(0x80000000u) == 31);

static_assert(existing_lanes_of_warp(64, 1) == ~0u && existing_lanes_of_warp(40, 1) == 0xffu &&
              existing_lanes_of_warp(40, 2) == 0);

}  // namespace barracuda
