#pragma once
// Dynamic parallelism: what the parent, its child grids, the device runtime and the engine share
// (docs/dynamic_parallelism.md). A kernel launched from the device runs an instrumented copy with one
// more parameter, the child token: the launch slot the child logs into and its first block id. The
// parent's launching thread claims the child's block ids from its slot (LaunchSlot::next_block) and
// writes the token into the child's parameter buffer; every warp of the child logs a kChildEntry
// record, and its blocks' ids follow the host-launched grid's, so one engine launch holds the parent
// and all its descendants.
#include <stdint.h>

#include "barracuda/sync_bucket.h"

namespace barracuda {

// The parameter the child copies get (last, 8-byte aligned) and the prefix of their names (not
// "__barracuda_": the passes leave the runtime's own functions alone, and these are instrumented;
// their sites name the kernel without it).
#define BARRACUDA_CHILD_TOKEN_PARAMETER "__barracuda_child_token"
#define BARRACUDA_CHILD_KERNEL_PREFIX "__launched_from_device_"

// token: kChildTokenMagic in bits 48-63, the first block id in bits 8-39, the launch slot in bits 0-7.
// 0 (or anything without the magic): the child logs nothing (its parent was not logged).
inline constexpr uint64_t kChildTokenMagic = 0xBC0Dull;
constexpr uint64_t child_token(uint32_t slot, uint32_t first_block) {
  return kChildTokenMagic << 48 | uint64_t{first_block} << 8 | (slot & 0xffu);
}
constexpr bool is_child_token(uint64_t token) { return token >> 48 == kChildTokenMagic; }
constexpr uint32_t child_token_slot(uint64_t token) { return static_cast<uint32_t>(token & 0xffu); }
constexpr uint32_t child_token_first_block(uint64_t token) { return static_cast<uint32_t>(token >> 8); }

// A kDeviceLaunch's first block when the launch had no block ids left for the child (2^22 blocks, at
// 1024 thread ids each, fill the engine's 32-bit thread ids): the child runs unchecked.
inline constexpr uint32_t kUncheckedChildGrid = 0xffffffffu;
inline constexpr uint32_t kChildBlockIdLimit = 1u << 22;

// Device-side stream handles with a meaning of their own (cuda_device_runtime_api.h: cudaStreamTailLaunch,
// cudaStreamFireAndForget); 0 is the launching block's NULL stream; anything else a named stream.
inline constexpr uint64_t kDeviceStreamTailLaunch = 3;
inline constexpr uint64_t kDeviceStreamFireAndForget = 4;

enum class DeviceStreamKind : uint8_t {
  kBlockNull,      // the launching block's NULL stream: its grids run one after the other
  kNamed,          // a stream the block created: likewise
  kTailLaunch,     // after the launching grid (modelled: after the launching thread and earlier tail launches)
  kFireAndForget,  // unordered with every other grid
};
constexpr DeviceStreamKind device_stream_kind(uint64_t stream) {
  return stream == 0                            ? DeviceStreamKind::kBlockNull
         : stream == kDeviceStreamTailLaunch    ? DeviceStreamKind::kTailLaunch
         : stream == kDeviceStreamFireAndForget ? DeviceStreamKind::kFireAndForget
                                                : DeviceStreamKind::kNamed;
}

// The words of a kChildEntry record's kDelta32 payload (record_ops.inc).
enum ChildGridWord : uint32_t {
  kChildGridFirstBlock = 0,
  kChildGridDimX = 1,
  kChildGridDimY = 2,
  kChildGridDimZ = 3,
  kChildBlockDimX = 4,
  kChildBlockDimY = 5,
  kChildBlockDimZ = 6,
  kChildGridWords = 7,
};

struct ChildGridShape {
  uint32_t first_block;
  uint32_t grid[3];
  uint32_t block[3];
};

// The one location bucket all dynamic-parallelism records take their sync tickets in: a launch, its
// child's entries and the exits of grids before it in a stream are then applied in the GPU's order.
inline constexpr uint32_t kDeviceLaunchBucket = 0;

}  // namespace barracuda
