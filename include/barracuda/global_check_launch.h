#pragma once
// What a launch whose global memory the device checks (barracuda/global_check.h) tells the device
// runtime (device/global_checker.cuh): one GlobalCheckLaunch per launch slot in device memory, written
// by the host before the launch (runtime/global_shadow.h) and named by LaunchSlot::global_check.
// Shared by device and host code like queue.h: plain fixed-width fields.
//
// Only addresses inside one of the ranges are checked on the device: each range is an allocation the
// launch's arguments point into, with a shadow of one GlobalShadowWord per 4-byte word. Whether an
// address is checked on the device depends on the address alone, so every access to one word in the
// launch goes the same way; the host checks the others.
#include <stddef.h>
#include <stdint.h>

#include "barracuda/global_check.h"

namespace barracuda {

inline constexpr uint32_t kGlobalCheckRanges = 16;
// Site pairs sent per launch (open addressing, 8 probes; a full neighbourhood sends a pair again).
inline constexpr uint32_t kGlobalRaceFilterEntries = 4096;

struct GlobalCheckRange {
  uint64_t begin;   // 4-byte aligned
  uint64_t end;
  uint64_t shadow;  // device address of (end - begin) / 4 GlobalShadowWords
};

struct GlobalCheckLaunch {
  uint32_t tag;            // the stamps' launch tag (never 0)
  uint32_t layout;  // pack_global_stamp_layout() of the launch's GlobalStampLayout
  uint32_t range_count;
  // Set by the device: a thread passed more barriers (or grid syncs) than the layout's interval holds.
  // Read back by the host once the kernel ended (GlobalShadow::saturated): the launch was checked in part.
  uint32_t saturated;
  // Device address of one word per thread of the grid: tag << 48 | kGlobalBarrierToldBit | barriers
  // the thread passed (an entry of another tag counts as 0, so the host never clears it). The count
  // goes on past what the stamps' interval bits hold (up to 2^32 - 1): kBarriersPassed needs it.
  uint64_t barriers;
  // Device address of kGlobalRaceFilterEntries words: global_race_filter_key()s of the pairs sent.
  uint64_t race_filter;
  // Device address of kBlockBarrierWords words per block of the grid: the block's packed
  // BlockBarrierState and its pending barrier's site (barracuda/barrier_count.h), read when the
  // launch counts its barriers (kLaunchCountsBarriers), and its grid syncs (BlockGridSyncs), where
  // the layout has grid bits. Words of another tag are a block's start: never cleared.
  uint64_t block_barriers;
  GlobalCheckRange ranges[kGlobalCheckRanges];
};
static_assert(sizeof(GlobalCheckRange) == 24 && sizeof(GlobalCheckLaunch) == 40 + 24 * kGlobalCheckRanges &&
                  offsetof(GlobalCheckLaunch, barriers) == 16 && offsetof(GlobalCheckLaunch, block_barriers) == 32 &&
                  offsetof(GlobalCheckLaunch, ranges) == 40,
              "layout is shared by the host and the device runtime");

inline constexpr uint32_t kGlobalBarrierCountBits = 48;
// In a thread's barrier word: the host was sent its count (kBarriersPassed); the next barrier clears it.
inline constexpr uint64_t kGlobalBarrierToldBit = uint64_t{1} << 47;
inline constexpr uint32_t kBlockBarrierWords = 3;  // per block: state, pending site, grid syncs
inline constexpr uint32_t kBlockGridSyncsWord = 2;
static_assert(kGlobalMaxGridBits <= 16, "BlockGridSyncs keeps 16 bits of grid syncs");

// A block's grid syncs (src/ptx/passes/grid_syncs.h) in a launch whose layout has grid bits: how many
// it passed, and the block-barrier count its threads have right after the last (the grid sync ends
// with a block barrier), from which their barriers within the grid interval count. Thread 0 of the
// block writes it at its arrival; the other threads read it after the grid sync's closing barrier.
// Past the layout's largest grid interval it no longer changes (the barriers then count on).
struct BlockGridSyncs {
  uint32_t syncs;
  uint32_t base;
};
constexpr uint64_t pack_block_grid_syncs(uint32_t tag, BlockGridSyncs syncs) {
  return uint64_t{tag & 0xffffu} << 48 | uint64_t{syncs.syncs & 0xffffu} << 32 | syncs.base;
}
// A word of another tag: the block passed none yet in this launch.
constexpr BlockGridSyncs unpack_block_grid_syncs(uint64_t word, uint32_t tag) {
  if (word >> 48 != (tag & 0xffffu)) return {0, 0};
  return {static_cast<uint32_t>(word >> 32 & 0xffffu), static_cast<uint32_t>(word)};
}

// A race pair as the filter stores it: the launch tag (entries of other tags are free), the two sites
// (sorted), the hazard and the race class the host's RaceLog deduplicates on (0 intra-warp, 1
// inter-warp, 2 inter-block), and whether the device found the two stores' values the same: a pair of
// different values is sent even after a same-value pair of the same sites (warps of one block setting
// a word to their block's number, blocks to different numbers), else the race was only a warning.
constexpr uint64_t global_race_filter_key(uint32_t tag, uint32_t first_site, uint32_t second_site, Hazard hazard,
                                          uint32_t race_class, bool same_value) {
  const uint64_t low = first_site < second_site ? first_site : second_site;
  const uint64_t high = first_site < second_site ? second_site : first_site;
  return (uint64_t{1} << 63) | (uint64_t{tag & 0xffffu} << 47) | (uint64_t{same_value} << 46) |
         (uint64_t{race_class & 0x3u} << 44) |
         (uint64_t{static_cast<uint8_t>(hazard) & 0x3u} << 42) | (low & ((1u << kGlobalSiteBits) - 1)) |
         ((high & ((1u << kGlobalSiteBits) - 1)) << kGlobalSiteBits);
}
constexpr uint32_t global_race_filter_tag(uint64_t key) { return static_cast<uint32_t>(key >> 47) & 0xffffu; }

}  // namespace barracuda
