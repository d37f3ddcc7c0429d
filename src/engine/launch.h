#pragma once
// What the engine needs to know about a kernel launch and how it is configured.
#include <cstdint>
#include <string>
#include <vector>

#include "barracuda/dim3.h"
#include "barracuda/warp_model.h"
#include "engine/ids.h"

namespace barracuda::engine {

using barracuda::Dim3;

// How a launch is ordered with the application's other launches (runtime/stream_order.h computes it
// from streams, events and host synchronisation). The defaults describe a launch ordered after
// every earlier one and before every later one: no cross-launch state is kept.
struct LaunchOrder {
  LaunchSeq sequence{};
  // Earlier launches that may run concurrently with this one, sorted.
  std::vector<LaunchSeq> concurrent_with;
  // Earlier launches that a later launch may still run concurrently with (concurrent_with among
  // them); the engine forgets the accesses of all others.
  std::vector<LaunchSeq> still_open;
  // Whether a later launch may run concurrently with this one: its global accesses are then kept.
  bool may_overlap_later = false;
};

struct LaunchInfo {
  uint16_t launch_id = 0;  // RecordHeader::launch_id of this launch's records
  DeviceId device{};       // the GPU it ran on
  std::string kernel;
  Dim3 grid;
  Dim3 block;
  Dim3 cluster;  // thread-block cluster shape; 1x1x1 when the launch has no clusters
  uint32_t shared_bytes = 0;  // static + dynamic shared memory per block
  WarpModel warp_model = WarpModel::kIndependent;
  LaunchOrder order;
  // The kernel holds memory instructions the instrumentation does not log (ldmatrix, wmma operands,
  // surfaces, tensor copies): a barrier may order accesses the engine never sees, so none is
  // reported redundant.
  bool unlogged_accesses = false;
  // Global memory [begin, end) whose loads through read-only parameters the device did not log
  // (ptx/passes/read_only_parameters.h): a write landing there may race with loads the engine never
  // saw, so it is counted (EngineStats::writes_into_unlogged_loads) and the launch said not fully checked.
  std::vector<std::pair<uint64_t, uint64_t>> unlogged_load_ranges;
  // The kernel may launch child grids from the device (dynamic parallelism; child_grids.h): their
  // blocks take the ids after the grid's, and every block is given kMaxBlockThreads thread ids, so that
  // a child's blocks of another size fit the same numbering.
  bool launches_child_grids = false;

  static constexpr uint32_t kMaxBlockThreads = 1024;
  uint32_t warps_per_block() const { return static_cast<uint32_t>((block.volume() + 31) / 32); }
  uint32_t padded_threads_per_block() const {
    return launches_child_grids ? kMaxBlockThreads : warps_per_block() * 32;
  }
  uint32_t block_count() const { return static_cast<uint32_t>(grid.volume()); }
  // Linear cluster index of a block, from its 3-D coordinates and the cluster shape (a child grid's
  // block: its own id, the block being its own cluster).
  uint32_t cluster_of(BlockId block_id) const;
  // Thread ids of a launch must fit in 32 bits.
  bool fits() const { return grid.volume() * padded_threads_per_block() < (uint64_t{1} << 32); }
};

struct EngineConfig {
  uint32_t workers = 1;  // one per GPU queue; each block's records must always reach the same worker
};

}  // namespace barracuda::engine
