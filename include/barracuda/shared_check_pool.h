#pragma once
// The shadow pool of device shared-memory checking (barracuda/shared_check.h): device memory the
// host allocates with the queues and points the producer header at (queue.h, shared_pool*), carved
// by the device runtime (device/shared_checker.cuh) into one slot per resident block. Shared by
// device and host code like queue.h: plain fixed-width fields.
//
//   offset 0                                 the race filter: kSharedRaceFilterEntries words, zeroed by
//                                            the host before each launch (a race the device sent once
//                                            in the launch is not sent again)
//   shared_pool_rows_offset() + r * row_bytes   the row of SM id r: SharedPoolRow, then its slots
//   a slot (shared_slot_bytes())             u32 epoch (first epoch + barriers passed), by block-linear
//                                            thread; then one SharedShadowWord per 4-byte word of the
//                                            block's shared memory
//
// A block's first warp to start claims a free slot of its SM's row under the row's lock; its other
// warps find it by the block's key; the warp that counts the block's last thread out frees it. A
// block that finds its SM id past the rows, or whose slot index is past what the row holds for this
// launch's slot size, is checked on the host, all of it (every warp of a block sees the same).
// Epochs only grow on a row (a block starts at the row's clock, which a leaving block moves past its
// last epoch), so whatever an earlier block left in a slot's memory is older than any epoch of the
// block there now, and the shadow is never cleared. An epoch is 32 bits: a row wraps after 2^32
// barrier intervals of its blocks.
#include <stddef.h>
#include <stdint.h>

#include "barracuda/shared_check.h"

namespace barracuda {

inline constexpr uint32_t kSharedSlotsPerRow = 32;  // resident blocks per SM: at most 32 on sm_90
inline constexpr uint32_t kWarpSlotsPerRow = 64;    // resident warps per SM (%warpid below 64)
inline constexpr uint32_t kSharedRaceFilterEntries = 4096;
inline constexpr uint64_t kSharedPoolRowBytes = 3u << 20;  // the shadow of 228 KiB of shared memory, and more
// The shadow covers %total_smem_size plus this much: the hardware's reserved shared memory may sit
// below the application's variables in the window.
inline constexpr uint32_t kSharedWindowSlackBytes = 1024;

struct SharedPoolRow {
  uint32_t lock;  // 1 while a warp claims or looks up a slot
  // Past every epoch a block that left the row used: where a claiming block starts. One clock for the
  // row, not one per slot, because slots are laid out per launch (their size follows the kernel's
  // shared memory) and a slot's memory may have held another slot index's shadow in an earlier launch.
  uint32_t epoch_clock;
  uint64_t owner[kSharedSlotsPerRow];  // shared_block_key() of the block on each slot; 0: free
  uint32_t first_epoch[kSharedSlotsPerRow];  // the epoch of the owner's first barrier interval
  uint32_t exited_threads[kSharedSlotsPerRow];
  uint32_t last_interval[kSharedSlotsPerRow];  // most barriers a thread of the owner passed
  uint64_t warp_slot[kWarpSlotsPerRow];  // by %warpid: the warp's block key | slot index << 48 (6 bits)
};
static_assert(sizeof(SharedPoolRow) == 8 + 8 * 32 + 4 * 3 * 32 + 8 * 64 && offsetof(SharedPoolRow, owner) == 8 &&
                  offsetof(SharedPoolRow, warp_slot) % 8 == 0,
              "layout is shared by the host (which sizes the pool) and the device runtime");

// Identifies a block of a launch (the launch id keeps a warp from taking an entry another launch's
// warp left in warp_slot for its own block).
constexpr uint64_t shared_block_key(uint32_t launch_id, uint32_t block_id) {
  return (uint64_t{1} << 63) | (uint64_t{launch_id & 0xffffu} << 32) | block_id;
}
constexpr uint64_t kSharedBlockKeyMask = (uint64_t{1} << 48) - 1 + (uint64_t{1} << 63);

constexpr uint64_t shared_pool_rows_offset() { return uint64_t{kSharedRaceFilterEntries} * sizeof(uint64_t); }
constexpr uint64_t shared_pool_bytes(uint32_t rows, uint64_t row_bytes) {
  return shared_pool_rows_offset() + rows * row_bytes;
}
constexpr uint64_t shared_slot_bytes(uint32_t padded_threads, uint32_t shared_bytes) {
  return ((uint64_t{padded_threads} * 4 + 31) & ~uint64_t{31}) + uint64_t{(shared_bytes + 3) / 4} * sizeof(SharedShadowWord);
}
// Where slot `index` of a row starts, from the row, in a launch whose slots are `slot_bytes` long; 0
// when the row holds no shadow for it (the block is checked on the host). Computed, not stored: the
// claiming warp and every lookup of an access derive the same offset from the launch (one load fewer
// on the path of every checked access).
// Multiplied, not divided: a 64-bit division is a call on the GPU, which the logging entry points must
// not make from divergent code (tests/device/runtime_convergence_barrier_test.cpp).
constexpr uint64_t shared_slot_offset(uint64_t row_bytes, uint64_t slot_bytes, uint32_t index) {
  const uint64_t offset = sizeof(SharedPoolRow) + index * slot_bytes;
  return index < kSharedSlotsPerRow && offset + slot_bytes <= row_bytes ? offset : 0;
}
static_assert(shared_slot_offset(sizeof(SharedPoolRow) + 300, 100, 2) == sizeof(SharedPoolRow) + 200 &&
              shared_slot_offset(sizeof(SharedPoolRow) + 299, 100, 2) == 0 &&
              shared_slot_offset(uint64_t{1} << 30, 100, kSharedSlotsPerRow) == 0);

// A race pair as the filter stores it: the two sites (sorted), the hazard and whether the two threads
// share a warp, which is what the host's RaceLog deduplicates on (with the kernel: one launch), and
// whether the device found the two stores' values the same (a pair of different values is sent even
// after a same-value pair of the same sites).
constexpr uint64_t shared_race_filter_key(uint32_t first_site, uint32_t second_site, Hazard hazard,
                                          bool intra_warp, bool same_value) {
  const uint64_t low = first_site < second_site ? first_site : second_site;
  const uint64_t high = first_site < second_site ? second_site : first_site;
  return (uint64_t{1} << 63) | (low & (kSharedCheckMaxSites - 1)) |
         ((high & (kSharedCheckMaxSites - 1)) << kSharedCheckSiteBits) |
         (uint64_t{static_cast<uint8_t>(hazard)} << 44) | (uint64_t{intra_warp} << 46) | (uint64_t{same_value} << 47);
}

}  // namespace barracuda
