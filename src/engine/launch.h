#pragma once
// What the engine needs to know about a kernel launch and how it is configured.
#include <cstdint>
#include <string>

#include "engine/ids.h"

namespace barracuda::engine {

// How lanes of one warp are ordered with each other.
enum class WarpModel : uint8_t {
  // sm_70+: lanes are independent threads; only bar.warp.sync, block barriers and
  // release/acquire order them. The default.
  kIndependent,
  // BARRACUDA's model: a warp executes in lockstep; each instruction is ordered after the previous
  // one of every active lane; divergent branch paths are unordered until they reconverge.
  kLockstep,
};

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  constexpr uint64_t volume() const { return uint64_t{x} * y * z; }
};

struct LaunchInfo {
  uint16_t launch_id = 0;  // RecordHeader::launch_id of this launch's records
  std::string kernel;
  Dim3 grid;
  Dim3 block;
  Dim3 cluster;  // thread-block cluster shape; 1x1x1 when the launch has no clusters
  uint32_t shared_bytes = 0;  // static + dynamic shared memory per block
  WarpModel warp_model = WarpModel::kIndependent;

  uint32_t warps_per_block() const { return static_cast<uint32_t>((block.volume() + 31) / 32); }
  uint32_t padded_threads_per_block() const { return warps_per_block() * 32; }
  uint32_t block_count() const { return static_cast<uint32_t>(grid.volume()); }
  // Linear cluster index of a block, from its 3-D coordinates and the cluster shape.
  uint32_t cluster_of(BlockId block_id) const;
  // Thread ids of a launch must fit in 32 bits.
  bool fits() const { return grid.volume() * padded_threads_per_block() < (uint64_t{1} << 32); }
};

struct EngineConfig {
  uint32_t workers = 1;  // one per GPU queue; each block's records must always reach the same worker
  uint32_t max_diagnostic_messages = 100;  // malformed-record messages kept per launch (all are counted)
};

}  // namespace barracuda::engine
